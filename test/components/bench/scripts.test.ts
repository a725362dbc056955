/**
 * The benchmark scripts themselves: shellcheck on every one of them, then the real fio and ioping
 * on a temporary directory with tiny sizes, and pgbench.sh / collect-job.sh against stand-in
 * executables (their logic: readiness, initialisation, waiting, failure). CI installs shellcheck,
 * fio and ioping (Debian packages); a missing one fails these tests, it does not skip them.
 */
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { cutResultBlocks } from "../../../components/bench/collect";
import { renderFioJobFiles } from "../../../components/bench/profiles";
import { BENCH_SCRIPTS_DIR, COLLECT_SCRIPT_FILE, JOB_SCRIPT_FILES } from "../../../components/bench/scripts";

const script = (name: string) => path.join(BENCH_SCRIPTS_DIR, name);

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-scripts-"));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs `sh <script>` with `env` added to a minimal environment. */
function run(name: string, env: Record<string, string>, timeout = 30000) {
  const r = spawnSync("/bin/sh", [script(name)], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: tmp, ...env },
    encoding: "utf8",
    timeout,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes an executable stand-in `name` into dir (a POSIX sh script). */
function stub(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe("shellcheck", () => {
  const files = fs
    .readdirSync(BENCH_SCRIPTS_DIR)
    .filter((f) => f.endsWith(".sh"))
    .sort();

  it("finds every script", () => {
    expect(files).toEqual([...JOB_SCRIPT_FILES, COLLECT_SCRIPT_FILE].sort());
  });

  it("is installed (CI installs the Debian package; a missing shellcheck fails, never skips)", () => {
    expect(() => execFileSync("shellcheck", ["--version"], { encoding: "utf8" })).not.toThrow();
  });

  it.each(files)("%s is shellcheck-clean (all default checks, sourced files followed)", (file) => {
    const r = spawnSync("shellcheck", ["--external-sources", "--format=gcc", script(file)], { encoding: "utf8" });
    expect(r.error).toBeUndefined();
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it.each(files)("%s runs under set -eu and is POSIX sh", (file) => {
    const text = fs.readFileSync(script(file), "utf8");
    if (file === "lib.sh") {
      expect(text).toMatch(/^# shellcheck shell=sh\n/);
    } else {
      expect(text).toMatch(/^#!\/bin\/sh\n/);
      expect(text).toMatch(/^set -eu$/m);
    }
  });
});

describe("fio.sh with the real fio", () => {
  beforeEach(() => {
    for (const [name, text] of Object.entries(renderFioJobFiles())) fs.writeFileSync(path.join(tmp, name), text);
  });

  it("seed: each repetition's fio JSON between markers, test file removed afterwards", () => {
    const dir = path.join(tmp, "data", "fio");
    const r = run("fio.sh", { FIO_PROFILE: "seed", FIO_JOB_DIR: tmp, FIO_DIR: dir, FIO_SIZE: "16M", REPS: "2" });
    expect(r.stderr).toContain("fio repetition 2/2");
    expect(r.status).toBe(0);
    const blocks = cutResultBlocks(r.stdout, "fio.sh");
    expect(blocks.map((b) => [b.tool, b.rep, b.attrs.profile])).toEqual([
      ["fio", 1, "seed"],
      ["fio", 2, "seed"],
    ]);
    expect(blocks[0].attrs.version).toMatch(/^\d+\.\d+/);
    for (const b of blocks) {
      const json = JSON.parse(b.text);
      expect(json["fio version"]).toMatch(/^fio-/);
      expect(json.jobs.map((j: { jobname: string }) => j.jobname)).toEqual(["randrw"]);
      expect(json.jobs[0]["job options"]).toMatchObject({
        rw: "randrw",
        rwmixread: "75",
        bs: "4k",
        iodepth: "64",
        size: "16M",
        gtod_reduce: "1",
      });
      expect(json.jobs[0].read.io_bytes + json.jobs[0].write.io_bytes).toBe(16 * 2 ** 20);
    }
    // Nothing but markers and the tool's JSON on stdout.
    expect(r.stdout.split("\n").filter((l) => l.startsWith("===")).length).toBe(4);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("latency: both qd1 jobs, time based, with percentiles", () => {
    const r = run("fio.sh", {
      FIO_PROFILE: "latency",
      FIO_JOB_DIR: tmp,
      FIO_DIR: path.join(tmp, "d"),
      FIO_SIZE: "8M",
      FIO_RUNTIME: "1",
      FIO_RAMP: "0",
      REPS: "1",
    });
    expect(r.status).toBe(0);
    const [block] = cutResultBlocks(r.stdout, "fio.sh");
    const json = JSON.parse(block.text);
    expect(json.jobs.map((j: { jobname: string }) => j.jobname)).toEqual(["lat-randread-4k-qd1", "lat-randwrite-4k-qd1"]);
    expect(Object.keys(json.jobs[0].read.clat_ns.percentile)).toEqual([
      "50.000000",
      "90.000000",
      "95.000000",
      "99.000000",
      "99.900000",
      "99.990000",
    ]);
  });

  it("refuses to run without FIO_DIR, or with an unknown profile", () => {
    expect(run("fio.sh", { FIO_JOB_DIR: tmp })).toMatchObject({ status: 2, stdout: "" });
    expect(run("fio.sh", { FIO_JOB_DIR: tmp }).stderr).toContain("error: FIO_DIR must name the directory to test");
    const r = run("fio.sh", { FIO_JOB_DIR: tmp, FIO_DIR: tmp, FIO_PROFILE: "fast" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `error: no fio job file for profile 'fast' (${tmp}/fio-fast.fio); the job files are rendered by components/bench/profiles.ts (the Job's ConfigMap, lab bench local): set FIO_JOB_DIR`,
    );
    expect(run("fio.sh", { FIO_JOB_DIR: tmp, FIO_DIR: tmp, REPS: "0" }).stderr).toContain("error: REPS must be at least 1, got '0'");
  });

  it("fails with fio's status, and prints no result, when fio fails", () => {
    fs.writeFileSync(path.join(tmp, "fio-broken.fio"), "[x]\nrw=nonsense\nsize=${FIO_SIZE}\nfilename=${FIO_DIR}/f\n");
    const r = run("fio.sh", { FIO_JOB_DIR: tmp, FIO_DIR: tmp, FIO_PROFILE: "broken", FIO_SIZE: "1M", REPS: "1" });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("fio failed with status");
  });
});

describe("ioping.sh with the real ioping", () => {
  it("JSON: each repetition's ioping -J output between markers", () => {
    const r = run("ioping.sh", { IOPING_DIR: path.join(tmp, "io"), IOPING_COUNT: "4", IOPING_INTERVAL: "0", REPS: "2" });
    expect(r.status).toBe(0);
    const blocks = cutResultBlocks(r.stdout, "ioping.sh");
    expect(blocks.map((b) => [b.tool, b.rep, b.attrs.format])).toEqual([
      ["ioping", 1, "json"],
      ["ioping", 2, "json"],
    ]);
    for (const b of blocks) {
      const json = JSON.parse(b.text) as Array<{ io?: { ignored: boolean }; stat?: { count: number } }>;
      expect(json.filter((e) => e.io).length).toBe(4);
      expect(json.filter((e) => e.io?.ignored).length).toBe(1);
      expect(json.find((e) => e.stat)?.stat?.count).toBe(3);
    }
    expect(r.stderr).toContain("ioping -c 4 -a 1 -i 0 -s 4k -S 1m -J");
  });

  it("text: the summary between markers", () => {
    const r = run("ioping.sh", {
      IOPING_DIR: tmp,
      IOPING_COUNT: "3",
      IOPING_INTERVAL: "0",
      IOPING_FORMAT: "text",
      IOPING_DIRECT: "1",
      REPS: "1",
    });
    expect(r.status).toBe(0);
    const [block] = cutResultBlocks(r.stdout, "ioping.sh");
    expect(block.attrs.format).toBe("text");
    expect(block.text).toMatch(/ioping statistics ---\n/);
    expect(block.text).toMatch(/^min\/avg\/max\/mdev = /m);
  });

  it("refuses fewer requests than the warm-up needs", () => {
    const r = run("ioping.sh", { IOPING_DIR: tmp, IOPING_COUNT: "1" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("error: IOPING_COUNT must be at least 2, got '1'");
  });
});

describe("pgbench.sh against stand-in pg_isready, psql and pgbench", () => {
  /** Stand-ins: pg_isready answers "no response" until the Nth call; psql keeps the table comment in a file. */
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
        `case $q in`,
        `  'select 1') echo 1 ;;`,
        `  select*obj_description*) cat "${state}/comment" 2>/dev/null || echo ;;`,
        `  comment*) echo "$q" | sed "s/.* is '\\(.*\\)'$/\\1/" > "${state}/comment" ;;`,
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
      PGBENCH_PROGRESS: "1",
    };
    const calls = () => fs.readFileSync(path.join(state, "calls"), "utf8").trim().split("\n");
    return { env, calls };
  }

  it("waits for readiness, initialises once, runs REPS times with markers", () => {
    const { env, calls } = stubs(2, undefined);
    const r = run("pgbench.sh", { ...env, REPS: "2", PG_READY_TIMEOUT: "20" });
    expect(r.stderr).toContain("server ready after 2 attempt(s)");
    expect(r.status).toBe(0);
    expect(calls()).toEqual([
      "pgbench --version",
      "pgbench -i -s 5 --foreign-keys",
      "pgbench -c 4 -j 2 -T 1 -P 1 -r",
      "pgbench -c 4 -j 2 -T 1 -P 1 -r",
    ]);
    const blocks = cutResultBlocks(r.stdout, "pgbench.sh");
    expect(blocks.map((b) => b.attrs)).toEqual(
      [1, 2].map((rep) => ({ tool: "pgbench", rep: String(rep), scale: "5", clients: "4", threads: "2", duration: "1", version: "17.6" })),
    );
    expect(blocks[0].text).toBe("pgbench (17.6)\ntps = 10.0 (without initial connection time)\n");
    // Progress and vacuum lines (stderr) stay outside the blocks.
    expect(r.stdout).not.toContain("progress:");
  });

  it("auto skips the initialisation when the stamp of this scale is there, redoes it for another scale", () => {
    const same = stubs(1, "lab: pgbench -i -s 5 --foreign-keys complete");
    const r = run("pgbench.sh", { ...same.env, REPS: "1", PGBENCH_PROGRESS: "0", PGBENCH_PER_STATEMENT: "0" });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("already initialised at scale 5: skipping pgbench -i");
    expect(same.calls()).toEqual(["pgbench --version", "pgbench -c 4 -j 2 -T 1"]);

    fs.rmSync(path.join(tmp, "bin"), { recursive: true });
    fs.rmSync(path.join(tmp, "state"), { recursive: true });
    const other = stubs(1, "lab: pgbench -i -s 1000 --foreign-keys complete");
    expect(run("pgbench.sh", { ...other.env, REPS: "1" }).status).toBe(0);
    expect(other.calls()).toContain("pgbench -i -s 5 --foreign-keys");
  });

  it("gives up with status 3 when the server is not ready in time", () => {
    const { env } = stubs(1000, undefined);
    const r = run("pgbench.sh", { ...env, PG_READY_TIMEOUT: "1" });
    expect(r.status).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("server at pg.invalid:5432 not ready within 1s (pg_isready status 2)");
  });
});

describe("collect-job.sh against a stand-in kubectl", () => {
  function kubectl(conditions: string): { env: Record<string, string>; calls: () => string[] } {
    const bin = path.join(tmp, "bin");
    fs.mkdirSync(bin);
    const calls = path.join(tmp, "calls");
    stub(
      bin,
      "kubectl",
      [
        `echo "$* KUBECONFIG=$(cat "$KUBECONFIG")" >> "${calls}"`,
        `case $3 in`,
        `  get) printf '%s' "${conditions}" ;;`,
        `  logs) printf '=== LAB-RESULT-BEGIN tool=fio rep=1 ===\\n{}\\n=== LAB-RESULT-END tool=fio rep=1 ===\\n' ;;`,
        `  describe) echo "Events: DeadlineExceeded" ;;`,
        `esac`,
      ].join("\n"),
    );
    return {
      env: {
        KUBECTL_BIN: path.join(bin, "kubectl"),
        JOB_NAME: "b-fio-r1",
        JOB_NAMESPACE: "bench",
        WAIT_TIMEOUT_SECONDS: "5",
        POLL_SECONDS: "1",
        LAB_KUBECONFIG: "apiVersion: v1\nkind: Config",
      },
      calls: () => fs.readFileSync(calls, "utf8").trim().split("\n"),
    };
  }

  it("Complete: prints the Job's log on stdout; the kubeconfig went through a temporary file, removed after", () => {
    const { env, calls } = kubectl("SuccessCriteriaMet Complete ");
    const r = run(COLLECT_SCRIPT_FILE, env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("=== LAB-RESULT-BEGIN tool=fio rep=1 ===\n{}\n=== LAB-RESULT-END tool=fio rep=1 ===\n");
    expect(calls()).toEqual([
      `--namespace bench get job/b-fio-r1 -o jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{" "}{end} KUBECONFIG=apiVersion: v1`,
      "kind: Config",
      "--namespace bench logs job/b-fio-r1 KUBECONFIG=apiVersion: v1",
      "kind: Config",
    ]);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith("lab-collect."))).toEqual([]);
  });

  it("Failed: exits 1 with the description and the log on stderr, nothing on stdout", () => {
    const { env } = kubectl("FailureTarget Failed ");
    const r = run(COLLECT_SCRIPT_FILE, env);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("job/b-fio-r1 in namespace bench failed");
    expect(r.stderr).toContain("Events: DeadlineExceeded");
    expect(r.stderr).toContain("=== LAB-RESULT-BEGIN tool=fio rep=1 ===");
  });

  it("still running at the timeout: exits 1", () => {
    const { env } = kubectl("");
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "1" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("job/b-fio-r1 in namespace bench did not finish within 1s");
  });

  it("refuses to run without its parameters", () => {
    const r = run(COLLECT_SCRIPT_FILE, { JOB_NAMESPACE: "bench", WAIT_TIMEOUT_SECONDS: "1" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("error: JOB_NAME is not set");
  });
});
