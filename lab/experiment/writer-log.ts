/**
 * Reads the MySQL writer's log (the records lab/experiment/scripts/mysql-writer.sh prints, one a
 * line) and judges it: which ids were acknowledged, which failed, which the table holds after the
 * failover, the write outage as the writer saw it, and whether every replica still replicates. Pure.
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

/** What the writer saw of one replica at the end (`replica-begin` … `replica-end`). */
export interface ReplicaReport {
  readonly host: string;
  /** The highest id of the run it holds; undefined when the query failed. */
  readonly maxId?: number;
  /** Its SHOW REPLICA STATUS fields (empty: no row, it is not a replica). */
  readonly status: Readonly<Record<string, string>>;
  /** The client's errors. */
  readonly errors: readonly string[];
}

export interface WriterLog {
  readonly start?: { readonly run: string; readonly host: string; readonly intervalMs: number };
  /** Every write, in order. */
  readonly writes: readonly WriterWrite[];
  readonly stop?: { readonly reason: string; readonly atMs: number };
  /** Every id of the run the table held at the end, ascending; undefined before `present-end`. */
  readonly present?: readonly number[];
  /** The replicas' reports, complete ones only, in the writer's order. */
  readonly replicas: readonly ReplicaReport[];
  /** The writer's own error (`writer error …`): setup, read-back or a refused run id. */
  readonly error?: string;
  readonly done: boolean;
}

const START = /^writer start run=(\S+) host=(\S+) interval_ms=(\d+)$/;
const ACK = /^ack (\d+) (\d+)$/;
const ERR = /^err (\d+) (\d+) (.*)$/;
const STOP = /^writer stop (\S+) (\d+)$/;
const PRESENT_END = /^present-end count=(\d+)$/;
const REPLICA_BEGIN = /^replica-begin (\S+)$/;
const REPLICA_END = /^replica-end (\S+)$/;
const REPLICA_MAX = /^replica-max (\d+)$/;
const REPLICA_STATUS = /^replica-status ([A-Za-z_]+): ?(.*)$/;
const REPLICA_ERROR = /^replica-error (.+)$/;

export function parseWriterLog(text: string, source: string): WriterLog {
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  let start: WriterLog["start"];
  const writes: WriterWrite[] = [];
  let stop: WriterLog["stop"];
  let present: number[] | undefined;
  let reading: number[] | undefined;
  let error: string | undefined;
  let done = false;
  const replicas: ReplicaReport[] = [];
  let replica: { host: string; maxId?: number; status: Record<string, string>; errors: string[] } | undefined;
  lines.forEach((line, i) => {
    const where = `line ${i + 1}`;
    if (replica !== undefined) {
      let r: RegExpExecArray | null;
      if ((r = REPLICA_END.exec(line))) {
        if (r[1] !== replica.host) throw new ToolOutputError(source, `${where}: replica-end ${r[1]} closes the report of ${replica.host}`);
        replicas.push(replica);
        replica = undefined;
      } else if ((r = REPLICA_MAX.exec(line))) replica.maxId = Number(r[1]);
      else if ((r = REPLICA_STATUS.exec(line))) replica.status[r[1]] = r[2].trim();
      else if ((r = REPLICA_ERROR.exec(line))) replica.errors.push(r[1]);
      else
        throw new ToolOutputError(source, `${where}: not a replica record inside the report of ${replica.host}: ${JSON.stringify(line)}`);
      return;
    }
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
    else if ((m = REPLICA_BEGIN.exec(line))) replica = { host: m[1], status: {}, errors: [] };
    else if (line === "writer done") done = true;
    else if (line.startsWith("writer error ")) error = line.slice("writer error ".length);
    else if (/^(ack|err|writer|present|replica-)/.test(line))
      throw new ToolOutputError(source, `${where}: malformed writer record: ${JSON.stringify(line)}`);
  });
  return {
    ...(start ? { start } : {}),
    writes,
    ...(stop ? { stop } : {}),
    ...(present ? { present } : {}),
    replicas,
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

/** The id of the last acknowledged write, 0 before the first. */
export function lastAckedId(log: WriterLog): number {
  return ackedIds(log).reduce((m, id) => Math.max(m, id), 0);
}

/**
 * Why each replica in `hosts` does not replicate, one line a replica (empty: all replicate): no
 * report, a failed query, no replication configured, an I/O or SQL thread not running
 * (`Replica_IO_Running`/`Replica_SQL_Running` other than Yes), an error (`Last_IO_Errno`,
 * `Last_SQL_Errno` other than 0), or not caught up with `lastAcked` (the writer's last acknowledged id).
 */
export function replicationProblems(log: WriterLog, hosts: readonly string[], lastAcked: number): string[] {
  const out: string[] = [];
  for (const host of hosts) {
    const r = log.replicas.find((x) => x.host === host);
    if (r === undefined) {
      out.push(`${host}: not checked (the writer printed no report of it)`);
      continue;
    }
    const why: string[] = [...r.errors];
    const s = r.status;
    if (r.errors.length === 0 || Object.keys(s).length > 0) {
      if (Object.keys(s).length === 0) why.push("no replication configured (SHOW REPLICA STATUS returned no row)");
      else {
        for (const [thread, running, errno, error] of [
          ["I/O", "Replica_IO_Running", "Last_IO_Errno", "Last_IO_Error"],
          ["SQL", "Replica_SQL_Running", "Last_SQL_Errno", "Last_SQL_Error"],
        ]) {
          const err = s[errno] !== undefined && s[errno] !== "0" ? ` (${errno} ${s[errno]}: ${s[error] ?? ""})` : "";
          if (s[running] !== "Yes") why.push(`${thread} thread not running: ${running}: ${s[running] ?? "missing"}${err}`);
          else if (err !== "") why.push(`${thread} thread running with an error${err}`);
        }
      }
    }
    if (r.maxId !== undefined && r.maxId < lastAcked) why.push(`behind: holds ids up to ${r.maxId}, the last acknowledged is ${lastAcked}`);
    if (why.length > 0) out.push(`${host}: ${why.join("; ")}`);
  }
  return out;
}
