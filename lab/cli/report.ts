/**
 * `lab report DIR… [--out DIR] [--format md,html,svg] [--baseline NAME]`: reads every
 * samples.json below the directories (lab/report/load.ts), builds the comparison
 * (lab/report/model.ts) and writes report.md, one SVG chart per comparison (charts/*.svg) and a
 * self-contained report.html into the output directory; returns what to print: where it wrote
 * and three summary lines.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { problem } from "../../core/errors";
import { SCENARIOS } from "../../scenarios";
import { chartsOf, summaryLines } from "../report/layout";
import { loadInputs, ReportInputError } from "../report/load";
import { renderHtml } from "../report/html";
import { renderMarkdown } from "../report/markdown";
import { buildModel, type InputFile, type ReportModel } from "../report/model";
import { ManifestMismatchError } from "../report/utilization";
import type { BootstrapOptions } from "../../core/stats";
import { renderSvgs } from "../report/svg";
import { UsageError } from "./errors";
import { checkPaths } from "./paths";

/** Where `lab report` writes without `--out`: under the ignored results/, so a report leaves `git status` clean. */
export const DEFAULT_REPORT_DIR = path.join("results", "report");

/** The formats `--format` accepts. */
export const REPORT_FORMATS = ["md", "html", "svg"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportCliOptions {
  /** Directories searched for samples.json (a samples.json path counts as itself). */
  readonly dirs: readonly string[];
  /**
   * Output directory. @default "results/report": below the ignored `results/`, so writing a report
   * never makes the checkout dirty (a dirty checkout marks every later run's manifest).
   */
  readonly out?: string;
  /** Comma-separated formats. @default "md,html,svg" */
  readonly format?: string;
  /** Also compare every other named run (stack, or `lab bench local --name`) of the same setup with this one. */
  readonly baseline?: string;
  /** Put runs with different manifests side by side (their differences listed). @default false */
  readonly force?: boolean;
  /** Resolves relative paths. @default process.cwd() */
  readonly cwd?: string;
  /** Bootstrap settings (tests); defaults in lab/report/stats.ts. */
  readonly bootstrap?: BootstrapOptions;
}

export interface ReportCliResult {
  /** The output directory, absolute. */
  readonly outDir: string;
  /** Every file written, absolute, in writing order. */
  readonly files: readonly string[];
  readonly model: ReportModel;
  /** What the CLI prints: where it wrote, then the three summary lines, each ending in "\n". */
  readonly text: string;
}

/** `md,html` → the set of formats; UsageError for anything else. */
export function parseFormats(value: string): Set<ReportFormat> {
  const items = value.split(",").map((s) => s.trim());
  const ok = items.length > 0 && items.every((s): s is ReportFormat => (REPORT_FORMATS as readonly string[]).includes(s));
  if (!ok) throw new UsageError(problem("--format", `a comma-separated list of ${REPORT_FORMATS.join(", ")}`, value));
  return new Set(items as ReportFormat[]);
}

function shown(cwd: string, p: string): string {
  const rel = path.relative(cwd, p);
  return rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? p : rel;
}

/** Writes the report; see the module comment. Throws UsageError for bad arguments, ToolOutputError for a malformed samples.json. */
export async function runReport(opts: ReportCliOptions): Promise<ReportCliResult> {
  const cwd = opts.cwd ?? process.cwd();
  const formats = parseFormats(opts.format ?? "md,html,svg");
  if (opts.dirs.length === 0) throw new UsageError("lab report needs at least one directory of results (e.g. results/)");
  // Every directory read and the one written, checked before anything is read (exit 2, all at once).
  checkPaths([
    ...opts.dirs.map((d) => ({ option: "<dir>", value: d, kind: "dir" as const, base: cwd })),
    { option: "--out", value: opts.out ?? DEFAULT_REPORT_DIR, kind: "out-dir", base: cwd },
  ]);
  const dirs = opts.dirs.map((d) => (path.isAbsolute(d) || opts.cwd === undefined ? d : path.join(opts.cwd, d)));
  let inputs: InputFile[];
  try {
    // Files are named relative to `cwd` in the report when they are below it.
    inputs = loadInputs(dirs).map((f) => ({ ...f, file: shown(cwd, path.resolve(f.file)) }));
  } catch (e) {
    if (e instanceof ReportInputError) throw new UsageError(e.message);
    throw e;
  }
  if (opts.baseline !== undefined) {
    const stacks = [
      ...new Set(
        inputs
          .flatMap((f) => f.samples.map((s) => s.metadata.stack))
          .filter((s) => s !== undefined)
          .map(String),
      ),
    ].sort();
    if (!stacks.includes(opts.baseline)) {
      throw new UsageError(
        problem("--baseline", `a stack or named local run of the samples read (${stacks.join(", ") || "none records one"})`, opts.baseline),
      );
    }
  }
  const scenarioTitles = Object.fromEntries(SCENARIOS.map((s) => [s.name, `${s.name}: ${s.description}`]));
  let model: ReportModel;
  try {
    model = buildModel(inputs, { baseline: opts.baseline, bootstrap: opts.bootstrap, scenarioTitles, force: opts.force === true });
  } catch (e) {
    // a refusal before anything is written (exit 2, docs/cli.md), not a failure
    if (e instanceof ManifestMismatchError) throw new UsageError(e.message);
    throw e;
  }

  const outDir = path.resolve(cwd, opts.out ?? DEFAULT_REPORT_DIR);
  fs.mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  const write = (file: string, text: string) => {
    fs.writeFileSync(file, text);
    files.push(file);
  };

  const charts = model.experiments.flatMap((e) => [...chartsOf(e).values()]);
  const svgs = new Map<string, string>();
  if (formats.has("svg") || formats.has("html")) {
    renderSvgs(charts.map((c) => c.spec)).forEach((svg, i) => svgs.set(charts[i].file, svg));
  }
  if (formats.has("md")) write(path.join(outDir, "report.md"), renderMarkdown(model, { charts: formats.has("svg") }));
  if (formats.has("html")) write(path.join(outDir, "report.html"), renderHtml(model, svgs));
  if (formats.has("svg")) {
    const chartDir = path.join(outDir, "charts");
    fs.mkdirSync(chartDir, { recursive: true });
    // Charts of an earlier report in the same directory would be mistaken for this one's.
    for (const old of fs.readdirSync(chartDir)) if (old.endsWith(".svg") && !svgs.has(old)) fs.rmSync(path.join(chartDir, old));
    for (const c of charts) write(path.join(chartDir, c.file), svgs.get(c.file) as string);
  }

  const written = [
    ...(formats.has("md") ? ["report.md"] : []),
    ...(formats.has("html") ? ["report.html"] : []),
    ...(formats.has("svg") ? [`${charts.length} chart${charts.length === 1 ? "" : "s"} in charts/`] : []),
  ];
  const text = [`Wrote ${shown(cwd, outDir)}: ${written.join(", ")}`, ...summaryLines(model)].map((l) => `${l}\n`).join("");
  return { outDir, files, model, text };
}
