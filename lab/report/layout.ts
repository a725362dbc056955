/**
 * The report's text, laid out once for both renderers (markdown.ts, html.ts): the tables as rows
 * of cells, the notes under them, the summary lines. Every number is formatted here (format.ts),
 * so report.md, report.html and the charts show the same strings. Pure.
 */
import { chartOf, referenceLabel, type Chart } from "./chart";
import { displayUnit, formatMetadata, formatRange, formatRatio, formatSampleValue } from "./format";
import type { Experiment, MetricTable, Ratio, ReportModel } from "./model";
import type { ReferenceRow } from "./published";
import { utilChart, type UtilComparison } from "../util/report";

/** One table cell: `code` for metadata values (shown verbatim), `strong` for labels. */
export interface Cell {
  readonly text: string;
  readonly code?: boolean;
  readonly strong?: boolean;
}

export interface Row {
  readonly cells: readonly Cell[];
  /** `reference`: a published figure, not ours. */
  readonly kind: "ours" | "reference";
}

export interface TableLayout {
  readonly header: readonly string[];
  readonly rows: readonly Row[];
  /** Index of the columns holding numbers (right-aligned). */
  readonly numeric: readonly number[];
}

const text = (t: string): Cell => ({ text: t });
const code = (t: string): Cell => ({ text: t, code: true });

/** A metric table: a column per distinguishing key, then median, min–max, n, unit and runs; published rows last. */
export function metricTableLayout(table: MetricTable): TableLayout {
  const unit = displayUnit(table.unit);
  const keys = table.columns.length > 0 ? table.columns : [];
  const header = [...(keys.length > 0 ? keys : ["row"]), "median", "min–max", "n", "unit", "runs"];
  const first = Math.max(keys.length, 1);
  const ours: Row[] = table.groups.map((g) => ({
    kind: "ours",
    cells: [
      ...(keys.length > 0
        ? keys.map((k) => (g.metadata[k] === undefined ? text("—") : code(formatMetadata(g.metadata[k]))))
        : [text(g.label)]),
      text(formatSampleValue(g.summary.median, table.unit)),
      text(formatRange(formatSampleValue(g.summary.min, table.unit), formatSampleValue(g.summary.max, table.unit))),
      text(String(g.summary.n)),
      text(unit),
      text(g.runs.join(", ") || "—"),
    ],
  }));
  const refs: Row[] = table.references.map((r) => ({
    kind: "reference",
    cells: [
      { text: `published: ${r.figure.label}`, strong: true },
      ...Array.from({ length: first - 1 }, () => text("")),
      text(formatSampleValue(r.figure.value, r.figure.unit)),
      text("—"),
      text("—"),
      text(unit),
      text(r.figure.source.document),
    ],
  }));
  return { header, rows: [...ours, ...refs], numeric: [first, first + 1, first + 2] };
}

/** The note under a table for one published figure: what, where from, what was deployed, how our setup differs. */
export function referenceNote(table: MetricTable, index: number): string {
  const r: ReferenceRow = table.references[index];
  const f = r.figure;
  const parts = [
    `${referenceLabel(table, index)}; source: ${f.source.document} (${f.source.where}); deployed: ${f.deployed}`,
    ...(Object.keys(f.side).length > 0
      ? [
          `beside rows with ${Object.entries(f.side)
            .map(([k, v]) => `${k} = ${v}`)
            .join(", ")}`,
        ]
      : []),
    ...(r.differences.length > 0
      ? [`our setup differs: ${r.differences.map((d) => `${d.key} (ours ${d.ours.join(", ")}; published ${d.published})`).join(", ")}`]
      : []),
    ...(f.note === undefined ? [] : [f.note]),
  ];
  return `${parts.join("; ")}.`;
}

/** The settings every row of a table shares, as `key = value` pairs. */
export function sharedSetup(table: MetricTable): string[] {
  return table.shared.map(([k, v]) => `${k} = ${v}`);
}

/** How a ratio's interval was obtained, in words. */
export function intervalMethod(r: Ratio): string {
  return r.estimate.method === "bootstrap"
    ? `${Math.round(r.estimate.level * 100)} % bootstrap`
    : `min–max only: n < ${r.estimate.minReps}`;
}

/** A ratio's interval as text, saying how it was obtained. */
export function intervalText(r: Ratio): string {
  return `${formatRange(formatRatio(r.estimate.low), formatRatio(r.estimate.high))} (${intervalMethod(r)})`;
}

/** The ratios of an experiment. */
export function ratioTableLayout(ratios: readonly Ratio[]): TableLayout {
  return {
    header: ["ratio", "metric", "ours", "interval", "n", "published", "rows (numerator / denominator)"],
    numeric: [2, 3, 4, 5],
    rows: ratios.map((r) => ({
      kind: "ours",
      cells: [
        { text: r.comparison.id === "baseline" ? `${r.num.metadata.stack} / ${r.den.metadata.stack}` : r.comparison.title, strong: true },
        code(r.metric),
        text(formatRatio(r.estimate.ratio)),
        text(intervalText(r)),
        text(`${r.num.summary.n} / ${r.den.summary.n}`),
        text(r.published === undefined ? "—" : formatRatio(r.published)),
        text(`${r.num.label} / ${r.den.label}`),
      ],
    })),
  };
}

/** The samples that could not be compared; the experiment by its scenario id (the section titles carry the rest). */
export function incomparableLayout(model: ReportModel): TableLayout {
  return {
    header: ["experiment", "metric", "row", "samples", "files", "why"],
    numeric: [3],
    rows: model.incomparable.map((i) => ({
      kind: "ours",
      cells: [
        text(i.experiment === "" ? "(no scenario)" : i.experiment),
        code(i.metric),
        text(i.what),
        text(String(i.samples)),
        code(i.files.join(", ")),
        text(i.reason),
      ],
    })),
  };
}

/** The charts of an experiment's tables, by table, and of its utilization comparisons (lab/util/report.ts), by comparison. */
export function chartsOf(experiment: Experiment): Map<MetricTable | UtilComparison, Chart> {
  const out = new Map<MetricTable | UtilComparison, Chart>();
  for (const t of experiment.tables) {
    const c = chartOf(experiment, t);
    if (c !== undefined) out.set(t, c);
  }
  for (const u of experiment.utilization ?? []) out.set(u, utilChart(experiment.id, u));
  return out;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** How the numbers were computed: one paragraph at the top of the report. */
export function methodText(model: ReportModel): string {
  const b = model.bootstrap;
  return (
    "Each row pools the repetitions of one measurement (samples whose metadata is identical but for run id and repetition): " +
    "median, min–max and n over them. A ratio divides two rows' medians; its interval is a " +
    `${Math.round(b.level * 100)} % percentile bootstrap over the repetitions (${b.resamples.toLocaleString("en-US")} resamples, seed ${b.seed}) ` +
    `when both rows have at least ${b.minReps} repetitions, and otherwise the min–max range of the ratio (marked "min–max only"). ` +
    "Published figures are reference rows, named with their source; they were not measured here."
  );
}

/** Metrics whose ratio the summary names first, in this order (else the first ratio). */
const HEADLINE_METRICS = ["pgbench.tps", "omb.throughput", "fio.read.iops", "fio.write.iops", "ioping.latency.mean"];

/** The three summary lines (the terminal prints them too). */
export function summaryLines(model: ReportModel): [string, string, string] {
  const tables = model.experiments.flatMap((e) => e.tables);
  const rows = tables.reduce((n, t) => n + t.groups.length, 0);
  const runs = new Set<string>();
  const stacks = new Set<string>();
  for (const t of tables) {
    for (const g of t.groups) {
      const stack = g.metadata.stack === undefined ? "?" : String(g.metadata.stack);
      stacks.add(stack);
      for (const r of g.runs) runs.add(`${stack}/${r}`);
    }
  }
  const first = `${plural(model.sampleCount, "sample")} from ${plural(model.inputs.length, "file")} (${plural(runs.size, "run")} of ${plural(stacks.size, "stack")}): ${plural(model.experiments.length, "experiment")}, ${plural(tables.length, "metric table")}, ${plural(rows, "row")}.`;

  const ratios = model.experiments.flatMap((e) => e.ratios);
  let second: string;
  if (ratios.length === 0) {
    second = "No ratios: no table has both sides of Nitro / Xen, cross-zone / same-zone or RF3 / RF1 (--baseline STACK compares stacks).";
  } else {
    const headline = HEADLINE_METRICS.map((m) => ratios.find((r) => r.metric === m)).find((r) => r !== undefined) ?? ratios[0];
    const name = ratioTableLayout([headline]).rows[0].cells[0].text;
    const range = formatRange(formatRatio(headline.estimate.low), formatRatio(headline.estimate.high));
    const published = headline.published === undefined ? "" : `; published ${formatRatio(headline.published)}`;
    second = `${plural(ratios.length, "ratio")}; headline: ${name} ${headline.metric} ${formatRatio(headline.estimate.ratio)} (${range}, ${intervalMethod(headline)}${published}).`;
  }

  const refs = tables.reduce((n, t) => n + t.references.length, 0);
  const bad = model.incomparable.reduce((n, i) => n + i.samples, 0);
  const third = `${plural(refs, "published figure")} beside ours; ${
    model.incomparable.length === 0
      ? "nothing left incomparable."
      : `could not compare: ${plural(model.incomparable.length, "listing")} (${plural(bad, "sample")}), see "Samples that could not be compared".`
  }`;
  return [first, second, third];
}
