/**
 * Which inputs of the AWS resource types the lab creates replace the resource (`replaces`) and which
 * are known to update in place (`updates`); any other changed input is unknown. Pure data.
 *
 * Source. The issue asked for pulumi-aws's schema (`willReplaceOnChanges`) at the pinned
 * @pulumi/aws 7.48.0. That schema marks no input of these types: the SDK generated from it
 * registers no `replaceOnChanges` anywhere (`grep -rl replaceOnChanges node_modules/@pulumi/aws`
 * finds nothing, while the same code generator emits it for @pulumi/command's `triggers`). The
 * bridged provider decides a replacement at `Diff` from the Terraform schema's `ForceNew` (or the
 * plugin framework's `RequiresReplace`) of hashicorp/terraform-provider-aws, which pulumi-aws
 * wraps. So each entry names the terraform-provider-aws file whose schema it was read in; names
 * are the Pulumi inputs (camelCase of the Terraform attributes).
 */

export const AWS_SOURCE = "hashicorp/terraform-provider-aws (bridged by pulumi-aws 7.48.0; ForceNew / RequiresReplace)";

export interface AwsTypeRule {
  readonly replaces: readonly string[];
  readonly updates: readonly string[];
  /** Inputs that replace only when a boolean input of the same resource is true (a CustomizeDiff ForceNewIf): path → that input. */
  readonly replacesWhen?: Readonly<Record<string, string>>;
  /** The file of hashicorp/terraform-provider-aws the schema was read in. */
  readonly source: string;
}

/**
 * Read in the version of each file the code index held (named by commit): older than the provider
 * version pulumi-aws 7.48.0 wraps for some. A ForceNew flag of these attributes has not changed in
 * the provider's history that we know of, but re-read them at the wrapped version when bumping.
 * Types the lab creates that are not listed are unknown: a change of any of their inputs is
 * reported as such, never as an update.
 */
const NODE_GROUP: AwsTypeRule = {
  // UpdateNodegroupVersion (launch template version, release version, Kubernetes version) and
  // UpdateNodegroupConfig (labels, scaling, taints, update config) change a node group in place.
  replaces: [
    "amiType",
    "capacityType",
    "clusterName",
    "diskSize",
    "instanceTypes",
    "launchTemplate.id",
    "launchTemplate.name",
    "nodeGroupName",
    "nodeGroupNamePrefix",
    "nodeRoleArn",
    "remoteAccess",
    "subnetIds",
  ],
  updates: [
    "labels",
    "scalingConfig",
    "taints",
    "updateConfig",
    "version",
    "releaseVersion",
    "launchTemplate.version",
    "forceUpdateVersion",
    "tags",
  ],
  source:
    "internal/service/eks/node_group.go @ 012e0a32f0686212f447447fd3d81c3d0ce256ad (aws_eks_node_group schema, resourceNodeGroupUpdate)",
};

export const AWS_RULES: Readonly<Record<string, AwsTypeRule>> = {
  "aws:ec2/instance:Instance": {
    // ForceNew: ami, associate_public_ip_address, availability_zone, ebs_optimized, key_name, private_ip,
    // placement_group, subnet_id, tenancy, security_groups, hibernation, host_id, cpu_options,
    // ebs_block_device, ephemeral_block_device, ipv6_*, launch_template, private_dns_name_options,
    // root_block_device.encrypted / kms_key_id. user_data replaces only with user_data_replace_on_change
    // (CustomizeDiff ForceNewIf); otherwise the provider stops the instance, changes it and starts it.
    replaces: [
      "ami",
      "associatePublicIpAddress",
      "availabilityZone",
      "ebsOptimized",
      "keyName",
      "privateIp",
      "placementGroup",
      "subnetId",
      "tenancy",
      "securityGroups",
      "hibernation",
      "hostId",
      "cpuOptions",
      "ebsBlockDevices",
      "ephemeralBlockDevices",
      "ipv6AddressCount",
      "ipv6Addresses",
      "launchTemplate",
      "privateDnsNameOptions",
      "rootBlockDevice.encrypted",
      "rootBlockDevice.kmsKeyId",
    ],
    // CustomizeDiff: `if diff.Get("user_data_replace_on_change").(bool) { diff.ForceNew("user_data") }` (and
    // user_data_base64): the lab's k0s instances set it, since cloud-init runs the user data once per instance.
    replacesWhen: { userData: "userDataReplaceOnChange", userDataBase64: "userDataReplaceOnChange" },
    updates: [
      "instanceType",
      "userData",
      // Not ForceNew (Optional bool): changing it changes only the state, the instance is left alone.
      "userDataReplaceOnChange",
      "monitoring",
      "metadataOptions",
      "rootBlockDevice.volumeSize",
      "rootBlockDevice.volumeType",
      "rootBlockDevice.iops",
      "rootBlockDevice.throughput",
      "rootBlockDevice.deleteOnTermination",
      "rootBlockDevice.tags",
      "sourceDestCheck",
      "vpcSecurityGroupIds",
      "iamInstanceProfile",
      "tags",
    ],
    source: "internal/service/ec2/ec2_instance.go @ 0015dfcd06d5d78e5e1c3cabe8cea837d379d1c7 (aws_instance schema)",
  },
  "aws:ebs/volume:Volume": {
    // ModifyVolume changes size, iops, throughput and type in place (a smaller size is refused by EC2 at apply).
    replaces: ["availabilityZone", "encrypted", "kmsKeyId", "multiAttachEnabled", "outpostArn", "snapshotId"],
    updates: ["size", "iops", "throughput", "type", "tags", "finalSnapshot"],
    source:
      "internal/service/ec2/ebs_volume.go @ 0073593e7d6993ba482409f4dc35438daaa79bb3 (aws_ebs_volume schema, resourceEBSVolumeUpdate)",
  },
  "aws:fsx/ontapFileSystem:OntapFileSystem": {
    // UpdateFileSystem changes throughput capacity, storage capacity, disk IOPS, backups, maintenance window, route tables.
    replaces: ["deploymentType", "endpointIpAddressRange", "kmsKeyId", "preferredSubnetId", "securityGroupIds", "storageType", "subnetIds"],
    updates: [
      "throughputCapacity",
      "storageCapacity",
      "diskIopsConfiguration",
      "automaticBackupRetentionDays",
      "dailyAutomaticBackupStartTime",
      "weeklyMaintenanceStartTime",
      "fsxAdminPassword",
      "routeTableIds",
      "tags",
    ],
    source:
      "internal/service/fsx/ontap_file_system.go @ 00c1681e469c619939e6634fba16bef9c30bce86 (aws_fsx_ontap_file_system schema, resourceOntapFileSystemUpdate)",
  },
  "aws:fsx/ontapVolume:OntapVolume": {
    // UpdateVolume changes size, junction path, security style, snapshot policy, storage efficiency, tiering and
    // SnapLock settings in place; the style and the aggregate layout of a FlexGroup are fixed at creation.
    replaces: [
      "name",
      "ontapVolumeType",
      "storageVirtualMachineId",
      "volumeStyle",
      "volumeType",
      "aggregateConfiguration.aggregates",
      "aggregateConfiguration.constituentsPerAggregate",
    ],
    updates: [
      "sizeInMegabytes",
      "sizeInBytes",
      "junctionPath",
      "securityStyle",
      "snapshotPolicy",
      "storageEfficiencyEnabled",
      "tieringPolicy",
      "copyTagsToBackups",
      "skipFinalBackup",
      "finalBackupTags",
      "tags",
    ],
    source:
      "internal/service/fsx/ontap_volume.go, the aws-sdk-go-v2 version the code index holds (aws_fsx_ontap_volume schema: volume_style and aggregate_configuration.{aggregates,constituents_per_aggregate} ForceNew; resourceONTAPVolumeUpdate)",
  },
  "aws:ec2/keyPair:KeyPair": {
    // Update is tags only. A new public key is a new key pair, and a new key pair's name reaches the
    // instances' key_name, which replaces them (aws_instance above).
    replaces: ["keyName", "keyNamePrefix", "publicKey"],
    updates: ["tags"],
    source:
      "internal/service/ec2/ec2_key_pair.go @ 05bc9541efe73ea58b95ad961676ed4aba3fb03f (aws_key_pair schema, resourceKeyPairUpdate: tags only)",
  },
  "aws:ec2/securityGroup:SecurityGroup": {
    // Inline rules are authorized and revoked in place; the lab writes its rules as separate resources.
    replaces: ["description", "name", "namePrefix", "vpcId"],
    updates: ["ingress", "egress", "tags", "revokeRulesOnDelete"],
    source:
      "internal/service/ec2/vpc_security_group.go @ 01606926a0c0ab9174aec440f976a48b0baee722 (aws_security_group schema, resourceSecurityGroupUpdate)",
  },
  "aws:eks/nodeGroup:NodeGroup": NODE_GROUP,
  // pulumi-eks' ManagedNodeGroup (a remote component) creates one aws.eks.NodeGroup from its arguments, passed
  // through under the same names (pulumi/pulumi-eks nodejs/eks/nodegroup.ts, createManagedNodeGroupInternal).
  "eks:index:ManagedNodeGroup": { ...NODE_GROUP, source: `${NODE_GROUP.source}, through pulumi-eks ManagedNodeGroup` },
};
