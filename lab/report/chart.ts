/**
 * The report's charts as vega-lite specs (rendered to SVG by svg.ts). Pure.
 *
 * - One chart per metric table with at least two rows (ours, or ours and the published figures):
 *   a horizontal band per row in the table's order (the baseline row first), a light bar at the
 *   median, a whisker from min to max, a dot for every repetition, and each published figure as a
 *   diamond in a band of its own right under the row it belongs beside, in that row's colour.
 * - One ratio chart per experiment with ratios: each ratio as a dot with its interval on a log
 *   scale, a dashed rule at 1 (no difference), and the published ratio as a diamond in its band.
 *
 * No text is drawn inside the plot: each band's label (left of the plot) carries its numbers
 * (median and CV; ratio, interval and what it shows), so no label can collide with a whisker, a
 * dot or a rule. Colours are given per datum (`scale: null`): a reference is drawn in the colour of
 * its row by construction. Charts take the width of the report page (html.ts).
 */
import type { TopLevelSpec } from "vega-lite/build/index";
import { displayUnit, formatPercent, formatRange, formatRatio, formatValue, toDisplay } from "./format";
import type { Experiment, MetricTable, Ratio } from "./model";

/** Whiskers, dots and the rule at 1: near black. */
const INK = "#1f2937";
/** Row colours (Tableau 10 minus its grey), one per row in order; a reference takes its row's. */
export const ROW_COLORS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d", "#eeca3b"];

/**
 * Names of the chart's marks: vega gives each mark's SVG group the class `<name>_marks`, which
 * tests (and a reader of the SVG) find them by.
 */
export const MARK_NAMES = {
  bars: "bars",
  whiskers: "whiskers",
  points: "points",
  published: "published",
  ratios: "ratios",
  intervals: "intervals",
  one: "one",
  publishedRatios: "published_ratios",
} as const;

/** The report page's content width in pixels (html.ts: main is 1100 px wide with 32 px padding a side). */
export const PAGE_WIDTH = 1036;
/** Each band is this many pixels tall. */
export const ROW_STEP = 30;
/**
 * Longest band label in pixels before vega truncates it with an ellipsis. Vega renders in Node
 * without a canvas and estimates a text's width as 0.8 × font size a character (vega-scenegraph
 * textMetrics `estimateWidth`), about 1.4 × what DejaVu Sans takes at 11 px: 800 keeps a label of
 * 90 characters whole (the ratio bands with "no difference shown" reach about 80).
 */
export const LABEL_LIMIT = 800;

/** A chart: where it goes and what it draws. */
export interface Chart {
  /** File name inside the report's `charts/` directory. */
  readonly file: string;
  readonly title: string;
  /** The x-axis title (the metric and its unit). */
  readonly xTitle: string;
  /** The y-axis title (the columns that tell the rows apart). */
  readonly yTitle: string;
  /** Bands of our rows (or ratios). */
  readonly bars: number;
  /** Published figures drawn. */
  readonly rules: number;
  /** Repetition dots drawn (metric charts). */
  readonly points?: number;
  readonly spec: TopLevelSpec;
}

/** Whether a table gets a chart: a measured unit (not a count) and at least two rows to compare. */
export function isCharted(table: MetricTable): boolean {
  return table.unit !== "count" && table.groups.length + table.references.length >= 2;
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The label of a published figure in charts and tables. */
export function referenceLabel(table: MetricTable, index: number): string {
  const f = table.references[index].figure;
  return `published, ${f.experiment}, ${f.label}: ${formatValue(toDisplay(f.value, f.unit))} ${displayUnit(f.unit)}`;
}

const CONFIG = {
  font: "DejaVu Sans, Helvetica, Arial, sans-serif",
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: LABEL_LIMIT },
  // Tick labels that would touch are dropped (vega's greedy overlap removal) and kept inside the axis' ends.
  axisX: { labelOverlap: "greedy" as const, labelSeparation: 12, labelFlush: true, tickCount: 6 },
  title: { fontSize: 15, subtitleFontSize: 12 },
  view: { stroke: "#e5e7eb" },
};

/** The y encoding of the bands: labels left of the plot, in data order, the title above them. */
function bandAxis(title: string) {
  return {
    field: "band",
    type: "nominal" as const,
    sort: null,
    title,
    axis: { titleAngle: 0, titleAlign: "right" as const, titleBaseline: "bottom" as const, titleX: -6, titleY: -6 },
  };
}

/**
 * What every chart of the report shares: its title and subtitle, the page width, a band height per
 * band. A fixed height (not `{step}`): vega-lite 6 drops a fit autosize, with a warning, when the
 * height is discrete.
 */
function frame(title: string, subtitle: string, bands: number) {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: title, subtitle, anchor: "start" as const },
    width: PAGE_WIDTH,
    height: ROW_STEP * bands,
    autosize: { type: "fit-x" as const, contains: "padding" as const },
    background: "white",
    config: CONFIG,
  };
}

/** The layer of published figures (or ratios): a diamond each, outlined in ink; none without values. */
function diamonds(name: string, values: readonly Record<string, unknown>[], encoding: Record<string, unknown>) {
  if (values.length === 0) return [];
  return [
    {
      name,
      data: { values: [...values] },
      mark: { type: "point" as const, shape: "diamond" as const, filled: true, size: 170, opacity: 1, stroke: INK, strokeWidth: 1 },
      encoding,
    },
  ];
}

/** The chart of `table` (with the experiment's ratios for nothing but its file name), or undefined when {@link isCharted} says no. */
export function chartOf(experiment: Experiment, table: MetricTable): Chart | undefined {
  if (!isCharted(table)) return undefined;
  const unit = displayUnit(table.unit);
  const xTitle = `${table.metric} (${unit})`;
  const yTitle = table.labelKeys.length > 0 ? table.labelKeys.join(" · ") : "samples";
  const title = `${table.metric} (${unit})`;
  const bands: { band: string; color: string }[] = [];
  const rows: Record<string, unknown>[] = [];
  const points: Record<string, unknown>[] = [];
  const refs: Record<string, unknown>[] = [];
  const refsAfter = new Map<number, number[]>();
  table.references.forEach((r, i) => {
    const last = Math.max(...r.rows);
    refsAfter.set(last, [...(refsAfter.get(last) ?? []), i]);
  });
  table.groups.forEach((g, gi) => {
    const color = ROW_COLORS[gi % ROW_COLORS.length];
    const band = `${g.label}: ${formatValue(toDisplay(g.summary.median, table.unit))}, CV ${formatPercent(g.summary.cv)}, n ${g.summary.n}`;
    bands.push({ band, color });
    rows.push({
      band,
      color,
      median: toDisplay(g.summary.median, table.unit),
      min: toDisplay(g.summary.min, table.unit),
      max: toDisplay(g.summary.max, table.unit),
    });
    g.values.forEach((v, rep) => points.push({ band, color, value: toDisplay(v, table.unit), rep: rep + 1 }));
    for (const ri of refsAfter.get(gi) ?? []) {
      const f = table.references[ri].figure;
      const refBand = `published, ${f.label}: ${formatValue(toDisplay(f.value, f.unit))}`;
      bands.push({ band: refBand, color });
      refs.push({ band: refBand, color, value: toDisplay(f.value, f.unit), source: f.source.url });
    }
  });
  const x = { type: "quantitative" as const, title: xTitle, scale: { zero: true, nice: true } };
  const y = bandAxis(yTitle);
  const color = { field: "color", type: "nominal" as const, scale: null };
  const spec: TopLevelSpec = {
    ...frame(
      title,
      `bar: median; whisker: min–max; dots: every repetition${refs.length > 0 ? "; ◆: published figure, in its row's colour" : ""}`,
      bands.length,
    ),
    // Every band first, so the y domain keeps the table's order with the references in place.
    data: { values: bands },
    layer: [
      { mark: { type: "point", opacity: 0 }, encoding: { y, x: { ...x, datum: 0 } } },
      {
        data: { values: rows },
        layer: [
          {
            name: MARK_NAMES.bars,
            mark: { type: "bar", opacity: 0.35, height: { band: 0.7 } },
            encoding: { y, x: { ...x, field: "median" }, color },
          },
          {
            name: MARK_NAMES.whiskers,
            mark: { type: "rule", color: INK, strokeWidth: 1.5 },
            encoding: { y, x: { ...x, field: "min" }, x2: { field: "max" } },
          },
        ],
      },
      {
        name: MARK_NAMES.points,
        data: { values: points },
        mark: { type: "point", filled: true, size: 55, opacity: 1, stroke: INK, strokeWidth: 0.8 },
        encoding: { y, x: { ...x, field: "value" }, color },
      },
      ...diamonds(MARK_NAMES.published, refs, { y, x: { ...x, field: "value" }, color }),
    ],
  };
  return {
    file: `${slug(experiment.id === "" ? "runs" : experiment.id)}--${slug(table.metric)}.svg`,
    title,
    xTitle,
    yTitle,
    bars: rows.length,
    rules: refs.length,
    points: points.length,
    spec,
  };
}

/** A ratio's band label: name, metric, ratio, interval and what it shows. */
export function ratioBand(r: Ratio, name: string): string {
  const range = formatRange(formatRatio(r.estimate.low), formatRatio(r.estimate.high));
  return `${name}, ${r.metric}: ${formatRatio(r.estimate.ratio)} (${range})${r.noDifference ? ", no difference shown" : ""}`;
}

/**
 * The experiment's ratio chart: a band per ratio, the ratio as a dot (hollow when no difference is
 * shown), its interval as a whisker, the published ratio as a diamond, a dashed rule at 1. Log
 * scale, so ×2 and ×0.5 are as far from 1. Undefined without ratios.
 */
export function ratioChartOf(experiment: Experiment, nameOf: (r: Ratio) => string): Chart | undefined {
  if (experiment.ratios.length === 0) return undefined;
  const rows = experiment.ratios.map((r, i) => ({
    band: ratioBand(r, nameOf(r)),
    color: ROW_COLORS[i % ROW_COLORS.length],
    ratio: r.estimate.ratio,
    low: r.estimate.low,
    high: r.estimate.high,
    shown: r.noDifference ? "no" : "yes",
  }));
  const published = experiment.ratios
    .map((r, i) => ({ r, row: rows[i] }))
    .filter(({ r }) => r.published !== undefined)
    .map(({ r, row }) => ({ band: row.band, color: row.color, published: r.published as number }));
  const all = [...rows.flatMap((r) => [r.low, r.high, r.ratio]), ...published.map((p) => p.published), 1];
  const domain = [Math.min(...all) / 1.15, Math.max(...all) * 1.15];
  const x = { type: "quantitative" as const, title: "ratio (log scale; 1 = no difference)", scale: { type: "log" as const, domain } };
  const y = bandAxis("ratio");
  const color = { field: "color", type: "nominal" as const, scale: null };
  const title = `Ratios: ${experiment.id === "" ? "runs without a scenario" : experiment.id}`;
  const spec: TopLevelSpec = {
    ...frame(
      title,
      `dot: ratio of medians (hollow: no difference shown); whisker: its interval; dashed: 1${published.length > 0 ? "; ◆: the published ratio" : ""}`,
      rows.length,
    ),
    layer: [
      {
        name: MARK_NAMES.one,
        data: { values: [{ one: 1 }] },
        mark: { type: "rule", color: "#6b7280", strokeDash: [5, 4], strokeWidth: 1.5 },
        encoding: { x: { ...x, field: "one" } },
      },
      {
        data: { values: rows },
        layer: [
          {
            name: MARK_NAMES.intervals,
            mark: { type: "rule", color: INK, strokeWidth: 1.5 },
            encoding: { y, x: { ...x, field: "low" }, x2: { field: "high" } },
          },
          {
            name: MARK_NAMES.ratios,
            mark: { type: "point", size: 90, strokeWidth: 2, opacity: 1 },
            encoding: {
              y,
              x: { ...x, field: "ratio" },
              color,
              fill: { condition: { test: "datum.shown === 'yes'", field: "color", type: "nominal", scale: null }, value: "white" },
            },
          },
        ],
      },
      ...diamonds(MARK_NAMES.publishedRatios, published, { y, x: { ...x, field: "published" }, color }),
    ],
  };
  return {
    file: `${slug(experiment.id === "" ? "runs" : experiment.id)}--ratios.svg`,
    title,
    xTitle: x.title,
    yTitle: "ratio",
    bars: rows.length,
    rules: published.length,
    spec,
  };
}
