/**
 * The experiments' in-cluster scripts, run for real on this machine:
 * - shellcheck on both;
 * - fio-failover.sh with the real fio 3.33 (the tools image's version) and the real failover.fio
 *   job file on a local file for a few seconds: stopped through the annotations file (fio's
 *   --trigger-file), by its runtime, and while its file is being corrupted (a real verify failure);
 *   its output cut by lab/experiment/fio-log.ts and parsed by core/parsers/fio;
 * - mysql-writer.sh against a stand-in `mysql` client that keeps the table in files and can be
 *   made unreachable: the records it prints, the outage, the stop, the read-back, the refusal of a
 *   used run id, and that the password never reaches a command line.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { BENCH_SCRIPTS_DIR } from "../../../components/bench/scripts";
import { parseFio } from "../../../core/parsers/fio";
import { iopsTimeline, parseFioJobLog } from "../../../lab/experiment/fio-log";
import { EXPERIMENT_SCRIPTS_DIR } from "../../../lab/experiment/scripts";
import { ackedIds, lastAckedId, lostIds, parseWriterLog, replicationProblems } from "../../../lab/experiment/writer-log";
import { removeTmpDirs, tmpDir } from "./support";

afterAll(removeTmpDirs);

const WRITER = path.join(EXPERIMENT_SCRIPTS_DIR, "mysql-writer.sh");
const FIO_SCRIPT = path.join(EXPERIMENT_SCRIPTS_DIR, "fio-failover.sh");
const JOB_FILE = path.join(EXPERIMENT_SCRIPTS_DIR, "failover.fio");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a command in the background, collecting its output. */
function start(cmd: string, args: string[], env: Record<string, string>, cwd: string) {
  const child = spawn(cmd, args, { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, cwd });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (d: string) => (stdout += d));
  child.stderr.on("data", (d: string) => (stderr += d));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (status) => resolve({ status, stdout, stderr })),
  );
  return { child, done, out: () => stdout };
}

async function until(what: string, cond: () => boolean, timeoutMs = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe("shellcheck", () => {
  test.each([
    ["bash", WRITER],
    ["sh", FIO_SCRIPT],
  ])("%s %s", (shell, file) => {
    const r = spawnSync("shellcheck", ["-s", shell, "-x", file], { encoding: "utf8", cwd: "/" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("fio-failover.sh with the real fio and failover.fio", () => {
  const setup = () => {
    const dir = tmpDir("lab-fio-failover-");
    fs.mkdirSync(path.join(dir, "data"));
    const annotations = path.join(dir, "annotations");
    fs.writeFileSync(annotations, 'kubernetes.io/config.seen="2026-01-15T10:00:00Z"');
    const env = {
      LAB_LIB: path.join(BENCH_SCRIPTS_DIR, "lib.sh"),
      FIO_DIR: path.join(dir, "data"),
      FIO_JOBFILE: JOB_FILE,
      FIO_SIZE: "16M",
      LAB_STOP_FILE: annotations,
      TMPDIR: dir,
    };
    return { dir, annotations, env };
  };

  test("stopped through the annotation: fio ends at once, prints its JSON and IOPS log, exit 0; the parser reads them", async () => {
    const s = setup();
    const p = start("sh", [FIO_SCRIPT], { ...s.env, FIO_MAX_RUNTIME: "60" }, s.dir);
    await until("fio-start", () => p.out().includes("fio-start "));
    await sleep(3_500);
    // The kubelet's format: one key="value" a line (pkg/fieldpath FormatMap).
    fs.writeFileSync(s.annotations, 'kubernetes.io/config.seen="2026-01-15T10:00:00Z"\nlab/stop="true"');
    const r = await p.done;
    // fio's own complaints would be "fio: …" lines on stderr: none, and exit 0.
    expect([r.status, r.stderr.split("\n").filter((l) => l.startsWith("fio"))]).toEqual([0, []]);
    const log = parseFioJobLog(r.stdout + r.stderr, "fio-failover.sh");
    expect(log.exitStatus).toBe(0);
    expect(log.start?.version).toBe("3.33");
    expect(log.stopAtMs! - log.start!.atMs).toBeGreaterThanOrEqual(3_500);
    expect(log.verifyFailures).toEqual([]);
    expect(log.ioErrors).toEqual([]);
    const samples = parseFio(log.json!, "fio.json");
    const byMetric = Object.fromEntries(samples.map((x) => [x.metric, x]));
    expect(byMetric["fio.error"].value).toBe(0);
    expect(byMetric["fio.write.iops"].value).toBeGreaterThan(0);
    // The verify reads of verify_backlog: fio reads back each 1024 blocks once they are written, so a
    // run that wrote fewer than 1024 (a slow disk under a busy machine) read none yet; one stopped just
    // after a batch may not have read it back either (seen on a busy CI machine), so the reads are
    // held to what fio counted: read IOPS exactly when it read.
    const ios = (JSON.parse(log.json!) as { jobs: Array<{ write: { total_ios: number }; read: { total_ios: number } }> }).jobs[0];
    if (ios.write.total_ios < 1024) expect(ios.read.total_ios).toBe(0);
    if (ios.read.total_ios > 0) expect(byMetric["fio.read.iops"].value).toBeGreaterThan(0);
    else expect(byMetric["fio.read.iops"]).toBeUndefined(); // no I/O in a direction: no sample (core/parsers/fio.ts)
    expect(ios.read.total_ios).toBeLessThanOrEqual(ios.write.total_ios);
    expect(byMetric["fio.write.iops"].metadata).toMatchObject({
      verify: "crc32c",
      do_verify: 1,
      verify_fatal: 1,
      verify_backlog: 1024,
      rw: "randwrite",
      bs: "4k",
      time_based: 1,
    });
    // Stopped after ~3.5 s, well before the 60 s runtime. Every line of fio's IOPS log is the second
    // round(msec / 1000) of the timeline; the seconds judged run to the last whole one.
    const runMs = (JSON.parse(log.json!) as { jobs: Array<{ job_runtime: number }> }).jobs[0].job_runtime;
    expect(runMs).toBeLessThan(30_000);
    const lines = log
      .iopsLog!.trim()
      .split("\n")
      .map((l) => l.split(", ").map(Number));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((l) => l.length === 5 && l[1] > 0 && l[2] === 1)).toBe(true);
    const tl = iopsTimeline(log.iopsLog!, runMs, "iops log");
    for (const [msec, iops] of lines) expect(tl.seconds[Math.round(msec / 1000) - 1].iops).toBe(iops);
    expect(tl.seconds.length).toBe(Math.max(Math.floor(runMs / 1000) - 1, ...lines.map(([msec]) => Math.round(msec / 1000))));
    // fio's trigger left its verify state file in the script's private working directory, not in the volume.
    expect(fs.readdirSync(path.join(s.dir, "data"))).toEqual(["failover.dat"]);
  });

  test("not stopped: fio ends by its runtime (FIO_MAX_RUNTIME), with no stop record", async () => {
    const s = setup();
    const r = await start("sh", [FIO_SCRIPT], { ...s.env, FIO_MAX_RUNTIME: "2" }, s.dir).done;
    expect([r.status, r.stderr.split("\n").filter((l) => l.startsWith("fio"))]).toEqual([0, []]);
    const log = parseFioJobLog(r.stdout, "fio-failover.sh");
    expect([log.exitStatus, log.stopAtMs]).toEqual([0, undefined]);
    const runMs = (JSON.parse(log.json!) as { jobs: Array<{ job_runtime: number }> }).jobs[0].job_runtime;
    // runtime=2: two seconds of writes (a loaded machine may stop it a few ms late).
    expect(runMs).toBeGreaterThanOrEqual(2_000);
    expect(runMs).toBeLessThan(2_500);
    expect(parseFio(log.json!, "fio.json").find((x) => x.metric === "fio.error")!.value).toBe(0);
  });

  test("its file corrupted under it: a real verify failure, error 84, exit 1, the block named on stderr", async () => {
    const s = setup();
    const p = start("sh", [FIO_SCRIPT], { ...s.env, FIO_MAX_RUNTIME: "20" }, s.dir);
    const file = path.join(s.env.FIO_DIR, "failover.dat");
    await until("fio-start", () => p.out().includes("fio-start "));
    await until("the file", () => fs.existsSync(file) && fs.statSync(file).size === 16 * 1024 * 1024);
    let ended = false;
    void p.done.then(() => (ended = true));
    // Overwrite 256 KiB stretches with random bytes, with O_DIRECT like fio (buffered writes racing
    // fio's direct I/O would make the kernel report EIO instead of leaving wrong data to verify).
    for (let i = 0; i < 400 && !ended; i++) {
      spawnSync(
        "dd",
        ["if=/dev/urandom", `of=${file}`, "bs=4096", "count=64", `seek=${((i * 37) % 60) * 64}`, "conv=notrunc", "oflag=direct"],
        { stdio: "ignore" },
      );
      await sleep(20);
    }
    const r = await p.done;
    expect(r.status).toBe(1);
    const log = parseFioJobLog(r.stdout + r.stderr, "fio-failover.sh");
    expect(log.exitStatus).toBe(1);
    expect(log.verifyFailures.length).toBeGreaterThanOrEqual(1);
    expect(log.verifyFailures[0]).toMatch(
      /^(verify: bad (magic header|header \w+) .* at file |crc32c: verify failed at file ).*failover\.dat offset \d+, length 4096/,
    );
    const err = parseFio(log.json!, "fio.json").find((x) => x.metric === "fio.error")!;
    expect([err.value, err.metadata.errno]).toEqual([1, 84]);
  });
});

describe("mysql-writer.sh against a stand-in mysql client", () => {
  /**
   * The stand-in keeps the table as files in $DB (one file per id of the run), refuses every call
   * while $DB/down exists (the client's "can't connect" error on stderr, exit 1), and records its
   * arguments and the option file it was given. Called with --host (a replica), it answers from
   * $DB/replicas/<host>: SHOW REPLICA STATUS in the client's --vertical (\\G) format, the highest id.
   */
  const STUB = `#!/bin/bash
args="$*"
printf '%s\\n' "\${args//$'\\n'/ }" >> "$DB/calls"
cnf=\${1#--defaults-extra-file=}
cp "$cnf" "$DB/cnf-seen"
sql=\${!#}
host=""
for a in "$@"; do case $a in --host=*) host=\${a#--host=} ;; esac; done
if [[ -n $host ]]; then
  # A replica: $DB/replicas/<host>/ holds its SHOW REPLICA STATUS (status), the highest id it has
  # (max, else every row of the source), its delay (lag: how many more queries it stays at max).
  r="$DB/replicas/$host"
  n=$(( $(cat "$r/queries" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$r/queries"
  if [[ -e $r/down ]]; then
    echo "ERROR 2005 (HY000): Unknown MySQL server host '$host' (-2)" >&2
    exit 1
  fi
  case $sql in
    "SHOW REPLICA STATUS") cat "$r/status" ;;
    *"MAX(id)"*)
      if [[ -e $r/max ]] && (( n <= $(cat "$r/lag" 2>/dev/null || echo 1000000) )); then cat "$r/max"
      else ls "$DB/rows" | sort -n | tail -1; fi ;;
    *) echo "unexpected: $sql" >&2; exit 1 ;;
  esac
  exit 0
fi
if [[ -e $DB/down ]]; then
  echo "ERROR 2003 (HY000): Can't connect to MySQL server on 'mysql-0.mysql.mysql.svc.cluster.local:3306' (111)" >&2
  exit 1
fi
case $sql in
  *"CREATE DATABASE"*) ls "$DB/rows" | wc -l ;;
  *"INSERT INTO"*) id=\${sql##*, }; id=\${id%%)*}; touch "$DB/rows/$id" ;;
  *"SELECT id"*) ls "$DB/rows" | sort -n ;;
  *) echo "unexpected: $sql" >&2; exit 1 ;;
esac
`;
  const setup = () => {
    const dir = tmpDir("lab-writer-");
    const db = path.join(dir, "db");
    fs.mkdirSync(path.join(db, "rows"), { recursive: true });
    const bin = path.join(dir, "mysql");
    fs.writeFileSync(bin, STUB, { mode: 0o755 });
    const annotations = path.join(dir, "annotations");
    fs.writeFileSync(annotations, "");
    const env = {
      DB: db,
      MYSQL_BIN: bin,
      LAB_MYSQL_HOST: "mysql-0.mysql.mysql.svc.cluster.local",
      LAB_MYSQL_USER: "lab_writer",
      LAB_MYSQL_PASSWORD: "Pw0rdOfThirtyTwoLettersAndDigits",
      LAB_RUN_ID: "r1",
      LAB_INTERVAL_MS: "50",
      LAB_MAX_SECONDS: "60",
      LAB_STOP_FILE: annotations,
      LAB_READBACK_SECONDS: "10",
      TMPDIR: dir,
    };
    return { dir, db, annotations, env };
  };

  test("acks while the source answers, errors while it does not, stops on the annotation, lists every row; nothing lost", async () => {
    const s = setup();
    const p = start("bash", [WRITER], s.env, s.dir);
    await until("5 acks", () => (p.out().match(/^ack /gm) ?? []).length >= 5);
    fs.writeFileSync(path.join(s.db, "down"), "");
    await until("3 errors", () => (p.out().match(/^err /gm) ?? []).length >= 3);
    fs.rmSync(path.join(s.db, "down"));
    const acksBefore = (p.out().match(/^ack /gm) ?? []).length;
    await until("acks again", () => (p.out().match(/^ack /gm) ?? []).length >= acksBefore + 3);
    fs.writeFileSync(s.annotations, 'other="x"\nlab/stop="true"');
    const r = await p.done;
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    const log = parseWriterLog(r.stdout, "writer");
    expect(log.start).toEqual({ run: "r1", host: "mysql-0.mysql.mysql.svc.cluster.local", intervalMs: 50 });
    expect(log.stop?.reason).toBe("requested");
    expect(log.done).toBe(true);
    const failed = log.writes.filter((w) => !w.ok);
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(new Set(failed.map((w) => w.message))).toEqual(
      new Set(["ERROR 2003 (HY000): Can't connect to MySQL server on 'mysql-0.mysql.mysql.svc.cluster.local:3306' (111)"]),
    );
    // ids are 1, 2, 3, … in order, each written once.
    expect(log.writes.map((w) => w.id)).toEqual(log.writes.map((_w, i) => i + 1));
    expect(log.present).toEqual(ackedIds(log));
    expect(lostIds(log)).toEqual([]);
    // The password is in the option file only (mode 0600), the option file comes first, and the client runs in batch mode without column names.
    const calls = fs.readFileSync(path.join(s.db, "calls"), "utf8").trim().split("\n");
    expect(calls.every((c) => /^--defaults-extra-file=\S+ --connect-timeout=5 --batch --skip-column-names -e /.test(c))).toBe(true);
    expect(calls.some((c) => c.includes("Pw0rd"))).toBe(false);
    expect(fs.readFileSync(path.join(s.db, "cnf-seen"), "utf8")).toBe(
      "[client]\nuser=lab_writer\npassword=Pw0rdOfThirtyTwoLettersAndDigits\nhost=mysql-0.mysql.mysql.svc.cluster.local\nport=3306\n",
    );
    expect(calls[0]).toContain("CREATE TABLE IF NOT EXISTS lab_failover.writes (run_id VARCHAR(64) NOT NULL, id BIGINT NOT NULL");
    expect(calls[1]).toMatch(/-e INSERT INTO lab_failover\.writes \(run_id, id\) VALUES \('r1', 1\);$/);
    expect(calls[calls.length - 1]).toMatch(/-e SELECT id FROM lab_failover\.writes WHERE run_id = 'r1' ORDER BY id;$/);
    // The option file is removed on exit.
    expect(fs.readdirSync(s.dir).filter((f) => f.startsWith("lab-writer."))).toEqual([]);
  });

  /**
   * SHOW REPLICA STATUS as \\G prints it: one "Field: value" a line, labels right-aligned (the
   * fields and their order are MySQL 8.4's, Reference Manual 15.7.7.35; written here in that
   * format, not captured from a server: no MySQL 8.4 runs on this machine).
   */
  const replicaStatus = (io: string, ioErrno: number, ioError: string) =>
    [
      ["Replica_IO_State", io === "Yes" ? "Waiting for source to send event" : ""],
      ["Source_Host", "mysql-0.mysql.mysql.svc.cluster.local"],
      ["Source_User", "root"],
      ["Source_Port", "3306"],
      ["Connect_Retry", "10"],
      ["Source_Log_File", "binlog.000003"],
      ["Read_Source_Log_Pos", "48213"],
      ["Relay_Log_File", "mysql-1-relay-bin.000002"],
      ["Relay_Log_Pos", "31877"],
      ["Relay_Source_Log_File", "binlog.000003"],
      ["Replica_IO_Running", io],
      ["Replica_SQL_Running", "Yes"],
      ["Replicate_Do_DB", ""],
      ["Last_Errno", "0"],
      ["Last_Error", ""],
      ["Skip_Counter", "0"],
      ["Exec_Source_Log_Pos", "48213"],
      ["Seconds_Behind_Source", io === "Yes" ? "0" : "NULL"],
      ["Source_SSL_Verify_Server_Cert", "No"],
      ["Last_IO_Errno", String(ioErrno)],
      ["Last_IO_Error", ioError],
      ["Last_SQL_Errno", "0"],
      ["Last_SQL_Error", ""],
      ["Source_Server_Id", "100"],
      ["Replica_SQL_Running_State", "Replica has read all relay log; waiting for more updates"],
      ["Source_Retry_Count", "8640"],
      ["Channel_Name", ""],
    ]
      .map(([k, v]) => `${k.padStart(29)}: ${v}`)
      .reduce((out, l) => `${out}${l}\n`, "*************************** 1. row ***************************\n");
  const R1 = "mysql-1.mysql.mysql.svc.cluster.local";
  const R2 = "mysql-2.mysql.mysql.svc.cluster.local";
  const replica = (db: string, host: string, files: Record<string, string>) => {
    fs.mkdirSync(path.join(db, "replicas", host), { recursive: true });
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(db, "replicas", host, f), text);
  };

  test("the replicas after the read-back: one catching up is waited for; both replicate, caught up with the last acknowledged id", async () => {
    const s = setup();
    replica(s.db, R1, { status: replicaStatus("Yes", 0, "") });
    // mysql-2 holds only id 1 for its first 3 queries (it is catching up), then everything.
    replica(s.db, R2, { status: replicaStatus("Yes", 0, ""), max: "1\n", lag: "3" });
    const p = start("bash", [WRITER], { ...s.env, LAB_REPLICA_HOSTS: `${R1} ${R2}`, LAB_REPLICA_WAIT_SECONDS: "30" }, s.dir);
    await until("5 acks", () => (p.out().match(/^ack /gm) ?? []).length >= 5);
    fs.writeFileSync(s.annotations, 'lab/stop="true"');
    const r = await p.done;
    expect([r.status, r.stderr]).toEqual([0, ""]);
    const log = parseWriterLog(r.stdout, "writer");
    const last = lastAckedId(log);
    expect(log.replicas.map((x) => [x.host, x.maxId, x.status.Replica_IO_Running, x.status.Last_IO_Error, x.errors])).toEqual([
      [R1, last, "Yes", "", []],
      [R2, last, "Yes", "", []],
    ]);
    expect(log.replicas[0].status.Source_Retry_Count).toBe("8640");
    expect(log.replicas[0].status.Source_SSL_Verify_Server_Cert).toBe("No");
    expect(replicationProblems(log, [R1, R2], last)).toEqual([]);
    // mysql-1 answered at once (one MAX query and one status query); mysql-2 was asked again until it caught up.
    const calls = fs.readFileSync(path.join(s.db, "calls"), "utf8").trim().split("\n");
    const of = (h: string) => calls.filter((c) => c.includes(`--host=${h}`));
    expect(of(R1)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^--defaults-extra-file=\\S+ --host=${R1} --connect-timeout=5 --batch --skip-column-names -e SELECT COALESCE\\(MAX\\(id\\), 0\\) FROM lab_failover\\.writes WHERE run_id = 'r1';$`,
        ),
      ),
      expect.stringMatching(new RegExp(`^--defaults-extra-file=\\S+ --host=${R1} --connect-timeout=5 --vertical -e SHOW REPLICA STATUS$`)),
    ]);
    // Three rounds of (MAX, status): behind at its queries 1 and 3, caught up at 5.
    expect(of(R2).length).toBe(6);
    expect(calls.some((c) => c.includes("Pw0rd"))).toBe(false);
    expect(log.done).toBe(true);
  });

  test("a replica whose I/O thread stopped: polled until LAB_REPLICA_WAIT_SECONDS, then reported as it is; an unreachable one too", async () => {
    const s = setup();
    const ioError =
      "error connecting to source 'root@mysql-0.mysql.mysql.svc.cluster.local:3306' - retry-time: 10 retries: 8640 message: Unknown MySQL server host 'mysql-0.mysql.mysql.svc.cluster.local' (-2)";
    replica(s.db, R1, { status: replicaStatus("No", 2005, ioError), max: "2\n" });
    replica(s.db, R2, { down: "" });
    const p = start("bash", [WRITER], { ...s.env, LAB_REPLICA_HOSTS: `${R1} ${R2}`, LAB_REPLICA_WAIT_SECONDS: "3" }, s.dir);
    await until("5 acks", () => (p.out().match(/^ack /gm) ?? []).length >= 5);
    fs.writeFileSync(s.annotations, 'lab/stop="true"');
    const t0 = Date.now();
    const r = await p.done;
    expect(r.status).toBe(0);
    // Two replicas waited for 3 s each (polling every 2 s), not forever.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(6_000);
    expect(Date.now() - t0).toBeLessThan(20_000);
    const log = parseWriterLog(r.stdout, "writer");
    const last = lastAckedId(log);
    expect(replicationProblems(log, [R1, R2], last)).toEqual([
      `${R1}: I/O thread not running: Replica_IO_Running: No (Last_IO_Errno 2005: ${ioError}); behind: holds ids up to 2, the last acknowledged is ${last}`,
      `${R2}: ERROR 2005 (HY000): Unknown MySQL server host '${R2}' (-2); ERROR 2005 (HY000): Unknown MySQL server host '${R2}' (-2)`,
    ]);
    expect(Number(fs.readFileSync(path.join(s.db, "replicas", R1, "queries"), "utf8"))).toBeGreaterThanOrEqual(4);
  }, 30_000);

  test("rows of the same run id in the table: refused, exit 4", async () => {
    const s = setup();
    fs.writeFileSync(path.join(s.db, "rows", "1"), "");
    fs.writeFileSync(path.join(s.db, "rows", "2"), "");
    const r = await start("bash", [WRITER], s.env, s.dir).done;
    expect(r.status).toBe(4);
    expect(parseWriterLog(r.stdout, "writer").error).toBe(
      "lab_failover.writes already holds 2 row(s) of run r1: refusing to write under the same run id",
    );
  });

  test("the deadline stops it without an annotation", async () => {
    const s = setup();
    const r = await start("bash", [WRITER], { ...s.env, LAB_MAX_SECONDS: "1" }, s.dir).done;
    expect(r.status).toBe(0);
    const log = parseWriterLog(r.stdout, "writer");
    expect(log.stop?.reason).toBe("deadline");
    expect(log.present).toEqual(ackedIds(log));
  });

  test("the read-back fails for good: exit 3 and the client's error", async () => {
    const s = setup();
    const p = start("bash", [WRITER], { ...s.env, LAB_READBACK_SECONDS: "1" }, s.dir);
    await until("an ack", () => p.out().includes("ack 1 "));
    fs.writeFileSync(path.join(s.db, "down"), "");
    fs.writeFileSync(s.annotations, 'lab/stop="true"');
    const r = await p.done;
    expect(r.status).toBe(3);
    const log = parseWriterLog(r.stdout, "writer");
    expect(log.present).toBeUndefined();
    expect(log.error).toBe(
      "read-back failed for 1s: ERROR 2003 (HY000): Can't connect to MySQL server on 'mysql-0.mysql.mysql.svc.cluster.local:3306' (111)",
    );
  });

  test("a bad run id: exit 2, nothing called", () => {
    const s = setup();
    const r = spawnSync("bash", [WRITER], { env: { PATH: process.env.PATH, ...s.env, LAB_RUN_ID: "R 1" }, encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("writer error LAB_RUN_ID must be lower-case letters, digits and '-', got 'R 1'\n");
    expect(fs.existsSync(path.join(s.db, "calls"))).toBe(false);
  });

  test.each([
    ["", "writer error LAB_MYSQL_USER must be an account name (lower-case letters, digits and '_'), got ''\n"],
    ["root'@'%", "writer error LAB_MYSQL_USER must be an account name (lower-case letters, digits and '_'), got 'root'@'%'\n"],
  ])("no account, or not an account name (%j): exit 2, nothing called", (user, message) => {
    const s = setup();
    const r = spawnSync("bash", [WRITER], { env: { PATH: process.env.PATH, ...s.env, LAB_MYSQL_USER: user }, encoding: "utf8" });
    expect([r.status, r.stdout]).toEqual([2, message]);
    expect(fs.existsSync(path.join(s.db, "calls"))).toBe(false);
  });
});
