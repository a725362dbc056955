/**
 * An offline estimate of the hourly cost of planned resources, from their planned inputs (the
 * `inputs` of lab/plan/run.ts `PlannedResource`: values unknown until deploy are "<computed>",
 * secrets "[secret]") and the us-east-1 list prices of ./prices.ts. Pure: no @pulumi imports.
 *
 * Every resource ends up in exactly one of these, by the cost class of its type in the one table
 * of type tokens (lab/resource-types.ts `costOf`):
 * - priced: one line per charge (an instance, its public IPv4, its root volume, …), by the type's
 *   function in {@link PRICERS};
 * - free: types with no charge of their own;
 * - usage-billed: no fixed hourly charge, billed by what is stored or sent, counted in the notes;
 * - not priced: a type the table does not know, and every part of a priced resource whose price
 *   or size is not known (e.g. an FSx deployment type without a sourced price), with the reason.
 * A resource can have priced lines and not-priced parts at once.
 */
import {
  EBS_GP3_IOPS_MONTH,
  EBS_GP3_STORAGE_GB_MONTH,
  EBS_GP3_THROUGHPUT_MIBPS_MONTH,
  EC2_LINUX_ON_DEMAND,
  EKS_CLUSTER_HOUR,
  FSX_ONTAP,
  HOURS_PER_MONTH,
  KMS_KEY_MONTH,
  NAT_GATEWAY_HOUR,
  perHour,
  Price,
  PRICE_REGION,
  PUBLIC_IPV4_HOUR,
  SECRETS_MANAGER_SECRET_MONTH,
} from "./prices";
import { crossZoneNotes } from "./cross-zone";
import { AUTOMATIC_IOPS_PER_GIB, DEPLOYMENT_TYPES } from "../../components/fsx-ontap/rules";
import { EBS_CSI_PROVISIONER } from "../../components/eks/storage";
import { GP3 } from "../../components/lib/ebs";
import { isOneOf } from "../../core/checks";
import { COMPUTED, SECRET } from "../plan/markers";
import { costOf, TokenWithCost, TYPES } from "../resource-types";

/** A planned resource as the estimate reads it (a subset of lab/plan/run.ts PlannedResource). */
export interface CostResource {
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
  /** Its URN and the URNs it depends on: how a node group finds its launch template, and an Elastic IP association the instance it holds the address of. Absent: not linked. */
  readonly urn?: string;
  readonly dependencies?: readonly string[];
}

export interface CostLine {
  type: string;
  name: string;
  /** The charge, with its quantity and unit price. */
  what: string;
  usdPerHour: number;
}

export interface Unpriced {
  type: string;
  name: string;
  /** The part that is not priced, and why. */
  what: string;
}

export interface HourlyEstimate {
  lines: CostLine[];
  /** Sum of `lines`; what is in `unpriced` is not in it. */
  totalUsdPerHour: number;
  unpriced: Unpriced[];
  notes: string[];
}

/** Placeholders of the offline plan. */
export { COMPUTED, SECRET };

/** A planned value: absent, unknown until deploy (or secret), or known. */
type Known<T> = { state: "absent" } | { state: "unknown" } | { state: "known"; value: T };
const ABSENT = { state: "absent" } as const;
const UNKNOWN = { state: "unknown" } as const;

function isPlaceholder(v: unknown): boolean {
  return v === COMPUTED || v === SECRET;
}

function readNumber(v: unknown): Known<number> {
  if (v === undefined || v === null) return ABSENT;
  if (isPlaceholder(v)) return UNKNOWN;
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? { state: "known", value: n } : UNKNOWN;
}

function readString(v: unknown): Known<string> {
  if (v === undefined || v === null) return ABSENT;
  if (isPlaceholder(v) || typeof v !== "string") return UNKNOWN;
  return { state: "known", value: v };
}

function readObject(v: unknown): Known<Record<string, unknown>> {
  if (v === undefined || v === null) return ABSENT;
  if (isPlaceholder(v) || typeof v !== "object" || Array.isArray(v)) return UNKNOWN;
  return { state: "known", value: v as Record<string, unknown> };
}

const fmt = (n: number) => String(Number(n.toPrecision(12)));

/** Collects the lines and not-priced parts of one resource. */
class Bill {
  readonly lines: CostLine[] = [];
  readonly unpriced: Unpriced[] = [];
  readonly used = new Set<Price>();
  constructor(private readonly r: CostResource) {}

  get name(): string {
    return this.r.name;
  }

  /** `quantity` units at `price` (hourly prices per hour, monthly ones over 730 h). */
  charge(what: string, quantity: number, price: Price): void {
    this.used.add(price);
    const unit = price.unit.replace(/^USD\//, "");
    this.lines.push({
      type: this.r.type,
      name: this.r.name,
      what: `${what}: ${fmt(quantity)} × $${fmt(price.usd)}/${unit}${price.unconfirmed === undefined ? "" : " (unconfirmed price)"}`,
      usdPerHour: quantity * perHour(price),
    });
  }

  notPriced(what: string): void {
    this.unpriced.push({ type: this.r.type, name: this.r.name, what });
  }
}

interface EbsSpec {
  readonly volumeType: Known<string>;
  readonly sizeGiB: Known<number>;
  readonly iops: Known<number>;
  readonly throughputMiBps: Known<number>;
}

/** `count` EBS volumes alike (standalone, an instance's block device, a node group's root volumes): gp3 only. */
function priceEbs(bill: Bill, label: string, spec: EbsSpec, count = 1): void {
  if (spec.volumeType.state !== "known") {
    bill.notPriced(
      `${label}: volume type ${spec.volumeType.state === "absent" ? "not set (the AMI's or AWS's default applies)" : "unknown until deploy"}`,
    );
    return;
  }
  const type = spec.volumeType.value;
  if (type !== "gp3") {
    bill.notPriced(`${label}: EBS ${type} has no sourced price (only gp3 is in lab/cost/prices.ts)`);
    return;
  }
  if (spec.sizeGiB.state === "known") bill.charge(`${label} gp3 storage`, count * spec.sizeGiB.value, EBS_GP3_STORAGE_GB_MONTH);
  else
    bill.notPriced(
      `${label}: size ${spec.sizeGiB.state === "absent" ? "not set (taken from the AMI or snapshot)" : "unknown until deploy"}`,
    );

  if (spec.iops.state === "unknown") bill.notPriced(`${label}: gp3 IOPS unknown until deploy`);
  else if (spec.iops.state === "known" && spec.iops.value > GP3.baselineIops)
    bill.charge(`${label} gp3 IOPS above ${GP3.baselineIops}`, count * (spec.iops.value - GP3.baselineIops), EBS_GP3_IOPS_MONTH);

  if (spec.throughputMiBps.state === "unknown") bill.notPriced(`${label}: gp3 throughput unknown until deploy`);
  else if (spec.throughputMiBps.state === "known" && spec.throughputMiBps.value > GP3.baselineThroughputMiBps)
    bill.charge(
      `${label} gp3 throughput above ${GP3.baselineThroughputMiBps} MiB/s`,
      count * (spec.throughputMiBps.value - GP3.baselineThroughputMiBps),
      EBS_GP3_THROUGHPUT_MIBPS_MONTH,
    );
}

function blockDevice(o: Record<string, unknown>): EbsSpec {
  return {
    volumeType: readString(o.volumeType),
    sizeGiB: readNumber(o.volumeSize),
    iops: readNumber(o.iops),
    throughputMiBps: readNumber(o.throughput),
  };
}

function priceInstanceHours(bill: Bill, instanceType: Known<string>, count: number, what: string): void {
  if (instanceType.state !== "known") {
    bill.notPriced(`${what}: instance type ${instanceType.state === "absent" ? "not set" : "unknown until deploy"}`);
    return;
  }
  const price = EC2_LINUX_ON_DEMAND[instanceType.value];
  if (!price) bill.notPriced(`${what}: ${instanceType.value} has no sourced us-east-1 price in lab/cost/prices.ts`);
  else bill.charge(`${instanceType.value} ${what} (Linux, on-demand)`, count, price);
}

function priceInstance(bill: Bill, inputs: Record<string, unknown>, notes: Set<string>, name: string): void {
  priceInstanceHours(bill, readString(inputs.instanceType), 1, "instance");

  const publicIp = inputs.associatePublicIpAddress;
  if (publicIp === true) bill.charge("public IPv4 address", 1, PUBLIC_IPV4_HOUR);
  else if (isPlaceholder(publicIp)) bill.notPriced("public IPv4 address: associatePublicIpAddress unknown until deploy");
  else if (publicIp === undefined || publicIp === null)
    notes.add(`instance ${name}: associatePublicIpAddress not set; a public IPv4 address from the subnet's default is not counted`);

  const root = readObject(inputs.rootBlockDevice);
  if (root.state === "known") priceEbs(bill, "root volume", blockDevice(root.value));
  else bill.notPriced(`root volume: ${root.state === "absent" ? "size and type come from the AMI" : "unknown until deploy"}`);

  const extra = inputs.ebsBlockDevices;
  if (isPlaceholder(extra)) bill.notPriced("EBS block devices unknown until deploy");
  else if (Array.isArray(extra))
    extra.forEach((d, i) => {
      const dev = readObject(d);
      const label =
        dev.state === "known" && typeof dev.value.deviceName === "string" ? `block device ${dev.value.deviceName}` : `block device ${i}`;
      if (dev.state === "known") priceEbs(bill, label, blockDevice(dev.value));
      else bill.notPriced(`${label}: unknown until deploy`);
    });
}

function priceVolume(bill: Bill, inputs: Record<string, unknown>): void {
  priceEbs(bill, "volume", {
    volumeType: readString(inputs.type),
    sizeGiB: readNumber(inputs.size),
    iops: readNumber(inputs.iops),
    throughputMiBps: readNumber(inputs.throughput),
  });
}

function priceNatGateway(bill: Bill, inputs: Record<string, unknown>): void {
  const connectivity = readString(inputs.connectivityType);
  if (connectivity.state === "known" && connectivity.value === "private") {
    bill.notPriced("private NAT gateway: no sourced price (the sourced $0.045/hour is for public NAT gateways)");
    return;
  }
  if (connectivity.state === "unknown") {
    bill.notPriced("NAT gateway: connectivityType unknown until deploy");
    return;
  }
  bill.charge("NAT gateway", 1, NAT_GATEWAY_HOUR);
  // A public NAT gateway's address is an Elastic IP: priced on that aws:ec2/eip resource when it is
  // named by allocationId; without one AWS assigns an address, priced here.
  if (inputs.allocationId === undefined || inputs.allocationId === null)
    bill.charge("public IPv4 address assigned by AWS", 1, PUBLIC_IPV4_HOUR);
}

function priceEip(bill: Bill, inputs: Record<string, unknown>): void {
  // Not set: Amazon's pool (the AllocateAddress default). Unknown until deploy: it may be a BYOIP
  // pool, which the public IPv4 rate does not apply to.
  const pool = readString(inputs.publicIpv4Pool);
  if (pool.state === "unknown") {
    bill.notPriced("Elastic IP: publicIpv4Pool unknown until deploy (a BYOIP pool is not charged the public IPv4 rate)");
    return;
  }
  if (pool.state === "known" && pool.value !== "amazon") {
    bill.notPriced(`Elastic IP from pool ${pool.value} (BYOIP addresses are not charged the public IPv4 rate; not modelled)`);
    return;
  }
  bill.charge("Elastic IP (public IPv4 address)", 1, PUBLIC_IPV4_HOUR);
}

function priceOntapFileSystem(bill: Bill, inputs: Record<string, unknown>, notes: Set<string>): void {
  const dt = readString(inputs.deploymentType);
  if (dt.state !== "known" || !isOneOf(dt.value, DEPLOYMENT_TYPES)) {
    bill.notPriced(
      `file system: deploymentType ${dt.state === "known" ? `'${dt.value}' is not an FSx for ONTAP deployment type` : "unknown"}`,
    );
    return;
  }
  const deployment = dt.value;
  const prices = FSX_ONTAP[deployment];
  // Not set: SSD (FSx's default StorageType). Unknown until deploy: not priced at SSD rates.
  const storageType = readString(inputs.storageType);
  if (storageType.state !== "absent" && (storageType.state !== "known" || storageType.value !== "SSD")) {
    bill.notPriced(
      `file system: storageType ${storageType.state === "known" ? `${storageType.value} has no sourced price` : "unknown until deploy"}`,
    );
    return;
  }
  const missing = (part: string) => `${part}: no sourced us-east-1 price for ${deployment} in lab/cost/prices.ts`;

  const storage = readNumber(inputs.storageCapacity);
  if (storage.state !== "known")
    bill.notPriced(`SSD storage: storageCapacity ${storage.state === "absent" ? "not set" : "unknown until deploy"}`);
  else if (prices.ssdGbMonth) bill.charge(`${deployment} SSD storage`, storage.value, prices.ssdGbMonth);
  else bill.notPriced(missing(`SSD storage ${storage.value} GB`));

  // Throughput capacity is the file system's total: throughputCapacity, or per HA pair × haPairs (default 1).
  const haPairs = readNumber(inputs.haPairs);
  const total = readNumber(inputs.throughputCapacity);
  const perPair = readNumber(inputs.throughputCapacityPerHaPair);
  let throughput: Known<number>;
  if (total.state !== "absent") throughput = total;
  else if (perPair.state !== "known") throughput = perPair;
  else if (haPairs.state === "unknown") throughput = UNKNOWN;
  else throughput = { state: "known", value: perPair.value * (haPairs.state === "known" ? haPairs.value : 1) };
  if (throughput.state !== "known")
    bill.notPriced(
      `throughput capacity: ${throughput.state === "absent" ? "neither throughputCapacity nor throughputCapacityPerHaPair set" : "unknown until deploy"}`,
    );
  else if (prices.throughputMbpsMonth) bill.charge(`${deployment} throughput capacity`, throughput.value, prices.throughputMbpsMonth);
  else bill.notPriced(missing(`throughput capacity ${throughput.value} MBps`));

  // SSD IOPS: AUTOMATIC_IOPS_PER_GIB per GB of SSD storage are included; USER_PROVISIONED IOPS above that are billed.
  const included = `the included ${AUTOMATIC_IOPS_PER_GIB}/GB`;
  const iopsConfig = readObject(inputs.diskIopsConfiguration);
  if (iopsConfig.state === "unknown") bill.notPriced("SSD IOPS: diskIopsConfiguration unknown until deploy");
  else if (iopsConfig.state === "known") {
    const mode = readString(iopsConfig.value.mode);
    const iops = readNumber(iopsConfig.value.iops);
    if (mode.state === "unknown") bill.notPriced("SSD IOPS: mode unknown until deploy");
    else if (mode.state === "known" && mode.value === "USER_PROVISIONED") {
      if (iops.state !== "known" || storage.state !== "known")
        bill.notPriced("SSD IOPS: provisioned IOPS or storage capacity unknown until deploy");
      else {
        const extra = iops.value - AUTOMATIC_IOPS_PER_GIB * storage.value;
        if (extra > 0) {
          if (prices.ssdIopsMonth) bill.charge(`${deployment} SSD IOPS above ${included}`, extra, prices.ssdIopsMonth);
          else bill.notPriced(missing(`SSD IOPS above ${included} (${fmt(extra)} of ${fmt(iops.value)} IOPS)`));
        }
      }
    }
  }
  const backups = readNumber(inputs.automaticBackupRetentionDays);
  if (backups.state !== "known" || backups.value > 0)
    notes.add("FSx for ONTAP backups are billed per GB-month of backup stored (usage): not estimated");
  notes.add(
    "FSx for ONTAP capacity-pool storage and requests are billed by usage: not estimated (volumes with tiering NONE keep their data on SSD)",
  );
}

function priceKmsKey(bill: Bill, inputs: Record<string, unknown>, notes: Set<string>): void {
  bill.charge("KMS customer-managed key", 1, KMS_KEY_MONTH);
  if (inputs.enableKeyRotation === true)
    notes.add("KMS automatic key rotation adds $1/month per rotated key for the first two yearly rotations: not in an hourly estimate");
}

function priceSecret(bill: Bill, inputs: Record<string, unknown>): void {
  const replicas = Array.isArray(inputs.replicas) ? inputs.replicas.length : 0;
  bill.charge(replicas > 0 ? `secret and its ${replicas} replica(s)` : "secret", 1 + replicas, SECRETS_MANAGER_SECRET_MONTH);
  if (isPlaceholder(inputs.replicas)) bill.notPriced("secret replicas unknown until deploy");
}

function priceEksCluster(bill: Bill, notes: Set<string>): void {
  bill.charge("EKS cluster, standard support", 1, EKS_CLUSTER_HOUR);
  notes.add("EKS clusters are priced at standard support; a Kubernetes version in extended support costs more ($0.60/hour): not modelled");
}

/**
 * An EKS managed node group's instances. `defaultDesiredSize`: the node count when `scalingConfig`
 * is not set (pulumi-eks' ManagedNodeGroup defaults to 2; aws.eks.NodeGroup requires it).
 */
function priceNodeGroup(bill: Bill, inputs: Record<string, unknown>, ctx: PriceContext, defaultDesiredSize?: number): void {
  const scaling = readObject(inputs.scalingConfig);
  const desired: Known<number> =
    scaling.state === "known"
      ? readNumber(scaling.value.desiredSize)
      : scaling.state === "unknown"
        ? UNKNOWN
        : defaultDesiredSize === undefined
          ? ABSENT
          : { state: "known", value: defaultDesiredSize };
  const types = inputs.instanceTypes;
  // EKS's CreateNodegroup defaults to t3.medium when no instance type is given.
  const instanceType: Known<string> =
    Array.isArray(types) && types.length > 0
      ? readString(types[0])
      : isPlaceholder(types)
        ? UNKNOWN
        : { state: "known", value: "t3.medium" };
  if (desired.state !== "known")
    bill.notPriced(`node instances: scalingConfig.desiredSize ${desired.state === "absent" ? "not set" : "unknown until deploy"}`);
  else priceInstanceHours(bill, instanceType, desired.value, "node instance");
  // The root volumes: the launch template's first block device mapping (components/eks/index.ts
  // gives every node group one, an encrypted gp3 root volume), one per node.
  const lt = ctx.resources.find(
    (r) => r.type === TYPES.launchTemplate && r.urn !== undefined && (ctx.self.dependencies ?? []).includes(r.urn),
  );
  const mappings = lt === undefined ? undefined : lt.inputs.blockDeviceMappings;
  const ebs =
    Array.isArray(mappings) && mappings.length > 0
      ? readObject(readObject(mappings[0]).state === "known" ? (mappings[0] as Record<string, unknown>).ebs : undefined)
      : ABSENT;
  if (lt === undefined || ebs.state !== "known")
    bill.notPriced(
      lt === undefined
        ? "node root volumes: their type and size come from the node group's AMI (no launch template in the plan)"
        : `node root volumes: launch template ${lt.name} has no block device mapping the estimate can read`,
    );
  else if (desired.state === "known")
    priceEbs(bill, `${desired.value} node root volume(s) (launch template ${lt.name})`, blockDevice(ebs.value), desired.value);
}

/** A quantity of storage as Kubernetes writes it (`64Gi`, `1Ti`, `500G`), in GiB; undefined when unreadable. */
export function storageGiB(q: unknown): number | undefined {
  const m = typeof q === "string" ? /^([0-9]+(?:\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|k|M|G|T|P)?$/.exec(q) : null;
  if (m === null) return undefined;
  const bytes: Record<string, number> = {
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
  };
  return (Number(m[1]) * (m[2] === undefined ? 1 : bytes[m[2]])) / 2 ** 30;
}

/**
 * A PersistentVolumeClaim whose StorageClass in the same plan is the EBS CSI driver's: the gp3 (or
 * other type) volume the driver creates for it, at the claim's requested size and the class's
 * `iops`/`throughput` parameters (kubernetes-sigs/aws-ebs-csi-driver docs/parameters.md: `type`
 * default gp3, `iops` default 3000, `throughput` default 125). Claims on other classes (Trident,
 * static NFS) cost nothing of their own.
 */
function pricePvc(bill: Bill, inputs: Record<string, unknown>, ctx: PriceContext): void {
  const spec = readObject(inputs.spec);
  if (spec.state !== "known") return;
  const className = readString(spec.value.storageClassName);
  if (className.state !== "known") return;
  const sc = ctx.resources.find(
    (r) =>
      r.type === STORAGE_CLASS &&
      readObject(r.inputs.metadata).state === "known" &&
      (r.inputs.metadata as Record<string, unknown>).name === className.value,
  );
  if (sc === undefined || sc.inputs.provisioner !== EBS_CSI_PROVISIONER) return;
  const params = readObject(sc.inputs.parameters);
  const p = params.state === "known" ? params.value : {};
  const resources = readObject(spec.value.resources);
  const requests = resources.state === "known" ? readObject(resources.value.requests) : ABSENT;
  const size = requests.state === "known" ? storageGiB(requests.value.storage) : undefined;
  priceEbs(bill, `EBS volume of claim ${bill.name} (StorageClass ${className.value})`, {
    volumeType: { state: "known", value: typeof p.type === "string" ? p.type : "gp3" },
    sizeGiB: size === undefined ? UNKNOWN : { state: "known", value: size },
    iops: readNumber(p.iops),
    throughputMiBps: readNumber(p.throughput),
  });
}

/**
 * pulumi-eks' `eks.Cluster`, a remote component: the offline plan sees it as one resource, not the
 * aws.eks.Cluster and node group it creates, so it is priced here: the control plane, and its
 * default node group (created unless `skipDefaultNodeGroup`) as not priced.
 */
function priceEksComponentCluster(bill: Bill, inputs: Record<string, unknown>, notes: Set<string>): void {
  priceEksCluster(bill, notes);
  if (inputs.skipDefaultNodeGroup !== true)
    bill.notPriced("default node group: not priced (set skipDefaultNodeGroup and give the cluster node groups of its own)");
}

function priceVpcEndpoint(bill: Bill, inputs: Record<string, unknown>): void {
  const kind = readString(inputs.vpcEndpointType);
  // Gateway endpoints (S3, DynamoDB) have no hourly or data-processing charge.
  if (kind.state === "known" && kind.value === "Gateway") return;
  const label = kind.state === "known" ? kind.value : kind.state === "absent" ? "Interface (the default)" : "unknown-type";
  bill.notPriced(`${label} VPC endpoint: no sourced hourly price`);
}

/** The types the one table of type tokens marks as priced (lab/resource-types.ts). */
type PricedType = TokenWithCost<"priced">;
/** The plan a resource is priced in: the resource itself and every other one (its launch template, its StorageClass). */
interface PriceContext {
  readonly self: CostResource;
  readonly resources: readonly CostResource[];
}
type Pricer = (bill: Bill, inputs: Record<string, unknown>, notes: Set<string>, name: string, ctx: PriceContext) => void;

const STORAGE_CLASS = "kubernetes:storage.k8s.io/v1:StorageClass";

/**
 * How each priced type is priced: one function per priced token of lab/resource-types.ts, every
 * one of them (a type marked priced there without a function here does not compile).
 */
export const PRICERS: { readonly [T in PricedType]: Pricer } = {
  [TYPES.instance]: priceInstance,
  [TYPES.ebsVolume]: (bill, inputs) => priceVolume(bill, inputs),
  [TYPES.natGateway]: (bill, inputs) => priceNatGateway(bill, inputs),
  [TYPES.eip]: (bill, inputs) => priceEip(bill, inputs),
  [TYPES.ontapFileSystem]: (bill, inputs, notes) => priceOntapFileSystem(bill, inputs, notes),
  [TYPES.kmsKey]: (bill, inputs, notes) => priceKmsKey(bill, inputs, notes),
  [TYPES.secretsManagerSecret]: (bill, inputs) => priceSecret(bill, inputs),
  [TYPES.eksCluster]: (bill, _inputs, notes) => priceEksCluster(bill, notes),
  [TYPES.eksNodeGroup]: (bill, inputs, _notes, _name, ctx) => priceNodeGroup(bill, inputs, ctx),
  [TYPES.eksComponentCluster]: priceEksComponentCluster,
  [TYPES.eksManagedNodeGroup]: (bill, inputs, _notes, _name, ctx) => priceNodeGroup(bill, inputs, ctx, 2),
  [TYPES.persistentVolumeClaim]: (bill, inputs, _notes, _name, ctx) => pricePvc(bill, inputs, ctx),
  [TYPES.vpcEndpoint]: (bill, inputs) => priceVpcEndpoint(bill, inputs),
};

/**
 * The hourly cost of `resources` at us-east-1 list prices. For another `region` the same prices
 * are used and a note says so: regional price differences are not modelled.
 */
export function estimateHourly(resources: readonly CostResource[], region: string): HourlyEstimate {
  const lines: CostLine[] = [];
  const unpriced: Unpriced[] = [];
  const notes = new Set<string>();
  const used = new Set<Price>();
  const usageBilled = new Map<string, number>();

  // EC2 releases an instance's auto-assigned public IPv4 address when an Elastic IP is associated
  // with it ("Public IPv4 addresses", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-instance-addressing.html):
  // its one address is then the Elastic IP, priced on the aws:ec2/eip.
  const withEip = new Set(resources.filter((r) => r.type === TYPES.eipAssociation).flatMap((r) => r.dependencies ?? []));
  for (const r of resources) {
    const own = r.inputs ?? {};
    const eipHeld = r.type === TYPES.instance && r.urn !== undefined && withEip.has(r.urn) && own.associatePublicIpAddress === true;
    if (eipHeld) notes.add(`instance ${r.name}: its public IPv4 address is the associated Elastic IP's (priced there)`);
    const inputs = eipHeld ? { ...own, associatePublicIpAddress: false } : own;
    const bill = new Bill(r);
    const cost = costOf(r.type);
    if (cost === "priced") PRICERS[r.type as PricedType](bill, inputs, notes, r.name, { self: r, resources });
    else if (cost === "usage-billed") usageBilled.set(r.type, (usageBilled.get(r.type) ?? 0) + 1);
    else if (cost === undefined)
      bill.notPriced(
        r.type.startsWith("aws:")
          ? "no price for this AWS resource type: it is not in lab/resource-types.ts"
          : "unknown resource type: not in lab/resource-types.ts, neither priced nor free",
      );
    lines.push(...bill.lines);
    unpriced.push(...bill.unpriced);
    bill.used.forEach((p) => used.add(p));
  }

  const out: string[] = [];
  out.push(
    region === PRICE_REGION
      ? `list prices for ${PRICE_REGION}, on-demand, Linux, before free tier, Savings Plans and reservations; monthly prices at ${HOURS_PER_MONTH} h/month`
      : `region ${region} is priced with ${PRICE_REGION} list prices (regional differences are not modelled); on-demand, Linux, before free tier, Savings Plans and reservations; monthly prices at ${HOURS_PER_MONTH} h/month`,
  );
  out.push(
    "not estimated: data transfer (internet egress, cross-AZ traffic, NAT gateway data processing per GB) and request charges (KMS and Secrets Manager API calls, S3 and FSx capacity-pool requests)",
  );
  if (usageBilled.size > 0)
    out.push(`usage-billed, no fixed hourly charge, not estimated: ${[...usageBilled.entries()].map(([t, n]) => `${t} ×${n}`).join(", ")}`);
  out.push(...notes);
  out.push(...crossZoneNotes(resources));
  const unstated = [...used].filter((p) => !p.regionStated);
  if (unstated.length > 0)
    out.push(
      `prices whose source does not name the region (cross-checked, see lab/cost/prices.ts): ${unstated.map((p) => `${p.what.split(", per")[0]} $${fmt(p.usd)}/${p.unit.replace(/^USD\//, "")}`).join("; ")}`,
    );

  for (const p of [...used].filter((x) => x.unconfirmed !== undefined))
    out.push(`unconfirmed price, charged but not confirmed: ${p.what} $${fmt(p.usd)}/${p.unit.replace(/^USD\//, "")}: ${p.unconfirmed}`);

  const totalUsdPerHour = lines.reduce((sum, l) => sum + l.usdPerHour, 0);
  return { lines, totalUsdPerHour, unpriced, notes: out };
}

/** The estimate as text lines (what `lab plan` can print under a stack's tree). */
export function renderEstimate(e: HourlyEstimate): string[] {
  const usd = (n: number) => `$${n.toFixed(4)}`;
  const out = [
    `estimated hourly cost: ${usd(e.totalUsdPerHour)}/h ($${(e.totalUsdPerHour * HOURS_PER_MONTH).toFixed(2)} over ${HOURS_PER_MONTH} h)`,
  ];
  for (const l of e.lines) out.push(`  ${usd(l.usdPerHour)}/h  ${l.name}  ${l.what}`);
  for (const u of e.unpriced) out.push(`  not priced: ${u.name} (${u.type}): ${u.what}`);
  for (const n of e.notes) out.push(`  note: ${n}`);
  return out;
}
