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
  /**
   * `lab:networkStack`, required: the network stack to read (`org/storage-bench-lab/network`).
   * @source Pulumi StackReference: a stack name of letters, digits, '-', '_' or '.', as stack, org/stack or org/project/stack —
   * https://www.pulumi.com/docs/iac/concepts/stacks/
   */
  networkStack: stackName("network"),
  /**
   * `lab:deploymentType` → FsxOntap `deploymentType`.
   * @source FSx CreateFileSystem OntapConfiguration DeploymentType: one of MULTI_AZ_1, SINGLE_AZ_1, SINGLE_AZ_2, MULTI_AZ_2 —
   * boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:4731
   */
  deploymentType: text().optional(),
  /**
   * `lab:storageCapacityGiB` → `storageCapacityGiB`.
   * @source FSx StorageCapacity: 1,024 to 524,288 GiB per HA pair; first generation at most 196,608 (the guide) — boto/botocore@0e6e2404
   * botocore/data/fsx/2018-03-01/service-2.json:2083; awsdocs/amazon-fsx-ontap-user-guide@1204d6f3 doc_source/managing-file-systems.md:34
   */
  storageCapacityGiB: int().optional(),
  /**
   * `lab:throughputCapacityMBps` → `throughputCapacityMBps` (required: the rules say so).
   * @source FSx ThroughputCapacityPerHAPair: SINGLE_AZ_1, MULTI_AZ_1 128, 256, 512, 1024, 2048, 4096; SINGLE_AZ_2 1536, 3072, 6144;
   * MULTI_AZ_2 384, 768, 1536, 3072, 6144 MBps — boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:2002
   */
  throughputCapacityMBps: int().optional(),
  /**
   * `lab:haPairs` → `haPairs`.
   * @source FSx HAPairs: 1–12, more than 1 only for SINGLE_AZ_2 (400 otherwise); above 6 HA pairs iSCSI and NVMe/TCP are disabled —
   * boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:1998
   */
  haPairs: int().optional(),
  /**
   * `lab:diskIopsMode` → `diskIopsMode`.
   * @source FSx DiskIopsConfiguration Mode: AUTOMATIC (3 SSD IOPS per GB of storage) or USER_PROVISIONED — boto/botocore@0e6e2404
   * botocore/data/fsx/2018-03-01/service-2.json:3579,3593
   */
  diskIopsMode: text().optional(),
  /**
   * `lab:diskIops` → `diskIops`.
   * @source lab rule (at most 50 per GiB and what the throughput level can use); FSx Iops: at least 3 per GB of storage, at most 200,000 ×
   * HAPairs — boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:3586
   */
  diskIops: int().optional(),
  /**
   * `lab:preferredAz` → `preferredAz`: an index or a zone name.
   * @source FSx PreferredSubnetId (Multi-AZ): the subnet of the preferred file server, one of the file system's two —
   * boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:1985
   */
  preferredAz: z.union([int(), text()], { error: PREFERRED_AZ_RULE }).optional(),
  /**
   * `lab:svmName` → `svmName`.
   * @source lab rule (a letter first); FSx: 1–47 characters, alphanumerics and '_' (the guide) — boto/botocore@0e6e2404
   * botocore/data/fsx/2018-03-01/service-2.json:6179; awsdocs/amazon-fsx-ontap-user-guide@1204d6f3 doc_source/managing-svms.md:28
   */
  svmName: text().optional(),
  /**
   * `lab:volumes` → `volumes`.
   * @source lab rule (a letter first, at most 500); FSx: volume name 1–203 alphanumerics or '_', JunctionPath 1–255 from '/' —
   * boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:7108,4371; awsdocs/amazon-fsx-ontap-user-guide@1204d6f3
   * doc_source/managing-volumes.md:69
   */
  volumes: list(volume, VOLUMES_RULE).optional(),
  /**
   * `lab:kmsKeyArn` → `kmsKeyArn`.
   * @source lab rule (an ARN, for Secrets Manager too); FSx KmsKeyId: 1–2048 characters naming a KMS key; its ARN names partition, Region,
   * account — boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:4377;
   * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference-arns
   */
  kmsKeyArn: text().optional(),
  /**
   * `lab:backupRetentionDays` → `backupRetentionDays`.
   * @source FSx AutomaticBackupRetentionDays: 0–90, 0 turns automatic backups off — boto/botocore@0e6e2404
   * botocore/data/fsx/2018-03-01/service-2.json:1186
   */
  backupRetentionDays: int().optional(),
  /**
   * `lab:maintenanceWindow` → `maintenanceWindow`.
   * @source FSx WeeklyMaintenanceStartTime (WeeklyTime): d:HH:MM UTC, d from 1 (Monday) to 7, 7 characters — boto/botocore@0e6e2404
   * botocore/data/fsx/2018-03-01/service-2.json:7154
   */
  maintenanceWindow: text().optional(),
  /**
   * `lab:clientSecurityGroupIds` → `clientSecurityGroupIds`.
   * @source EC2 security group rules: a referenced group of the same VPC or a peered one; 60 inbound rules a group by default (the lab
   * adds 15 a client) — awsdocs/amazon-vpc-user-guide@a16ab76e doc_source/security-group-rules.md:52, amazon-vpc-limits.md:83
   */
  clientSecurityGroupIds: list(text(), CLIENT_SECURITY_GROUPS_RULE).optional(),
  /**
   * `lab:endpointIpAddressRange` → `endpointIpAddressRange`.
   * @source lab rule (a /28 floor); FSx Multi-AZ: an IPv4 range up to /16 (default in 198.19.0.0/16) that overlaps no subnet —
   * boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:1973; awsdocs/amazon-fsx-ontap-user-guide@1204d6f3
   * doc_source/managing-file-systems.md:54
   */
  endpointIpAddressRange: text().optional(),
  /**
   * `lab:skipFinalBackup` → `skipFinalBackup`.
   * @source FSx DeleteVolume OntapConfiguration SkipFinalBackup: a boolean, true skips the final backup — boto/botocore@0e6e2404
   * botocore/data/fsx/2018-03-01/service-2.json:3139
   */
  skipFinalBackup: bool().optional(),
  /**
   * `lab:retainOnDelete` → `retainOnDelete`.
   * @source Pulumi resource option retainOnDelete: a boolean; true, the provider's Delete is never called for the resource —
   * `@pulumi/pulumi` 3.276.0 resource.d.ts:306-309
   */
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
