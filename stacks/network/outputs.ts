/** The network stack's outputs, as every downstream kind reads them (`lab:networkStack`). */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { readUpstream } from "../lib/upstream";

const ids = z.array(z.string().min(1)).min(1);

/** Output schemas of the `network` kind (stacks/network/index.ts exports them). */
export const networkOutputs = {
  vpcId: z.string().min(1),
  vpcCidr: z.string().min(1),
  azs: ids,
  publicSubnetIds: ids,
  privateSubnetIds: ids,
  /** The private subnets' CIDRs, in subnet order (the fsx-ontap kind passes them on: the Kafka volumes' export policy). */
  privateSubnetCidrs: ids,
  privateRouteTableIds: ids,
};

/** Reads the network stack named by `lab:networkStack`. */
export function readNetwork(networkStack: string, opts?: pulumi.CustomResourceOptions) {
  return readUpstream("lab:networkStack", networkStack, networkOutputs, opts);
}
