/**
 * One chart per comparison: a metric table with at least two rows (ours, or ours and the
 * published figures) as a vega-lite spec. Horizontal bars at the median of each row, whiskers
 * from min to max with the median's value beside them, and each published figure as a dashed
 * vertical rule named in the legend. Rendered to SVG by svg.ts. Pure.
 */
import type { TopLevelSpec } from "vega-lite/build/index";
import { displayUnit, formatValue, toDisplay } from "./format";
import type { Experiment, MetricTable } from "./model";

/** Bars: vega-lite's default blue; whiskers: near black; references: colours far from the bars and from each other. */
const BAR_COLOR = "#4c78a8";
const WHISKER_COLOR = "#1f2937";
const REFERENCE_COLORS = ["#d62728", "#7b3294", "#2ca02c", "#e377c2", "#8c564b", "#bcbd22"];

/**
 * Names of the chart's marks: vega gives each mark's SVG group the class `<name>_marks`, which
 * tests (and a reader of the SVG) find them by.
 */
export const MARK_NAMES = { bars: "bars", whiskers: "whiskers", values: "values", published: "published" } as const;

/** Chart width in pixels (the plot area); each row is this many pixels tall. */
export const CHART_WIDTH = 520;
export const ROW_STEP = 30;

/** A chart of one table: where it goes and what it draws. */
export interface Chart {
  /** File name inside the report's `charts/` directory. */
  readonly file: string;
  readonly title: string;
  /** The x-axis title (the metric and its unit). */
  readonly xTitle: string;
  /** The y-axis title (the columns that tell the rows apart). */
  readonly yTitle: string;
  /** Bars drawn: one per row. */
  readonly bars: number;
  /** Rules drawn: one per published figure. */
  readonly rules: number;
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

/** The chart of `table`, or undefined when {@link isCharted} says no. */
export function chartOf(experiment: Experiment, table: MetricTable): Chart | undefined {
  if (!isCharted(table)) return undefined;
  const unit = displayUnit(table.unit);
  const xTitle = `${table.metric} (${unit}), median of the repetitions`;
  const yTitle = table.labelKeys.length > 0 ? table.labelKeys.join(" · ") : "samples";
  const title = `${table.metric} (${unit})`;
  const rows = table.groups.map((g) => ({
    label: g.label,
    median: toDisplay(g.summary.median, table.unit),
    min: toDisplay(g.summary.min, table.unit),
    max: toDisplay(g.summary.max, table.unit),
    n: g.summary.n,
    text: formatValue(toDisplay(g.summary.median, table.unit)),
  }));
  const refs = table.references.map((r, i) => ({ label: referenceLabel(table, i), value: toDisplay(r.figure.value, r.figure.unit) }));
  const x = { type: "quantitative" as const, title: xTitle, scale: { zero: true, nice: true } };
  // The y title sits level above the row labels (a rotated one would stretch a two-row chart).
  const y = {
    field: "label",
    type: "nominal" as const,
    sort: null,
    title: yTitle,
    axis: { titleAngle: 0, titleAlign: "right" as const, titleBaseline: "bottom" as const, titleX: -6, titleY: -6 },
  };
  const spec: TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: title,
      subtitle: `bars: median; whiskers: min–max${refs.length > 0 ? "; dashed rules: published figures" : ""}`,
      anchor: "start",
    },
    width: CHART_WIDTH,
    height: { step: ROW_STEP },
    background: "white",
    config: {
      font: "DejaVu Sans, Helvetica, Arial, sans-serif",
      axis: { labelFontSize: 12, titleFontSize: 12, labelLimit: 320 },
      legend: { labelFontSize: 12, titleFontSize: 12, labelLimit: 0, symbolStrokeWidth: 3, symbolSize: 300, symbolDash: [6, 3] },
      title: { fontSize: 15, subtitleFontSize: 12 },
    },
    layer: [
      {
        data: { values: rows },
        layer: [
          {
            name: MARK_NAMES.bars,
            mark: { type: "bar", color: BAR_COLOR, height: { band: 0.7 } },
            encoding: { y, x: { ...x, field: "median" } },
          },
          {
            name: MARK_NAMES.whiskers,
            mark: { type: "errorbar", ticks: true, color: WHISKER_COLOR },
            encoding: { y, x: { ...x, field: "min" }, x2: { field: "max" } },
          },
          {
            name: MARK_NAMES.values,
            mark: { type: "text", align: "left", baseline: "middle", dx: 6, fontSize: 12, color: WHISKER_COLOR },
            encoding: { y, x: { ...x, field: "max" }, text: { field: "text" } },
          },
        ],
      },
      ...(refs.length === 0
        ? []
        : [
            {
              name: MARK_NAMES.published,
              data: { values: refs },
              mark: { type: "rule" as const, strokeDash: [6, 3], strokeWidth: 2 },
              encoding: {
                x: { ...x, field: "value" },
                color: {
                  field: "label",
                  type: "nominal" as const,
                  sort: null,
                  scale: { range: REFERENCE_COLORS },
                  legend: { title: "reference", orient: "bottom" as const, direction: "vertical" as const },
                },
              },
            },
          ]),
    ],
  };
  return {
    file: `${slug(experiment.id === "" ? "runs" : experiment.id)}--${slug(table.metric)}.svg`,
    title,
    xTitle,
    yTitle,
    bars: rows.length,
    rules: refs.length,
    spec,
  };
}
