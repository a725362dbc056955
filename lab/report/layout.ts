/**
 * The report's text, laid out once for both renderers (markdown.ts, html.ts): the tables as rows
 * of cells, the notes under them, the summary lines. Every number is formatted here (format.ts),
 * so report.md, report.html and the charts show the same strings. Pure.
 */
import { chartOf, ratioChartOf, referenceLabel, type Chart } from "./chart";
import { displayUnit, formatMetadata, formatP, formatPercent, formatRange, formatRatio, formatSampleValue } from "./format";
import { MIN_REPS_FOR_DIFFERENCE, type Experiment, type MetricTable, type Ratio, type ReportModel } from "./model";
import type { ReferenceRow } from "./published";
import { METHOD_TABLES } from "./methods";
import { utilChart, type UtilComparison } from "./utilization";

/** One table cell: `code` for metadata values (shown verbatim), `strong` for labels, `href` a link. */
export interface Cell {
  readonly text: string;
  readonly code?: boolean;
  readonly strong?: boolean;
  readonly href?: string;
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

/** The mark of a row whose spread is wider than a difference it is compared on. */
export const SPREAD_FLAG = "⚠";

/** For each row of `table`, the ratios whose difference its spread exceeds. */
export function spreadFlags(table: MetricTable, ratios: readonly Ratio[]): Map<number, Ratio[]> {
  const out = new Map<number, Ratio[]>();
  for (const r of ratios) {
    if (r.metric !== table.metric || r.unit !== table.unit) continue;
    for (const side of r.spreadWider) {
      const i = table.groups.indexOf(side === "num" ? r.num : r.den);
      if (i >= 0) out.set(i, [...(out.get(i) ?? []), r]);
    }
  }
  return out;
}

/** A ratio's name as the ratio table shows it. */
export function ratioName(r: Ratio): string {
  return r.comparison.id === "baseline" ? `${r.num.metadata.stack} / ${r.den.metadata.stack}` : r.comparison.title;
}

/**
 * A metric table: a column per distinguishing key, then median, min–max, coefficient of
 * variation, n, unit and runs; each published figure right under the last row it belongs beside.
 * A row whose spread is wider than a difference it is compared on carries {@link SPREAD_FLAG}.
 */
export function metricTableLayout(table: MetricTable, ratios: readonly Ratio[] = []): TableLayout {
  const unit = displayUnit(table.unit);
  const keys = table.columns.length > 0 ? table.columns : [];
  const header = [...(keys.length > 0 ? keys : ["row"]), "median", "min–max", "CV", "n", "unit", "runs"];
  const first = Math.max(keys.length, 1);
  const flags = spreadFlags(table, ratios);
  const rows: Row[] = [];
  const refsAfter = new Map<number, number[]>();
  table.references.forEach((r, i) => {
    const last = Math.max(...r.rows);
    refsAfter.set(last, [...(refsAfter.get(last) ?? []), i]);
  });
  table.groups.forEach((g, gi) => {
    const flagged = flags.has(gi);
    rows.push({
      kind: "ours",
      cells: [
        ...(keys.length > 0
          ? keys.map((k) => (g.metadata[k] === undefined ? text("—") : code(formatMetadata(g.metadata[k]))))
          : [text(g.label)]),
        text(formatSampleValue(g.summary.median, table.unit)),
        text(formatRange(formatSampleValue(g.summary.min, table.unit), formatSampleValue(g.summary.max, table.unit))),
        text(`${formatPercent(g.summary.cv)}${flagged ? ` ${SPREAD_FLAG}` : ""}`),
        text(String(g.summary.n)),
        text(unit),
        text(g.runs.join(", ") || "—"),
      ],
    });
    for (const ri of refsAfter.get(gi) ?? []) {
      const f = table.references[ri].figure;
      rows.push({
        kind: "reference",
        cells: [
          { text: `published: ${f.label}`, strong: true },
          ...Array.from({ length: first - 1 }, () => text("")),
          text(formatSampleValue(f.value, f.unit)),
          text("—"),
          text("—"),
          text("—"),
          text(unit),
          { text: f.source.title, href: f.source.url },
        ],
      });
    }
  });
  return { header, rows, numeric: [first, first + 1, first + 2, first + 3] };
}

/** The notes under a table for its flagged rows: which difference each row's spread exceeds. */
export function spreadNotes(table: MetricTable, ratios: readonly Ratio[]): string[] {
  return [...spreadFlags(table, ratios).entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([i, rs]) =>
        `${SPREAD_FLAG} ${table.groups[i].label}: its spread (max − min = ${formatPercent(relativeRangeOf(table.groups[i]))} of the median) is wider than the difference of ${rs
          .map((r) => `${ratioName(r)} (${formatRatio(r.estimate.ratio)})`)
          .join(", ")}: another run could reverse it.`,
    );
}

function relativeRangeOf(g: {
  readonly summary: { readonly median: number; readonly min: number; readonly max: number };
}): number | undefined {
  return g.summary.median === 0 ? undefined : (g.summary.max - g.summary.min) / Math.abs(g.summary.median);
}

/** The note under a table for one published figure: what, where from, what was deployed, how our setup differs. */
export function referenceNote(table: MetricTable, index: number): string {
  const r: ReferenceRow = table.references[index];
  const f = r.figure;
  const parts = [
    `${referenceLabel(table, index)}; source: ${f.source.title}, ${f.source.url} (${f.source.where}; read ${f.source.read}); deployed: ${f.deployed}`,
    `beside ${r.rows.map((i) => table.groups[i].label).join(", ")} (${Object.entries({ ...f.storage, ...f.side })
      .map(([k, v]) => `${k} = ${v}`)
      .join(", ")})`,
    ...(r.differences.length > 0
      ? [`our setup differs: ${r.differences.map((d) => `${d.key} (ours ${d.ours.join(", ")}; published ${d.published})`).join(", ")}`]
      : []),
    ...(f.note === undefined ? [] : [f.note]),
    ...(f.runs === undefined ? [] : [publishedRunsText(f.runs, f.unit)]),
  ];
  const verdicts = r.rows.map((i) =>
    f.runs === undefined
      ? pointVerdict(table.groups[i].label, table.groups[i].summary.median, f.value, f.unit)
      : spreadVerdict(table.groups[i].label, table.groups[i].summary.median, f.runs, f.unit),
  );
  return [`${parts.join("; ")}.`, ...verdicts].join(" ");
}

/** The note under a table for a published figure no row matches on workload: what it is, and how our workload differs. */
export function unmatchedNote(table: MetricTable, index: number): string {
  const u = table.unmatched[index];
  const f = u.figure;
  return `published ${f.label}: ${formatSampleValue(f.value, f.unit)} ${displayUnit(f.unit)} (${f.source.title}) is not shown: our setup differs: ${u.differences
    .map((d) => `${d.key} (ours ${d.ours.join(", ")}; published ${d.published})`)
    .join(", ")}.`;
}

/** The sentence before an experiment's setup differences. */
export const SETUP_DIFFERENCES_LEAD =
  "The shipped stacks of this experiment differ from the published setup in these parameters (docs/experiments.md, held to the plans by a test); what this run used is in its samples' metadata:";

/** Each parameter the experiment's shipped stacks differ from its publication in, from its method table: empty without one. */
export function setupDifferenceLines(experiment: string): string[] {
  const t = METHOD_TABLES.find((m) => m.experiment === experiment);
  return (t?.rows ?? [])
    .filter((r) => r.differs !== undefined)
    .map((r) => `${r.parameter}: published ${r.published}, shipped ${r.lab} (${r.differs}).`);
}

/** The publication's runs behind a figure: each value and their range. */
export function publishedRunsText(runs: readonly number[], unit: string): string {
  const lo = Math.min(...runs);
  const hi = Math.max(...runs);
  return `the figure is the mean of ${runs.length} published runs (${runs.map((v) => formatSampleValue(v, unit)).join(", ")}; range ${formatRange(formatSampleValue(lo, unit), formatSampleValue(hi, unit))} ${displayUnit(unit)})`;
}

/**
 * One sentence: whether a row's median falls within the published runs' range (min to max), or by
 * how much it misses it, as a share of the nearer end.
 */
export function spreadVerdict(label: string, median: number, runs: readonly number[], unit: string): string {
  const lo = Math.min(...runs);
  const hi = Math.max(...runs);
  const ours = `${label} (median ${formatSampleValue(median, unit)} ${displayUnit(unit)})`;
  if (median >= lo && median <= hi) return `${ours} falls within the published runs' range.`;
  const [end, word] = median < lo ? [lo, "below"] : [hi, "above"];
  return `${ours} is ${formatPercent(Math.abs(median - end) / Math.abs(end))} ${word} the published runs' ${median < lo ? "lowest" : "highest"} (${formatSampleValue(end, unit)}).`;
}

/**
 * One sentence for a published figure given alone (no runs, so no spread): how far a row's median is
 * from it, and that the publication gives no spread to judge it by.
 */
export function pointVerdict(label: string, median: number, value: number, unit: string): string {
  const ours = `${label} (median ${formatSampleValue(median, unit)} ${displayUnit(unit)})`;
  const alone = "the publication gives one figure and no spread, so this says how far apart they are, not whether they differ";
  if (median === value) return `${ours} equals the published figure; ${alone}.`;
  const word = median < value ? "below" : "above";
  return `${ours} is ${formatPercent(Math.abs(median - value) / Math.abs(value))} ${word} the published figure (${formatSampleValue(value, unit)}); ${alone}.`;
}

/** The settings every row of a table shares, as `key = value` pairs. */
export function sharedSetup(table: MetricTable): string[] {
  return table.shared.map(([k, v]) => `${k} = ${v}`);
}

/** How a ratio's interval was obtained, in words (the interval's label). */
export function intervalMethod(r: Ratio): string {
  const e = r.estimate;
  return e.method === "bootstrap"
    ? `${Math.round(e.level * 100)} % percentile bootstrap, ${r.num.summary.n} / ${r.den.summary.n} repetitions`
    : `min–max of the ${r.num.summary.n} × ${r.den.summary.n} repetition ratios; n < ${e.minReps} a side: not a confidence interval`;
}

/** A ratio's interval as text, saying how it was obtained. */
export function intervalText(r: Ratio): string {
  return `${formatRange(formatRatio(r.estimate.low), formatRatio(r.estimate.high))} (${intervalMethod(r)})`;
}

/** What a ratio shows: "no difference shown", or a difference with its exact permutation p when there is one. */
export function verdictText(r: Ratio): string {
  if (r.num.summary.n < MIN_REPS_FOR_DIFFERENCE || r.den.summary.n < MIN_REPS_FOR_DIFFERENCE)
    return `no difference shown: fewer than ${MIN_REPS_FOR_DIFFERENCE} repetitions on a side`;
  if (r.noDifference) return "no difference shown: the interval includes 1";
  const p = r.estimate.permutation;
  const test =
    p === undefined
      ? ""
      : `; exact Mann–Whitney p = ${formatP(p.p)} (the least ${r.num.summary.n} / ${r.den.summary.n} repetitions can give is ${formatP(2 / p.permutations)})`;
  const spread =
    r.spreadWider.length > 0
      ? `; ${SPREAD_FLAG} spread of ${r.spreadWider.map((s) => (s === "num" ? r.num.label : r.den.label)).join(" and ")} wider than the difference`
      : "";
  const shown =
    r.estimate.method === "min-max"
      ? `a difference: every repetition ratio ${r.estimate.ratio > 1 ? "above" : "below"} 1`
      : `a difference: the ${Math.round(r.estimate.level * 100)} % interval excludes 1`;
  return `${shown}${test}${spread}`;
}

/** The ratios of an experiment. */
export function ratioTableLayout(ratios: readonly Ratio[]): TableLayout {
  return {
    header: ["ratio", "metric", "ours", "interval", "n", "shows", "published", "rows (numerator / denominator)"],
    // The interval cell says how it was obtained: text that wraps, not a number column.
    numeric: [2, 4, 6],
    rows: ratios.map((r) => ({
      kind: "ours",
      cells: [
        { text: ratioName(r), strong: true },
        code(r.metric),
        text(formatRatio(r.estimate.ratio)),
        text(intervalText(r)),
        text(`${r.num.summary.n} / ${r.den.summary.n}`),
        text(verdictText(r)),
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

/**
 * The charts of an experiment: its ratio chart (keyed by the experiment), each table's by table,
 * and its utilization comparisons' (lab/report/utilization.ts) by comparison.
 */
export function chartsOf(experiment: Experiment): Map<Experiment | MetricTable | UtilComparison, Chart> {
  const out = new Map<Experiment | MetricTable | UtilComparison, Chart>();
  const ratios = ratioChartOf(experiment, ratioName);
  if (ratios !== undefined) out.set(experiment, ratios);
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
    "median, min–max, coefficient of variation (CV: sample standard deviation / mean) and n over them; the charts draw every repetition as a point. " +
    "A ratio divides two rows' medians. With fewer than " +
    `${b.minReps} repetitions a side its interval is the min–max range of every repetition ratio (a spread, not a confidence interval: ` +
    "with 3 values a side a bootstrap resample's median can take only 3 values, so a percentile bootstrap would give the same range under a 95 % label), " +
    "with the exact Mann–Whitney test of the two rows (at 3 / 3 repetitions the smallest p any data can give is 0.1); " +
    `from ${b.minReps} a side it is a ${Math.round(b.level * 100)} % percentile bootstrap (${b.resamples.toLocaleString("en-US")} resamples, seed ${b.seed}). ` +
    `An interval that includes 1, or a side with fewer than ${MIN_REPS_FOR_DIFFERENCE} repetitions, is "no difference shown"; ${SPREAD_FLAG} marks a row whose spread (max − min over the median) is wider than the difference it is compared on. ` +
    "Published figures are reference rows beside the rows of their own experiment, storage and side only, each citing its publication; they were not measured here."
  );
}

/** Metrics whose ratio the summary names first, in this order (else the first ratio). */
const HEADLINE_METRICS = ["pgbench.tps", "omb.throughput", "fio.read.iops", "fio.write.iops", "ioping.latency.mean"];

/** " fio: 2 of 14 jobs failed (dev/r1 seq-write errno 28, …): no figure of theirs is in a table." or "". */
function failedJobsNote(model: ReportModel): string {
  const { total, failed } = model.fioJobs;
  if (failed.length === 0) return "";
  const which = failed.map((j) => `${j.stack}/${j.runId} ${j.job} errno ${j.errno}`).join(", ");
  return ` fio: ${failed.length} of ${plural(total, "job")} failed (${which}): no figure of theirs is in a table.`;
}

/**
 * " FSx maintenance window: 1 of 12 repetitions checked overlapped it (kafka/r1 omb rep 2,
 * 2026-12-06T02:10:00Z–2026-12-06T02:40:00Z, window 7:02:00 + 120 min): the file system may have
 * served it from its standby file server." or, none overlapping, " FSx maintenance window: none of
 * the 12 repetitions checked overlapped it." or "" when no sample says.
 */
function maintenanceNote(model: ReportModel): string {
  const { checked, overlapped } = model.maintenance;
  if (checked === 0) return "";
  if (overlapped.length === 0) return ` FSx maintenance window: none of the ${plural(checked, "repetition")} checked overlapped it.`;
  const which = overlapped
    .map((w) => `${w.stack}/${w.runId} ${w.tool} rep ${w.rep}, ${w.repStart}–${w.repEnd}, window ${w.windowStart} + ${w.windowMinutes} min`)
    .join("; ");
  const them = overlapped.length === 1 ? "it" : "them";
  return ` FSx maintenance window: ${overlapped.length} of ${plural(checked, "repetition")} checked overlapped it (${which}): the file system may have served ${them} from its standby file server.`;
}

/** The ratio an experiment's answer is about: the first of {@link HEADLINE_METRICS} it has, else its first. */
function headlineRatio(ratios: readonly Ratio[]): Ratio | undefined {
  return HEADLINE_METRICS.map((m) => ratios.find((r) => r.metric === m)).find((r) => r !== undefined) ?? ratios[0];
}

/**
 * The answer first, in words: one sentence per experiment on its headline ratio, with its interval's
 * wording and its published counterpart, e.g. "ceph-nitro: … : Nitro's pgbench.tps was 46 % higher
 * than Xen's (×1.46, 1.39–1.49, min–max of the 3 × 3 repetition ratios; …); published ×1.43." A
 * ratio whose interval includes 1 (or too few repetitions) says "no difference shown", never a
 * direction.
 */
export function answerLines(model: ReportModel): string[] {
  return model.experiments.map((e) => {
    const name = e.id === "" ? e.title : e.id; // the scenario's name; its title heads its section
    const r = headlineRatio(e.ratios);
    if (r === undefined) return `${name}: no ratio: these results hold one side of its comparisons only, so there is nothing to compare.`;
    // the sides as the comparison names them ("Nitro / Xen"); the baseline comparison's numerator is "any
    // other" row: its own value of the compared key (e.g. the named run "tmpfs")
    const [titleNum, titleDen] = r.comparison.title.includes(" / ") ? r.comparison.title.split(" / ") : [r.num.label, r.den.label];
    const num = r.comparison.num === undefined ? String(r.num.metadata[r.comparison.key] ?? r.num.label) : titleNum;
    const den = titleDen;
    const range = formatRange(formatRatio(r.estimate.low), formatRatio(r.estimate.high));
    const interval = `×${formatRatio(r.estimate.ratio)}, ${range}, ${intervalMethod(r)}`;
    const published = r.published === undefined ? "no published ratio beside it" : `published ×${formatRatio(r.published)}`;
    const others = e.ratios.length > 1 ? ` (${plural(e.ratios.length - 1, "more ratio")} in its table)` : "";
    if (r.noDifference)
      return `${name}: no difference shown between ${num} and ${den} in ${r.metric} (${interval}); ${published}${others}.`;
    const pct = Math.round(Math.abs(r.estimate.ratio - 1) * 100);
    return `${name}: ${num}'s ${r.metric} was ${pct} % ${r.estimate.ratio >= 1 ? "higher" : "lower"} than ${den}'s (${interval}); ${published}${others}.`;
  });
}

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
    second =
      "No ratios: no table has both sides of Nitro / Xen, cross-zone / same-zone or RF3 / RF1 (--baseline NAME compares named runs of the same setup).";
  } else {
    const headline = headlineRatio(ratios) as Ratio;
    const name = ratioTableLayout([headline]).rows[0].cells[0].text;
    const range = formatRange(formatRatio(headline.estimate.low), formatRatio(headline.estimate.high));
    const published = headline.published === undefined ? "" : `; published ${formatRatio(headline.published)}`;
    const shown = ratios.filter((r) => !r.noDifference).length;
    second = headline.noDifference
      ? `${plural(ratios.length, "ratio")}, ${shown} showing a difference; headline: ${name} ${headline.metric}: no difference shown (${formatRatio(headline.estimate.ratio)}, ${range}, ${intervalMethod(headline)}${published}).`
      : `${plural(ratios.length, "ratio")}, ${shown} showing a difference; headline: ${name} ${headline.metric} ${formatRatio(headline.estimate.ratio)} (${range}, ${intervalMethod(headline)}${published}).`;
  }

  const refs = tables.reduce((n, t) => n + t.references.length, 0);
  const bad = model.incomparable.reduce((n, i) => n + i.samples, 0);
  const baseline = model.baselineNotes.length > 0 ? ` ${model.baselineNotes.join(" ")}` : "";
  const third = `${plural(refs, "published figure")} beside ours; ${
    model.incomparable.length === 0
      ? "nothing left incomparable."
      : `could not compare: ${plural(model.incomparable.length, "listing")} (${plural(bad, "sample")}), see "Samples that could not be compared".`
  }${baseline}${failedJobsNote(model)}${maintenanceNote(model)}`;
  return [first, second, third];
}
