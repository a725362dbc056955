/** Trident's namespace NetworkPolicies: valid objects, default deny, exactly the operator's and the controller's flows. */
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { tridentNetworkPolicies } from "../../../components/trident/network";

describe("Trident's NetworkPolicies (Helm install, namespace trident)", () => {
  const nodes = ["10.0.0.0/18", "10.0.64.0/18"];
  const policies = tridentNetworkPolicies("trident", nodes, "172.20.0.1");
  const apiServer = {
    to: [{ ipBlock: { cidr: "172.20.0.1/32" } }, { ipBlock: { cidr: "10.0.0.0/18" } }, { ipBlock: { cidr: "10.0.64.0/18" } }],
    ports: [{ protocol: "TCP", port: 443 }],
  };

  test("default deny, DNS, the operator's egress, the controller's ingress and egress; all valid against the schema", () => {
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(policies.map((p) => [p.metadata!.namespace, p.metadata!.name])).toEqual([
      ["trident", "default-deny"],
      ["trident", "allow-dns"],
      ["trident", "trident-operator-egress"],
      ["trident", "trident-controller"],
    ]);
    expect(policies[0].spec).toEqual({ podSelector: {}, policyTypes: ["Ingress", "Egress"] });
  });

  test("the operator (chart templates/deployment.yaml pod labels): the API server on 443 only, no ingress", () => {
    expect(policies[2].spec).toEqual({
      podSelector: { matchLabels: { app: "operator.trident.netapp.io", name: "trident-operator" } },
      policyTypes: ["Egress"],
      egress: [apiServer],
    });
  });

  test("the controller: 8443 from the node subnets (host-network node pods); API server, Pod Identity agent on 80, HTTPS anywhere", () => {
    expect(policies[3].spec).toEqual({
      podSelector: { matchLabels: { app: "controller.csi.trident.netapp.io" } },
      policyTypes: ["Ingress", "Egress"],
      ingress: [
        { from: [{ ipBlock: { cidr: "10.0.0.0/18" } }, { ipBlock: { cidr: "10.0.64.0/18" } }], ports: [{ protocol: "TCP", port: 8443 }] },
      ],
      egress: [
        apiServer,
        { to: [{ ipBlock: { cidr: "169.254.170.23/32" } }], ports: [{ protocol: "TCP", port: 80 }] },
        { to: [{ ipBlock: { cidr: "0.0.0.0/0" } }], ports: [{ protocol: "TCP", port: 443 }] },
      ],
    });
  });

  test("no policy opens the controller's metrics port (8001) or selects the host-network node pods", () => {
    const text = JSON.stringify(policies);
    expect(text).not.toMatch(/8001|9220|node\.csi\.trident\.netapp\.io/);
  });
});
