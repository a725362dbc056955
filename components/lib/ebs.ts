/**
 * Amazon EBS gp3 limits, in one place for every component that creates gp3 volumes (the k0s
 * cluster's OSD volumes today, an EKS kind's node volumes next). Pure.
 *
 * Source: Amazon EBS User Guide, "General Purpose SSD volumes" → gp3
 * (https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html#gp3-ebs-volume-type): a gp3
 * volume is 1 GiB to 64 TiB; 3,000 IOPS and 125 MiB/s come with any size; up to 80,000 IOPS and
 * 2,000 MiB/s can be provisioned (raised in September 2025 from 16 TiB, 16,000 IOPS and
 * 1,000 MiB/s); "the maximum ratio of provisioned IOPS to provisioned volume size is 500 IOPS per
 * GiB" and "the maximum ratio of provisioned throughput to provisioned IOPS is .25 MiB/s per IOPS".
 * The EC2 API reference states the same ranges for CreateVolume's parameters
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateVolume.html; also the EC2
 * model boto/botocore botocore/data/ec2/2016-11-15/service-2.json, CreateVolumeRequest): `Size`
 * "gp3: 1 - 65,536 GiB", `Iops` "gp3: 3,000 (default) - 80,000 IOPS", `Throughput` "Valid Range:
 * 125 - 2000 MiB/s".
 */
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt } from "../../core/checks";

export const GP3 = {
  minSizeGiB: 1,
  maxSizeGiB: 65536,
  /** Included at any size; also the least a volume can be given. */
  baselineIops: 3000,
  maxIops: 80000,
  /** Included at any size; also the least a volume can be given. */
  baselineThroughputMiBps: 125,
  maxThroughputMiBps: 2000,
  maxIopsPerGiB: 500,
  maxMiBpsPerIops: 0.25,
} as const;

/** The three settings of one gp3 volume, as a caller's arguments hold them (of any type: they are checked). */
export interface Gp3Settings {
  readonly sizeGiB: unknown;
  readonly iops: unknown;
  readonly throughputMiBps: unknown;
}

/** What the caller calls each setting: the problems' paths and the `{arg}` references between them. */
export type Gp3Names = { readonly [K in keyof Gp3Settings]: string };

/** The size rule, with a floor above gp3's own when the volume must hold more (e.g. an image). */
export function gp3SizeRule(minSizeGiB: number = GP3.minSizeGiB): string {
  return `a whole number of GiB from ${minSizeGiB} to ${GP3.maxSizeGiB} (gp3)`;
}
export const GP3_IOPS_RULE = `a whole number of IOPS from ${GP3.baselineIops} to ${GP3.maxIops} (gp3)`;
export const GP3_THROUGHPUT_RULE = `a whole number of MiB/s from ${GP3.baselineThroughputMiBps} to ${GP3.maxThroughputMiBps} (gp3)`;

/**
 * Every problem of one gp3 volume's size, IOPS and throughput: each range, then the two ratios
 * (checked only when both of their values are in range, so one bad value is one problem).
 */
export function gp3Problems(v: Gp3Settings, names: Gp3Names, minSizeGiB: number = GP3.minSizeGiB): ArgProblem[] {
  const out: ArgProblem[] = [];
  const sizeOk = isInt(v.sizeGiB, minSizeGiB, GP3.maxSizeGiB);
  const iopsOk = isInt(v.iops, GP3.baselineIops, GP3.maxIops);
  const throughputOk = isInt(v.throughputMiBps, GP3.baselineThroughputMiBps, GP3.maxThroughputMiBps);
  if (!sizeOk) out.push(argProblem(names.sizeGiB, gp3SizeRule(minSizeGiB), v.sizeGiB));
  if (!iopsOk) out.push(argProblem(names.iops, GP3_IOPS_RULE, v.iops));
  else if (sizeOk && v.iops > v.sizeGiB * GP3.maxIopsPerGiB) {
    out.push(
      argProblem(names.iops, `at most ${GP3.maxIopsPerGiB} per GiB of {${names.sizeGiB}} (${v.sizeGiB * GP3.maxIopsPerGiB})`, v.iops),
    );
  }
  if (!throughputOk) out.push(argProblem(names.throughputMiBps, GP3_THROUGHPUT_RULE, v.throughputMiBps));
  else if (iopsOk && v.throughputMiBps > v.iops * GP3.maxMiBpsPerIops) {
    out.push(
      argProblem(
        names.throughputMiBps,
        `at most ${GP3.maxMiBpsPerIops} MiB/s per IOPS of {${names.iops}} (${Math.floor(v.iops * GP3.maxMiBpsPerIops)})`,
        v.throughputMiBps,
      ),
    );
  }
  return out;
}
