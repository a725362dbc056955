/**
 * The network the k0s + Rook-Ceph cluster needs, as data: pod and service CIDRs, and every ingress
 * rule of the three security groups (bastion, controller, workers). Pure; the component turns each
 * rule into one `aws.vpc.SecurityGroupIngressRule`.
 *
 * Sources:
 * - k0s "Networking → Required ports and protocols" (k0sproject/k0s docs/networking.md at
 *   v1.36.3+k0s.2): 2380 etcd and 9443 k0s join API controller ⟷ controller, 6443 worker ⟶
 *   controller, 8132 konnectivity worker ⟶ controller, 10250 kubelet controller/worker ⟶ worker,
 *   179/TCP kube-router BGP or 4789/UDP Calico VXLAN worker ⟷ worker, and "all traffic to and from
 *   the podCIDR and serviceCIDR subnets on nodes with a worker role".
 * - Calico WireGuard: UDP 51820 between the nodes (the FelixConfiguration CRD k0s v1.36.3+k0s.2
 *   bundles, static/manifests/calico/CustomResourceDefinition/felixconfigurations.crd.projectcalico.org.yaml:
 *   `wireguardListeningPort` "[Default: 51820]"), opened only with WireGuard on.
 * - Ceph "Network Configuration Reference": monitors listen on 3300 (msgr2) and 6789 (msgr1), OSD,
 *   MGR and MDS daemons bind in 6800–7300. Opened between workers only when the CephCluster runs on
 *   the host network (components/rook/manifests.ts); on the pod network, as published, Ceph's
 *   traffic is inside the CNI's (VXLAN, WireGuard) and needs no rule of its own.
 * No rule is open to 0.0.0.0/0: the operator's CIDRs (`lab:adminCidrs`) reach the bastion only.
 */
import { API_SERVER_PORT, kubernetesServiceIp } from "../lib/network-policy";

/** k0s' default pod network (spec.network.podCIDR), set explicitly in the k0s config. */
export const POD_CIDR = "10.244.0.0/16";
/** k0s' default service network (spec.network.serviceCIDR), set explicitly in the k0s config. */
export const SERVICE_CIDR = "10.96.0.0/12";
/** The Kubernetes API port (k0s spec.api.port default). */
export const API_PORT = 6443;

/**
 * The CNIs k0s ships, as `spec.network.provider` values: kube-router (k0s' default) and Calico
 * (k0s docs/networking.md, "In-cluster networking"; docs/configuration.md `spec.network`). The
 * third value, `custom`, installs no CNI, which this cluster cannot use.
 */
export const CNIS = ["kuberouter", "calico"] as const;
export type Cni = (typeof CNIS)[number];

/** The security groups of the cluster. */
export type Group = "bastion" | "controller" | "worker";
/** Where traffic comes from: another group, the operator, or the cluster's own pod / service networks. */
export type Source = Group | "admin" | "podCidr" | "serviceCidr";

export interface IngressRule {
  readonly to: Group;
  readonly from: Source;
  /** `-1`: all protocols (and ports). */
  readonly protocol: "tcp" | "udp" | "-1";
  readonly fromPort?: number;
  readonly toPort?: number;
  /** Becomes the rule's description (and, shortened, its logical name). */
  readonly description: string;
  /** Short name used in the rule's logical name (`<cluster>-<to>-<key>`). */
  readonly key: string;
}

const tcp = (to: Group, from: Source, port: number, key: string, description: string, toPort = port): IngressRule => ({
  to,
  from,
  protocol: "tcp",
  fromPort: port,
  toPort,
  key,
  description,
});

/** What the rules depend on: the CNI and its encryption, and whether Ceph is on the nodes' network. */
export interface NetworkChoices {
  readonly cni: Cni;
  readonly wireguard: boolean;
  readonly cephHostNetwork: boolean;
}

const udp = (to: Group, from: Source, port: number, key: string, description: string): IngressRule => ({
  to,
  from,
  protocol: "udp",
  fromPort: port,
  toPort: port,
  key,
  description,
});

/** Calico's VXLAN port (k0s `calico.vxlanPort` default) and WireGuard's listening port. */
export const VXLAN_PORT = 4789;
export const WIREGUARD_PORT = 51820;

/** Every ingress rule, in a stable order. Egress is open (package mirrors, images, NTP, SSM). */
export function ingressRules(n: NetworkChoices): IngressRule[] {
  return [
    tcp("bastion", "admin", 22, "ssh-admin", "SSH from the operator (k0sctl's ssh.bastion)"),
    tcp("bastion", "admin", API_PORT, "api-admin", "Kubernetes API from the operator, forwarded to the controller"),
    tcp("controller", "bastion", 22, "ssh-bastion", "SSH from the bastion (k0sctl)"),
    tcp("controller", "bastion", API_PORT, "api-bastion", "Kubernetes API forwarded by the bastion"),
    tcp("controller", "worker", API_PORT, "api-worker", "kube-apiserver from workers"),
    tcp("controller", "worker", 8132, "konnectivity", "konnectivity agents on workers"),
    tcp("controller", "controller", 9443, "k0s-api", "k0s join API between controllers"),
    tcp("controller", "controller", 2380, "etcd", "etcd peers between controllers"),
    tcp("worker", "bastion", 22, "ssh-bastion", "SSH from the bastion (k0sctl)"),
    tcp("worker", "controller", 10250, "kubelet-controller", "kubelet API from the controller"),
    tcp("worker", "worker", 10250, "kubelet-worker", "kubelet API between workers (metrics-server)"),
    n.cni === "kuberouter"
      ? tcp("worker", "worker", 179, "bgp", "kube-router BGP between workers")
      : udp("worker", "worker", VXLAN_PORT, "vxlan", "Calico VXLAN between workers"),
    ...(n.cni === "calico" && n.wireguard
      ? [udp("worker", "worker", WIREGUARD_PORT, "wireguard", "Calico WireGuard between workers")]
      : []),
    ...(n.cephHostNetwork
      ? [
          tcp("worker", "worker", 3300, "ceph-mon-v2", "Ceph monitors, msgr2"),
          tcp("worker", "worker", 6789, "ceph-mon-v1", "Ceph monitors, msgr1"),
          tcp("worker", "worker", 6800, "ceph-daemons", "Ceph OSD, MGR and MDS daemons", 7300),
        ]
      : []),
    { to: "worker", from: "podCidr", protocol: "-1", key: "pods", description: "all traffic from the pod network" },
    { to: "worker", from: "serviceCidr", protocol: "-1", key: "services", description: "all traffic from the service network" },
  ];
}

/**
 * How a pod reaches the API server, for NetworkPolicies of pods that call it: the controller's
 * address on {@link API_PORT} (the `kubernetes` Service's endpoint: k0s `spec.api.address` "Defaults
 * to first non-local address found on the node", docs/configuration.md:130, the controller's private
 * address), as kube-router and Calico judge a pod's packets after kube-proxy's translation; and the
 * Service's own address on 443 (the first of {@link SERVICE_CIDR}, components/lib/network-policy.ts).
 */
export function apiServerEndpoints(controllerIp: string): Array<{ cidr: string; port: number }> {
  return [
    { cidr: `${controllerIp}/32`, port: API_PORT },
    { cidr: `${kubernetesServiceIp(SERVICE_CIDR)}/32`, port: API_SERVER_PORT },
  ];
}

/**
 * Where packets from a worker's own network (a host-network pod, the kernel) to a pod come from:
 * the worker's address, and with Calico also the pod network, whose pool gives each node's VXLAN and
 * WireGuard devices their addresses, the source of a node's packets to a pod on another node
 * (components/rook/network.ts says why). kube-router routes without encapsulation (the workers'
 * addresses only).
 */
export function hostSourceCidrs(cni: Cni, workerIps: readonly string[]): string[] {
  return [...workerIps.map((ip) => `${ip}/32`), ...(cni === "calico" ? [POD_CIDR] : [])];
}
