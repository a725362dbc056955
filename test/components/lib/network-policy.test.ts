/**
 * The baseline NetworkPolicies of every lab namespace: default deny (ingress and egress, every pod)
 * and DNS to the cluster resolver only, valid against the Kubernetes OpenAPI schema.
 */
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { baselineNetworkPolicies, defaultDenyPolicy, dnsEgressPolicy } from "../../../components/lib/network-policy";

describe("baseline NetworkPolicies", () => {
  test("default deny: every pod of the namespace, both directions, no rule", () => {
    expect(defaultDenyPolicy("bench")).toEqual({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "default-deny", namespace: "bench", labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
      spec: { podSelector: {}, policyTypes: ["Ingress", "Egress"] },
    });
  });

  test("DNS: egress to kube-system's kube-dns pods on UDP and TCP 53, and nothing else", () => {
    expect(dnsEgressPolicy("mysql").spec).toEqual({
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [
        {
          to: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
              podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
            },
          ],
          ports: [
            { protocol: "UDP", port: 53 },
            { protocol: "TCP", port: 53 },
          ],
        },
      ],
    });
  });

  test("both validate against the schema, in order, and the check can fail", () => {
    const policies = baselineNetworkPolicies("bench");
    expect(policies.map((p) => p.metadata?.name)).toEqual(["default-deny", "allow-dns"]);
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    const bad = { ...defaultDenyPolicy("bench"), spec: { podSelector: {}, policyTypes: ["Sideways"] } } as never;
    expect(() => new NetworkPolicy(bad).validate()).toThrow(/policyTypes/);
  });
});
