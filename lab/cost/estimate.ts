/**
 * An offline estimate of the hourly cost of planned resources, from their planned inputs (the
 * `inputs` of lab/plan/run.ts `PlannedResource`: values unknown until deploy are "<computed>",
 * secrets "[secret]") and the us-east-1 list prices of ./prices.ts. Pure: no @pulumi imports.
 *
 * Every resource ends up in exactly one of these:
 * - priced: one line per charge (an instance, its public IPv4, its root volume, …);
 * - free: types with no charge of their own (FREE_TYPE_PREFIXES);
 * - usage-billed: no fixed hourly charge, billed by what is stored or sent (USAGE_BILLED_TYPE_PREFIXES),
 *   counted in the notes;
 * - not priced: anything else, and every part of a priced resource whose price or size is not
 *   known (e.g. an FSx deployment type without a sourced price), with the reason.
 * A resource can have priced lines and not-priced parts at once.
 */
import {
  EBS_GP3_IOPS_MONTH,
  EBS_GP3_STORAGE_GB_MONTH,
  EBS_GP3_THROUGHPUT_MIBPS_MONTH,
  EC2_LINUX_ON_DEMAND,
  EKS_CLUSTER_HOUR,
  FSX_ONTAP,
  FsxOntapDeploymentType,
  HOURS_PER_MONTH,
  KMS_KEY_MONTH,
  NAT_GATEWAY_HOUR,
  perHour,
  Price,
  PRICE_REGION,
  PUBLIC_IPV4_HOUR,
  SECRETS_MANAGER_SECRET_MONTH,
} from "./prices";
import { COMPUTED, SECRET } from "../plan/markers";

/** A planned resource as the estimate reads it (a subset of lab/plan/run.ts PlannedResource). */
export interface CostResource {
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
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

/**
 * Type tokens (prefixes) of resources with no charge of their own: Pulumi's own resources and
 * providers, the lab's components, Kubernetes objects (they run on nodes priced as instances),
 * utility providers, component packages (their AWS children are priced one by one), and the AWS
 * resources AWS does not bill: VPC plumbing, security groups and rules, IAM, key pairs, attachments,
 * aliases, secret versions (billed per secret), FSx SVMs (FSx bills the file system), EKS add-on
 * and access objects.
 */
export const FREE_TYPE_PREFIXES: readonly string[] = [
  "pulumi:",
  "lab:",
  "kubernetes:",
  "random:",
  "tls:",
  "time:",
  "command:",
  "eks:",
  "awsx:",
  "aws:ec2/vpc:",
  "aws:ec2/subnet:",
  "aws:ec2/routeTable:",
  "aws:ec2/routeTableAssociation:",
  "aws:ec2/route:",
  "aws:ec2/mainRouteTableAssociation:",
  "aws:ec2/defaultRouteTable:",
  "aws:ec2/internetGateway:",
  "aws:ec2/internetGatewayAttachment:",
  "aws:ec2/egressOnlyInternetGateway:",
  "aws:ec2/securityGroup:",
  "aws:ec2/defaultSecurityGroup:",
  "aws:ec2/securityGroupRule:",
  "aws:vpc/securityGroupIngressRule:",
  "aws:vpc/securityGroupEgressRule:",
  "aws:ec2/networkAcl:",
  "aws:ec2/networkAclRule:",
  "aws:ec2/defaultNetworkAcl:",
  "aws:ec2/keyPair:",
  "aws:ec2/volumeAttachment:",
  "aws:ec2/eipAssociation:",
  "aws:ec2/launchTemplate:",
  "aws:ec2/placementGroup:",
  "aws:iam/",
  "aws:kms/alias:",
  "aws:secretsmanager/secretVersion:",
  "aws:secretsmanager/secretPolicy:",
  "aws:fsx/ontapStorageVirtualMachine:",
  "aws:eks/addon:",
  "aws:eks/accessEntry:",
  "aws:eks/accessPolicyAssociation:",
  "aws:eks/podIdentityAssociation:",
];

/**
 * Type tokens (prefixes) billed only by usage, with no fixed hourly charge: log ingestion and
 * storage, flow-log delivery, FSx volumes (their data is the file system's SSD storage, priced on
 * the file system, or capacity-pool usage), S3 and ECR storage and requests. Not estimated.
 */
export const USAGE_BILLED_TYPE_PREFIXES: readonly string[] = [
  "aws:cloudwatch/logGroup:",
  "aws:ec2/flowLog:",
  "aws:fsx/ontapVolume:",
  "aws:s3/",
  "aws:ecr/repository:",
];

const hasPrefix = (type: string, prefixes: readonly string[]) => prefixes.some((p) => type.startsWith(p));

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

  /** `quantity` units at `price` (hourly prices per hour, monthly ones over 730 h). */
  charge(what: string, quantity: number, price: Price): void {
    this.used.add(price);
    const unit = price.unit.replace(/^USD\//, "");
    this.lines.push({
      type: this.r.type,
      name: this.r.name,
      what: `${what}: ${fmt(quantity)} × $${fmt(price.usd)}/${unit}`,
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

/** An EBS volume (standalone or an instance's block device): gp3 only. */
function priceEbs(bill: Bill, label: string, spec: EbsSpec): void {
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
  if (spec.sizeGiB.state === "known") bill.charge(`${label} gp3 storage`, spec.sizeGiB.value, EBS_GP3_STORAGE_GB_MONTH);
  else
    bill.notPriced(
      `${label}: size ${spec.sizeGiB.state === "absent" ? "not set (taken from the AMI or snapshot)" : "unknown until deploy"}`,
    );

  if (spec.iops.state === "unknown") bill.notPriced(`${label}: gp3 IOPS unknown until deploy`);
  else if (spec.iops.state === "known" && spec.iops.value > 3000)
    bill.charge(`${label} gp3 IOPS above 3000`, spec.iops.value - 3000, EBS_GP3_IOPS_MONTH);

  if (spec.throughputMiBps.state === "unknown") bill.notPriced(`${label}: gp3 throughput unknown until deploy`);
  else if (spec.throughputMiBps.state === "known" && spec.throughputMiBps.value > 125)
    bill.charge(`${label} gp3 throughput above 125 MiB/s`, spec.throughputMiBps.value - 125, EBS_GP3_THROUGHPUT_MIBPS_MONTH);
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
  const pool = readString(inputs.publicIpv4Pool);
  if (pool.state === "known" && pool.value !== "amazon") {
    bill.notPriced(`Elastic IP from pool ${pool.value} (BYOIP addresses are not charged the public IPv4 rate; not modelled)`);
    return;
  }
  bill.charge("Elastic IP (public IPv4 address)", 1, PUBLIC_IPV4_HOUR);
}

const FSX_DEPLOYMENT_TYPES: readonly FsxOntapDeploymentType[] = ["MULTI_AZ_1", "SINGLE_AZ_1", "MULTI_AZ_2", "SINGLE_AZ_2"];

function priceOntapFileSystem(bill: Bill, inputs: Record<string, unknown>, notes: Set<string>): void {
  const dt = readString(inputs.deploymentType);
  if (dt.state !== "known" || !(FSX_DEPLOYMENT_TYPES as readonly string[]).includes(dt.value)) {
    bill.notPriced(
      `file system: deploymentType ${dt.state === "known" ? `'${dt.value}' is not an FSx for ONTAP deployment type` : "unknown"}`,
    );
    return;
  }
  const deployment = dt.value as FsxOntapDeploymentType;
  const prices = FSX_ONTAP[deployment];
  const storageType = readString(inputs.storageType);
  if (storageType.state === "known" && storageType.value !== "SSD") {
    bill.notPriced(`file system: storageType ${storageType.value} has no sourced price`);
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

  // SSD IOPS: 3 per GB of SSD storage are included; USER_PROVISIONED IOPS above that are billed.
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
        const extra = iops.value - 3 * storage.value;
        if (extra > 0) {
          if (prices.ssdIopsMonth) bill.charge(`${deployment} SSD IOPS above the included 3/GB`, extra, prices.ssdIopsMonth);
          else bill.notPriced(missing(`SSD IOPS above the included 3/GB (${fmt(extra)} of ${fmt(iops.value)} IOPS)`));
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

function priceNodeGroup(bill: Bill, inputs: Record<string, unknown>): void {
  const scaling = readObject(inputs.scalingConfig);
  const desired = scaling.state === "known" ? readNumber(scaling.value.desiredSize) : scaling.state === "unknown" ? UNKNOWN : ABSENT;
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
  bill.notPriced("node root volumes: their type and size come from the node group's AMI or launch template");
}

function priceVpcEndpoint(bill: Bill, inputs: Record<string, unknown>): void {
  const kind = readString(inputs.vpcEndpointType);
  // Gateway endpoints (S3, DynamoDB) have no hourly or data-processing charge.
  if (kind.state === "known" && kind.value === "Gateway") return;
  const label = kind.state === "known" ? kind.value : kind.state === "absent" ? "Interface (the default)" : "unknown-type";
  bill.notPriced(`${label} VPC endpoint: no sourced hourly price`);
}

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

  for (const r of resources) {
    const inputs = r.inputs ?? {};
    const bill = new Bill(r);
    switch (r.type) {
      case "aws:ec2/instance:Instance":
        priceInstance(bill, inputs, notes, r.name);
        break;
      case "aws:ebs/volume:Volume":
        priceVolume(bill, inputs);
        break;
      case "aws:ec2/natGateway:NatGateway":
        priceNatGateway(bill, inputs);
        break;
      case "aws:ec2/eip:Eip":
        priceEip(bill, inputs);
        break;
      case "aws:fsx/ontapFileSystem:OntapFileSystem":
        priceOntapFileSystem(bill, inputs, notes);
        break;
      case "aws:kms/key:Key":
        priceKmsKey(bill, inputs, notes);
        break;
      case "aws:secretsmanager/secret:Secret":
        priceSecret(bill, inputs);
        break;
      case "aws:eks/cluster:Cluster":
        priceEksCluster(bill, notes);
        break;
      case "aws:eks/nodeGroup:NodeGroup":
        priceNodeGroup(bill, inputs);
        break;
      case "aws:ec2/vpcEndpoint:VpcEndpoint":
        priceVpcEndpoint(bill, inputs);
        break;
      default:
        if (hasPrefix(r.type, FREE_TYPE_PREFIXES)) break;
        if (hasPrefix(r.type, USAGE_BILLED_TYPE_PREFIXES)) {
          usageBilled.set(r.type, (usageBilled.get(r.type) ?? 0) + 1);
          break;
        }
        bill.notPriced(
          r.type.startsWith("aws:")
            ? "no price for this AWS resource type in lab/cost/prices.ts"
            : "unknown resource type: neither priced nor listed as free",
        );
    }
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
  const unstated = [...used].filter((p) => !p.regionStated);
  if (unstated.length > 0)
    out.push(
      `prices whose source does not name the region (cross-checked, see lab/cost/prices.ts): ${unstated.map((p) => `${p.what.split(", per")[0]} $${fmt(p.usd)}/${p.unit.replace(/^USD\//, "")}`).join("; ")}`,
    );

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
