/**
 * The Kafka namespace's NetworkPolicies (pure), on top of the baseline (components/lib/network-policy.ts:
 * default deny of ingress and egress, DNS to kube-dns).
 *
 * Ingress to the Kafka pods is Strimzi's: its cluster operator generates the NetworkPolicy
 * `<cluster>-network-policy-kafka` (STRIMZI_NETWORK_POLICY_GENERATION, default true), selecting the
 * cluster's pods (`strimzi.io/cluster`, `strimzi.io/kind: Kafka`, `strimzi.io/name: <cluster>-kafka`)
 * and admitting the control plane 9090 from the cluster's pods and the cluster operator, replication
 * 9091 from them (and the entity operator, Kafka Exporter, Cruise Control, none of which the lab
 * runs), the agent 8443 from the operator, and each listener's port from its `networkPolicyPeers`,
 * or from everyone without them (cluster-operator/src/main/java/io/strimzi/operator/cluster/model/
 * KafkaCluster.java `generateNetworkPolicy`, Strimzi 1.2.0). The plain listener's peers are the OMB
 * namespace's pods (manifests.ts `kafkaManifest`). The operator runs in another namespace, so its peer
 * is `strimzi.io/kind: cluster-operator` in any namespace (NetworkPolicyUtils.clusterOperatorNamespaceSelector,
 * no STRIMZI_OPERATOR_NAMESPACE_LABELS given).
 *
 * Strimzi generates no egress rules; with the default deny, the Kafka pods' egress is this file's:
 * - among the cluster's pods on 9090 (controller quorum, brokers to controllers) and 9091
 *   (replication between brokers);
 * - TCP 443 to the Kubernetes API server, which Strimzi's `kafka-init` container reads the node's
 *   zone label from (rack awareness, `rack.topologyKey`; strimzi 1.2.0 kafka-init InitWriter). The
 *   pod connects to the `kubernetes` Service's cluster IP, and the VPC CNI's network policy agent
 *   judges egress before that address is translated to the endpoints, on the Service address; the
 *   EKS network policy controller adds Service addresses only for Services a rule's pod selector
 *   matches, and `kubernetes` has no selector (aws/amazon-network-policy-controller-k8s
 *   pkg/resolvers/endpoints.go; aws/aws-network-policy-agent#549 shows such a flow denied). So the
 *   rule names that cluster IP, the first address of the cluster's Service range (Kubernetes docs,
 *   "Extend Service IP Ranges": the well-known `kubernetes` Service takes the first IP address of the
 *   default ServiceCIDR), and also the node subnets, where EKS puts the endpoint's network interfaces
 *   (Amazon EKS User Guide, "View Amazon EKS networking requirements for VPC and subnets").
 */
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { API_SERVER_PORT, apiServerPeers, baselineNetworkPolicies, kubernetesServiceIp } from "../lib/network-policy";
import { ResolvedKafka } from "./rules";

/** Strimzi's control plane and replication listeners (KafkaCluster.CONTROLPLANE_PORT, REPLICATION_PORT). */
export const CONTROLPLANE_PORT = 9090;
export const REPLICATION_PORT = 9091;
/** The Kafka agent's port on every Kafka pod, which the cluster operator reads the broker state from (KafkaCluster.KAFKA_AGENT_PORT). */
export const KAFKA_AGENT_PORT = 8443;
export { API_SERVER_PORT, kubernetesServiceIp };
export const KAFKA_EGRESS_POLICY = "kafka-egress";

/** Strimzi's selector labels of a cluster's Kafka pods (every pool's). */
export function kafkaPodSelector(clusterName: string): Record<string, string> {
  return { "strimzi.io/cluster": clusterName, "strimzi.io/kind": "Kafka", "strimzi.io/name": `${clusterName}-kafka` };
}

/** The plain listener's `networkPolicyPeers`: every pod of the clients' namespace. */
export function listenerPeers(clientNamespace: string): Array<Record<string, unknown>> {
  return [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": clientNamespace } } }];
}

/** The Kafka pods' egress: to each other on 9090 and 9091, to the API server (443: its Service address and the node subnets). */
export function kafkaEgressPolicy(
  r: Pick<ResolvedKafka, "clusterName" | "namespace">,
  nodeCidrs: readonly string[],
  apiServerIp: string,
): INetworkPolicy {
  const pods = kafkaPodSelector(r.clusterName);
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: KAFKA_EGRESS_POLICY, namespace: r.namespace, labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
    spec: {
      podSelector: { matchLabels: { ...pods } },
      policyTypes: ["Egress"],
      egress: [
        {
          to: [{ podSelector: { matchLabels: { ...pods } } }],
          ports: [
            { protocol: "TCP", port: CONTROLPLANE_PORT },
            { protocol: "TCP", port: REPLICATION_PORT },
          ],
        },
        {
          to: apiServerPeers(apiServerIp, nodeCidrs),
          ports: [{ protocol: "TCP", port: API_SERVER_PORT }],
        },
      ],
    },
  };
}

/** Every NetworkPolicy of the Kafka namespace the lab writes (Strimzi adds its ingress policy). */
export function kafkaNetworkPolicies(
  r: Pick<ResolvedKafka, "clusterName" | "namespace">,
  nodeCidrs: readonly string[],
  apiServerIp: string,
): INetworkPolicy[] {
  return [...baselineNetworkPolicies(r.namespace), kafkaEgressPolicy(r, nodeCidrs, apiServerIp)];
}
