/**
 * The registry of the lab's policy rules: its "secure by default" bar as checks on a resource's
 * inputs (and on a stack's outputs), by stable id (the rule's CrossGuard policy name). One set of
 * rules, run two ways:
 *
 * - offline, on the planned resources and outputs of `lab plan` (lab/policy/evaluate.ts,
 *   `lab plan --policy`);
 * - by Pulumi CrossGuard, as the policy pack lab/policy/pack (`pulumi up --policy-pack lab/policy/pack`):
 *   the resource rules ({@link RULES}); the stack-output rules ({@link STACK_RULES}) run offline
 *   only (./outputs.ts says why).
 *
 * The rules live one file per area: network.ts (security groups, subnets), compute.ts (EC2
 * metadata), storage.ts (EBS, customer-managed KMS keys, key rotation), tags.ts (the lab's tags),
 * kubernetes.ts (workloads, namespaces), rbac.ts (Roles and ClusterRoles), eks.ts (control plane, node groups), iam.ts (policy
 * documents), ecr.ts (image repositories), logs.ts (log groups), lifecycle.ts (Commands a change replaces), k0s.ts (k0sctl
 * configs: Secrets encryption, SSH host keys), outputs.ts (stack outputs). A
 * new rule is written in its area's file and listed here; what a rule is, how it names the
 * Checkov / Trivy controls it mirrors and how rules treat values unknown until deploy is in
 * ./rule.ts. An id, once shipped, is never reused for another rule: reports, pack configurations
 * and waivers name rules by it.
 *
 * Pure: imports nothing from Pulumi (only lab/policy/pack/index.ts constructs the PolicyPack).
 * The pack's ts-node compiles these files and what they import against a library older than
 * ES2022: no `Object.hasOwn` (test/lab/policy/pack.test.ts starts the pack as the CLI does).
 */
import { COMPUTE_PLAN_RULES, COMPUTE_RULES, ec2Imdsv2Required, ec2NoPublicIp, ec2NoPublicIpEip } from "./compute";
import { commandDeleteWithoutTriggers, LIFECYCLE_RULES } from "./lifecycle";
import { ECR_RULES, ecrImmutableTags, ecrScanOnPush } from "./ecr";
import { EKS_RULES, eksControlPlaneLogging, eksNodeGroupImdsv2, eksPublicEndpointRestricted, eksSecretsEncryption } from "./eks";
import { IAM_RULES, iamNoWildcardActions, iamNoWildcardResources, iamRoleLabPath, iamRoleTrustConditions } from "./iam";
import {
  k8sContainerResources,
  k8sImagePinned,
  k8sJobLimits,
  k8sJobRestrictedPodSecurity,
  k8sNamespacePodSecurity,
  k8sNoDefaultNamespace,
  k8sPrivilegedNamespaces,
  k8sNoCsiInlineVolumes,
  k8sProbes,
  k8sWorkloadRestrictedPodSecurity,
  k8sServiceNetworkPolicy,
  KUBERNETES_PLAN_RULES,
  KUBERNETES_RULES,
} from "./kubernetes";
import { LOG_RULES, logGroupKms, logGroupRetention } from "./logs";
import { NETWORK_RULES, sgNoAllEgressToInternet, sgNoOpenIngress, sgRuleDescription, subnetNoPublicIpOnLaunch } from "./network";
import { k8sRbacNoWildcards, RBAC_RULES } from "./rbac";
import { K0S_RULES, k0sctlSshVerified, k0sSecretsEncryption } from "./k0s";
import { OUTPUT_RULES, stackOutputsNoPasswords, stackOutputsNoPrivateKey, stackOutputsSecret } from "./outputs";
import type { PlanRule, Rule, RuleInfo, StackRule } from "./rule";
import { ebsEncrypted, ebsNoGp2, fsxOntapCustomerKey, kmsKeyRotation, secretsCustomerKey, STORAGE_RULES } from "./storage";
import { awsProviderLabTags, TAG_RULES } from "./tags";

export type { Controls, EnforcementLevel, PlanResource, PlanRule, Rule, RuleInfo, StackRule } from "./rule";
export { COMPUTED, formatViolation, mirrors, SECRET } from "./rule";

/** Every resource rule of the lab, in report order (the order the CrossGuard pack announces them in). */
export const RULES = [
  sgNoOpenIngress,
  sgRuleDescription,
  ec2Imdsv2Required,
  ebsEncrypted,
  ebsNoGp2,
  subnetNoPublicIpOnLaunch,
  fsxOntapCustomerKey,
  secretsCustomerKey,
  awsProviderLabTags,
  k8sImagePinned,
  k8sContainerResources,
  k8sJobLimits,
  k8sJobRestrictedPodSecurity,
  k8sWorkloadRestrictedPodSecurity,
  eksPublicEndpointRestricted,
  eksSecretsEncryption,
  eksControlPlaneLogging,
  eksNodeGroupImdsv2,
  kmsKeyRotation,
  iamNoWildcardActions,
  iamNoWildcardResources,
  ecrScanOnPush,
  ecrImmutableTags,
  logGroupRetention,
  logGroupKms,
  k8sPrivilegedNamespaces,
  k8sNoDefaultNamespace,
  k8sNamespacePodSecurity,
  k8sProbes,
  commandDeleteWithoutTriggers,
  iamRoleTrustConditions,
  iamRoleLabPath,
  ec2NoPublicIp,
  sgNoAllEgressToInternet,
  k8sRbacNoWildcards,
  k0sSecretsEncryption,
  k0sctlSshVerified,
  k8sNoCsiInlineVolumes,
] as const satisfies readonly Rule[];

/** Every rule over a stack's resources together (offline, and a stack validation policy in the pack). */
export const PLAN_RULES = [ec2NoPublicIpEip, k8sServiceNetworkPolicy] as const satisfies readonly PlanRule[];

/** Every rule over a stack's outputs (offline only). */
export const STACK_RULES = [stackOutputsSecret, stackOutputsNoPasswords, stackOutputsNoPrivateKey] as const satisfies readonly StackRule[];

/** Every rule of the lab, resource rules then stack rules: what `lab plan --policy` runs and README lists. */
export const ALL_RULES: readonly RuleInfo[] = [...RULES, ...PLAN_RULES, ...STACK_RULES];

/** A rule's stable id. */
export type RuleId = (typeof RULES)[number]["name"] | (typeof PLAN_RULES)[number]["name"] | (typeof STACK_RULES)[number]["name"];

/** The area files. */
export type Area =
  "network" | "compute" | "storage" | "tags" | "kubernetes" | "rbac" | "eks" | "iam" | "ecr" | "logs" | "lifecycle" | "k0s" | "outputs";

/** The rules of each area's file, as that file lists them. */
export const RULES_BY_AREA: Readonly<Record<Area, readonly RuleInfo[]>> = {
  network: NETWORK_RULES,
  compute: [...COMPUTE_RULES, ...COMPUTE_PLAN_RULES],
  storage: STORAGE_RULES,
  tags: TAG_RULES,
  kubernetes: [...KUBERNETES_RULES, ...KUBERNETES_PLAN_RULES],
  rbac: RBAC_RULES,
  eks: EKS_RULES,
  iam: IAM_RULES,
  ecr: ECR_RULES,
  logs: LOG_RULES,
  lifecycle: LIFECYCLE_RULES,
  k0s: K0S_RULES,
  outputs: OUTPUT_RULES,
};

/** `rules` by id; two rules with one id are an error naming it. */
export function byId<R extends RuleInfo>(rules: readonly R[]): Record<string, R> {
  const out: Record<string, R> = {};
  for (const rule of rules) {
    if (Object.prototype.hasOwnProperty.call(out, rule.name)) throw new Error(`policy rule id '${rule.name}' is registered twice`);
    out[rule.name] = rule;
  }
  return out;
}

/** The registry: every rule by its id (checked unique when this module loads). */
export const RULES_BY_ID = byId(ALL_RULES) as Readonly<Record<RuleId, RuleInfo>>;

/** The rule with this id; an unknown id is an error naming the known ones. */
export function ruleById(id: string): RuleInfo {
  if (!Object.prototype.hasOwnProperty.call(RULES_BY_ID, id))
    throw new Error(`no policy rule '${id}': the rules are ${ALL_RULES.map((r) => r.name).join(", ")}`);
  return RULES_BY_ID[id as RuleId];
}

/** The resource rule with this id (what `check` runs on); a stack rule or an unknown id is an error. */
export function resourceRuleById(id: string): Rule {
  const rule = RULES.find((r) => r.name === id);
  if (rule === undefined) throw new Error(`no resource policy rule '${id}': the resource rules are ${RULES.map((r) => r.name).join(", ")}`);
  return rule;
}
