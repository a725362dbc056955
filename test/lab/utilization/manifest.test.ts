/**
 * lab/utilization/manifest.ts: a run's manifest taken from the stacks' config and state (exports made
 * from the real `dev` and `network` programs, test/lab/utilization/support.ts), the project's git checkout
 * (a real repository in a temporary directory) and components/versions.ts; written into the run
 * directory and every sample by lab/results/files.ts.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as versions from "../../../components/versions";
import { hashConfig, hashedConfig, manifestMetadata } from "../../../core/manifest";
import type { StackPlan } from "../../../lab/plan/run";
import { readRunResults, writeRunResults } from "../../../lab/results/files";
import {
  gitState,
  MANIFEST_FILE,
  pinnedVersions,
  readManifestFile,
  shortName,
  takeManifest,
  type StackSource,
} from "../../../lab/utilization/manifest";
import { resourcesOf, utilTargets } from "../../../lab/utilization/state";
import { configOf, exportOf, planShipped } from "./support";
import { asNobody, runsAsRoot } from "../../helpers/nobody";

let plans: Map<string, StackPlan>;
beforeAll(async () => {
  plans = await planShipped(["network", "dev"]);
}, 120000);

const GIT = { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false };
const NOW = new Date("2026-01-15T10:30:00Z");

function source(calls: string[] = []): StackSource {
  const dev = plans.get("dev")!;
  const net = plans.get("network")!;
  const instances = dev.resources.filter((r) => r.type === "aws:ec2/instance:Instance").map((r) => r.name);
  const devExtra = Object.fromEntries(instances.map((n) => [n, { availabilityZone: "us-east-1a" }]));
  const netExtra = { "lab-private-az1": { availabilityZoneId: "use1-az6" }, "lab-private-az2": { availabilityZoneId: "use1-az1" } };
  const byName: Record<string, StackPlan> = { "organization/storage-bench-lab/dev": dev, "organization/storage-bench-lab/network": net };
  return {
    config: (s) => {
      calls.push(`config ${s}`);
      if (!byName[s]) throw new Error(`no stack ${s}`);
      return configOf(byName[s]);
    },
    exportStack: (s) => {
      calls.push(`export ${s}`);
      return exportOf(byName[s], s.endsWith("/dev") ? devExtra : netExtra);
    },
  };
}

describe("takeManifest", () => {
  it("dev and the network it reads: every field from the configs, the states, git and the pins", () => {
    const calls: string[] = [];
    const m = takeManifest("organization/storage-bench-lab/dev", source(calls), {
      root: "/nonexistent",
      git: GIT,
      now: NOW,
      command: "lab results save --stack organization/storage-bench-lab/dev",
    });
    expect(calls).toEqual([
      "config organization/storage-bench-lab/dev",
      "export organization/storage-bench-lab/dev",
      "config organization/storage-bench-lab/network",
      "export organization/storage-bench-lab/network",
    ]);
    const dev = plans.get("dev")!;
    const net = plans.get("network")!;
    const ami = m.manifest.stacks.dev.amiIds;
    expect(ami).toHaveLength(1);
    expect(m.manifest).toEqual({
      schema: 1,
      git: GIT,
      versions: pinnedVersions(),
      region: "us-east-1",
      stacks: {
        dev: {
          kind: "ceph-k0s",
          configHash: hashConfig(configOf(dev)),
          azs: ["us-east-1a"],
          azIds: ["use1-az6"],
          amiIds: ami,
          instanceTypes: ["m4.xlarge", "t3.micro"],
          images: ["docker.io/library/postgres:17.11-bookworm"],
        },
        network: { kind: "network", configHash: hashConfig(configOf(net)), azs: [], azIds: [], amiIds: [], instanceTypes: [], images: [] },
      },
      command: "lab results save --stack organization/storage-bench-lab/dev",
      createdAt: "2026-01-15T10:30:00.000Z",
    });
    expect(m.configs).toEqual({ dev: hashedConfig(configOf(dev)), network: hashedConfig(configOf(net)) });
    expect(m.configs.dev["lab:instanceType"]).toBe("m4.xlarge");
    expect(m.configs.dev["lab:networkStack"]).toBeUndefined();
    expect(m.resources).toEqual(utilTargets(resourcesOf("dev", source().exportStack("organization/storage-bench-lab/dev"))));
    expect(m.resources.map((r) => r.resource)).toContain("osd-2");
  });

  it("names stacks through nameOf (a `lab run` stack by its scenario name), and fails on a stack it cannot read", () => {
    const m = takeManifest("organization/storage-bench-lab/dev", source(), {
      root: "/",
      git: GIT,
      now: NOW,
      command: "x",
      nameOf: (s) => `run-${shortName(s)}`,
    });
    expect(Object.keys(m.manifest.stacks)).toEqual(["run-dev", "run-network"]);
    expect(() => takeManifest("organization/storage-bench-lab/nope", source(), { root: "/", git: GIT })).toThrow(
      "no stack organization/storage-bench-lab/nope",
    );
  });

  it("records the command line as typed, quoting what a shell would split", () => {
    const argv = process.argv;
    process.argv = [
      "/usr/bin/node",
      "/work/bin/lab.js",
      "results",
      "save",
      "--stack",
      "org/storage-bench-lab/dev",
      "--dir",
      "my results",
      "it's",
    ];
    try {
      const m = takeManifest("organization/storage-bench-lab/dev", source(), { root: "/", git: GIT, now: NOW });
      expect(m.manifest.command).toBe("/work/bin/lab.js results save --stack org/storage-bench-lab/dev --dir 'my results' 'it'\\''s'");
    } finally {
      process.argv = argv;
    }
  });
});

describe("pinnedVersions", () => {
  it("holds every pin of components/versions.ts, objects flattened", () => {
    const v = pinnedVersions();
    for (const name of Object.keys(versions)) expect(Object.keys(v).some((k) => k === name || k.startsWith(`${name}.`))).toBe(true);
    expect(v).toMatchObject({
      K0S_VERSION: versions.K0S_VERSION,
      "ROOK_CHART.version": versions.ROOK_CHART.version,
      CEPH_IMAGE: versions.CEPH_IMAGE,
      POSTGRES_IMAGE: versions.POSTGRES_IMAGE,
      "TRIDENT_CHART.version": versions.TRIDENT_CHART.version,
      "EKS_ADDON_VERSIONS.1.35.vpc-cni": versions.EKS_ADDON_VERSIONS["1.35"]["vpc-cni"],
      "UBUNTU_AMI.namePattern": versions.UBUNTU_AMI.namePattern,
    });
    expect(pinnedVersions({ A: "1", B: { c: 2, d: { e: true } } })).toEqual({ A: "1", "B.c": "2", "B.d.e": "true" });
  });
});

describe("gitState, on a real repository", () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repo, ...args], {
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.com",
      },
    });
  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), "manifest-git-"));
    git("init", "-q");
    fs.writeFileSync(path.join(repo, "a.txt"), "one\n");
    git("add", "a.txt");
    git("commit", "-q", "-m", "first");
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  it("clean: the commit; changed: dirty with a hash of the changes that follows them", () => {
    const commit = git("rev-parse", "HEAD").trim();
    expect(gitState(repo)).toEqual({ commit, dirty: false });
    fs.writeFileSync(path.join(repo, "a.txt"), "two\n");
    const one = gitState(repo);
    expect(one).toMatchObject({ commit, dirty: true });
    expect(one.diffHash).toMatch(/^[0-9a-f]{64}$/);
    expect(gitState(repo)).toEqual(one);
    fs.writeFileSync(path.join(repo, "new.txt"), "x\n");
    const two = gitState(repo);
    expect(two.diffHash).not.toBe(one.diffHash);
    fs.writeFileSync(path.join(repo, "new.txt"), "y\n");
    expect(gitState(repo).diffHash).not.toBe(two.diffHash);
  });

  it("an untracked symlink to a directory outside the checkout, a dangling one and a FIFO: hashed as what they are, never followed or opened", () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "manifest-bigdisk-"));
    try {
      fs.writeFileSync(path.join(outside, "samples.json"), "[]\n");
      fs.symlinkSync(outside, path.join(repo, "results")); // results on a bigger disk
      fs.symlinkSync(path.join(outside, "node_modules"), path.join(repo, "node_modules")); // dangling
      execFileSync("mkfifo", [path.join(repo, "pipe")]); // a read would block: git lists none, and it is never opened
      const one = gitState(repo);
      expect(one).toEqual({ commit: git("rev-parse", "HEAD").trim(), dirty: true, diffHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      // what the link points at is not the checkout: a change there keeps the hash; another target changes it
      fs.writeFileSync(path.join(outside, "samples.json"), "[1]\n");
      expect(gitState(repo)).toEqual(one);
      fs.unlinkSync(path.join(repo, "results"));
      fs.symlinkSync(os.tmpdir(), path.join(repo, "results"));
      expect(gitState(repo).diffHash).not.toBe(one.diffHash);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  (runsAsRoot ? it : it.skip)(
    "an untracked file its user cannot read (root's 0600 file, the run as nobody): hashed by size, named in unhashed with the reason",
    () => {
      // The kernel decides: the checkout owned by nobody (git refuses another owner's repository),
      // one untracked file root:root 0600 in it, gitState run as uid 65534 in a child process.
      const mod = path.resolve(__dirname, "../../../lab/utilization/manifest.ts");
      fs.writeFileSync(path.join(repo, "secret.txt"), "root only\n", { mode: 0o600 });
      fs.writeFileSync(path.join(repo, "notes.txt"), "readable\n");
      const commit = git("rev-parse", "HEAD").trim(); // root's git refuses nobody's repository from here on
      execFileSync("chown", ["-R", "65534:65534", repo]);
      fs.chownSync(path.join(repo, "secret.txt"), 0, 0);
      fs.chmodSync(repo, 0o755);
      const out = asNobody(`console.log(JSON.stringify(require(${JSON.stringify(mod)}).gitState(${JSON.stringify(repo)})))`);
      expect(JSON.parse(out)).toEqual({
        commit,
        dirty: true,
        diffHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        unhashed: ["secret.txt: EACCES"],
      });
    },
    60000,
  );

  it("git missing: unknown commit, dirty, and why in unhashed (never an error)", () => {
    expect(gitState(repo, "no-such-git")).toEqual({ commit: "unknown", dirty: true, unhashed: ["git: no-such-git is not on the PATH"] });
  });

  it("not a checkout: recorded as unknown, never an error (results must be saved anyway)", () => {
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), "manifest-nogit-"));
    try {
      expect(gitState(plain)).toEqual({
        commit: "unknown",
        dirty: true,
        unhashed: [expect.stringMatching(/^git: git rev-parse HEAD failed: fatal: not a git repository/)],
      });
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe("a run directory saved with its manifest (lab/results/files.ts)", () => {
  it("holds manifest.json, and every sample carries the manifest in its metadata", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "manifest-save-"));
    try {
      const m = takeManifest("organization/storage-bench-lab/dev", source(), {
        root: "/",
        git: GIT,
        now: NOW,
        command: "lab results save",
      });
      const samples = [
        { metric: "pgbench.tps", value: 374.95, unit: "txn/s", metadata: { tool: "pgbench" as const, rep: 1 } },
        { metric: "pgbench.tps", value: 380.1, unit: "txn/s", metadata: { tool: "pgbench" as const, rep: 2 } },
      ];
      const dir = writeRunResults(root, "dev", "r1", samples, [], m);
      expect(fs.readdirSync(dir).sort()).toEqual([MANIFEST_FILE, "raw", "samples.json"]);
      expect(readManifestFile(dir)).toEqual(JSON.parse(JSON.stringify(m)));
      const read = readRunResults(dir).samples;
      expect(read).toEqual(samples.map((s) => ({ ...s, metadata: { ...s.metadata, ...manifestMetadata(m.manifest) } })));
      // Without a manifest, as before: no file, no keys.
      const plain = writeRunResults(root, "dev", "r2", samples, []);
      expect(fs.existsSync(path.join(plain, MANIFEST_FILE))).toBe(false);
      expect(readRunResults(plain).samples).toEqual(samples);
      expect(readManifestFile(plain)).toBeUndefined();
      fs.writeFileSync(path.join(plain, MANIFEST_FILE), "{}");
      expect(() => readManifestFile(plain)).toThrow(
        `${path.join(plain, MANIFEST_FILE)}: not a manifest file (schema 1 with manifest, configs, resources)`,
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
