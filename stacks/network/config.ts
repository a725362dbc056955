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
  /** `lab:vpcCidr` → Network `vpcCidr`. */
  vpcCidr: text().optional(),
  /** `lab:azCount` → `azCount`. */
  azCount: int().optional(),
  /** `lab:azs` → `azs`. */
  azs: list(text()).optional(),
  /** `lab:natGateways` → `natGateways`. */
  natGateways: text().optional(),
  /** `lab:flowLogs` → `flowLogs`. */
  flowLogs: bool().optional(),
  /** `lab:flowLogsRetentionDays` → `flowLogsRetentionDays`. */
  flowLogsRetentionDays: int().optional(),
  /** `lab:permissionsBoundaryArn` → `permissionsBoundaryArn` (the flow-log role's boundary). */
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
