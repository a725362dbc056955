/**
 * The limit line of a benchmark repetition: of every resource sampled during the repetition that
 * has a configured limit (core/utilization.ts), the one whose mean over the window came closest to
 * it, and how close, e.g. `gp3 IOPS 2980/3000 (99 %) on osd-2`. When none reached
 * {@link LIMIT_THRESHOLD_PERCENT} of its limit the line says so, `no resource above 70 %:
 * client-bound`, and names the highest one: the number was set by something no sampled resource
 * measures (the client's queue depth, latency, a lock), not by a provisioned limit. Pure.
 *
 * The mean is what the line compares: a repetition's number is a mean over its window too. The
 * verdict also keeps the highest one-interval value's share (`maxPercent`), for a reader who asks
 * whether the resource hit its limit in bursts.
 */
import type { MetadataValue, Sample } from "./sample";
import { utilizationOf, type Utilization } from "./utilization";

/** At or above this share of its limit a resource is what bounded the repetition. */
export const LIMIT_THRESHOLD_PERCENT = 70;

/** The metric of the limit line's sample. */
export const LIMIT_METRIC = "util.limit";

/** What the limit line says. */
export interface LimitVerdict {
  /** The line, as the report prints it. */
  readonly line: string;
  /** Whether the closest resource reached the threshold. */
  readonly bound: boolean;
  /** The closest resource's mean as a percent of its limit. */
  readonly percent: number;
  /** Its highest one-interval value as a percent of its limit (the mean's when unknown). */
  readonly maxPercent: number;
  readonly resource: string;
  readonly metric: string;
  readonly label: string;
  readonly mean: number;
  readonly limit: number;
  readonly unit: string;
  /** How many sampled figures had a limit. */
  readonly candidates: number;
}

/** A number as the line shows it: whole from 100 up, else three significant digits. */
export function formatLimitNumber(n: number): string {
  if (Math.abs(n) >= 100) return String(Math.round(n));
  return String(Number(n.toPrecision(3)));
}

/** The unit the line shows a figure in, and the divisor from the sample's unit. */
function display(u: Utilization, limitUnit: string | undefined): { unit: string; divisor: number } {
  if (u.unit === "B/s") return limitUnit === "MiB/s" ? { unit: "MiB/s", divisor: 2 ** 20 } : { unit: "MB/s", divisor: 1e6 };
  if (u.unit === "op/s" || u.unit === "count") return { unit: "", divisor: 1 };
  return { unit: u.unit, divisor: 1 };
}

/** `<label> <mean>/<limit>[ unit] (<percent> %) on <resource>`. */
function describe(u: Utilization & { limit: number; limitLabel: string }, limitUnit: string | undefined): string {
  const d = display(u, limitUnit);
  const pct = Math.round((100 * u.mean) / u.limit);
  return `${u.limitLabel} ${formatLimitNumber(u.mean / d.divisor)}/${formatLimitNumber(u.limit / d.divisor)}${d.unit === "" ? "" : ` ${d.unit}`} (${pct} %) on ${u.resource}`;
}

/**
 * The limit line of one repetition from its utilization samples (any order, any source); undefined
 * when none of them has a limit (nothing was sampled that can say what bounded the repetition).
 * Ties go to the resource, then the metric, first in alphabetical order.
 */
export function deriveLimit(samples: readonly Sample[]): LimitVerdict | undefined {
  const withLimit = samples
    .map((s) => ({ u: utilizationOf(s), limitUnit: typeof s.metadata.limitUnit === "string" ? s.metadata.limitUnit : undefined }))
    .filter(
      (x): x is { u: Utilization & { limit: number; limitLabel: string }; limitUnit: string | undefined } => x.u?.limit !== undefined,
    );
  if (withLimit.length === 0) return undefined;
  const share = (x: { u: Utilization & { limit: number } }) => x.u.mean / x.u.limit;
  const top = [...withLimit].sort(
    (a, b) =>
      share(b) - share(a) ||
      (a.u.resource < b.u.resource ? -1 : a.u.resource > b.u.resource ? 1 : a.u.metric < b.u.metric ? -1 : a.u.metric > b.u.metric ? 1 : 0),
  )[0];
  const percent = 100 * share(top);
  const bound = percent >= LIMIT_THRESHOLD_PERCENT;
  const closest = describe(top.u, top.limitUnit);
  return {
    line: bound ? closest : `no resource above ${LIMIT_THRESHOLD_PERCENT} %: client-bound (highest: ${closest})`,
    bound,
    percent,
    maxPercent: (100 * (top.u.max ?? top.u.mean)) / top.u.limit,
    resource: top.u.resource,
    metric: top.u.metric,
    label: top.u.limitLabel,
    mean: top.u.mean,
    limit: top.u.limit,
    unit: top.u.unit,
    candidates: withLimit.length,
  };
}

/**
 * The limit line as a sample (`util.limit`, the closest resource's percent of its limit), with
 * the repetition's metadata and `limitLine`, `limitBound`, `limitResource`, `limitMetric`.
 */
export function limitSample(
  v: LimitVerdict,
  metadata: Readonly<Record<string, MetadataValue>> & { tool: Sample["metadata"]["tool"] },
): Sample {
  return {
    metric: LIMIT_METRIC,
    value: v.percent,
    unit: "%",
    metadata: {
      ...metadata,
      utilSource: "derived",
      limitLine: v.line,
      limitBound: v.bound,
      limitResource: v.resource,
      limitMetric: v.metric,
      limitCandidates: v.candidates,
    },
  };
}
