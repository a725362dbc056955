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
 * The Kafka resource carries `pulumi.com/waitFor: condition=Ready` (pulumi-kubernetes ≥ 4.18's
 * user-specified await, "Improved Kubernetes await logic", pulumi/docs#12454), so nothing that
 * depends on it (the benchmark) starts before Strimzi reports the cluster Ready.
 */
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { INamespace } from "kubernetes-models/v1/Namespace";
import type { IDeployment } from "kubernetes-models/apps/v1/Deployment";
import { nodeGroupAffinity, nodeGroupToleration } from "../eks/placement";
import { podSecurityNamespaceManifest } from "../strimzi/manifests";
import { KAFKA_METADATA_VERSION, STRIMZI_KAFKA_IMAGE } from "../versions";
import { brokerPodName, STATIC_STORAGE_CLASS } from "./storage";
import { gibQuantity, KAFKA_GID, KAFKA_UID, RACK_TOPOLOGY_KEY, ResolvedKafka, Resources } from "./rules";

export const KAFKA_API_VERSION = "kafka.strimzi.io/v1";
/** The plain (no TLS) listener's port. */
export const PLAIN_LISTENER_PORT = 9092;
/** How long `pulumi up` waits for the Kafka resource to become Ready, seconds. */
export const KAFKA_READY_TIMEOUT_SECONDS = 1800;

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

export function kafkaManifest(r: ResolvedKafka): CustomResourceManifest {
  return {
    apiVersion: KAFKA_API_VERSION,
    kind: "Kafka",
    metadata: {
      name: r.clusterName,
      namespace: r.namespace,
      annotations: { "pulumi.com/waitFor": "condition=Ready", "pulumi.com/timeoutSeconds": String(KAFKA_READY_TIMEOUT_SECONDS) },
    },
    spec: {
      kafka: {
        version: r.kafkaVersion,
        metadataVersion: KAFKA_METADATA_VERSION,
        listeners: [{ name: "plain", port: PLAIN_LISTENER_PORT, type: "internal", tls: false }],
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

/** A pool's pod template: on its node group, tolerating its taint, one pod a node. */
function podTemplate(r: ResolvedKafka, pool: string, group: string, spread: "required" | "preferred"): Record<string, unknown> {
  const term = {
    labelSelector: { matchLabels: { "strimzi.io/cluster": r.clusterName, "strimzi.io/pool-name": pool } },
    topologyKey: "kubernetes.io/hostname",
  };
  return {
    pod: {
      affinity: {
        ...nodeGroupAffinity(group),
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

/** The brokers: JBOD over every data volume (claims pre-created, storage.ts), one a node of {brokerNodeGroup}. */
export function brokerPoolManifest(r: ResolvedKafka): CustomResourceManifest {
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
      template: podTemplate(r, r.brokerPool, r.brokerNodeGroup, "required"),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The storage toolbox

/** The toolbox's namespace: baseline, because its init container runs as root (chown). */
export function toolboxNamespaceName(r: Pick<ResolvedKafka, "namespace">): string {
  return `${r.namespace}-storage`;
}
export const TOOLBOX_NAME = "kafka-storage-toolbox";
/** Where the toolbox mounts data volume `i`. */
export function toolboxMount(i: number): string {
  return `/volumes/${i}`;
}
/** The toolbox containers' requests and limits (a shell and stat). */
export const TOOLBOX_RESOURCES: Resources = { requests: { cpu: "50m", memory: "64Mi" }, limits: { cpu: "500m", memory: "256Mi" } };

export function toolboxNamespaceManifest(r: ResolvedKafka): INamespace {
  return podSecurityNamespaceManifest(toolboxNamespaceName(r), "baseline");
}

export function toolboxConfigMapManifest(r: ResolvedKafka, script: string): IConfigMap {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `${TOOLBOX_NAME}-scripts`, namespace: toolboxNamespaceName(r) },
    data: { "prepare-dirs.sh": script },
  };
}

/**
 * The storage toolbox: its init container creates every broker's directory on every data volume
 * (scripts/prepare-dirs.sh: as root with only CHOWN, because a new FSx volume's root belongs to
 * root), then its main container (the Kafka user, restricted) stays for inspection and clean-up
 * (README), its probes re-checking the directories. The volumes are the SVM's exports mounted
 * directly (`nfs` volumes, allowed by the baseline Pod Security level). `server` is the SVM's NFS
 * endpoint. The directories are the brokers' pod names, the subdirectories storage.ts mounts.
 */
export function toolboxDeploymentManifest(r: ResolvedKafka, server: string): IDeployment {
  const labels = { "app.kubernetes.io/name": TOOLBOX_NAME, "app.kubernetes.io/part-of": "storage-bench-lab" };
  const env = [
    { name: "VOLUME_MOUNTS", value: r.dataVolumes.map((_, i) => toolboxMount(i)).join(" ") },
    { name: "BROKER_DIRS", value: r.brokerIds.map((id) => brokerPodName(r, id)).join(" ") },
    { name: "OWNER", value: `${KAFKA_UID}:${KAFKA_GID}` },
    { name: "DIR_MODE", value: "0750" },
  ];
  const mounts = [
    { name: "scripts", mountPath: "/scripts", readOnly: true },
    ...r.dataVolumes.map((_, i) => ({ name: `data-${i}`, mountPath: toolboxMount(i) })),
  ];
  const check = { exec: { command: ["/bin/sh", "/scripts/prepare-dirs.sh", "--check"] }, periodSeconds: 60, timeoutSeconds: 30 };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: TOOLBOX_NAME, namespace: toolboxNamespaceName(r), labels },
    spec: {
      replicas: 1,
      strategy: { type: "Recreate" },
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          affinity: nodeGroupAffinity(r.controllerNodeGroup),
          tolerations: [nodeGroupToleration(r.controllerNodeGroup)],
          securityContext: { seccompProfile: { type: "RuntimeDefault" } },
          initContainers: [
            {
              name: "prepare",
              image: STRIMZI_KAFKA_IMAGE,
              command: ["/bin/sh", "/scripts/prepare-dirs.sh"],
              env,
              securityContext: {
                runAsUser: 0,
                runAsGroup: 0,
                runAsNonRoot: false,
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ["ALL"], add: ["CHOWN"] },
              },
              resources: resources(TOOLBOX_RESOURCES),
              volumeMounts: mounts,
            },
          ],
          containers: [
            {
              name: "toolbox",
              image: STRIMZI_KAFKA_IMAGE,
              command: ["sleep", "infinity"],
              env,
              securityContext: {
                runAsUser: KAFKA_UID,
                runAsGroup: KAFKA_GID,
                runAsNonRoot: true,
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ["ALL"] },
              },
              readinessProbe: check,
              livenessProbe: { ...check, failureThreshold: 3 },
              resources: resources(TOOLBOX_RESOURCES),
              volumeMounts: [...mounts, { name: "tmp", mountPath: "/tmp" }],
            },
          ],
          volumes: [
            { name: "scripts", configMap: { name: `${TOOLBOX_NAME}-scripts`, defaultMode: 0o555 } },
            { name: "tmp", emptyDir: { sizeLimit: "64Mi" } },
            ...r.dataVolumes.map((path, i) => ({ name: `data-${i}`, nfs: { server, path } })),
          ],
        },
      },
    },
  };
}
