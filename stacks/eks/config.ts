/**
 * Config of the `eks` stack kind: the keys' types; their rules and defaults are the EksCluster
 * component's (components/eks/rules.ts) and Trident's install rules (components/trident/rules.ts),
 * checked with the `lab:` key names. `lab:trident` is the stack's own switch (whether it composes
 * Trident at all), so its one rule is here. `lab:images` (the images the stack builds for the stacks
 * on its cluster) has its rule with the images (components/image/rules.ts).
 */
import { z } from "zod";
import { argProblem, ArgProblem } from "../../core/errors";
import {
  EksClusterSpec,
  MAX_CLUSTER_NAME,
  NODE_GROUP_ZONE_RULE,
  NODE_GROUPS_RULE,
  NodeGroupSpec,
  problems as eksProblems,
} from "../../components/eks/rules";
import { imagesProblems, LabImage } from "../../components/image/rules";
import { RoleGuardrailArgs } from "../../components/lib/iam";
import { installProblems, TridentInstallMethod, TridentInstallSpec } from "../../components/trident/rules";
import { commonFields } from "../lib/config/common";
import { bool, int, list, stackName, text } from "../lib/config/fields";

/** One item of `lab:nodeGroups`: the fields' types; required fields and unknown keys are the rules'. */
const nodeGroup = z.looseObject(
  {
    name: text().optional(),
    instanceType: text().optional(),
    nodeCount: int().optional(),
    rootVolumeGiB: int().optional(),
    labels: z.record(z.string(), z.string(), { error: "an object of label keys to values" }).optional(),
    dedicated: bool().optional(),
    zone: z.union([int(), text()], { error: NODE_GROUP_ZONE_RULE }).optional(),
  },
  { error: NODE_GROUPS_RULE },
);

export const eksSchema = z.object({
  ...commonFields,
  /**
   * `lab:networkStack`: the network stack (VPC, private subnets of both zones).
   * @source Pulumi StackReference: a stack name of letters, digits, '-', '_' or '.', as stack, org/stack or org/project/stack —
   * https://www.pulumi.com/docs/iac/concepts/stacks/
   */
  networkStack: stackName("network"),
  /**
   * `lab:clusterName` → EksCluster `clusterName`. @default the stack name, made an EKS name ({@link clusterNameFor})
   * @source lab rule (at most 56: the role name <cluster>-ebs-csi must fit IAM's 64); EKS CreateCluster name: 1–100 alphanumerics, '-' or
   * '_', starting alphanumeric — boto/botocore@0e6e2404 botocore/data/eks/2017-11-01/service-2.json:2341; boto/botocore@0e6e2404
   * botocore/data/iam/2010-05-08/service-2.json:10143
   */
  clusterName: text().optional(),
  /**
   * `lab:kubernetesVersion` → `kubernetesVersion`.
   * @source lab rule (a minor with pinned add-on versions, components/versions.ts); EKS CreateCluster version: the cluster's Kubernetes
   * minor; each add-on version must be one DescribeAddonVersions returns — boto/botocore@0e6e2404
   * botocore/data/eks/2017-11-01/service-2.json:2761,2655
   */
  kubernetesVersion: text().optional(),
  /**
   * `lab:adminCidrs` → `adminCidrs`.
   * @source lab rule (/8 to /32, never 0.0.0.0/0, no wider than adminCidrMinPrefix); EKS publicAccessCidrs: blocks without reserved
   * addresses, up to a quota — awsdocs/amazon-eks-user-guide@4d52b4d0 latest/ug/clusters/cluster-endpoint.adoc:153; boto/botocore@0e6e2404
   * botocore/data/eks/2017-11-01/service-2.json:7165
   */
  adminCidrs: list(text()).optional(),
  /**
   * `lab:adminCidrMinPrefix` → `adminCidrMinPrefix` (`lab run --allow-wide-admin` sets 8).
   * @source lab rule (a shared account's guard; it bounds only adminCidrs); EKS itself takes any publicAccessCidrs, 0.0.0.0/0 by default —
   * boto/botocore@0e6e2404 botocore/data/eks/2017-11-01/service-2.json:7165
   */
  adminCidrMinPrefix: int().optional(),
  /**
   * `lab:adminRoleArns` → `adminRoleArns`.
   * @source EKS CreateAccessEntry principalArn: an IAM principal ARN, one access entry an ARN (no STS session ARN); the ARN's partition is
   * the account's — boto/botocore@0e6e2404 botocore/data/eks/2017-11-01/service-2.json:2605;
   * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference-arns
   */
  adminRoleArns: list(text()).optional(),
  /**
   * `lab:instanceType` → `instanceType`.
   * @source lab rule (x86_64 types of the lab's tables, for AL2023_x86_64_STANDARD); EKS CreateNodegroup instanceTypes with that amiType;
   * EC2 must offer the type in each zone (DescribeInstanceTypeOfferings, checked at deploy) — boto/botocore@0e6e2404
   * botocore/data/eks/2017-11-01/service-2.json:1106,2942
   */
  instanceType: text().optional(),
  /**
   * `lab:nodeCount` → `nodeCount`.
   * @source lab rule (2–30: a node a zone, a lab's size); EKS NodegroupScalingConfig: minSize and desiredSize at least 0, maxSize at least
   * 1 — boto/botocore@0e6e2404 botocore/data/eks/2017-11-01/service-2.json:5611,2082
   */
  nodeCount: int().optional(),
  /**
   * `lab:nodeRootVolumeGiB` → `nodeRootVolumeGiB`.
   * @source lab rule (at least the AL2023 AMI's 20 GiB snapshot); EC2 launch template gp3 VolumeSize: 1–65,536 GiB, at least the snapshot
   * — boto/botocore@0e6e2404 botocore/data/ec2/2016-11-15/service-2.json:54050,21570
   */
  nodeRootVolumeGiB: int().optional(),
  /**
   * `lab:logRetentionDays` → `logRetentionDays`.
   * @source CloudWatch Logs PutRetentionPolicy: retentionInDays one of 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731,
   * 1096, 1827, 2192, 2557, 2922, 3288, 3653 — boto/botocore@0e6e2404 botocore/data/logs/2014-03-28/service-2.json:2948
   */
  logRetentionDays: int().optional(),
  /**
   * `lab:permissionsBoundaryArn` → `permissionsBoundaryArn` of the cluster's roles and Trident's.
   * @source IAM CreateRole PermissionsBoundary: a managed policy ARN, 20–2048 characters, of the account's partition (aws, aws-cn,
   * aws-us-gov) — boto/botocore@0e6e2404 botocore/data/iam/2010-05-08/service-2.json:3634;
   * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference-arns
   */
  permissionsBoundaryArn: text().optional(),
  /**
   * `lab:nodeGroups` → `nodeGroups`.
   * @source EKS CreateNodegroup: label keys and values 1–63 characters, taint key 1–63 and value 0–63; kubelet: no self-set labels under
   * kubernetes.io or k8s.io but its allowed set — boto/botocore@0e6e2404 botocore/data/eks/2017-11-01/service-2.json:7281-7290,7320-7329;
   * kubernetes/kubelet@v0.35.7 pkg/apis/well_known_labels.go:35-80
   */
  nodeGroups: list(nodeGroup, NODE_GROUPS_RULE).optional(),
  /**
   * `lab:trident`: whether the stack installs Trident (false: a cluster whose storage is not Trident's, e.g. Kafka's static NFS volumes). @default true
   * @source lab rule (the stack's own switch: whether it composes Trident); no outside system reads the value — stacks/eks/config.ts
   * installsTrident
   */
  trident: bool().optional(),
  /**
   * `lab:tridentInstall` → TridentOperator `tridentInstall`.
   * @source lab rule (the two installs it implements); Trident: the trident-operator chart 100.2606.0 (Trident 26.06.0), or the EKS add-on
   * netapp_trident-operator in namespace trident — NetApp/trident@v26.06.0 helm/trident-operator/Chart.yaml:3,14;
   * awsdocs/amazon-eks-user-guide@4d52b4d0 latest/ug/workloads/eks-add-ons.adoc:1142
   */
  tridentInstall: text().optional(),
  /**
   * `lab:tridentAddonVersion` → `tridentAddonVersion`.
   * @source EKS CreateAddon addonVersion: one of the versions DescribeAddonVersions returns (for netapp_trident-operator and the cluster's
   * Kubernetes version) — boto/botocore@0e6e2404 botocore/data/eks/2017-11-01/service-2.json:2655
   */
  tridentAddonVersion: text().optional(),
  /**
   * `lab:tridentNodePrep` → `tridentNodePrep` (`["iscsi"]` for an fsx-eks stack with `lab:sanBackend: true`).
   * @source Trident nodePrep: at most one protocol, iscsi (lowercased) — NetApp/trident@v26.06.0
   * internal/nodeprep/protocol/protocols.go:14-33; helm/trident-operator/values.yaml:325-327
   */
  tridentNodePrep: list(text()).optional(),
  /**
   * `lab:images`: the images this stack builds with the local Docker daemon and pushes to its own ECR
   * repositories, for the stacks on its cluster (`tools` for fsx-eks, `omb` for kafka), exported as
   * `images`. @default [] (none: those stacks are given their images, lab:toolsImage / lab:ombImage)
   * @source lab rule (the images it can build, tools and omb, each once); the consumer is the lab's own build into ECR repositories
   * storage-bench-lab/<stack>/… — components/image/rules.ts imagesProblems, stacks/eks/images.ts
   */
  images: list(text()).optional(),
});

export type EksConfig = z.output<typeof eksSchema>;

/**
 * The cluster name a stack gets without `lab:clusterName`: its Pulumi stack name with every
 * character EKS refuses replaced by '-', cut to the length the lab allows.
 */
export function clusterNameFor(stack: string): string {
  const name = stack
    .replace(/[^A-Za-z0-9_-]/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, MAX_CLUSTER_NAME)
    .replace(/[-_]+$/, "");
  return name === "" ? "lab-eks" : name;
}

/** The config as the EksCluster component's arguments (same names). */
export function eksArgs(c: EksConfig, stack: string): EksClusterSpec {
  return {
    clusterName: c.clusterName ?? clusterNameFor(stack),
    kubernetesVersion: c.kubernetesVersion,
    adminCidrs: c.adminCidrs,
    adminCidrMinPrefix: c.adminCidrMinPrefix,
    adminRoleArns: c.adminRoleArns,
    instanceType: c.instanceType,
    nodeCount: c.nodeCount,
    nodeRootVolumeGiB: c.nodeRootVolumeGiB,
    logRetentionDays: c.logRetentionDays,
    nodeGroups: c.nodeGroups as readonly NodeGroupSpec[] | undefined,
    permissionsBoundaryArn: c.permissionsBoundaryArn,
  };
}

/** Whether the stack installs Trident (`lab:trident`, default true). */
export function installsTrident(c: EksConfig): boolean {
  return c.trident !== false;
}

/** The config as Trident's install arguments. */
export function tridentArgs(c: EksConfig): TridentInstallSpec & RoleGuardrailArgs {
  return {
    tridentInstall: c.tridentInstall as TridentInstallMethod | undefined,
    tridentAddonVersion: c.tridentAddonVersion,
    tridentNodePrep: c.tridentNodePrep,
    permissionsBoundaryArn: c.permissionsBoundaryArn,
  };
}

/** The images the stack builds (`lab:images`, none by default), once checked. */
export function imagesOf(c: EksConfig): readonly LabImage[] {
  return (c.images ?? []) as LabImage[];
}

/** The EksCluster's, Trident's and the images' rules, over the config's fields (`stack` names the default cluster). */
export function checkEks(c: EksConfig, stack: string): ArgProblem[] {
  const eks = [...eksProblems(eksArgs(c, stack)), ...imagesProblems(c.images)];
  if (installsTrident(c)) return [...eks, ...installProblems(tridentArgs(c))];
  const unset = (["tridentInstall", "tridentAddonVersion", "tridentNodePrep"] as const)
    .filter((k) => c[k] !== undefined)
    .map((k) => argProblem(k, "unset when {trident} is false (no Trident is installed)", c[k]));
  return [...eks, ...unset];
}
