/**
 * The EC2 instance families the Ceph lab may run on, and the hypervisor each runs on. Pure.
 *
 * Source: AWS, "Instances built on the AWS Nitro System"
 * (https://docs.aws.amazon.com/ec2/latest/instancetypes/ec2-nitro-instances.html): the families
 * listed there run on Nitro; the previous-generation families not listed there run on Xen, and of
 * those `i3` runs on Xen except `i3.metal` (bare metal on Nitro). `p3dn` is its own family (Nitro),
 * while `p3` is Xen. Every `.metal` size is bare metal on Nitro hardware ("nitro" here).
 *
 * Only x86_64 families are listed: the nodes boot Canonical's amd64 Ubuntu image. Families that
 * need PV AMIs (m1, m2, c1, t1) are left out: the image is HVM only.
 *
 * On Xen an EBS volume attached as /dev/xvdf appears as /dev/xvdf; on Nitro every EBS volume is an
 * NVMe device and the first one after the root volume is /dev/nvme1n1 (the Rook device filter
 * matches both, see components/rook/manifests.ts). m4 (except m4.16xlarge, ENA) uses the Intel
 * 82599 VF (ixgbevf) for enhanced networking; Canonical's image carries both drivers.
 */

/** The hypervisor family of an instance: the axis the dev (m4) / nitro (m5) comparison varies. */
export type Hypervisor = "xen" | "nitro";

/** Xen-based (HVM) x86_64 families. */
const XEN = ["c3", "c4", "d2", "f1", "g3", "g3s", "h1", "i2", "i3", "m3", "m4", "p2", "p3", "r3", "r4", "t2", "x1", "x1e"] as const;

/** Nitro-based x86_64 families (general purpose, compute, memory, storage, accelerated). */
const NITRO = [
  "t3",
  "t3a",
  "m5",
  "m5a",
  "m5ad",
  "m5d",
  "m5dn",
  "m5n",
  "m5zn",
  "m6a",
  "m6i",
  "m6id",
  "m6idn",
  "m6in",
  "m7a",
  "m7i",
  "m7i-flex",
  "m8a",
  "m8i",
  "m8i-flex",
  "c5",
  "c5a",
  "c5ad",
  "c5d",
  "c5n",
  "c6a",
  "c6i",
  "c6id",
  "c6in",
  "c7a",
  "c7i",
  "c7i-flex",
  "c8a",
  "c8i",
  "c8i-flex",
  "r5",
  "r5a",
  "r5ad",
  "r5b",
  "r5d",
  "r5dn",
  "r5n",
  "r6a",
  "r6i",
  "r6id",
  "r6idn",
  "r6in",
  "r7a",
  "r7i",
  "r7iz",
  "r8a",
  "r8i",
  "r8i-flex",
  "x2idn",
  "x2iedn",
  "x2iezn",
  "z1d",
  "d3",
  "d3en",
  "i3en",
  "i4i",
  "i7i",
  "i7ie",
  "g4dn",
  "g4ad",
  "g5",
  "g6",
  "g6e",
  "p3dn",
  "p4d",
  "p5",
  "inf1",
  "inf2",
  "trn1",
] as const;

/** Every known family with its hypervisor (the table `lab:instanceType` is checked against). */
export const INSTANCE_FAMILIES: Readonly<Record<string, Hypervisor>> = Object.freeze({
  ...Object.fromEntries(XEN.map((f) => [f, "xen" as const])),
  ...Object.fromEntries(NITRO.map((f) => [f, "nitro" as const])),
});

const TYPE_RE = /^([a-z][a-z0-9-]*)\.(nano|micro|small|medium|large|xlarge|[1-9][0-9]*xlarge|metal(-[1-9][0-9]*xl)?)$/;

/** The rule a bad `lab:instanceType` is reported with. */
export const INSTANCE_TYPE_RULE =
  "an x86_64 EC2 instance type of a family in components/k0s/instance-types.ts (e.g. m4.xlarge on Xen, m5.xlarge on Nitro)";

/** `m5.xlarge` → `{ family: "m5", size: "xlarge" }`; undefined when the text is not an instance type. */
export function parseInstanceType(instanceType: string): { family: string; size: string } | undefined {
  const m = TYPE_RE.exec(instanceType);
  return m ? { family: m[1], size: m[2] } : undefined;
}

/** The hypervisor of a known instance type, undefined for an unknown family or a malformed type. */
export function hypervisorOf(instanceType: string): Hypervisor | undefined {
  const t = parseInstanceType(instanceType);
  if (!t || !Object.prototype.hasOwnProperty.call(INSTANCE_FAMILIES, t.family)) return undefined;
  return t.size.startsWith("metal") ? "nitro" : INSTANCE_FAMILIES[t.family];
}
