/**
 * What the deploy identity can and cannot do, as requests an IAM policy simulator decides:
 * test/lab/policy/deploy-policy-simulate.test.ts evaluates every row against docs/deploy-policy.json
 * (and, for the rows of a lab role, docs/permissions-boundary.json as that role's boundary) with
 * `@cloud-copilot/iam-simulate` and fails when the simulator's decision is not the row's; the same
 * rows are the table of docs/security.md (`npm run docs`). Besides these rows the test makes one
 * request per action of the policy on a lab-tagged resource of each type the action names (all
 * allowed).
 */
import { DEFAULT_BOUNDARY_ARN, LAB_PROJECT, ROLE_ARN } from "./deploy-policy";

export const ACCOUNT = "111122223333";
export const OTHER_ACCOUNT = "444455556666";
/** The region, the lab's tags and a foreign team's tags of every request table (deploy, cleanup, EBS CSI). */
export const REGION = "eu-west-1";

/** One request and its expected decision. */
export interface DeployRequest {
  /** What it is, as the docs table says it. */
  readonly what: string;
  readonly action: string;
  readonly resource: string;
  /** The tags the resource carries (`aws:ResourceTag/*`). */
  readonly resourceTags?: Readonly<Record<string, string>>;
  /** The tags of the request (`aws:RequestTag/*`, `aws:TagKeys`). */
  readonly requestTags?: Readonly<Record<string, string>>;
  /** Other context keys of the request. */
  readonly context?: Readonly<Record<string, string | readonly string[]>>;
  /** Who asks: the deploy identity (default) or a lab role carrying the sample boundary with an `*` policy. */
  readonly as?: "deployer" | "bounded-lab-role";
  readonly expect: "allowed" | "denied";
}

export const LAB = { "lab:project": LAB_PROJECT };
export const FOREIGN = { team: "payments" };
const ec2 = (type: string, id: string) => `arn:aws:ec2:${REGION}:${ACCOUNT}:${type}/${id}`;
export const labRole = (name: string) => ROLE_ARN.replace("::*:", `::${ACCOUNT}:`).replace(/\*$/, name);
export const BOUNDARY = DEFAULT_BOUNDARY_ARN.replace("::*:", `::${ACCOUNT}:`);
const ADMIN = "arn:aws:iam::aws:policy/AdministratorAccess";
const CNI = "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy";
const labPolicy = (name: string) => `arn:aws:iam::${ACCOUNT}:policy/storage-bench-lab/${name}`;
/** The EBS CSI controller's policy of the shipped fsx-eks-cluster stack (`<cluster>-ebs-csi`). */
const EBS_CSI_POLICY = labPolicy("fsx-eks-cluster-ebs-csi");
const LAB_KEY = `arn:aws:kms:${REGION}:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
const SECRET = (name: string) => `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-AbCdEf`;
const FS = `arn:aws:fsx:${REGION}:${ACCOUNT}:file-system/fs-0123456789abcdef0`;
const CLUSTER = (name: string) => `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/${name}`;
const LOG_GROUP = (name: string) => `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${name}`;

/** The lab's own work: allowed. */
const ALLOWED: readonly DeployRequest[] = [
  {
    what: "launch an instance tagged as the lab's",
    action: "ec2:RunInstances",
    resource: ec2("instance", "*"),
    requestTags: LAB,
    expect: "allowed",
  },
  {
    what: "launch it into the lab's subnet",
    action: "ec2:RunInstances",
    resource: ec2("subnet", "subnet-0a"),
    resourceTags: LAB,
    expect: "allowed",
  },
  { what: "launch it from a public AMI", action: "ec2:RunInstances", resource: `arn:aws:ec2:${REGION}::image/ami-0abc`, expect: "allowed" },
  {
    what: "tag the instance in its RunInstances call",
    action: "ec2:CreateTags",
    resource: ec2("instance", "*"),
    requestTags: LAB,
    context: { "ec2:CreateAction": "RunInstances" },
    expect: "allowed",
  },
  {
    what: "terminate the lab's instance",
    action: "ec2:TerminateInstances",
    resource: ec2("instance", "i-0lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "delete the lab's EBS volume",
    action: "ec2:DeleteVolume",
    resource: ec2("volume", "vol-0lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "open the lab's security group to its nodes",
    action: "ec2:AuthorizeSecurityGroupIngress",
    resource: ec2("security-group", "sg-0lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  { what: "create the FSx file system", action: "fsx:CreateFileSystem", resource: FS, requestTags: LAB, expect: "allowed" },
  { what: "delete the lab's FSx file system", action: "fsx:DeleteFileSystem", resource: FS, resourceTags: LAB, expect: "allowed" },
  { what: "create the EKS cluster", action: "eks:CreateCluster", resource: "*", requestTags: LAB, expect: "allowed" },
  {
    what: "add a node group to the lab's cluster",
    action: "eks:CreateNodegroup",
    resource: CLUSTER("lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "delete the lab's log group",
    action: "logs:DeleteLogGroup",
    resource: LOG_GROUP("/lab/flow"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "read the lab's secret",
    action: "secretsmanager:GetSecretValue",
    resource: SECRET("lab-fsx"),
    resourceTags: LAB,
    expect: "allowed",
  },
  { what: "decrypt with the lab's key", action: "kms:Decrypt", resource: LAB_KEY, resourceTags: LAB, expect: "allowed" },
  {
    what: "schedule the lab's key for deletion",
    action: "kms:ScheduleKeyDeletion",
    resource: LAB_KEY,
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "create a lab role with the boundary",
    action: "iam:CreateRole",
    resource: labRole("node"),
    requestTags: LAB,
    context: { "iam:PermissionsBoundary": BOUNDARY },
    expect: "allowed",
  },
  {
    what: "put an inline policy on a lab role that has the boundary",
    action: "iam:PutRolePolicy",
    resource: labRole("node"),
    resourceTags: LAB,
    context: { "iam:PermissionsBoundary": BOUNDARY },
    expect: "allowed",
  },
  {
    what: "attach a managed policy the plan attaches",
    action: "iam:AttachRolePolicy",
    resource: labRole("node"),
    resourceTags: LAB,
    context: { "iam:PolicyARN": CNI, "iam:PermissionsBoundary": BOUNDARY },
    expect: "allowed",
  },
  {
    what: "create a customer managed policy under the lab's path",
    action: "iam:CreatePolicy",
    resource: EBS_CSI_POLICY,
    requestTags: LAB,
    expect: "allowed",
  },
  {
    what: "update the lab's policy (a new default version)",
    action: "iam:CreatePolicyVersion",
    resource: EBS_CSI_POLICY,
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "attach the plan's customer managed policy to a lab role",
    action: "iam:AttachRolePolicy",
    resource: labRole("fsx-eks-cluster-ebs-csi"),
    resourceTags: LAB,
    context: { "iam:PolicyARN": EBS_CSI_POLICY, "iam:PermissionsBoundary": BOUNDARY },
    expect: "allowed",
  },
  {
    what: "detach the AWS managed policy the lab no longer attaches",
    action: "iam:DetachRolePolicy",
    resource: labRole("fsx-eks-cluster-ebs-csi"),
    resourceTags: LAB,
    context: { "iam:PolicyARN": "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy" },
    expect: "allowed",
  },
  {
    what: "pass a lab role to EKS",
    action: "iam:PassRole",
    resource: labRole("cluster"),
    context: { "iam:PassedToService": "eks.amazonaws.com" },
    expect: "allowed",
  },
];

/** The escalations and reaches beyond the lab: denied. */
const DENIED: readonly DeployRequest[] = [
  {
    what: "attach AdministratorAccess to a lab role",
    action: "iam:AttachRolePolicy",
    resource: labRole("node"),
    resourceTags: LAB,
    context: { "iam:PolicyARN": ADMIN, "iam:PermissionsBoundary": BOUNDARY },
    expect: "denied",
  },
  {
    what: "attach a planned policy to a lab role without the boundary",
    action: "iam:AttachRolePolicy",
    resource: labRole("node"),
    resourceTags: LAB,
    context: { "iam:PolicyARN": CNI },
    expect: "denied",
  },
  { what: "create a role without the boundary", action: "iam:CreateRole", resource: labRole("escape"), requestTags: LAB, expect: "denied" },
  {
    what: "create a role with another boundary",
    action: "iam:CreateRole",
    resource: labRole("escape"),
    requestTags: LAB,
    context: { "iam:PermissionsBoundary": `arn:aws:iam::${ACCOUNT}:policy/AllowAll` },
    expect: "denied",
  },
  {
    what: "create a role outside the lab's path",
    action: "iam:CreateRole",
    resource: `arn:aws:iam::${ACCOUNT}:role/escape`,
    requestTags: LAB,
    context: { "iam:PermissionsBoundary": BOUNDARY },
    expect: "denied",
  },
  {
    what: "put an inline policy on a role without the boundary",
    action: "iam:PutRolePolicy",
    resource: labRole("node"),
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "replace a lab role's boundary by another",
    action: "iam:PutRolePermissionsBoundary",
    resource: labRole("node"),
    resourceTags: LAB,
    context: { "iam:PermissionsBoundary": `arn:aws:iam::${ACCOUNT}:policy/AllowAll` },
    expect: "denied",
  },
  {
    what: "delete a lab role's boundary",
    action: "iam:DeleteRolePermissionsBoundary",
    resource: labRole("node"),
    resourceTags: LAB,
    context: { "iam:PermissionsBoundary": BOUNDARY },
    expect: "denied",
  },
  {
    what: "rewrite the permissions boundary (a new default version)",
    action: "iam:CreatePolicyVersion",
    resource: BOUNDARY,
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "create the permissions boundary under its name before the admin does",
    action: "iam:CreatePolicy",
    resource: BOUNDARY,
    requestTags: LAB,
    expect: "denied",
  },
  {
    what: "delete the permissions boundary",
    action: "iam:DeletePolicy",
    resource: BOUNDARY,
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "create a policy outside the lab's path",
    action: "iam:CreatePolicy",
    resource: `arn:aws:iam::${ACCOUNT}:policy/escape`,
    requestTags: LAB,
    expect: "denied",
  },
  {
    what: "create a policy without the lab's tag",
    action: "iam:CreatePolicy",
    resource: labPolicy("escape"),
    requestTags: FOREIGN,
    expect: "denied",
  },
  {
    what: "change a lab-path policy not tagged as the lab's",
    action: "iam:CreatePolicyVersion",
    resource: labPolicy("someone-elses"),
    expect: "denied",
  },
  {
    what: "attach a lab-path policy the plan does not create",
    action: "iam:AttachRolePolicy",
    resource: labRole("node"),
    resourceTags: LAB,
    context: { "iam:PolicyARN": labPolicy("escape"), "iam:PermissionsBoundary": BOUNDARY },
    expect: "denied",
  },
  {
    what: "attach the permissions boundary itself as a role's policy",
    action: "iam:AttachRolePolicy",
    resource: labRole("node"),
    resourceTags: LAB,
    context: { "iam:PolicyARN": BOUNDARY, "iam:PermissionsBoundary": BOUNDARY },
    expect: "denied",
  },
  {
    what: "attach the retired AmazonEBSCSIDriverPolicy again",
    action: "iam:AttachRolePolicy",
    resource: labRole("fsx-eks-cluster-ebs-csi"),
    resourceTags: LAB,
    context: { "iam:PolicyARN": "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy", "iam:PermissionsBoundary": BOUNDARY },
    expect: "denied",
  },
  { what: "assume a lab role", action: "sts:AssumeRole", resource: labRole("node"), resourceTags: LAB, expect: "denied" },
  {
    what: "pass a lab role to Lambda",
    action: "iam:PassRole",
    resource: labRole("node"),
    context: { "iam:PassedToService": "lambda.amazonaws.com" },
    expect: "denied",
  },
  {
    what: "delete an EKS cluster's OIDC provider",
    action: "iam:DeleteOpenIDConnectProvider",
    resource: `arn:aws:iam::${ACCOUNT}:oidc-provider/oidc.eks.${REGION}.amazonaws.com/id/ABC`,
    expect: "denied",
  },
  {
    what: "read a secret not the lab's",
    action: "secretsmanager:GetSecretValue",
    resource: SECRET("payments-db"),
    resourceTags: FOREIGN,
    expect: "denied",
  },
  {
    what: "decrypt with a key not the lab's",
    action: "kms:Decrypt",
    resource: `arn:aws:kms:${REGION}:${ACCOUNT}:key/9999`,
    resourceTags: FOREIGN,
    expect: "denied",
  },
  {
    what: "change a foreign key's policy",
    action: "kms:PutKeyPolicy",
    resource: `arn:aws:kms:${REGION}:${ACCOUNT}:key/9999`,
    expect: "denied",
  },
  { what: "terminate an untagged instance", action: "ec2:TerminateInstances", resource: ec2("instance", "i-0other"), expect: "denied" },
  {
    what: "change an untagged instance's attributes",
    action: "ec2:ModifyInstanceAttribute",
    resource: ec2("instance", "i-0other"),
    resourceTags: FOREIGN,
    expect: "denied",
  },
  { what: "delete an untagged EBS volume", action: "ec2:DeleteVolume", resource: ec2("volume", "vol-0other"), expect: "denied" },
  {
    what: "open a foreign security group",
    action: "ec2:AuthorizeSecurityGroupIngress",
    resource: ec2("security-group", "sg-0other"),
    resourceTags: FOREIGN,
    expect: "denied",
  },
  {
    what: "launch an instance into a foreign subnet",
    action: "ec2:RunInstances",
    resource: ec2("subnet", "subnet-0other"),
    expect: "denied",
  },
  {
    what: "launch an instance without the lab's tag",
    action: "ec2:RunInstances",
    resource: ec2("instance", "*"),
    requestTags: FOREIGN,
    expect: "denied",
  },
  {
    what: "delete a foreign FSx file system",
    action: "fsx:DeleteFileSystem",
    resource: `arn:aws:fsx:${REGION}:${ACCOUNT}:file-system/fs-0other`,
    expect: "denied",
  },
  {
    what: "add a volume to a foreign file system's SVM",
    action: "fsx:CreateVolume",
    resource: `arn:aws:fsx:${REGION}:${ACCOUNT}:storage-virtual-machine/fs-0other/svm-0other`,
    requestTags: LAB,
    expect: "denied",
  },
  {
    what: "add an SVM to a foreign file system",
    action: "fsx:CreateStorageVirtualMachine",
    resource: `arn:aws:fsx:${REGION}:${ACCOUNT}:file-system/fs-0other`,
    requestTags: LAB,
    expect: "denied",
  },
  { what: "delete a foreign EKS cluster", action: "eks:DeleteCluster", resource: CLUSTER("payments"), expect: "denied" },
  {
    what: "add an access entry to a foreign cluster",
    action: "eks:CreateAccessEntry",
    resource: CLUSTER("payments"),
    requestTags: LAB,
    expect: "denied",
  },
  { what: "delete a foreign log group", action: "logs:DeleteLogGroup", resource: LOG_GROUP("/payments/app"), expect: "denied" },
  {
    what: "tag a foreign instance into the lab",
    action: "ec2:CreateTags",
    resource: ec2("instance", "i-0other"),
    requestTags: LAB,
    expect: "denied",
  },
  {
    what: "tag a foreign instance, claiming a create",
    action: "ec2:CreateTags",
    resource: ec2("instance", "i-0other"),
    requestTags: LAB,
    context: { "ec2:CreateAction": "StopInstances" },
    expect: "denied",
  },
  {
    what: "tag a foreign file system into the lab",
    action: "fsx:TagResource",
    resource: `arn:aws:fsx:${REGION}:${ACCOUNT}:file-system/fs-0other`,
    requestTags: LAB,
    expect: "denied",
  },
  {
    what: "tag a foreign secret into the lab",
    action: "secretsmanager:TagResource",
    resource: SECRET("payments-db"),
    resourceTags: FOREIGN,
    requestTags: LAB,
    expect: "denied",
  },
  {
    what: "move a lab resource to another project",
    action: "eks:TagResource",
    resource: CLUSTER("lab"),
    resourceTags: LAB,
    requestTags: { "lab:project": "other" },
    expect: "denied",
  },
  {
    what: "untag a lab resource out of the lab",
    action: "eks:UntagResource",
    resource: CLUSTER("lab"),
    resourceTags: LAB,
    context: { "aws:TagKeys": ["lab:project"] },
    expect: "denied",
  },
  {
    what: "a lab role (sample boundary, policy `*`) creates an IAM user",
    action: "iam:CreateUser",
    resource: `arn:aws:iam::${ACCOUNT}:user/escape`,
    as: "bounded-lab-role",
    expect: "denied",
  },
  {
    what: "a lab role (sample boundary, policy `*`) assumes a role of another account",
    action: "sts:AssumeRole",
    resource: `arn:aws:iam::${OTHER_ACCOUNT}:role/admin`,
    as: "bounded-lab-role",
    expect: "denied",
  },
  {
    what: "a lab role (sample boundary, policy `*`) reads a secret not the lab's",
    action: "secretsmanager:GetSecretValue",
    resource: SECRET("payments-db"),
    resourceTags: FOREIGN,
    context: { "aws:ViaAWSService": "false" },
    as: "bounded-lab-role",
    expect: "denied",
  },
  {
    what: "a lab role (sample boundary, policy `*`) describes instances",
    action: "ec2:DescribeInstances",
    resource: "*",
    as: "bounded-lab-role",
    expect: "allowed",
  },
];

export const DEPLOY_REQUESTS: readonly DeployRequest[] = [...ALLOWED, ...DENIED];

/** The simulator's context keys of a request: its tags and its other keys. */
export function requestContext(r: DeployRequest): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(r.resourceTags ?? {})) out[`aws:ResourceTag/${k}`] = v;
  for (const [k, v] of Object.entries(r.requestTags ?? {})) out[`aws:RequestTag/${k}`] = v;
  if (r.requestTags !== undefined) out["aws:TagKeys"] = Object.keys(r.requestTags);
  for (const [k, v] of Object.entries(r.context ?? {})) out[k] = typeof v === "string" ? v : [...v];
  return out;
}

const cell = (s: string) => s.replace(/\|/g, "\\|");
const tags = (t: Readonly<Record<string, string>> | undefined) =>
  t === undefined
    ? ""
    : Object.entries(t)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ");

/** docs/security.md's table of the rows. */
export function renderRequestTable(rows: readonly DeployRequest[] = DEPLOY_REQUESTS): string {
  const head = ["| request | action | resource | resource tags | request tags / context | decision |", "|---|---|---|---|---|---|"];
  const body = rows.map((r) => {
    const ctx = [tags(r.requestTags), ...Object.entries(r.context ?? {}).map(([k, v]) => `${k}=${typeof v === "string" ? v : v.join(",")}`)]
      .filter((x) => x !== "")
      .join("; ");
    const who = r.as === "bounded-lab-role" ? " (as a lab role)" : "";
    return `| ${cell(r.what)}${who} | \`${r.action}\` | \`${r.resource}\` | ${cell(tags(r.resourceTags))} | ${cell(ctx)} | **${r.expect}** |`;
  });
  return [...head, ...body].join("\n");
}
