/**
 * The brokers' static NFS storage (components/kafka/storage.ts): the claim names Strimzi looks for,
 * every broker on every volume at its own subdirectory, NFSv4.1 + nconnect=16, Retain, pre-binding
 * both ways; valid Kubernetes objects.
 */
import { PersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { StorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import { resolve } from "../../../components/kafka/rules";
import {
  brokerPodName,
  brokerVolumes,
  dataClaimManifest,
  dataClaimName,
  dataVolumeManifest,
  STATIC_STORAGE_CLASS,
  staticStorageClassManifest,
  strimziClaimLabels,
} from "../../../components/kafka/storage";

const VOLUMES = ["/kafkafsxN1", "/kafkafsxN2", "/kafkafsxN3", "/kafkafsxN4", "/kafkafsxN5", "/kafkafsxN6"];
const r = resolve({ dataVolumes: VOLUMES });
const SERVER = "svm-0123456789abcdef0.fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com";

describe("broker volumes", () => {
  test("Strimzi's JBOD claim names: data-<volumeId>-<cluster>-<pool>-<podId>; pods <cluster>-<pool>-<id>", () => {
    expect(dataClaimName(5, "kafka", "brokers", 2)).toBe("data-5-kafka-brokers-2");
    expect(brokerPodName(r, 1)).toBe("kafka-brokers-1");
  });

  test("3 brokers × 6 volumes = 18 mounts, each broker's subdirectory on each volume", () => {
    const v = brokerVolumes(r);
    expect(v).toHaveLength(18);
    expect(v.map((x) => [x.claimName, x.volumeName, x.nfsPath])).toEqual(
      [0, 1, 2].flatMap((b) =>
        [0, 1, 2, 3, 4, 5].map((i) => [
          `data-${i}-kafka-brokers-${b}`,
          `kafka-data-${i}-kafka-brokers-${b}`,
          `/kafkafsxN${i + 1}/kafka-brokers-${b}`,
        ]),
      ),
    );
    expect(new Set(v.map((x) => x.nfsPath)).size).toBe(18);
  });

  test("a PV: NFSv4.1 with nconnect=16 on the SVM's endpoint, Retain, reserved for its claim; exact", () => {
    const [first] = brokerVolumes(r);
    const pv = dataVolumeManifest(r, first, SERVER);
    expect(pv).toEqual({
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: {
        name: "kafka-data-0-kafka-brokers-0",
        labels: {
          "storage-bench-lab/kafka-cluster": "kafka",
          "storage-bench-lab/kafka-broker": "0",
          "storage-bench-lab/kafka-volume": "0",
        },
      },
      spec: {
        capacity: { storage: "2Ti" },
        accessModes: ["ReadWriteOnce"],
        volumeMode: "Filesystem",
        persistentVolumeReclaimPolicy: "Retain",
        storageClassName: "kafka-fsx-nfs-static",
        mountOptions: ["nfsvers=4.1", "nconnect=16"],
        nfs: { server: SERVER, path: "/kafkafsxN1/kafka-brokers-0" },
        claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: "kafka", name: "data-0-kafka-brokers-0" },
      },
    });
    expect(() => new PersistentVolume(pv).validate()).not.toThrow();
  });

  test("its claim: Strimzi's name, labels and delete-claim annotation, the pool's size, bound to the PV; exact", () => {
    const v = brokerVolumes(r)[7]; // broker 1, volume 1
    const pvc = dataClaimManifest(r, v);
    expect(pvc).toEqual({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: {
        name: "data-1-kafka-brokers-1",
        namespace: "kafka",
        labels: {
          "strimzi.io/cluster": "kafka",
          "strimzi.io/kind": "Kafka",
          "strimzi.io/name": "kafka-kafka",
          "strimzi.io/component-type": "kafka",
          "strimzi.io/pool-name": "brokers",
          "app.kubernetes.io/name": "kafka",
          "app.kubernetes.io/instance": "kafka",
          "app.kubernetes.io/part-of": "strimzi-kafka",
          "app.kubernetes.io/managed-by": "strimzi-cluster-operator",
        },
        annotations: { "strimzi.io/delete-claim": "false" },
      },
      spec: {
        accessModes: ["ReadWriteOnce"],
        volumeMode: "Filesystem",
        resources: { requests: { storage: "2Ti" } },
        storageClassName: "kafka-fsx-nfs-static",
        volumeName: "kafka-data-1-kafka-brokers-1",
      },
    });
    expect(() => new PersistentVolumeClaim(pvc).validate()).not.toThrow();
    expect(strimziClaimLabels("kafka", "brokers")).toEqual(pvc.metadata!.labels);
  });

  test("every PV and its claim point at each other, in one StorageClass, every mount with the same options", () => {
    for (const v of brokerVolumes(r)) {
      const pv = dataVolumeManifest(r, v, SERVER);
      const pvc = dataClaimManifest(r, v);
      expect(pv.spec!.claimRef).toMatchObject({ namespace: pvc.metadata!.namespace, name: pvc.metadata!.name });
      expect(pvc.spec!.volumeName).toBe(pv.metadata!.name);
      expect([pv.spec!.storageClassName, pvc.spec!.storageClassName]).toEqual([STATIC_STORAGE_CLASS, STATIC_STORAGE_CLASS]);
      expect(pv.spec!.mountOptions).toEqual(["nfsvers=4.1", "nconnect=16"]);
      expect(pv.spec!.capacity).toEqual(pvc.spec!.resources!.requests);
    }
  });

  test("the StorageClass only names them: no provisioner, Retain, no expansion", () => {
    const sc = staticStorageClassManifest();
    expect(sc).toEqual({
      apiVersion: "storage.k8s.io/v1",
      kind: "StorageClass",
      metadata: { name: "kafka-fsx-nfs-static", labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
      provisioner: "kubernetes.io/no-provisioner",
      reclaimPolicy: "Retain",
      volumeBindingMode: "Immediate",
      allowVolumeExpansion: false,
    });
    expect(() => new StorageClass(sc).validate()).not.toThrow();
  });

  test("sizes not a whole TiB are written in GiB", () => {
    const q = resolve({ dataVolumes: ["/a"], brokers: 1, brokerVolumeGiB: 1500 });
    expect(dataClaimManifest(q, brokerVolumes(q)[0]).spec!.resources!.requests).toEqual({ storage: "1500Gi" });
  });
});
