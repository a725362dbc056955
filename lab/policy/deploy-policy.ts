/**
 * The IAM policy the identity that deploys the lab needs (`pulumi up` / `pulumi destroy` of the
 * shipped stacks), generated from the resource types the offline plan creates: `lab plan
 * --deploy-policy` prints it, docs/deploy-policy.json is that output, and a test fails when the two
 * drift or when the plan creates a type this table does not know.
 *
 * Pure: {@link deployPolicy} takes the planned type tokens (lab/resource-types.ts spells them) and
 * returns the document. Per token {@link DEPLOY_ACTIONS} lists what the provider calls to create,
 * read, update, tag and delete it (the AWS provider's CRUD for the resource, as the Service
 * Authorization Reference names the actions). pulumi-eks components are remote: the plan sees the
 * component, not its children, so their token lists their children's actions.
 *
 * Shape, from narrow to broad:
 * - IAM roles only under the lab's path `/storage-bench-lab/` (components/lib/iam.ts), PassRole of
 *   those roles only to the services that take them, service-linked roles only for the services
 *   that create them;
 * - everything else on `"*"`: create calls have no ARN before the resource exists, and the lab's
 *   resources carry its tags (core/tags.ts) rather than a name prefix an ARN pattern could match.
 *   Tighten with `aws:ResourceTag`/`aws:RequestTag` conditions on the lab's tags if your account's
 *   guardrails ask for it (docs/security.md).
 *
 * Not validated against a real account (there is none here): an `AccessDenied` names the missing
 * action; add it to the token's list and regenerate.
 */

import { LAB_IAM_PATH } from "../../components/lib/iam";

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
  // (components/eks/index.ts `createOidcProvider: false`); Get and Delete stay so that an eks stack
  // deployed before deletes its provider on its next `up` or `destroy`.
  "eks:index:Cluster": [
    ...EKS_CLUSTER,
    ...EKS_ADDON,
    "eks:CreateAccessEntry",
    "eks:DescribeAccessEntry",
    "eks:DeleteAccessEntry",
    "iam:GetOpenIDConnectProvider",
    "iam:DeleteOpenIDConnectProvider",
  ],
  // pulumi-eks 4.3.0's ManagedNodeGroup: an EKS managed node group from the lab's launch template.
  "eks:index:ManagedNodeGroup": [...EKS_NODE_GROUP, "eks:TagResource", "ssm:GetParameter"],
  // IAM: scoped to the lab's role path (see deployPolicy).
  "aws:iam/role:Role": [
    "iam:CreateRole",
    "iam:GetRole",
    "iam:UpdateRole",
    "iam:UpdateRoleDescription",
    "iam:UpdateAssumeRolePolicy",
    "iam:PutRolePermissionsBoundary",
    "iam:DeleteRolePermissionsBoundary",
    "iam:TagRole",
    "iam:UntagRole",
    "iam:ListRoleTags",
    "iam:ListRolePolicies",
    "iam:ListAttachedRolePolicies",
    "iam:ListInstanceProfilesForRole",
    "iam:DeleteRole",
  ],
  "aws:iam/rolePolicy:RolePolicy": ["iam:PutRolePolicy", "iam:GetRolePolicy", "iam:DeleteRolePolicy"],
  "aws:iam/rolePolicyAttachment:RolePolicyAttachment": ["iam:AttachRolePolicy", "iam:DetachRolePolicy", "iam:ListAttachedRolePolicies"],
};

/**
 * Tokens of the type table the lab reads (its policy rules check them) but never creates, with why
 * {@link deployPolicy} has no actions for them: a stack that starts creating one fails the
 * generator, so the new IAM reach is reviewed rather than granted silently.
 */
export const NOT_DEPLOYED: Readonly<Record<string, string>> = {
  "aws:iam/policy:Policy": "customer managed policies: the lab's roles carry inline policies (RolePolicy) and AWS managed ones",
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
const ROLE_ARN = `arn:aws:iam::*:role${LAB_IAM_PATH}*`;

export interface PolicyStatement {
  readonly Sid: string;
  readonly Effect: "Allow";
  readonly Action: readonly string[];
  readonly Resource: string | readonly string[];
  readonly Condition?: Record<string, Record<string, string | readonly string[]>>;
}
export interface PolicyDocument {
  readonly Version: "2012-10-17";
  readonly Statement: readonly PolicyStatement[];
}

/** The AWS tokens among `types` (the lab's other packages make no AWS call of their own). */
export function awsTypes(types: Iterable<string>): string[] {
  return [...new Set(types)].filter((t) => t.startsWith("aws:") || t.startsWith("eks:") || t.startsWith("docker-build:")).sort();
}

/**
 * The deploy policy for a plan that creates `types` (type tokens; others than AWS, pulumi-eks and
 * docker-build are ignored). An AWS token without an entry in {@link DEPLOY_ACTIONS} is an error
 * naming every such token.
 */
export function deployPolicy(types: Iterable<string>): PolicyDocument {
  const tokens = awsTypes(types);
  const unknown = tokens.filter((t) => !Object.prototype.hasOwnProperty.call(DEPLOY_ACTIONS, t) || t in NOT_DEPLOYED);
  if (unknown.length > 0)
    throw new Error(
      `no deploy actions for resource type(s) ${unknown.join(", ")}: add them to DEPLOY_ACTIONS in lab/policy/deploy-policy.ts`,
    );
  const all = new Set([...DEPLOY_READS, ...tokens.flatMap((t) => DEPLOY_ACTIONS[t])]);
  const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
  const iam = sorted(
    [...all].filter(
      (a) => a.startsWith("iam:") && !a.includes("OpenIDConnectProvider") && a !== "iam:GetPolicy" && a !== "iam:GetPolicyVersion",
    ),
  );
  const oidc = sorted([...all].filter((a) => a.includes("OpenIDConnectProvider")));
  const rest = sorted([...all].filter((a) => !a.startsWith("iam:")));
  const statements: PolicyStatement[] = [
    { Sid: "LabResources", Effect: "Allow", Action: rest, Resource: "*" },
    {
      Sid: "ReadManagedPolicies",
      Effect: "Allow",
      Action: ["iam:GetPolicy", "iam:GetPolicyVersion"],
      Resource: "arn:aws:iam::aws:policy/*",
    },
  ];
  if (iam.length > 0) {
    statements.push({ Sid: "LabRolesOnly", Effect: "Allow", Action: iam, Resource: ROLE_ARN });
    statements.push({
      Sid: "PassLabRolesToTheirServices",
      Effect: "Allow",
      Action: ["iam:PassRole"],
      Resource: ROLE_ARN,
      Condition: { StringEquals: { "iam:PassedToService": PASSED_TO_SERVICES } },
    });
    statements.push({
      Sid: "ServiceLinkedRoles",
      Effect: "Allow",
      Action: ["iam:CreateServiceLinkedRole"],
      Resource: "*",
      Condition: { StringEquals: { "iam:AWSServiceName": SERVICE_LINKED_ROLES } },
    });
  }
  if (oidc.length > 0)
    statements.push({ Sid: "ClusterOidcProviders", Effect: "Allow", Action: oidc, Resource: "arn:aws:iam::*:oidc-provider/oidc.eks.*" });
  return { Version: "2012-10-17", Statement: statements };
}

/** docs/deploy-policy.json's text: the document, two-space indented, with a final newline. */
export function renderDeployPolicy(types: Iterable<string>): string {
  return `${JSON.stringify(deployPolicy(types), null, 2)}\n`;
}
