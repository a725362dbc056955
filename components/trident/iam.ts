/**
 * Trident's AWS permissions (pure policy documents; the components attach them to the role the
 * `trident-controller` service account assumes through EKS Pod Identity).
 *
 * Two halves, because the two stacks that own them deploy apart:
 * - {@link tridentFsxPolicy} (the `eks` stack, with the role and its Pod Identity association, so
 *   the association exists before Trident's pods start: EKS injects the credentials' environment
 *   only "when Amazon EKS starts a new pod that uses a service account with an EKS Pod Identity
 *   association", EKS User Guide, manage-access/aws-access/service-accounts.adoc): the Describe
 *   calls only;
 * - {@link tridentFsxVolumePolicy} and {@link tridentSecretPolicy} (the `fsx-eks` stack, which knows
 *   the file system, its SVM, the SVM's secret and its key): the volume-changing actions on that
 *   file system's volumes only, and its credentials.
 *
 * NetApp's list ("Create an IAM role and AWS Secret", docs.netapp.com/us-en/trident/trident-use/
 * trident-fsx-iam-role.html, policy `AmazonFSxNCSIDriverPolicy`): fsx:DescribeFileSystems,
 * fsx:DescribeVolumes, fsx:CreateVolume, fsx:RestoreVolumeFromSnapshot,
 * fsx:DescribeStorageVirtualMachines, fsx:UntagResource, fsx:UpdateVolume, fsx:TagResource,
 * fsx:DeleteVolume on `"Resource": "*"`, and secretsmanager:GetSecretValue on the secret. The lab
 * keeps NetApp's actions but not its `*` for the ones that change volumes: on `*` Trident could
 * delete every FSx volume of the account. No action is a wildcard. The secret statement names
 * the one secret; kms:Decrypt is allowed on that secret's key only, and only through Secrets
 * Manager in the stack's region (`kms:ViaService`, AWS KMS condition key).
 */
import type { PolicyDocument } from "../eks/iam";

/** NetApp's FSx actions for Trident, in NetApp's order (the union of the two statements below). */
export const TRIDENT_FSX_ACTIONS = [
  "fsx:DescribeFileSystems",
  "fsx:DescribeVolumes",
  "fsx:CreateVolume",
  "fsx:RestoreVolumeFromSnapshot",
  "fsx:DescribeStorageVirtualMachines",
  "fsx:UntagResource",
  "fsx:UpdateVolume",
  "fsx:TagResource",
  "fsx:DeleteVolume",
] as const;

/**
 * The Describe actions: the Service Authorization Reference ("Actions, resources, and condition keys
 * for Amazon FSx", docs.aws.amazon.com/service-authorization/latest/reference/list_amazonfsx.html)
 * lists no resource type for DescribeFileSystems, DescribeVolumes and
 * DescribeStorageVirtualMachines: they take `"Resource": "*"` only.
 */
export const TRIDENT_FSX_DESCRIBE_ACTIONS = [
  "fsx:DescribeFileSystems",
  "fsx:DescribeVolumes",
  "fsx:DescribeStorageVirtualMachines",
] as const;

/**
 * The actions that change volumes, each scoped to one file system (same reference): CreateVolume
 * (`volume*`, optional `storage-virtual-machine` and `snapshot`), UpdateVolume and DeleteVolume
 * (`volume*`), RestoreVolumeFromSnapshot (`volume*` and `snapshot*`: never granted a snapshot, see
 * {@link tridentFsxVolumePolicy}), TagResource and
 * UntagResource (any FSx resource type).
 */
export const TRIDENT_FSX_VOLUME_ACTIONS = TRIDENT_FSX_ACTIONS.filter(
  (a): a is Exclude<(typeof TRIDENT_FSX_ACTIONS)[number], (typeof TRIDENT_FSX_DESCRIBE_ACTIONS)[number]> =>
    !(TRIDENT_FSX_DESCRIBE_ACTIONS as readonly string[]).includes(a),
);

/**
 * What the `eks` stack grants Trident before any file system exists: the Describe calls only (on
 * `*`, the only resource they take). Trident can read, not change, FSx until the `fsx-eks` stack
 * adds {@link tridentFsxVolumePolicy} for its one file system.
 */
export function tridentFsxPolicy(): PolicyDocument {
  return {
    Version: "2012-10-17",
    Statement: [{ Sid: "TridentFsxDescribe", Effect: "Allow", Action: [...TRIDENT_FSX_DESCRIBE_ACTIONS], Resource: "*" }],
  };
}

/**
 * The ARNs of one FSx for ONTAP file system's resources (Service Authorization Reference, "Resource
 * types defined by Amazon FSx"): `file-system/${FileSystemId}`,
 * `storage-virtual-machine/${FileSystemId}/${StorageVirtualMachineId}`,
 * `volume/${FileSystemId}/${VolumeId}` and `snapshot/${VolumeId}/${SnapshotId}`.
 */
export function fsxResourceArns(fileSystemArn: string, svmId: string): { volumes: string; svm: string } {
  const m = /^arn:([a-z-]+):fsx:([a-z0-9-]+):(\d{12}):file-system\/(fs-[0-9a-f]+)$/.exec(fileSystemArn);
  if (!m) throw new Error(`not an FSx file system ARN: ${fileSystemArn}`);
  const [, partition, region, account, fileSystemId] = m;
  const base = `arn:${partition}:fsx:${region}:${account}`;
  return {
    volumes: `${base}:volume/${fileSystemId}/*`,
    svm: `${base}:storage-virtual-machine/${fileSystemId}/${svmId}`,
  };
}

/**
 * What the `fsx-eks` stack grants Trident on its one file system: creating, changing, tagging,
 * restoring and deleting that file system's volumes, on its SVM (NetApp's actions; Trident on FSx
 * needs no other file system's volumes).
 */
export function tridentFsxVolumePolicy(fileSystemArn: string, svmId: string): PolicyDocument {
  const arns = fsxResourceArns(fileSystemArn, svmId);
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "TridentFsxVolumesOfOneFileSystem",
        Effect: "Allow",
        Action: [...TRIDENT_FSX_VOLUME_ACTIONS],
        // No `snapshot/*`: an FSx snapshot resource exists only for FSx for OpenZFS (FSx API Reference,
        // API_CreateSnapshot.html and API_RestoreVolumeFromSnapshot.html: "an Amazon FSx for OpenZFS
        // volume"); Trident's snapshots of an ONTAP volume are ONTAP snapshots made through the
        // ONTAP API, not FSx resources. A snapshot's ARN names only its volume id, so `snapshot/*`
        // reached every file system's snapshots of the account.
        Resource: [arns.volumes, arns.svm],
      },
    ],
  };
}

/** Reading the SVM's credentials: that secret, and its KMS key through Secrets Manager only. */
export function tridentSecretPolicy(secretArn: string, kmsKeyArn: string, region: string): PolicyDocument {
  return {
    Version: "2012-10-17",
    Statement: [
      { Sid: "ReadSvmCredentials", Effect: "Allow", Action: "secretsmanager:GetSecretValue", Resource: secretArn },
      {
        Sid: "DecryptSvmCredentials",
        Effect: "Allow",
        Action: "kms:Decrypt",
        Resource: kmsKeyArn,
        Condition: { StringEquals: { "kms:ViaService": `secretsmanager.${region}.amazonaws.com` } },
      },
    ],
  };
}
