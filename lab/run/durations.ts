/**
 * Typical durations of what the lab provisions, for `lab run --dry-run`'s schedule. Estimates, not
 * measurements: each says where its figure comes from. A stack's time is the sum of the phases its
 * planned resources show (found by resource type in the offline plan, so a new kind is estimated
 * from what it deploys), plus its benchmarks, each from its own Job: profile, repetitions and
 * durations read from the Job's environment and the overheads of components/bench.
 */
import { fioRepSeconds, isFioProfile } from "../../components/bench/profiles";
import { IOPING_REP_OVERHEAD_SECONDS, PGBENCH_REP_OVERHEAD_SECONDS } from "../../components/bench/sizing";
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
  eksControlPlane: { what: "EKS control plane", upMinutes: 12, destroyMinutes: 8, source: "lab estimate: an EKS cluster takes ~15 min with its nodes" },
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
} as const satisfies Record<string, Phase>;

/** Benchmark figures no Job states: pgbench -i per scale unit, a `seed` fio repetition, laying out fio's file. */
export const BENCH_ESTIMATES = {
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
    { what: "fio volume and Job started", seconds: 120, source: "lab estimate: Trident provisions the claim, pod start (bound: fioStartTimeoutMs 10 min)" },
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
}

const envOf = (job: PlannedResource): Record<string, string> => {
  const spec = job.inputs.spec as
    { template?: { spec?: { containers?: Array<{ env?: Array<{ name: string; value?: unknown }> }> } } } | undefined;
  const env = spec?.template?.spec?.containers?.[0]?.env ?? [];
  return Object.fromEntries(env.filter((e) => typeof e.value === "string").map((e) => [e.name, e.value as string]));
};

/** One benchmark Job's typical duration, seconds, and its name; undefined for a Job that is no benchmark. */
export function benchmarkSeconds(job: PlannedResource): { tool: string; seconds: number } | undefined {
  const env = envOf(job);
  const reps = Number(env.REPS ?? "1");
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
  if (types.has("lab:trident:TridentOperator")) phases.push(PHASES.trident);
  if (types.has("lab:mysql:MySql")) phases.push(PHASES.mysql);
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
  ]);
  const unknown = [...types].filter((t) => t.startsWith("lab:") && !known.has(t)).sort();
  const benches = plan.resources
    .filter((r) => r.type === "kubernetes:batch/v1:Job")
    .map(benchmarkSeconds)
    .filter((b) => b !== undefined);
  const benchSeconds = benches.reduce((n, b) => n + b.seconds, 0);
  const upSeconds = phases.reduce((n, p) => n + p.upMinutes * 60, 0) + benchSeconds;
  const destroySeconds = phases.reduce((n, p) => n + p.destroyMinutes * 60, 0);
  const parts = [...phases.map((p) => `${p.what} ${p.upMinutes}m`), ...benches.map((b) => `${b.tool} ${min(b.seconds)}`)];
  return { upSeconds, destroySeconds, benchSeconds, parts, unknown };
}
