/**
 * The lab's policy rules run offline, on planned resources (`lab plan --policy`): the same rules
 * the CrossGuard pack (lab/policy/pack) runs during `pulumi preview` and `pulumi up`; and on the
 * planned stack outputs, the stack rules the pack cannot run (./outputs.ts).
 *
 * Pure: the resources are plain data, e.g. lab/plan/run.ts `PlannedResource`s, whose inputs show
 * values unknown until deploy as "<computed>" and secrets as "[secret]" (see lab/policy/rule.ts
 * for how each kind of rule treats them). The rules are the registry's (lab/policy/rules.ts).
 */
import { EnforcementLevel, formatViolation, PLAN_RULES, PlanRule, Rule, RULES, STACK_RULES, StackRule } from "./rules";

/** What a rule needs of a resource (a `PlannedResource` has these fields and more). */
export interface PolicyResource {
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
  /** Input property → the URNs its value came from (a plan rule ties resources by them; rule.ts PlanResource). */
  readonly propertyDependencies?: Readonly<Record<string, readonly string[]>>;
}

export interface Violation {
  readonly rule: string;
  readonly enforcementLevel: EnforcementLevel;
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  /** `<rule>: <resource name>: <what is wrong>`, exactly what the CrossGuard pack reports. */
  readonly message: string;
}

const LEVEL_ORDER: Record<EnforcementLevel, number> = { mandatory: 0, advisory: 1 };

/** The violation of `rule` that `detail` describes on `resource`. */
function violation(rule: { name: string; enforcementLevel: EnforcementLevel }, resource: PolicyResource, detail: string): Violation {
  return {
    rule: rule.name,
    enforcementLevel: rule.enforcementLevel,
    urn: resource.urn,
    type: resource.type,
    name: resource.name,
    message: formatViolation(rule.name, resource.name, detail),
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Mandatory before advisory, then by rule name, resource URN and message (code-unit order). */
export function compareViolations(a: Violation, b: Violation): number {
  return (
    LEVEL_ORDER[a.enforcementLevel] - LEVEL_ORDER[b.enforcementLevel] ||
    cmp(a.rule, b.rule) ||
    cmp(a.urn, b.urn) ||
    cmp(a.message, b.message)
  );
}

/**
 * Every violation of `rules` by `resources`, sorted by {@link compareViolations}. A rule applies to
 * the resources whose type it lists. A rule that throws on a resource is reported as a violation
 * of that rule ("could not be evaluated: …"), never skipped.
 */
export function evaluatePolicies(resources: readonly PolicyResource[], rules: readonly Rule[] = RULES): Violation[] {
  const out: Violation[] = [];
  for (const resource of resources) {
    for (const rule of rules) {
      if (!rule.resourceTypes.includes(resource.type)) continue;
      let details: string[];
      try {
        details = rule.check(resource.inputs, resource.type);
      } catch (e) {
        details = [`could not be evaluated: ${e instanceof Error ? e.message : String(e)}`];
      }
      for (const detail of details) out.push(violation(rule, resource, detail));
    }
  }
  return out.sort(compareViolations);
}

/**
 * Every violation of the plan rules by a stack's resources taken together, each reported on the
 * resource it names, sorted like {@link evaluatePolicies}. A rule is given the resources of its
 * types only; one that throws is reported on the first of them ("could not be evaluated: …").
 */
export function evaluatePlanRules(resources: readonly PolicyResource[], rules: readonly PlanRule[] = PLAN_RULES): Violation[] {
  const out: Violation[] = [];
  for (const rule of rules) {
    const mine = resources.filter((r) => rule.resourceTypes.includes(r.type));
    if (mine.length === 0) continue;
    let found: Array<{ resource: PolicyResource; detail: string }>;
    try {
      found = rule.checkResources(mine);
    } catch (e) {
      found = [{ resource: mine[0], detail: `could not be evaluated: ${e instanceof Error ? e.message : String(e)}` }];
    }
    for (const { resource, detail } of found) out.push(violation(rule, resource, detail));
  }
  return out.sort(compareViolations);
}

/** What a stack rule needs of a plan (a lab/plan/run.ts `StackPlan` has these fields and more). */
export interface PolicyStack {
  readonly stack: string;
  /** Outputs as the plan shows them: secrets "[secret]", values unknown until deploy "<computed>". */
  readonly outputs: Record<string, unknown>;
  /** The outputs that are secrets, known or not; without it only "[secret]" values count as secrets. */
  readonly secretOutputNames?: readonly string[];
  /** The stack's resources, for {@link evaluatePlan}. */
  readonly resources?: readonly PolicyResource[];
}

/** The project, as the root stack resource's URN and name carry it (`urn:pulumi:<stack>::<project>::pulumi:pulumi:Stack::<project>-<stack>`). */
const PROJECT = "storage-bench-lab";
/** Pulumi's token of a stack's root resource, whose outputs the stack exports. */
export const STACK_TYPE = "pulumi:pulumi:Stack";

/**
 * Every violation of the stack rules by a stack's outputs, reported on the stack's root resource
 * (`storage-bench-lab-<stack>`, Pulumi's name for it), sorted like {@link evaluatePolicies}.
 */
export function evaluateStackOutputs(stack: PolicyStack, rules: readonly StackRule[] = STACK_RULES): Violation[] {
  const name = `${PROJECT}-${stack.stack}`;
  const urn = `urn:pulumi:${stack.stack}::${PROJECT}::${STACK_TYPE}::${name}`;
  const out: Violation[] = [];
  for (const rule of rules) {
    let details: string[];
    try {
      details = rule.checkOutputs(stack.outputs, stack.secretOutputNames);
    } catch (e) {
      details = [`could not be evaluated: ${e instanceof Error ? e.message : String(e)}`];
    }
    for (const detail of details)
      out.push({
        rule: rule.name,
        enforcementLevel: rule.enforcementLevel,
        urn,
        type: STACK_TYPE,
        name,
        message: formatViolation(rule.name, name, detail),
      });
  }
  return out.sort(compareViolations);
}

/**
 * A planned stack's violations: its resources' one by one ({@link evaluatePolicies}) and together
 * ({@link evaluatePlanRules}), and its outputs' ({@link evaluateStackOutputs}), sorted.
 */
export function evaluatePlan(plan: PolicyStack): Violation[] {
  const resources = plan.resources ?? [];
  return [...evaluatePolicies(resources), ...evaluatePlanRules(resources), ...evaluateStackOutputs(plan)].sort(compareViolations);
}

/** True when any violation is mandatory (what fails `pulumi up`, and `lab plan --policy`). */
export function hasMandatory(violations: readonly Violation[]): boolean {
  return violations.some((v) => v.enforcementLevel === "mandatory");
}
