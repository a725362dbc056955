/**
 * Config of the `kafka` stack kind: the keys' types; their rules and defaults are the components'
 * (the Kafka cluster: components/kafka/rules.ts; the benchmark and its image: components/omb/rules.ts),
 * checked with the `lab:` key names. The OMB keys
 * that would be ambiguous in a Kafka stack carry an `omb` prefix (`lab:ombWorkers` → `workers`).
 */
import { z } from "zod";
import { argProblem, ArgProblem } from "../../core/errors";
import { bootstrapServers } from "../../components/kafka/manifests";
import { KAFKA_DEFAULTS, KafkaClusterSpec, problems as kafkaProblems, resolve as resolveKafka } from "../../components/kafka/rules";
import { OMB_DEFAULTS, OmbDriver, ombImageProblems, OmbSpec, OmbWorkload, problems as ombProblems } from "../../components/omb/rules";
import { commonFields } from "../lib/config/common";
import { int, list, stackName, text } from "../lib/config/fields";
import { renamed } from "../lib/config/load";

/** Requests and limits: the fields' types; the quantities are the rules'. */
const resources = z.object(
  {
    requests: z.object({ cpu: z.string(), memory: z.string() }),
    limits: z.object({ cpu: z.string(), memory: z.string() }),
  },
  { error: 'requests and limits of cpu and memory (e.g. {"requests":{"cpu":"1","memory":"2Gi"},"limits":{"cpu":"2","memory":"2Gi"}})' },
);

/** Where the brokers and the OMB clients run (`lab:zonePlacement`), and the default. */
export const ZONE_PLACEMENTS = ["preferred", "spread"] as const;
export type ZonePlacement = (typeof ZONE_PLACEMENTS)[number];
export const DEFAULT_ZONE_PLACEMENT: ZonePlacement = "preferred";
export const ZONE_PLACEMENT_RULE =
  "preferred (brokers and OMB clients in the file system's preferred zone) or spread (wherever their node groups run: NFS, replication and client traffic cross zones, billed as inter-AZ transfer)";

export const kafkaSchema = z.object({
  ...commonFields,
  /**
   * `lab:fsxOntapStack`: the FSx for ONTAP stack (the SVM's NFS endpoint, the volumes, the security group, the throughput).
   * @source Pulumi (StackReference) org/project/stack: a Pulumi Cloud owner is 3–40 of A-Z a-z 0-9 - _ with alphanumeric ends, project and stack
   * 1–100 of A-Z a-z 0-9 _ . - — pulumi/pulumi pkg/backend/httpstate/backend.go:66-69 (cff6c0c3); then its outputs must fit (./upstream.ts)
   */
  fsxOntapStack: stackName("fsx-ontap"),
  /**
   * `lab:eksStack`: the EKS stack (kubeconfig, node security group, node groups).
   * @source Pulumi (StackReference) org/project/stack: a Pulumi Cloud owner is 3–40 of A-Z a-z 0-9 - _ with alphanumeric ends, project and stack
   * 1–100 of A-Z a-z 0-9 _ . - — pulumi/pulumi pkg/backend/httpstate/backend.go:66-69 (cff6c0c3); then its outputs must fit (./upstream.ts)
   */
  eksStack: stackName("eks"),
  /**
   * `lab:clusterName` → KafkaCluster `clusterName`.
   * @source lab rule (≤ 40: `<cluster>-<pool>-<id>` is a pod hostname, ≤ 63); Strimzi names Services `<cluster>-kafka-bootstrap` (api/src/main/java/io/
   * strimzi/api/kafka/model/kafka/KafkaResources.java:106-107 at 1.2.0), and a Service name is an RFC 1035 label (on EKS 1.35: KEP-5311 is alpha) — https://www.kubernetes.dev/resources/keps/5311/
   */
  clusterName: text().optional(),
  /**
   * `lab:kafkaVersion` → `kafkaVersion`.
   * @source lab rule (4.3.x only, with metadata version 4.3-IV0); Strimzi 1.2.0: spec.kafka.version one of its supported 4.2.0, 4.2.1, 4.3.0, 4.3.1 —
   * strimzi/strimzi-kafka-operator kafka-versions.yaml:296-324 (tag 1.2.0)
   */
  kafkaVersion: text().optional(),
  /**
   * `lab:brokers` → `brokers`.
   * @source lab rule (1–30, one a node, ≥ each internal topic's factor); Strimzi: KafkaNodePool spec.replicas an integer ≥ 0 — ../shared/schemas/crds/kafka.strimzi.io/KafkaNodePool.yaml:60-63;
   * Kafka: a replication factor above the registered brokers fails — apache/kafka metadata/.../placement/StripedReplicaPlacer.java:412-417 (1eb76443)
   */
  brokers: int().optional(),
  /**
   * `lab:controllers` → `controllers`.
   * @source lab rule (1, 3 or 5: an odd quorum); Strimzi: spec.replicas an integer ≥ 0 — ../shared/schemas/crds/kafka.strimzi.io/KafkaNodePool.yaml:60-63; Kafka: "typically 3 or 5",
   * "A majority of the controllers must be alive" — apache/kafka docs/ops.html:3773 (1eb76443)
   */
  controllers: int().optional(),
  /**
   * `lab:dataVolumes` → `dataVolumes`: junction paths of the fsx-ontap stack's volumes.
   * @source lab rule (1–16 distinct absolute paths, each a junction path of {fsxOntapStack}, ./upstream.ts); ONTAP: a volume is exported over NFS only at
   * its one junction in the SVM's namespace (PV nfs.path `<junction>/<broker pod>`) — https://kb.netapp.com/on-prem/ontap/da/NAS/NAS-KBs/What_are_junction_paths
   */
  dataVolumes: list(text()).optional(),
  /**
   * `lab:brokerVolumeGiB` → `brokerVolumeGiB`.
   * @source lab rule (1 GiB–1 PiB, nominal: NFS enforces no size, the volume's space is shared); Strimzi: a persistent-claim volume's size is a
   * Kubernetes quantity such as 100Gi, here each claim's request and each static PV's capacity — ../shared/schemas/crds/kafka.strimzi.io/KafkaNodePool.yaml:129-131
   */
  brokerVolumeGiB: int().optional(),
  /**
   * `lab:controllerVolumeGiB` → `controllerVolumeGiB`.
   * @source AWS EBS (the EBS CSI driver's gp3 class): gp3 is 1 - 65,536 GiB — https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/ec2/
   * aws.sdk.kotlin.services.ec2.model/-create-volume-request/size.html (CreateVolume Size)
   */
  controllerVolumeGiB: int().optional(),
  /**
   * `lab:brokerNodeGroup` → `brokerNodeGroup`.
   * @source lab rule (an RFC 1123 label, as the eks stack names its groups; a dedicated group of {eksStack}); Kubernetes: the node-affinity
   * and toleration value on storage-bench-lab/node-group: a label value, ≤ 63 of [A-Za-z0-9_.-], alphanumeric ends — kubernetes/apimachinery pkg/api/validate/content/kube.go:74-92 (v0.35.7)
   */
  brokerNodeGroup: text().optional(),
  /**
   * `lab:controllerNodeGroup` → `controllerNodeGroup`.
   * @source lab rule (an RFC 1123 label, as the eks stack names its groups; a group of {eksStack}); Kubernetes: the node-affinity
   * and toleration value on storage-bench-lab/node-group: a label value, ≤ 63 of [A-Za-z0-9_.-], alphanumeric ends — kubernetes/apimachinery pkg/api/validate/content/kube.go:74-92 (v0.35.7)
   */
  controllerNodeGroup: text().optional(),
  /**
   * `lab:brokerResources` → `brokerResources`.
   * @source Kubernetes: quantities (cores or m; bytes, k/M/G/T, Ki/Mi/Gi/Ti), each limit ≥ its request — kubernetes/apimachinery pkg/api/resource/quantity.go:40-58
   * (v0.35.7), kubernetes/kubernetes#115434; requests must fit the node's allocatable (its size less kube-reserved) — awslabs/amazon-eks-ami nodeadm/internal/kubelet/config.go (e48b98ad)
   */
  brokerResources: resources.optional(),
  /**
   * `lab:brokerHeapGiB` → `brokerHeapGiB`.
   * @source lab rule (1–1024, ≤ half the memory limit, -Xms = -Xmx; Strimzi's own default Kafka heap is 50%, documentation/modules/
   * con-common-configuration-properties.adoc:676-698 at 1.2.0); Strimzi: -Xms/-Xmx match ^[0-9]+[mMgG]?$ (`<n>g`) — ../shared/schemas/crds/kafka.strimzi.io/KafkaNodePool.yaml:196-203
   */
  brokerHeapGiB: int().optional(),
  /**
   * `lab:controllerResources` → `controllerResources`.
   * @source Kubernetes: quantities (cores or m; bytes, k/M/G/T, Ki/Mi/Gi/Ti), each limit ≥ its request — kubernetes/apimachinery pkg/api/resource/quantity.go:40-58
   * (v0.35.7), kubernetes/kubernetes#115434; requests must fit the node's allocatable (its size less kube-reserved) — awslabs/amazon-eks-ami nodeadm/internal/kubelet/config.go (e48b98ad)
   */
  controllerResources: resources.optional(),
  /**
   * `lab:controllerHeapGiB` → `controllerHeapGiB`.
   * @source lab rule (1–1024, ≤ half the memory limit, -Xms = -Xmx; Strimzi's own default Kafka heap is 50%, documentation/modules/
   * con-common-configuration-properties.adoc:676-698 at 1.2.0); Strimzi: -Xms/-Xmx match ^[0-9]+[mMgG]?$ (`<n>g`) — ../shared/schemas/crds/kafka.strimzi.io/KafkaNodePool.yaml:196-203
   */
  controllerHeapGiB: int().optional(),
  /**
   * `lab:zonePlacement`: the stack's own choice (its rule here): {@link ZONE_PLACEMENT_RULE}. @default "preferred"
   * @source lab rule (the stack's own choice: no consumer reads the word); preferred is a required node affinity on topology.kubernetes.io/zone
   * = the file system's preferred AZ, a label the kubelet sets when it knows the zone — https://kubernetes.io/docs/reference/node/node-labels
   */
  zonePlacement: text().optional(),
  /**
   * `lab:brokerConfig` → `brokerConfig`.
   * @source lab rule (KAFKA_BROKER_SETTINGS keys only: Kafka ignores unknown keys); Strimzi 1.2.0: no option it sets itself (KafkaClusterSpec.java:56-72),
   * each value parsed as its ConfigDef type and atLeast (config-model/.../ConfigModel.java:192-201); Kafka: each entry's `source` define (apache/kafka 1eb76443)
   */
  brokerConfig: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]), {
      error:
        "an object of Kafka broker settings, each a key of KAFKA_BROKER_SETTINGS (components/kafka/broker-settings.ts) within Kafka's type and range for it",
    })
    .optional(),
  /**
   * `lab:ombImage` → OmbBenchmark `image`; unset: the eks stack's OMB image (its output `images.omb`, `lab:images: [omb]` there).
   * @source lab rule (pinned: a tag other than latest, or a sha256/sha512 digest; built from docker/Dockerfile.build); runtimes: distribution/reference,
   * a path ≤ 255 characters, tag [\w][\w.-]{0,127} — distribution/reference regexp.go:68,136, reference.go:209 (v0.6.0)
   */
  ombImage: text().optional(),
  /**
   * `lab:ombWorkers` → `workers`.
   * @source lab rule (≤ 64, one a node of {clientNodeGroup}); OMB: checkArgument(workers.size() > 1), half producers, half consumers —
   * openmessaging/benchmark benchmark-framework/.../worker/DistributedWorkersEnsemble.java:48,73 (85599891)
   */
  ombWorkers: int().optional(),
  /**
   * `lab:clientNodeGroup` → `clientNodeGroup`.
   * @source lab rule (an RFC 1123 label, as the eks stack names its groups; a dedicated group of {eksStack}); Kubernetes: the node-affinity
   * and toleration value on storage-bench-lab/node-group: a label value, ≤ 63 of [A-Za-z0-9_.-], alphanumeric ends — kubernetes/apimachinery pkg/api/validate/content/kube.go:74-92 (v0.35.7)
   */
  clientNodeGroup: text().optional(),
  /**
   * `lab:ombWorkload` → `workload`.
   * @source lab rule (the two files components/omb/files.ts renders: upstream's workloads/1-topic-100-partitions-1kb.yaml and NetApp's 4-topic 32 KiB edit);
   * OMB: a workload YAML read into Workload — openmessaging/benchmark benchmark-framework/src/main/java/io/openmessaging/benchmark/Workload.java (85599891)
   */
  ombWorkload: text().optional(),
  /**
   * `lab:testDurationMinutes` → `testDurationMinutes`.
   * @source lab rule (1–1440, within the driver Job's deadline); OMB: testDurationMinutes an int of minutes, the test after the warm-up —
   * openmessaging/benchmark benchmark-framework/.../Workload.java:65, WorkloadGenerator.java:141-143 (85599891)
   */
  testDurationMinutes: int().optional(),
  /**
   * `lab:ombDrivers` → `drivers`.
   * @source lab rule (NetApp's two of upstream's 14 Kafka driver files, edited by components/omb/files.ts); OMB: `--drivers` takes driver YAML files —
   * openmessaging/benchmark driver-kafka/kafka-sync.yaml, driver-kafka/kafka-throughput.yaml (85599891)
   */
  ombDrivers: list(text()).optional(),
  /**
   * `lab:replicationFactors` → `replicationFactors`.
   * @source lab rule (1–30, distinct, ≤ {brokers}); OMB: replicationFactor a short given to every NewTopic — openmessaging/benchmark driver-kafka/.../Config.java:17,
   * KafkaTopicCreator.java:104 (85599891); Kafka: positive, ≤ the registered brokers — apache/kafka metadata/.../StripedReplicaPlacer.java:399-417 (1eb76443)
   */
  replicationFactors: list(int()).optional(),
  /**
   * `lab:reps` → `reps`.
   * @source lab rule (the lab's own loop in the cell's Job, no upstream reads it; ≤ 10 bounds the Job's deadline); driver.sh takes a whole number ≥ 1 —
   * components/omb/scripts/driver.sh:35-37
   */
  reps: int().optional(),
  /**
   * `lab:workerResources` → `workerResources`.
   * @source Kubernetes: quantities (cores or m; bytes, k/M/G/T, Ki/Mi/Gi/Ti), each limit ≥ its request — kubernetes/apimachinery pkg/api/resource/quantity.go:40-58
   * (v0.35.7), kubernetes/kubernetes#115434; requests must fit the node's allocatable, a worker's and a driver's together — awslabs/amazon-eks-ami nodeadm/internal/kubelet/config.go (e48b98ad)
   */
  workerResources: resources.optional(),
  /**
   * `lab:workerHeapGiB` → `workerHeapGiB`.
   * @source lab rule (1–1024, ≤ half the memory limit: the JVM needs memory beyond its heap); OMB: HEAP_OPTS replaces "-Xms4G -Xmx4G" as java's
   * heap options — openmessaging/benchmark bin/benchmark-worker:22-27,37 (85599891)
   */
  workerHeapGiB: int().optional(),
  /**
   * `lab:driverResources` → `driverResources`.
   * @source Kubernetes: quantities (cores or m; bytes, k/M/G/T, Ki/Mi/Gi/Ti), each limit ≥ its request — kubernetes/apimachinery pkg/api/resource/quantity.go:40-58
   * (v0.35.7), kubernetes/kubernetes#115434; requests must fit the node's allocatable, a worker's and a driver's together — awslabs/amazon-eks-ami nodeadm/internal/kubelet/config.go (e48b98ad)
   */
  driverResources: resources.optional(),
  /**
   * `lab:driverHeapGiB` → `driverHeapGiB`.
   * @source lab rule (1–1024, ≤ half the memory limit: the JVM needs memory beyond its heap); OMB: HEAP_OPTS replaces "-Xms4G -Xmx4G" as java's
   * heap options — openmessaging/benchmark bin/benchmark:22-30 (85599891)
   */
  driverHeapGiB: int().optional(),
});

export type KafkaConfig = z.output<typeof kafkaSchema>;

/** `lab:zonePlacement` with its default. */
export function zonePlacementOf(c: KafkaConfig): ZonePlacement {
  return (c.zonePlacement as ZonePlacement | undefined) ?? DEFAULT_ZONE_PLACEMENT;
}

/** The config as the KafkaCluster component's arguments (same names). */
export function kafkaArgs(c: KafkaConfig): KafkaClusterSpec {
  return {
    clusterName: c.clusterName,
    kafkaVersion: c.kafkaVersion,
    brokers: c.brokers,
    controllers: c.controllers,
    dataVolumes: c.dataVolumes as readonly string[],
    brokerVolumeGiB: c.brokerVolumeGiB,
    controllerVolumeGiB: c.controllerVolumeGiB,
    brokerNodeGroup: c.brokerNodeGroup,
    controllerNodeGroup: c.controllerNodeGroup,
    brokerResources: c.brokerResources,
    brokerHeapGiB: c.brokerHeapGiB,
    controllerResources: c.controllerResources,
    controllerHeapGiB: c.controllerHeapGiB,
    brokerConfig: c.brokerConfig,
  };
}

/** The config as the OmbBenchmark component's arguments; `bootstrapServers` is the Kafka cluster's. */
export function ombArgs(c: KafkaConfig, bootstrapServers: string): OmbSpec {
  return {
    runId: c.runId,
    bootstrapServers,
    workers: c.ombWorkers,
    clientNodeGroup: c.clientNodeGroup,
    workload: c.ombWorkload as OmbWorkload | undefined,
    testDurationMinutes: c.testDurationMinutes,
    drivers: c.ombDrivers as OmbDriver[] | undefined,
    replicationFactors: c.replicationFactors,
    reps: c.reps,
    workerResources: c.workerResources,
    workerHeapGiB: c.workerHeapGiB,
    driverResources: c.driverResources,
    driverHeapGiB: c.driverHeapGiB,
  };
}

/** The OMB argument names that differ from their keys. */
export const OMB_RENAMES = { workers: "ombWorkers", workload: "ombWorkload", drivers: "ombDrivers", image: "ombImage" } as const;

/**
 * Every component's rules over the config, and the ones between them: the matrix's replication
 * factors at most the brokers; the brokers', controllers' and clients' node groups all different.
 * The Kafka cluster's bootstrap address comes from its resolved name and namespace.
 */
export function checkKafka(c: KafkaConfig): ArgProblem[] {
  const kafka = kafkaProblems(kafkaArgs(c));
  const k = kafka.length === 0 ? resolveKafka(kafkaArgs(c)) : undefined;
  const bootstrap = bootstrapServers(k ?? KAFKA_DEFAULTS);
  const omb = renamed(ombProblems(ombArgs(c, bootstrap)), OMB_RENAMES);
  const image = c.ombImage === undefined ? [] : renamed(ombImageProblems(c.ombImage, "image"), OMB_RENAMES);
  const across: ArgProblem[] = [];
  // The matrix's factors, given or default, against the brokers, given or default.
  const brokers = c.brokers ?? KAFKA_DEFAULTS.brokers;
  const brokersOk = Number.isInteger(brokers) && brokers >= 1 && brokers <= 30;
  if (brokersOk && c.replicationFactors !== undefined) {
    for (const [i, rf] of c.replicationFactors.entries())
      if (Number.isInteger(rf) && rf > brokers)
        across.push(argProblem(`replicationFactors[${i}]`, `at most {brokers} (${brokers}): a topic has at most one replica a broker`, rf));
  } else if (brokersOk) {
    const top = Math.max(...OMB_DEFAULTS.replicationFactors);
    if (top > brokers)
      across.push(
        argProblem(
          "brokers",
          `at least ${top}, the largest of the default {replicationFactors} (${OMB_DEFAULTS.replicationFactors.join(", ")}), or set {replicationFactors}`,
          brokers,
        ),
      );
  }
  const client = c.clientNodeGroup ?? OMB_DEFAULTS.clientNodeGroup;
  if (k !== undefined && (client === k.brokerNodeGroup || client === k.controllerNodeGroup))
    across.push(
      argProblem(
        "clientNodeGroup",
        "a node group other than {brokerNodeGroup} and {controllerNodeGroup}: brokers and clients never share a node",
        client,
      ),
    );
  if (c.zonePlacement !== undefined && !(ZONE_PLACEMENTS as readonly string[]).includes(c.zonePlacement))
    across.push(argProblem("zonePlacement", ZONE_PLACEMENT_RULE, c.zonePlacement));
  return [...kafka, ...omb, ...image, ...across];
}
