/** The eks stack `fsx-eks-cluster` planned under the project's mocks from the shipped config, after the network. */
import * as path from "node:path";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { planAll } from "../../../lab/plan";
import { PlannedResource, StackPlan, StackSpec } from "../../../lab/plan/run";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { runStack } from "../../../stacks";
import { EKS_ADDON_VERSIONS } from "../../../components/versions";
import { TRIDENT_FSX_DESCRIBE_ACTIONS } from "../../../components/trident/iam";
import { ebsCsiControllerPolicy } from "../../../components/eks/iam";
import { ROOT } from "../../helpers/root";
import { ConfigError } from "../../../core/errors";
import { PlanError } from "../../../lab/plan/errors";
import { accessManifests } from "../../../components/lib/rbac";
import { utilizationGrant } from "../../../stacks/eks/utilization-access";

const shipped = (stack: string) => readStackConfigFile(path.join(ROOT, `Pulumi.${stack}.yaml`), stack);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

async function plan(extra: Record<string, string> = {}): Promise<{ p: StackPlan; net: StackPlan }> {
  const spec = shipped("fsx-eks-cluster");
  const withExtra: StackSpec = { ...spec, config: { ...spec.config, ...extra } };
  const results = await planAll([withExtra, shipped("network")], runStack);
  return { p: results.find((r) => r.spec.name === "fsx-eks-cluster")!.plan, net: results.find((r) => r.spec.name === "network")!.plan };
}
const ofType = (p: StackPlan, type: string): PlannedResource[] => p.resources.filter((r) => r.type === type);
const one = (p: StackPlan, type: string, name?: string): PlannedResource => {
  const found = ofType(p, type).filter((r) => name === undefined || r.name === name);
  if (found.length !== 1) throw new Error(`${found.length} ${type} ${name ?? ""}`);
  return found[0];
};

describe("stack fsx-eks-cluster (kind eks)", () => {
  let p: StackPlan;
  let net: StackPlan;
  beforeAll(async () => {
    ({ p, net } = await plan());
  });

  test("the cluster: API authentication, private endpoint, public only for the admin CIDRs, KMS secrets, all five log types, pinned 1.35", () => {
    const c = one(p, "eks:index:Cluster").inputs as Any;
    const key = one(p, "aws:kms/key:Key", "eks-secrets");
    expect(c).toMatchObject({
      name: "fsx-eks-cluster",
      version: "1.35",
      authenticationMode: "API",
      endpointPrivateAccess: true,
      endpointPublicAccess: true,
      publicAccessCidrs: ["198.51.100.7/32"],
      enabledClusterLogTypes: ["api", "audit", "authenticator", "controllerManager", "scheduler"],
      createOidcProvider: false,
      skipDefaultNodeGroup: true,
      skipDefaultSecurityGroups: true,
      bootstrapSelfManagedAddons: false,
      vpcId: net.outputs.vpcId,
      privateSubnetIds: net.outputs.privateSubnetIds,
    });
    expect(c.accessEntries).toEqual({});
    expect(c.encryptionConfigKeyArn).toMatch(/^arn:aws:kms:us-east-1:123456789012:key\//);
    expect(p.resources.find((r) => r.urn === one(p, "eks:index:Cluster").urn)!.dependencies).toContain(key.urn);
    expect(key.inputs).toMatchObject({ enableKeyRotation: true, deletionWindowInDays: 7 });
  });

  test("the control-plane log group exists first, with the configured retention, encrypted with its own key", () => {
    const lg = one(p, "aws:cloudwatch/logGroup:LogGroup");
    const key = one(p, "aws:kms/key:Key", "eks-logs");
    expect(lg.inputs).toMatchObject({ name: "/aws/eks/fsx-eks-cluster/cluster", retentionInDays: 30 });
    expect(lg.inputs.kmsKeyId).toMatch(/^arn:aws:kms:us-east-1:123456789012:key\//);
    expect(lg.dependencies).toContain(key.urn);
    expect(one(p, "eks:index:Cluster").dependencies).toContain(lg.urn);
    expect(key.inputs).toMatchObject({ enableKeyRotation: true, deletionWindowInDays: 7 });
    // CloudWatch Logs may use the key for exactly this group's ARN; the account administers it.
    expect(JSON.parse(key.inputs.policy as string).Statement).toEqual([
      {
        Sid: "AccountAdministersTheKey",
        Effect: "Allow",
        Principal: { AWS: "arn:aws:iam::123456789012:root" },
        Action: "kms:*",
        Resource: "*",
      },
      {
        Sid: "CloudWatchLogsEncryptsTheControlPlaneLogGroup",
        Effect: "Allow",
        Principal: { Service: "logs.us-east-1.amazonaws.com" },
        Action: ["kms:Encrypt*", "kms:Decrypt*", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:Describe*"],
        Resource: "*",
        Condition: {
          ArnLike: {
            "kms:EncryptionContext:aws:logs:arn": "arn:aws:logs:us-east-1:123456789012:log-group:/aws/eks/fsx-eks-cluster/cluster",
          },
        },
      },
    ]);
  });

  test("vpc-cni and kube-proxy pinned through pulumi-eks; coredns, Pod Identity agent, EBS CSI as pinned add-ons after the nodes", () => {
    const c = one(p, "eks:index:Cluster").inputs as Any;
    const pins = EKS_ADDON_VERSIONS["1.35"];
    // NetworkPolicy enforcement on (the lab's namespaces rely on their default-deny policies).
    expect(c.vpcCniOptions).toMatchObject({ addonVersion: pins["vpc-cni"], enableNetworkPolicy: true });
    expect(c.kubeProxyAddonOptions).toMatchObject({ version: pins["kube-proxy"] });
    expect(c.corednsAddonOptions).toMatchObject({ enabled: false });
    const nodes = one(p, "eks:index:ManagedNodeGroup");
    const addons = ofType(p, "aws:eks/addon:Addon").map((a) => [
      a.inputs.addonName,
      a.inputs.addonVersion,
      a.inputs.clusterName,
      a.dependencies.includes(nodes.urn),
    ]);
    expect(addons.sort()).toEqual([
      ["aws-ebs-csi-driver", pins["aws-ebs-csi-driver"], "fsx-eks-cluster", true],
      ["coredns", pins.coredns, "fsx-eks-cluster", true],
      ["eks-pod-identity-agent", pins["eks-pod-identity-agent"], "fsx-eks-cluster", true],
    ]);
    const ebs = one(p, "aws:eks/addon:Addon", "eks-aws-ebs-csi-driver");
    expect(ebs.inputs.podIdentityAssociations).toEqual([
      { roleArn: expect.stringMatching(/^arn:aws:iam/), serviceAccount: "ebs-csi-controller-sa" },
    ]);
    // Every role: the lab's IAM path; the cluster's service role is the lab's, passed to pulumi-eks.
    const roles = ofType(p, "aws:iam/role:Role");
    expect(roles.map((r) => [r.name, r.inputs.path])).toEqual(roles.map((r) => [r.name, "/storage-bench-lab/"]));
    expect(JSON.parse(one(p, "aws:iam/role:Role", "eks-service").inputs.assumeRolePolicy as string).Statement).toEqual([
      { Effect: "Allow", Principal: { Service: "eks.amazonaws.com" }, Action: "sts:AssumeRole" },
    ]);
    expect(JSON.parse(one(p, "aws:iam/role:Role", "eks-ebs-csi").inputs.assumeRolePolicy as string).Statement[0].Condition).toEqual({
      StringEquals: {
        "aws:RequestTag/eks-cluster-name": "fsx-eks-cluster",
        "aws:RequestTag/kubernetes-namespace": "kube-system",
        "aws:RequestTag/kubernetes-service-account": "ebs-csi-controller-sa",
      },
    });
    expect(
      ofType(p, "aws:iam/rolePolicyAttachment:RolePolicyAttachment")
        .map((a) => a.inputs.policyArn)
        .sort(),
    ).toEqual([
      "arn:aws:iam::123456789012:policy/storage-bench-lab/fsx-eks-cluster-ebs-csi",
      "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly",
      "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy",
      "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
      "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
    ]);
  });

  test("EBS CSI: the controller's own customer managed policy under the lab's path, of this cluster's tags in the stack's account and region; the add-on tags what it creates with the cluster", () => {
    const policy = one(p, "aws:iam/policy:Policy", "eks-ebs-csi");
    expect(policy.inputs).toMatchObject({ name: "fsx-eks-cluster-ebs-csi", path: "/storage-bench-lab/" });
    expect(JSON.parse(policy.inputs.policy as string)).toEqual(
      ebsCsiControllerPolicy({ partition: "aws", account: "123456789012", region: "us-east-1", clusterName: "fsx-eks-cluster" }),
    );
    const attachment = one(p, "aws:iam/rolePolicyAttachment:RolePolicyAttachment", "eks-ebs-csi");
    expect(attachment.inputs.policyArn).toBe("arn:aws:iam::123456789012:policy/storage-bench-lab/fsx-eks-cluster-ebs-csi");
    const ebs = one(p, "aws:eks/addon:Addon", "eks-aws-ebs-csi-driver");
    expect(JSON.parse(ebs.inputs.configurationValues as string)).toEqual({ controller: { k8sTagClusterId: "fsx-eks-cluster" } });
    // The add-on waits for the attachment (its pods call EC2 at start).
    expect(ebs.dependencies).toContain(attachment.urn);
  });

  test("one managed node group, AL2023, in the private subnets of both zones, 3 × m5.xlarge from a launch template", () => {
    const ng = one(p, "eks:index:ManagedNodeGroup").inputs as Any;
    const lt = one(p, "aws:ec2/launchTemplate:LaunchTemplate");
    const [privA, privB] = net.outputs.privateSubnetIds as string[];
    expect(ng).toMatchObject({
      amiType: "AL2023_x86_64_STANDARD",
      version: "1.35",
      instanceTypes: ["m5.xlarge"],
      scalingConfig: { desiredSize: 3, minSize: 3, maxSize: 3 },
      subnetIds: [privA, privB],
    });
    expect(ng.launchTemplate.id).toMatch(/^lt-/);
    // The single group keeps its names, its one label and no taint (the plan before node groups existed).
    expect([one(p, "eks:index:ManagedNodeGroup").name, lt.name]).toEqual(["eks-nodes", "eks-nodes"]);
    expect(ng.labels).toEqual({ "storage-bench-lab/role": "worker" });
    expect(ng.taints).toBeUndefined();
    expect(lt.inputs.tagSpecifications).toEqual([
      { resourceType: "instance", tags: { Name: "fsx-eks-cluster-node", "kubernetes.io/cluster/fsx-eks-cluster": "owned" } },
      { resourceType: "volume", tags: { Name: "fsx-eks-cluster-node-root" } },
    ]);
    expect(p.outputs.zones).toEqual(["us-east-1a", "us-east-1b"]);
    expect(net.outputs.azs).toEqual(p.outputs.zones);
    expect(lt.inputs.metadataOptions).toEqual({ httpEndpoint: "enabled", httpTokens: "required", httpPutResponseHopLimit: 1 });
    expect(lt.inputs.blockDeviceMappings).toEqual([
      { deviceName: "/dev/xvda", ebs: { volumeSize: 50, volumeType: "gp3", encrypted: "true", deleteOnTermination: "true" } },
    ]);
  });

  test("Trident: a Pod Identity role for trident/trident-controller of this cluster only, FSx's Describe calls, associated before the chart; then the readiness wait", () => {
    const role = one(p, "aws:iam/role:Role", "trident-controller");
    expect(JSON.parse(role.inputs.assumeRolePolicy as string).Statement[0]).toMatchObject({
      Principal: { Service: "pods.eks.amazonaws.com" },
      Action: ["sts:AssumeRole", "sts:TagSession"],
      Condition: {
        StringEquals: {
          "aws:RequestTag/eks-cluster-name": "fsx-eks-cluster",
          "aws:RequestTag/kubernetes-namespace": "trident",
          "aws:RequestTag/kubernetes-service-account": "trident-controller",
        },
      },
    });
    expect(role.inputs.name).toBe("fsx-eks-cluster-trident");
    expect(role.inputs.path).toBe("/storage-bench-lab/");
    expect(role.inputs.permissionsBoundary).toBeUndefined();
    const policy = JSON.parse(one(p, "aws:iam/rolePolicy:RolePolicy", "trident-fsx").inputs.policy as string);
    expect(policy.Statement).toEqual([
      { Sid: "TridentFsxDescribe", Effect: "Allow", Action: [...TRIDENT_FSX_DESCRIBE_ACTIONS], Resource: "*" },
    ]);
    const assoc = one(p, "aws:eks/podIdentityAssociation:PodIdentityAssociation");
    expect(assoc.inputs).toMatchObject({ clusterName: "fsx-eks-cluster", namespace: "trident", serviceAccount: "trident-controller" });
    const chart = one(p, "kubernetes:helm.sh/v4:Chart");
    expect(chart.inputs).toMatchObject({
      chart: "trident-operator",
      version: "100.2606.0",
      repositoryOpts: { repo: "https://netapp.github.io/trident-helm-chart" },
      namespace: "trident",
      values: { tridentSilenceAutosupport: true },
    });
    expect(chart.dependencies).toContain(assoc.urn);
    const ns = one(p, "kubernetes:core/v1:Namespace");
    expect((ns.inputs.metadata as Any).labels["pod-security.kubernetes.io/enforce"]).toBe("privileged");
    const wait = one(p, "command:local:Command", "trident-installed");
    expect(wait.dependencies).toContain(chart.urn);
    expect(wait.inputs.environment).toEqual({
      LAB_KUBECONFIG: "[secret]",
      ORCHESTRATOR: "trident",
      TRIDENT_NAMESPACE: "trident",
      WAIT_TIMEOUT_SECONDS: "1200",
    });
    expect(assoc.dependencies).toContain(one(p, "aws:iam/rolePolicy:RolePolicy", "trident-fsx").urn);
    // After the Pod Identity agent: Trident's pods get credentials only if the agent runs when they start.
    expect(assoc.dependencies).toContain(one(p, "aws:eks/addon:Addon", "eks-eks-pod-identity-agent").urn);
    expect(ofType(p, "aws:eks/addon:Addon").filter((a) => a.inputs.addonName === "netapp_trident-operator")).toEqual([]);
  });

  test("Trident's namespace: default deny, the operator's and the controller's flows (node subnets, the Service range's first address), before the chart", () => {
    const policies = ofType(p, "kubernetes:networking.k8s.io/v1:NetworkPolicy").filter((r) => r.name.startsWith("trident-policy-"));
    expect(policies.map((r) => r.name)).toEqual([
      "trident-policy-default-deny",
      "trident-policy-allow-dns",
      "trident-policy-trident-operator-egress",
      "trident-policy-trident-controller",
    ]);
    const chart = one(p, "kubernetes:helm.sh/v4:Chart");
    const ns = one(p, "kubernetes:core/v1:Namespace", "trident-ns");
    for (const pol of policies) {
      expect(() => new NetworkPolicy(pol.inputs as never).validate()).not.toThrow();
      expect((pol.inputs as Any).metadata.namespace).toBe("trident");
      expect(pol.dependencies).toContain(ns.urn);
      expect(chart.dependencies).toContain(pol.urn);
    }
    const subnets = (net.outputs.privateSubnetCidrs as string[]).map((cidr) => ({ ipBlock: { cidr } }));
    expect(subnets).toHaveLength(2);
    const controller = (policies[3].inputs as Any).spec;
    expect(controller.ingress).toEqual([{ from: subnets, ports: [{ protocol: "TCP", port: 8443 }] }]);
    expect(controller.egress[0]).toEqual({
      to: [{ ipBlock: { cidr: "172.20.0.1/32" } }, ...subnets],
      ports: [{ protocol: "TCP", port: 443 }],
    });
  });

  test("every AWS resource goes through the stack's provider (the lab's tags)", () => {
    const [provider] = ofType(p, "pulumi:providers:aws");
    for (const r of p.resources.filter((x) => x.type.startsWith("aws:"))) expect(r.provider?.startsWith(`${provider.urn}::`)).toBe(true);
  });

  test("outputs", () => {
    expect(p.outputs).toEqual({
      kubeconfig: "[secret]",
      clusterName: "fsx-eks-cluster",
      kubernetesVersion: "1.35",
      nodeSecurityGroupId: expect.stringMatching(/^sg-[0-9a-f]{17}$/),
      clusterSecurityGroupId: p.outputs.nodeSecurityGroupId,
      // EKS's range when none is given and the VPC is in 10.0.0.0/8 (the offline plan's answer).
      serviceIpv4Cidr: "172.20.0.0/16",
      zones: ["us-east-1a", "us-east-1b"],
      instanceType: "m5.xlarge",
      nodeGroups: [
        {
          name: "workers",
          instanceType: "m5.xlarge",
          nodeCount: 3,
          labels: { "storage-bench-lab/role": "worker" },
          taints: [],
          zones: ["us-east-1a", "us-east-1b"],
        },
      ],
      networkPolicyEnforced: true,
      tridentRoleName: "fsx-eks-cluster-trident",
      tridentInstall: "helm",
      tridentNodePrep: [],
      tridentVersion: "100.2606.0",
      images: { tools: expect.stringMatching(/@sha256:[0-9a-f]{64}$/) },
      utilizationAccess: { namespace: "kube-system", serviceAccount: "lab-utilization" },
      expiresAt: "2026-01-01T08:00:00Z",
    });
  });

  test("the utilization manifest's identity: ServiceAccount, ClusterRole and binding of stacks/eks/utilization-access.ts, through the cluster's provider", () => {
    const m = accessManifests(utilizationGrant);
    const [provider] = ofType(p, "pulumi:providers:kubernetes");
    expect(provider.name).toBe("eks");
    const sa = one(p, "kubernetes:core/v1:ServiceAccount", "utilization-sa");
    const role = one(p, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole", "utilization-clusterrole");
    const binding = one(p, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding", "utilization-clusterbinding");
    expect(sa.inputs).toEqual(m.serviceAccount);
    expect(role.inputs).toEqual(m.clusterRole);
    expect(binding.inputs).toEqual(m.clusterRoleBinding);
    for (const r of [sa, role, binding]) expect(r.provider?.startsWith(`${provider.urn}::`)).toBe(true);
    expect(binding.dependencies).toEqual(expect.arrayContaining([sa.urn, role.urn]));
    expect(ofType(p, "kubernetes:rbac.authorization.k8s.io/v1:Role")).toEqual([]);
  });

  test("lab:images [tools]: the tools image built beside the cluster (it waits for nothing of it), pushed to this stack's ECR repository, its reference exported", () => {
    const repo = one(p, "aws:ecr/repository:Repository", "tools-repo");
    expect(repo.inputs).toMatchObject({
      name: "storage-bench-lab/fsx-eks-cluster/bench-tools",
      imageTagMutability: "IMMUTABLE",
      imageScanningConfiguration: { scanOnPush: true },
      encryptionConfigurations: [{ encryptionType: "AES256" }],
      forceDelete: true,
    });
    const lc = JSON.parse(one(p, "aws:ecr/lifecyclePolicy:LifecyclePolicy", "tools-lifecycle").inputs.policy as string);
    expect(lc.rules.map((r: Any) => [r.rulePriority, r.selection.tagStatus])).toEqual([
      [1, "untagged"],
      [2, "any"],
    ]);
    const image = one(p, "docker-build:index:Image", "tools-image");
    expect(image.inputs).toMatchObject({
      push: true,
      platforms: ["linux/amd64"],
      buildOnPreview: false,
      context: { location: "components/bench/image" },
      dockerfile: { location: "components/bench/image/Dockerfile" },
    });
    const tags = image.inputs.tags as string[];
    expect(tags).toEqual([
      expect.stringMatching(
        /^123456789012\.dkr\.ecr\.us-east-1\.amazonaws\.com\/storage-bench-lab\/fsx-eks-cluster\/bench-tools:fio-3\.33-ioping-1\.3-[0-9a-f]{12}$/,
      ),
    ]);
    const ref = (p.outputs.images as Any).tools as string;
    expect(ref).toMatch(new RegExp(`^${tags[0].replace(/[.]/g, "\\.")}@sha256:[0-9a-f]{64}$`));
    // Beside the cluster: neither the repository nor the image waits for anything of the cluster's.
    const cluster = new Set(
      p.resources.filter((r) => /^(eks:|aws:eks\/|kubernetes:|lab:eks:|lab:trident:)/.test(r.type)).map((r) => r.urn),
    );
    for (const r of [repo, image]) expect(r.dependencies.filter((d) => cluster.has(d))).toEqual([]);
    expect(image.parent).toBe(one(p, "lab:image:ToolsImage", "tools").urn);
    const [provider] = ofType(p, "pulumi:providers:aws");
    expect(repo.provider?.startsWith(`${provider.urn}::`)).toBe(true);
  });

  test("no lab:images: nothing built, images exported empty", async () => {
    const { p: q } = await plan({ "lab:images": "[]" });
    for (const t of ["aws:ecr/repository:Repository", "docker-build:index:Image", "lab:image:ToolsImage", "lab:omb:OmbImage"])
      expect(ofType(q, t)).toEqual([]);
    expect(q.outputs.images).toEqual({});
  });

  test("no admin CIDRs: a private endpoint only; admin roles get cluster-admin access entries; the add-on instead of the chart", async () => {
    const { p: q } = await plan({
      "lab:adminCidrs": "[]",
      "lab:adminRoleArns": '["arn:aws:iam::123456789012:role/admins"]',
      "lab:tridentInstall": "addon",
      "lab:tridentAddonVersion": "v25.6.2-eksbuild.1",
    });
    const c = one(q, "eks:index:Cluster").inputs as Any;
    expect(c.endpointPublicAccess).toBe(false);
    expect(c.publicAccessCidrs).toBeUndefined();
    expect(c.accessEntries).toEqual({
      "admin-1": {
        principalArn: "arn:aws:iam::123456789012:role/admins",
        accessPolicies: {
          admin: { policyArn: "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy", accessScope: { type: "cluster" } },
        },
      },
    });
    const addon = ofType(q, "aws:eks/addon:Addon").find((a) => a.inputs.addonName === "netapp_trident-operator")!;
    expect(addon.inputs).toMatchObject({ addonVersion: "v25.6.2-eksbuild.1", clusterName: "fsx-eks-cluster" });
    expect(addon.dependencies).toContain(one(q, "aws:eks/podIdentityAssociation:PodIdentityAssociation").urn);
    expect(ofType(q, "kubernetes:helm.sh/v4:Chart")).toEqual([]);
    // The add-on's namespace and pods are EKS's: no NetworkPolicy of the lab's there (docs/security.md).
    expect(ofType(q, "kubernetes:networking.k8s.io/v1:NetworkPolicy")).toEqual([]);
    expect(q.outputs).toMatchObject({ tridentInstall: "addon", tridentVersion: "v25.6.2-eksbuild.1" });
  });

  test("an instance type EC2 does not offer in a zone of its group: refused before any resource, naming the key, the type and the zone", async () => {
    const kafka = shipped("kafka-cluster");
    // The brokers' group runs in zone 0 only (Pulumi.kafka-cluster.yaml), the system group in both.
    const offered = (type: string, zone: string) =>
      !(type === "i3en.2xlarge" && zone === "us-east-1a") && !(type === "m5.large" && zone === "us-east-1b");
    const asked: string[] = [];
    const results = planAll([kafka, shipped("network")], runStack, new Map(), {
      offered: (t, z) => {
        asked.push(`${t}@${z}`);
        return offered(t, z);
      },
    });
    const error = await results.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlanError);
    const cause = (error as PlanError).cause;
    expect(cause).toBeInstanceOf(ConfigError);
    expect([(error as PlanError).stack, (cause as ConfigError).problems]).toEqual([
      "kafka-cluster",
      [
        "'lab:nodeGroups[0].instanceType' must be an instance type EC2 offers in every zone the node group runs in (us-east-1a, us-east-1b); " +
          'DescribeInstanceTypeOfferings lists none in us-east-1b: choose another type, or another zone with nodeGroups[].zone, got "m5.large"',
        "'lab:nodeGroups[1].instanceType' must be an instance type EC2 offers in the zone the node group runs in (us-east-1a); " +
          'DescribeInstanceTypeOfferings lists none in us-east-1a: choose another type, or another zone with nodeGroups[].zone, got "i3en.2xlarge"',
      ],
    ]);
    // One call for every type of the stack's groups in every zone of the network.
    expect([...new Set(asked)].sort()).toEqual(
      ["c5n.2xlarge", "i3en.2xlarge", "m5.large"].flatMap((t) => ["us-east-1a", "us-east-1b"].map((z) => `${t}@${z}`)).sort(),
    );
  });

  test("a config error fails the plan with the config message", async () => {
    await expect(plan({ "lab:adminCidrs": '["0.0.0.0/0"]' })).rejects.toThrow(
      `'lab:adminCidrs[0]' must be an operator's own network, not the whole internet: the public API endpoint is opened to these CIDRs only, got "0.0.0.0/0"`,
    );
  });
});

describe("stack kafka-cluster (kind eks): three node groups, two of them dedicated, no Trident", () => {
  let p: StackPlan;
  let net: StackPlan;
  beforeAll(async () => {
    const results = await planAll([shipped("kafka-cluster"), shipped("network")], runStack);
    p = results.find((r) => r.spec.name === "kafka-cluster")!.plan;
    net = results.find((r) => r.spec.name === "network")!.plan;
  });

  test("system 3 × m5.large over both zones, brokers 3 × i3en.2xlarge and clients 4 × c5n.2xlarge in zone 0 only: labelled with their group, brokers and clients tainted", () => {
    const groups = ofType(p, "eks:index:ManagedNodeGroup").map((g) => {
      const i = g.inputs as Any;
      return [g.name, i.instanceTypes, i.scalingConfig.desiredSize, i.labels, i.taints ?? null, i.amiType, i.subnetIds];
    });
    const subnets = net.outputs.privateSubnetIds as string[];
    expect(groups).toEqual([
      [
        "eks-nodes-system",
        ["m5.large"],
        3,
        { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "system" },
        null,
        "AL2023_x86_64_STANDARD",
        subnets,
      ],
      [
        "eks-nodes-brokers",
        ["i3en.2xlarge"],
        3,
        { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "brokers" },
        [{ key: "storage-bench-lab/node-group", value: "brokers", effect: "NO_SCHEDULE" }],
        "AL2023_x86_64_STANDARD",
        [subnets[0]],
      ],
      [
        "eks-nodes-clients",
        ["c5n.2xlarge"],
        4,
        { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "clients" },
        [{ key: "storage-bench-lab/node-group", value: "clients", effect: "NO_SCHEDULE" }],
        "AL2023_x86_64_STANDARD",
        [subnets[0]],
      ],
    ]);
  });

  test("each group from its own launch template (IMDSv2, encrypted gp3 root), the add-ons after every group", () => {
    const lts = ofType(p, "aws:ec2/launchTemplate:LaunchTemplate");
    expect(lts.map((l) => l.name)).toEqual(["eks-nodes-system", "eks-nodes-brokers", "eks-nodes-clients"]);
    for (const lt of lts) {
      expect(lt.inputs.metadataOptions).toEqual({ httpEndpoint: "enabled", httpTokens: "required", httpPutResponseHopLimit: 1 });
      expect((lt.inputs.blockDeviceMappings as Any)[0].ebs).toEqual({
        volumeSize: 50,
        volumeType: "gp3",
        encrypted: "true",
        deleteOnTermination: "true",
      });
    }
    expect((one(p, "aws:ec2/launchTemplate:LaunchTemplate", "eks-nodes-brokers").inputs.tagSpecifications as Any)[0]).toEqual({
      resourceType: "instance",
      tags: { Name: "kafka-cluster-node-brokers", "kubernetes.io/cluster/kafka-cluster": "owned" },
    });
    const groups = ofType(p, "eks:index:ManagedNodeGroup").map((g) => g.urn);
    for (const a of ofType(p, "aws:eks/addon:Addon")) for (const g of groups) expect(a.dependencies).toContain(g);
  });

  test("lab:images [omb]: the OMB image from upstream's Dockerfile at the pinned commit, into this stack's ECR repository, its reference exported; no tools image", () => {
    const image = one(p, "docker-build:index:Image", "omb-image");
    expect(image.inputs).toMatchObject({
      push: true,
      platforms: ["linux/amd64"],
      buildOnPreview: false,
      context: { location: "https://github.com/openmessaging/benchmark.git#85599891321cafa2fb7065a63f009b4bb5374288" },
      dockerfile: {
        location:
          "https://raw.githubusercontent.com/openmessaging/benchmark/85599891321cafa2fb7065a63f009b4bb5374288/docker/Dockerfile.build",
      },
      tags: ["123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-lab/kafka-cluster/omb:omb-85599891321c"],
    });
    expect(one(p, "aws:ecr/repository:Repository", "omb-repo").inputs).toMatchObject({
      name: "storage-bench-lab/kafka-cluster/omb",
      imageTagMutability: "IMMUTABLE",
      forceDelete: true,
    });
    expect(p.outputs.images).toEqual({
      omb: expect.stringMatching(
        /^123456789012\.dkr\.ecr\.us-east-1\.amazonaws\.com\/storage-bench-lab\/kafka-cluster\/omb:omb-85599891321c@sha256:[0-9a-f]{64}$/,
      ),
    });
    expect(ofType(p, "lab:image:ToolsImage")).toEqual([]);
  });

  test("no Trident: no role, no chart; the Kubernetes provider serves the utilization identity only; outputs name every group", () => {
    expect(ofType(p, "kubernetes:helm.sh/v4:Chart")).toEqual([]);
    const [provider] = ofType(p, "pulumi:providers:kubernetes");
    expect(provider.name).toBe("eks");
    expect(p.resources.filter((r) => r.provider?.startsWith(`${provider.urn}::`)).map((r) => r.name)).toEqual([
      "utilization-sa",
      "utilization-clusterrole",
      "utilization-clusterbinding",
    ]);
    expect(ofType(p, "aws:eks/podIdentityAssociation:PodIdentityAssociation")).toEqual([]);
    expect(Object.keys(p.outputs).filter((k) => k.startsWith("trident"))).toEqual([]);
    expect(p.outputs.instanceType).toBe("m5.large");
    expect(p.outputs.nodeGroups).toEqual([
      {
        name: "system",
        instanceType: "m5.large",
        nodeCount: 3,
        labels: { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "system" },
        taints: [],
        zones: ["us-east-1a", "us-east-1b"],
      },
      {
        name: "brokers",
        instanceType: "i3en.2xlarge",
        nodeCount: 3,
        labels: { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "brokers" },
        taints: [{ key: "storage-bench-lab/node-group", value: "brokers", effect: "NoSchedule" }],
        zones: ["us-east-1a"],
      },
      {
        name: "clients",
        instanceType: "c5n.2xlarge",
        nodeCount: 4,
        labels: { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": "clients" },
        taints: [{ key: "storage-bench-lab/node-group", value: "clients", effect: "NoSchedule" }],
        zones: ["us-east-1a"],
      },
    ]);
  });
});

describe("the network's zones (EKS network requirements)", () => {
  test("a network over one zone is refused before any resource, naming lab:networkStack and the EKS rule", async () => {
    const net = shipped("network");
    const oneZone: StackSpec = { ...net, config: { ...net.config, "lab:azCount": "1" } };
    const error = await planAll([shipped("fsx-eks-cluster"), oneZone], runStack).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlanError);
    const cause = (error as PlanError).cause;
    expect([(error as PlanError).stack, (cause as ConfigError).problems]).toEqual([
      "fsx-eks-cluster",
      [
        `'lab:networkStack' must be a network stack over at least two zones: EKS needs its subnets in two Availability Zones (1 zone: us-east-1a), got "${shipped("fsx-eks-cluster").config["lab:networkStack"]}"`,
      ],
    ]);
  });
});
