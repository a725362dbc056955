/**
 * Policy rules of compute: EC2 instances and launch templates (their EBS volumes are in
 * storage.ts). Pure (see ./rule.ts for how rules read inputs and unknown values).
 */
import { TYPES as T } from "../resource-types";
import { controls, defineRule, isObj, isSet, mirrors, shown } from "./rule";

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

/** The compute area's rules. */
export const COMPUTE_RULES = [ec2Imdsv2Required] as const;
