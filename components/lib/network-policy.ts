/**
 * NetworkPolicies every lab namespace gets (pure): deny all ingress and egress by default, then
 * allow DNS to the cluster's resolver. Each workload adds its own flows (components/mysql).
 *
 * Enforced on EKS by the Amazon VPC CNI's network policy agent once the vpc-cni add-on has
 * `enableNetworkPolicy: "true"` (components/eks: pulumi-eks `vpcCniOptions.enableNetworkPolicy`;
 * Amazon EKS User Guide, "Limit Pod traffic with Kubernetes network policies",
 * docs.aws.amazon.com/eks/latest/userguide/cni-network-policy.html). Without enforcement the
 * objects are accepted and do nothing. A namespace with a default-deny egress policy cannot
 * resolve names until DNS is allowed to `kube-dns` explicitly; the AWS maintainers' answer is the
 * rule below (aws/aws-network-policy-agent issue #230: namespaceSelector kube-system + podSelector
 * `k8s-app: kube-dns`, UDP and TCP 53). The EKS CoreDNS add-on's pods carry `k8s-app: kube-dns`, and
 * so do k0s's (k0sproject/k0s pkg/component/controller/coredns.go, the Deployment's pod template);
 * every namespace carries `kubernetes.io/metadata.name` (set by the API server since 1.22).
 */
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";

export const DEFAULT_DENY_POLICY = "default-deny";
export const DNS_EGRESS_POLICY = "allow-dns";
/** The cluster resolver's pods (EKS CoreDNS add-on) and their namespace. */
export const KUBE_DNS_PEER = {
  namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
  podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
};

const meta = (name: string, namespace: string) => ({
  name,
  namespace,
  labels: { "app.kubernetes.io/part-of": "storage-bench-lab" },
});

/** Every pod of the namespace: no ingress, no egress (rules of other policies add up). */
export function defaultDenyPolicy(namespace: string): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(DEFAULT_DENY_POLICY, namespace),
    spec: { podSelector: {}, policyTypes: ["Ingress", "Egress"] },
  };
}

/** Every pod of the namespace may query the cluster's DNS (UDP and TCP 53), nothing else. */
export function dnsEgressPolicy(namespace: string): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(DNS_EGRESS_POLICY, namespace),
    spec: {
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [
        {
          to: [KUBE_DNS_PEER],
          ports: [
            { protocol: "UDP", port: 53 },
            { protocol: "TCP", port: 53 },
          ],
        },
      ],
    },
  };
}

/** The namespace's baseline: default deny, then DNS. */
export function baselineNetworkPolicies(namespace: string): INetworkPolicy[] {
  return [defaultDenyPolicy(namespace), dnsEgressPolicy(namespace)];
}
