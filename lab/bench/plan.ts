/**
 * What `lab bench local` runs (pure): its options checked, the benchmark sized for `--quick` or
 * for the free space of `--dir`, and the one {@link BenchSpec} both the Jobs and the local run are
 * made from. Every rule and default is components/bench/rules.ts' (problems, BENCH_DEFAULTS); the
 * only rules of its own are how much of the free disk it may fill and the quick sizes.
 */
import { formatArgProblem, problem } from "../../core/errors";
import type { FioProfile } from "../../components/bench/profiles";
import {
  BENCH_DEFAULTS,
  BENCH_TOOLS,
  PG_SPARE_CONNECTIONS,
  PG_VOLUME_SHARE,
  PGBENCH_BYTES_PER_SCALE,
  orderedTools,
  problems,
  type BenchSpec,
  type BenchTool,
} from "../../components/bench/rules";
import { FIO_MIN_BANDWIDTH_SECONDS, GIB, defaultFioSize, fioSizeBytes } from "../../components/bench/sizing";
import { formatBytes } from "./host";
import { parsePgUrl, redactPgUrl, type PgConnection } from "./postgres";

/** The scenario and stack name of local samples, and the results directory `results/local/`. */
export const LOCAL = "local";

/** `--quick`: a rehearsal of the whole run in well under a minute, not a measurement. */
export const QUICK = {
  reps: 1,
  fioSize: "64M",
  fioRuntimeSeconds: 2,
  fioRampSeconds: 1,
  iopingCount: 20,
  iopingIntervalMs: 50,
  pgbenchScale: 1,
  pgbenchClients: 4,
  pgbenchThreads: 2,
  pgbenchDurationSeconds: 3,
  pgbenchSettleSeconds: 1,
} as const;

/** A local run fills at most this share of the free space of `--dir`: the machine keeps the rest. */
export const LOCAL_DISK_SHARE = 0.5;
/** Room kept for the throwaway cluster itself while it exists (initdb made 39 MB with PostgreSQL 15.18). */
export const PG_CLUSTER_BYTES = 64 * 2 ** 20;
/** A full run's fio file is scaled down to no less than this; a smaller disk needs `--quick`. */
export const LOCAL_MIN_FIO_BYTES = GIB;
/** A full run's pgbench scale is scaled down to no less than this (about 160 MB of tables). */
export const LOCAL_MIN_PGBENCH_SCALE = 10;

/**
 * BenchSpec requires the Secret a Job reads pgbench's password from; a local run reads none (the
 * password, if any, comes from `--pg`), so this only fills the field.
 */
export const LOCAL_PASSWORD_SECRET = { name: "local", key: "PGPASSWORD" } as const;

/** Arguments of BenchSpec that only a Kubernetes Job needs: their problems do not concern a local run. */
export const JOB_ONLY_ARGUMENTS: readonly string[] = ["storageClass", "toolsImage"];

/** The options as the command line gives them. */
export interface BenchLocalOptions {
  /** Directory on the storage to test. @default the current directory */
  readonly dir?: string;
  /** fio profile. @default "seed" */
  readonly profile?: string;
  /** Comma-separated tools. @default "fio,ioping,pgbench" */
  readonly tools?: string;
  readonly quick?: boolean;
  /** Repetitions. @default 3, with --quick 1 */
  readonly reps?: string | number;
  /** A PostgreSQL URL; without it pgbench drives a throwaway cluster in --dir. */
  readonly pg?: string;
  /**
   * The run's name: its samples' `stack`, and its results go to `results/local/<name>/<runId>/`,
   * so that `lab report --baseline <name>` compares it with other named runs of the same setup.
   * @default "local"
   */
  readonly name?: string;
}

/** `--name`: what a stack name may be (lab/results/files.ts takes it as one path segment). */
export const NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
export const NAME_RULE = "1-40 lowercase letters, digits or '-', starting and ending with a letter or digit";

/** The options checked. */
export interface LocalRequest {
  readonly tools: readonly BenchTool[];
  readonly profile: FioProfile;
  readonly quick: boolean;
  readonly reps: number;
  /** The server of `--pg`; undefined: a throwaway cluster (when pgbench runs). */
  readonly pg?: PgConnection;
  /** `--name`, or {@link LOCAL}. */
  readonly name: string;
}

/** The flag each user-typed BenchSpec argument comes from. */
const FLAG_OF: Readonly<Record<string, string>> = { tools: "--tools", fioProfile: "--profile", reps: "--reps" };

/** The options checked, or every problem at once (`'--flag' must be …, got …`). */
export function checkOptions(o: BenchLocalOptions): { request: LocalRequest; problems: [] } | { request?: undefined; problems: string[] } {
  const toolsText = o.tools ?? BENCH_TOOLS.join(",");
  const tools = toolsText.split(",").map((t) => t.trim());
  const reps =
    o.reps === undefined ? (o.quick ? QUICK.reps : BENCH_DEFAULTS.reps) : /^[0-9]+$/.test(String(o.reps)) ? Number(o.reps) : o.reps;
  // The rules of the arguments the user typed are rules.ts' (tools, profile, repetitions).
  const spec = { name: LOCAL, namespace: LOCAL, runId: LOCAL, zone: LOCAL, tools, fioProfile: o.profile, reps } as BenchSpec;
  const out = problems(spec)
    .filter((p) => p.path in FLAG_OF)
    // --tools is shown as typed, not as the list it was split into.
    .map((p) => formatArgProblem(p.path === "tools" ? { ...p, value: toolsText } : p, (a) => FLAG_OF[a] ?? a));
  let pg: PgConnection | undefined;
  if (o.pg !== undefined) {
    const parsed = parsePgUrl(o.pg);
    if ("problem" in parsed) out.push(problem("--pg", parsed.problem, redactPgUrl(o.pg)));
    else pg = parsed;
    if (!tools.includes("pgbench")) out.push(problem("--pg", "given only when --tools includes pgbench", redactPgUrl(o.pg)));
  }
  if (o.name !== undefined && !NAME_PATTERN.test(o.name)) out.push(problem("--name", NAME_RULE, o.name));
  if (out.length > 0) return { problems: out };
  return {
    request: {
      tools: orderedTools(tools as BenchTool[]),
      profile: (o.profile ?? BENCH_DEFAULTS.fioProfile) as FioProfile,
      quick: o.quick === true,
      reps: reps as number,
      pg,
      name: o.name ?? LOCAL,
    },
    problems: [],
  };
}

/** Where the run writes and how much room it has. */
export interface DiskFacts {
  readonly dir: string;
  readonly freeBytes: number;
  readonly fileSystem: string;
  readonly device: string;
}

/** The sizes the disk allows, and what was scaled (one line each). */
export interface LocalSizes {
  readonly fioSize: string;
  /** Set when the `suite` file is below 25 s of the default expected bandwidth: the bandwidth it holds 25 s of. */
  readonly expectedBandwidthMBps?: number;
  readonly pgbenchScale: number;
  readonly notes: readonly string[];
}

/** The run does not fit in the free space of `--dir`. */
export class SpaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpaceError";
  }
}

/** Whether pgbench runs against a throwaway cluster in `--dir`. */
export function usesThrowaway(req: LocalRequest): boolean {
  return req.tools.includes("pgbench") && req.pg === undefined;
}

const sizeText = (bytes: number) => (bytes % GIB === 0 ? `${bytes / GIB}G` : `${Math.floor(bytes / 2 ** 20)}M`);

/**
 * The fio file and the pgbench scale for the free space of `--dir`: `--quick`'s sizes, or the
 * published ones (fio `8G` for seed, 25 s of 512 MB/s for latency and suite; pgbench scale 1000),
 * each scaled down to fit in {@link LOCAL_DISK_SHARE} of the free space (fio's file and the pgbench
 * tables never exist at once: fio.sh deletes its file), the throwaway cluster's own room kept aside.
 * Throws {@link SpaceError} before anything starts when even the smallest run does not fit.
 */
export function sizeForDisk(req: LocalRequest, disk: DiskFacts): LocalSizes {
  const throwaway = usesThrowaway(req);
  const reserve = throwaway ? PG_CLUSTER_BYTES : 0;
  const budget = Math.floor(LOCAL_DISK_SHARE * disk.freeBytes) - reserve;
  const where = `${formatBytes(disk.freeBytes)} free on ${disk.device} (${disk.fileSystem}) at ${disk.dir}, of which lab bench local fills at most half`;
  const runs = (t: BenchTool) => req.tools.includes(t);
  const notes: string[] = [];
  const short: string[] = [];
  const inCluster = reserve > 0 ? ` and ${formatBytes(reserve)} for the throwaway PostgreSQL cluster` : "";

  let fioSize = req.quick ? QUICK.fioSize : defaultFioSize(req.profile, BENCH_DEFAULTS.expectedBandwidthMBps);
  const fioWant = fioSizeBytes(fioSize) as number;
  if (runs("fio") && fioWant > budget) {
    const least = req.quick ? fioWant : LOCAL_MIN_FIO_BYTES;
    if (least > budget) {
      short.push(`the ${sizeText(least)} fio file${inCluster} need ${formatBytes(Math.ceil((least + reserve) / LOCAL_DISK_SHARE))} free`);
    } else {
      fioSize = `${Math.floor(budget / GIB)}G`;
      notes.push(`fio file ${sizeText(fioWant)} → ${fioSize}: ${where}`);
    }
  }
  const fioBytes = fioSizeBytes(fioSize) as number;
  const minSuiteBytes = FIO_MIN_BANDWIDTH_SECONDS * BENCH_DEFAULTS.expectedBandwidthMBps * 1e6;
  const expectedBandwidthMBps =
    runs("fio") && req.profile === "suite" && fioBytes < minSuiteBytes
      ? Math.max(1, Math.floor(fioBytes / (FIO_MIN_BANDWIDTH_SECONDS * 1e6)))
      : undefined;
  if (expectedBandwidthMBps !== undefined && !req.quick) {
    notes.push(
      `suite: the ${fioSize} file holds ${FIO_MIN_BANDWIDTH_SECONDS} s of ${expectedBandwidthMBps} MB/s, not of ${BENCH_DEFAULTS.expectedBandwidthMBps}: a faster disk passes over it more often in the sequential jobs`,
    );
  }

  let pgbenchScale: number = req.quick ? QUICK.pgbenchScale : BENCH_DEFAULTS.pgbenchScale;
  if (throwaway) {
    const maxScale = Math.floor((PG_VOLUME_SHARE * Math.max(0, budget)) / PGBENCH_BYTES_PER_SCALE);
    if (pgbenchScale > maxScale) {
      const least = req.quick ? pgbenchScale : LOCAL_MIN_PGBENCH_SCALE;
      if (least > maxScale) {
        const tables = least * PGBENCH_BYTES_PER_SCALE;
        short.push(
          `pgbench scale ${least} (${formatBytes(tables)} of tables, at most ${PG_VOLUME_SHARE * 100}% of the room they get)${inCluster} need ${formatBytes(Math.ceil((tables / PG_VOLUME_SHARE + reserve) / LOCAL_DISK_SHARE))} free`,
        );
      } else {
        notes.push(`pgbench scale ${pgbenchScale} → ${maxScale}: ${where}`);
        pgbenchScale = maxScale;
      }
    }
  } else if (runs("pgbench")) {
    notes.push(
      `pgbench scale ${pgbenchScale}: its tables (${formatBytes(pgbenchScale * PGBENCH_BYTES_PER_SCALE)}) go to the --pg server, whose disk is not checked`,
    );
  }
  if (short.length > 0) {
    throw new SpaceError(
      `too little free space for lab bench local${req.quick ? " --quick" : ""}: ${where}; ${short.join("; ")}. Free some space or pick another --dir${req.quick ? "" : ", or run --quick"}.`,
    );
  }
  return { fioSize, ...(expectedBandwidthMBps === undefined ? {} : { expectedBandwidthMBps }), pgbenchScale, notes };
}

/** The server pgbench drives, as the run's settings name it. */
export interface LocalServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  readonly maxConnections: number;
}

/** The run as one BenchSpec: the sizes, `--quick`'s durations or the published ones, the server. */
export function localSpec(req: LocalRequest, sizes: LocalSizes, runId: string, server?: LocalServer): BenchSpec {
  const q = req.quick;
  return {
    name: LOCAL,
    namespace: LOCAL,
    zone: LOCAL,
    runId,
    tools: req.tools,
    reps: req.reps,
    fioProfile: req.profile,
    fioSize: sizes.fioSize,
    ...(sizes.expectedBandwidthMBps === undefined ? {} : { expectedBandwidthMBps: sizes.expectedBandwidthMBps }),
    ...(q ? { fioRuntimeSeconds: QUICK.fioRuntimeSeconds, fioRampSeconds: QUICK.fioRampSeconds } : {}),
    ...(q ? { iopingCount: QUICK.iopingCount, iopingIntervalMs: QUICK.iopingIntervalMs } : {}),
    pgbenchScale: sizes.pgbenchScale,
    ...(q
      ? {
          pgbenchClients: QUICK.pgbenchClients,
          pgbenchThreads: QUICK.pgbenchThreads,
          pgbenchDurationSeconds: QUICK.pgbenchDurationSeconds,
          pgbenchSettleSeconds: QUICK.pgbenchSettleSeconds,
        }
      : {}),
    ...(server === undefined ? {} : { postgres: { ...server, passwordSecret: { ...LOCAL_PASSWORD_SECRET } } }),
  };
}

/**
 * The spec's problems that concern a local run (rules.ts' problems but the {@link JOB_ONLY_ARGUMENTS}),
 * as messages. `--pg`'s server may be too small for the run's clients: that problem names `--pg`.
 */
export function localProblems(spec: BenchSpec): string[] {
  return problems(spec)
    .filter((p) => !JOB_ONLY_ARGUMENTS.includes(p.path))
    .map((p) =>
      p.path === "pgbenchClients" && spec.postgres !== undefined
        ? problem(
            "--pg",
            `a server with max_connections of at least ${(p.value as number) + PG_SPARE_CONNECTIONS} for ${p.value} pgbench clients (${PG_SPARE_CONNECTIONS} kept free)`,
            `max_connections ${spec.postgres.maxConnections}`,
          )
        : formatArgProblem(p),
    );
}
