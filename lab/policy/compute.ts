/**
 * Policy rules of compute: EC2 instances and launch templates (their EBS volumes are in
 * storage.ts). Pure (see ./rule.ts for how rules read inputs and unknown values).
 */
import { TYPES as T } from "../resource-types";
import { controls, definePlanRule, defineRule, isObj, isOpaque, isSet, isTrue, mirrors, PlanResource, shown } from "./rule";

/** Checkov IMDSv1Disabled.py (aws_instance, aws_launch_template); Trivy: instances, launch templates. */
export const IMDSV2 = controls(["CKV_AWS_79"], ["AWS-0028", "AWS-0130"]);

export const ec2Imdsv2Required = defineRule({
  name: "ec2-imdsv2-required",
  description:
    'EC2 instances and launch templates require IMDSv2 (`metadataOptions.httpTokens: "required"`, or the metadata ' +
    "endpoint disabled): IMDSv1 hands the instance role's credentials to any request forgery on the host. " +
    mirrors(IMDSV2),
  enforcementLevel: "mandatory",
  controls: IMDSV2,
  resourceTypes: [T.instance, T.launchTemplate],
  check(inputs, type) {
    const options = inputs.metadataOptions;
    if (options === undefined || options === null) {
      // An instance launched from a template without options of its own gets the template's (checked there).
      if (type === T.instance && isSet(inputs.launchTemplate)) return [];
      return ['metadataOptions.httpTokens must be "required", got nothing'];
    }
    if (!isObj(options)) return [`metadataOptions.httpTokens must be "required", got ${shown(options)}`];
    if (options.httpEndpoint === "disabled") return [];
    return options.httpTokens === "required" ? [] : [`metadataOptions.httpTokens must be "required", got ${shown(options.httpTokens)}`];
  },
});

/** Checkov EC2PublicIP.py (aws_instance, aws_launch_template). */
const PUBLIC_IP = controls(["CKV_AWS_88"]);

/**
 * Instances that may have a public address, by their `lab:role` tag, each with why. Only the k0s
 * bastion: the one SSH entry of the ceph-k0s stack, its security group admitting `lab:adminCidrs`
 * only (components/k0s/ports.ts); every node is private.
 */
export const PUBLIC_IP_ROLES: Readonly<Record<string, string>> = {
  bastion: "the k0s stack's SSH entry point (components/k0s), reachable from lab:adminCidrs only",
};

export const ec2NoPublicIp = defineRule({
  name: "ec2-no-public-ip",
  description:
    "EC2 instances and launch templates ask for no public IP address (`associatePublicIpAddress`): the lab's nodes " +
    "live in private subnets and reach the internet through NAT. The one exception is an instance tagged " +
    "`lab:role` with a role of PUBLIC_IP_ROLES (the k0s bastion). " +
    mirrors(PUBLIC_IP),
  enforcementLevel: "mandatory",
  controls: PUBLIC_IP,
  resourceTypes: [T.instance, T.launchTemplate],
  check(inputs, type) {
    if (type === T.instance) {
      const v = inputs.associatePublicIpAddress;
      if (!(isTrue(v) || isOpaque(v))) return [];
      const role = dig1(inputs.tags, "lab:role");
      if (typeof role === "string" && PUBLIC_IP_ROLES[role] !== undefined) return [];
      return [`associatePublicIpAddress must be false (a private subnet, NAT for egress), got ${shown(v)}`];
    }
    const nics = inputs.networkInterfaces;
    if (!Array.isArray(nics)) return [];
    return nics.flatMap((nic, i) =>
      isObj(nic) && (isTrue(nic.associatePublicIpAddress) || isOpaque(nic.associatePublicIpAddress))
        ? [`networkInterfaces[${i}].associatePublicIpAddress must be false, got ${shown(nic.associatePublicIpAddress)}`]
        : [],
    );
  },
});

function dig1(o: unknown, key: string): unknown {
  return isObj(o) ? o[key] : undefined;
}

/**
 * Where an Elastic IP is attached: `aws.ec2.EipAssociation` (`instanceId`, `networkInterfaceId`) or
 * `aws.ec2.Eip` itself (`instance`, `networkInterface`); pulumi-aws schema, both resources.
 */
const EIP_TARGETS: Readonly<Record<string, { readonly instance: string; readonly networkInterface: string }>> = {
  [T.eipAssociation]: { instance: "instanceId", networkInterface: "networkInterfaceId" },
  [T.eip]: { instance: "instance", networkInterface: "networkInterface" },
};

/**
 * What is wrong with one Elastic IP attachment: its instance must be one of the stack's, tied by
 * the property's dependencies (the id itself names no role), tagged with a role of PUBLIC_IP_ROLES.
 */
function eipAttachmentProblems(r: PlanResource, instances: ReadonlyMap<string, PlanResource>): string[] {
  const target = EIP_TARGETS[r.type];
  const roles = Object.keys(PUBLIC_IP_ROLES).join(", ");
  const out: string[] = [];
  if (isSet(r.inputs[target.networkInterface]))
    out.push(
      `${target.networkInterface} attaches an Elastic IP to a network interface (${shown(r.inputs[target.networkInterface])}): ` +
        `attach it by ${target.instance} to an instance of this stack tagged lab:role ${roles}`,
    );
  const id = r.inputs[target.instance];
  if (!isSet(id)) return out;
  const from = (r.propertyDependencies?.[target.instance] ?? []).map((urn) => instances.get(urn)).filter((x) => x !== undefined);
  if (from.length === 0) {
    out.push(
      `${target.instance} ${shown(id)} is not an instance of this stack (its value comes from none): ` +
        `an Elastic IP goes only to this stack's instances tagged lab:role ${roles}`,
    );
    return out;
  }
  for (const instance of from) {
    const role = dig1(instance.inputs.tags, "lab:role");
    if (typeof role === "string" && PUBLIC_IP_ROLES[role] !== undefined) continue;
    out.push(
      `${target.instance} is instance ${instance.name}, whose lab:role is ${shown(role)}: an Elastic IP goes only to instances tagged lab:role ${roles}`,
    );
  }
  return out;
}

export const ec2NoPublicIpEip = definePlanRule({
  name: "ec2-no-public-ip-eip",
  description:
    "ec2-no-public-ip for Elastic IPs: an Elastic IP (`aws.ec2.EipAssociation` `instanceId`, or `aws.ec2.Eip` `instance`) is " +
    "attached only to an instance of the same stack tagged `lab:role` with a role of PUBLIC_IP_ROLES (the k0s bastion), the " +
    "instance found by the property's dependencies; never to a network interface. An address not attached to an instance " +
    "(a NAT gateway's) is not this rule's. " +
    mirrors(controls([])),
  enforcementLevel: "mandatory",
  controls: controls([]),
  resourceTypes: [T.eip, T.eipAssociation, T.instance],
  checkResources: (resources) => {
    const instances = new Map(resources.filter((r) => r.type === T.instance).map((r) => [r.urn, r]));
    return resources
      .filter((r) => r.type !== T.instance)
      .flatMap((r) => eipAttachmentProblems(r, instances).map((detail) => ({ resource: r, detail })));
  },
});

/** The compute area's rules (one by one). */
export const COMPUTE_RULES = [ec2Imdsv2Required, ec2NoPublicIp] as const;
/** The compute area's rules over a stack's resources together. */
export const COMPUTE_PLAN_RULES = [ec2NoPublicIpEip] as const;
