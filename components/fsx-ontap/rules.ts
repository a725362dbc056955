/**
 * The rules and defaults of an FSx for NetApp ONTAP file system, its SVM and its volumes, in one
 * place (pure: no Pulumi, no AWS SDK). The component (./index.ts) resolves its arguments with
 * {@link resolve} and checks them with {@link problems}; the `fsx-ontap` stack's config
 * (stacks/fsx-ontap/config.ts) calls the same {@link problems}, rendered with the `lab:` keys the
 * user typed. {@link FSX_ONTAP_DEFAULTS} is the only place a default is written.
 *
 * Sources (read 2026-11 through the lab's search tool; where two disagree, the stricter is used and
 * the disagreement is noted at the constant):
 * - FSx API reference, CreateFileSystemOntapConfiguration / UpdateFileSystemOntapConfiguration
 *   `ThroughputCapacityPerHAPair`: SINGLE_AZ_1 and MULTI_AZ_1 128, 256, 512, 1024, 2048, 4096;
 *   SINGLE_AZ_2 1536, 3072, 6144; MULTI_AZ_2 384, 768, 1536, 3072, 6144 (MBps). `HAPairs`: 1–12,
 *   and more than 1 is a 400 for SINGLE_AZ_1, MULTI_AZ_1 and MULTI_AZ_2.
 * - FSx API reference, CreateFileSystem `StorageCapacity` (ONTAP): 1,024 × HAPairs to
 *   524,288 × HAPairs GiB; the ONTAP user guide's quotas and the provider docs (aws
 *   `OntapFileSystem.storageCapacity`): first generation 1,024–196,608 GiB, MULTI_AZ_2 up to
 *   524,288, SINGLE_AZ_2 up to 1,048,576 (1 PiB, 2 HA pairs or more).
 * - FSx API reference, DiskIopsConfiguration `Iops`: minimum 3 IOPS per GiB of storage, maximum
 *   200,000 × HAPairs. ONTAP user guide, "File system storage capacity and IOPS": AUTOMATIC mode
 *   keeps 3 SSD IOPS per GiB up to the configuration's maximum; USER_PROVISIONED must be ≥ 3 IOPS
 *   per GiB; the maximum you can provision is in "Impact of throughput capacity on performance";
 *   an aggregate supports at most 50 SSD IOPS per GiB of SSD capacity ("Considerations for
 *   decreasing SSD storage capacity").
 * - The FSx API model, boto/botocore `botocore/data/fsx/2018-03-01/service-2.json` (commit
 *   0e6e2404b85dc336dd2889814e089bde7d1a4c55): `AutomaticBackupRetentionDays` 0–90;
 *   `WeeklyTime` 7 characters, `^[1-7]:([01]\d|2[0-3]):?([0-5]\d)$`; `SecurityGroupId`
 *   11–20 characters, `^(sg-[0-9a-f]{8,})$`; `StorageVirtualMachineName` 1–47 and `VolumeName`
 *   1–203 characters; `JunctionPath` 1–255 characters ("must have a leading forward slash");
 *   `SnapshotPolicy` 1–255 characters; `TieringPolicyName` SNAPSHOT_ONLY, AUTO, ALL, NONE;
 *   `CoolingPeriod` 2–183; `Iops` 0–2,400,000; `IpAddressRange` 9–17 characters.
 * - The ONTAP user guide as archived in awsdocs/amazon-fsx-ontap-user-guide (commit
 *   1204d6f3a39cc6e63816c1f4949ddcbea860c454, the 2022 copy): SVM names "a maximum of 47
 *   alphanumeric characters, plus the underscore" (doc_source/managing-svms.md), volume names "a
 *   maximum of 203 alphanumeric characters, plus the underscore" (doc_source/managing-volumes.md),
 *   the endpoint IP address range's "maximum allowed size … is /16"
 *   (doc_source/managing-file-systems.md).
 */
import { WEEKLY_TIME_RE } from "../../core/maintenance";
import { ONTAP_INGRESS } from "./security";
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt, isOneOf, isText } from "../../core/checks";
import { ipv4CidrRule, isIpv4NetworkCidr } from "../network/cidr";
import { AZ_NAME_RE } from "../network/rules";

/** FSx's ONTAP deployment types, in the service's own spelling. */
export const DEPLOYMENT_TYPES = ["MULTI_AZ_1", "MULTI_AZ_2", "SINGLE_AZ_1", "SINGLE_AZ_2"] as const;
export type DeploymentType = (typeof DEPLOYMENT_TYPES)[number];

export const DISK_IOPS_MODES = ["AUTOMATIC", "USER_PROVISIONED"] as const;
export type DiskIopsMode = (typeof DISK_IOPS_MODES)[number];

/** Multi-AZ types have a standby file server in a second AZ, floating IPs and route tables. */
export function isMultiAz(t: DeploymentType): boolean {
  return t === "MULTI_AZ_1" || t === "MULTI_AZ_2";
}

/** First-generation types (one HA pair, up to 4 GBps / 160,000 SSD IOPS). */
export function isFirstGeneration(t: DeploymentType): boolean {
  return t === "MULTI_AZ_1" || t === "SINGLE_AZ_1";
}

/**
 * Valid throughput capacity per HA pair (MBps), from the FSx API reference. For every type but
 * SINGLE_AZ_2 the file system has one HA pair, so this is also its total throughput.
 * (The provider's docs also list 384/768 for SINGLE_AZ_2 with one HA pair; the API reference
 * lists 1536/3072/6144 only, and that is what is enforced here.)
 */
export const THROUGHPUT_PER_HA_PAIR_MBPS: Readonly<Record<DeploymentType, readonly number[]>> = {
  MULTI_AZ_1: [128, 256, 512, 1024, 2048, 4096],
  SINGLE_AZ_1: [128, 256, 512, 1024, 2048, 4096],
  MULTI_AZ_2: [384, 768, 1536, 3072, 6144],
  SINGLE_AZ_2: [1536, 3072, 6144],
};

/** Most HA pairs per deployment type (API reference, `HAPairs`). */
export const MAX_HA_PAIRS: Readonly<Record<DeploymentType, number>> = { MULTI_AZ_1: 1, SINGLE_AZ_1: 1, MULTI_AZ_2: 1, SINGLE_AZ_2: 12 };
/** Most HA pairs of any type (API reference, `HAPairs`: 1–12). */
export const API_MAX_HA_PAIRS = 12;

/** Smallest SSD tier per HA pair, GiB. */
export const MIN_STORAGE_GIB_PER_HA_PAIR = 1024;
/** Largest SSD tier per HA pair for second-generation types, GiB (512 TiB). */
export const MAX_STORAGE_GIB_PER_HA_PAIR_GEN2 = 524_288;
/** Largest SSD tier of a first-generation file system, GiB (192 TiB). */
export const MAX_STORAGE_GIB_GEN1 = 196_608;
/** Largest SSD tier of any file system, GiB (1 PiB). */
export const MAX_STORAGE_GIB = 1_048_576;

/** Inclusive bounds of the SSD tier for a type and HA-pair count, GiB. */
export function storageBoundsGiB(t: DeploymentType, haPairs: number): { min: number; max: number } {
  const min = MIN_STORAGE_GIB_PER_HA_PAIR * haPairs;
  if (isFirstGeneration(t)) return { min, max: MAX_STORAGE_GIB_GEN1 };
  return { min, max: Math.min(MAX_STORAGE_GIB_PER_HA_PAIR_GEN2 * haPairs, MAX_STORAGE_GIB) };
}

/** AUTOMATIC mode's baseline, and USER_PROVISIONED's floor: SSD IOPS per GiB of SSD storage. */
export const AUTOMATIC_IOPS_PER_GIB = 3;
/** Most SSD IOPS per GiB of SSD storage an aggregate supports (ONTAP user guide). */
export const MAX_IOPS_PER_GIB = 50;

/** The FSx API's ceiling (DiskIopsConfiguration `Iops`: at most 200,000 × HAPairs), every type. */
export const API_MAX_SSD_IOPS_PER_HA_PAIR = 200_000;
/** The FSx API model's bound on `Iops` (botocore `Iops`: 0–2,400,000, i.e. 200,000 × 12 HA pairs). */
export const API_MAX_SSD_IOPS = 2_400_000;

/**
 * Most SSD IOPS a file server of a given throughput capacity sustains, per HA pair, where a source
 * states it (the disk IOPS column of the ONTAP user guide's "Impact of throughput capacity on
 * performance"). Provisioning more pays for IOPS the file server can never drive, so the lab
 * rejects it. Only verified levels are listed; the others get the API's ceiling alone, so that a
 * guessed figure never rejects a valid configuration:
 * - First generation: 128 → 6,000; 256 → 12,000; 1,024 → 40,000; 2,048 → 80,000 (the guide's
 *   table, 2022 copy); 4,096 → 160,000 ("to provision 4 GBps … 160,000 SSD IOPS", Managing
 *   throughput capacity). 512 is not listed: the 2022 copy says 18,750 and no current copy could
 *   be read.
 * - Second generation, per HA pair: 6,144 → 200,000 (the HA-pairs page's "6 GBps … 200,000 SSD
 *   IOPS per HA pair"). The lower levels (384 … 3,072) are not listed: no source could be read.
 * First-generation file systems reach 160,000 only in the regions the quotas page names (80,000
 * elsewhere); the lab does not check the region.
 */
export const MAX_SSD_IOPS_PER_HA_PAIR: Readonly<Record<"gen1" | "gen2", Readonly<Record<number, number>>>> = {
  gen1: { 128: 6_000, 256: 12_000, 1024: 40_000, 2048: 80_000, 4096: 160_000 },
  gen2: { 6144: 200_000 },
};

/** Most SSD IOPS of a file system of this type, throughput per HA pair and HA-pair count, and why. */
export function maxSsdIops(
  t: DeploymentType,
  throughputPerHaPairMBps: number,
  haPairs: number,
): { iops: number; source: "file server" | "api" } {
  const perPair = MAX_SSD_IOPS_PER_HA_PAIR[isFirstGeneration(t) ? "gen1" : "gen2"][throughputPerHaPairMBps];
  return perPair === undefined
    ? { iops: API_MAX_SSD_IOPS_PER_HA_PAIR * haPairs, source: "api" }
    : { iops: perPair * haPairs, source: "file server" };
}

/** The SSD IOPS FSx provisions in AUTOMATIC mode: 3 per GiB, capped at the configuration's maximum. */
export function automaticIops(storageGiB: number, t: DeploymentType, throughputPerHaPairMBps: number, haPairs: number): number {
  return Math.min(AUTOMATIC_IOPS_PER_GIB * storageGiB, maxSsdIops(t, throughputPerHaPairMBps, haPairs).iops);
}

/** The sizing of one file system, as resolved (defaults applied). */
export interface OntapSizing {
  readonly deploymentType: DeploymentType;
  readonly storageCapacityGiB: number;
  /** Per HA pair; the total for every configuration with one HA pair. */
  readonly throughputCapacityMBps: number;
  readonly haPairs: number;
  readonly diskIopsMode: DiskIopsMode;
  readonly diskIops?: number;
}

/**
 * The throughput arguments of `aws.fsx.OntapFileSystem` for a sizing. Every type with one HA pair
 * gets `throughputCapacity` and no `haPairs`/`throughputCapacityPerHaPair`: upstream
 * (terraform-provider-aws `aws_fsx_ontap_file_system`), `throughput_capacity` is updated in place,
 * while an increase of `throughput_capacity_per_ha_pair` on SINGLE_AZ_1/MULTI_AZ_1 forces a new
 * file system (its CustomizeDiff). SINGLE_AZ_2 must use the per-HA-pair form (the provider reads
 * `throughput_capacity` back as null for it), with `haPairs`.
 */
export function throughputArgs(s: Pick<OntapSizing, "deploymentType" | "throughputCapacityMBps" | "haPairs">): {
  throughputCapacity?: number;
  throughputCapacityPerHaPair?: number;
  haPairs?: number;
} {
  if (s.deploymentType === "SINGLE_AZ_2") return { haPairs: s.haPairs, throughputCapacityPerHaPair: s.throughputCapacityMBps };
  return { throughputCapacity: s.throughputCapacityMBps };
}

/**
 * Arguments of `aws_fsx_ontap_file_system` that are ForceNew upstream (terraform-provider-aws
 * internal/service/fsx/ontap_file_system.go): changing one replaces the file system. The throughput
 * lever must never touch them. `throughput_capacity` is not among them; `ha_pairs` and
 * `throughput_capacity_per_ha_pair` are ForceNew on some changes (see {@link throughputArgs}).
 */
export const FORCE_NEW_ARGS = [
  "deploymentType",
  "endpointIpAddressRange",
  "kmsKeyId",
  "preferredSubnetId",
  "securityGroupIds",
  "storageType",
  "subnetIds",
] as const;

/** ONTAP volume names: a letter, then letters, digits or '_', at most 203 characters (API and guide: 1–203 alphanumerics or '_'; the lab also wants a letter first). */
export const VOLUME_NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,202}$/;
/** SVM names: a letter, then letters, digits or '_', at most 47 characters (API and guide: 1–47 alphanumerics or '_'; the lab also wants a letter first). */
export const SVM_NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,46}$/;
/** Junction paths: '/' then at least one character of a path (no '//', no trailing '/'). */
export const JUNCTION_PATH_RE = /^(\/[A-Za-z0-9_.-]+)+$/;
/** Longest junction path (API `JunctionPath`: 1–255 characters). */
export const MAX_JUNCTION_PATH_LENGTH = 255;
/** ONTAP snapshot policy names: the built-in `default`, `default-1weekly`, `none`, or a custom one (API: 1–255 characters). */
export const SNAPSHOT_POLICY_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;
export const TIERING_POLICIES = ["NONE", "SNAPSHOT_ONLY", "AUTO", "ALL"] as const;
export type TieringPolicy = (typeof TIERING_POLICIES)[number];
/** The tiering policies a cooling period applies to (API `TieringPolicy.CoolingPeriod`: "Used with the AUTO and SNAPSHOT_ONLY tiering policies"). */
export const COOLING_TIERING_POLICIES: readonly TieringPolicy[] = ["AUTO", "SNAPSHOT_ONLY"];
/** Cooling period bounds, days (API `CoolingPeriod`: 2–183). */
export const MIN_COOLING_DAYS = 2;
export const MAX_COOLING_DAYS = 183;
/** Weekly maintenance window start: `d:HH:MM`, d from 1 (Monday) to 7 (Sunday), UTC (API `WeeklyTime`). */
export const MAINTENANCE_WINDOW_RE = WEEKLY_TIME_RE;
/**
 * Largest FlexVol volume, GiB (300 TiB): "For FlexVol volumes, the maximum size is 300 TiB" (ONTAP
 * user guide, "Updating volumes", https://docs.amazonaws.cn/en_us/fsx/latest/ONTAPGuide/updating-volumes.md;
 * the 2022 copy in awsdocs/amazon-fsx-ontap-user-guide still said 104,857,600 MiB, 100 TiB).
 */
export const MAX_VOLUME_GIB = 307_200;
/**
 * Most volumes the lab declares: FSx allows "up to 500 volumes per scale-up file system and 1,000
 * volumes per scale-out file system" (ONTAP user guide, "Managing FSx for ONTAP volumes",
 * https://docs.amazonaws.cn/en_us/fsx/latest/ONTAPGuide/managing-volumes.html); the stricter 500
 * for every type. Volumes created outside the stack (Trident's, the SVM's root) count too.
 */
export const MAX_VOLUMES = 500;
/** Most days of automatic backups (API `AutomaticBackupRetentionDays`: 0–90; 0 turns them off). */
export const MAX_BACKUP_RETENTION_DAYS = 90;
/**
 * The endpoint IP range's prefixes: at most a /16 ("The maximum allowed size of the address range
 * is /16", ONTAP user guide, managing-file-systems.md, 2022 copy); at least a /28, the lab's floor
 * (16 addresses for the file system's and its SVMs' floating endpoints; no source states one).
 */
export const ENDPOINT_RANGE_PREFIX_MIN = 16;
export const ENDPOINT_RANGE_PREFIX_MAX = 28;
/** Security group ids (API `SecurityGroupId`: `^(sg-[0-9a-f]{8,})$`, 11–20 characters). */
export const SECURITY_GROUP_ID_RE = /^sg-[0-9a-f]{8,17}$/;
/**
 * The default quota "Inbound or outbound rules per security group": 60 (adjustable;
 * https://docs.aws.amazon.com/vpc/latest/userguide/amazon-vpc-limits.html, as archived in
 * awsdocs/amazon-vpc-user-guide doc_source/amazon-vpc-limits.md).
 */
export const SECURITY_GROUP_INBOUND_RULES_QUOTA = 60;
/**
 * Most client security groups: each group is the source of every port rule of ./security.ts (15),
 * so more than 60 / 15 = 4 groups would exceed the default quota and fail at deploy time, after
 * the file system's security group was created: refused here, before any resource exists.
 */
export const MAX_CLIENT_SECURITY_GROUPS = Math.floor(SECURITY_GROUP_INBOUND_RULES_QUOTA / ONTAP_INGRESS.length);
/**
 * A KMS key ARN. FSx's `KmsKeyId` also takes a key id or an alias; the lab wants the key's ARN,
 * which it hands to Secrets Manager too and exports (the provider validates `kms_key_id` as an
 * ARN: terraform-provider-aws internal/service/fsx/ontap_file_system.go, `verify.ValidARN`).
 */
export const KMS_KEY_ARN_RE = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/;

/** One volume of the SVM. Volumes are thin-provisioned: their sizes may add up past the SSD tier. */
export interface OntapVolumeSpec {
  /**
   * The volume's name, unique in the SVM (ignoring case): a letter, then letters, digits or '_', at most 203 characters.
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/managing-volumes.html
   */
  readonly name: string;
  /**
   * The volume's size, GiB (1 to 307,200: a FlexVol volume is at most 300 TiB). Thin-provisioned: only written data takes SSD.
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/volume-storage-capacity.html
   */
  readonly sizeGiB: number;
  /**
   * Where the volume is mounted in the SVM's namespace: '/' then a path (e.g. /kafkafsxN1), at most 255 characters.
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateOntapVolumeConfiguration.html
   */
  readonly junctionPath: string;
  /**
   * The ONTAP snapshot policy: `default`, `default-1weekly`, `none` or a custom one.
   * @default "none" (no snapshots eat SSD during a benchmark)
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/snapshots-ontap.html
   */
  readonly snapshotPolicy?: string;
  /**
   * Which data moves to the capacity pool tier: NONE, SNAPSHOT_ONLY, AUTO or ALL.
   * @default "NONE" (every block stays on SSD, so results do not depend on tiering)
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/volume-storage-capacity.html
   */
  readonly tieringPolicy?: TieringPolicy;
  /**
   * Days before AUTO or SNAPSHOT_ONLY tiering moves cold data (2–183); only with those policies.
   * @default FSx's (31 days for AUTO, 2 for SNAPSHOT_ONLY)
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_TieringPolicy.html
   */
  readonly coolingPeriodDays?: number;
  /**
   * Deduplication, compression and compaction.
   * @default true
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/managing-storage-efficiency.html
   */
  readonly storageEfficiency?: boolean;
  /**
   * FLEXVOL (one volume on one aggregate) or FLEXGROUP (constituent volumes spread over every HA
   * pair's aggregate, `aggr1`…, written in parallel), as ONTAP's `volume create -aggr-list`. A
   * FlexGroup's size is 100 GiB to 300 TiB a constituent. Set at creation: a change replaces the
   * volume, the old one deleted first (same name and junction path); with `retainOnDelete` the old
   * one stays in FSx and the new one's creation fails on its name: delete the old one by hand.
   * @default "FLEXVOL"
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateOntapVolumeConfiguration.html
   */
  readonly style?: VolumeStyle;
  /**
   * FLEXGROUP only: constituents on each aggregate, 1–200. Set at creation.
   * @default 8 (FSx's)
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateAggregateConfiguration.html
   */
  readonly constituentsPerAggregate?: number;
}

/** FSx's volume styles (API `VolumeStyle`). */
export const VOLUME_STYLES = ["FLEXVOL", "FLEXGROUP"] as const;
export type VolumeStyle = (typeof VOLUME_STYLES)[number];
/** CreateAggregateConfiguration `ConstituentsPerAggregate`: 1–200, FSx's default 8. */
export const MIN_CONSTITUENTS = 1;
export const MAX_CONSTITUENTS = 200;
export const DEFAULT_CONSTITUENTS = 8;
/**
 * A FlexGroup's constituents, GiB: at least 100 each ("minimum size of a FlexGroup volume is 100
 * gibibytes (GiB) per constituent") and at most 300 TiB each (FSx for ONTAP user guide, "Managing
 * FSx for ONTAP volumes", volume styles; https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/managing-volumes.html).
 */
export const MIN_CONSTITUENT_GIB = 100;
export const MAX_CONSTITUENT_GIB = MAX_VOLUME_GIB; // a constituent is a FlexVol
/** CreateAggregateConfiguration: a FlexGroup has at most 200 constituents in all (`TotalConstituents`), over at most 6 named aggregates. */
export const MAX_TOTAL_CONSTITUENTS = 200;
export const MAX_NAMED_AGGREGATES = 6;
/** `SizeInMegabytes` is a 32-bit integer: 2,147,483,647 MiB, the largest size the lab can ask for, GiB. */
export const MAX_SIZE_IN_MEGABYTES_GIB = Math.floor(2_147_483_647 / 1024);

/**
 * The aggregates a FlexGroup spreads over, named as the API takes them: one per HA pair, `aggr1` to
 * `aggr<n>` (`^(aggr[0-9]{1,2})$`). The API names at most {@link MAX_NAMED_AGGREGATES}; with more HA
 * pairs none are named and FSx spreads the FlexGroup over every HA pair's aggregate itself.
 */
export function flexGroupAggregates(haPairs: number): string[] | undefined {
  return haPairs > MAX_NAMED_AGGREGATES ? undefined : Array.from({ length: haPairs }, (_, i) => `aggr${i + 1}`);
}

/**
 * The plain settings of an FsxOntap component (everything but the network it goes into), the
 * `fsx-ontap` stack's `lab:` keys under the same names. `KmsKeyArn` is the type of `kmsKeyArn`:
 * the component takes a Pulumi Input (checked here when it is a plain string).
 */
export interface FsxOntapSpec<KmsKeyArn = string> {
  /**
   * Multi-AZ (a standby file server in a second zone, floating endpoint IPs) or Single-AZ; first
   * (`_1`) or second (`_2`) generation.
   * @default "MULTI_AZ_1"
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystemOntapConfiguration.html
   */
  readonly deploymentType?: DeploymentType;
  /**
   * SSD storage capacity, GiB: at least 1,024 per HA pair; at most 196,608 (first generation),
   * 524,288 (MULTI_AZ_2), 524,288 per HA pair up to 1,048,576 (SINGLE_AZ_2).
   * @default 1024
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/storage-capacity-and-IOPS.html
   */
  readonly storageCapacityGiB?: number;
  /**
   * Throughput capacity per HA pair, MBps (the file system's total for every one-HA-pair type): one
   * of the deployment type's levels ({@link THROUGHPUT_PER_HA_PAIR_MBPS}). Required. Changing it is
   * the AZ-failover lever: an in-place update.
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/managing-throughput-capacity.html
   */
  readonly throughputCapacityMBps: number;
  /**
   * High-availability pairs of file servers: 1, or up to 12 for SINGLE_AZ_2.
   * @default 1
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystemOntapConfiguration.html
   */
  readonly haPairs?: number;
  /**
   * AUTOMATIC (3 SSD IOPS per GiB) or USER_PROVISIONED (`diskIops`).
   * @default "AUTOMATIC"
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/storage-capacity-and-IOPS.html
   */
  readonly diskIopsMode?: DiskIopsMode;
  /**
   * Total SSD IOPS, with USER_PROVISIONED only (and then required): at least 3 and at most 50 per
   * GiB, at most 200,000 per HA pair, and at most what the throughput level can use where that is
   * documented ({@link MAX_SSD_IOPS_PER_HA_PAIR}).
   * @default none (AUTOMATIC)
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_DiskIopsConfiguration.html
   */
  readonly diskIops?: number;
  /**
   * The preferred (active) file server's zone: 0 or 1 (index among the file system's zones) or a zone name.
   * @default 0
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/high-availability-AZ.html
   */
  readonly preferredAz?: number | string;
  /**
   * Encrypt data at rest and the credentials secrets with this KMS key (its ARN) instead of a new
   * customer-managed key.
   * @default a new key, rotated yearly
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/encryption-at-rest.html
   */
  readonly kmsKeyArn?: KmsKeyArn;
  /**
   * Days of automatic daily backups, 0–90 (0 turns them off).
   * @default 0 (a lab keeps no backups)
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/using-backups.html
   */
  readonly backupRetentionDays?: number;
  /**
   * Start of the weekly maintenance window, `d:HH:MM` UTC (d from 1, Monday, to 7, Sunday).
   * Patching may run for up to an hour a file server after it; the benchmarks on the file system
   * record whether each repetition overlapped it (`fsxMaintenanceOverlap`).
   * @default "7:02:00" (Sunday 02:00 UTC)
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/maintenance-windows.html
   */
  readonly maintenanceWindow?: string;
  /**
   * Client security groups (distinct, at most {@link MAX_CLIENT_SECURITY_GROUPS}): sources of inbound
   * traffic besides the EKS node groups the consuming stacks add (never the VPC CIDR).
   * @default [] (only the consuming stacks' node groups)
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/limit-access-security-groups.html
   */
  readonly clientSecurityGroupIds?: readonly string[];
  /**
   * Multi-AZ only: the range of the floating endpoint IPs, an IPv4 network CIDR from /16 to /28.
   * @default FSx picks an unused range in 198.19.0.0/16
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystemOntapConfiguration.html
   */
  readonly endpointIpAddressRange?: string;
  /**
   * The SVM's name: a letter, then letters, digits or '_', at most 47 characters.
   * @default "svm1"
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/managing-svms.html
   */
  readonly svmName?: string;
  /**
   * The SVM's volumes (at most 500), thin-provisioned; names and junction paths distinct.
   * @default [] (Trident creates its own)
   * @see https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/managing-volumes.html
   */
  readonly volumes?: readonly OntapVolumeSpec[];
  /**
   * Delete volumes without FSx's final backup.
   * @default true (a lab keeps no data)
   * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_DeleteVolumeOntapConfiguration.html
   */
  readonly skipFinalBackup?: boolean;
  /**
   * Leave the file system usable in AWS when the stack is destroyed: the file system, SVM, volumes,
   * KMS key, security group and its rules, and the vsadmin credentials secret are retained (Pulumi's
   * `retainOnDelete`, which also keeps whatever a change replaces or removes). docs/kinds/fsx-ontap.md
   * says what a retained file system costs and how to delete it.
   * @default false
   * @see https://www.pulumi.com/docs/iac/concepts/options/retainondelete/
   */
  readonly retainOnDelete?: boolean;
}

/** Every default of the component, its one home (README's `fsx-ontap` keys table shows them). */
export const FSX_ONTAP_DEFAULTS = {
  deploymentType: "MULTI_AZ_1" as DeploymentType,
  storageCapacityGiB: 1024,
  haPairs: 1,
  diskIopsMode: "AUTOMATIC" as DiskIopsMode,
  preferredAz: 0 as number | string,
  backupRetentionDays: 0,
  maintenanceWindow: "7:02:00",
  clientSecurityGroupIds: [] as readonly string[],
  svmName: "svm1",
  volumes: [] as readonly OntapVolumeSpec[],
  skipFinalBackup: true,
  retainOnDelete: false,
  /** Each volume's. */
  volume: { snapshotPolicy: "none", tieringPolicy: "NONE" as TieringPolicy, storageEfficiency: true, style: "FLEXVOL" as VolumeStyle },
} as const;

/** A volume with its defaults applied. */
export type ResolvedVolume = Required<Omit<OntapVolumeSpec, "coolingPeriodDays" | "constituentsPerAggregate">> & {
  readonly coolingPeriodDays?: number;
  /** FLEXGROUP: the constituents on each aggregate (FSx's default when not given); FLEXVOL: none. */
  readonly constituentsPerAggregate?: number;
};

/** The settings with every default applied. */
export interface ResolvedFsxOntap<KmsKeyArn = string> extends OntapSizing {
  readonly preferredAz: number | string;
  readonly kmsKeyArn?: KmsKeyArn;
  readonly backupRetentionDays: number;
  readonly maintenanceWindow: string;
  readonly clientSecurityGroupIds: readonly string[];
  readonly endpointIpAddressRange?: string;
  readonly svmName: string;
  readonly volumes: readonly ResolvedVolume[];
  readonly skipFinalBackup: boolean;
  readonly retainOnDelete: boolean;
}

/** Applies {@link FSX_ONTAP_DEFAULTS}, to the volumes too. */
export function resolve<K>(spec: FsxOntapSpec<K>): ResolvedFsxOntap<K> {
  const d = FSX_ONTAP_DEFAULTS;
  return {
    deploymentType: spec.deploymentType ?? d.deploymentType,
    storageCapacityGiB: spec.storageCapacityGiB ?? d.storageCapacityGiB,
    throughputCapacityMBps: spec.throughputCapacityMBps,
    haPairs: spec.haPairs ?? d.haPairs,
    diskIopsMode: spec.diskIopsMode ?? d.diskIopsMode,
    diskIops: spec.diskIops,
    preferredAz: spec.preferredAz ?? d.preferredAz,
    kmsKeyArn: spec.kmsKeyArn,
    backupRetentionDays: spec.backupRetentionDays ?? d.backupRetentionDays,
    maintenanceWindow: spec.maintenanceWindow ?? d.maintenanceWindow,
    clientSecurityGroupIds: spec.clientSecurityGroupIds ?? d.clientSecurityGroupIds,
    endpointIpAddressRange: spec.endpointIpAddressRange,
    svmName: spec.svmName ?? d.svmName,
    volumes: (spec.volumes ?? d.volumes).map((v) => ({
      name: v.name,
      sizeGiB: v.sizeGiB,
      junctionPath: v.junctionPath,
      snapshotPolicy: v.snapshotPolicy ?? d.volume.snapshotPolicy,
      tieringPolicy: v.tieringPolicy ?? d.volume.tieringPolicy,
      coolingPeriodDays: v.coolingPeriodDays,
      storageEfficiency: v.storageEfficiency ?? d.volume.storageEfficiency,
      style: v.style ?? d.volume.style,
      constituentsPerAggregate:
        (v.style ?? d.volume.style) === "FLEXGROUP" ? (v.constituentsPerAggregate ?? DEFAULT_CONSTITUENTS) : undefined,
    })),
    skipFinalBackup: spec.skipFinalBackup ?? d.skipFinalBackup,
    retainOnDelete: spec.retainOnDelete ?? d.retainOnDelete,
  };
}

export const PREFERRED_AZ_RULE = "0 or 1 (index of the zone among the file system's two) or an availability zone name (e.g. us-east-1a)";
export const VOLUME_KEYS = [
  "name",
  "sizeGiB",
  "junctionPath",
  "snapshotPolicy",
  "tieringPolicy",
  "coolingPeriodDays",
  "storageEfficiency",
  "style",
  "constituentsPerAggregate",
];
export const VOLUME_RULE = `an object with keys ${VOLUME_KEYS.join(", ")} (name, sizeGiB and junctionPath required)`;
export const VOLUMES_RULE = `a list of at most ${MAX_VOLUMES} volumes ({name, sizeGiB, junctionPath, …})`;
export const CLIENT_SECURITY_GROUPS_RULE = `a list of at most ${MAX_CLIENT_SECURITY_GROUPS} security group ids (e.g. ["sg-0123456789abcdef0"])`;
const BOOLEAN_RULE = "true or false";

/**
 * Every problem of `spec`, all at once, each naming its argument (`volumes[2].name`) and other
 * arguments as `{argName}`; empty when it is valid. Values are checked for their type too.
 * Sizing first (deploymentType, haPairs, throughputCapacityMBps, storageCapacityGiB, diskIopsMode,
 * diskIops), then the other settings in the order of the `lab:` keys.
 */
export function problems(spec: FsxOntapSpec<unknown>): ArgProblem[] {
  return [
    ...sizingProblems(spec),
    ...otherProblems(spec),
    ...volumeProblems(spec.volumes, spec.haPairs ?? FSX_ONTAP_DEFAULTS.haPairs),
    ...keyAndNetworkProblems(spec),
    ...booleanProblems(spec),
  ];
}

function sizingProblems(spec: FsxOntapSpec<unknown>): ArgProblem[] {
  const out: ArgProblem[] = [];
  const d = FSX_ONTAP_DEFAULTS;
  const type: unknown = spec.deploymentType ?? d.deploymentType;
  const haPairs: unknown = spec.haPairs ?? d.haPairs;
  const storage: unknown = spec.storageCapacityGiB ?? d.storageCapacityGiB;
  const throughput: unknown = spec.throughputCapacityMBps;
  const t = isOneOf(type, DEPLOYMENT_TYPES) ? type : undefined;
  let pairs = 1;
  let throughputOk = false;
  if (t === undefined) {
    // Without a valid type, only what every type shares can be checked.
    out.push(argProblem("deploymentType", `one of ${DEPLOYMENT_TYPES.join(", ")}`, type));
    if (!isInt(haPairs, 1, API_MAX_HA_PAIRS))
      out.push(argProblem("haPairs", `a whole number of HA pairs from 1 to ${API_MAX_HA_PAIRS}`, haPairs));
    if (!isInt(throughput, 1)) out.push(argProblem("throughputCapacityMBps", "a throughput capacity in MBps (e.g. 512)", throughput));
    if (!isInt(storage, MIN_STORAGE_GIB_PER_HA_PAIR, MAX_STORAGE_GIB))
      out.push(
        argProblem("storageCapacityGiB", `a whole number of GiB from ${MIN_STORAGE_GIB_PER_HA_PAIR} to ${MAX_STORAGE_GIB}`, storage),
      );
  } else {
    const maxPairs = MAX_HA_PAIRS[t];
    const pairsOk = isInt(haPairs, 1, maxPairs);
    if (!pairsOk) {
      const rule =
        maxPairs === 1
          ? `1 for {deploymentType} ${t} (only SINGLE_AZ_2 has more than one HA pair)`
          : `an integer from 1 to ${maxPairs} for {deploymentType} ${t}`;
      out.push(argProblem("haPairs", rule, haPairs));
    }
    pairs = pairsOk ? haPairs : 1;

    const levels = THROUGHPUT_PER_HA_PAIR_MBPS[t];
    throughputOk = typeof throughput === "number" && levels.includes(throughput);
    if (!throughputOk) {
      const unit = maxPairs === 1 ? "MBps" : "MBps per HA pair";
      out.push(argProblem("throughputCapacityMBps", `one of ${levels.join(", ")} (${unit}) for {deploymentType} ${t}`, throughput));
    }

    const { min, max } = storageBoundsGiB(t, pairs);
    if (!isInt(storage, min, max)) {
      const per = pairs > 1 ? ` (${MIN_STORAGE_GIB_PER_HA_PAIR} per HA pair)` : "";
      const withPairs = t === "SINGLE_AZ_2" ? ` with ${pairs} HA pair${pairs === 1 ? "" : "s"}` : "";
      out.push(
        argProblem(
          "storageCapacityGiB",
          `a whole number of GiB from ${min}${per} to ${max} for {deploymentType} ${t}${withPairs}`,
          storage,
        ),
      );
    }
  }

  const mode: unknown = spec.diskIopsMode ?? d.diskIopsMode;
  const iops: unknown = spec.diskIops;
  const IOPS_RULE = "a whole number of SSD IOPS (e.g. 160000)";
  if (!isOneOf(mode, DISK_IOPS_MODES)) {
    out.push(argProblem("diskIopsMode", `one of ${DISK_IOPS_MODES.join(", ")}`, mode));
    if (iops !== undefined && !isInt(iops, 0, API_MAX_SSD_IOPS)) out.push(argProblem("diskIops", IOPS_RULE, iops));
    return out;
  }
  if (mode === "AUTOMATIC") {
    if (iops !== undefined) {
      const rule = `unset when {diskIopsMode} is AUTOMATIC (FSx provisions ${AUTOMATIC_IOPS_PER_GIB} SSD IOPS per GiB)`;
      out.push(argProblem("diskIops", rule, iops));
    }
    return out;
  }
  if (iops === undefined) {
    out.push(argProblem("diskIops", "set (a whole number of SSD IOPS) when {diskIopsMode} is USER_PROVISIONED", iops));
    return out;
  }
  if (!isInt(iops, 0, API_MAX_SSD_IOPS)) {
    out.push(argProblem("diskIops", IOPS_RULE, iops));
    return out;
  }
  if (isInt(storage, 1)) {
    const floor = AUTOMATIC_IOPS_PER_GIB * storage;
    if (iops < floor) {
      const rule = `at least ${floor} (${AUTOMATIC_IOPS_PER_GIB} SSD IOPS per GiB of {storageCapacityGiB} ${storage})`;
      out.push(argProblem("diskIops", rule, iops));
    }
    const ratioCap = MAX_IOPS_PER_GIB * storage;
    if (iops > ratioCap) {
      const rule = `at most ${ratioCap} (${MAX_IOPS_PER_GIB} SSD IOPS per GiB of {storageCapacityGiB} ${storage})`;
      out.push(argProblem("diskIops", rule, iops));
    }
  }
  if (t !== undefined && throughputOk) {
    const mbps = throughput as number;
    const cap = maxSsdIops(t, mbps, pairs);
    if (iops > cap.iops) {
      const who = pairs > 1 ? `${pairs} HA pairs at ${mbps} MBps each` : `a ${mbps} MBps ${t} file server`;
      const why =
        cap.source === "api"
          ? `the FSx API's maximum, ${API_MAX_SSD_IOPS_PER_HA_PAIR} SSD IOPS per HA pair`
          : `the most SSD IOPS ${who} can use`;
      out.push(argProblem("diskIops", `at most ${cap.iops} (${why})`, iops));
    }
  }
  return out;
}

/** preferredAz, svmName. */
function otherProblems(spec: FsxOntapSpec<unknown>): ArgProblem[] {
  const out: ArgProblem[] = [];
  const d = FSX_ONTAP_DEFAULTS;
  const az: unknown = spec.preferredAz ?? d.preferredAz;
  if (!isInt(az, 0, 1) && !isText(az, AZ_NAME_RE)) out.push(argProblem("preferredAz", PREFERRED_AZ_RULE, az));
  const svm: unknown = spec.svmName ?? d.svmName;
  if (!isText(svm, SVM_NAME_RE))
    out.push(argProblem("svmName", "an SVM name: 1–47 letters, digits or '_', starting with a letter (e.g. ekssvm)", svm));
  return out;
}

/** Each volume's fields, then what volumes must not share. */
function volumeProblems(volumes: unknown, haPairs: unknown): ArgProblem[] {
  if (volumes === undefined) return [];
  if (!Array.isArray(volumes) || volumes.length > MAX_VOLUMES) return [argProblem("volumes", VOLUMES_RULE, volumes)];
  const out: ArgProblem[] = [];
  const names = new Map<string, number>();
  const paths = new Map<string, number>();
  volumes.forEach((item: unknown, i) => {
    const at = `volumes[${i}]`;
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      out.push(argProblem(at, VOLUME_RULE, item));
      return;
    }
    const v = item as Record<string, unknown>;
    if (Object.keys(v).some((k) => !VOLUME_KEYS.includes(k))) out.push(argProblem(at, VOLUME_RULE, item));

    if (!isText(v.name, VOLUME_NAME_RE)) {
      out.push(
        argProblem(`${at}.name`, "an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1)", v.name),
      );
    } else {
      // ONTAP volume names ignore case.
      const first = names.get(v.name.toLowerCase());
      if (first !== undefined)
        out.push(argProblem(`${at}.name`, `distinct from the name of volume [${first}] (ONTAP volume names ignore case)`, v.name));
      else names.set(v.name.toLowerCase(), i);
    }
    // A FlexGroup's size is checked against its constituents (flexGroupProblems).
    if (v.style !== "FLEXGROUP" && !isInt(v.sizeGiB, 1, MAX_VOLUME_GIB))
      out.push(argProblem(`${at}.sizeGiB`, `a whole number of GiB from 1 to ${MAX_VOLUME_GIB}`, v.sizeGiB));
    if (!isText(v.junctionPath, JUNCTION_PATH_RE) || v.junctionPath.length > MAX_JUNCTION_PATH_LENGTH) {
      const rule = `a junction path of at most ${MAX_JUNCTION_PATH_LENGTH} characters starting with '/' (e.g. /kafkafsxN1)`;
      out.push(argProblem(`${at}.junctionPath`, rule, v.junctionPath));
    } else {
      // "The junction path name is case insensitive and must be unique within a Vserver's namespace"
      // (ONTAP command reference, `volume mount`: https://docs.netapp.com/us-en/ontap-cli/volume-mount.html).
      const first = paths.get(v.junctionPath.toLowerCase());
      if (first !== undefined)
        out.push(
          argProblem(
            `${at}.junctionPath`,
            `distinct from the junction path of volume [${first}] (ONTAP junction paths ignore case)`,
            v.junctionPath,
          ),
        );
      else paths.set(v.junctionPath.toLowerCase(), i);
    }
    if (v.snapshotPolicy !== undefined && !isText(v.snapshotPolicy, SNAPSHOT_POLICY_RE)) {
      const rule = "an ONTAP snapshot policy name (default, default-1weekly, none, or a custom one)";
      out.push(argProblem(`${at}.snapshotPolicy`, rule, v.snapshotPolicy));
    }
    const tiering: unknown = v.tieringPolicy ?? FSX_ONTAP_DEFAULTS.volume.tieringPolicy;
    const tieringOk = isOneOf(tiering, TIERING_POLICIES);
    if (!tieringOk) out.push(argProblem(`${at}.tieringPolicy`, `one of ${TIERING_POLICIES.join(", ")}`, v.tieringPolicy));
    if (v.coolingPeriodDays !== undefined) {
      if (tieringOk && !COOLING_TIERING_POLICIES.includes(tiering)) {
        const rule = `unset unless the volume's tieringPolicy is ${COOLING_TIERING_POLICIES.join(" or ")} (it is ${tiering})`;
        out.push(argProblem(`${at}.coolingPeriodDays`, rule, v.coolingPeriodDays));
      } else if (!isInt(v.coolingPeriodDays, MIN_COOLING_DAYS, MAX_COOLING_DAYS)) {
        const rule = `a whole number of days from ${MIN_COOLING_DAYS} to ${MAX_COOLING_DAYS}`;
        out.push(argProblem(`${at}.coolingPeriodDays`, rule, v.coolingPeriodDays));
      }
    }
    if (v.storageEfficiency !== undefined && typeof v.storageEfficiency !== "boolean")
      out.push(argProblem(`${at}.storageEfficiency`, BOOLEAN_RULE, v.storageEfficiency));
    out.push(...flexGroupProblems(at, v, haPairs));
  });
  return out;
}

/** A volume's style and, for a FlexGroup, its constituents and its size against them. */
function flexGroupProblems(at: string, v: Record<string, unknown>, haPairs: unknown): ArgProblem[] {
  const out: ArgProblem[] = [];
  const style: unknown = v.style ?? FSX_ONTAP_DEFAULTS.volume.style;
  if (!isOneOf(style, VOLUME_STYLES)) return [argProblem(`${at}.style`, `one of ${VOLUME_STYLES.join(", ")}`, v.style)];
  if (style === "FLEXVOL") {
    if (v.constituentsPerAggregate !== undefined)
      out.push(
        argProblem(
          `${at}.constituentsPerAggregate`,
          "unset unless the volume's style is FLEXGROUP (it is FLEXVOL)",
          v.constituentsPerAggregate,
        ),
      );
    return out;
  }
  const per: unknown = v.constituentsPerAggregate ?? DEFAULT_CONSTITUENTS;
  if (!isInt(per, MIN_CONSTITUENTS, MAX_CONSTITUENTS)) {
    out.push(
      argProblem(
        `${at}.constituentsPerAggregate`,
        `a whole number from ${MIN_CONSTITUENTS} to ${MAX_CONSTITUENTS}`,
        v.constituentsPerAggregate,
      ),
    );
    return out;
  }
  const pairs = isInt(haPairs, 1, API_MAX_HA_PAIRS) ? haPairs : 1;
  const total = per * pairs;
  const layout = `${per} constituents on each of ${pairs} aggregate${pairs === 1 ? "" : "s"}`;
  if (total > MAX_TOTAL_CONSTITUENTS) {
    out.push(
      argProblem(
        `${at}.constituentsPerAggregate`,
        `at most ${Math.floor(MAX_TOTAL_CONSTITUENTS / pairs)} with {haPairs} ${pairs} (at most ${MAX_TOTAL_CONSTITUENTS} constituents in all)`,
        per,
      ),
    );
    return out;
  }
  const least = MIN_CONSTITUENT_GIB * total;
  const most = Math.min(MAX_CONSTITUENT_GIB * total, MAX_SIZE_IN_MEGABYTES_GIB);
  if (!isInt(v.sizeGiB, least, most))
    out.push(
      argProblem(
        `${at}.sizeGiB`,
        `a whole number of GiB from ${least} to ${most} for a FLEXGROUP of ${layout} (${MIN_CONSTITUENT_GIB} GiB to 300 TiB a constituent${most === MAX_SIZE_IN_MEGABYTES_GIB ? `, and ${MAX_SIZE_IN_MEGABYTES_GIB} GiB, the API's SizeInMegabytes` : ""})`,
        v.sizeGiB,
      ),
    );
  return out;
}

/** kmsKeyArn, backupRetentionDays, maintenanceWindow, clientSecurityGroupIds, endpointIpAddressRange. */
function keyAndNetworkProblems(spec: FsxOntapSpec<unknown>): ArgProblem[] {
  const out: ArgProblem[] = [];
  const d = FSX_ONTAP_DEFAULTS;
  // A Pulumi Output or Promise (an object) is checked by FSx when it resolves.
  const key = spec.kmsKeyArn;
  if (key !== undefined && typeof key !== "object" && !isText(key, KMS_KEY_ARN_RE))
    out.push(argProblem("kmsKeyArn", "a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)", key));

  const days: unknown = spec.backupRetentionDays ?? d.backupRetentionDays;
  if (!isInt(days, 0, MAX_BACKUP_RETENTION_DAYS)) {
    const rule = `a whole number of days from 0 to ${MAX_BACKUP_RETENTION_DAYS} (0 turns automatic backups off)`;
    out.push(argProblem("backupRetentionDays", rule, days));
  }
  const window: unknown = spec.maintenanceWindow ?? d.maintenanceWindow;
  if (!isText(window, MAINTENANCE_WINDOW_RE))
    out.push(argProblem("maintenanceWindow", "d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00)", window));

  const groups: unknown = spec.clientSecurityGroupIds ?? d.clientSecurityGroupIds;
  if (!Array.isArray(groups) || groups.length > MAX_CLIENT_SECURITY_GROUPS) {
    out.push(argProblem("clientSecurityGroupIds", CLIENT_SECURITY_GROUPS_RULE, groups));
  } else {
    groups.forEach((g: unknown, i) => {
      if (!isText(g, SECURITY_GROUP_ID_RE))
        out.push(
          argProblem(`clientSecurityGroupIds[${i}]`, "a security group id: sg- and 8 to 17 hex digits (e.g. sg-0123456789abcdef0)", g),
        );
    });
    if (new Set(groups).size !== groups.length) out.push(argProblem("clientSecurityGroupIds", "distinct security group ids", groups));
  }

  const range: unknown = spec.endpointIpAddressRange;
  const type: unknown = spec.deploymentType ?? d.deploymentType;
  if (range !== undefined) {
    if (isOneOf(type, DEPLOYMENT_TYPES) && !isMultiAz(type)) {
      out.push(argProblem("endpointIpAddressRange", `unset for {deploymentType} ${type} (Multi-AZ only)`, range));
    } else if (!isIpv4NetworkCidr(range, ENDPOINT_RANGE_PREFIX_MIN, ENDPOINT_RANGE_PREFIX_MAX)) {
      out.push(argProblem("endpointIpAddressRange", ipv4CidrRule(ENDPOINT_RANGE_PREFIX_MIN, ENDPOINT_RANGE_PREFIX_MAX), range));
    }
  }
  return out;
}

function booleanProblems(spec: FsxOntapSpec<unknown>): ArgProblem[] {
  const d = FSX_ONTAP_DEFAULTS;
  const out: ArgProblem[] = [];
  const skip: unknown = spec.skipFinalBackup ?? d.skipFinalBackup;
  if (typeof skip !== "boolean") out.push(argProblem("skipFinalBackup", BOOLEAN_RULE, skip));
  const retain: unknown = spec.retainOnDelete ?? d.retainOnDelete;
  if (typeof retain !== "boolean") out.push(argProblem("retainOnDelete", BOOLEAN_RULE, retain));
  return out;
}

/** Sum of the volumes' sizes over the SSD tier: above 1 the SVM is overcommitted (thin provisioning). */
export function provisioningRatio(volumes: readonly Pick<OntapVolumeSpec, "sizeGiB">[], storageGiB: number): number {
  return volumes.reduce((n, v) => n + v.sizeGiB, 0) / storageGiB;
}

/** The Secrets Manager secret string Trident reads with `credentials.type: awsarn`. */
export function credentialsSecretString(username: string, password: string): string {
  return JSON.stringify({ username, password });
}

/**
 * Password rules of `fsxadmin` and `vsadmin`: FSx's AdminPassword is 8–50 characters (API; the
 * provider validates the same 8–50 for `fsx_admin_password` and `svm_admin_password`), with no
 * control or line-break characters. The lab generates 32 characters from letters, digits and a
 * special set that needs no quoting in JSON, YAML, shells or URLs.
 */
export const PASSWORD_LENGTH = 32;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 50;
export const PASSWORD_SPECIALS = "_-.+=";
