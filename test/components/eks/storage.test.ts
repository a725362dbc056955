/** The gp3 baseline StorageClass against the Kubernetes schema and the EBS CSI driver's parameters. */
import { StorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import { EBS_CSI_PROVISIONER, GP3_STORAGE_CLASS, gp3StorageClassManifest } from "../../../components/eks/storage";

describe("gp3 StorageClass", () => {
  const sc = gp3StorageClassManifest();

  test("validates against the Kubernetes OpenAPI schema, and the check can fail", () => {
    expect(() => new StorageClass(sc).validate()).not.toThrow();
    expect(() => new StorageClass({ ...sc, allowVolumeExpansion: "yes" as never }).validate()).toThrow(/allowVolumeExpansion/);
  });

  test("encrypted gp3, ext4, gp3's baseline (no iops/throughput), bound where the pod runs", () => {
    expect(sc).toEqual({
      apiVersion: "storage.k8s.io/v1",
      kind: "StorageClass",
      metadata: { name: "gp3", labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
      provisioner: "ebs.csi.aws.com",
      parameters: { type: "gp3", encrypted: "true", "csi.storage.k8s.io/fstype": "ext4" },
      reclaimPolicy: "Delete",
      allowVolumeExpansion: true,
      volumeBindingMode: "WaitForFirstConsumer",
    });
    expect([GP3_STORAGE_CLASS, EBS_CSI_PROVISIONER]).toEqual(["gp3", "ebs.csi.aws.com"]);
  });
});
