/**
 * The IAM policy the identity that deploys the lab needs (`pulumi up` / `pulumi destroy` of the
 * shipped stacks), generated from what the offline plan creates: `lab plan --deploy-policy` prints
 * it, docs/deploy-policy.json is that output, and tests fail when the two drift, when the plan
 * creates a type this table does not know, or when the IAM policy simulator
 * (test/lab/policy/deploy-policy-simulate.test.ts, `@cloud-copilot/iam-simulate`) decides one
 * request of {@link ./deploy-requests.ts} otherwise than the table says.
 *
 * Pure: {@link deployPolicy} takes the planned type tokens, the managed policies the plan attaches,
 * the project (the value of every resource's `lab:project` tag, core/tags.ts) and the permissions
 * boundary, and returns the document. Per token {@link DEPLOY_ACTIONS} lists what the provider calls
 * to create, read, update, tag and delete it (pulumi-eks components are remote: the plan sees the
 * component, not its children, so their token lists their children's actions). Each action is then
 * placed by {@link ./deploy-conditions.ts}: a read on `*`; a create only with the lab's request tag,
 * per created resource type; anything else only on a resource that carries the lab's tag; tagging
 * only at creation (EC2) or of resources already tagged, never of `lab:project` itself; the few
 * actions AWS offers no resource or tag condition for on their own statement (docs/security.md
 * lists them with the reason).
 *
 * IAM: roles only under the lab's path `/storage-bench-lab/` (components/lib/iam.ts); with a
 * permissions boundary every call that could give a role power (CreateRole, PutRolePolicy,
 * AttachRolePolicy, PutRolePermissionsBoundary) requires that boundary (`iam:PermissionsBoundary`),
 * no DeleteRolePermissionsBoundary; managed policies attached only from the plan's list
 * (`iam:PolicyARN`: AWS managed ones and the lab's own customer managed ones by path and name);
 * customer managed policies created only under the lab's path with the lab's tag, changed and
 * deleted only when they carry it, and never the permissions boundary (an explicit deny of every
 * call that writes or deletes a policy, on the boundary's ARN: a deployer that could rewrite the
 * boundary, or create it under its name before the admin does, would lift every lab role's
 * ceiling); the deployer may not assume the lab's roles (explicit deny); PassRole of those
 * roles only to the services that take them; service-linked roles only for the services that create
 * them.
 *
 * Not validated against a real account (there is none here): an `AccessDenied` names the missing
 * action; add it to the token's list and regenerate.
 */

import { EBS_CSI_RETIRED_POLICY_ARN } from "../../components/eks/iam";
import { LAB_IAM_PATH } from "../../components/lib/iam";
import {
  CREATED_TYPES,
  CREATES,
  CreatedType,
  isRead,
  isTagging,
  NAMES_PARENT,
  PUBLIC_PARAMETERS,
  UNCONDITIONED,
} from "./deploy-conditions";

const TAGS_EC2 = ["ec2:CreateTags", "ec2:DeleteTags"];
const DESCRIBE_EC2 = [
  "ec2:DescribeVpcs",
  "ec2:DescribeVpcAttribute",
  "ec2:DescribeSubnets",
  "ec2:DescribeRouteTables",
  "ec2:DescribeInternetGateways",
  "ec2:DescribeNatGateways",
  "ec2:DescribeAddresses",
  "ec2:DescribeAddressesAttribute",
  "ec2:DescribeVpcEndpoints",
  "ec2:DescribePrefixLists",
  "ec2:DescribeFlowLogs",
  "ec2:DescribeNetworkAcls",
  "ec2:DescribeSecurityGroups",
  "ec2:DescribeSecurityGroupRules",
  "ec2:DescribeNetworkInterfaces",
  "ec2:DescribeInstances",
  "ec2:DescribeInstanceAttribute",
  "ec2:DescribeInstanceTypes",
  "ec2:DescribeImages",
  "ec2:DescribeKeyPairs",
  "ec2:DescribeLaunchTemplates",
  "ec2:DescribeLaunchTemplateVersions",
  "ec2:DescribePlacementGroups",
  "ec2:DescribeVolumes",
  "ec2:DescribeVolumesModifications",
  "ec2:DescribeAvailabilityZones",
  "ec2:DescribeTags",
];
const KMS_USE = ["kms:DescribeKey", "kms:CreateGrant", "kms:Decrypt", "kms:GenerateDataKey", "kms:GenerateDataKeyWithoutPlaintext"];

const EKS_CLUSTER = [
  "eks:CreateCluster",
  "eks:DescribeCluster",
  "eks:UpdateClusterConfig",
  "eks:UpdateClusterVersion",
  "eks:DescribeUpdate",
  "eks:DeleteCluster",
  "eks:TagResource",
  "eks:UntagResource",
  "eks:ListTagsForResource",
  ...KMS_USE,
];
const EKS_NODE_GROUP = [
  "eks:CreateNodegroup",
  "eks:DescribeNodegroup",
  "eks:UpdateNodegroupConfig",
  "eks:UpdateNodegroupVersion",
  "eks:DeleteNodegroup",
  "eks:DescribeUpdate",
];
const EKS_ADDON = ["eks:CreateAddon", "eks:DescribeAddon", "eks:UpdateAddon", "eks:DeleteAddon", "eks:DescribeAddonVersions"];

/**
 * Per resource type token: the actions its create, read, update and delete call. Every AWS token
 * the shipped plans create must be here ({@link deployPolicy} refuses an unknown one).
 */
export const DEPLOY_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  "aws:ec2/vpc:Vpc": ["ec2:CreateVpc", "ec2:DeleteVpc", "ec2:ModifyVpcAttribute", ...TAGS_EC2, ...DESCRIBE_EC2],
  "aws:ec2/subnet:Subnet": ["ec2:CreateSubnet", "ec2:DeleteSubnet", "ec2:ModifySubnetAttribute", ...TAGS_EC2],
  "aws:ec2/routeTable:RouteTable": ["ec2:CreateRouteTable", "ec2:DeleteRouteTable", ...TAGS_EC2],
  "aws:ec2/routeTableAssociation:RouteTableAssociation": [
    "ec2:AssociateRouteTable",
    "ec2:DisassociateRouteTable",
    "ec2:ReplaceRouteTableAssociation",
  ],
  "aws:ec2/route:Route": ["ec2:CreateRoute", "ec2:ReplaceRoute", "ec2:DeleteRoute"],
  "aws:ec2/mainRouteTableAssociation:MainRouteTableAssociation": ["ec2:ReplaceRouteTableAssociation"],
  "aws:ec2/defaultRouteTable:DefaultRouteTable": ["ec2:CreateRoute", "ec2:ReplaceRoute", "ec2:DeleteRoute", ...TAGS_EC2],
  "aws:ec2/internetGatewayAttachment:InternetGatewayAttachment": ["ec2:AttachInternetGateway", "ec2:DetachInternetGateway"],
  "aws:ec2/egressOnlyInternetGateway:EgressOnlyInternetGateway": [
    "ec2:CreateEgressOnlyInternetGateway",
    "ec2:DeleteEgressOnlyInternetGateway",
    "ec2:DescribeEgressOnlyInternetGateways",
    ...TAGS_EC2,
  ],
  "aws:ec2/networkAcl:NetworkAcl": ["ec2:CreateNetworkAcl", "ec2:DeleteNetworkAcl", "ec2:ReplaceNetworkAclAssociation", ...TAGS_EC2],
  "aws:ec2/networkAclRule:NetworkAclRule": ["ec2:CreateNetworkAclEntry", "ec2:ReplaceNetworkAclEntry", "ec2:DeleteNetworkAclEntry"],
  "aws:ec2/defaultNetworkAcl:DefaultNetworkAcl": [
    "ec2:CreateNetworkAclEntry",
    "ec2:ReplaceNetworkAclEntry",
    "ec2:DeleteNetworkAclEntry",
    "ec2:ReplaceNetworkAclAssociation",
    ...TAGS_EC2,
  ],
  "aws:ec2/securityGroupRule:SecurityGroupRule": [
    "ec2:AuthorizeSecurityGroupIngress",
    "ec2:AuthorizeSecurityGroupEgress",
    "ec2:RevokeSecurityGroupIngress",
    "ec2:RevokeSecurityGroupEgress",
  ],
  "aws:ec2/internetGateway:InternetGateway": [
    "ec2:CreateInternetGateway",
    "ec2:DeleteInternetGateway",
    "ec2:AttachInternetGateway",
    "ec2:DetachInternetGateway",
    ...TAGS_EC2,
  ],
  "aws:ec2/natGateway:NatGateway": ["ec2:CreateNatGateway", "ec2:DeleteNatGateway", ...TAGS_EC2],
  "aws:ec2/eip:Eip": ["ec2:AllocateAddress", "ec2:ReleaseAddress", "ec2:DisassociateAddress", ...TAGS_EC2],
  "aws:ec2/eipAssociation:EipAssociation": ["ec2:AssociateAddress", "ec2:DisassociateAddress"],
  "aws:ec2/vpcEndpoint:VpcEndpoint": ["ec2:CreateVpcEndpoint", "ec2:ModifyVpcEndpoint", "ec2:DeleteVpcEndpoints", ...TAGS_EC2],
  "aws:ec2/flowLog:FlowLog": ["ec2:CreateFlowLogs", "ec2:DeleteFlowLogs", "logs:CreateLogDelivery", "logs:DeleteLogDelivery", ...TAGS_EC2],
  "aws:ec2/defaultSecurityGroup:DefaultSecurityGroup": [
    "ec2:RevokeSecurityGroupIngress",
    "ec2:RevokeSecurityGroupEgress",
    "ec2:AuthorizeSecurityGroupIngress",
    "ec2:AuthorizeSecurityGroupEgress",
    ...TAGS_EC2,
  ],
  "aws:ec2/securityGroup:SecurityGroup": [
    "ec2:CreateSecurityGroup",
    "ec2:DeleteSecurityGroup",
    "ec2:RevokeSecurityGroupEgress",
    "ec2:RevokeSecurityGroupIngress",
    ...TAGS_EC2,
  ],
  "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule": [
    "ec2:AuthorizeSecurityGroupIngress",
    "ec2:RevokeSecurityGroupIngress",
    "ec2:ModifySecurityGroupRules",
    "ec2:UpdateSecurityGroupRuleDescriptionsIngress",
    ...TAGS_EC2,
  ],
  "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule": [
    "ec2:AuthorizeSecurityGroupEgress",
    "ec2:RevokeSecurityGroupEgress",
    "ec2:ModifySecurityGroupRules",
    "ec2:UpdateSecurityGroupRuleDescriptionsEgress",
    ...TAGS_EC2,
  ],
  "aws:ec2/instance:Instance": [
    "ec2:RunInstances",
    "ec2:TerminateInstances",
    "ec2:StopInstances",
    "ec2:StartInstances",
    "ec2:ModifyInstanceAttribute",
    "ec2:ModifyInstanceMetadataOptions",
    "ec2:DescribeInstanceCreditSpecifications",
    ...TAGS_EC2,
  ],
  "aws:ec2/keyPair:KeyPair": ["ec2:ImportKeyPair", "ec2:DeleteKeyPair", ...TAGS_EC2],
  "aws:ec2/launchTemplate:LaunchTemplate": [
    "ec2:CreateLaunchTemplate",
    "ec2:CreateLaunchTemplateVersion",
    "ec2:ModifyLaunchTemplate",
    "ec2:DeleteLaunchTemplate",
    ...TAGS_EC2,
  ],
  "aws:ec2/placementGroup:PlacementGroup": ["ec2:CreatePlacementGroup", "ec2:DeletePlacementGroup", ...TAGS_EC2],
  "aws:ec2/volumeAttachment:VolumeAttachment": ["ec2:AttachVolume", "ec2:DetachVolume"],
  "aws:ebs/volume:Volume": ["ec2:CreateVolume", "ec2:DeleteVolume", "ec2:ModifyVolume", ...TAGS_EC2],
  "aws:fsx/ontapFileSystem:OntapFileSystem": [
    "fsx:CreateFileSystem",
    "fsx:UpdateFileSystem",
    "fsx:DeleteFileSystem",
    "fsx:DescribeFileSystems",
    "fsx:TagResource",
    "fsx:UntagResource",
    "fsx:ListTagsForResource",
    // FSx creates its ENIs and the Multi-AZ routes in the lab's route tables as the caller.
    "ec2:CreateNetworkInterface",
    "ec2:DeleteNetworkInterface",
    "ec2:CreateRoute",
    "ec2:ReplaceRoute",
    "ec2:DeleteRoute",
    ...KMS_USE,
  ],
  "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine": [
    "fsx:CreateStorageVirtualMachine",
    "fsx:UpdateStorageVirtualMachine",
    "fsx:DeleteStorageVirtualMachine",
    "fsx:DescribeStorageVirtualMachines",
    "fsx:TagResource",
    "fsx:UntagResource",
    "fsx:ListTagsForResource",
  ],
  "aws:fsx/ontapVolume:OntapVolume": [
    "fsx:CreateVolume",
    "fsx:UpdateVolume",
    "fsx:DeleteVolume",
    "fsx:DescribeVolumes",
    "fsx:TagResource",
    "fsx:UntagResource",
    "fsx:ListTagsForResource",
  ],
  "aws:kms/key:Key": [
    "kms:CreateKey",
    "kms:DescribeKey",
    "kms:GetKeyPolicy",
    "kms:PutKeyPolicy",
    "kms:GetKeyRotationStatus",
    "kms:EnableKeyRotation",
    "kms:DisableKeyRotation",
    "kms:UpdateKeyDescription",
    "kms:ListResourceTags",
    "kms:TagResource",
    "kms:UntagResource",
    "kms:ScheduleKeyDeletion",
  ],
  "aws:kms/alias:Alias": ["kms:CreateAlias", "kms:UpdateAlias", "kms:DeleteAlias", "kms:ListAliases"],
  "aws:secretsmanager/secret:Secret": [
    "secretsmanager:CreateSecret",
    "secretsmanager:DescribeSecret",
    "secretsmanager:UpdateSecret",
    "secretsmanager:DeleteSecret",
    "secretsmanager:GetResourcePolicy",
    "secretsmanager:TagResource",
    "secretsmanager:UntagResource",
    ...KMS_USE,
  ],
  "aws:secretsmanager/secretVersion:SecretVersion": [
    "secretsmanager:PutSecretValue",
    "secretsmanager:GetSecretValue",
    "secretsmanager:UpdateSecretVersionStage",
    ...KMS_USE,
  ],
  "aws:secretsmanager/secretPolicy:SecretPolicy": [
    "secretsmanager:PutResourcePolicy",
    "secretsmanager:GetResourcePolicy",
    "secretsmanager:DeleteResourcePolicy",
  ],
  "aws:cloudwatch/logGroup:LogGroup": [
    "logs:CreateLogGroup",
    "logs:DeleteLogGroup",
    "logs:DescribeLogGroups",
    "logs:PutRetentionPolicy",
    "logs:DeleteRetentionPolicy",
    "logs:AssociateKmsKey",
    "logs:DisassociateKmsKey",
    "logs:TagResource",
    "logs:UntagResource",
    "logs:ListTagsForResource",
  ],
  "aws:ecr/repository:Repository": [
    "ecr:CreateRepository",
    "ecr:DeleteRepository",
    "ecr:DescribeRepositories",
    "ecr:PutImageScanningConfiguration",
    "ecr:PutImageTagMutability",
    "ecr:TagResource",
    "ecr:UntagResource",
    "ecr:ListTagsForResource",
    "ecr:BatchDeleteImage",
    "ecr:ListImages",
  ],
  "aws:ecr/lifecyclePolicy:LifecyclePolicy": ["ecr:PutLifecyclePolicy", "ecr:GetLifecyclePolicy", "ecr:DeleteLifecyclePolicy"],
  // Pushed by the deploying machine's Docker daemon with a token the provider fetches.
  "docker-build:index:Image": [
    "ecr:GetAuthorizationToken",
    "ecr:BatchCheckLayerAvailability",
    "ecr:InitiateLayerUpload",
    "ecr:UploadLayerPart",
    "ecr:CompleteLayerUpload",
    "ecr:PutImage",
    "ecr:BatchGetImage",
    "ecr:DescribeImages",
  ],
  "aws:eks/cluster:Cluster": EKS_CLUSTER,
  "aws:eks/nodeGroup:NodeGroup": EKS_NODE_GROUP,
  "aws:eks/addon:Addon": EKS_ADDON,
  "aws:eks/accessEntry:AccessEntry": ["eks:CreateAccessEntry", "eks:DescribeAccessEntry", "eks:UpdateAccessEntry", "eks:DeleteAccessEntry"],
  "aws:eks/accessPolicyAssociation:AccessPolicyAssociation": [
    "eks:AssociateAccessPolicy",
    "eks:DisassociateAccessPolicy",
    "eks:ListAssociatedAccessPolicies",
  ],
  "aws:eks/podIdentityAssociation:PodIdentityAssociation": [
    "eks:CreatePodIdentityAssociation",
    "eks:DescribePodIdentityAssociation",
    "eks:UpdatePodIdentityAssociation",
    "eks:DeletePodIdentityAssociation",
  ],
  // pulumi-eks 4.3.0's Cluster: the EKS cluster, its vpc-cni and kube-proxy add-ons, the nodes'
  // access entries and the security-group lookups. The lab creates no IAM OIDC provider
  // (components/eks/index.ts `createOidcProvider: false`) and the deploy identity may not delete
  // one: an eks stack deployed before that still has one needs the account's admin to delete it
  // (docs/security.md).
  // The access entries of lab:adminRoleArns (and lab run --cleanup-role-arn) with their cluster-admin
  // access policy: pulumi-eks creates an aws.eks.AccessEntry and a child AccessPolicyAssociation each.
  "eks:index:Cluster": [
    ...EKS_CLUSTER,
    ...EKS_ADDON,
    "eks:CreateAccessEntry",
    "eks:DescribeAccessEntry",
    "eks:DeleteAccessEntry",
    "eks:AssociateAccessPolicy",
    "eks:DisassociateAccessPolicy",
    "eks:ListAssociatedAccessPolicies",
  ],
  // pulumi-eks 4.3.0's ManagedNodeGroup: an EKS managed node group from the lab's launch template.
  "eks:index:ManagedNodeGroup": [...EKS_NODE_GROUP, "eks:TagResource", "ssm:GetParameter"],
  // IAM: the lab's role path, boundary and planned managed policies (see deployPolicy).
  "aws:iam/role:Role": [
    "iam:CreateRole",
    "iam:GetRole",
    "iam:UpdateRole",
    "iam:UpdateRoleDescription",
    "iam:UpdateAssumeRolePolicy",
    "iam:PutRolePermissionsBoundary",
    "iam:TagRole",
    "iam:UntagRole",
    "iam:ListRoleTags",
    "iam:ListRolePolicies",
    "iam:ListAttachedRolePolicies",
    "iam:ListInstanceProfilesForRole",
    "iam:DeleteRole",
  ],
  "aws:iam/rolePolicy:RolePolicy": ["iam:PutRolePolicy", "iam:GetRolePolicy", "iam:DeleteRolePolicy"],
  // A customer managed policy (terraform-provider-aws internal/service/iam/policy.go: CreatePolicy with
  // its tags; an update is CreatePolicyVersion as default, deleting the oldest version at five; the
  // delete removes the non-default versions first).
  "aws:iam/policy:Policy": [
    "iam:CreatePolicy",
    "iam:GetPolicy",
    "iam:GetPolicyVersion",
    "iam:ListPolicyVersions",
    "iam:ListPolicyTags",
    "iam:CreatePolicyVersion",
    "iam:DeletePolicyVersion",
    "iam:DeletePolicy",
    "iam:TagPolicy",
    "iam:UntagPolicy",
  ],
  "aws:iam/rolePolicyAttachment:RolePolicyAttachment": ["iam:AttachRolePolicy", "iam:DetachRolePolicy", "iam:ListAttachedRolePolicies"],
};

/**
 * Tokens of the type table the lab reads (its policy rules check them) but never creates, with why
 * {@link deployPolicy} has no actions for them: a stack that starts creating one fails the
 * generator, so the new IAM reach is reviewed rather than granted silently.
 */
export const NOT_DEPLOYED: Readonly<Record<string, string>> = {
  "aws:iam/userPolicy:UserPolicy": "IAM users: the lab creates none (workloads use roles: Pod Identity, instance profiles)",
  "aws:iam/groupPolicy:GroupPolicy": "IAM groups: the lab creates none",
};

/** Reads every deployment makes whatever it creates: the providers' data sources and identity checks. */
export const DEPLOY_READS: readonly string[] = [
  "sts:GetCallerIdentity",
  "ec2:DescribeAvailabilityZones",
  "ec2:DescribeRegions",
  "ec2:DescribeImages",
  "ec2:DescribeInstanceTypeOfferings",
  "ec2:DescribeInstanceTypes",
  "ssm:GetParameter",
  "eks:DescribeAddonVersions",
  "iam:GetPolicy",
  "iam:GetPolicyVersion",
];

/** The services the lab's roles are passed to (PassRole's `iam:PassedToService`). */
export const PASSED_TO_SERVICES = ["eks.amazonaws.com", "ec2.amazonaws.com", "vpc-flow-logs.amazonaws.com", "pods.eks.amazonaws.com"];
/** The service-linked roles the services the lab uses create on first use. */
export const SERVICE_LINKED_ROLES = ["eks.amazonaws.com", "eks-nodegroup.amazonaws.com", "fsx.amazonaws.com", "autoscaling.amazonaws.com"];

/** Every role the lab creates: under its path (components/lib/iam.ts). */
export const ROLE_ARN = `arn:aws:iam::*:role${LAB_IAM_PATH}*`;
/** Every customer managed policy the lab creates: under the same path (components/eks/index.ts). */
export const POLICY_ARN = `arn:aws:iam::*:policy${LAB_IAM_PATH}*`;

/**
 * AWS managed policies the lab attached before and no longer does: the deploy identity may detach
 * them (a live stack's next `up` does), never attach them.
 */
export const RETIRED_MANAGED_POLICY_ARNS: readonly string[] = [EBS_CSI_RETIRED_POLICY_ARN];

/** The calls that write or delete a managed policy: never on the permissions boundary. */
const POLICY_WRITES = [
  "iam:CreatePolicy",
  "iam:CreatePolicyVersion",
  "iam:DeletePolicy",
  "iam:DeletePolicyVersion",
  "iam:SetDefaultPolicyVersion",
  "iam:TagPolicy",
  "iam:UntagPolicy",
];

/**
 * The permissions boundary `lab plan --deploy-policy` requires unless told another: the sample of
 * docs/permissions-boundary.json created as a customer managed policy of that name under the lab's
 * path, in the deploying account (a boundary must be a managed policy of the role's own account or
 * an AWS managed one, so `*` matches only that account's).
 */
export const DEFAULT_BOUNDARY_ARN = `arn:aws:iam::*:policy${LAB_IAM_PATH}lab-permissions-boundary`;

/** The Sid of the statement of the unconditioned actions on each resource. */
const UNCONDITIONED_SIDS: Readonly<Record<string, string>> = {
  "*": "NoConditionOffered",
  [CREATED_TYPES.networkInterface]: "FsxUntaggedNetworkInterfaces",
  [UNCONDITIONED["ec2:RunInstances"].resource]: "BootPublicImages",
};

/** The Pulumi project (Pulumi.yaml `name`): the `lab:project` tag of every resource the shipped stacks create. */
export const LAB_PROJECT = "storage-bench-lab";

/** The tag key every lab resource carries and the deploy policy conditions on (core/tags.ts). */
export const PROJECT_TAG = "lab:project";

export type ConditionBlock = Record<string, Record<string, string | readonly string[]>>;
export interface PolicyStatement {
  readonly Sid: string;
  readonly Effect: "Allow" | "Deny";
  readonly Action: readonly string[];
  readonly Resource: string | readonly string[];
  readonly Condition?: ConditionBlock;
}
export interface PolicyDocument {
  readonly Version: "2012-10-17";
  readonly Statement: readonly PolicyStatement[];
}

/** What the deploy policy is made from. */
export interface DeployPolicyInput {
  /** Type tokens the plan creates (others than AWS, pulumi-eks and docker-build are ignored). */
  readonly types: Iterable<string>;
  /** The managed policy ARNs the plan's RolePolicyAttachments attach: the only ones AttachRolePolicy may. */
  readonly managedPolicyArns: Iterable<string>;
  /** The Pulumi project: the `lab:project` tag value of every resource the stacks create. */
  readonly project: string;
  /** The boundary every lab role must carry (`lab:permissionsBoundaryArn`); null: none required (escalation through a role's inline policy stays open). */
  readonly permissionsBoundaryArn: string | null;
}

/** The AWS tokens among `types` (the lab's other packages make no AWS call of their own). */
export function awsTypes(types: Iterable<string>): string[] {
  return [...new Set(types)].filter((t) => t.startsWith("aws:") || t.startsWith("eks:") || t.startsWith("docker-build:")).sort();
}

const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();
const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The planned actions, every token known (an unknown one is an error naming every such token). */
function plannedActions(types: Iterable<string>): Set<string> {
  const tokens = awsTypes(types);
  const unknown = tokens.filter((t) => !Object.prototype.hasOwnProperty.call(DEPLOY_ACTIONS, t) || t in NOT_DEPLOYED);
  if (unknown.length > 0)
    throw new Error(
      `no deploy actions for resource type(s) ${unknown.join(", ")}: add them to DEPLOY_ACTIONS in lab/policy/deploy-policy.ts`,
    );
  return new Set([...DEPLOY_READS, ...tokens.flatMap((t) => DEPLOY_ACTIONS[t])]);
}

/** Per created resource type, the creates of the plan that make it: each only with the lab's request tag. */
function createStatements(actions: readonly string[], project: string): PolicyStatement[] {
  const byType = new Map<CreatedType, string[]>();
  for (const a of actions) for (const t of CREATES[a] ?? []) byType.set(t, [...(byType.get(t) ?? []), a]);
  return [...byType.keys()].sort().map((t) => ({
    Sid: `Create${pascal(t)}WithLabTag`,
    Effect: "Allow",
    Action: sorted(byType.get(t)!),
    Resource: CREATED_TYPES[t],
    Condition: { StringEquals: { [`aws:RequestTag/${PROJECT_TAG}`]: project } },
  }));
}

/** Tagging: EC2 only as part of a create, and every service's only on resources already the lab's, never the project tag itself. */
function taggingStatements(actions: readonly string[], project: string): PolicyStatement[] {
  const ec2Creates = actions.filter((a) => a.startsWith("ec2:") && a in CREATES);
  const out: PolicyStatement[] = [];
  if (actions.includes("ec2:CreateTags") && ec2Creates.length > 0)
    out.push({
      Sid: "TagEc2OnlyOnCreate",
      Effect: "Allow",
      Action: ["ec2:CreateTags"],
      Resource: sorted(ec2Creates.flatMap((a) => CREATES[a].map((t) => CREATED_TYPES[t]))),
      // The API name without the service prefix (EC2 User Guide, "Grant permission to tag Amazon EC2 resources during creation").
      Condition: {
        StringEquals: {
          "ec2:CreateAction": sorted(ec2Creates.map((a) => a.slice("ec2:".length))),
          [`aws:RequestTag/${PROJECT_TAG}`]: project,
        },
      },
    });
  const tagging = sorted(actions.filter(isTagging));
  if (tagging.length > 0)
    out.push({
      Sid: "RetagOnlyLabResources",
      Effect: "Allow",
      Action: tagging,
      Resource: "*",
      Condition: {
        StringEquals: { [`aws:ResourceTag/${PROJECT_TAG}`]: project },
        "ForAllValues:StringNotEquals": { "aws:TagKeys": [PROJECT_TAG] },
      },
    });
  return out;
}

/** The reads of a customer managed policy (GetPolicy and GetPolicyVersion also of AWS managed ones: ReadManagedPolicies). */
const POLICY_READS = ["iam:GetPolicy", "iam:GetPolicyVersion", "iam:ListPolicyVersions", "iam:ListPolicyTags"];

/**
 * The lab's customer managed policies: created under its path with its tag, read, versioned,
 * retagged and deleted only there and only when tagged; the boundary never written (see the module
 * comment). What such a policy may grant is bounded as an inline policy is: it is attached only to
 * lab roles, only with the boundary (AttachOnlyThePlannedManagedPolicies).
 */
function policyStatements(actions: readonly string[], input: DeployPolicyInput): PolicyStatement[] {
  if (!actions.includes("iam:CreatePolicy")) return [];
  const tagged: ConditionBlock = { StringEquals: { [`aws:ResourceTag/${PROJECT_TAG}`]: input.project } };
  const has = (a: string) => actions.includes(a);
  const out: PolicyStatement[] = [
    { Sid: "ReadLabPolicies", Effect: "Allow", Action: sorted(POLICY_READS.filter(has)), Resource: POLICY_ARN },
    {
      Sid: "CreateLabPoliciesWithLabTag",
      Effect: "Allow",
      Action: ["iam:CreatePolicy"],
      Resource: POLICY_ARN,
      Condition: { StringEquals: { [`aws:RequestTag/${PROJECT_TAG}`]: input.project } },
    },
    {
      Sid: "ChangeLabPolicies",
      Effect: "Allow",
      Action: sorted(["iam:CreatePolicyVersion", "iam:DeletePolicyVersion", "iam:DeletePolicy"].filter(has)),
      Resource: POLICY_ARN,
      Condition: tagged,
    },
    {
      Sid: "RetagLabPolicies",
      Effect: "Allow",
      Action: sorted(["iam:TagPolicy", "iam:UntagPolicy"].filter(has)),
      Resource: POLICY_ARN,
      Condition: { ...tagged, "ForAllValues:StringNotEquals": { "aws:TagKeys": [PROJECT_TAG] } },
    },
  ];
  const boundary = input.permissionsBoundaryArn;
  if (boundary !== null) out.push({ Sid: "NeverWriteTheBoundary", Effect: "Deny", Action: POLICY_WRITES, Resource: boundary });
  return out.filter((st) => st.Action.length > 0);
}

/** The actions on the lab's roles, each with the conditions that keep a role from gaining power. */
function iamStatements(actions: readonly string[], input: DeployPolicyInput): PolicyStatement[] {
  const has = (a: string) => actions.includes(a);
  const boundary = input.permissionsBoundaryArn;
  const boundaryCondition: ConditionBlock =
    boundary === null ? {} : { [boundary.includes("*") ? "StringLike" : "StringEquals"]: { "iam:PermissionsBoundary": boundary } };
  const tagged: ConditionBlock = { StringEquals: { [`aws:ResourceTag/${PROJECT_TAG}`]: input.project } };
  const policies = sorted(input.managedPolicyArns);
  const bounded = ["iam:CreateRole", "iam:PutRolePolicy", ...(boundary === null ? [] : ["iam:PutRolePermissionsBoundary"])].filter(has);
  const reads = actions.filter((a) => a.startsWith("iam:") && /^iam:(Get|List)/.test(a) && !POLICY_READS.includes(a));
  const changes = ["iam:UpdateRole", "iam:UpdateRoleDescription", "iam:UpdateAssumeRolePolicy", "iam:DeleteRole", "iam:DeleteRolePolicy"];
  const out: PolicyStatement[] = [];
  const push = (s: PolicyStatement) => s.Action.length > 0 && out.push(s);
  push({ Sid: "ReadLabRoles", Effect: "Allow", Action: sorted(reads), Resource: ROLE_ARN });
  push({
    Sid: "CreateLabRolesWithBoundary",
    Effect: "Allow",
    Action: ["iam:CreateRole"].filter(has),
    Resource: ROLE_ARN,
    Condition: {
      ...boundaryCondition,
      StringEquals: { ...(boundaryCondition.StringEquals ?? {}), [`aws:RequestTag/${PROJECT_TAG}`]: input.project },
    },
  });
  push({
    Sid: "GiveLabRolesPowerOnlyWithinBoundary",
    Effect: "Allow",
    Action: bounded.filter((a) => a !== "iam:CreateRole"),
    Resource: ROLE_ARN,
    ...(boundary === null ? {} : { Condition: boundaryCondition }),
  });
  push({
    Sid: "AttachOnlyThePlannedManagedPolicies",
    Effect: "Allow",
    Action: ["iam:AttachRolePolicy"].filter(has),
    Resource: ROLE_ARN,
    Condition: { ...boundaryCondition, ArnEquals: { "iam:PolicyARN": policies } },
  });
  push({
    Sid: "DetachOnlyThePlannedManagedPolicies",
    Effect: "Allow",
    Action: ["iam:DetachRolePolicy"].filter(has),
    Resource: ROLE_ARN,
    Condition: { ArnEquals: { "iam:PolicyARN": sorted([...policies, ...RETIRED_MANAGED_POLICY_ARNS]) } },
  });
  push({ Sid: "ChangeLabRoles", Effect: "Allow", Action: sorted(changes.filter(has)), Resource: ROLE_ARN, Condition: tagged });
  push({
    Sid: "RetagLabRoles",
    Effect: "Allow",
    Action: sorted(["iam:TagRole", "iam:UntagRole"].filter(has)),
    Resource: ROLE_ARN,
    Condition: { ...tagged, "ForAllValues:StringNotEquals": { "aws:TagKeys": [PROJECT_TAG] } },
  });
  if (out.length === 0) return out;
  out.push({
    Sid: "PassLabRolesToTheirServices",
    Effect: "Allow",
    Action: ["iam:PassRole"],
    Resource: ROLE_ARN,
    Condition: { StringEquals: { "iam:PassedToService": PASSED_TO_SERVICES } },
  });
  out.push({
    Sid: "ServiceLinkedRoles",
    Effect: "Allow",
    Action: ["iam:CreateServiceLinkedRole"],
    Resource: "*",
    Condition: { StringEquals: { "iam:AWSServiceName": SERVICE_LINKED_ROLES } },
  });
  out.push({ Sid: "NeverAssumeLabRoles", Effect: "Deny", Action: ["sts:AssumeRole"], Resource: ROLE_ARN });
  return out;
}

/**
 * The deploy policy for a plan (see the module comment for its shape). An AWS token without an
 * entry in {@link DEPLOY_ACTIONS} is an error naming every such token.
 */
export function deployPolicy(input: DeployPolicyInput): PolicyDocument {
  const all = sorted(plannedActions(input.types));
  const nonIam = all.filter((a) => !a.startsWith("iam:"));
  const tagged: ConditionBlock = { StringEquals: { [`aws:ResourceTag/${PROJECT_TAG}`]: input.project } };
  const reads = nonIam.filter((a) => isRead(a) && a !== "ssm:GetParameter");
  const changes = nonIam.filter(
    (a) => !isRead(a) && !isTagging(a) && (!(a in CREATES) || NAMES_PARENT.has(a)) && (!(a in UNCONDITIONED) || NAMES_PARENT.has(a)),
  );
  const unconditioned = nonIam.filter((a) => a in UNCONDITIONED);
  const byResource = new Map<string, string[]>();
  for (const a of unconditioned) byResource.set(UNCONDITIONED[a].resource, [...(byResource.get(UNCONDITIONED[a].resource) ?? []), a]);
  const statements: PolicyStatement[] = [
    { Sid: "Read", Effect: "Allow", Action: reads, Resource: "*" },
    ...(all.includes("ssm:GetParameter")
      ? [{ Sid: "ReadPublicParameters", Effect: "Allow" as const, Action: ["ssm:GetParameter"], Resource: PUBLIC_PARAMETERS }]
      : []),
    {
      Sid: "ReadManagedPolicies",
      Effect: "Allow",
      Action: ["iam:GetPolicy", "iam:GetPolicyVersion"],
      Resource: "arn:aws:iam::aws:policy/*",
    },
    ...createStatements(nonIam, input.project),
    { Sid: "ChangeOnlyLabResources", Effect: "Allow", Action: changes, Resource: "*", Condition: tagged },
    ...taggingStatements(nonIam, input.project),
    ...[...byResource.keys()].sort().map((r) => ({
      Sid: UNCONDITIONED_SIDS[r] ?? "NoConditionOffered",
      Effect: "Allow" as const,
      Action: sorted(byResource.get(r)!),
      Resource: r,
    })),
    ...iamStatements(all, input),
    ...policyStatements(all, input),
  ];
  return { Version: "2012-10-17", Statement: statements.filter((s) => s.Action.length > 0) };
}

/** docs/deploy-policy.json's text: the document, two-space indented, with a final newline. */
export function renderDeployPolicy(input: DeployPolicyInput): string {
  return `${JSON.stringify(deployPolicy(input), null, 2)}\n`;
}

/** The services the lab's own roles call (their inline and managed policies): the boundary's ceiling. */
export const BOUNDARY_SERVICES = [
  "autoscaling",
  "ec2",
  "ecr",
  "eks",
  "eks-auth",
  "elasticloadbalancing",
  "fsx",
  "kms",
  "logs",
  "secretsmanager",
  "ssm",
];

/**
 * docs/permissions-boundary.json: a sample boundary for `lab:permissionsBoundaryArn` (create it as
 * the customer managed policy {@link DEFAULT_BOUNDARY_ARN} names). A role's effective permissions
 * are the intersection of its policies and its boundary, and an explicit deny in the boundary wins
 * (IAM User Guide, "Permissions boundaries for IAM entities", "Policy evaluation logic"): whatever
 * policy the deploy identity writes on a lab role, the role gets no IAM action, cannot assume a role
 * of another account, and reads no secret and decrypts with no key that is not the lab's.
 */
export function permissionsBoundary(project: string): PolicyDocument {
  const notLab: ConditionBlock = {
    StringNotEquals: { [`aws:ResourceTag/${PROJECT_TAG}`]: project },
    Bool: { "aws:ViaAWSService": "false" },
  };
  return {
    Version: "2012-10-17",
    Statement: [
      { Sid: "CeilingTheLabServices", Effect: "Allow", Action: BOUNDARY_SERVICES.map((s) => `${s}:*`), Resource: "*" },
      { Sid: "NoIam", Effect: "Deny", Action: ["iam:*", "organizations:*", "account:*"], Resource: "*" },
      {
        Sid: "NoRoleAssumptionAcrossAccounts",
        Effect: "Deny",
        Action: ["sts:AssumeRole", "sts:AssumeRoleWithSAML", "sts:AssumeRoleWithWebIdentity"],
        Resource: "*",
        Condition: { StringNotEquals: { "aws:ResourceAccount": "${aws:PrincipalAccount}" } },
      },
      {
        Sid: "NoOtherSecretsOrKeys",
        Effect: "Deny",
        Action: ["secretsmanager:GetSecretValue", "kms:Decrypt"],
        Resource: "*",
        Condition: notLab,
      },
    ],
  };
}

/** docs/permissions-boundary.json's text. */
export function renderPermissionsBoundary(project: string): string {
  return `${JSON.stringify(permissionsBoundary(project), null, 2)}\n`;
}
