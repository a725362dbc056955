/**
 * What an EC2 instance itself allows its EBS volumes, whatever the volumes allow: the dedicated
 * EBS bandwidth, throughput and IOPS of the instance types the lab runs on. A volume attached to
 * an instance gets the lesser of its own limit and the instance's (shared by every volume of the
 * instance, root volume included): on m4.xlarge the instance's 93.75 MB/s is 71.5 % of a gp3
 * volume's included 125 MiB/s (131 MB/s), so an OSD volume there can never pass ~72 % of its own
 * throughput limit. lab/utilization reads this table to sample the instance's EBS limit beside the
 * volumes'. Pure.
 *
 * Source: EC2 User Guide, "Amazon EBS–optimized instances" → "Supported instance types" → "EBS
 * optimized by default" (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ebs-optimized.html;
 * read in awsdocs/amazon-ec2-user-guide doc_source/ebs-optimized.md): the first table gives the
 * maximum bandwidth (Mbps), "maximum throughput (MB/s, 128 KiB I/O)" and "maximum IOPS (16 KiB
 * I/O)"; the types marked `*` "can support maximum performance for 30 minutes at least once every
 * 24 hours", and the second table gives their baseline bandwidth, throughput and IOPS (sustained):
 *
 * | type | maximum Mbps / MB/s / IOPS | baseline Mbps / MB/s / IOPS |
 * |---|---|---|
 * | m4.large | 450 / 56.25 / 3,600 | (no burst) |
 * | m4.xlarge | 750 / 93.75 / 6,000 | (no burst) |
 * | m4.2xlarge | 1,000 / 125 / 8,000 | (no burst) |
 * | m5.large * | 4,750 / 593.75 / 18,750 | 650 / 81.25 / 3,600 |
 * | m5.xlarge * | 4,750 / 593.75 / 18,750 | 1,150 / 143.75 / 6,000 |
 * | m5.2xlarge * | 4,750 / 593.75 / 18,750 | 2,300 / 287.5 / 12,000 |
 * | c5n.2xlarge * | 4,750 / 593.75 / 20,000 | 2,300 / 287.5 / 10,000 |
 * | i3en.2xlarge * | 4,750 / 593.75 / 20,000 | 2,307 / 288.39 / 12,000 |
 *
 * MB/s here are the table's decimal megabytes per second (its Mbps ÷ 8). A type outside the table
 * has no modelled instance EBS limit (lab util says so).
 */

/** One instance type's EBS limits. */
export interface InstanceEbsLimits {
  /** What it sustains: the maximum of a type without burst, the baseline of a type with one. */
  readonly baseline: { readonly bandwidthMbps: number; readonly throughputMBps: number; readonly iops: number };
  /** What a bursting type reaches for 30 minutes at least once every 24 hours; absent without burst. */
  readonly burst?: { readonly bandwidthMbps: number; readonly throughputMBps: number; readonly iops: number };
}

/** How long a bursting type holds its maximum, and how often (the table's `*` note). */
export const EBS_BURST = { minutes: 30, perHours: 24 } as const;

const flat = (bandwidthMbps: number, throughputMBps: number, iops: number): InstanceEbsLimits => ({
  baseline: { bandwidthMbps, throughputMBps, iops },
});
const bursting = (base: readonly [number, number, number], max: readonly [number, number, number]): InstanceEbsLimits => ({
  baseline: { bandwidthMbps: base[0], throughputMBps: base[1], iops: base[2] },
  burst: { bandwidthMbps: max[0], throughputMBps: max[1], iops: max[2] },
});

export const INSTANCE_EBS_LIMITS: Readonly<Record<string, InstanceEbsLimits>> = {
  "m4.large": flat(450, 56.25, 3600),
  "m4.xlarge": flat(750, 93.75, 6000),
  "m4.2xlarge": flat(1000, 125, 8000),
  "m5.large": bursting([650, 81.25, 3600], [4750, 593.75, 18750]),
  "m5.xlarge": bursting([1150, 143.75, 6000], [4750, 593.75, 18750]),
  "m5.2xlarge": bursting([2300, 287.5, 12000], [4750, 593.75, 18750]),
  "c5n.2xlarge": bursting([2300, 287.5, 10000], [4750, 593.75, 20000]),
  "i3en.2xlarge": bursting([2307, 288.39, 12000], [4750, 593.75, 20000]),
};

/** The EBS limits of an instance type, undefined when the table does not have it. */
export function instanceEbsLimits(instanceType: string): InstanceEbsLimits | undefined {
  return Object.prototype.hasOwnProperty.call(INSTANCE_EBS_LIMITS, instanceType) ? INSTANCE_EBS_LIMITS[instanceType] : undefined;
}
