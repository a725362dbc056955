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
import { whenUpstreamsFit } from "../lib/upstream";
import { placementProblems } from "../../components/fsx-ontap/placement";
import { resolve } from "../../components/fsx-ontap/rules";
import { argProblem } from "../../core/errors";
import { cidrsOverlap, isNetworkAddress, parseCidr, subnetLayout, type SubnetLayout } from "../../components/network/cidr";

export function fsxOntapStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("fsx-ontap", fsxOntapSchema, raw, checkFsxOntap);
  const a = fsxOntapArgs(cfg);
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = readNetwork(cfg.networkStack);
  const r = resolve(a);
  // The file system's zones against the network's, before any resource (stacks/lib/upstream.ts).
  return whenUpstreamsFit(
    { net },
    ({ net: n }) =>
      n === undefined
        ? []
        : [
            ...placementProblems(r.deploymentType, r.preferredAz, n.privateSubnetIds, n.azs).map(({ about, why }) =>
              argProblem(about, `${PLACEMENT_RULE[about]}: ${why}`, about === "networkStack" ? cfg.networkStack : r[about]),
            ),
            ...endpointRangeProblems(r.endpointIpAddressRange, n.vpcCidr, n.azs.length),
          ],
    () => build(a, provider, expiresAt, net),
  );
}

/**
 * A Multi-AZ file system's endpoint range against the network's subnets: "You can have overlapping
 * endpoint IP addresses for file systems deployed in the same VPC/route tables, as long as they
 * don't overlap with any subnet" (the FSx API reference, `EndpointIpAddressRange`; boto/botocore
 * 0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:1973). The network's subnets are its layout
 * (components/network/cidr.ts `subnetLayout`, the one the Network component builds them from).
 */
export function endpointRangeProblems(range: string | undefined, vpcCidr: string, azCount: number) {
  const r = range === undefined ? undefined : parseCidr(range);
  // (a VPC CIDR that does not parse makes subnetLayout throw: caught below)
  if (range === undefined || r === undefined || !isNetworkAddress(r.address, r.prefix)) return [];
  let layout: SubnetLayout;
  try {
    layout = subnetLayout(vpcCidr, azCount);
  } catch {
    return []; // a network stack not made by this lab's layout: its subnets are not known here
  }
  const hit = [...layout.privateCidrs, ...layout.publicCidrs].filter((s) => cidrsOverlap(range, s));
  return hit.length === 0
    ? []
    : [
        argProblem(
          "endpointIpAddressRange",
          `a range that overlaps none of the network's subnets (FSx: it overlaps ${hit.join(", ")})`,
          range,
        ),
      ];
}

/** What each placement problem asks of its key. */
const PLACEMENT_RULE = {
  networkStack: "the name of a network stack whose private subnets pair up with its zones",
  deploymentType: "a deployment type the network stack's zones allow",
  preferredAz: "a zone of the file system among the network stack's zones",
} as const;

function build(
  a: ReturnType<typeof fsxOntapArgs>,
  provider: ReturnType<typeof labAwsProvider>["provider"],
  expiresAt: pulumi.Output<string>,
  net: ReturnType<typeof readNetwork>,
) {
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
    clientSubnetCidrs: net.privateSubnetCidrs,
    volumes: fsx.volumes,
    throughputCapacityMBps: fsx.throughputCapacityMBps,
    maintenanceWindow: fsx.maintenanceWindow,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
