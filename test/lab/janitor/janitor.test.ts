/** lab janitor on a fake workspace: which stacks are expired, their age and cost, the order of destroys, what is kept. */
import type { Deployment, OutputMap, StackSummary, WhoAmIResult } from "@pulumi/pulumi/automation";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { janitorAction } from "../../../lab/cli/janitor";
import { createRunWorkDir } from "../../../lab/run/workdir";
import type { JanitorWorkspace, OpOptions } from "../../../lab/run/workspace";

interface FakeStack {
  expiresAt?: string;
  project?: string;
  created?: string;
  /** Stacks its StackReference resources read (fully qualified). */
  references?: string[];
  resources?: Array<{
    urn: string;
    type: string;
    inputs?: Record<string, unknown>;
    outputs?: Record<string, unknown>;
    dependencies?: string[];
  }>;
}

class FakeJanitor implements JanitorWorkspace {
  readonly destroyed: string[] = [];
  readonly log: string[] = [];
  constructor(
    private readonly stacks: Record<string, FakeStack>,
    private readonly failing: string[] = [],
  ) {}
  async whoAmI(): Promise<WhoAmIResult> {
    return { user: "alice", url: "s3://lab-state" };
  }
  async listStacks(): Promise<StackSummary[]> {
    return Object.keys(this.stacks).map((name) => ({ name, current: false }));
  }
  async stackOutputs(stack: string): Promise<OutputMap> {
    const s = this.stacks[stack];
    return s.expiresAt ? { expiresAt: { value: s.expiresAt, secret: false } } : {};
  }
  async exportStack(stack: string): Promise<Deployment> {
    const s = this.stacks[stack];
    const resources = [
      ...(s.project
        ? [
            {
              urn: `urn:pulumi:${stack}::storage-bench-lab::pulumi:providers:aws::aws`,
              type: "pulumi:providers:aws",
              inputs: { defaultTags: JSON.stringify({ tags: { "lab:project": s.project } }) },
            },
          ]
        : []),
      ...(s.created
        ? [
            {
              urn: `urn:pulumi:${stack}::storage-bench-lab::time:index/static:Static::created-at`,
              type: "time:index/static:Static",
              outputs: { rfc3339: s.created },
            },
          ]
        : []),
      ...(s.references ?? []).map((name) => ({
        urn: `urn:pulumi:${stack}::storage-bench-lab::pulumi:pulumi:StackReference::${name}`,
        type: "pulumi:pulumi:StackReference",
        inputs: { name },
      })),
      ...(s.resources ?? []),
    ];
    return { version: 3, deployment: { resources } };
  }
  async destroyStack(stack: string, _opts: OpOptions): Promise<void> {
    this.log.push(`start ${stack}`);
    await new Promise((r) => setTimeout(r, 10));
    if (this.failing.includes(stack)) throw new Error(`error: deleting VPC: DependencyViolation`);
    this.log.push(`end ${stack}`);
    this.destroyed.push(stack);
  }
}

const NOW = new Date("2030-01-02T12:00:00Z");
const net = (s: string) => [`organization/storage-bench-lab/${s}`];
const nat = {
  urn: "urn:pulumi:x::storage-bench-lab::aws:ec2/natGateway:NatGateway::lab-nat-az1",
  type: "aws:ec2/natGateway:NatGateway",
  inputs: { allocationId: "eipalloc-1" },
};
const eip = { urn: "urn:pulumi:x::storage-bench-lab::aws:ec2/eip:Eip::lab-nat-az1", type: "aws:ec2/eip:Eip", inputs: { domain: "vpc" } };

/** No run work directories unless a test makes some (never the machine's own ~/.storage-bench-lab/runs). */
const NO_WORK_DIRS = path.join(os.tmpdir(), "lab-janitor-no-work-dirs");

function run(
  stacks: Record<string, FakeStack>,
  opts: { yes?: boolean; confirm?: boolean; failing?: string[]; workRoot?: string; runId?: string } = {},
) {
  const ws = new FakeJanitor(stacks, opts.failing);
  const out: string[] = [];
  return janitorAction({ yes: opts.yes, runId: opts.runId }, "/p", {
    workspace: ws,
    now: NOW,
    confirm: async () => opts.confirm === true,
    retry: { attempts: 2, delayMs: 0 },
    write: (s) => out.push(s),
    workRoot: opts.workRoot ?? NO_WORK_DIRS,
  }).then((code) => ({
    code,
    lines: out.join("").trimEnd().split("\n"),
    ws,
  }));
}

const STACKS: Record<string, FakeStack> = {
  "alice-r1-network": {
    expiresAt: "2030-01-02T08:00:00Z",
    project: "storage-bench-lab",
    created: "2030-01-02T00:00:00Z",
    resources: [nat, eip],
  },
  "alice-r1-dev": {
    expiresAt: "2030-01-02T08:00:00Z",
    project: "storage-bench-lab",
    created: "2030-01-02T00:30:00Z",
    references: net("alice-r1-network"),
  },
  "bob-r2-nitro": {
    expiresAt: "2030-01-03T08:00:00Z",
    project: "storage-bench-lab",
    created: "2030-01-02T10:00:00Z",
    references: net("bob-r2-network"),
  },
  "bob-r2-network": { expiresAt: "2030-01-02T09:00:00Z", project: "storage-bench-lab", created: "2030-01-02T01:00:00Z" },
  "other-app": { expiresAt: "2020-01-01T00:00:00Z", project: "someone-else" },
  empty: {},
};

describe("lab janitor", () => {
  test("lists the expired lab stacks with their age and hourly cost; without --yes (and no confirmation) destroys nothing", async () => {
    const r = await run(STACKS);
    expect(r.code).toBe(0);
    expect(r.ws.log).toEqual([]);
    expect(r.lines).toEqual([
      "3 expired lab stack(s):",
      // NAT gateway $0.045/h + its Elastic IP $0.005/h (lab/cost/prices.ts)
      "  alice-r1-network  expired 4h00m00s ago (2030-01-02T08:00:00.000Z)  age 12h00m00s  $0.0500/h",
      "  alice-r1-dev  expired 4h00m00s ago (2030-01-02T08:00:00.000Z)  age 11h30m00s  $0.0000/h",
      "  bob-r2-network  expired 3h00m00s ago (2030-01-02T09:00:00.000Z)  age 11h00m00s  $0.0000/h",
      "  together $0.0500/h",
      "1 lab stack(s) not expired: bob-r2-nitro (until 2030-01-03T08:00:00.000Z)",
      'skipped other-app: its AWS provider\'s lab:project tag is "someone-else", not storage-bench-lab',
      "skipped empty: no expiresAt output and no lab AWS provider in its state (not a lab stack, or nothing deployed)",
      "nothing destroyed (run lab janitor --yes to destroy them)",
    ]);
  });

  test("a bastion holding an Elastic IP is billed for one public address, from the state's dependencies", async () => {
    const u = (t: string, n: string) => `urn:pulumi:b::storage-bench-lab::${t}::${n}`;
    const bastion = {
      urn: u("aws:ec2/instance:Instance", "dev-bastion"),
      type: "aws:ec2/instance:Instance",
      inputs: { instanceType: "m5.xlarge", associatePublicIpAddress: true },
    };
    const address = { urn: u("aws:ec2/eip:Eip", "dev-bastion"), type: "aws:ec2/eip:Eip", inputs: { domain: "vpc" } };
    const association = {
      urn: u("aws:ec2/eipAssociation:EipAssociation", "dev-bastion"),
      type: "aws:ec2/eipAssociation:EipAssociation",
      inputs: {},
      dependencies: [address.urn, bastion.urn],
    };
    const cost = async (resources: NonNullable<FakeStack["resources"]>) =>
      (
        await run({ b: { expiresAt: "2030-01-02T08:00:00Z", project: "storage-bench-lab", created: "2030-01-02T00:00:00Z", resources } })
      ).lines.find((l) => l.startsWith("  b "))!;
    // m5.xlarge $0.192/h + one public IPv4 address $0.005/h (lab/cost/prices.ts); the instance's own address
    // is released when the EIP is associated. Without the association's dependency on the instance: two addresses.
    expect(await cost([bastion, address, association])).toMatch(/ {2}\$0\.1970\/h \(\+1 part\(s\) not priced\)$/);
    expect(await cost([bastion, address, { ...association, dependencies: [address.urn] }])).toMatch(
      / {2}\$0\.2020\/h \(\+1 part\(s\) not priced\)$/,
    );
  });

  test("--yes: dependents first; a stack a live stack depends on is kept (exit 1)", async () => {
    const r = await run(STACKS, { yes: true });
    expect(r.ws.log).toEqual(["start alice-r1-dev", "end alice-r1-dev", "start alice-r1-network", "end alice-r1-network"]);
    expect(r.lines.slice(-6)).toEqual([
      "destroying alice-r1-dev",
      "destroyed alice-r1-dev",
      "destroying alice-r1-network",
      "destroyed alice-r1-network",
      "kept bob-r2-network: not due: bob-r2-nitro depend(s) on it",
      "destroyed 2, failed 0, kept 1",
    ]);
    expect(r.code).toBe(1);
  });

  test("a confirmed prompt destroys; a failed destroy keeps what it depends on and names the command", async () => {
    const r = await run(
      { "alice-r1-network": STACKS["alice-r1-network"], "alice-r1-dev": STACKS["alice-r1-dev"] },
      { confirm: true, failing: ["alice-r1-dev"] },
    );
    expect(r.ws.destroyed).toEqual([]);
    expect(r.lines.slice(-3)).toEqual([
      "kept alice-r1-network: a stack that depends on it was not destroyed",
      "failed alice-r1-dev: error: deleting VPC: DependencyViolation (finish with: pulumi destroy --yes --remove --stack alice-r1-dev)",
      "destroyed 0, failed 1, kept 1",
    ]);
    expect(r.code).toBe(1);
  });

  describe("run work directories left on this machine", () => {
    let root: string;
    let project: string;
    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-runs-"));
      project = fs.mkdtempSync(path.join(os.tmpdir(), "lab-project-"));
      fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: storage-bench-lab\nruntime: nodejs\n");
      // run r1's directory holds its two stacks' config files (as `pulumi config set-all` writes them); r9's stack is gone
      const r1 = createRunWorkDir(project, "ceph-nitro", "r1", root);
      for (const st of ["alice-r1-network", "alice-r1-dev"]) fs.writeFileSync(path.join(r1, `Pulumi.${st}.yaml`), "config: {}\n");
      const r9 = createRunWorkDir(project, "kafka-fsx", "r9", root);
      fs.writeFileSync(path.join(r9, "Pulumi.alice-r9-kafka.yaml"), "config: {}\n");
      fs.mkdirSync(path.join(root, "not-a-run"));
    });
    afterEach(() => {
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(project, { recursive: true, force: true });
    });
    const r1Stacks = { "alice-r1-network": STACKS["alice-r1-network"], "alice-r1-dev": STACKS["alice-r1-dev"] };

    test("listed with the stacks of their run that remain; nothing removed unasked", async () => {
      const r = await run(r1Stacks, { workRoot: root });
      expect(r.lines.slice(-3)).toEqual([
        "2 run work directories on this machine (a run removes its own once none of its stacks is left):",
        `  ${root}/ceph-nitro-r1: 2 stack(s) of its run remain (alice-r1-dev, alice-r1-network): destroy them from there, or with lab janitor`,
        `  ${root}/kafka-fsx-r9: no stack of its run is left (lab janitor --yes removes it)`,
      ]);
      expect(fs.readdirSync(root).sort()).toEqual(["ceph-nitro-r1", "kafka-fsx-r9", "not-a-run"]);
    });

    test("--yes: a directory whose stacks are all destroyed goes with them, the link unlinked and never followed", async () => {
      const r = await run(r1Stacks, { workRoot: root, yes: true });
      expect(r.code).toBe(0);
      expect(r.lines.slice(-2)).toEqual([
        `removed work directory ${root}/ceph-nitro-r1 (no stack of its run is left)`,
        `removed work directory ${root}/kafka-fsx-r9 (no stack of its run is left)`,
      ]);
      expect(fs.readdirSync(root)).toEqual(["not-a-run"]);
      // the project the links pointed at is untouched
      expect(fs.readdirSync(project)).toEqual(["Pulumi.yaml"]);
    });

    test("a directory whose stack could not be destroyed stays", async () => {
      const r = await run(r1Stacks, { workRoot: root, yes: true, failing: ["alice-r1-dev"] });
      expect(r.code).toBe(1);
      expect(fs.readdirSync(root).sort()).toEqual(["ceph-nitro-r1", "not-a-run"]);
      expect(r.lines).toContain(
        `  ${root}/ceph-nitro-r1: 2 stack(s) of its run remain (alice-r1-dev, alice-r1-network): destroy them from there, or with lab janitor`,
      );
    });
  });
});
