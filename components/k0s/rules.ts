/**
 * The K0sCluster's rules and defaults, in one place (pure). The component (index.ts) resolves and
 * checks its arguments with them; the `ceph-k0s` stack's config calls the same {@link problems}
 * with the `lab:` keys the user typed.
 */
import { adminCidrWidthProblems } from "../lib/admin-cidrs";
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt, isOneOf, isText } from "../../core/checks";
import { GP3, gp3Problems, gp3SizeRule } from "../lib/ebs";
import { cidrsOverlap, isIpv4NetworkCidr, parseCidr } from "../network/cidr";
import { AZ_NAME_RE, AZ_NAME_RULE } from "../network/rules";
import { K0S_VERSION } from "../versions";
import { INSTANCE_TYPE_RULE, instanceTypeInfo, NVME_INSTANCE_STORE_FAMILIES } from "./instance-types";
import { Cni, CNIS, POD_CIDR, SERVICE_CIDR } from "./ports";

/** The plain arguments of the K0sCluster component (index.ts adds the network's ids, which are Outputs). */
export interface K0sClusterSpec {
  /**
   * EC2 instance type of the controller and the workers, from the table in instance-types.ts and
   * at least {@link MIN_NODE} (e.g. "m4.xlarge" on Xen, "m5.xlarge" on Nitro).
   * @see https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-types.html
   */
  readonly instanceType: string;
  /** Number of workers, each with one OSD volume, from 1 to {@link MAX_WORKERS}. @default K0S_CLUSTER_DEFAULTS.workerCount */
  readonly workerCount?: number;
  /**
   * The availability zone of the subnets, where the OSD volumes are created and the workers' zone
   * label points (e.g. "us-east-1a"). Checked here when given as text; an Output is checked by its maker.
   * @see https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-regions-availability-zones.html
   */
  readonly az: string;
  /**
   * IPv4 CIDRs allowed to reach the bastion (SSH and the Kubernetes API): 1 to {@link MAX_ADMIN_CIDRS},
   * network addresses with a prefix from /8 to /32, never 0.0.0.0/….
   * @see https://docs.aws.amazon.com/vpc/latest/userguide/security-group-rules.html
   */
  readonly adminCidrs: readonly string[];
  /**
   * The widest prefix an `adminCidrs` entry may have (8–32): a shared account's guard against
   * opening the bastion to a whole network.
   * @default 24
   */
  readonly adminCidrMinPrefix?: number;
  /**
   * The operator's own OpenSSH public key (`ssh-ed25519 …` or `ssh-rsa …`, the types EC2 imports),
   * authorized for the `ubuntu` user on the nodes and, for tunnels to the nodes' SSH ports only, on
   * the bastion (`ssh -J ubuntu@<bastion> ubuntu@<node>`). k0sctl never uses it: it always connects
   * with the cluster's generated keys (ssh.ts).
   * @default none: only the generated keys, which never leave the state
   * @see https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ImportKeyPair.html
   */
  readonly sshPublicKey?: string;
  /**
   * Size of each gp3 OSD volume, GiB (components/lib/ebs.ts). The published workers each have a
   * 350 GiB gp3 volume at its baseline (koor-tech/experiment-ceph-on-nitro pulumi/src/compute.ts
   * line 136: `{ deviceName: "/dev/sdf", volumeSize: 350, volumeType: "gp3" }`); gp3's 3000 IOPS and
   * 125 MiB/s do not grow with the size, so the size shapes capacity, not speed.
   * @default K0S_CLUSTER_DEFAULTS.osdVolumeGiB
   * @see https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html#gp3-ebs-volume-type
   */
  readonly osdVolumeGiB?: number;
  /**
   * Provisioned IOPS of each gp3 OSD volume, at most 500 per GiB of `osdVolumeGiB`.
   * @default K0S_CLUSTER_DEFAULTS.osdVolumeIops (gp3's baseline)
   * @see https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html#gp3-ebs-volume-type
   */
  readonly osdVolumeIops?: number;
  /**
   * Provisioned throughput of each gp3 OSD volume, MiB/s, at most 0.25 per IOPS of `osdVolumeIops`.
   * @default K0S_CLUSTER_DEFAULTS.osdVolumeThroughputMiBps (gp3's baseline)
   * @see https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html#gp3-ebs-volume-type
   */
  readonly osdVolumeThroughputMiBps?: number;
  /**
   * Size of every node's gp3 root volume, GiB.
   * @default K0S_CLUSTER_DEFAULTS.rootVolumeGiB
   * @see https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/RootDeviceStorage.html
   */
  readonly rootVolumeGiB?: number;
  /** k0s release, `v1.x.y+k0s.n`. @default K0S_CLUSTER_DEFAULTS.k0sVersion (K0S_VERSION of components/versions.ts) */
  readonly k0sVersion?: string;
  /**
   * k0s' network provider. `calico` (the published setup's, k0s/k0sctl.yaml.pre line 29) runs VXLAN
   * between the nodes' addresses (UDP 4789, MTU {@link CALICO_MTU}), so the workers' source/destination
   * check stays on; `kuberouter` routes pod traffic natively, so it is off. k0s fixes the CNI when
   * the cluster is created (docs/networking.md).
   * @default K0S_CLUSTER_DEFAULTS.cni
   */
  readonly cni?: Cni;
  /**
   * Calico encrypts pod traffic between the nodes with WireGuard (`spec.network.calico.wireguard`,
   * k0s pkg/apis/k0s/v1beta1/calico.go at v1.36.3+k0s.2; UDP 51820 between workers). The published
   * setup's, k0s/k0sctl.yaml.pre line 35. Calico only.
   * @default true with `calico`, false with `kuberouter`
   */
  readonly wireguard?: boolean;
  /**
   * Ceph daemons run on the nodes' network (Rook `network.provider: host`): opens Ceph's ports
   * (3300, 6789, 6800-7300) between the workers. Off, as published: Ceph is on the pod network and
   * needs no port of its own in the security groups.
   * @default K0S_CLUSTER_DEFAULTS.cephHostNetwork
   */
  readonly cephHostNetwork?: boolean;
  /**
   * 2 MiB huge pages every node reserves at boot (`vm.nr_hugepages`), reported by the kubelet as
   * `hugepages-2Mi` for pods that request them (Postgres). The published nodes reserve 2048
   * (4 GiB; config/aws/ec2-worker-userdata.bash and ec2-controller-userdata.bash lines 100-102 and
   * 77-79). 0 to a quarter of the node's memory.
   * @default K0S_CLUSTER_DEFAULTS.hugepages2Mi
   */
  readonly hugepages2Mi?: number;
  /**
   * Instance type of the bastion, from the table in instance-types.ts (any size).
   * @default K0S_CLUSTER_DEFAULTS.bastionInstanceType
   * @see https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-types.html
   */
  readonly bastionInstanceType?: string;
}

/** Defaults of {@link K0sClusterSpec}, the only place they are written. */
export const K0S_CLUSTER_DEFAULTS = {
  workerCount: 3,
  osdVolumeGiB: 350,
  osdVolumeIops: GP3.baselineIops,
  osdVolumeThroughputMiBps: GP3.baselineThroughputMiBps,
  rootVolumeGiB: 30,
  k0sVersion: K0S_VERSION,
  cni: "calico" as Cni,
  cephHostNetwork: false,
  hugepages2Mi: 2048,
  bastionInstanceType: "t3.micro",
} as const;

/** Calico's MTU for VXLAN and WireGuard (k0s sets both from `calico.mtu`): the published 1450 (k0s/k0sctl.yaml.pre line 34). */
export const CALICO_MTU = 1450;

/** The lab's own bound on the workers (a forgotten cluster's cost stays bounded). */
export const MAX_WORKERS = 9;
/** At most this many admin CIDRs: each is two ingress rules on the bastion's group. */
export const MAX_ADMIN_CIDRS = 10;
export const ADMIN_PREFIX_MIN = 8;
export const ADMIN_PREFIX_MAX = 32;
/** An operator's own range, its example a /32 (a /16 is refused by the width rule, components/lib/admin-cidrs.ts). */
export const ADMIN_CIDR_SYNTAX_RULE = `an IPv4 network CIDR with a prefix from /${ADMIN_PREFIX_MIN} to /${ADMIN_PREFIX_MAX} (e.g. 198.51.100.7/32)`;

/**
 * The smallest node the cluster accepts. A worker holds a Ceph OSD and a monitor (each requesting
 * 0.5 CPU / 1 GiB, components/rook/rules.ts PUBLISHED_CEPH_RESOURCES) and maybe a manager beside
 * Postgres (1 CPU / 4 GiB, components/postgres/rules.ts) or the pgbench client (2 CPU / 8 GiB),
 * k0s' own pods, the huge pages and the page cache: 4 vCPUs and 16 GiB, the published m4.xlarge /
 * m5.xlarge size. The ceph-k0s stack checks the exact fit of its placement (stacks/ceph-k0s/config.ts).
 */
export const MIN_NODE = { vcpus: 4, memoryGiB: 16 } as const;

/** k0s release names: `v<kubernetes version>+k0s.<n>` (k0sproject/k0s release tags). */
export const K0S_VERSION_RE = /^v1\.\d+\.\d+\+k0s\.\d+$/;
export const K0S_VERSION_RULE = "a k0s release (e.g. v1.36.3+k0s.2)";
/** The most IOPS an EBS volume delivers to an instance not on Nitro (EC2 CreateVolume, Iops). */
export const XEN_MAX_VOLUME_IOPS = 32_000;
/**
 * The Kubernetes minors Rook runs on: "Kubernetes versions v1.31 through v1.36 are supported"
 * (rook/rook v1.20.6 Documentation/Getting-Started/Prerequisites/prerequisites.md:10). A k0s
 * release of another minor installs, and Rook's operator then runs on a Kubernetes it was not
 * tested against.
 */
export const ROOK_KUBERNETES_MINORS = { min: 31, max: 36 } as const;
export const K0S_ROOK_MINOR_RULE = `a k0s release of Kubernetes v1.${ROOK_KUBERNETES_MINORS.min} to v1.${ROOK_KUBERNETES_MINORS.max}, the versions Rook v1.20.6 supports (e.g. v1.36.3+k0s.2)`;

/**
 * The operator's key goes into the nodes' and the bastion's `ssh_authorized_keys` (cloud-init.ts),
 * never to EC2 (the nodes' EC2 key pair is the lab's own ED25519 key), so the rule is the nodes'
 * sshd's: Ubuntu 24.04's OpenSSH 9.6p1 (components/versions.ts UBUNTU_AMI) accepts by default the
 * key types of `PubkeyAcceptedAlgorithms` (openssh/openssh-portable V_9_6_P1 sshd_config.5:1584-1612:
 * ssh-ed25519, ecdsa-sha2-nistp256/384/521, sk-ssh-ed25519@openssh.com,
 * sk-ecdsa-sha2-nistp256@openssh.com, and RSA keys signed rsa-sha2-512/256, whose key line reads
 * ssh-rsa), and refuses RSA keys under `RequiredRSASize`, 1024 bits (sshd_config.5:1682-1691). DSA
 * is not among them.
 */
export const SSH_KEY_TYPES = [
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
  "ssh-rsa",
] as const;
/** sshd's `RequiredRSASize` default (bits). */
export const MIN_RSA_BITS = 1024;
export const SSH_PUBLIC_KEY_RULE = `an OpenSSH public key the nodes' sshd accepts (${SSH_KEY_TYPES.join(", ")}; RSA of at least ${MIN_RSA_BITS} bits), followed by its base64 key`;
const SSH_PUBLIC_KEY_RE = /^([a-z0-9@.-]+) ([A-Za-z0-9+/]+={0,2})( [^\r\n]*)?$/;

/** The SSH wire strings of a key blob (RFC 4253 section 5: uint32 length, then the bytes), or undefined when it does not parse. */
function sshStrings(blob: Buffer): Buffer[] | undefined {
  const out: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) return undefined;
    const n = blob.readUInt32BE(at);
    if (at + 4 + n > blob.length) return undefined;
    out.push(blob.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  return out;
}

/** Bits of an SSH mpint (RFC 4251 section 5: two's complement, big-endian; a positive one with a leading zero byte when its top bit is set). */
function mpintBits(b: Buffer): number {
  let i = 0;
  while (i < b.length && b[i] === 0) i++;
  if (i === b.length) return 0;
  return (b.length - i - 1) * 8 + (32 - Math.clz32(b[i]));
}

/**
 * True for an OpenSSH public key line of a type sshd accepts whose base64 blob is a whole key of
 * that type: its fields as RFC 4253 section 6.6 (ssh-ed25519: a 32-byte key, RFC 8709; ssh-rsa: e,
 * n of at least {@link MIN_RSA_BITS} bits), RFC 5656 section 3.1 (ECDSA: the curve's name and its
 * point) and OpenSSH PROTOCOL.u2f (sk-*: the same, then the application), so a truncated paste or
 * a key under another type's prefix is refused too.
 */
export function isSshPublicKey(v: unknown): v is string {
  if (typeof v !== "string") return false;
  const m = SSH_PUBLIC_KEY_RE.exec(v);
  if (!m || !(SSH_KEY_TYPES as readonly string[]).includes(m[1])) return false;
  const f = sshStrings(Buffer.from(m[2], "base64"));
  if (f === undefined || f.length < 1 || f[0].toString("latin1") !== m[1]) return false;
  const type = m[1];
  const ecdsaPoint: Record<string, number> = { nistp256: 65, nistp384: 97, nistp521: 133 };
  if (type === "ssh-ed25519") return f.length === 2 && f[1].length === 32;
  if (type === "sk-ssh-ed25519@openssh.com") return f.length === 3 && f[1].length === 32 && f[2].length > 0;
  if (type === "ssh-rsa") return f.length === 3 && mpintBits(f[1]) > 0 && mpintBits(f[2]) >= MIN_RSA_BITS;
  const curve = type === "sk-ecdsa-sha2-nistp256@openssh.com" ? "nistp256" : type.slice("ecdsa-sha2-".length);
  const sk = type.startsWith("sk-");
  return (
    f.length === (sk ? 4 : 3) &&
    f[1].toString("latin1") === curve &&
    f[2].length === ecdsaPoint[curve] &&
    f[2][0] === 4 &&
    (!sk || f[3].length > 0)
  );
}

/** k0s' pod and service networks (ports.ts), which no node address may fall into. */
export const CLUSTER_NETWORKS = [
  { name: "pod network", cidr: POD_CIDR },
  { name: "service network", cidr: SERVICE_CIDR },
] as const;

/**
 * The cluster networks a node network (the VPC's CIDR) overlaps: a node address inside the pod or
 * service network is routed into the cluster instead of to the node (k0s docs/networking.md:
 * "all traffic to and from the podCIDR and serviceCIDR subnets" is the cluster's).
 */
export function clusterNetworksOverlapping(nodeCidr: string): string[] {
  if (!parseCidr(nodeCidr)) throw new RangeError(`not an IPv4 CIDR: ${nodeCidr}`);
  return CLUSTER_NETWORKS.filter(({ cidr }) => cidrsOverlap(nodeCidr, cidr)).map(({ name, cidr }) => `${name} ${cidr}`);
}

/** The rule a node network must meet. */
export const NODE_NETWORK_RULE = `a network that overlaps neither k0s' pod network ${POD_CIDR} nor its service network ${SERVICE_CIDR}`;

/** The arguments {@link K0S_CLUSTER_DEFAULTS} fills in. */
export interface K0sClusterDefaulted {
  readonly workerCount: number;
  readonly osdVolumeGiB: number;
  readonly osdVolumeIops: number;
  readonly osdVolumeThroughputMiBps: number;
  readonly rootVolumeGiB: number;
  readonly k0sVersion: string;
  readonly cni: Cni;
  readonly wireguard: boolean;
  readonly cephHostNetwork: boolean;
  readonly hugepages2Mi: number;
  readonly bastionInstanceType: string;
}

/** What {@link problems} reads: the spec, with `az` of any type (an Output is left to its maker). */
export type K0sClusterChecked = Omit<K0sClusterSpec, "az"> & { readonly az?: unknown };

/** Defaults applied. */
export function resolve<S extends K0sClusterChecked>(spec: S): S & K0sClusterDefaulted {
  const d = K0S_CLUSTER_DEFAULTS;
  const cni = spec.cni ?? d.cni;
  return {
    ...spec,
    workerCount: spec.workerCount ?? d.workerCount,
    osdVolumeGiB: spec.osdVolumeGiB ?? d.osdVolumeGiB,
    osdVolumeIops: spec.osdVolumeIops ?? d.osdVolumeIops,
    osdVolumeThroughputMiBps: spec.osdVolumeThroughputMiBps ?? d.osdVolumeThroughputMiBps,
    rootVolumeGiB: spec.rootVolumeGiB ?? d.rootVolumeGiB,
    k0sVersion: spec.k0sVersion ?? d.k0sVersion,
    cni,
    wireguard: spec.wireguard ?? cni === "calico",
    cephHostNetwork: spec.cephHostNetwork ?? d.cephHostNetwork,
    hugepages2Mi: spec.hugepages2Mi ?? d.hugepages2Mi,
    bastionInstanceType: spec.bastionInstanceType ?? d.bastionInstanceType,
  };
}

const ADMIN_CIDRS_RULE = `a list of 1 to ${MAX_ADMIN_CIDRS} IPv4 CIDRs of the operators (e.g. ["198.51.100.7/32"])`;

/** The instance-type rule: a type of the table, at least {@link MIN_NODE}. */
function instanceTypeProblem(v: unknown): ArgProblem | undefined {
  const info = instanceTypeInfo(v);
  if (!info) return argProblem("instanceType", INSTANCE_TYPE_RULE, v);
  if (NVME_INSTANCE_STORE_FAMILIES.includes(info.family)) {
    return argProblem(
      "instanceType",
      `an instance type without NVMe instance storage (not ${NVME_INSTANCE_STORE_FAMILIES.join(", ")}): the OSD device is found by its name ` +
        "(/dev/xvdf or /dev/nvme1n1), which an instance-store NVMe disk can take, so Ceph would run on it while the samples say gp3",
      v,
    );
  }
  if (info.vcpus < MIN_NODE.vcpus || info.memoryGiB < MIN_NODE.memoryGiB) {
    return argProblem(
      "instanceType",
      `an instance type with at least ${MIN_NODE.vcpus} vCPUs and ${MIN_NODE.memoryGiB} GiB of memory (a worker runs a Ceph OSD and monitor beside Postgres or pgbench); ${v} has ${info.vcpus} vCPUs and ${info.memoryGiB} GiB`,
      v,
    );
  }
  return undefined;
}

/**
 * Every problem of `spec`, in argument order; empty when it is valid. `az` is checked when it is
 * text (an Output, e.g. a zone read from a network stack, is checked where it is read).
 */
export function problems(spec: K0sClusterChecked): ArgProblem[] {
  const out: ArgProblem[] = [];
  const r = resolve(spec);
  const it = instanceTypeProblem(spec.instanceType);
  if (it) out.push(it);
  if (!isInt(r.workerCount, 1, MAX_WORKERS)) out.push(argProblem("workerCount", `an integer from 1 to ${MAX_WORKERS}`, r.workerCount));
  const az = spec.az;
  if (!(typeof az === "object" && az !== null) && !isText(az, AZ_NAME_RE)) out.push(argProblem("az", AZ_NAME_RULE, az));

  const cidrs = spec.adminCidrs as unknown;
  if (!Array.isArray(cidrs) || cidrs.length < 1 || cidrs.length > MAX_ADMIN_CIDRS) {
    out.push(argProblem("adminCidrs", ADMIN_CIDRS_RULE, cidrs));
  } else {
    cidrs.forEach((c, i) => {
      if (!isIpv4NetworkCidr(c, ADMIN_PREFIX_MIN, ADMIN_PREFIX_MAX)) out.push(argProblem(`adminCidrs[${i}]`, ADMIN_CIDR_SYNTAX_RULE, c));
    });
    if (cidrs.some((c) => isIpv4NetworkCidr(c, ADMIN_PREFIX_MIN, ADMIN_PREFIX_MAX) && c.startsWith("0.0.0.0/")))
      out.push(argProblem("adminCidrs", "CIDRs of the operators' own networks, not the whole internet", cidrs));
    // One security-group rule per CIDR and port (./index.ts ingressSources): EC2 refuses a second
    // identical one ("the API throws an duplicate rule error", boto/botocore 0e6e2404
    // botocore/data/ec2/2016-11-15/service-2.json:50567, IpRange CidrIp). The eks kind's rule words it the same.
    if (new Set(cidrs).size !== cidrs.length) out.push(argProblem("adminCidrs", "a list without duplicates", cidrs));
  }
  out.push(...adminCidrWidthProblems(cidrs, spec.adminCidrMinPrefix));

  if (spec.sshPublicKey !== undefined && !isSshPublicKey(spec.sshPublicKey))
    out.push(argProblem("sshPublicKey", SSH_PUBLIC_KEY_RULE, spec.sshPublicKey));
  out.push(
    ...gp3Problems(
      { sizeGiB: r.osdVolumeGiB, iops: r.osdVolumeIops, throughputMiBps: r.osdVolumeThroughputMiBps },
      { sizeGiB: "osdVolumeGiB", iops: "osdVolumeIops", throughputMiBps: "osdVolumeThroughputMiBps" },
    ),
  );
  // "Instances built on the Nitro System can support up to 256,000 IOPS. Other instances can support
  // up to 32,000 IOPS" (boto/botocore 0e6e2404 botocore/data/ec2/2016-11-15/service-2.json:21560,
  // CreateVolume Iops): EC2 creates the volume, the Xen node never reaches it, and the samples would
  // record IOPS the disk was never given.
  if (instanceTypeInfo(r.instanceType)?.hypervisor === "xen" && isInt(r.osdVolumeIops) && r.osdVolumeIops > XEN_MAX_VOLUME_IOPS)
    out.push(
      argProblem(
        "osdVolumeIops",
        `at most ${XEN_MAX_VOLUME_IOPS} on {instanceType} ${r.instanceType as string} (Xen): EC2 volumes reach more only on Nitro instances`,
        r.osdVolumeIops,
      ),
    );
  if (!isInt(r.rootVolumeGiB, GP3.minSizeGiB, GP3.maxSizeGiB)) out.push(argProblem("rootVolumeGiB", gp3SizeRule(), r.rootVolumeGiB));
  if (!isText(r.k0sVersion, K0S_VERSION_RE)) out.push(argProblem("k0sVersion", K0S_VERSION_RULE, r.k0sVersion));
  else {
    const minor = Number(r.k0sVersion.split(".")[1]);
    if (minor < ROOK_KUBERNETES_MINORS.min || minor > ROOK_KUBERNETES_MINORS.max)
      out.push(argProblem("k0sVersion", K0S_ROOK_MINOR_RULE, r.k0sVersion));
  }
  if (!isOneOf(r.cni, CNIS)) out.push(argProblem("cni", `one of ${CNIS.join(", ")}`, r.cni));
  if (typeof r.wireguard !== "boolean") out.push(argProblem("wireguard", "true or false", r.wireguard));
  else if (r.wireguard && r.cni === "kuberouter")
    out.push(argProblem("wireguard", "false with {cni} kuberouter (the WireGuard encryption k0s configures is Calico's)", r.wireguard));
  if (typeof r.cephHostNetwork !== "boolean") out.push(argProblem("cephHostNetwork", "true or false", r.cephHostNetwork));
  // Bounded by the node's memory once the instance type passed its own rule (else that is the problem).
  const memoryGiB = it === undefined ? instanceTypeInfo(spec.instanceType)?.memoryGiB : undefined;
  const maxPages = memoryGiB === undefined ? 1 << 20 : memoryGiB * 128;
  if (!isInt(r.hugepages2Mi, 0, maxPages))
    out.push(
      argProblem(
        "hugepages2Mi",
        `a whole number of 2 MiB pages from 0 to ${maxPages}${memoryGiB === undefined ? "" : ` (a quarter of the ${memoryGiB} GiB of {instanceType})`}`,
        r.hugepages2Mi,
      ),
    );
  if (!instanceTypeInfo(r.bastionInstanceType)) out.push(argProblem("bastionInstanceType", INSTANCE_TYPE_RULE, r.bastionInstanceType));
  return out;
}
