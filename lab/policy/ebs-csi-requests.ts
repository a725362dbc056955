/**
 * What the EBS CSI controller's role can and cannot do (components/eks/iam.ts
 * `ebsCsiControllerPolicy`), as requests an IAM policy simulator decides:
 * test/lab/policy/deploy-policy-simulate.test.ts evaluates every row against the policy of
 * {@link EBS_CSI_SCOPE} with `@cloud-copilot/iam-simulate` and fails when the simulator's decision
 * is not the row's; the same rows are a table of docs/security.md (`npm run docs`).
 *
 * The tags are the driver's (kubernetes-sigs/aws-ebs-csi-driver v1.57.1 with `--k8s-tag-cluster-id`):
 * `CSIVolumeName` / `CSIVolumeSnapshotName`, `ebs.csi.aws.com/cluster=true`,
 * `kubernetes.io/cluster/<cluster>=owned`; a node carries `kubernetes.io/cluster/<cluster>=owned`
 * from the lab's launch template.
 */
import { CLUSTER_OWNED, clusterTagKey, EBS_CSI_DRIVER_TAG, type EbsCsiScope } from "../../components/eks/iam";
import { ACCOUNT, type DeployRequest, REGION } from "./deploy-requests";

const CLUSTER = "lab-eks";
const OTHER_CLUSTER = "payments-eks";

/** The cluster the rows are about. */
export const EBS_CSI_SCOPE: EbsCsiScope = { partition: "aws", account: ACCOUNT, region: REGION, clusterName: CLUSTER };

const volume = (id: string, region = REGION) => `arn:aws:ec2:${region}:${ACCOUNT}:volume/${id}`;
const snapshot = (id: string) => `arn:aws:ec2:${REGION}::snapshot/${id}`;
const instance = (id: string) => `arn:aws:ec2:${REGION}:${ACCOUNT}:instance/${id}`;

/** What the driver tags a volume or snapshot of `cluster` with. */
const driverTags = (cluster: string) => ({ [EBS_CSI_DRIVER_TAG.key]: EBS_CSI_DRIVER_TAG.value, [clusterTagKey(cluster)]: CLUSTER_OWNED });
const OURS = driverTags(CLUSTER);
const THEIRS = driverTags(OTHER_CLUSTER);
const NEW_VOLUME = { CSIVolumeName: "pvc-0a1b", ...OURS };
const NEW_SNAPSHOT = { CSIVolumeSnapshotName: "snapcontent-0a1b", ...OURS };
const OUR_NODE = { [clusterTagKey(CLUSTER)]: CLUSTER_OWNED };

const row = (
  what: string,
  action: string,
  resource: string,
  expect: "allowed" | "denied",
  tags: Pick<DeployRequest, "resourceTags" | "requestTags" | "context"> = {},
): DeployRequest => ({ what, action, resource, ...tags, expect });

/** Its own work on its cluster's volumes, snapshots and nodes: allowed. */
const ALLOWED: readonly DeployRequest[] = [
  row("create a volume tagged as this cluster's", "ec2:CreateVolume", volume("*"), "allowed", { requestTags: NEW_VOLUME }),
  row("tag it in its CreateVolume call", "ec2:CreateTags", volume("*"), "allowed", {
    requestTags: NEW_VOLUME,
    context: { "ec2:CreateAction": "CreateVolume" },
  }),
  row("attach this cluster's volume", "ec2:AttachVolume", volume("vol-0a"), "allowed", { resourceTags: NEW_VOLUME }),
  row("to this cluster's node", "ec2:AttachVolume", instance("i-0a"), "allowed", { resourceTags: OUR_NODE }),
  row("detach this cluster's volume", "ec2:DetachVolume", volume("vol-0a"), "allowed", { resourceTags: NEW_VOLUME }),
  row("from this cluster's node", "ec2:DetachVolume", instance("i-0a"), "allowed", { resourceTags: OUR_NODE }),
  row("grow this cluster's volume", "ec2:ModifyVolume", volume("vol-0a"), "allowed", { resourceTags: NEW_VOLUME }),
  row("delete this cluster's volume", "ec2:DeleteVolume", volume("vol-0a"), "allowed", { resourceTags: NEW_VOLUME }),
  row("snapshot this cluster's volume", "ec2:CreateSnapshot", volume("vol-0a"), "allowed", { resourceTags: NEW_VOLUME }),
  row("the snapshot tagged as this cluster's", "ec2:CreateSnapshot", snapshot("*"), "allowed", { requestTags: NEW_SNAPSHOT }),
  row("tag it in its CreateSnapshot call", "ec2:CreateTags", snapshot("*"), "allowed", {
    requestTags: NEW_SNAPSHOT,
    context: { "ec2:CreateAction": "CreateSnapshot" },
  }),
  row("restore a volume from this cluster's snapshot", "ec2:CreateVolume", snapshot("snap-0a"), "allowed", { resourceTags: NEW_SNAPSHOT }),
  row("delete this cluster's snapshot", "ec2:DeleteSnapshot", snapshot("snap-0a"), "allowed", { resourceTags: NEW_SNAPSHOT }),
  row("describe volumes", "ec2:DescribeVolumes", "*", "allowed"),
];

/** Everything beyond its cluster: denied. */
const DENIED: readonly DeployRequest[] = [
  row("create a volume without the cluster tag", "ec2:CreateVolume", volume("*"), "denied", {
    requestTags: { CSIVolumeName: "pvc-0a1b", [EBS_CSI_DRIVER_TAG.key]: EBS_CSI_DRIVER_TAG.value },
  }),
  row("create a volume tagged as another cluster's", "ec2:CreateVolume", volume("*"), "denied", {
    requestTags: { CSIVolumeName: "pvc-0a1b", ...THEIRS },
  }),
  row("the driver's IOPS-limit probe (CSIVolumeName only; falls back to built-in limits)", "ec2:CreateVolume", volume("*"), "denied", {
    requestTags: { CSIVolumeName: "IopsLimitDryRun" },
  }),
  row("create a tagged volume in another region", "ec2:CreateVolume", volume("*", "us-east-1"), "denied", { requestTags: NEW_VOLUME }),
  row("attach an untagged volume", "ec2:AttachVolume", volume("vol-0other"), "denied"),
  row("attach another cluster's volume", "ec2:AttachVolume", volume("vol-0theirs"), "denied", { resourceTags: THEIRS }),
  row("attach to another cluster's node", "ec2:AttachVolume", instance("i-0theirs"), "denied", {
    resourceTags: { [clusterTagKey(OTHER_CLUSTER)]: CLUSTER_OWNED },
  }),
  row("attach to an untagged instance", "ec2:AttachVolume", instance("i-0other"), "denied"),
  row("detach another cluster's volume", "ec2:DetachVolume", volume("vol-0theirs"), "denied", { resourceTags: THEIRS }),
  row("modify an untagged volume", "ec2:ModifyVolume", volume("vol-0other"), "denied"),
  row("modify another cluster's volume", "ec2:ModifyVolume", volume("vol-0theirs"), "denied", { resourceTags: THEIRS }),
  row("delete another cluster's CSI volume", "ec2:DeleteVolume", volume("vol-0theirs"), "denied", { resourceTags: THEIRS }),
  row("delete a volume with the cluster tag but not the driver's (a node's)", "ec2:DeleteVolume", volume("vol-0root"), "denied", {
    resourceTags: OUR_NODE,
  }),
  row("snapshot an untagged volume", "ec2:CreateSnapshot", volume("vol-0other"), "denied"),
  row("snapshot another cluster's volume", "ec2:CreateSnapshot", volume("vol-0theirs"), "denied", { resourceTags: THEIRS }),
  row("delete another cluster's snapshot", "ec2:DeleteSnapshot", snapshot("snap-0theirs"), "denied", { resourceTags: THEIRS }),
  row("restore a volume from another cluster's snapshot", "ec2:CreateVolume", snapshot("snap-0theirs"), "denied", {
    resourceTags: THEIRS,
  }),
  row("tag an existing foreign volume into this cluster", "ec2:CreateTags", volume("vol-0other"), "denied", { requestTags: OURS }),
  row("tag an existing volume, claiming a create", "ec2:CreateTags", volume("vol-0other"), "denied", {
    requestTags: OURS,
    context: { "ec2:CreateAction": "ModifyVolume" },
  }),
  row("untag another cluster's volume", "ec2:DeleteTags", volume("vol-0theirs"), "denied", {
    resourceTags: THEIRS,
    context: { "aws:TagKeys": [clusterTagKey(OTHER_CLUSTER)] },
  }),
  row("clone a volume (CopyVolumes)", "ec2:CopyVolumes", volume("vol-0theirs"), "denied", { resourceTags: THEIRS }),
];

export const EBS_CSI_REQUESTS: readonly DeployRequest[] = [...ALLOWED, ...DENIED];
