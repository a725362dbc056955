/**
 * The CLI's manners (issue 43): `lab --version` / `-V` / `lab version`, `lab run --help` with the
 * scenarios and examples, a bare address for `--admin-cidr`, and one problem per mistake.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { commitOf, versionText } from "../../../lab/cli/version";
import { asOptionProblems } from "../../../lab/run/prepare";
import { asCidr, keptCostLines, realRunNeeds } from "../../../lab/run/needs";
import { ROOT } from "../../helpers/root";

const lab = (...args: string[]) => spawnSync(process.execPath, [path.join(ROOT, "bin/lab.js"), ...args], { cwd: ROOT, encoding: "utf8" });
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8" }).trim();

describe("lab --version", () => {
  const pulumiSdk = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;

  test("--version, -V and version print the version, the commit, the Node and the Pulumi SDK; exit 0", () => {
    const want = [`lab 0.1.0`, `commit ${commitOf(ROOT)}`, `node ${process.version}`, `@pulumi/pulumi ${pulumiSdk}`, ""].join("\n");
    for (const a of ["--version", "-V", "version"]) expect([a, lab(a).status, lab(a).stdout]).toEqual([a, 0, want]);
  });

  test("the commit: 12 hex digits of HEAD, marked when tracked files are modified; none outside a checkout", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-version-"));
    try {
      expect(commitOf(dir)).toBe("unknown (not a git checkout, or no git)");
      git(dir, "init", "-q");
      fs.writeFileSync(path.join(dir, "a"), "1");
      git(dir, "add", "a");
      git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "a");
      const sha = git(dir, "rev-parse", "HEAD").slice(0, 12);
      expect(commitOf(dir)).toBe(sha);
      fs.writeFileSync(path.join(dir, "b"), "untracked"); // not the checkout's state
      expect(commitOf(dir)).toBe(sha);
      fs.writeFileSync(path.join(dir, "a"), "2");
      expect(commitOf(dir)).toBe(`${sha} (modified)`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(versionText(ROOT, "v1.2.3").split("\n")[2]).toBe("node v1.2.3");
  });
});

describe("lab run --help", () => {
  test("lists the three scenarios with their stacks, and two examples", () => {
    const r = lab("run", "--help");
    expect(r.status).toBe(0);
    const out = r.stdout.trimEnd().split("\n");
    expect(out.slice(out.indexOf("Scenarios:"))).toEqual([
      "Scenarios:",
      "  fsx-eks     FSx for ONTAP on EKS (stacks network, fsx-eks-ontap, fsx-eks-cluster, fsx-eks)",
      "  kafka-fsx   Kafka on FSx for ONTAP (stacks network, kafka-ontap, kafka-cluster, kafka)",
      "  ceph-nitro  Ceph (Rook) on k0s (stacks network, dev, nitro, compare)",
      "",
      "Examples:",
      "  lab run ceph-nitro --dry-run                # offline: the schedule, the critical path, the cost, what the real run needs",
      "  lab run ceph-nitro --admin-cidr auto        # on AWS: up, benchmark, save, report, destroy",
    ]);
  });
});

describe("one problem per mistake, under the option typed", () => {
  test("a bare IPv4 address is a /32; anything else stays as given (its own check judges it)", () => {
    expect(asCidr("1.2.3.4")).toBe("1.2.3.4/32");
    expect(asCidr("1.2.3.0/24")).toBe("1.2.3.0/24");
    expect(asCidr("auto")).toBe("auto");
    expect(asCidr("1.2.3")).toBe("1.2.3");
  });

  test("stack problems of an option's key become one problem of the option; consequences dropped only when nothing else is wrong", () => {
    const opts = { "lab:adminCidrs": "--admin-cidr", "lab:runId": "--run-id" };
    expect(
      asOptionProblems(
        [
          "stack dev: 'lab:adminCidrs[0]' must be an IPv4 network CIDR, got \"1.2.3.4/24\"",
          "stack nitro: 'lab:adminCidrs[0]' must be an IPv4 network CIDR, got \"1.2.3.4/24\"",
          "stack compare: not planned further: its upstream dev, nitro has problems",
        ],
        opts,
      ),
    ).toEqual(["'--admin-cidr' must be an IPv4 network CIDR, got \"1.2.3.4/24\""]);
    expect(
      asOptionProblems(
        ["stack dev: 'lab:runId' must be short, got \"x\"", "stack dev: 'lab:reps' must be at least 1, got 0", "stack compare: not planned further: its upstream dev has problems"],
        opts,
      ),
    ).toEqual(["'--run-id' must be short, got \"x\"", "stack dev: 'lab:reps' must be at least 1, got 0", "stack compare: not planned further: its upstream dev has problems"]);
    // a key no option set stays the stack's
    expect(asOptionProblems(["stack dev: 'lab:adminCidrs[0]' must be x, got y"], {})).toEqual(["stack dev: 'lab:adminCidrs[0]' must be x, got y"]);
  });

  test("what the real run needs: auto, the placeholder, the tools per stack", () => {
    const k0s = { name: "dev", kind: "ceph-k0s", config: { "lab:kind": "ceph-k0s", "lab:adminCidrs": '["198.51.100.7/32"]' }, needsDocker: false };
    const eks = { name: "c", kind: "eks", config: { "lab:kind": "eks", "lab:adminCidrs": '["10.1.2.3/32"]' }, needsDocker: true };
    expect(realRunNeeds([k0s], "auto")[1]).toBe("  admin address: this machine's public address as a /32 (--admin-cidr auto), looked up when the run starts");
    expect(realRunNeeds([k0s, eks], undefined)).toEqual([
      "what the real run needs (its preflight checks them all before anything is created):",
      "  --admin-cidr <your address>/32 or --admin-cidr auto: dev holds a documentation placeholder (RFC 5737), which the run refuses",
      "  the Pulumi CLI 3.58.0 or newer, logged in; the AWS CLI with credentials for the account",
      "  kubectl on the PATH: dev, c",
      "  k0sctl on the PATH: dev",
      "  a running Docker daemon: c builds images on this machine",
    ]);
    expect(keptCostLines([{ stack: "a", usdPerHour: 0.5 }, { stack: "b", usdPerHour: 0.25 }])).toEqual([
      "--keep: after a successful run the stacks stay and go on billing: $0.7500/h ($18.00 a day) for a, b, until pulumi destroy or lab janitor (past lab:ttlHours)",
    ]);
  });
});
