/**
 * Policy rules of compute: EC2 instances and launch templates (their EBS volumes are in
 * storage.ts). Pure (see ./rule.ts for how rules read inputs and unknown values).
 */
import { TYPES as T } from "../resource-types";
import { controls, defineRule, isObj, isOpaque, isSet, isTrue, mirrors, shown } from "./rule";

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

/** The compute area's rules. */
export const COMPUTE_RULES = [ec2Imdsv2Required, ec2NoPublicIp] as const;
