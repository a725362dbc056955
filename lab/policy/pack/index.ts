/**
 * The lab's CrossGuard policy pack: `pulumi preview|up --policy-pack lab/policy/pack` runs this
 * file (the Pulumi CLI starts it with the pack directory as working directory; ts-node compiles it).
 *
 * Entry file only: `new PolicyPack(...)` starts the analyzer's gRPC server, so nothing imports
 * this file. The rules are the registry's (lab/policy/rules.ts: one file per area, by stable id),
 * which `lab plan --policy` runs offline (lab/policy/evaluate.ts) with the same messages.
 */
import { PolicyPack, ResourceValidationPolicy } from "@pulumi/policy";
import { formatViolation, RULES } from "../rules";

const policies: ResourceValidationPolicy[] = RULES.map((rule) => ({
  name: rule.name,
  description: rule.description,
  enforcementLevel: rule.enforcementLevel,
  validateResource: (args, reportViolation) => {
    if (!rule.resourceTypes.includes(args.type)) return;
    for (const detail of rule.check(args.props, args.type)) reportViolation(formatViolation(rule.name, args.name, detail));
  },
}));

new PolicyPack("storage-bench-lab", { policies });
