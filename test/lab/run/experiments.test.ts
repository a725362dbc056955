/**
 * The failover experiments as steps of a run: the runner (fake Automation API workspace, ./fakes.ts)
 * runs an fsx-eks-shaped scenario whose last stack exports what the experiments read, and the
 * experiments run for real (lab/experiment) against the simulated cluster and FSx the experiment
 * tests use (../experiment/sim.ts). The run's report is written by the CLI's own function.
 */
import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as path from "node:path";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { writeRunReport } from "../../../lab/cli/run";
import { experimentResultDirs, experimentStepRunner, runSteps, stepOutputs } from "../../../lab/run/experiments";
import { prepareOffline } from "../../../lab/run/prepare";
import { ROOT } from "../../helpers/root";
import { saveStackOutputs } from "../../../lab/run/results";
import { EXIT, runScenario, type RunPlan } from "../../../lab/run/runner";
import type { Sample } from "../../../core/sample";
import { FS_ID, DEFAULT_WORLD, SimCluster, simEnv, SimFsx, World } from "../experiment/sim";
import { OUTPUTS, removeTmpDirs, tmpDir } from "../experiment/support";
import { FIO_CROSS, FIO_SAME, FIO_SEED, repetitions } from "../report/samples";
import { FakeWorkspace, memoryReporter, ORG, stack } from "./fakes";

afterAll(removeTmpDirs);

/** network → ontap ∥ cluster → app (kind fsx-eks), then mysql-failover and fsx-failover on app. */
function fsxPlan(): RunPlan {
  return {
    scenario: "fsx-eks",
    runId: "r1",
    stacks: [
      stack("network", "network", []),
      stack("ontap", "fsx-ontap", ["network"]),
      stack("cluster", "eks", ["network"]),
      stack("app", "fsx-eks", ["ontap", "cluster"]),
    ],
    steps: [
      { kind: "mysql-failover", stack: "app" },
      { kind: "fsx-failover", stack: "app" },
    ],
    keep: false,
    workDir: "/project",
  };
}

/** The app stack's benchmarks: the published fio line in the file system's zone and in the other zone, three repetitions each (real fio outputs). */
function benchmarks(runId: string): Sample[] {
  const run = { scenario: "fsx-eks", stack: "app", runId, storageClass: "fsx-ontap-nas" }; // as the fsx-eks stack records its Trident runs
  return [
    ...repetitions("fio", FIO_SEED, FIO_SAME, { ...run, zoneRelation: "same", zone: "us-east-1a" }),
    ...repetitions("fio", FIO_SEED, FIO_CROSS, { ...run, zoneRelation: "cross", zone: "us-east-1b" }),
  ];
}

const appOutputs = (stack: string, runId: string): OutputMap =>
  stack !== "app"
    ? {}
    : {
        results: { value: benchmarks(runId), secret: false },
        kubeconfig: { value: OUTPUTS.kubeconfig, secret: true },
        region: { value: OUTPUTS.region, secret: false },
        fileSystemId: { value: OUTPUTS.fileSystemId, secret: false },
        mysql: { value: OUTPUTS.mysql, secret: false },
        storageClasses: { value: OUTPUTS.storageClasses, secret: false },
        experimentAccess: { value: OUTPUTS.experimentAccess, secret: false },
        toolsImage: { value: OUTPUTS.toolsImage, secret: false },
      };

async function fsxRun(world: World, outputsOf = appOutputs, interrupts?: EventEmitter) {
  const root = tmpDir("lab-run-exp-");
  const resultsRoot = path.join(root, "results");
  const runDir = path.join(resultsRoot, "runs", "fsx-eks-r1");
  const seenAtFirstDestroy: string[] = [];
  const ws = new FakeWorkspace({
    outputsOf,
    onDestroyStart: () => {
      if (seenAtFirstDestroy.length > 0) return;
      seenAtFirstDestroy.push(`destroy-start ${world.calls.length} experiment calls`);
      for (const f of [
        path.join(resultsRoot, "app", "r1", "samples.json"),
        path.join(resultsRoot, "app", "mysql-failover-r1", "samples.json"),
        path.join(resultsRoot, "app", "fsx-failover-r1", "samples.json"),
        path.join(runDir, "report", "report.md"),
      ])
        if (fs.existsSync(f)) seenAtFirstDestroy.push(path.relative(root, f));
    },
  });
  const env = simEnv(world);
  const rep = memoryReporter();
  const out = await runScenario({
    preflight: async () => ({ problems: [], run: { plan: fsxPlan(), workspace: ws } }),
    reporter: rep,
    saveResults: (stack, o) => saveStackOutputs(resultsRoot, stack, o),
    runExperiment: experimentStepRunner({
      resultsRoot,
      env: { clock: env.clock, sleep: env.sleep, timer: env.timer, line: (t) => rep.line(t) },
      cluster: () => new SimCluster(world, env.clock),
      fsx: () => new SimFsx(world, env.clock),
    }),
    afterResults: (saved, status) => writeRunReport(runDir, saved, status, root, "md"),
    ...(interrupts ? { interrupts, forwardInterrupt: false } : {}),
    destroyAttempts: 1,
    retryDelayMs: 0,
    progressIntervalMs: 0,
  });
  return { out, ws, calls: ws.short(), lines: rep.lines, root, resultsRoot, runDir, seenAtFirstDestroy };
}

const CLEAN = { cordoned: [], jobs: [], configMaps: [], claims: [], pods: [], throughput: 512, pendingUpdates: 0 };

describe("lab run fsx-eks: the failover experiments as steps", () => {
  test("both experiments run after the benchmarks are saved, before any destroy; results and report are on disk before the first destroy", async () => {
    const world = new World();
    const r = await fsxRun(world);
    expect(r.out.status).toBe("succeeded");
    expect(r.out.exitCode).toBe(EXIT.ok);
    // the experiments ran against the cluster and FSx, and undid what they did
    expect(world.calls.filter((c) => c.startsWith("updateThroughput"))).toEqual([
      `updateThroughput ${FS_ID} 1024 lab-r1-lever`,
      `updateThroughput ${FS_ID} 512 lab-r1-restore`,
    ]);
    expect(world.leftovers()).toEqual(CLEAN);
    expect(r.seenAtFirstDestroy).toEqual([
      `destroy-start ${world.calls.length} experiment calls`,
      path.join("results", "app", "r1", "samples.json"),
      path.join("results", "app", "mysql-failover-r1", "samples.json"),
      path.join("results", "app", "fsx-failover-r1", "samples.json"),
      path.join("results", "runs", "fsx-eks-r1", "report", "report.md"),
    ]);
    expect(r.out.saved).toEqual([
      path.join(r.resultsRoot, "app", "r1"),
      path.join(r.resultsRoot, "app", "mysql-failover-r1"),
      path.join(r.resultsRoot, "app", "fsx-failover-r1"),
    ]);
    // the step lines come in order: mysql-failover's report, then fsx-failover's
    const heads = r.lines.filter((l) => l.startsWith("== "));
    expect(heads.map((l) => l.replace(/ \(\d+[^)]*\)$/, ""))).toEqual([
      "== mysql-failover r1 on app: passed",
      "== fsx-failover r1 on app: passed",
      "== run fsx-eks r1: succeeded, every stack destroyed",
    ]);
    // the benchmarks were saved before the first experiment said anything
    expect(r.lines.findIndex((l) => l.includes("results app"))).toBeLessThan(r.lines.findIndex((l) => l.startsWith("mysql-failover r1 on app")));
    const report = r.out.report;
    const reportFile = path.join(r.runDir, "report", "report.html");
    expect(report.slice(3)).toEqual([
      `results: ${r.out.saved.join(", ")}`,
      `report: ${reportFile} (and report.md)`,
      "headline ratios (ours, interval; published):",
      expect.stringMatching(/^ {2}cross-zone \/ same-zone fio\.read\.iops \[[^\]]+\]: ours \d\.\d+, .+; published 0\.8907$/),
      expect.stringMatching(/^ {2}cross-zone \/ same-zone fio\.write\.iops \[[^\]]+\]: ours \d\.\d+, .+; published 0\.888$/),
      "left: nothing",
    ]);
    // the report's path is printed as soon as it is written, before the destroys
    expect(r.lines.indexOf(`report: ${reportFile} (and report.md)`)).toBeLessThan(r.lines.findIndex((l) => /destroy/.test(l)));
    const md = fs.readFileSync(path.join(r.runDir, "report", "report.md"), "utf8");
    expect(md).toContain("failover.rows.lost");
    expect(md).toContain("fio.read.iops");
  });

  test("a failing experiment fails the run, yet the benchmarks and its evidence are saved, the report written, everything destroyed", async () => {
    const world = new World({ ...DEFAULT_WORLD, loseOnDelete: 2 });
    const r = await fsxRun(world);
    expect(r.out.status).toBe("failed");
    expect(r.out.exitCode).toBe(EXIT.failed);
    expect(r.out.stage).toBe("step 1 mysql-failover app");
    expect(r.out.error).toMatch(/^mysql-failover failed: 2 acknowledged row\(s\) lost: id\(s\) \d+, \d+ of run r1 were committed/);
    expect(r.out.saved).toEqual([path.join(r.resultsRoot, "app", "r1"), path.join(r.resultsRoot, "app", "mysql-failover-r1")]);
    // fsx-failover did not run after it
    expect(world.calls.some((c) => c.startsWith("updateThroughput"))).toBe(false);
    expect(fs.existsSync(path.join(r.resultsRoot, "app", "fsx-failover-r1"))).toBe(false);
    expect(r.seenAtFirstDestroy.slice(1)).toEqual([
      path.join("results", "app", "r1", "samples.json"),
      path.join("results", "app", "mysql-failover-r1", "samples.json"),
      path.join("results", "runs", "fsx-eks-r1", "report", "report.md"),
    ]);
    expect(r.out.report).toContain(
      `report: ${path.join(r.runDir, "report", "report.html")} (and report.md), over the results saved before the failure`,
    );
    expect([...r.out.destroyed].sort()).toEqual(["app", "cluster", "network", "ontap"]);
    expect(r.out.left).toEqual([]);
    expect(world.leftovers()).toEqual(CLEAN);
  });

  test("a stack without the experiments' outputs: the step fails naming each missing output; the benchmarks are saved and everything destroyed", async () => {
    const world = new World();
    // (the fake workspace exports a kubeconfig for every stack)
    const r = await fsxRun(
      world,
      (stack, runId): OutputMap =>
        stack === "app" ? { results: { value: benchmarks(runId), secret: false }, region: { value: "us-east-1", secret: false } } : {},
    );
    expect(r.out.stage).toBe("step 1 mysql-failover app");
    expect(r.out.error).toBe(
      `stack ${ORG}app lacks what the failover experiments read (lab/experiment/outputs.ts): output 'fileSystemId' is missing; output 'mysql' is missing; output 'storageClasses' is missing; output 'experimentAccess' is missing; output 'toolsImage' is missing`,
    );
    expect(world.calls).toEqual([]);
    expect(r.out.saved).toEqual([path.join(r.resultsRoot, "app", "r1")]);
    expect([...r.out.destroyed].sort()).toEqual(["app", "cluster", "network", "ontap"]);
  });
});

test("Ctrl-C during mysql-failover (from a terminal: nothing forwarded to Pulumi): the experiment stops and cleans up, the benchmarks are saved, everything destroyed, exit 130", async () => {
  const world = new World();
  const interrupts = new EventEmitter();
  let deleted = false;
  world.onCall = (call) => {
    if (call === "deletePod mysql/mysql-0") deleted = true;
    else if (deleted && call.startsWith("getPod mysql/mysql-0")) interrupts.emit("cancel");
  };
  const r = await fsxRun(world, appOutputs, interrupts);
  expect(r.out.status).toBe("interrupted");
  expect(r.out.exitCode).toBe(EXIT.interrupted);
  expect(r.out.stage).toBe("interrupted (Ctrl-C) during step 1 mysql-failover app");
  expect(r.lines.find((l) => l.startsWith("== mysql-failover"))).toMatch(/^== mysql-failover r1 on app: interrupted \(Ctrl-C\) during "wait for mysql-0 in another zone"/);
  expect(world.calls.some((c) => c.startsWith("updateThroughput"))).toBe(false);
  expect(world.leftovers()).toEqual(CLEAN);
  expect(r.out.saved).toEqual([path.join(r.resultsRoot, "app", "r1")]);
  expect([...r.out.destroyed].sort()).toEqual(["app", "cluster", "network", "ontap"]);
});

describe("preflight of a run with experiments", () => {
  test("an experiment's results directory that exists already is a problem before anything is created; --skip-experiments drops the steps and the check", async () => {
    const resultsRoot = path.join(tmpDir("lab-run-pre-"), "results");
    const taken = path.join(resultsRoot, "fsx-eks", "mysql-failover-r7");
    fs.mkdirSync(taken, { recursive: true });
    const now = new Date(Date.UTC(2026, 0, 15));
    const withExp = await prepareOffline("fsx-eks", { runId: "r7", adminCidr: "100.64.7.9/32" }, ROOT, resultsRoot, now);
    expect(withExp.scenario!.steps.map((s) => s.kind)).toEqual(["mysql-failover", "fsx-failover"]);
    expect(withExp.problems).toEqual([`results: ${taken} exists already (a run's results are written once): pick another --run-id`]);
    const skipped = await prepareOffline("fsx-eks", { runId: "r7", skipExperiments: true, adminCidr: "100.64.7.9/32" }, ROOT, resultsRoot, now);
    expect(skipped.scenario!.steps).toEqual([]);
    expect(skipped.problems).toEqual([]);
  }, 120_000);
});

describe("experiment steps: skipping them, and the directories they write", () => {
  const steps = fsxPlan().steps;
  test("--skip-experiments leaves the experiments out and keeps reruns", () => {
    const rerun = { kind: "rerun" as const, stacks: ["app"], times: 2 };
    expect(runSteps([...steps, rerun], true)).toEqual([rerun]);
    expect(runSteps([...steps, rerun], false)).toEqual([...steps, rerun]);
  });

  test("results/<stack>/<experiment>-<runId>, one per experiment step", () => {
    expect(experimentResultDirs("/r", steps, "r9")).toEqual(["/r/app/mysql-failover-r9", "/r/app/fsx-failover-r9"]);
  });

  test("the outputs are read as the experiments read them (secrets in clear)", () => {
    expect(stepOutputs("s", appOutputs("app", "r1")).fileSystemId).toBe(FS_ID);
  });
});
