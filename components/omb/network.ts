/**
 * The OMB namespace's NetworkPolicies (pure), on top of the baseline (components/lib/network-policy.ts:
 * default deny of ingress and egress, DNS to kube-dns): exactly the benchmark's flows.
 *
 * - The workers' HTTP API (8080) and stats port (8081), which take unauthenticated commands, admit
 *   the driver Jobs' pods only (OMB's driver calls every worker: `--workers http://…:8080`;
 *   benchmark-framework DistributedWorkersEnsemble, the workers never call one another).
 * - The driver reaches the workers on those ports.
 * - Every OMB pod (workers producing and consuming, the driver's admin client creating topics, its
 *   topic clean-up init container) reaches the Kafka pods of the benchmarked cluster on the plain
 *   listener (9092): the bootstrap Service's and the brokers' own addresses, both the broker pods.
 *   Kafka's side admits this namespace only (components/kafka/network.ts, the listener's
 *   `networkPolicyPeers`).
 */
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { baselineNetworkPolicies } from "../lib/network-policy";
import { DRIVER_NAME, WORKER_NAME } from "./manifests";
import { WORKER_PORT, WORKER_STATS_PORT } from "./rules";

export const WORKER_INGRESS_POLICY = "omb-worker-ingress";
export const DRIVER_EGRESS_POLICY = "omb-driver-egress";
export const KAFKA_EGRESS_POLICY = "omb-kafka-egress";

/** The Kafka cluster the clients benchmark: its namespace, the selector of its pods, its client port. */
export interface KafkaPeer {
  readonly namespace: string;
  readonly podLabels: Readonly<Record<string, string>>;
  readonly port: number;
}

const meta = (name: string, namespace: string) => ({ name, namespace, labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } });
const workerPods = () => ({ matchLabels: { "app.kubernetes.io/name": WORKER_NAME } });
const driverPods = () => ({ matchLabels: { "app.kubernetes.io/name": DRIVER_NAME } });
const workerPorts = () => [
  { protocol: "TCP" as const, port: WORKER_PORT },
  { protocol: "TCP" as const, port: WORKER_STATS_PORT },
];

export function workerIngressPolicy(namespace: string): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(WORKER_INGRESS_POLICY, namespace),
    spec: {
      podSelector: workerPods(),
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ podSelector: driverPods() }], ports: workerPorts() }],
    },
  };
}

export function driverEgressPolicy(namespace: string): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(DRIVER_EGRESS_POLICY, namespace),
    spec: { podSelector: driverPods(), policyTypes: ["Egress"], egress: [{ to: [{ podSelector: workerPods() }], ports: workerPorts() }] },
  };
}

export function kafkaEgressPolicy(namespace: string, kafka: KafkaPeer): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(KAFKA_EGRESS_POLICY, namespace),
    spec: {
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [
        {
          to: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": kafka.namespace } },
              podSelector: { matchLabels: { ...kafka.podLabels } },
            },
          ],
          ports: [{ protocol: "TCP", port: kafka.port }],
        },
      ],
    },
  };
}

/** Every NetworkPolicy of the OMB namespace. */
export function ombNetworkPolicies(namespace: string, kafka: KafkaPeer): INetworkPolicy[] {
  return [
    ...baselineNetworkPolicies(namespace),
    workerIngressPolicy(namespace),
    driverEgressPolicy(namespace),
    kafkaEgressPolicy(namespace, kafka),
  ];
}
