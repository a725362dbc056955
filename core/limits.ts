/**
 * The limit line of a benchmark repetition: of every resource sampled during the repetition that
 * has a configured limit (core/utilization.ts), the one whose mean over the window came closest to
 * it, and how close, e.g. `gp3 IOPS 2980/3000 (99 %) on osd-2`. When none reached
 * {@link LIMIT_THRESHOLD_PERCENT} of its limit the line says so, `no resource at ≥ 70 % of its
 * limit (a heuristic threshold): likely client-bound`, and names the highest one: the number was
 * probably set by something no sampled resource measures (the client's queue depth, latency, a
 * lock), not by a provisioned limit. 70 % is a rule of thumb, not a measured saturation point: the
 * line says so wherever it calls a repetition client-bound.
 *
 * What could not be judged is said instead of a verdict: a sample whose metadata carries
 * `unjudged` (e.g. a window too short for CloudWatch's one-minute periods, lab/utilization/cloudwatch.ts)
 * or an `unjudged` entry the caller passes (CloudWatch not asked) turns "likely client-bound" into
 * `not judged: <why> (highest sampled: …)`: a limit that was not looked at cannot be ruled out.
 * Pure.
 *
 * The mean is what the line compares: a repetition's number is a mean over its window too. The
 * verdict also keeps the highest one-interval value's share (`maxPercent`), for a reader who asks
 * whether the resource hit its limit in bursts.
 */
import type { MetadataValue, Sample } from "./sample";
import { utilizationOf, type Utilization } from "./utilization";

/** At or above this share of its limit a resource is read as what bounded the repetition: a heuristic, said where printed. */
export const LIMIT_THRESHOLD_PERCENT = 70;

/** What a limit line is, for every place that prints one. */
export const LIMIT_LINE_LEGEND = `limit line: the sampled resource closest to its configured limit; at ≥ ${LIMIT_THRESHOLD_PERCENT} % it is named as the bound (a heuristic threshold, not a measured saturation point)`;

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
  /** What could not be judged in the window (sorted, distinct); empty when everything was. */
  readonly unjudged: readonly string[];
}

/** The metadata key of a sample that says what it could not judge. */
export const UNJUDGED_KEY = "unjudged";

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
 * `unjudged` adds what could not be looked at to what the samples say. Ties go to the resource,
 * then the metric, first in alphabetical order.
 */
export function deriveLimit(samples: readonly Sample[], unjudged: readonly string[] = []): LimitVerdict | undefined {
  const notJudged = [
    ...new Set([
      ...unjudged,
      ...samples.map((s) => s.metadata[UNJUDGED_KEY]).filter((u): u is string => typeof u === "string" && u !== ""),
    ]),
  ].sort();
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
  const also = notJudged.length === 0 ? "" : `; not judged: ${notJudged.join("; ")}`;
  return {
    line: bound
      ? `${closest}${also}`
      : notJudged.length > 0
        ? `not judged: ${notJudged.join("; ")} (highest sampled: ${closest})`
        : `no resource at ≥ ${LIMIT_THRESHOLD_PERCENT} % of its limit (a heuristic threshold): likely client-bound (highest: ${closest})`,
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
    unjudged: notJudged,
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
      ...(v.unjudged.length === 0 ? {} : { limitUnjudged: v.unjudged.join("; ") }),
    },
  };
}

/**
 * What a judgement without CloudWatch leaves unjudged: the run's resources whose limits only
 * CloudWatch reports (`lab util --no-cloudwatch`, and `lab report` of a run that never went
 * through `lab util`: the same words, so both print the same line).
 */
export function noCloudWatchNote(resources: readonly string[]): string {
  return `CloudWatch not asked (--no-cloudwatch): the limits of ${resources.join(", ")} were not looked at`;
}

/** The limit line `lab util` judged and wrote (a derived `util.limit` sample), or undefined for any other sample. */
export function judgedLimitLine(s: Sample): string | undefined {
  return s.metric === LIMIT_METRIC && s.metadata.utilSource === "derived" && typeof s.metadata.limitLine === "string"
    ? s.metadata.limitLine
    : undefined;
}
