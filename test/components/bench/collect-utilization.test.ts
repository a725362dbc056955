/**
 * components/bench/collect.ts with the repetition windows and the node sampler's summaries
 * (lib.sh lab_util_begin/lab_util_end/lab_util_emit): marker times as `repStart`/`repEnd`, each
 * summary turned into utilization samples of its repetition, logs without either still collected
 * as before.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { collectSamples, collectUtilization, cutResultBlocks, markerMetadata } from "../../../components/bench/collect";
import { parseToolOutput } from "../../../core/parsers";

const SUMMARY = fs.readFileSync(path.join(__dirname, "../../fixtures/sampler/summary.txt"), "utf8");
const PGBENCH = fs.readFileSync(path.join(__dirname, "../../fixtures/pgbench/tpcb-15.txt"), "utf8");
const PGBENCH_TPS = parseToolOutput("pgbench", PGBENCH, "tpcb-15.txt").find((s) => s.metric === "pgbench.tps")!.value;
const START = "2026-01-15T10:00:00Z";
const END = "2026-01-15T10:05:02Z";

const block = (rep: number, times = true) =>
  `=== LAB-RESULT-BEGIN tool=pgbench rep=${rep} scale=1000 clients=20 threads=2 duration=300 init=ran version=17.6${times ? ` start=${START} end=${END}` : ""} ===\n${PGBENCH}=== LAB-RESULT-END tool=pgbench rep=${rep} ===\n`;
const util = (rep: number, tool = "pgbench") =>
  `=== LAB-UTIL-BEGIN tool=${tool} rep=${rep} ===\n${SUMMARY}=== LAB-UTIL-END tool=${tool} rep=${rep} ===\n`;
const OPTS = {
  tool: "pgbench" as const,
  reps: 1,
  source: "job/b-pgbench-r1",
  run: { stack: "dev", runId: "r1", instanceType: "m4.xlarge" },
};

describe("marker times", () => {
  it("start= and end= become the samples' repStart and repEnd (strings, not numbers)", () => {
    expect(markerMetadata({ tool: "fio", rep: "1", version: "3.33", start: START, end: END })).toEqual({
      toolVersion: "3.33",
      repStart: START,
      repEnd: END,
    });
  });

  it("a log whose markers have no times is collected as before, without a window or utilization", () => {
    const { samples, raws } = collectSamples(block(1, false), OPTS, parseToolOutput);
    expect(samples.every((s) => s.metadata.repStart === undefined && !s.metric.startsWith("util."))).toBe(true);
    expect(raws.map((r) => r.name)).toEqual(["pgbench-rep1.txt"]);
  });
});

describe("collectUtilization", () => {
  it("each summary becomes its repetition's utilization samples and a raw output", () => {
    const log = `${block(1)}${util(1)}`;
    const { samples, raws } = collectSamples(log, OPTS, parseToolOutput);
    const tps = samples.find((s) => s.metric === "pgbench.tps")!;
    const steal = samples.find((s) => s.metric === "util.node.cpuSteal")!;
    expect(steal).toEqual({
      metric: "util.node.cpuSteal",
      value: 6.25,
      unit: "%",
      metadata: {
        tool: "pgbench",
        stack: "dev",
        runId: "r1",
        instanceType: "m4.xlarge",
        scale: 1000,
        clients: 20,
        threads: 2,
        durationSeconds: 300,
        pgbenchInitialisation: "ran",
        toolVersion: "17.6",
        repStart: START,
        repEnd: END,
        rep: 1,
        utilSource: "node-sampler",
        windowSeconds: 2,
        measuredSeconds: 2,
        snapshots: 3,
        intervalSeconds: 1,
        resource: "node",
        cpus: 2,
        cpuScope: "node",
        max: 10,
      },
    });
    expect(tps.metadata.repStart).toBe(START);
    expect(samples.filter((s) => s.metric.startsWith("util.")).length).toBe(15);
    expect(raws).toEqual([
      { name: "pgbench-rep1.txt", text: PGBENCH },
      { name: "pgbench-rep1.util.txt", text: SUMMARY },
    ]);
  });

  it("a summary that follows no repetition of the tool is dropped and said; the benchmark's samples are kept", () => {
    const log = `${block(1)}${util(2)}`;
    const blocks = cutResultBlocks(log, OPTS.source);
    const line = log.split("\n").indexOf("=== LAB-UTIL-BEGIN tool=pgbench rep=2 ===") + 1;
    expect(collectUtilization(log, blocks, OPTS).samples).toEqual([
      {
        metric: "util.node.unreadable",
        value: 1,
        unit: "count",
        metadata: {
          stack: "dev",
          runId: "r1",
          instanceType: "m4.xlarge",
          tool: "pgbench",
          utilSource: "node-sampler",
          resource: "node",
          utilNote: `node sampler summary dropped: job/b-pgbench-r1: line ${line}: utilization of tool=pgbench rep=2 follows no repetition of pgbench`,
        },
      },
    ]);
    const other = collectSamples(`${block(1)}${util(1, "fio")}`, OPTS, parseToolOutput);
    expect(other.samples.find((s) => s.metric === "pgbench.tps")?.value).toBe(PGBENCH_TPS);
    expect(other.samples.find((s) => s.metric === "util.node.unreadable")?.metadata.utilNote).toBe(
      "node sampler summary dropped: job/b-pgbench-r1: line 16: utilization of tool=fio rep=1 follows no repetition of pgbench",
    );
  });

  it("a malformed summary (an old sampler's negative delta) is dropped and said, naming its raw output; pgbench.tps is kept", () => {
    const bad = SUMMARY.replace("iowait=2.50/5.00", "iowait=-2.50/5.00");
    const log = `${block(1)}=== LAB-UTIL-BEGIN tool=pgbench rep=1 ===\n${bad}=== LAB-UTIL-END tool=pgbench rep=1 ===\n`;
    const { samples, raws } = collectSamples(log, OPTS, parseToolOutput);
    expect(samples.find((s) => s.metric === "pgbench.tps")?.value).toBe(PGBENCH_TPS);
    expect(
      samples.filter((s) => s.metric.startsWith("util.")).map((s) => [s.metric, s.value, s.metadata.rep, s.metadata.utilNote]),
    ).toEqual([
      [
        "util.node.unreadable",
        1,
        1,
        `node sampler summary dropped: job/b-pgbench-r1/pgbench-rep1.util.txt: line 2: 'iowait' must be <mean>/<max>, got "-2.50/5.00"`,
      ],
    ]);
    expect(raws.map((r) => r.name)).toEqual(["pgbench-rep1.txt", "pgbench-rep1.util.txt"]);
  });

  it("util markers that cannot be cut are dropped and said; the benchmark's samples are kept", () => {
    const log = `${block(1)}=== LAB-UTIL-BEGIN tool=pgbench rep=1 ===\n${SUMMARY}`;
    const { samples } = collectSamples(log, OPTS, parseToolOutput);
    expect(samples.find((s) => s.metric === "pgbench.tps")?.value).toBe(PGBENCH_TPS);
    expect(samples.filter((s) => s.metric.startsWith("util.")).map((s) => s.metadata.utilNote)).toEqual([
      `node sampler output dropped: job/b-pgbench-r1: truncated: utilization of tool=pgbench rep=1 (line ${log.split("\n").indexOf("=== LAB-UTIL-BEGIN tool=pgbench rep=1 ===") + 1}) has no end marker`,
    ]);
  });

  it("a summary whose sampler dropped intervals (decreasing iowait, wrapped diskstats) gives its figures, the drop said on each and in util.node.dropped", () => {
    const glitch = fs.readFileSync(path.join(__dirname, "../../fixtures/sampler/summary-glitch.txt"), "utf8");
    const log = `${block(1)}=== LAB-UTIL-BEGIN tool=pgbench rep=1 ===\n${glitch}=== LAB-UTIL-END tool=pgbench rep=1 ===\n`;
    const { samples } = collectSamples(log, OPTS, parseToolOutput);
    expect(samples.find((s) => s.metric === "pgbench.tps")?.value).toBe(PGBENCH_TPS);
    const dropped = samples.find((s) => s.metric === "util.node.dropped")!;
    expect([dropped.value, dropped.unit, dropped.metadata.rep, dropped.metadata.utilNote]).toEqual([
      2,
      "count",
      1,
      "node sampler: 2 interval(s) dropped because a /proc/stat CPU counter went down (iowait will decrease in certain conditions, Documentation/filesystems/proc.rst) and a /proc/diskstats counter went down (fields wrap, Documentation/admin-guide/iostats.rst); the figures cover 3 s of the 5 s window",
    ]);
    const busy = samples.find((s) => s.metric === "util.node.cpuBusy")!;
    expect([busy.value, busy.metadata.measuredSeconds, busy.metadata.droppedIntervals, busy.metadata.droppedReasons]).toEqual([
      31.67,
      3,
      2,
      "cpu,disk",
    ]);
  });
});
