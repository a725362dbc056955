/**
 * The EC2 instance types the k0s cluster may run on: for each, the hypervisor, the vCPUs and
 * memory, and whether it can be EBS-optimized. Pure.
 *
 * Sources (AWS):
 * - vCPUs and memory: the Amazon EC2 Instance Types guide, "Specifications" of each category
 *   (https://docs.aws.amazon.com/ec2/latest/instancetypes/gp.html general purpose,
 *   .../co.html compute optimized, .../mo.html memory optimized, .../so.html storage optimized,
 *   .../pg.html previous generation).
 * - Hypervisor: "Instances built on the AWS Nitro System"
 *   (https://docs.aws.amazon.com/ec2/latest/instancetypes/ec2-nitro-instances.html): the families
 *   listed there run on Nitro; t2, m3, m4, c3, c4, r3, r4 and i3 are not listed and run on Xen,
 *   except every `.metal` size (bare metal on Nitro hardware, "nitro" here, e.g. i3.metal).
 * - EBS optimization: EC2 User Guide, "Amazon EBS-optimized instance types"
 *   (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ebs-optimized.html): every Nitro type and
 *   m4, c4, r4, i3 are EBS-optimized by default; m3.xlarge, m3.2xlarge, c3.xlarge–c3.4xlarge and
 *   r3.xlarge–r3.4xlarge support it when asked (an extra hourly charge); t2, m3.medium, m3.large,
 *   c3.large, c3.8xlarge, r3.large and r3.8xlarge do not support it, and RunInstances with
 *   `EbsOptimized=true` fails on them ("Unsupported").
 *
 * The families are x86_64 general purpose, compute, memory and storage families a storage lab may
 * compare (the nodes boot Canonical's amd64 HVM image; Graviton, GPU and accelerator families are
 * left out). On Xen an EBS volume attached as /dev/xvdf appears as /dev/xvdf; on Nitro every EBS
 * volume is an NVMe device and the first one after the root volume is /dev/nvme1n1 (the Rook device
 * filter matches both, see components/rook/manifests.ts). m4 (except m4.16xlarge, ENA) uses the
 * Intel 82599 VF (ixgbevf) for enhanced networking; Canonical's image carries both drivers.
 */

/**
 * Families whose instance storage is NVMe (EC2 User Guide, "Instance store volume limits for EC2
 * instances", instance-store-volumes.html: m5d, i3 and i3en carry NVMe SSDs). Their disks are NVMe
 * devices beside the EBS ones, and the kernel names NVMe devices in the order they are found ("The
 * block device driver can assign NVMe device names in a different order than you specified",
 * EC2 User Guide, "Amazon EBS volumes and NVMe", nvme-ebs-volumes.html): `/dev/nvme1n1`, the name
 * the Rook device filter takes as the OSD (components/rook/manifests.ts), can be an instance-store
 * disk, whose samples would then say gp3. The k0s cluster refuses them (rules.ts).
 */
export const NVME_INSTANCE_STORE_FAMILIES: readonly string[] = ["m5d", "i3", "i3en"];

/** The hypervisor family of an instance: the axis the dev (m4) / nitro (m5) comparison varies. */
export type Hypervisor = "xen" | "nitro";

/** `default`: always EBS-optimized; `supported`: on request; `unsupported`: never (asking fails the launch). */
export type EbsOptimization = "default" | "supported" | "unsupported";

/** One instance type of the table. */
export interface InstanceTypeInfo {
  readonly family: string;
  readonly size: string;
  readonly hypervisor: Hypervisor;
  readonly vcpus: number;
  readonly memoryGiB: number;
  readonly ebsOptimization: EbsOptimization;
}

/** size → [vCPUs, memory GiB], optionally the size's own EBS optimization. */
type Sizes = Readonly<Record<string, readonly [number, number] | readonly [number, number, EbsOptimization]>>;

interface Family {
  readonly hypervisor: Hypervisor;
  readonly ebsOptimization: EbsOptimization;
  readonly sizes: Sizes;
}

/** Sizes whose vCPUs follow the size (large 2, xlarge 4, Nxlarge 4N) at `gibPerVcpu` memory each. */
function uniform(gibPerVcpu: number, names: readonly string[], extra: Sizes = {}): Sizes {
  const vcpus = (size: string): number => (size === "large" ? 2 : size === "xlarge" ? 4 : 4 * Number(size.replace("xlarge", "")));
  return { ...Object.fromEntries(names.map((s) => [s, [vcpus(s), vcpus(s) * gibPerVcpu] as const])), ...extra };
}

const UP_TO_24 = ["large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge"] as const;
const UP_TO_32 = [...UP_TO_24, "32xlarge"] as const;
const UP_TO_48 = [...UP_TO_32, "48xlarge"] as const;
const BURSTABLE_NITRO: Sizes = {
  nano: [2, 0.5],
  micro: [2, 1],
  small: [2, 2],
  medium: [2, 4],
  large: [2, 8],
  xlarge: [4, 16],
  "2xlarge": [8, 32],
};

const FAMILIES: Readonly<Record<string, Family>> = {
  // Xen, previous generation (.../pg.html).
  t2: {
    hypervisor: "xen",
    ebsOptimization: "unsupported",
    sizes: { nano: [1, 0.5], micro: [1, 1], small: [1, 2], medium: [2, 4], large: [2, 8], xlarge: [4, 16], "2xlarge": [8, 32] },
  },
  m3: {
    hypervisor: "xen",
    ebsOptimization: "supported",
    sizes: { medium: [1, 3.75, "unsupported"], large: [2, 7.5, "unsupported"], xlarge: [4, 15], "2xlarge": [8, 30] },
  },
  c3: {
    hypervisor: "xen",
    ebsOptimization: "supported",
    sizes: {
      large: [2, 3.75, "unsupported"],
      xlarge: [4, 7.5],
      "2xlarge": [8, 15],
      "4xlarge": [16, 30],
      "8xlarge": [32, 60, "unsupported"],
    },
  },
  r3: {
    hypervisor: "xen",
    ebsOptimization: "supported",
    sizes: {
      large: [2, 15.25, "unsupported"],
      xlarge: [4, 30.5],
      "2xlarge": [8, 61],
      "4xlarge": [16, 122],
      "8xlarge": [32, 244, "unsupported"],
    },
  },
  m4: {
    hypervisor: "xen",
    ebsOptimization: "default",
    sizes: uniform(4, ["large", "xlarge", "2xlarge", "4xlarge", "10xlarge", "16xlarge"]),
  },
  c4: {
    hypervisor: "xen",
    ebsOptimization: "default",
    sizes: { large: [2, 3.75], xlarge: [4, 7.5], "2xlarge": [8, 15], "4xlarge": [16, 30], "8xlarge": [36, 60] },
  },
  r4: {
    hypervisor: "xen",
    ebsOptimization: "default",
    sizes: uniform(7.625, ["large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge"]),
  },
  i3: {
    hypervisor: "xen",
    ebsOptimization: "default",
    sizes: uniform(7.625, ["large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge"], { metal: [72, 512] }),
  },
  // Nitro.
  t3: { hypervisor: "nitro", ebsOptimization: "default", sizes: BURSTABLE_NITRO },
  t3a: { hypervisor: "nitro", ebsOptimization: "default", sizes: BURSTABLE_NITRO },
  m5: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(4, UP_TO_24, { metal: [96, 384] }) },
  m5a: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(4, UP_TO_24) },
  m5d: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(4, UP_TO_24, { metal: [96, 384] }) },
  m5n: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(4, UP_TO_24, { metal: [96, 384] }) },
  m6i: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(4, UP_TO_32, { metal: [128, 512] }) },
  m6a: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(4, UP_TO_48, { metal: [192, 768] }) },
  m7i: {
    hypervisor: "nitro",
    ebsOptimization: "default",
    sizes: uniform(4, [...UP_TO_24, "48xlarge"], { "metal-24xl": [96, 384], "metal-48xl": [192, 768] }),
  },
  c5: {
    hypervisor: "nitro",
    ebsOptimization: "default",
    sizes: uniform(2, ["large", "xlarge", "2xlarge", "4xlarge", "9xlarge", "12xlarge", "18xlarge", "24xlarge"], { metal: [96, 192] }),
  },
  c6i: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(2, UP_TO_32, { metal: [128, 256] }) },
  r5: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(8, UP_TO_24, { metal: [96, 768] }) },
  r6i: { hypervisor: "nitro", ebsOptimization: "default", sizes: uniform(8, UP_TO_32, { metal: [128, 1024] }) },
  i3en: {
    hypervisor: "nitro",
    ebsOptimization: "default",
    sizes: uniform(8, ["large", "xlarge", "2xlarge", "3xlarge", "6xlarge", "12xlarge", "24xlarge"], { metal: [96, 768] }),
  },
};

/** Every instance type the cluster may run on (the table `lab:instanceType` is checked against). */
export const INSTANCE_TYPES: Readonly<Record<string, InstanceTypeInfo>> = Object.freeze(
  Object.fromEntries(
    Object.entries(FAMILIES).flatMap(([family, f]) =>
      Object.entries(f.sizes).map(([size, [vcpus, memoryGiB, ebs]]) => [
        `${family}.${size}`,
        {
          family,
          size,
          hypervisor: size.startsWith("metal") ? "nitro" : f.hypervisor,
          vcpus,
          memoryGiB,
          ebsOptimization: ebs ?? (size.startsWith("metal") ? "default" : f.ebsOptimization),
        } satisfies InstanceTypeInfo,
      ]),
    ),
  ),
);

/** The rule a type outside the table is reported with. */
export const INSTANCE_TYPE_RULE =
  "an x86_64 EC2 instance type listed in components/k0s/instance-types.ts (e.g. m4.xlarge on Xen, m5.xlarge on Nitro)";

/** The table's row of an instance type, undefined when it is not in the table. */
export function instanceTypeInfo(instanceType: unknown): InstanceTypeInfo | undefined {
  return typeof instanceType === "string" && Object.prototype.hasOwnProperty.call(INSTANCE_TYPES, instanceType)
    ? INSTANCE_TYPES[instanceType]
    : undefined;
}

/** The hypervisor of a type in the table, undefined for any other text. */
export function hypervisorOf(instanceType: unknown): Hypervisor | undefined {
  return instanceTypeInfo(instanceType)?.hypervisor;
}

/**
 * What an instance's `ebsOptimized` argument must be: true where the type can be EBS-optimized
 * (by default or on request), absent where it cannot (asking would fail RunInstances).
 */
export function ebsOptimizedArg(instanceType: string): true | undefined {
  const info = instanceTypeInfo(instanceType);
  return info !== undefined && info.ebsOptimization !== "unsupported" ? true : undefined;
}
