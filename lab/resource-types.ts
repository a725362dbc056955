/**
 * The one list of the Pulumi resource type tokens the lab knows, and what it knows about each.
 * The offline plan's fake ids (lab/plan/fakes.ts), the hourly cost estimate (lab/cost/estimate.ts)
 * and the policy rules (lab/policy/) all key off this table: a new resource type is one entry
 * here (plus, for a priced type, its pricing function, which the type checker then demands).
 * Pure data: no Pulumi imports.
 *
 * Cost, for the estimate:
 * - `priced`: an hourly or monthly charge of its own, priced by a function of its inputs
 *   (lab/cost/estimate.ts `PRICERS`, keyed by these tokens);
 * - `free`: no charge of its own (VPC plumbing, security groups and rules, key pairs, attachments,
 *   aliases, secret versions (billed per secret), FSx SVMs (FSx bills the file system), EKS add-on
 *   and access objects, Kubernetes objects (they run on nodes priced as instances), providers);
 * - `usage-billed`: no fixed hourly charge, billed by what is stored or sent (log ingestion and
 *   storage, flow-log delivery, FSx volumes: their data is the file system's SSD, priced there,
 *   or capacity-pool usage; ECR storage, images pushed to it included): counted in the estimate's
 *   notes, not estimated.
 * A token neither in the table nor in a {@link TYPE_FAMILIES} family is "not priced" in the
 * estimate, with the reason.
 *
 * `idPrefix`: the AWS id prefix the offline plan gives the type's fake ids (`vpc-<17 hex>`);
 * without one a fake id is `<name>-<8 hex>`.
 */

export type Cost = "priced" | "free" | "usage-billed";

export interface ResourceTypeInfo {
  /** The short name code uses for the token (`TYPES.<name>`), unique in the table. */
  readonly name: string;
  readonly cost: Cost;
  /** The prefix of the offline plan's fake id (lab/plan/fakes.ts). */
  readonly idPrefix?: string;
}

/** Every type token the lab knows by name. Tokens are the SDKs' own (`<package>:<module>:<Type>`). */
export const RESOURCE_TYPES = {
  // VPC plumbing
  "aws:ec2/vpc:Vpc": { name: "vpc", cost: "free", idPrefix: "vpc-" },
  "aws:ec2/subnet:Subnet": { name: "subnet", cost: "free", idPrefix: "subnet-" },
  "aws:ec2/routeTable:RouteTable": { name: "routeTable", cost: "free", idPrefix: "rtb-" },
  "aws:ec2/routeTableAssociation:RouteTableAssociation": { name: "routeTableAssociation", cost: "free" },
  "aws:ec2/route:Route": { name: "route", cost: "free" },
  "aws:ec2/mainRouteTableAssociation:MainRouteTableAssociation": { name: "mainRouteTableAssociation", cost: "free" },
  "aws:ec2/defaultRouteTable:DefaultRouteTable": { name: "defaultRouteTable", cost: "free" },
  "aws:ec2/internetGateway:InternetGateway": { name: "internetGateway", cost: "free", idPrefix: "igw-" },
  "aws:ec2/internetGatewayAttachment:InternetGatewayAttachment": { name: "internetGatewayAttachment", cost: "free" },
  "aws:ec2/egressOnlyInternetGateway:EgressOnlyInternetGateway": { name: "egressOnlyInternetGateway", cost: "free" },
  "aws:ec2/natGateway:NatGateway": { name: "natGateway", cost: "priced", idPrefix: "nat-" },
  "aws:ec2/eip:Eip": { name: "eip", cost: "priced", idPrefix: "eipalloc-" },
  "aws:ec2/eipAssociation:EipAssociation": { name: "eipAssociation", cost: "free" },
  "aws:ec2/vpcEndpoint:VpcEndpoint": { name: "vpcEndpoint", cost: "priced", idPrefix: "vpce-" },
  "aws:ec2/flowLog:FlowLog": { name: "flowLog", cost: "usage-billed", idPrefix: "fl-" },
  "aws:ec2/networkAcl:NetworkAcl": { name: "networkAcl", cost: "free" },
  "aws:ec2/networkAclRule:NetworkAclRule": { name: "networkAclRule", cost: "free" },
  "aws:ec2/defaultNetworkAcl:DefaultNetworkAcl": { name: "defaultNetworkAcl", cost: "free" },
  // Security groups
  "aws:ec2/securityGroup:SecurityGroup": { name: "securityGroup", cost: "free", idPrefix: "sg-" },
  "aws:ec2/defaultSecurityGroup:DefaultSecurityGroup": { name: "defaultSecurityGroup", cost: "free", idPrefix: "sg-" },
  "aws:ec2/securityGroupRule:SecurityGroupRule": { name: "securityGroupRule", cost: "free" },
  "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule": { name: "ingressRule", cost: "free", idPrefix: "sgr-" },
  "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule": { name: "egressRule", cost: "free", idPrefix: "sgr-" },
  // EC2 and EBS
  "aws:ec2/instance:Instance": { name: "instance", cost: "priced", idPrefix: "i-" },
  "aws:ec2/keyPair:KeyPair": { name: "keyPair", cost: "free", idPrefix: "key-" },
  "aws:ec2/launchTemplate:LaunchTemplate": { name: "launchTemplate", cost: "free", idPrefix: "lt-" },
  "aws:ec2/placementGroup:PlacementGroup": { name: "placementGroup", cost: "free", idPrefix: "pg-" },
  "aws:ec2/volumeAttachment:VolumeAttachment": { name: "volumeAttachment", cost: "free" },
  "aws:ebs/volume:Volume": { name: "ebsVolume", cost: "priced", idPrefix: "vol-" },
  // FSx for NetApp ONTAP
  "aws:fsx/ontapFileSystem:OntapFileSystem": { name: "ontapFileSystem", cost: "priced", idPrefix: "fs-" },
  "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine": { name: "ontapStorageVirtualMachine", cost: "free", idPrefix: "svm-" },
  "aws:fsx/ontapVolume:OntapVolume": { name: "ontapVolume", cost: "usage-billed", idPrefix: "fsvol-" },
  // Keys, secrets, logs, images
  "aws:kms/key:Key": { name: "kmsKey", cost: "priced" },
  "aws:kms/alias:Alias": { name: "kmsAlias", cost: "free" },
  "aws:secretsmanager/secret:Secret": { name: "secretsManagerSecret", cost: "priced" },
  "aws:secretsmanager/secretVersion:SecretVersion": { name: "secretsManagerSecretVersion", cost: "free" },
  "aws:secretsmanager/secretPolicy:SecretPolicy": { name: "secretsManagerSecretPolicy", cost: "free" },
  "aws:cloudwatch/logGroup:LogGroup": { name: "logGroup", cost: "usage-billed" },
  "aws:ecr/repository:Repository": { name: "ecrRepository", cost: "usage-billed" },
  "aws:ecr/lifecyclePolicy:LifecyclePolicy": { name: "ecrLifecyclePolicy", cost: "free" },
  // An image built by the local Docker daemon and pushed (its storage is the ECR repository's)
  "docker-build:index:Image": { name: "dockerBuildImage", cost: "free" },
  // EKS
  "aws:eks/cluster:Cluster": { name: "eksCluster", cost: "priced" },
  "aws:eks/nodeGroup:NodeGroup": { name: "eksNodeGroup", cost: "priced" },
  "aws:eks/addon:Addon": { name: "eksAddon", cost: "free" },
  "aws:eks/accessEntry:AccessEntry": { name: "eksAccessEntry", cost: "free" },
  "aws:eks/accessPolicyAssociation:AccessPolicyAssociation": { name: "eksAccessPolicyAssociation", cost: "free" },
  "aws:eks/podIdentityAssociation:PodIdentityAssociation": { name: "eksPodIdentityAssociation", cost: "free" },
  // pulumi-eks components: remote components, planned as one resource each (their children are not)
  "eks:index:Cluster": { name: "eksComponentCluster", cost: "priced" },
  "eks:index:ManagedNodeGroup": { name: "eksManagedNodeGroup", cost: "priced" },
  // IAM: the resources that carry policy documents (the policy rules read them; aws:iam/ is a free family)
  "aws:iam/role:Role": { name: "iamRole", cost: "free" },
  "aws:iam/policy:Policy": { name: "iamPolicy", cost: "free" },
  "aws:iam/rolePolicy:RolePolicy": { name: "iamRolePolicy", cost: "free" },
  "aws:iam/userPolicy:UserPolicy": { name: "iamUserPolicy", cost: "free" },
  "aws:iam/groupPolicy:GroupPolicy": { name: "iamGroupPolicy", cost: "free" },
  // Commands run by the deploying machine or over SSH (the policy rules read their lifecycle)
  "command:local:Command": { name: "localCommand", cost: "free" },
  "command:remote:Command": { name: "remoteCommand", cost: "free" },
  // Providers
  "pulumi:providers:aws": { name: "awsProvider", cost: "free" },
  // Kubernetes workloads
  "kubernetes:core/v1:Pod": { name: "pod", cost: "free" },
  "kubernetes:apps/v1:Deployment": { name: "deployment", cost: "free" },
  "kubernetes:apps/v1:StatefulSet": { name: "statefulSet", cost: "free" },
  "kubernetes:apps/v1:DaemonSet": { name: "daemonSet", cost: "free" },
  "kubernetes:apps/v1:ReplicaSet": { name: "replicaSet", cost: "free" },
  "kubernetes:batch/v1:Job": { name: "job", cost: "free" },
  "kubernetes:batch/v1:CronJob": { name: "cronJob", cost: "free" },
  // Kubernetes objects the policy rules read (namespaces and what workloads use)
  "kubernetes:core/v1:Namespace": { name: "namespace", cost: "free" },
  "kubernetes:core/v1:Service": { name: "service", cost: "free" },
  "kubernetes:core/v1:ConfigMap": { name: "configMap", cost: "free" },
  "kubernetes:core/v1:Secret": { name: "kubernetesSecret", cost: "free" },
  "kubernetes:core/v1:ServiceAccount": { name: "serviceAccount", cost: "free" },
  // Priced when its StorageClass is the EBS CSI driver's (a gp3 volume the driver creates for it).
  "kubernetes:core/v1:PersistentVolumeClaim": { name: "persistentVolumeClaim", cost: "priced" },
  "kubernetes:policy/v1:PodDisruptionBudget": { name: "podDisruptionBudget", cost: "free" },
  "kubernetes:networking.k8s.io/v1:NetworkPolicy": { name: "networkPolicy", cost: "free" },
  // RBAC: the narrow identities of the collectors and the experiments (components/lib/rbac.ts)
  "kubernetes:rbac.authorization.k8s.io/v1:Role": { name: "role", cost: "free" },
  "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole": { name: "clusterRole", cost: "free" },
  "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": { name: "roleBinding", cost: "free" },
  "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding": { name: "clusterRoleBinding", cost: "free" },
  // What decides whether pods may mount CSI inline volumes (k8s-no-csi-inline-volumes)
  "kubernetes:storage.k8s.io/v1:CSIDriver": { name: "csiDriver", cost: "free" },
  "kubernetes:helm.sh/v4:Chart": { name: "helmChart", cost: "free" },
} as const satisfies Readonly<Record<string, ResourceTypeInfo>>;

type Table = typeof RESOURCE_TYPES;
/** A token of the table. */
export type TypeToken = keyof Table;
/** The tokens of the table whose cost is `C`. */
export type TokenWithCost<C extends Cost> = { [K in TypeToken]: Table[K]["cost"] extends C ? K : never }[TypeToken];

/** Short name → token, for code (`TYPES.instance` is `"aws:ec2/instance:Instance"`). */
export const TYPES = Object.fromEntries(Object.entries(RESOURCE_TYPES).map(([token, info]) => [info.name, token])) as {
  readonly [K in TypeToken as Table[K]["name"]]: K;
};

/**
 * Whole packages or modules the lab knows as a family, by token prefix, for what it does not list
 * one by one: Pulumi's own resources and providers, the lab's components (local components: the
 * plan sees their children, priced one by one), Kubernetes objects, utility providers, IAM, S3.
 * A token in {@link RESOURCE_TYPES} is judged by its own entry, never by its family. Remote
 * (multi-language) component packages such as pulumi-eks or awsx are not a free family: the offline
 * plan does not see their children, so each of their types is listed (and priced) one by one, or
 * reported as not priced.
 */
export const TYPE_FAMILIES: Readonly<Record<string, Exclude<Cost, "priced">>> = {
  "pulumi:": "free",
  "lab:": "free",
  "kubernetes:": "free",
  "random:": "free",
  "tls:": "free",
  "time:": "free",
  "command:": "free",
  "aws:iam/": "free",
  "aws:s3/": "usage-billed",
};

/** True when `token` is in {@link RESOURCE_TYPES}. */
export function isTypeToken(token: string): token is TypeToken {
  return Object.prototype.hasOwnProperty.call(RESOURCE_TYPES, token);
}

/** What the lab knows of `token`, or `undefined` when it is not in the table. */
export function resourceType(token: string): ResourceTypeInfo | undefined {
  return isTypeToken(token) ? RESOURCE_TYPES[token] : undefined;
}

/** The cost class of `token`: its own entry's, else its longest family's; `undefined` when unknown. */
export function costOf(token: string): Cost | undefined {
  const own = resourceType(token);
  if (own !== undefined) return own.cost;
  const family = Object.keys(TYPE_FAMILIES)
    .filter((prefix) => token.startsWith(prefix))
    .sort((a, b) => b.length - a.length)[0];
  return family === undefined ? undefined : TYPE_FAMILIES[family];
}

/** Token → the prefix of the offline plan's fake id (`vpc-`, `i-`, …), for the tokens that have one. */
export const ID_PREFIXES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(RESOURCE_TYPES as Readonly<Record<string, ResourceTypeInfo>>).flatMap(([token, info]) =>
    info.idPrefix === undefined ? [] : [[token, info.idPrefix]],
  ),
);
