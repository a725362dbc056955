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
import type { IJob } from "kubernetes-models/batch/v1/Job";
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

/**
 * The NFS CSI driver's name and the volume attributes its node plugin reads from an inline volume
 * (kubernetes-csi/csi-driver-nfs v4.13.4 pkg/nfs/nodeserver.go `NodePublishVolume`: `server`,
 * `share`, `mountOptions`, `mountPermissions` — "driver will perform chmod after mount" with that
 * octal mode, docs/driver-parameters.md), and the chart values that allow inline volumes
 * (`feature.enableInlineVolume`, which adds `Ephemeral` to the CSIDriver's `volumeLifecycleModes`,
 * templates/csi-nfs-driverinfo.yaml) and keep its privileged node plugin on the system nodes only
 * (`node.nodeSelector`; the chart's default tolerates every taint).
 */
export const NFS_CSI_DRIVER = "nfs.csi.k8s.io";
/** The volume roots' mode after the driver mounts them: writable by the prepare Job's (Kafka's) user. */
export const VOLUME_ROOT_MODE = "0777";

export function csiDriverNfsValues(r: Pick<ResolvedKafka, "controllerNodeGroup">): Record<string, unknown> {
  const onSystem = { "storage-bench-lab/node-group": r.controllerNodeGroup };
  return {
    feature: { enableInlineVolume: true },
    node: { nodeSelector: onSystem },
    controller: { nodeSelector: onSystem },
  };
}

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

/**
 * What the wait for the Job prints when the driver's chmod of a volume root is refused (the SVM's
 * export rule squashes root), one line each (components/bench/scripts/collect-job.sh
 * `MOUNT_REFUSED_FIX`): on the file system's management endpoint as fsxadmin, first the rules of the
 * `default` policy with their index, client match and superuser setting (ONTAP CLI `vserver
 * export-policy rule show ... -fields`, https://docs.netapp.com/us-en/ontap-cli/vserver-export-policy-rule-show.html),
 * then the change of the matching rule (`vserver export-policy rule modify -ruleindex ... -superuser`,
 * https://docs.netapp.com/us-en/ontap-cli/vserver-export-policy-rule-modify.html): which index holds
 * the rule FSx made is not documented, so it is read, not assumed. The endpoint has addresses in the
 * VPC only, so the ssh runs from inside it (a node through SSM Session Manager, or a pod).
 *
 * Then the failed Job is deleted and `pulumi up --refresh` run: the Kubernetes provider only notices
 * an object deleted out of band on a refresh, and without one the new wait would find no Job. (A
 * refresh is safe here: the stack's Kubernetes provider has no `deleteUnreachable`, so an unreachable
 * cluster fails the refresh instead of dropping objects from the state; stacks/kafka/index.ts.)
 */
export function mountRefusedFix(svmName: string, managementEndpoint: string, namespace: string): string {
  return [
    `the export rule of SVM ${svmName} squashes root, so the NFS CSI driver's chmod of a new volume's root (run as root) was refused. ` +
      `On the file system's management endpoint, reachable only from inside the VPC (e.g. from an EKS node through SSM Session Manager, or from a pod), ` +
      `ssh fsxadmin@${managementEndpoint} and find the rule that matches the nodes:`,
    `  vserver export-policy rule show -vserver ${svmName} -policyname default -fields ruleindex,clientmatch,superuser`,
    `let root through on that rule:`,
    `  vserver export-policy rule modify -vserver ${svmName} -policyname default -ruleindex <index from the show> -superuser sys`,
    `then delete the failed Job (kubectl --namespace ${namespace} delete job ${PREPARE_JOB}) and run pulumi up --refresh, which creates it again (docs/kafka.md, "Root over NFS")`,
  ].join("\n");
}

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
 * Security Standard. A new FSx volume's root belongs to root: the volumes are mounted through the NFS
 * CSI driver (inline `csi` volumes, a type the restricted profile allows), whose node plugin makes
 * each root writable (`mountPermissions` {@link VOLUME_ROOT_MODE}) at mount time. `server` is the
 * SVM's NFS endpoint. Awaited (index.ts: collect-job.sh, not the provider) before any
 * broker volume exists. `deploymentId` names this deployment (the storage namespace's uid, index.ts):
 * the script accepts Kafka data in a directory only when that directory carries it (a re-deploy onto
 * the same volumes stops there, naming the clean-up).
 *
 * The driver's chmod runs as root over NFS, and only when the root's mode differs (csi-driver-nfs
 * v4.13.4 pkg/nfs/utils.go `chmodIfPermissionMismatch`): it needs an export rule that keeps root
 * root (`-superuser sys` or `any`), which neither AWS nor NetApp documents for the SVM's `default`
 * policy. Where root is squashed the chmod fails with a bare `operation not permitted`
 * (pkg/nfs/chmod_unix.go `syscall.Chmod`), which NodePublishVolume returns as codes.Internal: a
 * FailedMount event `MountVolume.SetUp failed for volume "data-0" : rpc error: code = Internal desc =
 * operation not permitted`. The NFS mount stays in place, so the kubelet's retry finds the target
 * mounted and NodePublishVolume succeeds without a chmod (pkg/nfs/nodeserver.go, `!notMnt`): the
 * container starts on a volume root still owned by root, mode 0755, prepare-dirs.sh cannot create
 * the brokers' directories and says the root's mode is not 777, and with `backoffLimit` 2 the Job
 * is Failed in about a minute. The wait (collect-job.sh with {@link mountRefusedFix}) fails at once
 * on the event, or on the Failed Job with that event or that log line, printing the commands that
 * fix the rule (docs/kafka.md, "Root over NFS").
 */
export function prepareJobManifest(r: ResolvedKafka, server: string, deploymentId: string): IJob {
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
            ...r.dataVolumes.map((share, i) => ({
              name: `data-${i}`,
              csi: {
                driver: NFS_CSI_DRIVER,
                volumeAttributes: { server, share, mountOptions: "nfsvers=4.1", mountPermissions: VOLUME_ROOT_MODE },
              },
            })),
          ],
        },
      },
    },
  };
}
