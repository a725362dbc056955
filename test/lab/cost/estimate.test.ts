import { AUTOMATIC_IOPS_PER_GIB } from "../../../components/fsx-ontap/rules";
import { COMPUTED, CostResource, estimateHourly, PRICERS, renderEstimate, SECRET, storageGiB } from "../../../lab/cost/estimate";
import { RESOURCE_TYPES } from "../../../lab/resource-types";

const r = (type: string, name: string, inputs: Record<string, unknown> = {}): CostResource => ({ type, name, inputs });
const FS = "aws:fsx/ontapFileSystem:OntapFileSystem";
const INSTANCE = "aws:ec2/instance:Instance";
const VOLUME = "aws:ebs/volume:Volume";
const DIGITS = 12;

const fsx = (inputs: Record<string, unknown>) =>
  r(FS, "fs", { storageType: "SSD", automaticBackupRetentionDays: 0, fsxAdminPassword: SECRET, ...inputs });
const gp3Root = (sizeGiB: number) => ({ volumeType: "gp3", volumeSize: sizeGiB, encrypted: true, deleteOnTermination: true });
const DATA_TRANSFER_NOTE =
  "not estimated: data transfer (internet egress, cross-AZ traffic, NAT gateway data processing per GB) and request charges (KMS and Secrets Manager API calls, S3 and FSx capacity-pool requests)";

describe("estimateHourly: FSx for ONTAP", () => {
  test("1024 GiB, 512 MBps, MULTI_AZ_1, AUTOMATIC IOPS: storage and throughput, no IOPS charge", () => {
    const e = estimateHourly(
      [fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: 1024, throughputCapacity: 512, diskIopsConfiguration: { mode: "AUTOMATIC" } })],
      "us-east-1",
    );
    expect(e.lines.map((l) => l.what)).toEqual([
      "MULTI_AZ_1 SSD storage: 1024 × $0.25/GB-month",
      "MULTI_AZ_1 throughput capacity: 512 × $1.2/MBps-month",
    ]);
    expect(e.lines[0].usdPerHour).toBeCloseTo(256 / 730, DIGITS); // 1024 × 0.25 = $256/month
    expect(e.lines[1].usdPerHour).toBeCloseTo(614.4 / 730, DIGITS); // 512 × 1.20 = $614.40/month
    expect(e.totalUsdPerHour).toBeCloseTo(870.4 / 730, DIGITS); // $1.1923/h
    expect(e.unpriced).toEqual([]);
  });

  test("5120 GiB, 4096 MBps, 160 000 provisioned IOPS: the 144 640 IOPS above 3/GB are charged at the unconfirmed price, and said", () => {
    const e = estimateHourly(
      [
        fsx({
          deploymentType: "MULTI_AZ_1",
          storageCapacity: 5120,
          throughputCapacity: 4096,
          diskIopsConfiguration: { mode: "USER_PROVISIONED", iops: 160000 },
        }),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => l.usdPerHour)).toEqual([1280 / 730, 4915.2 / 730, (144640 * 0.017) / 730]);
    expect(e.lines[2].what).toBe("MULTI_AZ_1 SSD IOPS above the included 3/GB: 144640 × $0.017/IOPS-month (unconfirmed price)");
    expect(e.totalUsdPerHour).toBeCloseTo((6195.2 + 2458.88) / 730, DIGITS); // $11.8549/h
    expect(e.unpriced).toEqual([]);
    expect(e.notes.filter((n) => n.startsWith("unconfirmed price"))).toEqual([
      "unconfirmed price, charged but not confirmed: FSx for ONTAP provisioned SSD IOPS above the included 3 per GB, per IOPS-month $0.017/IOPS-month: the source names neither the region nor the deployment type; a Price List read for eu-west-1 gives Multi-AZ SSD IOPS $0.0374/IOPS-month, so the first-generation Multi-AZ us-east-1 price may be higher than this figure: treat the line as a lower bound",
    ]);
  });

  test("USER_PROVISIONED IOPS at or under 3/GB cost nothing extra", () => {
    const e = estimateHourly(
      [
        fsx({
          deploymentType: "MULTI_AZ_1",
          storageCapacity: 2048,
          throughputCapacity: 256,
          diskIopsConfiguration: { mode: "USER_PROVISIONED", iops: 6144 },
        }),
      ],
      "us-east-1",
    );
    expect(e.totalUsdPerHour).toBeCloseTo((2048 * 0.25 + 256 * 1.2) / 730, DIGITS);
    expect(e.unpriced).toEqual([]);
  });

  test("throughputCapacityPerHaPair × haPairs is the total throughput (haPairs defaults to 1)", () => {
    const one = estimateHourly(
      [fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: 1024, throughputCapacityPerHaPair: 256 })],
      "us-east-1",
    );
    expect(one.lines[1].what).toBe("MULTI_AZ_1 throughput capacity: 256 × $1.2/MBps-month");
    const gen2 = estimateHourly(
      [fsx({ deploymentType: "SINGLE_AZ_2", storageCapacity: 4096, throughputCapacityPerHaPair: 3072, haPairs: 2 })],
      "us-east-1",
    );
    expect(gen2.lines).toEqual([]);
    expect(gen2.unpriced.map((u) => u.what)).toEqual([
      "SSD storage 4096 GB: no sourced us-east-1 price for SINGLE_AZ_2 in lab/cost/prices.ts",
      "throughput capacity 6144 MBps: no sourced us-east-1 price for SINGLE_AZ_2 in lab/cost/prices.ts",
    ]);
  });

  test("Single-AZ first generation and Multi-AZ second generation are not priced, part by part", () => {
    const e = estimateHourly(
      [
        fsx({ deploymentType: "SINGLE_AZ_1", storageCapacity: 1024, throughputCapacity: 128 }),
        fsx({ deploymentType: "MULTI_AZ_2", storageCapacity: 1024, throughputCapacityPerHaPair: 384, haPairs: 1 }),
      ],
      "us-east-1",
    );
    expect(e.totalUsdPerHour).toBe(0);
    expect(e.unpriced.map((u) => u.what)).toEqual([
      "SSD storage 1024 GB: no sourced us-east-1 price for SINGLE_AZ_1 in lab/cost/prices.ts",
      "throughput capacity 128 MBps: no sourced us-east-1 price for SINGLE_AZ_1 in lab/cost/prices.ts",
      "SSD storage 1024 GB: no sourced us-east-1 price for MULTI_AZ_2 in lab/cost/prices.ts",
      "throughput capacity 384 MBps: no sourced us-east-1 price for MULTI_AZ_2 in lab/cost/prices.ts",
    ]);
  });

  test("values unknown until deploy are not priced, and say so", () => {
    const e = estimateHourly(
      [fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: COMPUTED, throughputCapacity: COMPUTED, diskIopsConfiguration: COMPUTED })],
      "us-east-1",
    );
    expect(e.lines).toEqual([]);
    expect(e.unpriced.map((u) => u.what)).toEqual([
      "SSD storage: storageCapacity unknown until deploy",
      "throughput capacity: unknown until deploy",
      "SSD IOPS: diskIopsConfiguration unknown until deploy",
    ]);
  });

  test("a deployment type FSx does not have, or one unknown until deploy, is not priced", () => {
    const e = estimateHourly(
      [fsx({ deploymentType: "MULTI_AZ_3", storageCapacity: 1024, throughputCapacity: 128 }), fsx({ deploymentType: COMPUTED })],
      "us-east-1",
    );
    expect(e.lines).toEqual([]);
    expect(e.unpriced.map((u) => u.what)).toEqual([
      "file system: deploymentType 'MULTI_AZ_3' is not an FSx for ONTAP deployment type",
      "file system: deploymentType unknown",
    ]);
  });

  test("the included SSD IOPS are the component's AUTOMATIC_IOPS_PER_GIB per GB: one IOPS more is billed", () => {
    expect(AUTOMATIC_IOPS_PER_GIB).toBe(3);
    const at = (iops: number) =>
      estimateHourly(
        [
          fsx({
            deploymentType: "MULTI_AZ_1",
            storageCapacity: 1024,
            throughputCapacity: 512,
            diskIopsConfiguration: { mode: "USER_PROVISIONED", iops },
          }),
        ],
        "us-east-1",
      ).lines.map((l) => l.what);
    expect(at(3072)).toEqual(["MULTI_AZ_1 SSD storage: 1024 × $0.25/GB-month", "MULTI_AZ_1 throughput capacity: 512 × $1.2/MBps-month"]);
    expect(at(3073)[2]).toBe("MULTI_AZ_1 SSD IOPS above the included 3/GB: 1 × $0.017/IOPS-month (unconfirmed price)");
  });

  test("backups with retention are a usage note", () => {
    const e = estimateHourly(
      [fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: 1024, throughputCapacity: 128, automaticBackupRetentionDays: 7 })],
      "us-east-1",
    );
    expect(e.notes).toContain("FSx for ONTAP backups are billed per GB-month of backup stored (usage): not estimated");
  });
});

describe("estimateHourly: EC2 and EBS", () => {
  test("an m4.xlarge with a 30 GiB gp3 root volume and a 100 GiB gp3 volume at the free 3000 IOPS / 125 MiB/s", () => {
    const e = estimateHourly(
      [
        r(INSTANCE, "node", { instanceType: "m4.xlarge", associatePublicIpAddress: false, rootBlockDevice: gp3Root(30) }),
        r(VOLUME, "osd", { type: "gp3", size: 100, iops: 3000, throughput: 125, availabilityZone: "us-east-1a" }),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => [l.name, l.what])).toEqual([
      ["node", "m4.xlarge instance (Linux, on-demand): 1 × $0.2/hour"],
      ["node", "root volume gp3 storage: 30 × $0.08/GB-month"],
      ["osd", "volume gp3 storage: 100 × $0.08/GB-month"],
    ]);
    expect(e.lines[2].usdPerHour).toBeCloseTo(8 / 730, DIGITS);
    expect(e.totalUsdPerHour).toBeCloseTo(0.2 + 10.4 / 730, DIGITS); // $0.2142/h
    expect(e.unpriced).toEqual([]);
  });

  test("gp3 IOPS above 3000 and throughput above 125 MiB/s are charged", () => {
    const e = estimateHourly([r(VOLUME, "fast", { type: "gp3", size: 100, iops: 6000, throughput: 250 })], "us-east-1");
    expect(e.lines.map((l) => l.what)).toEqual([
      "volume gp3 storage: 100 × $0.08/GB-month",
      "volume gp3 IOPS above 3000: 3000 × $0.005/IOPS-month",
      "volume gp3 throughput above 125 MiB/s: 125 × $0.04/MiBps-month",
    ]);
    expect(e.totalUsdPerHour).toBeCloseTo((8 + 15 + 5) / 730, DIGITS);
  });

  test("a public IP, inline EBS block devices and the Nitro/Xen pair", () => {
    const e = estimateHourly(
      [
        r(INSTANCE, "bastion", { instanceType: "t3.micro", associatePublicIpAddress: true, rootBlockDevice: gp3Root(8) }),
        r(INSTANCE, "nitro", {
          instanceType: "m5.xlarge",
          associatePublicIpAddress: false,
          rootBlockDevice: gp3Root(30),
          ebsBlockDevices: [{ deviceName: "/dev/sdf", volumeType: "gp3", volumeSize: 50 }],
        }),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => l.what)).toEqual([
      "t3.micro instance (Linux, on-demand): 1 × $0.0104/hour",
      "public IPv4 address: 1 × $0.005/IP-hour",
      "root volume gp3 storage: 8 × $0.08/GB-month",
      "m5.xlarge instance (Linux, on-demand): 1 × $0.192/hour",
      "root volume gp3 storage: 30 × $0.08/GB-month",
      "block device /dev/sdf gp3 storage: 50 × $0.08/GB-month",
    ]);
    expect(e.totalUsdPerHour).toBeCloseTo(0.0104 + 0.005 + 0.192 + (88 * 0.08) / 730, DIGITS);
  });

  test("what cannot be priced is listed with the reason", () => {
    const e = estimateHourly(
      [
        r(INSTANCE, "a", { instanceType: "c5.large", associatePublicIpAddress: COMPUTED }),
        r(INSTANCE, "b", { instanceType: COMPUTED, rootBlockDevice: { volumeType: "gp2", volumeSize: 20 } }),
        r(VOLUME, "c", { size: 10 }),
        r(VOLUME, "d", { type: "io2", size: 10, iops: 1000 }),
        r(VOLUME, "e", { type: "gp3", size: COMPUTED }),
      ],
      "us-east-1",
    );
    expect(e.lines).toEqual([]);
    expect(e.unpriced.map((u) => `${u.name}: ${u.what}`)).toEqual([
      "a: instance: c5.large has no sourced us-east-1 price in lab/cost/prices.ts",
      "a: public IPv4 address: associatePublicIpAddress unknown until deploy",
      "a: root volume: size and type come from the AMI",
      "b: instance: instance type unknown until deploy",
      "b: root volume: EBS gp2 has no sourced price (only gp3 is in lab/cost/prices.ts)",
      "c: volume: volume type not set (the AMI's or AWS's default applies)",
      "d: volume: EBS io2 has no sourced price (only gp3 is in lab/cost/prices.ts)",
      "e: volume: size unknown until deploy",
    ]);
    expect(e.notes).toContain(
      "instance b: associatePublicIpAddress not set; a public IPv4 address from the subnet's default is not counted",
    );
  });
});

describe("estimateHourly: network, keys, secrets, EKS", () => {
  test("a NAT gateway and its Elastic IP: $0.045 + $0.005 an hour", () => {
    const e = estimateHourly(
      [
        r("aws:ec2/eip:Eip", "nat-ip", { domain: "vpc" }),
        r("aws:ec2/natGateway:NatGateway", "nat", { allocationId: COMPUTED, connectivityType: "public", subnetId: COMPUTED }),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => [l.name, l.usdPerHour])).toEqual([
      ["nat-ip", 0.005],
      ["nat", 0.045],
    ]);
    expect(e.totalUsdPerHour).toBeCloseTo(0.05, DIGITS);
    expect(e.unpriced).toEqual([]);
    expect(renderEstimate(e)).toEqual([
      "estimated hourly cost: $0.0500/h ($36.50 over 730 h)",
      "  $0.0050/h  nat-ip  Elastic IP (public IPv4 address): 1 × $0.005/IP-hour",
      "  $0.0450/h  nat  NAT gateway: 1 × $0.045/hour",
      "  note: list prices for us-east-1, on-demand, Linux, before free tier, Savings Plans and reservations; monthly prices at 730 h/month",
      `  note: ${DATA_TRANSFER_NOTE}`,
    ]);
  });

  test("a NAT gateway without an Elastic IP gets an AWS-assigned address; a private one is not priced", () => {
    const e = estimateHourly(
      [r("aws:ec2/natGateway:NatGateway", "auto", {}), r("aws:ec2/natGateway:NatGateway", "private", { connectivityType: "private" })],
      "us-east-1",
    );
    expect(e.lines.map((l) => l.what)).toEqual(["NAT gateway: 1 × $0.045/hour", "public IPv4 address assigned by AWS: 1 × $0.005/IP-hour"]);
    expect(e.unpriced).toEqual([
      {
        type: "aws:ec2/natGateway:NatGateway",
        name: "private",
        what: "private NAT gateway: no sourced price (the sourced $0.045/hour is for public NAT gateways)",
      },
    ]);
  });

  test("a KMS key, a secret with a replica, an EKS cluster and a node group", () => {
    const e = estimateHourly(
      [
        r("aws:kms/key:Key", "key", { enableKeyRotation: true }),
        r("aws:secretsmanager/secret:Secret", "s", { replicas: [{ region: "us-west-2" }] }),
        r("aws:secretsmanager/secretVersion:SecretVersion", "sv", { secretString: SECRET }),
        r("aws:eks/cluster:Cluster", "eks", { version: "1.33" }),
        r("aws:eks/nodeGroup:NodeGroup", "ng", { scalingConfig: { desiredSize: 3, minSize: 3, maxSize: 3 } }),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => [l.name, l.what])).toEqual([
      ["key", "KMS customer-managed key: 1 × $1/key-month"],
      ["s", "secret and its 1 replica(s): 2 × $0.4/secret-month"],
      ["eks", "EKS cluster, standard support: 1 × $0.1/hour"],
      ["ng", "t3.medium node instance (Linux, on-demand): 3 × $0.0416/hour"],
    ]);
    expect(e.totalUsdPerHour).toBeCloseTo(1 / 730 + 0.8 / 730 + 0.1 + 3 * 0.0416, DIGITS);
    expect(e.unpriced).toEqual([
      {
        type: "aws:eks/nodeGroup:NodeGroup",
        name: "ng",
        what: "node root volumes: their type and size come from the node group's AMI (no launch template in the plan)",
      },
    ]);
  });

  test("pulumi-eks components (planned as one resource each): the control plane, and a managed node group's instances", () => {
    const e = estimateHourly(
      [
        r("eks:index:Cluster", "eks-cluster", { version: "1.35", skipDefaultNodeGroup: true }),
        r("eks:index:ManagedNodeGroup", "nodes", {
          instanceTypes: ["m5.xlarge"],
          scalingConfig: { desiredSize: 3, minSize: 3, maxSize: 3 },
        }),
        r("eks:index:ManagedNodeGroup", "defaults", {}),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => [l.name, l.what])).toEqual([
      ["eks-cluster", "EKS cluster, standard support: 1 × $0.1/hour"],
      ["nodes", "m5.xlarge node instance (Linux, on-demand): 3 × $0.192/hour"],
      ["defaults", "t3.medium node instance (Linux, on-demand): 2 × $0.0416/hour"],
    ]);
    expect(e.totalUsdPerHour).toBeCloseTo(0.1 + 3 * 0.192 + 2 * 0.0416, DIGITS);
    expect(e.unpriced.map((u) => `${u.name}: ${u.what}`)).toEqual([
      "nodes: node root volumes: their type and size come from the node group's AMI (no launch template in the plan)",
      "defaults: node root volumes: their type and size come from the node group's AMI (no launch template in the plan)",
    ]);
  });

  test("a pulumi-eks cluster with its default node group: the node group is not priced; other pulumi-eks and awsx types are unknown", () => {
    const e = estimateHourly(
      [r("eks:index:Cluster", "c", {}), r("eks:index:NodeGroupV2", "ng", { instanceType: "m5.xlarge" }), r("awsx:ec2:Vpc", "vpc", {})],
      "us-east-1",
    );
    expect(e.lines.map((l) => l.what)).toEqual(["EKS cluster, standard support: 1 × $0.1/hour"]);
    expect(e.unpriced.map((u) => `${u.name}: ${u.what}`)).toEqual([
      "c: default node group: not priced (set skipDefaultNodeGroup and give the cluster node groups of its own)",
      "ng: unknown resource type: not in lab/resource-types.ts, neither priced nor free",
      "vpc: unknown resource type: not in lab/resource-types.ts, neither priced nor free",
    ]);
  });

  test("a gateway VPC endpoint is free; an interface endpoint is not priced", () => {
    const e = estimateHourly(
      [
        r("aws:ec2/vpcEndpoint:VpcEndpoint", "s3", { vpcEndpointType: "Gateway" }),
        r("aws:ec2/vpcEndpoint:VpcEndpoint", "ecr", { vpcEndpointType: "Interface" }),
      ],
      "us-east-1",
    );
    expect(e.lines).toEqual([]);
    expect(e.unpriced.map((u) => u.name)).toEqual(["ecr"]);
  });
});

describe("estimateHourly: free, usage-billed, unknown types and regions", () => {
  test("free types are neither priced nor unpriced", () => {
    const free = [
      "pulumi:providers:aws",
      "pulumi:pulumi:StackReference",
      "lab:network:Network",
      "aws:ec2/vpc:Vpc",
      "aws:ec2/subnet:Subnet",
      "aws:ec2/routeTable:RouteTable",
      "aws:ec2/routeTableAssociation:RouteTableAssociation",
      "aws:ec2/route:Route",
      "aws:ec2/internetGateway:InternetGateway",
      "aws:ec2/defaultSecurityGroup:DefaultSecurityGroup",
      "aws:ec2/securityGroup:SecurityGroup",
      "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
      "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule",
      "aws:iam/role:Role",
      "aws:iam/rolePolicy:RolePolicy",
      "aws:ec2/keyPair:KeyPair",
      "aws:ec2/volumeAttachment:VolumeAttachment",
      "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine",
      "aws:secretsmanager/secretVersion:SecretVersion",
      "kubernetes:core/v1:Namespace",
      "kubernetes:helm.sh/v3:Release",
      "random:index/randomPassword:RandomPassword",
      "tls:index/privateKey:PrivateKey",
      "time:index/static:Static",
      "command:local:Command",
    ];
    const e = estimateHourly(
      free.map((t, i) => r(t, `r${i}`)),
      "us-east-1",
    );
    expect(e).toEqual({ lines: [], totalUsdPerHour: 0, unpriced: [], notes: expect.any(Array) });
  });

  test("usage-billed types are counted in a note; unknown types are not priced", () => {
    const e = estimateHourly(
      [
        r("aws:cloudwatch/logGroup:LogGroup", "logs"),
        r("aws:ec2/flowLog:FlowLog", "flow"),
        r("aws:fsx/ontapVolume:OntapVolume", "v1"),
        r("aws:fsx/ontapVolume:OntapVolume", "v2"),
        r("aws:rds/instance:Instance", "db"),
        r("gcp:compute/instance:Instance", "vm"),
      ],
      "us-east-1",
    );
    expect(e.notes).toContain(
      "usage-billed, no fixed hourly charge, not estimated: aws:cloudwatch/logGroup:LogGroup ×1, aws:ec2/flowLog:FlowLog ×1, aws:fsx/ontapVolume:OntapVolume ×2",
    );
    expect(e.unpriced).toEqual([
      { type: "aws:rds/instance:Instance", name: "db", what: "no price for this AWS resource type: it is not in lab/resource-types.ts" },
      {
        type: "gcp:compute/instance:Instance",
        name: "vm",
        what: "unknown resource type: not in lab/resource-types.ts, neither priced nor free",
      },
    ]);
  });

  test("another region is priced with us-east-1 list prices, and the notes say so", () => {
    const stack = [r("aws:ec2/natGateway:NatGateway", "nat", { allocationId: "eipalloc-1" })];
    const east = estimateHourly(stack, "us-east-1");
    const west = estimateHourly(stack, "eu-west-1");
    expect(west.totalUsdPerHour).toBe(east.totalUsdPerHour);
    expect(east.notes[0]).toBe(
      "list prices for us-east-1, on-demand, Linux, before free tier, Savings Plans and reservations; monthly prices at 730 h/month",
    );
    expect(west.notes[0]).toBe(
      "region eu-west-1 is priced with us-east-1 list prices (regional differences are not modelled); on-demand, Linux, before free tier, Savings Plans and reservations; monthly prices at 730 h/month",
    );
    expect(west.notes[1]).toBe(DATA_TRANSFER_NOTE);
  });

  test("prices whose source does not name the region are listed when used", () => {
    const e = estimateHourly([r("aws:kms/key:Key", "key")], "us-east-1");
    expect(e.notes).toContain(
      "prices whose source does not name the region (cross-checked, see lab/cost/prices.ts): KMS customer-managed key $1/key-month",
    );
  });

  test("every type the table of type tokens marks priced has a pricing function, and no other", () => {
    const priced = Object.entries(RESOURCE_TYPES)
      .filter(([, info]) => info.cost === "priced")
      .map(([token]) => token);
    expect(Object.keys(PRICERS).sort()).toEqual(priced.sort());
  });
});

describe("estimateHourly: volumes no AWS resource of the plan declares", () => {
  const lt = {
    type: "aws:ec2/launchTemplate:LaunchTemplate",
    name: "eks-nodes",
    urn: "urn:pulumi:s::p::aws:ec2/launchTemplate:LaunchTemplate::eks-nodes",
    inputs: { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: 50, volumeType: "gp3", iops: 4000, throughput: 125 } }] },
  };
  const group = {
    type: "eks:index:ManagedNodeGroup",
    name: "eks-nodes",
    urn: "urn:pulumi:s::p::eks:index:ManagedNodeGroup::eks-nodes",
    dependencies: [lt.urn],
    inputs: { instanceTypes: ["m5.xlarge"], scalingConfig: { desiredSize: 3 }, launchTemplate: { id: "lt-0123", version: "<computed>" } },
  };

  test("an EKS node group's root volumes: its launch template's gp3 mapping, one per node", () => {
    const e = estimateHourly([lt, group], "us-east-1");
    expect(e.lines.map((l) => l.what)).toEqual([
      "m5.xlarge node instance (Linux, on-demand): 3 × $0.192/hour",
      "3 node root volume(s) (launch template eks-nodes) gp3 storage: 150 × $0.08/GB-month",
      "3 node root volume(s) (launch template eks-nodes) gp3 IOPS above 3000: 3000 × $0.005/IOPS-month",
    ]);
    expect(e.totalUsdPerHour).toBeCloseTo(3 * 0.192 + (150 * 0.08 + 3000 * 0.005) / 730, DIGITS);
    expect(e.unpriced).toEqual([]);
  });

  const sc = (name: string, provisioner: string, parameters: Record<string, string>) => ({
    type: "kubernetes:storage.k8s.io/v1:StorageClass",
    name,
    inputs: { metadata: { name }, provisioner, parameters },
  });
  const pvc = (name: string, storageClassName: string, storage: string) => ({
    type: "kubernetes:core/v1:PersistentVolumeClaim",
    name,
    inputs: { metadata: { name }, spec: { storageClassName, resources: { requests: { storage } } } },
  });

  test("a claim on the EBS CSI driver's class is its gp3 volume (size, the class's iops and throughput); claims on other classes cost nothing of their own", () => {
    const e = estimateHourly(
      [
        sc("gp3", "ebs.csi.aws.com", { type: "gp3", encrypted: "true" }),
        sc("gp3-fast", "ebs.csi.aws.com", { type: "gp3", iops: "6000", throughput: "250" }),
        sc("fsx-ontap-nas", "csi.trident.netapp.io", { backendType: "ontap-nas" }),
        pvc("a", "gp3", "64Gi"),
        pvc("b", "gp3-fast", "1Ti"),
        pvc("c", "fsx-ontap-nas", "64Gi"),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => [l.name, l.what])).toEqual([
      ["a", "EBS volume of claim a (StorageClass gp3) gp3 storage: 64 × $0.08/GB-month"],
      ["b", "EBS volume of claim b (StorageClass gp3-fast) gp3 storage: 1024 × $0.08/GB-month"],
      ["b", "EBS volume of claim b (StorageClass gp3-fast) gp3 IOPS above 3000: 3000 × $0.005/IOPS-month"],
      ["b", "EBS volume of claim b (StorageClass gp3-fast) gp3 throughput above 125 MiB/s: 125 × $0.04/MiBps-month"],
    ]);
    expect(estimateHourly([sc("gp3", "ebs.csi.aws.com", {}), pvc("d", "gp3", "lots")], "us-east-1").unpriced).toEqual([
      {
        type: "kubernetes:core/v1:PersistentVolumeClaim",
        name: "d",
        what: "EBS volume of claim d (StorageClass gp3): size unknown until deploy",
      },
    ]);
    expect([storageGiB("64Gi"), storageGiB("1Ti"), storageGiB("512Mi"), storageGiB("1G"), storageGiB("x")]).toEqual([
      64,
      1024,
      0.5,
      1e9 / 2 ** 30,
      undefined,
    ]);
  });
});

describe("estimateHourly: what is unknown until deploy is listed as not priced, never priced with a default", () => {
  const whats = (e: ReturnType<typeof estimateHourly>) => e.unpriced.map((u) => `${u.name}: ${u.what}`);

  test("gp3 IOPS and throughput unknown: the storage is priced, the two are listed", () => {
    const e = estimateHourly([r(VOLUME, "v", { type: "gp3", size: 100, iops: COMPUTED, throughput: SECRET })], "us-east-1");
    expect(e.lines.map((l) => l.what)).toEqual(["volume gp3 storage: 100 × $0.08/GB-month"]);
    expect(whats(e)).toEqual(["v: volume: gp3 IOPS unknown until deploy", "v: volume: gp3 throughput unknown until deploy"]);
    expect(e.totalUsdPerHour).toBe((100 * 0.08) / 730);
  });

  test("gp3 at exactly 3000 IOPS and 125 MiB/s has no extra line; one above each has", () => {
    const at = (iops: number, throughput: number) =>
      estimateHourly([r(VOLUME, "v", { type: "gp3", size: 10, iops, throughput })], "us-east-1").lines.map((l) => l.what);
    expect(at(3000, 125)).toEqual(["volume gp3 storage: 10 × $0.08/GB-month"]);
    expect(at(3001, 126)).toEqual([
      "volume gp3 storage: 10 × $0.08/GB-month",
      "volume gp3 IOPS above 3000: 1 × $0.005/IOPS-month",
      "volume gp3 throughput above 125 MiB/s: 1 × $0.04/MiBps-month",
    ]);
    // Numbers as strings (a StorageClass parameter, a config value) are read; blank text is not a number.
    expect(
      estimateHourly([r(VOLUME, "v", { type: "gp3", size: "10", iops: " ", throughput: "126" })], "us-east-1").unpriced.map((u) => u.what),
    ).toEqual(["volume: gp3 IOPS unknown until deploy"]);
  });

  test("an instance's EBS block devices unknown until deploy, one of them unknown, one without a device name", () => {
    const e = estimateHourly(
      [
        r(INSTANCE, "a", {
          instanceType: "m5.xlarge",
          associatePublicIpAddress: false,
          rootBlockDevice: gp3Root(8),
          ebsBlockDevices: COMPUTED,
        }),
        r(INSTANCE, "b", {
          instanceType: "m5.xlarge",
          associatePublicIpAddress: false,
          rootBlockDevice: COMPUTED,
          ebsBlockDevices: [COMPUTED, { volumeType: "gp3", volumeSize: 20 }, { deviceName: 7, volumeType: "gp3", volumeSize: 5 }],
        }),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => `${l.name}: ${l.what}`)).toEqual([
      "a: m5.xlarge instance (Linux, on-demand): 1 × $0.192/hour",
      "a: root volume gp3 storage: 8 × $0.08/GB-month",
      "b: m5.xlarge instance (Linux, on-demand): 1 × $0.192/hour",
      "b: block device 1 gp3 storage: 20 × $0.08/GB-month",
      "b: block device 2 gp3 storage: 5 × $0.08/GB-month",
    ]);
    expect(whats(e)).toEqual([
      "a: EBS block devices unknown until deploy",
      "b: root volume: unknown until deploy",
      "b: block device 0: unknown until deploy",
    ]);
    expect(e.totalUsdPerHour).toBeCloseTo(2 * 0.192 + (33 * 0.08) / 730, DIGITS);
  });

  test("an instance without an instance type; a volume whose size is not set", () => {
    const e = estimateHourly(
      [r(INSTANCE, "a", { associatePublicIpAddress: false, rootBlockDevice: gp3Root(8) }), r(VOLUME, "v", { type: "gp3" })],
      "us-east-1",
    );
    expect(whats(e)).toEqual(["a: instance: instance type not set", "v: volume: size not set (taken from the AMI or snapshot)"]);
    expect(e.notes.some((n) => n.includes("associatePublicIpAddress not set"))).toBe(false);
  });

  test("secret replicas unknown: the secret is priced, its replicas listed", () => {
    const e = estimateHourly([r("aws:secretsmanager/secret:Secret", "s", { replicas: COMPUTED })], "us-east-1");
    expect(e.lines.map((l) => l.what)).toEqual(["secret: 1 × $0.4/secret-month"]);
    expect(whats(e)).toEqual(["s: secret replicas unknown until deploy"]);
    const none = estimateHourly([r("aws:secretsmanager/secret:Secret", "s", { replicas: [] })], "us-east-1");
    expect([none.lines.map((l) => l.what), none.unpriced]).toEqual([["secret: 1 × $0.4/secret-month"], []]);
  });

  test("FSx IOPS mode unknown, provisioned IOPS unknown, storage unknown with provisioned IOPS", () => {
    const base = { deploymentType: "MULTI_AZ_1", throughputCapacity: 128 };
    const e = estimateHourly(
      [
        r(FS, "mode", { ...base, storageCapacity: 1024, diskIopsConfiguration: { mode: COMPUTED, iops: 5000 } }),
        r(FS, "iops", { ...base, storageCapacity: 1024, diskIopsConfiguration: { mode: "USER_PROVISIONED", iops: COMPUTED } }),
        r(FS, "storage", { ...base, storageCapacity: COMPUTED, diskIopsConfiguration: { mode: "USER_PROVISIONED", iops: 9000 } }),
        r(FS, "auto", { ...base, storageCapacity: 1024, diskIopsConfiguration: { mode: "AUTOMATIC", iops: 900_000 } }),
      ],
      "us-east-1",
    );
    expect(whats(e)).toEqual([
      "mode: SSD IOPS: mode unknown until deploy",
      "iops: SSD IOPS: provisioned IOPS or storage capacity unknown until deploy",
      "storage: SSD storage: storageCapacity unknown until deploy",
      "storage: SSD IOPS: provisioned IOPS or storage capacity unknown until deploy",
    ]);
    // AUTOMATIC: whatever iops says, nothing above the included 3/GB is charged.
    expect(e.lines.filter((l) => l.name === "auto").map((l) => l.what)).toEqual([
      "MULTI_AZ_1 SSD storage: 1024 × $0.25/GB-month",
      "MULTI_AZ_1 throughput capacity: 128 × $1.2/MBps-month",
    ]);
    expect(e.lines.some((l) => l.what.includes("IOPS"))).toBe(false);
  });

  test("HA pairs unknown, throughput per HA pair unknown: not priced; a file system without a set throughput totals a number, not NaN", () => {
    const e = estimateHourly(
      [
        fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: 1024, throughputCapacityPerHaPair: 256, haPairs: COMPUTED }),
        fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: 1024, throughputCapacityPerHaPair: COMPUTED, haPairs: 1 }),
        fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: 1024 }),
        fsx({ deploymentType: "MULTI_AZ_1" }),
      ],
      "us-east-1",
    );
    expect(e.unpriced.map((u) => u.what)).toEqual([
      "throughput capacity: unknown until deploy",
      "throughput capacity: unknown until deploy",
      "throughput capacity: neither throughputCapacity nor throughputCapacityPerHaPair set",
      "SSD storage: storageCapacity not set",
      "throughput capacity: neither throughputCapacity nor throughputCapacityPerHaPair set",
    ]);
    expect(e.lines.map((l) => l.what)).toEqual(Array(3).fill("MULTI_AZ_1 SSD storage: 1024 × $0.25/GB-month"));
    expect(Number.isNaN(e.totalUsdPerHour)).toBe(false);
    expect(e.totalUsdPerHour).toBeCloseTo((3 * 1024 * 0.25) / 730, DIGITS);
    expect(renderEstimate(e)[0]).toBe(`estimated hourly cost: $1.0521/h ($768.00 over 730 h)`);
    // throughputCapacity wins over the per-pair form when both are set.
    const both = estimateHourly(
      [fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: 1024, throughputCapacity: 128, throughputCapacityPerHaPair: 512, haPairs: 2 })],
      "us-east-1",
    );
    expect(both.lines[1].what).toBe("MULTI_AZ_1 throughput capacity: 128 × $1.2/MBps-month");
  });

  test("a storage type other than SSD is not priced at SSD rates (nothing of the file system is)", () => {
    const e = estimateHourly(
      [fsx({ deploymentType: "MULTI_AZ_1", storageType: "HDD", storageCapacity: 2048, throughputCapacity: 128 })],
      "us-east-1",
    );
    expect(e.lines).toEqual([]);
    expect(whats(e)).toEqual(["fs: file system: storageType HDD has no sourced price"]);
    expect(e.totalUsdPerHour).toBe(0);
    // storageType not set is FSx's default, SSD: priced; unknown until deploy: not priced at SSD rates.
    const typed = (storageType: unknown) =>
      estimateHourly([fsx({ deploymentType: "MULTI_AZ_1", storageType, storageCapacity: 1024, throughputCapacity: 128 })], "us-east-1");
    expect(typed(undefined).lines.length).toBe(2);
    expect([typed(COMPUTED).lines, whats(typed(COMPUTED))]).toEqual([[], ["fs: file system: storageType unknown until deploy"]]);
  });

  test("a provisioned-IOPS price missing for a deployment type is listed with the IOPS above the included", () => {
    const e = estimateHourly(
      [
        fsx({
          deploymentType: "SINGLE_AZ_2",
          storageCapacity: 1024,
          throughputCapacityPerHaPair: 1536,
          diskIopsConfiguration: { mode: "USER_PROVISIONED", iops: 4000 },
        }),
      ],
      "us-east-1",
    );
    expect(e.unpriced.map((u) => u.what)).toEqual([
      "SSD storage 1024 GB: no sourced us-east-1 price for SINGLE_AZ_2 in lab/cost/prices.ts",
      "throughput capacity 1536 MBps: no sourced us-east-1 price for SINGLE_AZ_2 in lab/cost/prices.ts",
      "SSD IOPS above the included 3/GB (928 of 4000 IOPS): no sourced us-east-1 price for SINGLE_AZ_2 in lab/cost/prices.ts",
    ]);
  });

  test("backups: retention 0 adds no note, retention unknown or not set does", () => {
    const backupNote = "FSx for ONTAP backups are billed per GB-month of backup stored (usage): not estimated";
    const notesOf = (automaticBackupRetentionDays: unknown) =>
      estimateHourly(
        [fsx({ deploymentType: "MULTI_AZ_1", storageCapacity: 1024, throughputCapacity: 128, automaticBackupRetentionDays })],
        "us-east-1",
      ).notes;
    expect(notesOf(0)).not.toContain(backupNote);
    expect(notesOf(COMPUTED)).toContain(backupNote);
    expect(notesOf(undefined)).toContain(backupNote);
    expect(notesOf(0)).toContain(
      "FSx for ONTAP capacity-pool storage and requests are billed by usage: not estimated (volumes with tiering NONE keep their data on SSD)",
    );
  });

  test("node groups: scaling unknown or not set, desired size unknown, instance types unknown", () => {
    const ng = "aws:eks/nodeGroup:NodeGroup";
    const e = estimateHourly(
      [
        r(ng, "a", { scalingConfig: COMPUTED, instanceTypes: ["m5.xlarge"] }),
        r(ng, "b", { instanceTypes: ["m5.xlarge"] }),
        r(ng, "c", { scalingConfig: { desiredSize: COMPUTED }, instanceTypes: ["m5.xlarge"] }),
        r(ng, "d", { scalingConfig: { desiredSize: 2 }, instanceTypes: COMPUTED }),
        r(ng, "e", { scalingConfig: { desiredSize: 2 }, instanceTypes: [COMPUTED] }),
        r("eks:index:ManagedNodeGroup", "f", { scalingConfig: COMPUTED }),
      ],
      "us-east-1",
    );
    expect(e.lines).toEqual([]);
    expect(whats(e).filter((w) => !w.includes("node root volumes"))).toEqual([
      "a: node instances: scalingConfig.desiredSize unknown until deploy",
      "b: node instances: scalingConfig.desiredSize not set",
      "c: node instances: scalingConfig.desiredSize unknown until deploy",
      "d: node instance: instance type unknown until deploy",
      "e: node instance: instance type unknown until deploy",
      "f: node instances: scalingConfig.desiredSize unknown until deploy",
    ]);
    // an empty instanceTypes list is EKS's default, t3.medium
    expect(
      estimateHourly([r(ng, "g", { scalingConfig: { desiredSize: 1 }, instanceTypes: [] })], "us-east-1").lines.map((l) => l.what),
    ).toEqual(["t3.medium node instance (Linux, on-demand): 1 × $0.0416/hour"]);
  });

  test("a node group's launch template: unreadable mapping, unknown scaling, a template it does not depend on", () => {
    const lt = (name: string, inputs: Record<string, unknown>) => ({
      type: "aws:ec2/launchTemplate:LaunchTemplate",
      name,
      urn: `urn:pulumi:s::p::aws:ec2/launchTemplate:LaunchTemplate::${name}`,
      inputs,
    });
    const group = (name: string, template: string | undefined, inputs: Record<string, unknown>) => ({
      type: "aws:eks/nodeGroup:NodeGroup",
      name,
      urn: `urn:pulumi:s::p::aws:eks/nodeGroup:NodeGroup::${name}`,
      dependencies: template === undefined ? [] : [`urn:pulumi:s::p::aws:ec2/launchTemplate:LaunchTemplate::${template}`],
      inputs: { instanceTypes: ["m5.xlarge"], ...inputs },
    });
    const gp3 = { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: 20, volumeType: "gp3" } }] };
    const e = estimateHourly(
      [
        lt("empty", { blockDeviceMappings: [] }),
        lt("computed", { blockDeviceMappings: [COMPUTED] }),
        lt("noebs", { blockDeviceMappings: [{ deviceName: "/dev/xvda" }] }),
        lt("gp3", gp3),
        group("g1", "empty", { scalingConfig: { desiredSize: 1 } }),
        group("g2", "computed", { scalingConfig: { desiredSize: 1 } }),
        group("g3", "noebs", { scalingConfig: { desiredSize: 1 } }),
        group("g4", "gp3", { scalingConfig: COMPUTED }),
        group("g5", undefined, { scalingConfig: { desiredSize: 1 } }),
      ],
      "us-east-1",
    );
    expect(whats(e)).toEqual([
      "g1: node root volumes: launch template empty has no block device mapping the estimate can read",
      "g2: node root volumes: launch template computed has no block device mapping the estimate can read",
      "g3: node root volumes: launch template noebs has no block device mapping the estimate can read",
      "g4: node instances: scalingConfig.desiredSize unknown until deploy",
      "g5: node root volumes: their type and size come from the node group's AMI (no launch template in the plan)",
    ]);
    // g4's volumes: one per node, and the node count is unknown: no line, listed above with the nodes.
    expect(e.lines.filter((l) => l.name === "g4")).toEqual([]);
  });

  test("Elastic IPs: Amazon's pool is charged; a BYOIP pool and a pool unknown until deploy are not; a NAT gateway's connectivity unknown is not priced", () => {
    const eip = "aws:ec2/eip:Eip";
    const e = estimateHourly(
      [
        r(eip, "amazon", { publicIpv4Pool: "amazon" }),
        r(eip, "byoip", { publicIpv4Pool: "ipv4pool-ec2-0123456789abcdef0" }),
        r(eip, "computed", { publicIpv4Pool: COMPUTED }),
        r("aws:ec2/natGateway:NatGateway", "nat", { connectivityType: COMPUTED, allocationId: "eipalloc-1" }),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => `${l.name}: ${l.what}`)).toEqual(["amazon: Elastic IP (public IPv4 address): 1 × $0.005/IP-hour"]);
    expect(whats(e)).toEqual([
      "byoip: Elastic IP from pool ipv4pool-ec2-0123456789abcdef0 (BYOIP addresses are not charged the public IPv4 rate; not modelled)",
      "computed: Elastic IP: publicIpv4Pool unknown until deploy (a BYOIP pool is not charged the public IPv4 rate)",
      "nat: NAT gateway: connectivityType unknown until deploy",
    ]);
    expect(e.totalUsdPerHour).toBe(0.005);
  });

  test("an instance holding an associated Elastic IP is not charged a second address; one without the association is", () => {
    const inst = (name: string) => ({
      type: INSTANCE,
      name,
      urn: `urn:i::${name}`,
      inputs: { instanceType: "t3.micro", associatePublicIpAddress: true, rootBlockDevice: gp3Root(8) },
    });
    const e = estimateHourly(
      [
        inst("held"),
        inst("own"),
        { type: "aws:ec2/eipAssociation:EipAssociation", name: "assoc", urn: "urn:a", dependencies: ["urn:i::held"], inputs: {} },
      ],
      "us-east-1",
    );
    expect(e.lines.filter((l) => l.what.startsWith("public IPv4")).map((l) => l.name)).toEqual(["own"]);
    expect(e.notes).toContain("instance held: its public IPv4 address is the associated Elastic IP's (priced there)");
    expect(e.notes.some((n) => n.startsWith("instance own:"))).toBe(false);
  });

  test("VPC endpoints: the label of an endpoint type not set or unknown", () => {
    const e = estimateHourly(
      [r("aws:ec2/vpcEndpoint:VpcEndpoint", "a", {}), r("aws:ec2/vpcEndpoint:VpcEndpoint", "b", { vpcEndpointType: COMPUTED })],
      "us-east-1",
    );
    expect(whats(e)).toEqual([
      "a: Interface (the default) VPC endpoint: no sourced hourly price",
      "b: unknown-type VPC endpoint: no sourced hourly price",
    ]);
  });

  test("a KMS key without rotation has no rotation note; a pulumi-eks cluster skipping its default node group lists nothing", () => {
    const e = estimateHourly(
      [r("aws:kms/key:Key", "k", { enableKeyRotation: false }), r("eks:index:Cluster", "c", { skipDefaultNodeGroup: true })],
      "us-east-1",
    );
    expect(e.notes.some((n) => n.startsWith("KMS automatic key rotation"))).toBe(false);
    expect(e.unpriced).toEqual([]);
    expect(e.notes).toContain(
      "EKS clusters are priced at standard support; a Kubernetes version in extended support costs more ($0.60/hour): not modelled",
    );
  });

  test("claims that cannot be followed to an EBS volume cost nothing of their own", () => {
    const sc = {
      type: "kubernetes:storage.k8s.io/v1:StorageClass",
      name: "gp3",
      inputs: { metadata: { name: "gp3" }, provisioner: "ebs.csi.aws.com" },
    };
    const claim = (name: string, spec: unknown) => r("kubernetes:core/v1:PersistentVolumeClaim", name, { metadata: { name }, spec });
    const e = estimateHourly(
      [
        sc,
        { ...sc, name: "computed-meta", inputs: { metadata: COMPUTED, provisioner: "ebs.csi.aws.com" } },
        claim("a", COMPUTED),
        claim("b", { storageClassName: COMPUTED, resources: { requests: { storage: "1Gi" } } }),
        claim("c", { storageClassName: "other", resources: { requests: { storage: "1Gi" } } }),
        claim("d", { storageClassName: "gp3", resources: COMPUTED }),
        claim("e", { storageClassName: "gp3", resources: { requests: { storage: "2Gi" } } }),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => `${l.name}: ${l.what}`)).toEqual([
      "e: EBS volume of claim e (StorageClass gp3) gp3 storage: 2 × $0.08/GB-month",
    ]);
    expect(whats(e)).toEqual(["d: EBS volume of claim d (StorageClass gp3): size unknown until deploy"]);
    expect([storageGiB("1.5Gi"), storageGiB("1073741824"), storageGiB("1k"), storageGiB("1P"), storageGiB("1Pi"), storageGiB(5)]).toEqual([
      1.5,
      1,
      1e3 / 2 ** 30,
      1e15 / 2 ** 30,
      2 ** 20,
      undefined,
    ]);
  });

  test("renderEstimate: lines, not-priced parts and notes, in that order", () => {
    const e = estimateHourly([r(VOLUME, "v", { type: "gp3", size: 730, iops: COMPUTED })], "us-east-1");
    expect(renderEstimate(e).slice(0, 3)).toEqual([
      "estimated hourly cost: $0.0800/h ($58.40 over 730 h)",
      "  $0.0800/h  v  volume gp3 storage: 730 × $0.08/GB-month",
      "  not priced: v (aws:ebs/volume:Volume): volume: gp3 IOPS unknown until deploy",
    ]);
  });
});

describe("estimateHourly: how a planned value is read (absent, null, a placeholder, a wrong type)", () => {
  const whats = (e: ReturnType<typeof estimateHourly>) => e.unpriced.map((u) => `${u.name}: ${u.what}`);

  test("null is not set; a secret is unknown; a boolean is no number; a number is no type; text is no object", () => {
    const e = estimateHourly(
      [
        r(VOLUME, "nulls", { type: null, size: null }),
        r(VOLUME, "size-null", { type: "gp3", size: null }),
        r(VOLUME, "size-true", { type: "gp3", size: true }),
        r(VOLUME, "type-secret", { type: SECRET, size: 10 }),
        r(VOLUME, "type-computed", { type: COMPUTED, size: 10 }),
        r(INSTANCE, "type-number", { instanceType: 5, associatePublicIpAddress: false, rootBlockDevice: "gp3" }),
        r(INSTANCE, "type-secret", { instanceType: SECRET, associatePublicIpAddress: null, rootBlockDevice: null }),
      ],
      "us-east-1",
    );
    expect(e.lines).toEqual([]);
    expect(whats(e)).toEqual([
      "nulls: volume: volume type not set (the AMI's or AWS's default applies)",
      "size-null: volume: size not set (taken from the AMI or snapshot)",
      "size-true: volume: size unknown until deploy",
      "type-secret: volume: volume type unknown until deploy",
      "type-computed: volume: volume type unknown until deploy",
      "type-number: instance: instance type unknown until deploy",
      "type-number: root volume: unknown until deploy",
      "type-secret: instance: instance type unknown until deploy",
      "type-secret: root volume: size and type come from the AMI",
    ]);
    expect(e.notes).toContain(
      "instance type-secret: associatePublicIpAddress not set; a public IPv4 address from the subnet's default is not counted",
    );
  });

  test("a NAT gateway whose allocationId is null gets an AWS-assigned address", () => {
    const e = estimateHourly([r("aws:ec2/natGateway:NatGateway", "nat", { allocationId: null })], "us-east-1");
    expect(e.lines.map((l) => l.what)).toEqual(["NAT gateway: 1 × $0.045/hour", "public IPv4 address assigned by AWS: 1 × $0.005/IP-hour"]);
  });

  test("a KMS key with rotation: the rotation note", () => {
    expect(estimateHourly([r("aws:kms/key:Key", "k", { enableKeyRotation: true })], "us-east-1").notes).toContain(
      "KMS automatic key rotation adds $1/month per rotated key for the first two yearly rotations: not in an hourly estimate",
    );
  });

  test("an interface endpoint is named by its type", () => {
    expect(whats(estimateHourly([r("aws:ec2/vpcEndpoint:VpcEndpoint", "ecr", { vpcEndpointType: "Interface" })], "us-east-1"))).toEqual([
      "ecr: Interface VPC endpoint: no sourced hourly price",
    ]);
  });

  test("two prices whose source does not name the region, in one note", () => {
    const e = estimateHourly([r("aws:kms/key:Key", "k"), r("aws:secretsmanager/secret:Secret", "s")], "us-east-1");
    expect(e.notes.filter((n) => n.startsWith("prices whose source"))).toEqual([
      "prices whose source does not name the region (cross-checked, see lab/cost/prices.ts): KMS customer-managed key $1/key-month; Secrets Manager secret $0.4/secret-month",
    ]);
  });

  test("a node group's launch template is one it depends on, of the launch template type; a null mapping is unreadable", () => {
    const urn = (t: string, n: string) => `urn:pulumi:s::p::${t}::${n}`;
    const LT = "aws:ec2/launchTemplate:LaunchTemplate";
    const role = {
      type: "aws:iam/role:Role",
      name: "role",
      urn: urn("aws:iam/role:Role", "role"),
      inputs: { blockDeviceMappings: [{ ebs: { volumeType: "gp3", volumeSize: 99 } }] },
    };
    const lt = (name: string, blockDeviceMappings: unknown) => ({ type: LT, name, urn: urn(LT, name), inputs: { blockDeviceMappings } });
    const group = (name: string, dependencies?: string[]) => ({
      type: "aws:eks/nodeGroup:NodeGroup",
      name,
      ...(dependencies === undefined ? {} : { dependencies }),
      inputs: { instanceTypes: ["m5.xlarge"], scalingConfig: { desiredSize: 1 } },
    });
    const e = estimateHourly(
      [
        role,
        lt("other", [{ ebs: { volumeType: "gp3", volumeSize: 20 } }]),
        lt("nullmap", [null]),
        group("g1", [role.urn]),
        group("g2"),
        group("g3", [urn(LT, "nullmap")]),
      ],
      "us-east-1",
    );
    expect(whats(e)).toEqual([
      "g1: node root volumes: their type and size come from the node group's AMI (no launch template in the plan)",
      "g2: node root volumes: their type and size come from the node group's AMI (no launch template in the plan)",
      "g3: node root volumes: launch template nullmap has no block device mapping the estimate can read",
    ]);
  });

  test("claims: the StorageClass is the one of that name (not another resource so named), its type parameter read, gp3 when none", () => {
    const SC = "kubernetes:storage.k8s.io/v1:StorageClass";
    const PVC = "kubernetes:core/v1:PersistentVolumeClaim";
    const claim = (name: string, storageClassName: string | undefined) =>
      r(PVC, name, {
        metadata: { name },
        spec: { ...(storageClassName === undefined ? {} : { storageClassName }), resources: { requests: { storage: "10Gi" } } },
      });
    const e = estimateHourly(
      [
        claim("fast", "fast"), // a claim named like the class, before it
        r(SC, "nameless", { metadata: {}, provisioner: "ebs.csi.aws.com", parameters: {} }),
        r(SC, "nullmeta", { metadata: null, provisioner: "ebs.csi.aws.com" }),
        r(SC, "fast", { metadata: { name: "fast" }, provisioner: "ebs.csi.aws.com", parameters: { iops: "3000" } }),
        r(SC, "io2", { metadata: { name: "io2" }, provisioner: "ebs.csi.aws.com", parameters: { type: "io2" } }),
        claim("noclass", undefined),
        claim("on-io2", "io2"),
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => `${l.name}: ${l.what}`)).toEqual([
      "fast: EBS volume of claim fast (StorageClass fast) gp3 storage: 10 × $0.08/GB-month",
    ]);
    expect(whats(e)).toEqual([
      "on-io2: EBS volume of claim on-io2 (StorageClass io2): EBS io2 has no sourced price (only gp3 is in lab/cost/prices.ts)",
    ]);
    expect([storageGiB("1.25Gi"), storageGiB("x1Gi"), storageGiB("1Gix"), storageGiB("1.Gi")]).toEqual([
      1.25,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test("Elastic IP associations: only an association's dependencies hold an instance's address, and only an address it asked for", () => {
    const inst = (name: string, associatePublicIpAddress: boolean) => ({
      type: INSTANCE,
      name,
      urn: `urn:i::${name}`,
      inputs: { instanceType: "t3.micro", associatePublicIpAddress, rootBlockDevice: gp3Root(8) },
    });
    const e = estimateHourly(
      [
        inst("held", true),
        inst("private", false),
        inst("dependedOn", true),
        {
          type: "aws:ec2/eipAssociation:EipAssociation",
          name: "assoc",
          urn: "urn:a",
          dependencies: ["urn:i::held", "urn:i::private"],
          inputs: {},
        },
        { type: "aws:ec2/eipAssociation:EipAssociation", name: "bare", urn: "urn:b", inputs: {} },
        { type: "aws:ec2/volumeAttachment:VolumeAttachment", name: "att", urn: "urn:v", dependencies: ["urn:i::dependedOn"], inputs: {} },
      ],
      "us-east-1",
    );
    expect(e.lines.map((l) => `${l.name}: ${l.what}`)).toEqual([
      "held: t3.micro instance (Linux, on-demand): 1 × $0.0104/hour",
      "held: root volume gp3 storage: 8 × $0.08/GB-month",
      "private: t3.micro instance (Linux, on-demand): 1 × $0.0104/hour",
      "private: root volume gp3 storage: 8 × $0.08/GB-month",
      "dependedOn: t3.micro instance (Linux, on-demand): 1 × $0.0104/hour",
      "dependedOn: public IPv4 address: 1 × $0.005/IP-hour",
      "dependedOn: root volume gp3 storage: 8 × $0.08/GB-month",
    ]);
    expect(e.notes.filter((n) => n.startsWith("instance "))).toEqual([
      "instance held: its public IPv4 address is the associated Elastic IP's (priced there)",
    ]);
  });
});
