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
import {
  hugepages2MiCount,
  PostgresArgs,
  POSTGRES_DEFAULTS,
  problems as postgresProblems,
  resolve as resolvePostgres,
} from "../../components/postgres/rules";
import { capacityProblems, problems as rookProblems, RookArgs } from "../../components/rook/rules";
import { argProblem, ArgProblem, problem } from "../../core/errors";
import { isText } from "../../core/checks";
import { AZ_NAME_RE } from "../../components/network/rules";
import { commonFields } from "../lib/config/common";
import { bool, int, list, stackName, text } from "../lib/config/fields";
import { pathHead, renamed } from "../lib/config/load";
import { problems as benchProblems, type BenchSpec, type PostgresTarget } from "../../components/bench/rules";
import { postgresConnection } from "../../components/postgres/manifests";
import { resolve as resolveBench } from "../../components/bench/rules";
import { instanceTypeInfo } from "../../components/k0s/instance-types";
import { workerSelector } from "../../components/k0s/placement";
import { resolve as resolveRook } from "../../components/rook/rules";
import { STORAGE_CLASS_NAME } from "../../components/rook/manifests";
import { cpuCores, memoryBytes } from "../../components/lib/kubernetes";

/** The worker Postgres runs on, and the one the pgbench Job runs on (another, so the client does not take the server's CPU). */
export const POSTGRES_WORKER = 1;
export const PGBENCH_WORKER = 2;

/** Requests and limits: the fields' types; the quantities are the rules'. */
const resources = z.object(
  {
    requests: z.object({ cpu: z.string(), memory: z.string() }),
    limits: z.object({ cpu: z.string(), memory: z.string() }),
  },
  { error: 'requests and limits of cpu and memory (e.g. {"requests":{"cpu":"2","memory":"8Gi"},"limits":{"cpu":"2","memory":"8Gi"}})' },
);

export const cephK0sSchema = z.object({
  ...commonFields,
  /**
   * `lab:networkStack`: the network stack (VPC, subnets) the cluster lives in.
   * @source lab rule (org/project/stack of letters, digits, _ . -; VPC CIDR clear of k0s' pod and service CIDRs, kube-apiserver
   *   --service-cluster-ip-range); Pulumi: stack name ≤ 100 chars, DIY org 'organization' — pulumi/pulumi pkg/backend/diy/store.go.
   */
  networkStack: stackName("network"),
  /**
   * `lab:instanceType` → K0sCluster `instanceType`; m4.xlarge (Xen) in stack dev, m5.xlarge (Nitro) in stack nitro.
   * @source lab rule (a type of instance-types.ts, 4 vCPUs and 16 GiB or more, no NVMe instance store the OSD filter could take); EC2: a
   *   type offered in the zone — boto/botocore 0e6e240 botocore/data/ec2/2016-11-15/service-2.json:3492.
   */
  instanceType: text().optional(),
  /**
   * `lab:workerCount` → K0sCluster `workerCount`, Rook `osdCount`.
   * @source lab rule (3 to 9: 3 replicas and 3 mons, one a node; 9 bounds the cost); Rook: mon count 1-9, one mon a node, failureDomain
   *   host — rook/rook v1.20.6 Documentation/CRDs/Cluster/ceph-cluster-crd.md:132,138, Block-Storage/ceph-block-pool-crd.md:221-222.
   */
  workerCount: int().optional(),
  /**
   * `lab:az` → K0sCluster `az`: the one zone of every node and volume.
   * @source EC2: an Availability Zone of the region (e.g. us-east-1a), here one of the network stack's zones; also the workers'
   *   topology.kubernetes.io/zone label — boto/botocore 0e6e240 botocore/data/ec2/2016-11-15/service-2.json:21545 (CreateVolume).
   * @default "<aws:region>a" ({@link clusterZone})
   */
  az: text().optional(),
  /**
   * `lab:adminCidrs` → `adminCidrs`.
   * @source lab rule (1-10 IPv4 networks /8-/32, no 0.0.0.0/x, none wider than adminCidrMinPrefix); EC2: any IPv4 CIDR; a rule already
   *   there is a duplicate-rule error — boto/botocore 0e6e240 botocore/data/ec2/2016-11-15/service-2.json:50567.
   */
  adminCidrs: list(text()).optional(),
  /**
   * `lab:adminCidrMinPrefix` → `adminCidrMinPrefix` (`lab run --allow-wide-admin` sets 8).
   * @source lab rule (a shared account's guard, components/lib/admin-cidrs.ts; no resource reads it); EC2 security group rules take any
   *   IPv4 CIDR, /32 for one address — boto/botocore 0e6e240 botocore/data/ec2/2016-11-15/service-2.json:50567.
   */
  adminCidrMinPrefix: int().optional(),
  /**
   * `lab:sshPublicKey` → `sshPublicKey`.
   * @source OpenSSH sshd (cloud-init gives this key to the nodes' and the bastion's sshd, not to EC2): the default
   *   PubkeyAcceptedAlgorithms (ed25519, ecdsa nistp256/384/521, sk-*, RSA by rsa-sha2), RSA under 1024 bits refused —
   *   openssh/openssh-portable V_9_6_P1 sshd_config.5:1584-1612,1682-1691.
   */
  sshPublicKey: text().optional(),
  /**
   * `lab:osdVolumeGiB` → `osdVolumeGiB`.
   * @source EC2: gp3 Size 1-65,536 GiB, never shrunk by ModifyVolume; lab rule: 64 GiB x 3 under nearFullRatio 0.85 (rook/rook v1.20.6
   *   ceph-cluster-crd.md:102) — boto/botocore 0e6e240 botocore/data/ec2/2016-11-15/service-2.json:21570,59984.
   */
  osdVolumeGiB: int().optional(),
  /**
   * `lab:osdVolumeIops` → `osdVolumeIops`.
   * @source EC2: gp3 Iops 3,000-80,000, at most 500 per GiB (EBS User Guide, gp3); instances not on Nitro support up to 32,000 IOPS —
   *   boto/botocore 0e6e240 botocore/data/ec2/2016-11-15/service-2.json:21558 (CreateVolume Iops).
   */
  osdVolumeIops: int().optional(),
  /**
   * `lab:osdVolumeThroughputMiBps` → `osdVolumeThroughputMiBps`.
   * @source EC2: gp3 Throughput 125-2000 MiB/s, at most 0.25 MiB/s per provisioned IOPS (EBS User Guide, gp3) — boto/botocore 0e6e240
   *   botocore/data/ec2/2016-11-15/service-2.json:21591 (CreateVolume Throughput).
   */
  osdVolumeThroughputMiBps: int().optional(),
  /**
   * `lab:k0sVersion` → `k0sVersion`.
   * @source lab rule (v1.x.y+k0s.n, no pre-release); k0sctl: a semver from 0.11.0-rc1, a GitHub release, no downgrade — k0sproject/k0sctl
   *   v0.32.2 pkg/apis/k0sctl.k0sproject.io/v1beta1/cluster/k0s.go:23,89-104, binary_providers.go:34, phase/validate_facts.go:39-53.
   */
  k0sVersion: text().optional(),
  /**
   * `lab:cni` → `cni`: calico (published) or kuberouter; fixed when the cluster is created.
   * @source k0s: spec.network.provider kuberouter, calico or custom, changed only by redeploying — k0sproject/k0s v1.36.3+k0s.2
   *   pkg/apis/k0s/v1beta1/network.go:93-96, docs/configuration.md:174; lab rule: not custom.
   */
  cni: text().optional(),
  /**
   * `lab:wireguard` → K0sCluster `wireguard`: Calico's WireGuard encryption (published: on).
   * @source k0s: spec.network.calico.wireguard true or false (default false), the hosts WireGuard-ready — k0sproject/k0s v1.36.3+k0s.2
   *   pkg/apis/k0s/v1beta1/calico.go:15-16, docs/configuration.md:189; lab rule: false with kuberouter.
   */
  wireguard: bool().optional(),
  /**
   * `lab:cephHostNetwork` → K0sCluster `cephHostNetwork` and Rook `hostNetwork` (published: off, the pod network).
   * @source Rook: spec.network.provider "", host or multus; its docs: once deployed only the encryption settings may change (the
   *   CRD's CEL rule admits "" to host, failing over every mon: the lab follows the docs) — rook/rook v1.20.6
   *   Documentation/CRDs/Cluster/ceph-cluster-crd.md:229,255-258, deploy/examples/crds.yaml:3246-3256.
   */
  cephHostNetwork: bool().optional(),
  /**
   * `lab:hugepages2Mi` → K0sCluster `hugepages2Mi`: 2 MiB huge pages every node reserves (published: 2048).
   * @source lab rule (0 to a quarter of the node's memory); Linux: vm.nr_hugepages, the persistent pool, taken from contiguous free
   *   memory — torvalds/linux Documentation/admin-guide/mm/hugetlbpage.rst.
   */
  hugepages2Mi: int().optional(),
  /**
   * `lab:cephResources` → Rook `resources`: requests and limits of mon, mgr and osd.
   * @source lab rule (mon, mgr, osd only; limits at least requests and Rook's minimum memory); Rook: only warns below mon 1024MB, mgr
   *   512MB, osd 2048MB — rook/rook v1.20.6 ceph-cluster-crd.md:497-527, deploy/examples/crds.yaml:3815-3878.
   */
  cephResources: z.record(z.string(), resources, { error: "an object of Ceph daemons (mon, mgr, osd) to requests and limits" }).optional(),
  /**
   * `lab:postgresCpu` → Postgres `cpu` (request = limit).
   * @source Kubernetes: cores or millicores, no finer than 1m; a 0 limit counts as none for QoS —
   *   kubernetes.io/docs/concepts/configuration/manage-resources-containers/, kubernetes/kubernetes pkg/apis/core/helper/qos/qos.go.
   */
  postgresCpu: text().optional(),
  /**
   * `lab:postgresMemory` → Postgres `memory` (request = limit).
   * @source Kubernetes: bytes, plain or with E, P, T, G, M, k, Ei to Ki; a 0 limit counts as none for QoS —
   *   kubernetes.io/docs/concepts/configuration/manage-resources-containers/, kubernetes/kubernetes pkg/apis/core/helper/qos/qos.go.
   */
  postgresMemory: text().optional(),
  /**
   * `lab:postgresHugepages2Mi` → Postgres `hugepages2Mi` (published: 64Mi).
   * @source Kubernetes: hugepages-2Mi requests equal to limits, never overcommitted, beside a cpu or memory request — kubernetes/website
   *   content/en/docs/tasks/manage-hugepages/scheduling-hugepages.md; lab rule: whole 2 MiB pages, at most lab:hugepages2Mi.
   */
  postgresHugepages2Mi: text().optional(),
  /**
   * `lab:pgbenchScale` → BenchmarkRun `pgbenchScale` (`pgbench -i -s`).
   * @source lab rule (1-100000, and 16 MB a unit within 70% of the 64 GiB Postgres volume); pgbench: -s 1 to INT_MAX, aid bigint from
   *   20000 — postgres/postgres 0022622c src/bin/pgbench/pgbench.c main() (-s/--scale); doc/src/sgml/ref/pgbench.sgml.
   */
  pgbenchScale: int().optional(),
  /**
   * `lab:pgbenchClients` → `pgbenchClients` (`-c`).
   * @source lab rule (1-10000, at most max_connections 100 less 10 spare); pgbench: -c 1 to INT_MAX, clients + 3 open files —
   *   postgres/postgres 0022622c src/bin/pgbench/pgbench.c main(); PostgreSQL docs 17 runtime-config-connection.
   */
  pgbenchClients: int().optional(),
  /**
   * `lab:pgbenchThreads` → `pgbenchThreads` (`-j`).
   * @source lab rule (1-1024, at most the clients); pgbench: -j 1 to INT_MAX, silently lowered to the clients when larger ("if (nthreads
   *   > nclients) nthreads = nclients") — postgres/postgres 0022622c src/bin/pgbench/pgbench.c main().
   */
  pgbenchThreads: int().optional(),
  /**
   * `lab:pgbenchDurationSeconds` → `pgbenchDurationSeconds` (`-T`).
   * @source lab rule (1-86400 s); pgbench: -T 1 to INT_MAX seconds, not together with -t — postgres/postgres 0022622c
   *   src/bin/pgbench/pgbench.c main() (-T/--time).
   */
  pgbenchDurationSeconds: int().optional(),
  /**
   * `lab:pgbenchForeignKeys` → BenchmarkRun `pgbenchForeignKeys` (`pgbench -i --foreign-keys`; published: on).
   * @source pgbench: --foreign-keys (init mode) adds step f, foreign keys between the standard tables, not in the default dtgvp —
   *   postgres/postgres doc/src/sgml/ref/pgbench.sgml; 0022622c src/bin/pgbench/pgbench.c main().
   */
  pgbenchForeignKeys: bool().optional(),
  /**
   * `lab:pgbenchReportLatencies` → `pgbenchPerStatementLatencies` (`-r`, `--report-latencies`; published: on).
   * @source pgbench: -r/--report-latencies (benchmarking mode) reports each command's average latency after the run — postgres/postgres
   *   doc/src/sgml/ref/pgbench.sgml (-r); 0022622c src/bin/pgbench/pgbench.c main().
   */
  pgbenchReportLatencies: bool().optional(),
  /**
   * `lab:pgbenchResources` → `resources.pgbench`: the client's requests and limits (published: 2 CPU / 8 Gi, Guaranteed).
   * @source Kubernetes: requests at most limits, CPU no finer than 1m; 0 limits count as none for QoS —
   *   kubernetes.io/docs/concepts/configuration/manage-resources-containers/, kubernetes/kubernetes pkg/apis/core/helper/qos/qos.go.
   */
  pgbenchResources: resources.optional(),
  /**
   * `lab:reps` → `reps`: pgbench repetitions.
   * @source lab rule (1-20: 20 x the published 300 s run is 2.5 h); read only by the lab's pgbench.sh loop and the Job's
   *   activeDeadlineSeconds (components/bench/sizing.ts), no upstream bound.
   */
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
    adminCidrMinPrefix: c.adminCidrMinPrefix,
    sshPublicKey: c.sshPublicKey,
    osdVolumeGiB: c.osdVolumeGiB,
    osdVolumeIops: c.osdVolumeIops,
    osdVolumeThroughputMiBps: c.osdVolumeThroughputMiBps,
    k0sVersion: c.k0sVersion,
    cni: c.cni as K0sClusterSpec["cni"],
    wireguard: c.wireguard,
    cephHostNetwork: c.cephHostNetwork,
    hugepages2Mi: c.hugepages2Mi,
  };
}

/**
 * The Rook component's arguments: one OSD on every worker, Ceph on the network and with the daemon
 * resources of the config, the managers off the pgbench worker (its CPU is the Guaranteed
 * client's), the rest Rook's defaults.
 */
export function rookArgs(c: CephK0sConfig): RookArgs {
  return {
    osdCount: resolveK0s(clusterSpec(c)).workerCount,
    ...(c.cephHostNetwork === undefined ? {} : { hostNetwork: c.cephHostNetwork }),
    ...(c.cephResources === undefined ? {} : { resources: c.cephResources as RookArgs["resources"] }),
    mgrAvoidNodeLabels: workerSelector(PGBENCH_WORKER),
  };
}

/** The Postgres component's arguments from config (index.ts adds the namespace, StorageClass and node). */
export function postgresArgs(c: CephK0sConfig): Omit<PostgresArgs, "storageClass"> {
  return {
    ...(c.postgresCpu === undefined ? {} : { cpu: c.postgresCpu }),
    ...(c.postgresMemory === undefined ? {} : { memory: c.postgresMemory }),
    ...(c.postgresHugepages2Mi === undefined ? {} : { hugepages2Mi: c.postgresHugepages2Mi }),
  };
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
    pgbenchForeignKeys: c.pgbenchForeignKeys,
    pgbenchPerStatementLatencies: c.pgbenchReportLatencies,
    ...(c.pgbenchResources === undefined ? {} : { resources: { pgbench: c.pgbenchResources } }),
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
const ROOK_KEYS = {
  osdCount: "workerCount",
  osdSizeGiB: "osdVolumeGiB",
  hostNetwork: "cephHostNetwork",
  resources: "cephResources",
} as const;
/** Postgres' and BenchmarkRun's arguments → this kind's keys. */
const POSTGRES_KEYS = { cpu: "postgresCpu", memory: "postgresMemory", hugepages2Mi: "postgresHugepages2Mi" } as const;
const BENCH_KEYS = { zone: "az", pgbenchPerStatementLatencies: "pgbenchReportLatencies" } as const;

/**
 * What every worker runs besides what this kind places, as requests (k0s v1.36.3+k0s.2 and Rook
 * v1.20.6): the CNI's node agent, 250m (calico-node: static/manifests/calico/DaemonSet/calico-node.yaml
 * lines 296-297; kube-router: pkg/component/controller/kuberouter.go lines 351-353, 250m / 16Mi);
 * at most one CoreDNS replica a node, 100m / 70Mi (pkg/component/controller/coredns.go lines
 * 143 and 165-168); and, wherever they land, the Rook operator, 200m / 128Mi (the rook-ceph chart's
 * `resources`), the ceph-csi operator, 10m / 64Mi (rook deploy/examples/csi-operator.yaml, its
 * `manager` container), and metrics-server, 10m / 30M (metricserver.go: 10m and 30M per 10 nodes).
 * The CSI node and controller plugins, the crash collector, the mgr sidecar, konnectivity-agent
 * and kube-proxy request nothing.
 */
export const WORKER_SYSTEM_REQUESTS = {
  cpu: 0.25 + 0.1 + 0.2 + 0.01 + 0.01,
  memoryBytes: (16 + 70 + 128 + 64) * 2 ** 20 + 30e6,
} as const;
/** Memory of a node that no pod can have: the kernel, systemd, containerd, the kubelet (k0s reserves none for them itself). */
export const NODE_MEMORY_RESERVE_BYTES = 2 ** 30;

const DAEMON_NAMES = { osd: "an OSD", mon: "a monitor", mgr: "a manager" } as const;
const fmtCpu = (cores: number) => `${Math.round(cores * 1000)}m`;
const fmtGiB = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

/**
 * The fixed placement fits: worker {@link PGBENCH_WORKER} holds the pgbench client, an OSD and a
 * monitor (the managers avoid it, {@link rookArgs}); worker {@link POSTGRES_WORKER} holds Postgres,
 * an OSD, a monitor and maybe a manager; both also run {@link WORKER_SYSTEM_REQUESTS}. Their
 * requests must fit the instance type's vCPUs and its memory less the huge pages and
 * {@link NODE_MEMORY_RESERVE_BYTES}, and Postgres' huge pages the node's, or a pod stays Pending
 * until its Job's deadline. Checked once every key is valid.
 */
export function placementProblems(c: CephK0sConfig): ArgProblem[] {
  const k0s = resolveK0s(clusterSpec(c));
  const info = instanceTypeInfo(k0s.instanceType);
  if (!info) return [];
  const rook = resolveRook(rookArgs(c)).resources;
  const pg = resolvePostgres({ storageClass: STORAGE_CLASS_NAME, ...postgresArgs(c) });
  const client = resolveBench({ ...PGBENCH_RUN, ...pgbenchArgs(c) }).resources.pgbench.requests;
  const hugepagesBytes = k0s.hugepages2Mi * 2 * 2 ** 20;
  const memory = info.memoryGiB * 2 ** 30 - hugepagesBytes - NODE_MEMORY_RESERVE_BYTES;
  const out: ArgProblem[] = [];
  const sum = (xs: readonly (number | undefined)[]) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);
  const check = (
    keys: { cpu: string; memory: string },
    what: string,
    own: { cpu: string; memory: string },
    ceph: readonly ("mon" | "mgr" | "osd")[],
    worker: number,
  ) => {
    const cpuRest = sum(ceph.map((d) => cpuCores(rook[d].requests.cpu))) + WORKER_SYSTEM_REQUESTS.cpu;
    const memRest = sum(ceph.map((d) => memoryBytes(rook[d].requests.memory))) + WORKER_SYSTEM_REQUESTS.memoryBytes;
    const daemons = ceph.map((d) => DAEMON_NAMES[d]).join(", ");
    const beside = `${daemons} and k0s' and Rook's own pods on worker ${worker} request ${fmtCpu(cpuRest)}`;
    if (cpuCores(own.cpu)! + cpuRest > info.vcpus)
      out.push(
        argProblem(
          keys.cpu,
          `at most ${fmtCpu(info.vcpus - cpuRest)} (the ${info.vcpus} vCPUs of ${k0s.instanceType}: ${beside}); ${what} would stay Pending`,
          own.cpu,
        ),
      );
    if (memoryBytes(own.memory)! + memRest > memory)
      out.push(
        argProblem(
          keys.memory,
          `at most ${fmtGiB(memory - memRest)} (the ${info.memoryGiB} GiB of ${k0s.instanceType} less ${k0s.hugepages2Mi} huge pages {hugepages2Mi} and 1 GiB for the system, less ${fmtGiB(memRest)} that ${daemons} and k0s' and Rook's own pods request); ${what} would stay Pending`,
          own.memory,
        ),
      );
  };
  check(
    { cpu: "pgbenchResources.requests.cpu", memory: "pgbenchResources.requests.memory" },
    "the pgbench Job",
    client,
    ["osd", "mon"],
    PGBENCH_WORKER,
  );
  check(
    { cpu: "postgresCpu", memory: "postgresMemory" },
    "Postgres",
    { cpu: pg.cpu, memory: pg.memory },
    ["osd", "mon", "mgr"],
    POSTGRES_WORKER,
  );
  const pages = hugepages2MiCount(pg.hugepages2Mi);
  if (pages > k0s.hugepages2Mi)
    out.push(
      argProblem(
        "postgresHugepages2Mi",
        `at most the ${k0s.hugepages2Mi} huge pages of 2 MiB every node reserves ({hugepages2Mi}); ${pages} would leave Postgres Pending`,
        pg.hugepages2Mi,
      ),
    );
  return out;
}

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
  add(renamed(postgresProblems({ storageClass: STORAGE_CLASS_NAME, ...postgresArgs(c) }), POSTGRES_KEYS));
  // The pgbench run's rules are BenchmarkRun's, over what index.ts passes it (its `zone` is `lab:az`).
  add(
    renamed(benchProblems({ ...PGBENCH_RUN, ...pgbenchArgs(c) }), BENCH_KEYS).map((p) =>
      p.path.startsWith("resources.pgbench") ? { ...p, path: `pgbenchResources${p.path.slice("resources.pgbench".length)}` } : p,
    ),
  );
  if (ruled.length === 0) add(placementProblems(c));
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
