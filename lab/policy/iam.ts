/**
 * Policy rules of IAM policy documents: no `*` action, and no `*` resource except where a service
 * documents that it needs one ({@link IAM_WILDCARD_RESOURCE_EXCEPTIONS}, each with its source).
 * They read every document the lab writes: `policy` of aws.iam.Policy, RolePolicy, UserPolicy and
 * GroupPolicy, and `inlinePolicies[].policy` of aws.iam.Role (a role's trust policy names
 * principals, not resources: not read). AWS managed policies attached by ARN are AWS's, not read.
 * Pure (see ./rule.ts for how rules read inputs and unknown values).
 */
import { EBS_CSI_DESCRIBE_ACTIONS } from "../../components/eks/iam";
import { TRIDENT_FSX_DESCRIBE_ACTIONS } from "../../components/trident/iam";
import { TYPES as T } from "../resource-types";
import { LAB_IAM_PATH } from "../../components/lib/iam";
import { controls, defineRule, entry, isObj, isOpaque, mirrors, Obj, shown } from "./rule";

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
    name: "trident-fsx-describe",
    actions: TRIDENT_FSX_DESCRIBE_ACTIONS,
    source:
      'Service Authorization Reference, "Actions, resources, and condition keys for Amazon FSx" ' +
      "(docs.aws.amazon.com/service-authorization/latest/reference/list_amazonfsx.html): DescribeFileSystems, DescribeVolumes and " +
      "DescribeStorageVirtualMachines have no resource type; Trident calls them (NetApp, docs.netapp.com/us-en/trident/trident-use/trident-fsx-iam-role.html)",
  },
  {
    name: "ebs-csi-describe",
    actions: EBS_CSI_DESCRIBE_ACTIONS,
    source:
      'Service Authorization Reference, "Actions, resources, and condition keys for Amazon EC2" ' +
      "(docs.aws.amazon.com/service-authorization/latest/reference/list_amazonec2.html): the seven Describe actions have no resource type " +
      "(EC2 User Guide: ec2:Describe* actions do not support resource-level permissions); the EBS CSI controller calls them " +
      "(https://github.com/kubernetes-sigs/aws-ebs-csi-driver v1.57.1 docs/example-iam-policy.json:7-13)",
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

// No Trivy id: AVD-AWS-0057 ("no-policy-wildcards") is `deprecated: true` with an empty package upstream
// (aquasecurity/trivy-checks checks/cloud/aws/iam/no_policy_wildcards.rego, no rule), so it checks nothing.
const WILDCARD_ACTIONS = controls(["CKV_AWS_62", "CKV_AWS_63"]);

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

// No Trivy id: AVD-AWS-0057 is deprecated and empty (above).
const WILDCARD_RESOURCES = controls(["CKV_AWS_355", "CKV_AWS_290"]);

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

/**
 * The conditions a role's trust policy carries for a service principal, so that only the lab's own
 * use of the service can assume it (the confused-deputy problem, IAM User Guide "The confused
 * deputy problem"). A service not listed here is refused unless it is in
 * {@link UNCONDITIONED_TRUST_EXCEPTIONS}.
 */
export const TRUST_CONDITIONS: Readonly<Record<string, { readonly keys: readonly string[]; readonly source: string }>> = {
  "pods.eks.amazonaws.com": {
    keys: ["aws:RequestTag/eks-cluster-name", "aws:RequestTag/kubernetes-namespace", "aws:RequestTag/kubernetes-service-account"],
    source: 'EKS User Guide, "Create IAM role with trust policy required by EKS Pod Identity" (pod-id-role), "Setting Conditions"',
  },
  "vpc-flow-logs.amazonaws.com": {
    keys: ["aws:SourceAccount", "aws:SourceArn"],
    source: 'VPC User Guide, "IAM role for publishing flow logs to CloudWatch Logs" (confused deputy prevention)',
  },
};

/** Service principals whose trust the service's own documentation writes without a condition. */
export const UNCONDITIONED_TRUST_EXCEPTIONS: Readonly<Record<string, string>> = {
  "ec2.amazonaws.com":
    'EKS User Guide, "Amazon EKS node IAM role" (create-node-role): the node role trusts ec2.amazonaws.com, assumed through the nodes\' instance profile',
  "eks.amazonaws.com": 'EKS User Guide, "Amazon EKS cluster IAM role" (cluster-iam-role): the cluster role trusts eks.amazonaws.com',
};

const TRUST_CONDITIONS_CONTROLS = controls([], []);

/** The condition keys a statement names, whatever the operator. */
function conditionKeys(s: Obj): string[] {
  const c = s.Condition;
  if (!isObj(c)) return [];
  return Object.values(c).flatMap((byKey) => (isObj(byKey) ? Object.keys(byKey) : []));
}

export const iamRoleTrustConditions = defineRule({
  name: "iam-role-trust-conditions",
  description:
    "A role's trust policy names who may assume it narrowly: a Pod Identity role one service account of one cluster " +
    "(session-tag conditions), a flow-log role this account's flow logs (aws:SourceAccount, aws:SourceArn); an AWS " +
    "account or role principal, or another service, only with a condition, except the services whose documentation " +
    "writes their trust without one (TRUST_CONDITIONS and UNCONDITIONED_TRUST_EXCEPTIONS in lab/policy/iam.ts). " +
    mirrors(TRUST_CONDITIONS_CONTROLS),
  enforcementLevel: "mandatory",
  controls: TRUST_CONDITIONS_CONTROLS,
  resourceTypes: [T.iamRole],
  check(inputs) {
    const doc = inputs.assumeRolePolicy;
    // Unknown until deploy (built from other resources' outputs): CrossGuard judges it at deploy.
    if (doc === undefined || doc === null || isOpaque(doc)) return [];
    let parsed: unknown = doc;
    if (typeof doc === "string") {
      try {
        parsed = JSON.parse(doc);
      } catch {
        return [`assumeRolePolicy must be a JSON policy document, got ${JSON.stringify(doc.slice(0, 40))}`];
      }
    }
    const list = isObj(parsed) ? parsed.Statement : undefined;
    const all = Array.isArray(list) ? list : isObj(list) ? [list] : [];
    const out: string[] = [];
    all.forEach((s, i) => {
      if (!isObj(s) || (s.Effect ?? "Allow") !== "Allow") return;
      const where = `assumeRolePolicy Statement[${i}]${typeof s.Sid === "string" && s.Sid !== "" ? ` (${s.Sid})` : ""}`;
      const keys = conditionKeys(s);
      const principal = isObj(s.Principal) ? s.Principal : {};
      for (const service of strings(principal.Service)) {
        const wanted = TRUST_CONDITIONS[service];
        if (wanted !== undefined) {
          const missing = wanted.keys.filter((k) => !keys.includes(k));
          if (missing.length > 0)
            out.push(`${where} trusts ${service} without the condition keys ${missing.join(", ")} (${wanted.source})`);
        } else if (UNCONDITIONED_TRUST_EXCEPTIONS[service] === undefined && keys.length === 0) {
          out.push(
            `${where} trusts ${service} without a condition: add the service's confused-deputy conditions (aws:SourceAccount, aws:SourceArn)`,
          );
        }
      }
      for (const who of [...strings(principal.AWS), ...strings(principal.Federated)])
        if (keys.length === 0) out.push(`${where} trusts ${who} without a condition: add one (an external id, a source account, a tag)`);
      if (s.Principal === "*" || principal.AWS === "*") out.push(`${where} trusts every principal ("*")`);
    });
    return out;
  },
});

const ROLE_PATH_CONTROLS = controls([], []);

export const iamRoleLabPath = defineRule({
  name: "iam-role-lab-path",
  description:
    `Every role the lab creates has the IAM path ${LAB_IAM_PATH} (components/lib/iam.ts), so that a deploy policy or an SCP ` +
    "can allow the lab's role operations on that path only. " +
    mirrors(ROLE_PATH_CONTROLS),
  enforcementLevel: "mandatory",
  controls: ROLE_PATH_CONTROLS,
  resourceTypes: [T.iamRole],
  check(inputs) {
    return inputs.path === LAB_IAM_PATH ? [] : [`path must be ${JSON.stringify(LAB_IAM_PATH)}, got ${shown(inputs.path)}`];
  },
});

/** The IAM area's rules. */
export const IAM_RULES = [iamNoWildcardActions, iamNoWildcardResources, iamRoleTrustConditions, iamRoleLabPath] as const;
