/**
 * The instance types an EKS node group may use: every type of components/k0s/instance-types.ts (x86_64
 * families a storage lab compares), plus the x86_64 families the EKS experiments need that the k0s
 * table leaves out. Pure.
 *
 * Added here: **c5n**, compute optimized with 25 Gbps-class networking, the OpenMessaging Benchmark
 * clients of NetApp's Kafka validation ("4 x producer/consumer — c5n.2xlarge", docs.netapp.com/us-en/
 * netapp-solutions/data-analytics/kafka-nfs-performance-overview-and-validation-in-aws.html,
 * "Architectural setup"). vCPUs and memory: Amazon EC2 Instance Types guide, compute optimized
 * (https://docs.aws.amazon.com/ec2/latest/instancetypes/co.html): c5n.large 2 vCPU / 5.25 GiB,
 * c5n.xlarge 4 / 10.5, c5n.2xlarge 8 / 21, c5n.4xlarge 16 / 42, c5n.9xlarge 36 / 96, c5n.18xlarge and
 * c5n.metal 72 / 192. Nitro: c5n is listed in "Instances built on the AWS Nitro System"; EBS-optimized
 * by default like every Nitro type. (The brokers' i3en.2xlarge is in the k0s table.)
 */
import { InstanceTypeInfo, instanceTypeInfo } from "../k0s/instance-types";

const c5n = (size: string, vcpus: number, memoryGiB: number): [string, InstanceTypeInfo] => [
  `c5n.${size}`,
  { family: "c5n", size, hypervisor: "nitro", vcpus, memoryGiB, ebsOptimization: "default" },
];

/** The types EKS node groups may use besides the k0s table's. */
export const EKS_EXTRA_INSTANCE_TYPES: Readonly<Record<string, InstanceTypeInfo>> = Object.freeze(
  Object.fromEntries([
    c5n("large", 2, 5.25),
    c5n("xlarge", 4, 10.5),
    c5n("2xlarge", 8, 21),
    c5n("4xlarge", 16, 42),
    c5n("9xlarge", 36, 96),
    c5n("18xlarge", 72, 192),
    c5n("metal", 72, 192),
  ]),
);

/** The row of an instance type an EKS node group may use; undefined for any other text. */
export function eksInstanceTypeInfo(instanceType: unknown): InstanceTypeInfo | undefined {
  if (instanceTypeInfo(instanceType) !== undefined) return instanceTypeInfo(instanceType);
  return typeof instanceType === "string" && Object.prototype.hasOwnProperty.call(EKS_EXTRA_INSTANCE_TYPES, instanceType)
    ? EKS_EXTRA_INSTANCE_TYPES[instanceType]
    : undefined;
}
