/** The EKS roles' IAM documents (components/eks/iam.ts), exact. */
import {
  CLUSTER_ROLE_POLICY_ARN,
  clusterTrustPolicy,
  EBS_CSI_RETIRED_POLICY_ARN,
  EBS_CSI_SERVICE_ACCOUNT,
  ebsCsiAddonConfiguration,
  ebsCsiControllerPolicy,
  nodeInstanceTags,
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

  test("EBS CSI driver: controller service account; the AWS managed policy it no longer gets", () => {
    expect(EBS_CSI_RETIRED_POLICY_ARN).toBe("arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy");
    expect(EBS_CSI_SERVICE_ACCOUNT).toBe("ebs-csi-controller-sa");
  });

  test("EBS CSI driver: the add-on tags with the cluster (--k8s-tag-cluster-id), the nodes carry the cluster tag", () => {
    expect(ebsCsiAddonConfiguration("lab")).toEqual({ controller: { k8sTagClusterId: "lab" } });
    expect(nodeInstanceTags("lab")).toEqual({ "kubernetes.io/cluster/lab": "owned" });
  });

  test("EBS CSI driver: upstream's example policy narrowed to the cluster's two tags in one account and region, exact", () => {
    const volume = "arn:aws:ec2:eu-west-1:111122223333:volume/*";
    const snapshot = "arn:aws:ec2:eu-west-1::snapshot/*";
    const request = { "aws:RequestTag/ebs.csi.aws.com/cluster": "true", "aws:RequestTag/kubernetes.io/cluster/lab": "owned" };
    const resource = { "aws:ResourceTag/ebs.csi.aws.com/cluster": "true", "aws:ResourceTag/kubernetes.io/cluster/lab": "owned" };
    expect(ebsCsiControllerPolicy({ partition: "aws", account: "111122223333", region: "eu-west-1", clusterName: "lab" })).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "Describe",
          Effect: "Allow",
          Action: [
            "ec2:DescribeAvailabilityZones",
            "ec2:DescribeInstances",
            "ec2:DescribeSnapshots",
            "ec2:DescribeTags",
            "ec2:DescribeVolumes",
            "ec2:DescribeVolumesModifications",
            "ec2:DescribeVolumeStatus",
          ],
          Resource: "*",
        },
        {
          Sid: "CreateVolumesTaggedForThisCluster",
          Effect: "Allow",
          Action: ["ec2:CreateVolume"],
          Resource: volume,
          Condition: { StringEquals: request },
        },
        {
          Sid: "CreateSnapshotsTaggedForThisCluster",
          Effect: "Allow",
          Action: ["ec2:CreateSnapshot"],
          Resource: snapshot,
          Condition: { StringEquals: request },
        },
        {
          Sid: "TagOnlyOnCreate",
          Effect: "Allow",
          Action: ["ec2:CreateTags"],
          Resource: [snapshot, volume],
          Condition: { StringEquals: { "ec2:CreateAction": ["CreateSnapshot", "CreateVolume"], ...request } },
        },
        {
          Sid: "UseOnlyThisClustersVolumes",
          Effect: "Allow",
          Action: ["ec2:AttachVolume", "ec2:CreateSnapshot", "ec2:DeleteVolume", "ec2:DetachVolume", "ec2:ModifyVolume"],
          Resource: volume,
          Condition: { StringEquals: resource },
        },
        {
          Sid: "AttachOnlyToThisClustersNodes",
          Effect: "Allow",
          Action: ["ec2:AttachVolume", "ec2:DetachVolume"],
          Resource: "arn:aws:ec2:eu-west-1:111122223333:instance/*",
          Condition: { StringEquals: { "aws:ResourceTag/kubernetes.io/cluster/lab": "owned" } },
        },
        {
          Sid: "UseOnlyThisClustersSnapshots",
          Effect: "Allow",
          Action: ["ec2:CreateVolume", "ec2:DeleteSnapshot", "ec2:EnableFastSnapshotRestores"],
          Resource: snapshot,
          Condition: { StringEquals: resource },
        },
      ],
    });
  });
});
