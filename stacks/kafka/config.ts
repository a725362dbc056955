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
  /** `lab:fsxOntapStack`: the FSx for ONTAP stack (the SVM's NFS endpoint, the volumes, the security group, the throughput). */
  fsxOntapStack: stackName("fsx-ontap"),
  /** `lab:eksStack`: the EKS stack (kubeconfig, node security group, node groups). */
  eksStack: stackName("eks"),
  /** `lab:clusterName` → KafkaCluster `clusterName`. */
  clusterName: text().optional(),
  /** `lab:kafkaVersion` → `kafkaVersion`. */
  kafkaVersion: text().optional(),
  /** `lab:brokers` → `brokers`. */
  brokers: int().optional(),
  /** `lab:controllers` → `controllers`. */
  controllers: int().optional(),
  /** `lab:dataVolumes` → `dataVolumes`: junction paths of the fsx-ontap stack's volumes. */
  dataVolumes: list(text()).optional(),
  /** `lab:brokerVolumeGiB` → `brokerVolumeGiB`. */
  brokerVolumeGiB: int().optional(),
  /** `lab:controllerVolumeGiB` → `controllerVolumeGiB`. */
  controllerVolumeGiB: int().optional(),
  /** `lab:brokerNodeGroup` → `brokerNodeGroup`. */
  brokerNodeGroup: text().optional(),
  /** `lab:controllerNodeGroup` → `controllerNodeGroup`. */
  controllerNodeGroup: text().optional(),
  /** `lab:brokerResources` → `brokerResources`. */
  brokerResources: resources.optional(),
  /** `lab:brokerHeapGiB` → `brokerHeapGiB`. */
  brokerHeapGiB: int().optional(),
  /** `lab:controllerResources` → `controllerResources`. */
  controllerResources: resources.optional(),
  /** `lab:controllerHeapGiB` → `controllerHeapGiB`. */
  controllerHeapGiB: int().optional(),
  /** `lab:zonePlacement`: the stack's own choice (its rule here): {@link ZONE_PLACEMENT_RULE}. @default "preferred" */
  zonePlacement: text().optional(),
  /** `lab:brokerConfig` → `brokerConfig`. */
  brokerConfig: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]), {
      error:
        "an object of Kafka broker settings, each a key of KAFKA_BROKER_SETTINGS (components/kafka/broker-settings.ts) within Kafka's type and range for it",
    })
    .optional(),
  /** `lab:ombImage` → OmbBenchmark `image`; unset: the eks stack's OMB image (its output `images.omb`, `lab:images: [omb]` there). */
  ombImage: text().optional(),
  /** `lab:ombWorkers` → `workers`. */
  ombWorkers: int().optional(),
  /** `lab:clientNodeGroup` → `clientNodeGroup`. */
  clientNodeGroup: text().optional(),
  /** `lab:ombWorkload` → `workload`. */
  ombWorkload: text().optional(),
  /** `lab:testDurationMinutes` → `testDurationMinutes`. */
  testDurationMinutes: int().optional(),
  /** `lab:ombDrivers` → `drivers`. */
  ombDrivers: list(text()).optional(),
  /** `lab:replicationFactors` → `replicationFactors`. */
  replicationFactors: list(int()).optional(),
  /** `lab:reps` → `reps`. */
  reps: int().optional(),
  /** `lab:workerResources` → `workerResources`. */
  workerResources: resources.optional(),
  /** `lab:workerHeapGiB` → `workerHeapGiB`. */
  workerHeapGiB: int().optional(),
  /** `lab:driverResources` → `driverResources`. */
  driverResources: resources.optional(),
  /** `lab:driverHeapGiB` → `driverHeapGiB`. */
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
