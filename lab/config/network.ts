/** Config of the `network` stack kind. */
import { z } from "zod";
import { MAX_AZS, VPC_PREFIX_MAX, VPC_PREFIX_MIN } from "../../components/network/cidr";
import { problem } from "../errors";
import { commonFields } from "./common";
import { bool, int, ipv4Cidr, oneOf, text } from "./fields";

/** CloudWatch Logs' accepted retention periods, in days. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

export const networkSchema = z.object({
  ...commonFields,
  /** VPC CIDR. @default "10.0.0.0/16" */
  vpcCidr: ipv4Cidr(VPC_PREFIX_MIN, VPC_PREFIX_MAX).default("10.0.0.0/16"),
  /** Number of availability zones, the region's first N unless `azs` names them. @default 2 */
  azCount: int(1, MAX_AZS).optional(),
  /** Explicit availability zone names. */
  azs: z
    .array(text("an availability zone name (e.g. us-east-1a)", /^[a-z]{2}(-gov)?-[a-z]+-\d[a-z]$/), {
      error: `a list of 1 to ${MAX_AZS} availability zone names (e.g. ["us-east-1a","us-east-1b"])`,
    })
    .min(1, { error: `a list of 1 to ${MAX_AZS} availability zone names (e.g. ["us-east-1a","us-east-1b"])` })
    .max(MAX_AZS, { error: `a list of 1 to ${MAX_AZS} availability zone names (e.g. ["us-east-1a","us-east-1b"])` })
    .optional(),
  /** NAT gateways: one per AZ (survives an AZ outage) or a single one (cheaper). @default "perAz" */
  natGateways: oneOf(["perAz", "single"]).default("perAz"),
  /** VPC flow logs to CloudWatch Logs. @default false */
  flowLogs: bool().default(false),
  /** Retention of the flow-log group, days. @default 30 */
  flowLogsRetentionDays: z
    .number({ error: `one of CloudWatch Logs' retention periods (${LOG_RETENTION_DAYS.join(", ")})` })
    .refine((d) => (LOG_RETENTION_DAYS as readonly number[]).includes(d), {
      error: `one of CloudWatch Logs' retention periods (${LOG_RETENTION_DAYS.join(", ")})`,
    })
    .default(30),
});

export type NetworkConfig = z.output<typeof networkSchema>;

/** Cross-field rules of the network kind. */
export function checkNetwork(c: NetworkConfig): string[] {
  const problems: string[] = [];
  if (c.azs) {
    if (new Set(c.azs).size !== c.azs.length) problems.push(problem("lab:azs", "distinct availability zone names", c.azs));
    const foreign = c.azs.filter((az) => !az.startsWith(c.region));
    if (foreign.length > 0) problems.push(problem("lab:azs", `zones of aws:region ${c.region}`, c.azs));
    if (c.azCount !== undefined && c.azCount !== c.azs.length) {
      problems.push(problem("lab:azCount", `the number of 'lab:azs' (${c.azs.length}) when both are set`, c.azCount));
    }
  }
  return problems;
}
