/**
 * `lab bench local` end to end, with the real fio, ioping and PostgreSQL (CI installs them; a
 * missing one fails, never skips): a `--quick` run that produces non-zero fio IOPS, an ioping
 * latency, pgbench TPS and a report, with the scripts' environment the Job renderer gives; then
 * failures in the middle (a killed fio, a bad `--pg`, Ctrl-C) that must leave no throwaway
 * cluster, no work directory and no results behind.
 */
import { spawn, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { renderBenchmark } from "../../../components/bench/render";
import { resolve, type BenchSpec } from "../../../components/bench/rules";
import { readJobScripts } from "../../../components/bench/scripts";
import type { Sample } from "../../../core/sample";
import { benchLocalAction } from "../../../lab/cli/bench";
import { checkOptions, localSpec, sizeForDisk } from "../../../lab/bench/plan";
import {
  findServerBin,
  freePort,
  processAlive,
  runsAsRoot,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../../../lab/bench/postgres";
import { WORK_DIR, runBenchLocal, workDirExists, type LocalRunEvent } from "../../../lab/bench/run";
import { ROOT } from "../../helpers/root";

let tmp: string;
let dir: string;
let results: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bench-local-"));
  // The throwaway server runs as nobody when the tests run as root: it must pass through.
  fs.chmodSync(tmp, 0o755);
  dir = path.join(tmp, "disk");
  results = path.join(tmp, "results");
  fs.mkdirSync(dir, { mode: 0o755 });
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs `lab bench local` in-process as the CLI does (lab/cli/bench.ts), capturing its output and events. */
async function bench(opts: Parameters<typeof benchLocalAction>[0], runId: string, onEvent?: (e: LocalRunEvent) => void) {
  let out = "";
  let err = "";
  const events: LocalRunEvent[] = [];
  const code = await benchLocalAction(
    { dir, ...opts },
    {
      cwd: tmp,
      resultsRoot: results,
      runId,
      write: (t) => (out += t),
      writeError: (t) => (err += t),
      onEvent: (e) => {
        events.push(e);
        onEvent?.(e);
      },
    },
  );
  return { code, out, err, events };
}

/** Processes whose process group is `pgid` (proc(5): /proc/<pid>/stat, the 5th field), zombies aside. */
function groupMembers(pgid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((p) => /^[0-9]+$/.test(p))
    .filter((p) => {
      try {
        const s = fs.readFileSync(`/proc/${p}/stat`, "utf8");
        const rest = s.slice(s.lastIndexOf(")") + 2).split(" ");
        return Number(rest[2]) === pgid && rest[0] !== "Z";
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * The child of `ppid` whose command line has `arg` (/proc/<pid>/stat: `(comm)` then state, ppid;
 * /proc/<pid>/cmdline: the arguments, NUL-separated): fio.sh's benchmarking fio, not its `fio --version`.
 */
function childWith(ppid: number, arg: string): number | undefined {
  for (const p of fs.readdirSync("/proc").filter((x) => /^[0-9]+$/.test(x))) {
    try {
      const s = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const rest = s.slice(s.lastIndexOf(")") + 2).split(" ");
      if (Number(rest[1]) === ppid && fs.readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").includes(arg)) return Number(p);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

const until = async (what: string, ok: () => boolean, ms = 20000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const values = (samples: readonly Sample[], metric: string) => samples.filter((s) => s.metric === metric).map((s) => s.value);

describe("lab bench local --quick, end to end", () => {
  it("runs the Job scripts with the Job's environment; samples with host metadata and the manifest, raw outputs and the report under results/local/<name>/<runId>/; nothing left in --dir", async () => {
    const r = await bench({ quick: true, name: "disk" }, "t-quick");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);

    // The step list, with the estimates of --quick's sizes.
    const lines = r.out.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^lab bench local disk/t-quick: fio, ioping, pgbench on ${dir} \\(`));
    const steps = [
      ["1. postgres", `throwaway PostgreSQL cluster in ${dir}`, "~3s"],
      ["2. fio     ", "profile seed, file 64M, 1 repetition", "~1s"],
      ["3. ioping  ", "20 requests 50 ms apart, 1 repetition", "~1s"],
      ["4. pgbench ", "scale 1, 4 clients, 2 threads, 3 s, 1 repetition", "~5s"],
      ["5. save    ", "results/local/disk/t-quick/ and the report", "~3s"],
    ];
    const width = Math.max(...steps.map((x) => x[1].length));
    expect(lines.slice(1, 8)).toEqual([
      "note: --quick: a rehearsal with small sizes and short runs, not a measurement",
      "Steps (about 12s):",
      ...steps.map(([n, what, est]) => `  ${n}  ${what.padEnd(width)}  ${est}`),
    ]);
    for (const step of ["1/5 postgres", "2/5 fio", "3/5 ioping", "4/5 pgbench", "5/5 save"]) {
      expect(r.out).toMatch(new RegExp(`^\\[\\+\\d+s\\] ${step} started · ETA \\d+s$`, "m"));
      expect(r.out).toMatch(new RegExp(`^\\[\\+\\d+s\\] ${step} done in \\d+s`, "m"));
    }
    expect(r.out).toMatch(/^\[\+\d+s\] 2\/5 fio repetition 1\/1 · \d+s · ETA \d+s$/m);

    // Samples: non-zero fio IOPS both ways, an ioping latency, pgbench TPS.
    const runDir = path.join(results, "local", "disk", "t-quick");
    const samples: Sample[] = JSON.parse(fs.readFileSync(path.join(runDir, "samples.json"), "utf8"));
    for (const m of ["fio.read.iops", "fio.write.iops", "ioping.latency.mean", "pgbench.tps"]) {
      expect(values(samples, m)).toHaveLength(1);
      expect(values(samples, m)[0]).toBeGreaterThan(0);
    }
    // Host metadata, checked against util-linux and coreutils; pgbench's server is the throwaway one.
    const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8" }).trim();
    const [fileSystem, device] = sh("findmnt", ["-n", "-o", "FSTYPE,SOURCE", "-T", dir]).split(/\s+/);
    const host = {
      scenario: "local",
      stack: "disk",
      runId: "t-quick",
      cpuModel: /^Model name:\s*(.*)$/m.exec(sh("lscpu", []))?.[1],
      cpuCores: Number(sh("nproc", ["--all"])),
      kernel: sh("uname", ["-r"]),
      fileSystem,
      fileSystemDevice: device,
    };
    for (const s of samples) expect(s.metadata).toMatchObject(host);
    // The manifest, as a stack run's samples carry it: this checkout's commit, the pins, no cloud stack.
    const commit = sh("git", ["-C", ROOT, "rev-parse", "HEAD"]);
    for (const s of samples) expect(s.metadata).toMatchObject({ "manifest.git.commit": commit, "manifest.region": "local" });
    expect(samples[0].metadata["manifest.versions.POSTGRES_IMAGE"]).toBe(
      JSON.parse(fs.readFileSync(path.join(runDir, "manifest.json"), "utf8")).manifest.versions.POSTGRES_IMAGE,
    );
    const tps = samples.find((s) => s.metric === "pgbench.tps") as Sample;
    expect(tps.metadata).toMatchObject({
      pgServer: "throwaway",
      scale: 1,
      clients: 4,
      threads: 2,
      durationSeconds: 3,
      pgbenchInitialisation: "ran",
    });
    const iops = samples.find((s) => s.metric === "fio.read.iops") as Sample;
    expect(iops.metadata).toMatchObject({ fioProfile: "seed", fioSize: "64M", filename: `${dir}/${WORK_DIR}/data/fio/lab-fio.dat` });

    // Raw outputs, verbatim: the tools' (the node sampler's summaries, when it runs, beside them).
    const raws = fs.readdirSync(path.join(runDir, "raw")).sort();
    expect(raws.filter((f) => !f.endsWith(".util.txt"))).toEqual(["fio-rep1.json", "ioping-rep1.json", "pgbench-rep1.txt"]);
    expect(JSON.parse(fs.readFileSync(path.join(runDir, "raw", "fio-rep1.json"), "utf8")).jobs[0].jobname).toBe("randrw");

    // The report of `lab report`, in the run's directory, and its summary printed.
    expect(r.out).toContain("Results: results/local/disk/t-quick in ");
    expect(r.out).toMatch(/^Wrote results\/local\/disk\/t-quick\/report: report\.md, report\.html, \d+ charts? in charts\/$/m);
    const md = fs.readFileSync(path.join(runDir, "report", "report.md"), "utf8");
    expect(md).toContain("## local");
    expect(md).toContain("### `pgbench.tps` (txn/s)");
    // -r, as published: where each TPC-B statement's time went.
    expect(md).toContain("### `pgbench.statement.latency` (ms)");

    // The scripts got the Job renderer's environment, the paths at local places.
    const scripts = r.events.filter((e) => e.type === "script");
    expect(scripts.map((e) => e.tool)).toEqual(["fio", "ioping", "pgbench"]);
    const pg = r.events.find((e) => e.type === "postgres") as Extract<LocalRunEvent, { type: "postgres" }>;
    const req = checkOptions({ quick: true }).request!;
    const port = Number(scripts[2].env.PGPORT);
    const server = { host: "127.0.0.1", port, user: "postgres", database: "postgres", maxConnections: 100 };
    const spec: BenchSpec = {
      ...localSpec(req, sizeForDisk(req, { dir, freeBytes: 2 ** 40, fileSystem, device }), "t-quick", server),
      storageClass: "gp3",
      toolsImage: "registry.example/tools:1.0",
    };
    const jobs = renderBenchmark(spec, readJobScripts()).jobs;
    const work = `${dir}/${WORK_DIR}`;
    const asJob: Record<string, string> = {
      [`${work}/jobs`]: "/opt/lab",
      [`${work}/data/fio`]: "/data/fio",
      [`${work}/data/ioping`]: "/data/ioping",
      [`${work}/runs`]: "/data/.lab-runs",
      [`${work}/tmp`]: "/tmp",
    };
    for (const [i, e] of scripts.entries()) {
      const jobEnv = jobs[i].job.spec!.template.spec!.containers[0].env!;
      const { PATH, HOME, ...rest } = e.env;
      expect(PATH).toBe(process.env.PATH);
      expect(HOME).toBe(process.env.HOME);
      expect(Object.entries(rest).map(([name, value]) => ({ name, value: asJob[value] ?? value }))).toEqual(
        // The Job's password comes from its Secret; with a throwaway server there is none.
        jobEnv.filter((v) => v.name !== "PGPASSWORD"),
      );
    }
    expect(resolve(spec).pgbench.scale).toBe(1);

    // Nothing left: no work directory, no server.
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(processAlive(pg.pid)).toBe(false);
    expect(fs.existsSync(pg.dir)).toBe(false);
  }, 120000);
});

describe("a failure in the middle leaves nothing behind", () => {
  it("a killed fio: exit 1 with fio.sh's status, the throwaway cluster stopped and removed, no work directory, no results", async () => {
    let killed = 0;
    const r = await bench({ quick: true, profile: "latency", tools: "fio,pgbench" }, "t-killed", (e) => {
      if (e.type !== "script" || e.tool !== "fio") return;
      void until("fio", () => childWith(e.pid, "--output-format=json") !== undefined).then(() => {
        killed = childWith(e.pid, "--output-format=json") as number;
        process.kill(killed, "SIGKILL");
      });
    });
    expect(killed).toBeGreaterThan(0);
    expect(r.code).toBe(1);
    expect(r.err.split("\n")[0]).toBe("fio.sh exited with status 137; its last lines:");
    expect(r.err).toContain("[lab] fio failed with status 137 in repetition 1");
    expect(r.err).toMatch(/Nothing was saved: a partial run is never written\.\n$/);
    expect(r.out).toMatch(/^\[\+\d+s\] 2\/4 fio failed after \d+s: fio\.sh exited with status 137; its last lines:$/m);

    const pg = r.events.find((e) => e.type === "postgres") as Extract<LocalRunEvent, { type: "postgres" }>;
    const script = r.events.find((e) => e.type === "script") as Extract<LocalRunEvent, { type: "script" }>;
    expect(processAlive(pg.pid)).toBe(false);
    expect(fs.existsSync(pg.dir)).toBe(false);
    // fio's job processes went with the script's process group.
    expect(groupMembers(script.pid)).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.existsSync(path.join(results, "local", "local", "t-killed"))).toBe(false);
  }, 120000);

  it("a --pg nobody listens on: exit 2 before anything starts, psql's reason, nothing created", async () => {
    const port = await freePort();
    const r = await bench({ quick: true, tools: "fio,pgbench", pg: `postgresql://bench:secret@127.0.0.1:${port}/bench` }, "t-nopg");
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(
      `cannot reach the --pg server postgresql://bench:***@127.0.0.1:${port}/bench: psql: error: connection to server at "127.0.0.1", port ${port} failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n`,
    );
    expect(r.events).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.existsSync(results)).toBe(false);
  });

  describe("a --pg whose role may not create the pgbench tables", () => {
    let server: ThrowawayPostgres;
    beforeAll(async () => {
      server = await startThrowawayPostgres({ parent: os.tmpdir(), prefix: "lab-bench-weak-", settings: { fsync: "off" } });
      // PostgreSQL 15 grants no CREATE on schema public to PUBLIC (release notes 15, "Remove PUBLIC creation permission on the public schema").
      execFileSync("psql", ["-XAtq", "-h", server.host, "-p", String(server.port), "-U", "postgres", "-c", "create role weak login"]);
    }, 60000);
    afterAll(() => server?.stop());

    it("ioping ran, pgbench fails in the middle: exit 1 with the server's error, the work directory removed, no results", async () => {
      const r = await bench({ quick: true, tools: "ioping,pgbench", pg: `postgresql://weak@127.0.0.1:${server.port}/postgres` }, "t-weak");
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^\[\+\d+s\] 1\/3 ioping done in \d+s · mean latency [0-9.]+ us · ETA \d+s$/m);
      expect(r.out).toMatch(/^\[\+\d+s\] 2\/3 pgbench failed after \d+s: pgbench\.sh exited with status 1; its last lines:$/m);
      // psql's error on pgbench.sh's first write (its run-id table), status 1 (psql -c).
      expect(r.err).toMatch(
        /^pgbench\.sh exited with status 1; its last lines:\n.*\[lab\] server ready after 1 attempt\(s\)\nERROR: {2}permission denied for schema public\nLINE 1: create table if not exists lab_bench_runs .*\n.*\^\nNothing was saved: a partial run is never written\.\n$/,
      );
      expect(r.events.map((e) => e.type)).toEqual(["workdir", "script", "script"]);
      expect(fs.readdirSync(dir)).toEqual([]);
      expect(fs.existsSync(path.join(results, "local", "local", "t-weak"))).toBe(false);
      // The user's server is theirs: still running.
      expect(processAlive(server.pid)).toBe(true);
    }, 120000);
  });

  it("Ctrl-C: exit 130, the running script's process group killed, the cluster and the work directory removed", async () => {
    const code = [
      'require("tsx/cjs");',
      'const { benchLocalAction } = require("./lab/cli/bench.ts");',
      "const [opts, extra] = JSON.parse(process.argv[1]);",
      "benchLocalAction(opts, extra).then((c) => process.exit(c));",
    ].join("\n");
    const args = [
      { dir, quick: true, profile: "latency", tools: "fio,pgbench" },
      { cwd: tmp, resultsRoot: results, runId: "t-int" },
    ];
    const child = spawn(process.execPath, ["-e", code, JSON.stringify(args)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (b: string) => (out += b));
    child.stderr.on("data", (b: string) => (err += b));
    const exited = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    await until("fio's first repetition", () => /2\/4 fio repetition 1\/1/.test(out), 60000);
    const work = path.join(dir, WORK_DIR);
    const pgDir = fs.readdirSync(work).find((f) => f.startsWith("pg-")) as string;
    const postmaster = Number(fs.readFileSync(path.join(work, pgDir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
    expect(processAlive(postmaster)).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(err).toContain("SIGINT: stopping and cleaning up");
    expect(out).toMatch(/^\[\+\d+s\] 2\/4 fio failed after \d+s: interrupted by SIGINT$/m);
    expect(processAlive(postmaster)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.existsSync(path.join(results, "local", "local", "t-int"))).toBe(false);
  }, 120000);
});

describe("checks before anything starts", () => {
  it("bad options, all at once; a --dir that is no directory; a work directory left by another run", async () => {
    const bad = await bench({ tools: "fio,disk", reps: "30" }, "t-bad");
    expect(bad).toEqual({
      code: 2,
      out: "",
      err: `'--tools' must be a non-empty list of distinct tools among fio, ioping, pgbench, got "fio,disk"\n'--reps' must be an integer from 1 to 20, got 30\n`,
      events: [],
    });
    const nodir = await bench({ dir: path.join(tmp, "missing") }, "t-nodir");
    expect(nodir.err).toBe(
      `'--dir' must be an existing directory this user can write into (no such file or directory), got "${path.join(tmp, "missing")}"\n`,
    );
    fs.mkdirSync(path.join(dir, WORK_DIR));
    const busy = await bench({ quick: true, tools: "ioping" }, "t-busy");
    expect(busy.code).toBe(2);
    // As root the server runs as nobody, and pg_ctl refuses root: the hint runs it as nobody.
    const pgCtl = path.join(findServerBin() as string, "pg_ctl");
    expect(busy.err).toBe(
      `${dir}/${WORK_DIR} exists: another lab bench local is running on ${dir}, or one was killed (SIGKILL) before it could clean up; if none runs, stop any server in it (${runsAsRoot() ? "runuser -u nobody -- " : ""}${pgCtl} -D ${dir}/${WORK_DIR}/pg-*/data stop) and remove it\n`,
    );
    expect(workDirExists("/d/.lab-bench", "/d", true, "/usr/lib/postgresql/15/bin")).toContain(
      "(runuser -u nobody -- /usr/lib/postgresql/15/bin/pg_ctl -D /d/.lab-bench/pg-*/data stop)",
    );
    expect(workDirExists("/d/.lab-bench", "/d", false, undefined)).toContain("(pg_ctl -D /d/.lab-bench/pg-*/data stop)");
    const badName = await bench({ quick: true, name: "Ext 4" }, "t-name");
    expect([badName.code, badName.err]).toEqual([
      2,
      `'--name' must be 1-40 lowercase letters, digits or '-', starting and ending with a letter or digit, got "Ext 4"\n`,
    ]);
  });

  (runsAsRoot() ? it : it.skip)(
    "as root, a --dir nobody cannot reach: exit 2 before anything starts, the message once, nothing created",
    async () => {
      const locked = path.join(tmp, "locked");
      fs.mkdirSync(path.join(locked, "disk"), { recursive: true, mode: 0o700 });
      fs.chmodSync(locked, 0o700);
      const r = await benchLocalAction(
        { dir: path.join(locked, "disk"), quick: true, tools: "pgbench" },
        { cwd: tmp, resultsRoot: results, runId: "t-locked", write: () => undefined, writeError: (t) => void errs.push(t) },
      );
      expect(r).toBe(2);
      expect(errs).toEqual([
        `'--dir' must be a directory the throwaway PostgreSQL's user nobody (uid 65534: initdb and pg_ctl refuse root) can reach, with search permission for others on it and every directory above it, got "${path.join(locked, "disk")}"\n`,
      ]);
      expect(fs.readdirSync(path.join(locked, "disk"))).toEqual([]);
      expect(fs.existsSync(results)).toBe(false);
    },
  );
  const errs: string[] = [];

  it("piped into head (a reader that goes away, EPIPE): exit 141 after the clean-up, no process and no work directory left, no results", async () => {
    const lab = path.join(ROOT, "bin", "lab.js");
    const child = spawn(
      "/bin/bash",
      ["-c", `node ${lab} bench local --quick --tools fio,pgbench --dir ${dir} | head -3; exit \${PIPESTATUS[0]}`],
      { cwd: tmp, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (b: string) => (out += b));
    const code = await new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    expect(out.split("\n")).toHaveLength(4);
    expect(code).toBe(141);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.existsSync(path.join(tmp, "results"))).toBe(false);
    // No process of the run is left: none has the directory on its command line (a postmaster has -D <dir>/.lab-bench/…).
    const left = fs
      .readdirSync("/proc")
      .filter((p) => /^[0-9]+$/.test(p))
      .filter((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(dir);
        } catch {
          return false;
        }
      });
    expect(left).toEqual([]);
  }, 120000);

  it("a run id whose results exist is refused before anything starts", async () => {
    fs.mkdirSync(path.join(results, "local", "local", "t-dup"), { recursive: true });
    const r = await runBenchLocal({
      dir,
      quick: true,
      tools: "ioping",
      cwd: tmp,
      resultsRoot: results,
      runId: "t-dup",
      write: () => undefined,
      writeError: () => undefined,
    });
    expect(r).toEqual({ code: 2 });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
