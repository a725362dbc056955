/**
 * Finds and reads the samples a report is made from: every `samples.json` below the given
 * directories, in the layout `lab results save` writes (lab/results/files.ts):
 * `<root>/<stack>/<runId>/samples.json` next to `raw/`.
 *
 * A malformed samples.json is an error naming the file (`readRunResults`' ToolOutputError), never
 * a report with that file silently left out.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Sample } from "../../core/sample";
import { RAW_DIR, readRunResults, SAMPLES_FILE } from "../results/files";
import type { InputFile } from "./model";
import { readManifestFile } from "../utilization/manifest";
import { readUtilizationFile } from "../utilization/files";

/** A directory argument that cannot be searched, or that holds no samples. */
export class ReportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReportInputError";
  }
}

function walk(dir: string, found: string[]): void {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    // Hidden entries include the temporary directories of a save in progress (`.<runId>.tmp-…`).
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, found);
    else if (e.isFile() && e.name === SAMPLES_FILE) found.push(p);
  }
}

/**
 * Every samples.json below `dirs` (a `samples.json` path counts as itself), sorted by path within
 * each argument, each file once even when arguments overlap.
 *
 * @throws ReportInputError for an argument that does not exist or is neither a directory nor a
 *   samples.json, and when no samples.json is found at all.
 */
export function findSampleFiles(dirs: readonly string[]): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dir);
    } catch {
      throw new ReportInputError(`${dir}: no such directory`);
    }
    const found: string[] = [];
    if (stat.isDirectory()) walk(dir, found);
    else if (path.basename(dir) === SAMPLES_FILE) found.push(dir);
    else throw new ReportInputError(`${dir}: not a directory (give the directories that hold results/<stack>/<runId>/${SAMPLES_FILE})`);
    for (const f of found) {
      const real = fs.realpathSync(f);
      if (seen.has(real)) continue;
      seen.add(real);
      files.push(f);
    }
  }
  if (files.length === 0) {
    throw new ReportInputError(
      `no ${SAMPLES_FILE} below ${dirs.join(", ")}: \`lab results save\` writes results/<stack>/<runId>/${SAMPLES_FILE}`,
    );
  }
  return files;
}

/**
 * The samples of one samples.json. In a run directory (a `raw/` beside the file, as `lab results
 * save` writes it), a sample without `stack` or `runId` gets them from the directory names
 * `<stack>/<runId>/`; metadata the sample has always wins.
 *
 * @throws ToolOutputError naming the file when it is not JSON or not an array of samples.
 */
export function readSampleFile(file: string): Sample[] {
  const dir = path.dirname(file);
  const { samples } = readRunResults(dir);
  if (!fs.existsSync(path.join(dir, RAW_DIR))) return samples;
  const runId = path.basename(dir);
  const stack = path.basename(path.dirname(dir));
  return samples.map((s) => ({ ...s, metadata: { stack, runId, ...s.metadata } }));
}

/**
 * Finds and reads every samples.json below `dirs`, with the utilization.json (`lab util`) and
 * manifest.json (saved with the results) beside it when there are (their samples get `stack` and
 * `runId` from the directory names as samples.json's do).
 */
export function loadInputs(dirs: readonly string[]): InputFile[] {
  return findSampleFiles(dirs).map((file) => {
    const dir = path.dirname(file);
    const utilization = readUtilizationFile(dir)?.samples;
    const manifestFile = readManifestFile(dir);
    const inRunDir = fs.existsSync(path.join(dir, RAW_DIR));
    const fill = (s: Sample): Sample =>
      inRunDir ? { ...s, metadata: { stack: path.basename(path.dirname(dir)), runId: path.basename(dir), ...s.metadata } } : s;
    return {
      file,
      samples: readSampleFile(file),
      ...(utilization === undefined ? {} : { utilization: utilization.map(fill) }),
      ...(manifestFile === undefined ? {} : { manifestFile }),
    };
  });
}
