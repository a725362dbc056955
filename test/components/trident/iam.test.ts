/** Trident's IAM policy documents (components/trident/iam.ts): NetApp's list, exact. */
import {
  fsxResourceArns,
  TRIDENT_FSX_ACTIONS,
  TRIDENT_FSX_DESCRIBE_ACTIONS,
  TRIDENT_FSX_VOLUME_ACTIONS,
  tridentFsxPolicy,
  tridentFsxVolumePolicy,
  tridentSecretPolicy,
} from "../../../components/trident/iam";

const FS_ARN = "arn:aws:fsx:us-east-1:123456789012:file-system/fs-0123456789abcdef0";

describe("Trident IAM", () => {
  test("NetApp's list, in NetApp's order: the Describe actions and the volume-changing ones together; no wildcard action", () => {
    expect(TRIDENT_FSX_ACTIONS).toEqual([
      "fsx:DescribeFileSystems",
      "fsx:DescribeVolumes",
      "fsx:CreateVolume",
      "fsx:RestoreVolumeFromSnapshot",
      "fsx:DescribeStorageVirtualMachines",
      "fsx:UntagResource",
      "fsx:UpdateVolume",
      "fsx:TagResource",
      "fsx:DeleteVolume",
    ]);
    expect([...TRIDENT_FSX_DESCRIBE_ACTIONS, ...TRIDENT_FSX_VOLUME_ACTIONS].sort()).toEqual([...TRIDENT_FSX_ACTIONS].sort());
    for (const a of TRIDENT_FSX_ACTIONS) expect(a).not.toContain("*");
  });

  test("the eks stack's statement: only the Describe calls, on * (they take no resource type)", () => {
    expect(tridentFsxPolicy()).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "TridentFsxDescribe",
          Effect: "Allow",
          Action: ["fsx:DescribeFileSystems", "fsx:DescribeVolumes", "fsx:DescribeStorageVirtualMachines"],
          Resource: "*",
        },
      ],
    });
  });

  test("the fsx-eks stack's statement: create, change, tag, restore and delete the volumes of one file system, on its SVM", () => {
    expect(tridentFsxVolumePolicy(FS_ARN, "svm-0a1b2c3d4e5f67890")).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "TridentFsxVolumesOfOneFileSystem",
          Effect: "Allow",
          Action: ["fsx:CreateVolume", "fsx:RestoreVolumeFromSnapshot", "fsx:UntagResource", "fsx:UpdateVolume", "fsx:TagResource", "fsx:DeleteVolume"],
          Resource: [
            "arn:aws:fsx:us-east-1:123456789012:volume/fs-0123456789abcdef0/*",
            "arn:aws:fsx:us-east-1:123456789012:storage-virtual-machine/fs-0123456789abcdef0/svm-0a1b2c3d4e5f67890",
          ],
        },
      ],
    });
  });

  test("FSx resource ARNs in other partitions; anything else is refused", () => {
    expect(fsxResourceArns("arn:aws-us-gov:fsx:us-gov-west-1:123456789012:file-system/fs-01234567", "svm-1").volumes).toBe(
      "arn:aws-us-gov:fsx:us-gov-west-1:123456789012:volume/fs-01234567/*",
    );
    expect(() => fsxResourceArns("arn:aws:fsx:us-east-1:123456789012:volume/fs-01234567/fsvol-1", "svm-1")).toThrow(
      "not an FSx file system ARN: arn:aws:fsx:us-east-1:123456789012:volume/fs-01234567/fsvol-1",
    );
  });

  test("the secret statement: GetSecretValue on the one secret, Decrypt on its key through Secrets Manager only", () => {
    const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:fsx-vsadmin-AbCdEf";
    const key = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    expect(tridentSecretPolicy(arn, key, "us-east-1")).toEqual({
      Version: "2012-10-17",
      Statement: [
        { Sid: "ReadSvmCredentials", Effect: "Allow", Action: "secretsmanager:GetSecretValue", Resource: arn },
        {
          Sid: "DecryptSvmCredentials",
          Effect: "Allow",
          Action: "kms:Decrypt",
          Resource: key,
          Condition: { StringEquals: { "kms:ViaService": "secretsmanager.us-east-1.amazonaws.com" } },
        },
      ],
    });
  });
});
