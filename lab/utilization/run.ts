/**
 * `lab util`: a saved run's utilization. For each benchmark repetition of a run directory
 * (results/<stack>/<runId>/, its samples carry the repetition's window since the scripts record
 * it), the resources of manifest.json are asked of CloudWatch (lab/utilization/cloudwatch.ts); with the
 * node sampler's samples already in samples.json, each repetition gets its limit line
 * (core/limits.ts). Everything goes to utilization.json beside samples.json (written once, like the
 * run directory; `replace` writes it again, e.g. after CloudWatch's late datapoints):
 *
 * ```json
 * { "schema": 1, "createdAt": "…", "samples": [ …util.<resource>.<metric>…, …util.limit… ],
 *   "notes": [ {"window", "resource", "note"} ], "cloudwatch": {"getMetricDataCalls", "metricsRequested", "listMetricsCalls"} }
 * ```
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { deriveLimit, limitSample, noCloudWatchNote, type LimitVerdict } from "../../core/limits";
import { isManifestKey, manifestMetadata } from "../../core/manifest";
import type { MetadataValue, Sample } from "../../core/sample";
import { isUtilMetric, windowKey } from "../../core/utilization";
import { readRunResults } from "../results/files";
import { fetchUtilization, type CloudWatchApi, type UtilNote, type UtilWindow, type UtilizationFetch } from "./cloudwatch";
import { UTILIZATION_FILE, type UtilizationFile } from "./files";
import { readManifestFile } from "./manifest";

/** Metadata a repetition's utilization samples take from its benchmark samples. */
const WINDOW_KEYS = ["scenario", "stack", "runId", "tool", "rep", "repStart", "repEnd"];

/**
 * The windows of the benchmark repetitions in `samples` (utilization samples aside), in the order
 * they ran. Samples without a window (saved before the scripts recorded one) are left out.
 */
export function repetitionWindows(samples: readonly Sample[]): UtilWindow[] {
  const byKey = new Map<string, UtilWindow>();
  for (const s of samples) {
    if (isUtilMetric(s.metric)) continue;
    const key = windowKey(s.metadata);
    if (key === undefined || byKey.has(key)) continue;
    const start = new Date(String(s.metadata.repStart));
    const end = new Date(String(s.metadata.repEnd));
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) continue;
    const metadata: Record<string, MetadataValue> = {};
    for (const k of Object.keys(s.metadata)) if (WINDOW_KEYS.includes(k) || isManifestKey(k)) metadata[k] = s.metadata[k];
    byKey.set(key, { key, start, end, metadata: { ...metadata, tool: s.metadata.tool } });
  }
  return [...byKey.values()].sort((a, b) => a.start.getTime() - b.start.getTime() || (a.key < b.key ? -1 : 1));
}

/**
 * Each window's limit verdict from the utilization samples of that window (any source); `unjudged`
 * is what no window could judge (CloudWatch not asked).
 */
export function limitsByWindow(
  windows: readonly UtilWindow[],
  util: readonly Sample[],
  unjudged: readonly string[] = [],
): Map<string, LimitVerdict | undefined> {
  const byWindow = new Map<string, Sample[]>();
  for (const s of util) {
    if (!isUtilMetric(s.metric)) continue;
    const k = windowKey(s.metadata);
    if (k !== undefined) byWindow.set(k, [...(byWindow.get(k) ?? []), s]);
  }
  return new Map(windows.map((w) => [w.key, deriveLimit(byWindow.get(w.key) ?? [], unjudged)]));
}

/** What `--no-cloudwatch` leaves unjudged (core/limits.ts, shared with the report). */
export { noCloudWatchNote };

export interface UtilizeOptions {
  /** CloudWatch in a region; omitted: the node sampler's samples only. */
  readonly cloudwatch?: (region: string) => CloudWatchApi;
  /** Write utilization.json even when there is one. @default false */
  readonly replace?: boolean;
  readonly now?: Date;
}

export interface UtilizeResult {
  readonly file: string;
  readonly windows: readonly UtilWindow[];
  readonly limits: ReadonlyMap<string, LimitVerdict | undefined>;
  readonly content: UtilizationFile;
}

/** Writes `<dir>/utilization.json`; see the module comment. */
export async function utilizeRunDir(dir: string, opts: UtilizeOptions = {}): Promise<UtilizeResult> {
  const file = path.join(dir, UTILIZATION_FILE);
  if (fs.existsSync(file) && opts.replace !== true) throw new Error(`${file} already exists: lab util --replace writes it again`);
  const { samples } = readRunResults(dir);
  const windows = repetitionWindows(samples);
  if (windows.length === 0) {
    throw new Error(
      `${dir}: no sample records its repetition's window (repStart/repEnd): these results were collected before the scripts recorded it`,
    );
  }
  const manifestFile = readManifestFile(dir);
  const notes: UtilNote[] = (manifestFile?.notes ?? []).map((note) => ({ resource: "", note }));
  let fetched: UtilizationFetch | undefined;
  if (opts.cloudwatch !== undefined) {
    if (manifestFile === undefined)
      throw new Error(`${dir}: no manifest.json, so no resources to ask CloudWatch about: save the run with its manifest`);
    fetched = await fetchUtilization(opts.cloudwatch(manifestFile.manifest.region), manifestFile.resources, windows);
    notes.push(...fetched.notes);
  }
  const stamp = manifestFile === undefined ? {} : manifestMetadata(manifestFile.manifest);
  const cw = (fetched?.samples ?? []).map((s) => ({ ...s, metadata: { ...s.metadata, ...stamp } }));
  const util = [...samples.filter((s) => isUtilMetric(s.metric)), ...cw];
  // The node sampler's notes (dropped intervals, unreadable summaries) are said with their window.
  for (const s of util) {
    const k = windowKey(s.metadata);
    if (k !== undefined && typeof s.metadata.utilNote === "string")
      notes.push({ window: k, resource: String(s.metadata.resource ?? ""), note: s.metadata.utilNote });
  }
  const unjudged =
    opts.cloudwatch === undefined && manifestFile !== undefined && manifestFile.resources.length > 0
      ? [noCloudWatchNote([...new Set(manifestFile.resources.map((r) => r.resource))])]
      : [];
  const limits = limitsByWindow(windows, util, unjudged);
  const limitSamples: Sample[] = [];
  for (const w of windows) {
    const v = limits.get(w.key);
    if (v === undefined) notes.push({ window: w.key, resource: "", note: "no utilization with a limit was sampled: no limit line" });
    else limitSamples.push(limitSample(v, { ...w.metadata, ...stamp }));
  }
  const content: UtilizationFile = {
    schema: 1,
    createdAt: (opts.now ?? new Date()).toISOString(),
    samples: [...cw, ...limitSamples],
    notes,
    cloudwatch:
      fetched === undefined
        ? null
        : {
            getMetricDataCalls: fetched.getMetricDataCalls,
            metricsRequested: fetched.metricsRequested,
            listMetricsCalls: fetched.listMetricsCalls,
          },
  };
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(content, null, 2)}\n`);
  fs.renameSync(tmp, file);
  return { file, windows, limits, content };
}
