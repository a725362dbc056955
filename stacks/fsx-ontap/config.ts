/**
 * Config of the `fsx-ontap` stack kind: the keys' types; their rules and defaults are the FsxOntap
 * component's (components/fsx-ontap/rules.ts), checked with the `lab:` key names. Every key is
 * named like the component's argument it sets.
 */
import { z } from "zod";
import { ArgProblem } from "../../core/errors";
import {
  CLIENT_SECURITY_GROUPS_RULE,
  FsxOntapSpec,
  PREFERRED_AZ_RULE,
  VOLUME_RULE,
  VOLUMES_RULE,
  problems,
} from "../../components/fsx-ontap/rules";
import { commonFields } from "../lib/config/common";
import { bool, int, list, stackName, text } from "../lib/config/fields";

/** One item of `lab:volumes`: the fields' types; unknown keys are left for the rules to name. */
const volume = z.looseObject(
  {
    name: text().optional(),
    sizeGiB: int().optional(),
    junctionPath: text().optional(),
    snapshotPolicy: text().optional(),
    tieringPolicy: text().optional(),
    coolingPeriodDays: int().optional(),
    storageEfficiency: bool().optional(),
    style: text().optional(),
    constituentsPerAggregate: int().optional(),
  },
  { error: VOLUME_RULE },
);

export const fsxOntapSchema = z.object({
  ...commonFields,
  /** `lab:networkStack`, required: the network stack to read (`org/storage-bench-lab/network`). */
  networkStack: stackName("network"),
  /** `lab:deploymentType` → FsxOntap `deploymentType`. */
  deploymentType: text().optional(),
  /** `lab:storageCapacityGiB` → `storageCapacityGiB`. */
  storageCapacityGiB: int().optional(),
  /** `lab:throughputCapacityMBps` → `throughputCapacityMBps` (required: the rules say so). */
  throughputCapacityMBps: int().optional(),
  /** `lab:haPairs` → `haPairs`. */
  haPairs: int().optional(),
  /** `lab:diskIopsMode` → `diskIopsMode`. */
  diskIopsMode: text().optional(),
  /** `lab:diskIops` → `diskIops`. */
  diskIops: int().optional(),
  /** `lab:preferredAz` → `preferredAz`: an index or a zone name. */
  preferredAz: z.union([int(), text()], { error: PREFERRED_AZ_RULE }).optional(),
  /** `lab:svmName` → `svmName`. */
  svmName: text().optional(),
  /** `lab:volumes` → `volumes`. */
  volumes: list(volume, VOLUMES_RULE).optional(),
  /** `lab:kmsKeyArn` → `kmsKeyArn`. */
  kmsKeyArn: text().optional(),
  /** `lab:backupRetentionDays` → `backupRetentionDays`. */
  backupRetentionDays: int().optional(),
  /** `lab:maintenanceWindow` → `maintenanceWindow`. */
  maintenanceWindow: text().optional(),
  /** `lab:clientSecurityGroupIds` → `clientSecurityGroupIds`. */
  clientSecurityGroupIds: list(text(), CLIENT_SECURITY_GROUPS_RULE).optional(),
  /** `lab:endpointIpAddressRange` → `endpointIpAddressRange`. */
  endpointIpAddressRange: text().optional(),
  /** `lab:skipFinalBackup` → `skipFinalBackup`. */
  skipFinalBackup: bool().optional(),
  /** `lab:retainOnDelete` → `retainOnDelete`. */
  retainOnDelete: bool().optional(),
});

export type FsxOntapConfig = z.output<typeof fsxOntapSchema>;

/** The config as the FsxOntap component's settings (same names; typed once the rules passed). */
export function fsxOntapArgs(c: FsxOntapConfig): FsxOntapSpec {
  return c as FsxOntapSpec;
}

/** The FsxOntap component's rules, over the config's fields. */
export function checkFsxOntap(c: FsxOntapConfig): ArgProblem[] {
  return problems(fsxOntapArgs(c));
}
