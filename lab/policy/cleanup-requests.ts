/**
 * What the cleanup identity (docs/cleanup-policy.json, ./cleanup-policy.ts) can and cannot do, as
 * requests an IAM policy simulator decides: test/lab/policy/deploy-policy-simulate.test.ts evaluates
 * every row against docs/cleanup-policy.json with `@cloud-copilot/iam-simulate` and fails when the
 * simulator's decision is not the row's; the rows are the cleanup table of docs/security.md
 * (`npm run docs`). Besides these rows the test makes every request of the deploy policy's sweep
 * under the cleanup policy: allowed exactly when the action is a read or a teardown.
 */
import { ACCOUNT, BOUNDARY as BOUNDARY_ARN, DeployRequest, FOREIGN, LAB, labRole, REGION } from "./deploy-requests";

const arn = (service: string, resource: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${resource}`;
const LAB_ROLE = labRole("node");
const BOUNDARY = { "iam:PermissionsBoundary": BOUNDARY_ARN };
const CNI = { "iam:PolicyARN": "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy" };

/** A `pulumi destroy` of the lab's stacks: allowed. */
const TEARDOWNS: readonly DeployRequest[] = [
  { what: "describe instances (a destroy's refresh)", action: "ec2:DescribeInstances", resource: "*", expect: "allowed" },
  {
    what: "terminate the lab's instance",
    action: "ec2:TerminateInstances",
    resource: arn("ec2", "instance/i-0lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "delete the lab's EBS volume",
    action: "ec2:DeleteVolume",
    resource: arn("ec2", "volume/vol-0lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "release the lab's Elastic IP",
    action: "ec2:ReleaseAddress",
    resource: arn("ec2", "elastic-ip/eipalloc-0lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "delete an untagged FSx network interface (FSx deletes them as the caller)",
    action: "ec2:DeleteNetworkInterface",
    resource: arn("ec2", "network-interface/eni-0fsx"),
    expect: "allowed",
  },
  {
    what: "delete the lab's FSx file system",
    action: "fsx:DeleteFileSystem",
    resource: arn("fsx", "file-system/fs-0lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "delete the lab's EKS cluster",
    action: "eks:DeleteCluster",
    resource: arn("eks", "cluster/lab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "schedule the deletion of the lab's KMS key",
    action: "kms:ScheduleKeyDeletion",
    resource: arn("kms", "key/1234abcd-12ab-34cd-56ef-1234567890ab"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "delete the lab's secret",
    action: "secretsmanager:DeleteSecret",
    resource: arn("secretsmanager", "secret:lab-fsx-AbCdEf"),
    resourceTags: LAB,
    expect: "allowed",
  },
  {
    what: "detach a planned managed policy from a lab role",
    action: "iam:DetachRolePolicy",
    resource: LAB_ROLE,
    context: CNI,
    expect: "allowed",
  },
  { what: "delete a lab role", action: "iam:DeleteRole", resource: LAB_ROLE, resourceTags: LAB, expect: "allowed" },
];

/** Anything else: denied. */
const NOT_TEARDOWNS: readonly DeployRequest[] = [
  {
    what: "launch an instance tagged as the lab's",
    action: "ec2:RunInstances",
    resource: arn("ec2", "instance/*"),
    requestTags: LAB,
    expect: "denied",
  },
  {
    what: "create a volume tagged as the lab's",
    action: "ec2:CreateVolume",
    resource: arn("ec2", "volume/*"),
    requestTags: LAB,
    expect: "denied",
  },
  {
    what: "tag a resource in its create",
    action: "ec2:CreateTags",
    resource: arn("ec2", "instance/*"),
    requestTags: LAB,
    context: { "ec2:CreateAction": "RunInstances" },
    expect: "denied",
  },
  {
    what: "open the lab's security group",
    action: "ec2:AuthorizeSecurityGroupIngress",
    resource: arn("ec2", "security-group/sg-0lab"),
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "change the lab's instance's attributes",
    action: "ec2:ModifyInstanceAttribute",
    resource: arn("ec2", "instance/i-0lab"),
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "terminate an untagged instance",
    action: "ec2:TerminateInstances",
    resource: arn("ec2", "instance/i-0other"),
    resourceTags: FOREIGN,
    expect: "denied",
  },
  {
    what: "delete a foreign FSx file system",
    action: "fsx:DeleteFileSystem",
    resource: arn("fsx", "file-system/fs-0other"),
    resourceTags: FOREIGN,
    expect: "denied",
  },
  {
    what: "change the lab's EKS cluster's configuration",
    action: "eks:UpdateClusterConfig",
    resource: arn("eks", "cluster/lab"),
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "read the lab's secret's value",
    action: "secretsmanager:GetSecretValue",
    resource: arn("secretsmanager", "secret:lab-fsx-AbCdEf"),
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "decrypt with the lab's key",
    action: "kms:Decrypt",
    resource: arn("kms", "key/1234abcd-12ab-34cd-56ef-1234567890ab"),
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "change the lab's key's policy",
    action: "kms:PutKeyPolicy",
    resource: arn("kms", "key/1234abcd-12ab-34cd-56ef-1234567890ab"),
    resourceTags: LAB,
    expect: "denied",
  },
  {
    what: "create a lab role, even with the boundary",
    action: "iam:CreateRole",
    resource: LAB_ROLE,
    requestTags: LAB,
    context: BOUNDARY,
    expect: "denied",
  },
  {
    what: "attach a planned managed policy to a lab role",
    action: "iam:AttachRolePolicy",
    resource: LAB_ROLE,
    context: { ...CNI, ...BOUNDARY },
    expect: "denied",
  },
  { what: "write a lab role's inline policy", action: "iam:PutRolePolicy", resource: LAB_ROLE, context: BOUNDARY, expect: "denied" },
  {
    what: "pass a lab role to EC2",
    action: "iam:PassRole",
    resource: LAB_ROLE,
    context: { "iam:PassedToService": "ec2.amazonaws.com" },
    expect: "denied",
  },
  { what: "assume a lab role", action: "sts:AssumeRole", resource: LAB_ROLE, expect: "denied" },
  {
    what: "retag a lab resource",
    action: "fsx:TagResource",
    resource: arn("fsx", "file-system/fs-0lab"),
    resourceTags: LAB,
    requestTags: { owner: "someone" },
    expect: "denied",
  },
];

/** The cleanup identity's table, teardowns first. */
export const CLEANUP_REQUESTS: readonly DeployRequest[] = [...TEARDOWNS, ...NOT_TEARDOWNS];
