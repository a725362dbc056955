/**
 * Policy rules of the network: security groups and their rules, subnets. Pure (see ./rule.ts for
 * how rules read inputs and unknown values).
 */
import { TYPES as T } from "../resource-types";
import { controls, defineRule, isObj, isOpaque, isSet, isTrue, mirrors, Obj, shown } from "./rule";

/** A CIDR with prefix length 0: every address (0.0.0.0/0, ::/0, …). */
export function isOpenCidr(v: unknown): v is string {
  return typeof v === "string" && !isOpaque(v) && /\/0+$/.test(v.trim());
}

/** `tcp 22`, `tcp 6800-7300`, `icmp`, `all traffic`. */
function traffic(protocol: unknown, from: unknown, to: unknown): string {
  const p = protocol === undefined || protocol === null ? "?" : String(protocol);
  if (p === "-1" || p === "all") return "all traffic";
  if (typeof from !== "number" || from < 0) return p;
  return to === undefined || to === from ? `${p} ${from}` : `${p} ${from}-${String(to)}`;
}

function openIngress(prefix: string, rule: Obj, cidrKeys: readonly string[], protocolKey: string): string[] {
  const out: string[] = [];
  const what = traffic(rule[protocolKey], rule.fromPort, rule.toPort);
  for (const key of cidrKeys) {
    const value = rule[key];
    const cidrs = Array.isArray(value) ? value : [value];
    for (const cidr of cidrs)
      if (isOpenCidr(cidr))
        out.push(
          `${prefix} ${what} from ${cidr.trim()} (${key}) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead`,
        );
  }
  return out;
}

/** Checkov: SSH, RDP, HTTP and any port from 0.0.0.0/0 (SecurityGroupUnrestrictedIngress*.py); Trivy: no public ingress. */
const OPEN_INGRESS = controls(["CKV_AWS_24", "CKV_AWS_25", "CKV_AWS_260", "CKV_AWS_277"], ["AWS-0107"]);

export const sgNoOpenIngress = defineRule({
  name: "sg-no-open-ingress",
  description:
    "No security group ingress from 0.0.0.0/0 or ::/0 (any prefix length 0): the lab opens ports to the VPC, to other " +
    "security groups or to the operator's own CIDRs only, never a port to the whole internet. " +
    mirrors(OPEN_INGRESS),
  enforcementLevel: "mandatory",
  controls: OPEN_INGRESS,
  resourceTypes: [T.ingressRule, T.securityGroupRule, T.securityGroup, T.defaultSecurityGroup],
  check(inputs, type) {
    if (type === T.ingressRule) return openIngress("ingress", inputs, ["cidrIpv4", "cidrIpv6"], "ipProtocol");
    if (type === T.securityGroupRule) {
      return inputs.type === "ingress" ? openIngress("ingress", inputs, ["cidrBlocks", "ipv6CidrBlocks"], "protocol") : [];
    }
    const ingress = inputs.ingress;
    if (!Array.isArray(ingress)) return [];
    return ingress.flatMap((rule, i) =>
      isObj(rule) ? openIngress(`ingress[${i}]`, rule, ["cidrBlocks", "ipv6CidrBlocks"], "protocol") : [],
    );
  },
});

const RULE_DESCRIPTION = controls(["CKV_AWS_23"], ["AWS-0099", "AWS-0124"]);
const NO_DESCRIPTION = "description is not set: say what the rule is for (which port, from whom, why)";

export const sgRuleDescription = defineRule({
  name: "sg-rule-description",
  description:
    "Every security group rule says what it is for (`description`), so that a review of the group can tell a needed " +
    "opening from a forgotten one. Advisory: it documents exposure, it does not change it. " +
    mirrors(RULE_DESCRIPTION),
  enforcementLevel: "advisory",
  controls: RULE_DESCRIPTION,
  resourceTypes: [T.ingressRule, T.egressRule, T.securityGroupRule, T.securityGroup, T.defaultSecurityGroup],
  check(inputs, type) {
    if (type !== T.securityGroup && type !== T.defaultSecurityGroup) return isSet(inputs.description) ? [] : [NO_DESCRIPTION];
    const out: string[] = [];
    for (const direction of ["ingress", "egress"]) {
      const rules = inputs[direction];
      if (!Array.isArray(rules)) continue;
      rules.forEach((rule, i) => {
        if (isObj(rule) && !isSet(rule.description)) out.push(`${direction}[${i}]: ${NO_DESCRIPTION}`);
      });
    }
    return out;
  },
});

const SUBNET_PUBLIC_IP = controls(["CKV_AWS_130"], ["AWS-0164"]);

export const subnetNoPublicIpOnLaunch = defineRule({
  name: "subnet-no-public-ip-on-launch",
  description:
    "Subnets do not give instances a public IP on launch (`mapPublicIpOnLaunch`), public subnets included: an " +
    "instance that needs one (the bastion) asks for it itself. " +
    mirrors(SUBNET_PUBLIC_IP),
  enforcementLevel: "mandatory",
  controls: SUBNET_PUBLIC_IP,
  resourceTypes: [T.subnet],
  check(inputs) {
    const v = inputs.mapPublicIpOnLaunch;
    return isTrue(v) || isOpaque(v) ? [`mapPublicIpOnLaunch must be false, got ${shown(v)}`] : [];
  },
});

/** Checkov: "Ensure no security groups allow egress from 0.0.0.0:0 to port -1". */
const ALL_EGRESS = controls(["CKV_AWS_382"]);

/**
 * Egress rules of every protocol to the internet the lab keeps, by their exact `description`, each
 * with why. A rule whose description changes is judged again.
 */
export const ALL_EGRESS_EXCEPTIONS: Readonly<Record<string, string>> = {
  "all egress (packages, images, NTP)":
    "the k0s nodes and bastion (components/k0s): k0sctl installs k0s and the nodes pull images from public registries through the NAT gateway; narrowing it to HTTPS, NTP and DNS is open (issue 32)",
};

function allEgress(prefix: string, rule: Obj, cidrKeys: readonly string[], protocolKey: string): string[] {
  const p = rule[protocolKey];
  if (!(p === "-1" || p === -1 || p === "all")) return [];
  if (typeof rule.description === "string" && ALL_EGRESS_EXCEPTIONS[rule.description] !== undefined) return [];
  return cidrKeys.flatMap((key) => {
    const value = rule[key];
    return (Array.isArray(value) ? value : [value])
      .filter(isOpenCidr)
      .map(
        (cidr) =>
          `${prefix} all traffic to ${cidr.trim()} (${key}): allow the ports the instances use (HTTPS for images and packages, NTP, DNS) or the VPC's CIDR`,
      );
  });
}

export const sgNoAllEgressToInternet = defineRule({
  name: "sg-no-all-egress-to-internet",
  description:
    "No security group egress of every protocol and port to 0.0.0.0/0 or ::/0: a compromised instance could send " +
    "anything anywhere. Exempt only the rules of ALL_EGRESS_EXCEPTIONS (by description, each with why: the k0s nodes' " +
    "egress for packages, images and NTP). The EKS nodes' group is EKS's own; FSx's egress is the VPC's CIDR. " +
    mirrors(ALL_EGRESS),
  enforcementLevel: "mandatory",
  controls: ALL_EGRESS,
  resourceTypes: [T.egressRule, T.securityGroupRule, T.securityGroup],
  check(inputs, type) {
    if (type === T.egressRule) return allEgress("egress", inputs, ["cidrIpv4", "cidrIpv6"], "ipProtocol");
    if (type === T.securityGroupRule) {
      return inputs.type === "egress" ? allEgress("egress", inputs, ["cidrBlocks", "ipv6CidrBlocks"], "protocol") : [];
    }
    const egress = inputs.egress;
    if (!Array.isArray(egress)) return [];
    return egress.flatMap((rule, i) => (isObj(rule) ? allEgress(`egress[${i}]`, rule, ["cidrBlocks", "ipv6CidrBlocks"], "protocol") : []));
  },
});

/** The network area's rules. */
export const NETWORK_RULES = [sgNoOpenIngress, sgRuleDescription, subnetNoPublicIpOnLaunch, sgNoAllEgressToInternet] as const;
