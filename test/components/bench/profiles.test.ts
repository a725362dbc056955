import {
  FIO_PROFILE_DEFINITIONS,
  FIO_PROFILES,
  PUBLISHED_FIO_LINE,
  fioJobFileName,
  fioRepSeconds,
  isFioProfile,
  renderFioJobFile,
  renderFioJobFiles,
} from "../../../components/bench/profiles";

const HEADER_TAIL = [
  "; Rendered by components/bench/profiles.ts; run by components/bench/scripts/fio.sh, which sets",
  "; FIO_DIR, FIO_SIZE, FIO_RUNTIME and FIO_RAMP (fio expands ${VAR} from the environment).",
];

const TIMED_GLOBAL = [
  "[global]",
  "ioengine=libaio",
  "direct=1",
  "randrepeat=1",
  "filename=${FIO_DIR}/lab-fio.dat",
  "size=${FIO_SIZE}",
  "time_based=1",
  "runtime=${FIO_RUNTIME}",
  "ramp_time=${FIO_RAMP}",
  "percentile_list=50:90:95:99:99.9:99.99",
];

const job = (name: string, rw: string, bs: string, iodepth: number) => [
  "",
  `[${name}]`,
  "stonewall",
  `rw=${rw}`,
  `bs=${bs}`,
  `iodepth=${iodepth}`,
];

describe("fio profiles", () => {
  it("seed is exactly the published line, plus the file on the volume and randrepeat=1", () => {
    expect(renderFioJobFile("seed")).toBe(
      [
        '; storage-bench-lab fio profile "seed": the published line: 4k random read/write 75/25 at iodepth 64, 8G, libaio, direct, gtod_reduce.',
        ...HEADER_TAIL,
        "; The published command line, verbatim:",
        ";   fio --name=randrw --rw=randrw --rwmixread=75 --bs=4k --iodepth=64 --size=8G --ioengine=libaio --direct=1 --gtod_reduce=1",
        "; here with the test file on the volume under test, randrepeat=1 (fio's default, made explicit)",
        "; and FIO_SIZE (8G unless overridden).",
        "",
        "[randrw]",
        "rw=randrw",
        "rwmixread=75",
        "bs=4k",
        "iodepth=64",
        "size=${FIO_SIZE}",
        "ioengine=libaio",
        "direct=1",
        "gtod_reduce=1",
        "filename=${FIO_DIR}/lab-fio.dat",
        "randrepeat=1",
        "",
      ].join("\n"),
    );
  });

  it("seed carries every option of the published line, with its value", () => {
    const text = renderFioJobFile("seed");
    const published = PUBLISHED_FIO_LINE.split(" ")
      .slice(1)
      .map((o) => o.replace(/^--/, ""));
    for (const opt of published) {
      const [k, v] = opt.split("=");
      if (k === "name") expect(text).toContain(`\n[${v}]\n`);
      else if (k === "size")
        expect(text).toContain("\nsize=${FIO_SIZE}\n"); // 8G by default, see fio.sh
      else expect(text).toContain(`\n${k}=${v}\n`);
    }
  });

  it("latency: 4k qd1 random read then write, percentiles, time based, no gtod_reduce", () => {
    const text = renderFioJobFile("latency");
    expect(text).toBe(
      [
        '; storage-bench-lab fio profile "latency": 4k random read, then 4k random write, at iodepth 1, with completion-latency percentiles.',
        ...HEADER_TAIL,
        "; Jobs run one after the other (stonewall), each for FIO_RAMP + FIO_RUNTIME seconds.",
        "",
        ...TIMED_GLOBAL,
        ...job("lat-randread-4k-qd1", "randread", "4k", 1),
        ...job("lat-randwrite-4k-qd1", "randwrite", "4k", 1),
        "",
      ].join("\n"),
    );
    expect(text).not.toContain("gtod_reduce");
  });

  it("suite: IOPS 4k qd64, bandwidth 128k qd64, latency 4k qd1, stonewall between jobs", () => {
    expect(renderFioJobFile("suite")).toBe(
      [
        '; storage-bench-lab fio profile "suite": IOPS (4k qd64 random read/write), bandwidth (128k qd64 sequential read/write), latency (4k qd1).',
        ...HEADER_TAIL,
        "; Jobs run one after the other (stonewall), each for FIO_RAMP + FIO_RUNTIME seconds.",
        "",
        ...TIMED_GLOBAL,
        ...job("iops-randread-4k-qd64", "randread", "4k", 64),
        ...job("iops-randwrite-4k-qd64", "randwrite", "4k", 64),
        ...job("bw-read-128k-qd64", "read", "128k", 64),
        ...job("bw-write-128k-qd64", "write", "128k", 64),
        ...job("lat-randread-4k-qd1", "randread", "4k", 1),
        ...job("lat-randwrite-4k-qd1", "randwrite", "4k", 1),
        "",
      ].join("\n"),
    );
  });

  it("renders one file per profile, named fio-<profile>.fio", () => {
    expect(Object.keys(renderFioJobFiles())).toEqual(["fio-seed.fio", "fio-latency.fio", "fio-suite.fio"]);
    expect(fioJobFileName("suite")).toBe("fio-suite.fio");
    expect(FIO_PROFILES.every(isFioProfile)).toBe(true);
    expect(isFioProfile("randrw")).toBe(false);
    expect(isFioProfile(undefined)).toBe(false);
  });

  it.each([
    ["seed", 1200 + 101 + 10],
    ["latency", 2 * (10 + 60) + 101 + 10],
    ["suite", 6 * (10 + 60) + 101 + 10],
  ] as const)("one %s repetition is bounded by %d s", (profile, seconds) => {
    expect(fioRepSeconds(profile, { runtimeSeconds: 60, rampSeconds: 10, layoutSeconds: 101, seedRepSeconds: 1200 })).toBe(seconds);
  });
});

test("every profile's first job reads, so the layout (fio.sh's --create_only=1) writes the whole file", () => {
  // fio 3.33 filesetup.c extend_file(): the file's contents are written only when the job reads
  // (td_read: new_layout); a write-only first job just fallocates it, and later read jobs would read
  // unwritten extents, faster than real (seen with the suite minus its first job: filefrag "unwritten").
  expect(FIO_PROFILES.map((p) => [p, /read|randrw/.test(FIO_PROFILE_DEFINITIONS[p].jobs[0].rw)])).toEqual(
    FIO_PROFILES.map((p) => [p, true]),
  );
});
