/**
 * The MySQL pod failover end to end on the simulated cluster (./sim.ts): the writer's records, the
 * zone change, the same volume, the samples and the verdict; a lost acknowledged row; a replica
 * whose I/O thread gave up while mysql-0 moved (every row there, the experiment still fails); a failure
 * injected at every step, a timeout, a placement back into the same zone and Ctrl-C each leave the
 * nodes uncordoned and the writer's Job and ConfigMap deleted; a used run id is refused.
 */
import * as path from "node:path";
import { readRunResults } from "../../../lab/results/files";
import { RunRefusedError } from "../../../lab/experiment/run";
import { writerManifests } from "../../../lab/experiment/manifests";
import { readExperimentScripts } from "../../../lab/experiment/scripts";
import { DEFAULT_WORLD, World, WorldOptions } from "./sim";
import { firstCallOfEachStep, runOn, STACK, stepLines, removeTmpDirs, valuesOf } from "./support";

const world = (o: Partial<WorldOptions> = {}) => new World({ ...DEFAULT_WORLD, ...o });
afterAll(removeTmpDirs);
const NODE_A1 = "ip-10-0-1-10.ec2.internal";
const NODE_A2 = "ip-10-0-1-20.ec2.internal";
const NODE_B1 = "ip-10-0-2-10.ec2.internal";

/** Nothing of the run is left: no cordon, no Job, ConfigMap or writer pod. */
function expectCleaned(w: World): void {
  const l = w.leftovers();
  expect({ cordoned: l.cordoned, jobs: l.jobs, configMaps: l.configMaps, pods: l.pods }).toEqual({
    cordoned: [],
    jobs: [],
    configMaps: [],
    pods: [],
  });
}

describe("mysql-failover: the happy path", () => {
  // Timeline (simulated, from the start T0; DEFAULT_WORLD, default options): the writer's pod runs
  // at 3 s and writes every 200 ms from 3.2 s; the experiment sees its first ack at its 4 s poll,
  // waits 20 s (baseline) and deletes mysql-0 at 24 s, after the write at 24.0 s (ids 1–105
  // acknowledged); the old pod is gone at 29 s, the new one scheduled at 30 s on the only
  // schedulable node (us-east-1b: both us-east-1a nodes are cordoned) and Ready at 54 s, seen by
  // the 54 s poll, after the write at 54.0 s (id 255) was acknowledged; the first write started
  // after that (id 256, at 54.2 s) is seen at 55 s. The stop
  // annotation is set at 55 s, the writer sees it 4 s later, at its 59.0 s tick: 279 writes, of
  // which the 149 from 24.2 s to 53.8 s failed; 130 rows in the table.
  let run: Awaited<ReturnType<typeof runOn>>;
  let w: World;
  beforeAll(async () => {
    w = world();
    run = await runOn(w, "mysql-failover");
  });

  test("passes, exit 0, and says so", () => {
    expect(run.outcome.status).toBe("passed");
    expect(run.outcome.exitCode).toBe(0);
    expect(run.outcome.report).toEqual([
      `== mysql-failover r1 on ${STACK}: passed (59s)`,
      `results: ${path.join(run.resultsRoot, "fsx-eks", "mysql-failover-r1")}`,
      `cleanup: uncordoned node ${NODE_A1}; uncordoned node ${NODE_A2}; deleted Job mysql/mysql-failover-writer-r1 and its pod; deleted ConfigMap mysql/mysql-failover-r1`,
      "left: nothing",
    ]);
  });

  test("one progress line per step, with the time since the start and the step's own time", () => {
    expect(stepLines(run.lines)).toEqual([
      `+00:00:00 mysql-failover [1/11] check the cluster: done in 0s  mysql-0 on ${NODE_A1} (us-east-1a), claim data-mysql-0 → pvc-6f1c2d3e; 1 node(s) ready outside us-east-1a; 2 replica(s)`,
      `+00:00:04 mysql-failover [2/11] start the writer: done in 4s  Job mysql/mysql-failover-writer-r1, pod mysql-failover-writer-r1-x7k2q on ${NODE_B1}`,
      "+00:00:24 mysql-failover [3/11] write before the failover: done in 20s  105 writes acknowledged",
      `+00:00:24 mysql-failover [4/11] cordon us-east-1a: done in 0s  cordoned ${NODE_A1}, ${NODE_A2}`,
      "+00:00:24 mysql-failover [5/11] delete mysql-0: done in 0s  105 rows acknowledged before the delete",
      `+00:00:54 mysql-failover [6/11] wait for mysql-0 in another zone: done in 30s  on ${NODE_B1} (us-east-1b), Ready 30s after the delete`,
      "+00:00:54 mysql-failover [7/11] check the volume: done in 0s  claim data-mysql-0 still bound to pvc-6f1c2d3e",
      "+00:00:55 mysql-failover [8/11] write after the failover: done in 1s  id 256, 31s after the delete",
      `+00:00:55 mysql-failover [9/11] uncordon us-east-1a: done in 0s  uncordoned ${NODE_A1}, ${NODE_A2}`,
      "+00:00:59 mysql-failover [10/11] stop the writer: done in 4s  279 writes, 130 rows of run r1 in the table",
      "+00:00:59 mysql-failover [11/11] verify the rows and the replicas: done in 0s  all 130 acknowledged rows present, 130 rows in the table; 2 replica(s) replicating, caught up with id 279",
    ]);
  });

  test("the samples, exactly", () => {
    const meta = {
      tool: "failover",
      experiment: "mysql-failover",
      scenario: "fsx-eks",
      stack: "fsx-eks",
      runId: "r1",
      zoneFrom: "us-east-1a",
      zoneTo: "us-east-1b",
      nodeFrom: NODE_A1,
      nodeTo: NODE_B1,
      storageClass: "fsx-ontap-nas",
      claim: "data-mysql-0",
      persistentVolume: "pvc-6f1c2d3e",
      cordoned: `${NODE_A1},${NODE_A2}`,
      writerIntervalMs: 200,
    };
    expect(run.outcome.samples).toEqual([
      { metric: "failover.rows.before", value: 105, unit: "count", metadata: { ...meta, measuredAt: "delete" } },
      { metric: "failover.rows.after", value: 130, unit: "count", metadata: meta },
      { metric: "failover.rows.lost", value: 0, unit: "count", metadata: { ...meta, acknowledged: 130 } },
      { metric: "failover.recovery", value: 31, unit: "s", metadata: { ...meta, readySeconds: 30, pollMs: 1000, clock: "operator" } },
      { metric: "failover.outage", value: 30, unit: "s", metadata: { ...meta, clock: "writer" } },
      { metric: "failover.writes.failed", value: 149, unit: "count", metadata: meta },
      { metric: "failover.replicas.replicating", value: 2, unit: "count", metadata: { ...meta, replicas: 2 } },
    ]);
  });

  test("the samples and the raw evidence are written beside the stack's results, once", () => {
    const dir = path.join(run.resultsRoot, "fsx-eks", "mysql-failover-r1");
    const saved = readRunResults(dir);
    expect(saved.samples).toEqual(run.outcome.samples);
    expect(saved.raws.map((r) => r.name)).toEqual(["timeline.json", "writer.log"]);
    const log = saved.raws.find((r) => r.name === "writer.log")!.text;
    expect(log.split("\n").slice(0, 2)).toEqual([
      "writer start run=r1 host=mysql-0.mysql.mysql.svc.cluster.local interval_ms=200",
      `ack 1 ${Date.UTC(2026, 0, 15, 10, 0, 3, 200)}`,
    ]);
    expect(log).toContain("present-end count=130\nreplica-begin mysql-1.mysql.mysql.svc.cluster.local\nreplica-max 279\n");
    expect(log.endsWith("replica-end mysql-2.mysql.mysql.svc.cluster.local\nwriter done\n")).toBe(true);
    const timeline = JSON.parse(saved.raws.find((r) => r.name === "timeline.json")!.text);
    expect(timeline).toEqual([
      { at: "2026-01-15T10:00:24.000Z", clock: "operator", what: `cordoned ${NODE_A1} (us-east-1a)` },
      { at: "2026-01-15T10:00:24.000Z", clock: "operator", what: `cordoned ${NODE_A2} (us-east-1a)` },
      { at: "2026-01-15T10:00:24.000Z", clock: "operator", what: `deleted mysql-0 (uid uid-1) on ${NODE_A1}` },
      { at: "2026-01-15T10:00:24.000Z", clock: "writer", what: "last acknowledged write before the outage" },
      { at: "2026-01-15T10:00:54.000Z", clock: "operator", what: `mysql-0 (uid uid-3) Ready on ${NODE_B1} (us-east-1b)` },
      { at: "2026-01-15T10:00:54.000Z", clock: "writer", what: "first acknowledged write after the outage (149 failed in between)" },
      { at: "2026-01-15T10:00:55.000Z", clock: "operator", what: "write 256 acknowledged after the failover" },
      { at: "2026-01-15T10:00:55.000Z", clock: "operator", what: `uncordoned ${NODE_A1}` },
      { at: "2026-01-15T10:00:55.000Z", clock: "operator", what: `uncordoned ${NODE_A2}` },
    ]);
  });

  test("the cluster is as it was: nodes schedulable, the writer's Job and ConfigMap gone; the writer was stopped through its pod's annotation", () => {
    expectCleaned(w);
    expect(w.calls.filter((c) => c.startsWith("annotatePod"))).toEqual([
      'annotatePod mysql/mysql-failover-writer-r1-x7k2q {"lab/stop":"true"}',
    ]);
    expect(w.calls.filter((c) => c.startsWith("setUnschedulable"))).toEqual([
      `setUnschedulable ${NODE_A1} true`,
      `setUnschedulable ${NODE_A2} true`,
      `setUnschedulable ${NODE_A1} false`,
      `setUnschedulable ${NODE_A2} false`,
    ]);
  });

  test("it created the writer's ConfigMap and Job only", () => {
    expect(w.calls.filter((c) => c.startsWith("create"))).toEqual([
      "createConfigMap mysql/mysql-failover-r1",
      "createJob mysql/mysql-failover-writer-r1",
    ]);
  });

  test("a second run under the same run id is refused before anything is touched", async () => {
    const again = world();
    await expect(runOn(again, "mysql-failover", { resultsRoot: run.resultsRoot })).rejects.toThrow(
      new RunRefusedError(
        `${path.join(run.resultsRoot, "fsx-eks", "mysql-failover-r1")} already exists: mysql-failover has run under run id r1; give a new --run-id (results are written once)`,
      ),
    );
    expect(again.calls).toEqual([]);
  });
});

describe("mysql-failover: the evidence fails it", () => {
  test("a lost acknowledged row fails the experiment, naming the ids, and the samples say 3 lost", async () => {
    const w = world({ loseOnDelete: 3 });
    const r = await runOn(w, "mysql-failover");
    expect(w.lost).toEqual([103, 104, 105]);
    expect(r.outcome.status).toBe("failed");
    expect(r.outcome.exitCode).toBe(1);
    expect(r.outcome.stage).toBe("verify the rows and the replicas");
    expect(r.outcome.error).toBe(
      "3 acknowledged row(s) lost: id(s) 103, 104, 105 of run r1 were committed (the writer's INSERT succeeded) and are not in lab_failover.writes after mysql-0 moved from us-east-1a to us-east-1b",
    );
    expect(r.outcome.report[0]).toBe(
      `== mysql-failover r1 on ${STACK}: FAILED at "verify the rows and the replicas": ${r.outcome.error} (59s)`,
    );
    expect(valuesOf(r.outcome, "failover.rows.lost")).toEqual([[3, "count"]]);
    expect(valuesOf(r.outcome, "failover.rows.after")).toEqual([[127, "count"]]);
    // The evidence is kept: a failed run's samples are written too.
    expect(readRunResults(r.outcome.resultsDir!).samples).toEqual(r.outcome.samples);
    expectCleaned(w);
  });

  test("a replica whose I/O thread stopped while mysql-0 moved fails the experiment, though every row is there", async () => {
    const w = world({ replicasGivingUp: ["mysql-1"] });
    const r = await runOn(w, "mysql-failover");
    expect(w.lost).toEqual([]);
    expect([r.outcome.status, r.outcome.exitCode, r.outcome.stage]).toEqual(["failed", 1, "verify the rows and the replicas"]);
    expect(r.outcome.error).toBe(
      "replication broken after mysql-0 moved from us-east-1a to us-east-1b: mysql-1.mysql.mysql.svc.cluster.local: I/O thread not running: Replica_IO_Running: No (Last_IO_Errno 2005: error connecting to source 'root@mysql-0.mysql.mysql.svc.cluster.local:3306' - retry-time: 10 retries: 8640 message: Unknown MySQL server host 'mysql-0.mysql.mysql.svc.cluster.local' (-2)); behind: holds ids up to 105, the last acknowledged is 279",
    );
    expect(valuesOf(r.outcome, "failover.rows.lost")).toEqual([[0, "count"]]);
    expect(valuesOf(r.outcome, "failover.replicas.replicating")).toEqual([[1, "count"]]);
    expect(stepLines(r.lines).slice(-1)).toEqual([
      "+00:00:59 mysql-failover [11/11] verify the rows and the replicas: done in 0s  all 130 acknowledged rows present, 130 rows in the table; 1 of 2 replica(s) not replicating",
    ]);
    expect(readRunResults(r.outcome.resultsDir!).samples).toEqual(r.outcome.samples);
    expectCleaned(w);
  });

  test("lost rows and a broken replica: both reported", async () => {
    const r = await runOn(world({ loseOnDelete: 1, replicasGivingUp: ["mysql-2"] }), "mysql-failover");
    expect(r.outcome.error).toMatch(
      /^1 acknowledged row\(s\) lost: id\(s\) 105 of run r1 .*; and replication broken after mysql-0 moved from us-east-1a to us-east-1b: mysql-2\.mysql\.mysql\.svc\.cluster\.local: I\/O thread not running/,
    );
  });
});

describe("mysql-failover: every failure leaves the cluster as it was", () => {
  test("a failed API call at each step: the step fails with it, the nodes are uncordoned, the Job and ConfigMap deleted", async () => {
    const points = await firstCallOfEachStep(() => world(), "mysql-failover");
    // Every step but the last (it reads the log already fetched) calls the cluster.
    expect(points.map((p) => [p.step, p.what])).toEqual([
      ["check the cluster", "getStatefulSet mysql/mysql"],
      ["start the writer", "createConfigMap mysql/mysql-failover-r1"],
      ["write before the failover", "listPods mysql batch.kubernetes.io/job-name=mysql-failover-writer-r1"],
      ["cordon us-east-1a", `setUnschedulable ${NODE_A1} true`],
      ["delete mysql-0", "listPods mysql batch.kubernetes.io/job-name=mysql-failover-writer-r1"],
      ["wait for mysql-0 in another zone", "getPod mysql/mysql-0"],
      ["check the volume", "getClaim mysql/data-mysql-0"],
      ["write after the failover", "listPods mysql batch.kubernetes.io/job-name=mysql-failover-writer-r1"],
      ["uncordon us-east-1a", `setUnschedulable ${NODE_A1} false`],
      ["stop the writer", 'annotatePod mysql/mysql-failover-writer-r1-x7k2q {"lab/stop":"true"}'],
    ]);
    for (const p of points) {
      const w = world();
      w.failAt = p.call;
      const r = await runOn(w, "mysql-failover");
      expect([p.step, r.outcome.status, r.outcome.exitCode, r.outcome.stage, r.outcome.error]).toEqual([
        p.step,
        "failed",
        1,
        p.step,
        `connection reset by peer (injected) [${p.what}]`,
      ]);
      expect(r.outcome.report[r.outcome.report.length - 1]).toBe("left: nothing");
      expectCleaned(w);
    }
  });

  test("mysql-0 never scheduled: the wait times out after 10 minutes saying why, and the zone is uncordoned", async () => {
    const w = world({ placement: "nowhere" });
    const r = await runOn(w, "mysql-failover");
    expect(r.outcome.stage).toBe("wait for mysql-0 in another zone");
    expect(r.outcome.error).toBe(
      "timed out after 10m00s waiting for mysql-0 Ready on a node outside us-east-1a (the new pod is not scheduled yet)",
    );
    expect(stepLines(r.lines).slice(-1)).toEqual([
      "+00:10:24 mysql-failover [6/11] wait for mysql-0 in another zone: failed after 10m00s: timed out after 10m00s waiting for mysql-0 Ready on a node outside us-east-1a (the new pod is not scheduled yet)",
    ]);
    // A long wait says it is still waiting every minute: at 1 to 9 minutes, then it times out.
    expect(r.lines.filter((l) => l.includes("still waiting")).map((l) => l.slice(0, 10))).toEqual(
      ["+00:01:24", "+00:02:24", "+00:03:24", "+00:04:24", "+00:05:24", "+00:06:24", "+00:07:24", "+00:08:24", "+00:09:24"].map(
        (t) => `${t} `,
      ),
    );
    expect(r.lines.find((l) => l.includes("still waiting"))).toBe(
      "+00:01:24 mysql-failover [6/11] wait for mysql-0 in another zone: still waiting for mysql-0 Ready on a node outside us-east-1a, 1m00s  the new pod is not scheduled yet",
    );
    expect(r.outcome.report[1]).toBe("results: none written");
    expectCleaned(w);
  });

  test("mysql-0 back in the zone it left: the experiment fails, naming the node and the zone", async () => {
    const w = world({ placement: "old-zone" });
    const r = await runOn(w, "mysql-failover");
    expect(r.outcome.error).toBe(`mysql-0 came back on ${NODE_A1} in us-east-1a, the zone it left: its zone did not change`);
    expectCleaned(w);
  });

  test("no schedulable node outside mysql-0's zone: refused before anything is created", async () => {
    const w = world({ nodes: [...DEFAULT_WORLD.nodes.slice(0, 2), { name: NODE_B1, zone: "us-east-1b", unschedulable: true }] });
    const r = await runOn(w, "mysql-failover");
    expect(r.outcome.stage).toBe("check the cluster");
    expect(r.outcome.error).toBe(
      `no schedulable Ready node outside us-east-1a (${NODE_A1}: us-east-1a; ${NODE_A2}: us-east-1a; ${NODE_B1}: us-east-1b, cordoned): mysql-0 would have nowhere to go`,
    );
    expect(r.outcome.report[2]).toBe("cleanup: nothing to undo");
    // The node that was cordoned before the run stays cordoned: the cleanup undoes only what the run did.
    expect(w.leftovers().cordoned).toEqual([NODE_B1]);
  });

  test("a writer Job of the same run id in the cluster: refused, and that Job is left alone", async () => {
    const w = world();
    const { job } = writerManifests(
      {
        namespace: "mysql",
        runId: "r1",
        host: "h",
        passwordSecret: { name: "mysql-writer", key: "password" },
        intervalMs: 200,
        maxSeconds: 60,
        readbackSeconds: 10,
        replicaHosts: [],
        replicaWaitSeconds: 10,
      },
      readExperimentScripts(),
    );
    w.createJob(job);
    const r = await runOn(w, "mysql-failover");
    expect(r.outcome.error).toBe(
      "Job mysql/mysql-failover-writer-r1 exists: run id r1 has run in this cluster before; give a new --run-id",
    );
    expect(w.leftovers().jobs).toEqual(["mysql/mysql-failover-writer-r1"]);
  });
});

describe("mysql-failover: Ctrl-C", () => {
  test("during the wait for mysql-0: the step stops, the cleanup uncordons and deletes, exit 130", async () => {
    const w = world();
    const abort = new AbortController();
    const stop = new AbortController();
    let deleted = false;
    w.onCall = (call) => {
      if (call === "deletePod mysql/mysql-0") deleted = true;
      else if (deleted && call === "getPod mysql/mysql-0" && w.t >= Date.UTC(2026, 0, 15, 10, 0, 40)) abort.abort();
    };
    const r = await runOn(w, "mysql-failover", { interrupts: { abort: abort.signal, stop: stop.signal } });
    expect(r.outcome.status).toBe("interrupted");
    expect(r.outcome.exitCode).toBe(130);
    expect(r.outcome.report).toEqual([
      `== mysql-failover r1 on ${STACK}: interrupted (Ctrl-C) during "wait for mysql-0 in another zone" (40s)`,
      "results: none written",
      `cleanup: uncordoned node ${NODE_A2}; uncordoned node ${NODE_A1}; deleted Job mysql/mysql-failover-writer-r1 and its pod; deleted ConfigMap mysql/mysql-failover-r1`,
      "left: nothing",
    ]);
    expect(stepLines(r.lines).slice(-1)).toEqual([
      "+00:00:40 mysql-failover [6/11] wait for mysql-0 in another zone: interrupted after 16s: interrupted (Ctrl-C)",
    ]);
    expectCleaned(w);
  });

  test("a second Ctrl-C stops the cleanup: what is left is listed with the commands that finish it, exit 3", async () => {
    const w = world();
    const abort = new AbortController();
    const stop = new AbortController();
    w.onCall = (call) => {
      if (call === "deletePod mysql/mysql-0") {
        abort.abort();
        stop.abort();
      }
    };
    const r = await runOn(w, "mysql-failover", { interrupts: { abort: abort.signal, stop: stop.signal } });
    expect(r.outcome.exitCode).toBe(3);
    expect(r.outcome.report.slice(2)).toEqual([
      "cleanup: nothing to undo",
      "left (NOT cleaned up):",
      `  node ${NODE_A2} is cordoned: kubectl uncordon ${NODE_A2} (cleanup stopped by a second Ctrl-C)`,
      `  node ${NODE_A1} is cordoned: kubectl uncordon ${NODE_A1} (cleanup stopped by a second Ctrl-C)`,
      "  Job mysql/mysql-failover-writer-r1 and its pod: kubectl delete job -n mysql mysql-failover-writer-r1 (cleanup stopped by a second Ctrl-C)",
      "  ConfigMap mysql/mysql-failover-r1: kubectl delete configmap -n mysql mysql-failover-r1 (cleanup stopped by a second Ctrl-C)",
    ]);
    expect(w.leftovers().cordoned).toEqual([NODE_A1, NODE_A2]);
  });
});
