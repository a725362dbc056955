/**
 * The MySQL StatefulSet's scripts: shellcheck, and their behaviour with stand-in binaries (mysql,
 * socat, xbstream, xtrabackup record their arguments): the MySQL 8.4 replication statements
 * (CHANGE REPLICATION SOURCE TO … SOURCE_* options, START REPLICA; nothing of the removed
 * CHANGE MASTER TO / START SLAVE), run at most once; the clone from the previous pod; the
 * configuration init-mysql writes per ordinal.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MYSQL_SCRIPT_FILES, MYSQL_SCRIPTS_DIR } from "../../../components/mysql/scripts";

/**
 * A stand-in that appends its name and arguments, one per line, then what it read on stdin (each
 * line as `  < line`), to $CALLS (in one write, so the two ends of a pipe do not interleave) and to
 * $CALLS.<name>, and exits with $<NAME>_EXIT (0).
 */
function stub(dir: string, name: string): void {
  const v = `${name.toUpperCase()}_EXIT`;
  const script = [
    "#!/bin/sh",
    `rec=${name}`,
    'for a in "$@"; do rec=$(printf "%s\\n  %s" "$rec" "$a"); done',
    'in=$(sed "s/^/  < /")',
    'if [ -n "$in" ]; then rec=$(printf "%s\\n%s" "$rec" "$in"); fi',
    `printf '%s\\n' "$rec" >> "$CALLS"`,
    `printf '%s\\n' "$rec" >> "$CALLS.${name}"`,
    `exit "\${${v}:-0}"`,
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, name), script, { mode: 0o755 });
}

function sandbox(): { dir: string; bin: string; calls: string; data: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-mysql-"));
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  for (const b of ["mysql", "socat", "xbstream", "xtrabackup"]) stub(bin, b);
  const data = path.join(dir, "data");
  fs.mkdirSync(data);
  return { dir, bin, calls: path.join(dir, "calls"), data };
}

function runScript(file: string, s: ReturnType<typeof sandbox>, env: Record<string, string>, scriptText?: string) {
  const script = scriptText ?? fs.readFileSync(path.join(MYSQL_SCRIPTS_DIR, file), "utf8");
  const r = spawnSync("bash", ["-c", script, file], {
    env: { PATH: `${s.bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, CALLS: s.calls, ...env },
    encoding: "utf8",
  });
  const calls = fs.existsSync(s.calls) ? fs.readFileSync(s.calls, "utf8") : "";
  return { status: r.status, stderr: r.stderr, calls };
}

const SIDECAR_ENV = (data: string, pod = "mysql-1") => ({
  POD_NAME: pod,
  DATA_DIR: data,
  SOURCE_HOST: "mysql-0.mysql.mysql.svc.cluster.local",
  XTRABACKUP_PORT: "3307",
  REPLICATION_USER: "repl",
  REPLICATION_PASSWORD: "Pw0rdOfThirtyTwoLettersAndDigits",
  WRITER_USER: "lab_writer",
  WRITER_DATABASE: "lab_failover",
  WRITER_PASSWORD: "WriterPw0rdOfThirtyTwoLettersAnd",
  CLIENT_CNF: "/etc/mysql-client/root.cnf",
});

/** The replica's statements, as the stand-in mysql records them from stdin. */
const START_REPLICA = (position: string) => [
  "mysql",
  "  --defaults-extra-file=/etc/mysql-client/root.cnf",
  `  < CHANGE REPLICATION SOURCE TO ${position}, SOURCE_HOST='mysql-0.mysql.mysql.svc.cluster.local', SOURCE_USER='repl', SOURCE_PASSWORD='Pw0rdOfThirtyTwoLettersAndDigits', SOURCE_CONNECT_RETRY=10, SOURCE_RETRY_COUNT=8640, SOURCE_SSL=1;`,
  "  < START REPLICA;",
];

describe("the scripts pass shellcheck", () => {
  test.each(MYSQL_SCRIPT_FILES)("%s", (f) => {
    const r = spawnSync("shellcheck", ["-s", "bash", path.join(MYSQL_SCRIPTS_DIR, f)], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("xtrabackup.sh: MySQL 8.4 replication from the clone's position", () => {
  test("cloned from the source: the binlog coordinates, then CHANGE REPLICATION SOURCE TO … START REPLICA, then the backup server", () => {
    const s = sandbox();
    fs.writeFileSync(path.join(s.data, "xtrabackup_binlog_info"), "binlog.000003\t157\n");
    const r = runScript("xtrabackup.sh", s, SIDECAR_ENV(s.data));
    expect(r.status).toBe(0);
    expect(r.calls).toBe(
      [
        "mysql",
        "  --defaults-extra-file=/etc/mysql-client/root.cnf",
        "  -e",
        "  SELECT 1",
        ...START_REPLICA("SOURCE_LOG_FILE='binlog.000003', SOURCE_LOG_POS=157"),
        "socat",
        "  TCP-LISTEN:3307,reuseaddr,fork,max-children=1",
        "  EXEC:xtrabackup --defaults-extra-file=/etc/mysql-client/root.cnf --backup --slave-info --stream=xbstream --target-dir=/tmp/xtrabackup",
        "",
      ].join("\n"),
    );
    expect(r.calls).not.toMatch(/MASTER|SLAVE;|START SLAVE|root'/);
    expect(fs.readdirSync(s.data).sort()).toEqual(["change_source_to.sql.orig"]);
  });

  test("cloned from a replica: XtraBackup 8.4's statement from xtrabackup_slave_info, without its semicolon", () => {
    const s = sandbox();
    fs.writeFileSync(
      path.join(s.data, "xtrabackup_slave_info"),
      "CHANGE REPLICATION SOURCE TO SOURCE_LOG_FILE='binlog.000005', SOURCE_LOG_POS=4242;\n",
    );
    fs.writeFileSync(path.join(s.data, "xtrabackup_binlog_info"), "binlog.000001\t99\n");
    const r = runScript("xtrabackup.sh", s, SIDECAR_ENV(s.data));
    expect(r.status).toBe(0);
    expect(r.calls).toContain(`${START_REPLICA("SOURCE_LOG_FILE='binlog.000005', SOURCE_LOG_POS=4242").join("\n")}\n`);
    expect(fs.readdirSync(s.data).sort()).toEqual(["change_source_to.sql.orig"]);
  });

  test("mysql-0's first start: no data directory yet; the sidecar waits for mysqld to create it, then serves backups", () => {
    const s = sandbox();
    const data = path.join(s.dir, "not-yet");
    // A stand-in sleep that records its calls and, on the third, plays mysqld's entrypoint creating the directory.
    fs.writeFileSync(
      path.join(s.bin, "sleep"),
      `#!/bin/sh\necho "sleep $1" >> "$CALLS.sleep"\n[ "$(wc -l < "$CALLS.sleep")" -ge 3 ] && mkdir -p "${data}"\nexit 0\n`,
      { mode: 0o755 },
    );
    const r = runScript("xtrabackup.sh", s, SIDECAR_ENV(data, "mysql-0"));
    expect(r.status).toBe(0);
    expect(fs.readFileSync(`${s.calls}.sleep`, "utf8")).toBe("sleep 1\nsleep 1\nsleep 1\n");
    // One message (every 30 s of waiting), not one per second.
    expect(r.stderr.split("\n").filter((l) => l.startsWith("xtrabackup:"))).toEqual([
      `xtrabackup: waiting for ${data} (mysqld creates it on its first start)`,
      "xtrabackup: waiting for mysqld to accept connections",
      "xtrabackup: ensuring the replication account 'repl' and the writer account 'lab_writer'",
    ]);
    // The source creates (or resets) the replication account, REPLICATION SLAVE only, before it serves a backup.
    expect(r.calls).toBe(
      [
        "mysql",
        "  --defaults-extra-file=/etc/mysql-client/root.cnf",
        "  -e",
        "  SELECT 1",
        "mysql",
        "  --defaults-extra-file=/etc/mysql-client/root.cnf",
        "  < CREATE USER IF NOT EXISTS 'repl'@'%' IDENTIFIED BY 'Pw0rdOfThirtyTwoLettersAndDigits' REQUIRE SSL;",
        "  < ALTER USER 'repl'@'%' IDENTIFIED BY 'Pw0rdOfThirtyTwoLettersAndDigits' REQUIRE SSL;",
        "  < GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';",
        // The failover writer: CREATE, INSERT, SELECT on its database, REPLICATION CLIENT for SHOW REPLICA STATUS; nothing else.
        "  < CREATE USER IF NOT EXISTS 'lab_writer'@'%' IDENTIFIED BY 'WriterPw0rdOfThirtyTwoLettersAnd' REQUIRE SSL;",
        "  < ALTER USER 'lab_writer'@'%' IDENTIFIED BY 'WriterPw0rdOfThirtyTwoLettersAnd' REQUIRE SSL;",
        "  < GRANT CREATE, INSERT, SELECT ON `lab_failover`.* TO 'lab_writer'@'%';",
        "  < GRANT REPLICATION CLIENT ON *.* TO 'lab_writer'@'%';",
        "socat",
        "  TCP-LISTEN:3307,reuseaddr,fork,max-children=1",
        "  EXEC:xtrabackup --defaults-extra-file=/etc/mysql-client/root.cnf --backup --slave-info --stream=xbstream --target-dir=/tmp/xtrabackup",
        "",
      ].join("\n"),
    );
    expect(fs.readdirSync(data)).toEqual([]);
  });

  test("at most once: a restarted sidecar (or the source, with nothing cloned) only serves backups", () => {
    const s = sandbox();
    fs.writeFileSync(
      path.join(s.data, "change_source_to.sql.orig"),
      "CHANGE REPLICATION SOURCE TO SOURCE_LOG_FILE='binlog.000003', SOURCE_LOG_POS=157",
    );
    const r = runScript("xtrabackup.sh", s, SIDECAR_ENV(s.data));
    expect(r.status).toBe(0);
    expect(r.calls.split("\n").filter((l) => !l.startsWith("  "))).toEqual(["socat", ""]);
  });

  test("no password on any command line; a password that is not letters and digits, or a pod name without ordinal, fails before any call", () => {
    const s = sandbox();
    fs.writeFileSync(path.join(s.data, "xtrabackup_binlog_info"), "binlog.000003\t157\n");
    const ok = runScript("xtrabackup.sh", s, SIDECAR_ENV(s.data));
    const args = ok.calls.split("\n").filter((l) => !l.startsWith("  < "));
    expect(args.join("\n")).not.toContain("Pw0rdOfThirtyTwoLettersAndDigits");
    expect(args.join("\n")).not.toContain("WriterPw0rd");
    const t = sandbox();
    const bad = runScript("xtrabackup.sh", t, { ...SIDECAR_ENV(t.data), REPLICATION_PASSWORD: "pw'; DROP USER root; --" });
    expect(bad).toMatchObject({ status: 1, calls: "" });
    expect(bad.stderr).toContain("xtrabackup: REPLICATION_PASSWORD must be letters and digits");
    const badWriter = runScript("xtrabackup.sh", t, { ...SIDECAR_ENV(t.data), WRITER_PASSWORD: "pw'; DROP USER root; --" });
    expect(badWriter).toMatchObject({ status: 1, calls: "" });
    expect(badWriter.stderr).toContain("xtrabackup: WRITER_PASSWORD must be letters and digits");
    const badUser = runScript("xtrabackup.sh", t, { ...SIDECAR_ENV(t.data), WRITER_USER: "root'@'%" });
    expect(badUser).toMatchObject({ status: 1, calls: "" });
    expect(badUser.stderr).toContain("xtrabackup: WRITER_USER must be lowercase letters, digits and _, got 'root'@'%'");
    const noOrdinal = runScript("xtrabackup.sh", t, { ...SIDECAR_ENV(t.data), POD_NAME: "mysql" });
    expect(noOrdinal).toMatchObject({ status: 1, calls: "" });
    expect(noOrdinal.stderr).toContain("xtrabackup: no ordinal in pod name 'mysql'");
  });

  test("a failed CHANGE REPLICATION SOURCE TO fails the sidecar and keeps the statement for the next start", () => {
    const s = sandbox();
    fs.writeFileSync(path.join(s.data, "xtrabackup_binlog_info"), "binlog.000003\t157\n");
    // The first mysql call (SELECT 1) must succeed for the loop to end: fail only the second.
    fs.writeFileSync(
      path.join(s.bin, "mysql"),
      `#!/bin/sh\nn=$(cat "$CALLS.n" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$CALLS.n"\n[ "$n" -lt 2 ]\n`,
      { mode: 0o755 },
    );
    const r = runScript("xtrabackup.sh", s, SIDECAR_ENV(s.data));
    expect(r.status).not.toBe(0);
    expect(fs.readdirSync(s.data).sort()).toEqual(["change_source_to.sql.in"]);
  });
});

describe("clone-mysql.sh", () => {
  const env = (data: string, pod: string) => ({
    POD_NAME: pod,
    STATEFULSET: "mysql",
    SERVICE: "mysql",
    DATA_DIR: data,
    XTRABACKUP_PORT: "3307",
  });

  test("a replica clones from the previous pod's sidecar and prepares the backup", () => {
    const s = sandbox();
    const r = runScript("clone-mysql.sh", s, env(path.join(s.data, "data"), "mysql-2"));
    expect(r.status).toBe(0);
    const of = (b: string) => fs.readFileSync(`${s.calls}.${b}`, "utf8");
    // socat | xbstream run at once; xtrabackup --prepare after both.
    expect(of("socat")).toBe("socat\n  -u\n  TCP:mysql-1.mysql:3307,retry=30,interval=2\n  STDOUT\n");
    expect(of("xbstream")).toBe(`xbstream\n  -x\n  -C\n  ${path.join(s.data, "data")}\n`);
    expect(of("xtrabackup")).toBe(`xtrabackup\n  --prepare\n  --target-dir=${path.join(s.data, "data")}\n`);
    expect(r.calls.trimEnd().split("\n").slice(-3)).toEqual(["xtrabackup", "  --prepare", `  --target-dir=${path.join(s.data, "data")}`]);
  });

  test("nothing on the source, nor when a server's data is already there; a failed stream fails the clone", () => {
    const s = sandbox();
    expect(runScript("clone-mysql.sh", s, env(s.data, "mysql-0"))).toMatchObject({ status: 0, calls: "" });
    fs.mkdirSync(path.join(s.data, "mysql"));
    expect(runScript("clone-mysql.sh", s, env(s.data, "mysql-1"))).toMatchObject({ status: 0, calls: "" });
    const t = sandbox();
    const failed = runScript("clone-mysql.sh", t, { ...env(path.join(t.data, "d"), "mysql-1"), SOCAT_EXIT: "1" });
    expect(failed.status).not.toBe(0);
    expect(failed.calls).not.toContain("xtrabackup");
  });
});

describe("init-mysql.sh", () => {
  /** The script with its /mnt paths moved into the sandbox. */
  function init(pod: string) {
    const s = sandbox();
    for (const d of ["conf.d", "client", "config-map"]) fs.mkdirSync(path.join(s.dir, d));
    for (const f of ["common.cnf", "source.cnf", "replica.cnf"]) fs.writeFileSync(path.join(s.dir, "config-map", f), `# ${f}\n`);
    const text = fs.readFileSync(path.join(MYSQL_SCRIPTS_DIR, "init-mysql.sh"), "utf8").replaceAll("/mnt/", `${s.dir}/`);
    const r = runScript("init-mysql.sh", s, { POD_NAME: pod, MYSQL_ROOT_PASSWORD: "Pw0rd" }, text);
    const read = (f: string) => fs.readFileSync(path.join(s.dir, f), "utf8");
    return { r, s, read };
  }

  test("the source: server-id 100, the common and source settings, the clients' option file readable by its owner only", () => {
    const { r, s, read } = init("mysql-0");
    expect(r.status).toBe(0);
    expect(fs.readdirSync(path.join(s.dir, "conf.d")).sort()).toEqual(["common.cnf", "server-id.cnf", "source.cnf"]);
    expect(read("conf.d/server-id.cnf")).toBe("[mysqld]\nserver-id=100\n");
    expect(read("client/root.cnf")).toBe(
      "[client]\nuser=root\npassword=Pw0rd\nhost=127.0.0.1\n[xtrabackup]\nuser=root\npassword=Pw0rd\nhost=127.0.0.1\n",
    );
    expect(fs.statSync(path.join(s.dir, "client/root.cnf")).mode & 0o777).toBe(0o600);
  });

  test("a replica: server-id 100 + ordinal and the replica settings; a pod name without ordinal fails", () => {
    const { r, s, read } = init("mysql-2");
    expect(r.status).toBe(0);
    expect(fs.readdirSync(path.join(s.dir, "conf.d")).sort()).toEqual(["common.cnf", "replica.cnf", "server-id.cnf"]);
    expect(read("conf.d/server-id.cnf")).toBe("[mysqld]\nserver-id=102\n");
    const bad = init("mysql");
    expect(bad.r.status).toBe(1);
    expect(bad.r.stderr).toContain("init-mysql: no ordinal in pod name 'mysql'");
  });
});
