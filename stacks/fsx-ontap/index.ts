/**
 * Stack kind `fsx-ontap`: an FSx for NetApp ONTAP file system, SVM and volumes in the network
 * stack's private subnets (`lab:networkStack`). Shipped as `fsx-eks-ontap` (the EKS experiment's
 * file system) and `kafka-ontap` (the Kafka experiment's).
 *
 * The throughput lever (`lab:throughputCapacityMBps`) is an in-place update of the same file system;
 * see components/fsx-ontap/index.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { FsxOntap } from "../../components/fsx-ontap";
import { checkFsxOntap, fsxOntapArgs, fsxOntapSchema } from "./config";
import { parseConfig } from "../lib/config/load";
import { labAwsProvider, StackIdentity } from "../lib/context";
import { readNetwork } from "../network/outputs";

export function fsxOntapStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("fsx-ontap", fsxOntapSchema, raw, checkFsxOntap);
  const a = fsxOntapArgs(cfg);
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = readNetwork(cfg.networkStack);
  const fsx = new FsxOntap(
    "fsx",
    {
      vpcId: net.vpcId,
      vpcCidr: net.vpcCidr,
      privateSubnetIds: net.privateSubnetIds,
      privateRouteTableIds: net.privateRouteTableIds,
      availabilityZones: net.azs,
      deploymentType: a.deploymentType,
      storageCapacityGiB: a.storageCapacityGiB,
      throughputCapacityMBps: a.throughputCapacityMBps,
      haPairs: a.haPairs,
      diskIopsMode: a.diskIopsMode,
      diskIops: a.diskIops,
      preferredAz: a.preferredAz,
      kmsKeyArn: a.kmsKeyArn,
      backupRetentionDays: a.backupRetentionDays,
      maintenanceWindow: a.maintenanceWindow,
      clientSecurityGroupIds: a.clientSecurityGroupIds,
      endpointIpAddressRange: a.endpointIpAddressRange,
      svmName: a.svmName,
      volumes: a.volumes,
      skipFinalBackup: a.skipFinalBackup,
      retainOnDelete: a.retainOnDelete,
    },
    { provider },
  );
  return {
    fileSystemId: fsx.fileSystemId,
    fileSystemArn: fsx.fileSystemArn,
    svmId: fsx.svmId,
    svmName: fsx.svmName,
    managementEndpoint: fsx.managementEndpoint,
    svmManagementEndpoint: fsx.svmManagementEndpoint,
    nfsEndpoint: fsx.nfsEndpoint,
    iscsiEndpoint: fsx.iscsiEndpoint,
    preferredSubnetId: fsx.preferredSubnetId,
    preferredAz: fsx.preferredAz,
    standbyAz: fsx.standbyAz,
    securityGroupId: fsx.securityGroupId,
    kmsKeyArn: fsx.kmsKeyArn,
    credentialsSecretArn: fsx.credentialsSecretArn,
    fsxadminSecretArn: fsx.fsxadminSecretArn,
    volumes: fsx.volumes,
    throughputCapacityMBps: fsx.throughputCapacityMBps,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
