/**
 * A run's results on disk, so that a destroy never loses them (README "Benchmarks and results", docs/samples.md "On disk"):
 *
 * ```text
 * <rootDir>/<stack>/<runId>/samples.json   the samples, a JSON array, 2-space indented
 * <rootDir>/<stack>/<runId>/raw/<name>     each raw tool output, verbatim
 * <rootDir>/<stack>/<runId>/manifest.json  the run's manifest (lab/utilization/manifest.ts), when saved with one;
 *                                          it is also in every sample's metadata (`manifest.…` keys)
 * ```
 *
 * Writing is atomic at the directory level: everything goes into a hidden temporary directory
 * next to the final one, each file is flushed to disk, and the directory is renamed into place in
 * one step, so a reader (or a crash) never sees half a run.
 *
 * A run directory is written once. If `<stack>/<runId>` already exists, {@link writeRunResults}
 * refuses (throws {@link RunExistsError}) instead of overwriting or inventing a suffix: the run id
 * is the name reports compare by, so a second run must get a new `lab:runId` — or the old
 * directory must be moved away on purpose.
 */
import * as fs from "fs";
import * as path from "path";
import { ToolOutputError } from "../../core/errors";
import { manifestMetadata, type Manifest } from "../../core/manifest";
import type { Sample } from "../../core/sample";

/** A raw tool output kept next to the samples. */
export interface RawFile {
  /** File name inside `raw/`: one path segment (e.g. `fio-rep1.json`). */
  readonly name: string;
  readonly text: string;
}

/** What a run directory holds. */
export interface RunResults {
  readonly samples: Sample[];
  /** Sorted by name. */
  readonly raws: RawFile[];
}

/** Thrown when the run directory exists already. */
export class RunExistsError extends Error {
  readonly dir: string;
  constructor(dir: string) {
    super(`${dir} already exists: a run's results are written once; set a new lab:runId, or move the old directory away`);
    this.name = "RunExistsError";
    this.dir = dir;
  }
}

/** The file of the samples inside a run directory. */
export const SAMPLES_FILE = "samples.json";
/** The directory of the raw outputs inside a run directory. */
export const RAW_DIR = "raw";
/** The run's manifest (lab/utilization/manifest.ts `ManifestFile`), when saved with one. */
export const MANIFEST_FILE = "manifest.json";

/** What the results need of a run's manifest file (lab/utilization/manifest.ts `ManifestFile`): it is written whole. */
export interface RunManifestFile {
  readonly manifest: Manifest;
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

function checkSegment(what: string, value: string): void {
  if (typeof value !== "string" || !SEGMENT.test(value) || value.length > 200) {
    throw new RangeError(`${what} must be one path segment of letters, digits, '_', '.', '-' (not starting with '.' or '-'), got ${JSON.stringify(value)}`);
  }
}

/** `<rootDir>/<stack>/<runId>`. */
export function runDir(rootDir: string, stack: string, runId: string): string {
  checkSegment("stack", stack);
  checkSegment("runId", runId);
  return path.join(rootDir, stack, runId);
}

function writeFileSynced(file: string, text: string): void {
  const fd = fs.openSync(file, "wx", 0o644);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `samples` and `raws` to `<rootDir>/<stack>/<runId>/` (layout at the top of this file)
 * and returns that directory. Throws {@link RunExistsError} when it exists, and RangeError for
 * a stack, run id or raw name that is not one safe path segment, or a raw name given twice.
 */
export function writeRunResults(
  rootDir: string,
  stack: string,
  runId: string,
  samples: readonly Sample[],
  raws: readonly RawFile[],
  manifest?: RunManifestFile,
): string {
  const dir = runDir(rootDir, stack, runId);
  const names = new Set<string>();
  for (const r of raws) {
    checkSegment("raw output name", r.name);
    if (names.has(r.name)) throw new RangeError(`raw output name ${JSON.stringify(r.name)} given twice`);
    names.add(r.name);
  }
  if (fs.existsSync(dir)) throw new RunExistsError(dir);
  const parent = path.dirname(dir);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(parent, `.${runId}.tmp-`));
  try {
    fs.mkdirSync(path.join(tmp, RAW_DIR));
    for (const r of raws) writeFileSynced(path.join(tmp, RAW_DIR, r.name), r.text);
    // With a manifest (lab/utilization/manifest.ts): manifest.json beside the samples, and in every sample's metadata.
    const stamp = manifest === undefined ? {} : manifestMetadata(manifest.manifest);
    if (manifest !== undefined) writeFileSynced(path.join(tmp, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    const stamped = samples.map((s) => ({ ...s, metadata: { ...s.metadata, ...stamp } }));
    writeFileSynced(path.join(tmp, SAMPLES_FILE), `${JSON.stringify(stamped, null, 2)}\n`);
    if (fs.existsSync(dir)) throw new RunExistsError(dir);
    try {
      fs.renameSync(tmp, dir);
    } catch (e) {
      // Another writer won the race: rename onto a non-empty directory fails.
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST") throw new RunExistsError(dir);
      throw e;
    }
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return dir;
}

function isSample(v: unknown): v is Sample {
  if (typeof v !== "object" || v === null) return false;
  const s = v as Record<string, unknown>;
  const md = s.metadata as Record<string, unknown> | undefined;
  return (
    typeof s.metric === "string" &&
    typeof s.value === "number" &&
    Number.isFinite(s.value) &&
    typeof s.unit === "string" &&
    typeof md === "object" &&
    md !== null &&
    typeof md.tool === "string" &&
    Object.values(md).every((x) => ["string", "number", "boolean"].includes(typeof x))
  );
}

/**
 * Reads a run directory written by {@link writeRunResults}. Throws ToolOutputError naming the
 * file when samples.json is missing, not JSON, or not an array of samples.
 */
export function readRunResults(dir: string): RunResults {
  const file = path.join(dir, SAMPLES_FILE);
  if (!fs.existsSync(file)) throw new ToolOutputError(file, "missing: not a run directory");
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new ToolOutputError(file, `not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(data)) throw new ToolOutputError(file, "not an array of samples");
  data.forEach((s, i) => {
    if (!isSample(s)) throw new ToolOutputError(file, `element ${i} is not a sample (metric, finite value, unit, metadata with tool)`);
  });
  const rawDir = path.join(dir, RAW_DIR);
  const raws: RawFile[] = fs.existsSync(rawDir)
    ? fs
        .readdirSync(rawDir, { withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => d.name)
        .sort()
        .map((name) => ({ name, text: fs.readFileSync(path.join(rawDir, name), "utf8") }))
    : [];
  return { samples: data as Sample[], raws };
}
