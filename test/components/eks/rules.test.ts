/** The EKS cluster's rules and defaults (components/eks/rules.ts): exact values, exact messages. */
import { formatArgProblem } from "../../../core/errors";
import {
  DEDICATED_TAINT_EFFECT,
  instanceTypeOfferingProblems,
  NODE_GROUP_LABEL,
  CLUSTER_ADMIN_POLICY_ARN,
  CONTROL_PLANE_LOG_TYPES,
  controlPlaneLogGroupName,
  EKS_DEFAULTS,
  IMDS_HOP_LIMIT,
  NODE_AMI_TYPE,
  NODE_ROOT_DEVICE,
  nodeGroupSubnets,
  nodeGroupZoneProblems,
  problems,
  resolve,
} from "../../../components/eks/rules";
import { EKS_ADDON_VERSIONS, EKS_KUBERNETES_VERSION } from "../../../components/versions";
import { EKS_EXTRA_INSTANCE_TYPES, eksInstanceTypeInfo } from "../../../components/eks/instance-types";

const base = { clusterName: "fsx-eks-cluster" };
const lines = (spec: Parameters<typeof problems>[0]) => problems(spec).map((p) => formatArgProblem(p));

describe("EKS defaults and pins", () => {
  test("the defaults table, resolved; the public endpoint only with admin CIDRs", () => {
    expect(EKS_DEFAULTS).toEqual({
      kubernetesVersion: "1.35",
      adminCidrs: [],
      adminRoleArns: [],
      instanceType: "m5.xlarge",
      nodeCount: 3,
      nodeRootVolumeGiB: 50,
      logRetentionDays: 30,
    });
    expect(resolve(base)).toEqual({
      clusterName: "fsx-eks-cluster",
      kubernetesVersion: "1.35",
      adminCidrs: [],
      adminRoleArns: [],
      instanceType: "m5.xlarge",
      nodeCount: 3,
      nodeRootVolumeGiB: 50,
      logRetentionDays: 30,
      // Without nodeGroups: the one group, whose resources keep the names `<name>-nodes` (role "nodes").
      nodeGroups: [
        {
          name: "workers",
          instanceType: "m5.xlarge",
          nodeCount: 3,
          rootVolumeGiB: 50,
          labels: { "storage-bench-lab/role": "worker" },
          taints: [],
          role: "nodes",
        },
      ],
      addonVersions: EKS_ADDON_VERSIONS["1.35"],
      endpointPublicAccess: false,
    });
    expect(resolve({ ...base, adminCidrs: ["198.51.100.7/32"] }).endpointPublicAccess).toBe(true);
  });

  test("Kubernetes 1.35 with its add-on row (versions.ts), exact", () => {
    expect(EKS_KUBERNETES_VERSION).toBe("1.35");
    expect(EKS_ADDON_VERSIONS).toEqual({
      "1.35": {
        "vpc-cni": "v1.21.1-eksbuild.3",
        "kube-proxy": "v1.35.0-eksbuild.2",
        coredns: "v1.13.2-eksbuild.1",
        "eks-pod-identity-agent": "v1.3.10-eksbuild.3",
        "aws-ebs-csi-driver": "v1.57.1-eksbuild.1",
      },
    });
    // kube-proxy's minor follows the cluster's (EKS builds kube-proxy per Kubernetes version).
    for (const [k8s, row] of Object.entries(EKS_ADDON_VERSIONS)) expect(row["kube-proxy"].startsWith(`v${k8s}.`)).toBe(true);
  });

  test("service facts: the five log types, their log group, the admin policy, AL2023, /dev/xvda, hop limit 1", () => {
    expect(CONTROL_PLANE_LOG_TYPES).toEqual(["api", "audit", "authenticator", "controllerManager", "scheduler"]);
    expect(controlPlaneLogGroupName("fsx-eks-cluster")).toBe("/aws/eks/fsx-eks-cluster/cluster");
    expect(CLUSTER_ADMIN_POLICY_ARN).toBe("arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy");
    expect(NODE_AMI_TYPE).toBe("AL2023_x86_64_STANDARD");
    expect(NODE_ROOT_DEVICE).toBe("/dev/xvda");
    expect(IMDS_HOP_LIMIT).toBe(1);
  });
});

describe("EKS rules", () => {
  test("a valid spec has no problem", () => {
    expect(
      problems({
        ...base,
        kubernetesVersion: "1.35",
        adminCidrs: ["198.51.100.7/32", "203.0.113.0/24"],
        adminRoleArns: ["arn:aws:iam::123456789012:role/admins"],
        instanceType: "m5.2xlarge",
        nodeCount: 2,
        nodeRootVolumeGiB: 20,
        logRetentionDays: 7,
      }),
    ).toEqual([]);
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    [
      "0.0.0.0/0 is refused with its own reason",
      { adminCidrs: ["0.0.0.0/0"] },
      [
        `'adminCidrs[0]' must be an operator's own network, not the whole internet: the public API endpoint is opened to these CIDRs only, got "0.0.0.0/0"`,
      ],
    ],
    [
      "any other /0 too",
      { adminCidrs: ["198.51.100.7/32", "10.1.2.3/0"] },
      [
        `'adminCidrs[1]' must be an operator's own network, not the whole internet: the public API endpoint is opened to these CIDRs only, got "10.1.2.3/0"`,
      ],
    ],
    [
      "host bits set, prefix too short",
      { adminCidrs: ["198.51.100.7/24", "10.0.0.0/7"] },
      [
        `'adminCidrs[0]' must be an IPv4 network CIDR of the operators with a prefix from /8 to /32 (e.g. 198.51.100.7/32), got "198.51.100.7/24"`,
        `'adminCidrs[1]' must be an IPv4 network CIDR of the operators with a prefix from /8 to /32 (e.g. 198.51.100.7/32), got "10.0.0.0/7"`,
      ],
    ],
    [
      "duplicates",
      { adminCidrs: ["198.51.100.7/32", "198.51.100.7/32"] },
      [`'adminCidrs' must be a list without duplicates, got ["198.51.100.7/32","198.51.100.7/32"]`],
    ],
    [
      "not a list",
      { adminCidrs: "198.51.100.7/32" },
      [`'adminCidrs' must be a list of IPv4 CIDRs (e.g. ["198.51.100.7/32"]), got "198.51.100.7/32"`],
    ],
    [
      "role ARN",
      { adminRoleArns: ["arn:aws:iam::123456789012:user/alice"] },
      [`'adminRoleArns[0]' must be an IAM role ARN (arn:aws:iam::<account>:role/<name>), got "arn:aws:iam::123456789012:user/alice"`],
    ],
    [
      "cluster name characters and length",
      { clusterName: "fsx.eks" },
      [`'clusterName' must be an EKS cluster name of 1 to 56 letters, digits, '-' or '_', starting with a letter or digit, got "fsx.eks"`],
    ],
    [
      "57 characters is one too many (the IAM role names derived from it)",
      { clusterName: "c".repeat(57) },
      [
        `'clusterName' must be an EKS cluster name of 1 to 56 letters, digits, '-' or '_', starting with a letter or digit, got "${"c".repeat(57)}"`,
      ],
    ],
    [
      "a Kubernetes version without pinned add-ons",
      { kubernetesVersion: "1.36" },
      [`'kubernetesVersion' must be a Kubernetes version with pinned add-on versions in components/versions.ts (1.35), got "1.36"`],
    ],
    [
      "an arm64 or unknown instance type",
      { instanceType: "m7g.xlarge" },
      [
        `'instanceType' must be an x86_64 EC2 instance type listed in components/k0s/instance-types.ts or components/eks/instance-types.ts (e.g. m5.xlarge): the nodes run AL2023_x86_64_STANDARD, got "m7g.xlarge"`,
      ],
    ],
    ["one node cannot cover two zones", { nodeCount: 1 }, ["'nodeCount' must be an integer from 2 to 30 (nodes over both zones), got 1"]],
    [
      "root volume below the AMI's 20 GiB",
      { nodeRootVolumeGiB: 19 },
      ["'nodeRootVolumeGiB' must be a whole number of GiB from 20 to 65536 (gp3), got 19"],
    ],
    [
      "log retention",
      { logRetentionDays: 10 },
      [
        "'logRetentionDays' must be one of CloudWatch Logs' retention periods (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653), got 10",
      ],
    ],
  ])("%s", (_name, extra, expected) => {
    expect(lines({ ...base, ...extra } as Parameters<typeof problems>[0])).toEqual(expected);
  });

  test("every problem at once, in argument order", () => {
    expect(problems({ clusterName: "", nodeCount: 0, logRetentionDays: 2 }).map((p) => p.path)).toEqual([
      "clusterName",
      "nodeCount",
      "logRetentionDays",
    ]);
  });
});

/** The Kafka experiment's groups, as Pulumi.kafka-cluster.yaml ships them. */
const KAFKA_GROUPS = [
  { name: "system", instanceType: "m5.large", nodeCount: 3 },
  { name: "brokers", instanceType: "i3en.2xlarge", nodeCount: 3, dedicated: true },
  { name: "clients", instanceType: "c5n.2xlarge", nodeCount: 4, dedicated: true },
];

describe("EKS node groups", () => {
  test("each named group: its label, the role label, a dedicated one tainted with its name; its own role in resource names", () => {
    const r = resolve({
      ...base,
      nodeRootVolumeGiB: 60,
      nodeGroups: [...KAFKA_GROUPS.slice(0, 2), { ...KAFKA_GROUPS[2], rootVolumeGiB: 30, labels: { "example.com/tier": "load" } }],
    });
    expect(r.nodeGroups).toEqual([
      {
        name: "system",
        instanceType: "m5.large",
        nodeCount: 3,
        rootVolumeGiB: 60,
        labels: { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "system" },
        taints: [],
        role: "nodes-system",
      },
      {
        name: "brokers",
        instanceType: "i3en.2xlarge",
        nodeCount: 3,
        rootVolumeGiB: 60,
        labels: { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "brokers" },
        taints: [{ key: "storage-bench-lab/node-group", value: "brokers", effect: "NoSchedule" }],
        role: "nodes-brokers",
      },
      {
        name: "clients",
        instanceType: "c5n.2xlarge",
        nodeCount: 4,
        rootVolumeGiB: 30,
        labels: { "example.com/tier": "load", "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "clients" },
        taints: [{ key: "storage-bench-lab/node-group", value: "clients", effect: "NoSchedule" }],
        role: "nodes-clients",
      },
    ]);
    // The first group's type; the nodes of every group.
    expect([r.instanceType, r.nodeCount]).toEqual(["m5.large", 10]);
    expect(problems({ ...base, nodeGroups: KAFKA_GROUPS })).toEqual([]);
  });

  test("a group's zone: an index or a zone name, kept by resolve; its subnets the zone's one, every zone's without it", () => {
    const groups = [KAFKA_GROUPS[0], { ...KAFKA_GROUPS[1], zone: 1 }, { ...KAFKA_GROUPS[2], zone: "us-east-1a" }];
    expect(problems({ ...base, nodeGroups: groups })).toEqual([]);
    const r = resolve({ ...base, nodeGroups: groups });
    expect(r.nodeGroups.map((g) => g.zone)).toEqual([undefined, 1, "us-east-1a"]);
    expect("zone" in r.nodeGroups[0]).toBe(false);
    const ids = ["subnet-a", "subnet-b"];
    const zones = ["us-east-1a", "us-east-1b"];
    expect(r.nodeGroups.map((g) => nodeGroupSubnets(g, ids, zones))).toEqual([
      { subnetIds: ["subnet-a", "subnet-b"], zones: ["us-east-1a", "us-east-1b"] },
      { subnetIds: ["subnet-b"], zones: ["us-east-1b"] },
      { subnetIds: ["subnet-a"], zones: ["us-east-1a"] },
    ]);
    expect(() => nodeGroupSubnets({ name: "brokers", zone: "us-east-1c" }, ids, zones)).toThrow(
      new Error(
        `node group 'brokers': zone "us-east-1c" is not one of the network's zones us-east-1a, us-east-1b (by index 0–1 or by name)`,
      ),
    );
    expect(() => nodeGroupSubnets({ name: "brokers", zone: 1 }, ["subnet-a"], ["us-east-1a"])).toThrow(
      new Error("node group 'brokers': zone index 1 is not one of the network's zones us-east-1a (by index 0–0 or by name)"),
    );
    expect(() => nodeGroupSubnets({ name: "brokers" }, ids, ["us-east-1a"])).toThrow(
      new Error("the network stack lists 2 private subnets for 1 zones; they must pair up"),
    );
    // the same rules as problems, before any resource (the eks stack's upstream check): every group at once
    expect(nodeGroupZoneProblems(r.nodeGroups, ids, zones, "network")).toEqual([]);
    expect(
      nodeGroupZoneProblems(
        [{ name: "a" }, { name: "b", zone: "us-east-1c" }, { name: "c", zone: 2 }, { name: "d", zone: 1 }],
        ids,
        zones,
        "network",
      ).map((p) => formatArgProblem(p, (k) => `lab:${k}`)),
    ).toEqual([
      `'lab:nodeGroups[1].zone' must be one of the network's zones us-east-1a, us-east-1b (by index 0–1 or by name), got "us-east-1c"`,
      "'lab:nodeGroups[2].zone' must be one of the network's zones us-east-1a, us-east-1b (by index 0–1 or by name), got 2",
    ]);
    expect(
      nodeGroupZoneProblems([{ name: "a" }], ids, ["us-east-1a"], "net-old").map((p) => formatArgProblem(p, (k) => `lab:${k}`)),
    ).toEqual([
      `'lab:networkStack' must be a network stack whose private subnets pair up with its zones (it lists 2 private subnets for 1 zones), got "net-old"`,
    ]);
    expect(lines({ ...base, nodeGroups: [KAFKA_GROUPS[0], { ...KAFKA_GROUPS[1], zone: 2 }, { ...KAFKA_GROUPS[2], zone: "a" }] })).toEqual([
      "'nodeGroups[1].zone' must be 0 or 1 (index of the zone among the network's) or an availability zone name (e.g. us-east-1a), got 2",
      `'nodeGroups[2].zone' must be 0 or 1 (index of the zone among the network's) or an availability zone name (e.g. us-east-1a), got "a"`,
    ]);
  });

  test("the taint: the EKS API's NO_SCHEDULE, Kubernetes' NoSchedule; key and value within EKS' 63 characters", () => {
    expect(NODE_GROUP_LABEL).toBe("storage-bench-lab/node-group");
    expect(DEDICATED_TAINT_EFFECT).toEqual({ eks: "NO_SCHEDULE", kubernetes: "NoSchedule" });
    expect(NODE_GROUP_LABEL.length).toBeLessThanOrEqual(63);
  });

  test("c5n (the published OMB clients) is an EKS node type with AWS's vCPUs and memory; i3en.2xlarge comes from the k0s table", () => {
    expect(eksInstanceTypeInfo("c5n.2xlarge")).toEqual({
      family: "c5n",
      size: "2xlarge",
      hypervisor: "nitro",
      vcpus: 8,
      memoryGiB: 21,
      ebsOptimization: "default",
    });
    expect(Object.fromEntries(Object.entries(EKS_EXTRA_INSTANCE_TYPES).map(([t, i]) => [t, [i.vcpus, i.memoryGiB]]))).toEqual({
      "c5n.large": [2, 5.25],
      "c5n.xlarge": [4, 10.5],
      "c5n.2xlarge": [8, 21],
      "c5n.4xlarge": [16, 42],
      "c5n.9xlarge": [36, 96],
      "c5n.18xlarge": [72, 192],
      "c5n.metal": [72, 192],
    });
    expect(eksInstanceTypeInfo("i3en.2xlarge")).toMatchObject({ vcpus: 8, memoryGiB: 64, hypervisor: "nitro" });
    expect(eksInstanceTypeInfo("c5n.3xlarge")).toBeUndefined();
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    [
      "the single group's keys do not go with nodeGroups",
      { instanceType: "m5.xlarge", nodeCount: 3, nodeGroups: KAFKA_GROUPS },
      [
        "'instanceType' must be unset when 'nodeGroups' is given (each group has its own), got \"m5.xlarge\"",
        "'nodeCount' must be unset when 'nodeGroups' is given (each group has its own), got 3",
      ],
    ],
    [
      "an empty list",
      { nodeGroups: [] },
      [
        `'nodeGroups' must be a list of 1 to 5 node groups ({"name","instanceType","nodeCount"[,"rootVolumeGiB","labels","dedicated","zone"]}), got []`,
      ],
    ],
    [
      "every group dedicated: nowhere for the add-ons",
      { nodeGroups: KAFKA_GROUPS.slice(1) },
      [
        `'nodeGroups' must be a list with at least one group that is not dedicated: the EKS add-ons (CoreDNS, the EBS CSI controller) have no toleration for the lab's taint and run on the other groups, got ["brokers","clients"]`,
      ],
    ],
    [
      "each group's fields, its unknown keys, duplicate names, the lab's own labels",
      {
        nodeGroups: [
          { name: "system", instanceType: "m5.large", nodeCount: 3, az: "a" },
          { name: "system", instanceType: "m7g.large", nodeCount: 1, rootVolumeGiB: 10, dedicated: "yes" },
          { name: "Brokers", instanceType: "i3en.2xlarge", nodeCount: 3, labels: { "storage-bench-lab/node-group": "x" } },
          { name: "clients", instanceType: "c5n.2xlarge", nodeCount: 4, labels: { "bad key!": "v" } },
        ],
      },
      [
        `'nodeGroups[0]' must be a node group of the keys name, instanceType, nodeCount, rootVolumeGiB, labels, dedicated, zone (not az), got {"name":"system","instanceType":"m5.large","nodeCount":3,"az":"a"}`,
        `'nodeGroups[1].name' must be a name no other group has, got "system"`,
        `'nodeGroups[1].instanceType' must be an x86_64 EC2 instance type listed in components/k0s/instance-types.ts or components/eks/instance-types.ts (e.g. m5.xlarge): the nodes run AL2023_x86_64_STANDARD, got "m7g.large"`,
        "'nodeGroups[1].nodeCount' must be an integer from 2 to 30 (nodes over both zones), got 1",
        "'nodeGroups[1].rootVolumeGiB' must be a whole number of GiB from 20 to 65536 (gp3), got 10",
        `'nodeGroups[1].dedicated' must be true or false, got "yes"`,
        `'nodeGroups[2].name' must be a node group name of 1 to 20 lowercase letters, digits or '-', starting and ending with a letter or digit, got "Brokers"`,
        `'nodeGroups[2].labels' must be free of storage-bench-lab/node-group (the lab sets it), got {"storage-bench-lab/node-group":"x"}`,
        `'nodeGroups[3].labels' must be an object of Kubernetes labels ([prefix/]name keys, values of at most 63 letters, digits, '-', '_' or '.'), got {"bad key!":"v"}`,
      ],
    ],
    [
      "labels the kubelet may not give its own node (kubelet ValidateKubeletFlags): refused; its allowed ones and other prefixes pass",
      {
        nodeGroups: [
          {
            name: "system",
            instanceType: "m5.large",
            nodeCount: 2,
            labels: { "node-role.kubernetes.io/worker": "true", "app.kubernetes.io/name": "kafka", "team.k8s.io/x": "y" },
          },
          {
            name: "load",
            instanceType: "m5.large",
            nodeCount: 2,
            labels: { "node.kubernetes.io/pool": "load", "topology.kubernetes.io/zone": "us-east-1a", "example.com/kubernetes.io": "ok" },
          },
          { name: "eks", instanceType: "m5.large", nodeCount: 2, labels: { tier: "", [`storage.example.com/${"n".repeat(50)}`]: "x" } },
        ],
      },
      [
        `'nodeGroups[0].labels' must be free of kubernetes.io and k8s.io keys the kubelet may not set on its own node (allowed: under kubelet.kubernetes.io, node.kubernetes.io, or one of beta.kubernetes.io/arch, beta.kubernetes.io/instance-type, beta.kubernetes.io/os, failure-domain.beta.kubernetes.io/region, failure-domain.beta.kubernetes.io/zone, kubernetes.io/arch, kubernetes.io/hostname, kubernetes.io/os, node.kubernetes.io/instance-type, topology.kubernetes.io/region, topology.kubernetes.io/zone); set others with kubectl label after the node joined (not node-role.kubernetes.io/worker, app.kubernetes.io/name, team.k8s.io/x), got {"node-role.kubernetes.io/worker":"true","app.kubernetes.io/name":"kafka","team.k8s.io/x":"y"}`,
        `'nodeGroups[2].labels' must be labels the EKS API takes: keys of at most 63 characters with their prefix, values of 1 to 63 (not tier, storage.example.com/${"n".repeat(50)}), got {"tier":"","storage.example.com/${"n".repeat(50)}":"x"}`,
      ],
    ],
    [
      "a name too long for the Name tags",
      { nodeGroups: [{ name: "a".repeat(21), instanceType: "m5.large", nodeCount: 2 }] },
      [
        `'nodeGroups[0].name' must be a node group name of 1 to 20 lowercase letters, digits or '-', starting and ending with a letter or digit, got "${"a".repeat(21)}"`,
      ],
    ],
  ])("%s", (_name, extra, expected) => {
    expect(lines({ ...base, ...extra } as Parameters<typeof problems>[0])).toEqual(expected);
  });
});

describe("instanceTypeOfferingProblems (EC2 DescribeInstanceTypeOfferings by zone)", () => {
  const zones = ["us-east-1a", "us-east-1b"];
  const offerings = { instanceTypes: ["m5.xlarge", "m5.xlarge", "i3en.2xlarge"], locations: ["us-east-1a", "us-east-1b", "us-east-1b"] };
  test("a type offered in every zone of its group passes; one zone missing names the key, the type and the zone", () => {
    expect(instanceTypeOfferingProblems([{ name: "nodes", instanceType: "m5.xlarge" }], zones, offerings, false)).toEqual([]);
    expect(
      instanceTypeOfferingProblems(
        [
          { name: "system", instanceType: "m5.xlarge" },
          { name: "brokers", instanceType: "i3en.2xlarge", zone: 1 },
          { name: "clients", instanceType: "i3en.2xlarge", zone: "us-east-1a" },
        ],
        zones,
        offerings,
        true,
      ).map((p) => formatArgProblem(p, (k) => `lab:${k}`)),
    ).toEqual([
      "'lab:nodeGroups[2].instanceType' must be an instance type EC2 offers in the zone the node group runs in (us-east-1a); " +
        'DescribeInstanceTypeOfferings lists none in us-east-1a: choose another type, or another zone with nodeGroups[].zone, got "i3en.2xlarge"',
    ]);
  });
  test("the single group of lab:instanceType is named by that key", () => {
    expect(
      instanceTypeOfferingProblems([{ name: "nodes", instanceType: "i3en.2xlarge" }], zones, offerings, false).map((p) =>
        formatArgProblem(p, (k) => `lab:${k}`),
      ),
    ).toEqual([
      "'lab:instanceType' must be an instance type EC2 offers in every zone the node group runs in (us-east-1a, us-east-1b); " +
        'DescribeInstanceTypeOfferings lists none in us-east-1a: choose another type, or another zone with nodeGroups[].zone, got "i3en.2xlarge"',
    ]);
  });
});
