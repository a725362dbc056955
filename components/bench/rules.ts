/**
 * The benchmark run's arguments, defaults and rules, in one place (pure). BenchmarkRun (index.ts)
 * checks its arguments with {@link problems} and resolves them with {@link resolve}; a stack kind's
 * config calls the same {@link problems} over the fields it passes, with the `lab:` keys the user
 * typed (stacks/lib/config/load.ts). Problems name arguments, never config keys.
 */
import { argProblem, type ArgProblem } from "../../core/errors";
import { isInt, isOneOf, isText } from "../../core/checks";
import { DEFAULT_PGBENCH_IMAGE, PINNED_IMAGE_RULE, isPinnedImage } from "./images";
import {
  type ContainerResources,
  DNS_LABEL_RULE,
  containerResourcesProblems,
  isDnsLabel,
  isDnsSubdomain,
  isLabelKey,
  isLabelValue,
} from "../lib/kubernetes";
import { FIO_PROFILES, type FioProfile } from "./profiles";
import {
  CONTAINER_LOG_MAX_BYTES,
  FIO_MAX_VOLUME_SHARE,
  FIO_MIN_BANDWIDTH_SECONDS,
  GIB,
  IOPING_LOG_BYTES_PER_REQUEST,
  MIN_TTL_SECONDS_AFTER_FINISHED,
  COLLECT_POLL_SECONDS,
  PGBENCH_PROGRESS_LINE_LOG_BYTES,
  defaultFioSize,
  fioLayoutSeconds,
  fioSizeBytes,
  iopingMaxCount,
  pgbenchMinProgressSeconds,
} from "./sizing";

/** The benchmark tools, in the order a run executes them. */
export const BENCH_TOOLS = ["fio", "ioping", "pgbench"] as const;
/** One benchmark tool; each gets its own Job. */
export type BenchTool = (typeof BENCH_TOOLS)[number];

/** `pgbench -i` policies of pgbench.sh (`PGBENCH_INIT`). */
export const PGBENCH_INITS = ["auto", "always", "never"] as const;
export type PgbenchInit = (typeof PGBENCH_INITS)[number];

export type { ContainerResources };

/** The PostgreSQL server pgbench drives. */
export interface PostgresTarget {
  /** Host name (usually the Service's DNS name) or address. */
  readonly host: string;
  /** TCP port. @default 5432 */
  readonly port?: number;
  /**
   * Role pgbench connects as: it must be allowed to create the pgbench tables and to run
   * `CHECKPOINT` after initialising them ("Only superusers or users with the privileges of the
   * pg_checkpoint role can call CHECKPOINT": https://www.postgresql.org/docs/17/sql-checkpoint.html).
   */
  readonly user: string;
  /** Database holding the pgbench tables. */
  readonly database: string;
  /** The Secret (in the Job's namespace) and key holding the role's password (`PGPASSWORD`). */
  readonly passwordSecret: { readonly name: string; readonly key: string };
  /**
   * The server's `max_connections`: `pgbenchClients` must leave {@link PG_SPARE_CONNECTIONS} of
   * them free. @default 100 ("The default is typically 100 connections":
   * https://www.postgresql.org/docs/17/runtime-config-connection.html)
   */
  readonly maxConnections?: number;
  /**
   * Size of the server's data volume, GiB: the pgbench tables (`pgbenchScale` ×
   * {@link PGBENCH_BYTES_PER_SCALE}) must fill at most {@link PG_VOLUME_SHARE} of it.
   * @default not checked
   */
  readonly volumeGiB?: number;
}

/** What one benchmark run deploys. Plain values: the manifests are rendered (and checked) up front. */
export interface BenchSpec {
  /** Base of every object name (`<name>-scripts`, `<name>-data`, `<name>-<tool>-<runId>`): a DNS-1123 label. */
  readonly name: string;
  /** Namespace of every object. */
  readonly namespace: string;
  /** Run id: labels every Job (`lab/run-id`) and is part of its name, so a new id re-runs the benchmark. */
  readonly runId: string;
  /** Availability zone the Jobs are pinned to (`topology.kubernetes.io/zone`), e.g. "us-east-1a". */
  readonly zone: string;
  /**
   * Node labels the Jobs' pods must also carry (`nodeSelector`), to pin them to one node inside the
   * zone (e.g. `{"storage-bench-lab/worker": "2"}`), so two stacks place their benchmarks alike.
   * Keys and values follow Kubernetes' label syntax; the zone label is `zone`'s.
   * @default {} (any node of the zone)
   */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /** Tools to run, in this order, one Job after the other. @default ["fio", "ioping"] */
  readonly tools?: readonly BenchTool[];
  /** StorageClass of the volume under test; required when fio or ioping runs. */
  readonly storageClass?: string;
  /** Size of the volume under test, GiB. @default 64 */
  readonly pvcSizeGiB?: number;
  /** Repetitions of every tool (median and spread are computed from them), 1–20. @default 3 */
  readonly reps?: number;
  /** fio profile (see profiles.ts). @default "seed" */
  readonly fioProfile?: FioProfile;
  /**
   * fio test file size, fio syntax with binary units ("12G" = 12 GiB); at most 90% of the volume.
   * @default "8G" for `seed` (the published size); for `latency` and `suite` 25 s × `expectedBandwidthMBps`, rounded up to whole GiB
   */
  readonly fioSize?: string;
  /** Seconds each job of a time-based profile (latency, suite) measures. @default 60 */
  readonly fioRuntimeSeconds?: number;
  /** Seconds each job of a time-based profile runs before measuring. @default 10 */
  readonly fioRampSeconds?: number;
  /** Bandwidth the storage is expected to deliver, MB/s (10^6 B/s): sizes the file (≥ 25 s of it for `suite`) and the deadlines. @default 512 */
  readonly expectedBandwidthMBps?: number;
  /** Upper bound of one repetition of the size-based `seed` profile, seconds. @default 1200 */
  readonly fioSeedRepSeconds?: number;
  /** ioping requests per repetition, the first (warm-up) one included; the Job's log must fit in the kubelet's 10 MiB. @default 100 */
  readonly iopingCount?: number;
  /** Pause between two ioping requests, milliseconds. @default 1000 */
  readonly iopingIntervalMs?: number;
  /** ioping with O_DIRECT (`-D`) instead of its default cache-dropping reads. @default false */
  readonly iopingDirect?: boolean;
  /** The PostgreSQL server; required when pgbench runs. */
  readonly postgres?: PostgresTarget;
  /** pgbench scale factor (`pgbench -i -s <scale>`). @default 1000 */
  readonly pgbenchScale?: number;
  /** pgbench clients (`-c`). @default 20 */
  readonly pgbenchClients?: number;
  /** pgbench threads (`-j`), at most the clients. @default 2 */
  readonly pgbenchThreads?: number;
  /** Seconds each pgbench repetition runs (`-T`). @default 300 */
  readonly pgbenchDurationSeconds?: number;
  /**
   * Initialise with `--foreign-keys` (adds the foreign keys between the pgbench tables, which
   * pgbench's default init steps `dtgvp` leave out; every history insert then checks them), as the
   * published run does (koor-tech/experiment-ceph-on-nitro@6686fc8 k8s/base/pgbench.job.yaml
   * lines 33-36: `pgbench --initialize --foreign-keys --scale=1000`). @default true
   */
  readonly pgbenchForeignKeys?: boolean;
  /**
   * Per-statement latencies in the output (`-r`, `--report-latencies`), as the published run
   * (pgbench.job.yaml lines 57-61: `pgbench --report-latencies --jobs=2 --client=20 --time=300`).
   * pgbench measures each statement's time then, which costs the client a little CPU. @default true
   */
  readonly pgbenchPerStatementLatencies?: boolean;
  /** Extra option, off by default: seconds between progress lines on stderr (`-P`); 0: none, as published. @default 0 */
  readonly pgbenchProgressSeconds?: number;
  /** Seconds pgbench.sh waits after `pgbench -i` and `CHECKPOINT` before repetition 1, so it starts from the state the others do. @default 30 */
  readonly pgbenchSettleSeconds?: number;
  /** `auto`: initialise unless already initialised by the same `pgbench -i` command; `always`; `never`. @default "auto" */
  readonly pgbenchInit?: PgbenchInit;
  /** Seconds pgbench.sh waits for the server to accept connections and queries. @default 300 */
  readonly pgReadyTimeoutSeconds?: number;
  /** Upper bound of `pgbench -i` at this scale, seconds (scale 1000 writes ~16 GB). @default 3600 */
  readonly pgbenchInitTimeoutSeconds?: number;
  /** Image with fio and ioping (built from components/bench/image/Dockerfile), pinned; required when fio or ioping runs. */
  readonly toolsImage?: string;
  /** Image with pgbench, psql and pg_isready, pinned. @default DEFAULT_PGBENCH_IMAGE (components/bench/images.ts) */
  readonly pgbenchImage?: string;
  /** Container resources per tool. @default {@link DEFAULT_RESOURCES} */
  readonly resources?: Partial<Record<BenchTool, ContainerResources>>;
  /** Seconds added to every Job's deadline for scheduling, image pull and volume attach. @default 600 */
  readonly deadlineMarginSeconds?: number;
  /** Seconds a finished Job (and its log) is kept, at least 3600 (components/bench/sizing.ts). @default 86400 */
  readonly ttlSecondsAfterFinished?: number;
}

/**
 * Defaults of {@link BenchSpec}, in one place. The pgbench ones are the published run
 * (k8s/base/pgbench.job.yaml): `-i --foreign-keys -s 1000`, then `-r -c 20 -j 2 -T 300`.
 */
export const BENCH_DEFAULTS = {
  nodeSelector: {} as Readonly<Record<string, string>>,
  tools: ["fio", "ioping"] as readonly BenchTool[],
  pvcSizeGiB: 64,
  reps: 3,
  fioProfile: "seed" as FioProfile,
  fioRuntimeSeconds: 60,
  fioRampSeconds: 10,
  expectedBandwidthMBps: 512,
  fioSeedRepSeconds: 1200,
  iopingCount: 100,
  iopingIntervalMs: 1000,
  iopingDirect: false,
  postgresPort: 5432,
  postgresMaxConnections: 100,
  pgbenchScale: 1000,
  pgbenchClients: 20,
  pgbenchThreads: 2,
  pgbenchDurationSeconds: 300,
  pgbenchForeignKeys: true,
  pgbenchPerStatementLatencies: true,
  pgbenchProgressSeconds: 0,
  pgbenchSettleSeconds: 30,
  pgbenchInit: "auto" as PgbenchInit,
  pgReadyTimeoutSeconds: 300,
  pgbenchInitTimeoutSeconds: 3600,
  pgbenchImage: DEFAULT_PGBENCH_IMAGE,
  deadlineMarginSeconds: 600,
  ttlSecondsAfterFinished: 86400,
} as const;

/**
 * Default container resources: fio drives qd64 libaio, ioping is one request at a time; pgbench is
 * the published client, Guaranteed at 2 CPU / 8 Gi (pgbench.job.yaml lines 49-55: requests = limits),
 * so its two threads never wait for CPU.
 */
export const DEFAULT_RESOURCES: Readonly<Record<BenchTool, ContainerResources>> = {
  fio: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "2Gi" } },
  ioping: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
  pgbench: { requests: { cpu: "2", memory: "8Gi" }, limits: { cpu: "2", memory: "8Gi" } },
};

/** Repetitions: at least one, at most 20 (20 × the published 300 s pgbench run is already two and a half hours). */
export const REPS_MIN = 1;
export const REPS_MAX = 20;
/** Connections of the server's `max_connections` pgbench leaves free (its readiness probe, monitoring, an operator's psql). */
export const PG_SPARE_CONNECTIONS = 10;
/**
 * Bytes the pgbench tables take per scale unit, rounded up: `pgbench -i -s 10` (PostgreSQL 15,
 * default init steps) made `pgbench_accounts` 156 852 224 bytes with its index, the database
 * 164 625 767, about 15.7 MB a unit.
 */
export const PGBENCH_BYTES_PER_SCALE = 16e6;
/** Share of the server's volume the pgbench tables may fill: the rest is WAL, the history table, vacuum and the file system's reserve. */
export const PG_VOLUME_SHARE = 0.7;

/** Longest Kubernetes object name the Jobs use (a DNS-1123 label, and a label value). */
export const MAX_NAME = 63;
/** The node label the Jobs are pinned to a zone by. */
export const ZONE_LABEL = "topology.kubernetes.io/zone";

/** Defaults resolved, fields grouped by tool. */
export interface ResolvedBench {
  readonly name: string;
  readonly namespace: string;
  readonly runId: string;
  readonly zone: string;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly tools: readonly BenchTool[];
  readonly storageClass?: string;
  readonly pvcSizeGiB: number;
  readonly reps: number;
  readonly fio: {
    readonly profile: FioProfile;
    readonly size: string;
    readonly sizeBytes: number;
    readonly runtimeSeconds: number;
    readonly rampSeconds: number;
    readonly expectedBandwidthMBps: number;
    readonly seedRepSeconds: number;
    /** Upper bound for laying out the file: `ceil(4 × size / expected bandwidth)`. */
    readonly layoutSeconds: number;
  };
  readonly ioping: { readonly count: number; readonly intervalMs: number; readonly direct: boolean };
  readonly pgbench: {
    readonly scale: number;
    readonly clients: number;
    readonly threads: number;
    readonly durationSeconds: number;
    readonly foreignKeys: boolean;
    readonly perStatementLatencies: boolean;
    readonly progressSeconds: number;
    readonly settleSeconds: number;
    readonly init: PgbenchInit;
    readonly readyTimeoutSeconds: number;
    readonly initTimeoutSeconds: number;
  };
  readonly postgres?: Required<Omit<PostgresTarget, "volumeGiB">> & Pick<PostgresTarget, "volumeGiB">;
  readonly toolsImage?: string;
  readonly pgbenchImage: string;
  readonly resources: Readonly<Record<BenchTool, ContainerResources>>;
  readonly deadlineMarginSeconds: number;
  readonly ttlSecondsAfterFinished: number;
}

/** The tools of `spec` in run order (fio, ioping, pgbench), whatever order they are given in. */
export function orderedTools(tools: readonly BenchTool[]): BenchTool[] {
  return BENCH_TOOLS.filter((t) => tools.includes(t));
}

/** Defaults applied and sizes derived, for a spec in which {@link problems} found nothing. */
export function resolve(spec: BenchSpec): ResolvedBench {
  const d = BENCH_DEFAULTS;
  const profile = spec.fioProfile ?? d.fioProfile;
  const bandwidth = spec.expectedBandwidthMBps ?? d.expectedBandwidthMBps;
  const size = spec.fioSize ?? defaultFioSize(profile, bandwidth);
  const sizeBytes = fioSizeBytes(size) ?? 0;
  const p = spec.postgres;
  return {
    name: spec.name,
    namespace: spec.namespace,
    runId: spec.runId,
    zone: spec.zone,
    nodeSelector: { ...(spec.nodeSelector ?? d.nodeSelector) },
    tools: orderedTools(spec.tools ?? d.tools),
    storageClass: spec.storageClass,
    pvcSizeGiB: spec.pvcSizeGiB ?? d.pvcSizeGiB,
    reps: spec.reps ?? d.reps,
    fio: {
      profile,
      size,
      sizeBytes,
      runtimeSeconds: spec.fioRuntimeSeconds ?? d.fioRuntimeSeconds,
      rampSeconds: spec.fioRampSeconds ?? d.fioRampSeconds,
      expectedBandwidthMBps: bandwidth,
      seedRepSeconds: spec.fioSeedRepSeconds ?? d.fioSeedRepSeconds,
      layoutSeconds: fioLayoutSeconds(sizeBytes, bandwidth),
    },
    ioping: {
      count: spec.iopingCount ?? d.iopingCount,
      intervalMs: spec.iopingIntervalMs ?? d.iopingIntervalMs,
      direct: spec.iopingDirect ?? d.iopingDirect,
    },
    pgbench: {
      scale: spec.pgbenchScale ?? d.pgbenchScale,
      clients: spec.pgbenchClients ?? d.pgbenchClients,
      threads: spec.pgbenchThreads ?? d.pgbenchThreads,
      durationSeconds: spec.pgbenchDurationSeconds ?? d.pgbenchDurationSeconds,
      foreignKeys: spec.pgbenchForeignKeys ?? d.pgbenchForeignKeys,
      perStatementLatencies: spec.pgbenchPerStatementLatencies ?? d.pgbenchPerStatementLatencies,
      progressSeconds: spec.pgbenchProgressSeconds ?? d.pgbenchProgressSeconds,
      settleSeconds: spec.pgbenchSettleSeconds ?? d.pgbenchSettleSeconds,
      init: spec.pgbenchInit ?? d.pgbenchInit,
      readyTimeoutSeconds: spec.pgReadyTimeoutSeconds ?? d.pgReadyTimeoutSeconds,
      initTimeoutSeconds: spec.pgbenchInitTimeoutSeconds ?? d.pgbenchInitTimeoutSeconds,
    },
    postgres:
      p === undefined
        ? undefined
        : {
            host: p.host,
            port: p.port ?? d.postgresPort,
            user: p.user,
            database: p.database,
            passwordSecret: { name: p.passwordSecret.name, key: p.passwordSecret.key },
            maxConnections: p.maxConnections ?? d.postgresMaxConnections,
            ...(p.volumeGiB === undefined ? {} : { volumeGiB: p.volumeGiB }),
          },
    toolsImage: spec.toolsImage,
    pgbenchImage: spec.pgbenchImage ?? d.pgbenchImage,
    resources: { ...DEFAULT_RESOURCES, ...(spec.resources ?? {}) },
    deadlineMarginSeconds: spec.deadlineMarginSeconds ?? d.deadlineMarginSeconds,
    ttlSecondsAfterFinished: spec.ttlSecondsAfterFinished ?? d.ttlSecondsAfterFinished,
  };
}

/*
 * Label keys and values follow Kubernetes' syntax (https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set;
 * k8s.io/apimachinery/pkg/util/validation/validation.go, `IsQualifiedName`, `IsValidLabelValue`):
 * a key is an optional DNS-subdomain prefix of at most 253 characters and '/', then a name of at
 * most 63 letters, digits, '-', '_' or '.' starting and ending with a letter or digit; a value is
 * empty or such a name. components/lib/kubernetes.ts checks them, for every component.
 */
const LABEL_KEY_RULE = `keyed by Kubernetes label keys ([<DNS subdomain>/]<name>, the name 1–63 letters, digits, '-', '_' or '.' between a letter or digit at each end)`;
const LABEL_VALUE_RULE =
  "a Kubernetes label value (at most 63 letters, digits, '-', '_' or '.' between a letter or digit at each end, or empty)";
const BOOL_RULE = "true or false";

/** At most two decimals, no trailing zeros: 57.6, 90, 0.9. */
function num(n: number): string {
  return String(Number(n.toFixed(2)));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every problem of `spec`, in argument order; empty when it is valid. */
export function problems(spec: BenchSpec): ArgProblem[] {
  const c = new SpecCheck(spec);
  placementProblems(c);
  const run = toolsProblems(c);
  runIdProblems(c, run);
  imageProblems(c, run);
  const pvcSizeGiB = c.int("pvcSizeGiB", 1, 65536) ?? (spec.pvcSizeGiB === undefined ? BENCH_DEFAULTS.pvcSizeGiB : undefined);
  const reps = c.int("reps", REPS_MIN, REPS_MAX) ?? (spec.reps === undefined ? BENCH_DEFAULTS.reps : undefined);
  fioProblems(c, run, pvcSizeGiB);
  iopingProblems(c, run, reps);
  pgbenchProblems(c, run, reps);
  resourcesProblems(c);
  jobLifetimeProblems(c);
  return c.out;
}

/** The problems found so far, and the checks of one kind of argument. */
class SpecCheck {
  readonly out: ArgProblem[] = [];
  constructor(readonly spec: BenchSpec) {}

  readonly push = (path: string, rule: string, value: unknown): void => {
    this.out.push(argProblem(path, rule, value));
  };

  /** An optional integer argument in [min, max]: its value when valid, else undefined. */
  int<K extends keyof BenchSpec>(arg: K, min: number, max: number, rule = `an integer from ${min} to ${max}`): number | undefined {
    const v = this.spec[arg];
    if (v === undefined) return undefined;
    if (!isInt(v, min, max)) this.push(arg, rule, v);
    return isInt(v, min, max) ? v : undefined;
  }

  /** An optional boolean argument. */
  bool(arg: keyof BenchSpec): void {
    const v = this.spec[arg];
    if (v !== undefined && typeof v !== "boolean") this.push(arg, BOOL_RULE, v);
  }
}

/** Where the Jobs run: their name, namespace, zone and node selector. */
function placementProblems({ spec, push }: SpecCheck): void {
  if (!isDnsLabel(spec.name)) push("name", DNS_LABEL_RULE, spec.name);
  if (!isDnsLabel(spec.namespace)) push("namespace", DNS_LABEL_RULE, spec.namespace);
  const zoneOk = isText(spec.zone) && isLabelValue(spec.zone);
  if (!zoneOk) push("zone", 'an availability zone name (e.g. "us-east-1a")', spec.zone);

  const sel = spec.nodeSelector;
  if (sel === undefined) return;
  if (!isPlainObject(sel)) {
    push("nodeSelector", 'an object of Kubernetes node labels (e.g. {"storage-bench-lab/worker":"2"})', sel);
    return;
  }
  for (const [k, v] of Object.entries(sel)) {
    if (!isLabelKey(k)) push("nodeSelector", LABEL_KEY_RULE, k);
    else if (k === ZONE_LABEL) push("nodeSelector", `free of ${ZONE_LABEL} (the Jobs' zone is {zone})`, k);
    else if (!isLabelValue(v)) push(`nodeSelector[${JSON.stringify(k)}]`, LABEL_VALUE_RULE, v);
  }
}

/** The tools: the ones the run executes, in order (none when the list is wrong). */
function toolsProblems({ spec, push }: SpecCheck): BenchTool[] {
  const tools = spec.tools ?? BENCH_DEFAULTS.tools;
  const toolsOk =
    Array.isArray(tools) && tools.length > 0 && tools.every((t) => isOneOf(t, BENCH_TOOLS)) && new Set(tools).size === tools.length;
  if (!toolsOk) push("tools", `a non-empty list of distinct tools among ${BENCH_TOOLS.join(", ")}`, spec.tools);
  return toolsOk ? orderedTools(tools) : [];
}

/** The run id: a DNS label that the longest Job name leaves room for. */
function runIdProblems({ spec, push }: SpecCheck, run: readonly BenchTool[]): void {
  if (!isDnsLabel(spec.runId)) {
    push("runId", `${DNS_LABEL_RULE} (e.g. "r1" or "2026-01-15")`, spec.runId);
  } else if (isDnsLabel(spec.name) && run.length > 0) {
    const longest = run.reduce((a, t) => (t.length > a.length ? t : a), run[0]);
    const max = MAX_NAME - `${spec.name}-${longest}-`.length;
    if (spec.runId.length > max) {
      push("runId", `at most ${max} characters (Job "${spec.name}-${longest}-<runId>" must fit in ${MAX_NAME})`, spec.runId);
    }
  }
}

/** The storage class and the pinned images of the tools that run. */
function imageProblems({ spec, push }: SpecCheck, run: readonly BenchTool[]): void {
  if (run.includes("fio") || run.includes("ioping")) {
    if (!isDnsSubdomain(spec.storageClass)) push("storageClass", "the name of a StorageClass", spec.storageClass);
    if (spec.toolsImage === undefined) {
      push("toolsImage", `${PINNED_IMAGE_RULE} of an image with fio and ioping (build components/bench/image/Dockerfile)`, undefined);
    } else if (!isPinnedImage(spec.toolsImage)) {
      push("toolsImage", PINNED_IMAGE_RULE, spec.toolsImage);
    }
  }
  if (run.includes("pgbench") && spec.pgbenchImage !== undefined && !isPinnedImage(spec.pgbenchImage)) {
    push("pgbenchImage", PINNED_IMAGE_RULE, spec.pgbenchImage);
  }
}

/** fio: its profile, times, expected bandwidth and file size (against the volume and the bandwidth). */
function fioProblems(c: SpecCheck, run: readonly BenchTool[], pvcSizeGiB: number | undefined): void {
  const { spec, push } = c;
  const d = BENCH_DEFAULTS;
  const profileOk = spec.fioProfile === undefined || isOneOf(spec.fioProfile, FIO_PROFILES);
  if (!profileOk) push("fioProfile", `one of ${FIO_PROFILES.join(", ")}`, spec.fioProfile);
  const profile: FioProfile = profileOk ? (spec.fioProfile ?? d.fioProfile) : d.fioProfile;
  c.int("fioRuntimeSeconds", 1, 86400);
  c.int("fioRampSeconds", 0, 3600);
  c.int("fioSeedRepSeconds", 60, 86400);
  const bw = spec.expectedBandwidthMBps;
  const bwOk = bw === undefined || (typeof bw === "number" && Number.isFinite(bw) && bw > 0 && bw <= 100000);
  if (!bwOk) push("expectedBandwidthMBps", "a number of MB/s above 0 and at most 100000", bw);
  const bandwidth = bwOk ? (bw ?? d.expectedBandwidthMBps) : d.expectedBandwidthMBps;
  const size = spec.fioSize ?? defaultFioSize(profile, bandwidth);
  const sizeBytes = fioSizeBytes(size);
  if (sizeBytes === undefined) {
    push("fioSize", 'a whole number with a unit K, M, G or T (fio, binary units; e.g. "8G")', spec.fioSize);
    return;
  }
  if (!run.includes("fio")) return;
  if (pvcSizeGiB !== undefined && sizeBytes > FIO_MAX_VOLUME_SHARE * pvcSizeGiB * GIB) {
    if (spec.fioSize !== undefined) {
      push("fioSize", `at most 90% of {pvcSizeGiB} (${num(FIO_MAX_VOLUME_SHARE * pvcSizeGiB)} GiB)`, spec.fioSize);
    } else {
      const minGiB = Math.ceil(sizeBytes / GIB / FIO_MAX_VOLUME_SHARE);
      push("pvcSizeGiB", `at least ${minGiB} so that the fio file (${size}) fills at most 90% of it`, spec.pvcSizeGiB);
    }
  }
  const minBytes = FIO_MIN_BANDWIDTH_SECONDS * bandwidth * 1e6;
  if (profile === "suite" && sizeBytes < minBytes) {
    push(
      "fioSize",
      `at least ${FIO_MIN_BANDWIDTH_SECONDS} s of {expectedBandwidthMBps} for profile "suite" (${FIO_MIN_BANDWIDTH_SECONDS} s × ${num(bandwidth)} MB/s = ${num(minBytes / 1e9)} GB)`,
      spec.fioSize,
    );
  }
}

/** ioping: its JSON output must fit in the container log the collector reads (sizing.ts). */
function iopingProblems(c: SpecCheck, run: readonly BenchTool[], reps: number | undefined): void {
  const { spec, push } = c;
  const countRule = (max: number) => `an integer from 2 to ${max}`;
  const maxCount = iopingMaxCount(reps ?? BENCH_DEFAULTS.reps);
  const count = spec.iopingCount;
  if (count !== undefined) {
    if (!isInt(count, 2)) {
      push("iopingCount", countRule(maxCount), count);
    } else if (run.includes("ioping") && reps !== undefined && count > maxCount) {
      push(
        "iopingCount",
        `at most ${maxCount} so that {reps} ${reps} repetitions of ioping's JSON (up to ${IOPING_LOG_BYTES_PER_REQUEST} bytes a request) fit in the kubelet's default ${CONTAINER_LOG_MAX_BYTES / 2 ** 20} MiB container log (containerLogMaxSize), which kubectl logs reads`,
        count,
      );
    }
  }
  c.int("iopingIntervalMs", 0, 60000);
  c.bool("iopingDirect");
}

/** pgbench: its load (clients and threads, progress lines that fit the log), its timeouts, and the PostgreSQL target. */
function pgbenchProblems(c: SpecCheck, run: readonly BenchTool[], reps: number | undefined): void {
  const { spec, push } = c;
  const d = BENCH_DEFAULTS;
  const scale = c.int("pgbenchScale", 1, 100000);
  const clients = c.int("pgbenchClients", 1, 10000);
  const threads = c.int("pgbenchThreads", 1, 1024);
  const duration = c.int("pgbenchDurationSeconds", 1, 86400);
  const clientsOk = spec.pgbenchClients === undefined || clients !== undefined;
  const threadsOk = spec.pgbenchThreads === undefined || threads !== undefined;
  if (clientsOk && threadsOk) {
    const nc = clients ?? d.pgbenchClients;
    const j = threads ?? d.pgbenchThreads;
    // Name the value the user typed: threads when given, else the clients below the default threads.
    if (j > nc) {
      if (spec.pgbenchThreads !== undefined) push("pgbenchThreads", `at most {pgbenchClients} (${nc})`, j);
      else push("pgbenchClients", `at least {pgbenchThreads} (${j})`, nc);
    }
  }
  c.bool("pgbenchForeignKeys");
  c.bool("pgbenchPerStatementLatencies");
  const progress = c.int("pgbenchProgressSeconds", 0, 3600);
  if (
    progress !== undefined &&
    progress > 0 &&
    reps !== undefined &&
    (spec.pgbenchDurationSeconds === undefined || duration !== undefined)
  ) {
    const min = pgbenchMinProgressSeconds(reps, duration ?? d.pgbenchDurationSeconds);
    if (progress < min) {
      push(
        "pgbenchProgressSeconds",
        `0 (none) or at least ${min} so that {reps} ${reps} repetitions of {pgbenchDurationSeconds} ${duration ?? d.pgbenchDurationSeconds} s of progress lines (up to ${PGBENCH_PROGRESS_LINE_LOG_BYTES} bytes each) fit in the kubelet's default ${CONTAINER_LOG_MAX_BYTES / 2 ** 20} MiB container log (containerLogMaxSize)`,
        progress,
      );
    }
  }
  c.int("pgbenchSettleSeconds", 0, 3600);
  if (spec.pgbenchInit !== undefined && !isOneOf(spec.pgbenchInit, PGBENCH_INITS)) {
    push("pgbenchInit", `one of ${PGBENCH_INITS.join(", ")}`, spec.pgbenchInit);
  }
  c.int("pgReadyTimeoutSeconds", 1, 3600);
  c.int("pgbenchInitTimeoutSeconds", 60, 86400);
  if (run.includes("pgbench")) postgresProblems(spec, push, { scale, clients, clientsGiven: spec.pgbenchClients !== undefined });
}

/** Requests and limits, per tool. */
function resourcesProblems({ spec, push }: SpecCheck): void {
  const res = spec.resources;
  if (res === undefined) return;
  if (!isPlainObject(res)) {
    push("resources", `requests and limits per tool among ${BENCH_TOOLS.join(", ")}`, res);
    return;
  }
  for (const [t, r] of Object.entries(res)) {
    if (!isOneOf(t, BENCH_TOOLS)) {
      push("resources", `requests and limits per tool among ${BENCH_TOOLS.join(", ")}`, res);
      continue;
    }
    for (const p of containerResourcesProblems(`resources.${t}`, r)) push(p.path, p.rule, p.value);
  }
}

/** How long a Job may run past its budget, and how long a finished one stays. */
function jobLifetimeProblems(c: SpecCheck): void {
  c.int("deadlineMarginSeconds", 0, 86400);
  c.int(
    "ttlSecondsAfterFinished",
    MIN_TTL_SECONDS_AFTER_FINISHED,
    31536000,
    `an integer from ${MIN_TTL_SECONDS_AFTER_FINISHED} to 31536000 (a finished Job and its log must outlive their collection: ${MIN_TTL_SECONDS_AFTER_FINISHED / COLLECT_POLL_SECONDS} of the collector's ${COLLECT_POLL_SECONDS} s polls)`,
  );
}

/** The PostgreSQL target's problems: its fields, and the pgbench load it must carry. */
function postgresProblems(
  spec: BenchSpec,
  push: (path: string, rule: string, value: unknown) => void,
  load: { scale?: number; clients?: number; clientsGiven: boolean },
): void {
  const p = spec.postgres;
  if (p === undefined) {
    push("postgres", "the PostgreSQL server pgbench drives (host, user, database, passwordSecret)", undefined);
    return;
  }
  if (!isPlainObject(p)) {
    push("postgres", "the PostgreSQL server pgbench drives (host, user, database, passwordSecret)", p);
    return;
  }
  const word = (v: unknown) => isText(v, /^\S+$/);
  if (!word(p.host)) push("postgres.host", "a host name or address", p.host);
  if (p.port !== undefined && !isInt(p.port, 1, 65535)) push("postgres.port", "an integer from 1 to 65535", p.port);
  if (!word(p.user)) push("postgres.user", "a role name", p.user);
  if (!word(p.database)) push("postgres.database", "a database name", p.database);
  if (!isDnsSubdomain(p.passwordSecret?.name)) push("postgres.passwordSecret.name", "the name of a Secret", p.passwordSecret?.name);
  if (!word(p.passwordSecret?.key)) push("postgres.passwordSecret.key", "a key of that Secret", p.passwordSecret?.key);
  const maxConnOk = p.maxConnections === undefined || isInt(p.maxConnections, PG_SPARE_CONNECTIONS + 1, 262143);
  if (!maxConnOk) push("postgres.maxConnections", `an integer from ${PG_SPARE_CONNECTIONS + 1} to 262143`, p.maxConnections);
  const volOk = p.volumeGiB === undefined || isInt(p.volumeGiB, 1, 65536);
  if (!volOk) push("postgres.volumeGiB", "an integer from 1 to 65536", p.volumeGiB);

  const maxConnections = p.maxConnections ?? BENCH_DEFAULTS.postgresMaxConnections;
  const clients = load.clients ?? (load.clientsGiven ? undefined : BENCH_DEFAULTS.pgbenchClients);
  if (maxConnOk && clients !== undefined && clients > maxConnections - PG_SPARE_CONNECTIONS) {
    push(
      "pgbenchClients",
      `at most ${maxConnections - PG_SPARE_CONNECTIONS} (the server's max_connections ${maxConnections}, less ${PG_SPARE_CONNECTIONS} kept free)`,
      clients,
    );
  }
  const scale = load.scale ?? (spec.pgbenchScale === undefined ? BENCH_DEFAULTS.pgbenchScale : undefined);
  if (volOk && p.volumeGiB !== undefined && scale !== undefined) {
    const max = Math.floor((PG_VOLUME_SHARE * p.volumeGiB * GIB) / PGBENCH_BYTES_PER_SCALE);
    if (scale > max) {
      push(
        "pgbenchScale",
        `at most ${max} so that the pgbench tables (${PGBENCH_BYTES_PER_SCALE / 1e6} MB a scale unit) fill at most ${PG_VOLUME_SHARE * 100}% of the server's ${p.volumeGiB} GiB volume`,
        scale,
      );
    }
  }
}
