/** The Kafka namespace's NetworkPolicies (Strimzi generates the ingress ones): valid objects, exact egress. */
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { kafkaNetworkPolicies, listenerPeers } from "../../../components/kafka/network";
import { resolve } from "../../../components/kafka/rules";

const r = resolve({ dataVolumes: ["/kafkafsxN1"] });

describe("the Kafka namespace's NetworkPolicies", () => {
  const policies = kafkaNetworkPolicies(r, ["10.0.0.0/18", "10.0.64.0/18"]);

  test("default deny, DNS, and the Kafka pods' egress: to each other on 9090/9091, to the API server (node subnets, 443)", () => {
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
        { to: [{ ipBlock: { cidr: "10.0.0.0/18" } }, { ipBlock: { cidr: "10.0.64.0/18" } }], ports: [{ protocol: "TCP", port: 443 }] },
      ],
    });
  });

  test("the plain listener's peers: the clients' namespace only", () => {
    expect(listenerPeers("omb")).toEqual([{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "omb" } } }]);
  });
});
