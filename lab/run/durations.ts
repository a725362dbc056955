/**
 * Typical durations of what the lab provisions, for `lab run --dry-run`'s schedule. Estimates, not
 * measurements: each says where its figure comes from. A stack's time is the sum of the phases its
 * planned resources show (found by resource type in the offline plan, so a new kind is estimated
 * from what it deploys), plus its benchmarks, each from its own Job: profile, repetitions and
 * durations read from the Job's environment and the overheads of components/bench.
 */
import { fioRepSeconds, isFioProfile } from "../../components/bench/profiles";
import { IOPING_REP_OVERHEAD_SECONDS, PGBENCH_REP_OVERHEAD_SECONDS } from "../../components/bench/sizing";
import { OMB_WARMUP_MINUTES } from "../../components/omb/rules";
import type { ExperimentKind } from "../../scenarios/types";
import { FSX_FAILOVER_DEFAULTS } from "../experiment/fsx-failover";
import { MYSQL_FAILOVER_DEFAULTS } from "../experiment/mysql-failover";
import type { PlannedResource, StackPlan } from "../plan/run";

export interface Phase {
  readonly what: string;
  readonly upMinutes: number;
  readonly destroyMinutes: number;
  readonly source: string;
}

/** The table (README "lab run --dry-run" lists it). */
export const PHASES = {
  engine: { what: "Pulumi engine", upMinutes: 1, destroyMinutes: 1, source: "lab estimate" },
  natGateways: {
    what: "VPC with NAT gateways",
    upMinutes: 3,
    destroyMinutes: 2,
    source: "lab estimate (a NAT gateway becomes available in minutes)",
  },
  fsxOntapMultiAz: {
    what: "FSx for ONTAP Multi-AZ file system",
    upMinutes: 40,
    destroyMinutes: 15,
    source: "lab estimate: a Multi-AZ file system takes ~30–40 min to create (the upper end)",
  },
  fsxOntapSingleAz: {
    what: "FSx for ONTAP Single-AZ file system",
    upMinutes: 30,
    destroyMinutes: 15,
    source: "lab estimate (below Multi-AZ)",
  },
  eksControlPlane: {
    what: "EKS control plane",
    upMinutes: 12,
    destroyMinutes: 8,
    source: "lab estimate: an EKS cluster takes ~15 min with its nodes",
  },
  eksNodeGroups: {
    what: "EKS managed node groups (in parallel)",
    upMinutes: 4,
    destroyMinutes: 4,
    source: "lab estimate: an EKS cluster takes ~15 min with its nodes",
  },
  ec2Instances: { what: "EC2 instances", upMinutes: 2, destroyMinutes: 2, source: "lab estimate" },
  k0sInstall: { what: "k0s: EC2 nodes, cloud-init, k0sctl apply", upMinutes: 10, destroyMinutes: 3, source: "lab estimate" },
  rookCephHealth: { what: "Rook operator, Ceph to HEALTH_OK", upMinutes: 10, destroyMinutes: 1, source: "lab estimate" },
  postgres: { what: "Postgres ready", upMinutes: 3, destroyMinutes: 1, source: "lab estimate" },
  trident: { what: "Trident operator and FSx backend", upMinutes: 4, destroyMinutes: 1, source: "lab estimate" },
  mysql: { what: "MySQL StatefulSet ready", upMinutes: 5, destroyMinutes: 1, source: "lab estimate" },
  toolsImage: { what: "tools image build and push", upMinutes: 5, destroyMinutes: 1, source: "lab estimate (Debian slim + fio + ioping)" },
  strimzi: {
    what: "Strimzi operator ready",
    upMinutes: 2,
    destroyMinutes: 1,
    source: "lab estimate: one Helm release, the operator's image pulled and its Deployment Ready",
  },
  kafkaCluster: {
    what: "Kafka cluster Ready (KRaft controllers, then brokers on NFS)",
    upMinutes: 6,
    destroyMinutes: 2,
    source:
      "lab estimate: the operator creates the controller pool, then the brokers (each mounting six NFS volumes) and rolls them until the Kafka resource is Ready; one operation is bounded by the operator's STRIMZI_OPERATION_TIMEOUT_MS (5 min by default)",
  },
  nfsDirectories: {
    what: "NFS directory Job (a broker directory on each volume)",
    upMinutes: 1,
    destroyMinutes: 0,
    source: "lab estimate: a pod start and mkdir/chown on six mounts (bound: the Job's activeDeadlineSeconds, 10 min)",
  },
  ombImage: {
    what: "OMB image build (Maven, upstream's docker/Dockerfile.build) and push",
    upMinutes: 12,
    destroyMinutes: 1,
    source:
      "lab estimate: a Maven build of openmessaging/benchmark with every driver's dependencies downloaded, then a push of a ~1 GB image",
  },
  ombWorkers: {
    what: "OMB workers ready",
    upMinutes: 2,
    destroyMinutes: 1,
    source: "lab estimate: a StatefulSet of JVM workers (HTTP 8080) Ready",
  },
} as const satisfies Record<string, Phase>;

/**
 * Phases Pulumi runs beside the rest of their stack: a container image needs only its ECR
 * repository and the local Docker daemon, no cluster object and no file system, so nothing in the
 * stack waits for it but the benchmark Jobs that run it (none in the eks stack, which builds the
 * images for the stacks on its cluster: stacks/eks/images.ts). A stack's up is its engine, then the
 * longer of (the images) and (everything else before the benchmarks), then the benchmarks.
 */
export const BESIDE_THE_REST: readonly Phase[] = [PHASES.toolsImage, PHASES.ombImage];

/** Benchmark figures no Job states: pgbench -i per scale unit, a `seed` fio repetition, laying out fio's file, an OMB cell's own overhead. */
export const BENCH_ESTIMATES = {
  /** An OMB cell besides its warm-up and test: topics created, producers and consumers connected, results collected (lab estimate). */
  ombCellOverheadSeconds: 120,
  /** scale 1000 ≈ 15 GB loaded in ~10 min. */
  pgbenchInitSecondsPerScale: 0.6,
  /** 8 GiB of 4k random I/O at the published ~50K IOPS ≈ 40 s; doubled. */
  fioSeedRepSeconds: 90,
  fioLayoutSeconds: 60,
} as const;

/**
 * The failover experiments' parts (a run step each, scenarios/types.ts `ExperimentStep`), in
 * seconds. Where the experiment fixes a time itself (its baseline, its fio before and after the
 * change), the figure is read from its defaults (lab/experiment/*-failover.ts `*_DEFAULTS`); the
 * rest are estimates that say where they come from. The experiments' own timeouts are the bounds.
 */
export function experimentParts(kind: ExperimentKind): ReadonlyArray<{ what: string; seconds: number; source: string }> {
  if (kind === "mysql-failover")
    return [
      { what: "writer Job started", seconds: 60, source: "lab estimate: image pull and pod start (bound: writerStartTimeoutMs 5 min)" },
      { what: "baseline writes", seconds: MYSQL_FAILOVER_DEFAULTS.baselineMs / 1000, source: "MYSQL_FAILOVER_DEFAULTS.baselineMs" },
      {
        what: "mysql-0 moved to the other zone and Ready",
        seconds: 180,
        source: "lab estimate: termination, the NFS volume mounted in the other zone, InnoDB crash recovery (bound: readyTimeoutMs 10 min)",
      },
      { what: "rows verified, cleanup", seconds: 120, source: "lab estimate: the writer's read-back and the Job's deletion" },
    ];
  return [
    {
      what: "fio volume and Job started",
      seconds: 120,
      source: "lab estimate: Trident provisions the claim, pod start (bound: fioStartTimeoutMs 10 min)",
    },
    { what: "fio before the change", seconds: FSX_FAILOVER_DEFAULTS.beforeMs / 1000, source: "FSX_FAILOVER_DEFAULTS.beforeMs" },
    {
      what: "throughput change (failover and failback)",
      seconds: 15 * 60,
      source:
        "lab estimate; FSx ONTAP User Guide, Managing throughput capacity: the file server is switched out, the failover and failback typically take a few minutes (bound: updateTimeoutMs 60 min)",
    },
    { what: "fio after the change", seconds: FSX_FAILOVER_DEFAULTS.afterMs / 1000, source: "FSX_FAILOVER_DEFAULTS.afterMs" },
    { what: "throughput restored", seconds: 15 * 60, source: "lab estimate: the same update back (the cleanup waits for it)" },
    { what: "cleanup", seconds: 60, source: "lab estimate: Job and claim deleted" },
  ];
}

/** A failover experiment's estimated duration, seconds. */
export function experimentSeconds(kind: ExperimentKind): number {
  return experimentParts(kind).reduce((n, p) => n + p.seconds, 0);
}

export interface StackEstimate {
  readonly upSeconds: number;
  readonly destroySeconds: number;
  /** The benchmarks' part of `upSeconds` (what a rerun repeats). */
  readonly benchSeconds: number;
  /** `<what> <minutes>` parts, for the schedule. */
  readonly parts: readonly string[];
  /** Component types in the plan with no phase in the table. */
  readonly unknown: readonly string[];
  /** What runs beside what in this stack's up, and why (for the schedule), when anything does. */
  readonly parallel?: string;
  /** With `parallel`: the phases beside the rest (the images), and the rest, seconds. */
  readonly besideSeconds?: number;
  readonly restSeconds?: number;
}

const envOf = (job: PlannedResource): Record<string, string> => {
  const spec = job.inputs.spec as
    { template?: { spec?: { containers?: Array<{ env?: Array<{ name: string; value?: unknown }> }> } } } | undefined;
  const env = spec?.template?.spec?.containers?.[0]?.env ?? [];
  return Object.fromEntries(env.filter((e) => typeof e.value === "string").map((e) => [e.name, e.value as string]));
};

/** `testDurationMinutes` of the workload file a planned ConfigMap holds under `key`. */
function workloadMinutes(resources: readonly PlannedResource[], key: string): number | undefined {
  for (const r of resources.filter((x) => x.type === "kubernetes:core/v1:ConfigMap")) {
    const text = (r.inputs.data as Record<string, unknown> | undefined)?.[key];
    const m = typeof text === "string" ? /^testDurationMinutes:\s*(\d+)\s*$/m.exec(text) : null;
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * One benchmark Job's typical duration, seconds, and its name; undefined for a Job that is no
 * benchmark. An OMB driver Job (one cell) reads its workload's `testDurationMinutes` from the
 * ConfigMap it mounts (`resources`: the stack's plan); each repetition is OMB's warm-up
 * (components/omb/rules.ts OMB_WARMUP_MINUTES), the test and the cell's overhead.
 */
export function benchmarkSeconds(
  job: PlannedResource,
  resources: readonly PlannedResource[] = [],
): { tool: string; seconds: number } | undefined {
  const env = envOf(job);
  const reps = Number(env.REPS ?? "1");
  if (env.DRIVER_FILE !== undefined && env.WORKLOAD_FILE !== undefined) {
    const minutes = workloadMinutes(resources, env.WORKLOAD_FILE.split("/").pop() as string);
    if (minutes === undefined) return undefined;
    const cell = (env.DRIVER_FILE.split("/").pop() as string).replace(/^driver-/, "").replace(/\.yaml$/, "");
    return { tool: `omb ${cell}`, seconds: reps * ((OMB_WARMUP_MINUTES + minutes) * 60 + BENCH_ESTIMATES.ombCellOverheadSeconds) };
  }
  if (env.PGBENCH_DURATION !== undefined) {
    const init = env.PGBENCH_INIT === "skip" ? 0 : Number(env.PGBENCH_SCALE ?? "0") * BENCH_ESTIMATES.pgbenchInitSecondsPerScale;
    return { tool: "pgbench", seconds: init + reps * (Number(env.PGBENCH_DURATION) + PGBENCH_REP_OVERHEAD_SECONDS) };
  }
  if (env.FIO_PROFILE !== undefined && isFioProfile(env.FIO_PROFILE)) {
    const per = fioRepSeconds(env.FIO_PROFILE, {
      runtimeSeconds: Number(env.FIO_RUNTIME ?? "0"),
      rampSeconds: Number(env.FIO_RAMP ?? "0"),
      layoutSeconds: BENCH_ESTIMATES.fioLayoutSeconds,
      seedRepSeconds: BENCH_ESTIMATES.fioSeedRepSeconds,
    });
    return { tool: `fio ${env.FIO_PROFILE}`, seconds: reps * per };
  }
  if (env.IOPING_COUNT !== undefined) {
    const intervalMs = Number((env.IOPING_INTERVAL ?? "1000ms").replace(/ms$/, ""));
    return { tool: "ioping", seconds: reps * (Math.ceil((Number(env.IOPING_COUNT) * intervalMs) / 1000) + IOPING_REP_OVERHEAD_SECONDS) };
  }
  return undefined;
}

const min = (s: number) => `${Math.round(s / 60)}m`;

/** A stack's estimated up, destroy and benchmark times from its offline plan. */
export function estimateStack(plan: StackPlan): StackEstimate {
  const types = new Set(plan.resources.map((r) => r.type));
  const phases: Phase[] = [PHASES.engine];
  if (types.has("aws:ec2/natGateway:NatGateway")) phases.push(PHASES.natGateways);
  for (const fs of plan.resources.filter((r) => r.type === "aws:fsx/ontapFileSystem:OntapFileSystem"))
    phases.push(String(fs.inputs.deploymentType ?? "").startsWith("MULTI_AZ") ? PHASES.fsxOntapMultiAz : PHASES.fsxOntapSingleAz);
  const eks = types.has("lab:eks:EksCluster");
  if (eks || types.has("aws:eks/cluster:Cluster")) phases.push(PHASES.eksControlPlane);
  if (eks || types.has("aws:eks/nodeGroup:NodeGroup")) phases.push(PHASES.eksNodeGroups);
  if (types.has("lab:k0s:K0sCluster")) phases.push(PHASES.k0sInstall);
  else if (types.has("aws:ec2/instance:Instance")) phases.push(PHASES.ec2Instances);
  if (types.has("lab:rook:Rook")) phases.push(PHASES.rookCephHealth);
  if (types.has("lab:postgres:Postgres")) phases.push(PHASES.postgres);
  if (types.has("lab:image:ToolsImage")) phases.push(PHASES.toolsImage);
  if (types.has("lab:omb:OmbImage")) phases.push(PHASES.ombImage);
  if (types.has("lab:trident:TridentOperator")) phases.push(PHASES.trident);
  if (types.has("lab:mysql:MySql")) phases.push(PHASES.mysql);
  if (types.has("lab:strimzi:StrimziOperator")) phases.push(PHASES.strimzi);
  const jobs = plan.resources.filter((r) => r.type === "kubernetes:batch/v1:Job");
  if (jobs.some((j) => envOf(j).BROKER_DIRS !== undefined)) phases.push(PHASES.nfsDirectories);
  if (types.has("lab:kafka:KafkaCluster")) phases.push(PHASES.kafkaCluster);
  if (types.has("lab:omb:OmbBenchmark")) phases.push(PHASES.ombWorkers);
  const known = new Set([
    "lab:network:Network",
    "lab:fsx-ontap:FsxOntap",
    "lab:eks:EksCluster",
    "lab:k0s:K0sCluster",
    "lab:rook:Rook",
    "lab:postgres:Postgres",
    "lab:image:ToolsImage",
    "lab:trident:TridentOperator",
    "lab:trident:TridentFsxBackend",
    "lab:mysql:MySql",
    "lab:bench:BenchmarkRun",
    "lab:strimzi:StrimziOperator",
    "lab:kafka:KafkaCluster",
    "lab:omb:OmbImage",
    "lab:omb:OmbBenchmark",
  ]);
  const unknown = [...types].filter((t) => t.startsWith("lab:") && !known.has(t)).sort();
  const benches = jobs.map((j) => benchmarkSeconds(j, plan.resources)).filter((b) => b !== undefined);
  const benchSeconds = benches.reduce((n, b) => n + b.seconds, 0);
  const beside = phases.filter((p) => BESIDE_THE_REST.includes(p));
  const rest = phases.filter((p) => p !== PHASES.engine && !beside.includes(p));
  const sumOf = (ps: readonly Phase[]) => ps.reduce((n, p) => n + p.upMinutes * 60, 0);
  const upSeconds = PHASES.engine.upMinutes * 60 + Math.max(sumOf(beside), sumOf(rest)) + benchSeconds;
  const parallel =
    beside.length > 0 && rest.length > 0
      ? `${beside.map((p) => p.what).join(", ")} ∥ ${rest.map((p) => p.what).join(", ")}: an image needs only its ECR repository and the local Docker daemon (no cluster, no file system), so Pulumi builds it while the rest is created${benches.length > 0 ? "; the benchmark Jobs wait for both" : ""}`
      : undefined;
  const destroySeconds = phases.reduce((n, p) => n + p.destroyMinutes * 60, 0);
  const parts = [...phases.map((p) => `${p.what} ${p.upMinutes}m`), ...benches.map((b) => `${b.tool} ${min(b.seconds)}`)];
  return {
    upSeconds,
    destroySeconds,
    benchSeconds,
    parts,
    unknown,
    ...(parallel ? { parallel, besideSeconds: sumOf(beside), restSeconds: sumOf(rest) } : {}),
  };
}
