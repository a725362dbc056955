/**
 * What `lab report` says about utilization and manifests (lab/report/model.ts calls these while it
 * builds the model; markdown.ts and html.ts lay them out). Pure.
 *
 * - **Manifests**: each run's manifest (read back from its samples' `manifest.…` metadata,
 *   core/manifest.ts) is shown; runs of one experiment whose manifests differ in what shapes a
 *   number (git commit and changes, pins, region, a stack both runs used) are refused, with every
 *   difference named, unless `force` (lab report --force) puts them side by side anyway; then the
 *   report lists the differences. Runs without a manifest are shown as such, not compared.
 * - **Limit lines**: under each metric table, each row's repetitions with their limit lines
 *   (core/limits.ts), from the utilization samples of each repetition's window (the node
 *   sampler's in samples.json, CloudWatch's in utilization.json).
 * - **Utilization charts**: per comparison (a ratio's two rows), the resources with a limit, each
 *   side's mean share of the limit over its repetitions and its highest one-interval share.
 */
import type { TopLevelSpec } from "vega-lite/build/index";
import {
  deriveLimit,
  judgedLimitLine,
  LIMIT_LINE_LEGEND,
  LIMIT_THRESHOLD_PERCENT,
  noCloudWatchNote,
  UNJUDGED_KEY,
  type LimitVerdict,
} from "../../core/limits";
import { configDifferences, manifestDifferences, manifestFromMetadata, manifestId, type Manifest } from "../../core/manifest";
import type { MetadataValue, Sample } from "../../core/sample";
import { isUtilMetric, utilizationOf, windowKey } from "../../core/utilization";
import type { Chart } from "./chart";
import type { Experiment, Group, MetricTable } from "./model";
import type { ManifestFile } from "../utilization/manifest";

/** What the report reads besides samples.json, per input file (lab/report/load.ts fills it). */
export interface RunExtras {
  /** utilization.json's samples (lab util). */
  readonly utilization?: readonly Sample[];
  /** manifest.json (lab/utilization/manifest.ts). */
  readonly manifestFile?: ManifestFile;
}

/** An input file as these functions need it. */
export interface ExtrasInput extends RunExtras {
  readonly file: string;
  readonly samples: readonly Sample[];
}

// ---------------------------------------------------------------------------------------------
// Manifests

/** One run (stack/run id) and its manifest. */
export interface RunManifest {
  readonly experiment: string;
  /** `<stack>/<runId>`. */
  readonly run: string;
  readonly files: readonly string[];
  readonly manifest?: Manifest;
  readonly id?: string;
}

/** Where one run's manifest differs from its experiment's first run with one. */
export interface ManifestMismatch {
  readonly experiment: string;
  readonly run: string;
  readonly reference: string;
  /** `field run's vs reference's`, config keys named where manifest.json has them. */
  readonly differences: readonly string[];
}

export interface ManifestSection {
  readonly runs: readonly RunManifest[];
  readonly mismatches: readonly ManifestMismatch[];
  /** Whether the report went ahead with mismatches (`--force`). */
  readonly forced: boolean;
}

/** Runs with different manifests, refused without `--force`. */
export class ManifestMismatchError extends Error {
  readonly mismatches: readonly ManifestMismatch[];
  constructor(mismatches: readonly ManifestMismatch[]) {
    super(
      [
        "refusing to put runs with different manifests side by side (lab report --force puts them together and lists the differences):",
        ...mismatches.map(
          (m) =>
            `  ${m.run} differs from ${m.reference}${m.experiment === "" ? "" : ` (experiment ${m.experiment})`}: ${m.differences.join("; ")}`,
        ),
      ].join("\n"),
    );
    this.name = "ManifestMismatchError";
    this.mismatches = mismatches;
  }
}

const experimentOf = (s: Sample) => (s.metadata.scenario === undefined ? "" : String(s.metadata.scenario));
const runOf = (s: Sample) => `${s.metadata.stack ?? "?"}/${s.metadata.runId ?? "?"}`;

/**
 * The manifests of the runs read, per experiment in reading order, and how they differ.
 * @throws ManifestMismatchError when two runs of an experiment differ and `force` is not set.
 */
export function manifestSection(files: readonly ExtrasInput[], force: boolean): ManifestSection {
  const runs = new Map<
    string,
    { experiment: string; run: string; files: Set<string>; ids: Set<string>; manifest?: Manifest; configs?: ManifestFile["configs"] }
  >();
  for (const f of files) {
    for (const s of f.samples) {
      const key = JSON.stringify([experimentOf(s), runOf(s)]);
      let r = runs.get(key);
      if (r === undefined) {
        r = { experiment: experimentOf(s), run: runOf(s), files: new Set(), ids: new Set() };
        runs.set(key, r);
      }
      r.files.add(f.file);
      const m = manifestFromMetadata(s.metadata);
      if (m !== undefined) {
        const id = manifestId(m);
        if (!r.ids.has(id)) {
          r.ids.add(id);
          r.manifest ??= m;
        }
        r.configs ??= f.manifestFile?.configs;
      }
    }
  }
  const mismatches: ManifestMismatch[] = [];
  const list = [...runs.values()];
  for (const r of list) {
    if (r.ids.size > 1) {
      mismatches.push({
        experiment: r.experiment,
        run: r.run,
        reference: r.run,
        differences: [`its samples carry ${r.ids.size} different manifests (${[...r.ids].join(", ")})`],
      });
    }
  }
  const experiments = [...new Set(list.map((r) => r.experiment))];
  for (const e of experiments) {
    const withManifest = list.filter((r) => r.experiment === e && r.manifest !== undefined);
    const ref = withManifest[0];
    for (const r of withManifest.slice(1)) {
      const diffs = manifestDifferences(r.manifest!, ref.manifest!).map((d) => {
        const m = /^stacks\.([^.]+)\.configHash$/.exec(d.field);
        const keys = m && r.configs?.[m[1]] && ref.configs?.[m[1]] ? configDifferences(r.configs[m[1]], ref.configs[m[1]]) : [];
        return `${d.field} ${short(d.a)} vs ${short(d.b)}${keys.length > 0 ? ` (${keys.join(", ")})` : ""}`;
      });
      if (diffs.length > 0) mismatches.push({ experiment: e, run: r.run, reference: ref.run, differences: diffs });
    }
  }
  if (mismatches.length > 0 && !force) throw new ManifestMismatchError(mismatches);
  return {
    runs: list.map((r) => ({
      experiment: r.experiment,
      run: r.run,
      files: [...r.files],
      ...(r.manifest === undefined ? {} : { manifest: r.manifest, id: manifestId(r.manifest) }),
    })),
    mismatches,
    forced: mismatches.length > 0,
  };
}

/** A hash shortened to 12 hex digits; anything else as is. */
function short(v: string): string {
  return /^[0-9a-f]{40,64}$/.test(v) ? v.slice(0, 12) : v;
}

/** A manifest's lines, for the report's manifest section. */
export function manifestLines(m: Manifest): string[] {
  const stacks = Object.entries(m.stacks).map(
    ([name, f]) =>
      `stack ${name}${f.kind === undefined ? "" : ` (${f.kind})`}: config ${short(f.configHash)}; instance types ${f.instanceTypes.join(", ") || "none"}; AMIs ${f.amiIds.join(", ") || "none"}; zones ${f.azs.join(", ") || "none"} (ids ${f.azIds.join(", ") || "unknown"}); images ${f.images.join(", ") || "none"}`,
  );
  return [
    `git ${m.git.commit.slice(0, 12)}${m.git.dirty ? ` with uncommitted changes (${m.git.diffHash === undefined ? "unhashed" : short(m.git.diffHash)})` : ""}; region ${m.region || "unknown"}`,
    ...(m.git.unhashed === undefined ? [] : [`not in the changes' hash: ${m.git.unhashed.join("; ")}`]),
    ...stacks,
    `pins: ${Object.entries(m.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
    `command: ${m.command}`,
    `taken ${m.createdAt}`,
  ];
}

// ---------------------------------------------------------------------------------------------
// Limit lines and utilization

/** Where a row's repetitions' windows and every window's utilization are found. */
export interface UtilIndex {
  /** `[experiment, metric, identity]` → the windows of that row's samples, in reading order. */
  readonly windows: ReadonlyMap<string, readonly WindowRef[]>;
  /** Window key → its utilization samples (every source, `util.limit` aside), and those that say what they could not judge. */
  readonly util: ReadonlyMap<string, readonly Sample[]>;
  /** Window key → the limit line `lab util` judged for it (utilization.json's derived `util.limit`). */
  readonly judged: ReadonlyMap<string, string>;
  /**
   * Window key → what a judgement here leaves unjudged, for a window `lab util` never judged: the
   * resources of its run's manifest, CloudWatch not asked (as `lab util --no-cloudwatch` says).
   */
  readonly unjudged: ReadonlyMap<string, readonly string[]>;
}

export interface WindowRef {
  readonly key: string;
  readonly run: string;
  readonly rep: MetadataValue;
}

const rowKey = (experiment: string, metric: string, identity: Readonly<Record<string, MetadataValue>>) =>
  JSON.stringify([experiment, metric, identity]);

/** Builds the index; `identity` is the model's row identity (lab/report/model.ts). */
export function utilIndex(
  files: readonly ExtrasInput[],
  identity: (m: Readonly<Record<string, MetadataValue>>) => Record<string, MetadataValue>,
): UtilIndex {
  const windows = new Map<string, WindowRef[]>();
  const util = new Map<string, Sample[]>();
  const judged = new Map<string, string>();
  const unjudged = new Map<string, string[]>();
  for (const f of files) {
    const resources = [...new Set((f.manifestFile?.resources ?? []).map((r) => r.resource))];
    const notAsked = f.utilization === undefined && resources.length > 0 ? [noCloudWatchNote(resources)] : [];
    for (const s of [...f.samples, ...(f.utilization ?? [])]) {
      const key = windowKey(s.metadata);
      if (key === undefined) continue;
      if (isUtilMetric(s.metric)) {
        const line = judgedLimitLine(s);
        if (line !== undefined) judged.set(key, line);
        else if (utilizationOf(s) !== undefined || typeof s.metadata[UNJUDGED_KEY] === "string")
          util.set(key, [...(util.get(key) ?? []), s]);
        continue;
      }
      if (notAsked.length > 0) unjudged.set(key, notAsked);
      const rk = rowKey(experimentOf(s), s.metric, identity(s.metadata));
      const list = windows.get(rk) ?? [];
      if (!list.some((w) => w.key === key)) list.push({ key, run: runOf(s), rep: s.metadata.rep });
      windows.set(rk, list);
    }
  }
  return { windows, util, judged, unjudged };
}

/** One repetition's limit line. */
export interface RepLimit {
  readonly run: string;
  readonly rep: MetadataValue;
  readonly verdict?: Pick<LimitVerdict, "line">;
}

/**
 * A window's limit line, from one source of verdicts: the line `lab util` judged and wrote, else
 * the same judgement (core/limits.ts `deriveLimit`) over the same samples with what its run leaves
 * unjudged, so a run that never went through `lab util` is judged as `lab util --no-cloudwatch`
 * would judge it, never more confidently.
 */
export function windowLimit(index: UtilIndex, key: string): Pick<LimitVerdict, "line"> | undefined {
  const line = index.judged.get(key);
  if (line !== undefined) return { line };
  return deriveLimit(index.util.get(key) ?? [], index.unjudged.get(key) ?? []);
}

/** Each row's repetitions and their limit lines; a row none of whose samples has a window gets none. */
export interface TableLimits {
  readonly table: MetricTable;
  readonly rows: readonly { readonly group: Group; readonly reps: readonly RepLimit[] }[];
}

export function tableLimits(experiment: string, table: MetricTable, index: UtilIndex): TableLimits {
  return {
    table,
    rows: table.groups.map((g) => ({
      group: g,
      reps: (index.windows.get(rowKey(experiment, table.metric, g.metadata)) ?? []).map((w) => {
        const v = windowLimit(index, w.key);
        return { run: w.run, rep: w.rep, ...(v === undefined ? {} : { verdict: { line: v.line } }) };
      }),
    })),
  };
}

/**
 * The note under a table: what a limit line is (the 70 % heuristic said), then one line per row,
 * `row: run r1 rep 1: <limit line>; …`; empty when no repetition has a limit line.
 */
export function limitNotes(t: TableLimits): string[] {
  if (t.rows.every((r) => r.reps.every((x) => x.verdict === undefined))) return [];
  const legend = `${LIMIT_LINE_LEGEND.charAt(0).toUpperCase()}${LIMIT_LINE_LEGEND.slice(1)}.`;
  return [
    legend,
    ...t.rows.map((r) => {
      const reps = r.reps.map((x) => `${x.run} rep ${x.rep}: ${x.verdict?.line ?? "no utilization sampled"}`);
      return `Limit, ${r.group.label}: ${reps.length === 0 ? "no repetition window recorded" : reps.join("; ")}`;
    }),
  ];
}

/** One bar of a utilization chart: a side's resource figure as a share of its limit. */
export interface UtilBar {
  readonly side: string;
  /** `osd-2 · gp3 IOPS`. */
  readonly item: string;
  readonly meanPercent: number;
  readonly maxPercent: number;
}

/** A comparison's utilization: its two sides and their bars. */
export interface UtilComparison {
  readonly id: string;
  readonly title: string;
  readonly sides: readonly string[];
  readonly bars: readonly UtilBar[];
}

/** The most items a utilization chart shows (the highest shares first). */
export const UTIL_CHART_ITEMS = 8;

/**
 * One utilization comparison per pair of rows an experiment's ratios compare (the ratios of
 * several metrics of the same two rows share it), with the resources whose figures have a limit.
 */
export function utilComparisons(experiment: Experiment, index: UtilIndex): UtilComparison[] {
  const out: UtilComparison[] = [];
  const seen = new Set<string>();
  for (const r of experiment.ratios) {
    const sides = [r.num, r.den].map((g) => ({
      label: g.label,
      windows: index.windows.get(rowKey(experiment.id, r.metric, g.metadata)) ?? [],
    }));
    const dedupe = JSON.stringify([r.comparison.id, sides.map((s) => s.windows.map((w) => w.key).sort())]);
    if (seen.has(dedupe) || sides.some((s) => s.windows.length === 0)) continue;
    seen.add(dedupe);
    const bars: UtilBar[] = [];
    for (const s of sides) {
      const acc = new Map<string, { mean: number[]; max: number }>();
      for (const w of s.windows) {
        for (const x of index.util.get(w.key) ?? []) {
          const u = utilizationOf(x);
          if (u?.limit === undefined) continue;
          const item = `${u.resource} · ${u.limitLabel}`;
          const a = acc.get(item) ?? { mean: [], max: 0 };
          a.mean.push((100 * u.mean) / u.limit);
          a.max = Math.max(a.max, (100 * (u.max ?? u.mean)) / u.limit);
          acc.set(item, a);
        }
      }
      for (const [item, a] of acc)
        bars.push({ side: s.label, item, meanPercent: a.mean.reduce((x, y) => x + y, 0) / a.mean.length, maxPercent: a.max });
    }
    if (bars.length === 0) continue;
    const top = new Map<string, number>();
    for (const b of bars) top.set(b.item, Math.max(top.get(b.item) ?? 0, b.meanPercent));
    const items = [...top.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, UTIL_CHART_ITEMS)
      .map(([i]) => i);
    out.push({
      id: `${r.comparison.id}-${out.length + 1}`,
      title: `${r.comparison.id === "baseline" ? `${r.num.metadata.stack} / ${r.den.metadata.stack}` : r.comparison.title}: utilization, ${r.num.label} vs ${r.den.label}`,
      sides: sides.map((s) => s.label),
      bars: bars
        .filter((b) => items.includes(b.item))
        .sort((a, b) => items.indexOf(a.item) - items.indexOf(b.item) || (a.side < b.side ? -1 : 1)),
    });
  }
  return out;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** The chart of a utilization comparison: bars at the mean share of each limit per side, ticks at the highest, a dashed rule at the threshold. */
export function utilChart(experimentId: string, c: UtilComparison): Chart {
  const rows = c.bars.map((b) => ({
    item: b.item,
    side: b.side,
    mean: Number(b.meanPercent.toFixed(1)),
    max: Number(b.maxPercent.toFixed(1)),
  }));
  const xMax = Math.max(100, ...rows.map((r) => r.max));
  const x = {
    type: "quantitative" as const,
    title: "% of the configured limit (bar: mean over the repetitions; tick: highest interval)",
    scale: { domain: [0, xMax] },
  };
  const y = { field: "item", type: "nominal" as const, sort: null, title: null, axis: { labelLimit: 320 } };
  const spec: TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: c.title, anchor: "start", fontSize: 13 },
    width: 420,
    height: { step: 14 * c.sides.length + 6 },
    background: "white",
    config: {
      font: "DejaVu Sans, Helvetica, Arial, sans-serif",
      axis: { labelFontSize: 11, titleFontSize: 11 },
      legend: { labelFontSize: 11, titleFontSize: 11, labelLimit: 0 },
    },
    layer: [
      {
        data: { values: rows },
        layer: [
          {
            name: "util_bars",
            mark: { type: "bar" },
            encoding: {
              y,
              yOffset: { field: "side", type: "nominal", sort: c.sides as string[] },
              x: { ...x, field: "mean" },
              color: {
                field: "side",
                type: "nominal",
                sort: c.sides as string[],
                legend: { title: null, orient: "bottom", direction: "vertical" },
              },
            },
          },
          {
            name: "util_max",
            mark: { type: "tick", color: "#1f2937", thickness: 2 },
            encoding: { y, yOffset: { field: "side", type: "nominal", sort: c.sides as string[] }, x: { ...x, field: "max" } },
          },
        ],
      },
      {
        name: "util_threshold",
        data: { values: [{ threshold: LIMIT_THRESHOLD_PERCENT }] },
        mark: { type: "rule", strokeDash: [4, 3], color: "#d62728" },
        encoding: { x: { ...x, field: "threshold" } },
      },
    ],
  };
  return {
    file: `${slug(experimentId === "" ? "runs" : experimentId)}--util-${slug(c.id)}.svg`,
    title: c.title,
    xTitle: x.title,
    yTitle: "resource · limit",
    bars: rows.length,
    rules: 1,
    spec,
  };
}

/**
 * The report's manifest section as lines: each distinct manifest once with the runs that carry it,
 * the runs without one, and the differences `--force` let through. Undefined when no run has a
 * manifest (results saved without one: the report is as before).
 */
export function manifestReport(section: ManifestSection | undefined): string[] | undefined {
  if (section === undefined || section.runs.every((r) => r.manifest === undefined)) return undefined;
  const out: string[] = [];
  const byId = new Map<string, RunManifest[]>();
  for (const r of section.runs) if (r.id !== undefined) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  for (const [id, runs] of byId) {
    out.push(`Manifest ${id}: ${runs.map((r) => r.run).join(", ")}`);
    out.push(...manifestLines(runs[0].manifest!).map((l) => `  ${l}`));
  }
  const without = section.runs.filter((r) => r.manifest === undefined);
  if (without.length > 0) out.push(`No manifest recorded (saved without one, not compared): ${without.map((r) => r.run).join(", ")}`);
  if (section.mismatches.length > 0) {
    out.push("Different manifests side by side (lab report --force):");
    for (const m of section.mismatches) out.push(`  ${m.run} vs ${m.reference}: ${m.differences.join("; ")}`);
  }
  return out;
}
