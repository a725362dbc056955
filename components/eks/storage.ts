/**
 * The EBS gp3 StorageClass the FSx experiment's baseline runs on (pure manifest; the EBS CSI driver
 * is the EKS add-on `aws-ebs-csi-driver` of index.ts).
 *
 * Parameters (kubernetes-sigs/aws-ebs-csi-driver docs/parameters.md, commit 429e202e): `type: gp3`,
 * `encrypted: "true"`, `csi.storage.k8s.io/fstype: ext4`; no `iops`/`throughput`, so the volume gets
 * gp3's baseline (3000 IOPS, 125 MiB/s "If empty, it will set to 125MiB/s") at any size: the
 * baseline a storage comparison states. Provisioner `ebs.csi.aws.com` (deploy/kubernetes/base/
 * csidriver.yaml). `WaitForFirstConsumer`: an EBS volume lives in one zone, so it is created in
 * the zone of the pod that first uses it (the benchmark's zone).
 */
import type { IStorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";

export const GP3_STORAGE_CLASS = "gp3";
export const EBS_CSI_PROVISIONER = "ebs.csi.aws.com";

export function gp3StorageClassManifest(): IStorageClass {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: GP3_STORAGE_CLASS, labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
    provisioner: EBS_CSI_PROVISIONER,
    parameters: { type: "gp3", encrypted: "true", "csi.storage.k8s.io/fstype": "ext4" },
    reclaimPolicy: "Delete",
    allowVolumeExpansion: true,
    volumeBindingMode: "WaitForFirstConsumer",
  };
}
