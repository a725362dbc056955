/**
 * Rook's namespace NetworkPolicies: valid objects, default deny, exactly the flows of Ceph on the pod
 * network (and on the host network), from the cluster's addresses as the ceph-k0s stack gives them.
 */
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { apiServerEndpoints, hostSourceCidrs } from "../../../components/k0s/ports";
import { rookNetworkPolicies, RookClusterNetwork } from "../../../components/rook/network";

const workers = ["10.0.128.11", "10.0.128.12", "10.0.128.13"];
const net = (cni: "calico" | "kuberouter"): RookClusterNetwork => ({
  cephNodeCidrs: workers.map((ip) => `${ip}/32`),
  hostSourceCidrs: hostSourceCidrs(cni, workers),
  apiServer: apiServerEndpoints("10.0.128.10"),
});
const mon = [
  { protocol: "TCP", port: 3300 },
  { protocol: "TCP", port: 6789 },
];
const daemons = [{ protocol: "TCP", port: 6800, endPort: 7300 }];
const workerBlocks = workers.map((ip) => ({ ipBlock: { cidr: `${ip}/32` } }));

describe("the k0s addresses the policies name", () => {
  test("the API server: the controller on 6443 and the kubernetes Service (first address of 10.96.0.0/12) on 443", () => {
    expect(apiServerEndpoints("10.0.128.10")).toEqual([
      { cidr: "10.0.128.10/32", port: 6443 },
      { cidr: "10.96.0.1/32", port: 443 },
    ]);
  });

  test("host sources: the workers, and with Calico the pod network (its tunnel devices' addresses)", () => {
    expect(hostSourceCidrs("kuberouter", workers)).toEqual(["10.0.128.11/32", "10.0.128.12/32", "10.0.128.13/32"]);
    expect(hostSourceCidrs("calico", workers)).toEqual(["10.0.128.11/32", "10.0.128.12/32", "10.0.128.13/32", "10.244.0.0/16"]);
  });
});

describe("Rook's NetworkPolicies, Ceph on the pod network (as published)", () => {
  const policies = rookNetworkPolicies("rook-ceph", net("calico"), false);
  const byName = (n: string) => policies.find((p) => p.metadata!.name === n)!;

  test("default deny, DNS, API server, the clients' egress, and the mons', OSDs' and managers' ingress; all valid", () => {
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(policies.map((p) => [p.metadata!.namespace, p.metadata!.name])).toEqual([
      ["rook-ceph", "default-deny"],
      ["rook-ceph", "allow-dns"],
      ["rook-ceph", "rook-api-server"],
      ["rook-ceph", "ceph-clients-egress"],
      ["rook-ceph", "ceph-mon-ingress"],
      ["rook-ceph", "ceph-osd-ingress"],
      ["rook-ceph", "ceph-mgr-ingress"],
    ]);
    expect(policies[0].spec).toEqual({ podSelector: {}, policyTypes: ["Ingress", "Egress"] });
  });

  test("every pod of the namespace: the API server (controller 6443, Service 443) and the Ceph daemons' ports", () => {
    expect(byName("rook-api-server").spec).toEqual({
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [
        { to: [{ ipBlock: { cidr: "10.0.128.10/32" } }], ports: [{ protocol: "TCP", port: 6443 }] },
        { to: [{ ipBlock: { cidr: "10.96.0.1/32" } }], ports: [{ protocol: "TCP", port: 443 }] },
      ],
    });
    expect(byName("ceph-clients-egress").spec).toEqual({
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [
        { to: [{ podSelector: { matchLabels: { app: "rook-ceph-mon" } } }], ports: mon },
        {
          to: [{ podSelector: { matchLabels: { app: "rook-ceph-osd" } } }, { podSelector: { matchLabels: { app: "rook-ceph-mgr" } } }],
          ports: daemons,
        },
      ],
    });
  });

  test("mons and OSDs admit the namespace's pods and the host sources (kernel RBD, CSI node plugin); managers the namespace only", () => {
    const hosts = [...workerBlocks, { ipBlock: { cidr: "10.244.0.0/16" } }];
    expect(byName("ceph-mon-ingress").spec).toEqual({
      podSelector: { matchLabels: { app: "rook-ceph-mon" } },
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ podSelector: {} }, ...hosts], ports: mon }],
    });
    expect(byName("ceph-osd-ingress").spec).toEqual({
      podSelector: { matchLabels: { app: "rook-ceph-osd" } },
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ podSelector: {} }, ...hosts], ports: daemons }],
    });
    expect(byName("ceph-mgr-ingress").spec).toEqual({
      podSelector: { matchLabels: { app: "rook-ceph-mgr" } },
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ podSelector: {} }], ports: daemons }],
    });
  });

  test("with kube-router the host sources are the workers only; nothing admits the metrics ports 9283 or 9926", () => {
    const kr = rookNetworkPolicies("rook-ceph", net("kuberouter"), false);
    const monIngress = kr.find((p) => p.metadata!.name === "ceph-mon-ingress")!;
    expect(monIngress.spec!.ingress![0].from).toEqual([{ podSelector: {} }, ...workerBlocks]);
    expect(JSON.stringify([...policies, ...kr])).not.toMatch(/9283|9926/);
  });
});

describe("Rook's NetworkPolicies, Ceph on the host network", () => {
  const policies = rookNetworkPolicies("rook-ceph", net("calico"), true);

  test("no daemon ingress policy (host-network pods); the pod-network pods reach the workers on Ceph's ports", () => {
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(policies.map((p) => p.metadata!.name)).toEqual(["default-deny", "allow-dns", "rook-api-server", "ceph-clients-egress"]);
    expect(policies[3].spec).toEqual({
      podSelector: {},
      policyTypes: ["Egress"],
      egress: [{ to: workerBlocks, ports: [...mon, ...daemons] }],
    });
  });
});
