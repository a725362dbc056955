/**
 * A cluster's objects as the manifest's reads return them (lab/utilization/manifest.ts
 * `listClusterAsReader`: its four lists' items with their kinds, in one `List`): the fsx-eks baseline's gp3 PV (the EBS CSI driver's, its StorageClass the
 * real one components/eks/storage.ts renders) attached to an m5.xlarge node, a Trident PV, and a
 * second node.
 */
import { gp3StorageClassManifest } from "../../../components/eks/storage";

export const PV_NAME = "pvc-4b1c2d3e-0000-4000-8000-0123456789ab";
export const NODE = "ip-10-0-1-23.ec2.internal";

/** A cluster with the fsx-eks baseline's gp3 PV attached to an m5.xlarge node, and a second node. */
export const CLUSTER = {
  apiVersion: "v1",
  kind: "List",
  metadata: { resourceVersion: "" },
  items: [
    {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: PV_NAME, annotations: { "pv.kubernetes.io/provisioned-by": "ebs.csi.aws.com" } },
      spec: {
        accessModes: ["ReadWriteOnce"],
        capacity: { storage: "100Gi" },
        claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", name: "fio-gp3", namespace: "bench" },
        csi: {
          driver: "ebs.csi.aws.com",
          fsType: "ext4",
          volumeAttributes: { "storage.kubernetes.io/csiProvisionerIdentity": "1767225600000-9473-ebs.csi.aws.com" },
          volumeHandle: "vol-0a1b2c3d4e5f60718",
        },
        persistentVolumeReclaimPolicy: "Delete",
        storageClassName: "gp3",
        volumeMode: "Filesystem",
      },
      status: { phase: "Bound" },
    },
    {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: "pvc-trident-1" },
      spec: { csi: { driver: "csi.trident.netapp.io", volumeHandle: "pvc-trident-1" }, storageClassName: "ontap-nas" },
    },
    gp3StorageClassManifest(),
    {
      apiVersion: "storage.k8s.io/v1",
      kind: "VolumeAttachment",
      metadata: { name: "csi-0f9e8d7c6b5a" },
      spec: { attacher: "ebs.csi.aws.com", nodeName: NODE, source: { persistentVolumeName: PV_NAME } },
      status: { attached: true },
    },
    {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: NODE, labels: { "node.kubernetes.io/instance-type": "m5.xlarge", "topology.kubernetes.io/zone": "us-east-1a" } },
      spec: { providerID: "aws:///us-east-1a/i-0123456789abcdef0" },
    },
    {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: "ip-10-0-2-7.ec2.internal", labels: { "node.kubernetes.io/instance-type": "m5.xlarge" } },
      spec: { providerID: "aws:///us-east-1b/i-0fedcba9876543210" },
    },
  ],
};
