/**
 * The `rook-ceph` namespace's NetworkPolicies (pure), on top of the baseline
 * (components/lib/network-policy.ts: default deny of ingress and egress, DNS to kube-dns). Enforced
 * on k0s by either CNI it ships: kube-router runs with its firewall (`run-firewall: "true"`,
 * k0sproject/k0s pkg/component/controller/kuberouter.go:114 at v1.36.3+k0s.2), Calico "supports
 * pod-specific network policies" (k0s docs/networking.md:36-39). Sources: rook/rook at v1.20.6 and
 * ceph/ceph-csi-operator at v1.0.4 (the ceph-csi-drivers chart 1.0.4, versions.ts), file:line.
 *
 * Who talks to whom:
 * - Ceph's ports: the monitors listen on 3300 (msgr2) and 6789 (msgr1) (pkg/operator/ceph/cluster/
 *   mon/mon.go:84, 87; container ports mon/spec.go:339-344 and 377-381, msgr1 kept while `requireMsgr2`
 *   is off, mon.go:663-666); the OSDs and managers bind in Ceph's 6800–7300 (`ms_bind_port_min` /
 *   `ms_bind_port_max`, Ceph "Network Configuration Reference"; the manager's container port 6800,
 *   mgr/spec.go:186-190). The managers' Prometheus port 9283 (mgr/spec.go:191-195) and the exporter's
 *   9926 are scraped by nothing in the lab (`monitoring.enabled: false`), so not admitted; the
 *   dashboard is off (manifests.ts).
 * - Inside the namespace, every Rook pod is a Ceph client or daemon: the operator
 *   (deploy/charts/rook-ceph/templates/deployment.yaml:22 `app: rook-ceph-operator`, ceph CLI
 *   commands to the mons, the managers' modules, `ceph tell` to daemons), the daemons among
 *   themselves (OSD ⟷ OSD replication and heartbeats, every daemon → mons and → the active manager),
 *   the OSD prepare Jobs (osd/osd.go:67), the crash collectors (nodedaemon/add.go:44: `ceph crash
 *   post` is a manager command), and the RBD CSI controller plugin on the pod network (the chart's
 *   `controllerPlugin.hostNetwork: false`, ceph-csi-operator internal/controller/driver_controller.go:602):
 *   so every pod of the namespace may reach the mons on 3300/6789 and the OSDs and managers on
 *   6800–7300, and those accept it from every pod of the namespace.
 * - From the nodes: the RBD CSI node plugin runs on the host network (driver_controller.go:1328
 *   `HostNetwork: true`), and the kernel maps the image there (krbd), so the client of every
 *   Postgres volume is the node, not a pod: its packets to the mons and OSDs carry a host address.
 *   Nothing of the Postgres namespace reaches Ceph (components/postgres/manifests.ts). The mons' and
 *   OSDs' ingress therefore also admits {@link RookClusterNetwork.hostSourceCidrs}: the workers'
 *   addresses (kube-router routes without encapsulation, components/k0s/index.ts), and with Calico
 *   the pod network too, because a node's packets to a pod on another node leave through its VXLAN
 *   (or WireGuard) device with that device's address, which Calico takes from the pod pool (Felix's
 *   `deviceRouteSourceAddress` unset: "the source address for local traffic from host to workload will
 *   be determined by the kernel", felixconfigurations CRD k0s static/manifests/calico; observed as
 *   `10.42.x.0` sources in rancher/rke2#1227). NetworkPolicies cannot name those tunnel addresses
 *   alone, so with Calico every pod address may reach the mons' and OSDs' ports (cephx still
 *   authenticates every client): a residual, docs/security.md. The monitors' addresses clients use are
 *   their Services' cluster IPs (mon/mon.go:914); both CNIs judge a pod's traffic after kube-proxy's
 *   translation, on the mon pod and its port.
 * - The API server: the operator, the managers' `watch-active` sidecar (mgr/spec.go:76-77, 257; it
 *   reads the CephCluster and updates the mgr Services, cmd/rook/ceph/mgr.go:132, mgr/mgr.go:390),
 *   the OSD prepare Jobs (their results in ConfigMaps), the CSI operator and controller plugin all
 *   call it: every pod of the namespace may reach it, at {@link RookClusterNetwork.apiServer} (on k0s the
 *   controller's address on 6443, and the `kubernetes` Service's address on 443).
 * - `hostNetwork` (`network.provider: host`): the mons, managers, OSDs and crash collectors run on
 *   the host network (mon/spec.go:218, mgr/spec.go:69, osd/spec.go:742, nodedaemon/crash.go:120), where
 *   no NetworkPolicy applies; the OSD prepare Jobs stay on the pod network (osd/provision_spec.go:158,
 *   `EnforceHostNetwork()`), and so do the operator and the CSI controller plugin: their egress is to
 *   the workers' addresses on Ceph's ports, and no ingress policy of a daemon is written.
 */
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import type { INetworkPolicyPeer } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer";
import type { INetworkPolicyPort } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort";
import { baselineNetworkPolicies } from "../lib/network-policy";

/** Ceph monitors' ports: msgr2 and msgr1 (rook v1.20.6 pkg/operator/ceph/cluster/mon/mon.go:84, 87). */
export const MON_PORTS = [3300, 6789] as const;
/** Where OSDs and managers bind (Ceph `ms_bind_port_min`, `ms_bind_port_max`). */
export const DAEMON_PORT_RANGE = { port: 6800, endPort: 7300 } as const;
/** Rook's `app` label of each daemon (mon/mon.go:72, mgr/mgr.go:49, osd/osd.go:64). */
export const CEPH_APP_LABELS = { mon: "rook-ceph-mon", mgr: "rook-ceph-mgr", osd: "rook-ceph-osd" } as const;

export const API_SERVER_POLICY = "rook-api-server";
export const CEPH_EGRESS_POLICY = "ceph-clients-egress";

/** What the policies need of the cluster (from the k0s cluster: components/k0s/ports.ts). */
export interface RookClusterNetwork {
  /** The nodes that run Ceph, as CIDRs (each worker's address /32): the daemons' addresses with `hostNetwork`. */
  readonly cephNodeCidrs: readonly string[];
  /** Where packets from the nodes' own network to a pod come from (host-network clients: the kernel RBD client, the CSI node plugin). */
  readonly hostSourceCidrs: readonly string[];
  /** The API server's addresses and ports as a pod's packets reach it. */
  readonly apiServer: ReadonlyArray<{ readonly cidr: string; readonly port: number }>;
}

const meta = (name: string, namespace: string) => ({ name, namespace, labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } });
const tcp = (port: number): INetworkPolicyPort => ({ protocol: "TCP", port });
const monPorts = (): INetworkPolicyPort[] => MON_PORTS.map(tcp);
const daemonPorts = (): INetworkPolicyPort[] => [{ protocol: "TCP", ...DAEMON_PORT_RANGE }];
const app = (name: string): INetworkPolicyPeer => ({ podSelector: { matchLabels: { app: name } } });
const ipBlocks = (cidrs: readonly string[]): INetworkPolicyPeer[] => cidrs.map((cidr) => ({ ipBlock: { cidr } }));

/** Every pod of the namespace → the API server. */
export function rookApiServerPolicy(namespace: string, net: RookClusterNetwork): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(API_SERVER_POLICY, namespace),
    spec: {
      podSelector: {},
      policyTypes: ["Egress"],
      egress: net.apiServer.map((e) => ({ to: ipBlocks([e.cidr]), ports: [tcp(e.port)] })),
    },
  };
}

/** Every pod of the namespace → the Ceph daemons: the mon and OSD/mgr pods, or with `hostNetwork` the Ceph nodes. */
export function cephClientsEgressPolicy(namespace: string, net: RookClusterNetwork, hostNetwork: boolean): INetworkPolicy {
  const egress = hostNetwork
    ? [{ to: ipBlocks(net.cephNodeCidrs), ports: [...monPorts(), ...daemonPorts()] }]
    : [
        { to: [app(CEPH_APP_LABELS.mon)], ports: monPorts() },
        { to: [app(CEPH_APP_LABELS.osd), app(CEPH_APP_LABELS.mgr)], ports: daemonPorts() },
      ];
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(CEPH_EGRESS_POLICY, namespace),
    spec: { podSelector: {}, policyTypes: ["Egress"], egress },
  };
}

/** A daemon's ingress on its ports: from every pod of the namespace, and from `hostSources` (none for the managers). */
function daemonIngressPolicy(
  namespace: string,
  daemon: keyof typeof CEPH_APP_LABELS,
  ports: INetworkPolicyPort[],
  hostSources: readonly string[],
): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(`ceph-${daemon}-ingress`, namespace),
    spec: {
      podSelector: { matchLabels: { app: CEPH_APP_LABELS[daemon] } },
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ podSelector: {} }, ...ipBlocks(hostSources)], ports }],
    },
  };
}

/**
 * Every NetworkPolicy of Rook's namespace: baseline, the API server, Ceph clients' egress, and on the
 * pod network the mons' and OSDs' ingress (namespace and host sources) and the managers' (namespace only).
 */
export function rookNetworkPolicies(namespace: string, net: RookClusterNetwork, hostNetwork: boolean): INetworkPolicy[] {
  return [
    ...baselineNetworkPolicies(namespace),
    rookApiServerPolicy(namespace, net),
    cephClientsEgressPolicy(namespace, net, hostNetwork),
    ...(hostNetwork
      ? []
      : [
          daemonIngressPolicy(namespace, "mon", monPorts(), net.hostSourceCidrs),
          daemonIngressPolicy(namespace, "osd", daemonPorts(), net.hostSourceCidrs),
          daemonIngressPolicy(namespace, "mgr", daemonPorts(), []),
        ]),
  ];
}
