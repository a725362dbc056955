/**
 * ioping output → samples (docs/samples.md).
 *
 * Reads `ioping -J` (a JSON array: one object per request, `{"io": {..., "time": ns,
 * "ignored": bool}}`, then a statistics object `{"stat": {...}, "load": {...}}`; with `-p`/`-P`
 * there are periodic statistics objects too, and the whole run's is always the last element) and
 * ioping's text summary:
 *
 * ```
 * --- iop (ext4 /dev/vda 252.0 GiB) ioping statistics ---
 * 5 requests completed in 1.42 ms, 20 KiB read, 3.53 k iops, 13.8 MiB/s
 * generated 6 requests in 1.00 s, 24 KiB, 5 iops, 24.0 KiB/s
 * min/avg/max/mdev = 266.6 us / 283.1 us / 301.5 us / 12.1 us
 * ```
 *
 * | metric                   | unit  | JSON (last element)   | text                          |
 * |--------------------------|-------|-----------------------|-------------------------------|
 * | `ioping.requests`        | count | `stat.count`          | `5 requests completed`        |
 * | `ioping.iops`            | op/s  | `stat.iops`           | `3.53 k iops`                 |
 * | `ioping.latency.min`     | us    | `stat.min` / 1000     | `min/avg/max/mdev` (1st)      |
 * | `ioping.latency.mean`    | us    | `stat.avg` / 1000     | (2nd)                         |
 * | `ioping.latency.max`     | us    | `stat.max` / 1000     | (3rd)                         |
 * | `ioping.latency.mdev`    | us    | `stat.mdev` / 1000    | (4th)                         |
 *
 * Warm-up: these are ioping's own statistics, which leave out the warm-up requests (`-a`, 1 by
 * default; marked `"ignored": true` in JSON and `(warmup)` in text) and requests outside
 * `-t`/`-T`. `requests` counts the valid requests only; the generated total (warm-up included)
 * is the `generatedRequests` metadata. `ioping.iops` is ioping's figure: valid requests divided
 * by the time spent in them (1 / mean latency), not requests per wall-clock second.
 *
 * A run with no valid request yields `ioping.requests` = 0 and no latency or IOPS sample (ioping
 * prints zeros then, which are not measurements).
 *
 * and ioping's raw statistics (`-B`, batch mode; also `-p`/`-P`'s periodic lines, the whole run's
 * last): one line of ten whole numbers, "(1) count of requests in statistics, (2) running time
 * (nanoseconds), (3) requests per second (iops), (4) transfer speed (bytes per second), (5) minimal,
 * (6) average, (7) maximum request time, (8) request time standard deviation (nanoseconds), (9)
 * total requests (including warmup, too slow or too fast), (10) total running time" (ioping 1.3
 * man page, RAW STATISTICS): `requests` (1), `iops` (3), the latencies (5)–(8) / 1000, and
 * `generatedRequests` (9). The raw line names no target, file system or operation.
 *
 * Text figures are ioping's rounded ones (3 significant digits): "3.53 k iops" is 3530 op/s,
 * "1.20 k requests" is 1200. Times are ns/us/ms/s/min/hour. Prefer `-J` for exact figures.
 *
 * Metadata: `tool`, `target`, `fstype`, `device`, `operation` (read | write), `requestSizeBytes`
 * (JSON), `generatedRequests`. ioping does not print its version.
 */
import { ToolOutputError } from "../errors";
import type { Sample, SampleMetadata } from "../sample";
import { findJsonStart, isJsonObject, JsonFields, normaliseText, parseJsonAt, requireNonEmpty, scaleDecimal } from "./common";

/**
 * Parses `ioping -J` output or ioping's text summary into samples; throws a
 * {@link ToolOutputError} naming `file` and what is missing otherwise.
 */
export function parseIoping(text: string, file: string): Sample[] {
  const body = normaliseText(text);
  requireNonEmpty(body, file, "ioping output (ioping -J, its text summary, or -B's raw statistics)");
  const start = findJsonStart(body, "[");
  if (start !== undefined) return parseIopingJson(parseJsonAt(body, start, file, "ioping JSON"), file);
  if (findJsonStart(body, "{") !== undefined && !body.includes("ioping statistics ---")) {
    throw new ToolOutputError(file, "not ioping output: it holds a JSON object, and ioping -J prints a JSON array");
  }
  const lines = body.split("\n").filter((l) => l.trim() !== "");
  if (lines.length > 0 && lines.every((l) => RAW_LINE.test(l.trim()))) return parseIopingRaw(lines[lines.length - 1].trim());
  return parseIopingText(body, file);
}

/** A raw statistics line (`ioping -B`): ten whole numbers. */
const RAW_LINE = /^\d+(?: \d+){9}$/;

/** Samples of ioping's last raw statistics line (the whole run's). */
function parseIopingRaw(line: string): Sample[] {
  const f = line.split(" ").map(Number);
  return samplesOf(
    { requests: f[0], iops: f[2], min: f[4] / 1000, mean: f[5] / 1000, max: f[6] / 1000, mdev: f[7] / 1000 },
    { tool: "ioping", generatedRequests: f[8] },
  );
}

/** Samples of one parsed `ioping -J` document. */
function parseIopingJson(doc: unknown, file: string): Sample[] {
  if (!Array.isArray(doc) || doc.length === 0 || !doc.every((x) => isJsonObject(x) && ("io" in x || "stat" in x))) {
    throw new ToolOutputError(file, 'not ioping -J output: expected an array of request ("io") and statistics ("stat") objects');
  }
  const last = doc[doc.length - 1];
  if (!isJsonObject(last) || !("stat" in last)) {
    throw new ToolOutputError(file, 'ioping JSON has no final statistics object ("stat"): the run did not finish');
  }
  const summary = new JsonFields(last, file, `element ${doc.length - 1}`);
  const stat = summary.object("stat");
  const load = summary.object("load");
  const target = summary.object("target");

  const meta: SampleMetadata = {
    tool: "ioping",
    target: target.string("path"),
    fstype: target.string("fstype"),
    device: target.string("device"),
  };
  const firstRequest = doc.find((x) => isJsonObject(x) && "io" in x);
  if (isJsonObject(firstRequest)) {
    const io = new JsonFields(firstRequest, file, `element ${doc.indexOf(firstRequest)}`).object("io");
    meta.operation = io.string("operation");
  }
  const count = stat.number("count");
  if (count > 0) meta.requestSizeBytes = stat.number("size") / count;
  meta.generatedRequests = load.number("count");

  return samplesOf(
    {
      requests: count,
      iops: stat.number("iops"),
      min: stat.number("min") / 1000,
      mean: stat.number("avg") / 1000,
      max: stat.number("max") / 1000,
      mdev: stat.number("mdev") / 1000,
    },
    meta,
  );
}

const SUMMARY_HEADER = /^--- (.*) \((\S*) (\S*) [\d.]+ (?:[KMGTPE]i)?B\) ioping statistics ---$/;
const INT = String.raw`(\d+(?:\.\d+)?)(?: ([kMGTPE]))?`;
const TIME = String.raw`(\d+(?:\.\d+)?) (ns|us|ms|s|min|hour)`;
const COMPLETED_LINE = new RegExp(String.raw`^${INT} requests completed in [^,]+, [^,]+?( read| written)?, ${INT} iops, `);
const GENERATED_LINE = new RegExp(String.raw`(?:^|, )generated ${INT} requests in `);
const MINMAX_LINE = new RegExp(String.raw`^min/avg/max/mdev = ${TIME} / ${TIME} / ${TIME} / ${TIME}$`);

const INT_SUFFIX: Record<string, number> = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const TIME_TO_US: Record<string, number> = { ns: 1e-3, us: 1, ms: 1e3, s: 1e6, min: 6e7, hour: 3.6e9 };

/** Samples of ioping's text summary block. */
function parseIopingText(body: string, file: string): Sample[] {
  const lines = body.split("\n");
  const at = lines.findIndex((l) => SUMMARY_HEADER.test(l));
  if (at < 0) throw new ToolOutputError(file, "not ioping output: no '--- <target> (<fs> <device> <size>) ioping statistics ---' summary");
  const header = SUMMARY_HEADER.exec(lines[at]) as RegExpExecArray;
  const rest = lines.slice(at + 1);

  const completed = rest.map((l) => COMPLETED_LINE.exec(l)).find((m) => m !== null);
  const generated = rest.map((l) => GENERATED_LINE.exec(l)).find((m) => m !== null);
  const minmax = rest.map((l) => MINMAX_LINE.exec(l)).find((m) => m !== null);
  const missing: string[] = [];
  if (!completed) missing.push("'<n> requests completed in ...' line");
  if (!generated) missing.push("'generated <n> requests in ...' line");
  if (!minmax) missing.push("'min/avg/max/mdev = ...' line");
  if (!completed || !generated || !minmax) throw new ToolOutputError(file, `ioping summary is truncated: missing ${missing.join(", ")}`);

  const meta: SampleMetadata = { tool: "ioping", target: header[1], fstype: header[2], device: header[3] };
  if (completed[3] === " read") meta.operation = "read";
  else if (completed[3] === " written") meta.operation = "write";
  meta.generatedRequests = scaleDecimal(generated[1], INT_SUFFIX[generated[2] ?? ""]);

  return samplesOf(
    {
      requests: scaleDecimal(completed[1], INT_SUFFIX[completed[2] ?? ""]),
      iops: scaleDecimal(completed[4], INT_SUFFIX[completed[5] ?? ""]),
      min: timeUs(minmax[1], minmax[2]),
      mean: timeUs(minmax[3], minmax[4]),
      max: timeUs(minmax[5], minmax[6]),
      mdev: timeUs(minmax[7], minmax[8]),
    },
    meta,
  );
}

/** A printed time in microseconds: "266.6 us" → 266.6, "1.42 ms" → 1420. */
function timeUs(value: string, unit: string): number {
  const perUs = TIME_TO_US[unit];
  return perUs >= 1 ? scaleDecimal(value, perUs) : scaleDecimal(value, 1) / 1000;
}

interface IopingFigures {
  requests: number;
  iops: number;
  min: number;
  mean: number;
  max: number;
  mdev: number;
}

function samplesOf(f: IopingFigures, metadata: SampleMetadata): Sample[] {
  const figures: [string, number, string][] = [["ioping.requests", f.requests, "count"]];
  if (f.requests > 0) {
    figures.push(
      ["ioping.iops", f.iops, "op/s"],
      ["ioping.latency.min", f.min, "us"],
      ["ioping.latency.mean", f.mean, "us"],
      ["ioping.latency.max", f.max, "us"],
      ["ioping.latency.mdev", f.mdev, "us"],
    );
  }
  return figures.map(([metric, value, unit]) => ({ metric, value, unit, metadata: { ...metadata } }));
}
