/**
 * The bad-input table: configurations a user could write, each wrong in one way, and exactly what
 * `lab plan` answers (exit status 2, these problems, no stack trace). One block per stack kind
 * (the kinds of stacks/index.ts `KIND_NAMES`), one for the keys every kind has and one for scenario
 * overrides: a new kind adds its block here, and test/guardrails/bad-input.test.ts fails until it
 * has one.
 *
 * A case starts from a shipped stack config (`base`, a Pulumi.<stack>.yaml of the project), or from
 * a scenario's stack (`scenario`: the stack's file with the scenario's own config over it), then
 * sets (`set`) and removes (`unset`) keys, values as YAML holds them. `want` is every problem the
 * plan reports, in its order, as `'<key>' must be <rule>, got <value>`.
 */

import { KIND_NAMES } from "../../stacks";

/** What kind of mistake a case is (the list; every category has at least one case). */
export type Category =
  | "wrong type"
  | "out of range"
  | "unknown key"
  | "misspelt key"
  | "missing required key"
  | "impossible combination"
  | "malformed CIDR"
  | "malformed ARN"
  | "unknown instance type"
  | "bad upstream stack name"
  | "scenario override of a key that does not exist"
  | "upstream mismatch"
  | "file that is not config"
  | "default checked like a value"
  | "value the software refuses"
  | "one problem among others"
  | "secure value of a plain key"
  | "key in the wrong namespace"
  | "empty value"
  | "ARN of another partition or region";

export const CATEGORIES: readonly Category[] = [
  "wrong type",
  "out of range",
  "unknown key",
  "misspelt key",
  "missing required key",
  "impossible combination",
  "malformed CIDR",
  "malformed ARN",
  "unknown instance type",
  "bad upstream stack name",
  "scenario override of a key that does not exist",
  "upstream mismatch",
  "file that is not config",
  "default checked like a value",
  "value the software refuses",
  "one problem among others",
  "secure value of a plain key",
  "key in the wrong namespace",
  "empty value",
  "ARN of another partition or region",
];

export interface BadInput {
  /** What is wrong, in a few words. */
  readonly title: string;
  readonly category: Category;
  /** A shipped config file to start from… */
  readonly base?: string;
  /** …or a scenario's stack (its file and the scenario's config; `set` is then the scenario's override). */
  readonly scenario?: { readonly name: string; readonly stack: string };
  /** Keys set over the base, values as YAML holds them. */
  readonly set?: Readonly<Record<string, unknown>>;
  /** Keys removed from the base. */
  readonly unset?: readonly string[];
  /** The file's whole text instead (a file that is not a stack config); `{file}` in `want` is its path. */
  readonly raw?: string;
  /** Every problem `lab plan` prints, in order (after `stack <name>: `, but for a `raw` file). */
  readonly want: readonly string[];
}

/** The blocks: one per stack kind, `common` for the keys every kind has, `scenarios` for scenario overrides. */
export type Block = "common" | "network" | "fsx-ontap" | "ceph-k0s" | "compare" | "eks" | "fsx-eks" | "kafka" | "scenarios";

const NETWORK = "Pulumi.network.yaml";
const FSX = "Pulumi.fsx-eks-ontap.yaml";
const CEPH = "Pulumi.dev.yaml";
const COMPARE = "Pulumi.compare-ceph-nitro.yaml";
const EKS = "Pulumi.fsx-eks-cluster.yaml";
const FSX_EKS = "Pulumi.fsx-eks.yaml";
const KAFKA = "Pulumi.kafka.yaml";

export const BAD_INPUTS: Readonly<Record<Block, readonly BadInput[]>> = {
  common: [
    {
      title: "lab:ttlHours as words",
      category: "wrong type",
      base: NETWORK,
      set: { "lab:ttlHours": "eight" },
      want: ["'lab:ttlHours' must be a whole number of hours from 1 to 168, got \"eight\""],
    },
    {
      title: "lab:ttlHours beyond a week",
      category: "out of range",
      base: NETWORK,
      set: { "lab:ttlHours": 169 },
      want: ["'lab:ttlHours' must be a whole number of hours from 1 to 168, got 169"],
    },
    {
      title: "no lab:owner",
      category: "missing required key",
      base: NETWORK,
      unset: ["lab:owner"],
      want: ["'lab:owner' must be an owner name of 1–64 letters, digits, spaces or . _ : / = + - @ (an AWS tag value), got nothing"],
    },
    {
      title: "no aws:region",
      category: "missing required key",
      base: FSX,
      unset: ["aws:region"],
      want: ["'aws:region' must be an AWS region the AWS provider knows (@pulumi/aws Region, e.g. us-east-1), got nothing"],
    },
    {
      title: "a kind that does not exist",
      category: "out of range",
      base: NETWORK,
      set: { "lab:kind": "ceph" },
      want: [`'lab:kind' must be one of ${KIND_NAMES.join(", ")}, got "ceph"`],
    },
    {
      title: "a run id with capitals and a space",
      category: "wrong type",
      base: FSX_EKS,
      set: { "lab:runId": "Run 2" },
      want: [
        "'lab:runId' must be a run id of 1–20 lowercase letters, digits or '-', starting with a letter or digit (e.g. r2), got \"Run 2\"",
      ],
    },
    {
      title: "a file that is a YAML list",
      category: "file that is not config",
      raw: "- config:\n    lab:kind: network\n",
      want: [
        `{file}:1:1: 'config' must be a map of config keys under the file's top-level map (config: {lab:kind: …}), got [{"config":{"lab:kind":"network"}}]`,
      ],
    },
    {
      title: "config: given as a list",
      category: "file that is not config",
      raw: "config:\n  - aws:region: us-east-1\n  - lab:kind: network\n",
      want: [`{file}:2:3: 'config' must be a map of config keys to values, got [{"aws:region":"us-east-1"},{"lab:kind":"network"}]`],
    },
    {
      title: "malformed YAML: an unclosed flow list",
      category: "file that is not config",
      raw: "config:\n  aws:region: us-east-1\n  lab:azs: [us-east-1a,\n  lab:kind: network\n",
      want: [
        `{file}:4:3: 'lab:kind' must be valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ]), got "lab:kind: network"`,
      ],
    },
    {
      title: "a key given twice",
      category: "file that is not config",
      raw: "config:\n  aws:region: us-east-1\n  lab:kind: network\n  lab:owner: a\n  lab:owner: b\n",
      want: [`{file}:5:3: 'lab:owner' must be given once (YAML map keys must be unique), got "lab:owner: b"`],
    },
    {
      title: "lab:runId as a secure: value",
      category: "secure value of a plain key",
      base: NETWORK,
      set: { "lab:runId": { secure: "AAABAGmu7bWbyDZ1nHgXZhM8nS1Dj1nq" } },
      want: [
        `'lab:runId' must be a plain value, not a secure: one (it names resources, tags, stacks or results directories), got {"secure":"…"}`,
      ],
    },
    {
      title: "a region the AWS provider does not know",
      category: "value the software refuses",
      base: NETWORK,
      set: { "aws:region": "us-east-7" },
      want: [`'aws:region' must be an AWS region the AWS provider knows (@pulumi/aws Region, e.g. us-east-1), got "us-east-7"`],
    },
    {
      title: "pulumi config set vpcCidr … without lab: (the project's namespace)",
      category: "key in the wrong namespace",
      base: NETWORK,
      set: { "storage-bench-lab:vpcCidr": "10.1.0.0/16" },
      want: [
        "'storage-bench-lab:vpcCidr' must be a key in the lab: namespace (did you mean 'lab:vpcCidr'?): no stack program reads the project's namespace storage-bench-lab:, where `pulumi config set vpcCidr …` puts a key written without lab:, got \"10.1.0.0/16\"",
      ],
    },
    {
      title: "a lab key under the aws: namespace",
      category: "key in the wrong namespace",
      base: FSX,
      set: { "aws:skipFinalBackup": false },
      want: [
        "'aws:skipFinalBackup' must be a key in the lab: namespace (did you mean 'lab:skipFinalBackup'?): no stack program reads aws:skipFinalBackup, so lab:skipFinalBackup would keep its default, got \"false\"",
      ],
    },
    {
      title: "lab:azCount: with no value (YAML null, which Pulumi reads as \"\")",
      category: "empty value",
      base: NETWORK,
      set: { "lab:azCount": null },
      want: ["'lab:azCount' must be a value: an empty one is none (give one, or remove the key where it has a default), got \"\""],
    },
    {
      title: "a permissions boundary of the China partition in us-east-1",
      category: "ARN of another partition or region",
      base: NETWORK,
      set: { "lab:permissionsBoundaryArn": "arn:aws-cn:iam::123456789012:policy/lab-boundary" },
      want: [
        "'lab:permissionsBoundaryArn' must be the ARN of an IAM managed policy in the stack's partition: arn:aws:iam::<account>:… (region us-east-1 is in aws), got \"arn:aws-cn:iam::123456789012:policy/lab-boundary\"",
      ],
    },
    {
      title: "a KMS key of another region for the file system",
      category: "ARN of another partition or region",
      base: FSX,
      set: { "lab:kmsKeyArn": "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab" },
      want: [
        "'lab:kmsKeyArn' must be the ARN of a KMS key in the stack's partition and region: arn:aws:kms:us-east-1:<account>:…; a key works only in its own region, got \"arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab\"",
      ],
    },
  ],
  network: [
    {
      title: "a /33 VPC",
      category: "malformed CIDR",
      base: NETWORK,
      set: { "lab:vpcCidr": "10.0.0.0/33" },
      want: ["'lab:vpcCidr' must be an IPv4 network CIDR with a prefix from /16 to /24 (e.g. 10.0.0.0/16), got \"10.0.0.0/33\""],
    },
    {
      title: "a host address, not a network",
      category: "malformed CIDR",
      base: NETWORK,
      set: { "lab:vpcCidr": "10.0.0.1/16" },
      want: ["'lab:vpcCidr' must be an IPv4 network CIDR with a prefix from /16 to /24 (e.g. 10.0.0.0/16), got \"10.0.0.1/16\""],
    },
    {
      title: "a link-local VPC",
      category: "value the software refuses",
      base: NETWORK,
      set: { "lab:vpcCidr": "169.254.0.0/16" },
      want: ["'lab:vpcCidr' must be a block outside 169.254.0.0/16 (link-local: AWS refuses it for a VPC), got \"169.254.0.0/16\""],
    },
    {
      title: "four zones",
      category: "out of range",
      base: NETWORK,
      set: { "lab:azCount": 4 },
      want: ["'lab:azCount' must be an integer from 1 to 3, got 4"],
    },
    {
      title: "lab:vpcCIDR",
      category: "misspelt key",
      base: NETWORK,
      set: { "lab:vpcCIDR": "10.1.0.0/16" },
      want: [
        "'lab:vpcCIDR' must be a key of kind network (did you mean 'lab:vpcCidr'?); its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:vpcCidr, lab:azCount, lab:azs, lab:natGateways, lab:flowLogs, lab:flowLogsRetentionDays, lab:permissionsBoundaryArn, got \"10.1.0.0/16\"",
      ],
    },
    {
      title: "flow logs 'yes'",
      category: "wrong type",
      base: NETWORK,
      set: { "lab:flowLogs": "yes" },
      want: ["'lab:flowLogs' must be true or false, got \"yes\""],
    },
    {
      title: "zones of another region",
      category: "impossible combination",
      base: NETWORK,
      set: { "lab:azs": ["us-west-2a", "us-west-2b"] },
      want: ["'lab:azs' must be zones of 'aws:region' us-east-1, got [\"us-west-2a\",\"us-west-2b\"]"],
    },
  ],
  "fsx-ontap": [
    {
      title: "an endpoint range over a private subnet of the network",
      category: "upstream mismatch",
      base: FSX,
      set: { "lab:endpointIpAddressRange": "10.0.0.0/24" },
      want: [
        "'lab:endpointIpAddressRange' must be a range that overlaps none of the network's subnets (FSx: it overlaps 10.0.0.0/18), got \"10.0.0.0/24\"",
      ],
    },
    {
      title: "512 GiB of SSD",
      category: "out of range",
      base: FSX,
      set: { "lab:storageCapacityGiB": 512 },
      want: ["'lab:storageCapacityGiB' must be a whole number of GiB from 1024 to 196608 for 'lab:deploymentType' MULTI_AZ_1, got 512"],
    },
    {
      title: "a throughput level Multi-AZ 1 does not have",
      category: "impossible combination",
      base: FSX,
      set: { "lab:throughputCapacityMBps": 384 },
      want: [
        "'lab:throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'lab:deploymentType' MULTI_AZ_1, got 384",
      ],
    },
    {
      title: "provisioned IOPS with AUTOMATIC",
      category: "impossible combination",
      base: FSX,
      set: { "lab:diskIops": 6000 },
      want: ["'lab:diskIops' must be unset when 'lab:diskIopsMode' is AUTOMATIC (FSx provisions 3 SSD IOPS per GiB), got 6000"],
    },
    {
      title: "a KMS key ARN without a key id",
      category: "malformed ARN",
      base: FSX,
      set: { "lab:kmsKeyArn": "arn:aws:kms:us-east-1:123456789012:alias/fsx" },
      want: [
        "'lab:kmsKeyArn' must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got \"arn:aws:kms:us-east-1:123456789012:alias/fsx\"",
      ],
    },
    {
      title: "lab:volumeCount",
      category: "unknown key",
      base: FSX,
      set: { "lab:volumeCount": 6 },
      want: [
        "'lab:volumeCount' must be a key of kind fsx-ontap; its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:deploymentType, lab:storageCapacityGiB, lab:throughputCapacityMBps, lab:haPairs, lab:diskIopsMode, lab:diskIops, lab:preferredAz, lab:svmName, lab:volumes, lab:kmsKeyArn, lab:backupRetentionDays, lab:maintenanceWindow, lab:clientSecurityGroupIds, lab:endpointIpAddressRange, lab:skipFinalBackup, lab:retainOnDelete, got \"6\"",
      ],
    },
    {
      title: "a volume size in words",
      category: "wrong type",
      base: FSX,
      set: { "lab:volumes": [{ name: "v1", sizeGiB: "big", junctionPath: "/v1" }] },
      want: ["'lab:volumes[0].sizeGiB' must be a whole number, got \"big\""],
    },
    {
      title: "no throughput",
      category: "missing required key",
      base: FSX,
      unset: ["lab:throughputCapacityMBps"],
      want: [
        "'lab:throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'lab:deploymentType' MULTI_AZ_1, got nothing",
      ],
    },
    {
      title: "lab:preferredAz a zone of another region",
      category: "upstream mismatch",
      base: FSX,
      set: { "lab:preferredAz": "us-west-2a" },
      want: [
        "'lab:preferredAz' must be a zone of the file system among the network stack's zones: preferred availability zone \"us-west-2a\" is not one of the file system's zones us-east-1a, us-east-1b (by index 0–1 or by name), got \"us-west-2a\"",
      ],
    },
    {
      title: "two volumes whose junction paths differ only in case",
      category: "value the software refuses",
      base: FSX,
      set: {
        "lab:volumes": [
          { name: "a", sizeGiB: 100, junctionPath: "/data" },
          { name: "b", sizeGiB: 100, junctionPath: "/DATA" },
        ],
      },
      want: [
        "'lab:volumes[1].junctionPath' must be distinct from the junction path of volume [0] (ONTAP junction paths ignore case), got \"/DATA\"",
      ],
    },
    {
      title: "a malformed network stack name and too little storage: both reported",
      category: "one problem among others",
      base: FSX,
      set: { "lab:networkStack": "org//network", "lab:storageCapacityGiB": 100 },
      want: [
        "'lab:networkStack' must be the name of the network stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got \"org//network\"",
        "'lab:storageCapacityGiB' must be a whole number of GiB from 1024 to 196608 for 'lab:deploymentType' MULTI_AZ_1, got 100",
      ],
    },
  ],
  "ceph-k0s": [
    {
      title: "an instance type with NVMe instance store (m5d: a local disk can take the OSD's device name)",
      category: "value the software refuses",
      base: CEPH,
      set: { "lab:instanceType": "m5d.xlarge" },
      want: [
        "'lab:instanceType' must be an instance type without NVMe instance storage (not m5d, i3, i3en): the OSD device is found by its name (/dev/xvdf or /dev/nvme1n1), which an instance-store NVMe disk can take, so Ceph would run on it while the samples say gp3, got \"m5d.xlarge\"",
      ],
    },
    {
      title: "pgbench's CPU limit below its request",
      category: "value the software refuses",
      base: CEPH,
      set: { "lab:pgbenchResources": { requests: { cpu: "2", memory: "8Gi" }, limits: { cpu: "1", memory: "8Gi" } } },
      want: [
        "'lab:pgbenchResources.limits.cpu' must be at least the request (2), got \"1\"",
      ],
    },
    {
      title: "m9.mega",
      category: "unknown instance type",
      base: CEPH,
      set: { "lab:instanceType": "m9.mega" },
      want: [
        "'lab:instanceType' must be an x86_64 EC2 instance type listed in components/k0s/instance-types.ts (e.g. m4.xlarge on Xen, m5.xlarge on Nitro), got \"m9.mega\"",
      ],
    },
    {
      title: "m5.large, below 4 vCPUs and 16 GiB",
      category: "out of range",
      base: CEPH,
      set: { "lab:instanceType": "m5.large" },
      want: [
        "'lab:instanceType' must be an instance type with at least 4 vCPUs and 16 GiB of memory (a worker runs a Ceph OSD and monitor beside Postgres or pgbench); m5.large has 2 vCPUs and 8 GiB, got \"m5.large\"",
      ],
    },
    {
      title: "two workers for three replicas",
      category: "impossible combination",
      base: CEPH,
      set: { "lab:workerCount": 2 },
      want: ["'lab:workerCount' must be at least 3 (3 replicas on as many hosts and 3 monitors, one a node), got 2"],
    },
    {
      title: "SSH from the whole internet",
      category: "malformed CIDR",
      base: CEPH,
      set: { "lab:adminCidrs": ["0.0.0.0/0"] },
      want: ["'lab:adminCidrs[0]' must be an IPv4 network CIDR with a prefix from /8 to /32 (e.g. 198.51.100.7/32), got \"0.0.0.0/0\""],
    },
    {
      title: "an address without a prefix",
      category: "malformed CIDR",
      base: CEPH,
      set: { "lab:adminCidrs": ["198.51.100.7"] },
      want: ["'lab:adminCidrs[0]' must be an IPv4 network CIDR with a prefix from /8 to /32 (e.g. 198.51.100.7/32), got \"198.51.100.7\""],
    },
    {
      title: "no admin CIDRs",
      category: "missing required key",
      base: CEPH,
      unset: ["lab:adminCidrs"],
      want: ["'lab:adminCidrs' must be a list of 1 to 10 IPv4 CIDRs of the operators (e.g. [\"198.51.100.7/32\"]), got nothing"],
    },
    {
      title: "1000 MiB/s on 3000 IOPS",
      category: "impossible combination",
      base: CEPH,
      set: { "lab:osdVolumeThroughputMiBps": 1000 },
      want: ["'lab:osdVolumeThroughputMiBps' must be at most 0.25 MiB/s per IOPS of 'lab:osdVolumeIops' (750), got 1000"],
    },
    {
      title: "an unknown CNI",
      category: "value the software refuses",
      base: CEPH,
      set: { "lab:cni": "flannel" },
      want: ["'lab:cni' must be one of kuberouter, calico, got \"flannel\""],
    },
    {
      title: "WireGuard without Calico",
      category: "impossible combination",
      base: CEPH,
      set: { "lab:cni": "kuberouter" },
      want: ["'lab:wireguard' must be false with 'lab:cni' kuberouter (the WireGuard encryption k0s configures is Calico's), got true"],
    },
    {
      title: "an OSD memory limit below Rook's minimum",
      category: "value the software refuses",
      base: CEPH,
      set: {
        "lab:cephResources": {
          mon: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } },
          mgr: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "500m", memory: "1Gi" } },
          osd: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } },
        },
      },
      want: ["'lab:cephResources.osd.limits.memory' must be at least 2048Mi, the osd memory limit Rook recommends as a minimum, got \"1Gi\""],
    },
    {
      title: "a pgbench client that leaves no room on its worker",
      category: "impossible combination",
      base: CEPH,
      set: { "lab:pgbenchResources": { requests: { cpu: "4", memory: "8Gi" }, limits: { cpu: "4", memory: "8Gi" } } },
      want: [
        "'lab:pgbenchResources.requests.cpu' must be at most 2430m (the 4 vCPUs of m4.xlarge: an OSD, a monitor and k0s' and Rook's own pods on worker 2 request 1570m); the pgbench Job would stay Pending, got \"4\"",
      ],
    },
    {
      title: "lab:workerCnt",
      category: "misspelt key",
      base: CEPH,
      set: { "lab:workerCnt": 3 },
      want: [
        "'lab:workerCnt' must be a key of kind ceph-k0s (did you mean 'lab:workerCount'?); its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:instanceType, lab:workerCount, lab:az, lab:adminCidrs, lab:adminCidrMinPrefix, lab:sshPublicKey, lab:osdVolumeGiB, lab:osdVolumeIops, lab:osdVolumeThroughputMiBps, lab:k0sVersion, lab:cni, lab:wireguard, lab:cephHostNetwork, lab:hugepages2Mi, lab:cephResources, lab:postgresCpu, lab:postgresMemory, lab:postgresHugepages2Mi, lab:pgbenchScale, lab:pgbenchClients, lab:pgbenchThreads, lab:pgbenchDurationSeconds, lab:pgbenchForeignKeys, lab:pgbenchReportLatencies, lab:pgbenchResources, lab:reps, got \"3\"",
      ],
    },
    {
      title: "a network stack named with four parts",
      category: "bad upstream stack name",
      base: CEPH,
      set: { "lab:networkStack": "acme/lab/storage-bench-lab/network" },
      want: [
        "'lab:networkStack' must be the name of the network stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got \"acme/lab/storage-bench-lab/network\"",
      ],
    },
    {
      title: "lab:az a zone of the region the network stack does not use",
      category: "upstream mismatch",
      base: CEPH,
      set: { "lab:az": "us-east-1c" },
      want: [
        "'lab:az' must be one of the zones of network stack 'organization/storage-bench-lab/network' (us-east-1a, us-east-1b), got \"us-east-1c\"",
      ],
    },
    {
      title: "a network stack no plan has and a bad worker count: both reported",
      category: "one problem among others",
      base: CEPH,
      set: { "lab:networkStack": "organization/storage-bench-lab/net2", "lab:workerCount": 1 },
      want: [
        "'lab:networkStack' must be the name of a stack planned before it or shipped as Pulumi.<stack>.yaml (no stack named 'net2'), got \"organization/storage-bench-lab/net2\"",
        "'lab:workerCount' must be at least 3 (3 replicas on as many hosts and 3 monitors, one a node), got 1",
      ],
    },
  ],
  compare: [
    {
      title: "a ratio over a stack it does not compare",
      category: "impossible combination",
      base: COMPARE,
      set: { "lab:ratios": [{ name: "x", metric: "pgbench.tps", numerator: { stack: "m6" }, denominator: { stack: "dev" } }] },
      want: ["'lab:ratios[0].numerator.stack' must be one of the compared stacks (dev, nitro), got \"m6\""],
    },
    {
      title: "nothing to compare",
      category: "missing required key",
      base: COMPARE,
      unset: ["lab:devStack", "lab:nitroStack"],
      want: [
        "'lab:<label>Stack' must be set for 1 to 10 compared stacks (e.g. lab:devStack), got []",
        "'lab:ratios[0].numerator.stack' must be one of the compared stacks (none), got \"nitro\"",
        "'lab:ratios[0].denominator.stack' must be one of the compared stacks (none), got \"dev\"",
        "'lab:ratios[1].numerator.stack' must be one of the compared stacks (none), got \"nitro\"",
        "'lab:ratios[1].denominator.stack' must be one of the compared stacks (none), got \"dev\"",
      ],
    },
    {
      title: "ratios as a word",
      category: "wrong type",
      base: COMPARE,
      set: { "lab:ratios": "lots" },
      want: ['\'lab:ratios\' must be a list (JSON, e.g. ["a","b"]), got "lots"'],
    },
    {
      title: "a compared stack named with an empty part",
      category: "bad upstream stack name",
      base: COMPARE,
      set: { "lab:devStack": "organization//dev" },
      want: ["'lab:devStack' must be the name of the compared (dev) stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got \"organization//dev\""],
    },
    {
      title: "a ratio of a metric no stack produces",
      category: "value the software refuses",
      base: COMPARE,
      set: { "lab:ratios": [{ name: "tps", metric: "pgbench.throughput", numerator: { stack: "nitro" }, denominator: { stack: "dev" } }] },
      want: [
        "'lab:ratios[0].metric' must be a metric some stack's results hold (fio.<read|write>.<iops|bandwidth|clat.mean|clat.p50|clat.p99|clat.p99.9>, fio.error, ioping.latency.min, ioping.latency.mean, ioping.latency.max, ioping.latency.mdev, ioping.iops, ioping.requests, pgbench.tps, pgbench.latency.mean, pgbench.latency.stddev, pgbench.transactions, pgbench.failed, pgbench.statement.latency, pgbench.statement.failures, pgbench.statement.retries, omb.publish.rate, omb.consume.rate, omb.throughput, omb.publish.latency.p99, omb.e2e.latency.p99, omb.publish.errors), got \"pgbench.throughput\"",
      ],
    },
  ],
  eks: [
    {
      title: "m9.mega nodes",
      category: "unknown instance type",
      base: EKS,
      set: { "lab:instanceType": "m9.mega" },
      want: [
        "'lab:instanceType' must be an x86_64 EC2 instance type listed in components/k0s/instance-types.ts or components/eks/instance-types.ts (e.g. m5.xlarge): the nodes run AL2023_x86_64_STANDARD, got \"m9.mega\"",
      ],
    },
    {
      title: "an image the lab does not build, and the tools image twice",
      category: "value the software refuses",
      base: EKS,
      set: { "lab:images": ["tools", "fio", "tools"] },
      want: [
        "'lab:images[1]' must be one of tools, omb (a list of images to build for the stacks on this cluster, each once: tools (fio and ioping, for fsx-eks) or omb (OpenMessaging Benchmark, for kafka), e.g. [tools]), got \"fio\"",
        "'lab:images[2]' must be another image than entry 0 (each is built once), got \"tools\"",
      ],
    },
    {
      title: "a node group in a zone the network does not have",
      category: "value the software refuses",
      base: "Pulumi.kafka-cluster.yaml",
      set: {
        "lab:nodeGroups": [
          { name: "system", instanceType: "m5.large", nodeCount: 3 },
          { name: "brokers", instanceType: "i3en.2xlarge", nodeCount: 3, dedicated: true, zone: "us-east-1c" },
          { name: "clients", instanceType: "c5n.2xlarge", nodeCount: 4, dedicated: true, zone: 0 },
        ],
      },
      // checked against the network stack's zones before any resource (no longer thrown inside an apply)
      want: [
        "'lab:nodeGroups[1].zone' must be one of the network's zones us-east-1a, us-east-1b (by index 0–1 or by name), got \"us-east-1c\"",
      ],
    },
    {
      title: "a node-group label the kubelet may not give itself (node-role.kubernetes.io)",
      category: "value the software refuses",
      base: "Pulumi.kafka-cluster.yaml",
      set: {
        "lab:nodeGroups": [
          { name: "system", instanceType: "m5.large", nodeCount: 3 },
          { name: "brokers", instanceType: "i3en.2xlarge", nodeCount: 3, dedicated: true, labels: { "node-role.kubernetes.io/kafka": "true" } },
          { name: "clients", instanceType: "c5n.2xlarge", nodeCount: 4, dedicated: true },
        ],
      },
      want: [
        `'lab:nodeGroups[1].labels' must be free of kubernetes.io and k8s.io keys the kubelet may not set on its own node (allowed: under kubelet.kubernetes.io, node.kubernetes.io, or one of beta.kubernetes.io/arch, beta.kubernetes.io/instance-type, beta.kubernetes.io/os, failure-domain.beta.kubernetes.io/region, failure-domain.beta.kubernetes.io/zone, kubernetes.io/arch, kubernetes.io/hostname, kubernetes.io/os, node.kubernetes.io/instance-type, topology.kubernetes.io/region, topology.kubernetes.io/zone); set others with kubectl label after the node joined (not node-role.kubernetes.io/kafka), got {"node-role.kubernetes.io/kafka":"true"}`,
      ],
    },
    {
      title: "one node for two zones",
      category: "out of range",
      base: EKS,
      set: { "lab:nodeCount": 1 },
      want: ["'lab:nodeCount' must be an integer from 2 to 30 (nodes over both zones), got 1"],
    },
    {
      title: "an admin that is a user, not a role",
      category: "malformed ARN",
      base: EKS,
      set: { "lab:adminRoleArns": ["arn:aws:iam::123456789012:user/bob"] },
      want: [
        "'lab:adminRoleArns[0]' must be an IAM role ARN (arn:aws:iam::<account>:role/<name>), got \"arn:aws:iam::123456789012:user/bob\"",
      ],
    },
    {
      title: "the API endpoint open to the internet",
      category: "malformed CIDR",
      base: EKS,
      set: { "lab:adminCidrs": ["0.0.0.0/0"] },
      want: [
        "'lab:adminCidrs[0]' must be an operator's own network, not the whole internet: the public API endpoint is opened to these CIDRs only, got \"0.0.0.0/0\"",
      ],
    },
    {
      title: "31 days of control-plane logs",
      category: "out of range",
      base: EKS,
      set: { "lab:logRetentionDays": 31 },
      want: [
        "'lab:logRetentionDays' must be one of CloudWatch Logs' retention periods (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653), got 31",
      ],
    },
    {
      title: "node groups and a single group's size together",
      category: "impossible combination",
      base: EKS,
      set: { "lab:nodeGroups": [{ name: "a", instanceType: "m5.xlarge", nodeCount: 2 }] },
      want: [
        "'lab:instanceType' must be unset when 'lab:nodeGroups' is given (each group has its own), got \"m5.xlarge\"",
        "'lab:nodeCount' must be unset when 'lab:nodeGroups' is given (each group has its own), got 3",
      ],
    },
    {
      title: "lab:endpointPublicAccess",
      category: "unknown key",
      base: EKS,
      set: { "lab:endpointPublicAccess": false },
      want: [
        "'lab:endpointPublicAccess' must be a key of kind eks; its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:clusterName, lab:kubernetesVersion, lab:adminCidrs, lab:adminCidrMinPrefix, lab:adminRoleArns, lab:instanceType, lab:nodeCount, lab:nodeRootVolumeGiB, lab:logRetentionDays, lab:permissionsBoundaryArn, lab:nodeGroups, lab:trident, lab:tridentInstall, lab:tridentAddonVersion, lab:tridentNodePrep, lab:images, got \"false\"",
      ],
    },
    {
      title: "a network stack named with a space",
      category: "bad upstream stack name",
      base: EKS,
      set: { "lab:networkStack": "my org/storage-bench-lab/network" },
      want: [
        "'lab:networkStack' must be the name of the network stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got \"my org/storage-bench-lab/network\"",
      ],
    },
    {
      title: "lab:networkStack naming a stack of another kind",
      category: "upstream mismatch",
      base: EKS,
      set: { "lab:networkStack": "organization/storage-bench-lab/fsx-eks-ontap" },
      want: [
        "'lab:networkStack' must be the name of a network stack with outputs 'vpcId', 'vpcCidr', 'azs', 'publicSubnetIds', 'privateSubnetIds', 'privateSubnetCidrs', 'privateRouteTableIds' (its outputs: clientSubnetCidrs, credentialsSecretArn, expiresAt, fileSystemArn, fileSystemId, iscsiEndpoint, kmsKeyArn, maintenanceWindow, managementEndpoint, nfsEndpoint, preferredAz, preferredSubnetId, securityGroupId, standbyAz, svmId, svmManagementEndpoint, svmName, throughputCapacityMBps, volumes), got \"organization/storage-bench-lab/fsx-eks-ontap\"",
      ],
    },
  ],
  "fsx-eks": [
    {
      title: "no MySQL replicas",
      category: "out of range",
      base: FSX_EKS,
      set: { "lab:mysqlReplicas": 0 },
      want: ["'lab:mysqlReplicas' must be an integer from 1 to 5 (mysql-0 the source, the others replicas), got 0"],
    },
    {
      title: "reclaim policy Recycle",
      category: "out of range",
      base: FSX_EKS,
      set: { "lab:reclaimPolicy": "Recycle" },
      want: ["'lab:reclaimPolicy' must be one of Delete, Retain, got \"Recycle\""],
    },
    {
      title: "tools image :latest",
      category: "out of range",
      base: FSX_EKS,
      set: { "lab:toolsImage": "123456789012.dkr.ecr.us-east-1.amazonaws.com/tools:latest" },
      want: [
        '\'lab:toolsImage\' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest, got "123456789012.dkr.ecr.us-east-1.amazonaws.com/tools:latest"',
      ],
    },
    {
      title: "no EKS stack",
      category: "missing required key",
      base: FSX_EKS,
      unset: ["lab:eksStack"],
      want: ["'lab:eksStack' must be the name of the eks stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got nothing"],
    },
    {
      title: "sanBackend 'no'",
      category: "wrong type",
      base: FSX_EKS,
      set: { "lab:sanBackend": "no" },
      want: ["'lab:sanBackend' must be true or false, got \"no\""],
    },
    {
      title: "lab:mysqlReplica",
      category: "misspelt key",
      base: FSX_EKS,
      set: { "lab:mysqlReplica": 3 },
      want: [
        "'lab:mysqlReplica' must be a key of kind fsx-eks (did you mean 'lab:mysqlReplicas'?); its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:fsxOntapStack, lab:eksStack, lab:sanBackend, lab:reclaimPolicy, lab:mysqlReplicas, lab:mysqlVolumeGiB, lab:toolsImage, lab:reps, lab:pvcSizeGiB, got \"3\"",
      ],
    },
    {
      title: "lab:eksStack naming a cluster without Trident",
      category: "upstream mismatch",
      base: FSX_EKS,
      set: { "lab:eksStack": "organization/storage-bench-lab/kafka-cluster" },
      want: [
        "'lab:eksStack' must be the name of an eks stack with output 'tridentRoleName' (its outputs: clusterName, clusterSecurityGroupId, expiresAt, images, instanceType, kubeconfig, kubernetesVersion, networkPolicyEnforced, nodeGroups, nodeSecurityGroupId, serviceIpv4Cidr, utilizationAccess, zones), got \"organization/storage-bench-lab/kafka-cluster\"",
      ],
    },
  ],
  kafka: [
    {
      title: "a broker count in words",
      category: "wrong type",
      base: KAFKA,
      set: { "lab:brokers": "three" },
      want: [`'lab:brokers' must be a whole number, got "three"`],
    },
    {
      title: "two KRaft controllers",
      category: "impossible combination",
      base: KAFKA,
      set: { "lab:controllers": 2 },
      want: ["'lab:controllers' must be 1, 3 or 5 (a KRaft quorum of an odd number of controllers), got 2"],
    },
    {
      title: "replication factor 5 on 3 brokers",
      category: "out of range",
      base: KAFKA,
      set: { "lab:replicationFactors": [1, 5] },
      want: ["'lab:replicationFactors[1]' must be at most 'lab:brokers' (3): a topic has at most one replica a broker, got 5"],
    },
    {
      title: "a Kafka release Strimzi 1.2.0 does not run",
      category: "out of range",
      base: KAFKA,
      set: { "lab:kafkaVersion": "3.9.0" },
      want: [`'lab:kafkaVersion' must be one of 4.3.0, 4.3.1 (Kafka 4.3.x, run by Strimzi 1.2.0), got "3.9.0"`],
    },
    {
      title: "lab:ombWorker for lab:ombWorkers",
      category: "misspelt key",
      base: KAFKA,
      set: { "lab:ombWorker": 4 },
      want: [
        `'lab:ombWorker' must be a key of kind kafka (did you mean 'lab:ombWorkers'?); its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:fsxOntapStack, lab:eksStack, lab:clusterName, lab:kafkaVersion, lab:brokers, lab:controllers, lab:dataVolumes, lab:brokerVolumeGiB, lab:controllerVolumeGiB, lab:brokerNodeGroup, lab:controllerNodeGroup, lab:brokerResources, lab:brokerHeapGiB, lab:controllerResources, lab:controllerHeapGiB, lab:zonePlacement, lab:brokerConfig, lab:ombImage, lab:ombWorkers, lab:clientNodeGroup, lab:ombWorkload, lab:testDurationMinutes, lab:ombDrivers, lab:replicationFactors, lab:reps, lab:workerResources, lab:workerHeapGiB, lab:driverResources, lab:driverHeapGiB, got "4"`,
      ],
    },
    {
      title: "an EKS stack that no plan or shipped config has",
      category: "bad upstream stack name",
      base: KAFKA,
      set: { "lab:eksStack": "organization/storage-bench-lab/kafka-eks" },
      want: [
        `'lab:eksStack' must be the name of a stack planned before it or shipped as Pulumi.<stack>.yaml (no stack named 'kafka-eks'), got "organization/storage-bench-lab/kafka-eks"`,
      ],
    },
    {
      title:
        "lab:eksStack naming a cluster without the brokers', controllers' and clients' groups, and no OMB image (it builds the tools image only)",
      category: "upstream mismatch",
      base: KAFKA,
      set: { "lab:eksStack": "organization/storage-bench-lab/fsx-eks-cluster" },
      want: [
        "'lab:brokerNodeGroup' must be a node group of 'lab:eksStack' labelled storage-bench-lab/node-group=<name> (its groups: workers), got \"brokers\"",
        "'lab:controllerNodeGroup' must be a node group of 'lab:eksStack' labelled storage-bench-lab/node-group=<name> (its groups: workers), got \"system\"",
        "'lab:clientNodeGroup' must be a node group of 'lab:eksStack' labelled storage-bench-lab/node-group=<name> (its groups: workers), got \"clients\"",
        "'lab:ombImage' must be a pinned OpenMessaging Benchmark image when 'lab:eksStack' (organization/storage-bench-lab/fsx-eks-cluster) builds none (its output images has no omb): add omb to that eks stack's lab:images, or build docker/Dockerfile.build of openmessaging/benchmark elsewhere, push it and set lab:ombImage to its reference, got nothing",
      ],
    },
    {
      title: "one broker, replication factors left at their default",
      category: "default checked like a value",
      base: KAFKA,
      set: { "lab:brokers": 1 },
      unset: ["lab:replicationFactors"],
      want: [
        "'lab:brokers' must be at least 3, the lab's offsets.topic.replication.factor (or set offsets.topic.replication.factor in 'lab:brokerConfig'), got 1",
        "'lab:brokers' must be at least 3, the lab's transaction.state.log.replication.factor (or set transaction.state.log.replication.factor in 'lab:brokerConfig'), got 1",
        "'lab:brokers' must be at least 3, the lab's default.replication.factor (or set default.replication.factor in 'lab:brokerConfig'), got 1",
        "'lab:brokers' must be at least 3, the largest of the default 'lab:replicationFactors' (1, 3), or set 'lab:replicationFactors', got 1",
      ],
    },
    {
      title: "broker requests above the i3en.2xlarge's memory",
      category: "value the software refuses",
      base: KAFKA,
      set: {
        "lab:brokerResources": { requests: { cpu: "7", memory: "80Gi" }, limits: { cpu: "8", memory: "80Gi" } },
        "lab:brokerHeapGiB": 6,
      },
      want: [
        "'lab:brokerResources.requests.memory' must be at most the 64 GiB of i3en.2xlarge, the instance type of node group 'brokers' ('lab:brokerNodeGroup'), got \"80Gi\"",
      ],
    },
    {
      title: "a data volume spelled in another case than the file system's",
      category: "value the software refuses",
      base: KAFKA,
      set: { "lab:dataVolumes": ["/kafkafsxN1", "/KAFKAFSXN2"] },
      want: [
        "'lab:dataVolumes[1]' must be spelled as 'lab:fsxOntapStack' has it (/kafkafsxN2): ONTAP junction paths are case-insensitive, got \"/KAFKAFSXN2\"",
      ],
    },
    {
      title: "an offsets topic replication factor above the brokers",
      category: "value the software refuses",
      base: KAFKA,
      set: { "lab:brokerConfig": { "offsets.topic.replication.factor": 4 } },
      want: [
        "'lab:brokerConfig[\"offsets.topic.replication.factor\"]' must be at most 'lab:brokers' (3): Kafka refuses a replication factor above the broker count, got 4",
      ],
    },
    {
      title: "broker settings: a size with units, an unknown compression, a boolean as yes, a retention of 0",
      category: "value the software refuses",
      base: KAFKA,
      set: { "lab:brokerConfig": { "log.segment.bytes": "1GB", "compression.type": "brotli", "log.preallocate": "yes", "log.retention.hours": 0 } },
      want: [
        "'lab:brokerConfig[\"log.segment.bytes\"]' must be a whole number from 1048576 to 2147483647 (Kafka type INT, atLeast(1048576)), got \"1GB\"",
        "'lab:brokerConfig[\"compression.type\"]' must be one of uncompressed, zstd, lz4, snappy, gzip, producer (Kafka type STRING), got \"brotli\"",
        "'lab:brokerConfig[\"log.preallocate\"]' must be true or false (Kafka type BOOLEAN), got \"yes\"",
        "'lab:brokerConfig[\"log.retention.hours\"]' must be -1 (unlimited) or at least 1: a broker stops at 0 (core/src/main/scala/kafka/server/KafkaConfig.scala:858), got 0",
      ],
    },
    {
      title: "a broker setting Kafka would not parse, and a misspelt one",
      category: "value the software refuses",
      base: KAFKA,
      set: { "lab:brokerConfig": { "num.io.threads": 1.5, "log.flush.interval.mesages": 1 } },
      want: [
        "'lab:brokerConfig[\"num.io.threads\"]' must be a whole number from 1 to 2147483647 (Kafka type INT, atLeast(1)), got 1.5",
        "'lab:brokerConfig[\"log.flush.interval.mesages\"]' must be a broker setting whose Kafka type and range the lab checks (KAFKA_BROKER_SETTINGS, components/kafka/broker-settings.ts: Kafka ignores a key it does not know, so a misspelt one would measure the default); another setting needs its ConfigDef type and range added there, got 1",
      ],
    },
  ],
  scenarios: [
    {
      title: "fsx-eks overrides lab:replicas on fsx-eks",
      category: "scenario override of a key that does not exist",
      scenario: { name: "fsx-eks", stack: "fsx-eks" },
      set: { "lab:replicas": 5 },
      want: [
        "'lab:replicas' must be a key of kind fsx-eks; its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:fsxOntapStack, lab:eksStack, lab:sanBackend, lab:reclaimPolicy, lab:mysqlReplicas, lab:mysqlVolumeGiB, lab:toolsImage, lab:reps, lab:pvcSizeGiB, got \"5\"",
      ],
    },
    {
      title: "fsx-eks overrides lab:nodeCount on its file system",
      category: "scenario override of a key that does not exist",
      scenario: { name: "fsx-eks", stack: "fsx-eks-ontap" },
      set: { "lab:nodeCount": 3 },
      want: [
        "'lab:nodeCount' must be a key of kind fsx-ontap; its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:deploymentType, lab:storageCapacityGiB, lab:throughputCapacityMBps, lab:haPairs, lab:diskIopsMode, lab:diskIops, lab:preferredAz, lab:svmName, lab:volumes, lab:kmsKeyArn, lab:backupRetentionDays, lab:maintenanceWindow, lab:clientSecurityGroupIds, lab:endpointIpAddressRange, lab:skipFinalBackup, lab:retainOnDelete, got \"3\"",
      ],
    },
    {
      title: "ceph-nitro overrides lab:instanceTypes on dev",
      category: "scenario override of a key that does not exist",
      scenario: { name: "ceph-nitro", stack: "dev" },
      set: { "lab:instanceTypes": ["m4.xlarge"] },
      want: [
        "'lab:instanceTypes' must be a key of kind ceph-k0s (did you mean 'lab:instanceType'?); its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:instanceType, lab:workerCount, lab:az, lab:adminCidrs, lab:adminCidrMinPrefix, lab:sshPublicKey, lab:osdVolumeGiB, lab:osdVolumeIops, lab:osdVolumeThroughputMiBps, lab:k0sVersion, lab:cni, lab:wireguard, lab:cephHostNetwork, lab:hugepages2Mi, lab:cephResources, lab:postgresCpu, lab:postgresMemory, lab:postgresHugepages2Mi, lab:pgbenchScale, lab:pgbenchClients, lab:pgbenchThreads, lab:pgbenchDurationSeconds, lab:pgbenchForeignKeys, lab:pgbenchReportLatencies, lab:pgbenchResources, lab:reps, got \"[\\\"m4.xlarge\\\"]\"",
      ],
    },
    {
      title: "ceph-nitro overrides lab:reps with 0 on nitro",
      category: "out of range",
      scenario: { name: "ceph-nitro", stack: "nitro" },
      set: { "lab:reps": 0 },
      want: ["'lab:reps' must be an integer from 1 to 20, got 0"],
    },
    {
      title: "fsx-eks overrides lab:nodeCount with 1 on its cluster",
      category: "out of range",
      scenario: { name: "fsx-eks", stack: "fsx-eks-cluster" },
      set: { "lab:nodeCount": 1 },
      want: ["'lab:nodeCount' must be an integer from 2 to 30 (nodes over both zones), got 1"],
    },
  ],
};
