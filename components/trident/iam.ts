/**
 * Trident's AWS permissions (pure policy documents; the components attach them to the role the
 * `trident-controller` service account assumes through EKS Pod Identity).
 *
 * Two halves, because the two stacks that own them deploy apart:
 * - {@link tridentFsxPolicy} (the `eks` stack, with the role and its Pod Identity association, so
 *   the association exists before Trident's pods start: EKS injects the credentials' environment
 *   only "when Amazon EKS starts a new pod that uses a service account with an EKS Pod Identity
 *   association", EKS User Guide, manage-access/aws-access/service-accounts.adoc);
 * - {@link tridentSecretPolicy} (the `fsx-eks` stack, which knows the SVM's secret and its key).
 *
 * NetApp's list ("Create an IAM role and AWS Secret", docs.netapp.com/us-en/trident/trident-use/
 * trident-fsx-iam-role.html, policy `AmazonFSxNCSIDriverPolicy`): fsx:DescribeFileSystems,
 * fsx:DescribeVolumes, fsx:CreateVolume, fsx:RestoreVolumeFromSnapshot,
 * fsx:DescribeStorageVirtualMachines, fsx:UntagResource, fsx:UpdateVolume, fsx:TagResource,
 * fsx:DeleteVolume on `"Resource": "*"`, and secretsmanager:GetSecretValue on the secret. The FSx
 * statement keeps NetApp's `*` resource (the Describe actions take no resource ARN, and Trident
 * creates volumes whose ARNs do not exist yet); no action is a wildcard. The secret statement names
 * the one secret; kms:Decrypt is allowed on that secret's key only, and only through Secrets
 * Manager in the stack's region (`kms:ViaService`, AWS KMS condition key).
 */
import type { PolicyDocument } from "../eks/iam";

/** NetApp's FSx actions for Trident, in NetApp's order. */
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

/** Trident's FSx API permissions (NetApp's list, NetApp's resource). */
export function tridentFsxPolicy(): PolicyDocument {
  return {
    Version: "2012-10-17",
    Statement: [{ Sid: "TridentFsxApi", Effect: "Allow", Action: [...TRIDENT_FSX_ACTIONS], Resource: "*" }],
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
