/**
 * The FSx for ONTAP security group's rules, as data (pure: the component turns each into an
 * `aws.vpc.SecurityGroupIngressRule`/`EgressRule`, tests read them directly).
 *
 * Ports: the ONTAP user guide's "File system access control with Amazon VPC" table, restricted to
 * what the lab uses: NFS (portmapper, mountd, nfs, NLM, NSM on TCP and UDP; rquotad on UDP),
 * iSCSI on **TCP** 3260 (the published setup opened UDP 3260 only: iSCSI is TCP), management over
 * SSH and HTTPS (ONTAP CLI and REST API, which Trident uses), and ICMP. No SMB, SnapMirror, NDMP
 * or SNMP: the lab has no Active Directory, peers or monitoring that would need them.
 *
 * Sources: security groups only, never a CIDR (and never 0.0.0.0/0): the client security groups the
 * stack is given (`lab:clientSecurityGroupIds`), and the EKS node groups that use the file system,
 * whose rules the consuming stack adds (./node-ingress.ts: Trident for NFS, iSCSI and the ONTAP
 * management API; Kafka for NFS). Not the VPC CIDR: with the Amazon VPC CNI every pod has a VPC
 * address, so a CIDR rule opened NFS, iSCSI and ONTAP's SSH/HTTPS to every pod and instance in the
 * VPC. No client of the lab reaches FSx from outside an EKS node group; give its security group in
 * `lab:clientSecurityGroupIds` if you add one.
 * Egress: all protocols to the VPC CIDR only (NFSv4 callbacks to clients, DNS on the VPC resolver);
 * replies to clients need no rule (security groups are stateful). The guide's "allow all outbound"
 * is narrowed on purpose: a file system has nothing to reach outside its VPC.
 */

export type IpProtocol = "tcp" | "udp" | "icmp" | "-1";

export interface PortRule {
  /** Stable part of the rule's logical name, e.g. `nfs-tcp-2049`. */
  readonly id: string;
  readonly ipProtocol: IpProtocol;
  /** For ICMP: the type (-1 = every type). */
  readonly fromPort: number;
  /** For ICMP: the code (-1 = every code). */
  readonly toPort: number;
  readonly description: string;
}

const tcpUdp = (port: number, what: string): PortRule[] => [
  { id: `nfs-tcp-${port}`, ipProtocol: "tcp", fromPort: port, toPort: port, description: `NFS ${what} (TCP ${port})` },
  { id: `nfs-udp-${port}`, ipProtocol: "udp", fromPort: port, toPort: port, description: `NFS ${what} (UDP ${port})` },
];

/** Every inbound port rule, for one source. */
export const ONTAP_INGRESS: readonly PortRule[] = [
  ...tcpUdp(111, "portmapper/rpcbind"),
  ...tcpUdp(635, "mountd"),
  ...tcpUdp(2049, "server"),
  ...tcpUdp(4045, "lock manager (NLM)"),
  ...tcpUdp(4046, "status monitor (NSM)"),
  { id: "nfs-udp-4049", ipProtocol: "udp", fromPort: 4049, toPort: 4049, description: "NFS quota (rquotad, UDP 4049)" },
  { id: "iscsi-tcp-3260", ipProtocol: "tcp", fromPort: 3260, toPort: 3260, description: "iSCSI (TCP 3260)" },
  { id: "ssh-tcp-22", ipProtocol: "tcp", fromPort: 22, toPort: 22, description: "ONTAP CLI over SSH (TCP 22)" },
  {
    id: "https-tcp-443",
    ipProtocol: "tcp",
    fromPort: 443,
    toPort: 443,
    description: "ONTAP REST API and System Manager over HTTPS (TCP 443)",
  },
  { id: "icmp-all", ipProtocol: "icmp", fromPort: -1, toPort: -1, description: "ICMP (ping, path MTU discovery)" },
];

/** Where traffic may come from: one client security group (n from 1). */
export interface RuleSource {
  readonly securityGroupId: string;
  readonly index: number;
}

/** A rule ready to become a resource: its logical-name suffix, port rule and source. */
export interface RuleSpec<C = string> extends PortRule {
  /** `<port id>-sg<n>` (n from 1), or `all-vpc` for the egress rule. */
  readonly name: string;
  readonly cidrIpv4?: C;
  readonly referencedSecurityGroupId?: string;
}

/** The sources of the stack's own ingress rules: the client security groups, none when none are given. */
export function ruleSources(clientSecurityGroupIds: readonly string[]): RuleSource[] {
  return clientSecurityGroupIds.map((id, i) => ({ securityGroupId: id, index: i + 1 }));
}

/** Every ingress rule: each port rule for each source, descriptions naming the source. */
export function ingressRules(sources: readonly RuleSource[]): RuleSpec[] {
  return sources.flatMap((src) =>
    ONTAP_INGRESS.map((r) => ({
      ...r,
      name: `${r.id}-sg${src.index}`,
      referencedSecurityGroupId: src.securityGroupId,
      description: `${r.description} from client security group ${src.index}`,
    })),
  );
}

/** The one egress rule: everything to the VPC CIDR, nothing beyond it. */
export function egressRule<C>(vpcCidr: C): RuleSpec<C> {
  return {
    id: "all",
    name: "all-vpc",
    ipProtocol: "-1",
    fromPort: -1,
    toPort: -1,
    cidrIpv4: vpcCidr,
    description: "All traffic to the VPC only (NFSv4 callbacks, DNS); no internet egress",
  };
}
