/**
 * The FSx for ONTAP AZ failover end to end on the simulated cluster and FSx API (./sim.ts): the
 * lever and its restore through UpdateFileSystem, the watch of AdministrativeActions, fio's real
 * JSON output (fixtures) with an IOPS log that stalls at each failover and failback, the samples;
 * fio's verify failure fails the experiment naming the block; a failure injected at every step, an
 * update that FAILED or never completes, and Ctrl-C each leave no Job, ConfigMap or volume behind
 * and the throughput restored, or say exactly what is left.
 */
import * as path from "node:path";
import { readRunResults } from "../../../lab/results/files";
import { DEFAULT_WORLD, FS_ID, World, WorldOptions } from "./sim";
import { firstCallOfEachStep, runOn, STACK, stepLines, removeTmpDirs, valuesOf } from "./support";

const world = (o: Partial<WorldOptions> = {}, fsx: Partial<WorldOptions["fsx"]> = {}) =>
  new World({ ...DEFAULT_WORLD, ...o, fsx: { ...DEFAULT_WORLD.fsx, ...fsx } });
afterAll(removeTmpDirs);
const NODE_A1 = "ip-10-0-1-10.ec2.internal";
const RESTORED = `restored the throughput capacity of ${FS_ID} to 512 MB/s (from 1024 MB/s)`;
const DELETED = [
  "deleted Job bench/fsx-failover-fio-r1 and its pod",
  "deleted claim bench/fsx-failover-r1 (Trident deletes its volume)",
  "deleted ConfigMap bench/fsx-failover-r1",
];

/** No Job, ConfigMap, claim or pod of the run; the file system at 512 MB/s with no update running. */
function expectCleaned(w: World): void {
  const l = w.leftovers();
  expect({
    jobs: l.jobs,
    configMaps: l.configMaps,
    claims: l.claims,
    pods: l.pods,
    throughput: l.throughput,
    pendingUpdates: l.pendingUpdates,
  }).toEqual({
    jobs: [],
    configMaps: [],
    claims: [],
    pods: [],
    throughput: 512,
    pendingUpdates: 0,
  });
}

describe("fsx-failover: the happy path", () => {
  // Timeline (simulated seconds from the start; DEFAULT_WORLD, default options): fio runs at 3 s;
  // 120 s of writes; the change 512 → 1024 is requested at 124 s, IN_PROGRESS at 154 s (seen at the
  // 154 s poll: DescribeFileSystems every 15 s), fails over at 214 s and back at 394 s (writes stall
  // 3 s each), COMPLETED at 454 s; the restore is requested at 454 s, IN_PROGRESS at 484 s, fails
  // over at 544 s and back at 724 s, COMPLETED at 784 s; 60 s more of writes; the stop annotation at
  // 844 s reaches fio 4 s later: fio ran 845 s (848 − 3). fio's second s covers (3+s−1, 3+s] s, so
  // the stalls are seconds 212–214, 392–394, 542–544 and 722–724.
  let run: Awaited<ReturnType<typeof runOn>>;
  let w: World;
  beforeAll(async () => {
    w = world();
    run = await runOn(w, "fsx-failover");
  });

  test("passes, exit 0; the throughput was restored in the run, the fio objects deleted after", () => {
    expect(run.outcome.status).toBe("passed");
    expect(run.outcome.exitCode).toBe(0);
    expect(run.outcome.report).toEqual([
      `== fsx-failover r1 on ${STACK}: passed (14m08s)`,
      `results: ${path.join(run.resultsRoot, "fsx-eks", "fsx-failover-r1")}`,
      `cleanup: ${[RESTORED, ...DELETED].join("; ")}`,
      "left: nothing",
    ]);
    expectCleaned(w);
  });

  test("one progress line per step", () => {
    expect(stepLines(run.lines)).toEqual([
      `+00:00:00 fsx-failover [1/9] check the file system and the cluster: done in 0s  ${FS_ID} MULTI_AZ_1 at 512 MB/s; the lever: 512 → 1024 → 512 MB/s`,
      `+00:00:04 fsx-failover [2/9] start fio: done in 4s  pod fsx-failover-fio-r1-x7k2q on ${NODE_A1} (us-east-1a), volume pvc-9a8b7c6d, fio 3.33`,
      "+00:02:04 fsx-failover [3/9] write before the change: done in 2m00s  fio wrote for 2m00s",
      "+00:02:04 fsx-failover [4/9] change the throughput 512 → 1024 MB/s: done in 0s  UpdateFileSystem ThroughputCapacity=1024",
      "+00:07:34 fsx-failover [5/9] wait for the change: done in 5m30s  PENDING +0s → IN_PROGRESS +30s → COMPLETED +5m30s",
      "+00:13:04 fsx-failover [6/9] restore the throughput 1024 → 512 MB/s: done in 5m30s  PENDING +0s → IN_PROGRESS +30s → COMPLETED +5m30s",
      "+00:14:04 fsx-failover [7/9] write after the restore: done in 1m00s  fio wrote for 1m00s",
      "+00:14:08 fsx-failover [8/9] stop fio: done in 4s  Job Complete, fio exit 0",
      "+00:14:08 fsx-failover [9/9] check the I/O: done in 0s  no I/O error, no verify failure; longest stall 3s, 4 stall(s)",
    ]);
  });

  test("the lever and the restore were two UpdateFileSystem calls with their own idempotency tokens", () => {
    expect(w.calls.filter((c) => c.startsWith("updateThroughput"))).toEqual([
      `updateThroughput ${FS_ID} 1024 lab-r1-lever`,
      `updateThroughput ${FS_ID} 512 lab-r1-restore`,
    ]);
  });

  const meta = {
    tool: "failover",
    experiment: "fsx-failover",
    scenario: "fsx-eks",
    stack: "fsx-eks",
    runId: "r1",
    fileSystemId: FS_ID,
    deploymentType: "MULTI_AZ_1",
    throughputMBps: 512,
    leverMBps: 1024,
    storageClass: "fsx-ontap-nas",
    persistentVolume: "pvc-9a8b7c6d",
    node: NODE_A1,
    zone: "us-east-1a",
    fioSize: "4G",
  };

  test("the failover samples, exactly", () => {
    const failover = run.outcome.samples.filter((s) => s.metadata.tool === "failover" && s.metric !== "failover.io.iops");
    expect(failover).toEqual([
      { metric: "failover.io.errors", value: 0, unit: "count", metadata: { ...meta, verifyFailures: 0, ioErrorLines: 0, fioExit: 0 } },
      { metric: "failover.io.gap", value: 3, unit: "s", metadata: { ...meta, stalls: 4, fromSecond: 212, toSecond: 214, phase: "change" } },
      {
        metric: "failover.update.duration",
        value: 330,
        unit: "s",
        metadata: {
          ...meta,
          action: "change",
          fromMBps: 512,
          toMBps: 1024,
          requestedAt: "2026-01-15T10:02:04.000Z",
          completedAt: "2026-01-15T10:07:34.000Z",
          statuses: "PENDING>IN_PROGRESS>COMPLETED",
          fsxPollMs: 15000,
        },
      },
      {
        metric: "failover.update.duration",
        value: 330,
        unit: "s",
        metadata: {
          ...meta,
          action: "restore",
          fromMBps: 1024,
          toMBps: 512,
          requestedAt: "2026-01-15T10:07:34.000Z",
          completedAt: "2026-01-15T10:13:04.000Z",
          statuses: "PENDING>IN_PROGRESS>COMPLETED",
          fsxPollMs: 15000,
        },
      },
    ]);
  });

  test("IOPS per second: 845 seconds, zero in the four stalls, each second with its time and phase", () => {
    const iops = run.outcome.samples.filter((s) => s.metric === "failover.io.iops");
    expect(iops.length).toBe(845);
    const zeros = iops.filter((s) => s.value === 0).map((s) => s.metadata.second);
    expect(zeros).toEqual([212, 213, 214, 392, 393, 394, 542, 543, 544, 722, 723, 724]);
    expect(iops.every((s) => s.unit === "op/s" && (s.value === 0 || s.value === 12000))).toBe(true);
    expect(iops[0]).toEqual({
      metric: "failover.io.iops",
      value: 12000,
      unit: "op/s",
      metadata: { ...meta, second: 1, at: "2026-01-15T10:00:04.000Z", phase: "before" },
    });
    expect(iops[211]).toEqual({
      metric: "failover.io.iops",
      value: 0,
      unit: "op/s",
      metadata: { ...meta, second: 212, at: "2026-01-15T10:03:35.000Z", phase: "change" },
    });
    const phases: Record<string, number> = {};
    for (const s of iops) phases[s.metadata.phase as string] = (phases[s.metadata.phase as string] ?? 0) + 1;
    // before: t < 124 s, i.e. seconds 1–120 (t = 3 + s); change: 124–454 s; restore: 455–784 s; after.
    expect(phases).toEqual({ before: 120, change: 331, restore: 330, after: 64 });
  });

  test("fio's own samples come from its JSON, with the run's metadata", () => {
    const fio = run.outcome.samples.filter((s) => s.metadata.tool === "fio");
    expect(fio.map((s) => s.metric)).toEqual([
      "fio.read.iops",
      "fio.read.bandwidth",
      "fio.read.clat.mean",
      "fio.read.clat.p50",
      "fio.read.clat.p99",
      "fio.read.clat.p99.9",
      "fio.write.iops",
      "fio.write.bandwidth",
      "fio.write.clat.mean",
      "fio.write.clat.p50",
      "fio.write.clat.p99",
      "fio.write.clat.p99.9",
      "fio.error",
    ]);
    const err = fio.find((s) => s.metric === "fio.error")!;
    expect([
      err.value,
      err.metadata.errno,
      err.metadata.verify,
      err.metadata.verify_fatal,
      err.metadata.do_verify,
      err.metadata.experiment,
      err.metadata.runId,
    ]).toEqual([0, 0, "crc32c", 1, 1, "fsx-failover", "r1"]);
  });

  test("the evidence on disk: samples, fio's log, JSON and IOPS log, and the timeline of both clocks", () => {
    const saved = readRunResults(run.outcome.resultsDir!);
    expect(saved.samples).toEqual(run.outcome.samples);
    expect(saved.raws.map((r) => r.name)).toEqual(["fio-iops.log", "fio-job.log", "fio.json", "timeline.json"]);
    const timeline = JSON.parse(saved.raws.find((r) => r.name === "timeline.json")!.text) as Array<{
      at: string;
      clock: string;
      what: string;
    }>;
    expect(timeline.map((e) => `${e.at.slice(11, 19)} ${e.clock} ${e.what}`)).toEqual([
      "10:00:03 fio fio 3.33 started (laying out the file first)",
      `10:00:04 operator fio started on ${NODE_A1}`,
      "10:02:04 operator throughput update 512 → 1024 MB/s requested",
      "10:02:04 operator throughput update 512 → 1024 MB/s: PENDING",
      "10:02:34 operator throughput update 512 → 1024 MB/s: IN_PROGRESS",
      "10:03:34 fio no write completed for 3s (seconds 212–214 of the run, during change)",
      "10:06:34 fio no write completed for 3s (seconds 392–394 of the run, during change)",
      "10:07:34 operator throughput update 512 → 1024 MB/s: COMPLETED",
      "10:07:34 operator throughput update 1024 → 512 MB/s requested (restore)",
      "10:07:34 operator throughput update 1024 → 512 MB/s: PENDING",
      "10:08:04 operator throughput update 1024 → 512 MB/s: IN_PROGRESS",
      "10:09:04 fio no write completed for 3s (seconds 542–544 of the run, during restore)",
      "10:12:04 fio no write completed for 3s (seconds 722–724 of the run, during restore)",
      "10:13:04 operator throughput update 1024 → 512 MB/s: COMPLETED",
      "10:14:08 fio stop requested",
    ]);
  });
});

describe("fsx-failover: fio's verify failure fails it, naming the block", () => {
  test("fio ends on its own during the change: its results are collected, the experiment fails, the throughput is restored after the change completes", async () => {
    // fio fails 250 s after it started (253 s), during the change; the watch's next poll (259 s) sees the Job Failed.
    const w = world({ fioVerifyFailsAfterMs: 250_000 });
    const r = await runOn(w, "fsx-failover");
    expect(r.outcome.status).toBe("failed");
    expect(r.outcome.exitCode).toBe(1);
    expect(r.outcome.error).toBe(
      'data written during the failover was not written or read back intact (fio ended during "wait for the change"): fio reported 1 error(s) (errno 84); ' +
        "verify failed: verify: bad magic header eec5, wanted acca at file /tmp/fcap/data offset 11485184, length 4096 (requested block: offset=11485184, length=4096); " +
        "fio exited with status 1",
    );
    expect(stepLines(r.lines).map((l) => l.replace(/^\+\S+ fsx-failover /, "").replace(/:.*/, ""))).toEqual([
      "[1/9] check the file system and the cluster",
      "[2/9] start fio",
      "[3/9] write before the change",
      "[4/9] change the throughput 512 → 1024 MB/s",
      "[5/9] wait for the change",
      "[6/9] collect fio's results",
      "[7/9] check the I/O",
    ]);
    expect(stepLines(r.lines)[4]).toBe(
      "+00:04:19 fsx-failover [5/9] wait for the change: failed after 2m15s: fio stopped before it was asked to (Job Failed: BackoffLimitExceeded): verify: bad magic header eec5, wanted acca at file /tmp/fcap/data offset 11485184, length 4096 (requested block: offset=11485184, length=4096)",
    );
    expect(valuesOf(r.outcome, "failover.io.errors")).toEqual([[1, "count"]]);
    expect(r.outcome.samples.filter((s) => s.metric === "failover.update.duration")).toEqual([]);
    expect(readRunResults(r.outcome.resultsDir!).samples).toEqual(r.outcome.samples);
    expect(r.outcome.report[2]).toBe(`cleanup: ${[RESTORED, ...DELETED].join("; ")}`);
    expectCleaned(w);
  });
});

describe("fsx-failover: every failure leaves no Job, volume or throughput change behind", () => {
  test("a failed API call at each step (cluster or FSx): the step fails with it; the cleanup restores and deletes", async () => {
    const points = await firstCallOfEachStep(() => world(), "fsx-failover");
    expect(points.map((p) => [p.step, p.what])).toEqual([
      ["check the file system and the cluster", `describe ${FS_ID}`],
      ["start fio", "createConfigMap bench/fsx-failover-r1"],
      ["write before the change", "getJob bench/fsx-failover-fio-r1"],
      ["change the throughput 512 → 1024 MB/s", `updateThroughput ${FS_ID} 1024 lab-r1-lever`],
      ["wait for the change", `describe ${FS_ID}`],
      ["restore the throughput 1024 → 512 MB/s", `describe ${FS_ID}`],
      ["write after the restore", "getJob bench/fsx-failover-fio-r1"],
      ["stop fio", 'annotatePod bench/fsx-failover-fio-r1-x7k2q {"lab/stop":"true"}'],
    ]);
    const cleanups: string[] = [];
    for (const p of points) {
      const w = world();
      w.failAt = p.call;
      const r = await runOn(w, "fsx-failover");
      expect([p.step, r.outcome.status, r.outcome.exitCode, r.outcome.stage, r.outcome.error]).toEqual([
        p.step,
        "failed",
        1,
        p.step,
        `connection reset by peer (injected) [${p.what}]`,
      ]);
      expect(r.outcome.report[r.outcome.report.length - 1]).toBe("left: nothing");
      expectCleaned(w);
      cleanups.push(`${p.step}: ${r.outcome.report[2]}`);
    }
    // What each cleanup said it restored: nothing before the lever, the throughput once it was pulled.
    const before = `throughput capacity of ${FS_ID} is 512 MB/s, as before the run`;
    expect(cleanups).toEqual([
      "check the file system and the cluster: cleanup: nothing to undo",
      `start fio: cleanup: ${DELETED[2]}`,
      `write before the change: cleanup: ${DELETED.join("; ")}`,
      `change the throughput 512 → 1024 MB/s: cleanup: ${[before, ...DELETED].join("; ")}`,
      `wait for the change: cleanup: ${[RESTORED, ...DELETED].join("; ")}`,
      `restore the throughput 1024 → 512 MB/s: cleanup: ${[RESTORED, ...DELETED].join("; ")}`,
      `write after the restore: cleanup: ${[RESTORED, ...DELETED].join("; ")}`,
      `stop fio: cleanup: ${[RESTORED, ...DELETED].join("; ")}`,
    ]);
  });

  test("the change FAILED: the experiment fails with FSx's message; nothing to restore", async () => {
    const w = world({}, { failUpdate: "The throughput capacity update failed: internal error" });
    const r = await runOn(w, "fsx-failover");
    expect(r.outcome.stage).toBe("wait for the change");
    expect(r.outcome.error).toBe("the throughput update 512 → 1024 MB/s FAILED: The throughput capacity update failed: internal error");
    expect(r.outcome.report[2]).toBe(
      `cleanup: ${[`throughput capacity of ${FS_ID} is 512 MB/s, as before the run`, ...DELETED].join("; ")}`,
    );
    expectCleaned(w);
  });

  test("an update that outlasts every deadline: the step times out, the restore cannot finish either, and the report says what is left and how to finish it (exit 3)", async () => {
    // Updates take 15.5 min, the step allows 10: it times out at 724 s. The cleanup's restore has
    // 2 × 10 min (until 1924 s): the change completes at 1054 s, the restore is requested then and
    // has the 14m30s left, which it cannot finish in.
    const w = world({}, { inProgressMs: 900_000 });
    const r = await runOn(w, "fsx-failover", { fsxOptions: { updateTimeoutMs: 600_000 } });
    expect(r.outcome.stage).toBe("wait for the change");
    expect(r.outcome.error).toBe("the throughput update 512 → 1024 MB/s did not complete within 10m00s (last seen IN_PROGRESS)");
    expect(r.outcome.exitCode).toBe(3);
    expect(r.outcome.report.slice(2)).toEqual([
      `cleanup: ${DELETED.join("; ")}`,
      "left (NOT cleaned up):",
      `  ${FS_ID} may not be at 512 MB/s: aws fsx update-file-system --file-system-id ${FS_ID} --ontap-configuration ThroughputCapacity=512 (the throughput update 1024 → 512 MB/s did not complete within 14m30s (last seen IN_PROGRESS))`,
    ]);
  });

  test("a Single-AZ file system: refused before anything is created", async () => {
    const w = world({}, { deploymentType: "SINGLE_AZ_1" });
    const r = await runOn(w, "fsx-failover");
    expect(r.outcome.error).toBe("the AZ failover needs a Multi-AZ file system (MULTI_AZ_1 or MULTI_AZ_2), this one is SINGLE_AZ_1");
    expect(w.calls).toEqual([`describe ${FS_ID}`]);
  });

  test("an update already running: refused", async () => {
    const w = world();
    w.fsxUpdate(1024, "someone-else");
    const r = await runOn(w, "fsx-failover");
    expect(r.outcome.error).toBe(`${FS_ID} has a throughput update to 1024 MB/s PENDING: wait until it has completed`);
  });
});

describe("fsx-failover: Ctrl-C", () => {
  test("during the change: the cleanup waits for it, restores the throughput, deletes fio's objects; exit 130", async () => {
    const w = world();
    const abort = new AbortController();
    const stop = new AbortController();
    w.onCall = (call) => {
      if (call === `describe ${FS_ID}` && w.t >= Date.UTC(2026, 0, 15, 10, 3, 0)) abort.abort();
    };
    const r = await runOn(w, "fsx-failover", { interrupts: { abort: abort.signal, stop: stop.signal } });
    expect(r.outcome.status).toBe("interrupted");
    expect(r.outcome.exitCode).toBe(130);
    expect(r.outcome.report).toEqual([
      `== fsx-failover r1 on ${STACK}: interrupted (Ctrl-C) during "wait for the change" (13m04s)`,
      "results: none written",
      `cleanup: ${[RESTORED, ...DELETED].join("; ")}`,
      "left: nothing",
    ]);
    expectCleaned(w);
  });
});
