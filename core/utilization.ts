/**
 * Utilization samples: what each resource under a benchmark repetition did during that
 * repetition, next to what it is configured to do (README "Utilization and limits"). Pure.
 *
 * A utilization sample is an ordinary sample (core/sample.ts) whose metric is
 * `util.<resource>.<metric>` (e.g. `util.osd-2.iops`, `util.node.cpuSteal`), whose value is the
 * mean over the repetition's window and whose metadata carries, besides the repetition's own
 * metadata (`tool` is the benchmark's tool, `rep`, `repStart`, `repEnd`, …):
 *
 * - `utilSource`: `node-sampler` (components/bench/scripts/sampler.sh, beside the benchmark) or
 *   `cloudwatch` (lab/utilization/cloudwatch.ts, after the run);
 * - `resource`, and for AWS resources `resourceId` (`vol-…`, `i-…`, `fs-…`);
 * - `max`: the highest value of one sampling interval (a second for the node sampler, a minute
 *   for CloudWatch) inside the window;
 * - `limit` and `limitLabel` where the resource has a configured limit in the sample's unit (a
 *   gp3 volume's provisioned IOPS, 100 % of a CPU or of an FSx utilization metric): what the
 *   limit line (core/limits.ts) compares the mean with.
 */
import type { MetadataValue, Sample } from "./sample";

/** Every utilization metric starts with this. */
export const UTIL_PREFIX = "util.";

/** Where a utilization sample comes from. */
export type UtilSource = "node-sampler" | "cloudwatch";

/** `util.<resource>.<metric>`; the resource must not contain a dot. */
export function utilMetric(resource: string, metric: string): string {
  if (resource.includes(".") || resource === "")
    throw new Error(`utilization resource ${JSON.stringify(resource)} must be a non-empty name without '.'`);
  return `${UTIL_PREFIX}${resource}.${metric}`;
}

/** True for a utilization metric (and the limit line's `util.limit`). */
export function isUtilMetric(metric: string): boolean {
  return metric.startsWith(UTIL_PREFIX);
}

/** The resource and metric of a utilization metric, or undefined for any other metric. */
export function parseUtilMetric(metric: string): { resource: string; metric: string } | undefined {
  if (!isUtilMetric(metric)) return undefined;
  const rest = metric.slice(UTIL_PREFIX.length);
  const dot = rest.indexOf(".");
  return dot <= 0 || dot === rest.length - 1 ? undefined : { resource: rest.slice(0, dot), metric: rest.slice(dot + 1) };
}

/** What a utilization sample says, read back from a sample. */
export interface Utilization {
  readonly resource: string;
  readonly metric: string;
  readonly mean: number;
  readonly max?: number;
  readonly unit: string;
  readonly limit?: number;
  readonly limitLabel?: string;
  readonly source?: string;
}

/** The utilization a sample carries, or undefined when it is not a utilization sample. */
export function utilizationOf(s: Sample): Utilization | undefined {
  const m = parseUtilMetric(s.metric);
  if (m === undefined) return undefined;
  const num = (v: MetadataValue | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const str = (v: MetadataValue | undefined) => (typeof v === "string" ? v : undefined);
  const max = num(s.metadata.max);
  const limit = num(s.metadata.limit);
  const limitLabel = str(s.metadata.limitLabel);
  const source = str(s.metadata.utilSource);
  return {
    ...m,
    mean: s.value,
    unit: s.unit,
    ...(max === undefined ? {} : { max }),
    ...(limit === undefined || !(limit > 0) ? {} : { limit, limitLabel: limitLabel ?? m.metric }),
    ...(source === undefined ? {} : { source }),
  };
}

/**
 * The key of a benchmark repetition's window: stack, run id, tool, repetition and start time (two
 * repetitions never start in the same second on the same stack: a stack's Jobs run one after the
 * other). Undefined for a sample without a window (collected before windows were recorded).
 */
export function windowKey(metadata: Readonly<Record<string, MetadataValue>>): string | undefined {
  const { stack, runId, tool, rep, repStart } = metadata;
  if (rep === undefined || typeof repStart !== "string") return undefined;
  return [stack ?? "", runId ?? "", tool ?? "", String(rep), repStart].join("|");
}
