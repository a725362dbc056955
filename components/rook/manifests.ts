/**
 * What the Rook component deploys, as plain objects: the two charts' values, the CephCluster and
 * CephBlockPool custom resources and the RBD StorageClass. Pure (no Pulumi imports); the tests
 * validate the CRs against Rook v1.20.6's CRDs (../shared/schemas/crds/ceph.rook.io).
 *
 * References (rook/rook at v1.20.6): deploy/examples/cluster.yaml, deploy/examples/csi/rbd/
 * storageclass.yaml, deploy/charts/ceph-csi-drivers/values.yaml, Documentation/Helm-Charts/
 * csi-drivers-chart.md ("kubelet path"), Documentation/CRDs/Cluster/ceph-cluster-crd.md
 * (`devicePathFilter`).
 */
import { resolve, RookArgs } from "./rules";

/**
 * Pod Security labels of Rook's namespace: `privileged`, which the OSDs (raw devices, hostPath
 * /var/lib/rook) and the CSI node plugin (bidirectional mounts) need. Enforced explicitly rather than
 * left to the cluster default, so the policy's list of privileged namespaces is the one place that
 * allows it (lab/policy/kubernetes.ts PRIVILEGED_NAMESPACES).
 */
export const ROOK_NAMESPACE_LABELS = {
  "pod-security.kubernetes.io/enforce": "privileged",
  "pod-security.kubernetes.io/enforce-version": "latest",
} as const;

/** Namespace of the operator and of the cluster (Rook's default; the CSI driver names carry it). */
export const ROOK_NAMESPACE = "rook-ceph";
/** The CephCluster's name. */
export const CEPH_CLUSTER_NAME = "rook-ceph";
/** The replicated RBD pool. */
export const BLOCK_POOL_NAME = "replicapool";
/** The StorageClass Postgres (and any PVC of the lab) uses. */
export const STORAGE_CLASS_NAME = "rook-ceph-block";
/** The RBD CSI driver's name: `<operator namespace>.rbd.csi.ceph.com`. */
export const RBD_PROVISIONER = `${ROOK_NAMESPACE}.rbd.csi.ceph.com`;
/** k0s' kubelet root directory (not Kubernetes' /var/lib/kubelet): the CSI node plugin mounts volumes under it. */
export const K0S_KUBELET_DIR = "/var/lib/k0s/kubelet";

/**
 * Which block devices become OSDs, as a Go regular expression over device paths (Rook matches it
 * against `/dev/<kernel name>` and every udev link of each device). The EBS data volume attached as
 * /dev/xvdf is `/dev/xvdf` on Xen and `/dev/nvme1n1` on Nitro (the root volume is nvme0n1 there, and
 * the data volume is attached after boot). Anchored at both ends, so root devices (/dev/xvda,
 * /dev/nvme0n1), partitions (/dev/nvme1n1p1, /dev/xvdf1) and by-id/by-path links never match.
 * Rook also refuses devices that carry partitions or a file system.
 */
export const OSD_DEVICE_PATH_FILTER = "^/dev/(xvdf|nvme1n1)$";

/** Whether Rook would pick `devicePath` as an OSD (same semantics as Go's regexp for this pattern). */
export function isOsdDevice(devicePath: string): boolean {
  return new RegExp(OSD_DEVICE_PATH_FILTER).test(devicePath);
}

/**
 * Pulumi's Kubernetes provider waits for a created or updated object until its `pulumi.com/waitFor`
 * annotation holds: one `jsonpath=`/`condition=` expression, or a JSON array of them, "the ready
 * condition will wait for all expressions to succeed" (pulumi/pulumi-kubernetes
 * provider/pkg/metadata/overrides.go, ReadyCondition), "simultaneously satisfied"
 * (provider/pkg/await/condition/all.go). A `jsonpath={.path}=value` expression holds when the
 * path's first result, printed, equals the value (provider/pkg/jsonpath/jsonpath.go: RFC 9535
 * JSONPath through github.com/theory/jsonpath, so `.*` selects an object's member values).
 */
export const WAIT_FOR_ANNOTATION = "pulumi.com/waitFor";

/**
 * Ceph reports HEALTH_OK (CephCluster `status.ceph.health`: Rook copies `ceph status`'s
 * `health.status` there, rook v1.20.6 pkg/operator/ceph/cluster/cephstatus.go,
 * toCustomResourceStatus). Only the AES cephx warnings are muted (rules.ts), so any other check
 * keeps it from passing: an OSD that is down while in raises OSD_DOWN, and one that is out leaves
 * the PGs of a 3-replica pool (failure domain host, one OSD a host) undersized, PG_DEGRADED
 * (https://docs.ceph.com/en/latest/rados/operations/health-checks/: OSD_DOWN, PG_DEGRADED).
 */
export const CLUSTER_HEALTHY = "jsonpath={.status.ceph.health}=HEALTH_OK";

/**
 * `osdCount` OSDs are up: `status.ceph.versions.osd` maps each Ceph version to its number of OSD
 * daemons (rook v1.20.6 pkg/apis/ceph.rook.io/v1/types.go CephDaemonsVersions, filled from
 * `ceph versions` by cephstatus.go updateCephStatus), and Ceph counts only OSDs that are up there
 * (ceph/ceph src/mon/OSDMonitor.cc count_metadata: `if (osdmap.is_up(osd))`). One pinned image
 * gives one version key; `.*` takes its count without naming the version string. An OSD whose disk
 * was never found has no daemon at all, which health alone would not notice.
 */
export function osdsUp(osdCount: number): string {
  return `jsonpath={.status.ceph.versions.osd.*}=${osdCount}`;
}

/** The CephCluster's wait, every condition at once: healthy, and every OSD up. */
export function clusterReadyConditions(osdCount: number): string[] {
  return [CLUSTER_HEALTHY, osdsUp(osdCount)];
}

export const POOL_READY = "jsonpath={.status.phase}=Ready";

/** Values of the `rook-ceph` operator chart: the chart's CSI operator on, nothing else changed. */
export function rookOperatorValues(): Record<string, unknown> {
  return { csi: { installCsiOperator: true }, enableDiscoveryDaemon: false, monitoring: { enabled: false } };
}

/**
 * Values of the `ceph-csi-drivers` chart: Rook's recommended values (deploy/charts/ceph-csi-drivers/
 * values.yaml at v1.20.6) with k0s' kubelet directory for the node plugin (since Rook v1.20 this is
 * `operatorConfig.driverSpecDefaults.nodePlugin.kubeletDirPath`; the operator chart's former
 * `csi.kubeletDirPath` is gone) and only the RBD driver (no CephFS, NFS or NVMe-oF here).
 */
export function cephCsiDriversValues(): Record<string, unknown> {
  return {
    operatorConfig: {
      namespace: ROOK_NAMESPACE,
      driverSpecDefaults: {
        imageSet: { name: "rook-csi-operator-image-set-configmap" },
        nodePlugin: { priorityClassName: "system-node-critical", kubeletDirPath: K0S_KUBELET_DIR },
        controllerPlugin: { priorityClassName: "system-cluster-critical" },
      },
    },
    drivers: {
      rbd: { enabled: true, name: RBD_PROVISIONER },
      cephfs: { enabled: false, name: `${ROOK_NAMESPACE}.cephfs.csi.ceph.com` },
      nfs: { enabled: false, name: `${ROOK_NAMESPACE}.nfs.csi.ceph.com` },
      nvmeof: { enabled: false, name: `${ROOK_NAMESPACE}.nvmeof.csi.ceph.com` },
    },
  };
}

/**
 * The CephCluster: the monitors and managers of `args` (one a node), every node, only the data
 * volume (device path filter), on the pod network as published (Ceph traffic and the RBD kernel
 * client's through the CNI), or on the host network with `hostNetwork` (node addresses on Ceph's
 * own ports, no CNI in the data path); the daemons' requests and limits of `args.resources`; CSI
 * CephX keys of type `aes` (required while the nodes run a Linux kernel older than 7.0, as Ubuntu
 * 24.04 does: deploy/examples/cluster.yaml) and their four permanent warnings muted
 * (`healthCheck.muteHealthWarning`, each `{policy: mute}`: ceph-cluster-crd.md "Health settings"),
 * Ceph's nearfull ratio set explicitly (`storage.nearFullRatio`) so the capacity rule (rules.ts)
 * and the cluster use the same number. Pulumi waits for {@link clusterReadyConditions}.
 */
export function cephClusterManifest(args: RookArgs): Record<string, unknown> {
  const o = resolve(args);
  return {
    apiVersion: "ceph.rook.io/v1",
    kind: "CephCluster",
    metadata: {
      name: CEPH_CLUSTER_NAME,
      namespace: ROOK_NAMESPACE,
      annotations: { [WAIT_FOR_ANNOTATION]: JSON.stringify(clusterReadyConditions(o.osdCount)) },
    },
    spec: {
      cephVersion: { image: o.cephImage, allowUnsupported: false },
      security: { cephx: { csi: { keyType: "aes" } } },
      dataDirHostPath: "/var/lib/rook",
      mon: { count: o.monCount, allowMultiplePerNode: false },
      mgr: { count: o.mgrCount, allowMultiplePerNode: false },
      dashboard: { enabled: false },
      // No `provider`: "If not specified, the default SDN will be used" (ceph-cluster-crd.md
      // "Network Configuration Settings"), the published setup's choice.
      ...(o.hostNetwork ? { network: { provider: "host" } } : {}),
      crashCollector: { disable: false },
      healthCheck: { muteHealthWarning: Object.fromEntries(o.muteHealthWarnings.map((code) => [code, { policy: "mute" }])) },
      storage: { useAllNodes: true, useAllDevices: false, devicePathFilter: OSD_DEVICE_PATH_FILTER, nearFullRatio: o.nearfullRatio },
      resources: o.resources,
      priorityClassNames: { mon: "system-node-critical", osd: "system-node-critical", mgr: "system-cluster-critical" },
      ...mgrPlacement(o.mgrAvoidNodeLabels),
      disruptionManagement: { managePodBudgets: true },
    },
  };
}

/** The managers' node affinity: never on a node carrying any of `avoid` (`NotIn` each), none when empty. */
function mgrPlacement(avoid: Readonly<Record<string, string>>): Record<string, unknown> {
  const expressions = Object.entries(avoid).map(([key, value]) => ({ key, operator: "NotIn", values: [value] }));
  if (expressions.length === 0) return {};
  return {
    placement: {
      mgr: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: expressions }] } } },
    },
  };
}

/** The RBD pool: `replicas` copies on as many different hosts. Pulumi waits for phase Ready. */
export function cephBlockPoolManifest(replicas: number): Record<string, unknown> {
  return {
    apiVersion: "ceph.rook.io/v1",
    kind: "CephBlockPool",
    metadata: { name: BLOCK_POOL_NAME, namespace: ROOK_NAMESPACE, annotations: { [WAIT_FOR_ANNOTATION]: POOL_READY } },
    spec: { failureDomain: "host", replicated: { size: replicas, requireSafeReplicaSize: true } },
  };
}

/** The `rook-ceph-block` StorageClass, parameters as deploy/examples/csi/rbd/storageclass.yaml. */
export function storageClassManifest(): Record<string, unknown> {
  const secret = (role: "provisioner" | "node") => `rook-csi-rbd-${role}`;
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: STORAGE_CLASS_NAME },
    provisioner: RBD_PROVISIONER,
    parameters: {
      clusterID: ROOK_NAMESPACE,
      pool: BLOCK_POOL_NAME,
      imageFormat: "2",
      imageFeatures: "layering",
      "csi.storage.k8s.io/provisioner-secret-name": secret("provisioner"),
      "csi.storage.k8s.io/provisioner-secret-namespace": ROOK_NAMESPACE,
      "csi.storage.k8s.io/controller-expand-secret-name": secret("provisioner"),
      "csi.storage.k8s.io/controller-expand-secret-namespace": ROOK_NAMESPACE,
      "csi.storage.k8s.io/controller-publish-secret-name": secret("provisioner"),
      "csi.storage.k8s.io/controller-publish-secret-namespace": ROOK_NAMESPACE,
      "csi.storage.k8s.io/node-stage-secret-name": secret("node"),
      "csi.storage.k8s.io/node-stage-secret-namespace": ROOK_NAMESPACE,
      "csi.storage.k8s.io/fstype": "ext4",
    },
    reclaimPolicy: "Delete",
    allowVolumeExpansion: true,
    volumeBindingMode: "Immediate",
  };
}
