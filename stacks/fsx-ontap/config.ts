/**
 * Config of the `fsx-ontap` stack kind. Field formats are zod checks; the sizing rules that tie
 * fields together (throughput per deployment type, storage bounds, IOPS limits) are the component's
 * own rules (components/fsx-ontap/rules.ts), run here with the `lab:` key names.
 */
import { z } from "zod";
import {
  DEPLOYMENT_TYPES,
  DISK_IOPS_MODES,
  JUNCTION_PATH_RE,
  MAINTENANCE_WINDOW_RE,
  MAX_STORAGE_GIB,
  MAX_VOLUME_GIB,
  SNAPSHOT_POLICY_RE,
  SVM_NAME_RE,
  SizingKeys,
  TIERING_POLICIES,
  VOLUME_NAME_RE,
  isMultiAz,
  sizingProblems,
  volumeProblems,
} from "../../components/fsx-ontap/rules";
import { problem } from "../../core/errors";
import { commonFields } from "../lib/config/common";
import { bool, int, ipv4Cidr, oneOf, stackName, text } from "../lib/config/fields";

const PREFERRED_AZ_RULE = "0 or 1 (index of the zone among the file system's two) or an availability zone name (e.g. us-east-1a)";
const VOLUME_KEYS = ["name", "sizeGiB", "junctionPath", "snapshotPolicy", "tieringPolicy", "coolingPeriodDays", "storageEfficiency"];

export const volumeSchema = z.strictObject(
  {
    name: text("an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1)", VOLUME_NAME_RE),
    sizeGiB: int(1, MAX_VOLUME_GIB, `a whole number of GiB from 1 to ${MAX_VOLUME_GIB}`),
    junctionPath: text("a junction path starting with '/' (e.g. /kafkafsxN1)", JUNCTION_PATH_RE),
    snapshotPolicy: text("an ONTAP snapshot policy name (default, default-1weekly, none, or a custom one)", SNAPSHOT_POLICY_RE).default(
      "none",
    ),
    tieringPolicy: oneOf(TIERING_POLICIES).default("NONE"),
    coolingPeriodDays: int(2, 183, "a whole number of days from 2 to 183").optional(),
    storageEfficiency: bool().default(true),
  },
  { error: `an object with keys ${VOLUME_KEYS.join(", ")} (name, sizeGiB and junctionPath required)` },
);

export const fsxOntapSchema = z.object({
  ...commonFields,
  /** The network stack to read (`org/storage-bench-lab/network`). */
  networkStack: stackName("network"),
  /** @default "MULTI_AZ_1" */
  deploymentType: oneOf(DEPLOYMENT_TYPES).default("MULTI_AZ_1"),
  /** SSD tier, GiB. @default 1024 */
  storageCapacityGiB: int(1024, MAX_STORAGE_GIB, `a whole number of GiB from 1024 to ${MAX_STORAGE_GIB}`).default(1024),
  /** Throughput capacity per HA pair, MBps (the total for every one-HA-pair type); required. */
  throughputCapacityMBps: int(1, 6144, "a throughput capacity in MBps (e.g. 512)"),
  /** HA pairs (SINGLE_AZ_2 only above 1). @default 1 */
  haPairs: int(1, 12, "a whole number of HA pairs from 1 to 12").default(1),
  /** @default "AUTOMATIC" */
  diskIopsMode: oneOf(DISK_IOPS_MODES).default("AUTOMATIC"),
  /** Total SSD IOPS, with USER_PROVISIONED only. */
  diskIops: int(0, 2_400_000, "a whole number of SSD IOPS (e.g. 160000)").optional(),
  /** The preferred file server's zone: 0 or 1, or a zone name. @default 0 */
  preferredAz: z
    .union([int(0, 1, PREFERRED_AZ_RULE), text(PREFERRED_AZ_RULE, /^[a-z]{2}(-gov)?-[a-z]+-\d[a-z]$/)], { error: PREFERRED_AZ_RULE })
    .default(0),
  /** @default "svm1" */
  svmName: text("an SVM name: 1–47 letters, digits or '_', starting with a letter (e.g. ekssvm)", SVM_NAME_RE).default("svm1"),
  /** @default [] */
  volumes: z
    .array(volumeSchema, { error: "a list of volumes ({name, sizeGiB, junctionPath, …})" })
    .max(100, { error: "a list of at most 100 volumes" })
    .default([]),
  /** Use this KMS key (ARN) instead of creating one. */
  kmsKeyArn: text(
    "a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)",
    /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/,
  ).optional(),
  /** Automatic backups, days (0 = off). @default 0 */
  backupRetentionDays: int(0, 90, "a whole number of days from 0 to 90 (0 turns automatic backups off)").default(0),
  /** Weekly maintenance window start, `d:HH:MM` UTC. @default "7:02:00" */
  maintenanceWindow: text("d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00)", MAINTENANCE_WINDOW_RE).default("7:02:00"),
  /** When given, the only sources of inbound traffic (else the VPC CIDR). @default [] */
  clientSecurityGroupIds: z
    .array(text("a security group id (sg-…)", /^sg-[0-9a-f]{8,17}$/), {
      error: 'a list of security group ids (e.g. ["sg-0123456789abcdef0"])',
    })
    .max(10, { error: "a list of at most 10 security group ids" })
    .default([]),
  /** Multi-AZ endpoint IP range. */
  endpointIpAddressRange: ipv4Cidr(16, 28).optional(),
  /** Delete volumes without a final backup. @default true */
  skipFinalBackup: bool().default(true),
  /** Keep the file system, SVM and volumes in AWS on destroy. @default false */
  retainOnDelete: bool().default(false),
});

export type FsxOntapConfig = z.output<typeof fsxOntapSchema>;

const KEYS: SizingKeys = {
  deploymentType: "lab:deploymentType",
  storageCapacityGiB: "lab:storageCapacityGiB",
  throughputCapacityMBps: "lab:throughputCapacityMBps",
  haPairs: "lab:haPairs",
  diskIopsMode: "lab:diskIopsMode",
  diskIops: "lab:diskIops",
};

/** Cross-field rules of the fsx-ontap kind. */
export function checkFsxOntap(c: FsxOntapConfig): string[] {
  const problems = sizingProblems(c, KEYS);
  if (c.endpointIpAddressRange !== undefined && !isMultiAz(c.deploymentType)) {
    problems.push(
      problem("lab:endpointIpAddressRange", `unset for lab:deploymentType ${c.deploymentType} (Multi-AZ only)`, c.endpointIpAddressRange),
    );
  }
  if (new Set(c.clientSecurityGroupIds).size !== c.clientSecurityGroupIds.length) {
    problems.push(problem("lab:clientSecurityGroupIds", "distinct security group ids", c.clientSecurityGroupIds));
  }
  problems.push(...volumeProblems(c.volumes, "lab:volumes"));
  return problems;
}
