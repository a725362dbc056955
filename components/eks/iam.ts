/**
 * IAM documents of the EKS cluster's roles (pure JSON builders; the component turns them into
 * `aws.iam.Role`s, the tests read them).
 *
 * Sources:
 * - Node role: EKS User Guide, security/iam-reference/create-node-role.adoc: "Ensure that the
 *   AmazonEKSWorkerNodePolicy and AmazonEC2ContainerRegistryPullOnly managed policies are attached",
 *   and "If you don't use IRSA or EKS Pod Identity to give permissions to the VPC CNI pods, then you
 *   must provide permissions for the VPC CNI on the instance role" (AmazonEKS_CNI_Policy, IPv4
 *   clusters). The lab keeps the CNI policy on the node role: pulumi-eks creates the vpc-cni add-on
 *   together with the cluster, before any role could trust the cluster's pods.
 * - Pod Identity roles: EKS User Guide, manage-access/aws-access/service-accounts.adoc, the trust
 *   policy "AllowEksAuthToAssumeRoleForPodIdentity": principal `pods.eks.amazonaws.com`, actions
 *   `sts:AssumeRole` and `sts:TagSession`; conditioned on the session tags EKS Pod Identity sets
 *   (EKS User Guide "Create IAM role with trust policy required by EKS Pod Identity", pod-id-role,
 *   "Setting Conditions", and the tag list in pod-id-abac: `eks-cluster-name`,
 *   `kubernetes-namespace`, `kubernetes-service-account`), so that only the one service account of
 *   the one cluster can assume the role, not any Pod Identity association of the account.
 * - EBS CSI driver: service account `ebs-csi-controller-sa` in `kube-system` (EKS User Guide,
 *   storage/ebs-csi.adoc), with the lab's own customer managed policy {@link ebsCsiControllerPolicy}
 *   instead of AWS's `AmazonEBSCSIDriverPolicy` (which lets the controller attach, modify and
 *   snapshot every EBS volume of the account).
 */
import { logGroupKeyPolicy } from "../lib/logs";

/** A policy document as AWS reads it. */
export interface PolicyDocument {
  readonly Version: "2012-10-17";
  readonly Statement: readonly PolicyStatement[];
}

export interface PolicyStatement {
  readonly Sid?: string;
  readonly Effect: "Allow";
  readonly Principal?: { readonly Service: string } | { readonly AWS: string };
  readonly Action: string | readonly string[];
  readonly Resource?: string | readonly string[];
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

/** AWS managed policies of the node role. */
export const NODE_ROLE_POLICY_ARNS = {
  worker: "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
  ecrPull: "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly",
  cni: "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
} as const;

/**
 * The EBS CSI driver's AWS managed policy, which the lab attached before {@link ebsCsiControllerPolicy}:
 * a live eks stack's next `up` detaches it (the deploy policy may still detach it, never attach it).
 */
export const EBS_CSI_RETIRED_POLICY_ARN = "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy";
/** The EBS CSI controller's service account (in kube-system, the add-on's namespace). */
export const EBS_CSI_SERVICE_ACCOUNT = "ebs-csi-controller-sa";
export const EBS_CSI_NAMESPACE = "kube-system";

/**
 * The cluster's service role (EKS User Guide, security/iam-reference/cluster-iam-role.adoc): trusted
 * by `eks.amazonaws.com`, with the AmazonEKSClusterPolicy managed policy. The lab creates it (instead
 * of pulumi-eks) so that it carries the lab's IAM path and permissions boundary.
 */
export const CLUSTER_ROLE_POLICY_ARN = "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy";

/** Trust policy of the cluster's service role: the EKS service. */
export function clusterTrustPolicy(): PolicyDocument {
  return {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { Service: "eks.amazonaws.com" }, Action: "sts:AssumeRole" }],
  };
}

/** Trust policy of the node role: EC2 instances. */
export function nodeTrustPolicy(): PolicyDocument {
  return {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }],
  };
}

/** Who may assume a Pod Identity role: one service account of one cluster. */
export interface PodIdentitySubject {
  readonly clusterName: string;
  readonly namespace: string;
  readonly serviceAccount: string;
}

/** Trust policy of a role that one service account's pods assume through EKS Pod Identity. */
export function podIdentityTrustPolicy(subject: PodIdentitySubject): PolicyDocument {
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "AllowEksAuthToAssumeRoleForPodIdentity",
        Effect: "Allow",
        Principal: { Service: "pods.eks.amazonaws.com" },
        Action: ["sts:AssumeRole", "sts:TagSession"],
        Condition: {
          StringEquals: {
            "aws:RequestTag/eks-cluster-name": subject.clusterName,
            "aws:RequestTag/kubernetes-namespace": subject.namespace,
            "aws:RequestTag/kubernetes-service-account": subject.serviceAccount,
          },
        },
      },
    ],
  };
}

/** Key policy of the KMS key of the control-plane log group: the shared log-group key policy, for exactly this group. */
export function controlPlaneLogsKeyPolicy(partition: string, account: string, region: string, logGroupName: string): PolicyDocument {
  return logGroupKeyPolicy({
    partition,
    account,
    region,
    logGroupPattern: logGroupName,
    sid: "CloudWatchLogsEncryptsTheControlPlaneLogGroup",
  });
}

/**
 * The tags the EBS CSI controller (kubernetes-sigs/aws-ebs-csi-driver v1.57.1, the driver of the
 * pinned add-on v1.57.1-eksbuild.1) puts on every volume and snapshot it creates, with
 * `--k8s-tag-cluster-id=<cluster>` set ({@link ebsCsiAddonConfiguration}):
 *
 * - `ebs.csi.aws.com/cluster=true` (pkg/cloud/cloud.go:422 `AwsEbsDriverTagKey = <driver name> +
 *   "/cluster"`; set on volumes at pkg/driver/controller.go:127, on snapshots at :867);
 * - `kubernetes.io/cluster/<cluster>=owned` only when `--k8s-tag-cluster-id` is set
 *   (pkg/driver/controller.go:283-285 volumes, :929-931 snapshots; the prefix and value are
 *   pkg/driver/constants.go:150 and :156). A StorageClass's or VolumeSnapshotClass's
 *   `tagSpecification_*` and `--extra-tags` cannot override either: keys under `kubernetes.io` and
 *   the driver's own keys are refused (pkg/driver/validation.go:29-33, :56-60).
 *
 * Both go into the CreateVolume / CreateSnapshot request's TagSpecifications (pkg/cloud/cloud.go:792,
 * :802, :1978), so IAM sees them as `aws:RequestTag/*` and EC2 authorizes their `ec2:CreateTags`
 * with `ec2:CreateAction` (EC2 User Guide, "Grant permission to tag resources during creation").
 * The cluster's name is unique in its account and region (EKS CreateCluster), and the ARNs below
 * name that account and region, so `kubernetes.io/cluster/<cluster>` names this cluster's volumes
 * only; `ebs.csi.aws.com/cluster` keeps out volumes the driver did not create (a node's root
 * volume never carries it).
 */
export const EBS_CSI_DRIVER_TAG = { key: "ebs.csi.aws.com/cluster", value: "true" } as const;

/** `kubernetes.io/cluster/<cluster>`: the driver's cluster tag key (value {@link CLUSTER_OWNED}). */
export function clusterTagKey(clusterName: string): string {
  return `kubernetes.io/cluster/${clusterName}`;
}
export const CLUSTER_OWNED = "owned";

/**
 * The tags the lab's launch templates put on every node instance: `kubernetes.io/cluster/<cluster>=owned`,
 * the tag EKS asks of a cluster's nodes (EKS User Guide nodes/worker.adoc, "add the following tag
 * to each node"), set through the launch template's TagSpecifications, which EKS applies to the
 * node group's instances (nodes/launch-templates.adoc, "Tagging Amazon EC2 instances"). The EBS CSI
 * policy attaches volumes only to instances carrying it.
 */
export function nodeInstanceTags(clusterName: string): Record<string, string> {
  return { [clusterTagKey(clusterName)]: CLUSTER_OWNED };
}

/**
 * The EBS CSI add-on's configuration values: `controller.k8sTagClusterId` (chart
 * charts/aws-ebs-csi-driver values.yaml:264 and values.schema.json:264 at v1.57.1; rendered as the
 * controller's `--k8s-tag-cluster-id` by templates/controller.yaml:82-83).
 */
export function ebsCsiAddonConfiguration(clusterName: string): { controller: { k8sTagClusterId: string } } {
  return { controller: { k8sTagClusterId: clusterName } };
}

/** Where the EBS CSI policy applies: one cluster's volumes in one account and region. */
export interface EbsCsiScope {
  readonly partition: string;
  readonly account: string;
  readonly region: string;
  readonly clusterName: string;
}

/**
 * The EBS CSI controller's Describe calls: the Service Authorization Reference (list_amazonec2.html)
 * lists no resource type and no condition key but `ec2:Region` for any of them ("ec2:Describe*
 * actions do not support resource-level permissions"), so they stay on `*`. Upstream's list
 * (docs/example-iam-policy.json:7-13 at v1.57.1).
 */
export const EBS_CSI_DESCRIBE_ACTIONS = [
  "ec2:DescribeAvailabilityZones",
  "ec2:DescribeInstances",
  "ec2:DescribeSnapshots",
  "ec2:DescribeTags",
  "ec2:DescribeVolumes",
  "ec2:DescribeVolumesModifications",
  "ec2:DescribeVolumeStatus",
] as const;

/**
 * The EBS CSI controller's customer managed policy: upstream's example policy
 * (kubernetes-sigs/aws-ebs-csi-driver v1.57.1 docs/example-iam-policy.json) narrowed to this
 * cluster's tags ({@link EBS_CSI_DRIVER_TAG} and `kubernetes.io/cluster/<cluster>=owned`, both
 * required) in one account and region:
 *
 * - CreateVolume and CreateSnapshot only with both tags in the request; CreateTags only as part of
 *   those two creates, with the same tags (upstream lets CreateVolume through on either tag alone,
 *   `CSIVolumeName=*` included, which any caller can send);
 * - AttachVolume, DetachVolume, ModifyVolume, DeleteVolume, CreateSnapshot (its source volume)
 *   only on volumes carrying both tags; the instance side of Attach/DetachVolume only on instances
 *   carrying `kubernetes.io/cluster/<cluster>=owned` ({@link nodeInstanceTags});
 * - DeleteSnapshot, EnableFastSnapshotRestores and CreateVolume from a snapshot only on snapshots
 *   carrying both tags;
 * - the Describe calls on `*` ({@link EBS_CSI_DESCRIBE_ACTIONS}).
 *
 * Left out of upstream's list: `ec2:CopyVolumes` (a clone: its source and new volume are the same
 * resource type, so no condition tells this cluster's source from another's), `ec2:DeleteTags` and
 * CreateTags on an existing volume (a VolumeAttributesClass's tag changes: the lab uses none, and
 * a controller that may retag volumes could tag any volume into its cluster). The driver's
 * IOPS-limit probe (a dry-run CreateVolume tagged `CSIVolumeName=IopsLimitDryRun` only,
 * pkg/cloud/cloud.go:2906-2944) is denied and falls back to the driver's built-in limits (:2947-2965).
 */
export function ebsCsiControllerPolicy(scope: EbsCsiScope): PolicyDocument {
  const { partition, account, region, clusterName } = scope;
  const volume = `arn:${partition}:ec2:${region}:${account}:volume/*`;
  // Snapshot ARNs carry no account (Service Authorization Reference, resource type `snapshot`).
  const snapshot = `arn:${partition}:ec2:${region}::snapshot/*`;
  const instance = `arn:${partition}:ec2:${region}:${account}:instance/*`;
  const tags = { [EBS_CSI_DRIVER_TAG.key]: EBS_CSI_DRIVER_TAG.value, [clusterTagKey(clusterName)]: CLUSTER_OWNED };
  const requestTags = Object.fromEntries(Object.entries(tags).map(([k, v]) => [`aws:RequestTag/${k}`, v]));
  const resourceTags = Object.fromEntries(Object.entries(tags).map(([k, v]) => [`aws:ResourceTag/${k}`, v]));
  return {
    Version: "2012-10-17",
    Statement: [
      { Sid: "Describe", Effect: "Allow", Action: [...EBS_CSI_DESCRIBE_ACTIONS], Resource: "*" },
      // One statement a create: a create names its source too (CreateVolume a snapshot, CreateSnapshot
      // a volume), and the request's tags must not stand in for the source's own.
      {
        Sid: "CreateVolumesTaggedForThisCluster",
        Effect: "Allow",
        Action: ["ec2:CreateVolume"],
        Resource: volume,
        Condition: { StringEquals: requestTags },
      },
      {
        Sid: "CreateSnapshotsTaggedForThisCluster",
        Effect: "Allow",
        Action: ["ec2:CreateSnapshot"],
        Resource: snapshot,
        Condition: { StringEquals: requestTags },
      },
      {
        Sid: "TagOnlyOnCreate",
        Effect: "Allow",
        Action: ["ec2:CreateTags"],
        Resource: [snapshot, volume],
        Condition: { StringEquals: { "ec2:CreateAction": ["CreateSnapshot", "CreateVolume"], ...requestTags } },
      },
      {
        Sid: "UseOnlyThisClustersVolumes",
        Effect: "Allow",
        Action: ["ec2:AttachVolume", "ec2:CreateSnapshot", "ec2:DeleteVolume", "ec2:DetachVolume", "ec2:ModifyVolume"],
        Resource: volume,
        Condition: { StringEquals: resourceTags },
      },
      {
        Sid: "AttachOnlyToThisClustersNodes",
        Effect: "Allow",
        Action: ["ec2:AttachVolume", "ec2:DetachVolume"],
        Resource: instance,
        Condition: { StringEquals: { [`aws:ResourceTag/${clusterTagKey(clusterName)}`]: CLUSTER_OWNED } },
      },
      {
        Sid: "UseOnlyThisClustersSnapshots",
        Effect: "Allow",
        Action: ["ec2:CreateVolume", "ec2:DeleteSnapshot", "ec2:EnableFastSnapshotRestores"],
        Resource: snapshot,
        Condition: { StringEquals: resourceTags },
      },
    ],
  };
}
