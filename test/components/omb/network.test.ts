/** The OMB namespace's NetworkPolicies: valid objects, exactly the benchmark's flows. */
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { kafkaPodSelector } from "../../../components/kafka/network";
import { ombNetworkPolicies } from "../../../components/omb/network";

const KAFKA = { namespace: "kafka", podLabels: kafkaPodSelector("kafka"), port: 9092 };

describe("the OMB namespace's NetworkPolicies", () => {
  const policies = ombNetworkPolicies("omb", KAFKA);

  test("valid objects: default deny, DNS, the workers' ingress, the driver's and everyone's egress", () => {
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(policies.map((p) => [p.metadata!.name, p.metadata!.namespace])).toEqual([
      ["default-deny", "omb"],
      ["allow-dns", "omb"],
      ["omb-worker-ingress", "omb"],
      ["omb-driver-egress", "omb"],
      ["omb-kafka-egress", "omb"],
    ]);
  });

  test("the workers' unauthenticated HTTP API (8080, 8081) from the driver Jobs' pods only; the driver to them", () => {
    const ports = [
      { protocol: "TCP", port: 8080 },
      { protocol: "TCP", port: 8081 },
    ];
    expect(policies[2].spec).toEqual({
      podSelector: { matchLabels: { "app.kubernetes.io/name": "omb-worker" } },
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ podSelector: { matchLabels: { "app.kubernetes.io/name": "omb-driver" } } }], ports }],
    });
    expect(policies[3].spec).toEqual({
      podSelector: { matchLabels: { "app.kubernetes.io/name": "omb-driver" } },
      policyTypes: ["Egress"],
      egress: [{ to: [{ podSelector: { matchLabels: { "app.kubernetes.io/name": "omb-worker" } } }], ports }],
    });
  });

  test("every OMB pod reaches the cluster's Kafka pods on the plain listener, nothing else", () => {
    expect(policies[4].spec).toEqual({
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [
        {
          to: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kafka" } },
              podSelector: { matchLabels: { "strimzi.io/cluster": "kafka", "strimzi.io/kind": "Kafka", "strimzi.io/name": "kafka-kafka" } },
            },
          ],
          ports: [{ protocol: "TCP", port: 9092 }],
        },
      ],
    });
  });
});
