/**
 * Stack kind `kafka`: NetApp's Kafka-on-FSx-for-ONTAP experiment on EKS, joining an `fsx-ontap`
 * stack (the file system with its data volumes: `lab:fsxOntapStack`) and an `eks` stack (the cluster
 * with brokers', clients' and system node groups: `lab:eksStack`):
 *
 * - the Strimzi operator (chart 1.2.0) watching the Kafka namespace;
 * - Kafka 4.3 in KRaft mode: controllers on gp3, brokers on static NFS volumes (every broker mounts
 *   every data volume, NFSv4.1 + nconnect=16, its own subdirectory on each), the published broker
 *   settings, rack = zone (components/kafka);
 * - the OpenMessaging Benchmark: its image (`lab:ombImage`, or the one the eks stack built from
 *   upstream's Dockerfile: its output `images.omb`, `lab:images: [omb]` there, built beside the
 *   cluster, off the critical path, stacks/eks/images.ts), workers on the client nodes, and the matrix driver file ×
 *   replication factor, one driver Job per cell, one after the other, into `results`
 *   (components/omb).
 *
 * The upstream outputs are checked before any resource is registered (./upstream.ts through
 * stacks/lib/upstream.ts `whenUpstreamsFit`): the node groups, the data volumes, the NFS endpoint,
 * the OMB image (without `lab:ombImage`); a mismatch is a config error naming the key. No resource is created inside an `apply`.
 */
import * as aws from "@pulumi/aws";
import { STORAGE_CLASS_REPLACE_ON_CHANGES } from "../../components/lib/kubernetes";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { GP3_STORAGE_CLASS, gp3StorageClassManifest } from "../../components/eks/storage";
import { KafkaCluster } from "../../components/kafka";
import { bootstrapServers, PLAIN_LISTENER_PORT } from "../../components/kafka/manifests";
import { kafkaPodSelector } from "../../components/kafka/network";
import { NFS_MOUNT_OPTIONS, resolve as resolveKafka } from "../../components/kafka/rules";
import { STATIC_STORAGE_CLASS } from "../../components/kafka/storage";
import { OmbBenchmark } from "../../components/omb";
import { noOmbImageRule, resolve as resolveOmb } from "../../components/omb/rules";
import { StrimziOperator } from "../../components/strimzi";
import { argProblem } from "../../core/errors";
import { maintenanceMetadata } from "../../core/maintenance";
import { readEks } from "../eks/outputs";
import { readFsxOntap } from "../fsx-ontap/outputs";
import { parseConfig } from "../lib/config/load";
import { labAwsProvider, StackIdentity } from "../lib/context";
import { whenUpstreamsFit } from "../lib/upstream";
import { checkKafka, kafkaArgs, KafkaConfig, kafkaSchema, ombArgs, zonePlacementOf } from "./config";
import {
  dataVolumeProblems,
  driverPlacementProblems,
  nfsEndpointProblems,
  placementOf,
  placementProblems,
  svmManagementEndpointProblems,
  vsadminCredentialsOf,
  Workload,
  volumeStyleMetadata,
  zoneMetadata,
} from "./upstream";

/** The scenario this kind's samples belong to. */
export const SCENARIO = "kafka-fsx";

/** What is read of the fsx-ontap stack. */
const FSX_OUTPUTS = [
  "nfsEndpoint",
  "securityGroupId",
  "volumes",
  "throughputCapacityMBps",
  "preferredAz",
  "svmName",
  "svmManagementEndpoint",
  "credentialsSecretArn",
  "clientSubnetCidrs",
  "maintenanceWindow",
] as const;
/** What is read of the eks stack: `images` only without `lab:ombImage`. */
const EKS_OUTPUTS = ["kubeconfig", "nodeSecurityGroupId", "nodeGroups", "serviceIpv4Cidr", "images", "networkPolicyEnforced"] as const;

/** Without `lab:ombImage`, the eks stack must export an OMB image (`lab:images: [omb]` there). */
export function ombImageSourceProblems(
  cfg: Pick<KafkaConfig, "ombImage" | "eksStack">,
  images: { tools?: string; omb?: string } | undefined,
) {
  return cfg.ombImage === undefined && images?.omb === undefined ? [argProblem("ombImage", noOmbImageRule(cfg.eksStack), undefined)] : [];
}

export function kafkaStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("kafka", kafkaSchema, raw, checkKafka);
  const k = resolveKafka(kafkaArgs(cfg));
  const o = resolveOmb(ombArgs(cfg, bootstrapServers(k)));
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const fsx = readFsxOntap(cfg.fsxOntapStack, FSX_OUTPUTS);
  const zonePlacement = zonePlacementOf(cfg);
  const eks = readEks(
    cfg.eksStack,
    EKS_OUTPUTS.filter((n) => n !== "images" || cfg.ombImage === undefined) as unknown as typeof EKS_OUTPUTS,
  );
  // The brokers' and the clients' groups must run in `zone` only (when given).
  const workloads = (zone: string | undefined): Workload[] => [
    {
      groupKey: "brokerNodeGroup",
      group: k.brokerNodeGroup,
      countKey: "brokers",
      count: k.brokers,
      dedicated: true,
      resourcesKey: "brokerResources",
      resources: k.brokerResources,
      role: "brokers",
      zone,
    },
    {
      groupKey: "controllerNodeGroup",
      group: k.controllerNodeGroup,
      count: 1,
      dedicated: false,
      resourcesKey: "controllerResources",
      resources: k.controllerResources,
      role: "controllers",
    },
    {
      groupKey: "clientNodeGroup",
      group: o.clientNodeGroup,
      countKey: "ombWorkers",
      count: o.workers,
      dedicated: true,
      resourcesKey: "workerResources",
      resources: o.workerResources,
      role: "OMB workers",
      zone,
    },
  ];
  // Every upstream rule before any resource (stacks/lib/upstream.ts): one config error with every problem.
  return whenUpstreamsFit(
    { fsx, eks },
    ({ fsx: f, eks: e }) => [
      ...(e ? placementProblems(e.nodeGroups, workloads(zonePlacement === "preferred" ? f?.preferredAz : undefined)) : []),
      ...(e ? driverPlacementProblems(e.nodeGroups, o.clientNodeGroup, o.workers, o.workerResources, o.driverResources) : []),
      ...(f
        ? [
            ...dataVolumeProblems(f.volumes, k.dataVolumes),
            ...nfsEndpointProblems(f.nfsEndpoint, cfg.fsxOntapStack),
            ...svmManagementEndpointProblems(f.svmManagementEndpoint, cfg.fsxOntapStack),
          ]
        : []),
      ...(e ? ombImageSourceProblems(cfg, e.images) : []),
    ],
    () => build(cfg, id, k, o, provider, expiresAt, fsx, eks),
  );
}

/**
 * The SVM's vsadmin credentials, read from the fsx-ontap stack's Secrets Manager secret (the JSON
 * `{"username","password"}` Trident reads) at deploy time: secret in the state, never an output.
 */
function vsadminCredentials(secretArn: pulumi.Output<string>, provider: ReturnType<typeof labAwsProvider>["provider"]) {
  const version = aws.secretsmanager.getSecretVersionOutput({ secretId: secretArn }, { provider });
  return pulumi.secret(version.secretString.apply((text) => vsadminCredentialsOf(text)));
}

function build(
  cfg: KafkaConfig,
  id: StackIdentity,
  k: ReturnType<typeof resolveKafka>,
  o: ReturnType<typeof resolveOmb>,
  provider: ReturnType<typeof labAwsProvider>["provider"],
  expiresAt: pulumi.Output<string>,
  fsx: ReturnType<typeof readFsxOntap<(typeof FSX_OUTPUTS)[number]>>,
  eks: ReturnType<typeof readEks<(typeof EKS_OUTPUTS)[number]>>,
) {
  const placement = eks.nodeGroups.apply((groups) =>
    placementOf(groups, {
      brokerNodeGroup: k.brokerNodeGroup,
      controllerNodeGroup: k.controllerNodeGroup,
      clientNodeGroup: o.clientNodeGroup,
    }),
  );
  // Brokers and OMB clients in the preferred file server's zone (`lab:zonePlacement` preferred), or
  // wherever their node groups run (spread): docs/kinds/kafka.md, "Zones".
  const zonePlacement = zonePlacementOf(cfg);
  const zone = zonePlacement === "preferred" ? fsx.preferredAz : undefined;
  // No `deleteUnreachable` on this provider: with it, pulumi-kubernetes' `Read` answers an empty ID for
  // every object when the cluster cannot be reached (provider/pkg/provider/provider.go `Read`), so any
  // refresh while, e.g., the `aws eks get-token` credentials have expired would drop every Kubernetes
  // object of this stack from its state. A destroy out of order (the eks stack first) is the one case
  // for it, and it is asked for on that command only: `PULUMI_K8S_DELETE_UNREACHABLE=true pulumi
  // destroy` (the environment variable behind the provider's `deleteUnreachable`: pulumi-kubernetes
  // provider/pkg/gen/schema.go, `DefaultInfo.Environment`). docs/kinds/kafka.md, "Destroying": the right order
  // is this stack first, since its NFS rules on the file system's security group name the EKS nodes'
  // group, which cannot be deleted while they exist.
  const k8sProvider = new k8s.Provider("kafka-cluster", { kubeconfig: eks.kubeconfig });
  const nfsServer = fsx.nfsEndpoint.apply((e) => e?.dnsName ?? "");
  const inCluster = { provider: k8sProvider };

  const gp3 = new k8s.storage.v1.StorageClass("gp3", gp3StorageClassManifest() as k8s.storage.v1.StorageClassArgs, {
    ...inCluster,
    replaceOnChanges: [...STORAGE_CLASS_REPLACE_ON_CHANGES],
  });
  const strimzi = new StrimziOperator(
    "strimzi",
    { watchNamespaces: [k.namespace], nodeSubnetCidrs: fsx.clientSubnetCidrs, serviceIpv4Cidr: eks.serviceIpv4Cidr },
    inCluster,
  );
  const kafka = new KafkaCluster(
    "kafka",
    {
      ...kafkaArgs(cfg),
      nfsServer,
      nodeSecurityGroupId: eks.nodeSecurityGroupId,
      fsxSecurityGroupId: fsx.securityGroupId,
      operatorReady: [...strimzi.ready, gp3],
      zone,
      kubeconfig: eks.kubeconfig,
      svmName: fsx.svmName,
      // Never null here: svmManagementEndpointProblems has refused an SVM without one.
      svmManagementEndpoint: fsx.svmManagementEndpoint.apply((e) => e ?? { dnsName: "", ipAddresses: [] }),
      ontapCredentials: vsadminCredentials(fsx.credentialsSecretArn, provider),
      nodeSubnetCidrs: fsx.clientSubnetCidrs,
      serviceIpv4Cidr: eks.serviceIpv4Cidr,
      clientNamespace: o.namespace,
    },
    { providers: [provider, k8sProvider] },
  );

  // `lab:ombImage` as given, else the eks stack's OMB image (checked above, and by OmbBenchmark once it resolves).
  const image: pulumi.Output<string> = cfg.ombImage !== undefined ? pulumi.output(cfg.ombImage) : eks.images.apply((i) => i?.omb ?? "");
  const omb = new OmbBenchmark(
    "omb",
    {
      ...ombArgs(cfg, bootstrapServers(k)),
      image,
      kubeconfig: eks.kubeconfig,
      runAfter: kafka.ready,
      kafka: { namespace: k.namespace, podLabels: kafkaPodSelector(k.clusterName), port: PLAIN_LISTENER_PORT },
      zone,
      metadata: pulumi
        .all([placement, fsx.throughputCapacityMBps, fsx.preferredAz, eks.networkPolicyEnforced, fsx.maintenanceWindow, fsx.volumes])
        .apply(([p, throughput, preferredAz, enforced, maintenance, volumes]) => ({
          scenario: SCENARIO,
          stack: id.stack,
          brokerInstanceType: p.brokerInstanceType,
          clientInstanceType: p.clientInstanceType,
          fsxThroughputCapacityMBps: throughput,
          kafkaVersion: k.kafkaVersion,
          brokers: k.brokers,
          dataVolumes: k.dataVolumes.length,
          ...volumeStyleMetadata(volumes, k.dataVolumes),
          nfsMountOptions: NFS_MOUNT_OPTIONS.join(","),
          // NetApp's testbed enforced no NetworkPolicy; the lab's clusters do (components/eks NETWORK_POLICY_ENFORCED)
          networkPolicyEnforced: enforced ?? "unknown",
          ...zoneMetadata(zonePlacement, preferredAz, p, k.brokers, o.workers),
          ...maintenanceMetadata(maintenance),
        })),
    },
    inCluster,
  );

  return {
    bootstrapServers: kafka.bootstrapServers,
    kafkaNamespace: kafka.namespace,
    kafkaVersion: kafka.kafkaVersion,
    strimziVersion: strimzi.version,
    brokerPods: kafka.brokerPods,
    dataClaims: kafka.dataClaims,
    dataVolumes: kafka.dataVolumes,
    storageClasses: pulumi.output([GP3_STORAGE_CLASS, STATIC_STORAGE_CLASS]),
    ombImage: image,
    workerUrls: omb.workerUrls,
    benchmarks: omb.cells,
    results: omb.results,
    rawOutputs: omb.rawOutputs,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
