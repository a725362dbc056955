/**
 * Policy rules of IAM policy documents: no `*` action, and no `*` resource except where a service
 * documents that it needs one ({@link IAM_WILDCARD_RESOURCE_EXCEPTIONS}, each with its source).
 * They read every document the lab writes: `policy` of aws.iam.Policy, RolePolicy, UserPolicy and
 * GroupPolicy, and `inlinePolicies[].policy` of aws.iam.Role (a role's trust policy names
 * principals, not resources: not read). AWS managed policies attached by ARN are AWS's, not read.
 * Pure (see ./rule.ts for how rules read inputs and unknown values).
 */
import { TRIDENT_FSX_ACTIONS } from "../../components/trident/iam";
import { TYPES as T } from "../resource-types";
import { controls, defineRule, entry, isObj, isOpaque, mirrors, Obj } from "./rule";

/** A statement whose actions need `"Resource": "*"`, as the service's own documentation writes it. */
export interface WildcardResourceException {
  /** A short name of the exception, for messages and reviews. */
  readonly name: string;
  /** The actions: a statement on `*` passes when every action it allows is one of these. */
  readonly actions: readonly string[];
  /** Where the service says so. */
  readonly source: string;
}

/**
 * The one list of statements allowed on `"Resource": "*"`. An entry is added with the page that
 * documents it, never to silence a finding.
 */
export const IAM_WILDCARD_RESOURCE_EXCEPTIONS: readonly WildcardResourceException[] = [
  {
    name: "trident-fsx-api",
    actions: TRIDENT_FSX_ACTIONS,
    source:
      'NetApp Trident, "Create an IAM role and AWS Secret" (docs.netapp.com/us-en/trident/trident-use/trident-fsx-iam-role.html): ' +
      'the policy Trident needs grants these FSx actions on "Resource": "*" (Trident creates volumes whose ARNs do not exist yet)',
  },
];

/** Where a resource of `type` keeps its policy documents, each with the path a message names. */
function documents(inputs: Obj, type: string): Array<{ where: string; doc: unknown }> {
  if (type !== T.iamRole) return [{ where: "policy", doc: inputs.policy }];
  const inline = inputs.inlinePolicies;
  if (!Array.isArray(inline)) return [];
  return inline.map((p, i) => ({ where: `${entry("inlinePolicies", p, i, "name")}.policy`, doc: isObj(p) ? p.policy : undefined }));
}

interface Statement {
  /** `policy Statement[0] (TridentFsxApi)`. */
  readonly where: string;
  readonly s: Obj;
}

/** The Allow statements of every document, or the line saying a document is not a policy. */
function allowStatements(inputs: Obj, type: string): { statements: Statement[]; problems: string[] } {
  const statements: Statement[] = [];
  const problems: string[] = [];
  for (const { where, doc } of documents(inputs, type)) {
    // A document unknown until deploy cannot be judged here; CrossGuard judges it at deploy.
    if (doc === undefined || doc === null || isOpaque(doc)) continue;
    let parsed: unknown = doc;
    if (typeof doc === "string") {
      try {
        parsed = JSON.parse(doc);
      } catch {
        problems.push(`${where} must be a JSON policy document, got ${JSON.stringify(doc.slice(0, 40))}`);
        continue;
      }
    }
    const list = isObj(parsed) ? parsed.Statement : undefined;
    const all = Array.isArray(list) ? list : isObj(list) ? [list] : [];
    all.forEach((s, i) => {
      if (!isObj(s) || (s.Effect ?? "Allow") !== "Allow") return;
      const sid = typeof s.Sid === "string" && s.Sid !== "" ? ` (${s.Sid})` : "";
      statements.push({ where: `${where} Statement[${i}]${sid}`, s });
    });
  }
  return { statements, problems };
}

/** A statement field as a list of known strings (a string alone is a list of one). */
function strings(v: unknown): string[] {
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is string => typeof x === "string" && !isOpaque(x));
}

/** `*`, or every action of a service (`s3:*`). */
function isWildcardAction(action: string): boolean {
  return action === "*" || /^[a-z0-9-]+:\*$/i.test(action);
}

const WILDCARD_ACTIONS = controls(["CKV_AWS_62", "CKV_AWS_63"], ["AWS-0057"]);

export const iamNoWildcardActions = defineRule({
  name: "iam-no-wildcard-actions",
  description:
    'IAM policy statements that allow name their actions: no `"*"`, no whole service (`"s3:*"`), no `NotAction` ' +
    "(which allows everything else). " +
    mirrors(WILDCARD_ACTIONS),
  enforcementLevel: "mandatory",
  controls: WILDCARD_ACTIONS,
  resourceTypes: [T.iamPolicy, T.iamRolePolicy, T.iamUserPolicy, T.iamGroupPolicy, T.iamRole],
  check(inputs, type) {
    const { statements, problems } = allowStatements(inputs, type);
    const out = [...problems];
    for (const { where, s } of statements) {
      if (s.NotAction !== undefined) out.push(`${where} allows with NotAction (every other action): list the actions it needs in Action`);
      for (const action of strings(s.Action).filter(isWildcardAction))
        out.push(`${where} allows action ${JSON.stringify(action)}: list the actions it needs`);
    }
    return out;
  },
});

const WILDCARD_RESOURCES = controls(["CKV_AWS_355", "CKV_AWS_290"], ["AWS-0057"]);

/** The exception whose actions cover every action of the statement, if any. */
export function wildcardException(actions: readonly string[]): WildcardResourceException | undefined {
  if (actions.length === 0) return undefined;
  return IAM_WILDCARD_RESOURCE_EXCEPTIONS.find((e) => actions.every((a) => e.actions.includes(a)));
}

export const iamNoWildcardResources = defineRule({
  name: "iam-no-wildcard-resources",
  description:
    'IAM policy statements that allow name their resources: no `"Resource": "*"` and no `NotResource`, except for ' +
    "the statements a service documents as needing `*` (IAM_WILDCARD_RESOURCE_EXCEPTIONS in lab/policy/iam.ts, each " +
    "with its source). " +
    mirrors(WILDCARD_RESOURCES),
  enforcementLevel: "mandatory",
  controls: WILDCARD_RESOURCES,
  resourceTypes: [T.iamPolicy, T.iamRolePolicy, T.iamUserPolicy, T.iamGroupPolicy, T.iamRole],
  check(inputs, type) {
    // A document that is not JSON is iam-no-wildcard-actions' finding, reported once there.
    const { statements } = allowStatements(inputs, type);
    const out: string[] = [];
    for (const { where, s } of statements) {
      const actions = strings(s.Action);
      const what = actions.length > 0 ? actions.join(", ") : "its actions";
      if (s.NotResource !== undefined)
        out.push(`${where} allows ${what} with NotResource (every other resource): name the resources in Resource`);
      if (!strings(s.Resource).includes("*") || wildcardException(actions) !== undefined) continue;
      out.push(
        `${where} allows ${what} on Resource "*": name the resources (ARNs), or, where the service documents that it ` +
          "needs *, list the statement in IAM_WILDCARD_RESOURCE_EXCEPTIONS with its source",
      );
    }
    return out;
  },
});

/** The IAM area's rules. */
export const IAM_RULES = [iamNoWildcardActions, iamNoWildcardResources] as const;
