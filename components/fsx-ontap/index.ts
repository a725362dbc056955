/**
 * `lab:fsx-ontap:FsxOntap`: an Amazon FSx for NetApp ONTAP file system with its own security group,
 * a customer-managed KMS key, a generated `vsadmin` password, one SVM, its volumes, and the `vsadmin`
 * credentials in Secrets Manager in the JSON Trident reads (`credentials.type: awsarn`).
 *
 * No `fsxadmin` password: nothing in the lab logs in as the file-system administrator (Trident and
 * the kafka kind's ontap Job use the SVM's vsadmin). `FsxAdminPassword` is optional at creation
 * ("The ONTAP administrative password for the fsxadmin user with which you administer your file
 * system using the NetApp ONTAP CLI and REST API", FSx API reference,
 * CreateFileSystemOntapConfiguration); set one when you need it, with `aws fsx update-file-system
 * --ontap-configuration FsxAdminPassword=…` ("Update the password for the fsxadmin user by entering
 * a new password", UpdateFileSystemOntapConfiguration).
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
 * Arguments, their defaults (./rules.ts `FSX_ONTAP_DEFAULTS`) and rules (`problems`, run first:
 * one InputPropertiesError naming every bad argument) live in ./rules.ts. Lab choices, all
 * arguments: automatic backups off (`backupRetentionDays` 0), volumes deleted without a final
 * backup (`skipFinalBackup` true), nothing retained on destroy (`retainOnDelete` false), secrets
 * deleted without a recovery window, the KMS key deleted after 7 days (the shortest window KMS
 * allows).
 *
 * `retainOnDelete: true` keeps a *usable* file system: with it, the KMS key (else the data is
 * unreadable once the key is gone), the security group and every rule of it (else the destroy
 * fails while the retained file system's interfaces still use the group, and no client could
 * reach it), and the credentials secret (the only copy of the vsadmin password) is retained too.
 * The generated password is state only (no cloud resource) and goes.
 *
 * Tags: the lab's common tags come from the AWS provider's `defaultTags` (pass it in `opts`).
 */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import { maintenanceSpanMinutes } from "../../core/maintenance";
import { throwIfInvalid } from "../lib/args";
import { Endpoint, firstEndpoint, placement } from "./placement";
import {
  FsxOntapSpec,
  PASSWORD_LENGTH,
  PASSWORD_SPECIALS,
  credentialsSecretString,
  flexGroupAggregates,
  isMultiAz,
  problems,
  resolve,
  throughputArgs,
} from "./rules";
import { egressRule, ingressRules, ruleSources } from "./security";

export type { Endpoint } from "./placement";
export type { DeploymentType, DiskIopsMode, OntapVolumeSpec, TieringPolicy } from "./rules";

/**
 * Arguments of {@link FsxOntap}: the network it goes into (Inputs, from the network stack's
 * outputs) and its settings, documented with their defaults in ./rules.ts ({@link FsxOntapSpec}).
 */
export interface FsxOntapArgs extends FsxOntapSpec<pulumi.Input<string>> {
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
}

/** A volume as exported. */
export interface VolumeOutput {
  readonly name: string;
  readonly junctionPath: string;
  readonly id: string;
  /** FLEXVOL or FLEXGROUP. */
  readonly style: string;
  /** FLEXGROUP: constituents on each aggregate. */
  readonly constituentsPerAggregate?: number;
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
  readonly volumes: pulumi.Output<VolumeOutput[]>;
  /** Total throughput capacity, MBps. */
  readonly throughputCapacityMBps: pulumi.Output<number>;
  /**
   * The weekly maintenance window as FSx reports it: `start` is `d:HH:MM` UTC (d 1 Monday … 7
   * Sunday), `minutes` how long after it patching may still run (core/maintenance.ts: every file
   * server in turn, up to an hour each). Benchmarks record whether a repetition overlapped it.
   */
  readonly maintenanceWindow: pulumi.Output<{ start: string; minutes: number }>;

  constructor(name: string, args: FsxOntapArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:fsx-ontap:FsxOntap", name, {}, opts);
    throwIfInvalid("lab:fsx-ontap:FsxOntap", name, problems(args));
    const r = resolve(args);

    const parent = { parent: this };
    // What a retained file system needs to stay usable goes with it (see above).
    const keep = { parent: this, retainOnDelete: r.retainOnDelete };
    const nameTag = (role: string) => ({ Name: `${name}-${role}` });
    const multi = isMultiAz(r.deploymentType);

    const place = pulumi
      .all([args.privateSubnetIds, args.availabilityZones, args.privateRouteTableIds])
      .apply(([subnets, azs, rts]) => placement(r.deploymentType, r.preferredAz, subnets, azs, rts));

    const kmsKeyArn: pulumi.Output<string> =
      r.kmsKeyArn !== undefined
        ? pulumi.output(r.kmsKeyArn)
        : new aws.kms.Key(
            `${name}-kms`,
            {
              description: `FSx for ONTAP ${name}: file system data at rest and its credentials secrets`,
              enableKeyRotation: true,
              deletionWindowInDays: 7,
              tags: nameTag("kms"),
            },
            keep,
          ).arn;

    const sg = this.securityGroup(name, args, r, keep, nameTag);

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
        endpointIpAddressRange: multi ? r.endpointIpAddressRange : undefined,
        securityGroupIds: [sg.id],
        kmsKeyId: kmsKeyArn,
        automaticBackupRetentionDays: r.backupRetentionDays,
        weeklyMaintenanceStartTime: r.maintenanceWindow,
        tags: nameTag("fs"),
      },
      // Multi-AZ creation takes 30–40 min and a throughput change fails over and back: give both room.
      // `fsxAdminPassword` ignored: file systems created before the lab stopped setting it keep theirs,
      // since an update from a password to none would send an empty FsxAdminPassword, which FSx refuses
      // (terraform-provider-aws internal/service/fsx/ontap_file_system.go resourceOntapFileSystemUpdate:
      // `if d.HasChange("fsx_admin_password") { … FsxAdminPassword = aws.String(d.Get(…)) }`).
      { ...keep, customTimeouts: { create: "120m", update: "120m", delete: "60m" }, ignoreChanges: ["fsxAdminPassword"] },
    );

    const svm = new aws.fsx.OntapStorageVirtualMachine(
      `${name}-svm`,
      { fileSystemId: fs.id, name: r.svmName, rootVolumeSecurityStyle: "UNIX", svmAdminPassword: vsadmin.result, tags: nameTag("svm") },
      { ...keep, customTimeouts: { create: "60m", delete: "60m" } },
    );

    const credentials = (user: string, pw: random.RandomPassword, what: string, dependsOn: pulumi.Resource) =>
      this.credentialsSecret(`${name}-${user}`, { user, pw, what, dependsOn, kmsKeyArn }, keep, nameTag(user));
    const credentialsSecretArn = credentials(
      "vsadmin",
      vsadmin,
      `vsadmin of SVM ${r.svmName}, for Trident (credentials.type: awsarn)`,
      svm,
    );

    const volumes = this.createVolumes(name, r, svm, keep, nameTag);

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
    this.volumes = pulumi.all(volumes);
    // The configured total: what the file system has once `pulumi up` has succeeded (the provider
    // reads `throughputCapacity` back as null for SINGLE_AZ_2).
    this.throughputCapacityMBps = pulumi.output(r.throughputCapacityMBps * r.haPairs);
    this.maintenanceWindow = fs.weeklyMaintenanceStartTime.apply((start) => ({
      // FSx reports the start it was given (the lab always gives one); the config's value only when the
      // output is empty, as under the mock runtime.
      start: start || r.maintenanceWindow,
      minutes: maintenanceSpanMinutes(r.haPairs),
    }));
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
      volumes: this.volumes,
      throughputCapacityMBps: this.throughputCapacityMBps,
      maintenanceWindow: this.maintenanceWindow,
    });
  }

  /** A Secrets Manager secret of `user`'s credentials (JSON: username, password), its version once `dependsOn` exists. */
  private credentialsSecret(
    name: string,
    c: { user: string; pw: random.RandomPassword; what: string; dependsOn: pulumi.Resource; kmsKeyArn: pulumi.Input<string> },
    keep: pulumi.CustomResourceOptions,
    tags: { Name: string },
  ): pulumi.Output<string> {
    const secret = new aws.secretsmanager.Secret(
      name,
      { description: `${c.what} (JSON: username, password)`, kmsKeyId: c.kmsKeyArn, recoveryWindowInDays: 0, tags },
      keep,
    );
    new aws.secretsmanager.SecretVersion(
      name,
      { secretId: secret.id, secretString: pulumi.secret(c.pw.result.apply((p) => credentialsSecretString(c.user, p))) },
      { ...keep, dependsOn: [c.dependsOn] },
    );
    return secret.arn;
  }

  /** The file system's security group and its rules. */
  private securityGroup(
    name: string,
    args: FsxOntapArgs,
    r: ReturnType<typeof resolve>,
    keep: pulumi.CustomResourceOptions,
    nameTag: (role: string) => { Name: string },
  ): aws.ec2.SecurityGroup {
    // The security group: no inline rules (each rule is a resource of its own), so no
    // provider-added allow-all egress either.
    const sg = new aws.ec2.SecurityGroup(
      `${name}-sg`,
      { vpcId: args.vpcId, description: "FSx for ONTAP endpoints: NFS, iSCSI, ONTAP management, ICMP", tags: nameTag("sg") },
      keep,
    );
    // Ingress only from the client security groups given here; the EKS node groups that use the
    // file system get theirs from the consuming stack (node-ingress.ts). Never from the VPC CIDR.
    for (const rule of ingressRules(ruleSources(r.clientSecurityGroupIds))) {
      new aws.vpc.SecurityGroupIngressRule(
        `${name}-in-${rule.name}`,
        {
          securityGroupId: sg.id,
          ipProtocol: rule.ipProtocol,
          fromPort: rule.fromPort,
          toPort: rule.toPort,
          referencedSecurityGroupId: rule.referencedSecurityGroupId,
          description: rule.description,
          tags: nameTag(`in-${rule.name}`),
        },
        keep,
      );
    }
    const egress = egressRule(pulumi.output(args.vpcCidr));
    new aws.vpc.SecurityGroupEgressRule(
      `${name}-out-${egress.name}`,
      {
        securityGroupId: sg.id,
        ipProtocol: egress.ipProtocol,
        cidrIpv4: egress.cidrIpv4,
        description: egress.description,
        tags: nameTag(`out-${egress.name}`),
      },
      keep,
    );
    return sg;
  }

  /** The volumes asked for, each with its id. */
  private createVolumes(
    name: string,
    r: ReturnType<typeof resolve>,
    svm: aws.fsx.OntapStorageVirtualMachine,
    keep: pulumi.CustomResourceOptions,
    nameTag: (role: string) => { Name: string },
  ): pulumi.Output<VolumeOutput>[] {
    return r.volumes.map((v) => {
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
          snapshotPolicy: v.snapshotPolicy,
          storageEfficiencyEnabled: v.storageEfficiency,
          tieringPolicy: { name: v.tieringPolicy, coolingPeriod: v.coolingPeriodDays },
          volumeStyle: v.style,
          // A FlexGroup on every HA pair's aggregate, as `volume create -aggr-list aggr1` on one pair.
          aggregateConfiguration:
            v.style === "FLEXGROUP"
              ? { aggregates: flexGroupAggregates(r.haPairs), constituentsPerAggregate: v.constituentsPerAggregate }
              : undefined,
          skipFinalBackup: r.skipFinalBackup,
          tags: nameTag(`vol-${v.name}`),
        },
        // A replacement (its style or constituents changed) keeps the volume's name and junction path in the
        // same SVM, which ONTAP refuses while the old volume exists (names are unique in an SVM, ignoring case;
        // junction paths too): the old one goes first. Its data is lost either way.
        { ...keep, deleteBeforeReplace: true },
      );
      return vol.id.apply((id) => ({
        name: v.name,
        junctionPath: v.junctionPath,
        id,
        style: v.style,
        ...(v.constituentsPerAggregate === undefined ? {} : { constituentsPerAggregate: v.constituentsPerAggregate }),
      }));
    });
  }
}
