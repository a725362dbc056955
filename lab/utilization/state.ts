/**
 * What a stack's Pulumi state says about the infrastructure a benchmark ran on: the facts a
 * manifest records (zones and zone ids, AMIs, instance types, images) and the resources whose
 * utilization CloudWatch can report, with their configured limits (a gp3 volume's provisioned IOPS
 * and throughput, an FSx file system's throughput capacity). Pure: it reads a deployment as
 * `pulumi stack export` prints it (and the Automation API's `exportStack` returns it):
 * `{version: 3, deployment: {resources: [{urn, type, id, inputs, outputs, parent}]}}`, outputs
 * named as the provider's resource state (the `keyof` checks below hold them to @pulumi/aws 7's
 * types at compile time). Secret outputs (`{"4dabf18193072939515e22adb298388d": …}`) read as absent.
 */
import type * as aws from "@pulumi/aws";
import { hypervisorOf } from "../../components/k0s/instance-types";
import { GP3 } from "../../components/lib/ebs";

/** One resource of a deployment, as exported. */
export interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly parent?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
}

/** A stack export: `{version, deployment: {resources}}`. */
export interface StackExport {
  readonly version?: number;
  readonly deployment?: { readonly resources?: readonly StateResource[] };
}

// The output names read below, checked against the provider's state types.
type Has<T, K extends keyof T> = K;
export type _InstanceFields = Has<
  aws.ec2.InstanceState,
  "instanceType" | "ami" | "availabilityZone" | "subnetId" | "rootBlockDevice" | "monitoring" | "tags"
>;
export type _VolumeFields = Has<aws.ebs.VolumeState, "type" | "iops" | "throughput" | "size" | "availabilityZone" | "tags">;
export type _AttachmentFields = Has<aws.ec2.VolumeAttachmentState, "instanceId" | "volumeId" | "deviceName">;
export type _SubnetFields = Has<aws.ec2.SubnetState, "availabilityZone" | "availabilityZoneId">;
export type _OntapFields = Has<
  aws.fsx.OntapFileSystemState,
  "deploymentType" | "throughputCapacity" | "haPairs" | "storageCapacity" | "diskIopsConfiguration" | "subnetIds"
>;
export type _NodeGroupFields = Has<aws.eks.NodeGroupState, "instanceTypes" | "amiType" | "releaseVersion" | "resources" | "subnetIds">;
export type _LaunchTemplateFields = Has<aws.ec2.LaunchTemplateState, "monitoring">;

/** Resource type tokens read here. */
export const TYPES = {
  instance: "aws:ec2/instance:Instance",
  volume: "aws:ebs/volume:Volume",
  attachment: "aws:ec2/volumeAttachment:VolumeAttachment",
  subnet: "aws:ec2/subnet:Subnet",
  ontap: "aws:fsx/ontapFileSystem:OntapFileSystem",
  nodeGroup: "aws:eks/nodeGroup:NodeGroup",
  launchTemplate: "aws:ec2/launchTemplate:LaunchTemplate",
  job: "kubernetes:batch/v1:Job",
  image: "docker-build:index:Image",
} as const;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** A nested block's fields, whether the state holds it as an object or as a one-item list. */
const block = (v: unknown): Record<string, unknown> | undefined => (isObj(v) ? v : Array.isArray(v) && isObj(v[0]) ? v[0] : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x !== "") : []);
const uniqSorted = (xs: readonly (string | undefined)[]): string[] => [...new Set(xs.filter((x): x is string => x !== undefined))].sort();

/** The resources of an export; an export without a deployment is an error naming the stack. */
export function resourcesOf(stack: string, exp: StackExport): readonly StateResource[] {
  const r = exp.deployment?.resources;
  if (!Array.isArray(r)) throw new Error(`stack ${stack}: its export has no deployment.resources (not deployed, or not a stack export)`);
  return r;
}

/** The logical name of a resource (the URN's last `::` segment). */
export function urnName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/**
 * A resource's name without its parent component's prefix: `ceph-osd-2` under component `ceph`
 * is `osd-2` (components name children `${name}-<role>`, CONTRIBUTING.md).
 */
export function roleName(r: StateResource): string {
  const name = urnName(r.urn);
  const parent = r.parent === undefined ? undefined : urnName(r.parent);
  return parent !== undefined && name.startsWith(`${parent}-`) ? name.slice(parent.length + 1) : name;
}

const outputs = (r: StateResource): Record<string, unknown> => r.outputs ?? {};

/** Subnet id → zone name and zone id, from every export given. */
export function subnetZones(resources: readonly StateResource[]): Map<string, { az?: string; azId?: string }> {
  const out = new Map<string, { az?: string; azId?: string }>();
  for (const r of resources) {
    if (r.type !== TYPES.subnet || r.id === undefined) continue;
    out.set(r.id, { az: str(outputs(r).availabilityZone), azId: str(outputs(r).availabilityZoneId) });
  }
  return out;
}

/** What a manifest records of one stack's infrastructure. */
export interface InfraFacts {
  readonly azs: string[];
  readonly azIds: string[];
  readonly amiIds: string[];
  readonly instanceTypes: string[];
  readonly images: string[];
  /** The region the stack's resources report (provider v7 puts `region` on each resource). */
  readonly regions: string[];
}

/**
 * The facts of a stack's own resources; `allResources` (its upstream stacks' too) resolves
 * subnets to zone ids. EKS nodes come from an Auto Scaling group: their AMI is named by the node
 * group's AMI type and release version (`AL2023_x86_64_STANDARD/1.35.0-20260101`).
 */
export function infraFacts(own: readonly StateResource[], allResources: readonly StateResource[]): InfraFacts {
  const zones = subnetZones(allResources);
  const subnets: string[] = [];
  const azs: (string | undefined)[] = [];
  const amis: (string | undefined)[] = [];
  const types: (string | undefined)[] = [];
  const images: (string | undefined)[] = [];
  const regions: (string | undefined)[] = [];
  for (const r of own) {
    const o = outputs(r);
    if (r.type.startsWith("aws:")) regions.push(str(o.region));
    switch (r.type) {
      case TYPES.instance:
        amis.push(str(o.ami));
        types.push(str(o.instanceType));
        azs.push(str(o.availabilityZone));
        subnets.push(...strs([o.subnetId]));
        break;
      case TYPES.ontap:
        subnets.push(...strs(o.subnetIds));
        break;
      case TYPES.nodeGroup: {
        types.push(...strs(o.instanceTypes));
        const ami = str(o.amiType);
        const release = str(o.releaseVersion);
        if (ami !== undefined || release !== undefined) amis.push(`${ami ?? "?"}/${release ?? "?"}`);
        subnets.push(...strs(o.subnetIds));
        break;
      }
      case TYPES.job: {
        const spec = isObj(o.spec) && isObj(o.spec.template) && isObj(o.spec.template.spec) ? o.spec.template.spec : {};
        for (const c of Array.isArray(spec.containers) ? spec.containers : []) images.push(isObj(c) ? str(c.image) : undefined);
        break;
      }
      case TYPES.image:
        images.push(str(o.ref));
        break;
    }
  }
  for (const s of subnets) azs.push(zones.get(s)?.az);
  return {
    azs: uniqSorted(azs),
    azIds: uniqSorted(subnets.map((s) => zones.get(s)?.azId)),
    amiIds: uniqSorted(amis),
    instanceTypes: uniqSorted(types),
    images: uniqSorted(images),
    regions: uniqSorted(regions),
  };
}

/** An EBS volume under a benchmark, and its configured limits. */
export interface EbsTarget {
  readonly kind: "ebs";
  /** `osd-2`, `root-worker-1`. */
  readonly resource: string;
  readonly volumeId: string;
  readonly volumeType: string;
  readonly iops?: number;
  readonly throughputMiBps?: number;
  readonly instanceId?: string;
  readonly instanceType?: string;
  /** The attached instance's hypervisor: VolumeIOPSExceededCheck and VolumeThroughputExceededCheck exist on Nitro only. */
  readonly hypervisor?: "xen" | "nitro";
}

/** An EC2 instance of the stack. */
export interface Ec2Target {
  readonly kind: "ec2";
  /** `worker-2`, `controller`. */
  readonly resource: string;
  readonly instanceId: string;
  readonly instanceType: string;
  /** Detailed (one-minute) monitoring on. */
  readonly detailedMonitoring: boolean;
}

/** The Auto Scaling group of an EKS managed node group (instances unknown to the state). */
export interface AsgTarget {
  readonly kind: "asg";
  readonly resource: string;
  readonly autoScalingGroupName: string;
  readonly instanceTypes: readonly string[];
  readonly detailedMonitoring: boolean;
}

/** An FSx for ONTAP file system. */
export interface FsxTarget {
  readonly kind: "fsx";
  /** `fsx`, or its role name when a stack has several. */
  readonly resource: string;
  readonly fileSystemId: string;
  readonly deploymentType: string;
  /** Total throughput capacity, MB/s. */
  readonly throughputCapacityMBps?: number;
  readonly haPairs: number;
  readonly diskIops?: number;
}

export type UtilTarget = EbsTarget | Ec2Target | AsgTarget | FsxTarget;

/**
 * The resources of a stack whose utilization CloudWatch reports: its EC2 instances but bastions
 * (tag `lab:role=bastion`), their root volumes (`root-<instance>`) and attached EBS volumes (named
 * as their Pulumi resources, `osd-2`), its EKS node groups' Auto Scaling groups, its FSx for ONTAP
 * file systems. Sorted by resource name.
 */
export function utilTargets(own: readonly StateResource[]): UtilTarget[] {
  const out: UtilTarget[] = [];
  const instances = new Map<string, { resource: string; instanceType?: string }>();
  const launchTemplateMonitoring = new Map<string, boolean>();
  for (const r of own) {
    if (r.type === TYPES.launchTemplate && r.id !== undefined) {
      const m = outputs(r).monitoring;
      launchTemplateMonitoring.set(r.id, isObj(m) && m.enabled === true);
    }
  }
  for (const r of own) {
    if (r.type !== TYPES.instance || r.id === undefined) continue;
    const o = outputs(r);
    if (isObj(o.tags) && o.tags["lab:role"] === "bastion") continue;
    const resource = roleName(r);
    const instanceType = str(o.instanceType);
    instances.set(r.id, { resource, instanceType });
    if (instanceType !== undefined)
      out.push({ kind: "ec2", resource, instanceId: r.id, instanceType, detailedMonitoring: o.monitoring === true });
    const root = block(o.rootBlockDevice);
    const volumeId = root === undefined ? undefined : str(root.volumeId);
    if (root !== undefined && volumeId !== undefined) {
      out.push(
        ebsTarget(
          `root-${resource}`,
          volumeId,
          str(root.volumeType) ?? "unknown",
          num(root.iops),
          num(root.throughput),
          r.id,
          instanceType,
        ),
      );
    }
  }
  const attachedTo = new Map<string, string>();
  for (const r of own) {
    if (r.type !== TYPES.attachment) continue;
    const v = str(outputs(r).volumeId);
    const i = str(outputs(r).instanceId);
    if (v !== undefined && i !== undefined) attachedTo.set(v, i);
  }
  for (const r of own) {
    if (r.type !== TYPES.volume || r.id === undefined) continue;
    const o = outputs(r);
    const instanceId = attachedTo.get(r.id);
    out.push(
      ebsTarget(
        roleName(r),
        r.id,
        str(o.type) ?? "unknown",
        num(o.iops),
        num(o.throughput),
        instanceId,
        instanceId === undefined ? undefined : instances.get(instanceId)?.instanceType,
      ),
    );
  }
  for (const r of own) {
    if (r.type !== TYPES.nodeGroup) continue;
    const o = outputs(r);
    const groups = (Array.isArray(o.resources) ? o.resources : []).flatMap((x) =>
      isObj(x) && Array.isArray(x.autoscalingGroups) ? x.autoscalingGroups : [],
    );
    const lt = block(o.launchTemplate);
    const ltId = lt === undefined ? undefined : str(lt.id);
    for (const g of groups) {
      const name = isObj(g) ? str(g.name) : undefined;
      if (name === undefined) continue;
      out.push({
        kind: "asg",
        resource: roleName(r),
        autoScalingGroupName: name,
        instanceTypes: strs(o.instanceTypes),
        detailedMonitoring: ltId !== undefined && launchTemplateMonitoring.get(ltId) === true,
      });
    }
  }
  const fsx = own.filter((r) => r.type === TYPES.ontap && r.id !== undefined);
  for (const r of fsx) {
    const o = outputs(r);
    const disk = isObj(o.diskIopsConfiguration) ? o.diskIopsConfiguration : undefined;
    out.push({
      kind: "fsx",
      resource: fsx.length === 1 ? "fsx" : `fsx-${roleName(r)}`,
      fileSystemId: r.id as string,
      deploymentType: str(o.deploymentType) ?? "unknown",
      ...(num(o.throughputCapacity) === undefined ? {} : { throughputCapacityMBps: num(o.throughputCapacity) }),
      haPairs: num(o.haPairs) ?? 1,
      ...(disk === undefined || num(disk.iops) === undefined ? {} : { diskIops: num(disk.iops) }),
    });
  }
  return out.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
}

function ebsTarget(
  resource: string,
  volumeId: string,
  volumeType: string,
  iops: number | undefined,
  throughputMiBps: number | undefined,
  instanceId: string | undefined,
  instanceType: string | undefined,
): EbsTarget {
  const hypervisor = instanceType === undefined ? undefined : hypervisorOf(instanceType);
  return {
    kind: "ebs",
    resource,
    volumeId,
    volumeType,
    ...(iops === undefined || iops === 0 ? {} : { iops }),
    ...(throughputMiBps === undefined || throughputMiBps === 0 ? {} : { throughputMiBps }),
    ...(instanceId === undefined ? {} : { instanceId }),
    ...(instanceType === undefined ? {} : { instanceType }),
    ...(hypervisor === undefined ? {} : { hypervisor }),
  };
}

/** Whether every node group of a stack launches its nodes with detailed (one-minute) monitoring. */
export function nodeGroupsMonitored(own: readonly StateResource[]): boolean {
  const asgs = utilTargets(own).filter((t): t is AsgTarget => t.kind === "asg");
  return asgs.length > 0 && asgs.every((t) => t.detailedMonitoring);
}

/** The EBS CSI driver's name: the `provisioner` of its StorageClasses, the `driver` of its PVs' `csi` source. */
export const EBS_CSI_DRIVER = "ebs.csi.aws.com";

/** What a Kubernetes cluster says about the volumes and nodes under its benchmarks ({@link clusterTargets}). */
export interface ClusterTargets {
  readonly targets: UtilTarget[];
  /** What could not be read, in words (a PV without a known StorageClass, a node without an instance id). */
  readonly notes: string[];
}

/** `aws:///us-east-1a/i-0123…` (a node's `spec.providerID` on EC2) → `i-0123…`. */
export function instanceIdOfProviderId(providerId: unknown): string | undefined {
  const m = typeof providerId === "string" ? /^aws:\/\/\/[^/]*\/(i-[0-9a-f]+)$/.exec(providerId) : null;
  return m === null ? undefined : m[1];
}

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "-");

/**
 * The EBS volumes the EBS CSI driver created for PersistentVolumeClaims, and each node's own
 * instance, from a cluster's PersistentVolumes, StorageClasses, VolumeAttachments and nodes as
 * one `List` (./manifest.ts `listClusterAsReader`): volumes that no Pulumi state holds, so
 * their gp3 limits would otherwise be missing and a run pinned at 3000/3000 IOPS would read
 * "client-bound".
 *
 * - A PV whose `spec.csi.driver` is `ebs.csi.aws.com` is an EBS volume: `spec.csi.volumeHandle` is
 *   its volume id (kubernetes-sigs/aws-ebs-csi-driver: CreateVolume returns the EBS volume id as the
 *   CSI volume id), named `pv-<claim namespace>-<claim name>`.
 * - Its limits come from its StorageClass's parameters (aws-ebs-csi-driver docs/parameters.md):
 *   `type` (default gp3), `iops`, `throughput` (MiB/s); a gp3 class without them gets gp3's
 *   3000 IOPS and 125 MiB/s ("If empty, it will set to 125MiB/s"; components/lib/ebs.ts GP3), the
 *   baseline components/eks/storage.ts asks for. `iopsPerGB` is not modelled (the IOPS are left
 *   unknown and said).
 * - The instance it is attached to: the VolumeAttachment of the PV (`spec.attacher`
 *   `ebs.csi.aws.com`, `spec.source.persistentVolumeName`) names the node, whose
 *   `spec.providerID` (`aws:///<zone>/<instance id>`) and `node.kubernetes.io/instance-type`
 *   label give the instance and its type, hence its hypervisor and instance EBS limits.
 * - Every node with an instance id is an EC2 target of its own (`node-<instance id>`): an EKS
 *   node group's CPU is otherwise only its Auto Scaling group's mean, where one saturated node of
 *   three reads ~33 %. `detailedMonitoring` is the node groups' (one-minute periods when on).
 */
export function clusterTargets(list: unknown, detailedMonitoring: boolean): ClusterTargets {
  const items = isObj(list) && Array.isArray(list.items) ? list.items.filter(isObj) : [];
  const notes: string[] = [];
  const byKind = (k: string) => items.filter((i) => i.kind === k);
  const meta = (o: Record<string, unknown>) => (isObj(o.metadata) ? o.metadata : {});
  const spec = (o: Record<string, unknown>) => (isObj(o.spec) ? o.spec : {});
  const classes = new Map(byKind("StorageClass").map((c) => [str(meta(c).name) ?? "", c]));
  const nodes = new Map<string, { instanceId?: string; instanceType?: string }>();
  for (const n of byKind("Node")) {
    const labels = isObj(meta(n).labels) ? (meta(n).labels as Record<string, unknown>) : {};
    nodes.set(str(meta(n).name) ?? "", {
      instanceId: instanceIdOfProviderId(spec(n).providerID),
      instanceType: str(labels["node.kubernetes.io/instance-type"]),
    });
  }
  const attachedNode = new Map<string, string>();
  for (const a of byKind("VolumeAttachment")) {
    const s = spec(a);
    const pv = isObj(s.source) ? str(s.source.persistentVolumeName) : undefined;
    const node = str(s.nodeName);
    if (s.attacher === EBS_CSI_DRIVER && pv !== undefined && node !== undefined) attachedNode.set(pv, node);
  }
  const targets: UtilTarget[] = [];
  for (const pv of byKind("PersistentVolume")) {
    const s = spec(pv);
    const csi = isObj(s.csi) ? s.csi : undefined;
    if (csi?.driver !== EBS_CSI_DRIVER) continue;
    const volumeId = str(csi.volumeHandle);
    const pvName = str(meta(pv).name) ?? "?";
    if (volumeId === undefined) {
      notes.push(`PersistentVolume ${pvName}: no spec.csi.volumeHandle`);
      continue;
    }
    const claim = isObj(s.claimRef) ? `${str(s.claimRef.namespace) ?? "default"}-${str(s.claimRef.name) ?? pvName}` : pvName;
    const className = str(s.storageClassName);
    const sc = className === undefined ? undefined : classes.get(className);
    const params = sc !== undefined && isObj(sc.parameters) ? sc.parameters : undefined;
    if (sc === undefined)
      notes.push(`PersistentVolume ${pvName} (${volumeId}): StorageClass ${className ?? "(none)"} not found: its limits are unknown`);
    const type = params === undefined ? (sc === undefined ? "unknown" : "gp3") : (str(params.type) ?? "gp3");
    const param = (k: string) => (params === undefined ? undefined : Number(str(params[k]) ?? NaN));
    const iopsParam = param("iops");
    const throughputParam = param("throughput");
    if (params !== undefined && str(params.iopsPerGB) !== undefined)
      notes.push(
        `PersistentVolume ${pvName} (${volumeId}): StorageClass ${className} sets iopsPerGB, which is not modelled: its IOPS limit is unknown`,
      );
    const iops =
      iopsParam !== undefined && Number.isFinite(iopsParam)
        ? iopsParam
        : type === "gp3" && (params === undefined || str(params.iopsPerGB) === undefined) && sc !== undefined
          ? GP3.baselineIops
          : undefined;
    const throughput =
      throughputParam !== undefined && Number.isFinite(throughputParam)
        ? throughputParam
        : type === "gp3" && sc !== undefined
          ? GP3.baselineThroughputMiBps
          : undefined;
    const node = nodes.get(attachedNode.get(pvName) ?? "");
    targets.push(ebsTarget(`pv-${clean(claim)}`, volumeId, type, iops, throughput, node?.instanceId, node?.instanceType));
  }
  for (const [name, n] of nodes) {
    if (n.instanceId === undefined || n.instanceType === undefined) {
      notes.push(`node ${name}: no EC2 instance id or instance type (spec.providerID, node.kubernetes.io/instance-type)`);
      continue;
    }
    targets.push({
      kind: "ec2",
      resource: `node-${n.instanceId}`,
      instanceId: n.instanceId,
      instanceType: n.instanceType,
      detailedMonitoring,
    });
  }
  return { targets: targets.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0)), notes };
}
