/**
 * Cuts a benchmark Job's log into the raw outputs of its repetitions and turns them into samples.
 * Pure: the parser is passed in (core/parsers' `parseToolOutput` in production).
 *
 * The scripts (components/bench/scripts/lib.sh) print every repetition between two marker lines:
 *
 * ```text
 * === LAB-RESULT-BEGIN tool=fio rep=1 profile=seed version=3.33 ===
 * { ...fio JSON... }
 * === LAB-RESULT-END tool=fio rep=1 ===
 * ```
 *
 * Anything outside markers (progress, diagnostics, stderr interleaved by the container runtime)
 * is ignored. A log whose markers are malformed, nested, unmatched or unterminated (a truncated
 * log), or that lacks a repetition, is an error naming the log and what is wrong: never a partial
 * result presented as whole.
 */
import { ToolOutputError } from "../../core/errors";
import type { ToolName } from "../../core/parsers";
import {
  cutUtilBlocks,
  parseSamplerSummary,
  samplerNoteSample,
  samplerSamples,
  SAMPLER_UNREADABLE_METRIC,
} from "../../core/parsers/sampler";
import { maintenanceOverlapMetadata } from "../../core/maintenance";
import { withRunMetadata, type MetadataValue, type RunMetadata, type Sample } from "../../core/sample";

/** One repetition's raw output, cut from a log. */
export interface ResultBlock {
  readonly tool: string;
  readonly rep: number;
  /** Every `key=value` of the BEGIN marker, `tool` and `rep` included. */
  readonly attrs: Readonly<Record<string, string>>;
  /** The lines between the markers, each ending in "\n" ("" when there are none). */
  readonly text: string;
  /** 1-based line of the BEGIN marker in the log. */
  readonly line: number;
}

/** A raw output to keep next to the samples (`results/<stack>/<runId>/raw/<name>`). */
export interface RawOutput {
  readonly name: string;
  readonly text: string;
}

/** How the tools' raw outputs are parsed: core/parsers' `parseToolOutput(tool, text, file)`. */
export type ParseToolOutput = (tool: ToolName, text: string, file: string) => Sample[];

const MARKER_PREFIX = "=== LAB-RESULT-";
const MARKER = /^=== LAB-RESULT-(BEGIN|END)((?: [A-Za-z][A-Za-z0-9_]*=[^\s=]+)+) ===$/;

/** The BEGIN marker line the scripts print (for tests). */
export function beginMarker(tool: string, rep: number, attrs: Readonly<Record<string, string>> = {}): string {
  const extra = Object.entries(attrs)
    .map(([k, v]) => ` ${k}=${v}`)
    .join("");
  return `=== LAB-RESULT-BEGIN tool=${tool} rep=${rep}${extra} ===`;
}

/** The END marker line the scripts print. */
export function endMarker(tool: string, rep: number): string {
  return `=== LAB-RESULT-END tool=${tool} rep=${rep} ===`;
}

function parseAttrs(s: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const kv of s.trim().split(" ")) {
    const eq = kv.indexOf("=");
    attrs[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return attrs;
}

/**
 * Every result block of `log`, in log order. `source` names the log in errors
 * (e.g. `job/bench-fio-r1`). Throws {@link ToolOutputError} on any marker problem.
 */
export function cutResultBlocks(log: string, source: string): ResultBlock[] {
  const lines = log.split("\n");
  // A log ending in "\n" has no last line after it.
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const blocks: ResultBlock[] = [];
  let open: { tool: string; rep: number; attrs: Record<string, string>; line: number; body: string[] } | undefined;
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!line.startsWith(MARKER_PREFIX)) {
      if (open) open.body.push(raw);
      return;
    }
    const m = MARKER.exec(line);
    if (!m) throw new ToolOutputError(source, `line ${lineNo}: malformed result marker: ${line}`);
    const attrs = parseAttrs(m[2]);
    const rep = Number(attrs.rep);
    if (attrs.tool === undefined || !/^[1-9][0-9]*$/.test(attrs.rep ?? "")) {
      throw new ToolOutputError(source, `line ${lineNo}: result marker without tool=<name> rep=<n>: ${line}`);
    }
    if (m[1] === "BEGIN") {
      if (open) {
        throw new ToolOutputError(
          source,
          `line ${lineNo}: tool=${attrs.tool} rep=${rep} begins before tool=${open.tool} rep=${open.rep} (line ${open.line}) ended`,
        );
      }
      open = { tool: attrs.tool, rep, attrs, line: lineNo, body: [] };
      return;
    }
    if (!open) throw new ToolOutputError(source, `line ${lineNo}: end of tool=${attrs.tool} rep=${rep} without a beginning`);
    if (open.tool !== attrs.tool || open.rep !== rep) {
      throw new ToolOutputError(
        source,
        `line ${lineNo}: end of tool=${attrs.tool} rep=${rep} while tool=${open.tool} rep=${open.rep} (line ${open.line}) is open`,
      );
    }
    blocks.push({ tool: open.tool, rep: open.rep, attrs: open.attrs, line: open.line, text: open.body.map((l) => `${l}\n`).join("") });
    open = undefined;
  });
  if (open) {
    throw new ToolOutputError(source, `truncated: tool=${open.tool} rep=${open.rep} (line ${open.line}) has no end marker`);
  }
  return blocks;
}

/**
 * Checks that `blocks` are exactly repetitions 1..reps of `tool`, each once; returns them by rep.
 */
export function expectReps(blocks: readonly ResultBlock[], tool: string, reps: number, source: string): ResultBlock[] {
  const byRep = new Map<number, ResultBlock>();
  for (const b of blocks) {
    if (b.tool !== tool) throw new ToolOutputError(source, `line ${b.line}: output of tool=${b.tool}, expected only ${tool}`);
    if (byRep.has(b.rep)) throw new ToolOutputError(source, `line ${b.line}: repetition ${b.rep} of ${tool} appears twice`);
    if (b.rep > reps) throw new ToolOutputError(source, `line ${b.line}: repetition ${b.rep} of ${tool}, expected ${reps}`);
    byRep.set(b.rep, b);
  }
  const missing: number[] = [];
  for (let r = 1; r <= reps; r++) if (!byRep.has(r)) missing.push(r);
  if (missing.length > 0) {
    throw new ToolOutputError(source, `missing ${tool} repetition(s) ${missing.join(", ")} of ${reps}`);
  }
  return [...byRep.values()].sort((a, b) => a.rep - b.rep);
}

/** File name of a block's raw output: `<tool>-rep<n>.json` for JSON outputs, `.txt` otherwise. */
export function rawOutputName(block: ResultBlock, prefix = ""): string {
  const json = block.tool === "fio" || block.tool === "omb" || (block.tool === "ioping" && block.attrs.format !== "text");
  return `${prefix}${block.tool}-rep${block.rep}.${json ? "json" : "txt"}`;
}

/** Metadata names of marker attributes that are not used as they are. */
const MARKER_KEYS: Readonly<Record<string, string>> = {
  version: "toolVersion",
  profile: "fioProfile",
  duration: "durationSeconds",
  init: "pgbenchInitialisation",
  // The repetition's window (lib.sh lab_util_begin/lab_util_end), UTC: its utilization's time span.
  start: "repStart",
  end: "repEnd",
};

/** Marker attributes as metadata (whole numbers other than a version become numbers), `tool`, `rep` and `format` aside. */
export function markerMetadata(attrs: Readonly<Record<string, string>>): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "tool" || k === "rep" || k === "format") continue;
    out[MARKER_KEYS[k] ?? k] = k !== "version" && /^(0|[1-9][0-9]{0,14})$/.test(v) ? Number(v) : v;
  }
  return out;
}

/**
 * The environment variable that hands a collector its run's metadata (one line of JSON), and the
 * line scripts/collect-job.sh prints with it on stdout before a Complete Job's log:
 * `=== LAB-RUN-METADATA {"instanceType":"m5.xlarge",…} ===`.
 *
 * Why: a collector runs once, when its Job was created (its other inputs' changes are ignored,
 * components/bench/index.ts), so its stdout is a record of that moment. The samples take their
 * setup (instance type, hypervisor, versions, zone…) from this line, never from the config of a
 * later `pulumi up`: a stack whose `lab:instanceType` changed after the run keeps saying what the
 * samples were measured on (issue 40 item 1).
 */
export const RUN_METADATA_ENV = "LAB_RUN_METADATA";
const RUN_METADATA_LINE = /^=== LAB-RUN-METADATA (.*) ===\r?$/;

/** The collector's environment value for `run`: its defined keys as one line of JSON. */
export function runMetadataEnv(run: RunMetadata): string {
  return JSON.stringify(definedOnly(run));
}

/**
 * The run metadata recorded in a collector's log (its `=== LAB-RUN-METADATA … ===` line), or
 * undefined when the log has none. More than one such line, JSON that is not an object, or a
 * value that is not a string, number or boolean is a {@link ToolOutputError} naming the line.
 */
export function recordedRunMetadata(log: string, source: string): RunMetadata | undefined {
  let found: RunMetadata | undefined;
  let foundAt = 0;
  log.split("\n").forEach((line, i) => {
    if (!line.startsWith("=== LAB-RUN-METADATA")) return;
    const m = RUN_METADATA_LINE.exec(line);
    if (!m) throw new ToolOutputError(source, `line ${i + 1}: malformed run metadata line: ${line}`);
    if (found !== undefined) throw new ToolOutputError(source, `line ${i + 1}: a second run metadata line (the first is line ${foundAt})`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(m[1]);
    } catch (e) {
      throw new ToolOutputError(source, `line ${i + 1}: run metadata is not JSON (${(e as Error).message}): ${m[1]}`);
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new ToolOutputError(source, `line ${i + 1}: run metadata must be a JSON object, got ${m[1]}`);
    }
    const bad = Object.entries(parsed).filter(([, v]) => !["string", "number", "boolean"].includes(typeof v));
    if (bad.length > 0) {
      throw new ToolOutputError(
        source,
        `line ${i + 1}: run metadata values must be strings, numbers or booleans, got ${bad.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ")}`,
      );
    }
    found = parsed as RunMetadata;
    foundAt = i + 1;
  });
  return found;
}

/** What {@link collectSamples} needs besides the log. */
export interface CollectOptions {
  readonly tool: ToolName;
  /** Repetitions the log must hold. */
  readonly reps: number;
  /** Names the log in errors and prefixes raw file names in parser errors (e.g. `job/bench-fio-r1`). */
  readonly source: string;
  /**
   * Run metadata merged into every sample (parser's keys win), plus `rep` and the marker's
   * attributes. With `recordedRun`, the log's recorded metadata ({@link recordedRunMetadata}) is
   * used instead, and this is not.
   */
  readonly run: RunMetadata;
  /**
   * The log is a collector's (scripts/collect-job.sh with {@link RUN_METADATA_ENV}): its samples
   * take the metadata recorded in it. A log without it comes from a collector created by a lab
   * that did not record it (the engine keeps such a collector's old environment: ignoreChanges):
   * its samples take `run` (the config of this update) and say so with `setupRecorded: false`,
   * never passing today's setup off as the one measured. @default false
   */
  readonly recordedRun?: boolean;
  /** Prefix of the raw output names (e.g. `zone-a-`). @default "" */
  readonly rawPrefix?: string;
}

/**
 * Cuts `log`, checks it holds repetitions 1..reps of the tool, parses each and merges metadata:
 * `run`, then the marker's attributes (`toolVersion`, fio `fioProfile`, pgbench `scale`,
 * `pgbenchInitialisation`…), then
 * `rep`; keys the parser found in the output win over all of them.
 */
export function collectSamples(log: string, given: CollectOptions, parse: ParseToolOutput): { samples: Sample[]; raws: RawOutput[] } {
  const opts = given.recordedRun ? { ...given, run: recordedOrMarked(log, given.source, given.run) } : given;
  const blocks = expectReps(cutResultBlocks(log, opts.source), opts.tool, opts.reps, opts.source);
  const samples: Sample[] = [];
  const raws: RawOutput[] = [];
  for (const b of blocks) {
    const name = rawOutputName(b, opts.rawPrefix);
    raws.push({ name, text: b.text });
    const parsed = parse(opts.tool, b.text, `${opts.source}/${name}`);
    samples.push(...withRunMetadata(parsed, repMetadata(opts, b, name)));
  }
  const util = collectUtilization(log, blocks, opts);
  return { samples: [...samples, ...util.samples], raws: [...raws, ...util.raws] };
}

/**
 * One repetition's metadata: the run's, the marker's attributes, `rep`, and, where the run names
 * its file system's maintenance window and the marker the repetition's window, whether the two
 * overlap (core/maintenance.ts). A window that cannot be read is malformed tool output.
 */
function repMetadata(opts: CollectOptions, b: ResultBlock, name: string): RunMetadata {
  const metadata: RunMetadata = { ...opts.run, ...markerMetadata(b.attrs), rep: b.rep };
  try {
    return { ...metadata, ...maintenanceOverlapMetadata(metadata) };
  } catch (e) {
    throw new ToolOutputError(`${opts.source}/${name}`, `line ${b.line}: ${(e as Error).message}`);
  }
}

function recordedOrMarked(log: string, source: string, current: RunMetadata): RunMetadata {
  return recordedRunMetadata(log, source) ?? { ...current, setupRecorded: false };
}

/**
 * The node sampler's summaries in `log` (LAB-UTIL blocks, core/parsers/sampler.ts), each after
 * its repetition's result block: utilization samples with that repetition's metadata, and each
 * summary kept as a raw output `<tool>-rep<n>.util.txt`. A log without them (a script without
 * the sampler) gives none. Utilization is advisory and never costs the benchmark's samples: a
 * summary that cannot be read, or that follows no repetition of the tool, and util markers that
 * cannot be cut are dropped and said by a `util.node.unreadable` sample naming the problem
 * (with the repetition's metadata where there is one); the summary stays among the raw outputs.
 */
export function collectUtilization(
  log: string,
  blocks: readonly ResultBlock[],
  opts: CollectOptions,
): { samples: Sample[]; raws: RawOutput[] } {
  const byRep = new Map(blocks.map((b) => [b.rep, b]));
  const samples: Sample[] = [];
  const raws: RawOutput[] = [];
  const run = { ...definedOnly(opts.run), tool: opts.tool };
  let utilBlocks: ReturnType<typeof cutUtilBlocks>;
  try {
    utilBlocks = cutUtilBlocks(log, opts.source);
  } catch (e) {
    if (!(e instanceof ToolOutputError)) throw e;
    return { samples: [samplerNoteSample(SAMPLER_UNREADABLE_METRIC, 1, `node sampler output dropped: ${e.message}`, run)], raws };
  }
  for (const u of utilBlocks) {
    const b = u.tool === opts.tool ? byRep.get(u.rep) : undefined;
    const name = `${opts.rawPrefix ?? ""}${u.tool}-rep${u.rep}.util.txt`;
    raws.push({ name, text: u.text });
    if (b === undefined) {
      const why = new ToolOutputError(
        opts.source,
        `line ${u.line}: utilization of tool=${u.tool} rep=${u.rep} follows no repetition of ${opts.tool}`,
      );
      samples.push(samplerNoteSample(SAMPLER_UNREADABLE_METRIC, 1, `node sampler summary dropped: ${why.message}`, run));
      continue;
    }
    // The repetition's own metadata, as its benchmark samples have it (repMetadata), the benchmark's tool.
    const metadata = { ...definedOnly(repMetadata(opts, b, rawOutputName(b, opts.rawPrefix))), tool: opts.tool };
    try {
      samples.push(...samplerSamples(parseSamplerSummary(u.text, `${opts.source}/${name}`), metadata));
    } catch (e) {
      if (!(e instanceof ToolOutputError)) throw e;
      samples.push(samplerNoteSample(SAMPLER_UNREADABLE_METRIC, 1, `node sampler summary dropped: ${e.message}`, metadata));
    }
  }
  return { samples, raws };
}

function definedOnly(run: RunMetadata): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  for (const [k, v] of Object.entries(run)) if (v !== undefined) out[k] = v;
  return out;
}
