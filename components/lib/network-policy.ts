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
import { DeployTimeError } from "./deploy-error";

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

/** The API server's port behind the `kubernetes` Service. */
export const API_SERVER_PORT = 443;

/**
 * The `kubernetes` Service's cluster IP: the first address of the cluster's Service range
 * (Kubernetes docs, "Extend Service IP Ranges": the well-known `kubernetes` Service takes the first
 * IP address of the default ServiceCIDR). Why an egress rule names it (the VPC CNI judges egress on
 * the Service address, and `kubernetes` has no selector): components/kafka/network.ts.
 * `serviceCidr`: an IPv4 network CIDR, e.g. 172.20.0.0/16 → 172.20.0.1.
 */
export function kubernetesServiceIp(serviceCidr: string): string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(serviceCidr);
  const octets = m ? m.slice(1, 5).map(Number) : [];
  const prefix = m ? Number(m[5]) : NaN;
  if (!m || octets.some((o) => o > 255) || !(prefix >= 8 && prefix <= 30))
    throw new DeployTimeError([
      `the cluster's Service range must be an IPv4 CIDR with a prefix from /8 to /30, got ${JSON.stringify(serviceCidr)}`,
    ]);
  const value = octets.reduce((n, o) => n * 256 + o, 0);
  const size = 2 ** (32 - prefix);
  const first = value - (value % size) + 1;
  return [24, 16, 8, 0].map((shift) => Math.floor(first / 2 ** shift) % 256).join(".");
}

/** Egress peers of the API server: its Service address and the node subnets, where EKS puts the endpoint's network interfaces. */
export function apiServerPeers(apiServerIp: string, nodeCidrs: readonly string[]): Array<{ ipBlock: { cidr: string } }> {
  return [`${apiServerIp}/32`, ...nodeCidrs].map((cidr) => ({ ipBlock: { cidr } }));
}
