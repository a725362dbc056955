/**
 * The lab's policy rules: its "secure by default" bar (DESIGN.md, "Known traps") as checks on a
 * resource's inputs. One set of rules, run two ways:
 *
 * - offline, on the planned resources of `lab plan` (lab/policy/evaluate.ts, `lab plan --policy`);
 * - by Pulumi CrossGuard, as the policy pack lab/policy/pack (`pulumi up --policy-pack lab/policy/pack`).
 *
 * Pure: imports nothing from Pulumi, so the CLI and the tests load it without starting a policy
 * server (only lab/policy/pack/index.ts constructs the PolicyPack).
 *
 * A rule's `check(inputs, type)` returns what is wrong, one line each, `[]` when the resource
 * passes; a report names it as `<rule>: <resource name>: <line>` ({@link formatViolation}).
 *
 * Values the offline plan cannot show arrive as "<computed>" (known only at deploy) or "[secret]".
 * Rules treat them by what they check:
 * - a setting that must have a given value (IMDSv2 `required`, `encrypted: true`, no public IPs on
 *   launch, a restricted pod security context): an unknown value is a violation ("got <computed>").
 *   A security control is decided by the program, not by something only a deployment knows.
 * - a setting that must merely be present (a KMS key, a rule description, a tag value, a Job's
 *   deadline, a container's CPU request): an unknown value is present. But an unknown structure
 *   the rule must look into (a pod template, a container's `resources`, `defaultTags`) is a
 *   violation ("must be known before deploy"): what the rule requires cannot be seen in it.
 * - a value that must not be a forbidden one (an open CIDR, an unpinned image): an unknown value
 *   cannot be judged and is skipped; CrossGuard judges it at deploy, when it is known.
 * Under CrossGuard, `pulumi preview` reports a rule that reads a value unknown until deploy as an
 * advisory "can't run policy during preview"; `pulumi up` runs it on the known values.
 */
import { TAG_KEYS } from "../../core/tags";
import { PodSpecLike, restrictedViolations } from "./pod-security";
import { COMPUTED, SECRET } from "../plan/markers";

export type EnforcementLevel = "mandatory" | "advisory";

export interface Rule {
  /** The policy's name in the CrossGuard pack and in reports (kebab-case). */
  readonly name: string;
  /** What the rule asks for and why, one or two sentences. */
  readonly description: string;
  /** mandatory: blocks `pulumi up` (and fails `lab plan --policy`); advisory: reported only. */
  readonly enforcementLevel: EnforcementLevel;
  /** Pulumi type tokens the rule applies to (`aws:ec2/instance:Instance`, `pulumi:providers:aws`, …). */
  readonly resourceTypes: readonly string[];
  /** What is wrong with a resource of `type` with these inputs, one line each; `[]` when it passes. */
  check(inputs: Record<string, unknown>, type: string): string[];
}

/** The offline plan's placeholders: a value unknown until deploy, a secret (lab/plan/markers.ts). */
export { COMPUTED, SECRET };

/** The one message format: `<rule>: <resource name>: <what is wrong>`. */
export function formatViolation(rule: string, resourceName: string, detail: string): string {
  return `${rule}: ${resourceName}: ${detail}`;
}

// ---------------------------------------------------------------------------------------------
// Type tokens

export const TYPES = {
  securityGroup: "aws:ec2/securityGroup:SecurityGroup",
  defaultSecurityGroup: "aws:ec2/defaultSecurityGroup:DefaultSecurityGroup",
  securityGroupRule: "aws:ec2/securityGroupRule:SecurityGroupRule",
  ingressRule: "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
  egressRule: "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule",
  instance: "aws:ec2/instance:Instance",
  launchTemplate: "aws:ec2/launchTemplate:LaunchTemplate",
  ebsVolume: "aws:ebs/volume:Volume",
  subnet: "aws:ec2/subnet:Subnet",
  ontapFileSystem: "aws:fsx/ontapFileSystem:OntapFileSystem",
  secretsManagerSecret: "aws:secretsmanager/secret:Secret",
  awsProvider: "pulumi:providers:aws",
  pod: "kubernetes:core/v1:Pod",
  deployment: "kubernetes:apps/v1:Deployment",
  statefulSet: "kubernetes:apps/v1:StatefulSet",
  daemonSet: "kubernetes:apps/v1:DaemonSet",
  replicaSet: "kubernetes:apps/v1:ReplicaSet",
  job: "kubernetes:batch/v1:Job",
  cronJob: "kubernetes:batch/v1:CronJob",
} as const;

const T = TYPES;
const WORKLOADS = [T.pod, T.deployment, T.statefulSet, T.daemonSet, T.replicaSet, T.job, T.cronJob];
const JOBS = [T.job, T.cronJob];

// ---------------------------------------------------------------------------------------------
// Reading inputs (plain values offline; CrossGuard's unknown-checking proxies under the pack: no
// property is read inside a try block, so an unknown value still reaches CrossGuard)

type Obj = Record<string, unknown>;

/** A value the offline plan cannot show: "<computed>" or "[secret]". */
export function isOpaque(v: unknown): v is typeof COMPUTED | typeof SECRET {
  return v === COMPUTED || v === SECRET;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Present: neither missing nor an empty string (an opaque value is present). */
function isSet(v: unknown): boolean {
  return v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");
}

/** How a value reads in a message: `nothing`, `<computed>`, or JSON. */
function shown(v: unknown): string {
  if (v === undefined || v === null) return "nothing";
  if (isOpaque(v)) return v;
  return JSON.stringify(v);
}

/** `v` at `path` below `o`; stops at an opaque value and returns it. */
function dig(o: unknown, path: readonly string[]): unknown {
  let cur = o;
  for (const key of path) {
    if (isOpaque(cur) || !isObj(cur)) return isOpaque(cur) ? cur : undefined;
    cur = cur[key];
  }
  return cur;
}

/** `v` with opaque values (and opaque array entries) removed, deeply. */
function withoutOpaque(v: unknown): unknown {
  if (isOpaque(v)) return undefined;
  if (Array.isArray(v)) return v.filter((x) => !isOpaque(x)).map(withoutOpaque);
  if (isObj(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) if (!isOpaque(x)) out[k] = withoutOpaque(x);
    return out;
  }
  return v;
}

/** `name[label]`: a list entry named by its `key` field, else by its index. */
function entry(list: string, item: unknown, index: number, key: string): string {
  const label = isObj(item) && typeof item[key] === "string" && !isOpaque(item[key]) ? (item[key] as string) : String(index);
  return `${list}[${label}]`;
}

const isTrue = (v: unknown) => v === true || v === "true";

// ---------------------------------------------------------------------------------------------
// Security groups

/** A CIDR with prefix length 0: every address (0.0.0.0/0, ::/0, …). */
function isOpenCidr(v: unknown): v is string {
  return typeof v === "string" && !isOpaque(v) && /\/0+$/.test(v.trim());
}

/** `tcp 22`, `tcp 6800-7300`, `icmp`, `all traffic`. */
function traffic(protocol: unknown, from: unknown, to: unknown): string {
  const p = protocol === undefined || protocol === null ? "?" : String(protocol);
  if (p === "-1" || p === "all") return "all traffic";
  if (typeof from !== "number" || from < 0) return p;
  return to === undefined || to === from ? `${p} ${from}` : `${p} ${from}-${String(to)}`;
}

function openIngress(prefix: string, rule: Obj, cidrKeys: readonly string[], protocolKey: string): string[] {
  const out: string[] = [];
  const what = traffic(rule[protocolKey], rule.fromPort, rule.toPort);
  for (const key of cidrKeys) {
    const value = rule[key];
    const cidrs = Array.isArray(value) ? value : [value];
    for (const cidr of cidrs) if (isOpenCidr(cidr)) out.push(`${prefix} ${what} from ${cidr.trim()} (${key}) is open to the internet`);
  }
  return out;
}

const sgNoOpenIngress: Rule = {
  name: "sg-no-open-ingress",
  description:
    "No security group ingress from 0.0.0.0/0 or ::/0 (any prefix length 0): the lab opens ports to the VPC, to other " +
    "security groups or to the operator's own CIDRs only (DESIGN.md: no 0.0.0.0/0 on every port).",
  enforcementLevel: "mandatory",
  resourceTypes: [T.ingressRule, T.securityGroupRule, T.securityGroup, T.defaultSecurityGroup],
  check(inputs, type) {
    if (type === T.ingressRule) return openIngress("ingress", inputs, ["cidrIpv4", "cidrIpv6"], "ipProtocol");
    if (type === T.securityGroupRule) {
      return inputs.type === "ingress" ? openIngress("ingress", inputs, ["cidrBlocks", "ipv6CidrBlocks"], "protocol") : [];
    }
    const ingress = inputs.ingress;
    if (!Array.isArray(ingress)) return [];
    return ingress.flatMap((rule, i) =>
      isObj(rule) ? openIngress(`ingress[${i}]`, rule, ["cidrBlocks", "ipv6CidrBlocks"], "protocol") : [],
    );
  },
};

const sgRuleDescription: Rule = {
  name: "sg-rule-description",
  description:
    "Every security group rule says what it is for (`description`), so that a review of the group can tell a needed " +
    "opening from a forgotten one. Advisory: it documents exposure, it does not change it.",
  enforcementLevel: "advisory",
  resourceTypes: [T.ingressRule, T.egressRule, T.securityGroupRule, T.securityGroup, T.defaultSecurityGroup],
  check(inputs, type) {
    if (type !== T.securityGroup && type !== T.defaultSecurityGroup) return isSet(inputs.description) ? [] : ["description is not set"];
    const out: string[] = [];
    for (const direction of ["ingress", "egress"]) {
      const rules = inputs[direction];
      if (!Array.isArray(rules)) continue;
      rules.forEach((rule, i) => {
        if (isObj(rule) && !isSet(rule.description)) out.push(`${direction}[${i}]: description is not set`);
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------------------------------------
// EC2 and EBS

const ec2Imdsv2Required: Rule = {
  name: "ec2-imdsv2-required",
  description:
    'EC2 instances and launch templates require IMDSv2 (`metadataOptions.httpTokens: "required"`, or the metadata ' +
    "endpoint disabled): IMDSv1 hands the instance role's credentials to any request forgery on the host.",
  enforcementLevel: "mandatory",
  resourceTypes: [T.instance, T.launchTemplate],
  check(inputs, type) {
    const options = inputs.metadataOptions;
    if (options === undefined || options === null) {
      // An instance launched from a template without options of its own gets the template's (checked there).
      if (type === T.instance && isSet(inputs.launchTemplate)) return [];
      return ['metadataOptions.httpTokens must be "required", got nothing'];
    }
    if (!isObj(options)) return [`metadataOptions.httpTokens must be "required", got ${shown(options)}`];
    if (options.httpEndpoint === "disabled") return [];
    return options.httpTokens === "required" ? [] : [`metadataOptions.httpTokens must be "required", got ${shown(options.httpTokens)}`];
  },
};

const ebsEncrypted: Rule = {
  name: "ebs-encrypted",
  description:
    "EBS volumes are encrypted: standalone volumes, instances' root and attached volumes, and every EBS mapping of a " +
    "launch template (which must map the root volume). Unencrypted volumes would depend on the account's default.",
  enforcementLevel: "mandatory",
  resourceTypes: [T.ebsVolume, T.instance, T.launchTemplate],
  check(inputs, type) {
    if (type === T.ebsVolume) return isTrue(inputs.encrypted) ? [] : [`encrypted must be true, got ${shown(inputs.encrypted)}`];
    const out: string[] = [];
    if (type === T.instance) {
      const root = inputs.rootBlockDevice;
      if (root === undefined || root === null) {
        if (!isSet(inputs.launchTemplate)) out.push("rootBlockDevice.encrypted must be true, got nothing");
      } else if (!isObj(root)) out.push(`rootBlockDevice.encrypted must be true, got ${shown(root)}`);
      else if (!isTrue(root.encrypted)) out.push(`rootBlockDevice.encrypted must be true, got ${shown(root.encrypted)}`);
      const devices = inputs.ebsBlockDevices;
      if (isOpaque(devices)) out.push(`ebsBlockDevices must be encrypted, got ${devices}`);
      else if (Array.isArray(devices)) {
        devices.forEach((d, i) => {
          const encrypted = isObj(d) ? d.encrypted : d;
          if (!isTrue(encrypted))
            out.push(`${entry("ebsBlockDevices", d, i, "deviceName")}.encrypted must be true, got ${shown(encrypted)}`);
        });
      }
      return out;
    }
    const mappings = inputs.blockDeviceMappings;
    if (isOpaque(mappings)) return [`blockDeviceMappings must encrypt every EBS volume, got ${mappings}`];
    const ebs = Array.isArray(mappings) ? mappings.map((m, i) => ({ m, i })).filter(({ m }) => isObj(m) && m.ebs !== undefined) : [];
    if (ebs.length === 0) return ['blockDeviceMappings must map the root volume with ebs.encrypted "true", got nothing'];
    for (const { m, i } of ebs) {
      const volume = (m as Obj).ebs;
      const encrypted = isObj(volume) ? volume.encrypted : volume;
      if (!isTrue(encrypted))
        out.push(`${entry("blockDeviceMappings", m, i, "deviceName")}.ebs.encrypted must be "true", got ${shown(encrypted)}`);
    }
    return out;
  },
};

const ebsNoGp2: Rule = {
  name: "ebs-no-gp2",
  description:
    "EBS volumes are gp3, not gp2 (an aws.ebs.Volume without `type` is gp2): gp3 costs less per GiB and gives 3000 IOPS " +
    "and 125 MiB/s at any size, where gp2 ties IOPS to size and bursts.",
  enforcementLevel: "advisory",
  resourceTypes: [T.ebsVolume, T.instance, T.launchTemplate],
  check(inputs, type) {
    if (type === T.ebsVolume) {
      const t = inputs.type;
      if (t === undefined || t === null) return ['type is not set (AWS creates gp2): set "gp3"'];
      return t === "gp2" ? ['type is "gp2": use "gp3"'] : [];
    }
    const out: string[] = [];
    const gp2 = (where: string, v: unknown) => {
      if (v === "gp2") out.push(`${where} is "gp2": use "gp3"`);
    };
    if (type === T.instance) {
      gp2("rootBlockDevice.volumeType", dig(inputs, ["rootBlockDevice", "volumeType"]));
      const devices = inputs.ebsBlockDevices;
      if (Array.isArray(devices))
        devices.forEach((d, i) => gp2(`${entry("ebsBlockDevices", d, i, "deviceName")}.volumeType`, dig(d, ["volumeType"])));
      return out;
    }
    const mappings = inputs.blockDeviceMappings;
    if (Array.isArray(mappings)) {
      mappings.forEach((m, i) => gp2(`${entry("blockDeviceMappings", m, i, "deviceName")}.ebs.volumeType`, dig(m, ["ebs", "volumeType"])));
    }
    return out;
  },
};

// ---------------------------------------------------------------------------------------------
// VPC

const subnetNoPublicIpOnLaunch: Rule = {
  name: "subnet-no-public-ip-on-launch",
  description:
    "Subnets do not give instances a public IP on launch (`mapPublicIpOnLaunch`), public subnets included: an " +
    "instance that needs one (the bastion) asks for it itself.",
  enforcementLevel: "mandatory",
  resourceTypes: [T.subnet],
  check(inputs) {
    const v = inputs.mapPublicIpOnLaunch;
    return isTrue(v) || isOpaque(v) ? [`mapPublicIpOnLaunch must be false, got ${shown(v)}`] : [];
  },
};

// ---------------------------------------------------------------------------------------------
// Customer-managed KMS keys

function customerKey(inputs: Obj, service: string): string[] {
  const key = inputs.kmsKeyId;
  if (!isSet(key)) return [`kmsKeyId is not set (the AWS managed key aws/${service} would be used): set a customer managed KMS key`];
  if (typeof key === "string" && /(^|[:/])alias\/aws\//.test(key))
    return [`kmsKeyId ${JSON.stringify(key)} is an AWS managed key: set a customer managed KMS key`];
  return [];
}

const fsxOntapCustomerKey: Rule = {
  name: "fsx-ontap-customer-kms-key",
  description:
    "FSx for ONTAP file systems encrypt their data with a customer managed KMS key (`kmsKeyId`), not the AWS managed " +
    "aws/fsx key: the lab owns the key's policy, rotation and deletion.",
  enforcementLevel: "mandatory",
  resourceTypes: [T.ontapFileSystem],
  check: (inputs) => customerKey(inputs, "fsx"),
};

const secretsCustomerKey: Rule = {
  name: "secretsmanager-customer-kms-key",
  description:
    "Secrets Manager secrets (the FSx admin credentials Trident reads) are encrypted with a customer managed KMS key " +
    "(`kmsKeyId`), not the AWS managed aws/secretsmanager key.",
  enforcementLevel: "mandatory",
  resourceTypes: [T.secretsManagerSecret],
  check: (inputs) => customerKey(inputs, "secretsmanager"),
};

// ---------------------------------------------------------------------------------------------
// Tags

const awsProviderLabTags: Rule = {
  name: "aws-provider-lab-tags",
  description:
    `Every AWS provider tags what it creates with the lab's tags (${TAG_KEYS.join(", ")}) through \`defaultTags\`: ` +
    "`lab janitor` finds expired stacks by them. A resource created through any other provider (a default provider) is untagged.",
  enforcementLevel: "mandatory",
  resourceTypes: [T.awsProvider],
  check(inputs) {
    const want = TAG_KEYS.join(", ");
    const defaultTags = inputs.defaultTags;
    if (!isSet(defaultTags)) return [`defaultTags.tags must carry ${want}, got nothing`];
    if (isOpaque(defaultTags)) return [`defaultTags.tags must carry ${want}, got ${defaultTags}`];
    let parsed: unknown = defaultTags;
    // Provider inputs reach the engine with objects JSON-encoded: `defaultTags` is then a string.
    if (typeof defaultTags === "string") {
      try {
        parsed = JSON.parse(defaultTags);
      } catch {
        return [`defaultTags must be JSON, got ${JSON.stringify(defaultTags)}`];
      }
    }
    const tags = isObj(parsed) ? parsed.tags : undefined;
    if (!isObj(tags)) return [`defaultTags.tags must carry ${want}, got ${shown(tags)}`];
    const missing = TAG_KEYS.filter((k) => !isSet(tags[k]));
    return missing.length === 0 ? [] : [`defaultTags.tags lacks ${missing.join(", ")}`];
  },
};

// ---------------------------------------------------------------------------------------------
// Kubernetes workloads

/** Where a workload keeps its pod spec, and the spec (or an opaque value, or undefined). */
function podSpec(inputs: Obj, type: string): { path: string; spec: unknown } {
  if (type === T.pod) return { path: "spec", spec: inputs.spec };
  if (type === T.cronJob)
    return { path: "spec.jobTemplate.spec.template.spec", spec: dig(inputs, ["spec", "jobTemplate", "spec", "template", "spec"]) };
  return { path: "spec.template.spec", spec: dig(inputs, ["spec", "template", "spec"]) };
}

interface Containers {
  /** `containers[name]` / `initContainers[name]` with the container, or… */
  readonly list?: ReadonlyArray<{ where: string; c: Obj }>;
  /** …what keeps the containers from view (unknown or missing). */
  readonly problem?: string;
}

function containersOf(inputs: Obj, type: string): Containers {
  const { path, spec } = podSpec(inputs, type);
  if (isOpaque(spec)) return { problem: `${path} must be known before deploy, got ${spec}` };
  if (!isObj(spec)) return { problem: `${path} is not set` };
  const list: Array<{ where: string; c: Obj }> = [];
  for (const kind of ["initContainers", "containers"]) {
    const cs = spec[kind];
    if (isOpaque(cs)) return { problem: `${path}.${kind} must be known before deploy, got ${cs}` };
    if (cs === undefined && kind === "initContainers") continue;
    if (!Array.isArray(cs)) return { problem: `${path}.${kind} is not set` };
    for (let i = 0; i < cs.length; i++) {
      const c: unknown = cs[i];
      if (isOpaque(c)) return { problem: `${path}.${kind}[${i}] must be known before deploy, got ${c}` };
      if (isObj(c)) list.push({ where: entry(kind, c, i, "name"), c });
    }
  }
  return { list };
}

/** Why an image reference is not pinned, or undefined when it is (a version tag or a digest). */
export function unpinnedImage(ref: string): string | undefined {
  const at = ref.indexOf("@");
  if (at >= 0) {
    return /^sha256:[0-9a-f]{64}$|^sha512:[0-9a-f]{128}$/.test(ref.slice(at + 1))
      ? undefined
      : "has a malformed digest (want sha256:<64 hex digits>)";
  }
  const tagAt = ref.indexOf(":", ref.lastIndexOf("/") + 1);
  const tag = tagAt < 0 ? "" : ref.slice(tagAt + 1);
  if (tag === "") return "has no tag (Kubernetes pulls latest): pin a version tag or a digest";
  if (tag === "latest") return "uses the tag latest: pin a version tag or a digest";
  return undefined;
}

const k8sImagePinned: Rule = {
  name: "k8s-image-pinned",
  description:
    "Containers run pinned images: an explicit tag other than `latest`, or a digest. A benchmark must be re-runnable on " +
    "the same bits (DESIGN.md: no :latest images).",
  enforcementLevel: "mandatory",
  resourceTypes: WORKLOADS,
  check(inputs, type) {
    const { list } = containersOf(inputs, type);
    const out: string[] = [];
    for (const { where, c } of list ?? []) {
      const image = c.image;
      if (isOpaque(image)) continue;
      if (typeof image !== "string" || image.trim() === "") out.push(`${where}: image is not set`);
      else {
        const why = unpinnedImage(image.trim());
        if (why) out.push(`${where}: image ${JSON.stringify(image)} ${why}`);
      }
    }
    return out;
  },
};

const k8sContainerResources: Rule = {
  name: "k8s-container-resources",
  description:
    "Containers set CPU and memory requests and limits: benchmark pods are placed by what they ask for and cannot " +
    "starve the storage daemons on the same node (DESIGN.md: requests and limits).",
  enforcementLevel: "mandatory",
  resourceTypes: WORKLOADS,
  check(inputs, type) {
    const { list, problem } = containersOf(inputs, type);
    if (problem !== undefined) return [problem];
    const out: string[] = [];
    for (const { where, c } of list ?? []) {
      const resources = c.resources;
      if (isOpaque(resources)) {
        out.push(`${where}: resources must be known before deploy, got ${resources}`);
        continue;
      }
      const missing: string[] = [];
      for (const section of ["requests", "limits"]) {
        for (const resource of ["cpu", "memory"])
          if (!isSet(dig(resources, [section, resource]))) missing.push(`resources.${section}.${resource}`);
      }
      if (missing.length > 0) out.push(`${where}: ${missing.join(", ")} not set`);
    }
    return out;
  },
};

const k8sJobLimits: Rule = {
  name: "k8s-job-limits",
  description:
    "Jobs set `activeDeadlineSeconds` (a hung benchmark ends), `backoffLimit` (explicit: Kubernetes' default of 6 " +
    "retries would re-run a failed benchmark on a warm cache) and `ttlSecondsAfterFinished` (finished Jobs go away).",
  enforcementLevel: "mandatory",
  resourceTypes: JOBS,
  check(inputs, type) {
    const path = type === T.cronJob ? "spec.jobTemplate.spec" : "spec";
    const spec = type === T.cronJob ? dig(inputs, ["spec", "jobTemplate", "spec"]) : inputs.spec;
    if (isOpaque(spec)) return [`${path} must be known before deploy, got ${spec}`];
    return ["activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished"]
      .filter((field) => !isSet(dig(spec, [field])))
      .map((field) => `${path}.${field} is not set`);
  },
};

function podSecurity(inputs: Obj, type: string): string[] {
  const { problem } = containersOf(inputs, type);
  if (problem !== undefined) return [problem];
  // Opaque values are dropped: a required setting that is unknown then fails, a forbidden one passes.
  return restrictedViolations(withoutOpaque(podSpec(inputs, type).spec) as PodSpecLike);
}

const k8sJobRestrictedPodSecurity: Rule = {
  name: "k8s-job-restricted-pod-security",
  description:
    "Pods of Jobs meet the restricted Pod Security Standard (non-root, no privilege escalation, all capabilities " +
    "dropped, RuntimeDefault or Localhost seccomp, …): fio, ioping, pgbench and OMB need no privilege.",
  enforcementLevel: "mandatory",
  resourceTypes: JOBS,
  check: podSecurity,
};

const k8sWorkloadRestrictedPodSecurity: Rule = {
  name: "k8s-workload-restricted-pod-security",
  description:
    "Pods of other workloads (Pods, Deployments, StatefulSets, DaemonSets, ReplicaSets) meet the restricted Pod " +
    "Security Standard wherever the software allows. Advisory: some storage software needs privileges.",
  enforcementLevel: "advisory",
  resourceTypes: [T.pod, T.deployment, T.statefulSet, T.daemonSet, T.replicaSet],
  check: podSecurity,
};

/** Every rule of the lab, in report order. */
export const RULES: readonly Rule[] = [
  sgNoOpenIngress,
  sgRuleDescription,
  ec2Imdsv2Required,
  ebsEncrypted,
  ebsNoGp2,
  subnetNoPublicIpOnLaunch,
  fsxOntapCustomerKey,
  secretsCustomerKey,
  awsProviderLabTags,
  k8sImagePinned,
  k8sContainerResources,
  k8sJobLimits,
  k8sJobRestrictedPodSecurity,
  k8sWorkloadRestrictedPodSecurity,
];
