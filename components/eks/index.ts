/**
 * `lab:eks:EksCluster`: an EKS cluster over the network's private subnets, as a storage lab needs it.
 *
 * - Authentication mode `API`; one cluster-admin access entry per `adminRoleArns` entry and none for
 *   the identity running `pulumi up` (pulumi-eks already grants the cluster creator admin through
 *   `bootstrapClusterCreatorAdminPermissions`; a second entry fails as a duplicate, pulumi/pulumi-eks#2373).
 * - Endpoint: private always; public only for `adminCidrs` (rules.ts refuses 0.0.0.0/0).
 * - Secrets encrypted with a customer-managed KMS key (rotation on); all five control-plane log
 *   types to `/aws/eks/<cluster>/cluster`, created here first with the configured retention (EKS
 *   would otherwise create it never-expiring) and encrypted with a key of its own (iam.ts).
 * - One managed node group (or one per `nodeGroups` entry: labelled with its name, a dedicated one
 *   tainted `storage-bench-lab/node-group=<name>:NoSchedule`) on AL2023 (`AL2023_x86_64_STANDARD`,
 *   explicit) in the private subnets of every zone, each from its launch template: IMDSv2 required,
 *   hop limit 1 (rules.ts says why), encrypted gp3 root volume. Nodes carry the cluster security group EKS creates (no security group in the
 *   template), so `nodeSecurityGroupId` is that group (pulumi-eks with `skipDefaultSecurityGroups`).
 * - EKS add-ons at pinned versions (components/versions.ts): vpc-cni and kube-proxy through
 *   pulumi-eks' own options (it creates them with the cluster), coredns, eks-pod-identity-agent and
 *   aws-ebs-csi-driver after the node group (their pods need nodes), the EBS CSI controller with its
 *   own Pod Identity role and customer managed policy, limited to the volumes and snapshots it tags
 *   as this cluster's and to this cluster's nodes (iam.ts `ebsCsiControllerPolicy`).
 *   `bootstrapSelfManagedAddons: false`: no unpinned self-managed copies.
 *
 * Tags come from the AWS provider's `defaultTags` (pass it in `opts`).
 */
import * as aws from "@pulumi/aws";
import * as eks from "@pulumi/eks";
import * as pulumi from "@pulumi/pulumi";
import { throwIfInvalid } from "../lib/args";
import { LAB_IAM_PATH, roleGuardrails } from "../lib/iam";
import {
  CLUSTER_ROLE_POLICY_ARN,
  clusterTrustPolicy,
  controlPlaneLogsKeyPolicy,
  EBS_CSI_NAMESPACE,
  EBS_CSI_SERVICE_ACCOUNT,
  ebsCsiAddonConfiguration,
  ebsCsiControllerPolicy,
  NODE_ROLE_POLICY_ARNS,
  nodeInstanceTags,
  nodeTrustPolicy,
  podIdentityTrustPolicy,
} from "./iam";
import {
  CLUSTER_ADMIN_POLICY_ARN,
  CONTROL_PLANE_LOG_TYPES,
  controlPlaneLogGroupName,
  DEDICATED_TAINT_EFFECT,
  EksClusterSpec,
  IMDS_HOP_LIMIT,
  NODE_AMI_TYPE,
  NODE_ROOT_DEVICE,
  nodeGroupSubnets,
  problems,
  resolve,
  type ResolvedEks,
  type ResolvedNodeGroup,
} from "./rules";

export interface EksClusterArgs extends EksClusterSpec {
  /** The network's VPC. */
  readonly vpcId: pulumi.Input<string>;
  /** Private subnets, one a zone (the control plane's ENIs and the nodes). */
  readonly privateSubnetIds: pulumi.Input<string[]>;
  /** The zones of `privateSubnetIds`, in order (exported as `zones`). */
  readonly zones: pulumi.Input<string[]>;
}

/** A node group as exported (`nodeGroups`): what a workload needs to select and tolerate its nodes. */
export interface EksNodeGroupOutput {
  readonly name: string;
  readonly instanceType: string;
  readonly nodeCount: number;
  readonly labels: Record<string, string>;
  readonly taints: Array<{ key: string; value: string; effect: "NoSchedule" }>;
  /** The zones its nodes run in (its `zone`, or every zone of the network). */
  readonly zones: string[];
}

/** The add-ons this component installs itself (vpc-cni and kube-proxy come with the cluster). */
export const NODE_ADDONS = ["coredns", "eks-pod-identity-agent", "aws-ebs-csi-driver"] as const;

/** Conflicts with a pre-existing copy are resolved in the add-on's favour (EKS CreateAddon/UpdateAddon). */
const OVERWRITE = { resolveConflictsOnCreate: "OVERWRITE", resolveConflictsOnUpdate: "OVERWRITE" } as const;

/** A `Name` tag `<cluster>-<role>`. */
type NameTag = (role: string) => { Name: string };

/**
 * The VPC CNI's network policy agent is on in every cluster the lab makes: the lab's namespaces
 * carry default-deny NetworkPolicies (components/lib/network-policy.ts). A difference from the
 * published testbeds, which enforced none: every Kafka sample records it (`networkPolicyEnforced`).
 */
export const NETWORK_POLICY_ENFORCED = true;

export class EksCluster extends pulumi.ComponentResource {
  readonly clusterName: pulumi.Output<string>;
  readonly kubernetesVersion: pulumi.Output<string>;
  /** Kubeconfig (JSON) for `aws eks get-token`; secret. */
  /**
   * What tells this cluster from another: the EKS cluster's ARN and creation time (a cluster
   * re-created under the same name has another). For the Kubernetes provider's
   * `clusterIdentifier`: should the kubeconfig be unknown at preview (the cluster replaced, or a
   * provider that plans its endpoint or CA anew), pulumi-kubernetes 4.34 replaces the provider and
   * every object in the cluster unless `clusterIdentifier` is set and unchanged
   * (provider/pkg/provider/provider.go DiffConfig). An in-place update (a new Kubernetes version)
   * keeps both known: terraform-provider-aws' eks cluster CustomizeDiff marks neither `arn` nor
   * `created_at` new-computed, and the SDKv2 plan fills unknowns on create only.
   */
  readonly clusterIdentifier: pulumi.Output<string>;
  readonly kubeconfig: pulumi.Output<string>;
  /** The security group of the nodes (the cluster security group EKS creates). */
  readonly nodeSecurityGroupId: pulumi.Output<string>;
  readonly clusterSecurityGroupId: pulumi.Output<string>;
  /**
   * The cluster's Service IPv4 range (EKS picks 10.100.0.0/16 or 172.20.0.0/16 when none is given):
   * the `kubernetes` Service, the API server's address inside the cluster, has its first address.
   */
  readonly serviceIpv4Cidr: pulumi.Output<string>;
  readonly zones: pulumi.Output<string[]>;
  /** The first node group's instance type (the only one's without `nodeGroups`). */
  readonly instanceType: pulumi.Output<string>;
  /** Every node group: name, instance type, node count, its nodes' labels and taints (Kubernetes' form). */
  readonly nodeGroups: pulumi.Output<EksNodeGroupOutput[]>;
  /** Whether the VPC CNI enforces NetworkPolicies ({@link NETWORK_POLICY_ENFORCED}): recorded in the benchmarks' samples. */
  readonly networkPolicyEnforced: pulumi.Output<boolean>;
  /** The cluster (pulumi-eks), for `dependsOn`. */
  readonly cluster: eks.Cluster;
  /** The add-ons installed after the nodes (the Pod Identity agent among them), for `dependsOn`. */
  readonly nodeAddons: aws.eks.Addon[];

  constructor(name: string, args: EksClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:eks:EksCluster", name, {}, opts);
    throwIfInvalid("lab:eks:EksCluster", name, problems(args));
    const r = resolve(args);
    const parent = { parent: this };
    const nameTag = (role: string) => ({ Name: `${r.clusterName}-${role}` });

    const secretsKey = new aws.kms.Key(
      `${name}-secrets`,
      {
        description: `EKS ${r.clusterName}: envelope encryption of Kubernetes secrets`,
        enableKeyRotation: true,
        deletionWindowInDays: 7,
        tags: nameTag("secrets"),
      },
      parent,
    );
    const logGroup = this.controlPlaneLogGroup(name, r, nameTag);

    // The cluster's service role, the lab's own (pulumi-eks would create one without the lab's path
    // and boundary: ClusterOptions.serviceRole, @pulumi/eks 4.3.0 cluster.d.ts).
    const serviceRole = new aws.iam.Role(
      `${name}-service`,
      {
        name: `${r.clusterName}-cluster`,
        ...roleGuardrails(args),
        assumeRolePolicy: JSON.stringify(clusterTrustPolicy()),
        tags: nameTag("cluster-role"),
      },
      parent,
    );
    const serviceRolePolicy = new aws.iam.RolePolicyAttachment(
      `${name}-service`,
      { role: serviceRole.name, policyArn: CLUSTER_ROLE_POLICY_ARN },
      parent,
    );

    const cluster = new eks.Cluster(
      `${name}-cluster`,
      {
        name: r.clusterName,
        serviceRole,
        version: r.kubernetesVersion,
        vpcId: args.vpcId,
        privateSubnetIds: args.privateSubnetIds,
        authenticationMode: eks.AuthenticationMode.Api,
        accessEntries: Object.fromEntries(
          r.adminRoleArns.map((principalArn, i) => [
            `admin-${i + 1}`,
            { principalArn, accessPolicies: { admin: { policyArn: CLUSTER_ADMIN_POLICY_ARN, accessScope: { type: "cluster" } } } },
          ]),
        ),
        endpointPrivateAccess: true,
        endpointPublicAccess: r.endpointPublicAccess,
        publicAccessCidrs: r.endpointPublicAccess ? [...r.adminCidrs] : undefined,
        encryptionConfigKeyArn: secretsKey.arn,
        enabledClusterLogTypes: [...CONTROL_PLANE_LOG_TYPES],
        // No IAM OIDC provider: nothing in the lab uses IAM roles for service accounts (IRSA). The
        // EBS CSI driver and Trident get their roles through EKS Pod Identity, the VPC CNI uses the
        // node role (NODE_ROLE_POLICY_ARNS). pulumi-eks 4.3.0 creates the provider only when this is
        // true (pulumi/pulumi-eks nodejs/eks/cluster/cluster.ts `if (args.createOidcProvider)`, an
        // aws.iam.OpenIdConnectProvider `<name>-oidcProvider`), so an eks stack deployed with it
        // deletes that provider on its next `up` (docs/changing-a-live-stack.md, "Code changes").
        createOidcProvider: false,
        skipDefaultNodeGroup: true,
        skipDefaultSecurityGroups: true,
        nodeAssociatePublicIpAddress: false,
        bootstrapSelfManagedAddons: false,
        // NetworkPolicy enforcement by the VPC CNI's network policy agent (Amazon EKS User Guide,
        // "Limit Pod traffic with Kubernetes network policies", cni-network-policy-configure.html:
        // the add-on's configuration value `enableNetworkPolicy: "true"`, VPC CNI 1.14 or later).
        // pulumi-eks 4.3.0 writes exactly that into the add-on's configurationValues
        // (pulumi/pulumi-eks nodejs/eks/addons/cni-addon.ts `mergeConfigurationValues`): an
        // in-place UpdateAddon of the vpc-cni add-on, no replacement. Pods no policy selects stay
        // unrestricted; the lab's namespaces carry default-deny policies (components/lib/network-policy.ts).
        vpcCniOptions: { addonVersion: r.addonVersions["vpc-cni"], enableNetworkPolicy: NETWORK_POLICY_ENFORCED },
        kubeProxyAddonOptions: { version: r.addonVersions["kube-proxy"] },
        corednsAddonOptions: { enabled: false },
        tags: nameTag("cluster"),
      },
      { parent: this, dependsOn: [logGroup, serviceRolePolicy] },
    );

    const nodeRole = new aws.iam.Role(
      `${name}-node`,
      {
        name: `${r.clusterName}-node`,
        ...roleGuardrails(args),
        assumeRolePolicy: JSON.stringify(nodeTrustPolicy()),
        tags: nameTag("node"),
      },
      parent,
    );
    const attachments = Object.entries(NODE_ROLE_POLICY_ARNS).map(
      ([role, policyArn]) => new aws.iam.RolePolicyAttachment(`${name}-node-${role}`, { role: nodeRole.name, policyArn }, parent),
    );

    // One launch template and managed node group per group; the single group of a cluster without
    // `nodeGroups` keeps the names `<name>-nodes` and tags `<cluster>-node(s)` (rules.ts `role`).
    const where = r.nodeGroups.map((g) =>
      pulumi.all([args.privateSubnetIds, args.zones]).apply(([ids, zones]) => nodeGroupSubnets(g, ids, zones)),
    );
    const nodeGroups = r.nodeGroups.map((g, gi) => this.nodeGroup(name, r, g, where[gi], cluster, nodeRole, attachments, nameTag));

    const addons = this.addons(name, args, r, nodeGroups, nameTag);

    this.cluster = cluster;
    this.nodeAddons = addons;
    this.clusterName = pulumi.output(r.clusterName);
    this.kubernetesVersion = pulumi.output(r.kubernetesVersion);
    this.kubeconfig = pulumi.secret(cluster.kubeconfigJson);
    this.clusterIdentifier = cluster.eksCluster.apply((c) => pulumi.interpolate`eks/${c.arn}/${c.createdAt}`);
    this.nodeSecurityGroupId = cluster.nodeSecurityGroupId;
    this.clusterSecurityGroupId = cluster.clusterSecurityGroupId;
    this.serviceIpv4Cidr = cluster.eksCluster.apply((c) => c.kubernetesNetworkConfig).apply((k) => k.serviceIpv4Cidr);
    this.zones = pulumi.output(args.zones);
    this.instanceType = pulumi.output(r.instanceType);
    this.nodeGroups = pulumi.all(where).apply((w) =>
      r.nodeGroups.map((g, gi) => ({
        name: g.name,
        instanceType: g.instanceType,
        nodeCount: g.nodeCount,
        labels: { ...g.labels },
        taints: g.taints.map((t) => ({ ...t })),
        zones: w[gi].zones,
      })),
    );
    this.networkPolicyEnforced = pulumi.output(NETWORK_POLICY_ENFORCED);
    this.registerOutputs({
      networkPolicyEnforced: this.networkPolicyEnforced,
      clusterName: this.clusterName,
      kubernetesVersion: this.kubernetesVersion,
      kubeconfig: this.kubeconfig,
      clusterIdentifier: this.clusterIdentifier,
      nodeSecurityGroupId: this.nodeSecurityGroupId,
      clusterSecurityGroupId: this.clusterSecurityGroupId,
      serviceIpv4Cidr: this.serviceIpv4Cidr,
      zones: this.zones,
      instanceType: this.instanceType,
      nodeGroups: this.nodeGroups,
    });
  }

  /**
   * The control-plane log group. Its logs are encrypted with a key of their own, whose policy lets
   * CloudWatch Logs use it for exactly this group (iam.ts `controlPlaneLogsKeyPolicy`); the key
   * exists before the group.
   */
  private controlPlaneLogGroup(name: string, r: ResolvedEks, nameTag: NameTag): aws.cloudwatch.LogGroup {
    const logGroupName = controlPlaneLogGroupName(r.clusterName);
    const parent = { parent: this };
    const account = aws.getCallerIdentityOutput({}, parent).accountId;
    const partition = aws.getPartitionOutput({}, parent).partition;
    const region = aws.getRegionOutput({}, parent).region;
    const logsKey = new aws.kms.Key(
      `${name}-logs`,
      {
        description: `EKS ${r.clusterName}: encryption of the control-plane log group ${logGroupName}`,
        enableKeyRotation: true,
        deletionWindowInDays: 7,
        policy: pulumi
          .all([partition, account, region])
          .apply(([part, acct, reg]) => JSON.stringify(controlPlaneLogsKeyPolicy(part, acct, reg, logGroupName))),
        tags: nameTag("logs"),
      },
      parent,
    );
    return new aws.cloudwatch.LogGroup(
      `${name}-control-plane`,
      { name: logGroupName, retentionInDays: r.logRetentionDays, kmsKeyId: logsKey.arn, tags: nameTag("control-plane") },
      parent,
    );
  }

  /** One node group: its launch template (IMDSv2 only, encrypted gp3 root volume) and its managed node group. */
  private nodeGroup(
    name: string,
    r: ResolvedEks,
    g: ResolvedNodeGroup,
    where: pulumi.Output<{ subnetIds: string[] }>,
    cluster: eks.Cluster,
    nodeRole: aws.iam.Role,
    attachments: aws.iam.RolePolicyAttachment[],
    nameTag: NameTag,
  ): eks.ManagedNodeGroup {
    const single = g.role === "nodes";
    const launchTemplate = new aws.ec2.LaunchTemplate(
      `${name}-${g.role}`,
      {
        description: single
          ? `EKS ${r.clusterName} nodes: IMDSv2 only, encrypted gp3 root volume`
          : `EKS ${r.clusterName} nodes of group ${g.name}: IMDSv2 only, encrypted gp3 root volume`,
        metadataOptions: { httpEndpoint: "enabled", httpTokens: "required", httpPutResponseHopLimit: IMDS_HOP_LIMIT },
        // One-minute EC2 metrics for the benchmark's utilization samples (lab util: CPUUtilization per node group).
        monitoring: { enabled: true },
        blockDeviceMappings: [
          {
            deviceName: NODE_ROOT_DEVICE,
            ebs: { volumeSize: g.rootVolumeGiB, volumeType: "gp3", encrypted: "true", deleteOnTermination: "true" },
          },
        ],
        tagSpecifications: [
          // The cluster tag: the EBS CSI controller attaches volumes only to instances that carry it (iam.ts nodeInstanceTags).
          { resourceType: "instance", tags: { ...nameTag(single ? "node" : `node-${g.name}`), ...nodeInstanceTags(r.clusterName) } },
          { resourceType: "volume", tags: nameTag(single ? "node-root" : `node-${g.name}-root`) },
        ],
        updateDefaultVersion: true,
        tags: nameTag(g.role),
      },
      { parent: this },
    );
    return new eks.ManagedNodeGroup(
      `${name}-${g.role}`,
      {
        cluster,
        nodeRole,
        subnetIds: where.subnetIds,
        amiType: NODE_AMI_TYPE,
        // With a launch template pulumi-eks does not default the version to the cluster's: say it.
        version: r.kubernetesVersion,
        instanceTypes: [g.instanceType],
        scalingConfig: { desiredSize: g.nodeCount, minSize: g.nodeCount, maxSize: g.nodeCount },
        launchTemplate: { id: launchTemplate.id, version: launchTemplate.latestVersion.apply((v) => `${v}`) },
        labels: { ...g.labels },
        ...(g.taints.length > 0
          ? { taints: g.taints.map((t) => ({ key: t.key, value: t.value, effect: DEDICATED_TAINT_EFFECT.eks })) }
          : {}),
        tags: nameTag(g.role),
      },
      { parent: this, dependsOn: attachments },
    );
  }

  /** The add-ons installed after the nodes: CoreDNS, the Pod Identity agent, the EBS CSI driver with its role. */
  private addons(
    name: string,
    args: EksClusterArgs,
    r: ResolvedEks,
    nodeGroups: eks.ManagedNodeGroup[],
    nameTag: NameTag,
  ): aws.eks.Addon[] {
    const parent = { parent: this };
    const addon = (addonName: string, extra: Partial<aws.eks.AddonArgs>, dependsOn: pulumi.Resource[]) =>
      new aws.eks.Addon(
        `${name}-${addonName}`,
        {
          clusterName: r.clusterName,
          addonName,
          addonVersion: r.addonVersions[addonName as keyof typeof r.addonVersions],
          ...OVERWRITE,
          ...extra,
          tags: nameTag(addonName),
        },
        { parent: this, dependsOn },
      );
    const coredns = addon("coredns", {}, nodeGroups);
    const podIdentityAgent = addon("eks-pod-identity-agent", {}, nodeGroups);
    const ebsCsiRole = new aws.iam.Role(
      `${name}-ebs-csi`,
      {
        name: `${r.clusterName}-ebs-csi`,
        ...roleGuardrails(args),
        assumeRolePolicy: JSON.stringify(
          podIdentityTrustPolicy({ clusterName: r.clusterName, namespace: EBS_CSI_NAMESPACE, serviceAccount: EBS_CSI_SERVICE_ACCOUNT }),
        ),
        tags: nameTag("ebs-csi"),
      },
      parent,
    );
    // A customer managed policy under the lab's path (the deploy policy attaches only the plan's).
    const scope = {
      partition: aws.getPartitionOutput({}, parent).partition,
      account: aws.getCallerIdentityOutput({}, parent).accountId,
      region: aws.getRegionOutput({}, parent).region,
    };
    const ebsCsiControllerPolicyDoc = pulumi
      .all([scope.partition, scope.account, scope.region])
      .apply(([partition, account, region]) =>
        JSON.stringify(ebsCsiControllerPolicy({ partition, account, region, clusterName: r.clusterName })),
      );
    const ebsCsiManagedPolicy = new aws.iam.Policy(
      `${name}-ebs-csi`,
      {
        name: `${r.clusterName}-ebs-csi`,
        path: LAB_IAM_PATH,
        description: `EKS ${r.clusterName}: the EBS CSI controller, on the volumes and snapshots tagged as this cluster's`,
        policy: ebsCsiControllerPolicyDoc,
        tags: nameTag("ebs-csi"),
      },
      parent,
    );
    const ebsCsiPolicy = new aws.iam.RolePolicyAttachment(
      `${name}-ebs-csi`,
      { role: ebsCsiRole.name, policyArn: ebsCsiManagedPolicy.arn },
      parent,
    );
    // --k8s-tag-cluster-id: the controller tags what it creates `kubernetes.io/cluster/<cluster>=owned` (iam.ts).
    const ebsCsi = addon(
      "aws-ebs-csi-driver",
      {
        podIdentityAssociations: [{ roleArn: ebsCsiRole.arn, serviceAccount: EBS_CSI_SERVICE_ACCOUNT }],
        configurationValues: JSON.stringify(ebsCsiAddonConfiguration(r.clusterName)),
      },
      [...nodeGroups, podIdentityAgent, ebsCsiPolicy],
    );
    return [coredns, podIdentityAgent, ebsCsi];
  }
}
