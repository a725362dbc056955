/**
 * The brokers' storage (pure): every broker mounts every FSx for ONTAP data volume over NFS, each at
 * its own subdirectory, through one static PersistentVolume per broker per volume, pre-bound to a
 * PersistentVolumeClaim with the name Strimzi gives a JBOD claim, so Strimzi adopts it instead of
 * provisioning one. And the storage toolbox that creates those subdirectories.
 *
 * Why static volumes, not Trident: the published layout is six shared volumes that every broker
 * mounts (`nfs defaults,nconnect=16`, a per-broker subdirectory on each in `log.dirs`); a provisioner
 * such as Trident creates one volume per claim (ontap-nas: one FlexVol per PVC), i.e. eighteen small
 * volumes, not six shared ones.
 *
 * Sources:
 * - Claim names: `data-<volumeId>-<cluster>-<pool>-<podId>` for JBOD volumes
 *   (cluster-operator/src/main/java/io/strimzi/operator/cluster/model/PersistentVolumeClaimUtils.java:
 *   `namePrefix + "-" + node.podName()` with VolumeUtils.createVolumePrefix `"data-" + id`; pod names
 *   `<cluster>-<pool>-<nodeId>`, KafkaResources.kafkaPodName), Strimzi 1.2.0; and "pre-create PVCs named
 *   data-<volumeId>-<cluster>-<pool>-<podId> bound to your PVs and Strimzi reuses them" (strimzi#1931, facts file).
 * - Strimzi's reconciliation of an existing, Bound claim keeps its `volumeName`, `storageClassName`,
 *   `accessModes`, `selector` (PvcOperator.revertImmutableChanges) and patches only a changed size
 *   (PvcReconciler.resizeAndReconcilePvcs): the claims request exactly the pool's `size`, in the unit
 *   the API server writes back (`gibQuantity`), and carry the labels and the `strimzi.io/delete-claim`
 *   annotation Strimzi gives its claims (KafkaPool: Labels.fromResource(pool) with strimzi.io/kind,
 *   name, cluster, component-type, pool-name and app.kubernetes.io/name, instance, part-of, managed-by),
 *   so Strimzi's patch changes nothing.
 * - PersistentVolume (Kubernetes docs, "Persistent Volumes"): `persistentVolumeReclaimPolicy: Retain`
 *   ("the PersistentVolume still exists and the volume is considered released … the data on the volume
 *   remains"); pre-binding: a PV's `claimRef` reserves it for one claim, a claim's `volumeName` names
 *   its PV ("Reserving a PersistentVolume"); `mountOptions` are passed to the mount ("Mount Options":
 *   NFS among the volume types that support them); `nfs.server`, `nfs.path`.
 * - StorageClass `kubernetes.io/no-provisioner` (Kubernetes docs, "Storage Classes" → "Local": "Local
 *   volumes do not support dynamic provisioning"): a class that only names the static volumes.
 */
import type { IPersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IStorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import { gibQuantity, NFS_MOUNT_OPTIONS, ResolvedKafka } from "./rules";

/** The StorageClass the static broker volumes and their claims name (no provisioner). */
export const STATIC_STORAGE_CLASS = "kafka-fsx-nfs-static";
/** Strimzi's annotation on its claims, and the value of a pool volume with `deleteClaim: false`. */
export const DELETE_CLAIM_ANNOTATION = { "strimzi.io/delete-claim": "false" } as const;
/** Labels the lab puts on the PersistentVolumes (to list them: `kubectl get pv -l storage-bench-lab/kafka-cluster=<cluster>`). */
export const PV_CLUSTER_LABEL = "storage-bench-lab/kafka-cluster";

/** A broker's pod name, also its subdirectory on every data volume. */
export function brokerPodName(r: Pick<ResolvedKafka, "clusterName" | "brokerPool">, nodeId: number): string {
  return `${r.clusterName}-${r.brokerPool}-${nodeId}`;
}

/** The claim Strimzi looks for: `data-<volumeId>-<cluster>-<pool>-<podId>`. */
export function dataClaimName(volumeId: number, cluster: string, pool: string, podId: number): string {
  return `data-${volumeId}-${cluster}-${pool}-${podId}`;
}

/** One broker's mount of one data volume. */
export interface BrokerVolume {
  readonly brokerId: number;
  /** JBOD volume id (the data volume's index). */
  readonly volumeId: number;
  readonly junctionPath: string;
  /** The broker's subdirectory on the volume (its pod name). */
  readonly subdirectory: string;
  /** `<junctionPath>/<subdirectory>`: the PV's NFS path. */
  readonly nfsPath: string;
  readonly claimName: string;
  /** The PV's name: `<namespace>-<claimName>` (PVs are cluster-wide). */
  readonly volumeName: string;
}

/** Every broker's mount of every data volume, broker by broker, volume by volume. */
export function brokerVolumes(r: ResolvedKafka): BrokerVolume[] {
  return r.brokerIds.flatMap((brokerId) =>
    r.dataVolumes.map((junctionPath, volumeId) => {
      const subdirectory = brokerPodName(r, brokerId);
      const claimName = dataClaimName(volumeId, r.clusterName, r.brokerPool, brokerId);
      return {
        brokerId,
        volumeId,
        junctionPath,
        subdirectory,
        nfsPath: `${junctionPath}/${subdirectory}`,
        claimName,
        volumeName: `${r.namespace}-${claimName}`,
      };
    }),
  );
}

/** The labels Strimzi 1.2.0 gives a claim of a pool (the pool itself is labelled `strimzi.io/cluster` only). */
export function strimziClaimLabels(cluster: string, pool: string): Record<string, string> {
  return {
    "strimzi.io/cluster": cluster,
    "strimzi.io/kind": "Kafka",
    "strimzi.io/name": `${cluster}-kafka`,
    "strimzi.io/component-type": "kafka",
    "strimzi.io/pool-name": pool,
    "app.kubernetes.io/name": "kafka",
    "app.kubernetes.io/instance": cluster,
    "app.kubernetes.io/part-of": `strimzi-${cluster}`,
    "app.kubernetes.io/managed-by": "strimzi-cluster-operator",
  };
}

export function staticStorageClassManifest(): IStorageClass {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: STATIC_STORAGE_CLASS, labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
    provisioner: "kubernetes.io/no-provisioner",
    reclaimPolicy: "Retain",
    volumeBindingMode: "Immediate",
    allowVolumeExpansion: false,
  };
}

/**
 * A static NFS PersistentVolume's spec: `path` on `server` with the brokers' mount options, retained,
 * of the static class, reserved for the claim `claim` in `namespace`.
 */
function staticNfsSpec(r: ResolvedKafka, server: string, path: string, namespace: string, claim: string): IPersistentVolume["spec"] {
  return {
    capacity: { storage: gibQuantity(r.brokerVolumeGiB) },
    accessModes: ["ReadWriteOnce"],
    volumeMode: "Filesystem",
    persistentVolumeReclaimPolicy: "Retain",
    storageClassName: STATIC_STORAGE_CLASS,
    mountOptions: [...NFS_MOUNT_OPTIONS],
    nfs: { server, path },
    claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace, name: claim },
  };
}

/** The static PV of one broker's mount of one data volume; `server` is the SVM's NFS endpoint. */
export function dataVolumeManifest(r: ResolvedKafka, v: BrokerVolume, server: string): IPersistentVolume {
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: {
      name: v.volumeName,
      labels: {
        [PV_CLUSTER_LABEL]: r.clusterName,
        "storage-bench-lab/kafka-broker": String(v.brokerId),
        "storage-bench-lab/kafka-volume": String(v.volumeId),
      },
    },
    spec: staticNfsSpec(r, server, v.nfsPath, r.namespace, v.claimName),
  };
}

/** The claim Strimzi adopts for broker `v.brokerId`'s JBOD volume `v.volumeId`, bound to its PV. */
export function dataClaimManifest(r: ResolvedKafka, v: BrokerVolume): IPersistentVolumeClaim {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name: v.claimName,
      namespace: r.namespace,
      labels: strimziClaimLabels(r.clusterName, r.brokerPool),
      annotations: { ...DELETE_CLAIM_ANNOTATION },
    },
    spec: {
      accessModes: ["ReadWriteOnce"],
      volumeMode: "Filesystem",
      resources: { requests: { storage: gibQuantity(r.brokerVolumeGiB) } },
      storageClassName: STATIC_STORAGE_CLASS,
      volumeName: v.volumeName,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The volume roots, for the prepare Job only

/** The claim of data volume `i`'s root in the storage namespace. */
export function volumeRootClaimName(i: number): string {
  return `volume-root-${i}`;
}

/** The PV of data volume `i`'s root (PVs are cluster-wide: prefixed with the storage namespace). */
export function volumeRootVolumeName(storageNamespace: string, i: number): string {
  return `${storageNamespace}-${volumeRootClaimName(i)}`;
}

/**
 * The static PV of data volume `i`'s root (`junctionPath`), reserved for the prepare Job's claim in
 * `storageNamespace`: a plain `nfs` volume (mounted by the kubelet, like the brokers'), so the Job
 * needs no CSI driver and no inline volume. Retained: deleting it leaves the volume untouched.
 */
export function volumeRootManifest(r: ResolvedKafka, storageNamespace: string, i: number, server: string): IPersistentVolume {
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: {
      name: volumeRootVolumeName(storageNamespace, i),
      labels: { [PV_CLUSTER_LABEL]: r.clusterName, "storage-bench-lab/kafka-volume-root": String(i) },
    },
    spec: staticNfsSpec(r, server, r.dataVolumes[i], storageNamespace, volumeRootClaimName(i)),
  };
}

export function volumeRootClaimManifest(r: ResolvedKafka, storageNamespace: string, i: number): IPersistentVolumeClaim {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: volumeRootClaimName(i), namespace: storageNamespace },
    spec: {
      accessModes: ["ReadWriteOnce"],
      volumeMode: "Filesystem",
      resources: { requests: { storage: gibQuantity(r.brokerVolumeGiB) } },
      storageClassName: STATIC_STORAGE_CLASS,
      volumeName: volumeRootVolumeName(storageNamespace, i),
    },
  };
}
