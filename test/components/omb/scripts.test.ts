/**
 * components/omb/scripts/driver.sh: shellcheck, then the script against a stand-in `bin/benchmark`
 * that records its arguments and writes a real OMB result file (test/fixtures/omb), its log going
 * through the same collector and parser as a driver Job's (components/bench/collect.ts, tool `omb`).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { collectSamples } from "../../../components/bench/collect";
import { DRIVER_SCRIPT } from "../../../components/omb";
import { driverEnv, workerUrls } from "../../../components/omb/manifests";
import { resolve } from "../../../components/omb/rules";
import { parseOmb, parseToolOutput } from "../../../core/parsers";
import { ROOT } from "../../helpers/root";

const FIXTURE = path.join(ROOT, "test/fixtures/omb/kafka-throughput-1kb.json");
const r = resolve({ runId: "r1", bootstrapServers: "kafka-kafka-bootstrap.kafka.svc.cluster.local:9092" });
const cell = r.cells[2]; // kafka-throughput-rf1

let tmp: string;
let env: Record<string, string>;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omb-driver-"));
  const home = path.join(tmp, "benchmark");
  fs.mkdirSync(path.join(home, "bin"), { recursive: true });
  fs.mkdirSync(path.join(tmp, "work"));
  for (const f of ["driver.yaml", "workload.yaml"]) fs.writeFileSync(path.join(tmp, f), "");
  // The stand-in: records its arguments (one a line), then writes the fixture to the -o file unless told not to.
  fs.writeFileSync(
    path.join(home, "bin", "benchmark"),
    `#!/bin/sh
printf '%s\\n' "$@" >>"${tmp}/args"
echo "---" >>"${tmp}/args"
date -u +%s >>"${tmp}/ran-at"
out=""
while [ $# -gt 0 ]; do [ "$1" = "-o" ] && out=$2; shift; done
[ -n "\${OMB_STUB_NO_RESULT:-}" ] || cp "${FIXTURE}" "$out"
echo "INFO Benchmark - log line"
`,
    { mode: 0o755 },
  );
  const base = Object.fromEntries(driverEnv(r, cell).map((e) => [e.name, e.value]));
  env = {
    ...base,
    OMB_HOME: home,
    DRIVER_FILE: path.join(tmp, "driver.yaml"),
    WORKLOAD_FILE: path.join(tmp, "workload.yaml"),
    RESULT_DIR: path.join(tmp, "work"),
  };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const run = (extra: Record<string, string> = {}) => {
  const p = spawnSync("/bin/sh", [DRIVER_SCRIPT], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env, ...extra },
    encoding: "utf8",
  });
  return { status: p.status, stdout: p.stdout, stderr: p.stderr };
};

describe("driver.sh", () => {
  test("passes shellcheck", () => {
    const p = spawnSync("shellcheck", ["-s", "sh", DRIVER_SCRIPT], { encoding: "utf8" });
    expect([p.status, p.stdout]).toEqual([0, ""]);
  });

  test("runs bin/benchmark with the cell's driver file, every worker, -o and the workload; prints the result between markers", () => {
    const p = run();
    expect(p.status).toBe(0);
    expect(fs.readFileSync(path.join(tmp, "args"), "utf8").split("\n")).toEqual([
      "--drivers",
      env.DRIVER_FILE,
      "--workers",
      workerUrls(r).join(","),
      "-o",
      `${env.RESULT_DIR}/result-rep1.json`,
      env.WORKLOAD_FILE,
      "---",
      "",
    ]);
    const m = /^=== LAB-RESULT-BEGIN tool=omb rep=1 start=(\S+) end=(\S+) ===\n/.exec(p.stdout);
    expect(m).not.toBeNull();
    expect(p.stdout).toBe(
      `=== LAB-RESULT-BEGIN tool=omb rep=1 start=${m![1]} end=${m![2]} ===\n${fs.readFileSync(FIXTURE, "utf8")}\n=== LAB-RESULT-END tool=omb rep=1 ===\n`,
    );
    // The repetition's window (UTC, whole seconds) holds the moment bin/benchmark ran.
    const ranAt = Number(fs.readFileSync(path.join(tmp, "ran-at"), "utf8").trim()) * 1000;
    expect([m![1], m![2]]).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), expect.stringMatching(/Z$/)]);
    expect(Date.parse(m![1])).toBeLessThanOrEqual(ranAt);
    expect(ranAt).toBeLessThanOrEqual(Date.parse(m![2]));
    // bin/benchmark's own log went to stderr, not between the markers.
    expect(p.stderr).toContain("INFO Benchmark - log line");
  });

  test("no result file is a failure (bin/benchmark logs a failed workload and exits 0)", () => {
    const p = run({ OMB_STUB_NO_RESULT: "1" });
    expect(p.status).toBe(1);
    expect(p.stdout).toBe("");
    expect(p.stderr).toMatch(
      /\[lab\] error: bin\/benchmark wrote no result to .*\/work\/result-rep1\.json: the workload failed, see its log above\n$/,
    );
  });

  test("repetitions one after the other; the log becomes samples with the cell's metadata through the collector and the OMB parser", () => {
    const p = run({ REPS: "2" });
    expect(p.status).toBe(0);
    const { samples, raws } = collectSamples(
      p.stdout,
      {
        tool: "omb",
        reps: 2,
        source: "job/omb-kafka-throughput-rf1-r1",
        run: { driverConfig: "kafka-throughput", replicationFactor: 1 },
        rawPrefix: "kafka-throughput-rf1-",
      },
      parseToolOutput,
    );
    expect(raws.map((x) => x.name)).toEqual(["kafka-throughput-rf1-omb-rep1.json", "kafka-throughput-rf1-omb-rep2.json"]);
    const parsed = parseOmb(fs.readFileSync(FIXTURE, "utf8"), "fixture");
    const windows = [...p.stdout.matchAll(/LAB-RESULT-BEGIN tool=omb rep=\d start=(\S+) end=(\S+)/g)].map((w) => [w[1], w[2]]);
    expect(windows).toHaveLength(2);
    expect(samples).toEqual(
      [1, 2].flatMap((rep) =>
        parsed.map((s) => ({
          ...s,
          metadata: {
            driverConfig: "kafka-throughput",
            replicationFactor: 1,
            repStart: windows[rep - 1][0],
            repEnd: windows[rep - 1][1],
            ...s.metadata,
            rep,
          },
        })),
      ),
    );
  });

  test("a repetition inside the file system's maintenance window says so in every sample; one outside says it did not overlap", () => {
    const p = run();
    expect(p.status).toBe(0);
    // The weekly window (d:HH:MM, UTC, Monday 1) that began ten minutes ago, and the one that begins in three hours.
    const weekly = (t: Date) =>
      `${((t.getUTCDay() + 6) % 7) + 1}:${String(t.getUTCHours()).padStart(2, "0")}:${String(t.getUTCMinutes()).padStart(2, "0")}`;
    const collect = (start: string) =>
      collectSamples(
        p.stdout,
        { tool: "omb", reps: 1, source: "job/omb", run: { fsxMaintenanceStart: start, fsxMaintenanceMinutes: 120 } },
        parseToolOutput,
      ).samples.map((s) => s.metadata.fsxMaintenanceOverlap);
    const now = Date.now();
    const during = collect(weekly(new Date(now - 10 * 60_000)));
    expect(during.length).toBeGreaterThan(0);
    expect(new Set(during)).toEqual(new Set([true]));
    expect(new Set(collect(weekly(new Date(now + 3 * 3600_000))))).toEqual(new Set([false]));
  });

  test("refuses a missing setting before running anything", () => {
    const p = run({ WORKERS: "" });
    expect([p.status, p.stderr]).toEqual([1, expect.stringMatching(/\[lab\] error: WORKERS is not set\n$/)]);
    expect(fs.existsSync(path.join(tmp, "args"))).toBe(false);
  });
});
