/**
 * Pure renderers of the benchmark layer: from one {@link BenchSpec} the PersistentVolumeClaim under
 * test, the ConfigMap with the scripts and fio job files, and one `batch/v1` Job per tool (fio,
 * ioping, pgbench). No Pulumi, no I/O: the component (index.ts) turns the objects into resources,
 * `lab plan` and the tests read them as they are.
 *
 * Order of work: resolve defaults once ({@link resolveBench}), collect every problem, then render.
 * Problems read `'<key>' must be <rule>, got <value>` with the config key the user typed; the
 * caller maps fields to keys with {@link BenchSpec.keys} (default `lab:<field>`).
 *
 * Every Job: `restartPolicy: Never` and `backoffLimit: 0` (a benchmark that failed must fail, not
 * be silently retried on a warm cache), `activeDeadlineSeconds` computed from the tool's work ×
 * repetitions + a margin ({@link activeDeadlineSeconds}), `ttlSecondsAfterFinished`, requests and
 * limits, required node affinity to the zone, the restricted Pod Security profile (non-root uid,
 * no privilege escalation, all capabilities dropped, RuntimeDefault seccomp, read-only root file
 * system with an emptyDir /tmp), no service-account token, and labels `app.kubernetes.io/*` +
 * `lab/run-id`.
 */
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { IEnvVar } from "kubernetes-models/v1/EnvVar";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IVolume } from "kubernetes-models/v1/Volume";
import type { IVolumeMount } from "kubernetes-models/v1/VolumeMount";
import { problem, throwIfProblems } from "../../core/errors";
import { DEFAULT_PGBENCH_IMAGE, PGBENCH_IMAGE_UID, PINNED_IMAGE_RULE, TOOLS_IMAGE_UID, isPinnedImage } from "./images";
import { FIO_PROFILES, SEED_FIO_SIZE, fioRepSeconds, isFioProfile, renderFioJobFiles, type FioProfile } from "./profiles";

/** The benchmark tools, in the order a run executes them. */
export const BENCH_TOOLS = ["fio", "ioping", "pgbench"] as const;
/** One benchmark tool; each gets its own Job. */
export type BenchTool = (typeof BENCH_TOOLS)[number];

/** `pgbench -i` policy of pgbench.sh (`PGBENCH_INIT`). */
export type PgbenchInit = "auto" | "always" | "never";

/** CPU and memory of one container, Kubernetes quantities. */
export interface ContainerResources {
  readonly requests: { readonly cpu: string; readonly memory: string };
  readonly limits: { readonly cpu: string; readonly memory: string };
}

/** The PostgreSQL server pgbench drives. */
export interface PostgresTarget {
  /** Host name (usually the Service's DNS name) or address. */
  readonly host: string;
  /** TCP port. @default 5432 */
  readonly port?: number;
  /** Role pgbench connects as; it must be allowed to create the pgbench tables. */
  readonly user: string;
  /** Database holding the pgbench tables. */
  readonly database: string;
  /** The Secret (in the Job's namespace) and key holding the role's password (`PGPASSWORD`). */
  readonly passwordSecret: { readonly name: string; readonly key: string };
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
   * @default {} (any node of the zone)
   */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /** Tools to run, in this order, one Job after the other. @default ["fio", "ioping"] */
  readonly tools?: readonly BenchTool[];
  /** StorageClass of the volume under test; required when fio or ioping runs. */
  readonly storageClass?: string;
  /** Size of the volume under test, GiB. @default 64 */
  readonly pvcSizeGiB?: number;
  /** Repetitions of every tool (median and spread are computed from them). @default 3 */
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
  /** ioping requests per repetition, the first (warm-up) one included. @default 100 */
  readonly iopingCount?: number;
  /** Pause between two ioping requests, milliseconds. @default 1000 */
  readonly iopingIntervalMs?: number;
  /** ioping with O_DIRECT (`-D`) instead of its default cache-dropping reads. @default false */
  readonly iopingDirect?: boolean;
  /** The PostgreSQL server; required when pgbench runs. */
  readonly postgres?: PostgresTarget;
  /** pgbench scale factor (`-i -s`). @default 1000 */
  readonly pgbenchScale?: number;
  /** pgbench clients (`-c`). @default 20 */
  readonly pgbenchClients?: number;
  /** pgbench threads (`-j`), at most the clients. @default 2 */
  readonly pgbenchThreads?: number;
  /** Seconds each pgbench repetition runs (`-T`). @default 300 */
  readonly pgbenchDurationSeconds?: number;
  /** Seconds between pgbench progress lines (`-P`); 0: none. @default 60 */
  readonly pgbenchProgressSeconds?: number;
  /** `auto`: initialise unless already initialised at this scale; `always`; `never`. @default "auto" */
  readonly pgbenchInit?: PgbenchInit;
  /** Seconds pgbench.sh waits for the server to accept connections and queries. @default 300 */
  readonly pgReadyTimeoutSeconds?: number;
  /** Upper bound of `pgbench -i` at this scale, seconds (scale 1000 writes ~15 GB). @default 3600 */
  readonly pgbenchInitTimeoutSeconds?: number;
  /** Image with fio and ioping (built from components/bench/image/Dockerfile), pinned; required when fio or ioping runs. */
  readonly toolsImage?: string;
  /** Image with pgbench, psql and pg_isready, pinned. @default "docker.io/library/postgres:17.11-bookworm" */
  readonly pgbenchImage?: string;
  /** Container resources per tool. @default {@link DEFAULT_RESOURCES} */
  readonly resources?: Partial<Record<BenchTool, ContainerResources>>;
  /** Seconds added to every Job's deadline for scheduling, image pull and volume attach. @default 600 */
  readonly deadlineMarginSeconds?: number;
  /** Seconds a finished Job (and its log) is kept. @default 86400 */
  readonly ttlSecondsAfterFinished?: number;
  /** Config key to name in problems, per field. @default `lab:<field>` */
  readonly keys?: Partial<Record<BenchField, string>>;
}

/** The fields a problem can name. */
export type BenchField = Exclude<keyof BenchSpec, "keys">;

/** Defaults of {@link BenchSpec}, in one place. */
export const BENCH_DEFAULTS = {
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
  pgbenchScale: 1000,
  pgbenchClients: 20,
  pgbenchThreads: 2,
  pgbenchDurationSeconds: 300,
  pgbenchProgressSeconds: 60,
  pgbenchInit: "auto" as PgbenchInit,
  pgReadyTimeoutSeconds: 300,
  pgbenchInitTimeoutSeconds: 3600,
  deadlineMarginSeconds: 600,
  ttlSecondsAfterFinished: 86400,
} as const;

/** Default container resources: fio drives qd64 libaio, ioping is one request at a time. */
export const DEFAULT_RESOURCES: Readonly<Record<BenchTool, ContainerResources>> = {
  fio: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "2Gi" } },
  ioping: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
  pgbench: { requests: { cpu: "1", memory: "256Mi" }, limits: { cpu: "2", memory: "1Gi" } },
};

/** Seconds of one ioping repetition beyond its requests (temporary file, warm-up, exit). */
export const IOPING_REP_OVERHEAD_SECONDS = 30;
/** Seconds of one pgbench repetition beyond `-T` (pgbench's vacuum, connections, report). */
export const PGBENCH_REP_OVERHEAD_SECONDS = 120;
/** Seconds the collecting command waits beyond a Job's deadline before it gives up. */
export const COLLECT_SLACK_SECONDS = 120;
/** The fio test file may fill at most this share of the volume. */
export const FIO_MAX_VOLUME_SHARE = 0.9;
/** `suite`'s file must hold at least this many seconds of the expected bandwidth (defeats caches). */
export const FIO_MIN_BANDWIDTH_SECONDS = 25;

/** Where the Jobs mount things. */
export const MOUNTS = { scripts: "/opt/lab", data: "/data", tmp: "/tmp" } as const;

/** Label key of the run id. */
export const RUN_ID_LABEL = "lab/run-id";
/** Node label the Jobs are pinned by. */
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
    readonly progressSeconds: number;
    readonly init: PgbenchInit;
    readonly readyTimeoutSeconds: number;
    readonly initTimeoutSeconds: number;
  };
  readonly postgres?: Required<PostgresTarget>;
  readonly toolsImage?: string;
  readonly pgbenchImage: string;
  readonly resources: Readonly<Record<BenchTool, ContainerResources>>;
  readonly deadlineMarginSeconds: number;
  readonly ttlSecondsAfterFinished: number;
}

/** One rendered Job and what collecting it needs. */
export interface RenderedJob {
  readonly tool: BenchTool;
  /** The Job's `metadata.name`. */
  readonly name: string;
  readonly job: IJob;
  /** Repetitions the Job's log must hold. */
  readonly reps: number;
  readonly activeDeadlineSeconds: number;
  /** How long the collecting command waits for the Job: its deadline + {@link COLLECT_SLACK_SECONDS}. */
  readonly waitTimeoutSeconds: number;
  /** Options that shape this tool's numbers, for the samples' metadata. */
  readonly options: Readonly<Record<string, string | number | boolean>>;
}

/** Everything one run deploys. */
export interface BenchManifests {
  readonly settings: ResolvedBench;
  readonly configMap: IConfigMap;
  /** The volume under test; absent when only pgbench runs. */
  readonly pvc?: IPersistentVolumeClaim;
  /** In run order. */
  readonly jobs: readonly RenderedJob[];
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const QUANTITY = /^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/;
const FIO_SIZE = /^([1-9][0-9]*)([KMGT])$/;
const FIO_UNIT = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 } as const;
const GIB = 2 ** 30;
const MAX_NAME = 63;

/** Bytes of a fio size in the accepted syntax (`<whole number><K|M|G|T>`, binary units), or undefined. */
export function fioSizeBytes(size: string): number | undefined {
  const m = FIO_SIZE.exec(size);
  return m ? Number(m[1]) * FIO_UNIT[m[2] as keyof typeof FIO_UNIT] : undefined;
}

/** Default fio file size of a time-based profile: 25 s × expected bandwidth, rounded up to whole GiB. */
export function defaultFioSize(profile: FioProfile, expectedBandwidthMBps: number): string {
  if (profile === "seed") return SEED_FIO_SIZE;
  return `${Math.max(1, Math.ceil((FIO_MIN_BANDWIDTH_SECONDS * expectedBandwidthMBps * 1e6) / GIB))}G`;
}

/** A Job's `metadata.name`: `<name>-<tool>-<runId>`. */
export function jobName(name: string, tool: BenchTool, runId: string): string {
  return `${name}-${tool}-${runId}`;
}

/** At most two decimals, no trailing zeros: 57.6, 90, 0.9. */
function num(n: number): string {
  return String(Number(n.toFixed(2)));
}

const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/** Resolves defaults and collects every problem of `spec` (none: `problems` is empty). */
export function resolveBench(spec: BenchSpec): { resolved: ResolvedBench; problems: string[] } {
  const problems: string[] = [];
  const key = (f: BenchField): string => spec.keys?.[f] ?? `lab:${f}`;
  const check = (ok: boolean, f: BenchField, rule: string, value: unknown): void => {
    if (!ok) problems.push(problem(key(f), rule, value));
  };
  const intField = <F extends BenchField>(f: F, fallback: number, min: number, max: number): number => {
    const v = spec[f];
    if (v === undefined) return fallback;
    check(isInt(v, min, max), f, `an integer from ${min} to ${max}`, v);
    return typeof v === "number" ? v : fallback;
  };

  check(
    typeof spec.name === "string" && DNS_LABEL.test(spec.name),
    "name",
    "a DNS-1123 label (lower-case letters, digits, '-')",
    spec.name,
  );
  check(
    typeof spec.namespace === "string" && DNS_LABEL.test(spec.namespace),
    "namespace",
    "a DNS-1123 label (lower-case letters, digits, '-')",
    spec.namespace,
  );
  check(
    typeof spec.zone === "string" && spec.zone.length <= MAX_NAME && LABEL_VALUE.test(spec.zone),
    "zone",
    'an availability zone name (e.g. "us-east-1a")',
    spec.zone,
  );

  const tools = spec.tools ?? BENCH_DEFAULTS.tools;
  const toolsOk =
    Array.isArray(tools) &&
    tools.length > 0 &&
    tools.every((t) => (BENCH_TOOLS as readonly string[]).includes(t)) &&
    new Set(tools).size === tools.length;
  check(toolsOk, "tools", `a non-empty list of distinct tools among ${BENCH_TOOLS.join(", ")}`, spec.tools);
  const orderedTools = toolsOk ? BENCH_TOOLS.filter((t) => tools.includes(t)) : [];
  const needsVolume = orderedTools.includes("fio") || orderedTools.includes("ioping");

  // The longest Job name decides how long the run id may be.
  if (typeof spec.runId !== "string" || !DNS_LABEL.test(spec.runId)) {
    check(false, "runId", 'a DNS-1123 label (lower-case letters, digits, \'-\'; e.g. "r1" or "2026-01-15")', spec.runId);
  } else if (typeof spec.name === "string") {
    const longest = orderedTools.reduce((a, t) => (t.length > a.length ? t : a), "");
    const max = MAX_NAME - `${spec.name}-${longest}-`.length;
    check(
      spec.runId.length <= max,
      "runId",
      `at most ${max} characters (Job "${jobName(spec.name, longest as BenchTool, "<runId>")}" must fit in ${MAX_NAME})`,
      spec.runId,
    );
  }

  if (needsVolume) {
    check(
      typeof spec.storageClass === "string" && DNS_SUBDOMAIN.test(spec.storageClass),
      "storageClass",
      "the name of a StorageClass",
      spec.storageClass,
    );
    if (spec.toolsImage === undefined) {
      check(
        false,
        "toolsImage",
        `${PINNED_IMAGE_RULE} of an image with fio and ioping (build components/bench/image/Dockerfile)`,
        undefined,
      );
    } else {
      check(isPinnedImage(spec.toolsImage), "toolsImage", PINNED_IMAGE_RULE, spec.toolsImage);
    }
  }
  const pgbenchImage = spec.pgbenchImage ?? DEFAULT_PGBENCH_IMAGE;
  if (orderedTools.includes("pgbench")) check(isPinnedImage(pgbenchImage), "pgbenchImage", PINNED_IMAGE_RULE, spec.pgbenchImage);

  const pvcSizeGiB = intField("pvcSizeGiB", BENCH_DEFAULTS.pvcSizeGiB, 1, 65536);
  const reps = intField("reps", BENCH_DEFAULTS.reps, 1, 100);

  // fio
  const profile = spec.fioProfile ?? BENCH_DEFAULTS.fioProfile;
  check(isFioProfile(profile), "fioProfile", `one of ${FIO_PROFILES.join(", ")}`, spec.fioProfile);
  const fioProfile: FioProfile = isFioProfile(profile) ? profile : "seed";
  const runtimeSeconds = intField("fioRuntimeSeconds", BENCH_DEFAULTS.fioRuntimeSeconds, 1, 86400);
  const rampSeconds = intField("fioRampSeconds", BENCH_DEFAULTS.fioRampSeconds, 0, 3600);
  const seedRepSeconds = intField("fioSeedRepSeconds", BENCH_DEFAULTS.fioSeedRepSeconds, 60, 86400);
  let bandwidth: number = BENCH_DEFAULTS.expectedBandwidthMBps;
  if (spec.expectedBandwidthMBps !== undefined) {
    const v = spec.expectedBandwidthMBps;
    const ok = typeof v === "number" && Number.isFinite(v) && v > 0 && v <= 100000;
    check(ok, "expectedBandwidthMBps", "a number of MB/s above 0 and at most 100000", v);
    if (ok) bandwidth = v;
  }
  const size = spec.fioSize ?? defaultFioSize(fioProfile, bandwidth);
  const parsedSize = typeof size === "string" ? fioSizeBytes(size) : undefined;
  check(parsedSize !== undefined, "fioSize", 'a whole number with a unit K, M, G or T (fio, binary units; e.g. "8G")', spec.fioSize);
  const sizeBytes = parsedSize ?? 0;
  if (orderedTools.includes("fio") && parsedSize !== undefined) {
    const maxBytes = FIO_MAX_VOLUME_SHARE * pvcSizeGiB * GIB;
    if (sizeBytes > maxBytes) {
      if (spec.fioSize !== undefined) {
        check(false, "fioSize", `at most 90% of the PVC (${num(FIO_MAX_VOLUME_SHARE * pvcSizeGiB)} GiB)`, spec.fioSize);
      } else {
        const minGiB = Math.ceil(sizeBytes / GIB / FIO_MAX_VOLUME_SHARE);
        check(false, "pvcSizeGiB", `at least ${minGiB} so that the fio file (${size}) fills at most 90% of it`, spec.pvcSizeGiB);
      }
    }
    const minBytes = FIO_MIN_BANDWIDTH_SECONDS * bandwidth * 1e6;
    if (fioProfile === "suite" && sizeBytes < minBytes) {
      check(
        false,
        "fioSize",
        `at least ${FIO_MIN_BANDWIDTH_SECONDS} s of '${key("expectedBandwidthMBps")}' for profile "suite" (${FIO_MIN_BANDWIDTH_SECONDS} s × ${num(bandwidth)} MB/s = ${num(minBytes / 1e9)} GB)`,
        spec.fioSize,
      );
    }
  }
  const layoutSeconds = Math.ceil((4 * sizeBytes) / (bandwidth * 1e6));

  // ioping
  const iopingCount = intField("iopingCount", BENCH_DEFAULTS.iopingCount, 2, 100000);
  const iopingIntervalMs = intField("iopingIntervalMs", BENCH_DEFAULTS.iopingIntervalMs, 0, 60000);
  const iopingDirect = spec.iopingDirect ?? BENCH_DEFAULTS.iopingDirect;
  check(typeof iopingDirect === "boolean", "iopingDirect", "true or false", spec.iopingDirect);

  // pgbench
  const scale = intField("pgbenchScale", BENCH_DEFAULTS.pgbenchScale, 1, 100000);
  const clients = intField("pgbenchClients", BENCH_DEFAULTS.pgbenchClients, 1, 10000);
  const threads = intField("pgbenchThreads", BENCH_DEFAULTS.pgbenchThreads, 1, 1024);
  const clientsOk = spec.pgbenchClients === undefined || isInt(spec.pgbenchClients, 1, 10000);
  const threadsOk = spec.pgbenchThreads === undefined || isInt(spec.pgbenchThreads, 1, 1024);
  if (clientsOk && threadsOk && threads > clients) {
    // Name the value the user typed: threads when given, else the clients below the default threads.
    if (spec.pgbenchThreads !== undefined) check(false, "pgbenchThreads", `at most '${key("pgbenchClients")}' (${clients})`, threads);
    else check(false, "pgbenchClients", `at least '${key("pgbenchThreads")}' (${threads})`, clients);
  }
  const durationSeconds = intField("pgbenchDurationSeconds", BENCH_DEFAULTS.pgbenchDurationSeconds, 1, 86400);
  const progressSeconds = intField("pgbenchProgressSeconds", BENCH_DEFAULTS.pgbenchProgressSeconds, 0, 3600);
  const init = spec.pgbenchInit ?? BENCH_DEFAULTS.pgbenchInit;
  check(["auto", "always", "never"].includes(init), "pgbenchInit", "one of auto, always, never", spec.pgbenchInit);
  const readyTimeoutSeconds = intField("pgReadyTimeoutSeconds", BENCH_DEFAULTS.pgReadyTimeoutSeconds, 1, 3600);
  const initTimeoutSeconds = intField("pgbenchInitTimeoutSeconds", BENCH_DEFAULTS.pgbenchInitTimeoutSeconds, 60, 86400);
  let postgres: Required<PostgresTarget> | undefined;
  if (orderedTools.includes("pgbench")) {
    const p = spec.postgres;
    const pk = key("postgres");
    if (p === undefined) {
      problems.push(problem(pk, "the PostgreSQL server pgbench drives (host, user, database, passwordSecret)", undefined));
    } else {
      const need = (ok: boolean, sub: string, rule: string, v: unknown) => {
        if (!ok) problems.push(problem(`${pk}.${sub}`, rule, v));
      };
      const nonEmpty = (v: unknown) => typeof v === "string" && v.length > 0 && !/\s/.test(v);
      need(nonEmpty(p.host), "host", "a host name or address", p.host);
      need(p.port === undefined || isInt(p.port, 1, 65535), "port", "an integer from 1 to 65535", p.port);
      need(nonEmpty(p.user), "user", "a role name", p.user);
      need(nonEmpty(p.database), "database", "a database name", p.database);
      need(
        typeof p.passwordSecret?.name === "string" && DNS_SUBDOMAIN.test(p.passwordSecret.name),
        "passwordSecret.name",
        "the name of a Secret",
        p.passwordSecret?.name,
      );
      need(nonEmpty(p.passwordSecret?.key), "passwordSecret.key", "a key of that Secret", p.passwordSecret?.key);
      postgres = { ...p, port: p.port ?? BENCH_DEFAULTS.postgresPort };
    }
  }

  // resources
  const resources: Record<BenchTool, ContainerResources> = { ...DEFAULT_RESOURCES };
  for (const t of BENCH_TOOLS) {
    const r = spec.resources?.[t];
    if (r === undefined) continue;
    for (const kind of ["requests", "limits"] as const) {
      for (const res of ["cpu", "memory"] as const) {
        const v = r[kind]?.[res];
        if (typeof v !== "string" || !QUANTITY.test(v)) {
          problems.push(problem(`${key("resources")}.${t}.${kind}.${res}`, 'a Kubernetes quantity (e.g. "500m", "2", "1Gi")', v));
        }
      }
    }
    resources[t] = r;
  }

  const deadlineMarginSeconds = intField("deadlineMarginSeconds", BENCH_DEFAULTS.deadlineMarginSeconds, 0, 86400);
  const ttlSecondsAfterFinished = intField("ttlSecondsAfterFinished", BENCH_DEFAULTS.ttlSecondsAfterFinished, 0, 31536000);

  const resolved: ResolvedBench = {
    name: spec.name,
    namespace: spec.namespace,
    runId: spec.runId,
    zone: spec.zone,
    nodeSelector: { ...(spec.nodeSelector ?? {}) },
    tools: orderedTools,
    storageClass: spec.storageClass,
    pvcSizeGiB,
    reps,
    fio: {
      profile: fioProfile,
      size: String(size),
      sizeBytes,
      runtimeSeconds,
      rampSeconds,
      expectedBandwidthMBps: bandwidth,
      seedRepSeconds,
      layoutSeconds,
    },
    ioping: { count: iopingCount, intervalMs: iopingIntervalMs, direct: iopingDirect === true },
    pgbench: { scale, clients, threads, durationSeconds, progressSeconds, init, readyTimeoutSeconds, initTimeoutSeconds },
    postgres,
    toolsImage: spec.toolsImage,
    pgbenchImage,
    resources,
    deadlineMarginSeconds,
    ttlSecondsAfterFinished,
  };
  return { resolved, problems };
}

/**
 * A tool's Job deadline, seconds: `margin + reps × perRep` with
 * - fio: perRep from {@link fioRepSeconds} (profile jobs × (ramp + runtime), or the seed bound, + layout + 10);
 * - ioping: `ceil(count × interval) + 30`;
 * - pgbench: `margin + readyTimeout + initTimeout + reps × (duration + 120)`.
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
        s.reps * (s.pgbench.durationSeconds + PGBENCH_REP_OVERHEAD_SECONDS)
      );
  }
}

/** Labels of every object of the run; Jobs and their pods add {@link RUN_ID_LABEL}. */
export function benchLabels(name: string, component: string): Record<string, string> {
  return {
    "app.kubernetes.io/name": component,
    "app.kubernetes.io/instance": name,
    "app.kubernetes.io/component": "benchmark",
    "app.kubernetes.io/part-of": "storage-bench-lab",
    "app.kubernetes.io/managed-by": "pulumi",
  };
}

const env = (vars: Record<string, string | number | boolean>): IEnvVar[] =>
  Object.entries(vars).map(([name, value]) => ({ name, value: String(value) }));

function toolEnv(tool: BenchTool, s: ResolvedBench): IEnvVar[] {
  const common = { REPS: s.reps, TMPDIR: MOUNTS.tmp };
  switch (tool) {
    case "fio":
      return env({
        FIO_PROFILE: s.fio.profile,
        FIO_JOB_DIR: MOUNTS.scripts,
        FIO_DIR: `${MOUNTS.data}/fio`,
        FIO_SIZE: s.fio.size,
        FIO_RUNTIME: s.fio.runtimeSeconds,
        FIO_RAMP: s.fio.rampSeconds,
        FIO_KEEP_FILE: 0,
        ...common,
      });
    case "ioping":
      return env({
        IOPING_DIR: `${MOUNTS.data}/ioping`,
        IOPING_COUNT: s.ioping.count,
        IOPING_INTERVAL: `${s.ioping.intervalMs}ms`,
        IOPING_DIRECT: s.ioping.direct ? 1 : 0,
        IOPING_FORMAT: "json",
        ...common,
      });
    case "pgbench": {
      const p = s.postgres;
      if (p === undefined) throw new Error("pgbench needs a PostgreSQL target");
      return [
        ...env({ PGHOST: p.host, PGPORT: p.port, PGUSER: p.user, PGDATABASE: p.database }),
        { name: "PGPASSWORD", valueFrom: { secretKeyRef: { name: p.passwordSecret.name, key: p.passwordSecret.key } } },
        ...env({
          PGCONNECT_TIMEOUT: 10,
          PGBENCH_SCALE: s.pgbench.scale,
          PGBENCH_CLIENTS: s.pgbench.clients,
          PGBENCH_THREADS: s.pgbench.threads,
          PGBENCH_DURATION: s.pgbench.durationSeconds,
          PGBENCH_PROGRESS: s.pgbench.progressSeconds,
          PGBENCH_PER_STATEMENT: 1,
          PGBENCH_INIT: s.pgbench.init,
          PG_READY_TIMEOUT: s.pgbench.readyTimeoutSeconds,
          ...common,
        }),
      ];
    }
  }
}

/** The options of a tool that shape its numbers, as sample metadata. */
function toolOptions(tool: BenchTool, s: ResolvedBench): Record<string, string | number | boolean> {
  switch (tool) {
    case "fio":
      return {
        fioProfile: s.fio.profile,
        fioSize: s.fio.size,
        ...(s.fio.profile === "seed" ? {} : { fioRuntimeSeconds: s.fio.runtimeSeconds, fioRampSeconds: s.fio.rampSeconds }),
      };
    case "ioping":
      return { iopingCount: s.ioping.count, iopingIntervalMs: s.ioping.intervalMs, iopingDirect: s.ioping.direct };
    case "pgbench":
      return { scale: s.pgbench.scale, clients: s.pgbench.clients, threads: s.pgbench.threads, durationSeconds: s.pgbench.durationSeconds };
  }
}

function renderJob(tool: BenchTool, s: ResolvedBench, configMapName: string, pvcName: string | undefined): RenderedJob {
  const name = jobName(s.name, tool, s.runId);
  const labels = { ...benchLabels(s.name, tool), [RUN_ID_LABEL]: s.runId };
  const usesVolume = tool !== "pgbench";
  const uid = usesVolume ? TOOLS_IMAGE_UID : PGBENCH_IMAGE_UID;
  const image = usesVolume ? s.toolsImage : s.pgbenchImage;
  if (image === undefined) throw new Error(`no image for ${tool}`);
  const volumeMounts: IVolumeMount[] = [
    { name: "scripts", mountPath: MOUNTS.scripts, readOnly: true },
    { name: "tmp", mountPath: MOUNTS.tmp },
  ];
  const volumes: IVolume[] = [
    { name: "scripts", configMap: { name: configMapName, defaultMode: 0o444 } },
    { name: "tmp", emptyDir: { sizeLimit: "256Mi" } },
  ];
  if (usesVolume) {
    if (pvcName === undefined) throw new Error(`${tool} needs the volume under test`);
    volumeMounts.push({ name: "data", mountPath: MOUNTS.data });
    volumes.push({ name: "data", persistentVolumeClaim: { claimName: pvcName } });
  }
  const r = s.resources[tool];
  const container: IContainer = {
    name: tool,
    image,
    imagePullPolicy: "IfNotPresent",
    command: ["/bin/sh", `${MOUNTS.scripts}/${tool}.sh`],
    env: toolEnv(tool, s),
    resources: { requests: { ...r.requests }, limits: { ...r.limits } },
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ["ALL"] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
    },
    volumeMounts,
  };
  const deadline = activeDeadlineSeconds(tool, s);
  const job: IJob = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, namespace: s.namespace, labels },
    spec: {
      backoffLimit: 0,
      completions: 1,
      parallelism: 1,
      activeDeadlineSeconds: deadline,
      ttlSecondsAfterFinished: s.ttlSecondsAfterFinished,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          terminationGracePeriodSeconds: 30,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: uid,
            runAsGroup: uid,
            ...(usesVolume ? { fsGroup: uid, fsGroupChangePolicy: "OnRootMismatch" } : {}),
            seccompProfile: { type: "RuntimeDefault" },
          },
          ...(Object.keys(s.nodeSelector).length > 0 ? { nodeSelector: { ...s.nodeSelector } } : {}),
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE_LABEL, operator: "In", values: [s.zone] }] }],
              },
            },
          },
          containers: [container],
          volumes,
        },
      },
    },
  };
  return {
    tool,
    name,
    job,
    reps: s.reps,
    activeDeadlineSeconds: deadline,
    waitTimeoutSeconds: deadline + COLLECT_SLACK_SECONDS,
    options: toolOptions(tool, s),
  };
}

/**
 * Renders the run: PVC (when fio or ioping runs), ConfigMap (`scripts`: the Job scripts by file
 * name, from scripts.ts; plus every fio profile's job file), and the Jobs in run order.
 * Throws one ConfigError listing every problem of `spec`.
 */
export function renderBenchmark(spec: BenchSpec, scripts: Readonly<Record<string, string>>): BenchManifests {
  const { resolved: s, problems } = resolveBench(spec);
  throwIfProblems(problems);
  for (const f of ["lib.sh", ...s.tools.map((t) => `${t}.sh`)]) {
    if (typeof scripts[f] !== "string") throw new Error(`renderBenchmark: script ${f} missing`);
  }
  const configMapName = `${s.name}-scripts`;
  const configMap: IConfigMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: configMapName, namespace: s.namespace, labels: benchLabels(s.name, "bench-scripts") },
    data: { ...scripts, ...renderFioJobFiles() },
  };
  const needsVolume = s.tools.includes("fio") || s.tools.includes("ioping");
  const pvcName = needsVolume ? `${s.name}-data` : undefined;
  const pvc: IPersistentVolumeClaim | undefined =
    pvcName === undefined
      ? undefined
      : {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          metadata: { name: pvcName, namespace: s.namespace, labels: benchLabels(s.name, "bench-data") },
          spec: {
            accessModes: ["ReadWriteOnce"],
            volumeMode: "Filesystem",
            storageClassName: s.storageClass,
            resources: { requests: { storage: `${s.pvcSizeGiB}Gi` } },
          },
        };
  const jobs = s.tools.map((t) => renderJob(t, s, configMapName, pvcName));
  return { settings: s, configMap, pvc, jobs };
}
