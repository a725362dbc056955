/**
 * The rules of an FSx for NetApp ONTAP file system's sizing, as AWS documents them, and the
 * checks that apply them. Pure: no Pulumi, no AWS SDK. The config layer (stacks/fsx-ontap/config.ts)
 * and the component (./index.ts) both call {@link sizingProblems}, each with the key names its
 * user typed, so one rule gives one message: `'<key>' must be <rule>, got <value>`.
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
 */
import { problem } from "../../core/errors";

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

/** The key names a user typed for each sizing field (config keys, or component argument names). */
export type SizingKeys = Readonly<Record<keyof OntapSizing, string>>;

export const ARG_KEYS: SizingKeys = {
  deploymentType: "deploymentType",
  storageCapacityGiB: "storageCapacityGiB",
  throughputCapacityMBps: "throughputCapacityMBps",
  haPairs: "haPairs",
  diskIopsMode: "diskIopsMode",
  diskIops: "diskIops",
};

/** Every sizing problem at once, in field order; empty when the sizing is valid. */
export function sizingProblems(s: OntapSizing, keys: SizingKeys = ARG_KEYS): string[] {
  const problems: string[] = [];
  const t = s.deploymentType;

  const maxPairs = MAX_HA_PAIRS[t];
  const pairsOk = Number.isInteger(s.haPairs) && s.haPairs >= 1 && s.haPairs <= maxPairs;
  if (!pairsOk) {
    const rule =
      maxPairs === 1
        ? `1 for ${keys.deploymentType} ${t} (only SINGLE_AZ_2 has more than one HA pair)`
        : `an integer from 1 to ${maxPairs} for ${keys.deploymentType} ${t}`;
    problems.push(problem(keys.haPairs, rule, s.haPairs));
  }
  const pairs = pairsOk ? s.haPairs : 1;

  const levels = THROUGHPUT_PER_HA_PAIR_MBPS[t];
  const throughputOk = levels.includes(s.throughputCapacityMBps);
  if (!throughputOk) {
    const unit = maxPairs === 1 ? "MBps" : "MBps per HA pair";
    problems.push(
      problem(
        keys.throughputCapacityMBps,
        `one of ${levels.join(", ")} (${unit}) for ${keys.deploymentType} ${t}`,
        s.throughputCapacityMBps,
      ),
    );
  }

  const { min, max } = storageBoundsGiB(t, pairs);
  if (!Number.isInteger(s.storageCapacityGiB) || s.storageCapacityGiB < min || s.storageCapacityGiB > max) {
    const per = pairs > 1 ? ` (${MIN_STORAGE_GIB_PER_HA_PAIR} per HA pair)` : "";
    const withPairs = t === "SINGLE_AZ_2" ? ` with ${pairs} HA pair${pairs === 1 ? "" : "s"}` : "";
    problems.push(
      problem(
        keys.storageCapacityGiB,
        `a whole number of GiB from ${min}${per} to ${max} for ${keys.deploymentType} ${t}${withPairs}`,
        s.storageCapacityGiB,
      ),
    );
  }

  if (s.diskIopsMode === "AUTOMATIC") {
    if (s.diskIops !== undefined) {
      problems.push(
        problem(
          keys.diskIops,
          `unset when ${keys.diskIopsMode} is AUTOMATIC (FSx provisions ${AUTOMATIC_IOPS_PER_GIB} SSD IOPS per GiB)`,
          s.diskIops,
        ),
      );
    }
    return problems;
  }
  if (s.diskIops === undefined) {
    problems.push(problem(keys.diskIops, `set (a whole number of SSD IOPS) when ${keys.diskIopsMode} is USER_PROVISIONED`, undefined));
    return problems;
  }
  const floor = AUTOMATIC_IOPS_PER_GIB * s.storageCapacityGiB;
  if (s.diskIops < floor) {
    problems.push(
      problem(
        keys.diskIops,
        `at least ${floor} (${AUTOMATIC_IOPS_PER_GIB} SSD IOPS per GiB of ${keys.storageCapacityGiB} ${s.storageCapacityGiB})`,
        s.diskIops,
      ),
    );
  }
  const ratioCap = MAX_IOPS_PER_GIB * s.storageCapacityGiB;
  if (s.diskIops > ratioCap) {
    problems.push(
      problem(
        keys.diskIops,
        `at most ${ratioCap} (${MAX_IOPS_PER_GIB} SSD IOPS per GiB of ${keys.storageCapacityGiB} ${s.storageCapacityGiB})`,
        s.diskIops,
      ),
    );
  }
  const cap = throughputOk ? maxSsdIops(t, s.throughputCapacityMBps, pairs) : undefined;
  if (cap !== undefined && s.diskIops > cap.iops) {
    const who =
      pairs > 1 ? `${pairs} HA pairs at ${s.throughputCapacityMBps} MBps each` : `a ${s.throughputCapacityMBps} MBps ${t} file server`;
    const why =
      cap.source === "api"
        ? `the FSx API's maximum, ${API_MAX_SSD_IOPS_PER_HA_PAIR} SSD IOPS per HA pair`
        : `the most SSD IOPS ${who} can use`;
    problems.push(problem(keys.diskIops, `at most ${cap.iops} (${why})`, s.diskIops));
  }
  return problems;
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

/** ONTAP volume names: a letter, then letters, digits or '_', at most 203 characters. */
export const VOLUME_NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,202}$/;
/** SVM names: a letter, then letters, digits or '_', at most 47 characters. */
export const SVM_NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,46}$/;
/** Junction paths: '/' then at least one character of a path (no '//', no trailing '/'). */
export const JUNCTION_PATH_RE = /^(\/[A-Za-z0-9_.-]+)+$/;
/** ONTAP snapshot policy names: the built-in `default`, `default-1weekly`, `none`, or a custom one. */
export const SNAPSHOT_POLICY_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;
export const TIERING_POLICIES = ["NONE", "SNAPSHOT_ONLY", "AUTO", "ALL"] as const;
export type TieringPolicy = (typeof TIERING_POLICIES)[number];
/** Weekly maintenance window start: `d:HH:MM`, d from 1 (Monday) to 7 (Sunday), UTC. */
export const MAINTENANCE_WINDOW_RE = /^[1-7]:([01]\d|2[0-3]):[0-5]\d$/;
/** Largest FlexVol volume, GiB (300 TiB). */
export const MAX_VOLUME_GIB = 307_200;

/** One volume of the SVM. Volumes are thin-provisioned: their sizes may add up past the SSD tier. */
export interface OntapVolumeSpec {
  readonly name: string;
  readonly sizeGiB: number;
  readonly junctionPath: string;
  /** @default "none" (no snapshots eat SSD during a benchmark) */
  readonly snapshotPolicy?: string;
  /** @default "NONE" (every block stays on SSD, so results do not depend on tiering) */
  readonly tieringPolicy?: TieringPolicy;
  /** Days before AUTO/SNAPSHOT_ONLY tiering moves data (2–183). */
  readonly coolingPeriodDays?: number;
  /** Deduplication, compression and compaction. @default true (FSx's default) */
  readonly storageEfficiency?: boolean;
}

/** Cross-volume problems (names and junction paths distinct, cooling period only with tiering). */
export function volumeProblems(volumes: readonly OntapVolumeSpec[], key = "volumes"): string[] {
  const problems: string[] = [];
  const seenNames = new Map<string, number>();
  const seenPaths = new Map<string, number>();
  volumes.forEach((v, i) => {
    const name = v.name.toLowerCase();
    if (seenNames.has(name))
      problems.push(
        problem(`${key}[${i}].name`, `distinct from ${key}[${seenNames.get(name)}].name (ONTAP volume names ignore case)`, v.name),
      );
    else seenNames.set(name, i);
    if (seenPaths.has(v.junctionPath))
      problems.push(
        problem(`${key}[${i}].junctionPath`, `distinct from ${key}[${seenPaths.get(v.junctionPath)}].junctionPath`, v.junctionPath),
      );
    else seenPaths.set(v.junctionPath, i);
    const tiering = v.tieringPolicy ?? "NONE";
    if (v.coolingPeriodDays !== undefined && tiering !== "AUTO" && tiering !== "SNAPSHOT_ONLY") {
      problems.push(
        problem(
          `${key}[${i}].coolingPeriodDays`,
          `unset unless tieringPolicy is AUTO or SNAPSHOT_ONLY (it is ${tiering})`,
          v.coolingPeriodDays,
        ),
      );
    }
  });
  return problems;
}

/** Sum of the volumes' sizes over the SSD tier: above 1 the SVM is overcommitted (thin provisioning). */
export function provisioningRatio(volumes: readonly OntapVolumeSpec[], storageGiB: number): number {
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
