/** lab/bench/progress.ts: the step list, the progress lines with elapsed time and ETA (a fake clock), and the estimates from the profile's durations. */
import { resolve, type BenchSpec } from "../../../components/bench/rules";
import { StepProgress, renderStepList, repetitionOf, toolEstimateSeconds, toolWhat, type Step } from "../../../lab/bench/progress";

const SPEC: BenchSpec = { name: "local", namespace: "local", runId: "r1", zone: "local" };

describe("estimates from the profile's durations", () => {
  it("fio: layout at the expected bandwidth + reps × jobs × (ramp + runtime), or the seed estimate scaled to the file", () => {
    // latency: 2 jobs × (10 + 60) s × 3 + 12 GiB / 512 MB/s.
    const latency = resolve({ ...SPEC, tools: ["fio"], fioProfile: "latency" });
    expect(toolEstimateSeconds("fio", latency)).toBeCloseTo(420 + (12 * 2 ** 30) / 512e6, 6);
    expect(toolWhat("fio", latency)).toBe("profile latency, file 12G, 2 jobs of 10 s + 60 s, 3 repetitions");
    // seed: 90 s for 8 GiB (lab/run/durations.ts), a 64M file: 90 × 64/8192 a repetition.
    const seed = resolve({ ...SPEC, tools: ["fio"], fioSize: "64M", reps: 1 });
    expect(toolEstimateSeconds("fio", seed)).toBeCloseTo(2 ** 26 / 512e6 + (90 * 64) / 8192, 6);
    expect(toolWhat("fio", seed)).toBe("profile seed, file 64M, 1 repetition");
  });

  it("ioping: count × interval; pgbench: initialisation at 0.6 s a scale unit, settle, reps × duration", () => {
    const s = resolve({ ...SPEC, tools: ["ioping"], iopingCount: 20, iopingIntervalMs: 50, reps: 2 });
    expect(toolEstimateSeconds("ioping", s)).toBe(2);
    expect(toolWhat("ioping", s)).toBe("20 requests 50 ms apart, 2 repetitions");
    const p = resolve({ ...SPEC, tools: ["pgbench"] });
    expect(toolEstimateSeconds("pgbench", p)).toBe(1000 * 0.6 + 30 + 3 * 300);
    expect(toolWhat("pgbench", p)).toBe("scale 1000, 20 clients, 2 threads, 300 s, 3 repetitions");
  });
});

const STEPS: Step[] = [
  { name: "postgres", what: "throwaway cluster", estimateSeconds: 3 },
  { name: "fio", what: "profile seed", estimateSeconds: 60, reps: 3 },
  { name: "save", what: "results", estimateSeconds: 3 },
];

describe("renderStepList", () => {
  it("numbered, aligned, each with its estimate, the total first", () => {
    expect(renderStepList(STEPS)).toBe(
      [
        "Steps (about 1m06s):",
        "  1. postgres  throwaway cluster  ~3s",
        "  2. fio       profile seed       ~1m00s",
        "  3. save      results            ~3s",
      ].join("\n"),
    );
  });
});

describe("StepProgress", () => {
  it("elapsed time and ETA: estimates first, then the measured time a repetition takes", () => {
    let now = 1000;
    const lines: string[] = [];
    const p = new StepProgress(
      STEPS,
      (l) => lines.push(l),
      () => now,
    );
    p.begin(0);
    now += 2000;
    p.done("port 5432");
    p.begin(1);
    p.rep(1, 3);
    now += 10_000;
    // One repetition took 10 s: 2 more, then save.
    p.rep(2, 3);
    expect(p.etaSeconds()).toBe(10 * 2 + 3);
    now += 4000;
    expect(p.etaSeconds()).toBe(10 * 2 - 4 + 3);
    now += 16_000;
    p.rep(3, 3);
    now += 10_000;
    p.done("randrw: read 5000 op/s");
    p.begin(2);
    now += 500;
    p.failed("the report: boom");
    expect(lines).toEqual([
      "[+0s] 1/3 postgres started · ETA 1m06s",
      "[+2s] 1/3 postgres done in 2s · port 5432 · ETA 1m03s",
      "[+2s] 2/3 fio started · ETA 1m03s",
      "[+2s] 2/3 fio repetition 1/3 · 0s · ETA 1m03s",
      "[+12s] 2/3 fio repetition 2/3 · 10s · ETA 23s",
      "[+32s] 2/3 fio repetition 3/3 · 30s · ETA 18s",
      "[+42s] 2/3 fio done in 40s · randrw: read 5000 op/s · ETA 3s",
      "[+42s] 3/3 save started · ETA 3s",
      "[+43s] 3/3 save failed after 1s: the report: boom",
    ]);
    expect(p.elapsed()).toBe("43s");
  });

  it("a failure before any step: `setup`", () => {
    const lines: string[] = [];
    new StepProgress(
      STEPS,
      (l) => lines.push(l),
      () => 0,
    ).failed("EACCES");
    expect(lines).toEqual(["[+0s] setup failed after 0s: EACCES"]);
  });
});

describe("repetitionOf", () => {
  it("reads lib.sh's `<tool> repetition k/n` log line of that tool only", () => {
    expect(repetitionOf("2026-12-01T02:54:38Z [lab] fio repetition 2/3", "fio")).toEqual({ k: 2, n: 3 });
    expect(repetitionOf("2026-12-01T02:54:38Z [lab] fio repetition 2/3", "ioping")).toBeUndefined();
    expect(repetitionOf("2026-12-01T02:54:38Z [lab] fio failed with status 1 in repetition 2", "fio")).toBeUndefined();
  });
});
