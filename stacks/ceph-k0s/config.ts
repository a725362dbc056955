/**
 * Config of the `ceph-k0s` stack kind: k0s on EC2 + Rook-Ceph + Postgres + pgbench. The keys'
 * types only; their rules and defaults are the components' (components/k0s/rules.ts,
 * components/rook/rules.ts, components/postgres/rules.ts, components/bench), checked here with the
 * `lab:` key names before any resource exists.
 */
import { z } from "zod";
import {
  clusterNetworksOverlapping,
  K0sClusterSpec,
  NODE_NETWORK_RULE,
  problems as k0sProblems,
  resolve as resolveK0s,
} from "../../components/k0s/rules";
import { POSTGRES_DEFAULTS } from "../../components/postgres/rules";
import { capacityProblems, problems as rookProblems, RookArgs } from "../../components/rook/rules";
import { argProblem, ArgProblem, problem } from "../../core/errors";
import { isText } from "../../core/checks";
import { AZ_NAME_RE } from "../../components/network/rules";
import { commonFields } from "../lib/config/common";
import { int, list, stackName, text } from "../lib/config/fields";
import { pathHead, renamed } from "../lib/config/load";
import { problems as benchProblems, type BenchSpec, type PostgresTarget } from "../../components/bench/rules";
import { postgresConnection } from "../../components/postgres/manifests";

export const cephK0sSchema = z.object({
  ...commonFields,
  /** `lab:networkStack`: the network stack (VPC, subnets) the cluster lives in. */
  networkStack: stackName("network"),
  /** `lab:instanceType` → K0sCluster `instanceType`; m4.xlarge (Xen) in stack dev, m5.xlarge (Nitro) in stack nitro. */
  instanceType: text().optional(),
  /** `lab:workerCount` → K0sCluster `workerCount`, Rook `osdCount`. */
  workerCount: int().optional(),
  /** `lab:az` → K0sCluster `az`: the one zone of every node and volume. @default "<aws:region>a" ({@link clusterZone}) */
  az: text().optional(),
  /** `lab:adminCidrs` → `adminCidrs`. */
  adminCidrs: list(text()).optional(),
  /** `lab:sshPublicKey` → `sshPublicKey`. */
  sshPublicKey: text().optional(),
  /** `lab:osdVolumeGiB` → `osdVolumeGiB`. */
  osdVolumeGiB: int().optional(),
  /** `lab:osdVolumeIops` → `osdVolumeIops`. */
  osdVolumeIops: int().optional(),
  /** `lab:osdVolumeThroughputMiBps` → `osdVolumeThroughputMiBps`. */
  osdVolumeThroughputMiBps: int().optional(),
  /** `lab:k0sVersion` → `k0sVersion`. */
  k0sVersion: text().optional(),
  /** `lab:cni` → `cni`. */
  cni: text().optional(),
  /** `lab:pgbenchScale` → BenchmarkRun `pgbenchScale` (`pgbench -i -s`). */
  pgbenchScale: int().optional(),
  /** `lab:pgbenchClients` → `pgbenchClients` (`-c`). */
  pgbenchClients: int().optional(),
  /** `lab:pgbenchThreads` → `pgbenchThreads` (`-j`). */
  pgbenchThreads: int().optional(),
  /** `lab:pgbenchDurationSeconds` → `pgbenchDurationSeconds` (`-T`). */
  pgbenchDurationSeconds: int().optional(),
  /** `lab:reps` → `reps`: pgbench repetitions. */
  reps: int().optional(),
});

export type CephK0sConfig = z.output<typeof cephK0sSchema>;

/** The zone of the cluster: `lab:az`, else the region's first zone (a choice of this kind, not a component default). */
export function clusterZone(c: Pick<CephK0sConfig, "az" | "region">): string {
  return c.az ?? `${c.region}a`;
}

/** The config as the K0sCluster's plain arguments (same names; typed once the rules passed). */
export function clusterSpec(c: CephK0sConfig): K0sClusterSpec {
  return {
    instanceType: c.instanceType as string,
    workerCount: c.workerCount,
    az: clusterZone(c),
    adminCidrs: c.adminCidrs as string[],
    sshPublicKey: c.sshPublicKey,
    osdVolumeGiB: c.osdVolumeGiB,
    osdVolumeIops: c.osdVolumeIops,
    osdVolumeThroughputMiBps: c.osdVolumeThroughputMiBps,
    k0sVersion: c.k0sVersion,
    cni: c.cni as K0sClusterSpec["cni"],
  };
}

/** The Rook component's arguments: one OSD on every worker, the rest Rook's defaults. */
export function rookArgs(c: CephK0sConfig): RookArgs {
  return { osdCount: resolveK0s(clusterSpec(c)).workerCount };
}

/** The pgbench server as BenchmarkRun sees it: the Postgres component's connection and its data volume (max_connections stays PostgreSQL's default). */
export function pgbenchServer(namespace: string): PostgresTarget {
  return { ...postgresConnection(namespace), volumeGiB: POSTGRES_DEFAULTS.volumeGiB };
}

/** The pgbench BenchmarkRun's arguments that come from config; index.ts adds this kind's constants. */
export function pgbenchArgs(c: CephK0sConfig) {
  return {
    runId: c.runId,
    zone: clusterZone(c),
    reps: c.reps,
    pgbenchScale: c.pgbenchScale,
    pgbenchClients: c.pgbenchClients,
    pgbenchThreads: c.pgbenchThreads,
    pgbenchDurationSeconds: c.pgbenchDurationSeconds,
  } satisfies Partial<BenchSpec>;
}

/** The constant part of the pgbench run (index.ts creates it with these), for checking the config's part. */
const PGBENCH_RUN = {
  name: "pgbench",
  namespace: POSTGRES_DEFAULTS.namespace,
  tools: ["pgbench"],
  postgres: pgbenchServer(POSTGRES_DEFAULTS.namespace),
} as const satisfies Omit<BenchSpec, "runId" | "zone">;

/** Rook's argument → this kind's key, where they are named differently. */
const ROOK_KEYS = { osdCount: "workerCount", osdSizeGiB: "osdVolumeGiB" } as const;

/**
 * Every problem of the config: the K0sCluster's rules, Rook's (its OSDs are the workers), the Ceph
 * capacity rule for the Postgres volume, the zone's region, and the pgbench rules. A key that
 * already has a problem from one rule gets no second one from a later rule.
 */
export function checkCephK0s(c: CephK0sConfig): ArgProblem[] {
  const k0s = resolveK0s(clusterSpec(c));
  const ruled: ArgProblem[] = [];
  const add = (ps: readonly ArgProblem[]) => {
    const taken = new Set(ruled.map((q) => pathHead(q.path)));
    ruled.push(...ps.filter((p) => !taken.has(pathHead(p.path))));
  };
  add(k0sProblems(clusterSpec(c)));
  if (c.az !== undefined && isText(c.az, AZ_NAME_RE) && !c.az.startsWith(c.region))
    add([argProblem("az", `a zone of {region} ${c.region}`, c.az)]);
  add(renamed(rookProblems(rookArgs(c)), ROOK_KEYS));
  // The capacity rule needs a valid worker count: with a bad one it would only repeat that problem.
  if (!ruled.some((p) => pathHead(p.path) === ROOK_KEYS.osdCount))
    add(
      renamed(
        capacityProblems({
          osdCount: k0s.workerCount,
          osdSizeGiB: k0s.osdVolumeGiB,
          claimGiB: POSTGRES_DEFAULTS.volumeGiB,
          claimName: "Postgres volume",
        }),
        ROOK_KEYS,
      ),
    );
  // The pgbench run's rules are BenchmarkRun's, over what index.ts passes it (its `zone` is `lab:az`).
  add(renamed(benchProblems({ ...PGBENCH_RUN, ...pgbenchArgs(c) }), { zone: "az" }));
  return ruled;
}

/**
 * What this kind needs of the network stack it reads (`lab:networkStack`), checked where it is
 * read, every problem at once: the cluster's zone is one of its zones, and its VPC CIDR leaves
 * k0s' pod and service networks alone (components/k0s/rules.ts).
 */
export function networkProblems(c: CephK0sConfig, network: { readonly azs: readonly string[]; readonly vpcCidr: string }): string[] {
  const problems: string[] = [];
  const zone = clusterZone(c);
  if (!network.azs.includes(zone)) {
    const unset = c.az === undefined ? " (unset, it defaults to aws:region + a)" : "";
    problems.push(problem("lab:az", `one of the zones of network stack '${c.networkStack}' (${network.azs.join(", ")})${unset}`, zone));
  }
  const overlapping = clusterNetworksOverlapping(network.vpcCidr);
  if (overlapping.length > 0) {
    problems.push(
      problem(
        "lab:networkStack",
        `a network stack whose 'lab:vpcCidr' is ${NODE_NETWORK_RULE}; its 'lab:vpcCidr' ${network.vpcCidr} overlaps the ${overlapping.join(" and the ")}`,
        c.networkStack,
      ),
    );
  }
  return problems;
}
