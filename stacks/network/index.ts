/** Stack kind `network`: the VPC the other kinds read through `lab:networkStack`. */
import * as pulumi from "@pulumi/pulumi";
import { Network } from "../../components/network";
import { parseConfig } from "../lib/config/load";
import { checkNetwork, networkArgs, networkSchema } from "./config";
import { labAwsProvider, StackIdentity } from "../lib/context";

/** The outputs of a network stack, as downstream stacks read them (see stacks/network/outputs.ts). */
export function networkStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("network", networkSchema, raw, checkNetwork);
  const a = networkArgs(cfg);
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = new Network(
    "lab",
    {
      region: a.region,
      vpcCidr: a.vpcCidr,
      azs: a.azs,
      azCount: a.azCount,
      natGateways: a.natGateways,
      flowLogs: a.flowLogs,
      flowLogsRetentionDays: a.flowLogsRetentionDays,
    },
    { provider },
  );
  return {
    vpcId: net.vpcId,
    vpcCidr: net.vpcCidr,
    azs: net.azs,
    azIds: net.azIds,
    publicSubnetIds: net.publicSubnetIds,
    privateSubnetIds: net.privateSubnetIds,
    privateSubnetCidrs: net.privateSubnetCidrs,
    privateRouteTableIds: net.privateRouteTableIds,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
