/**
 * Stack kind `ceph-k0s`: the third published experiment. A k0s cluster (1 controller + 3 workers
 * of `lab:instanceType`) in one zone of the network stack, Rook-Ceph RBD on one gp3 volume per
 * worker, Postgres 17 on a `rook-ceph-block` volume, and pgbench (TPC-B, scale 1000, 20 clients,
 * 2 threads, 300 s) as benchmark Jobs. Stacks `dev` (m4.xlarge, Xen) and `nitro` (m5.xlarge,
 * Nitro) differ only in the instance type: `pulumi stack select dev|nitro` compares hypervisors.
 * Placement is fixed, alike in both: Postgres on worker 1, the pgbench Job on worker 2
 * (`storage-bench-lab/worker` labels, components/k0s/placement.ts).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { BenchmarkRun } from "../../components/bench";
import { K0sCluster } from "../../components/k0s";
import { hypervisorOf } from "../../components/k0s/instance-types";
import { WORKER_LABEL, workerSelector } from "../../components/k0s/placement";
import { apiServerEndpoints, hostSourceCidrs } from "../../components/k0s/ports";
import { CALICO_MTU, resolve as resolveK0s } from "../../components/k0s/rules";
import { Postgres } from "../../components/postgres";
import { Rook } from "../../components/rook";
import { RBD_PROVISIONER, STORAGE_CLASS_NAME } from "../../components/rook/manifests";
import { CEPH_DAEMONS, type CephResources, resolve as resolveRook } from "../../components/rook/rules";
import { resolve as resolvePostgres } from "../../components/postgres/rules";
import { ROOK_CHART } from "../../components/versions";
import {
  CephK0sConfig,
  checkCephK0s,
  cephK0sSchema,
  clusterSpec,
  clusterZone,
  networkProblems,
  pgbenchArgs,
  pgbenchServer,
  PGBENCH_WORKER,
  postgresArgs,
  POSTGRES_WORKER,
  rookArgs,
} from "./config";
import { parseConfig } from "../lib/config/load";
import type { RunMetadata } from "../../core/sample";
import { labAwsProvider, StackIdentity } from "../lib/context";
import { readNetwork } from "../network/outputs";
import { whenUpstreamsFit } from "../lib/upstream";

/** The namespace of Postgres and the benchmark Jobs. */
export const BENCH_NAMESPACE = "bench";
export { PGBENCH_WORKER, POSTGRES_WORKER } from "./config";

/**
 * What every pgbench sample of this kind carries besides the tool's own options: the setup that
 * shapes the number (instance type and hypervisor, OSD volumes, Ceph and its muted health warnings,
 * the fixed placement), so a report can tell two runs apart.
 */
export function pgbenchMetadata(cfg: CephK0sConfig, id: StackIdentity): RunMetadata {
  const k0s = resolveK0s(clusterSpec(cfg));
  const rook = resolveRook(rookArgs(cfg));
  const pg = resolvePostgres({ storageClass: STORAGE_CLASS_NAME, ...postgresArgs(cfg) });
  return {
    scenario: "ceph-nitro",
    stack: id.stack,
    instanceType: k0s.instanceType,
    hypervisor: hypervisorOf(k0s.instanceType),
    storageClass: STORAGE_CLASS_NAME,
    provisioner: RBD_PROVISIONER,
    zoneRelation: "same",
    workers: k0s.workerCount,
    osdVolumeType: "gp3",
    osdVolumeGiB: k0s.osdVolumeGiB,
    osdVolumeIops: k0s.osdVolumeIops,
    osdVolumeThroughputMiBps: k0s.osdVolumeThroughputMiBps,
    cni: k0s.cni,
    // Calico's data path (components/k0s/k0sctl.ts): VXLAN, its MTU and WireGuard.
    ...(k0s.cni === "calico" ? { calicoMode: "vxlan", calicoMtu: CALICO_MTU } : {}),
    wireguard: k0s.wireguard,
    cephNetwork: rook.hostNetwork ? "host" : "pod",
    nodeHugepages2Mi: k0s.hugepages2Mi,
    ...cephResourceMetadata(rook.resources),
    postgresCpu: pg.cpu,
    postgresMemory: pg.memory,
    postgresHugepages2Mi: pg.hugepages2Mi,
    k0sVersion: k0s.k0sVersion,
    rookVersion: ROOK_CHART.version,
    cephImage: rook.cephImage,
    cephReplicas: rook.replicas,
    // The warnings muted so HEALTH_OK is reachable with AES cephx keys (components/rook/rules.ts).
    cephMutedHealthWarnings: rook.muteHealthWarnings.join(","),
    postgresNode: `${WORKER_LABEL}=${POSTGRES_WORKER}`,
    pgbenchNode: `${WORKER_LABEL}=${PGBENCH_WORKER}`,
  };
}

/** Every Ceph daemon's requests and limits as flat metadata: `cephOsdCpuLimit: "1"`, `cephMonMemoryRequest: "1Gi"`, … */
function cephResourceMetadata(res: CephResources): RunMetadata {
  const out: RunMetadata = {};
  for (const d of CEPH_DAEMONS) {
    const D = d[0].toUpperCase() + d.slice(1);
    out[`ceph${D}CpuRequest`] = res[d].requests.cpu;
    out[`ceph${D}CpuLimit`] = res[d].limits.cpu;
    out[`ceph${D}MemoryRequest`] = res[d].requests.memory;
    out[`ceph${D}MemoryLimit`] = res[d].limits.memory;
  }
  return out;
}

export function cephK0sStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("ceph-k0s", cephK0sSchema, raw, checkCephK0s);
  const spec = clusterSpec(cfg);
  const zone = clusterZone(cfg);
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = readNetwork(cfg.networkStack);
  // What this kind needs of the network stack, checked before any resource (stacks/lib/upstream.ts,
  // every problem at once): the zone is one of its zones, and its VPC CIDR leaves k0s' pod and
  // service networks alone.
  return whenUpstreamsFit(
    { net },
    ({ net: n }) => (n ? networkProblems(cfg, n) : []),
    () => build(cfg, id, spec, zone, provider, expiresAt, net),
  );
}

function build(
  cfg: CephK0sConfig,
  id: StackIdentity,
  spec: ReturnType<typeof clusterSpec>,
  zone: string,
  provider: ReturnType<typeof labAwsProvider>["provider"],
  expiresAt: pulumi.Output<string>,
  net: ReturnType<typeof readNetwork>,
) {
  // The zone's index: its private subnet for the nodes, its public one for the bastion.
  const zoneIndex = net.azs.apply((azs) => azs.indexOf(zone));
  const pick = (ids: pulumi.Output<string[]>) => pulumi.all([ids, zoneIndex]).apply(([list, i]) => list[i]);
  const availabilityZone = pick(net.azs);

  const cluster = new K0sCluster(
    "ceph",
    {
      ...spec,
      az: availabilityZone,
      vpcId: net.vpcId,
      privateSubnetId: pick(net.privateSubnetIds),
      publicSubnetId: pick(net.publicSubnetIds),
    },
    { provider },
  );

  // Objects inside the cluster go with it on destroy (deletedWith): no one-by-one deletes of a dying cluster.
  // Same cluster, same provider: a changed kubeconfig Command replaces nothing in the cluster (K0sCluster.clusterIdentifier).
  const k8sProvider = new k8s.Provider("k0s", { kubeconfig: cluster.kubeconfig, clusterIdentifier: cluster.clusterIdentifier });
  const inCluster = { provider: k8sProvider, deletedWith: cluster.installation };
  // Rook's NetworkPolicies name the workers (the Ceph nodes, the kernel RBD clients) and the controller (the API server).
  const cni = resolveK0s(spec).cni;
  const clusterNetwork = cluster.nodePrivateIps.apply(([controller, ...workers]) => ({
    cephNodeCidrs: workers.map((ip) => `${ip}/32`),
    hostSourceCidrs: hostSourceCidrs(cni, workers),
    apiServer: apiServerEndpoints(controller),
  }));
  const ceph = new Rook("rook", { ...rookArgs(cfg), clusterNetwork }, inCluster);
  const postgres = new Postgres(
    "pg",
    { ...postgresArgs(cfg), namespace: BENCH_NAMESPACE, storageClass: STORAGE_CLASS_NAME, nodeSelector: workerSelector(POSTGRES_WORKER) },
    { ...inCluster, dependsOn: [ceph] },
  );

  const pgbench = new BenchmarkRun(
    "pgbench",
    {
      kubeconfig: cluster.kubeconfig,
      namespace: BENCH_NAMESPACE,
      ...pgbenchArgs(cfg),
      nodeSelector: workerSelector(PGBENCH_WORKER),
      tools: ["pgbench"],
      postgres: pgbenchServer(BENCH_NAMESPACE),
      metadata: pgbenchMetadata(cfg, id),
      runAfter: [postgres],
    },
    // runAfter: the ConfigMap, the Job and the collection wait for Postgres (and its namespace).
    inCluster,
  );

  return {
    availabilityZone,
    kubeconfig: cluster.kubeconfig,
    instanceType: cluster.instanceType,
    hypervisor: cluster.hypervisor,
    amiId: cluster.amiId,
    nodePrivateIps: cluster.nodePrivateIps,
    bastionPublicIp: cluster.bastionPublicIp,
    sshKnownHosts: cluster.sshKnownHosts,
    storageClass: ceph.storageClassName,
    osdVolume: cluster.osdVolume,
    results: pgbench.results,
    rawOutputs: pgbench.rawOutputs,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
