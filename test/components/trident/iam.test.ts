/** Trident's IAM policy documents (components/trident/iam.ts): NetApp's list, exact. */
import { TRIDENT_FSX_ACTIONS, tridentFsxPolicy, tridentSecretPolicy } from "../../../components/trident/iam";

describe("Trident IAM", () => {
  test("the FSx statement is NetApp's list, in NetApp's order, on NetApp's resource; no wildcard action", () => {
    expect(tridentFsxPolicy()).toEqual({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "TridentFsxApi",
          Effect: "Allow",
          Action: [
            "fsx:DescribeFileSystems",
            "fsx:DescribeVolumes",
            "fsx:CreateVolume",
            "fsx:RestoreVolumeFromSnapshot",
            "fsx:DescribeStorageVirtualMachines",
            "fsx:UntagResource",
            "fsx:UpdateVolume",
            "fsx:TagResource",
            "fsx:DeleteVolume",
          ],
          Resource: "*",
        },
      ],
    });
    for (const a of TRIDENT_FSX_ACTIONS) expect(a).not.toContain("*");
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
