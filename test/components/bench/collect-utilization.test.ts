/**
 * components/bench/collect.ts with the repetition windows and the node sampler's summaries
 * (lib.sh lab_util_begin/lab_util_end/lab_util_emit): marker times as `repStart`/`repEnd`, each
 * summary turned into utilization samples of its repetition, logs without either still collected
 * as before.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { collectSamples, collectUtilization, cutResultBlocks, markerMetadata } from "../../../components/bench/collect";
import { ToolOutputError } from "../../../core/errors";
import { parseToolOutput } from "../../../core/parsers";

const SUMMARY = fs.readFileSync(path.join(__dirname, "../../fixtures/sampler/summary.txt"), "utf8");
const PGBENCH = fs.readFileSync(path.join(__dirname, "../../fixtures/pgbench/tpcb-15.txt"), "utf8");
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
        snapshots: 3,
        intervalSeconds: 1,
        resource: "node",
        cpus: 2,
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

  it("a summary that follows no repetition of the tool is an error naming the log and the line", () => {
    const log = `${block(1)}${util(2)}`;
    const blocks = cutResultBlocks(log, OPTS.source);
    expect(() => collectUtilization(log, blocks, OPTS)).toThrow(ToolOutputError);
    expect(() => collectUtilization(log, blocks, OPTS)).toThrow(
      `job/b-pgbench-r1: line ${log.split("\n").indexOf("=== LAB-UTIL-BEGIN tool=pgbench rep=2 ===") + 1}: utilization of tool=pgbench rep=2 follows no repetition of pgbench`,
    );
    const other = `${block(1)}${util(1, "fio")}`;
    expect(() => collectSamples(other, OPTS, parseToolOutput)).toThrow("utilization of tool=fio rep=1 follows no repetition of pgbench");
  });

  it("a malformed summary fails the collection, naming its raw output", () => {
    const log = `${block(1)}=== LAB-UTIL-BEGIN tool=pgbench rep=1 ===\nwindow seconds=x\n=== LAB-UTIL-END tool=pgbench rep=1 ===\n`;
    expect(() => collectSamples(log, OPTS, parseToolOutput)).toThrow(
      `job/b-pgbench-r1/pgbench-rep1.util.txt: line 1: 'seconds' must be a number, got "x"`,
    );
  });
});
