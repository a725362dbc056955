/**
 * The answer at the end of a run: `lab report` over the run's results (every directory the run
 * saved: benchmarks, reruns, experiments) into the run's directory `results/runs/<scenario>-<runId>/
 * report/`, and the lines the run closes with: where the report is, and the headline ratios of the
 * three published experiments (Nitro/Xen TPS, cross-/same-zone IOPS and latency, RF3/RF1
 * throughput) beside the published ones (lab/report/published.ts).
 */
import * as path from "node:path";
import { formatRatio } from "../report/format";
import { intervalText } from "../report/layout";
import type { Ratio, ReportModel } from "../report/model";

/** The ratios a run's closing lines show, in this order: comparison id (lab/report/model.ts `COMPARISONS`) and metric. */
export const HEADLINE_RATIOS: ReadonlyArray<{ readonly comparison: string; readonly metric: string }> = [
  { comparison: "hypervisor", metric: "pgbench.tps" },
  { comparison: "zone", metric: "fio.read.iops" },
  { comparison: "zone", metric: "fio.write.iops" },
  { comparison: "zone", metric: "ioping.latency.mean" },
  { comparison: "replication", metric: "omb.throughput" },
];

/** `results/runs/<scenario>-<runId>/report`. */
export function runReportDir(runDir: string): string {
  return path.join(runDir, "report");
}

function ratioLine(r: Ratio): string {
  const rows = r.num.label === "" && r.den.label === "" ? "" : ` [${r.num.label} / ${r.den.label}]`;
  const published = r.published === undefined ? "no published figure for both sides" : `published ${formatRatio(r.published)}`;
  return `  ${r.comparison.title} ${r.metric}${rows}: ours ${formatRatio(r.estimate.ratio)}, ${intervalText(r)}; ${published}`;
}

/**
 * The closing lines: the report's path (first: the runner prints it as soon as it is written), then
 * the headline ratios the run's results hold, each with its interval and the published ratio.
 */
export function runReportLines(outDir: string, model: ReportModel, status: "complete" | "partial"): string[] {
  const ratios = model.experiments.flatMap((e) => e.ratios);
  const headline = HEADLINE_RATIOS.flatMap((h) => ratios.filter((r) => r.comparison.id === h.comparison && r.metric === h.metric));
  const first = `report: ${path.join(outDir, "report.html")} (and report.md)${status === "partial" ? ", over the results saved before the failure" : ""}`;
  if (headline.length === 0)
    return [first, "headline ratios: none in these results (no table has both sides of Nitro / Xen, cross-zone / same-zone or RF3 / RF1)"];
  return [first, "headline ratios (ours, interval; published):", ...headline.map(ratioLine)];
}
