/**
 * Config of the `network` stack kind: the keys' types; their rules and defaults are the Network
 * component's (components/network/rules.ts), checked with the `lab:` key names.
 */
import { z } from "zod";
import { ArgProblem } from "../../core/errors";
import { NetworkSpec, problems } from "../../components/network/rules";
import { commonFields } from "../lib/config/common";
import { bool, int, list, text } from "../lib/config/fields";

export const networkSchema = z.object({
  ...commonFields,
  /**
   * `lab:vpcCidr` → Network `vpcCidr`.
   * @source lab rule (the layout's /(p+4) public subnets: /24 is the smallest VPC leaving AWS's /28); AWS VPC: an IPv4 block /16 to /28,
   * never in 169.254.0.0/16 — awsdocs/amazon-vpc-user-guide@a16ab76e doc_source/vpc-cidr-blocks.md:13,84
   */
  vpcCidr: text().optional(),
  /**
   * `lab:azCount` → `azCount`.
   * @source lab rule (1–3: the layout keeps the last quarter for public subnets); EKS: cluster subnets in at least two zones; FSx
   * MULTI_AZ_1: two subnets — awsdocs/amazon-eks-user-guide@4d52b4d0 latest/ug/networking/network-reqs.adoc:78; boto/botocore@0e6e2404
   * botocore/data/fsx/2018-03-01/service-2.json:2091
   */
  azCount: int().optional(),
  /**
   * `lab:azs` → `azs`.
   * @source EC2 CreateSubnet: zones of the region (a name maps to another zone id in each account); EKS refuses subnets in zone ids
   * use1-az3, usw1-az2, cac1-az3 — awsdocs/amazon-eks-user-guide@4d52b4d0 latest/ug/networking/network-reqs.adoc:78-103
   */
  azs: list(text()).optional(),
  /**
   * `lab:natGateways` → `natGateways`.
   * @source lab rule (its two layouts); AWS VPC: a NAT gateway is in one zone, so one a zone keeps a zone's outage to that zone —
   * awsdocs/amazon-vpc-user-guide@a16ab76e doc_source/vpc-nat-gateway.md:32
   */
  natGateways: text().optional(),
  /**
   * `lab:flowLogs` → `flowLogs`.
   * @source VPC Flow Logs (EC2 CreateFlowLogs): on or off; on publishes to a CloudWatch Logs group, a stream per network interface,
   * through an IAM role — awsdocs/amazon-vpc-user-guide@a16ab76e doc_source/flow-logs-cwl.md:3-5,15
   */
  flowLogs: bool().optional(),
  /**
   * `lab:flowLogsRetentionDays` → `flowLogsRetentionDays`.
   * @source CloudWatch Logs PutRetentionPolicy: retentionInDays one of 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731,
   * 1096, 1827, 2192, 2557, 2922, 3288, 3653 — boto/botocore@0e6e2404 botocore/data/logs/2014-03-28/service-2.json:2948
   */
  flowLogsRetentionDays: int().optional(),
  /**
   * `lab:permissionsBoundaryArn` → `permissionsBoundaryArn` (the flow-log role's boundary).
   * @source IAM CreateRole PermissionsBoundary: a managed policy ARN, 20–2048 characters, of the account's partition (aws, aws-cn,
   * aws-us-gov) — boto/botocore@0e6e2404 botocore/data/iam/2010-05-08/service-2.json:3634;
   * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference-arns
   */
  permissionsBoundaryArn: text().optional(),
});

export type NetworkConfig = z.output<typeof networkSchema>;

/** The config as the Network component's arguments (same names; typed once the rules passed). */
export function networkArgs(c: NetworkConfig): NetworkSpec {
  return c as NetworkSpec;
}

/** The Network component's rules, over the config's fields. */
export function checkNetwork(c: NetworkConfig): ArgProblem[] {
  return problems(networkArgs(c));
}
