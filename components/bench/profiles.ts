/**
 * The fio profiles: the one place they are defined (README "Benchmarks and results" lists them).
 *
 * {@link renderFioJobFile} turns a profile into the text of a fio job file. The benchmark Job gets
 * every profile's file in its ConfigMap next to the scripts, and a run by hand uses the very same
 * files, so a profile can only differ between the cluster and a workstation through the four
 * environment variables the files read with fio's own `${VAR}` expansion (set by fio.sh):
 *
 * | variable      | meaning                                                      |
 * |---------------|--------------------------------------------------------------|
 * | `FIO_DIR`     | directory on the storage under test (holds `lab-fio.dat`)    |
 * | `FIO_SIZE`    | test file size, fio syntax, binary units (`8G` = 8 GiB)      |
 * | `FIO_RUNTIME` | seconds each time-based job measures (latency, suite)        |
 * | `FIO_RAMP`    | seconds each time-based job runs before it starts measuring  |
 *
 * Everything that shapes the numbers (rw, bs, iodepth, engine, direct I/O) is fixed here.
 * Pure: no I/O, no Pulumi.
 */

/** The profile names, as typed in config. */
export const FIO_PROFILES = ["seed", "latency", "suite"] as const;
/** A fio profile name: `seed` (the published line), `latency` (4k qd1) or `suite` (IOPS, bandwidth, latency). */
export type FioProfile = (typeof FIO_PROFILES)[number];

/** Whether `s` names a profile. */
export function isFioProfile(s: unknown): s is FioProfile {
  return typeof s === "string" && (FIO_PROFILES as readonly string[]).includes(s);
}

/** The test file fio.sh and every profile use, inside `FIO_DIR`. */
export const FIO_TEST_FILE = "lab-fio.dat";

/** Percentiles the latency-measuring profiles report (fio `percentile_list`). */
export const FIO_PERCENTILES = "50:90:95:99:99.9:99.99";

/** The command line of the published FSx ONTAP experiment, verbatim. */
export const PUBLISHED_FIO_LINE =
  "fio --name=randrw --rw=randrw --rwmixread=75 --bs=4k --iodepth=64 --size=8G --ioengine=libaio --direct=1 --gtod_reduce=1";

/** The file size of the published line (fio syntax). */
export const SEED_FIO_SIZE = "8G";

/** One fio job (a `[section]` of the job file). */
export interface FioJob {
  /** Section name; also the job name in fio's JSON output. */
  readonly name: string;
  /** fio `rw`. */
  readonly rw: "read" | "write" | "randread" | "randwrite" | "randrw";
  /** Block size, fio syntax. */
  readonly bs: string;
  /** Outstanding I/Os (libaio queue depth). */
  readonly iodepth: number;
  /** Percentage of reads in a mixed workload (`rwmixread`). */
  readonly rwmixread?: number;
}

/** A profile: its jobs, run one after the other (`stonewall`), and how fio measures them. */
export interface FioProfileDefinition {
  readonly profile: FioProfile;
  /** One line: what the profile measures. */
  readonly summary: string;
  /** `true`: every job runs `FIO_RAMP` + `FIO_RUNTIME` seconds; `false`: until `FIO_SIZE` of I/O is done. */
  readonly timeBased: boolean;
  readonly jobs: readonly FioJob[];
}

const latencyJobs: readonly FioJob[] = [
  { name: "lat-randread-4k-qd1", rw: "randread", bs: "4k", iodepth: 1 },
  { name: "lat-randwrite-4k-qd1", rw: "randwrite", bs: "4k", iodepth: 1 },
];

/**
 * The three profiles. Each one's first job reads: fio lays the shared test file out with its
 * contents only for a job that reads (fio 3.33 filesetup.c extend_file, `new_layout`), and fio.sh's
 * layout step (--create_only=1) lays it out as the first job would (test/components/bench/profiles.test.ts).
 */
export const FIO_PROFILE_DEFINITIONS: Readonly<Record<FioProfile, FioProfileDefinition>> = {
  seed: {
    profile: "seed",
    summary: "the published line: 4k random read/write 75/25 at iodepth 64, 8G, libaio, direct, gtod_reduce",
    timeBased: false,
    jobs: [{ name: "randrw", rw: "randrw", bs: "4k", iodepth: 64, rwmixread: 75 }],
  },
  latency: {
    profile: "latency",
    summary: "4k random read, then 4k random write, at iodepth 1, with completion-latency percentiles",
    timeBased: true,
    jobs: latencyJobs,
  },
  suite: {
    profile: "suite",
    summary: "IOPS (4k qd64 random read/write), bandwidth (128k qd64 sequential read/write), latency (4k qd1)",
    timeBased: true,
    jobs: [
      { name: "iops-randread-4k-qd64", rw: "randread", bs: "4k", iodepth: 64 },
      { name: "iops-randwrite-4k-qd64", rw: "randwrite", bs: "4k", iodepth: 64 },
      { name: "bw-read-128k-qd64", rw: "read", bs: "128k", iodepth: 64 },
      { name: "bw-write-128k-qd64", rw: "write", bs: "128k", iodepth: 64 },
      ...latencyJobs,
    ],
  },
};

/** The ConfigMap key (and file name) of a profile's job file: `fio-<profile>.fio`. */
export function fioJobFileName(profile: FioProfile): string {
  return `fio-${profile}.fio`;
}

const header = (def: FioProfileDefinition): string[] => [
  `; storage-bench-lab fio profile "${def.profile}": ${def.summary}.`,
  "; Rendered by components/bench/profiles.ts; run by components/bench/scripts/fio.sh, which sets",
  "; FIO_DIR, FIO_SIZE, FIO_RUNTIME and FIO_RAMP (fio expands ${VAR} from the environment).",
];

/** The fio job file of a profile, exactly as the Job runs it. */
export function renderFioJobFile(profile: FioProfile): string {
  const def = FIO_PROFILE_DEFINITIONS[profile];
  const target = `filename=\${FIO_DIR}/${FIO_TEST_FILE}`;
  if (profile === "seed") {
    const job = def.jobs[0];
    // The published line's options in its own order, then what a file on the volume needs.
    return [
      ...header(def),
      "; The published command line, verbatim:",
      `;   ${PUBLISHED_FIO_LINE}`,
      `; here with the test file on the volume under test, randrepeat=1 (fio's default, made explicit)`,
      `; and FIO_SIZE (${SEED_FIO_SIZE} unless overridden).`,
      "",
      `[${job.name}]`,
      `rw=${job.rw}`,
      `rwmixread=${job.rwmixread}`,
      `bs=${job.bs}`,
      `iodepth=${job.iodepth}`,
      "size=${FIO_SIZE}",
      "ioengine=libaio",
      "direct=1",
      "gtod_reduce=1",
      target,
      "randrepeat=1",
      "",
    ].join("\n");
  }
  const lines = [
    ...header(def),
    "; Jobs run one after the other (stonewall), each for FIO_RAMP + FIO_RUNTIME seconds.",
    "",
    "[global]",
    "ioengine=libaio",
    "direct=1",
    "randrepeat=1",
    target,
    "size=${FIO_SIZE}",
    "time_based=1",
    "runtime=${FIO_RUNTIME}",
    "ramp_time=${FIO_RAMP}",
    `percentile_list=${FIO_PERCENTILES}`,
  ];
  for (const job of def.jobs) {
    lines.push("", `[${job.name}]`, "stonewall", `rw=${job.rw}`, `bs=${job.bs}`, `iodepth=${job.iodepth}`);
  }
  lines.push("");
  return lines.join("\n");
}

/** Every profile's job file by file name (`fio-seed.fio`, …), for the ConfigMap. */
export function renderFioJobFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const p of FIO_PROFILES) files[fioJobFileName(p)] = renderFioJobFile(p);
  return files;
}

/** Seconds fio.sh spends around fio itself for one repetition (start-up, staging the output). */
export const FIO_REP_OVERHEAD_SECONDS = 10;

/** What one repetition's duration depends on. */
export interface FioTiming {
  /** `FIO_RUNTIME`, seconds. */
  readonly runtimeSeconds: number;
  /** `FIO_RAMP`, seconds. */
  readonly rampSeconds: number;
  /** Upper bound for laying out the test file, seconds. */
  readonly layoutSeconds: number;
  /** Upper bound for one repetition of the size-based `seed` profile, seconds (without layout). */
  readonly seedRepSeconds: number;
}

/**
 * Upper bound of one fio.sh repetition, seconds: for time-based profiles
 * `jobs × (ramp + runtime) + layout + 10`, for `seed` `seedRepSeconds + layout + 10`.
 * Layout is counted in every repetition (fio lays the file out once; the bound stays safe).
 */
export function fioRepSeconds(profile: FioProfile, t: FioTiming): number {
  const def = FIO_PROFILE_DEFINITIONS[profile];
  const io = def.timeBased ? def.jobs.length * (t.rampSeconds + t.runtimeSeconds) : t.seedRepSeconds;
  return io + t.layoutSeconds + FIO_REP_OVERHEAD_SECONDS;
}
