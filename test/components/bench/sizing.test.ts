/** What a run's settings imply (components/bench/sizing.ts): fio sizes, deadlines, the container-log bounds. */
import { REPS_MAX, resolve, type BenchSpec } from "../../../components/bench/rules";
import {
  CONTAINER_LOG_BUDGET_BYTES,
  CONTAINER_LOG_MAX_BYTES,
  CRI_LINE_PREFIX_BYTES,
  FIO_CACHE_METADATA,
  activeDeadlineSeconds,
  defaultFioSize,
  fioLayoutSeconds,
  fioLogBytes,
  fioSizeBytes,
  iopingMaxCount,
  pgbenchMinProgressSeconds,
} from "../../../components/bench/sizing";
import { ALL, BASE } from "./support";

describe("fio sizes", () => {
  it.each([
    ["8G", 8 * 2 ** 30],
    ["16M", 16 * 2 ** 20],
    ["512K", 512 * 1024],
    ["1T", 2 ** 40],
    ["8g", undefined],
    ["8GiB", undefined],
    ["0G", undefined],
    ["1.5G", undefined],
    [8, undefined],
    // a list is not a size, even one whose text ("1G") would read as one
    [["1G"], undefined],
  ])("%s = %s bytes", (size, bytes) => {
    expect(fioSizeBytes(size)).toBe(bytes);
  });

  it("defaults: the published 8G for seed, 25 s of bandwidth rounded up to GiB otherwise", () => {
    expect(defaultFioSize("seed", 512)).toBe("8G");
    expect(defaultFioSize("suite", 512)).toBe("12G"); // 12.8 GB = 11.92 GiB
    expect(defaultFioSize("latency", 125)).toBe("3G"); // 3.125 GB = 2.91 GiB
    expect(defaultFioSize("suite", 4096)).toBe("96G"); // 102.4 GB = 95.37 GiB
    expect(fioLayoutSeconds(8 * 2 ** 30, 512)).toBe(68); // ceil(4 × 8 GiB / 512 MB/s) = ceil(67.1)
  });

  it("every fio sample says what the file defeats: the client's page cache, not the storage's caches", () => {
    expect(FIO_CACHE_METADATA).toEqual({ fioClientCache: "bypassed", fioStorageCache: "not-defeated" });
  });
});

describe("activeDeadlineSeconds", () => {
  const deadline = (spec: BenchSpec, tool: "fio" | "ioping" | "pgbench") => activeDeadlineSeconds(tool, resolve(spec));

  it.each([
    // 600 margin + 3 × (1200 seed bound + ceil(4 × 8 GiB / 512 MB/s) = 68 layout + 10)
    ["seed, defaults", 4434, BASE],
    // 600 + 3 × (6 × (10 + 60) + ceil(4 × 12 GiB / 512 MB/s) = 101 + 10)
    ["suite, defaults (12G)", 2193, { ...BASE, fioProfile: "suite" }],
    // 600 + 5 × (2 × (5 + 30) + ceil(4 × 3 GiB / 125 MB/s) = 104 + 10)
    [
      "latency, 5 reps, 125 MB/s (3G)",
      1520,
      { ...BASE, fioProfile: "latency", reps: 5, fioRuntimeSeconds: 30, fioRampSeconds: 5, expectedBandwidthMBps: 125 },
    ],
    // 0 margin + 1 × (60 seed bound + ceil(4 × 16 MiB / 512 MB/s) = 1 layout + 10)
    ["seed, tiny", 71, { ...BASE, fioSize: "16M", reps: 1, deadlineMarginSeconds: 0, fioSeedRepSeconds: 60 }],
  ] as const)("fio %s: %d s", (_label, seconds, spec) => {
    expect(deadline(spec as BenchSpec, "fio")).toBe(seconds);
  });

  it("ioping: margin + reps × (ceil(count × interval) + 30)", () => {
    expect(deadline(BASE, "ioping")).toBe(600 + 3 * (100 + 30));
    expect(deadline({ ...BASE, iopingCount: 25, iopingIntervalMs: 100, reps: 2 }, "ioping")).toBe(600 + 2 * (3 + 30));
  });

  it("pgbench: margin + ready + init + settle + reps × (duration + 120)", () => {
    expect(deadline(ALL, "pgbench")).toBe(600 + 300 + 3600 + 30 + 3 * (300 + 120));
    expect(
      deadline({ ...ALL, pgbenchDurationSeconds: 60, reps: 1, pgbenchInitTimeoutSeconds: 600, pgbenchSettleSeconds: 0 }, "pgbench"),
    ).toBe(600 + 300 + 600 + 0 + 180);
  });
});

describe("the container log kubectl logs reads", () => {
  it("the kubelet's default 10 MiB, 90% of it for the Jobs' output, CRI prefixes of at most 40 bytes", () => {
    expect(CONTAINER_LOG_MAX_BYTES).toBe(10485760);
    expect(CONTAINER_LOG_BUDGET_BYTES).toBe(9437184);
    expect("2016-10-06T00:17:09.669794202Z stdout F ".length).toBe(CRI_LINE_PREFIX_BYTES);
  });

  it("ioping: floor((budget / reps − 4096) / 1200) requests a repetition", () => {
    expect([1, 3, 10, 20].map(iopingMaxCount)).toEqual([7860, 2618, 783, 389]);
    // Counting every byte at the bound: it fits.
    for (const reps of [1, 3, 20]) expect(reps * (iopingMaxCount(reps) * 1200 + 4096)).toBeLessThanOrEqual(CONTAINER_LOG_BUDGET_BYTES);
  });

  it("pgbench progress: the least interval whose lines fit", () => {
    expect(pgbenchMinProgressSeconds(3, 300)).toBe(1);
    expect(pgbenchMinProgressSeconds(20, 86400)).toBe(30); // 20 × 86400 × 160 / 9437184 = 29.3
  });

  it("fio needs no rule: its largest profile at the most repetitions stays under the budget", () => {
    expect(fioLogBytes("suite", REPS_MAX)).toBe(20 * 6 * 20000);
    expect(fioLogBytes("suite", REPS_MAX)).toBeLessThan(CONTAINER_LOG_BUDGET_BYTES);
  });
});
