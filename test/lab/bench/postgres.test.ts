/**
 * lab/bench/postgres.ts: the throwaway cluster for real (initdb and pg_ctl into a temporary
 * directory, as nobody when root), what it leaves behind (nothing), and `--pg` URLs as libpq reads
 * them. CI installs the Debian package postgresql; a missing server fails these tests.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  NOBODY,
  findServerBin,
  freePort,
  parsePgUrl,
  pgSecretEnv,
  pgServerFacts,
  processAlive,
  redactPgUrl,
  runsAsRoot,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../../../lab/bench/postgres";

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-pg-test-"));
  fs.chmodSync(tmp, 0o755);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Fields of /proc/<pid>/stat after the command name (proc(5)): state, ppid, pgrp, session. */
function stat(pid: number): { pgrp: number; session: number } {
  const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { pgrp: Number(rest[2]), session: Number(rest[3]) };
}

/** The real uid of a process (/proc/<pid>/status `Uid:` real, effective, saved, fs). */
const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);

describe("a throwaway cluster", () => {
  let pg: ThrowawayPostgres;
  beforeAll(async () => {
    pg = await startThrowawayPostgres({ parent: tmp, settings: { fsync: "off" } });
  }, 60000);
  afterAll(() => pg?.stop());

  it("runs on 127.0.0.1 at its port, as nobody when the tests run as root, in a session of its own", async () => {
    expect(pg.dir.startsWith(path.join(tmp, "lab-pg-"))).toBe(true);
    expect(processAlive(pg.pid)).toBe(true);
    expect(uidOf(pg.pid)).toBe(runsAsRoot() ? NOBODY : process.getuid!());
    // pg_ctl starts the postmaster with setsid(): a Ctrl-C in the terminal does not reach it.
    expect(stat(pg.pid)).toEqual({ pgrp: pg.pid, session: pg.pid });
    expect(pg.version).toMatch(/^postgres \(PostgreSQL\) \d+\.\d+/);
    const facts = await pgServerFacts({ host: pg.host, port: pg.port, user: pg.user, database: pg.database });
    expect(facts.maxConnections).toBe(100);
    expect(pg.version).toContain(facts.serverVersion.split(" ")[0]);
    const fsync = execFileSync("psql", ["-XAtq", "-h", pg.host, "-p", String(pg.port), "-U", "postgres", "-c", "show fsync"], {
      encoding: "utf8",
    });
    expect(fsync.trim()).toBe("off");
  });

  it("in a long directory with a space (TCP only, no socket path to outgrow); stop(): the server and its directory gone, twice harmless", async () => {
    const deep = path.join(tmp, "a directory with a space", "x".repeat(100));
    fs.mkdirSync(deep, { recursive: true });
    for (let d = deep; d !== tmp; d = path.dirname(d)) fs.chmodSync(d, 0o755);
    const other = await startThrowawayPostgres({ parent: deep, prefix: "second-" });
    expect(other.port).not.toBe(pg.port);
    await other.stop();
    expect(processAlive(other.pid)).toBe(false);
    expect(fs.existsSync(other.dir)).toBe(false);
    await expect(other.stop()).resolves.toBeUndefined();
  }, 60000);
});

describe("a cluster that cannot start leaves nothing behind", () => {
  it("initdb failing: the error names it, the directory is removed", async () => {
    const bin = path.join(tmp, "badbin");
    fs.mkdirSync(bin, { mode: 0o755 });
    fs.writeFileSync(path.join(bin, "initdb"), "#!/bin/sh\necho 'initdb: error: no space left' >&2\nexit 1\n", { mode: 0o755 });
    const before = fs.readdirSync(tmp).sort();
    await expect(startThrowawayPostgres({ parent: tmp, bin })).rejects.toThrow(
      /^initdb -D .*\/data -U postgres --auth=trust -E UTF8 --no-sync failed: initdb: error: no space left$/,
    );
    expect(fs.readdirSync(tmp).sort()).toEqual(before);
  });

  it("the server binaries are found where Debian keeps them", () => {
    expect(findServerBin()).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin$/);
    expect(findServerBin(path.join(tmp, "nowhere"), "")).toBeUndefined();
  });
});

describe("pgServerFacts", () => {
  it("a port nobody listens on: psql's own error", async () => {
    const port = await freePort();
    await expect(pgServerFacts({ host: "127.0.0.1", port, user: "postgres", database: "postgres" })).rejects.toThrow(
      `psql: error: connection to server at "127.0.0.1", port ${port} failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?`,
    );
  });
});

describe("parsePgUrl", () => {
  it("libpq's URI parts, percent-decoded; user and database default as libpq's do; port 5432", () => {
    expect(parsePgUrl("postgresql://bob:p%40ss@db.example:5433/bench?sslmode=require", "alice")).toEqual({
      host: "db.example",
      port: 5433,
      user: "bob",
      database: "bench",
      password: "p@ss",
      sslmode: "require",
    });
    expect(parsePgUrl("postgres://db.example", "alice")).toEqual({ host: "db.example", port: 5432, user: "alice", database: "alice" });
    expect(parsePgUrl("postgresql://[::1]:6000/x", "alice")).toEqual({ host: "::1", port: 6000, user: "alice", database: "x" });
    expect(parsePgUrl("postgresql:///bench?host=/var/run/postgresql", "alice")).toEqual({
      host: "/var/run/postgresql",
      port: 5432,
      user: "alice",
      database: "bench",
    });
  });

  it("what it cannot use, with the reason", () => {
    const rule = "a PostgreSQL URL postgresql://[user[:password]@]host[:port]/database[?sslmode=…] (or ?host=<socket directory>)";
    expect(parsePgUrl("mysql://h/db")).toEqual({ problem: rule });
    expect(parsePgUrl("not a url")).toEqual({ problem: rule });
    expect(parsePgUrl("postgresql:///db")).toEqual({ problem: `${rule}, with one host` });
    expect(parsePgUrl("postgresql://h/db?application_name=x&connect_timeout=3")).toEqual({
      problem: `${rule}, with no parameter but host and sslmode (not application_name, connect_timeout)`,
    });
  });

  it("the password reaches PGPASSWORD and never a message", () => {
    expect(pgSecretEnv({ host: "h", port: 1, user: "u", database: "d", password: "pw", sslmode: "verify-full" })).toEqual({
      PGPASSWORD: "pw",
      PGSSLMODE: "verify-full",
    });
    expect(redactPgUrl("postgresql://bob:secret@h:5/db")).toBe("postgresql://bob:***@h:5/db");
    expect(redactPgUrl("postgres://bob@h/db")).toBe("postgres://bob@h/db");
  });
});
