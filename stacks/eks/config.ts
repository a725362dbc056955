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
  /** `lab:networkStack`: the network stack (VPC, private subnets of both zones). */
  networkStack: stackName("network"),
  /** `lab:clusterName` → EksCluster `clusterName`. @default the stack name, made an EKS name ({@link clusterNameFor}) */
  clusterName: text().optional(),
  /** `lab:kubernetesVersion` → `kubernetesVersion`. */
  kubernetesVersion: text().optional(),
  /** `lab:adminCidrs` → `adminCidrs`. */
  adminCidrs: list(text()).optional(),
  /** `lab:adminCidrMinPrefix` → `adminCidrMinPrefix` (`lab run --allow-wide-admin` sets 8). */
  adminCidrMinPrefix: int().optional(),
  /** `lab:adminRoleArns` → `adminRoleArns`. */
  adminRoleArns: list(text()).optional(),
  /** `lab:instanceType` → `instanceType`. */
  instanceType: text().optional(),
  /** `lab:nodeCount` → `nodeCount`. */
  nodeCount: int().optional(),
  /** `lab:nodeRootVolumeGiB` → `nodeRootVolumeGiB`. */
  nodeRootVolumeGiB: int().optional(),
  /** `lab:logRetentionDays` → `logRetentionDays`. */
  logRetentionDays: int().optional(),
  /** `lab:permissionsBoundaryArn` → `permissionsBoundaryArn` of the cluster's roles and Trident's. */
  permissionsBoundaryArn: text().optional(),
  /** `lab:nodeGroups` → `nodeGroups`. */
  nodeGroups: list(nodeGroup, NODE_GROUPS_RULE).optional(),
  /** `lab:trident`: whether the stack installs Trident (false: a cluster whose storage is not Trident's, e.g. Kafka's static NFS volumes). @default true */
  trident: bool().optional(),
  /** `lab:tridentInstall` → TridentOperator `tridentInstall`. */
  tridentInstall: text().optional(),
  /** `lab:tridentAddonVersion` → `tridentAddonVersion`. */
  tridentAddonVersion: text().optional(),
  /** `lab:tridentNodePrep` → `tridentNodePrep` (`["iscsi"]` for an fsx-eks stack with `lab:sanBackend: true`). */
  tridentNodePrep: list(text()).optional(),
  /**
   * `lab:images`: the images this stack builds with the local Docker daemon and pushes to its own ECR
   * repositories, for the stacks on its cluster (`tools` for fsx-eks, `omb` for kafka), exported as
   * `images`. @default [] (none: those stacks are given their images, lab:toolsImage / lab:ombImage)
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
