/**
 * The benchmark scripts themselves: shellcheck on every one of them, then the real fio and ioping
 * on a temporary directory with tiny sizes, and collect-job.sh against a stand-in kubectl (its
 * logic: waiting, failure, a Job gone; with MOUNT_FIX, its pods' FailedMount events). pgbench.sh has its own file (scripts/pgbench.test.ts).
 * CI installs shellcheck, fio and ioping (Debian packages); a missing one fails these tests, it
 * does not skip them.
 */
import { execFileSync, spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { cutResultBlocks } from "../../../components/bench/collect";
import { renderFioJobFiles } from "../../../components/bench/profiles";
import { BENCH_SCRIPTS_DIR, COLLECT_SCRIPT_FILE, JOB_SCRIPT_FILES } from "../../../components/bench/scripts";
import { CRI_LINE_PREFIX_BYTES, IOPING_LOG_BYTES_PER_REP, IOPING_LOG_BYTES_PER_REQUEST } from "../../../components/bench/sizing";
import { collectorAccountName, collectorGrant } from "../../../components/bench/access";
import { collectorStdout, runScript, STAND_IN_TOKEN, standInKubectl, type StandInWorld } from "./support";

/** Bytes `log` takes in a kubelet container log file: every line with its CRI prefix (sizing.ts). */
const criBytes = (log: string) =>
  log
    .split("\n")
    .filter((l, i, all) => i < all.length - 1 || l !== "")
    .reduce((n, l) => n + CRI_LINE_PREFIX_BYTES + Buffer.byteLength(l) + 1, 0);

const REFUSAL = (tool: string, id: string) => `error: ${tool} already ran to completion under run id ${id} (finished `;

const script = (name: string) => path.join(BENCH_SCRIPTS_DIR, name);

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-scripts-"));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs `sh <script>` with `env` added to a minimal environment. */
const run = (name: string, env: Record<string, string>, timeout = 30000) => runScript(script(name), env, tmp, timeout);

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
    expect(r.stdout.split("\n").filter((l) => l.startsWith("=== LAB-RESULT-")).length).toBe(4);
    // ...and each repetition's node sampler summary after its block (lib.sh lab_util_emit).
    expect(r.stdout.split("\n").filter((l) => l.startsWith("=== LAB-UTIL-")).length).toBe(4);
    expect(r.stdout.split("\n").filter((l) => l.startsWith("===")).length).toBe(8);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("the test file is laid out once, before the first repetition's window: rep 1 starts on a whole file", () => {
    // A stand-in for fio that logs each call and the test file's size when it starts, then runs the real fio.
    const dir = path.join(tmp, "layout");
    const log = path.join(tmp, "fio-calls.log");
    const wrapper = path.join(tmp, "fio-logged");
    fs.writeFileSync(
      wrapper,
      `#!/bin/sh\nsize=$(stat -c %s "${dir}/lab-fio.dat" 2>/dev/null || echo none)\necho "size=$size args=$*" >> "${log}"\nexec fio "$@"\n`,
      { mode: 0o755 },
    );
    const r = run("fio.sh", { FIO_PROFILE: "seed", FIO_JOB_DIR: tmp, FIO_DIR: dir, FIO_SIZE: "16M", REPS: "2", FIO_BIN: wrapper });
    expect(r.status).toBe(0);
    const calls = fs.readFileSync(log, "utf8").trim().split("\n");
    const job = path.join(tmp, "fio-seed.fio");
    expect(calls).toEqual([
      "size=none args=--version",
      `size=none args=--create_only=1 --output=${calls[1].split("--output=")[1].split(" ")[0]} ${job}`,
      expect.stringMatching(new RegExp(`^size=${16 * 2 ** 20} args=--output-format=json --output=\\S+ ${job.replace(/[.]/g, "\\.")}$`)),
      expect.stringMatching(new RegExp(`^size=${16 * 2 ** 20} args=--output-format=json`)),
    ]);
    expect(r.stderr).toContain("fio: laying out the test file (16M) before the repetitions");
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
      `error: no fio job file for profile 'fast' (${tmp}/fio-fast.fio); the job files are rendered by components/bench/profiles.ts (the Job's ConfigMap holds them): set FIO_JOB_DIR`,
    );
    expect(run("fio.sh", { FIO_JOB_DIR: tmp, FIO_DIR: tmp, REPS: "0" }).stderr).toContain("error: REPS must be at least 1, got '0'");
  });

  it("a run id runs once: the second Job under it refuses with status 4, before fio touches the volume", () => {
    const dir = path.join(tmp, "data", "fio");
    const runs = path.join(tmp, "data", ".lab-runs");
    const env = { FIO_PROFILE: "seed", FIO_JOB_DIR: tmp, FIO_DIR: dir, FIO_SIZE: "1M", REPS: "1", LAB_RUN_ID: "r1", LAB_RUNS_DIR: runs };
    expect(run("fio.sh", env).status).toBe(0);
    expect(fs.readdirSync(runs)).toEqual(["fio-r1"]);
    const finished = fs.readFileSync(path.join(runs, "fio-r1"), "utf8").trim();
    expect(finished).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    fs.rmSync(dir, { recursive: true });
    const again = run("fio.sh", env);
    expect(again.status).toBe(4);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain(`${REFUSAL("fio", "r1")}${finished}): refusing to run it again under the same id`);
    expect(fs.existsSync(dir)).toBe(false);
    expect(run("fio.sh", { ...env, LAB_RUN_ID: "r2" }).status).toBe(0);
    expect(run("fio.sh", { ...env, LAB_RUN_ID: "R2" }).stderr).toContain(
      "error: LAB_RUN_ID must be lower-case letters, digits and '-', got 'R2'",
    );
  });

  it("fails with fio's status, and prints no result, when fio fails", () => {
    fs.writeFileSync(path.join(tmp, "fio-broken.fio"), "[x]\nrw=nonsense\nsize=${FIO_SIZE}\nfilename=${FIO_DIR}/f\n");
    const r = run("fio.sh", { FIO_JOB_DIR: tmp, FIO_DIR: tmp, FIO_PROFILE: "broken", FIO_SIZE: "1M", REPS: "1" });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe("");
    // an invalid job file fails at the layout, before any repetition, with fio's own status and output
    expect(r.stderr).toMatch(/fio could not lay out the test file \(status [1-9]\d*\); its output follows/);
    expect(r.stderr).not.toContain("fio repetition 1/1");
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

  it("a run id runs once: the second Job under it refuses with status 4", () => {
    const runs = path.join(tmp, "runs");
    const env = {
      IOPING_DIR: path.join(tmp, "io"),
      IOPING_COUNT: "2",
      IOPING_INTERVAL: "0",
      REPS: "1",
      LAB_RUN_ID: "r1",
      LAB_RUNS_DIR: runs,
    };
    expect(run("ioping.sh", env).status).toBe(0);
    const again = run("ioping.sh", env);
    expect(again.status).toBe(4);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain(REFUSAL("ioping", "r1"));
    // Without a run id (a run by hand) nothing is stamped or refused.
    const byHand: Record<string, string> = { ...env };
    delete byHand.LAB_RUN_ID;
    expect(run("ioping.sh", byHand).status).toBe(0);
  });

  it("its JSON stays within the container-log bounds sizing.ts counts: 16 lines and at most 1200 bytes a request", () => {
    // A long directory name, as a PVC mount path and device can be longer than this machine's.
    const dir = path.join(tmp, "x".repeat(60), "ioping");
    const log = (count: number) => {
      // The node sampler's summary varies with the node's other I/O: off here, bounded by test/core/parsers/sampler.test.ts.
      const r = run("ioping.sh", { IOPING_DIR: dir, IOPING_COUNT: String(count), IOPING_INTERVAL: "0", REPS: "1", LAB_SAMPLER: "off" });
      expect(r.status).toBe(0);
      return `${r.stderr}${r.stdout}`; // all of it reaches the container log
    };
    const small = log(20);
    const large = log(120);
    const perRequest = (criBytes(large) - criBytes(small)) / 100;
    expect((large.split("\n").length - small.split("\n").length) / 100).toBe(16);
    expect(perRequest).toBeLessThanOrEqual(IOPING_LOG_BYTES_PER_REQUEST);
    expect(perRequest).toBeGreaterThan(16 * CRI_LINE_PREFIX_BYTES); // the prefixes are most of it
    expect(criBytes(small) - 20 * perRequest).toBeLessThanOrEqual(IOPING_LOG_BYTES_PER_REP);
  });

  it("refuses fewer requests than the warm-up needs", () => {
    const r = run("ioping.sh", { IOPING_DIR: tmp, IOPING_COUNT: "1" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("error: IOPING_COUNT must be at least 2, got '1'");
  });
});

describe("collect-job.sh against a stand-in kubectl", () => {
  const LOG = "=== LAB-RESULT-BEGIN tool=fio rep=1 ===\n{}\n=== LAB-RESULT-END tool=fio rep=1 ===\n";
  /** The run's collector as BenchmarkRun creates it (components/bench/access.ts). */
  const GRANT = collectorGrant(collectorAccountName("b"), "bench", ["b-fio-r1", "b-ioping-r1"]);
  const kubectl = (conditions: string, more: Partial<StandInWorld> = {}) =>
    standInKubectl(tmp, { namespace: "bench", job: "b-fio-r1", pod: "b-fio-r1-x7k2p", conditions, log: LOG, grant: GRANT, ...more });
  const GET = `--namespace bench get job/b-fio-r1 -o jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}`;
  const TOKEN_REQUEST = "admin create token b-collect --namespace bench --duration 1200s";
  const CONFIG_VIEW = [
    "local config view --minify --raw --flatten -o jsonpath={.clusters[0].cluster.server}",
    "local config view --minify --raw --flatten -o jsonpath={.clusters[0].cluster.certificate-authority-data}",
  ];

  it("Complete: the admin kubeconfig asks for the token only, every read uses the token (kubeconfig 0600, removed after); the log on stdout", () => {
    const { env, calls, requests } = kubectl("SuccessCriteriaMet Complete ");
    const r = run(COLLECT_SCRIPT_FILE, env);
    expect(r.stderr.split("\n").filter((l) => l.includes("error"))).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(LOG);
    expect(calls()).toEqual([
      ...CONFIG_VIEW,
      TOKEN_REQUEST,
      `token ${GET} (kubeconfig mode 600)`,
      "token --namespace bench logs job/b-fio-r1 (kubeconfig mode 600)",
    ]);
    expect(requests()).toEqual([
      "get batch jobs b-fio-r1 bench",
      "get batch jobs b-fio-r1 bench",
      "list core pods - bench",
      "get core pods/log b-fio-r1-x7k2p bench",
    ]);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith("lab-collect."))).toEqual([]);
  });

  it("with LAB_RUN_METADATA: the run metadata line, then the log, on stdout; exactly what the tests' collectorStdout mocks", () => {
    const { env } = kubectl("SuccessCriteriaMet Complete ");
    const recorded = '{"instanceType":"m5.xlarge","hypervisor":"nitro","runId":"r1"}';
    const r = run(COLLECT_SCRIPT_FILE, { ...env, LAB_RUN_METADATA: recorded });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`=== LAB-RUN-METADATA ${recorded} ===\n${LOG}`);
    expect(r.stdout).toBe(collectorStdout({ environment: { LAB_RUN_METADATA: recorded } }, LOG));
  });

  it.each([
    ["not an object", "r1", "LAB_RUN_METADATA must be one line of JSON, an object, got 'r1'"],
    ["several lines", '{"a":\n1}', "LAB_RUN_METADATA must be one line of JSON, an object, got several lines"],
  ])("LAB_RUN_METADATA %s: refused before any call (exit 2)", (_what, value, message) => {
    const { env, calls } = kubectl("SuccessCriteriaMet Complete ");
    const r = run(COLLECT_SCRIPT_FILE, { ...env, LAB_RUN_METADATA: value });
    expect([r.status, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toContain(`[lab] error: ${message}\n`);
    expect(calls()).toEqual([]);
  });

  it("Failed: exits 1 with the description and the log on stderr, nothing on stdout; all of it read with the token", () => {
    const { env, calls, requests } = kubectl("FailureTarget Failed ");
    const r = run(COLLECT_SCRIPT_FILE, env);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("job/b-fio-r1 in namespace bench failed");
    expect(r.stderr).toContain("Events: DeadlineExceeded");
    expect(r.stderr).toContain("=== LAB-RESULT-BEGIN tool=fio rep=1 ===");
    expect(calls().filter((c) => c.startsWith("admin"))).toEqual([TOKEN_REQUEST]);
    expect(requests()).toEqual([
      "get batch jobs b-fio-r1 bench",
      "get batch jobs b-fio-r1 bench",
      "get batch jobs b-fio-r1 bench",
      "list core events - bench",
      "get batch jobs b-fio-r1 bench",
      "list core pods - bench",
      "get core pods/log b-fio-r1-x7k2p bench",
    ]);
  });

  it("a Job outside the Role (another run's): refused by the API server, says so and exits 1 at once", () => {
    const { env, calls } = kubectl("SuccessCriteriaMet Complete ", { job: "other-fio-r1" });
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "600" });
    expect([r.status, r.stdout]).toEqual([1, ""]);
    expect(r.stderr).toContain(
      `[lab] error: serviceaccount b-collect in namespace bench may not read job/other-fio-r1 (Error from server (Forbidden): jobs.batch "other-fio-r1" is forbidden: User "system:serviceaccount:bench:b-collect" cannot get resource "jobs" in API group "batch" in the namespace "bench"): its Role lists the Jobs of its run by name`,
    );
    expect(calls().filter((c) => c.startsWith("admin"))).toEqual([TOKEN_REQUEST]);
  });

  it("the stand-in refuses the token what the Role does not grant: another token, a Secret's worth of calls", () => {
    const { env } = kubectl("");
    const kc = path.join(tmp, "kc");
    fs.writeFileSync(kc, `    token: ${STAND_IN_TOKEN}\n`);
    const as = (args: string[]) => spawnSync(env.KUBECTL_BIN, args, { env: { PATH: process.env.PATH, KUBECONFIG: kc }, encoding: "utf8" });
    const r = as(["create", "token", "b-collect", "--namespace", "bench", "--duration", "1200s"]);
    expect([r.status, r.stdout, r.stderr]).toEqual([
      1,
      "",
      'Error from server (Forbidden): serviceaccounts "b-collect" is forbidden: User "system:serviceaccount:bench:b-collect" cannot create resource "serviceaccounts/token" in API group "" in the namespace "bench"\n',
    ]);
  });

  it("a token the server shortened: refused as Unauthorized, one new token through the admin kubeconfig, then on", () => {
    const { env, calls, requests } = kubectl("", { tokenLifetimeCalls: 1 });
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "2" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("[lab] the token of serviceaccount b-collect expired (the server shortened it): requesting another");
    expect(
      calls()
        .filter((c) => c.startsWith("admin"))
        .slice(0, 2),
    ).toEqual([TOKEN_REQUEST, TOKEN_REQUEST]);
    expect(requests().slice(0, 3)).toEqual(["get batch jobs b-fio-r1 bench", "unauthorized (expired)", "get batch jobs b-fio-r1 bench"]);
  });

  it("a token refused as soon as it was issued: exits 1 naming the account", () => {
    const { env } = kubectl("", { tokenLifetimeCalls: 0 });
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "600" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "[lab] error: the token of serviceaccount b-collect in namespace bench was refused as soon as it was issued: error: You must be logged in to the server (Unauthorized)",
    );
  });

  it("still running at the timeout: exits 1", () => {
    const { env } = kubectl("");
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "1" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("job/b-fio-r1 in namespace bench did not finish within 1s");
  });

  it("the Job is gone (NotFound): says what happened and exits 1 at once, without waiting for the timeout", () => {
    const { env, calls } = kubectl("", { getError: 'Error from server (NotFound): jobs.batch "b-fio-r1" not found' });
    const started = Date.now();
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "600", POLL_SECONDS: "30" });
    expect(Date.now() - started).toBeLessThan(10000);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      `[lab] job/b-fio-r1 in namespace bench does not exist (Error from server (NotFound): jobs.batch "b-fio-r1" not found): it was deleted before its log was collected (ttlSecondsAfterFinished after it finished, or by hand), so this run's results cannot be read; set a new run id to run the benchmark again`,
    );
    expect(calls().filter((c) => c.startsWith("token"))).toHaveLength(1);
  });

  it("any other API error is retried until the timeout", () => {
    const { env, calls } = kubectl("", { getError: "Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout" });
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "2" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("kubectl get failed (retrying): Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout");
    expect(r.stderr).toContain("job/b-fio-r1 in namespace bench did not finish within 2s");
    expect(calls().filter((c) => c.includes(" get job/")).length).toBeGreaterThanOrEqual(2);
  });

  it("a token request the admin identity cannot make: exits 1 with kubectl's error, before any read", () => {
    const { env, calls } = kubectl("SuccessCriteriaMet Complete ");
    const r = run(COLLECT_SCRIPT_FILE, { ...env, COLLECTOR_ACCOUNT: "missing-collect" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      '[lab] error: cannot get a token of serviceaccount missing-collect in namespace bench: error: failed to create token: serviceaccounts "missing-collect" not found',
    );
    expect(calls().filter((c) => !c.startsWith("local"))).toEqual([
      "admin create token missing-collect --namespace bench --duration 1200s",
    ]);
  });

  it.each([
    [{ JOB_NAME: "" }, "error: JOB_NAME is not set"],
    [{ COLLECTOR_ACCOUNT: "" }, "error: COLLECTOR_ACCOUNT is not set"],
    [{ TOKEN_SECONDS: "599" }, "error: TOKEN_SECONDS must be a whole number of at least 600, got '599'"],
    [{ TOKEN_SECONDS: "1h" }, "error: TOKEN_SECONDS must be a whole number of at least 600, got '1h'"],
  ])("refuses to run without its parameters: %j", (bad, message) => {
    const { env, calls } = kubectl("");
    const r = run(COLLECT_SCRIPT_FILE, { ...env, ...bad });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(calls()).toEqual([]);
  });
});

describe("collect-job.sh with JOB_SECRET: a Secret that lives only while its Job is awaited (the kafka ontap Job's credentials)", () => {
  const GRANT = collectorGrant(collectorAccountName("kafka-storage-ontap"), "kafka-storage", ["kafka-storage-ontap"]);
  const PASSWORD = "Pa55-w0rd-never-on-argv";
  const SECRET = JSON.stringify({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "ontap-vsadmin", namespace: "kafka-storage" },
    immutable: true,
    stringData: { username: "vsadmin", password: PASSWORD },
  });
  const kubectl = (conditions: string, more: Partial<StandInWorld> = {}) =>
    standInKubectl(tmp, {
      namespace: "kafka-storage",
      job: "kafka-storage-ontap",
      pod: "kafka-storage-ontap-q2w8r",
      conditions,
      log: "[lab] export policy lab-kafka-brokers set\n",
      grant: GRANT,
      ...more,
    });
  const DELETE = "admin --namespace kafka-storage delete secret ontap-vsadmin --ignore-not-found --wait=false";
  const CREATE = "admin --namespace kafka-storage create -f -";
  const withSecret = (env: Record<string, string>) => ({ ...env, JOB_SECRET: SECRET, JOB_SECRET_NAME: "ontap-vsadmin" });

  it("Complete: a leftover deleted, the Secret created from stdin (never on a command line) before the wait, deleted after; the Role only reads", () => {
    const k = kubectl("SuccessCriteriaMet Complete ");
    const r = run(COLLECT_SCRIPT_FILE, withSecret(k.env));
    expect(r.status).toBe(0);
    const admin = k.calls().filter((c) => c.startsWith("admin"));
    expect(admin).toEqual([
      "admin create token kafka-storage-ontap-collect --namespace kafka-storage --duration 1200s",
      DELETE,
      CREATE,
      DELETE,
    ]);
    // created before the first look at the Job, deleted after its log was read
    const calls = k.calls();
    expect(calls.indexOf(CREATE)).toBeLessThan(calls.findIndex((c) => c.startsWith("token")));
    expect(calls.lastIndexOf(DELETE)).toBe(calls.length - 1);
    expect(k.createdSecret()).toBe(`${SECRET}\n`);
    expect(calls.join("\n")).not.toContain(PASSWORD);
    expect(k.secretPresent()).toBe(false);
    expect(k.requests().filter((q) => q.includes("secrets"))).toEqual([]);
    expect(r.stderr).toContain(
      "[lab] secret/ontap-vsadmin created in namespace kafka-storage for job/kafka-storage-ontap; deleted when this wait ends\n",
    );
    expect(r.stderr).toContain("[lab] secret/ontap-vsadmin in namespace kafka-storage deleted\n");
  });

  it("Failed: exit 1 as without it, and the Secret is deleted all the same", () => {
    const k = kubectl("FailureTarget Failed ");
    const r = run(COLLECT_SCRIPT_FILE, withSecret(k.env));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("job/kafka-storage-ontap in namespace kafka-storage failed");
    expect(k.secretPresent()).toBe(false);
    expect(k.calls()[k.calls().length - 1]).toBe(DELETE);
  });

  it("stopped while it waits (SIGTERM: pulumi cancelled): the Secret is deleted, exit 143", async () => {
    const k = kubectl("");
    const child = spawn("/bin/sh", [script(COLLECT_SCRIPT_FILE)], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: tmp, ...withSecret({ ...k.env, WAIT_TIMEOUT_SECONDS: "60" }) },
    });
    let stderr = "";
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    await Promise.race([
      new Promise<void>((ready) =>
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes("waiting up to 60s")) ready();
        }),
      ),
      exited,
    ]);
    expect(stderr).toContain("waiting up to 60s");
    expect(k.secretPresent()).toBe(true);
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(k.secretPresent()).toBe(false);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith("lab-collect."))).toEqual([]);
  });

  it("a delete the API server refuses fails the wait (exit 1) with the command to run, though the Job completed", () => {
    const k = kubectl("SuccessCriteriaMet Complete ", {
      secretDeleteError:
        'Error from server (InternalError): an error on the server ("etcdserver: request timed out") has prevented the request from succeeding',
    });
    const r = run(COLLECT_SCRIPT_FILE, withSecret(k.env));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("[lab] export policy lab-kafka-brokers set");
    expect(r.stderr).toContain(
      "[lab] error: cannot delete secret/ontap-vsadmin in namespace kafka-storage (Error from server (InternalError): an error on the server " +
        '("etcdserver: request timed out") has prevented the request from succeeding): the credentials stay in the cluster until it is deleted: ' +
        "kubectl --namespace kafka-storage delete secret ontap-vsadmin (or run pulumi up again)\n",
    );
  });

  it("a create the API server refuses: exit 1 before the wait, naming the error; nothing is left to delete", () => {
    const k = kubectl("SuccessCriteriaMet Complete ");
    fs.writeFileSync(path.join(tmp, "bin", "kubectl.real"), fs.readFileSync(path.join(tmp, "bin", "kubectl")));
    fs.chmodSync(path.join(tmp, "bin", "kubectl.real"), 0o755);
    fs.writeFileSync(
      path.join(tmp, "bin", "kubectl"),
      `#!/bin/sh\nif [ "$3" = create ]; then echo 'Error from server (AlreadyExists): secrets "ontap-vsadmin" already exists' >&2; exit 1; fi\nexec "${path.join(tmp, "bin", "kubectl.real")}" "$@"\n`,
    );
    const r = run(COLLECT_SCRIPT_FILE, withSecret(k.env));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      '[lab] error: cannot create secret/ontap-vsadmin in namespace kafka-storage for job/kafka-storage-ontap: Error from server (AlreadyExists): secrets "ontap-vsadmin" already exists\n',
    );
    expect(k.calls().filter((c) => c.startsWith("token"))).toEqual([]);
  });

  it.each([
    [{ JOB_SECRET: SECRET }, "JOB_SECRET_NAME must be a Secret's name (lower-case letters, digits, '-'), got ''"],
    [
      { JOB_SECRET: "username=vsadmin", JOB_SECRET_NAME: "ontap-vsadmin" },
      "JOB_SECRET must be one line of JSON, a Secret's manifest, got something else",
    ],
    [
      { JOB_SECRET: '{"kind":\n"Secret"}', JOB_SECRET_NAME: "ontap-vsadmin" },
      "JOB_SECRET must be one line of JSON, a Secret's manifest, got several lines",
    ],
    [
      { JOB_SECRET: SECRET, JOB_SECRET_NAME: "ontap-vsadmin", JOB_NAME: "", KAFKA_NAME: "kafka" },
      "JOB_SECRET is for a Job (JOB_NAME), not for a Kafka",
    ],
  ])("bad JOB_SECRET settings are refused before any call (exit 2): %j", (more, message) => {
    const k = kubectl("SuccessCriteriaMet Complete ");
    const r = run(COLLECT_SCRIPT_FILE, { ...k.env, ...more });
    expect([r.status, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toContain(`[lab] error: ${message}\n`);
    expect(k.calls()).toEqual([]);
  });
});

describe("collect-job.sh with MOUNT_FIX: the FailedMount events of the Job's pods", () => {
  /**
   * The kubelet's event when the SVM refuses a static `nfs` volume's mount: mount-utils' error (exit
   * status 32, the command, its output: several lines) with mount.nfs's EACCES text (nfs-utils
   * utils/mount/error.c mount_error).
   */
  const REFUSED = [
    'MountVolume.SetUp failed for volume "kafka-storage-root-0" : mount failed: exit status 32',
    "Mounting command: mount",
    "Mounting arguments: -t nfs -o nconnect=16,nfsvers=4.1 10.0.1.5:/kafkafsxN1 /var/lib/kubelet/pods/5b0c/volumes/kubernetes.io~nfs/kafka-storage-root-0",
    "Output: mount.nfs: access denied by server while mounting 10.0.1.5:/kafkafsxN1",
  ].join("\n");
  const TIMED_OUT = [
    'MountVolume.SetUp failed for volume "kafka-storage-root-1" : mount failed: exit status 32',
    "Output: mount.nfs: Connection timed out",
  ].join("\n");
  const POD = "kafka-storage-prepare-x7k2p";
  const FIX = "fix the export policy:\n  vserver export-policy rule show -vserver kafkasvm -policyname lab-kafka-brokers";
  /** The stand-in (support.ts) with the storage Job's collector: `get job` answers `conditions`, `get pods` the Job's pod, `get events` `events`, `logs` `log`. */
  function kubectl(conditions: string, events: Array<[string, string]>, log = "(no log)\n") {
    const grant = collectorGrant(collectorAccountName("kafka-storage-prepare"), "kafka-storage", ["kafka-storage-prepare"]);
    const k = standInKubectl(tmp, { namespace: "kafka-storage", job: "kafka-storage-prepare", pod: POD, conditions, events, log, grant });
    return {
      env: { ...k.env, WAIT_TIMEOUT_SECONDS: "2", POLL_SECONDS: "1", MOUNT_FIX: FIX },
      // The reads, as the stand-in recorded them with the token (the admin kubeconfig only asked for it).
      calls: () =>
        k
          .calls()
          .filter((c) => c.startsWith("token "))
          .map((c) => c.replace(/^token /, "").replace(/ \(kubeconfig mode 600\)$/, "")),
    };
  }
  /** What collect-job.sh prints of FIX (each line an error), and the end of its stderr. */
  const FIX_LINES = [
    "[lab] error: fix the export policy:",
    "[lab] error:   vserver export-policy rule show -vserver kafkasvm -policyname lab-kafka-brokers",
    "",
  ];
  /** stderr without the timestamps. */
  const lines = (stderr: string) => stderr.split("\n").map((l) => l.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /, ""));

  it("a mount the server refused on the Job's pod: the event (one line, its newlines quoted) and the fix, exit 1 at once; other mount failures are shown once", () => {
    const { env, calls } = kubectl("", [
      [POD, TIMED_OUT],
      ["other-pod", REFUSED.replace("root-0", "root-9")],
      [POD, REFUSED],
    ]);
    const started = Date.now();
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "600" });
    expect(Date.now() - started).toBeLessThan(10000);
    expect([r.status, r.stdout]).toEqual([1, ""]);
    expect(lines(r.stderr)).toEqual([
      "[lab] waiting up to 600s for job/kafka-storage-prepare in namespace kafka-storage",
      `[lab] FailedMount of pod ${POD} (the kubelet retries): ${JSON.stringify(TIMED_OUT)}`,
      `[lab] error: pod ${POD} of job/kafka-storage-prepare cannot mount a volume, the NFS server refused it: ${JSON.stringify(REFUSED)}`,
      ...FIX_LINES,
    ]);
    expect(calls()).toEqual([
      `--namespace kafka-storage get job/kafka-storage-prepare -o jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}`,
      `--namespace kafka-storage get pods -l batch.kubernetes.io/job-name=kafka-storage-prepare -o jsonpath={range .items[*]}{.metadata.name}{"\\n"}{end}`,
      `--namespace kafka-storage get events --field-selector reason=FailedMount -o go-template={{range .items}}{{.involvedObject.name}}{{"\\t"}}{{printf "%q" .message}}{{"\\n"}}{{end}}`,
    ]);
  });

  it("a Job already Failed: its pods' events are read first, and a refused mount gives the fix, not the description", () => {
    const { env, calls } = kubectl("Failed ", [[POD, REFUSED]]);
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "600" });
    expect(r.status).toBe(1);
    expect(lines(r.stderr).slice(1)).toEqual([
      `[lab] error: pod ${POD} of job/kafka-storage-prepare cannot mount a volume, the NFS server refused it: ${JSON.stringify(REFUSED)}`,
      ...FIX_LINES,
    ]);
    expect(calls().some((c) => c.includes(" describe ") || c.includes(" logs "))).toBe(false);
  });

  it("a Job Failed for another reason: its description and log, no fix", () => {
    const { env } = kubectl("Failed ", [[POD, TIMED_OUT]], "[lab] error: /volumes/0 is not a mount point: the volume is not mounted\n");
    const r = run(COLLECT_SCRIPT_FILE, { ...env, WAIT_TIMEOUT_SECONDS: "600" });
    expect(r.status).toBe(1);
    expect(lines(r.stderr).slice(1)).toEqual([
      `[lab] FailedMount of pod ${POD} (the kubelet retries): ${JSON.stringify(TIMED_OUT)}`,
      "[lab] job/kafka-storage-prepare in namespace kafka-storage failed",
      "Events: DeadlineExceeded",
      "[lab] log of job/kafka-storage-prepare:",
      "[lab] error: /volumes/0 is not a mount point: the volume is not mounted",
      "",
    ]);
  });

  it("mount failures the server did not refuse: shown once each, then the timeout as without the watch", () => {
    const { env } = kubectl("", [[POD, TIMED_OUT]]);
    const r = run(COLLECT_SCRIPT_FILE, env);
    expect(r.status).toBe(1);
    const l = lines(r.stderr);
    expect(l.filter((x) => x.includes("FailedMount"))).toEqual([
      `[lab] FailedMount of pod ${POD} (the kubelet retries): ${JSON.stringify(TIMED_OUT)}`,
    ]);
    expect(l).toContain("[lab] job/kafka-storage-prepare in namespace kafka-storage did not finish within 2s");
  });

  it("without MOUNT_FIX it reads no events (the benchmark Jobs' collectors)", () => {
    const { env, calls } = kubectl("SuccessCriteriaMet Complete ", [[POD, REFUSED]]);
    const r = run(COLLECT_SCRIPT_FILE, { ...env, MOUNT_FIX: "" });
    expect([r.status, r.stdout]).toEqual([0, "(no log)\n"]);
    expect(calls().some((c) => c.includes(" get events"))).toBe(false);
  });

  it("JOB_NAME and KAFKA_NAME together: refused before any call (exit 2)", () => {
    const { env, calls } = kubectl("", []);
    const r = run(COLLECT_SCRIPT_FILE, { ...env, KAFKA_NAME: "kafka" });
    expect([r.status, lines(r.stderr)]).toEqual([2, ["[lab] error: JOB_NAME and KAFKA_NAME are both set: set one", ""]]);
    expect(calls()).toEqual([]);
  });
});
