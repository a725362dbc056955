/** The `lab` CLI as a user runs it (a child process: exit codes and stderr are the contract). */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const lab = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, "bin", "lab.js"), ...args], { cwd: ROOT, encoding: "utf8" });

describe("lab plan (CLI)", () => {
  test("--stack network --json: the VPC, 2 private subnets in 2 AZs, 2 private route tables, tags via the provider", () => {
    const r = lab("plan", "--stack", "network", "--json");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.stack).toBe("network");
    expect(doc.kind).toBe("network");
    const of = (t: string) => doc.resources.filter((x: { type: string }) => x.type === t);
    expect(of("aws:ec2/vpc:Vpc")).toHaveLength(1);
    const priv = of("aws:ec2/subnet:Subnet").filter((s: { name: string }) => s.name.includes("private"));
    expect(new Set(priv.map((s: { inputs: { availabilityZone: string } }) => s.inputs.availabilityZone))).toEqual(
      new Set(["us-east-1a", "us-east-1b"]),
    );
    expect(of("aws:ec2/routeTable:RouteTable").filter((t: { name: string }) => t.name.includes("private"))).toHaveLength(2);
    const tags = JSON.parse(of("pulumi:providers:aws")[0].inputs.defaultTags).tags;
    expect(tags).toEqual({
      "lab:project": "storage-bench-lab",
      "lab:stack": "network",
      "lab:kind": "network",
      "lab:owner": "storage-bench-lab",
    });
    // The expiry is the stack output expiresAt (first deploy + lab:ttlHours 8), not a tag.
    expect(doc.outputs.expiresAt).toBe("2026-01-01T08:00:00Z");
  });

  test("--stack network --first-preview --json: new resources' outputs unknown, the provider's config known, zones answered", () => {
    const r = lab("plan", "--stack", "network", "--first-preview", "--json");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    const [provider] = doc.resources.filter((x: { type: string }) => x.type === "pulumi:providers:aws");
    expect(JSON.stringify(provider.inputs)).not.toContain("<computed>");
    const subnets = doc.resources.filter((x: { type: string }) => x.type === "aws:ec2/subnet:Subnet");
    // Zones come from getAvailabilityZones through that provider; the VPC's id is unknown until it exists.
    expect(
      subnets.map((s: { inputs: { availabilityZone: string; vpcId: string } }) => [s.inputs.availabilityZone, s.inputs.vpcId]),
    ).toEqual([
      ["us-east-1a", "<computed>"],
      ["us-east-1b", "<computed>"],
      ["us-east-1a", "<computed>"],
      ["us-east-1b", "<computed>"],
    ]);
    expect(doc.outputs).toEqual({
      vpcId: "<computed>",
      vpcCidr: "10.0.0.0/16",
      azs: ["us-east-1a", "us-east-1b"],
      azIds: ["use1-az1", "use1-az2"],
      publicSubnetIds: "<computed>",
      privateSubnetIds: "<computed>",
      privateRouteTableIds: "<computed>",
      privateSubnetCidrs: ["10.0.0.0/18", "10.0.64.0/18"],
      expiresAt: "<computed>",
    });
  });

  test("--all --first-preview: every shipped stack and scenario plans as its first preview", () => {
    const r = lab("plan", "--all", "--first-preview");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split("\n").pop()).toMatch(
      /^planned \d+ stack\(s\), \d+ resources, offline \(no cloud calls\), as the first preview of new stacks \(<computed>: unknown until created\)$/,
    );
  });

  test("--show-secrets (as pulumi preview --show-secrets): the cloud-init the controller would get, with a warning on stderr; by default [secret]", () => {
    const userData = (stdout: string) =>
      (JSON.parse(stdout) as { resources: { type: string; name: string; inputs: { userData?: unknown } }[] }).resources.find(
        (x) => x.type === "aws:ec2/instance:Instance" && x.name === "ceph-controller",
      )?.inputs.userData;
    const hidden = lab("plan", "--stack", "dev", "--json");
    expect([hidden.status, hidden.stderr, userData(hidden.stdout)]).toEqual([0, "", "[secret]"]);
    const shown = lab("plan", "--stack", "dev", "--json", "--show-secrets");
    expect([shown.status, shown.stderr]).toEqual([
      0,
      "warning: --show-secrets: secret inputs and outputs are printed in clear (secret config keys stay [secret]: the plan never reads them)\n",
    ]);
    expect(String(userData(shown.stdout))).toMatch(/^#cloud-config\n/);
    expect(shown.stdout).not.toContain('"[secret]"');
    const both = lab("plan", "--stack", "dev", "--show-secrets", "--policy");
    expect([both.status, both.stderr.split("\n").slice(-2)[0]]).toEqual([
      2,
      "'--show-secrets' and '--policy' together: the policy rules judge the plan as a preview shows it, secrets hidden; run them apart",
    ]);
  });

  test("a config error exits 2 with the messages only, no stack trace", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-cli-"));
    const file = path.join(dir, "Pulumi.bad.yaml");
    fs.writeFileSync(
      file,
      "config:\n  aws:region: us-east-1\n  lab:kind: network\n  lab:owner: bob\n  lab:azCount: 4\n  lab:vpcCidr: 10.0.0.0/12\n",
    );
    const r = lab("plan", "--config", file);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "stack bad: 'lab:vpcCidr' must be an IPv4 network CIDR with a prefix from /16 to /24 (e.g. 10.0.0.0/16), got \"10.0.0.0/12\"\n'lab:azCount' must be an integer from 1 to 3, got 4\n",
    );
  });

  test("an unknown kind lists the valid kinds; exit 2", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-cli-"));
    const file = path.join(dir, "Pulumi.k.yaml");
    fs.writeFileSync(file, "config:\n  aws:region: us-east-1\n  lab:kind: nfs\n");
    const r = lab("plan", "--config", file);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^stack k: 'lab:kind' must be one of network(, [a-z0-9-]+)*, got "nfs"\n$/);
  });

  test("--policy checks the planned resources against the lab's rules; the tree carries the cost estimate", () => {
    const r = lab("plan", "--stack", "network", "--policy");
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.slice(-2)).toEqual(["planned 1 stack(s), 30 resources, offline (no cloud calls)", "policy: 43 rules, no violations"]);
    // 2 NAT gateways ($0.045/h), their 2 Elastic IPs ($0.005/h) and the flow logs' KMS key ($1/month): lab/cost/prices.ts
    expect(lines).toContain("  estimated hourly cost: $0.1014/h ($74.00 over 730 h)");
  });

  test("usage errors exit 2", () => {
    expect(lab("plan").status).toBe(2);
    const r = lab("plan", "--stack", "nope");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^no stack 'nope': the shipped stacks are .*network/);
  });
});
