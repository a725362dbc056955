/**
 * What a policy rule is, the one message format, and how rules read a resource's inputs. The
 * rules live one file per area (network.ts, compute.ts, storage.ts, tags.ts, kubernetes.ts,
 * eks.ts, iam.ts, ecr.ts, logs.ts, lifecycle.ts, k0s.ts, outputs.ts) and are registered by id in rules.ts, which both
 * `lab plan --policy` (evaluate.ts) and the CrossGuard pack (pack/index.ts) read.
 *
 * Two kinds of rules: a {@link Rule} checks one resource's inputs (both runners); a
 * {@link StackRule} checks a stack's outputs, which only the offline plan runs (outputs.ts says why).
 * Each names the Checkov / Trivy controls it mirrors ({@link Controls}), in its `controls` and at
 * the end of its description ({@link mirrors}); each line it reports says what to change.
 *
 * Pure: imports nothing from Pulumi, so the CLI and the tests load the rules without starting a
 * policy server (only lab/policy/pack/index.ts constructs the PolicyPack).
 *
 * A rule's `check(inputs, type)` returns what is wrong, one line each, `[]` when the resource
 * passes; a report names it as `<rule>: <resource name>: <line>` ({@link formatViolation}).
 *
 * Values the offline plan cannot show arrive as "<computed>" (known only at deploy) or "[secret]".
 * Rules treat them by what they check:
 * - a setting that must have a given value (IMDSv2 `required`, `encrypted: true`, no public IPs on
 *   launch, a restricted pod security context): an unknown value is a violation ("got <computed>").
 *   A security control is decided by the program, not by something only a deployment knows.
 * - a setting that must merely be present (a KMS key, a rule description, a tag value, a Job's
 *   deadline, a container's CPU request): an unknown value is present. But an unknown structure
 *   the rule must look into (a pod template, a container's `resources`, `defaultTags`) is a
 *   violation ("must be known before deploy"): what the rule requires cannot be seen in it.
 * - a value that must not be a forbidden one (an open CIDR, an unpinned image): an unknown value
 *   cannot be judged and is skipped; CrossGuard judges it at deploy, when it is known.
 * Under CrossGuard, `pulumi preview` reports a rule that reads a value unknown until deploy as an
 * advisory "can't run policy during preview"; `pulumi up` runs it on the known values.
 *
 * Inputs are read as plain values offline and through CrossGuard's unknown-checking proxies under
 * the pack: no property is read inside a try block, so an unknown value still reaches CrossGuard.
 */
import { COMPUTED, SECRET } from "../plan/markers";

export type EnforcementLevel = "mandatory" | "advisory";

/**
 * The scanners' controls a rule mirrors, by their ids in the scanners' own sources: Checkov
 * (`id = "CKV_AWS_38"` in bridgecrewio/checkov checkov/terraform/checks/resource/aws/*.py and
 * checkov/kubernetes/checks/resource/k8s/*.py) and Trivy (`id: AWS-0041`, `id: KSV-0017` in
 * aquasecurity/trivy-checks checks/cloud/aws/** and checks/kubernetes/*.rego; their older
 * aliases are AVD-AWS-0041, KSV017). Both empty: the lab's own rule, which no scanner has.
 */
export interface Controls {
  readonly checkov: readonly string[];
  readonly trivy: readonly string[];
}

/** What every rule has, whatever it checks. */
export interface RuleInfo {
  /** The rule's stable id: its policy name in the CrossGuard pack and in reports (kebab-case). */
  readonly name: string;
  /** What the rule asks for and why, then {@link mirrors} of its controls. */
  readonly description: string;
  /** mandatory: blocks `pulumi up` (and fails `lab plan --policy`); advisory: reported only. */
  readonly enforcementLevel: EnforcementLevel;
  /** The Checkov / Trivy controls the rule mirrors. */
  readonly controls: Controls;
}

export interface Rule extends RuleInfo {
  /** Pulumi type tokens the rule applies to (`TYPES.<name>` of lab/resource-types.ts). */
  readonly resourceTypes: readonly string[];
  /** What is wrong with a resource of `type` with these inputs, one line each; `[]` when it passes. */
  check(inputs: Record<string, unknown>, type: string): string[];
}

/**
 * A rule over a stack's outputs (not a resource's inputs): `outputs` as the plan shows them
 * (secrets "[secret]", unknown values "<computed>"), `secretOutputNames` the outputs that are
 * secrets, known or not (undefined when the caller cannot tell: then only "[secret]" counts).
 */
export interface StackRule extends RuleInfo {
  /** What is wrong with these outputs, one line each; `[]` when they pass. */
  checkOutputs(outputs: Record<string, unknown>, secretOutputNames: readonly string[] | undefined): string[];
}

/** A resource as a {@link PlanRule} sees it, among the others of its stack. */
export interface PlanResource {
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
  /**
   * Input property → the URNs its value came from: the plan's RegisterResourceRequest
   * `propertyDependencies` (lab/plan/run.ts), CrossGuard's `PolicyResource.propertyDependencies`
   * (@pulumi/policy server.js `getPropertyDependencies`, mapped to the stack's resources). Absent:
   * none known.
   */
  readonly propertyDependencies?: Readonly<Record<string, readonly string[]>>;
}

/**
 * A rule over a stack's resources together (one object needs another: a Service needs a
 * NetworkPolicy in its namespace). Both runners: offline on the plan's resources, and in the
 * CrossGuard pack as a stack validation policy over the deployment's resources.
 */
export interface PlanRule extends RuleInfo {
  /** The type tokens it reads (`TYPES.<name>` of lab/resource-types.ts); it is given only those. */
  readonly resourceTypes: readonly string[];
  /** What is wrong, one finding per line, each on the resource to change. */
  checkResources(resources: readonly PlanResource[]): Array<{ readonly resource: PlanResource; readonly detail: string }>;
}

/** A rule whose id is known to the type checker (the registry's `RuleId` is the union of them). */
export function defineRule<const Id extends string>(rule: Rule & { readonly name: Id }): Rule & { readonly name: Id } {
  return rule;
}

/** A stack rule whose id is known to the type checker. */
export function defineStackRule<const Id extends string>(rule: StackRule & { readonly name: Id }): StackRule & { readonly name: Id } {
  return rule;
}

/** A plan rule whose id is known to the type checker. */
export function definePlanRule<const Id extends string>(rule: PlanRule & { readonly name: Id }): PlanRule & { readonly name: Id } {
  return rule;
}

/** Checkov's controls, then Trivy's: the two lists of {@link Controls}. */
export function controls(checkov: readonly string[], trivy: readonly string[] = []): Controls {
  return { checkov, trivy };
}

/**
 * The sentence a rule's description ends with: `Mirrors Checkov CKV_AWS_38; Trivy AWS-0041.`, or,
 * for a rule no scanner has, `No Checkov or Trivy control: the lab's own rule.`
 */
export function mirrors(c: Controls): string {
  const parts = [
    ...(c.checkov.length > 0 ? [`Checkov ${c.checkov.join(", ")}`] : []),
    ...(c.trivy.length > 0 ? [`Trivy ${c.trivy.join(", ")}`] : []),
  ];
  return parts.length === 0 ? "No Checkov or Trivy control: the lab's own rule." : `Mirrors ${parts.join("; ")}.`;
}

/** The offline plan's placeholders: a value unknown until deploy, a secret (lab/plan/markers.ts). */
export { COMPUTED, SECRET };

/** The one message format: `<rule>: <resource name>: <what is wrong>`. */
export function formatViolation(rule: string, resourceName: string, detail: string): string {
  return `${rule}: ${resourceName}: ${detail}`;
}

export type Obj = Record<string, unknown>;

/** A value the offline plan cannot show: "<computed>" or "[secret]". */
export function isOpaque(v: unknown): v is typeof COMPUTED | typeof SECRET {
  return v === COMPUTED || v === SECRET;
}

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Present: neither missing nor an empty string (an opaque value is present). */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");
}

/** `true` or the string `"true"` (launch templates take booleans as strings). */
export function isTrue(v: unknown): boolean {
  return v === true || v === "true";
}

/** How a value reads in a message: `nothing`, `<computed>`, or JSON. */
export function shown(v: unknown): string {
  if (v === undefined || v === null) return "nothing";
  if (isOpaque(v)) return v;
  return JSON.stringify(v);
}

/** `v` at `path` below `o`; stops at an opaque value and returns it. */
export function dig(o: unknown, path: readonly string[]): unknown {
  let cur = o;
  for (const key of path) {
    if (isOpaque(cur) || !isObj(cur)) return isOpaque(cur) ? cur : undefined;
    cur = cur[key];
  }
  return cur;
}

/** `v` with opaque values (and opaque array entries) removed, deeply. */
export function withoutOpaque(v: unknown): unknown {
  if (isOpaque(v)) return undefined;
  if (Array.isArray(v)) return v.filter((x) => !isOpaque(x)).map(withoutOpaque);
  if (isObj(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) if (!isOpaque(x)) out[k] = withoutOpaque(x);
    return out;
  }
  return v;
}

/** `name[label]`: a list entry named by its `key` field, else by its index. */
export function entry(list: string, item: unknown, index: number, key: string): string {
  const label = isObj(item) && typeof item[key] === "string" && !isOpaque(item[key]) ? (item[key] as string) : String(index);
  return `${list}[${label}]`;
}
