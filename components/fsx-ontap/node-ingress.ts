/**
 * The FSx for ONTAP security group's ingress from an EKS cluster's nodes, one rule per port
 * (components/kafka for NFS, components/trident for NFS and iSCSI): `${name}-<port rule id>` rules on
 * the file system's group, the node group referenced as the source, each rule's description its
 * port's followed by what the caller says the nodes use it for.
 */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { PortRule } from "./security";

export interface NodeIngressArgs {
  readonly fsxSecurityGroupId: pulumi.Input<string>;
  readonly nodeSecurityGroupId: pulumi.Input<string>;
}

export function nodeIngressRules(
  name: string,
  ports: readonly PortRule[],
  args: NodeIngressArgs,
  purpose: (p: PortRule) => string,
  parent: pulumi.Resource,
): aws.vpc.SecurityGroupIngressRule[] {
  return ports.map(
    (p) =>
      new aws.vpc.SecurityGroupIngressRule(
        `${name}-${p.id}`,
        {
          securityGroupId: args.fsxSecurityGroupId,
          referencedSecurityGroupId: args.nodeSecurityGroupId,
          ipProtocol: p.ipProtocol,
          fromPort: p.fromPort,
          toPort: p.toPort,
          description: `${p.description} from the EKS nodes (${purpose(p)})`,
          tags: { Name: `${name}-${p.id}` },
        },
        { parent },
      ),
  );
}
