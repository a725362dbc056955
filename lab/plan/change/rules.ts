/**
 * What a changed input does to a resource of the lab, by type: replaces it (and by which rule, with
 * its source), updates it in place, or is unknown. Pure: the rules are data, each with the upstream
 * file it was read in.
 *
 * Order of the rules for one changed input path of one resource:
 * 1. the resource's own options, as the program registered them (the plan records them from the
 *    RegisterResourceRequest): `replaceOnChanges` replaces (this is where @pulumi/command's
 *    `triggers[*]` arrives: its SDK merges `replaceOnChanges: ["triggers[*]"]` into every
 *    Command's options, @pulumi/command 1.2.1 local/command.js and remote/command.js);
 *    `ignoreChanges` drops the change;
 * 2. the provider's rule for the type: @pulumi/command (./rules.ts COMMAND), pulumi-kubernetes'
 *    force-new table (./kubernetes.ts), the AWS provider's force-new inputs (./aws.ts), the other
 *    providers below;
 * 3. otherwise unknown: never an update by default.
 */
import { AWS_RULES, AWS_SOURCE } from "./aws";
import { kubernetesForceNew, KUBERNETES_SOURCE } from "./kubernetes";
import { covers } from "./paths";
import { COMPUTED, SECRET } from "../markers";

/** A provider's rule for one type: the inputs that replace, the ones known to update in place, and what other inputs do. */
export interface TypeRule {
  /** Input paths whose change replaces the resource. */
  readonly replaces: readonly string[];
  /** Input paths whose change is an in-place update (where the rest is unknown). */
  readonly updates: readonly string[];
  /** Inputs that replace only when a boolean input of the resource is true: path → that input. */
  readonly replacesWhen?: Readonly<Record<string, string>>;
  /** What a change of any other input does: `update` only where the source says so for every other input. */
  readonly otherwise: "update" | "unknown";
  /** Where the rule is written. */
  readonly source: string;
}

export type Verdict = "replace" | "update" | "ignored" | "unknown";

export interface InputVerdict {
  readonly path: string;
  readonly verdict: Verdict;
  /** The rule: `replaceOnChanges: triggers[*]`, `force-new .spec.template`, … */
  readonly rule: string;
  /** Where the rule is written. */
  readonly source: string;
}

export const COMMAND_SOURCE =
  '@pulumi/command 1.2.1 local/command.js (replaceOnChanges: ["triggers[*]"]); pulumi/pulumi-command v1.2.1 ' +
  'provider/pkg/provider/common/inputs.go (triggers tagged provider:"replaceOnChanges"), ' +
  "provider/pkg/provider/local/commandController.go (Update runs `update`, else `create`; never `delete`)";

/**
 * @pulumi/command: `triggers` replace (also through the option the SDK adds); every other input is
 * an update, which runs `update` (or `create` when there is none) and never `delete`.
 */
export const COMMAND: TypeRule = { replaces: ["triggers"], updates: [], otherwise: "update", source: COMMAND_SOURCE };

/** Rules of the other providers' types the lab creates, each with its source. */
export const OTHER_RULES: Readonly<Record<string, TypeRule>> = {
  "command:local:Command": COMMAND,
  "command:remote:Command": COMMAND,
};

/** The provider's rule for a type token, if the lab knows one. */
export function typeRule(token: string): TypeRule | undefined {
  if (OTHER_RULES[token]) return OTHER_RULES[token];
  const k8s = kubernetesForceNew(token);
  if (k8s !== undefined) return { replaces: k8s, updates: [], otherwise: "update", source: KUBERNETES_SOURCE };
  const aws = AWS_RULES[token];
  if (aws) return { ...aws, otherwise: "unknown", source: `${AWS_SOURCE}: ${aws.source}` };
  return undefined;
}

/** The resource options that take part (see run.ts `ResourceLifecycleOptions`). */
export interface RuleOptions {
  readonly replaceOnChanges: readonly string[];
  readonly ignoreChanges: readonly string[];
}

/** What one changed input path does to a resource of `token` with `options` and (new) `inputs`. */
export function judgeInput(
  token: string,
  path: string,
  options: RuleOptions,
  inputs: Readonly<Record<string, unknown>> = {},
): InputVerdict {
  const ignored = options.ignoreChanges.find((p) => covers(p, path) && segmentsAtLeast(path, p));
  if (ignored !== undefined) {
    return { path, verdict: "ignored", rule: `ignored (ignoreChanges: ${ignored})`, source: "the resource's options (the program)" };
  }
  const byOption = options.replaceOnChanges.find((p) => covers(p, path));
  if (byOption !== undefined) {
    const sdk = token.startsWith("command:") && byOption === "triggers[*]";
    return {
      path,
      verdict: "replace",
      rule: `replaces (replaceOnChanges: ${byOption}${sdk ? ", added by the @pulumi/command SDK to every Command" : ""})`,
      source: sdk ? COMMAND_SOURCE : "the resource's options (the program)",
    };
  }
  const rule = typeRule(token);
  if (rule === undefined) return { path, verdict: "unknown", rule: `unknown: no replacement rule known for ${token}`, source: "" };
  const conditional = Object.entries(rule.replacesWhen ?? {}).find(([p]) => covers(p, path));
  if (conditional !== undefined) {
    const [p, flag] = conditional;
    const value = inputs[flag];
    if (value === true) return { path, verdict: "replace", rule: `replaces (force-new ${p} when ${flag} is true)`, source: rule.source };
    if (value === COMPUTED || value === SECRET)
      return { path, verdict: "unknown", rule: `unknown: ${p} is force-new when ${flag} is true, which is ${value}`, source: rule.source };
  }
  const replacing = rule.replaces.find((p) => p === "*" || covers(p, path));
  if (replacing !== undefined) return { path, verdict: "replace", rule: `replaces (force-new ${replacing})`, source: rule.source };
  const updating = rule.updates.find((p) => covers(p, path) && segmentsAtLeast(path, p));
  if (updating !== undefined) return { path, verdict: "update", rule: `in place (${updating} updates in place)`, source: rule.source };
  if (rule.otherwise === "update") return { path, verdict: "update", rule: "in place (not a replacing input)", source: rule.source };
  return { path, verdict: "unknown", rule: `unknown: no rule for this input of ${token}`, source: rule.source };
}

/** Whether `path` is at or under `rule` (an ignored or in-place rule covers its own subtree, not its parent). */
function segmentsAtLeast(path: string, rule: string): boolean {
  return path.replace(/\[(\*|\d+)\]/g, ".$1").split(".").length >= rule.replace(/\[(\*|\d+)\]/g, ".$1").split(".").length;
}
