/**
 * components/bench/scripts/pgbench.sh: first against stand-in pg_isready, psql and pgbench (its
 * logic: readiness, initialisation, run ids), then the script as the rendered Job runs it, for
 * real, against a throwaway PostgreSQL server (initdb and pg_ctl into a temporary directory, on a
 * free port; as `nobody` when the tests run as root, since initdb refuses root), at scale 1 for a
 * few seconds. Its output goes through the same collector and parser as a Job's log.
 *
 * CI installs the Debian package `postgresql` (server binaries, pgbench, psql, pg_isready); a
 * missing one fails these tests, it does not skip them.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { collectSamples, cutResultBlocks } from "../../../../components/bench/collect";
import { pgbenchCommands, renderBenchmark } from "../../../../components/bench/render";
import type { BenchSpec } from "../../../../components/bench/rules";
import { BENCH_SCRIPTS_DIR, readJobScripts } from "../../../../components/bench/scripts";
import { parseToolOutput } from "../../../../core/parsers";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../../../../lab/bench/postgres";
import { runScript, stub } from "../support";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pgbench-"));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs `sh <dir>/pgbench.sh` with `env` added to a minimal environment. */
const run = (env: Record<string, string>, dir = BENCH_SCRIPTS_DIR) => runScript(path.join(dir, "pgbench.sh"), env, tmp, 60000);

describe("pgbench.sh against stand-in pg_isready, psql and pgbench", () => {
  /** Stand-ins: pg_isready answers "no response" until the Nth call; psql keeps the table comment and finished runs in files. */
  function stubs(readyAfter: number, stamped: string | undefined) {
    const bin = path.join(tmp, "bin");
    fs.mkdirSync(bin);
    const state = path.join(tmp, "state");
    fs.mkdirSync(state);
    if (stamped !== undefined) fs.writeFileSync(path.join(state, "comment"), stamped);
    stub(
      bin,
      "pg_isready",
      `n=$(cat "${state}/ready" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "${state}/ready"; [ "$n" -ge ${readyAfter} ] || exit 2`,
    );
    stub(
      bin,
      "psql",
      [
        `for a in "$@"; do q=$a; done`,
        `echo "$q" >> "${state}/queries"`,
        `case $q in`,
        `  'select 1') echo 1 ;;`,
        `  select*obj_description*) cat "${state}/comment" 2>/dev/null || echo ;;`,
        `  comment*) echo "$q" | sed "s/.* is '\\(.*\\)'$/\\1/" > "${state}/comment" ;;`,
        `  CHECKPOINT) ;;`,
        `  create\\ table\\ if\\ not\\ exists\\ lab_bench_runs*) ;;`,
        `  select*from\\ lab_bench_runs*) id=$(echo "$q" | sed "s/.*run_id = '\\(.*\\)'$/\\1/"); grep -s "^$id " "${state}/runs" | cut -d' ' -f2- ;;`,
        `  insert\\ into\\ lab_bench_runs*) id=$(echo "$q" | sed "s/.*'pgbench', '\\(.*\\)')$/\\1/"); echo "$id 2026-01-15 10:00:00 UTC" >> "${state}/runs" ;;`,
        `  *) echo "unexpected query: $q" >&2; exit 1 ;;`,
        `esac`,
      ].join("\n"),
    );
    stub(
      bin,
      "pgbench",
      [
        `echo "pgbench $*" >> "${state}/calls"`,
        `case $1 in`,
        `  --version) echo "pgbench (PostgreSQL) 17.6 (Debian 17.6-1.pgdg120+1)" ;;`,
        `  -i) echo "done in 0.01 s" >&2 ;;`,
        `  *) echo "starting vacuum...end." >&2; echo "progress: 1.0 s, 10.0 tps" >&2; printf 'pgbench (17.6)\\ntps = 10.0 (without initial connection time)\\n' ;;`,
        `esac`,
      ].join("\n"),
    );
    const env = {
      PGBENCH_BIN: path.join(bin, "pgbench"),
      PSQL_BIN: path.join(bin, "psql"),
      PG_ISREADY_BIN: path.join(bin, "pg_isready"),
      PGHOST: "pg.invalid",
      PGBENCH_SCALE: "5",
      PGBENCH_CLIENTS: "4",
      PGBENCH_THREADS: "2",
      PGBENCH_DURATION: "1",
      PGBENCH_SETTLE: "0",
    };
    const read = (f: string) => (fs.existsSync(path.join(state, f)) ? fs.readFileSync(path.join(state, f), "utf8").trim().split("\n") : []);
    return { env, calls: () => read("calls"), queries: () => read("queries") };
  }

  it("waits for readiness, initialises exactly as published, CHECKPOINTs, runs REPS times with markers", () => {
    const { env, calls, queries } = stubs(2, undefined);
    const r = run({ ...env, REPS: "2", PG_READY_TIMEOUT: "20" });
    expect(r.stderr).toContain("server ready after 2 attempt(s)");
    expect(r.status).toBe(0);
    expect(calls()).toEqual([
      "pgbench --version",
      "pgbench -i -s 5 --foreign-keys",
      "pgbench -c 4 -j 2 -T 1 -r",
      "pgbench -c 4 -j 2 -T 1 -r",
    ]);
    expect(queries()).toEqual([
      "select 1",
      "select coalesce(obj_description(to_regclass('pgbench_accounts'), 'pg_class'), '')",
      "comment on table pgbench_accounts is 'lab: pgbench -i -s 5 --foreign-keys complete'",
      "CHECKPOINT",
    ]);
    expect(r.stderr).toContain("CHECKPOINT, then 0s to settle");
    const blocks = cutResultBlocks(r.stdout, "pgbench.sh");
    expect(blocks.map((b) => b.attrs)).toEqual(
      [1, 2].map((rep) => ({
        tool: "pgbench",
        rep: String(rep),
        scale: "5",
        clients: "4",
        threads: "2",
        duration: "1",
        init: "ran",
        version: "17.6",
        start: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        end: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      })),
    );
    expect(blocks[0].text).toBe("pgbench (17.6)\ntps = 10.0 (without initial connection time)\n");
    // Progress and vacuum lines (stderr) stay outside the blocks.
    expect(r.stdout).not.toContain("progress:");
  });

  it("each option switched on or off, in the command lines render.ts records", () => {
    const { env, calls } = stubs(1, undefined);
    const r = run({ ...env, REPS: "1", PGBENCH_FOREIGN_KEYS: "1", PGBENCH_PER_STATEMENT: "1", PGBENCH_PROGRESS: "10" });
    expect(r.status).toBe(0);
    expect(calls()).toEqual(["pgbench --version", "pgbench -i -s 5 --foreign-keys", "pgbench -c 4 -j 2 -T 1 -P 10 -r"]);
    const p = { scale: 5, clients: 4, threads: 2, durationSeconds: 1, foreignKeys: true, perStatementLatencies: true, progressSeconds: 10 };
    const lines = pgbenchCommands({ ...p, settleSeconds: 0, init: "auto", readyTimeoutSeconds: 1, initTimeoutSeconds: 60 });
    expect(calls().slice(1)).toEqual([lines.init, lines.run]);

    fs.rmSync(path.join(tmp, "bin"), { recursive: true });
    fs.rmSync(path.join(tmp, "state"), { recursive: true });
    const off = stubs(1, undefined);
    expect(run({ ...off.env, REPS: "1", PGBENCH_FOREIGN_KEYS: "0", PGBENCH_PER_STATEMENT: "0" }).status).toBe(0);
    expect(off.calls()).toEqual(["pgbench --version", "pgbench -i -s 5", "pgbench -c 4 -j 2 -T 1"]);
    const plain = pgbenchCommands({
      ...p,
      foreignKeys: false,
      perStatementLatencies: false,
      progressSeconds: 0,
      settleSeconds: 0,
      init: "auto",
      readyTimeoutSeconds: 1,
      initTimeoutSeconds: 60,
    });
    expect(off.calls().slice(1)).toEqual([plain.init, plain.run]);
  });

  it("auto skips the initialisation when the same init command's stamp is there, redoes it for another", () => {
    const same = stubs(1, "lab: pgbench -i -s 5 --foreign-keys complete");
    const r = run({ ...same.env, REPS: "1" });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("already initialised by pgbench -i -s 5 --foreign-keys: skipping it");
    expect(same.calls()).toEqual(["pgbench --version", "pgbench -c 4 -j 2 -T 1 -r"]);
    expect(same.queries()).not.toContain("CHECKPOINT");
    expect(cutResultBlocks(r.stdout, "pgbench.sh")[0].attrs.init).toBe("reused");

    for (const [stamp, init] of [
      ["lab: pgbench -i -s 5 complete", "pgbench -i -s 5 --foreign-keys"], // an initialisation without foreign keys
      ["lab: pgbench -i -s 1000 --foreign-keys complete", "pgbench -i -s 5 --foreign-keys"],
    ]) {
      fs.rmSync(path.join(tmp, "bin"), { recursive: true });
      fs.rmSync(path.join(tmp, "state"), { recursive: true });
      const other = stubs(1, stamp);
      expect(run({ ...other.env, REPS: "1" }).status).toBe(0);
      expect(other.calls()).toContain(init);
    }
  });

  it("never trusts the tables, and says so in the markers", () => {
    const { env, calls } = stubs(1, undefined);
    const r = run({ ...env, REPS: "1", PGBENCH_INIT: "never" });
    expect(r.status).toBe(0);
    expect(calls()).toEqual(["pgbench --version", "pgbench -c 4 -j 2 -T 1 -r"]);
    expect(cutResultBlocks(r.stdout, "pgbench.sh")[0].attrs.init).toBe("unchecked");
  });

  it("a run id runs once: the second time it refuses with status 4 before anything runs", () => {
    const { env, calls, queries } = stubs(1, undefined);
    expect(run({ ...env, REPS: "1", LAB_RUN_ID: "r1" }).status).toBe(0);
    expect(queries().slice(-1)).toEqual(["insert into lab_bench_runs (tool, run_id) values ('pgbench', 'r1')"]);
    const again = run({ ...env, REPS: "1", LAB_RUN_ID: "r1" });
    expect(again.status).toBe(4);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain(
      "error: pgbench already ran to completion under run id r1 (finished 2026-01-15 10:00:00 UTC): refusing to run it again under the same id, which would replace its results. A finished run's Job is created again when Kubernetes has deleted it (ttlSecondsAfterFinished after it finished) and a refresh dropped it from the stack's state; set a new run id to run the benchmark again.",
    );
    expect(calls().filter((c) => c !== "pgbench --version")).toEqual(["pgbench -i -s 5 --foreign-keys", "pgbench -c 4 -j 2 -T 1 -r"]);
    expect(run({ ...env, REPS: "1", LAB_RUN_ID: "r2" }).status).toBe(0);
  });

  it("refuses bad settings with status 2 and the reason", () => {
    const { env } = stubs(1, undefined);
    for (const [extra, message] of [
      [{ PGBENCH_FOREIGN_KEYS: "yes" }, "error: PGBENCH_FOREIGN_KEYS must be 0 or 1, got 'yes'"],
      [{ PGBENCH_PER_STATEMENT: "2" }, "error: PGBENCH_PER_STATEMENT must be 0 or 1, got '2'"],
      [{ PGBENCH_SETTLE: "-1" }, "error: PGBENCH_SETTLE must be a whole number, got '-1'"],
      [{ LAB_RUN_ID: "R1; drop table" }, "error: LAB_RUN_ID must be lower-case letters, digits and '-', got 'R1; drop table'"],
      [{ PGBENCH_THREADS: "8" }, "error: PGBENCH_THREADS must be at most PGBENCH_CLIENTS (4), got '8'"],
    ] as const) {
      const r = run({ ...env, ...extra });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it("gives up with status 3 when the server is not ready in time", () => {
    const { env } = stubs(1000, undefined);
    const r = run({ ...env, PG_READY_TIMEOUT: "1" });
    expect(r.status).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("server at pg.invalid:5432 not ready within 1s (pg_isready status 2)");
  });
});

/**
 * initdb + pg_ctl start into a new temporary directory, on a free port, as `nobody` when root: the
 * throwaway cluster `lab bench local` uses (lab/bench/postgres.ts), here without fsync (a test's
 * server needs no durability) and logging its checkpoints.
 */
const startPostgres = (): Promise<ThrowawayPostgres> =>
  startThrowawayPostgres({ parent: os.tmpdir(), prefix: "bench-pg-", settings: { fsync: "off", log_checkpoints: "on" } });

describe("pgbench.sh as the rendered Job runs it, against a real throwaway PostgreSQL", () => {
  let server: ThrowawayPostgres | undefined;
  let scripts: string;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120000);
  afterAll(() => server?.stop());

  /** The rendered Job: its ConfigMap's scripts on disk, its container's environment (libpq pointed at the server). */
  function job(extra: Partial<BenchSpec>) {
    const spec: BenchSpec = {
      name: "ceph",
      namespace: "bench",
      runId: "r1",
      zone: "us-east-1a",
      tools: ["pgbench"],
      postgres: {
        host: "postgres.bench.svc.cluster.local",
        user: "postgres",
        database: "pgbench",
        passwordSecret: { name: "pg", key: "password" },
      },
      reps: 2,
      pgbenchScale: 1,
      pgbenchClients: 2,
      pgbenchThreads: 1,
      pgbenchDurationSeconds: 2,
      pgbenchSettleSeconds: 1,
      ...extra,
    };
    const m = renderBenchmark(spec, readJobScripts());
    scripts = path.join(tmp, "scripts");
    fs.mkdirSync(scripts, { recursive: true });
    for (const f of ["lib.sh", "pgbench.sh"]) fs.writeFileSync(path.join(scripts, f), m.configMap.data![f]);
    const rj = m.jobs[0];
    const env: Record<string, string> = {};
    for (const e of rj.job.spec!.template.spec!.containers[0].env!) if (e.value !== undefined) env[e.name] = e.value;
    // The server: here, not in the cluster; no password (trust), TMPDIR the test's.
    Object.assign(env, { PGHOST: "127.0.0.1", PGPORT: String(server!.port), PGDATABASE: "postgres", TMPDIR: tmp });
    // Shims that record each pgbench and psql command line, then run the real one.
    const bin = path.join(tmp, "bin");
    fs.mkdirSync(bin, { recursive: true });
    const calls = path.join(tmp, "calls");
    fs.rmSync(calls, { force: true });
    for (const tool of ["pgbench", "psql"]) {
      stub(bin, tool, `echo "${tool} $*" >> "${calls}"\nexec ${tool} "$@"`);
    }
    Object.assign(env, { PGBENCH_BIN: path.join(bin, "pgbench"), PSQL_BIN: path.join(bin, "psql") });
    const recorded = () => (fs.existsSync(calls) ? fs.readFileSync(calls, "utf8").trim().split("\n") : []);
    return { rj, env, recorded };
  }

  const psql = (sql: string) =>
    execFileSync(
      "psql",
      ["-X", "-A", "-t", "-q", "-h", "127.0.0.1", "-p", String(server!.port), "-U", "postgres", "-d", "postgres", "-c", sql],
      {
        encoding: "utf8",
      },
    ).trim();

  test("runs the published `pgbench -i -s 1 --foreign-keys` and `pgbench -c 2 -j 1 -T 2 -r`, CHECKPOINTs, and its log parses into samples", () => {
    const { rj, env, recorded } = job({});
    const r = run(env, scripts);
    expect(r.stderr).toContain("pgbench done: 2 repetition(s)");
    expect(r.status).toBe(0);
    const pgbench = recorded().filter((c) => c.startsWith("pgbench "));
    expect(pgbench).toEqual([
      "pgbench --version",
      "pgbench -i -s 1 --foreign-keys",
      "pgbench -c 2 -j 1 -T 2 -r",
      "pgbench -c 2 -j 1 -T 2 -r",
    ]);
    expect(pgbench.slice(1, 3)).toEqual([rj.options.pgbenchInitCommand, rj.options.pgbenchCommand]);
    expect(recorded()).toContain("psql -X -A -t -q -v ON_ERROR_STOP=1 -c CHECKPOINT");
    expect(fs.readFileSync(server!.log, "utf8")).toMatch(/checkpoint starting: immediate force wait/);
    // --foreign-keys: pgbench's init step f adds its five foreign keys.
    expect(psql("select count(*) from pg_constraint where contype = 'f'")).toBe("5");
    expect(psql("select run_id from lab_bench_runs where tool = 'pgbench'")).toBe("r1");

    // The Job's log as the collector gets it, through the lab's parser.
    const { samples, raws } = collectSamples(
      `${r.stderr}${r.stdout}`,
      { tool: "pgbench", reps: 2, source: `job/${rj.name}`, run: { runId: "r1", ...rj.options } },
      parseToolOutput,
    );
    expect(raws.map((x) => x.name)).toEqual(["pgbench-rep1.txt", "pgbench-rep2.txt"]);
    for (const rep of [1, 2]) {
      const mine = samples.filter((s) => s.metadata.rep === rep);
      // No -P: pgbench prints no latency stddev; -r: a latency and a failure count for each of TPC-B's 11 statements.
      expect(mine.map((s) => s.metric)).toEqual([
        "pgbench.tps",
        "pgbench.latency.mean",
        "pgbench.transactions",
        "pgbench.failed",
        ...Array.from({ length: 11 }, () => ["pgbench.statement.latency", "pgbench.statement.failures"]).flat(),
      ]);
      expect(
        mine
          .filter((s) => s.metric === "pgbench.statement.latency")
          .map((s) => s.metadata.statement)
          .slice(-1),
      ).toEqual(["END;"]);
      expect(mine[0].value).toBeGreaterThan(0);
      expect(mine[0].metadata).toMatchObject({
        tool: "pgbench",
        scale: 1,
        clients: 2,
        threads: 1,
        durationSeconds: 2,
        transactionType: "<builtin: TPC-B (sort of)>",
        pgbenchInitialisation: "ran",
        pgbenchInitCommand: "pgbench -i -s 1 --foreign-keys",
        pgbenchCommand: "pgbench -c 2 -j 1 -T 2 -r",
        pgbenchForeignKeys: true,
        pgbenchPerStatementLatencies: true,
        runId: "r1",
      });
      expect(mine[0].metadata.toolVersion).toMatch(/^pgbench \(PostgreSQL\) \d+\.\d+/);
    }
    expect(raws[0].text).toContain("statement latencies in milliseconds and failures:");
  });

  test("the same run id again is refused (status 4) before pgbench runs; another id reuses the initialisation", () => {
    const first = job({ runId: "r1" });
    const again = run(first.env, scripts);
    expect(again.status).toBe(4);
    expect(again.stdout).toBe("");
    expect(again.stderr).toMatch(
      /error: pgbench already ran to completion under run id r1 \(finished \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\): refusing/,
    );
    expect(first.recorded().filter((c) => c.startsWith("pgbench "))).toEqual(["pgbench --version"]);

    const next = job({ runId: "r2", reps: 1 });
    const r = run(next.env, scripts);
    expect(r.status).toBe(0);
    expect(next.recorded().filter((c) => c.startsWith("pgbench "))).toEqual(["pgbench --version", "pgbench -c 2 -j 1 -T 2 -r"]);
    expect(cutResultBlocks(r.stdout, "pgbench.sh")[0].attrs.init).toBe("reused");
  });

  test("both switched off: pgbench's default init steps (no foreign key) and no per-statement lines", () => {
    const { env, recorded } = job({
      runId: "r3",
      reps: 1,
      pgbenchForeignKeys: false,
      pgbenchPerStatementLatencies: false,
      pgbenchDurationSeconds: 1,
    });
    const r = run(env, scripts);
    expect(r.status).toBe(0);
    expect(recorded().filter((c) => c.startsWith("pgbench "))).toEqual(["pgbench --version", "pgbench -i -s 1", "pgbench -c 2 -j 1 -T 1"]);
    expect(psql("select count(*) from pg_constraint where contype = 'f'")).toBe("0");
    expect(r.stdout).not.toContain("statement latencies");
  });
});
