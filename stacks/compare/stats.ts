/**
 * The `compare` kind's statistics (pure): per metric, stack and series the median, min, max and n
 * of the samples, and ratios of medians with their spread.
 *
 * A ratio's value is median(numerator) / median(denominator); its spread is the range of every
 * pairing of one numerator sample with one denominator sample: low = min(numerator) /
 * max(denominator), high = max(numerator) / min(denominator). With one sample a side the three are
 * equal; the spread widens with the run-to-run variation of either side.
 */
import type { MetadataValue, Sample } from "../../core/sample";
import type { RatioSpec, SampleSelector } from "./rules";
import { median } from "../../core/stats";

export interface SeriesStats {
  readonly metric: string;
  readonly unit: string;
  /** The compared stack's label. */
  readonly stack: string;
  /** The values of the `groupBy` keys these samples carry ({} when none). */
  readonly group: Readonly<Record<string, MetadataValue>>;
  readonly n: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export interface RatioSide {
  readonly stack: string;
  readonly where: Readonly<Record<string, MetadataValue>>;
  readonly n: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export interface RatioResult {
  readonly name: string;
  readonly metric: string;
  readonly unit: string;
  readonly numerator: RatioSide;
  readonly denominator: RatioSide;
  /** median(numerator) / median(denominator). */
  readonly value: number;
  /** min(numerator) / max(denominator). */
  readonly low: number;
  /** max(numerator) / min(denominator). */
  readonly high: number;
}

const isSample = (v: unknown): v is Sample => {
  const s = v as Sample;
  return (
    typeof s === "object" &&
    s !== null &&
    typeof s.metric === "string" &&
    typeof s.value === "number" &&
    Number.isFinite(s.value) &&
    typeof s.unit === "string" &&
    typeof s.metadata === "object" &&
    s.metadata !== null &&
    typeof s.metadata.tool === "string"
  );
};

/** An upstream `results` output as samples; an error naming the stack when it is not an array of samples. */
export function asSamples(stack: string, value: unknown): Sample[] {
  if (!Array.isArray(value)) throw new Error(`stack '${stack}': 'results' is not an array of samples, got ${JSON.stringify(value)}`);
  value.forEach((s, i) => {
    if (!isSample(s)) throw new Error(`stack '${stack}': 'results'[${i}] is not a sample {metric, value, unit, metadata: {tool, …}}`);
  });
  return value as Sample[];
}

function unitOf(metric: string, stack: string, samples: readonly Sample[]): string {
  const units = [...new Set(samples.map((s) => s.unit))];
  if (units.length !== 1) throw new Error(`stack '${stack}': metric ${metric} comes in several units (${units.join(", ")})`);
  return units[0];
}

/** Per metric, stack and series (the `groupBy` metadata values), sorted by metric, stack, series. */
export function seriesStats(byStack: Readonly<Record<string, readonly Sample[]>>, groupBy: readonly string[]): SeriesStats[] {
  const series = new Map<string, { metric: string; stack: string; group: Record<string, MetadataValue>; samples: Sample[] }>();
  for (const [stack, samples] of Object.entries(byStack)) {
    for (const s of samples) {
      const group: Record<string, MetadataValue> = {};
      for (const k of groupBy) if (s.metadata[k] !== undefined) group[k] = s.metadata[k];
      const key = JSON.stringify([s.metric, stack, Object.entries(group)]);
      const entry = series.get(key) ?? { metric: s.metric, stack, group, samples: [] };
      entry.samples.push(s);
      series.set(key, entry);
    }
  }
  return [...series.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, e]) => {
      const values = e.samples.map((s) => s.value);
      return {
        metric: e.metric,
        unit: unitOf(e.metric, e.stack, e.samples),
        stack: e.stack,
        group: e.group,
        n: values.length,
        median: median(values),
        min: Math.min(...values),
        max: Math.max(...values),
      };
    });
}

function side(metric: string, sel: SampleSelector, byStack: Readonly<Record<string, readonly Sample[]>>, ratio: string) {
  const where = sel.where ?? {};
  const samples = (byStack[sel.stack] ?? []).filter(
    (s) => s.metric === metric && Object.entries(where).every(([k, v]) => s.metadata[k] === v),
  );
  if (samples.length === 0)
    throw new Error(
      `ratio '${ratio}': stack '${sel.stack}' has no ${metric} samples${Object.keys(where).length ? ` with ${JSON.stringify(where)}` : ""}`,
    );
  const values = samples.map((s) => s.value);
  const r: RatioSide = {
    stack: sel.stack,
    where,
    n: values.length,
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
  };
  return { r, unit: unitOf(metric, sel.stack, samples) };
}

/** One ratio over the compared stacks' samples; an error naming the ratio when a side has no samples. */
export function ratio(spec: RatioSpec, byStack: Readonly<Record<string, readonly Sample[]>>): RatioResult {
  const num = side(spec.metric, spec.numerator, byStack, spec.name);
  const den = side(spec.metric, spec.denominator, byStack, spec.name);
  return {
    name: spec.name,
    metric: spec.metric,
    unit: num.unit,
    numerator: num.r,
    denominator: den.r,
    value: num.r.median / den.r.median,
    low: num.r.min / den.r.max,
    high: num.r.max / den.r.min,
  };
}
