/**
 * What the `lab` CLI runs for utilization and manifests (registered in lab/cli/main.ts):
 *
 * - `lab util DIR… [--no-cloudwatch] [--replace]`: {@link runUtil}, each run directory's
 *   utilization.json (lab/utilization/run.ts) and its limit lines on stdout;
 * - `lab results save` and `lab run` take the run's manifest with {@link manifestForSave} and hand
 *   it to lab/results/files.ts `writeRunResults` (lab/run/results.ts `saveStackOutputs`).
 */
import * as path from "node:path";
import { checkPaths } from "./paths";
import { LIMIT_LINE_LEGEND } from "../../core/limits";
import { NODE_RESOURCE } from "../../core/parsers/sampler";
import { GET_METRIC_DATA_USD_PER_1000_METRICS } from "../utilization/costs";
import { cloudWatchApi, type CloudWatchApi } from "../utilization/cloudwatch";
import { pulumiCliSource, takeManifest, type ManifestFile, type StackSource, type TakeOptions } from "../utilization/manifest";
import { utilizeRunDir } from "../utilization/run";

export interface UtilCliOptions {
  /** Run directories (results/<stack>/<runId>). */
  readonly dirs: readonly string[];
  /** Ask CloudWatch (needs manifest.json and AWS credentials). @default true */
  readonly cloudwatch?: boolean;
  /** Write utilization.json again. @default false */
  readonly replace?: boolean;
  /** Resolves relative directories. @default process.cwd() */
  readonly cwd?: string;
  /** CloudWatch in a region (tests pass a fake). @default the SDK client ({@link cloudWatchApi}) */
  readonly api?: (region: string) => CloudWatchApi;
  readonly now?: Date;
}

/** Runs `lab util`; returns what it prints. */
export async function runUtil(opts: UtilCliOptions): Promise<string> {
  const cwd = opts.cwd ?? process.cwd();
  const lines: string[] = [];
  let calls = 0;
  let metrics = 0;
  // A directory that is not there is the user's to fix, like `lab report`'s: exit 2, every one named.
  // lab util writes utilization.json into each: a directory this user can write into.
  checkPaths(opts.dirs.map((d) => ({ option: "<dir>", value: d, kind: "work-dir" as const, base: cwd })));
  for (const d of opts.dirs) {
    const dir = path.resolve(cwd, d);
    const r = await utilizeRunDir(dir, {
      ...(opts.cloudwatch === false ? {} : { cloudwatch: opts.api ?? ((region: string) => cloudWatchApi(region)) }),
      replace: opts.replace === true,
      ...(opts.now === undefined ? {} : { now: opts.now }),
    });
    lines.push(`${path.relative(cwd, r.file) || r.file}: ${r.windows.length} repetition(s), ${r.content.samples.length} sample(s)`);
    lines.push(`  ${LIMIT_LINE_LEGEND}`);
    for (const w of r.windows) {
      const v = r.limits.get(w.key);
      lines.push(
        `  ${w.metadata.tool} rep ${w.metadata.rep} (${w.start.toISOString()}–${w.end.toISOString()}): ${v === undefined ? "no utilization with a limit sampled" : v.line}`,
      );
      // What dropped or could not judge this window's figures, unless the line already says it.
      for (const n of r.content.notes)
        if (n.window === w.key && (n.resource === "" || n.resource === NODE_RESOURCE) && !(v?.unjudged ?? []).includes(n.note))
          lines.push(`    note: ${n.note}`);
    }
    for (const n of r.content.notes)
      if (n.window === undefined) lines.push(`  note: ${n.resource === "" ? "" : `${n.resource}: `}${n.note}`);
    const missing = r.content.notes.filter((n) => n.window !== undefined && n.resource !== "" && n.resource !== NODE_RESOURCE).length;
    if (missing > 0) lines.push(`  ${missing} figure(s) without datapoints in their window (listed in utilization.json "notes")`);
    calls += r.content.cloudwatch?.getMetricDataCalls ?? 0;
    metrics += r.content.cloudwatch?.metricsRequested ?? 0;
  }
  if (opts.cloudwatch !== false) {
    lines.push(
      `CloudWatch: ${calls} GetMetricData call(s), ${metrics} metric(s) requested (about $${((metrics / 1000) * GET_METRIC_DATA_USD_PER_1000_METRICS).toFixed(4)} at $${GET_METRIC_DATA_USD_PER_1000_METRICS} per 1,000)`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The manifest of a stack being saved (`pulumi stack output` has just been read from it), through
 * the Pulumi CLI in the project directory `root`.
 */
export function manifestForSave(stack: string, root: string, extra: Partial<TakeOptions> & { source?: StackSource } = {}): ManifestFile {
  return takeManifest(stack, extra.source ?? pulumiCliSource(root), { root, ...extra });
}
