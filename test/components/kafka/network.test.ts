/** The Kafka namespace's NetworkPolicies (Strimzi generates the ingress ones): valid objects, exact egress. */
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { kafkaNetworkPolicies, kubernetesServiceIp, listenerPeers } from "../../../components/kafka/network";
import { resolve } from "../../../components/kafka/rules";

const r = resolve({ dataVolumes: ["/kafkafsxN1"] });

describe("the Kafka namespace's NetworkPolicies", () => {
  const policies = kafkaNetworkPolicies(r, ["10.0.0.0/18", "10.0.64.0/18"], "172.20.0.1");

  test("default deny, DNS, and the Kafka pods' egress: to each other on 9090/9091, to the API server (its Service address and the node subnets, 443)", () => {
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(policies.map((p) => p.metadata!.name)).toEqual(["default-deny", "allow-dns", "kafka-egress"]);
    const pods = { "strimzi.io/cluster": "kafka", "strimzi.io/kind": "Kafka", "strimzi.io/name": "kafka-kafka" };
    expect(policies[2].spec).toEqual({
      podSelector: { matchLabels: pods },
      policyTypes: ["Egress"],
      egress: [
        {
          to: [{ podSelector: { matchLabels: pods } }],
          ports: [
            { protocol: "TCP", port: 9090 },
            { protocol: "TCP", port: 9091 },
          ],
        },
        {
          to: [{ ipBlock: { cidr: "172.20.0.1/32" } }, { ipBlock: { cidr: "10.0.0.0/18" } }, { ipBlock: { cidr: "10.0.64.0/18" } }],
          ports: [{ protocol: "TCP", port: 443 }],
        },
      ],
    });
  });

  test("the API server's Service address: the first address of the cluster's Service range", () => {
    expect(kubernetesServiceIp("172.20.0.0/16")).toBe("172.20.0.1");
    expect(kubernetesServiceIp("10.100.0.0/16")).toBe("10.100.0.1");
    expect(kubernetesServiceIp("10.96.5.7/12")).toBe("10.96.0.1");
    expect(kubernetesServiceIp("192.168.255.0/24")).toBe("192.168.255.1");
    expect(() => kubernetesServiceIp("fd00::/108")).toThrow(
      `the cluster's Service range must be an IPv4 CIDR with a prefix from /8 to /30, got "fd00::/108"`,
    );
    expect(() => kubernetesServiceIp("172.20.0.0/31")).toThrow("with a prefix from /8 to /30, got \"172.20.0.0/31\"");
    expect(() => kubernetesServiceIp("300.20.0.0/16")).toThrow('got "300.20.0.0/16"');
  });

  test("the plain listener's peers: the clients' namespace only", () => {
    expect(listenerPeers("omb")).toEqual([{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "omb" } } }]);
  });
});
