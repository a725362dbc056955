/**
 * The OpenMessaging Benchmark run's rules and defaults, in one place (pure): the workers, the matrix
 * of driver files × replication factors, the workload, the Jobs' limits, the images.
 *
 * Sources:
 * - OMB (openmessaging/benchmark at components/versions.ts `OMB_SOURCE`): the worker
 *   `bin/benchmark-worker` listens on `-p/--port` (default 8080) and `-sp/--stats-port` (default 8081)
 *   (benchmark-framework/…/worker/BenchmarkWorker.java); the driver `bin/benchmark` takes
 *   `--drivers <files>`, `--workers <http://host:port,…>`, `-o/--output <file>` and the workload
 *   files (…/Benchmark.java `Arguments`); both read `HEAP_OPTS` (default "-Xms4G -Xmx4G", bin/benchmark,
 *   bin/benchmark-worker); a workload first runs `warmupDurationMinutes` (default 1, Workload.java)
 *   of warm-up traffic, then `testDurationMinutes`.
 * - The matrix and the NetApp workload: NetApp's Kafka on FSx for ONTAP validation ran OMB's
 *   `kafka-sync` and `kafka-throughput` drivers at replication factor 1 and 3 with the 1-topic
 *   workload edited to 4 topics, 32 KiB messages, 40 producers and 80 consumers per topic, 1 000 000
 *   msg/s, 5 minutes (../shared/facts/eks-trident-kafka-omb.md).
 */
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt, isListOf, isOneOf } from "../../core/checks";
import { isPinnedImage, PINNED_IMAGE_RULE } from "../../core/images";
import { ContainerResources, DNS_LABEL_RULE, isDnsLabel, memoryBytes, containerResourcesProblems } from "../lib/kubernetes";

/** OMB's Kafka driver files the lab runs (driver-kafka/<name>.yaml). */
export const OMB_DRIVERS = ["kafka-sync", "kafka-throughput"] as const;
export type OmbDriver = (typeof OMB_DRIVERS)[number];

/** The named workloads: upstream's file, and NetApp's edit of it. */
export const OMB_WORKLOADS = ["1-topic-100-partitions-1kb", "netapp-4-topics-32kb"] as const;
export type OmbWorkload = (typeof OMB_WORKLOADS)[number];

/** Each workload's own test duration, minutes (upstream's file: 240; NetApp's run: 5). */
export const WORKLOAD_DURATION_MINUTES: Readonly<Record<OmbWorkload, number>> = {
  "1-topic-100-partitions-1kb": 240,
  "netapp-4-topics-32kb": 5,
};

/** OMB's default warm-up before every test (Workload.java `warmupDurationMinutes = 1`). */
export const OMB_WARMUP_MINUTES = 1;
/** The worker's ports (BenchmarkWorker defaults, passed explicitly). */
export const WORKER_PORT = 8080;
export const WORKER_STATS_PORT = 8081;
/** The user the OMB containers run as (the image sets none: it would run as root). */
export const OMB_UID = 65532;

/** Time a repetition may take beyond warm-up and test: topic creation, 480 clients connecting, the result written, s. */
export const REP_MARGIN_SECONDS = 600;
/** Time a driver Job may take beyond its repetitions: scheduling, pulling the image, deleting the previous cell's topics, s. */
export const JOB_MARGIN_SECONDS = 600;
/** How long a finished driver Job (and its log) stays: one day. */
export const JOB_TTL_SECONDS = 86400;

/** CPU and memory of one container, Kubernetes quantities. */
export type Resources = ContainerResources;

/** The plain arguments of the OmbBenchmark component. */
export interface OmbSpec {
  /** Names this run's Jobs and collectors (`omb-<cell>-<runId>`); a new one re-runs the matrix. */
  readonly runId: string;
  /** The Kafka cluster's bootstrap address (`host:port`). */
  readonly bootstrapServers: string;
  /** The namespace of the workers and Jobs (restricted Pod Security). @default "omb" */
  readonly namespace?: string;
  /** Workers (a StatefulSet, one a node of {clientNodeGroup}): OMB splits them into producers and consumers. @default 4 */
  readonly workers?: number;
  /** The EKS node group the workers and drivers run on. @default "clients" */
  readonly clientNodeGroup?: string;
  /** The named workload. @default "netapp-4-topics-32kb" */
  readonly workload?: OmbWorkload;
  /** The workload's `testDurationMinutes`. @default the workload's own (WORKLOAD_DURATION_MINUTES) */
  readonly testDurationMinutes?: number;
  /** The driver files of the matrix, in run order. @default ["kafka-sync", "kafka-throughput"] */
  readonly drivers?: readonly OmbDriver[];
  /** The replication factors of the matrix, in run order (each cell's driver file and topics). @default [1, 3] */
  readonly replicationFactors?: readonly number[];
  /** Repetitions of each cell (in the cell's Job, one after the other). @default 1 */
  readonly reps?: number;
  /** The workers' requests and limits (c5n.2xlarge: 8 vCPU, 21 GiB; a driver shares one worker's node). @default requests 5 CPU / 12Gi, limits 7 CPU / 12Gi */
  readonly workerResources?: Resources;
  /** The workers' heap (HEAP_OPTS -Xms = -Xmx), GiB: at most half the memory limit. @default 6 */
  readonly workerHeapGiB?: number;
  /** The drivers' requests and limits. @default requests 1 CPU / 4Gi, limits 2 CPU / 4Gi */
  readonly driverResources?: Resources;
  /** The drivers' heap, GiB: at most half the memory limit. @default 2 */
  readonly driverHeapGiB?: number;
}

export const OMB_DEFAULTS = {
  namespace: "omb",
  workers: 4,
  clientNodeGroup: "clients",
  workload: "netapp-4-topics-32kb" as OmbWorkload,
  drivers: ["kafka-sync", "kafka-throughput"] as readonly OmbDriver[],
  replicationFactors: [1, 3] as readonly number[],
  reps: 1,
  workerResources: { requests: { cpu: "5", memory: "12Gi" }, limits: { cpu: "7", memory: "12Gi" } } as Resources,
  workerHeapGiB: 6,
  driverResources: { requests: { cpu: "1", memory: "4Gi" }, limits: { cpu: "2", memory: "4Gi" } } as Resources,
  driverHeapGiB: 2,
} as const;

/** One cell of the matrix: a driver file at a replication factor. */
export interface MatrixCell {
  /** `<driver>-rf<rf>`, e.g. `kafka-sync-rf1` (in the Job's name). */
  readonly name: string;
  readonly driver: OmbDriver;
  readonly replicationFactor: number;
}

export interface ResolvedOmb extends Required<OmbSpec> {
  /** The cells, in run order: every replication factor of the first driver, then of the next. */
  readonly cells: readonly MatrixCell[];
}

/** The matrix: drivers × replication factors, driver-major. */
export function matrix(drivers: readonly OmbDriver[], replicationFactors: readonly number[]): MatrixCell[] {
  return drivers.flatMap((driver) =>
    replicationFactors.map((replicationFactor) => ({ name: `${driver}-rf${replicationFactor}`, driver, replicationFactor })),
  );
}

export function resolve(spec: OmbSpec): ResolvedOmb {
  const d = OMB_DEFAULTS;
  const workload = spec.workload ?? d.workload;
  const drivers = [...(spec.drivers ?? d.drivers)];
  const replicationFactors = [...(spec.replicationFactors ?? d.replicationFactors)];
  return {
    runId: spec.runId,
    bootstrapServers: spec.bootstrapServers,
    namespace: spec.namespace ?? d.namespace,
    workers: spec.workers ?? d.workers,
    clientNodeGroup: spec.clientNodeGroup ?? d.clientNodeGroup,
    workload,
    testDurationMinutes: spec.testDurationMinutes ?? WORKLOAD_DURATION_MINUTES[workload],
    drivers,
    replicationFactors,
    reps: spec.reps ?? d.reps,
    workerResources: spec.workerResources ?? d.workerResources,
    workerHeapGiB: spec.workerHeapGiB ?? d.workerHeapGiB,
    driverResources: spec.driverResources ?? d.driverResources,
    driverHeapGiB: spec.driverHeapGiB ?? d.driverHeapGiB,
    cells: matrix(drivers, replicationFactors),
  };
}

/** A driver Job's `activeDeadlineSeconds`: every repetition's warm-up, test and margin, plus the Job's margin. */
export function driverDeadlineSeconds(r: Pick<ResolvedOmb, "reps" | "testDurationMinutes">): number {
  return JOB_MARGIN_SECONDS + r.reps * ((OMB_WARMUP_MINUTES + r.testDurationMinutes) * 60 + REP_MARGIN_SECONDS);
}

export const REPLICATION_FACTORS_RULE = "a non-empty list of distinct replication factors from 1 to 30 (e.g. [1,3])";

/** The Job names are `omb-<cell>-<runId>`: the longest cell is `kafka-throughput-rf<rf>`. */
export const MAX_JOB_NAME = 63;

function heapProblems(path: string, heap: unknown, resourcesArg: string, resources: Resources): ArgProblem[] {
  if (!isInt(heap, 1, 1024)) return [argProblem(path, "a whole number of GiB from 1 to 1024", heap)];
  if (heap * 2 ** 30 > memoryBytes(resources.limits.memory)! / 2)
    return [
      argProblem(
        path,
        `at most half of {${resourcesArg}}.limits.memory (${resources.limits.memory}): the JVM needs memory beyond its heap`,
        heap,
      ),
    ];
  return [];
}

/** Every problem of `spec`, in argument order. */
export function problems(spec: OmbSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  const d = OMB_DEFAULTS;
  if (!isDnsLabel(spec.runId)) out.push(argProblem("runId", `${DNS_LABEL_RULE} (e.g. "r1")`, spec.runId));
  if (typeof spec.bootstrapServers !== "string" || !/^[A-Za-z0-9.-]+:[0-9]{1,5}(,[A-Za-z0-9.-]+:[0-9]{1,5})*$/.test(spec.bootstrapServers))
    out.push(argProblem("bootstrapServers", "a Kafka bootstrap address list host:port[,host:port…]", spec.bootstrapServers));
  if (spec.namespace !== undefined && !isDnsLabel(spec.namespace)) out.push(argProblem("namespace", DNS_LABEL_RULE, spec.namespace));
  if (spec.workers !== undefined && !isInt(spec.workers, 2, 64))
    out.push(
      argProblem(
        "workers",
        "an integer from 2 to 64 (OMB splits the workers into producers and consumers; one a node of {clientNodeGroup})",
        spec.workers,
      ),
    );
  if (spec.clientNodeGroup !== undefined && !isDnsLabel(spec.clientNodeGroup))
    out.push(argProblem("clientNodeGroup", DNS_LABEL_RULE, spec.clientNodeGroup));
  if (spec.workload !== undefined && !isOneOf(spec.workload, OMB_WORKLOADS))
    out.push(argProblem("workload", `one of ${OMB_WORKLOADS.join(", ")}`, spec.workload));
  if (spec.testDurationMinutes !== undefined && !isInt(spec.testDurationMinutes, 1, 1440))
    out.push(argProblem("testDurationMinutes", "an integer from 1 to 1440 (minutes)", spec.testDurationMinutes));
  const drivers = spec.drivers;
  if (
    drivers !== undefined &&
    (!isListOf(drivers, (x): x is OmbDriver => isOneOf(x, OMB_DRIVERS)) || drivers.length === 0 || new Set(drivers).size !== drivers.length)
  )
    out.push(argProblem("drivers", `a non-empty list of distinct drivers among ${OMB_DRIVERS.join(", ")}`, drivers));
  const rfs = spec.replicationFactors;
  if (rfs !== undefined && (!isListOf(rfs, (x): x is number => isInt(x, 1, 30)) || rfs.length === 0 || new Set(rfs).size !== rfs.length))
    out.push(argProblem("replicationFactors", REPLICATION_FACTORS_RULE, rfs));
  if (spec.reps !== undefined && !isInt(spec.reps, 1, 10)) out.push(argProblem("reps", "an integer from 1 to 10", spec.reps));
  const driversOk = drivers === undefined || out.every((p) => p.path !== "drivers");
  const rfsOk = rfs === undefined || out.every((p) => p.path !== "replicationFactors");
  if (isDnsLabel(spec.runId) && driversOk && rfsOk) {
    const cells = matrix(drivers ?? d.drivers, rfs ?? d.replicationFactors);
    const longest = cells.reduce((a, c) => (c.name.length > a.length ? c.name : a), "");
    const max = MAX_JOB_NAME - `omb-${longest}-`.length;
    if (spec.runId.length > max)
      out.push(argProblem("runId", `at most ${max} characters (Job "omb-${longest}-<runId>" must fit in ${MAX_JOB_NAME})`, spec.runId));
  }
  for (const [resArg, heapArg] of [
    ["workerResources", "workerHeapGiB"],
    ["driverResources", "driverHeapGiB"],
  ] as const) {
    const res = spec[resArg];
    const resProblems = res === undefined ? [] : containerResourcesProblems(resArg, res);
    out.push(...resProblems);
    if (resProblems.length === 0) out.push(...heapProblems(heapArg, spec[heapArg] ?? d[heapArg], resArg, res ?? d[resArg]));
  }
  return out;
}

/** Whether a given OMB image reference is acceptable (pinned). */
export function ombImageProblems(image: unknown, path = "ombImage"): ArgProblem[] {
  return isPinnedImage(image)
    ? []
    : [argProblem(path, `${PINNED_IMAGE_RULE} of an OpenMessaging Benchmark image (built from docker/Dockerfile.build)`, image)];
}

/**
 * The rule `lab:ombImage` (kafka) breaks when it is unset and the eks stack it names exports no OMB
 * image (its `images` output, stacks/eks/outputs.ts).
 */
export function noOmbImageRule(eksStack: string): string {
  return `a pinned OpenMessaging Benchmark image when {eksStack} (${eksStack}) builds none (its output images has no omb): add omb to that eks stack's lab:images, or build docker/Dockerfile.build of openmessaging/benchmark elsewhere, push it and set lab:ombImage to its reference`;
}
