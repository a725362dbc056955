/**
 * The published Ceph figures (issue 38 item 3): the six raw pgbench outputs of
 * koor-tech/experiment-ceph-on-nitro as reference rows with their spread, the ratio against 1.43,
 * and where the time went, statement by statement, beside two synthetic sides of ours.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { parsePgbench } from "../../../core/parsers/pgbench";
import type { Sample } from "../../../core/sample";
import { pointVerdict, referenceNote, SETUP_DIFFERENCES_LEAD, setupDifferenceLines, spreadVerdict } from "../../../lab/report/layout";
import { renderMarkdown } from "../../../lab/report/markdown";
import { buildModel, type MetricTable } from "../../../lab/report/model";
import {
  CEPH_COMMIT,
  cephRunFile,
  PUBLISHED_CEPH_RATIO,
  PUBLISHED_FIGURES,
  PUBLISHED_PGBENCH_RUNS,
  TPCB_STATEMENTS,
} from "../../../lab/report/published";

const ceph = PUBLISHED_FIGURES.filter((f) => f.scenario === "ceph-nitro");
const value = (metric: string, hypervisor: string, statement?: string) =>
  ceph.find(
    (f) => f.metric === metric && f.side.hypervisor === hypervisor && (statement === undefined || f.workload.statement === statement),
  )!;

test("the figures are the means of the six runs: 374.95 TPS / 53.35 ms on m4, 537.24 / 37.23 on m5, ×1.4328 (the post's 1.43)", () => {
  expect(PUBLISHED_PGBENCH_RUNS.map((r) => `${r.side} ${r.run}`)).toEqual([
    "stock 1",
    "stock 2",
    "stock 3",
    "nitro 1",
    "nitro 2",
    "nitro 3",
  ]);
  expect([value("pgbench.tps", "xen").value, value("pgbench.latency.mean", "xen").value]).toEqual([374.95, 53.35]);
  expect([value("pgbench.tps", "nitro").value, value("pgbench.latency.mean", "nitro").value]).toEqual([537.24, 37.23]);
  expect(value("pgbench.tps", "xen").runs).toEqual([369.609508, 383.341662, 371.896436]);
  const ratio = value("pgbench.tps", "nitro").value / value("pgbench.tps", "xen").value;
  expect(ratio.toFixed(4)).toBe("1.4328");
  expect(Number(ratio.toFixed(2))).toBe(PUBLISHED_CEPH_RATIO);
  // END; took 30.158 of m4 run 1's 54.111 ms; the statements add up to the transaction within rounding.
  const m4run1 = PUBLISHED_PGBENCH_RUNS[0];
  expect(m4run1.statementsMs[TPCB_STATEMENTS.indexOf("END;")]).toBe(30.158);
  for (const r of PUBLISHED_PGBENCH_RUNS) expect(Math.abs(r.statementsMs.reduce((a, x) => a + x, 0) - r.latencyMeanMs)).toBeLessThan(0.1);
  expect(value("pgbench.statement.latency", "xen", "END;").value).toBe(29.76);
  expect(value("pgbench.statement.latency", "nitro", "END;").value).toBe(20.399);
  expect(ceph.every((f) => f.source.url === `https://github.com/koor-tech/experiment-ceph-on-nitro/tree/${CEPH_COMMIT}/results`)).toBe(
    true,
  );
});

// The source files themselves are not copied into this repository: where a checkout of it is at
// hand (LAB_CEPH_SOURCE, or the mirror the lab's authors read it from), `lab parse`'s parser reads
// each file and every figure above must be what it says.
const SOURCE = process.env.LAB_CEPH_SOURCE ?? "/work/.mirror/koor-tech+experiment-ceph-on-nitro/repo";
const haveSource = fs.existsSync(SOURCE);
(haveSource ? test : test.skip)(
  `the six files at ${CEPH_COMMIT.slice(0, 7)}, parsed by the lab's pgbench parser, are the figures recorded`,
  () => {
    for (const r of PUBLISHED_PGBENCH_RUNS) {
      const text = execFileSync("git", ["--git-dir", SOURCE, "show", `${CEPH_COMMIT}:${cephRunFile(r)}`], { encoding: "utf8" });
      const samples = parsePgbench(text, cephRunFile(r));
      const get = (m: string) => samples.filter((s) => s.metric === m).map((s) => s.value);
      expect([get("pgbench.tps"), get("pgbench.latency.mean"), get("pgbench.transactions")]).toEqual([
        [r.tps],
        [r.latencyMeanMs],
        [r.transactions],
      ]);
      expect(samples.filter((s) => s.metric === "pgbench.statement.latency").map((s) => [s.metadata.statement, s.value])).toEqual(
        TPCB_STATEMENTS.map((t, i) => [t, r.statementsMs[i]]),
      );
      expect(samples[0].metadata).toMatchObject({
        toolVersion: "pgbench (PostgreSQL) 14.1",
        serverVersion: "14.2",
        scale: 1000,
        clients: 20,
        threads: 2,
        durationSeconds: 300,
      });
    }
  },
);

/** Two synthetic sides of ours, three repetitions each, the published setup's metadata. */
function ours(stack: string, instanceType: string, hypervisor: string, tps: number[], end: number[]): Sample[] {
  const meta = {
    tool: "pgbench" as const,
    scenario: "ceph-nitro",
    stack,
    runId: "r1",
    instanceType,
    hypervisor,
    transactionType: "<builtin: TPC-B (sort of)>",
    scale: 1000,
    clients: 20,
    threads: 2,
    durationSeconds: 300,
  };
  return tps.flatMap((v, i) => [
    { metric: "pgbench.tps", value: v, unit: "txn/s", metadata: { ...meta, rep: i + 1 } },
    {
      metric: "pgbench.statement.latency",
      value: end[i],
      unit: "ms",
      metadata: { ...meta, rep: i + 1, statement: "END;", statementIndex: 11 },
    },
  ]);
}

describe("a report of two synthetic sides beside the six source runs", () => {
  const model = buildModel([
    { file: "results/dev/r1/samples.json", samples: ours("dev", "m4.xlarge", "xen", [360, 366, 371], [31, 30.5, 30]) },
    { file: "results/nitro/r1/samples.json", samples: ours("nitro", "m5.xlarge", "nitro", [530, 540, 545], [20.1, 20.4, 21]) },
  ]);
  const e = model.experiments[0];
  const table = (metric: string): MetricTable => e.tables.find((t) => t.metric === metric)!;

  test("each side gets its published row, its runs' spread and a verdict in words", () => {
    const tps = table("pgbench.tps");
    expect(tps.references.map((r) => [r.figure.label, r.figure.value, r.rows])).toEqual([
      ["m4.xlarge (Xen)", 374.95, [0]],
      ["m5.xlarge (Nitro)", 537.24, [1]],
    ]);
    const note = referenceNote(tps, 0);
    expect(note).toContain("the figure is the mean of 3 published runs (369.61, 383.34, 371.9; range 369.61–383.34 txn/s)");
    expect(note).toContain("dev · m4.xlarge · xen (median 366 txn/s) is 0.98 % below the published runs' lowest (369.61).");
    expect(referenceNote(tps, 1)).toContain("nitro · m5.xlarge · nitro (median 540 txn/s) falls within the published runs' range.");
  });

  test("the Nitro / Xen ratio is shown beside the published one, 1.4328", () => {
    const r = e.ratios.find((x) => x.metric === "pgbench.tps")!;
    expect(r.estimate.ratio).toBeCloseTo(540 / 366, 10);
    expect(r.published).toBeCloseTo(537.24 / 374.95, 10);
  });

  test("per statement: END; of ours beside the source's, both sides", () => {
    const t = table("pgbench.statement.latency");
    expect(t.references.map((r) => [r.figure.label, r.figure.workload.statement, r.figure.value, r.rows])).toEqual([
      ["m4.xlarge (Xen)", "END;", 29.76, [0]],
      ["m5.xlarge (Nitro)", "END;", 20.399, [1]],
    ]);
    expect(referenceNote(t, 0)).toContain("dev · m4.xlarge · xen (median 30.5 ms) is 1.1 % above the published runs' highest (30.158).");
  });
});

test("the verdict: within the range, or how far below the lowest or above the highest run", () => {
  expect(spreadVerdict("x", 375, [369.6, 383.3], "txn/s")).toBe("x (median 375 txn/s) falls within the published runs' range.");
  expect(spreadVerdict("x", 300, [369.6, 383.3], "txn/s")).toBe("x (median 300 txn/s) is 19 % below the published runs' lowest (369.6).");
  expect(spreadVerdict("x", 400, [369.6, 383.3], "txn/s")).toBe("x (median 400 txn/s) is 4.4 % above the published runs' highest (383.3).");
});

test("a figure published alone: how far ours is from it, never a verdict the figure cannot support", () => {
  expect(pointVerdict("kafka · 1", 3100, 3218, "MB/s")).toBe(
    "kafka · 1 (median 3,100 MB/s) is 3.7 % below the published figure (3,218); the publication gives one figure and no spread, so this says how far apart they are, not whether they differ.",
  );
  expect(pointVerdict("x", 500, 483.8, "us")).toMatch(/^x \(median 500 us\) is 3\.3 % above the published figure \(483\.8\); /);
  expect(pointVerdict("x", 12, 12, "op/s")).toMatch(/^x \(median 12 op\/s\) equals the published figure; /);
});

test("the report lists where the shipped setup differs from the publication, from the method table", () => {
  const lines = setupDifferenceLines("ceph-nitro");
  expect(lines).toContain(
    "Ceph image: published quay.io/ceph/ceph:v16.2.7, shipped quay.io/ceph/ceph:v20.2.4 (Ceph 16 (Pacific) is end of life and not among the versions the pinned Rook v1.20.6 runs; the Ceph pinned with it (components/versions.ts)).",
  );
  // Only the rows that differ: the CNI and the pgbench options are the source's.
  expect(lines.some((l) => l.startsWith("CNI:") || l.startsWith("pgbench run:"))).toBe(false);
  // Kafka's from its own table: among them the page's "3K" against the block's 32768 the lab runs.
  expect(setupDifferenceLines("kafka-fsx")).toContain(
    "message size in the text: published \"In our performance test, we used 3K.\", shipped 32768 bytes (the page's own workload block says messageSize 32768; the lab runs the block, and the report matches NetApp's figures on it).",
  );
  expect(setupDifferenceLines("kafka-fsx").some((l) => l.startsWith("OMB workload:") || l.startsWith("broker settings:"))).toBe(false);
  expect(setupDifferenceLines("no-such-experiment")).toEqual([]);
  const md = renderMarkdown(
    buildModel([{ file: "results/dev/r1/samples.json", samples: ours("dev", "m4.xlarge", "xen", [360, 366, 371], [31, 30.5, 30]) }]),
    { charts: false },
  );
  expect(md).toContain(
    `### Setup differences from the publication\n\n${SETUP_DIFFERENCES_LEAD}\n\n- region: published us-west-2, shipped us-east-1`,
  );
});
