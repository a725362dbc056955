/**
 * What a report says, computed from samples: experiments, one table per metric with a row per
 * group of repetitions, the published reference rows, the ratios that matter with their
 * intervals, and the samples that could not be compared (with why). Pure: the renderers
 * (markdown.ts, chart.ts, html.ts) only lay this out.
 *
 * Grouping. A sample's experiment is its `scenario` (samples without one share a section). Within
 * an experiment, samples of one metric form a table, and samples whose metadata is identical
 * except for {@link PER_REPETITION_KEYS} are repetitions of one measurement: a row. So every
 * setting that shapes a number (stack, instance type, hypervisor, storage class, zone relation,
 * driver, replication factor, fio profile and job, tool version, every tool option) separates
 * rows; the table shows the settings that differ between its rows as columns and lists the ones
 * they share.
 *
 * Comparisons. A ratio divides the median of one row by the median of another that differs in the
 * comparison's key (hypervisor nitro/xen, zone relation cross/same, replication factor 3/1, or
 * stack X / the `--baseline` stack) and in nothing else but the keys that go with it (the stack
 * and instance type go with the hypervisor, the zone with the zone relation, where it ran with the
 * stack): a like-for-like pair. Rows that have no such partner, rows missing the key, and samples
 * whose unit differs from the rest of their metric are listed as incomparable, never dropped
 * silently.
 */
import { MAINTENANCE_MINUTES_KEY, MAINTENANCE_OVERLAP_KEY, MAINTENANCE_START_KEY } from "../../core/maintenance";
import { isManifestKey } from "../../core/manifest";
import type { MetadataValue, Sample } from "../../core/sample";
import { isUtilMetric } from "../../core/utilization";
import {
  manifestSection,
  tableLimits,
  utilComparisons,
  utilIndex,
  type ManifestSection,
  type RunExtras,
  type TableLimits,
  type UtilComparison,
} from "./utilization";
import { referencesFor, unmatchedReferences, type ReferenceRow, type UnmatchedReference } from "./published";
import {
  BOOTSTRAP_DEFAULTS,
  includesOne,
  ratioInterval,
  relativeRange,
  summarize,
  type BootstrapOptions,
  type RatioEstimate,
  type Summary,
} from "../../core/stats";

/** A sample and the samples.json it was read from. */
export interface SourcedSample {
  readonly sample: Sample;
  readonly file: string;
}

/**
 * Metadata that tells repetitions of one measurement apart, not part of a row's identity: the run
 * and repetition, fio's errno (the `fio.error` value's detail), OMB's count of reporting periods
 * (the run's length in 10 s steps), and whether pgbench.sh initialised the tables in that run
 * (`pgbenchInitialisation`: each repetition starts with pgbench's own vacuum, so runs that reuse
 * the tables start from the same state, pgbench.sh says), and the repetition's window (`repStart`,
 * `repEnd`: when it ran) and the file system's maintenance window against it (`fsxMaintenance…`). The run's manifest (`manifest.…` keys, core/manifest.ts) is not part of a
 * row's identity either: lab/report/utilization.ts compares manifests on their own.
 */
export const PER_REPETITION_KEYS: readonly string[] = [
  "rep",
  "runId",
  "errno",
  "periods",
  "pgbenchInitialisation",
  "repStart",
  "repEnd",
  // The file system's maintenance window and whether the repetition overlapped it (core/maintenance.ts):
  // when it ran, not what it measured; the report lists the repetitions that overlapped.
  MAINTENANCE_START_KEY,
  MAINTENANCE_MINUTES_KEY,
  MAINTENANCE_OVERLAP_KEY,
];

/** Metadata not shown among a table's settings: constant by construction or bookkeeping. */
const HIDDEN_KEYS: ReadonlySet<string> = new Set(["tool", "scenario", "jobIndex"]);

/** Column order: the keys that distinguish runs first, the rest alphabetically. */
const PREFERRED_KEYS: readonly string[] = [
  "stack",
  "instanceType",
  "hypervisor",
  "storageClass",
  "zoneRelation",
  "zone",
  "driver",
  "driverConfig",
  "replicationFactor",
  "fioProfile",
  "job",
  "operation",
  "toolVersion",
];

/** Keys that say where a number was measured rather than what was measured. */
export const WHERE_KEYS: readonly string[] = [
  "stack",
  "instanceType",
  "hypervisor",
  "storageClass",
  "provisioner",
  "zone",
  "workers",
  "osdVolumeType",
  "osdVolumeGiB",
  "osdVolumeIops",
  "osdVolumeThroughputMBps",
  "cni",
  "k0sVersion",
  "rookVersion",
  "cephImage",
  "filename",
  "target",
  "fstype",
  "device",
  // lab bench local's host facts (lab/bench/host.ts): the file system and device of --dir.
  "fileSystem",
  "fileSystemDevice",
];

/**
 * Fewest repetitions a side for a ratio to show a difference: with 2 a side even rows wholly apart
 * have an exact Mann–Whitney p of 1/3, and one repetition says nothing of the spread.
 */
export const MIN_REPS_FOR_DIFFERENCE = 3;

/** A ratio the report computes wherever a table has both sides. */
export interface Comparison {
  readonly id: string;
  /** Numerator / denominator, as a reader says it. */
  readonly title: string;
  /** The metadata key whose values make the two sides. */
  readonly key: string;
  /** The numerator's value of `key`; `undefined`: any value but `den` (the baseline comparison). */
  readonly num?: MetadataValue;
  readonly den: MetadataValue;
  /** Keys that may differ between the sides besides `key` (they go with it). */
  readonly covary: readonly string[];
}

/** The ratios that matter: Nitro over Xen, cross-zone over same-zone, RF3 over RF1. */
export const COMPARISONS: readonly Comparison[] = [
  { id: "hypervisor", title: "Nitro / Xen", key: "hypervisor", num: "nitro", den: "xen", covary: ["stack", "instanceType"] },
  { id: "zone", title: "cross-zone / same-zone", key: "zoneRelation", num: "cross", den: "same", covary: ["stack", "zone"] },
  { id: "replication", title: "RF3 / RF1", key: "replicationFactor", num: 3, den: 1, covary: ["stack"] },
];

/**
 * The comparison of every other named run (a stack, or a `lab bench local --name`) of the same
 * setup with `stack` (`lab report --baseline`): where it ran may differ, nothing else.
 */
export function baselineComparison(stack: string): Comparison {
  return { id: "baseline", title: `stack / ${stack}`, key: "stack", den: stack, covary: WHERE_KEYS.filter((k) => k !== "stack") };
}

/**
 * A row's rank in its table: the baseline side of each comparison first (the `--baseline` run,
 * same zone, Xen, RF1), so every table and chart reads from the reference row down.
 */
function baselineRank(metadata: Readonly<Record<string, MetadataValue>>, baseline: string | undefined): number[] {
  const first = (key: string, value: MetadataValue | undefined) => (value !== undefined && same(metadata[key], value) ? 0 : 1);
  return [first("stack", baseline), ...COMPARISONS.map((c) => first(c.key, c.den))];
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** One row: the repetitions of one measurement. */
export interface Group {
  /** The row's identity metadata (everything but the per-repetition keys). */
  readonly metadata: Readonly<Record<string, MetadataValue>>;
  readonly values: readonly number[];
  readonly summary: Summary;
  /** Distinct run ids, in reading order. */
  readonly runs: readonly string[];
  readonly files: readonly string[];
  /** The values of the table's label keys joined with " · " (chart labels, ratio sides). */
  readonly label: string;
}

export interface MetricTable {
  readonly experiment: string;
  readonly metric: string;
  readonly unit: string;
  readonly groups: readonly Group[];
  /** Keys whose values differ between rows (the stack first whenever samples record it). */
  readonly columns: readonly string[];
  /** The columns that make the rows' labels: those among the run-distinguishing keys, unless they leave two rows alike. */
  readonly labelKeys: readonly string[];
  /** Settings every row shares, in column order. */
  readonly shared: readonly (readonly [string, MetadataValue])[];
  readonly references: readonly ReferenceRow[];
  /** Published figures of the table's storage and side that no row matches on workload (named under the table, never drawn). */
  readonly unmatched: readonly UnmatchedReference[];
}

export interface Ratio {
  readonly comparison: Comparison;
  readonly metric: string;
  readonly unit: string;
  readonly num: Group;
  readonly den: Group;
  readonly estimate: RatioEstimate;
  /** The interval includes 1, or a side has fewer than {@link MIN_REPS_FOR_DIFFERENCE} repetitions: the runs show no difference. */
  readonly noDifference: boolean;
  /**
   * The sides whose spread ((max − min) / median) is wider than the difference compared
   * (|ratio − 1|): a second run could reverse the ratio's direction.
   */
  readonly spreadWider: readonly ("num" | "den")[];
  /** The same ratio of the published figures beside the two rows, when both exist. */
  readonly published?: number;
  /** Keys whose values differ between the two rows: [key, numerator's, denominator's]. */
  readonly differs: readonly (readonly [string, string, string])[];
}

/** Samples that could not be compared, and why. */
export interface Incomparable {
  readonly experiment: string;
  readonly metric: string;
  /** The row (or unit) concerned. */
  readonly what: string;
  readonly samples: number;
  readonly files: readonly string[];
  readonly reason: string;
}

export interface Experiment {
  /** The scenario, or "" for samples without one. */
  readonly id: string;
  readonly title: string;
  readonly tables: readonly MetricTable[];
  readonly ratios: readonly Ratio[];
  /** Per table, each row's repetitions and their limit lines (lab/report/utilization.ts). */
  readonly limits?: readonly TableLimits[];
  /** Per compared pair of rows, the resources' utilization (lab/report/utilization.ts). */
  readonly utilization?: readonly UtilComparison[];
}

export interface ReportModel {
  readonly experiments: readonly Experiment[];
  readonly incomparable: readonly Incomparable[];
  readonly sampleCount: number;
  /** Each file read, with its sample count, in reading order. */
  readonly inputs: readonly { readonly file: string; readonly samples: number }[];
  readonly baseline?: string;
  /** One line per experiment where `--baseline` could not be compared like for like, saying why. */
  readonly baselineNotes: readonly string[];
  readonly bootstrap: Required<BootstrapOptions>;
  /** Each run's manifest and the differences `force` let through (lab/report/utilization.ts). */
  readonly manifests?: ManifestSection;
  /**
   * fio jobs read (one `fio.error` sample each) and those that failed (a count above 0): a failed
   * job gives no performance sample (core/parsers/fio.ts), so its figures are in no table.
   */
  readonly fioJobs: { readonly total: number; readonly failed: readonly FailedJob[] };
  /**
   * Repetitions whose samples say whether they overlapped their file system's maintenance window
   * (`fsxMaintenanceOverlap`, core/maintenance.ts), and those that did: the file system may have
   * served them from its standby file server.
   */
  readonly maintenance: { readonly checked: number; readonly overlapped: readonly RepetitionWindow[] };
}

/** One repetition and the maintenance window it overlapped. */
export interface RepetitionWindow {
  readonly stack: string;
  readonly runId: string;
  readonly tool: string;
  readonly rep: number;
  readonly repStart: string;
  readonly repEnd: string;
  /** `d:HH:MM` UTC, and how long. */
  readonly windowStart: string;
  readonly windowMinutes: number;
}

/** Each repetition once (by stack, run, tool, storage class, placement and rep), with its verdict. */
function maintenanceOf(files: readonly InputFile[]): ReportModel["maintenance"] {
  const seen = new Map<string, RepetitionWindow | undefined>();
  for (const s of files.flatMap((f) => f.samples)) {
    const m = s.metadata;
    const verdict = m[MAINTENANCE_OVERLAP_KEY];
    if (typeof verdict !== "boolean") continue;
    // Every sample of a repetition carries the same verdict (components/bench/collect.ts computes it from the
    // repetition's marker); a true one wins should two repetitions ever share a key.
    const key = JSON.stringify([
      m.stack,
      m.runId,
      m.tool,
      m.jobIndex,
      m.storageClass,
      m.zoneRelation,
      m.fioProfile,
      m.driverConfig,
      m.replicationFactor,
      m.rep,
      m.repStart,
      m.repEnd,
    ]);
    if (seen.has(key) && (seen.get(key) !== undefined || !verdict)) continue;
    seen.set(
      key,
      verdict
        ? {
            stack: String(m.stack ?? "?"),
            runId: String(m.runId ?? "?"),
            tool: String(m.tool),
            rep: Number(m.rep ?? 0),
            repStart: String(m.repStart ?? "?"),
            repEnd: String(m.repEnd ?? "?"),
            windowStart: String(m[MAINTENANCE_START_KEY] ?? "?"),
            windowMinutes: Number(m[MAINTENANCE_MINUTES_KEY] ?? 0),
          }
        : undefined,
    );
  }
  const overlapped = [...seen.values()].filter((w): w is RepetitionWindow => w !== undefined);
  return { checked: seen.size, overlapped };
}

/** A fio job that ended with an error: where, and fio's errno. */
export interface FailedJob {
  readonly stack: string;
  readonly runId: string;
  readonly job: string;
  readonly errno: number;
}

/** Every fio job of the samples read, and the failed ones. */
function fioJobsOf(files: readonly InputFile[]): ReportModel["fioJobs"] {
  const jobs = files.flatMap((f) => f.samples).filter((s) => s.metric === "fio.error");
  const failed = jobs
    .filter((s) => s.value > 0)
    .map((s) => ({
      stack: String(s.metadata.stack ?? "?"),
      runId: String(s.metadata.runId ?? "?"),
      job: String(s.metadata.job ?? "?"),
      errno: Number(s.metadata.errno ?? 0),
    }));
  return { total: jobs.length, failed };
}

export interface ModelOptions {
  /** Also compare every other stack with this one. */
  readonly baseline?: string;
  readonly bootstrap?: BootstrapOptions;
  /** Titles of known scenarios (scenarios/index.ts descriptions), by id. */
  readonly scenarioTitles?: Readonly<Record<string, string>>;
  /** Put runs with different manifests side by side (`lab report --force`); without it they are refused. */
  readonly force?: boolean;
}

/** The title of the section of samples without a scenario. */
export const NO_SCENARIO_TITLE = "Runs without a scenario";

function orderKeys(keys: Iterable<string>): string[] {
  const rank = (k: string) => {
    const i = PREFERRED_KEYS.indexOf(k);
    return i < 0 ? PREFERRED_KEYS.length : i;
  };
  return [...new Set(keys)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** A row's identity: the metadata but the per-repetition and manifest keys, keys sorted. */
export function identity(metadata: Readonly<Record<string, MetadataValue>>): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  for (const k of Object.keys(metadata).sort()) if (!PER_REPETITION_KEYS.includes(k) && !isManifestKey(k)) out[k] = metadata[k];
  return out;
}

function same(a: MetadataValue | undefined, b: MetadataValue | undefined): boolean {
  return a === undefined || b === undefined ? a === b : String(a) === String(b);
}

function distinct<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

interface Bucket {
  experiment: string;
  metric: string;
  items: SourcedSample[];
}

/** Keys in which two rows differ, except `ignore`. */
function differingKeys(a: Group, b: Group, ignore: readonly string[]): string[] {
  const keys = new Set([...Object.keys(a.metadata), ...Object.keys(b.metadata)]);
  return orderKeys([...keys].filter((k) => !ignore.includes(k) && !same(a.metadata[k], b.metadata[k])));
}

function describeDifference(a: Group, b: Group, keys: readonly string[]): string {
  return keys.map((k) => `${k} (${a.metadata[k] ?? "none"} vs ${b.metadata[k] ?? "none"})`).join(", ");
}

/** Splits a bucket by unit: the unit most samples have is kept (ties: alphabetical), the rest listed. */
function splitUnits(bucket: Bucket, incomparable: Incomparable[]): { unit: string; items: SourcedSample[] } {
  const byUnit = new Map<string, SourcedSample[]>();
  for (const it of bucket.items) byUnit.set(it.sample.unit, [...(byUnit.get(it.sample.unit) ?? []), it]);
  const units = [...byUnit.keys()].sort((a, b) => byUnit.get(b)!.length - byUnit.get(a)!.length || (a < b ? -1 : 1));
  const unit = units[0];
  for (const other of units.slice(1)) {
    const items = byUnit.get(other)!;
    incomparable.push({
      experiment: bucket.experiment,
      metric: bucket.metric,
      what: `unit ${other}`,
      samples: items.length,
      files: distinct(items.map((i) => i.file)),
      reason: `mixed units: ${items.length} sample(s) in ${other}, while ${byUnit.get(unit)!.length} sample(s) of this metric are in ${unit}`,
    });
  }
  return { unit, items: byUnit.get(unit)! };
}

interface RawGroup {
  metadata: Record<string, MetadataValue>;
  items: SourcedSample[];
}

/** Groups a bucket's samples into rows; a repetition (run id and rep) seen twice is listed, not counted twice. */
function groupRows(bucket: Bucket, items: readonly SourcedSample[], incomparable: Incomparable[]): RawGroup[] {
  const groups = new Map<string, RawGroup & { seen: Map<string, string> }>();
  for (const it of items) {
    const metadata = identity(it.sample.metadata);
    const key = JSON.stringify(metadata);
    let g = groups.get(key);
    if (g === undefined) {
      g = { metadata, items: [], seen: new Map() };
      groups.set(key, g);
    }
    const { runId, rep } = it.sample.metadata;
    if (runId !== undefined && rep !== undefined) {
      const repKey = `${runId}#${rep}`;
      const first = g.seen.get(repKey);
      if (first !== undefined) {
        incomparable.push({
          experiment: bucket.experiment,
          metric: bucket.metric,
          what: `run ${runId} rep ${rep}`,
          samples: 1,
          files: [it.file],
          reason: `duplicate: run ${runId} repetition ${rep} of this row was already read from ${first}; counted once`,
        });
        continue;
      }
      g.seen.set(repKey, it.file);
    }
    g.items.push(it);
  }
  return [...groups.values()].map(({ metadata, items: rows }) => ({ metadata, items: rows }));
}

function buildTable(bucket: Bucket, incomparable: Incomparable[], baseline: string | undefined): MetricTable {
  const { unit, items } = splitUnits(bucket, incomparable);
  // Stable: rows of equal rank keep their reading order.
  const raw = groupRows(bucket, items, incomparable).sort((a, b) =>
    compareRanks(baselineRank(a.metadata, baseline), baselineRank(b.metadata, baseline)),
  );
  const allKeys = orderKeys(raw.flatMap((g) => Object.keys(g.metadata)));
  const varying = allKeys.filter((k) => !HIDDEN_KEYS.has(k) && raw.some((g) => !same(g.metadata[k], raw[0].metadata[k])));
  const columns = raw.some((g) => g.metadata.stack !== undefined) && !varying.includes("stack") ? ["stack", ...varying] : varying;
  const shared = allKeys
    .filter((k) => !HIDDEN_KEYS.has(k) && !columns.includes(k) && raw.every((g) => g.metadata[k] !== undefined))
    .map((k) => [k, raw[0].metadata[k]] as const);
  // Labels name rows by the keys that distinguish runs; all differing keys only where those do not tell rows apart.
  const labelOf = (keys: readonly string[], g: RawGroup) => keys.map((k) => String(g.metadata[k] ?? "—")).join(" · ");
  const preferred = columns.filter((k) => PREFERRED_KEYS.includes(k));
  const labelKeys = new Set(raw.map((g) => labelOf(preferred, g))).size === raw.length ? preferred : columns;
  const groups: Group[] = raw.map((g) => {
    const values = g.items.map((i) => i.sample.value);
    const label = labelOf(labelKeys, g);
    return {
      metadata: g.metadata,
      values,
      summary: summarize(values),
      runs: distinct(
        g.items
          .map((i) => i.sample.metadata.runId)
          .filter((r): r is MetadataValue => r !== undefined)
          .map(String),
      ),
      files: distinct(g.items.map((i) => i.file)),
      label: label === "" ? "all samples" : label,
    };
  });
  return {
    experiment: bucket.experiment,
    metric: bucket.metric,
    unit,
    groups,
    columns,
    labelKeys,
    shared,
    references: referencesFor(
      bucket.experiment,
      bucket.metric,
      unit,
      groups.map((g) => g.metadata),
    ),
    unmatched: unmatchedReferences(
      bucket.experiment,
      bucket.metric,
      unit,
      groups.map((g) => g.metadata),
    ),
  };
}

function sideOf(c: Comparison, g: Group): "num" | "den" | "none" | "missing" {
  const v = g.metadata[c.key];
  if (v === undefined) return "missing";
  if (same(v, c.den)) return "den";
  if (c.num === undefined || same(v, c.num)) return "num";
  return "none";
}

function sideName(c: Comparison, side: "num" | "den"): string {
  const v = side === "num" ? c.num : c.den;
  return v === undefined ? `${c.key} other than ${c.den}` : `${c.key}=${v}`;
}

function publishedRatio(table: MetricTable, num: Group, den: Group): number | undefined {
  const n = table.references.find((r) => r.rows.includes(table.groups.indexOf(num)));
  const d = table.references.find((r) => r.rows.includes(table.groups.indexOf(den)));
  return n !== undefined && d !== undefined && n !== d ? n.figure.value / d.figure.value : undefined;
}

/** The sides of a ratio whose relative spread is wider than the difference it shows. */
export function sidesWiderThanDifference(num: Summary, den: Summary, ratio: number): ("num" | "den")[] {
  const difference = Math.abs(ratio - 1);
  return (
    [
      ["num", num],
      ["den", den],
    ] as const
  )
    .filter(([, s]) => {
      const spread = relativeRange(s);
      return s.n >= 2 && spread !== undefined && spread > difference;
    })
    .map(([side]) => side);
}

/** The ratios of one table for every comparison that applies; unpaired rows go to `incomparable`. */
function compareTable(
  table: MetricTable,
  comparisons: readonly Comparison[],
  bootstrap: Required<BootstrapOptions>,
  incomparable: Incomparable[],
): Ratio[] {
  if (table.unit === "count") return [];
  const ratios: Ratio[] = [];
  const paired = new Set<string>();
  const list = (g: Group, reason: string) =>
    incomparable.push({
      experiment: table.experiment,
      metric: table.metric,
      what: g.label,
      samples: g.values.length,
      files: g.files,
      reason,
    });
  for (const c of comparisons) {
    const sides = table.groups.map((g) => sideOf(c, g));
    const nums = table.groups.filter((_, i) => sides[i] === "num");
    const dens = table.groups.filter((_, i) => sides[i] === "den");
    if (nums.length + dens.length === 0) continue;
    table.groups.forEach((g, i) => {
      if (sides[i] === "missing") list(g, `${c.title}: no '${c.key}' in its metadata, so it cannot take a side`);
    });
    const ignore = [c.key, ...c.covary];
    const used = new Set<Group>();
    for (const n of nums) {
      for (const d of dens) {
        if (n === d || differingKeys(n, d, ignore).length > 0) continue;
        used.add(n);
        used.add(d);
        const pairKey = `${table.groups.indexOf(n)}/${table.groups.indexOf(d)}`;
        if (paired.has(pairKey)) continue;
        paired.add(pairKey);
        if (d.values.some((v) => !(v > 0))) {
          list(d, `${c.title}: a denominator value is not positive, so no ratio`);
          continue;
        }
        const published = publishedRatio(table, n, d);
        const estimate = ratioInterval(n.values, d.values, bootstrap);
        ratios.push({
          comparison: c,
          metric: table.metric,
          unit: table.unit,
          num: n,
          den: d,
          estimate,
          noDifference: includesOne(estimate) || n.summary.n < MIN_REPS_FOR_DIFFERENCE || d.summary.n < MIN_REPS_FOR_DIFFERENCE,
          spreadWider: sidesWiderThanDifference(n.summary, d.summary, estimate.ratio),
          ...(published === undefined ? {} : { published }),
          differs: differingKeys(n, d, []).map((k) => [k, String(n.metadata[k] ?? "none"), String(d.metadata[k] ?? "none")] as const),
        });
      }
    }
    for (const [side, mine, others] of [
      ["num", nums, dens],
      ["den", dens, nums],
    ] as const) {
      for (const g of mine) {
        if (used.has(g)) continue;
        if (others.length === 0) {
          // --baseline with no other run in the experiment: one line in the model's baselineNotes, not one per row.
          if (c.id !== "baseline")
            list(g, `${c.title}: one side missing: no ${sideName(c, side === "num" ? "den" : "num")} samples of this metric`);
          continue;
        }
        const closest = [...others].sort((a, b) => differingKeys(g, a, ignore).length - differingKeys(g, b, ignore).length)[0];
        list(
          g,
          `${c.title}: not like-for-like: differs from ${closest.label} in ${describeDifference(g, closest, differingKeys(g, closest, ignore))}`,
        );
      }
    }
  }
  return ratios;
}

/** The stacks (named runs) of an experiment's rows. */
function stacksOf(e: Experiment): string[] {
  return distinct(
    e.tables
      .flatMap((t) => t.groups.map((g) => g.metadata.stack))
      .filter((v) => v !== undefined)
      .map(String),
  ).sort();
}

/**
 * Why `--baseline` gave no ratio where it ran, in one line: no other named run in its experiment
 * (runs of other experiments are other setups, never divided by it), or no row alike but for
 * where it ran (the incomparable list names each row's differences).
 */
export function baselineNotes(baseline: string, experiments: readonly Experiment[]): string[] {
  const notes: string[] = [];
  for (const e of experiments) {
    const stacks = stacksOf(e);
    // A ratio the baseline's rows take part in (a built-in comparison's too: the baseline one does not repeat it) says enough.
    const compared = e.ratios.some((r) => same(r.num.metadata.stack, baseline) || same(r.den.metadata.stack, baseline));
    if (!stacks.includes(baseline) || compared) continue;
    const name = e.id === "" ? NO_SCENARIO_TITLE : `experiment ${e.id}`;
    const others = stacks.filter((s) => s !== baseline);
    const elsewhere = experiments.filter((x) => x !== e && stacksOf(x).length > 0).map((x) => (x.id === "" ? "(no scenario)" : x.id));
    notes.push(
      others.length === 0
        ? `--baseline ${baseline}: not like for like with anything: ${name} has no other named run to divide by it${
            elsewhere.length > 0 ? ` (the runs of ${elsewhere.join(", ")} are other setups and are never divided by it)` : ""
          }; name runs of the same setup (lab bench local --name N) to compare them.`
        : `--baseline ${baseline}: not like for like: in ${name}, no row of ${others.join(", ")} differs from ${baseline}'s only in where it ran; see "Samples that could not be compared".`,
    );
  }
  return notes;
}

/** One samples.json as read: its path and its samples, in file order; utilization.json and manifest.json beside it. */
export interface InputFile extends RunExtras {
  readonly file: string;
  readonly samples: readonly Sample[];
}

/** Builds the report's content from the files read, in reading order. */
export function buildModel(files: readonly InputFile[], options: ModelOptions = {}): ReportModel {
  const bootstrap = { ...BOOTSTRAP_DEFAULTS, ...options.bootstrap };
  const incomparable: Incomparable[] = [];
  const buckets = new Map<string, Bucket>();
  const manifests = manifestSection(files, options.force === true);
  const index = utilIndex(files, identity);
  for (const f of files) {
    for (const sample of f.samples) {
      // Utilization samples are the limit lines' and charts' (lab/report/utilization.ts), not tables.
      if (isUtilMetric(sample.metric)) continue;
      const experiment = sample.metadata.scenario === undefined ? "" : String(sample.metadata.scenario);
      const key = JSON.stringify([experiment, sample.metric]);
      let b = buckets.get(key);
      if (b === undefined) {
        b = { experiment, metric: sample.metric, items: [] };
        buckets.set(key, b);
      }
      b.items.push({ sample, file: f.file });
    }
  }
  const ids = distinct([...buckets.values()].map((b) => b.experiment)).sort((a, b) => (a === "" ? 1 : b === "" ? -1 : a < b ? -1 : 1));
  const experiments = ids.map((id): Experiment => {
    const inExperiment = [...buckets.values()].filter((b) => b.experiment === id);
    const tables = inExperiment.map((b) => buildTable(b, incomparable, options.baseline));
    // The baseline comparison applies where the baseline stack ran.
    const hasBaseline =
      options.baseline !== undefined && inExperiment.some((b) => b.items.some((i) => same(i.sample.metadata.stack, options.baseline)));
    const comparisons = hasBaseline ? [...COMPARISONS, baselineComparison(options.baseline as string)] : COMPARISONS;
    const ratios = tables.flatMap((t) => compareTable(t, comparisons, bootstrap, incomparable));
    const title = id === "" ? NO_SCENARIO_TITLE : (options.scenarioTitles?.[id] ?? id);
    const e: Experiment = { id, title, tables, ratios };
    return { ...e, limits: tables.map((t) => tableLimits(id, t, index)), utilization: utilComparisons(e, index) };
  });
  return {
    experiments,
    incomparable,
    sampleCount: files.reduce((n, f) => n + f.samples.length, 0),
    inputs: files.map((f) => ({ file: f.file, samples: f.samples.length })),
    fioJobs: fioJobsOf(files),
    maintenance: maintenanceOf(files),
    ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
    baselineNotes: options.baseline === undefined ? [] : baselineNotes(options.baseline, experiments),
    bootstrap,
    manifests,
  };
}
