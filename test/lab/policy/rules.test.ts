import * as aws from "@pulumi/aws";
import * as k8s from "@pulumi/kubernetes";
import { COMPUTED as PLAN_COMPUTED, SECRET as PLAN_SECRET } from "../../../lab/plan/run";
import { COMPUTED, formatViolation, RULES, SECRET, TYPES as T, unpinnedImage } from "../../../lab/policy/rules";
import { TAG_KEYS } from "../../../core/tags";

const rule = (name: string) => {
  const r = RULES.find((x) => x.name === name);
  if (!r) throw new Error(`no rule ${name}`);
  return r;
};

/** A restricted, pinned, limited container. */
const container = (over: Record<string, unknown> = {}) => ({
  name: "c",
  image: "docker.io/library/postgres:17.11-bookworm",
  resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "1Gi" } },
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
  ...over,
});
const POD_SC = { runAsNonRoot: true, runAsUser: 999, seccompProfile: { type: "RuntimeDefault" } };
const podSpec = (containers: unknown[], over: Record<string, unknown> = {}) => ({ securityContext: POD_SC, containers, ...over });
const JOB_LIMITS = { activeDeadlineSeconds: 600, backoffLimit: 0, ttlSecondsAfterFinished: 86400 };
const job = (spec: unknown, limits: Record<string, unknown> = JOB_LIMITS) => ({
  apiVersion: "batch/v1",
  kind: "Job",
  metadata: { name: "bench" },
  spec: { ...limits, template: { spec } },
});
const workload = (spec: unknown) => ({ spec: { template: { spec } } });
const cronJob = (spec: unknown, limits: Record<string, unknown> = JOB_LIMITS) => ({
  spec: { schedule: "0 * * * *", jobTemplate: { spec: { ...limits, template: { spec } } } },
});
const TAGS = {
  "lab:project": "p",
  "lab:stack": "s",
  "lab:kind": "network",
  "lab:owner": "alice",
  "lab:expires-at": "2026-01-01T08:00:00Z",
};
const DIGEST = "a".repeat(64);

interface Case {
  readonly rule: string;
  readonly title: string;
  readonly type: string;
  readonly inputs: Record<string, unknown>;
  readonly want: readonly string[];
}

const CASES: readonly Case[] = [
  // sg-no-open-ingress
  {
    rule: "sg-no-open-ingress",
    title: "ingress rule from the VPC",
    type: T.ingressRule,
    inputs: { cidrIpv4: "10.0.0.0/16", ipProtocol: "tcp", fromPort: 2049, toPort: 2049 },
    want: [],
  },
  {
    rule: "sg-no-open-ingress",
    title: "ingress rule from another security group",
    type: T.ingressRule,
    inputs: { referencedSecurityGroupId: "sg-1", ipProtocol: "tcp", fromPort: 22, toPort: 22 },
    want: [],
  },
  {
    rule: "sg-no-open-ingress",
    title: "a CIDR unknown until deploy is not judged",
    type: T.ingressRule,
    inputs: { cidrIpv4: COMPUTED, ipProtocol: "tcp", fromPort: 22, toPort: 22 },
    want: [],
  },
  {
    rule: "sg-no-open-ingress",
    title: "ingress rule from 0.0.0.0/0",
    type: T.ingressRule,
    inputs: { cidrIpv4: "0.0.0.0/0", ipProtocol: "tcp", fromPort: 22, toPort: 22 },
    want: ["ingress tcp 22 from 0.0.0.0/0 (cidrIpv4) is open to the internet"],
  },
  {
    rule: "sg-no-open-ingress",
    title: "ingress rule from ::/0, all traffic",
    type: T.ingressRule,
    inputs: { cidrIpv6: "::/0", ipProtocol: "-1" },
    want: ["ingress all traffic from ::/0 (cidrIpv6) is open to the internet"],
  },
  {
    rule: "sg-no-open-ingress",
    title: "any prefix length 0 is every address",
    type: T.ingressRule,
    inputs: { cidrIpv4: "10.1.2.3/0", ipProtocol: "udp", fromPort: 2049, toPort: 2049 },
    want: ["ingress udp 2049 from 10.1.2.3/0 (cidrIpv4) is open to the internet"],
  },
  {
    rule: "sg-no-open-ingress",
    title: "SecurityGroupRule of type ingress, port range, IPv4 and IPv6",
    type: T.securityGroupRule,
    inputs: {
      type: "ingress",
      protocol: "tcp",
      fromPort: 6800,
      toPort: 7300,
      cidrBlocks: ["10.0.0.0/16", "0.0.0.0/0"],
      ipv6CidrBlocks: ["::/0"],
    },
    want: [
      "ingress tcp 6800-7300 from 0.0.0.0/0 (cidrBlocks) is open to the internet",
      "ingress tcp 6800-7300 from ::/0 (ipv6CidrBlocks) is open to the internet",
    ],
  },
  {
    rule: "sg-no-open-ingress",
    title: "SecurityGroupRule of type egress to 0.0.0.0/0 is not ingress",
    type: T.securityGroupRule,
    inputs: { type: "egress", protocol: "-1", fromPort: 0, toPort: 0, cidrBlocks: ["0.0.0.0/0"] },
    want: [],
  },
  {
    rule: "sg-no-open-ingress",
    title: "inline ingress of a SecurityGroup (egress to 0.0.0.0/0 is fine)",
    type: T.securityGroup,
    inputs: {
      ingress: [
        { protocol: "tcp", fromPort: 443, toPort: 443, cidrBlocks: ["10.0.0.0/8"] },
        { protocol: "icmp", fromPort: -1, toPort: -1, cidrBlocks: ["0.0.0.0/0"] },
      ],
      egress: [{ protocol: "-1", fromPort: 0, toPort: 0, cidrBlocks: ["0.0.0.0/0"] }],
    },
    want: ["ingress[1] icmp from 0.0.0.0/0 (cidrBlocks) is open to the internet"],
  },
  {
    rule: "sg-no-open-ingress",
    title: "inline ingress of the VPC's default security group",
    type: T.defaultSecurityGroup,
    inputs: { ingress: [{ protocol: "-1", fromPort: 0, toPort: 0, ipv6CidrBlocks: ["::/0"] }] },
    want: ["ingress[0] all traffic from ::/0 (ipv6CidrBlocks) is open to the internet"],
  },
  { rule: "sg-no-open-ingress", title: "a security group without rules", type: T.securityGroup, inputs: { description: "x" }, want: [] },

  // sg-rule-description
  { rule: "sg-rule-description", title: "described egress rule", type: T.egressRule, inputs: { description: "to the VPC" }, want: [] },
  {
    rule: "sg-rule-description",
    title: "a description unknown until deploy is present",
    type: T.ingressRule,
    inputs: { description: COMPUTED },
    want: [],
  },
  {
    rule: "sg-rule-description",
    title: "ingress rule without description",
    type: T.ingressRule,
    inputs: {},
    want: ["description is not set"],
  },
  {
    rule: "sg-rule-description",
    title: "blank description",
    type: T.egressRule,
    inputs: { description: "  " },
    want: ["description is not set"],
  },
  {
    rule: "sg-rule-description",
    title: "SecurityGroupRule",
    type: T.securityGroupRule,
    inputs: { type: "ingress" },
    want: ["description is not set"],
  },
  {
    rule: "sg-rule-description",
    title: "inline rules of a SecurityGroup",
    type: T.securityGroup,
    inputs: { ingress: [{ description: "NFS" }, { protocol: "tcp" }], egress: [{ protocol: "-1" }] },
    want: ["ingress[1]: description is not set", "egress[0]: description is not set"],
  },

  // ec2-imdsv2-required
  {
    rule: "ec2-imdsv2-required",
    title: "instance requiring IMDSv2",
    type: T.instance,
    inputs: { metadataOptions: { httpEndpoint: "enabled", httpTokens: "required" } },
    want: [],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "instance with the metadata endpoint disabled",
    type: T.instance,
    inputs: { metadataOptions: { httpEndpoint: "disabled" } },
    want: [],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "instance from a launch template without options of its own (the template is checked)",
    type: T.instance,
    inputs: { launchTemplate: { id: "lt-1", version: "$Latest" } },
    want: [],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "instance allowing IMDSv1",
    type: T.instance,
    inputs: { metadataOptions: { httpTokens: "optional" } },
    want: ['metadataOptions.httpTokens must be "required", got "optional"'],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "instance without metadataOptions",
    type: T.instance,
    inputs: { instanceType: "t3.micro" },
    want: ['metadataOptions.httpTokens must be "required", got nothing'],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "httpTokens unknown until deploy fails",
    type: T.instance,
    inputs: { metadataOptions: { httpTokens: COMPUTED } },
    want: ['metadataOptions.httpTokens must be "required", got <computed>'],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "metadataOptions unknown until deploy fails",
    type: T.instance,
    inputs: { metadataOptions: COMPUTED },
    want: ['metadataOptions.httpTokens must be "required", got <computed>'],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "launch template requiring IMDSv2",
    type: T.launchTemplate,
    inputs: { metadataOptions: { httpTokens: "required" } },
    want: [],
  },
  {
    rule: "ec2-imdsv2-required",
    title: "launch template without metadataOptions",
    type: T.launchTemplate,
    inputs: {},
    want: ['metadataOptions.httpTokens must be "required", got nothing'],
  },

  // ebs-encrypted
  { rule: "ebs-encrypted", title: "encrypted volume", type: T.ebsVolume, inputs: { encrypted: true, type: "gp3" }, want: [] },
  {
    rule: "ebs-encrypted",
    title: "volume without encrypted",
    type: T.ebsVolume,
    inputs: { size: 100 },
    want: ["encrypted must be true, got nothing"],
  },
  {
    rule: "ebs-encrypted",
    title: "unencrypted volume",
    type: T.ebsVolume,
    inputs: { encrypted: false },
    want: ["encrypted must be true, got false"],
  },
  {
    rule: "ebs-encrypted",
    title: "encryption unknown until deploy fails",
    type: T.ebsVolume,
    inputs: { encrypted: COMPUTED },
    want: ["encrypted must be true, got <computed>"],
  },
  {
    rule: "ebs-encrypted",
    title: "instance with encrypted root and attached volumes",
    type: T.instance,
    inputs: { rootBlockDevice: { encrypted: true }, ebsBlockDevices: [{ deviceName: "/dev/sdf", encrypted: true }] },
    want: [],
  },
  {
    rule: "ebs-encrypted",
    title: "instance from a launch template without a root device of its own",
    type: T.instance,
    inputs: { launchTemplate: { id: "lt-1" } },
    want: [],
  },
  {
    rule: "ebs-encrypted",
    title: "instance with unencrypted root and attached volumes",
    type: T.instance,
    inputs: { rootBlockDevice: { volumeSize: 8 }, ebsBlockDevices: [{ deviceName: "/dev/sdf" }, { encrypted: false }] },
    want: [
      "rootBlockDevice.encrypted must be true, got nothing",
      "ebsBlockDevices[/dev/sdf].encrypted must be true, got nothing",
      "ebsBlockDevices[1].encrypted must be true, got false",
    ],
  },
  {
    rule: "ebs-encrypted",
    title: "instance without rootBlockDevice",
    type: T.instance,
    inputs: {},
    want: ["rootBlockDevice.encrypted must be true, got nothing"],
  },
  {
    rule: "ebs-encrypted",
    title: "launch template encrypting its root volume (instance store mappings ignored)",
    type: T.launchTemplate,
    inputs: {
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", ebs: { encrypted: "true", volumeType: "gp3" } },
        { deviceName: "/dev/sdb", virtualName: "ephemeral0" },
      ],
    },
    want: [],
  },
  {
    rule: "ebs-encrypted",
    title: "launch template without block device mappings",
    type: T.launchTemplate,
    inputs: { metadataOptions: { httpTokens: "required" } },
    want: ['blockDeviceMappings must map the root volume with ebs.encrypted "true", got nothing'],
  },
  {
    rule: "ebs-encrypted",
    title: "launch template with an unencrypted mapping",
    type: T.launchTemplate,
    inputs: {
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", ebs: { volumeSize: 8 } },
        { deviceName: "/dev/sdf", ebs: { encrypted: "false" } },
      ],
    },
    want: [
      'blockDeviceMappings[/dev/xvda].ebs.encrypted must be "true", got nothing',
      'blockDeviceMappings[/dev/sdf].ebs.encrypted must be "true", got "false"',
    ],
  },

  // ebs-no-gp2
  { rule: "ebs-no-gp2", title: "gp3 volume", type: T.ebsVolume, inputs: { type: "gp3" }, want: [] },
  { rule: "ebs-no-gp2", title: "volume type unknown until deploy is not judged", type: T.ebsVolume, inputs: { type: COMPUTED }, want: [] },
  { rule: "ebs-no-gp2", title: "gp2 volume", type: T.ebsVolume, inputs: { type: "gp2" }, want: ['type is "gp2": use "gp3"'] },
  {
    rule: "ebs-no-gp2",
    title: "volume without type",
    type: T.ebsVolume,
    inputs: { size: 10 },
    want: ['type is not set (AWS creates gp2): set "gp3"'],
  },
  {
    rule: "ebs-no-gp2",
    title: "instance with gp2 volumes",
    type: T.instance,
    inputs: {
      rootBlockDevice: { volumeType: "gp2" },
      ebsBlockDevices: [{ deviceName: "/dev/sdf", volumeType: "gp2" }, { volumeType: "gp3" }],
    },
    want: ['rootBlockDevice.volumeType is "gp2": use "gp3"', 'ebsBlockDevices[/dev/sdf].volumeType is "gp2": use "gp3"'],
  },
  { rule: "ebs-no-gp2", title: "instance with the AMI's default root volume type", type: T.instance, inputs: {}, want: [] },
  {
    rule: "ebs-no-gp2",
    title: "launch template with a gp2 mapping",
    type: T.launchTemplate,
    inputs: { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeType: "gp2" } }] },
    want: ['blockDeviceMappings[/dev/xvda].ebs.volumeType is "gp2": use "gp3"'],
  },

  // subnet-no-public-ip-on-launch
  { rule: "subnet-no-public-ip-on-launch", title: "explicit false", type: T.subnet, inputs: { mapPublicIpOnLaunch: false }, want: [] },
  { rule: "subnet-no-public-ip-on-launch", title: "unset (AWS default: false)", type: T.subnet, inputs: {}, want: [] },
  {
    rule: "subnet-no-public-ip-on-launch",
    title: "true",
    type: T.subnet,
    inputs: { mapPublicIpOnLaunch: true },
    want: ["mapPublicIpOnLaunch must be false, got true"],
  },
  {
    rule: "subnet-no-public-ip-on-launch",
    title: "unknown until deploy fails",
    type: T.subnet,
    inputs: { mapPublicIpOnLaunch: COMPUTED },
    want: ["mapPublicIpOnLaunch must be false, got <computed>"],
  },

  // fsx-ontap-customer-kms-key
  {
    rule: "fsx-ontap-customer-kms-key",
    title: "customer managed key ARN",
    type: T.ontapFileSystem,
    inputs: { kmsKeyId: "arn:aws:kms:us-east-1:123456789012:key/0b1c" },
    want: [],
  },
  {
    rule: "fsx-ontap-customer-kms-key",
    title: "a key ARN unknown until deploy is set",
    type: T.ontapFileSystem,
    inputs: { kmsKeyId: COMPUTED },
    want: [],
  },
  {
    rule: "fsx-ontap-customer-kms-key",
    title: "no key",
    type: T.ontapFileSystem,
    inputs: { storageCapacity: 1024 },
    want: ["kmsKeyId is not set (the AWS managed key aws/fsx would be used): set a customer managed KMS key"],
  },
  {
    rule: "fsx-ontap-customer-kms-key",
    title: "the AWS managed key",
    type: T.ontapFileSystem,
    inputs: { kmsKeyId: "arn:aws:kms:us-east-1:123456789012:alias/aws/fsx" },
    want: ['kmsKeyId "arn:aws:kms:us-east-1:123456789012:alias/aws/fsx" is an AWS managed key: set a customer managed KMS key'],
  },

  // secretsmanager-customer-kms-key
  {
    rule: "secretsmanager-customer-kms-key",
    title: "customer managed key alias",
    type: T.secretsManagerSecret,
    inputs: { kmsKeyId: "alias/lab-fsx" },
    want: [],
  },
  {
    rule: "secretsmanager-customer-kms-key",
    title: "no key",
    type: T.secretsManagerSecret,
    inputs: { description: "x" },
    want: ["kmsKeyId is not set (the AWS managed key aws/secretsmanager would be used): set a customer managed KMS key"],
  },
  {
    rule: "secretsmanager-customer-kms-key",
    title: "the AWS managed key alias",
    type: T.secretsManagerSecret,
    inputs: { kmsKeyId: "alias/aws/secretsmanager" },
    want: ['kmsKeyId "alias/aws/secretsmanager" is an AWS managed key: set a customer managed KMS key'],
  },

  // aws-provider-lab-tags
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags as the engine sees provider inputs (a JSON string)",
    type: T.awsProvider,
    inputs: { region: "us-east-1", defaultTags: JSON.stringify({ tags: TAGS }) },
    want: [],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags as an object",
    type: T.awsProvider,
    inputs: { defaultTags: { tags: TAGS } },
    want: [],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "a tag value unknown until deploy is present",
    type: T.awsProvider,
    inputs: { defaultTags: { tags: { ...TAGS, "lab:expires-at": COMPUTED } } },
    want: [],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "no defaultTags (e.g. a default provider)",
    type: T.awsProvider,
    inputs: { region: "us-east-1" },
    want: ["defaultTags.tags must carry lab:project, lab:stack, lab:kind, lab:owner, lab:expires-at, got nothing"],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "tags missing or empty",
    type: T.awsProvider,
    inputs: { defaultTags: JSON.stringify({ tags: { "lab:project": "p", "lab:stack": "s", "lab:kind": "k", "lab:owner": "" } }) },
    want: ["defaultTags.tags lacks lab:owner, lab:expires-at"],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags without tags",
    type: T.awsProvider,
    inputs: { defaultTags: {} },
    want: ["defaultTags.tags must carry lab:project, lab:stack, lab:kind, lab:owner, lab:expires-at, got nothing"],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags unknown until deploy fails",
    type: T.awsProvider,
    inputs: { defaultTags: COMPUTED },
    want: ["defaultTags.tags must carry lab:project, lab:stack, lab:kind, lab:owner, lab:expires-at, got <computed>"],
  },
  {
    rule: "aws-provider-lab-tags",
    title: "defaultTags that is not JSON",
    type: T.awsProvider,
    inputs: { defaultTags: "{tags" },
    want: ['defaultTags must be JSON, got "{tags"'],
  },

  // k8s-image-pinned
  {
    rule: "k8s-image-pinned",
    title: "version tags and digests, registry ports",
    type: T.job,
    inputs: job(
      podSpec(
        [
          container({ image: "localhost:5000/lab/tools:fio-3.33" }),
          container({ name: "d", image: `registry:5000/tools@sha256:${DIGEST}` }),
        ],
        { initContainers: [container({ name: "init", image: `busybox:1.37@sha256:${DIGEST}` })] },
      ),
    ),
    want: [],
  },
  {
    rule: "k8s-image-pinned",
    title: "an image unknown until deploy is not judged",
    type: T.job,
    inputs: job(podSpec([container({ image: COMPUTED })])),
    want: [],
  },
  {
    rule: "k8s-image-pinned",
    title: "no tag, latest, a registry port that is not a tag, a bad digest, no image",
    type: T.job,
    inputs: job(
      podSpec(
        [
          container({ name: "a", image: "postgres" }),
          container({ name: "b", image: "postgres:latest" }),
          container({ name: "c", image: "registry:5000/tools" }),
          container({ name: "d", image: "tools@sha256:abc" }),
          container({ name: "e", image: undefined }),
        ],
        { initContainers: [container({ name: "init", image: "busybox:" })] },
      ),
    ),
    want: [
      'initContainers[init]: image "busybox:" has no tag (Kubernetes pulls latest): pin a version tag or a digest',
      'containers[a]: image "postgres" has no tag (Kubernetes pulls latest): pin a version tag or a digest',
      'containers[b]: image "postgres:latest" uses the tag latest: pin a version tag or a digest',
      'containers[c]: image "registry:5000/tools" has no tag (Kubernetes pulls latest): pin a version tag or a digest',
      'containers[d]: image "tools@sha256:abc" has a malformed digest (want sha256:<64 hex digits>)',
      "containers[e]: image is not set",
    ],
  },
  {
    rule: "k8s-image-pinned",
    title: "a Pod's own spec",
    type: T.pod,
    inputs: { spec: podSpec([container({ image: "nginx" })]) },
    want: ['containers[c]: image "nginx" has no tag (Kubernetes pulls latest): pin a version tag or a digest'],
  },
  {
    rule: "k8s-image-pinned",
    title: "a CronJob's job template",
    type: T.cronJob,
    inputs: cronJob(podSpec([container({ image: "nginx:latest" })])),
    want: ['containers[c]: image "nginx:latest" uses the tag latest: pin a version tag or a digest'],
  },
  {
    rule: "k8s-image-pinned",
    title: "a StatefulSet's template",
    type: T.statefulSet,
    inputs: workload(podSpec([container({ name: "mysql", image: "mysql" })])),
    want: ['containers[mysql]: image "mysql" has no tag (Kubernetes pulls latest): pin a version tag or a digest'],
  },

  // k8s-container-resources
  { rule: "k8s-container-resources", title: "requests and limits", type: T.deployment, inputs: workload(podSpec([container()])), want: [] },
  {
    rule: "k8s-container-resources",
    title: "a quantity unknown until deploy is present",
    type: T.job,
    inputs: job(podSpec([container({ resources: { requests: { cpu: COMPUTED, memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } } })])),
    want: [],
  },
  {
    rule: "k8s-container-resources",
    title: "missing quantities, one line per container",
    type: T.job,
    inputs: job(
      podSpec([
        container({ resources: { requests: { cpu: "1" }, limits: { memory: "1Gi" } } }),
        container({ name: "d", resources: undefined }),
      ]),
    ),
    want: [
      "containers[c]: resources.requests.memory, resources.limits.cpu not set",
      "containers[d]: resources.requests.cpu, resources.requests.memory, resources.limits.cpu, resources.limits.memory not set",
    ],
  },
  {
    rule: "k8s-container-resources",
    title: "resources unknown until deploy fail",
    type: T.job,
    inputs: job(podSpec([container({ resources: COMPUTED })])),
    want: ["containers[c]: resources must be known before deploy, got <computed>"],
  },
  {
    rule: "k8s-container-resources",
    title: "a pod template unknown until deploy fails",
    type: T.deployment,
    inputs: { spec: { template: { spec: COMPUTED } } },
    want: ["spec.template.spec must be known before deploy, got <computed>"],
  },
  {
    rule: "k8s-container-resources",
    title: "a container unknown until deploy fails",
    type: T.daemonSet,
    inputs: workload(podSpec([COMPUTED])),
    want: ["spec.template.spec.containers[0] must be known before deploy, got <computed>"],
  },
  {
    rule: "k8s-container-resources",
    title: "no pod template",
    type: T.replicaSet,
    inputs: { spec: {} },
    want: ["spec.template.spec is not set"],
  },

  // k8s-job-limits
  { rule: "k8s-job-limits", title: "deadline, backoffLimit 0, TTL", type: T.job, inputs: job(podSpec([container()])), want: [] },
  {
    rule: "k8s-job-limits",
    title: "none of them",
    type: T.job,
    inputs: job(podSpec([container()]), {}),
    want: ["spec.activeDeadlineSeconds is not set", "spec.backoffLimit is not set", "spec.ttlSecondsAfterFinished is not set"],
  },
  {
    rule: "k8s-job-limits",
    title: "a CronJob's job template",
    type: T.cronJob,
    inputs: cronJob(podSpec([container()]), { activeDeadlineSeconds: 60 }),
    want: ["spec.jobTemplate.spec.backoffLimit is not set", "spec.jobTemplate.spec.ttlSecondsAfterFinished is not set"],
  },
  {
    rule: "k8s-job-limits",
    title: "a Job spec unknown until deploy fails",
    type: T.job,
    inputs: { spec: COMPUTED },
    want: ["spec must be known before deploy, got <computed>"],
  },

  // k8s-job-restricted-pod-security
  { rule: "k8s-job-restricted-pod-security", title: "restricted pod", type: T.job, inputs: job(podSpec([container()])), want: [] },
  {
    rule: "k8s-job-restricted-pod-security",
    title: "no security context at all",
    type: T.job,
    inputs: job({ containers: [container({ securityContext: undefined })] }),
    want: [
      "containers[c]: allowPrivilegeEscalation must be false",
      "containers[c]: runAsNonRoot must be true (pod or container)",
      "containers[c]: seccompProfile must be RuntimeDefault or Localhost (pod or container)",
      "containers[c]: capabilities must drop ALL",
    ],
  },
  {
    rule: "k8s-job-restricted-pod-security",
    title: "unknown until deploy: a required setting fails, a forbidden one is not judged",
    type: T.job,
    inputs: job(
      podSpec(
        [container({ securityContext: { allowPrivilegeEscalation: COMPUTED, privileged: COMPUTED, capabilities: { drop: ["ALL"] } } })],
        {
          hostNetwork: COMPUTED,
          volumes: COMPUTED,
        },
      ),
    ),
    want: ["containers[c]: allowPrivilegeEscalation must be false"],
  },
  {
    rule: "k8s-job-restricted-pod-security",
    title: "privileged host access in a CronJob",
    type: T.cronJob,
    inputs: cronJob(
      podSpec([container({ ports: [{ containerPort: 80, hostPort: 80 }] })], {
        hostPID: true,
        volumes: [{ name: "h", hostPath: { path: "/" } }],
      }),
    ),
    want: [
      "pod: hostPID must not be true",
      "volume h: hostPath is forbidden",
      "volume h: type hostPath is not allowed",
      "containers[c]: hostPort 80 is forbidden",
    ],
  },
  {
    rule: "k8s-job-restricted-pod-security",
    title: "a pod template unknown until deploy fails",
    type: T.job,
    inputs: { spec: { ...JOB_LIMITS, template: COMPUTED } },
    want: ["spec.template.spec must be known before deploy, got <computed>"],
  },

  // k8s-workload-restricted-pod-security
  {
    rule: "k8s-workload-restricted-pod-security",
    title: "restricted StatefulSet",
    type: T.statefulSet,
    inputs: workload(podSpec([container()])),
    want: [],
  },
  {
    rule: "k8s-workload-restricted-pod-security",
    title: "a Deployment on the host network, running as root",
    type: T.deployment,
    inputs: workload(podSpec([container()], { hostNetwork: true, securityContext: { ...POD_SC, runAsNonRoot: false, runAsUser: 0 } })),
    want: [
      "pod: hostNetwork must not be true",
      "pod: runAsUser must not be 0",
      "pod: runAsNonRoot must not be false",
      "containers[c]: runAsNonRoot must be true (pod or container)",
    ],
  },
  {
    rule: "k8s-workload-restricted-pod-security",
    title: "a Pod",
    type: T.pod,
    inputs: {
      spec: podSpec([
        container({ securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"], add: ["SYS_ADMIN"] } } }),
      ]),
    },
    want: ["containers[c]: capability SYS_ADMIN must not be added", "containers[c]: capability SYS_ADMIN is beyond baseline"],
  },
];

describe("policy rules", () => {
  test.each(CASES.map((c) => [`${c.rule}: ${c.title}`, c] as const))("%s", (_, c) => {
    const r = rule(c.rule);
    expect(r.resourceTypes).toContain(c.type);
    expect(r.check(c.inputs, c.type)).toEqual(c.want);
  });

  test("every rule has a passing and a failing case above", () => {
    for (const r of RULES) {
      const cases = CASES.filter((c) => c.rule === r.name);
      expect([r.name, cases.some((c) => c.want.length === 0)]).toEqual([r.name, true]);
      expect([r.name, cases.some((c) => c.want.length > 0)]).toEqual([r.name, true]);
    }
  });

  test("the rule set: names, levels and types", () => {
    expect(RULES.map((r) => [r.name, r.enforcementLevel])).toEqual([
      ["sg-no-open-ingress", "mandatory"],
      ["sg-rule-description", "advisory"],
      ["ec2-imdsv2-required", "mandatory"],
      ["ebs-encrypted", "mandatory"],
      ["ebs-no-gp2", "advisory"],
      ["subnet-no-public-ip-on-launch", "mandatory"],
      ["fsx-ontap-customer-kms-key", "mandatory"],
      ["secretsmanager-customer-kms-key", "mandatory"],
      ["aws-provider-lab-tags", "mandatory"],
      ["k8s-image-pinned", "mandatory"],
      ["k8s-container-resources", "mandatory"],
      ["k8s-job-limits", "mandatory"],
      ["k8s-job-restricted-pod-security", "mandatory"],
      ["k8s-workload-restricted-pod-security", "advisory"],
    ]);
    for (const r of RULES) {
      // CrossGuard: names of alphanumerics, hyphens, underscores or periods; "all" is reserved.
      expect(r.name).toMatch(/^[a-z0-9-]{1,100}$/);
      expect(r.description.length).toBeGreaterThan(40);
      expect(r.resourceTypes.length).toBeGreaterThan(0);
    }
  });

  test("every type token is the token of a real SDK class (@pulumi/aws 7, @pulumi/kubernetes 4)", () => {
    const token = (cls: unknown) => (cls as { __pulumiType: string }).__pulumiType;
    const known = new Set([
      token(aws.ec2.SecurityGroup),
      token(aws.ec2.DefaultSecurityGroup),
      token(aws.ec2.SecurityGroupRule),
      token(aws.vpc.SecurityGroupIngressRule),
      token(aws.vpc.SecurityGroupEgressRule),
      token(aws.ec2.Instance),
      token(aws.ec2.LaunchTemplate),
      token(aws.ebs.Volume),
      token(aws.ec2.Subnet),
      token(aws.fsx.OntapFileSystem),
      token(aws.secretsmanager.Secret),
      `pulumi:providers:${token(aws.Provider)}`,
      token(k8s.core.v1.Pod),
      token(k8s.apps.v1.Deployment),
      token(k8s.apps.v1.StatefulSet),
      token(k8s.apps.v1.DaemonSet),
      token(k8s.apps.v1.ReplicaSet),
      token(k8s.batch.v1.Job),
      token(k8s.batch.v1.CronJob),
    ]);
    expect(new Set(Object.values(T))).toEqual(known);
    for (const r of RULES) for (const t of r.resourceTypes) expect(known).toContain(t);
  });

  test("the placeholders are the offline plan's, and the tag keys the lab's", () => {
    expect([COMPUTED, SECRET]).toEqual([PLAN_COMPUTED, PLAN_SECRET]);
    expect(rule("aws-provider-lab-tags").check({ defaultTags: { tags: {} } }, T.awsProvider)).toEqual([
      `defaultTags.tags lacks ${TAG_KEYS.join(", ")}`,
    ]);
  });

  test("a secret counts as present, like an unknown value", () => {
    expect(rule("fsx-ontap-customer-kms-key").check({ kmsKeyId: SECRET }, T.ontapFileSystem)).toEqual([]);
    expect(rule("ec2-imdsv2-required").check({ metadataOptions: { httpTokens: SECRET } }, T.instance)).toEqual([
      'metadataOptions.httpTokens must be "required", got [secret]',
    ]);
  });

  test("formatViolation and unpinnedImage", () => {
    expect(formatViolation("ebs-encrypted", "ceph-osd-1", "encrypted must be true, got false")).toBe(
      "ebs-encrypted: ceph-osd-1: encrypted must be true, got false",
    );
    expect(unpinnedImage("quay.io/ceph/ceph:v20.2.4")).toBeUndefined();
    expect(unpinnedImage(`quay.io/ceph/ceph@sha512:${"b".repeat(128)}`)).toBeUndefined();
    expect(unpinnedImage("quay.io/ceph/ceph")).toBe("has no tag (Kubernetes pulls latest): pin a version tag or a digest");
  });
});
