/** The EKS roles' IAM documents (components/eks/iam.ts), exact. */
import {
  CLUSTER_ROLE_POLICY_ARN,
  clusterTrustPolicy,
  EBS_CSI_POLICY_ARN,
  EBS_CSI_SERVICE_ACCOUNT,
  NODE_ROLE_POLICY_ARNS,
  nodeTrustPolicy,
  podIdentityTrustPolicy,
} from "../../../components/eks/iam";

describe("EKS IAM documents", () => {
  test("Pod Identity trust: pods.eks.amazonaws.com may AssumeRole and TagSession for one service account of one cluster (EKS User Guide)", () => {
    expect(podIdentityTrustPolicy({ clusterName: "lab", namespace: "trident", serviceAccount: "trident-controller" })).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "AllowEksAuthToAssumeRoleForPodIdentity",
          Effect: "Allow",
          Principal: { Service: "pods.eks.amazonaws.com" },
          Action: ["sts:AssumeRole", "sts:TagSession"],
          Condition: {
            StringEquals: {
              "aws:RequestTag/eks-cluster-name": "lab",
              "aws:RequestTag/kubernetes-namespace": "trident",
              "aws:RequestTag/kubernetes-service-account": "trident-controller",
            },
          },
        },
      ],
    });
  });

  test("cluster service role: EKS trust and AmazonEKSClusterPolicy", () => {
    expect(clusterTrustPolicy()).toEqual({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Principal: { Service: "eks.amazonaws.com" }, Action: "sts:AssumeRole" }],
    });
    expect(CLUSTER_ROLE_POLICY_ARN).toBe("arn:aws:iam::aws:policy/AmazonEKSClusterPolicy");
  });

  test("node role: EC2 trust, the worker, ECR pull-only and CNI managed policies", () => {
    expect(nodeTrustPolicy()).toEqual({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }],
    });
    expect(NODE_ROLE_POLICY_ARNS).toEqual({
      worker: "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
      ecrPull: "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly",
      cni: "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
    });
  });

  test("EBS CSI driver: AWS managed policy and controller service account", () => {
    expect(EBS_CSI_POLICY_ARN).toBe("arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy");
    expect(EBS_CSI_SERVICE_ACCOUNT).toBe("ebs-csi-controller-sa");
  });
});
