/** The scenarios the lab ships (README: the experiments table and the stack graph). */
import { Scenario } from "./types";

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "fsx-eks",
    description:
      "FSx for ONTAP on EKS: Trident ontap-nas, MySQL 8.4, fio/ioping with the pod in the file system's preferred zone and in its standby zone, gp3 baseline",
    // network → (fsx-eks-ontap ∥ fsx-eks-cluster) → fsx-eks: the lab:*Stack keys give the order.
    stacks: [
      { name: "network", file: "Pulumi.network.yaml" },
      { name: "fsx-eks-ontap", file: "Pulumi.fsx-eks-ontap.yaml" },
      { name: "fsx-eks-cluster", file: "Pulumi.fsx-eks-cluster.yaml" },
      { name: "fsx-eks", file: "Pulumi.fsx-eks.yaml" },
    ],
    // After the benchmarks, before any destroy: the MySQL pod moved to the other zone with its data,
    // then the file system's failover (a throughput change) under a long fio write (lab/experiment).
    steps: [
      { kind: "mysql-failover", stack: "fsx-eks" },
      { kind: "fsx-failover", stack: "fsx-eks" },
    ],
  },
  {
    name: "kafka-fsx",
    description:
      "Kafka on FSx for ONTAP: Strimzi Kafka 4.3 (KRaft), 3 brokers on six shared NFS volumes (nconnect=16), OpenMessaging Benchmark kafka-sync and kafka-throughput at RF 1 and RF 3",
    // network → (kafka-ontap ∥ kafka-cluster) → kafka: the lab:*Stack keys give the order.
    stacks: [
      { name: "network", file: "Pulumi.network.yaml" },
      { name: "kafka-ontap", file: "Pulumi.kafka-ontap.yaml" },
      { name: "kafka-cluster", file: "Pulumi.kafka-cluster.yaml" },
      { name: "kafka", file: "Pulumi.kafka.yaml" },
    ],
  },
  {
    name: "ceph-nitro",
    description: "Ceph (Rook) on k0s: m4.xlarge (Xen, stack dev) vs m5.xlarge (Nitro, stack nitro), pgbench TPC-B",
    stacks: [
      { name: "network", file: "Pulumi.network.yaml" },
      { name: "dev", file: "Pulumi.dev.yaml" },
      { name: "nitro", file: "Pulumi.nitro.yaml" },
      { name: "compare", file: "Pulumi.compare-ceph-nitro.yaml" },
    ],
  },
];
