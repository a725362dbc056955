/** The Strimzi operator namespace's NetworkPolicies: valid objects, default deny, exactly the operator's egress. */
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { operatorNamespaceLabels, strimziNetworkPolicies } from "../../../components/strimzi/network";

describe("the Strimzi operator's NetworkPolicies", () => {
  const policies = strimziNetworkPolicies("strimzi", ["kafka"], ["10.0.0.0/18", "10.0.64.0/18"], "172.20.0.1");

  test("default deny, DNS, and the operator's egress: the API server (443) and the watched Kafka pods on 9090, 9091 and 8443; no ingress", () => {
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(policies.map((p) => [p.metadata!.namespace, p.metadata!.name])).toEqual([
      ["strimzi", "default-deny"],
      ["strimzi", "allow-dns"],
      ["strimzi", "strimzi-operator-egress"],
    ]);
    expect(policies[0].spec).toEqual({ podSelector: {}, policyTypes: ["Ingress", "Egress"] });
    expect(policies[2].spec).toEqual({
      // the chart's operator pod labels (templates/060-Deployment-strimzi-cluster-operator.yaml)
      podSelector: { matchLabels: { name: "strimzi-cluster-operator", "strimzi.io/kind": "cluster-operator" } },
      policyTypes: ["Egress"],
      egress: [
        {
          to: [{ ipBlock: { cidr: "172.20.0.1/32" } }, { ipBlock: { cidr: "10.0.0.0/18" } }, { ipBlock: { cidr: "10.0.64.0/18" } }],
          ports: [{ protocol: "TCP", port: 443 }],
        },
        {
          to: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kafka" } },
              podSelector: { matchLabels: { "strimzi.io/kind": "Kafka" } },
            },
          ],
          ports: [
            { protocol: "TCP", port: 9090 },
            { protocol: "TCP", port: 9091 },
            { protocol: "TCP", port: 8443 },
          ],
        },
      ],
    });
  });

  test("the namespace label Strimzi selects the operator by: the name label the API server gives every namespace", () => {
    expect(operatorNamespaceLabels("strimzi")).toBe("kubernetes.io/metadata.name=strimzi");
  });
});
