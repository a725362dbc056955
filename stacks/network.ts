/** Stack kind `network`: the VPC the other kinds read through `lab:networkStack`. */
import * as pulumi from "@pulumi/pulumi";
import { Network } from "../components/network";
import { parseConfig } from "../lab/config/load";
import { checkNetwork, networkSchema } from "../lab/config/network";
import { labAwsProvider, StackIdentity } from "./lib/context";

/** The outputs of a network stack, as downstream stacks read them (see stacks/lib/network-ref.ts). */
export function networkStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("network", networkSchema, raw, checkNetwork);
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = new Network(
    "lab",
    {
      region: cfg.region,
      vpcCidr: cfg.vpcCidr,
      availabilityZones: cfg.azs,
      azCount: cfg.azCount,
      natGateways: cfg.natGateways,
      flowLogs: cfg.flowLogs,
      flowLogsRetentionDays: cfg.flowLogsRetentionDays,
    },
    { provider },
  );
  return {
    vpcId: net.vpcId,
    vpcCidr: net.vpcCidr,
    azs: net.azs,
    publicSubnetIds: net.publicSubnetIds,
    privateSubnetIds: net.privateSubnetIds,
    privateRouteTableIds: net.privateRouteTableIds,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
