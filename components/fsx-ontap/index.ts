/**
 * `lab:fsx-ontap:FsxOntap`: an Amazon FSx for NetApp ONTAP file system with its own security group,
 * a customer-managed KMS key, generated `fsxadmin`/`vsadmin` passwords, one SVM, its volumes, and the
 * `vsadmin` credentials in Secrets Manager in the JSON Trident reads (`credentials.type: awsarn`).
 *
 * Multi-AZ wiring: the first two private subnets of the network, the preferred one among them, the
 * route tables of every private subnet (so every client zone reaches the floating endpoint IPs),
 * optionally the endpoint IP range. Sizing rules and the throughput lever: see ./rules.ts.
 *
 * Throughput is the failover lever (the FSx guide tests an AZ failover with a throughput change):
 * nothing in this component derives a logical name, a ForceNew argument or a resource option from
 * the throughput, and it is passed as `throughputCapacity` (updated in place upstream) for every
 * one-HA-pair type, so changing `throughputCapacityMBps` is an in-place update of the same file system.
 *
 * Lab choices, all arguments: automatic backups off (`automaticBackupRetentionDays` 0), volumes
 * deleted without a final backup (`skipFinalBackup` true), nothing retained on destroy
 * (`retainOnDelete` false), secrets deleted without a recovery window, the KMS key deleted after
 * 7 days (the shortest window KMS allows).
 *
 * Tags: the lab's common tags come from the AWS provider's `defaultTags` (pass it in `opts`).
 */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import { ConfigError, problem } from "../../core/errors";
import { Endpoint, firstEndpoint, placement } from "./placement";
import {
  DeploymentType,
  DiskIopsMode,
  JUNCTION_PATH_RE,
  MAINTENANCE_WINDOW_RE,
  MAX_VOLUME_GIB,
  OntapSizing,
  OntapVolumeSpec,
  PASSWORD_LENGTH,
  PASSWORD_SPECIALS,
  SNAPSHOT_POLICY_RE,
  SVM_NAME_RE,
  TIERING_POLICIES,
  VOLUME_NAME_RE,
  credentialsSecretString,
  isMultiAz,
  sizingProblems,
  throughputArgs,
  volumeProblems,
} from "./rules";
import { egressRule, ingressRules, ruleSources } from "./security";

export type { Endpoint } from "./placement";
export type { DeploymentType, DiskIopsMode, OntapVolumeSpec } from "./rules";

export interface FsxOntapArgs {
  /** The network's VPC. */
  readonly vpcId: pulumi.Input<string>;
  /** The VPC's CIDR: the default source of every inbound rule and the only egress destination. */
  readonly vpcCidr: pulumi.Input<string>;
  /** Private subnets, one a zone, in the order of `availabilityZones`. */
  readonly privateSubnetIds: pulumi.Input<string[]>;
  /** Every private route table (Multi-AZ endpoints get a route in each). */
  readonly privateRouteTableIds: pulumi.Input<string[]>;
  /** Zone of each private subnet, in order. */
  readonly availabilityZones: pulumi.Input<string[]>;
  /** @default "MULTI_AZ_1" */
  readonly deploymentType?: DeploymentType;
  /** SSD tier, GiB (≥ 1024 per HA pair; upper bound per type, see rules.ts). @default 1024 */
  readonly storageCapacityGiB?: number;
  /** Throughput capacity per HA pair, MBps (the file system's total for every one-HA-pair type). */
  readonly throughputCapacityMBps: number;
  /** HA pairs; more than 1 only for SINGLE_AZ_2. @default 1 */
  readonly haPairs?: number;
  /** @default "AUTOMATIC" (3 SSD IOPS per GiB) */
  readonly diskIopsMode?: DiskIopsMode;
  /** Total SSD IOPS; only (and then required) with USER_PROVISIONED. */
  readonly diskIops?: number;
  /** The preferred file server's zone: 0-based index into the zones used, or a zone name. @default 0 */
  readonly preferredAz?: number | string;
  /** Encrypt with this KMS key (ARN) instead of a new customer-managed key. */
  readonly kmsKeyArn?: pulumi.Input<string>;
  /** Days of automatic backups, 0–90 (0 turns them off). @default 0 */
  readonly automaticBackupRetentionDays?: number;
  /** Weekly maintenance window start, `d:HH:MM` UTC. @default "7:02:00" (Sunday 02:00) */
  readonly weeklyMaintenanceStartTime?: string;
  /** Client security groups; when given, the only sources of inbound traffic (else the VPC CIDR). */
  readonly clientSecurityGroupIds?: readonly string[];
  /** Multi-AZ only: the range of the endpoint IPs (FSx picks one in 198.19.0.0/16 otherwise). */
  readonly endpointIpAddressRange?: string;
  /** @default "svm1" */
  readonly svmName?: string;
  /** Volumes of the SVM, thin-provisioned. @default [] */
  readonly volumes?: readonly OntapVolumeSpec[];
  /** Delete volumes without FSx's final backup. @default true (a lab keeps no data) */
  readonly skipFinalBackup?: boolean;
  /** Leave the file system, SVM and volumes in AWS when the stack is destroyed. @default false */
  readonly retainOnDelete?: boolean;
}

/** A volume as exported. */
export interface VolumeOutput {
  readonly name: string;
  readonly junctionPath: string;
  readonly id: string;
}

interface Resolved extends OntapSizing {
  readonly preferredAz: number | string;
  readonly automaticBackupRetentionDays: number;
  readonly weeklyMaintenanceStartTime: string;
  readonly clientSecurityGroupIds: readonly string[];
  readonly svmName: string;
  readonly volumes: readonly OntapVolumeSpec[];
  readonly skipFinalBackup: boolean;
  readonly retainOnDelete: boolean;
}

/** Applies the defaults. */
export function resolveArgs(args: FsxOntapArgs): Resolved {
  return {
    deploymentType: args.deploymentType ?? "MULTI_AZ_1",
    storageCapacityGiB: args.storageCapacityGiB ?? 1024,
    throughputCapacityMBps: args.throughputCapacityMBps,
    haPairs: args.haPairs ?? 1,
    diskIopsMode: args.diskIopsMode ?? "AUTOMATIC",
    diskIops: args.diskIops,
    preferredAz: args.preferredAz ?? 0,
    automaticBackupRetentionDays: args.automaticBackupRetentionDays ?? 0,
    weeklyMaintenanceStartTime: args.weeklyMaintenanceStartTime ?? "7:02:00",
    clientSecurityGroupIds: args.clientSecurityGroupIds ?? [],
    svmName: args.svmName ?? "svm1",
    volumes: args.volumes ?? [],
    skipFinalBackup: args.skipFinalBackup ?? true,
    retainOnDelete: args.retainOnDelete ?? false,
  };
}

/** Every problem of the (resolved) arguments, named by argument. */
export function argProblems(r: Resolved, endpointIpAddressRange?: string): string[] {
  const problems = sizingProblems(r);
  if (!SVM_NAME_RE.test(r.svmName)) problems.push(problem("svmName", "1–47 letters, digits or '_', starting with a letter", r.svmName));
  if (!Number.isInteger(r.automaticBackupRetentionDays) || r.automaticBackupRetentionDays < 0 || r.automaticBackupRetentionDays > 90) {
    problems.push(problem("automaticBackupRetentionDays", "a whole number of days from 0 to 90", r.automaticBackupRetentionDays));
  }
  if (!MAINTENANCE_WINDOW_RE.test(r.weeklyMaintenanceStartTime)) {
    problems.push(
      problem(
        "weeklyMaintenanceStartTime",
        "d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00)",
        r.weeklyMaintenanceStartTime,
      ),
    );
  }
  if (endpointIpAddressRange !== undefined && !isMultiAz(r.deploymentType)) {
    problems.push(problem("endpointIpAddressRange", `unset for ${r.deploymentType} (Multi-AZ only)`, endpointIpAddressRange));
  }
  r.volumes.forEach((v, i) => {
    if (!VOLUME_NAME_RE.test(v.name))
      problems.push(problem(`volumes[${i}].name`, "1–203 letters, digits or '_', starting with a letter", v.name));
    if (!JUNCTION_PATH_RE.test(v.junctionPath))
      problems.push(problem(`volumes[${i}].junctionPath`, "a path starting with '/' (e.g. /kafkafsxN1)", v.junctionPath));
    if (!Number.isInteger(v.sizeGiB) || v.sizeGiB < 1 || v.sizeGiB > MAX_VOLUME_GIB)
      problems.push(problem(`volumes[${i}].sizeGiB`, `a whole number of GiB from 1 to ${MAX_VOLUME_GIB}`, v.sizeGiB));
    if (v.snapshotPolicy !== undefined && !SNAPSHOT_POLICY_RE.test(v.snapshotPolicy))
      problems.push(
        problem(
          `volumes[${i}].snapshotPolicy`,
          "an ONTAP snapshot policy name (default, default-1weekly, none, or a custom one)",
          v.snapshotPolicy,
        ),
      );
    if (v.tieringPolicy !== undefined && !(TIERING_POLICIES as readonly string[]).includes(v.tieringPolicy))
      problems.push(problem(`volumes[${i}].tieringPolicy`, `one of ${TIERING_POLICIES.join(", ")}`, v.tieringPolicy));
  });
  problems.push(...volumeProblems(r.volumes));
  return problems;
}

export class FsxOntap extends pulumi.ComponentResource {
  readonly fileSystemId: pulumi.Output<string>;
  readonly fileSystemArn: pulumi.Output<string>;
  readonly svmId: pulumi.Output<string>;
  readonly svmName: pulumi.Output<string>;
  /** The file system's management endpoint (fsxadmin: ONTAP CLI over SSH, REST API over HTTPS). */
  readonly managementEndpoint: pulumi.Output<Endpoint | null>;
  /** The SVM's management endpoint (vsadmin; Trident's management LIF). */
  readonly svmManagementEndpoint: pulumi.Output<Endpoint | null>;
  readonly nfsEndpoint: pulumi.Output<Endpoint | null>;
  /** Null on file systems with more than 6 HA pairs (FSx disables iSCSI there). */
  readonly iscsiEndpoint: pulumi.Output<Endpoint | null>;
  readonly preferredSubnetId: pulumi.Output<string>;
  readonly preferredAz: pulumi.Output<string>;
  readonly standbyAz: pulumi.Output<string>;
  readonly securityGroupId: pulumi.Output<string>;
  readonly kmsKeyArn: pulumi.Output<string>;
  /** Secrets Manager secret with `{"username":"vsadmin","password":…}`. */
  readonly credentialsSecretArn: pulumi.Output<string>;
  /** Secrets Manager secret with `{"username":"fsxadmin","password":…}`. */
  readonly fsxadminSecretArn: pulumi.Output<string>;
  readonly volumes: pulumi.Output<VolumeOutput[]>;
  /** Total throughput capacity, MBps. */
  readonly throughputCapacityMBps: pulumi.Output<number>;

  constructor(name: string, args: FsxOntapArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:fsx-ontap:FsxOntap", name, {}, opts);
    const r = resolveArgs(args);
    const problems = argProblems(r, args.endpointIpAddressRange);
    if (problems.length > 0) throw new ConfigError(problems);

    const parent = { parent: this };
    const data = { parent: this, retainOnDelete: r.retainOnDelete };
    const nameTag = (role: string) => ({ Name: `${name}-${role}` });
    const multi = isMultiAz(r.deploymentType);

    const place = pulumi
      .all([args.privateSubnetIds, args.availabilityZones, args.privateRouteTableIds])
      .apply(([subnets, azs, rts]) => placement(r.deploymentType, r.preferredAz, subnets, azs, rts));

    const kmsKeyArn: pulumi.Output<string> =
      args.kmsKeyArn !== undefined
        ? pulumi.output(args.kmsKeyArn)
        : new aws.kms.Key(
            `${name}-kms`,
            {
              description: `FSx for ONTAP ${name}: file system data at rest and its credentials secrets`,
              enableKeyRotation: true,
              deletionWindowInDays: 7,
              tags: nameTag("kms"),
            },
            parent,
          ).arn;

    // The security group: no inline rules (each rule is a resource of its own), so no
    // provider-added allow-all egress either.
    const sg = new aws.ec2.SecurityGroup(
      `${name}-sg`,
      { vpcId: args.vpcId, description: "FSx for ONTAP endpoints: NFS, iSCSI, ONTAP management, ICMP", tags: nameTag("sg") },
      parent,
    );
    const vpcCidr = pulumi.output(args.vpcCidr);
    for (const rule of ingressRules(ruleSources(vpcCidr, r.clientSecurityGroupIds))) {
      new aws.vpc.SecurityGroupIngressRule(
        `${name}-in-${rule.name}`,
        {
          securityGroupId: sg.id,
          ipProtocol: rule.ipProtocol,
          fromPort: rule.fromPort,
          toPort: rule.toPort,
          cidrIpv4: rule.cidrIpv4,
          referencedSecurityGroupId: rule.referencedSecurityGroupId,
          description: rule.description,
          tags: nameTag(`in-${rule.name}`),
        },
        parent,
      );
    }
    const egress = egressRule(vpcCidr);
    new aws.vpc.SecurityGroupEgressRule(
      `${name}-out-${egress.name}`,
      {
        securityGroupId: sg.id,
        ipProtocol: egress.ipProtocol,
        cidrIpv4: egress.cidrIpv4,
        description: egress.description,
        tags: nameTag(`out-${egress.name}`),
      },
      parent,
    );

    const password = (user: string) =>
      new random.RandomPassword(
        `${name}-${user}`,
        {
          length: PASSWORD_LENGTH,
          special: true,
          overrideSpecial: PASSWORD_SPECIALS,
          minLower: 1,
          minUpper: 1,
          minNumeric: 1,
          minSpecial: 1,
        },
        parent,
      );
    const fsxadmin = password("fsxadmin");
    const vsadmin = password("vsadmin");

    const fs = new aws.fsx.OntapFileSystem(
      `${name}-fs`,
      {
        deploymentType: r.deploymentType,
        storageType: "SSD",
        storageCapacity: r.storageCapacityGiB,
        ...throughputArgs(r),
        diskIopsConfiguration: r.diskIopsMode === "AUTOMATIC" ? { mode: "AUTOMATIC" } : { mode: "USER_PROVISIONED", iops: r.diskIops },
        subnetIds: place.apply((p) => p.subnetIds),
        preferredSubnetId: place.apply((p) => p.preferredSubnetId),
        routeTableIds: multi ? place.apply((p) => p.routeTableIds ?? []) : undefined,
        endpointIpAddressRange: multi ? args.endpointIpAddressRange : undefined,
        securityGroupIds: [sg.id],
        kmsKeyId: kmsKeyArn,
        fsxAdminPassword: fsxadmin.result,
        automaticBackupRetentionDays: r.automaticBackupRetentionDays,
        weeklyMaintenanceStartTime: r.weeklyMaintenanceStartTime,
        tags: nameTag("fs"),
      },
      // Multi-AZ creation takes 30–40 min and a throughput change fails over and back: give both room.
      { ...data, customTimeouts: { create: "120m", update: "120m", delete: "60m" } },
    );

    const svm = new aws.fsx.OntapStorageVirtualMachine(
      `${name}-svm`,
      { fileSystemId: fs.id, name: r.svmName, rootVolumeSecurityStyle: "UNIX", svmAdminPassword: vsadmin.result, tags: nameTag("svm") },
      { ...data, customTimeouts: { create: "60m", delete: "60m" } },
    );

    const credentials = (user: string, pw: random.RandomPassword, what: string, dependsOn: pulumi.Resource) => {
      const secret = new aws.secretsmanager.Secret(
        `${name}-${user}`,
        { description: `${what} (JSON: username, password)`, kmsKeyId: kmsKeyArn, recoveryWindowInDays: 0, tags: nameTag(user) },
        parent,
      );
      new aws.secretsmanager.SecretVersion(
        `${name}-${user}`,
        { secretId: secret.id, secretString: pulumi.secret(pw.result.apply((p) => credentialsSecretString(user, p))) },
        { parent: this, dependsOn: [dependsOn] },
      );
      return secret.arn;
    };
    const credentialsSecretArn = credentials(
      "vsadmin",
      vsadmin,
      `vsadmin of SVM ${r.svmName}, for Trident (credentials.type: awsarn)`,
      svm,
    );
    const fsxadminSecretArn = credentials("fsxadmin", fsxadmin, `fsxadmin of FSx for ONTAP ${name}`, fs);

    const volumes = r.volumes.map((v) => {
      const tiering = v.tieringPolicy ?? "NONE";
      const vol = new aws.fsx.OntapVolume(
        `${name}-vol-${v.name}`,
        {
          storageVirtualMachineId: svm.id,
          name: v.name,
          junctionPath: v.junctionPath,
          sizeInMegabytes: v.sizeGiB * 1024,
          volumeType: "ONTAP",
          ontapVolumeType: "RW",
          securityStyle: "UNIX",
          snapshotPolicy: v.snapshotPolicy ?? "none",
          storageEfficiencyEnabled: v.storageEfficiency ?? true,
          tieringPolicy: { name: tiering, coolingPeriod: v.coolingPeriodDays },
          skipFinalBackup: r.skipFinalBackup,
          tags: nameTag(`vol-${v.name}`),
        },
        data,
      );
      return vol.id.apply((id) => ({ name: v.name, junctionPath: v.junctionPath, id }));
    });

    const svmEndpoints = svm.endpoints.apply((e) => e?.[0]);
    this.fileSystemId = fs.id;
    this.fileSystemArn = fs.arn;
    this.svmId = svm.id;
    this.svmName = svm.name;
    this.managementEndpoint = fs.endpoints.apply((e) => firstEndpoint(e?.[0]?.managements));
    this.svmManagementEndpoint = svmEndpoints.apply((e) => firstEndpoint(e?.managements));
    this.nfsEndpoint = svmEndpoints.apply((e) => firstEndpoint(e?.nfs));
    this.iscsiEndpoint = svmEndpoints.apply((e) => firstEndpoint(e?.iscsis));
    this.preferredSubnetId = place.apply((p) => p.preferredSubnetId);
    this.preferredAz = place.apply((p) => p.preferredAz);
    this.standbyAz = place.apply((p) => p.standbyAz);
    this.securityGroupId = sg.id;
    this.kmsKeyArn = kmsKeyArn;
    this.credentialsSecretArn = credentialsSecretArn;
    this.fsxadminSecretArn = fsxadminSecretArn;
    this.volumes = pulumi.all(volumes);
    // The configured total: what the file system has once `pulumi up` has succeeded (the provider
    // reads `throughputCapacity` back as null for SINGLE_AZ_2).
    this.throughputCapacityMBps = pulumi.output(r.throughputCapacityMBps * r.haPairs);
    this.registerOutputs({
      fileSystemId: this.fileSystemId,
      fileSystemArn: this.fileSystemArn,
      svmId: this.svmId,
      svmName: this.svmName,
      managementEndpoint: this.managementEndpoint,
      svmManagementEndpoint: this.svmManagementEndpoint,
      nfsEndpoint: this.nfsEndpoint,
      iscsiEndpoint: this.iscsiEndpoint,
      preferredSubnetId: this.preferredSubnetId,
      preferredAz: this.preferredAz,
      standbyAz: this.standbyAz,
      securityGroupId: this.securityGroupId,
      kmsKeyArn: this.kmsKeyArn,
      credentialsSecretArn: this.credentialsSecretArn,
      fsxadminSecretArn: this.fsxadminSecretArn,
      volumes: this.volumes,
      throughputCapacityMBps: this.throughputCapacityMBps,
    });
  }
}
