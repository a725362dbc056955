/**
 * What every IAM role the lab creates carries, so that a company account can constrain the lab:
 *
 * - the path {@link LAB_IAM_PATH}: roles are `arn:<partition>:iam::<account>:role/storage-bench-lab/<name>`,
 *   so an SCP or a deploy policy can allow `iam:CreateRole`/`PassRole` on that path only (IAM User
 *   Guide, "IAM identifiers": paths; a path begins and ends with `/`, at most 512 characters);
 * - an optional permissions boundary (`lab:permissionsBoundaryArn`): the maximum permissions the
 *   role can have, whatever its policies say (IAM User Guide, "Permissions boundaries for IAM
 *   entities"); many accounts require one on every role a deployer creates.
 *
 * aws.iam.Role `path` and `permissionsBoundary` (pulumi-aws 7.48 iam/role.d.ts). A change of
 * `path` replaces the role (the provider marks it force-new); a change of the boundary updates it
 * in place.
 */
import { argProblem, ArgProblem } from "../../core/errors";

/** The IAM path of every role the lab creates. */
export const LAB_IAM_PATH = "/storage-bench-lab/";

/** A managed policy's ARN: `arn:<partition>:iam::<12-digit account or "aws">:policy/<path/name>`. */
export const POLICY_ARN_RE = /^arn:aws(?:-[a-z]+)*:iam::(?:\d{12}|aws):policy\/[\w+=,.@/-]{1,512}$/;
export const POLICY_ARN_RULE = "the ARN of an IAM managed policy (arn:aws:iam::<account>:policy/<name>)";

/** The arguments of a component that creates IAM roles. */
export interface RoleGuardrailArgs {
  /** ARN of a managed policy set as the permissions boundary of every role the component creates. @default none */
  readonly permissionsBoundaryArn?: string;
}

/** The `aws.iam.Role` arguments every lab role gets: the lab's path, and the boundary when one is given. */
export function roleGuardrails(args: RoleGuardrailArgs): { path: string; permissionsBoundary?: string } {
  return { path: LAB_IAM_PATH, ...(args.permissionsBoundaryArn !== undefined ? { permissionsBoundary: args.permissionsBoundaryArn } : {}) };
}

/** The boundary's rule, for the components' `problems()`. */
export function roleGuardrailProblems(args: RoleGuardrailArgs): ArgProblem[] {
  const b = args.permissionsBoundaryArn;
  return b === undefined || (typeof b === "string" && POLICY_ARN_RE.test(b))
    ? []
    : [argProblem("permissionsBoundaryArn", POLICY_ARN_RULE, b)];
}
