/**
 * The Kafka cluster's rules and defaults, in one place (pure): Strimzi's `Kafka` and `KafkaNodePool`s
 * (KRaft: a controller pool on gp3, a broker pool on FSx for ONTAP NFS volumes as JBOD), the broker
 * settings of NetApp's published run, placement, resources and heap.
 *
 * Sources:
 * - NetApp, "Performance overview and validation in AWS FSx for NetApp ONTAP" (docs.netapp.com/us-en/
 *   netapp-solutions/data-analytics/kafka-nfs-performance-overview-and-validation-in-aws-FSxN.html), as
 *   recorded in ../shared/facts/eks-trident-kafka-omb.md: 3 brokers on i3en.2xlarge; six volumes, every
 *   broker mounting all six (`nfs defaults,nconnect=16`) with its own subdirectory on each in
 *   `log.dirs`; the broker settings {@link PUBLISHED_BROKER_CONFIG}.
 * - Strimzi 1.2.0 (strimzi/strimzi-kafka-operator at tag 1.2.0, commit 6c7b43c4):
 *   - options Strimzi sets itself and refuses in `config`: `KafkaClusterSpec.FORBIDDEN_PREFIXES`
 *     (api/src/main/java/io/strimzi/api/kafka/model/kafka/KafkaClusterSpec.java) with its
 *     `FORBIDDEN_PREFIX_EXCEPTIONS`: {@link FORBIDDEN_CONFIG_PREFIXES};
 *   - the cluster-wide replication settings of packaging/examples/kafka/kafka-persistent.yaml:
 *     {@link REPLICATION_CONFIG};
 *   - heap: "Containers performing lots of disk I/O, such as Kafka broker containers, require available
 *     memory for use as an operating system page cache" and, without `-Xmx`, Strimzi gives Kafka 50% of
 *     the memory limit (documentation/modules/con-common-configuration-properties.adoc): the lab's rule
 *     is the same bound, `-Xms` = `-Xmx` (same page: "avoids the JVM having to allocate memory after
 *     startup"), JVM units `g` (Gi is "not a valid unit suffix" there);
 *   - node IDs from the `strimzi.io/next-node-ids` annotation of a new pool ("[0-2]": lowest first;
 *     documentation/modules/configuring/proc-managing-node-pools-ids.adoc, and NodeIdAssignor: "New
 *     pool? It is all scale-up" uses the range), so the broker pods and their claims have known names.
 * - Apache Kafka documentation, "Java Version" (https://kafka.apache.org/41/operations/java-version):
 *   "Typical arguments for running Kafka … -Xmx6g -Xms6g …": the default broker heap ({@link KAFKA_DEFAULTS}).
 */
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt, isListOf, isOneOf, isText } from "../../core/checks";
import { brokerSettingProblems, brokerStartupProblems } from "./broker-settings";
import { ContainerResources, DNS_LABEL_RULE, isDnsLabel, isDnsSubdomain, memoryBytes, containerResourcesProblems } from "../lib/kubernetes";
import { ZONE_LABEL } from "../eks/placement";
import { KAFKA_VERSION } from "../versions";

/** The Kafka 4.3.x versions Strimzi 1.2.0 runs (its chart's `STRIMZI_KAFKA_IMAGES` also has 4.2.0 and 4.2.1, which the lab does not take). */
export const STRIMZI_KAFKA_VERSIONS = ["4.3.0", "4.3.1"] as const;

/** NetApp's broker tuning for the FSx for ONTAP run (facts file, "Broker settings"). */
export const PUBLISHED_BROKER_CONFIG: Readonly<Record<string, number>> = {
  "num.network.threads": 64,
  "num.io.threads": 64,
  "num.replica.fetchers": 20,
  "replica.fetch.max.bytes": 524288000,
  "background.threads": 20,
  "num.replica.alter.log.dirs.threads": 40,
  "socket.request.max.bytes": 104857600,
};

/** Strimzi's example cluster settings for three brokers (kafka-persistent.yaml at 1.2.0). */
export const REPLICATION_CONFIG: Readonly<Record<string, number>> = {
  "offsets.topic.replication.factor": 3,
  "transaction.state.log.replication.factor": 3,
  "transaction.state.log.min.isr": 2,
  "default.replication.factor": 3,
  "min.insync.replicas": 2,
};

/** Options Strimzi refuses in `spec.kafka.config` (prefixes), and the exceptions it allows. */
export const FORBIDDEN_CONFIG_PREFIXES = [
  "listeners",
  "advertised.",
  "broker.",
  "listener.",
  "host.name",
  "port",
  "inter.broker.listener.name",
  "sasl.",
  "ssl.",
  "security.",
  "password.",
  "log.dir",
  "zookeeper.connect",
  "zookeeper.set.acl",
  "zookeeper.ssl",
  "zookeeper.clientCnxnSocket",
  "authorizer.",
  "super.user",
  "cruise.control.metrics.topic",
  "cruise.control.metrics.reporter.bootstrap.servers",
  "node.id",
  "process.roles",
  "controller.",
  "metadata.log.dir",
  "zookeeper.metadata.migration.enable",
  "client.quota.callback.static.kafka.admin.",
  "client.quota.callback.static.produce",
  "client.quota.callback.static.fetch",
  "client.quota.callback.static.storage.per.volume.limit.min.available.",
  "client.quota.callback.static.excluded.principal.name.list",
  "prometheus.metrics.reporter.",
  "cordoned.log.dirs",
] as const;
export const FORBIDDEN_CONFIG_EXCEPTIONS = [
  "zookeeper.connection.timeout.ms",
  "sasl.server.max.receive.size",
  "ssl.cipher.suites",
  "ssl.protocol",
  "ssl.enabled.protocols",
  "ssl.secure.random.implementation",
  "cruise.control.metrics.topic.num.partitions",
  "cruise.control.metrics.topic.replication.factor",
  "cruise.control.metrics.topic.retention.ms",
  "cruise.control.metrics.topic.auto.create.retries",
  "cruise.control.metrics.topic.auto.create.timeout.ms",
  "cruise.control.metrics.topic.min.insync.replicas",
  "broker.session.timeout.ms",
  "broker.heartbeat.interval.ms",
  "controller.socket.timeout.ms",
  "controller.quorum.election.backoff.max.ms",
  "controller.quorum.election.timeout.ms",
  "controller.quorum.fetch.timeout.ms",
] as const;

/** True when Strimzi refuses `key` in `spec.kafka.config`. */
export function isForbiddenConfig(key: string): boolean {
  return !(FORBIDDEN_CONFIG_EXCEPTIONS as readonly string[]).includes(key) && FORBIDDEN_CONFIG_PREFIXES.some((p) => key.startsWith(p));
}

/**
 * The NFS mount options of every broker volume: NFSv4.1 (the "silly rename" fix needs v4.1+ on ONTAP
 * 9.12.1+, facts file) and `nconnect=16`, as published ("mount -t nfs -o vers=4.1,nconnect=16" in
 * NetApp's Kafka NFS validation; `nfs defaults,nconnect=16` on the brokers of the FSx run). nconnect
 * needs a Linux kernel of 5.3 or later (nfs(5)); AL2023's is 6.1 or newer.
 */
export const NFS_MOUNT_OPTIONS = ["nfsvers=4.1", "nconnect=16"] as const;

/** The zone label of Kubernetes nodes (well-known labels: `topology.kubernetes.io/zone`): Kafka's rack. */
export const RACK_TOPOLOGY_KEY = ZONE_LABEL;

/** The Strimzi Kafka container's user and group (`useradd -r -m -u 1001 -g 0 kafka`, docker-images/kafka-based/kafka/Dockerfile at 1.2.0). */
export const KAFKA_UID = 1001;
export const KAFKA_GID = 0;

/** The first node ID of the controller pool (brokers take 0…brokers-1). Kafka accepts IDs up to 999 by default (`reserved.broker.max.id`). */
export const CONTROLLER_FIRST_NODE_ID = 100;

/** CPU and memory of one container, Kubernetes quantities. */
export type Resources = ContainerResources;

/** The plain arguments of the KafkaCluster component. */
export interface KafkaClusterSpec {
  /** The `Kafka` resource's name (Strimzi's cluster name, in every pod and claim name). @default "kafka" */
  readonly clusterName?: string;
  /** The namespace of the Kafka resources (restricted Pod Security). @default "kafka" */
  readonly namespace?: string;
  /** Kafka version: one Strimzi 1.2.0 runs, 4.3.x. @default KAFKA_VERSION ("4.3.1") */
  readonly kafkaVersion?: string;
  /** Brokers (pool `brokers`, node IDs 0…n-1), one a node of {brokerNodeGroup}. @default 3 */
  readonly brokers?: number;
  /** KRaft controllers (pool `controllers`, node IDs from 100): an odd number. @default 3 */
  readonly controllers?: number;
  /** The FSx for ONTAP volumes' junction paths: every broker mounts all of them (JBOD volume i = the i-th path). */
  readonly dataVolumes: readonly string[];
  /** Nominal size of each broker claim on a data volume, GiB (NFS does not enforce it; the volume's space is shared). @default 2048 */
  readonly brokerVolumeGiB?: number;
  /** The controllers' gp3 claims, GiB (KRaft metadata). @default 20 */
  readonly controllerVolumeGiB?: number;
  /** The StorageClass of the controllers' claims (EBS gp3, components/eks/storage.ts). @default "gp3" */
  readonly controllerStorageClass?: string;
  /** The EKS node group (label `storage-bench-lab/node-group`) the brokers run on, one a node. @default "brokers" */
  readonly brokerNodeGroup?: string;
  /** The EKS node group the controllers (and the storage toolbox) run on. @default "system" */
  readonly controllerNodeGroup?: string;
  /** The brokers' requests and limits. @default requests 7 CPU / 48Gi, limits 8 CPU / 48Gi (i3en.2xlarge: 8 vCPU, 64 GiB) */
  readonly brokerResources?: Resources;
  /** The brokers' heap (-Xms = -Xmx), GiB: at most half the memory limit. @default 6 */
  readonly brokerHeapGiB?: number;
  /** The controllers' requests and limits. @default requests 500m / 2Gi, limits 1 CPU / 2Gi */
  readonly controllerResources?: Resources;
  /** The controllers' heap, GiB: at most half the memory limit. @default 1 */
  readonly controllerHeapGiB?: number;
  /**
   * More broker settings, over the published ones and the replication defaults (never an option
   * Strimzi sets itself): each a key of `KAFKA_BROKER_SETTINGS` (components/kafka/broker-settings.ts),
   * its value within Kafka's type and range for that key, as Strimzi checks it. @default {}
   */
  readonly brokerConfig?: Readonly<Record<string, string | number | boolean>>;
}

export const KAFKA_DEFAULTS = {
  clusterName: "kafka",
  namespace: "kafka",
  kafkaVersion: KAFKA_VERSION,
  brokers: 3,
  controllers: 3,
  brokerVolumeGiB: 2048,
  controllerVolumeGiB: 20,
  controllerStorageClass: "gp3",
  brokerNodeGroup: "brokers",
  controllerNodeGroup: "system",
  brokerResources: { requests: { cpu: "7", memory: "48Gi" }, limits: { cpu: "8", memory: "48Gi" } } as Resources,
  brokerHeapGiB: 6,
  controllerResources: { requests: { cpu: "500m", memory: "2Gi" }, limits: { cpu: "1", memory: "2Gi" } } as Resources,
  controllerHeapGiB: 1,
  brokerConfig: {} as Readonly<Record<string, string | number | boolean>>,
} as const;

export interface ResolvedKafka extends Required<KafkaClusterSpec> {
  /** The broker pool's and the controller pool's names. */
  readonly brokerPool: string;
  readonly controllerPool: string;
  /** The broker node IDs, in order. */
  readonly brokerIds: readonly number[];
  readonly controllerIds: readonly number[];
  /** Every broker setting: the published ones, the replication defaults, then `brokerConfig`. */
  readonly config: Readonly<Record<string, string | number | boolean>>;
}

/** The pools' names (KafkaNodePool resources, in pod and claim names). */
export const BROKER_POOL = "brokers";
export const CONTROLLER_POOL = "controllers";

export function resolve(spec: KafkaClusterSpec): ResolvedKafka {
  const d = KAFKA_DEFAULTS;
  const brokers = spec.brokers ?? d.brokers;
  const controllers = spec.controllers ?? d.controllers;
  const brokerConfig = spec.brokerConfig ?? d.brokerConfig;
  return {
    clusterName: spec.clusterName ?? d.clusterName,
    namespace: spec.namespace ?? d.namespace,
    kafkaVersion: spec.kafkaVersion ?? d.kafkaVersion,
    brokers,
    controllers,
    dataVolumes: [...spec.dataVolumes],
    brokerVolumeGiB: spec.brokerVolumeGiB ?? d.brokerVolumeGiB,
    controllerVolumeGiB: spec.controllerVolumeGiB ?? d.controllerVolumeGiB,
    controllerStorageClass: spec.controllerStorageClass ?? d.controllerStorageClass,
    brokerNodeGroup: spec.brokerNodeGroup ?? d.brokerNodeGroup,
    controllerNodeGroup: spec.controllerNodeGroup ?? d.controllerNodeGroup,
    brokerResources: spec.brokerResources ?? d.brokerResources,
    brokerHeapGiB: spec.brokerHeapGiB ?? d.brokerHeapGiB,
    controllerResources: spec.controllerResources ?? d.controllerResources,
    controllerHeapGiB: spec.controllerHeapGiB ?? d.controllerHeapGiB,
    brokerConfig,
    brokerPool: BROKER_POOL,
    controllerPool: CONTROLLER_POOL,
    brokerIds: Array.from({ length: brokers }, (_, i) => i),
    controllerIds: Array.from({ length: controllers }, (_, i) => CONTROLLER_FIRST_NODE_ID + i),
    config: { ...PUBLISHED_BROKER_CONFIG, ...REPLICATION_CONFIG, ...brokerConfig },
  };
}

export { memoryBytes };

/** A size in GiB as the API server writes it back: `2048` → "2Ti", `20` → "20Gi" (the largest binary unit that keeps it whole). */
export function gibQuantity(gib: number): string {
  return gib % 1024 === 0 ? `${gib / 1024}Ti` : `${gib}Gi`;
}

/** A junction path: absolute, one or more segments of letters, digits, '_', '.', '-'. */
export const JUNCTION_PATH_RE = /^(\/[A-Za-z0-9_.-]+)+$/;
export const DATA_VOLUMES_RULE =
  'a non-empty list of distinct FSx for ONTAP junction paths (e.g. ["/kafkafsxN1","/kafkafsxN2"]): every broker mounts all of them';
/** Most JBOD volumes the lab gives a broker. */
export const MAX_DATA_VOLUMES = 16;
export const BROKERS_RULE = "an integer from 1 to 30 (brokers, one a node of {brokerNodeGroup})";
export const CONTROLLERS_RULE = "1, 3 or 5 (a KRaft quorum of an odd number of controllers)";

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The heap rule: a whole number of GiB, at least 1, at most half the memory limit. */
function heapProblems(path: string, heap: unknown, resourcesArg: string, resources: Resources | undefined): ArgProblem[] {
  if (heap === undefined) return [];
  if (!isInt(heap, 1, 1024)) return [argProblem(path, "a whole number of GiB from 1 to 1024", heap)];
  const limit = memoryBytes(resources?.limits?.memory);
  if (limit !== undefined && heap * 2 ** 30 > limit / 2)
    return [
      argProblem(
        path,
        `at most half of {${resourcesArg}}.limits.memory (${resources!.limits.memory}): the rest is the page cache and the JVM's off-heap memory`,
        heap,
      ),
    ];
  return [];
}

/** Every problem of `spec`, in argument order. */
export function problems(spec: KafkaClusterSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  const d = KAFKA_DEFAULTS;
  const name = (arg: keyof KafkaClusterSpec, max = 63) => {
    const v = spec[arg];
    if (v !== undefined && (!isDnsLabel(v) || (v as string).length > max))
      out.push(argProblem(arg, `${DNS_LABEL_RULE}${max < 63 ? `, at most ${max} characters` : ""}`, v));
  };
  // `<cluster>-<pool>-<id>` is a pod name and part of claim names (`data-<id>-<cluster>-<pool>-<id>`).
  name("clusterName", 40);
  // Strimzi names the cluster's Services after it (`<cluster>-kafka-bootstrap`: strimzi/strimzi-kafka-operator
  // 1.2.0 api/src/main/java/io/strimzi/api/kafka/model/kafka/KafkaResources.java:106-107), and a Service
  // name is an RFC 1035 label, starting with a letter (Kubernetes API validation; relaxed only by the
  // alpha/beta feature of KEP-5311, not on by default in the EKS version the lab pins).
  if (isDnsLabel(spec.clusterName) && !/^[a-z]/.test(spec.clusterName as string))
    out.push(
      argProblem(
        "clusterName",
        "a name starting with a letter: Strimzi's Services are <cluster>-kafka-bootstrap, and a Service name is an RFC 1035 label",
        spec.clusterName,
      ),
    );
  name("namespace");
  if (spec.kafkaVersion !== undefined && !isOneOf(spec.kafkaVersion, STRIMZI_KAFKA_VERSIONS))
    out.push(
      argProblem("kafkaVersion", `one of ${STRIMZI_KAFKA_VERSIONS.join(", ")} (Kafka 4.3.x, run by Strimzi 1.2.0)`, spec.kafkaVersion),
    );
  if (spec.brokers !== undefined && !isInt(spec.brokers, 1, 30)) out.push(argProblem("brokers", BROKERS_RULE, spec.brokers));
  if (spec.controllers !== undefined && !(isInt(spec.controllers) && [1, 3, 5].includes(spec.controllers)))
    out.push(argProblem("controllers", CONTROLLERS_RULE, spec.controllers));
  const v = spec.dataVolumes;
  if (
    !isListOf(v, (x): x is string => isText(x, JUNCTION_PATH_RE)) ||
    v.length === 0 ||
    v.length > MAX_DATA_VOLUMES ||
    new Set(v).size !== v.length
  )
    out.push(argProblem("dataVolumes", DATA_VOLUMES_RULE, v));
  if (spec.brokerVolumeGiB !== undefined && !isInt(spec.brokerVolumeGiB, 1, 1048576))
    out.push(argProblem("brokerVolumeGiB", "a whole number of GiB from 1 to 1048576", spec.brokerVolumeGiB));
  if (spec.controllerVolumeGiB !== undefined && !isInt(spec.controllerVolumeGiB, 1, 65536))
    out.push(argProblem("controllerVolumeGiB", "a whole number of GiB from 1 to 65536 (gp3)", spec.controllerVolumeGiB));
  if (spec.controllerStorageClass !== undefined && !isDnsSubdomain(spec.controllerStorageClass))
    out.push(argProblem("controllerStorageClass", "the name of a StorageClass", spec.controllerStorageClass));
  name("brokerNodeGroup");
  name("controllerNodeGroup");
  const brokerGroup = spec.brokerNodeGroup ?? d.brokerNodeGroup;
  if (isDnsLabel(brokerGroup) && brokerGroup === (spec.controllerNodeGroup ?? d.controllerNodeGroup))
    out.push(
      argProblem("controllerNodeGroup", "another node group than {brokerNodeGroup}", spec.controllerNodeGroup ?? d.controllerNodeGroup),
    );
  if (spec.brokerResources !== undefined) out.push(...containerResourcesProblems("brokerResources", spec.brokerResources));
  const brokerRes = spec.brokerResources === undefined || containerResourcesProblems("brokerResources", spec.brokerResources).length === 0;
  if (brokerRes)
    out.push(
      ...heapProblems("brokerHeapGiB", spec.brokerHeapGiB ?? d.brokerHeapGiB, "brokerResources", spec.brokerResources ?? d.brokerResources),
    );
  if (spec.controllerResources !== undefined) out.push(...containerResourcesProblems("controllerResources", spec.controllerResources));
  const ctlRes =
    spec.controllerResources === undefined || containerResourcesProblems("controllerResources", spec.controllerResources).length === 0;
  if (ctlRes)
    out.push(
      ...heapProblems(
        "controllerHeapGiB",
        spec.controllerHeapGiB ?? d.controllerHeapGiB,
        "controllerResources",
        spec.controllerResources ?? d.controllerResources,
      ),
    );
  const cfg = spec.brokerConfig;
  if (cfg !== undefined) {
    if (!isPlainObject(cfg))
      out.push(argProblem("brokerConfig", 'an object of Kafka broker settings (e.g. {"log.retention.hours": 1})', cfg));
    else
      for (const [k, x] of Object.entries(cfg)) {
        if (isForbiddenConfig(k))
          out.push(
            argProblem(
              `brokerConfig[${JSON.stringify(k)}]`,
              "a setting Strimzi lets the user set (it sets listeners, log.dirs, node.id, controller.* … itself)",
              x,
            ),
          );
        else if (!["string", "number", "boolean"].includes(typeof x))
          out.push(argProblem(`brokerConfig[${JSON.stringify(k)}]`, "a string, number or boolean", x));
        // The replication keys are held to the narrower rules of replicationProblems (below), which name the broker count.
        else if (!REPLICATION_FACTOR_KEYS.includes(k) && !(k in MIN_ISR_OF))
          out.push(...brokerSettingProblems(`brokerConfig[${JSON.stringify(k)}]`, k, x as string | number | boolean));
      }
  }
  out.push(...replicationProblems(spec));
  // The checks between settings a broker runs as it starts (broker-settings.ts), on the resolved config.
  if (isPlainObject(cfg)) out.push(...brokerStartupProblems({ ...PUBLISHED_BROKER_CONFIG, ...REPLICATION_CONFIG, ...cfg }, cfg));
  return out;
}

/**
 * The replication settings of the brokers' resolved config (the lab's {@link REPLICATION_CONFIG}
 * unless `brokerConfig` sets them) against the resolved broker count: Kafka creates its internal
 * topics with exactly these factors and fails while fewer brokers exist (KIP-115, apache/kafka#2177:
 * "InvalidReplicationFactorException: Replication factor: 3 larger than available brokers: 1"), and a
 * minimum in-sync count above its topic's factor can never be met, so every `acks=all` write fails
 * (Kafka docs, broker configs `min.insync.replicas`, `transaction.state.log.min.isr`). A default is
 * checked like a value: the problem then names {brokers}, the key that makes it wrong.
 */
const REPLICATION_FACTOR_KEYS = [
  "offsets.topic.replication.factor",
  "transaction.state.log.replication.factor",
  "default.replication.factor",
];
const MIN_ISR_OF: Readonly<Record<string, string>> = {
  "min.insync.replicas": "default.replication.factor",
  "transaction.state.log.min.isr": "transaction.state.log.replication.factor",
};

function replicationProblems(spec: KafkaClusterSpec): ArgProblem[] {
  const brokers = spec.brokers ?? KAFKA_DEFAULTS.brokers;
  const given = isPlainObject(spec.brokerConfig) ? spec.brokerConfig : {};
  if (!isInt(brokers, 1, 30)) return [];
  const config: Record<string, unknown> = { ...REPLICATION_CONFIG, ...given };
  const at = (key: string) => `brokerConfig[${JSON.stringify(key)}]`;
  const out: ArgProblem[] = [];
  for (const key of REPLICATION_FACTOR_KEYS) {
    const v = config[key];
    const isGiven = key in given;
    if (!isInt(v, 1, 30)) {
      if (isGiven) out.push(argProblem(at(key), "a whole number from 1 to 30 (a replication factor)", v));
    } else if (v > brokers)
      out.push(
        isGiven
          ? argProblem(at(key), `at most {brokers} (${brokers}): Kafka refuses a replication factor above the broker count`, v)
          : argProblem("brokers", `at least ${v}, the lab's ${key} (or set ${key} in {brokerConfig})`, brokers),
      );
  }
  for (const [key, of] of Object.entries(MIN_ISR_OF)) {
    const v = config[key];
    const rf = config[of];
    if (!isInt(v, 1, 30)) {
      if (key in given) out.push(argProblem(at(key), "a whole number from 1 to 30 (a minimum in-sync replica count)", v));
    } else if (isInt(rf, 1, 30) && v > rf) {
      if (key in given) out.push(argProblem(at(key), `at most ${of} (${rf}): acks=all writes would never succeed`, v));
      else if (of in given) out.push(argProblem(at(of), `at least the lab's ${key} (${v}), or set ${key} lower in {brokerConfig}`, rf));
    }
  }
  return out;
}
