/**
 * Reads the MySQL writer's log (the records lab/experiment/scripts/mysql-writer.sh prints, one a
 * line) and judges it: which ids were acknowledged, which failed, which the table holds after the
 * failover, and the write outage as the writer saw it. Pure.
 *
 * A log read while the writer runs is partial: `present` is undefined until the writer has printed
 * `present-end`. A known record that is malformed is a ToolOutputError naming the log and the line;
 * a line that is no record is ignored (nothing else writes to the container's stdout).
 */
import { ToolOutputError } from "../../core/errors";

export interface WriterWrite {
  readonly id: number;
  /** The writer's clock, ms since the epoch. */
  readonly atMs: number;
  readonly ok: boolean;
  /** The client's error, for a failed write. */
  readonly message?: string;
}

export interface WriterLog {
  readonly start?: { readonly run: string; readonly host: string; readonly intervalMs: number };
  /** Every write, in order. */
  readonly writes: readonly WriterWrite[];
  readonly stop?: { readonly reason: string; readonly atMs: number };
  /** Every id of the run the table held at the end, ascending; undefined before `present-end`. */
  readonly present?: readonly number[];
  /** The writer's own error (`writer error …`): setup, read-back or a refused run id. */
  readonly error?: string;
  readonly done: boolean;
}

const START = /^writer start run=(\S+) host=(\S+) interval_ms=(\d+)$/;
const ACK = /^ack (\d+) (\d+)$/;
const ERR = /^err (\d+) (\d+) (.*)$/;
const STOP = /^writer stop (\S+) (\d+)$/;
const PRESENT_END = /^present-end count=(\d+)$/;

export function parseWriterLog(text: string, source: string): WriterLog {
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  let start: WriterLog["start"];
  const writes: WriterWrite[] = [];
  let stop: WriterLog["stop"];
  let present: number[] | undefined;
  let reading: number[] | undefined;
  let error: string | undefined;
  let done = false;
  lines.forEach((line, i) => {
    const where = `line ${i + 1}`;
    if (reading !== undefined) {
      const end = PRESENT_END.exec(line);
      if (end) {
        if (Number(end[1]) !== reading.length) {
          throw new ToolOutputError(source, `${where}: present-end count=${end[1]}, but ${reading.length} id(s) were listed`);
        }
        present = reading;
        reading = undefined;
      } else if (/^\d+$/.test(line)) reading.push(Number(line));
      else throw new ToolOutputError(source, `${where}: not an id inside the present list: ${JSON.stringify(line)}`);
      return;
    }
    let m: RegExpExecArray | null;
    if ((m = START.exec(line))) start = { run: m[1], host: m[2], intervalMs: Number(m[3]) };
    else if ((m = ACK.exec(line))) writes.push({ id: Number(m[1]), atMs: Number(m[2]), ok: true });
    else if ((m = ERR.exec(line))) writes.push({ id: Number(m[1]), atMs: Number(m[2]), ok: false, message: m[3] });
    else if ((m = STOP.exec(line))) stop = { reason: m[1], atMs: Number(m[2]) };
    else if (line === "present-begin") reading = [];
    else if (line === "writer done") done = true;
    else if (line.startsWith("writer error ")) error = line.slice("writer error ".length);
    else if (/^(ack|err|writer|present)\b/.test(line))
      throw new ToolOutputError(source, `${where}: malformed writer record: ${JSON.stringify(line)}`);
  });
  return {
    ...(start ? { start } : {}),
    writes,
    ...(stop ? { stop } : {}),
    ...(present ? { present } : {}),
    ...(error ? { error } : {}),
    done,
  };
}

/** The ids whose INSERT was acknowledged, ascending. */
export function ackedIds(log: WriterLog): number[] {
  return log.writes.filter((w) => w.ok).map((w) => w.id);
}

/** The highest id written (acknowledged or not), 0 before the first write. */
export function lastId(log: WriterLog): number {
  return log.writes.reduce((m, w) => Math.max(m, w.id), 0);
}

/** Acknowledged ids the table does not hold, ascending. */
export function lostIds(log: WriterLog): number[] {
  if (log.present === undefined) throw new Error("the writer has not listed the table's ids yet");
  const present = new Set(log.present);
  return ackedIds(log).filter((id) => !present.has(id));
}

/**
 * The longest time without an acknowledged write, on the writer's clock: from the last
 * acknowledged write before it to the first one after it, with the failed writes in between.
 * Undefined with fewer than two acknowledged writes.
 */
export function longestOutage(log: WriterLog): { fromMs: number; toMs: number; failedWrites: number } | undefined {
  let best: { fromMs: number; toMs: number; failedWrites: number } | undefined;
  let lastAck: number | undefined;
  let failed = 0;
  for (const w of log.writes) {
    if (!w.ok) {
      failed++;
      continue;
    }
    if (lastAck !== undefined && (best === undefined || w.atMs - lastAck > best.toMs - best.fromMs)) {
      best = { fromMs: lastAck, toMs: w.atMs, failedWrites: failed };
    }
    lastAck = w.atMs;
    failed = 0;
  }
  return best;
}

/** "17, 18, 19" for up to `max` ids, then "… (N more)". */
export function listIds(ids: readonly number[], max = 20): string {
  const shown = ids.slice(0, max).join(", ");
  return ids.length > max ? `${shown}, … (${ids.length - max} more)` : shown;
}
