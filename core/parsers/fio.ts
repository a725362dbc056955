/**
 * fio output → samples (docs/samples.md).
 *
 * Reads fio 3.x `--output-format=json` and `json+` (the same document plus latency bins, which are
 * ignored) and fio's normal text output. Per job and per direction d ∈ {read, write} that did
 * I/O (`io_bytes > 0` or `total_ios > 0`):
 *
 * | metric                  | unit | JSON source                          | text source          |
 * |-------------------------|------|--------------------------------------|----------------------|
 * | `fio.<d>.iops`          | op/s | `<d>.iops`                           | `IOPS=58.0k`         |
 * | `fio.<d>.bandwidth`     | B/s  | `<d>.bw_bytes`                       | `BW=227MiB/s`        |
 * | `fio.<d>.clat.mean`     | us   | `<d>.clat_ns.mean` / 1000            | (not read)           |
 * | `fio.<d>.clat.p50`      | us   | `<d>.clat_ns.percentile["50.000000"]`| (not read)           |
 * | `fio.<d>.clat.p99`      | us   | `... ["99.000000"]`                  | (not read)           |
 * | `fio.<d>.clat.p99.9`    | us   | `... ["99.900000"]`                  | (not read)           |
 *
 * and one `fio.error` (count) per job. A job with an error (a count above 0, below) yields its
 * `fio.error` alone: what it did before the error (257k IOPS from a 1 ms job stopped by ENOSPC, or
 * a rate with errors continued past) is not a performance figure, and the report would pool it
 * with the others (lab/report counts the failed jobs instead). Latency samples exist only when fio measured completion
 * latency (`clat_ns.N > 0`): under `gtod_reduce=1` fio prints zeros and no percentiles, and no
 * latency sample is emitted, never a 0. A percentile fio was not asked for (`percentile_list`)
 * is left out. Trim statistics are not read.
 *
 * `fio.error`: fio's `error` is the errno of the job's first error (28 = ENOSPC), not a count.
 * With `continue_on_error` fio also counts errors (`total_err`, text `errors : total=N`), and
 * that count is the value; otherwise the value is 1 when `error` is non-zero, else 0. The count
 * counts only the errors fio continued past: a job stopped by an error of another class (a write
 * hitting ENOSPC under `continue_on_error=read`) has `error` 28 and `total_err` 0 (fio-3.33,
 * test/fixtures/fio/enospc-continue-on-read.*), so a non-zero `error` is never fewer than 1
 * error. The errno itself is the `errno` metadata of the `fio.error` sample.
 *
 * Metadata: `tool`, `toolVersion` ("fio-3.33"), `job` (jobname), `jobIndex` (position in fio's
 * list: jobs of `numjobs` > 1 share a name), `direction`, and from JSON every option fio lists,
 * `global options` overlaid by the job's own `job options` ("name" is `job`), numeric option
 * values as numbers (`iodepth: 64`, `bs: "4k"`). From text: `rw`, `bs` (that direction's block
 * size as fio prints it, "4096B"), `ioengine`, `iodepth`, from the job's header line.
 *
 * Text figures are fio's rounded ones (3 significant digits by default): `IOPS=58.0k` is
 * 58000 op/s, `BW=75.6MiB/s` is 75.6 × 2^20 B/s; KiB/MiB/GiB are powers of 1024, kB/MB/GB
 * powers of 1000, `bit/s` figures are divided by 8. Prefer JSON for exact figures.
 */
import { ToolOutputError } from "../errors";
import type { MetadataValue, Sample, SampleMetadata } from "../sample";
import { findJsonStart, isJsonObject, JsonFields, normaliseText, optionValue, parseJsonAt, requireNonEmpty, scaleDecimal } from "./common";

/** The directions a fio sample can describe. */
export const FIO_DIRECTIONS = ["read", "write"] as const;
/** One of {@link FIO_DIRECTIONS}. */
export type FioDirection = (typeof FIO_DIRECTIONS)[number];

/** Percentiles read from `clat_ns.percentile`, with their metric suffix. */
const PERCENTILES: readonly { readonly at: number; readonly suffix: string }[] = [
  { at: 50, suffix: "p50" },
  { at: 99, suffix: "p99" },
  { at: 99.9, suffix: "p99.9" },
];

/**
 * Parses fio output (JSON, json+ or normal text) into samples; throws a {@link ToolOutputError}
 * naming `file` and what is missing when the output is empty, truncated or not fio's.
 */
export function parseFio(text: string, file: string): Sample[] {
  const body = normaliseText(text);
  requireNonEmpty(body, file, "fio output (--output-format=json, json+ or normal)");
  const start = findJsonStart(body, "{");
  if (start !== undefined) return parseFioJson(parseJsonAt(body, start, file, "fio JSON"), file);
  return parseFioText(body, file);
}

/** Samples of one parsed fio JSON document. */
function parseFioJson(doc: unknown, file: string): Sample[] {
  if (!isJsonObject(doc)) throw new ToolOutputError(file, "not fio JSON output: the document is not an object");
  const missing = ["fio version", "jobs"].filter((k) => !(k in doc));
  if (missing.length > 0) {
    throw new ToolOutputError(file, `not fio JSON output: missing ${missing.map((k) => `"${k}"`).join(", ")}`);
  }
  const root = new JsonFields(doc, file, "");
  const toolVersion = root.string("fio version");
  const jobs = doc["jobs"];
  if (!Array.isArray(jobs)) throw new ToolOutputError(file, `"jobs" must be an array, got ${JSON.stringify(jobs)}`);
  if (jobs.length === 0) throw new ToolOutputError(file, 'fio JSON has no jobs ("jobs" is empty)');
  const globalOptions = optionsOf(root.optionalObject("global options"));

  const samples: Sample[] = [];
  jobs.forEach((job: unknown, index) => {
    if (!isJsonObject(job)) throw new ToolOutputError(file, `jobs[${index}] must be an object, got ${JSON.stringify(job)}`);
    const name = typeof job["jobname"] === "string" ? job["jobname"] : undefined;
    const fields = new JsonFields(job, file, name === undefined ? `jobs[${index}]` : `jobs[${index}] (${JSON.stringify(name)})`);
    const jobname = fields.string("jobname");
    const errno = fields.number("error");
    const options = { ...globalOptions, ...optionsOf(fields.optionalObject("job options")) };
    delete options["name"];
    const base: SampleMetadata = { ...options, tool: "fio", toolVersion, job: jobname, jobIndex: index };
    const errors = errorCount(errno, fields.optionalNumber("total_err"));

    for (const direction of errors > 0 ? [] : FIO_DIRECTIONS) {
      const stats = fields.object(direction);
      if (stats.number("io_bytes") <= 0 && stats.number("total_ios") <= 0) continue;
      const meta: SampleMetadata = { ...base, direction };
      samples.push(sample(`fio.${direction}.iops`, stats.number("iops"), "op/s", meta));
      samples.push(sample(`fio.${direction}.bandwidth`, stats.number("bw_bytes"), "B/s", meta));
      const clat = stats.object("clat_ns");
      if (clat.number("N") > 0) {
        samples.push(sample(`fio.${direction}.clat.mean`, clat.number("mean") / 1000, "us", meta));
        const percentiles = clat.optionalObject("percentile");
        if (percentiles !== undefined) {
          for (const p of PERCENTILES) {
            const key = Object.keys(percentiles.raw).find((k) => Number(k) === p.at);
            if (key !== undefined) samples.push(sample(`fio.${direction}.clat.${p.suffix}`, percentiles.number(key) / 1000, "us", meta));
          }
        }
      }
    }
    samples.push(sample("fio.error", errors, "count", { ...base, errno }));
  });
  return samples;
}

/** fio's option strings as metadata values. */
function optionsOf(options: JsonFields | undefined): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  if (options === undefined) return out;
  for (const [key, value] of Object.entries(options.raw)) {
    if (typeof value === "string") out[key] = optionValue(value);
    else if (typeof value === "number" || typeof value === "boolean") out[key] = value;
  }
  return out;
}

/** What a job's header line (`<name>: (g=0): rw=..., bs=..., ioengine=..., iodepth=...`) says. */
interface TextJobHeader {
  readonly rw: string;
  readonly bs: Record<FioDirection, string>;
  readonly ioengine: string;
  readonly iodepth: number;
}

/** One job's result block of the text output, as far as it is read. */
interface TextJobResult {
  readonly name: string;
  readonly errno: number;
  totalErrors?: number;
  readonly directions: { direction: FioDirection; iops: number; bandwidth: number }[];
}

const VERSION_LINE = /^fio-\d+\.\d+\S*$/;
const HEADER_LINE =
  /^(.*): \(g=\d+\): rw=(\S+), bs=\(R\) (\S+)-(\S+), \(W\) (\S+)-(\S+), (?:\(T\) \S+-\S+|bs_is_seq_rand), ioengine=(\S+), iodepth=(\d+)$/;
const RESULT_LINE = /^(.*): \(groupid=\d+, jobs=\d+\): err=\s*(\d+)(?: \(.*\))?: pid=\d+/;
const DIRECTION_LINE = /^\s+(read|write|trim|mixed): IOPS=([^,]+), BW=(\S+) \(/;
const ERRORS_LINE = /^\s+errors\s+: total=(\d+), first_error=/;
const STATUS_LINE = /^Run status group \d+ \(all jobs\):$/;

/** Samples of fio's normal text output: IOPS and bandwidth per job and direction, and errors. */
function parseFioText(body: string, file: string): Sample[] {
  const lines = body.split("\n");
  let toolVersion: string | undefined;
  const headers = new Map<string, TextJobHeader>();
  const results: TextJobResult[] = [];
  let current: TextJobResult | undefined;
  let sawStatus = false;

  lines.forEach((line, i) => {
    const where = `line ${i + 1}`;
    if (VERSION_LINE.test(line)) {
      toolVersion ??= line;
      return;
    }
    const header = HEADER_LINE.exec(line);
    if (header) {
      if (!headers.has(header[1])) {
        headers.set(header[1], {
          rw: header[2],
          bs: { read: blockSize(header[3], header[4]), write: blockSize(header[5], header[6]) },
          ioengine: header[7],
          iodepth: Number(header[8]),
        });
      }
      return;
    }
    const result = RESULT_LINE.exec(line);
    if (result) {
      current = { name: result[1], errno: Number(result[2]), directions: [] };
      results.push(current);
      return;
    }
    if (STATUS_LINE.test(line)) {
      sawStatus = true;
      current = undefined;
      return;
    }
    if (current === undefined) return;
    const direction = DIRECTION_LINE.exec(line);
    if (direction) {
      const d = direction[1];
      if (d === "mixed") {
        throw new ToolOutputError(file, `${where}: unified_rw_reporting ("mixed:") output is not supported; rerun fio without it`);
      }
      if (d === "read" || d === "write") {
        current.directions.push({
          direction: d,
          iops: textIops(direction[2], file, where),
          bandwidth: textBandwidth(direction[3], file, where),
        });
      }
      return;
    }
    const errors = ERRORS_LINE.exec(line);
    if (errors) current.totalErrors = Number(errors[1]);
  });

  if (results.length === 0) {
    throw new ToolOutputError(
      file,
      "not fio output: no JSON object and no '<job>: (groupid=N, jobs=N): err=N: pid=N' result line of fio's normal output",
    );
  }
  if (!sawStatus) {
    throw new ToolOutputError(file, "fio text output is truncated: no 'Run status group N (all jobs):' summary after the job results");
  }

  const samples: Sample[] = [];
  results.forEach((result, index) => {
    const header = headers.get(result.name);
    const base: SampleMetadata = { tool: "fio", job: result.name, jobIndex: index };
    if (toolVersion !== undefined) base.toolVersion = toolVersion;
    if (header !== undefined) {
      base.rw = header.rw;
      base.ioengine = header.ioengine;
      base.iodepth = header.iodepth;
    }
    const errors = errorCount(result.errno, result.totalErrors);
    for (const d of errors > 0 ? [] : result.directions) {
      const meta: SampleMetadata = { ...base, direction: d.direction };
      if (header !== undefined) meta.bs = header.bs[d.direction];
      samples.push(sample(`fio.${d.direction}.iops`, d.iops, "op/s", meta));
      samples.push(sample(`fio.${d.direction}.bandwidth`, d.bandwidth, "B/s", meta));
    }
    samples.push(sample("fio.error", errors, "count", { ...base, errno: result.errno }));
  });
  return samples;
}

/**
 * A job's error count: fio's own count when it printed one, and at least 1 when the job ended
 * with an errno (fio counts only the errors `continue_on_error` let it continue past).
 */
function errorCount(errno: number, counted: number | undefined): number {
  const stopped = errno !== 0 ? 1 : 0;
  return counted === undefined ? stopped : Math.max(counted, stopped);
}

/** "4096B" for a fixed block size, "4096B-8192B" for a range. */
function blockSize(min: string, max: string): string {
  return min === max ? min : `${min}-${max}`;
}

const SI: Record<string, number> = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const IEC: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

/** `IOPS=58.0k` → 58000 (fio prints IOPS with SI prefixes). */
function textIops(text: string, file: string, where: string): number {
  const m = /^(\d+(?:\.\d+)?)([kMGTPE]?)$/.exec(text);
  if (!m) throw new ToolOutputError(file, `${where}: cannot read IOPS=${text}`);
  return scaleDecimal(m[1], SI[m[2]]);
}

/** `BW=227MiB/s` → 227 × 2^20 B/s; `kB/s` is 1000 B/s; `bit/s` figures are divided by 8. */
function textBandwidth(text: string, file: string, where: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?(B|bit)\/s$/.exec(text);
  if (!m) throw new ToolOutputError(file, `${where}: cannot read BW=${text}`);
  const prefix = m[2] ?? "";
  const multiplier = IEC[prefix] ?? SI[prefix];
  const value = scaleDecimal(m[1], multiplier);
  return m[3] === "bit" ? value / 8 : value;
}

function sample(metric: string, value: number, unit: string, metadata: SampleMetadata): Sample {
  return { metric, value, unit, metadata: { ...metadata } };
}
