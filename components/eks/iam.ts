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
 * - EBS CSI driver: `arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy`, service account
 *   `ebs-csi-controller-sa` in `kube-system` (EKS User Guide, storage/ebs-csi.adoc).
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

/** The EBS CSI driver's AWS managed policy and its controller's service account (in kube-system, the add-on's namespace). */
export const EBS_CSI_POLICY_ARN = "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy";
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
