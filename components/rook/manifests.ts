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
import { CEPH_IMAGE } from "../versions";

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

/** Pulumi's Kubernetes provider waits until this JSONPath holds (pulumi.com/waitFor, @pulumi/kubernetes ≥ 4.18). */
export const WAIT_FOR_ANNOTATION = "pulumi.com/waitFor";
export const CLUSTER_HEALTHY = "jsonpath={.status.ceph.health}=HEALTH_OK";
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

/** CPU and memory of one Ceph daemon, Kubernetes quantities. */
export interface DaemonResources {
  readonly requests: { readonly cpu: string; readonly memory: string };
  readonly limits: { readonly memory: string };
}

/** Per-daemon resources sized for 4 vCPU / 16 GiB nodes (m4.xlarge, m5.xlarge) that also run Postgres (1 CPU / 4 GiB). */
export const CEPH_RESOURCES: Readonly<Record<"mon" | "mgr" | "osd", DaemonResources>> = {
  mon: { requests: { cpu: "500m", memory: "1Gi" }, limits: { memory: "2Gi" } },
  mgr: { requests: { cpu: "250m", memory: "512Mi" }, limits: { memory: "1Gi" } },
  // Rook derives osd_memory_target from the limit; 4 GiB is Ceph's default target.
  osd: { requests: { cpu: "1", memory: "4Gi" }, limits: { memory: "4Gi" } },
};

export interface CephClusterOptions {
  /** Ceph image. @default CEPH_IMAGE of components/versions.ts */
  readonly cephImage?: string;
  /** Monitors (odd, one a node). @default 3 */
  readonly monCount?: number;
  /** Managers (active + standby). @default 2 */
  readonly mgrCount?: number;
}

/**
 * The CephCluster: 3 mons, 2 mgrs, every node, only the data volume (device path filter), on the
 * host network (Ceph traffic between node addresses on Ceph's own ports, the RBD kernel client
 * talks to OSDs without the CNI in the data path), CSI CephX keys of type `aes` (required while
 * the nodes run a Linux kernel older than 7.0, as Ubuntu 24.04 does: deploy/examples/cluster.yaml).
 * Pulumi waits for HEALTH_OK.
 */
export function cephClusterManifest(o: CephClusterOptions = {}): Record<string, unknown> {
  return {
    apiVersion: "ceph.rook.io/v1",
    kind: "CephCluster",
    metadata: { name: CEPH_CLUSTER_NAME, namespace: ROOK_NAMESPACE, annotations: { [WAIT_FOR_ANNOTATION]: CLUSTER_HEALTHY } },
    spec: {
      cephVersion: { image: o.cephImage ?? CEPH_IMAGE, allowUnsupported: false },
      security: { cephx: { csi: { keyType: "aes" } } },
      dataDirHostPath: "/var/lib/rook",
      mon: { count: o.monCount ?? 3, allowMultiplePerNode: false },
      mgr: { count: o.mgrCount ?? 2, allowMultiplePerNode: false },
      dashboard: { enabled: false },
      network: { provider: "host" },
      crashCollector: { disable: false },
      storage: { useAllNodes: true, useAllDevices: false, devicePathFilter: OSD_DEVICE_PATH_FILTER },
      resources: CEPH_RESOURCES,
      priorityClassNames: { mon: "system-node-critical", osd: "system-node-critical", mgr: "system-cluster-critical" },
      disruptionManagement: { managePodBudgets: true },
    },
  };
}

/** The RBD pool: 3 replicas on 3 different hosts. Pulumi waits for phase Ready. */
export function cephBlockPoolManifest(replicas = 3): Record<string, unknown> {
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
