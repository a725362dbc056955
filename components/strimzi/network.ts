/**
 * The Strimzi operator namespace's NetworkPolicies (pure), on top of the baseline
 * (components/lib/network-policy.ts: default deny of ingress and egress, DNS to kube-dns), and the
 * label the operator selects its own namespace by in the policies it generates.
 *
 * The cluster operator (the chart's Deployment `strimzi-cluster-operator`, pods labelled
 * `name: strimzi-cluster-operator`, `strimzi.io/kind: cluster-operator`, chart 1.2.0
 * templates/060-Deployment-strimzi-cluster-operator.yaml) needs, out of its namespace:
 * - the Kubernetes API server (TCP 443: the `kubernetes` Service's address and the node subnets,
 *   as the Kafka pods' rule, components/kafka/network.ts says why);
 * - the Kafka pods of the namespaces it watches (`strimzi.io/kind: Kafka`): the control plane 9090
 *   and replication 9091 listeners (its admin client) and the Kafka agent 8443 (broker state while
 *   rolling), the ports Strimzi's own generated policy admits it on (KafkaCluster.java
 *   `generateNetworkPolicy`, Strimzi 1.2.0).
 * Nothing connects to it: no ingress rule (its metrics and health port 8080 are read by the kubelet's
 * probes only; the lab scrapes no metrics).
 *
 * `STRIMZI_OPERATOR_NAMESPACE_LABELS` (the chart's `image.operatorNamespaceLabels`, templates
 * 060-Deployment: `{{- if .Values.image.operatorNamespaceLabels }}`): without it, an operator in
 * another namespace than the Kafka's is admitted by Strimzi's generated policy from every namespace
 * (NetworkPolicyUtils.clusterOperatorNamespaceSelector: "open it to COs in all namespaces"), so any
 * pod labelled `strimzi.io/kind: cluster-operator` anywhere could reach the brokers' control plane.
 * With the label every namespace carries, `kubernetes.io/metadata.name=<operator namespace>` (set by
 * the API server), only the operator's namespace is.
 */
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { CONTROLPLANE_PORT, KAFKA_AGENT_PORT, REPLICATION_PORT } from "../kafka/network";
import { API_SERVER_PORT, apiServerPeers, baselineNetworkPolicies } from "../lib/network-policy";

export const OPERATOR_EGRESS_POLICY = "strimzi-operator-egress";
/** The chart's operator pod labels (its selector). */
export const OPERATOR_POD_LABELS = { name: "strimzi-cluster-operator", "strimzi.io/kind": "cluster-operator" } as const;

/** STRIMZI_OPERATOR_NAMESPACE_LABELS of the operator in `namespace` (`key=value`, Strimzi's Labels.fromString form). */
export function operatorNamespaceLabels(namespace: string): string {
  return `kubernetes.io/metadata.name=${namespace}`;
}

/** The operator's egress: the API server, and the watched namespaces' Kafka pods on 9090, 9091 and 8443. */
export function operatorEgressPolicy(
  namespace: string,
  watchNamespaces: readonly string[],
  nodeCidrs: readonly string[],
  apiServerIp: string,
): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: OPERATOR_EGRESS_POLICY, namespace, labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
    spec: {
      podSelector: { matchLabels: { ...OPERATOR_POD_LABELS } },
      policyTypes: ["Egress"],
      egress: [
        { to: apiServerPeers(apiServerIp, nodeCidrs), ports: [{ protocol: "TCP", port: API_SERVER_PORT }] },
        {
          to: watchNamespaces.map((ns) => ({
            namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": ns } },
            podSelector: { matchLabels: { "strimzi.io/kind": "Kafka" } },
          })),
          ports: [CONTROLPLANE_PORT, REPLICATION_PORT, KAFKA_AGENT_PORT].map((port) => ({ protocol: "TCP", port })),
        },
      ],
    },
  };
}

/** Every NetworkPolicy of the operator's namespace. */
export function strimziNetworkPolicies(
  namespace: string,
  watchNamespaces: readonly string[],
  nodeCidrs: readonly string[],
  apiServerIp: string,
): INetworkPolicy[] {
  return [...baselineNetworkPolicies(namespace), operatorEgressPolicy(namespace, watchNamespaces, nodeCidrs, apiServerIp)];
}
