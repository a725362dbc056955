/**
 * The lab's CrossGuard policy pack: `pulumi preview|up --policy-pack lab/policy/pack` runs this
 * file (the Pulumi CLI starts it with the pack directory as working directory; ts-node compiles it).
 *
 * Entry file only: `new PolicyPack(...)` starts the analyzer's gRPC server, so nothing imports
 * this file. The rules are the registry's (lab/policy/rules.ts: one file per area, by stable id),
 * which `lab plan --policy` runs offline (lab/policy/evaluate.ts) with the same messages.
 */
import { PolicyPack, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { formatViolation, PLAN_RULES, RULES } from "../rules";

const policies: ResourceValidationPolicy[] = RULES.map((rule) => ({
  name: rule.name,
  description: rule.description,
  enforcementLevel: rule.enforcementLevel,
  validateResource: (args, reportViolation) => {
    if (!rule.resourceTypes.includes(args.type)) return;
    for (const detail of rule.check(args.props, args.type)) reportViolation(formatViolation(rule.name, args.name, detail));
  },
}));

// The plan rules over the deployment's resources together (@pulumi/policy `StackValidationPolicy`:
// `validateStack(args.resources)`, each with `type`, `name`, `urn`, `props` and `propertyDependencies`
// (input → the stack's resources its value came from, server.js `getPropertyDependencies`), given
// to the rule as URNs; a violation names its resource by URN).
const stackPolicies: StackValidationPolicy[] = PLAN_RULES.map((rule) => ({
  name: rule.name,
  description: rule.description,
  enforcementLevel: rule.enforcementLevel,
  validateStack: (args, reportViolation) => {
    const mine = args.resources
      .filter((r) => rule.resourceTypes.includes(r.type))
      .map((r) => ({
        urn: r.urn,
        type: r.type,
        name: r.name,
        inputs: r.props,
        propertyDependencies: Object.fromEntries(Object.entries(r.propertyDependencies).map(([k, deps]) => [k, deps.map((d) => d.urn)])),
      }));
    for (const { resource, detail } of rule.checkResources(mine))
      reportViolation(formatViolation(rule.name, resource.name, detail), resource.urn);
  },
}));

new PolicyPack("storage-bench-lab", { policies: [...policies, ...stackPolicies] });
