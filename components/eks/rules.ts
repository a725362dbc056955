/**
 * The EKS cluster's rules and defaults, in one place (pure). The component (index.ts) resolves and
 * checks its arguments with them; the `eks` stack's config calls the same {@link problems} with the
 * `lab:` keys the user typed.
 *
 * Sources:
 * - pulumi-eks 4.3.0 `Cluster` (schema.json / nodejs/eks/cluster/cluster.ts at tag v4.3.0):
 *   `authenticationMode`, `accessEntries`, `endpointPrivateAccess`, `endpointPublicAccess`,
 *   `publicAccessCidrs`, `encryptionConfigKeyArn`, `enabledClusterLogTypes`.
 * - EKS control-plane logging: the five log types `api`, `audit`, `authenticator`,
 *   `controllerManager`, `scheduler` (pulumi-eks `enabledClusterLogTypes` doc), sent to the log group
 *   `/aws/eks/<cluster>/cluster` (EKS User Guide, observability/control-plane-logs.adoc: "The log
 *   group name format is /aws/eks/my-cluster/cluster").
 * - EKS cluster names: 1–100 characters, `^[0-9A-Za-z][A-Za-z0-9\-_]*$` (EKS API CreateCluster
 *   `name`). The lab derives IAM role names `<cluster>-<role>` (at most 64 characters, IAM), so it
 *   allows 56.
 * - Access policy ARN `arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy` with a
 *   `cluster` access scope (EKS User Guide, access-policies: "AmazonEKSClusterAdminPolicy").
 */
import { adminCidrWidthProblems } from "../lib/admin-cidrs";
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt, isListOf, isOneOf, isText } from "../../core/checks";
import { GP3, gp3SizeRule } from "../lib/ebs";
import { RoleGuardrailArgs, roleGuardrailProblems } from "../lib/iam";
import { isDnsLabel, isLabelKey, isLabelValue, KUBELET_SELF_LABEL_RULE, kubeletMaySelfLabel } from "../lib/kubernetes";
import { isLogRetention, LOG_RETENTION_RULE } from "../lib/logs";
import { isIpv4NetworkCidr, parseCidr } from "../network/cidr";
import { AZ_NAME_RE } from "../network/rules";
import { EKS_ADDON_VERSIONS, EKS_KUBERNETES_VERSION, EksAddonVersions } from "../versions";
import { eksInstanceTypeInfo } from "./instance-types";

/** The five EKS control-plane log types, all of them sent to CloudWatch. */
export const CONTROL_PLANE_LOG_TYPES = ["api", "audit", "authenticator", "controllerManager", "scheduler"] as const;

/** The access policy `lab:adminRoleArns` get, cluster-wide. */
export const CLUSTER_ADMIN_POLICY_ARN = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy";

/**
 * The nodes' AMI type: Amazon Linux 2023, x86_64 (EKS API `Nodegroup.amiType`). Set explicitly: the
 * pulumi-eks schema's "defaults to AL2" text is stale and there is no EKS AL2 AMI for 1.33+.
 */
export const NODE_AMI_TYPE = "AL2023_x86_64_STANDARD";

/** The root device of the Amazon Linux EKS AMIs (pulumi-eks v4.3.0 nodejs/eks/nodes/nodegroup.ts: "/dev/xvda is the default device name for the root volume on an Amazon Linux 2 & AL2023 instance"). */
export const NODE_ROOT_DEVICE = "/dev/xvda";

/**
 * IMDS response hop limit of the nodes: 1, so no pod reaches the instance role through IMDS. No pod
 * of the lab needs more: vpc-cni, kube-proxy and the Pod Identity agent run on the host network (one
 * hop); Trident and the EBS CSI controller get AWS credentials from EKS Pod Identity, Trident its
 * region from the backend's `aws.apiRegion`. The EBS CSI node plugin is NOT on the host network (the
 * chart's default `node.hostNetwork: false`, kubernetes-sigs/aws-ebs-csi-driver
 * charts/aws-ebs-csi-driver/values.yaml at commit 006340ee), so IMDS is out of its reach too: it and
 * the controller run on the driver's Kubernetes-metadata fallback (docs/install.md "Metadata",
 * commit 429e202e: "if the driver is unable to reach IMDS, it will fall back to using the Kubernetes
 * API"), reading the instance id, zone and type from their Node object. The EKS User Guide
 * (nodes/launch-templates.adoc) asks for 2 only "if any containers that you deploy to the node group
 * use the Instance Metadata Service".
 */
export const IMDS_HOP_LIMIT = 1;

/** EKS cluster name characters (CreateCluster `name`). */
export const CLUSTER_NAME_RE = /^[0-9A-Za-z][A-Za-z0-9_-]*$/;
/** Longest cluster name the lab accepts: `<cluster>-ebs-csi` must fit IAM's 64-character role names. */
export const MAX_CLUSTER_NAME = 56;
/** An IAM role ARN (any partition). */
export const ROLE_ARN_RE = /^arn:aws(-cn|-us-gov)?:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

/** Node count bounds: at least one node per zone of the two; at most what a lab needs. */
export const MIN_NODES = 2;
export const MAX_NODES = 30;
/** Smallest root volume, GiB: the AL2023 EKS AMI's 20 GiB snapshot; the largest is gp3's (components/lib/ebs.ts). */
export const MIN_ROOT_GIB = 20;

/** The plain arguments of the EksCluster component (the network's ids come as Inputs, see index.ts). */
export interface EksClusterSpec extends RoleGuardrailArgs {
  /** EKS cluster name (also the prefix of its IAM role names): 1–56 letters, digits, '-' or '_', starting with a letter or digit. */
  readonly clusterName: string;
  /** Kubernetes minor; one with pinned add-on versions (components/versions.ts EKS_ADDON_VERSIONS). @default EKS_KUBERNETES_VERSION ("1.35") */
  readonly kubernetesVersion?: string;
  /** CIDRs that may reach the public API endpoint; none: the endpoint is private only. 0.0.0.0/0 is refused, and one wider than `adminCidrMinPrefix`. @default [] */
  readonly adminCidrs?: readonly string[];
  /** The widest prefix an `adminCidrs` entry may have (8–32): a shared account's guard against opening the endpoint to a whole network. @default 24 */
  readonly adminCidrMinPrefix?: number;
  /** IAM roles that get cluster-admin access entries (the deploying identity already is admin). @default [] */
  readonly adminRoleArns?: readonly string[];
  /** Node instance type of the one node group (x86_64: the nodes run AL2023_x86_64_STANDARD); unset with `nodeGroups`. @default "m5.xlarge" */
  readonly instanceType?: string;
  /** Nodes of the one managed node group, over the private subnets of both zones; unset with `nodeGroups`. @default 3 */
  readonly nodeCount?: number;
  /** Encrypted gp3 root volume of each node, GiB (a group's `rootVolumeGiB` overrides it). @default 50 */
  readonly nodeRootVolumeGiB?: number;
  /** Retention of the control-plane log group, days: one of CloudWatch Logs' periods. @default 30 */
  readonly logRetentionDays?: number;
  /**
   * Several managed node groups instead of the one of `instanceType` × `nodeCount`: each labelled
   * `storage-bench-lab/node-group: <name>` (and `storage-bench-lab/role: worker`), a `dedicated` one
   * tainted `storage-bench-lab/node-group=<name>:NoSchedule`, so only pods that tolerate it (and
   * select it) run there. At least one group is not dedicated: the EKS add-ons run there.
   * @default one group, `instanceType` × `nodeCount`
   */
  readonly nodeGroups?: readonly NodeGroupSpec[];
}

/** One managed node group of `nodeGroups`. */
export interface NodeGroupSpec {
  /** 1–20 lowercase letters, digits or '-' (a DNS label): names the group's resources and its label value. */
  readonly name: string;
  /** x86_64 instance type (components/k0s/instance-types.ts or components/eks/instance-types.ts). */
  readonly instanceType: string;
  /** Nodes of the group, over the private subnets of both zones (of its `zone` only, when given). */
  readonly nodeCount: number;
  /** Encrypted gp3 root volume of each node, GiB. @default the cluster's `nodeRootVolumeGiB` */
  readonly rootVolumeGiB?: number;
  /** More Kubernetes labels on the group's nodes (not the lab's own keys). @default {} */
  readonly labels?: Readonly<Record<string, string>>;
  /** Tainted `storage-bench-lab/node-group=<name>:NoSchedule`. @default false */
  readonly dedicated?: boolean;
  /**
   * The one zone the group's nodes run in: an index into the network's zones (0, 1: the same index as
   * an fsx-ontap stack's `preferredAz`) or a zone name (e.g. us-east-1a). Unset: the private subnets of
   * every zone, where EKS balances the nodes (a 3-node group is 2 + 1). Changing it replaces the group
   * (a managed node group's subnets are fixed at creation: EKS CreateNodegroup `subnets`, @pulumi/aws
   * `eks.NodeGroup` `subnetIds` forces a new resource).
   * @default every zone
   */
  readonly zone?: number | string;
}

/** The label of every node: what the single group of a cluster without `nodeGroups` carries. */
export const NODE_ROLE_LABELS: Readonly<Record<string, string>> = { "storage-bench-lab/role": "worker" };
/** The label (and, for a dedicated group, the taint key) naming a node's group. */
export const NODE_GROUP_LABEL = "storage-bench-lab/node-group";
/**
 * A dedicated group's taint effect, as the EKS API writes it (`NodegroupTaint.effect`: NO_SCHEDULE,
 * NO_EXECUTE, PREFER_NO_SCHEDULE; @pulumi/aws `eks.NodeGroupTaint`) and as Kubernetes does in a
 * toleration (`NoSchedule`; Kubernetes docs, "Taints and Tolerations": "No pod will be able to schedule
 * onto node1 unless it has a matching toleration").
 */
export const DEDICATED_TAINT_EFFECT = { eks: "NO_SCHEDULE", kubernetes: "NoSchedule" } as const;
/** The most node groups a lab cluster has. */
export const MAX_NODE_GROUPS = 5;
/** The longest group name: it is part of the nodes' Name tag `<cluster>-node-<group>`. */
export const MAX_NODE_GROUP_NAME = 20;
/** The keys a group's item may have. */
export const NODE_GROUP_KEYS = ["name", "instanceType", "nodeCount", "rootVolumeGiB", "labels", "dedicated", "zone"] as const;

/** A node taint in Kubernetes' form (what a pod's toleration must match). */
export interface NodeTaint {
  readonly key: string;
  readonly value: string;
  readonly effect: "NoSchedule";
}

/** A node group with its defaults applied. */
export interface ResolvedNodeGroup {
  readonly name: string;
  readonly instanceType: string;
  readonly nodeCount: number;
  readonly rootVolumeGiB: number;
  /** Every label of the group's nodes. */
  readonly labels: Readonly<Record<string, string>>;
  /** The group's taints (none, or the dedicated one). */
  readonly taints: readonly NodeTaint[];
  /** The role part of its resources' names and Name tags: `nodes` for the single group, `nodes-<name>` for a named one. */
  readonly role: string;
  /** Its one zone (index or name), or undefined for every zone. */
  readonly zone?: number | string;
}

/** The single group's name when `nodeGroups` is not given. */
export const SINGLE_NODE_GROUP = "workers";

export const EKS_DEFAULTS = {
  kubernetesVersion: EKS_KUBERNETES_VERSION,
  adminCidrs: [] as readonly string[],
  adminRoleArns: [] as readonly string[],
  instanceType: "m5.xlarge",
  nodeCount: 3,
  nodeRootVolumeGiB: 50,
  logRetentionDays: 30,
} as const;

export interface ResolvedEks extends Required<Omit<EksClusterSpec, "nodeGroups" | "permissionsBoundaryArn" | "adminCidrMinPrefix">> {
  /** The node groups: `nodeGroups`, or the single group of `instanceType` × `nodeCount`. */
  readonly nodeGroups: readonly ResolvedNodeGroup[];
  /** The pinned add-on versions of `kubernetesVersion`. */
  readonly addonVersions: EksAddonVersions;
  /** The public endpoint is on exactly when `adminCidrs` name someone. */
  readonly endpointPublicAccess: boolean;
}

/** Defaults applied (call after {@link problems} found none: the add-on row must exist). */
export function resolve(spec: EksClusterSpec): ResolvedEks {
  const d = EKS_DEFAULTS;
  const kubernetesVersion = spec.kubernetesVersion ?? d.kubernetesVersion;
  const adminCidrs = spec.adminCidrs ?? d.adminCidrs;
  const nodeRootVolumeGiB = spec.nodeRootVolumeGiB ?? d.nodeRootVolumeGiB;
  const groups: readonly ResolvedNodeGroup[] =
    spec.nodeGroups === undefined
      ? [
          {
            name: SINGLE_NODE_GROUP,
            instanceType: spec.instanceType ?? d.instanceType,
            nodeCount: spec.nodeCount ?? d.nodeCount,
            rootVolumeGiB: nodeRootVolumeGiB,
            labels: { ...NODE_ROLE_LABELS },
            taints: [],
            role: "nodes",
          },
        ]
      : spec.nodeGroups.map((g) => ({
          name: g.name,
          instanceType: g.instanceType,
          nodeCount: g.nodeCount,
          rootVolumeGiB: g.rootVolumeGiB ?? nodeRootVolumeGiB,
          labels: { ...(g.labels ?? {}), ...NODE_ROLE_LABELS, [NODE_GROUP_LABEL]: g.name },
          taints: g.dedicated === true ? [{ key: NODE_GROUP_LABEL, value: g.name, effect: DEDICATED_TAINT_EFFECT.kubernetes }] : [],
          role: `nodes-${g.name}`,
          ...(g.zone !== undefined ? { zone: g.zone } : {}),
        }));
  return {
    clusterName: spec.clusterName,
    kubernetesVersion,
    adminCidrs,
    adminRoleArns: spec.adminRoleArns ?? d.adminRoleArns,
    instanceType: groups[0].instanceType,
    nodeCount: groups.reduce((n, g) => n + g.nodeCount, 0),
    nodeRootVolumeGiB,
    logRetentionDays: spec.logRetentionDays ?? d.logRetentionDays,
    nodeGroups: groups,
    addonVersions: EKS_ADDON_VERSIONS[kubernetesVersion],
    endpointPublicAccess: adminCidrs.length > 0,
  };
}

/** The log group EKS writes the control plane's logs to. */
export function controlPlaneLogGroupName(clusterName: string): string {
  return `/aws/eks/${clusterName}/cluster`;
}

export const CLUSTER_NAME_RULE = `an EKS cluster name of 1 to ${MAX_CLUSTER_NAME} letters, digits, '-' or '_', starting with a letter or digit`;
export const KUBERNETES_VERSION_RULE = `a Kubernetes version with pinned add-on versions in components/versions.ts (${Object.keys(EKS_ADDON_VERSIONS).join(", ")})`;
export const ADMIN_CIDR_RULE = "an IPv4 network CIDR of the operators with a prefix from /8 to /32 (e.g. 198.51.100.7/32)";
export const OPEN_CIDR_RULE = "an operator's own network, not the whole internet: the public API endpoint is opened to these CIDRs only";
export const ROLE_ARN_RULE = "an IAM role ARN (arn:aws:iam::<account>:role/<name>)";
export const INSTANCE_TYPE_RULE =
  "an x86_64 EC2 instance type listed in components/k0s/instance-types.ts or components/eks/instance-types.ts (e.g. m5.xlarge): the nodes run AL2023_x86_64_STANDARD";
export const NODE_COUNT_RULE = `an integer from ${MIN_NODES} to ${MAX_NODES} (nodes over both zones)`;
export const NODE_GROUPS_RULE = `a list of 1 to ${MAX_NODE_GROUPS} node groups ({"name","instanceType","nodeCount"[,"rootVolumeGiB","labels","dedicated","zone"]})`;
export const NODE_GROUP_ZONE_RULE = "0 or 1 (index of the zone among the network's) or an availability zone name (e.g. us-east-1a)";
export const NODE_GROUP_NAME_RULE = `a node group name of 1 to ${MAX_NODE_GROUP_NAME} lowercase letters, digits or '-', starting and ending with a letter or digit`;
export const NODE_GROUP_LABELS_RULE =
  "an object of Kubernetes labels ([prefix/]name keys, values of at most 63 letters, digits, '-', '_' or '.')";
export const UNDEDICATED_GROUP_RULE =
  "a list with at least one group that is not dedicated: the EKS add-ons (CoreDNS, the EBS CSI controller) have no toleration for the lab's taint and run on the other groups";

const isString = (x: unknown): x is string => typeof x === "string";

/** Problems of a list of unique strings, each checked by `item`. */
function listProblems(path: string, value: unknown, rule: string, item: (x: string, i: number) => ArgProblem | undefined): ArgProblem[] {
  if (value === undefined) return [];
  if (!isListOf(value, isString)) return [argProblem(path, rule, value)];
  const out = value.map(item).filter((p): p is ArgProblem => p !== undefined);
  if (new Set(value).size !== value.length) out.push(argProblem(path, "a list without duplicates", value));
  return out;
}

/** Every problem of `spec`, in argument order; empty when it is valid. */
export function problems(spec: EksClusterSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  if (!isText(spec.clusterName, CLUSTER_NAME_RE) || spec.clusterName.length > MAX_CLUSTER_NAME)
    out.push(argProblem("clusterName", CLUSTER_NAME_RULE, spec.clusterName));
  if (spec.kubernetesVersion !== undefined && !isOneOf(spec.kubernetesVersion, Object.keys(EKS_ADDON_VERSIONS)))
    out.push(argProblem("kubernetesVersion", KUBERNETES_VERSION_RULE, spec.kubernetesVersion));
  out.push(
    ...listProblems("adminCidrs", spec.adminCidrs, 'a list of IPv4 CIDRs (e.g. ["198.51.100.7/32"])', (c, i) => {
      if (parseCidr(c)?.prefix === 0) return argProblem(`adminCidrs[${i}]`, OPEN_CIDR_RULE, c);
      return isIpv4NetworkCidr(c, 8, 32) ? undefined : argProblem(`adminCidrs[${i}]`, ADMIN_CIDR_RULE, c);
    }),
  );
  out.push(...adminCidrWidthProblems(spec.adminCidrs, spec.adminCidrMinPrefix));
  out.push(
    ...listProblems("adminRoleArns", spec.adminRoleArns, "a list of IAM role ARNs", (a, i) =>
      ROLE_ARN_RE.test(a) ? undefined : argProblem(`adminRoleArns[${i}]`, ROLE_ARN_RULE, a),
    ),
  );
  if (spec.instanceType !== undefined && eksInstanceTypeInfo(spec.instanceType) === undefined)
    out.push(argProblem("instanceType", INSTANCE_TYPE_RULE, spec.instanceType));
  if (spec.nodeCount !== undefined && !isInt(spec.nodeCount, MIN_NODES, MAX_NODES))
    out.push(argProblem("nodeCount", NODE_COUNT_RULE, spec.nodeCount));
  if (spec.nodeGroups !== undefined) {
    for (const arg of ["instanceType", "nodeCount"] as const)
      if (spec[arg] !== undefined) out.push(argProblem(arg, "unset when {nodeGroups} is given (each group has its own)", spec[arg]));
    out.push(...nodeGroupProblems(spec.nodeGroups));
  }
  if (spec.nodeRootVolumeGiB !== undefined && !isInt(spec.nodeRootVolumeGiB, MIN_ROOT_GIB, GP3.maxSizeGiB))
    out.push(argProblem("nodeRootVolumeGiB", gp3SizeRule(MIN_ROOT_GIB), spec.nodeRootVolumeGiB));
  if (spec.logRetentionDays !== undefined && !isLogRetention(spec.logRetentionDays))
    out.push(argProblem("logRetentionDays", LOG_RETENTION_RULE, spec.logRetentionDays));
  out.push(...roleGuardrailProblems(spec));
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every problem of `nodeGroups`, in order. */
function nodeGroupProblems(groups: unknown): ArgProblem[] {
  if (!Array.isArray(groups) || groups.length === 0 || groups.length > MAX_NODE_GROUPS || !groups.every(isPlainObject))
    return [argProblem("nodeGroups", NODE_GROUPS_RULE, groups)];
  const out: ArgProblem[] = [];
  const seen = new Set<string>();
  groups.forEach((g, i) => {
    const at = (k: string) => `nodeGroups[${i}].${k}`;
    for (const k of Object.keys(g))
      if (!(NODE_GROUP_KEYS as readonly string[]).includes(k))
        out.push(argProblem(`nodeGroups[${i}]`, `a node group of the keys ${NODE_GROUP_KEYS.join(", ")} (not ${k})`, g));
    if (!isDnsLabel(g.name) || g.name.length > MAX_NODE_GROUP_NAME) out.push(argProblem(at("name"), NODE_GROUP_NAME_RULE, g.name));
    else if (seen.has(g.name)) out.push(argProblem(at("name"), "a name no other group has", g.name));
    if (typeof g.name === "string") seen.add(g.name);
    if (eksInstanceTypeInfo(g.instanceType) === undefined) out.push(argProblem(at("instanceType"), INSTANCE_TYPE_RULE, g.instanceType));
    if (!isInt(g.nodeCount, MIN_NODES, MAX_NODES)) out.push(argProblem(at("nodeCount"), NODE_COUNT_RULE, g.nodeCount));
    if (g.rootVolumeGiB !== undefined && !isInt(g.rootVolumeGiB, MIN_ROOT_GIB, GP3.maxSizeGiB))
      out.push(argProblem(at("rootVolumeGiB"), gp3SizeRule(MIN_ROOT_GIB), g.rootVolumeGiB));
    if (g.labels !== undefined) {
      if (!isPlainObject(g.labels) || !Object.entries(g.labels).every(([k, v]) => isLabelKey(k) && isLabelValue(v))) {
        out.push(argProblem(at("labels"), NODE_GROUP_LABELS_RULE, g.labels));
      } else {
        for (const k of Object.keys(g.labels))
          if (k === NODE_GROUP_LABEL || Object.prototype.hasOwnProperty.call(NODE_ROLE_LABELS, k))
            out.push(argProblem(at("labels"), `free of ${k} (the lab sets it)`, g.labels));
        // The group's labels become the kubelet's --node-labels: a key it may not self-assign stops it.
        const refused = Object.keys(g.labels).filter((k) => !kubeletMaySelfLabel(k));
        if (refused.length > 0) out.push(argProblem(at("labels"), `${KUBELET_SELF_LABEL_RULE} (not ${refused.join(", ")})`, g.labels));
        // The EKS API is narrower than Kubernetes: a node group's label key (prefix included) and value
        // are 1 to 63 characters (boto/botocore 0e6e2404 botocore/data/eks/2017-11-01/service-2.json:7281-7290,
        // labelKey and labelValue), so no empty value and no long prefix.
        const eksRefused = Object.entries(g.labels).filter(([k, v]) => k.length > 63 || (v as string).length < 1);
        if (eksRefused.length > 0)
          out.push(
            argProblem(
              at("labels"),
              `labels the EKS API takes: keys of at most 63 characters with their prefix, values of 1 to 63 (not ${eksRefused.map(([k]) => k).join(", ")})`,
              g.labels,
            ),
          );
      }
    }
    if (g.dedicated !== undefined && typeof g.dedicated !== "boolean") out.push(argProblem(at("dedicated"), "true or false", g.dedicated));
    if (g.zone !== undefined && !isInt(g.zone, 0, 1) && !isText(g.zone, AZ_NAME_RE))
      out.push(argProblem(at("zone"), NODE_GROUP_ZONE_RULE, g.zone));
  });
  if (groups.every((g) => g.dedicated === true))
    out.push(
      argProblem(
        "nodeGroups",
        UNDEDICATED_GROUP_RULE,
        groups.map((g) => g.name),
      ),
    );
  return out;
}

/**
 * What {@link nodeGroupSubnets} would refuse, as problems, for the network's outputs once they are
 * read and before any resource is registered (the stack's upstream check, stacks/eks/index.ts):
 * subnets and zones that do not pair up, and every group whose `zone` is not one of the network's
 * (by index or by name). `nodeGroups[i].zone` names the group's key.
 */
export function nodeGroupZoneProblems(
  groups: readonly Pick<ResolvedNodeGroup, "name" | "zone">[],
  privateSubnetIds: readonly string[],
  zones: readonly string[],
  networkStack: string,
): ArgProblem[] {
  if (privateSubnetIds.length !== zones.length)
    return [
      argProblem(
        "networkStack",
        `a network stack whose private subnets pair up with its zones (it lists ${privateSubnetIds.length} private subnets for ${zones.length} zones)`,
        networkStack,
      ),
    ];
  return groups.flatMap((g, i) =>
    g.zone === undefined || zoneIndex(g.zone, zones) !== undefined
      ? []
      : [
          argProblem(
            `nodeGroups[${i}].zone`,
            `one of the network's zones ${zones.join(", ")} (by index 0–${zones.length - 1} or by name)`,
            g.zone,
          ),
        ],
  );
}

/** The index of `zone` (an index or a name) among `zones`, or undefined. */
function zoneIndex(zone: number | string, zones: readonly string[]): number | undefined {
  const i = typeof zone === "number" ? zone : zones.indexOf(zone);
  return Number.isInteger(i) && i >= 0 && i < zones.length ? i : undefined;
}

/**
 * The subnets of a group: those of every zone, or the one of its `zone` (by index into `zones`, or by
 * name). Called on the network's outputs when they arrive, after {@link nodeGroupZoneProblems} has
 * refused what this would throw on (the throw is an assertion, never a user's error).
 * @throws Error naming the group and the network's zones when its zone is not one of them
 */
export function nodeGroupSubnets(
  g: Pick<ResolvedNodeGroup, "name" | "zone">,
  privateSubnetIds: readonly string[],
  zones: readonly string[],
): { subnetIds: string[]; zones: string[] } {
  if (privateSubnetIds.length !== zones.length)
    throw new Error(`the network stack lists ${privateSubnetIds.length} private subnets for ${zones.length} zones; they must pair up`);
  if (g.zone === undefined) return { subnetIds: [...privateSubnetIds], zones: [...zones] };
  const i = zoneIndex(g.zone, zones);
  if (i === undefined)
    throw new Error(
      `node group '${g.name}': zone ${typeof g.zone === "number" ? `index ${g.zone}` : `"${g.zone}"`} is not one of the network's zones ${zones.join(", ")} (by index 0–${zones.length - 1} or by name)`,
    );
  return { subnetIds: [privateSubnetIds[i]], zones: [zones[i]] };
}

/** EC2's answer to DescribeInstanceTypeOfferings by availability zone: parallel lists (aws.ec2.getInstanceTypeOfferings). */
export interface InstanceTypeOfferings {
  readonly instanceTypes: readonly string[];
  readonly locations: readonly string[];
}

/**
 * Each node group's instance type offered in every zone it runs in (its `zone`, or every zone of
 * the network): EC2 does not offer every type in every zone (EC2 API reference,
 * DescribeInstanceTypeOfferings with `LocationType=availability-zone`), and a managed node group of
 * a type its zone lacks fails only when EKS launches the nodes, after the cluster is up (about
 * 15 minutes in). `explicit`: the groups come from `nodeGroups` (else the single group of
 * `instanceType`), for the key the problem names.
 */
export function instanceTypeOfferingProblems(
  groups: readonly Pick<ResolvedNodeGroup, "name" | "zone" | "instanceType">[],
  zones: readonly string[],
  offerings: InstanceTypeOfferings,
  explicit: boolean,
): ArgProblem[] {
  const offered = new Set(offerings.instanceTypes.map((t, i) => `${t}@${offerings.locations[i]}`));
  return groups.flatMap((g, i) => {
    const at = g.zone === undefined ? undefined : zoneIndex(g.zone, zones);
    const its = at === undefined ? zones : [zones[at]];
    const missing = its.filter((z) => !offered.has(`${g.instanceType}@${z}`));
    return missing.length === 0
      ? []
      : [
          argProblem(
            explicit ? `nodeGroups[${i}].instanceType` : "instanceType",
            `an instance type EC2 offers in ${its.length === 1 ? "the zone" : "every zone"} the node group runs in (${its.join(", ")}); ` +
              `DescribeInstanceTypeOfferings lists none in ${missing.join(", ")}: choose another type, or another zone with nodeGroups[].zone`,
            g.instanceType,
          ),
        ];
  });
}
