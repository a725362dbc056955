/**
 * `lab run fsx-eks` whole (lab/cli/run.ts `runAction`) on the real Automation API against the
 * stand-in Pulumi CLI (test/lab/run/standin.ts), with both failover experiments as steps: the
 * fsx-eks stack's `up` returns what the experiments read, and the experiments run for real
 * (lab/experiment) against the simulated cluster, FSx and clock of the experiment tests
 * (../experiment/sim.ts), given through `runAction`'s `deps.experiments`. What was on disk when the
 * first `destroy` started is read from the stand-in's command trace and the files' modification times.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { DockerProbe } from "../../../components/image/rules";
import { runAction } from "../../../lab/cli/run";
import type { Sample } from "../../../core/sample";
import { DEFAULT_WORLD, FS_ID, SimCluster, simEnv, SimFsx, World } from "../experiment/sim";
import { OUTPUTS } from "../experiment/support";
import { FIO_CROSS, FIO_SAME, FIO_SEED, repetitions } from "../report/samples";
import { standinPerTest } from "../run/standin";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const NOW = new Date("2030-01-02T12:00:00Z");
const RUN_ID = "r1"; // the simulated world's run (../experiment/sim.ts RUN_ID)

const run = standinPerTest();

/** A Docker daemon that answers as a Linux amd64 one (the image build's platform). */
const docker: DockerProbe = {
  env: { DOCKER_HOST: "unix:///var/run/docker.sock" },
  homeDir: "/nonexistent",
  os: "linux",
  arch: "x64",
  exists: () => false,
  readFile: () => undefined,
  get: (_host, p) =>
    Promise.resolve(
      p === "/_ping"
        ? { status: 200, body: "OK" }
        : p === "/version"
          ? { status: 200, body: JSON.stringify({ Os: "linux", Arch: "amd64" }) }
          : { status: 200, body: JSON.stringify({ OperatingSystem: "Ubuntu 24.04" }) },
    ),
};

/** The fsx-eks stack's benchmarks: the published fio line in the file system's zone and in the other one, three repetitions each. */
function benchmarks(): Sample[] {
  const run = { scenario: "fsx-eks", stack: "fsx-eks", runId: RUN_ID, storageClass: "fsx-ontap-nas" };
  return [
    ...repetitions("fio", FIO_SEED, FIO_SAME, { ...run, zoneRelation: "same", zone: "us-east-1a" }),
    ...repetitions("fio", FIO_SEED, FIO_CROSS, { ...run, zoneRelation: "cross", zone: "us-east-1b" }),
  ];
}

/** The stand-in's world: the fsx-eks stack exports its benchmarks and what the experiments read (kubeconfig secret). */
const WORLD = {
  stacks: {
    "fsx-eks": {
      outputs: {
        results: benchmarks(),
        kubeconfig: OUTPUTS.kubeconfig,
        region: OUTPUTS.region,
        fileSystemId: OUTPUTS.fileSystemId,
        mysql: OUTPUTS.mysql,
        storageClasses: OUTPUTS.storageClasses,
        experimentAccess: OUTPUTS.experimentAccess,
        toolsImage: OUTPUTS.toolsImage,
      },
      secretOutputs: ["kubeconfig"],
    },
  },
};

async function fsxRun(world: World) {
  const s = run.start(WORLD);
  const env = simEnv(world);
  const code = await runAction("fsx-eks", { runId: RUN_ID, adminCidr: "100.64.7.9/32" }, ROOT, s.dir, NOW, {
    dockerProbe: docker,
    experiments: {
      env: { clock: env.clock, sleep: env.sleep, timer: env.timer },
      cluster: () => new SimCluster(world, env.clock),
      fsx: () => new SimFsx(world, env.clock),
    },
  });
  const trace = s.trace();
  const firstDestroy = trace.find((t) => t.phase === "start" && t.cmd === "destroy")?.ms ?? -Infinity;
  const upEnd = trace.find((t) => t.phase === "end" && t.cmd === "up" && t.stack.endsWith(`-${RUN_ID}-fsx-eks`))?.ms ?? Infinity;
  const results = path.join(s.dir, "results");
  /** The files (relative to the results root) that existed, written after the fsx-eks up, when the first destroy started. */
  const writtenBeforeFirstDestroy = (files: string[]) =>
    files.filter((f) => {
      const p = path.join(results, f);
      if (!fs.existsSync(p)) return false;
      const m = fs.statSync(p).mtimeMs;
      return m >= upEnd && m < firstDestroy;
    });
  return { code, trace, results, writtenBeforeFirstDestroy, stand: s };
}

/** The scenario's name of a run stack (organization/storage-bench-lab/u-r1-<name>). */
const nameOf = (fq: string) => (fq.split("/").pop() as string).replace(`u-${RUN_ID}-`, "");

/**
 * The stand-in's commands that create or remove stacks, in the order they started, as "<cmd> <name>";
 * the two stacks that run in parallel (fsx-eks-ontap ∥ fsx-eks-cluster) sorted within their pair.
 */
function lifecycle(trace: ReadonlyArray<{ phase: string; cmd: string; stack: string }>): string[] {
  const ops = trace
    .filter((t) => t.phase === "start" && ["up", "destroy", "stack rm"].includes(t.cmd))
    .map((t) => `${t.cmd} ${nameOf(t.stack)}`);
  const pair = new Set(["fsx-eks-ontap", "fsx-eks-cluster"]);
  const out = [...ops];
  for (let i = 0; i + 1 < out.length; i++) {
    const [a, b] = [out[i], out[i + 1]];
    const [ca, na] = [a.slice(0, a.lastIndexOf(" ")), a.slice(a.lastIndexOf(" ") + 1)];
    const [cb, nb] = [b.slice(0, b.lastIndexOf(" ")), b.slice(b.lastIndexOf(" ") + 1)];
    if (ca === cb && pair.has(na) && pair.has(nb) && na > nb) [out[i], out[i + 1]] = [b, a];
  }
  return out;
}

/** The run's summary line: dependents first (ontap and cluster in parallel, in the order they finished). */
const DESTROYED = expect.stringMatching(/^destroyed: fsx-eks, (fsx-eks-cluster, fsx-eks-ontap|fsx-eks-ontap, fsx-eks-cluster), network$/);

/** Every stack up once, then destroyed dependents first and removed from the backend. */
const LIFECYCLE = [
  "up network",
  "up fsx-eks-cluster",
  "up fsx-eks-ontap",
  "up fsx-eks",
  "destroy fsx-eks",
  "stack rm fsx-eks",
  "destroy fsx-eks-cluster",
  "destroy fsx-eks-ontap",
  "stack rm fsx-eks-cluster",
  "stack rm fsx-eks-ontap",
  "destroy network",
  "stack rm network",
];

const CLEAN = { cordoned: [], jobs: [], configMaps: [], claims: [], pods: [], throughput: 512, pendingUpdates: 0 };

describe("lab run fsx-eks (runAction) against the stand-in Pulumi CLI: the failover experiments as steps", () => {
  test("both experiments run after the benchmarks, against the simulated cluster and FSx; benchmarks, both experiments' results and the report are on disk before the first destroy; exit 0", async () => {
    const world = new World();
    const r = await fsxRun(world);
    expect(run.printed().split("\n")).toEqual(
      expect.arrayContaining([
        `== run fsx-eks ${RUN_ID}: succeeded, every stack destroyed`,
        DESTROYED,
        `results: ${[RUN_ID, `mysql-failover-${RUN_ID}`, `fsx-failover-${RUN_ID}`].map((d) => path.join(r.results, "fsx-eks", d)).join(", ")}`,
        "left: nothing",
      ]),
    );
    expect(r.code).toBe(0);
    // the experiments ran, and undid what they did
    expect(world.calls.filter((c) => c.startsWith("updateThroughput"))).toEqual([
      `updateThroughput ${FS_ID} 1024 lab-${RUN_ID}-lever`,
      `updateThroughput ${FS_ID} 512 lab-${RUN_ID}-restore`,
    ]);
    expect(world.leftovers()).toEqual(CLEAN);
    expect(
      r.writtenBeforeFirstDestroy([
        path.join("fsx-eks", RUN_ID, "samples.json"),
        path.join("fsx-eks", `mysql-failover-${RUN_ID}`, "samples.json"),
        path.join("fsx-eks", `fsx-failover-${RUN_ID}`, "samples.json"),
        path.join("runs", `fsx-eks-${RUN_ID}`, "report", "report.md"),
        path.join("runs", `fsx-eks-${RUN_ID}`, "report", "report.html"),
      ]),
    ).toEqual([
      path.join("fsx-eks", RUN_ID, "samples.json"),
      path.join("fsx-eks", `mysql-failover-${RUN_ID}`, "samples.json"),
      path.join("fsx-eks", `fsx-failover-${RUN_ID}`, "samples.json"),
      path.join("runs", `fsx-eks-${RUN_ID}`, "report", "report.md"),
      path.join("runs", `fsx-eks-${RUN_ID}`, "report", "report.html"),
    ]);
    // the order of the run.printed() lines: benchmarks saved, mysql-failover, fsx-failover, report, then the destroys
    const lines = run.printed().split("\n");
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    const order = [
      at(/results fsx-eks/),
      at(new RegExp(`^== mysql-failover ${RUN_ID} on fsx-eks: passed`)),
      at(new RegExp(`^== fsx-failover ${RUN_ID} on fsx-eks: passed`)),
      lines.indexOf(`report: ${path.join(r.results, "runs", `fsx-eks-${RUN_ID}`, "report", "report.html")} (and report.md)`),
      at(/ destroy /),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // every stack destroyed, dependents first, and removed: the backend holds none
    expect(lifecycle(r.trace)).toEqual(LIFECYCLE);
    expect(fs.readdirSync(path.join(r.stand.state, "stacks"))).toEqual([]);
    // and the report shows the experiments' metric beside the benchmarks
    const md = fs.readFileSync(path.join(r.results, "runs", `fsx-eks-${RUN_ID}`, "report", "report.md"), "utf8");
    expect(md).toContain("failover.rows.lost");
    expect(md).toContain("fio.read.iops");
  }, 120_000);

  test("a failing experiment: the benchmarks and its evidence saved before the first destroy, fsx-failover not run, every stack destroyed, exit 1", async () => {
    const world = new World({ ...DEFAULT_WORLD, loseOnDelete: 2 });
    const r = await fsxRun(world);
    expect(r.code).toBe(1);
    expect(run.printed()).toMatch(
      new RegExp(
        `\\n== run fsx-eks ${RUN_ID}: failed at step 1 mysql-failover fsx-eks: mysql-failover failed: 2 acknowledged row\\(s\\) lost: id\\(s\\) \\d+, \\d+ of run ${RUN_ID} were committed`,
      ),
    );
    expect(world.calls.some((c) => c.startsWith("updateThroughput"))).toBe(false);
    expect(world.leftovers()).toEqual(CLEAN);
    expect(fs.existsSync(path.join(r.results, "fsx-eks", `fsx-failover-${RUN_ID}`))).toBe(false);
    expect(
      r.writtenBeforeFirstDestroy([
        path.join("fsx-eks", RUN_ID, "samples.json"),
        path.join("fsx-eks", `mysql-failover-${RUN_ID}`, "samples.json"),
        path.join("runs", `fsx-eks-${RUN_ID}`, "report", "report.md"),
      ]),
    ).toEqual([
      path.join("fsx-eks", RUN_ID, "samples.json"),
      path.join("fsx-eks", `mysql-failover-${RUN_ID}`, "samples.json"),
      path.join("runs", `fsx-eks-${RUN_ID}`, "report", "report.md"),
    ]);
    const samples = JSON.parse(fs.readFileSync(path.join(r.results, "fsx-eks", RUN_ID, "samples.json"), "utf8")) as Sample[];
    expect(samples.filter((x) => x.metric === "fio.read.iops")).toHaveLength(6);
    // every stack destroyed, dependents first, and removed: the backend holds none
    expect(lifecycle(r.trace)).toEqual(LIFECYCLE);
    expect(fs.readdirSync(path.join(r.stand.state, "stacks"))).toEqual([]);
    expect(run.printed().split("\n")).toEqual(
      expect.arrayContaining([
        DESTROYED,
        `results: ${path.join(r.results, "fsx-eks", RUN_ID)}, ${path.join(r.results, "fsx-eks", `mysql-failover-${RUN_ID}`)}`,
        `report: ${path.join(r.results, "runs", `fsx-eks-${RUN_ID}`, "report", "report.html")} (and report.md), over the results saved before the failure`,
        "left: nothing",
      ]),
    );
  }, 120_000);
});
