/**
 * The IAM policy of the cleanup identity (`lab janitor`, the `aws-lab-cleanup` environment of
 * .github/workflows/lab-cleanup.yml): the deploy policy (./deploy-policy.ts) cut down to what a
 * `pulumi destroy` of the lab's stacks calls, reads and teardowns, so that an environment without
 * reviewers holds no power to create, tag, give a role power or pass one. `lab plan --cleanup-policy`
 * prints it, docs/cleanup-policy.json is that output; test/lab/policy/deploy-policy-simulate.test.ts
 * decides the rows of ./cleanup-requests.ts with the same IAM policy simulator.
 *
 * Pure: statement by statement of {@link deployPolicy}'s document for the same plan —
 * - the reads on `*` (Describe/List/Get; what a destroy's refresh and the providers' deletes wait on);
 * - of the tag-conditioned and the unconditioned statements, the teardowns only ({@link isTeardown}):
 *   each keeps the statement's resource and condition (a delete only of a lab-tagged resource);
 * - IAM: the lab roles' reads, `DeleteRole`/`DeleteRolePolicy` of tagged lab roles, `DetachRolePolicy`
 *   of the planned managed policies, the deny of assuming a lab role;
 * - none of the creates, no tagging, no `PassRole`, no service-linked role, no KMS use, no
 *   `GetSecretValue` (a destroy reads no secret's value).
 *
 * The cleanup identity also needs each EKS cluster's API to delete the Kubernetes objects: `lab run
 * --cleanup-role-arn` gives it the cluster's admin access entry (docs/ci.md, docs/security.md).
 */
import { isTagging } from "./deploy-conditions";
import { deployPolicy, DeployPolicyInput, PolicyDocument, PolicyStatement } from "./deploy-policy";

/** The deploy policy's statements a cleanup keeps whole: reads and the deny. */
const KEPT_WHOLE = new Set([
  "Read",
  "ReadPublicParameters",
  "ReadManagedPolicies",
  "ReadLabRoles",
  "ReadLabPolicies",
  "NeverAssumeLabRoles",
  "NeverWriteTheBoundary",
]);
/** The deploy policy's statements a cleanup keeps the teardowns of (resource and condition unchanged). */
const CUT_TO_TEARDOWNS = new Set([
  "ChangeOnlyLabResources",
  "NoConditionOffered",
  "FsxUntaggedNetworkInterfaces",
  "ChangeLabRoles",
  "ChangeLabPolicies",
  "DetachOnlyThePlannedManagedPolicies",
]);
/** The cut statements' names in the cleanup policy, where the deploy policy's would say more than they hold. */
const RENAMED: Readonly<Record<string, string>> = {
  ChangeOnlyLabResources: "TearDownOnlyLabResources",
  ChangeLabRoles: "DeleteLabRoles",
  ChangeLabPolicies: "DeleteLabPolicies",
};
/** The deploy policy's statements a cleanup drops: creating, tagging, giving or passing a role power. */
const DROPPED = new Set([
  "TagEc2OnlyOnCreate",
  "RetagOnlyLabResources",
  "BootPublicImages",
  "CreateLabRolesWithBoundary",
  "GiveLabRolesPowerOnlyWithinBoundary",
  "AttachOnlyThePlannedManagedPolicies",
  "RetagLabRoles",
  "RetagLabPolicies",
  "PassLabRolesToTheirServices",
  "ServiceLinkedRoles",
]);
/** Deletes a destroy never calls and that would weaken what stays (a log group kept forever, or unencrypted). */
const NOT_TEARDOWNS = new Set(["logs:DeleteRetentionPolicy", "logs:DisassociateKmsKey"]);

/**
 * Calls a delete makes that are no delete: the k0s OSD volumes' attachments stop their instance
 * before detaching (components/k0s `stopInstanceBeforeDetaching`; terraform-provider-aws
 * ec2_volume_attachment.go's delete calls StopInstances, then DetachVolume).
 */
const TEARDOWN_STEPS = new Set(["ec2:StopInstances"]);

/** What a provider's delete calls: Delete*, Terminate*, Release*, Disassociate*, Detach*, Revoke*, ScheduleKeyDeletion, BatchDeleteImage, {@link TEARDOWN_STEPS}; never tagging. */
export function isTeardown(action: string): boolean {
  if (TEARDOWN_STEPS.has(action)) return true;
  if (isTagging(action) || NOT_TEARDOWNS.has(action)) return false;
  return /^[a-z0-9-]+:(Delete|Terminate|Release|Disassociate|Detach|Revoke|ScheduleKeyDeletion$|BatchDeleteImage$)/.test(action);
}

/** The cleanup policy for a plan (see the module comment); the same input as {@link deployPolicy}. */
export function cleanupPolicy(input: DeployPolicyInput): PolicyDocument {
  const statements: PolicyStatement[] = [];
  const unknown: string[] = [];
  for (const s of deployPolicy(input).Statement) {
    if (/^Create[A-Za-z]+WithLabTag$/.test(s.Sid) || DROPPED.has(s.Sid)) continue;
    if (KEPT_WHOLE.has(s.Sid)) statements.push(s);
    else if (CUT_TO_TEARDOWNS.has(s.Sid)) {
      const Action = s.Action.filter(isTeardown);
      if (Action.length > 0) statements.push({ ...s, Sid: RENAMED[s.Sid] ?? s.Sid, Action });
    } else unknown.push(s.Sid);
  }
  // A new statement of the deploy policy is placed here on purpose, never kept or dropped by default.
  if (unknown.length > 0)
    throw new Error(
      `deploy policy statement(s) ${unknown.join(", ")} not placed: keep, cut to teardowns or drop them in lab/policy/cleanup-policy.ts`,
    );
  return { Version: "2012-10-17", Statement: statements };
}

/** docs/cleanup-policy.json's text: the document, two-space indented, with a final newline. */
export function renderCleanupPolicy(input: DeployPolicyInput): string {
  return `${JSON.stringify(cleanupPolicy(input), null, 2)}\n`;
}
