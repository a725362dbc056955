/**
 * Changes of the lab's code (not of a stack's config) that act on a live stack at its next `up`:
 * `lab plan --change` plans config changes only, so each is stated here, with its source, and
 * rendered at the end of docs/changing-a-live-stack.md (./table.ts). Pure data.
 */
export interface CodeChange {
  /** The stack kind it acts on. */
  readonly kind: string;
  /** What changed in the code. */
  readonly change: string;
  /** What the next `up` of a stack deployed before does. */
  readonly effect: string;
  /** Where the behaviour comes from. */
  readonly source: string;
}

export const CODE_CHANGES: readonly CodeChange[] = [
  {
    kind: "eks, ceph-k0s",
    change:
      "default-deny NetworkPolicies with each pod's flows in the `trident` namespace (Helm install: `trident-policy-*`, components/trident/network.ts) and the `rook-ceph` namespace (`rook-policy-*`, components/rook/network.ts)",
    effect:
      "creates the policies in the running cluster; the chart, the operators and the Ceph daemons are not restarted (a new dependency changes no input). From then on every flow the files do not list is dropped for new connections: Trident's controller metrics (8001), Ceph's manager metrics (9283) and exporter (9926), anything else reaching the Trident controller or the Ceph daemons. If a Ceph client of yours outside the namespace (a toolbox pod, a host tool) stops working, it was not one of the listed flows",
    source:
      "components/trident/network.ts (NetApp/trident v26.06.0 cli/k8s_client/yaml_factory.go), components/rook/network.ts (rook/rook v1.20.6 pkg/operator/ceph/cluster)",
  },
  {
    kind: "eks, ceph-k0s",
    change: "an entry of `lab:adminCidrs` wider than `lab:adminCidrMinPrefix` (default /24) is refused",
    effect:
      "a live stack whose `lab:adminCidrs` holds a wider range (a /16, say) fails its next `pulumi preview` or `up` with a config error naming the entry, before any change: narrow it, or set `lab:adminCidrMinPrefix` (8 to 32) to the width you mean; the shipped configs hold a /32",
    source: "components/lib/admin-cidrs.ts adminCidrWidthProblems",
  },
  {
    kind: "fsx-ontap (kafka-ontap)",
    change:
      "the shipped `Pulumi.kafka-ontap.yaml` makes the six volumes FlexGroups of 8 constituents on aggr1, as NetApp did (`lab:volumes[].style: FLEXGROUP`, `constituentsPerAggregate: 8`); volumes are replaced delete-first",
    effect:
      "replaces the six volumes of a live kafka-ontap stack (the style is fixed at creation): every broker's data on them is deleted, and the kafka stack's volumes then point at empty FlexGroups. Save the results (`lab results save --stack kafka`), destroy the kafka stack, update kafka-ontap, then bring kafka up again under a new `lab:runId`; or keep the FlexVols by setting `style: FLEXVOL` in your copy of the config (the method table then lists the difference)",
    source:
      "components/fsx-ontap/index.ts createVolumes; terraform-provider-aws internal/service/fsx/ontap_volume.go (volume_style, aggregate_configuration ForceNew); NetAppDocs/netapp-solutions 06ea8b2b data-analytics/kafka-nfs-performance-overview-and-validation-in-aws-FSxN.adoc (volume create … -aggr-list aggr1)",
  },
  {
    kind: "kafka",
    change:
      "the `netapp-4-topics-32kb` workload sends OMB's randomized payloads as NetApp's block does (`useRandomizedPayloads: true`, `randomBytesRatio: 0.5`, `randomizedPayloadPoolSize: 100`) instead of a 32 KiB file built from upstream's 1 KiB payload; the driver Jobs lose their `PAYLOAD_*` environment and their pod template carries the digest of the cell's driver and workload files (`storage-bench-lab/omb-files-sha256`: a later workload or duration change re-runs the cell, refused under the same run id); samples carry `ombPayload`; `lab:brokerConfig` keys are checked against Kafka's types and ranges (components/kafka/broker-settings.ts)",
    effect:
      "replaces the ConfigMap `omb-config` and the four driver Jobs with their collectors (a Job's pod template cannot change): the matrix runs again under the same run id and its samples replace the earlier ones (OMB's driver keeps no run stamp). Save the results first (`lab results save --stack kafka`) or set a new `lab:runId`. Earlier samples have no `ombPayload`: the report never pools them with new ones and shows NetApp's figures beside the new ones only. A live stack whose `lab:brokerConfig` holds a key the lab does not check, or a value outside Kafka's range (e.g. `log.segment.bytes` below 1 MiB, which Kafka 4 refuses), is refused before any change: fix the key first (the shipped config sets none)",
    source:
      "components/omb/files.ts workloadFile and workloadPayload; NetAppDocs/netapp-solutions 061dd533 data-analytics/kafka-nfs-performance-overview-and-validation-in-aws.adoc (the workload block); pulumi/pulumi-kubernetes diff.go force-new table (batch/v1 Job spec.template)",
  },
  {
    kind: "kafka",
    change:
      "the vsadmin Secret `kafka-storage/ontap-vsadmin` is no longer a resource of the stack (`kafka-storage-ontap-credentials`): the ontap Job's await creates it before it waits and deletes it when the wait ends (collect-job.sh `JOB_SECRET`)",
    effect:
      "deletes the Secret (the credentials leave the cluster); the ontap Job and its await stay as they are and do not run again (the await's changed environment is ignored until its Job is created again, which then brings the Secret for its own wait)",
    source:
      "components/kafka/index.ts prepareStorage; components/bench/scripts/collect-job.sh JOB_SECRET; the await's ignoreChanges (components/bench/index.ts COLLECT_IGNORED_INPUTS)",
  },
  {
    kind: "eks, kafka",
    change:
      "eks output `serviceIpv4Cidr` added (the cluster's Service range); the kafka kind reads it and its `kafka-egress` NetworkPolicy also allows TCP 443 to the `kubernetes` Service's address (its first address)",
    effect:
      "eks: a new output, no resource changes. kafka: the NetworkPolicy is updated in place (no broker restart); a kafka stack refuses an eks stack without the output (a config error naming `lab:eksStack`), so update the eks stack first",
    source:
      "components/kafka/network.ts (the VPC CNI judges egress on the Service address: aws/amazon-network-policy-controller-k8s pkg/resolvers/endpoints.go; Kubernetes docs, Extend Service IP Ranges)",
  },
  {
    kind: "eks",
    change:
      "the EBS CSI controller's role gets the lab's customer managed policy `<cluster>-ebs-csi` (its cluster's tagged volumes and snapshots, its cluster's nodes) instead of `AmazonEBSCSIDriverPolicy`; the add-on runs the controller with `--k8s-tag-cluster-id=<cluster>`; node instances are tagged `kubernetes.io/cluster/<cluster>=owned` by the launch template",
    effect:
      "creates the policy; replaces the role's RolePolicyAttachment (`policyArn` forces a new one: the new policy is attached before the AWS managed one is detached); updates the add-on in place (its configuration values); each launch template gets a new version, so every node group rolls its nodes once (EKS replaces them one by one, draining each: pods and their volumes move). Volumes and snapshots made before carry no `kubernetes.io/cluster/<cluster>` tag: the controller can no longer attach, resize, snapshot or delete them until an admin tags them (`aws ec2 create-tags --resources <id> --tags Key=kubernetes.io/cluster/<cluster>,Value=owned`), so tag them before the `up` or delete their claims first",
    source:
      "components/eks/iam.ts ebsCsiControllerPolicy; terraform-provider-aws internal/service/iam/role_policy_attachment.go (policy_arn ForceNew); kubernetes-sigs/aws-ebs-csi-driver v1.57.1 pkg/driver/controller.go:283-285 (the cluster tag only with --k8s-tag-cluster-id); EKS User Guide nodes/launch-templates.adoc (a new launch template version updates the node group)",
  },
  {
    kind: "eks",
    change: "no IAM OIDC provider (`createOidcProvider: false`); output `oidcProviderArn` dropped",
    effect:
      "deletes the cluster's `aws.iam.OpenIdConnectProvider` (`<cluster>-cluster-oidcProvider`); nothing else changes. Nothing in the lab assumed a role through it (IRSA): Trident and the EBS CSI driver use EKS Pod Identity, the VPC CNI the node role. The deploy policy keeps `iam:GetOpenIDConnectProvider` and `iam:DeleteOpenIDConnectProvider` for this deletion",
    source: "pulumi/pulumi-eks v4.3.0 nodejs/eks/cluster/cluster.ts: the provider is created only `if (args.createOidcProvider)`",
  },
  {
    kind: "fsx-eks",
    change: "output `mysqlRootPassword` dropped; the experiments' ServiceAccounts, Roles and ClusterRoles added",
    effect:
      "creates `lab-mysql-failover` (namespace mysql) and `lab-fsx-failover` (namespace bench) with their Roles, ClusterRoles and bindings; the output disappears (the password stays in the Secret `mysql-root`). `lab experiment` needs them: run it only after this `up`",
    source: "stacks/fsx-eks/experiment-access.ts",
  },
  {
    kind: "fsx-eks, ceph-k0s, kafka",
    change:
      "benchmark collectors read as their own ServiceAccount: a ServiceAccount, Role and RoleBinding `<run>-collect` per BenchmarkRun, `kafka-storage-prepare-collect` for the kafka storage Job, `omb-collect` for the OMB drivers; collect-job.sh uses the admin kubeconfig for `kubectl create token` only",
    effect:
      "creates the three objects per run in the Jobs' namespace; nothing is replaced and no collector runs again: a collector's inputs but its triggers are ignored, so one created before keeps its old script and environment and re-runs only when its Job is re-created. The next run id makes new collectors, which read with the token. A run id changed later updates the Role's `resourceNames` in place",
    source:
      "components/bench/access.ts, components/bench/collector-access.ts; pulumi/pulumi-kubernetes diff.go force-new table (no Role field)",
  },
  {
    kind: "fsx-eks",
    change:
      "MySQL account `lab_writer` (CREATE, INSERT, SELECT on `lab_failover`, REPLICATION CLIENT, REQUIRE SSL) for the failover writer, its password in the Secret `mysql-writer`; output `mysql.rootPasswordSecretRef` replaced by `mysql.writerPasswordSecretRef`",
    effect:
      "creates the RandomPassword and the Secret `mysql-writer`; replaces the ConfigMap `mysql` (new xtrabackup.sh: its data is a force-new field); updates the StatefulSet in place (the sidecar's new env), which restarts the pods one at a time from the highest ordinal to `mysql-0` (RollingUpdate), whose sidecar then creates `lab_writer` (replicated to the replicas). `lab experiment mysql-failover` needs the new output: run it only after this `up` (before, it stops at \"output 'mysql.writerPasswordSecretRef' is missing\")",
    source:
      'components/mysql/scripts/xtrabackup.sh; Kubernetes documentation, StatefulSets "Rolling Updates" (ordinal order, largest first)',
  },
  {
    kind: "eks",
    change:
      "the utilization manifest's ServiceAccount `kube-system/lab-utilization` with its ClusterRole (`list` on persistentvolumes, nodes, storageclasses, volumeattachments) and binding; output `utilizationAccess` added",
    effect:
      "creates the three objects (and, with `lab:trident: false`, the Kubernetes provider `eks`, which Trident's install already used); nothing is replaced. Until this `up`, `lab results save` and `lab run` do not list the cluster (the manifest notes \"the stack has no utilizationAccess output\"): the gp3 volumes PVCs created and the nodes' own CPU are not sampled. The cluster is never read with the admin kubeconfig",
    source: "stacks/eks/utilization-access.ts, lab/utilization/manifest.ts `listClusterAsReader`",
  },
];
