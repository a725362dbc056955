/**
 * Reads the fio Job's log of the FSx failover experiment (what lab/experiment/scripts/
 * fio-failover.sh prints) and fio's per-second IOPS log. Pure.
 *
 * - `fio-start <ms> version=<v>`, `fio-stop <ms>`, `fio-exit <status>`: the script's records;
 * - the result blocks (components/bench/collect.ts `cutResultBlocks`): `tool=fio` fio's JSON,
 *   `tool=fio-iops` the IOPS log;
 * - fio's own error lines, which reach the container log through stderr: a verify failure
 *   (fio-3.33 verify.c: "<type>: verify failed at file … offset …", "verify: bad magic header …",
 *   "verify: bad header …", "fio: verify type mismatch …", "fio: got pattern …") and an I/O error
 *   (io_u.c: "fio: io_u error on file …").
 *
 * The IOPS log (fio HOWTO "Log File Formats": `time (msec), value, data direction, block size,
 * offset[, priority]`; with `log_avg_msec=1000` the value is the window's mean IOPS) has one line
 * per direction per second in which I/O completed and none for a second without: fio-3.33 stat.c
 * `__add_samples` skips a direction whose count did not move ("No entries for interval"). So a
 * second is zero when no line falls on it. fio's helper thread takes those samples; were it more
 * than half a second late for one (a starved CPU), that second would read as a zero too: the gap
 * is an upper bound of the time without a completed write, exact on an idle client.
 */
import { ToolOutputError } from "../../core/errors";
import { cutResultBlocks } from "../../components/bench/collect";

export interface FioJobLog {
  readonly start?: { readonly atMs: number; readonly version: string };
  readonly stopAtMs?: number;
  readonly exitStatus?: number;
  /** fio's JSON output. */
  readonly json?: string;
  /** fio's IOPS log. */
  readonly iopsLog?: string;
  /** fio's verify-failure lines, in order. */
  readonly verifyFailures: readonly string[];
  /** fio's I/O error lines, in order. */
  readonly ioErrors: readonly string[];
}

const START = /^fio-start (\d+) version=(\S+)$/;
const STOP = /^fio-stop (\d+)$/;
const EXIT = /^fio-exit (\d+)$/;
const VERIFY_FAILURE = /(: verify failed at file |^verify: bad |verify type mismatch|^fio: got pattern|^fio: bad pattern)/;
const IO_ERROR = /^fio: io_u error on file /;

export function parseFioJobLog(text: string, source: string): FioJobLog {
  let start: FioJobLog["start"];
  let stopAtMs: number | undefined;
  let exitStatus: number | undefined;
  const verifyFailures: string[] = [];
  const ioErrors: string[] = [];
  const lines = text.split("\n");
  let inBlock = false;
  for (const raw of lines) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.startsWith("=== LAB-RESULT-BEGIN ")) inBlock = true;
    else if (line.startsWith("=== LAB-RESULT-END ")) inBlock = false;
    if (inBlock) continue;
    let m: RegExpExecArray | null;
    if ((m = START.exec(line))) start = { atMs: Number(m[1]), version: m[2] };
    else if ((m = STOP.exec(line))) stopAtMs = Number(m[1]);
    else if ((m = EXIT.exec(line))) exitStatus = Number(m[1]);
    else if (VERIFY_FAILURE.test(line.trim())) verifyFailures.push(line.trim());
    else if (IO_ERROR.test(line.trim())) ioErrors.push(line.trim());
  }
  let json: string | undefined;
  let iopsLog: string | undefined;
  for (const b of cutResultBlocks(text, source)) {
    if (b.tool === "fio") json = b.text;
    else if (b.tool === "fio-iops") iopsLog = b.text;
    else throw new ToolOutputError(source, `line ${b.line}: unexpected result block tool=${b.tool}`);
  }
  return {
    ...(start ? { start } : {}),
    ...(stopAtMs !== undefined ? { stopAtMs } : {}),
    ...(exitStatus !== undefined ? { exitStatus } : {}),
    ...(json !== undefined ? { json } : {}),
    ...(iopsLog !== undefined ? { iopsLog } : {}),
    verifyFailures,
    ioErrors,
  };
}

/** One second of the run: its number (1 = the first second after fio started) and its IOPS, all directions. */
export interface IopsSecond {
  readonly second: number;
  readonly iops: number;
}

/** A run of consecutive seconds without a completed I/O: seconds `from`..`to` (inclusive). */
export interface IoStall {
  readonly from: number;
  readonly to: number;
  readonly seconds: number;
}

export interface IopsTimeline {
  readonly seconds: readonly IopsSecond[];
  /** Every stall, in order. */
  readonly stalls: readonly IoStall[];
  /** The longest stall, seconds (0 when I/O completed every second). */
  readonly gapSeconds: number;
}

const LOG_LINE = /^(\d+), (\d+), (\d+), (\d+), (\d+)(?:, (\d+))?$/;

/**
 * The per-second IOPS of a run from fio's IOPS log and the job's runtime (`job_runtime`, ms): a
 * line at `t` ms counts for second round(t / 1000); a second with no line is a zero. The seconds
 * judged are 1 to the last whole second before the job ended (the window the job ended in is cut
 * short, and fio logs no line for it when it ends before the window does), or to the last second
 * with a line if that is later. Throws ToolOutputError naming `source` for a line that is not the
 * log's format.
 */
export function iopsTimeline(log: string, runMs: number, source: string): IopsTimeline {
  const perSecond = new Map<number, number>();
  log.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    const m = LOG_LINE.exec(line);
    if (!m)
      throw new ToolOutputError(
        source,
        `line ${i + 1}: not a fio log line (msec, value, direction, block size, offset): ${JSON.stringify(line)}`,
      );
    const second = Math.round(Number(m[1]) / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + Number(m[2]));
  });
  const last = Math.max(Math.floor(runMs / 1000) - 1, ...perSecond.keys(), 0);
  const seconds: IopsSecond[] = [];
  const stalls: IoStall[] = [];
  let open: number | undefined;
  for (let s = 1; s <= last; s++) {
    const iops = perSecond.get(s) ?? 0;
    seconds.push({ second: s, iops });
    if (iops === 0 && open === undefined) open = s;
    if (iops > 0 && open !== undefined) {
      stalls.push({ from: open, to: s - 1, seconds: s - open });
      open = undefined;
    }
  }
  if (open !== undefined) stalls.push({ from: open, to: last, seconds: last - open + 1 });
  return { seconds, stalls, gapSeconds: stalls.reduce((m, s) => Math.max(m, s.seconds), 0) };
}
