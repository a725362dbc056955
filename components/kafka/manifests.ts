/**
 * The Kafka cluster's objects (pure): Strimzi's `Kafka` and its two `KafkaNodePool`s
 * (`kafka.strimzi.io/v1`, the only version Strimzi 1.x serves), and the storage toolbox that prepares
 * the brokers' directories on the data volumes.
 *
 * Strimzi 1.2.0 shapes (CRDs in ../shared/schemas/crds/kafka.strimzi.io; packaging/examples/kafka/
 * kafka-persistent.yaml): `Kafka.spec.kafka` with `version`, `metadataVersion`, `listeners` (`name`,
 * `port`, `type: internal`, `tls`), `config`, `rack.topologyKey`; `KafkaNodePool` labelled
 * `strimzi.io/cluster`, `spec.roles` (`controller` / `broker`), `spec.replicas`, `spec.storage`
 * (`type: jbod`, `volumes[]` of `id`, `type: persistent-claim`, `size`, `class`, `deleteClaim`,
 * `kraftMetadata: shared`), `spec.resources`, `spec.jvmOptions` (`-Xms`/`-Xmx`), `spec.template.pod`
 * (`affinity`, `tolerations`). The plain listener on 9092 is the bootstrap service
 * `<cluster>-kafka-bootstrap:9092` (KafkaResources.plainBootstrapAddress).
 *
 * The Kafka resource carries `pulumi.com/skipAwait: "true"` (pulumi-kubernetes pkg/await: the
 * annotation skips the provider's await, pulumi/pulumi-kubernetes#417): the component awaits it
 * itself with components/bench/scripts/collect-job.sh (KAFKA_NAME), which reports the broker pods'
 * FailedMount events while it waits and stops at once on a mount the NFS server refused, with
 * ontap.ts `kafkaMountFix` — where the provider's `pulumi.com/waitFor: condition=Ready` would wait out
 * its 30 minutes in silence. Nothing that depends on the await (the benchmark) starts before
 * Strimzi reports the cluster Ready for its current spec.
 */
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { INamespace } from "kubernetes-models/v1/Namespace";
import type { IJob } from "kubernetes-models/batch/v1/Job";
import { nodeGroupAffinity, nodeGroupToleration } from "../eks/placement";
import { podSecurityNamespaceManifest } from "../strimzi/manifests";
import { KAFKA_METADATA_VERSION, STRIMZI_KAFKA_IMAGE } from "../versions";
import { listenerPeers } from "./network";
import { brokerPodName, STATIC_STORAGE_CLASS, volumeRootClaimName } from "./storage";
import { gibQuantity, KAFKA_GID, KAFKA_UID, RACK_TOPOLOGY_KEY, ResolvedKafka, Resources } from "./rules";

export const KAFKA_API_VERSION = "kafka.strimzi.io/v1";
/** The plain (no TLS) listener's port. */
export const PLAIN_LISTENER_PORT = 9092;
/** How long `pulumi up` waits for the Kafka resource to become Ready, seconds. */
export const KAFKA_READY_TIMEOUT_SECONDS = 1800;
/** Seconds between two looks at the Kafka's conditions and its pods' FailedMount events. */
export const KAFKA_AWAIT_POLL_SECONDS = 15;

/** The annotation Strimzi reads a new pool's node IDs from. */
export const NEXT_NODE_IDS_ANNOTATION = "strimzi.io/next-node-ids";

/** The plain bootstrap address of the cluster, for clients in any namespace. */
export function bootstrapServers(r: Pick<ResolvedKafka, "clusterName" | "namespace">): string {
  return `${r.clusterName}-kafka-bootstrap.${r.namespace}.svc.cluster.local:${PLAIN_LISTENER_PORT}`;
}

/** A custom resource as the lab renders it. */
export interface CustomResourceManifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name: string; namespace: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  readonly spec: Record<string, unknown>;
}

/** `clientNamespace`: the only namespace whose pods the plain listener admits (network.ts). */
export function kafkaManifest(r: ResolvedKafka, clientNamespace: string): CustomResourceManifest {
  return {
    apiVersion: KAFKA_API_VERSION,
    kind: "Kafka",
    metadata: {
      name: r.clusterName,
      namespace: r.namespace,
      annotations: { "pulumi.com/skipAwait": "true" },
    },
    spec: {
      kafka: {
        version: r.kafkaVersion,
        metadataVersion: KAFKA_METADATA_VERSION,
        listeners: [
          { name: "plain", port: PLAIN_LISTENER_PORT, type: "internal", tls: false, networkPolicyPeers: listenerPeers(clientNamespace) },
        ],
        config: { ...r.config },
        rack: { topologyKey: RACK_TOPOLOGY_KEY },
      },
    },
  };
}

/** `[first-last]`, Strimzi's node ID range syntax. */
function idRange(ids: readonly number[]): string {
  return `[${ids[0]}-${ids[ids.length - 1]}]`;
}

function jvm(heapGiB: number): Record<string, string> {
  return { "-Xms": `${heapGiB}g`, "-Xmx": `${heapGiB}g` };
}

function resources(r: Resources): Resources {
  return { requests: { ...r.requests }, limits: { ...r.limits } };
}

/** A pool's pod template: on its node group (in `zone` only, when given), tolerating its taint, one pod a node. */
function podTemplate(
  r: ResolvedKafka,
  pool: string,
  group: string,
  spread: "required" | "preferred",
  zone?: string,
): Record<string, unknown> {
  const term = {
    labelSelector: { matchLabels: { "strimzi.io/cluster": r.clusterName, "strimzi.io/pool-name": pool } },
    topologyKey: "kubernetes.io/hostname",
  };
  return {
    pod: {
      affinity: {
        ...nodeGroupAffinity(group, zone),
        podAntiAffinity:
          spread === "required"
            ? { requiredDuringSchedulingIgnoredDuringExecution: [term] }
            : { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }] },
      },
      tolerations: [nodeGroupToleration(group)],
    },
  };
}

/** The controllers: their own small pool on gp3 (KRaft metadata), on {controllerNodeGroup}. */
export function controllerPoolManifest(r: ResolvedKafka): CustomResourceManifest {
  return {
    apiVersion: KAFKA_API_VERSION,
    kind: "KafkaNodePool",
    metadata: {
      name: r.controllerPool,
      namespace: r.namespace,
      labels: { "strimzi.io/cluster": r.clusterName },
      annotations: { [NEXT_NODE_IDS_ANNOTATION]: idRange(r.controllerIds) },
    },
    spec: {
      replicas: r.controllers,
      roles: ["controller"],
      storage: {
        type: "jbod",
        volumes: [
          {
            id: 0,
            type: "persistent-claim",
            size: gibQuantity(r.controllerVolumeGiB),
            class: r.controllerStorageClass,
            deleteClaim: true,
            kraftMetadata: "shared",
          },
        ],
      },
      resources: resources(r.controllerResources),
      jvmOptions: jvm(r.controllerHeapGiB),
      template: podTemplate(r, r.controllerPool, r.controllerNodeGroup, "preferred"),
    },
  };
}

/**
 * The brokers: JBOD over every data volume (claims pre-created, storage.ts), one a node of
 * {brokerNodeGroup}; with `zone`, on that group's nodes in that zone only (the file system's
 * preferred zone: the stack's choice, stacks/kafka).
 */
export function brokerPoolManifest(r: ResolvedKafka, zone?: string): CustomResourceManifest {
  return {
    apiVersion: KAFKA_API_VERSION,
    kind: "KafkaNodePool",
    metadata: {
      name: r.brokerPool,
      namespace: r.namespace,
      labels: { "strimzi.io/cluster": r.clusterName },
      annotations: { [NEXT_NODE_IDS_ANNOTATION]: idRange(r.brokerIds) },
    },
    spec: {
      replicas: r.brokers,
      roles: ["broker"],
      storage: {
        type: "jbod",
        volumes: r.dataVolumes.map((_, id) => ({
          id,
          type: "persistent-claim",
          size: gibQuantity(r.brokerVolumeGiB),
          class: STATIC_STORAGE_CLASS,
          deleteClaim: false,
          ...(id === 0 ? { kraftMetadata: "shared" } : {}),
        })),
      },
      resources: resources(r.brokerResources),
      jvmOptions: jvm(r.brokerHeapGiB),
      template: podTemplate(r, r.brokerPool, r.brokerNodeGroup, "required", zone),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Preparing the brokers' directories

/** The namespace of the prepare Job (restricted, like every namespace of the kind). */
export function storageNamespaceName(r: Pick<ResolvedKafka, "namespace">): string {
  return `${r.namespace}-storage`;
}
export const PREPARE_JOB = "kafka-storage-prepare";
/** Where the Job mounts data volume `i`. */
export function prepareMount(i: number): string {
  return `/volumes/${i}`;
}
/** The prepare container's requests and limits (a shell, mkdir and stat). */
export const PREPARE_RESOURCES: Resources = { requests: { cpu: "50m", memory: "64Mi" }, limits: { cpu: "500m", memory: "256Mi" } };
/** How long the Job may run (its `activeDeadlineSeconds`), s; index.ts waits that long and a margin. */
export const PREPARE_DEADLINE_SECONDS = 600;
/** Seconds between two looks at the Job and its pods' mount events. */
export const PREPARE_POLL_SECONDS = 5;

export function storageNamespaceManifest(r: ResolvedKafka): INamespace {
  return podSecurityNamespaceManifest(storageNamespaceName(r), "restricted");
}

export function prepareConfigMapManifest(r: ResolvedKafka, script: string): IConfigMap {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `${PREPARE_JOB}-scripts`, namespace: storageNamespaceName(r) },
    data: { "prepare-dirs.sh": script },
  };
}

/**
 * The Job that gives every broker its directory on every data volume (scripts/prepare-dirs.sh), as
 * Kafka's own user (1001, group 0), so the directories belong to it; it meets the restricted Pod
 * Security Standard. It mounts each volume's root through a static PersistentVolume and its claim in
 * the storage namespace (storage.ts `volumeRootManifest`: a plain `nfs` volume the kubelet mounts,
 * no CSI driver, no inline volume), after the ontap Job (ontap.ts) has made each root Kafka's
 * (1001:0, mode 0751) and given the volumes their export policy, so nothing runs as root over NFS.
 * Awaited (index.ts: collect-job.sh, not the provider) before any broker volume exists.
 * `deploymentId` names this deployment (the storage namespace's uid, index.ts): the script accepts
 * Kafka data in a directory only when that directory carries it (a re-deploy onto the same volumes
 * stops there, naming the clean-up).
 */
export function prepareJobManifest(r: ResolvedKafka, deploymentId: string): IJob {
  const labels = { "app.kubernetes.io/name": PREPARE_JOB, "app.kubernetes.io/part-of": "storage-bench-lab" };
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name: PREPARE_JOB,
      namespace: storageNamespaceName(r),
      labels,
      // Not awaited by the provider: collect-job.sh awaits it, watching its pods' mounts (index.ts).
      annotations: { "pulumi.com/skipAwait": "true" },
    },
    spec: {
      backoffLimit: 2,
      activeDeadlineSeconds: PREPARE_DEADLINE_SECONDS,
      ttlSecondsAfterFinished: 86400,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          affinity: nodeGroupAffinity(r.controllerNodeGroup),
          tolerations: [nodeGroupToleration(r.controllerNodeGroup)],
          securityContext: { runAsNonRoot: true, runAsUser: KAFKA_UID, runAsGroup: KAFKA_GID, seccompProfile: { type: "RuntimeDefault" } },
          containers: [
            {
              name: "prepare",
              image: STRIMZI_KAFKA_IMAGE,
              command: ["/bin/sh", "/scripts/prepare-dirs.sh"],
              env: [
                { name: "VOLUME_MOUNTS", value: r.dataVolumes.map((_, i) => prepareMount(i)).join(" ") },
                { name: "BROKER_DIRS", value: r.brokerIds.map((id) => brokerPodName(r, id)).join(" ") },
                { name: "OWNER_UID", value: String(KAFKA_UID) },
                { name: "DEPLOYMENT_ID", value: deploymentId },
                { name: "DIR_MODE", value: "0750" },
              ],
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ["ALL"] },
              },
              resources: resources(PREPARE_RESOURCES),
              volumeMounts: [
                { name: "scripts", mountPath: "/scripts", readOnly: true },
                ...r.dataVolumes.map((_, i) => ({ name: `data-${i}`, mountPath: prepareMount(i) })),
              ],
            },
          ],
          volumes: [
            { name: "scripts", configMap: { name: `${PREPARE_JOB}-scripts` } },
            ...r.dataVolumes.map((_, i) => ({ name: `data-${i}`, persistentVolumeClaim: { claimName: volumeRootClaimName(i) } })),
          ],
        },
      },
    },
  };
}
