/**
 * Stack kind `ceph-k0s`: the third published experiment. A k0s cluster (1 controller + 3 workers
 * of `lab:instanceType`) in one zone of the network stack, Rook-Ceph RBD on one gp3 volume per
 * worker, Postgres 17 on a `rook-ceph-block` volume, and pgbench (TPC-B, scale 1000, 20 clients,
 * 2 threads, 300 s) as benchmark Jobs. Stacks `dev` (m4.xlarge, Xen) and `nitro` (m5.xlarge,
 * Nitro) differ only in the instance type: `pulumi stack select dev|nitro` compares hypervisors.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { BenchmarkRun } from "../../components/bench";
import { K0sCluster } from "../../components/k0s";
import { hypervisorOf } from "../../components/k0s/instance-types";
import { Postgres } from "../../components/postgres";
import { postgresConnection } from "../../components/postgres/manifests";
import { Rook } from "../../components/rook";
import { RBD_PROVISIONER, STORAGE_CLASS_NAME } from "../../components/rook/manifests";
import { CEPH_IMAGE, ROOK_CHART } from "../../components/versions";
import { checkCephK0s, cephK0sSchema, clusterZone } from "./config";
import { parseConfig } from "../lib/config/load";
import { ConfigError, problem } from "../../core/errors";
import { labAwsProvider, StackIdentity } from "../lib/context";
import { readNetwork } from "../network/outputs";

/** The namespace of Postgres and the benchmark Jobs. */
export const BENCH_NAMESPACE = "bench";

export function cephK0sStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("ceph-k0s", cephK0sSchema, raw, checkCephK0s);
  const hypervisor = hypervisorOf(cfg.instanceType) as "xen" | "nitro";
  const zone = clusterZone(cfg);
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = readNetwork(cfg.networkStack);

  // The zone's index in the network stack: its private subnet for the nodes, its public subnet for the bastion.
  const zoneIndex = net.azs.apply((azs) => {
    const i = azs.indexOf(zone);
    if (i < 0) {
      const unset = cfg.az === undefined ? " (unset, it defaults to aws:region + a)" : "";
      throw new ConfigError([
        problem("lab:az", `one of the zones of network stack '${cfg.networkStack}' (${azs.join(", ")})${unset}`, zone),
      ]);
    }
    return i;
  });
  const pick = (ids: pulumi.Output<string[]>) => pulumi.all([ids, zoneIndex]).apply(([list, i]) => list[i]);
  const availabilityZone = pick(net.azs);

  const cluster = new K0sCluster(
    "ceph",
    {
      instanceType: cfg.instanceType,
      workerCount: cfg.workerCount,
      vpcId: net.vpcId,
      privateSubnetId: pick(net.privateSubnetIds),
      publicSubnetId: pick(net.publicSubnetIds),
      availabilityZone,
      adminCidrs: cfg.adminCidrs,
      sshPublicKey: cfg.sshPublicKey,
      osdVolumeSizeGiB: cfg.osdVolumeGiB,
      osdVolumeIops: cfg.osdVolumeIops,
      osdVolumeThroughputMBps: cfg.osdVolumeThroughputMBps,
      k0sVersion: cfg.k0sVersion,
      cni: cfg.cni,
    },
    { provider },
  );

  // Objects inside the cluster go with it on destroy (deletedWith): no one-by-one deletes of a dying cluster.
  const k8sProvider = new k8s.Provider("k0s", { kubeconfig: cluster.kubeconfig });
  const inCluster = { provider: k8sProvider, deletedWith: cluster.installation };
  const rook = new Rook("rook", {}, inCluster);
  const postgres = new Postgres(
    "pg",
    { namespace: BENCH_NAMESPACE, storageClass: STORAGE_CLASS_NAME },
    { ...inCluster, dependsOn: [rook] },
  );

  const pgbench = new BenchmarkRun(
    "pgbench",
    {
      kubeconfig: cluster.kubeconfig,
      namespace: BENCH_NAMESPACE,
      runId: cfg.runId,
      zone,
      tools: ["pgbench"],
      reps: cfg.reps,
      postgres: postgresConnection(BENCH_NAMESPACE),
      pgbenchScale: cfg.pgbenchScale,
      pgbenchClients: cfg.pgbenchClients,
      pgbenchThreads: cfg.pgbenchThreads,
      pgbenchDurationSeconds: cfg.pgbenchDurationSeconds,
      keys: { zone: "lab:az" },
      metadata: {
        scenario: "ceph-nitro",
        stack: id.stack,
        instanceType: cfg.instanceType,
        hypervisor,
        storageClass: STORAGE_CLASS_NAME,
        provisioner: RBD_PROVISIONER,
        zoneRelation: "same",
        workers: cfg.workerCount,
        osdVolumeType: "gp3",
        osdVolumeGiB: cfg.osdVolumeGiB,
        osdVolumeIops: cfg.osdVolumeIops,
        osdVolumeThroughputMBps: cfg.osdVolumeThroughputMBps,
        cni: cfg.cni,
        k0sVersion: cfg.k0sVersion,
        rookVersion: ROOK_CHART.version,
        cephImage: CEPH_IMAGE,
      },
      runAfter: [postgres],
    },
    // runAfter: the ConfigMap, the Job and the collection wait for Postgres (and its namespace).
    inCluster,
  );

  return {
    // First: it fails at once (a config error naming lab:az) when the zone is not the network stack's.
    availabilityZone,
    kubeconfig: cluster.kubeconfig,
    instanceType: cluster.instanceType,
    hypervisor: cluster.hypervisor,
    amiId: cluster.amiId,
    nodePrivateIps: cluster.nodePrivateIps,
    bastionPublicIp: cluster.bastionPublicIp,
    sshPrivateKey: cluster.sshPrivateKey,
    storageClass: rook.storageClassName,
    osdVolume: cluster.osdVolume,
    results: pgbench.results,
    rawOutputs: pgbench.rawOutputs,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
