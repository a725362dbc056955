/** The readers of the writer's log and of the fio Job's log, exact values and exact errors. */
import * as fs from "node:fs";
import * as path from "node:path";
import { beginMarker, endMarker } from "../../../components/bench/collect";
import { iopsTimeline, parseFioJobLog } from "../../../lab/experiment/fio-log";
import {
  ackedIds,
  lastAckedId,
  lastId,
  listIds,
  longestOutage,
  lostIds,
  parseWriterLog,
  replicationProblems,
} from "../../../lab/experiment/writer-log";
import { FIXTURES } from "./sim";

const WRITER_LOG = [
  "writer start run=r1 host=mysql-0.mysql.mysql.svc.cluster.local interval_ms=200",
  "ack 1 1000",
  "ack 2 1200",
  "err 3 1400 ERROR 2003 (HY000): Can't connect to MySQL server on 'mysql-0:3306' (111)",
  "err 4 3400 ERROR 2013 (HY000): Lost connection to MySQL server during query",
  "ack 5 9200",
  "ack 6 9400",
  "writer stop requested 9600",
  "present-begin",
  "1",
  "2",
  "4",
  "5",
  "present-end count=4",
  "writer done",
  "",
].join("\n");

describe("parseWriterLog", () => {
  const log = parseWriterLog(WRITER_LOG, "job/w");

  test("every record", () => {
    expect(log).toEqual({
      start: { run: "r1", host: "mysql-0.mysql.mysql.svc.cluster.local", intervalMs: 200 },
      writes: [
        { id: 1, atMs: 1000, ok: true },
        { id: 2, atMs: 1200, ok: true },
        { id: 3, atMs: 1400, ok: false, message: "ERROR 2003 (HY000): Can't connect to MySQL server on 'mysql-0:3306' (111)" },
        { id: 4, atMs: 3400, ok: false, message: "ERROR 2013 (HY000): Lost connection to MySQL server during query" },
        { id: 5, atMs: 9200, ok: true },
        { id: 6, atMs: 9400, ok: true },
      ],
      stop: { reason: "requested", atMs: 9600 },
      present: [1, 2, 4, 5],
      replicas: [],
      done: true,
    });
  });

  test("acknowledged, lost (6: acknowledged, not in the table), the failed 4 that was committed anyway is no loss; the outage on the writer's clock", () => {
    expect(ackedIds(log)).toEqual([1, 2, 5, 6]);
    expect(lostIds(log)).toEqual([6]);
    expect(lastId(log)).toBe(6);
    expect(longestOutage(log)).toEqual({ fromMs: 1200, toMs: 9200, failedWrites: 2 });
  });

  test("a partial log: no present list yet, and asking for the lost ids is an error", () => {
    const partial = parseWriterLog(WRITER_LOG.split("writer stop")[0], "job/w");
    expect(partial.present).toBeUndefined();
    expect(partial.done).toBe(false);
    expect(() => lostIds(partial)).toThrow("the writer has not listed the table's ids yet");
  });

  test("malformed records and a present list that does not add up are errors naming the log and the line", () => {
    expect(() => parseWriterLog("ack one 1000\n", "job/w")).toThrow('job/w: line 1: malformed writer record: "ack one 1000"');
    expect(() => parseWriterLog("present-begin\n1\nx\n", "job/w")).toThrow('job/w: line 3: not an id inside the present list: "x"');
    expect(() => parseWriterLog("present-begin\n1\npresent-end count=2\n", "job/w")).toThrow(
      "job/w: line 3: present-end count=2, but 1 id(s) were listed",
    );
    expect(() => parseWriterLog("present-begin\n1\nwriter done\n", "job/w")).toThrow(
      'job/w: line 3: not an id inside the present list: "writer done"',
    );
  });

  test("the writer's own error, and lines that are no record", () => {
    expect(parseWriterLog("something else\nwriter error read-back failed for 300s: boom\n", "job/w")).toEqual({
      writes: [],
      replicas: [],
      error: "read-back failed for 300s: boom",
      done: false,
    });
  });

  test("listIds shortens long lists", () => {
    expect(listIds([1, 2, 3])).toBe("1, 2, 3");
    expect(listIds(Array.from({ length: 25 }, (_v, i) => i + 1))).toBe(
      "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, … (5 more)",
    );
  });
});

describe("the replicas' reports", () => {
  const R1 = "mysql-1.mysql.mysql.svc.cluster.local";
  const R2 = "mysql-2.mysql.mysql.svc.cluster.local";
  const status = (io: string, sql: string, ioErrno = "0", ioError = "", sqlErrno = "0", sqlError = "") => [
    "replica-status Replica_IO_State: Waiting for source to send event",
    "replica-status Source_Host: mysql-0.mysql.mysql.svc.cluster.local",
    `replica-status Replica_IO_Running: ${io}`,
    `replica-status Replica_SQL_Running: ${sql}`,
    `replica-status Last_IO_Errno: ${ioErrno}`,
    `replica-status Last_IO_Error: ${ioError}`,
    `replica-status Last_SQL_Errno: ${sqlErrno}`,
    `replica-status Last_SQL_Error: ${sqlError}`,
  ];
  const withReplicas = (...blocks: string[][]) =>
    parseWriterLog([...WRITER_LOG.split("writer done")[0].trimEnd().split("\n"), ...blocks.flat(), "writer done", ""].join("\n"), "job/w");
  const block = (host: string, lines: string[]) => [`replica-begin ${host}`, ...lines, `replica-end ${host}`];

  test("parsed: the highest id, every status field (trimmed), the errors", () => {
    const log = withReplicas(
      block(R1, ["replica-max 6", ...status("Yes", "Yes")]),
      block(R2, ["replica-error ERROR 2005 (HY000): Unknown MySQL server host 'mysql-2' (-2)"]),
    );
    expect(log.replicas).toEqual([
      {
        host: R1,
        maxId: 6,
        status: {
          Replica_IO_State: "Waiting for source to send event",
          Source_Host: "mysql-0.mysql.mysql.svc.cluster.local",
          Replica_IO_Running: "Yes",
          Replica_SQL_Running: "Yes",
          Last_IO_Errno: "0",
          Last_IO_Error: "",
          Last_SQL_Errno: "0",
          Last_SQL_Error: "",
        },
        errors: [],
      },
      { host: R2, status: {}, errors: ["ERROR 2005 (HY000): Unknown MySQL server host 'mysql-2' (-2)"] },
    ]);
    expect(log.done).toBe(true);
  });

  test("judged against the last acknowledged id: each way a replica can fail, one line each", () => {
    const ok = block(R1, ["replica-max 6", ...status("Yes", "Yes")]);
    expect(lastAckedId(withReplicas())).toBe(6);
    expect(replicationProblems(withReplicas(ok, block(R2, ["replica-max 7", ...status("Yes", "Yes")])), [R1, R2], 6)).toEqual([]);
    const judge = (lines: string[]) => replicationProblems(withReplicas(ok, block(R2, lines)), [R1, R2], 6);
    expect(
      judge([
        "replica-max 2",
        ...status("No", "Yes", "2005", "error connecting to source 'root@mysql-0:3306' - retry-time: 10 retries: 8640"),
      ]),
    ).toEqual([
      `${R2}: I/O thread not running: Replica_IO_Running: No (Last_IO_Errno 2005: error connecting to source 'root@mysql-0:3306' - retry-time: 10 retries: 8640); behind: holds ids up to 2, the last acknowledged is 6`,
    ]);
    expect(judge(["replica-max 6", ...status("Connecting", "Yes")])).toEqual([
      `${R2}: I/O thread not running: Replica_IO_Running: Connecting`,
    ]);
    expect(judge(["replica-max 6", ...status("Yes", "No", "0", "", "1062", "Duplicate entry 'r1-5' for key 'writes.PRIMARY'")])).toEqual([
      `${R2}: SQL thread not running: Replica_SQL_Running: No (Last_SQL_Errno 1062: Duplicate entry 'r1-5' for key 'writes.PRIMARY')`,
    ]);
    expect(judge(["replica-max 6", ...status("Yes", "Yes", "2013", "Lost connection")])).toEqual([
      `${R2}: I/O thread running with an error (Last_IO_Errno 2013: Lost connection)`,
    ]);
    expect(judge(["replica-max 5", ...status("Yes", "Yes")])).toEqual([`${R2}: behind: holds ids up to 5, the last acknowledged is 6`]);
    expect(judge(["replica-max 6"])).toEqual([`${R2}: no replication configured (SHOW REPLICA STATUS returned no row)`]);
    expect(judge(["replica-error ERROR 1146 (42S02): Table 'lab_failover.writes' doesn't exist", ...status("Yes", "Yes")])).toEqual([
      `${R2}: ERROR 1146 (42S02): Table 'lab_failover.writes' doesn't exist`,
    ]);
    expect(
      judge(["replica-error ERROR 2005 (HY000): Unknown MySQL server host", "replica-error ERROR 2005 (HY000): Unknown MySQL server host"]),
    ).toEqual([`${R2}: ERROR 2005 (HY000): Unknown MySQL server host; ERROR 2005 (HY000): Unknown MySQL server host`]);
    expect(replicationProblems(withReplicas(ok), [R1, R2], 6)).toEqual([`${R2}: not checked (the writer printed no report of it)`]);
  });

  test("malformed reports are errors naming the log and the line", () => {
    expect(() => withReplicas(["replica-begin a", "replica-max x", "replica-end a"])).toThrow(
      'job/w: line 16: not a replica record inside the report of a: "replica-max x"',
    );
    expect(() => withReplicas(["replica-begin a", "replica-end b"])).toThrow("job/w: line 16: replica-end b closes the report of a");
    expect(() => withReplicas(["replica-max 3"])).toThrow('job/w: line 15: malformed writer record: "replica-max 3"');
    expect(() => withReplicas(["replica-begin a", "writer done"])).toThrow(
      'job/w: line 16: not a replica record inside the report of a: "writer done"',
    );
  });
});

describe("parseFioJobLog", () => {
  const json = fs.readFileSync(path.join(FIXTURES, "failover-fio-verify-failed.json"), "utf8");
  const stderr = fs.readFileSync(path.join(FIXTURES, "failover-fio-verify-failed.stderr"), "utf8");
  const log = [
    "fio-start 1000 version=3.33",
    "2026-01-15T10:00:00Z [lab] fio 3.33: /opt/lab/failover.fio, size 4G, at most 3600s, file /data/fio/failover.dat",
    stderr.trimEnd(),
    beginMarker("fio", 1, { version: "3.33" }),
    json.trimEnd(),
    endMarker("fio", 1),
    beginMarker("fio-iops", 1),
    "1000, 100, 1, 0, 0",
    endMarker("fio-iops", 1),
    "fio: io_u error on file /data/fio/failover.dat: Input/output error: write offset=4096, buflen=4096",
    "fio-exit 1",
    "",
  ].join("\n");

  test("the script's records, fio's JSON and IOPS log, the verify failure and the I/O error lines", () => {
    const r = parseFioJobLog(log, "job/f");
    expect({ ...r, json: r.json === `${json.trimEnd()}\n` }).toEqual({
      start: { atMs: 1000, version: "3.33" },
      exitStatus: 1,
      json: true,
      iopsLog: "1000, 100, 1, 0, 0\n",
      verifyFailures: [
        "verify: bad magic header eec5, wanted acca at file /tmp/fcap/data offset 11485184, length 4096 (requested block: offset=11485184, length=4096)",
      ],
      ioErrors: ["fio: io_u error on file /data/fio/failover.dat: Input/output error: write offset=4096, buflen=4096"],
    });
  });

  test("fio's other verify messages (fio-3.33 verify.c) are verify failures", () => {
    const r = parseFioJobLog(
      [
        "crc32c: verify failed at file /data/fio/failover.dat offset 8192, length 4096 (requested block: offset=8192, length=4096, flags=88)",
        "verify: bad header offset 1, wanted 2 at file /data/fio/failover.dat offset 2, length 4096",
        "fio: verify type mismatch (3 media, 5 given)",
        "fio: got pattern 'aa', wanted 'bb'. Bad bits 4",
        "",
      ].join("\n"),
      "job/f",
    );
    expect(r.verifyFailures.length).toBe(4);
  });

  test("an unknown result block is an error", () => {
    expect(() => parseFioJobLog(`${beginMarker("ioping", 1)}\nx\n${endMarker("ioping", 1)}\n`, "job/f")).toThrow(
      "job/f: line 1: unexpected result block tool=ioping",
    );
  });
});

describe("iopsTimeline", () => {
  test("fio's real per-second log of a clean run: no gap", () => {
    // fio 3.33, failover.fio, 6 s on a local file (the run of fixtures/failover-fio-ok.json).
    const log =
      "1000, 49275, 1, 0, 0\n2000, 51408, 1, 0, 0\n3000, 42873, 1, 0, 0\n4000, 42905, 1, 0, 0\n5000, 33792, 1, 0, 0\n6000, 31666, 1, 0, 0\n";
    expect(iopsTimeline(log, 6000, "iops")).toEqual({
      seconds: [
        { second: 1, iops: 49275 },
        { second: 2, iops: 51408 },
        { second: 3, iops: 42873 },
        { second: 4, iops: 42905 },
        { second: 5, iops: 33792 },
        { second: 6, iops: 31666 },
      ],
      stalls: [],
      gapSeconds: 0,
    });
  });

  test("fio's real log around seconds with no I/O (thinktime=2500ms after 20000 blocks): the missing line is the zero second", () => {
    // `fio … --thinktime=2500ms --thinktime_blocks=20000 failover.fio`, FIO_RUNTIME=7: no line at 2000 ms.
    const log = "1000, 10240, 1, 0, 0\n3001, 6150, 1, 0, 0\n4000, 4100, 1, 0, 0\n6000, 9848, 1, 0, 0\n";
    expect(iopsTimeline(log, 7000, "iops")).toEqual({
      seconds: [
        { second: 1, iops: 10240 },
        { second: 2, iops: 0 },
        { second: 3, iops: 6150 },
        { second: 4, iops: 4100 },
        { second: 5, iops: 0 },
        { second: 6, iops: 9848 },
      ],
      stalls: [
        { from: 2, to: 2, seconds: 1 },
        { from: 5, to: 5, seconds: 1 },
      ],
      gapSeconds: 1,
    });
  });

  test("directions add up; a stall up to the end counts; the second the job ended in is not judged", () => {
    const log = "1000, 100, 0, 0, 0\n1000, 300, 1, 0, 0\n2000, 50, 1, 0, 0, 0\n";
    expect(iopsTimeline(log, 5500, "iops")).toEqual({
      seconds: [
        { second: 1, iops: 400 },
        { second: 2, iops: 50 },
        { second: 3, iops: 0 },
        { second: 4, iops: 0 },
      ],
      stalls: [{ from: 3, to: 4, seconds: 2 }],
      gapSeconds: 2,
    });
  });

  test("a line that is not the log's format is an error naming the log and the line", () => {
    expect(() => iopsTimeline("1000, 1, 1, 0, 0\nnope\n", 2000, "job/f (IOPS log)")).toThrow(
      'job/f (IOPS log): line 2: not a fio log line (msec, value, direction, block size, offset): "nope"',
    );
  });
});
