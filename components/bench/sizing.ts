/**
 * What a benchmark run's settings imply, computed in one place (pure): fio file sizes, the Jobs'
 * deadlines, how long the collector waits and polls, and how much log a Job writes against what
 * the kubelet keeps. rules.ts checks the settings against these bounds; render.ts writes the
 * deadlines into the Jobs.
 */
import type { BenchTool, ResolvedBench } from "./rules";
import { FIO_PROFILE_DEFINITIONS, SEED_FIO_SIZE, fioRepSeconds, type FioProfile } from "./profiles";

export const GIB = 2 ** 30;

/** The fio test file may fill at most this share of the volume. */
export const FIO_MAX_VOLUME_SHARE = 0.9;
/**
 * The `latency` and `suite` files hold at least this many seconds of the expected bandwidth, so a
 * sequential job (ramp + runtime, 70 s by default) passes over the file at most about three times.
 * It bypasses no cache by itself: every profile reads with `direct=1` (O_DIRECT), which bypasses
 * the client's page cache; a cache of the storage itself (FSx for ONTAP's in-memory and NVMe read
 * caches on each file server) can still hold the whole file. See {@link FIO_CACHE_METADATA}.
 */
export const FIO_MIN_BANDWIDTH_SECONDS = 25;

/**
 * What the fio file does and does not defeat, recorded on every fio sample.
 *
 * - `fioClientCache: "bypassed"`: every profile sets `direct=1` (profiles.ts), so reads and writes
 *   skip the benchmark node's page cache.
 * - `fioStorageCache: "not-defeated"`: the file is not sized against the storage's own read caches.
 *   FSx for ONTAP has "two layers of read caching on each file server—NVMe (non-volatile memory
 *   express) drives and in-memory" (FSx for ONTAP User Guide, "Amazon FSx for NetApp ONTAP
 *   performance", https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/performance.html), and
 *   "higher levels of throughput capacity come with higher levels of ... data caching capacity on
 *   the file server" ("Managing throughput capacity",
 *   https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/managing-throughput-capacity.html): a file
 *   that fits in them is read from cache once fio has laid it out, so random-read figures on FSx
 *   are cache figures unless the file outgrows the file server's caches.
 */
export const FIO_CACHE_METADATA = { fioClientCache: "bypassed", fioStorageCache: "not-defeated" } as const;

const FIO_SIZE = /^([1-9][0-9]*)([KMGT])$/;
const FIO_UNIT = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 } as const;

/** Bytes of a fio size in the accepted syntax (`<whole number><K|M|G|T>`, binary units), or undefined. */
export function fioSizeBytes(size: unknown): number | undefined {
  if (typeof size !== "string") return undefined;
  const m = FIO_SIZE.exec(size);
  return m ? Number(m[1]) * FIO_UNIT[m[2] as keyof typeof FIO_UNIT] : undefined;
}

/** Default fio file size: the published 8G for `seed`; otherwise 25 s × expected bandwidth, rounded up to whole GiB. */
export function defaultFioSize(profile: FioProfile, expectedBandwidthMBps: number): string {
  if (profile === "seed") return SEED_FIO_SIZE;
  return `${Math.max(1, Math.ceil((FIO_MIN_BANDWIDTH_SECONDS * expectedBandwidthMBps * 1e6) / GIB))}G`;
}

/** Upper bound for laying out the fio file, seconds: `ceil(4 × size / expected bandwidth)`. */
export function fioLayoutSeconds(sizeBytes: number, expectedBandwidthMBps: number): number {
  return Math.ceil((4 * sizeBytes) / (expectedBandwidthMBps * 1e6));
}

/** Seconds of one ioping repetition beyond its requests (temporary file, warm-up, exit). */
export const IOPING_REP_OVERHEAD_SECONDS = 30;
/** Seconds of one pgbench repetition beyond `-T` (pgbench's vacuum, connections, report). */
export const PGBENCH_REP_OVERHEAD_SECONDS = 120;
/** Seconds the collecting command waits beyond a Job's deadline before it gives up. */
export const COLLECT_SLACK_SECONDS = 120;
/** Seconds between two looks of the collecting command at its Job (collect-job.sh `POLL_SECONDS`). */
export const COLLECT_POLL_SECONDS = 10;
/**
 * The least `ttlSecondsAfterFinished`: a finished Job (and its log) must outlive its collection by
 * far: 360 of the collector's polls, an hour, so that an interrupted `pulumi up` resumed within the
 * hour still finds the log. 0 (delete at once) would leave the collector nothing to read.
 */
export const MIN_TTL_SECONDS_AFTER_FINISHED = 3600;

/**
 * A tool's Job deadline, seconds: `margin + reps × perRep` with
 * - fio: perRep from {@link fioRepSeconds} (profile jobs × (ramp + runtime), or the seed bound, + layout + 10);
 * - ioping: `ceil(count × interval) + 30`;
 * - pgbench: `margin + readyTimeout + initTimeout + settle + reps × (duration + 120)`.
 */
export function activeDeadlineSeconds(tool: BenchTool, s: ResolvedBench): number {
  switch (tool) {
    case "fio":
      return s.deadlineMarginSeconds + s.reps * fioRepSeconds(s.fio.profile, s.fio);
    case "ioping":
      return s.deadlineMarginSeconds + s.reps * (Math.ceil((s.ioping.count * s.ioping.intervalMs) / 1000) + IOPING_REP_OVERHEAD_SECONDS);
    case "pgbench":
      return (
        s.deadlineMarginSeconds +
        s.pgbench.readyTimeoutSeconds +
        s.pgbench.initTimeoutSeconds +
        s.pgbench.settleSeconds +
        s.reps * (s.pgbench.durationSeconds + PGBENCH_REP_OVERHEAD_SECONDS)
      );
  }
}

/*
 * The container log. The collector reads a Job's results with `kubectl logs job/<name>`, which the
 * kubelet serves from the container's *current* log file only: "only the contents of the latest
 * log file will be available through `kubectl logs`" (Kubernetes docs, "Logging Architecture",
 * kubernetes/website content/en/docs/concepts/cluster-administration/logging.md; kubernetes/kubernetes#59902).
 * The kubelet rotates that file at `containerLogMaxSize`, "Default: \"10Mi\"" (kubelet
 * configuration v1beta1, kubernetes/kubernetes staging/src/k8s.io/kubelet/config/v1beta1/types.go;
 * https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/). A Job whose log
 * outgrows it loses its first repetitions, and the collection fails as truncated. Every line in
 * the file carries the CRI prefix `<RFC 3339 nano timestamp> <stream> <tag> ` (kubernetes/kubernetes
 * pkg/kubelet/kuberuntime/logs/logs.go, e.g. `2016-10-06T00:17:09.669794202Z stdout F `: at most
 * 40 bytes), so the bounds below count it.
 */

/** The kubelet's default `containerLogMaxSize`, bytes (10Mi). */
export const CONTAINER_LOG_MAX_BYTES = 10 * 2 ** 20;
/** Share of it a Job's log may fill: the rest is left to diagnostics and the final stat records. */
export const CONTAINER_LOG_BUDGET_SHARE = 0.9;
/** Bytes of the container log a Job's output may fill: 90% of 10 MiB. */
export const CONTAINER_LOG_BUDGET_BYTES = Math.floor(CONTAINER_LOG_MAX_BYTES * CONTAINER_LOG_BUDGET_SHARE);
/** Longest CRI prefix of a log line (`2016-10-06T00:17:09.669794202Z stdout F `). */
export const CRI_LINE_PREFIX_BYTES = 40;

/**
 * Most bytes one ioping request adds to the container log with `-J`: ioping 1.3 prints one
 * 16-line JSON record per request (timestamp, target path, file system, device, request), 321
 * bytes with 8-character path and device names, plus 16 CRI prefixes (640 bytes): 961; about 1025
 * with a 70-character directory path. 1200 leaves room for longer path, file-system and device
 * names (a test measures the real script's output against it).
 */
export const IOPING_LOG_BYTES_PER_REQUEST = 1200;
/**
 * Most bytes one ioping repetition adds beyond its requests: the closing stat record, the markers, two log lines, and the
 * node sampler's summary (at most core/parsers/sampler.ts SAMPLER_LOG_BYTES_PER_REP; a test checks the sum).
 */
export const IOPING_LOG_BYTES_PER_REP = 4096;

/** The most ioping requests a repetition may make so that `reps` repetitions fit in {@link CONTAINER_LOG_BUDGET_BYTES}. */
export function iopingMaxCount(reps: number): number {
  return Math.floor((CONTAINER_LOG_BUDGET_BYTES / reps - IOPING_LOG_BYTES_PER_REP) / IOPING_LOG_BYTES_PER_REQUEST);
}

/**
 * Most bytes one pgbench progress line (`-P`, on stderr) adds to the container log: `progress:
 * 300.0 s, 374.9 tps, lat 53.350 ms stddev 12.345, 0 failed` is about 70 bytes, plus its prefix.
 */
export const PGBENCH_PROGRESS_LINE_LOG_BYTES = 160;

/** The least progress interval whose lines, over `reps` repetitions of `durationSeconds`, fit in the log budget. */
export function pgbenchMinProgressSeconds(reps: number, durationSeconds: number): number {
  return Math.ceil((reps * durationSeconds * PGBENCH_PROGRESS_LINE_LOG_BYTES) / CONTAINER_LOG_BUDGET_BYTES);
}

/**
 * Most bytes one fio job's JSON output adds to the container log: the six-job `suite` wrote 34 471
 * bytes in 1436 lines a repetition (fio 3.33), 91 911 with prefixes, about 15 300 a job; 20 000
 * bounds it. At the most repetitions (20) the largest profile stays far below the budget, so fio
 * needs no rule of its own (a test checks both).
 */
export const FIO_LOG_BYTES_PER_JOB = 20000;

/** Most bytes a fio Job's log holds for `reps` repetitions of `profile`. */
export function fioLogBytes(profile: FioProfile, reps: number): number {
  return reps * FIO_PROFILE_DEFINITIONS[profile].jobs.length * FIO_LOG_BYTES_PER_JOB;
}
