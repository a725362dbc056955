/**
 * The network's rules and defaults, in one place (pure). The component (index.ts) resolves and
 * checks its arguments with them; the `network` stack's config calls the same {@link problems}
 * with the `lab:` keys the user typed.
 */
import { argProblem, ArgProblem, problem } from "../../core/errors";
import { DeployTimeError } from "../lib/deploy-error";
import { isInt, isListOf, isOneOf, isText } from "../../core/checks";
import { RoleGuardrailArgs, roleGuardrailProblems } from "../lib/iam";
import { isLogRetention, LOG_RETENTION_RULE } from "../lib/logs";
import { ipv4CidrRule, isIpv4NetworkCidr, MAX_AZS, VPC_PREFIX_MAX, VPC_PREFIX_MIN } from "./cidr";

export const NAT_GATEWAY_MODES = ["perAz", "single"] as const;
export type NatGatewayMode = (typeof NAT_GATEWAY_MODES)[number];

/** An availability zone name such as us-east-1a or us-gov-west-1b. */
export const AZ_NAME_RE = /^[a-z]{2}(-gov)?-[a-z]+-\d[a-z]$/;
export const AZ_NAME_RULE = "an availability zone name (e.g. us-east-1a)";

/** The plain arguments of the Network component (all of them: it takes no Outputs). */
export interface NetworkSpec extends RoleGuardrailArgs {
  /** AWS region of the provider, for zone checks and the S3 gateway endpoint's service name (e.g. "us-east-1"). */
  readonly region: string;
  /** VPC IPv4 CIDR: a network address with a prefix from /16 to /24. @default "10.0.0.0/16" */
  readonly vpcCidr?: string;
  /** Availability zones by name, in order (1–3, distinct, in `region`). @default the region's first `azCount` zones that need no opt-in */
  readonly azs?: readonly string[];
  /** Number of availability zones (1–3); must equal the number of `azs` when both are given. @default 2 */
  readonly azCount?: number;
  /** `perAz`: one NAT gateway per AZ (an AZ outage takes only its own egress down); `single`: one, in the first AZ. @default "perAz" */
  readonly natGateways?: NatGatewayMode;
  /** Send VPC flow logs (all traffic) to a CloudWatch Logs group. @default false */
  readonly flowLogs?: boolean;
  /** Retention of the flow-log group, days: one of CloudWatch Logs' periods. @default 30 */
  readonly flowLogsRetentionDays?: number;
}

export const NETWORK_DEFAULTS = {
  vpcCidr: "10.0.0.0/16",
  azCount: 2,
  natGateways: "perAz" as NatGatewayMode,
  flowLogs: false,
  flowLogsRetentionDays: 30,
} as const;

export type ResolvedNetwork = Required<Omit<NetworkSpec, "azs" | "permissionsBoundaryArn">> & { readonly azs?: readonly string[] };

/** Defaults applied; `azCount` follows `azs` when only they are given. */
export function resolve(spec: NetworkSpec): ResolvedNetwork {
  return {
    region: spec.region,
    vpcCidr: spec.vpcCidr ?? NETWORK_DEFAULTS.vpcCidr,
    azs: spec.azs,
    azCount: spec.azCount ?? spec.azs?.length ?? NETWORK_DEFAULTS.azCount,
    natGateways: spec.natGateways ?? NETWORK_DEFAULTS.natGateways,
    flowLogs: spec.flowLogs ?? NETWORK_DEFAULTS.flowLogs,
    flowLogsRetentionDays: spec.flowLogsRetentionDays ?? NETWORK_DEFAULTS.flowLogsRetentionDays,
  };
}

const AZS_RULE = `a list of 1 to ${MAX_AZS} availability zone names (e.g. ["us-east-1a","us-east-1b"])`;

/** Every problem of `spec`, in argument order; empty when it is valid. */
export function problems(spec: NetworkSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  const r = resolve(spec);
  if (!isIpv4NetworkCidr(r.vpcCidr, VPC_PREFIX_MIN, VPC_PREFIX_MAX)) {
    out.push(argProblem("vpcCidr", ipv4CidrRule(VPC_PREFIX_MIN, VPC_PREFIX_MAX), spec.vpcCidr));
  } else if (r.vpcCidr.startsWith("169.254.")) {
    // "CIDR blocks from the 'link local' block are reserved … and cannot be assigned to VPCs"
    // (awsdocs/amazon-vpc-user-guide a16ab76e doc_source/vpc-cidr-blocks.md:84).
    out.push(argProblem("vpcCidr", "a block outside 169.254.0.0/16 (link-local: AWS refuses it for a VPC)", spec.vpcCidr));
  }
  if (spec.azCount !== undefined && !isInt(spec.azCount, 1, MAX_AZS)) {
    out.push(argProblem("azCount", `an integer from 1 to ${MAX_AZS}`, spec.azCount));
  }
  const azs = spec.azs;
  if (azs !== undefined) {
    if (!isListOf(azs, (a): a is string => typeof a === "string") || azs.length < 1 || azs.length > MAX_AZS) {
      out.push(argProblem("azs", AZS_RULE, azs));
    } else {
      azs.forEach((a, i) => {
        if (!isText(a, AZ_NAME_RE)) out.push(argProblem(`azs[${i}]`, AZ_NAME_RULE, a));
      });
      if (new Set(azs).size !== azs.length) out.push(argProblem("azs", "distinct availability zone names", azs));
      if (azs.some((a) => isText(a, AZ_NAME_RE) && !a.startsWith(spec.region)))
        out.push(argProblem("azs", `zones of {region} ${spec.region}`, azs));
      if (isInt(spec.azCount) && spec.azCount !== azs.length) {
        out.push(argProblem("azCount", `the number of {azs} (${azs.length}) when both are set`, spec.azCount));
      }
    }
  }
  if (!isOneOf(r.natGateways, NAT_GATEWAY_MODES))
    out.push(argProblem("natGateways", `one of ${NAT_GATEWAY_MODES.join(", ")}`, r.natGateways));
  if (typeof r.flowLogs !== "boolean") out.push(argProblem("flowLogs", "true or false", r.flowLogs));
  if (!isLogRetention(r.flowLogsRetentionDays)) out.push(argProblem("flowLogsRetentionDays", LOG_RETENTION_RULE, r.flowLogsRetentionDays));
  out.push(...roleGuardrailProblems(spec));
  return out;
}

/**
 * Zone ids Amazon EKS refuses for cluster subnets: "us-east-1 use1-az3, us-west-1 usw1-az2,
 * ca-central-1 cac1-az3" (Amazon EKS User Guide, "View Amazon EKS networking requirements for VPC
 * and subnets", subnet requirements). Zone *names* map to different ids in every account, so the
 * network chooses and checks zones by id: a VPC any lab kind may put EKS on never uses them.
 */
export const EKS_UNSUPPORTED_ZONE_IDS: readonly string[] = ["use1-az3", "usw1-az2", "cac1-az3"];

/** What getAvailabilityZones answers that the choice needs: names and ids, in the same order. */
export interface RegionZones {
  readonly names: readonly string[];
  readonly zoneIds: readonly string[];
}

/**
 * The zones of the network, as `{names, ids}`: the given names (each must not be an EKS-refused
 * id), or the region's first `count` zones whose ids EKS accepts. Known only once the account's
 * zones are (getAvailabilityZones, at deploy): throws a DeployTimeError naming the argument, the
 * zones and why when that is impossible.
 */
export function chooseZones(
  region: string,
  zones: RegionZones,
  count: number,
  given?: readonly string[],
): { names: string[]; ids: string[] } {
  const idOf = new Map(zones.names.map((n, i) => [n, zones.zoneIds[i]]));
  if (given) {
    const unknown = given.filter((n) => !idOf.has(n));
    if (unknown.length > 0)
      throw new DeployTimeError([
        problem("azs", `zones of region ${region} that need no opt-in (${unknown.join(", ")} not among ${zones.names.join(", ")})`, given),
      ]);
    const refused = given.filter((n) => EKS_UNSUPPORTED_ZONE_IDS.includes(idOf.get(n) as string));
    if (refused.length > 0) {
      throw new DeployTimeError([
        problem(
          "azs",
          `zones whose ids Amazon EKS accepts (not ${EKS_UNSUPPORTED_ZONE_IDS.join(", ")}; ${refused.map((n) => `${n} is ${idOf.get(n)}`).join(", ")})`,
          given,
        ),
      ]);
    }
    return { names: [...given], ids: given.map((n) => idOf.get(n) as string) };
  }
  const usable = zones.names.map((n, i) => ({ n, id: zones.zoneIds[i] })).filter((z) => !EKS_UNSUPPORTED_ZONE_IDS.includes(z.id));
  if (usable.length < count) {
    throw new DeployTimeError([
      problem("azCount", `at most ${usable.length}: region ${region}'s zones that need no opt-in and whose ids Amazon EKS accepts`, count),
    ]);
  }
  const chosen = usable.slice(0, count);
  return { names: chosen.map((z) => z.n), ids: chosen.map((z) => z.id) };
}
