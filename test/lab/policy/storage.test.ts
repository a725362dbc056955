import { TYPES as T } from "../../../lab/resource-types";
import { STORAGE_RULES } from "../../../lab/policy/storage";
import { COMPUTED } from "../../../lab/policy/rule";
import { Case, testRules } from "./cases";

const CASES: readonly Case[] = [
  // ebs-encrypted
  { rule: "ebs-encrypted", title: "encrypted volume", type: T.ebsVolume, inputs: { encrypted: true, type: "gp3" }, want: [] },
  {
    rule: "ebs-encrypted",
    title: "volume without encrypted",
    type: T.ebsVolume,
    inputs: { size: 100 },
    want: ["encrypted must be true, got nothing"],
  },
  {
    rule: "ebs-encrypted",
    title: "unencrypted volume",
    type: T.ebsVolume,
    inputs: { encrypted: false },
    want: ["encrypted must be true, got false"],
  },
  {
    rule: "ebs-encrypted",
    title: "encryption unknown until deploy fails",
    type: T.ebsVolume,
    inputs: { encrypted: COMPUTED },
    want: ["encrypted must be true, got <computed>"],
  },
  {
    rule: "ebs-encrypted",
    title: "instance with encrypted root and attached volumes",
    type: T.instance,
    inputs: { rootBlockDevice: { encrypted: true }, ebsBlockDevices: [{ deviceName: "/dev/sdf", encrypted: true }] },
    want: [],
  },
  {
    rule: "ebs-encrypted",
    title: "instance from a launch template without a root device of its own",
    type: T.instance,
    inputs: { launchTemplate: { id: "lt-1" } },
    want: [],
  },
  {
    rule: "ebs-encrypted",
    title: "instance with unencrypted root and attached volumes",
    type: T.instance,
    inputs: { rootBlockDevice: { volumeSize: 8 }, ebsBlockDevices: [{ deviceName: "/dev/sdf" }, { encrypted: false }] },
    want: [
      "rootBlockDevice.encrypted must be true, got nothing",
      "ebsBlockDevices[/dev/sdf].encrypted must be true, got nothing",
      "ebsBlockDevices[1].encrypted must be true, got false",
    ],
  },
  {
    rule: "ebs-encrypted",
    title: "instance without rootBlockDevice",
    type: T.instance,
    inputs: {},
    want: ["rootBlockDevice.encrypted must be true, got nothing"],
  },
  {
    rule: "ebs-encrypted",
    title: "launch template encrypting its root volume (instance store mappings ignored)",
    type: T.launchTemplate,
    inputs: {
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", ebs: { encrypted: "true", volumeType: "gp3" } },
        { deviceName: "/dev/sdb", virtualName: "ephemeral0" },
      ],
    },
    want: [],
  },
  {
    rule: "ebs-encrypted",
    title: "launch template without block device mappings",
    type: T.launchTemplate,
    inputs: { metadataOptions: { httpTokens: "required" } },
    want: ['blockDeviceMappings must map the root volume with ebs.encrypted "true", got nothing'],
  },
  {
    rule: "ebs-encrypted",
    title: "launch template with an unencrypted mapping",
    type: T.launchTemplate,
    inputs: {
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", ebs: { volumeSize: 8 } },
        { deviceName: "/dev/sdf", ebs: { encrypted: "false" } },
      ],
    },
    want: [
      'blockDeviceMappings[/dev/xvda].ebs.encrypted must be "true", got nothing',
      'blockDeviceMappings[/dev/sdf].ebs.encrypted must be "true", got "false"',
    ],
  },

  // ebs-no-gp2
  { rule: "ebs-no-gp2", title: "gp3 volume", type: T.ebsVolume, inputs: { type: "gp3" }, want: [] },
  { rule: "ebs-no-gp2", title: "volume type unknown until deploy is not judged", type: T.ebsVolume, inputs: { type: COMPUTED }, want: [] },
  { rule: "ebs-no-gp2", title: "gp2 volume", type: T.ebsVolume, inputs: { type: "gp2" }, want: ['type is "gp2": use "gp3"'] },
  {
    rule: "ebs-no-gp2",
    title: "volume without type",
    type: T.ebsVolume,
    inputs: { size: 10 },
    want: ['type is not set (AWS creates gp2): set "gp3"'],
  },
  {
    rule: "ebs-no-gp2",
    title: "instance with gp2 volumes",
    type: T.instance,
    inputs: {
      rootBlockDevice: { volumeType: "gp2" },
      ebsBlockDevices: [{ deviceName: "/dev/sdf", volumeType: "gp2" }, { volumeType: "gp3" }],
    },
    want: ['rootBlockDevice.volumeType is "gp2": use "gp3"', 'ebsBlockDevices[/dev/sdf].volumeType is "gp2": use "gp3"'],
  },
  { rule: "ebs-no-gp2", title: "instance with the AMI's default root volume type", type: T.instance, inputs: {}, want: [] },
  {
    rule: "ebs-no-gp2",
    title: "launch template with a gp2 mapping",
    type: T.launchTemplate,
    inputs: { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeType: "gp2" } }] },
    want: ['blockDeviceMappings[/dev/xvda].ebs.volumeType is "gp2": use "gp3"'],
  },

  // fsx-ontap-customer-kms-key
  {
    rule: "fsx-ontap-customer-kms-key",
    title: "customer managed key ARN",
    type: T.ontapFileSystem,
    inputs: { kmsKeyId: "arn:aws:kms:us-east-1:123456789012:key/0b1c" },
    want: [],
  },
  {
    rule: "fsx-ontap-customer-kms-key",
    title: "a key ARN unknown until deploy is set",
    type: T.ontapFileSystem,
    inputs: { kmsKeyId: COMPUTED },
    want: [],
  },
  {
    rule: "fsx-ontap-customer-kms-key",
    title: "no key",
    type: T.ontapFileSystem,
    inputs: { storageCapacity: 1024 },
    want: ["kmsKeyId is not set (the AWS managed key aws/fsx would be used): set a customer managed KMS key"],
  },
  {
    rule: "fsx-ontap-customer-kms-key",
    title: "the AWS managed key",
    type: T.ontapFileSystem,
    inputs: { kmsKeyId: "arn:aws:kms:us-east-1:123456789012:alias/aws/fsx" },
    want: ['kmsKeyId "arn:aws:kms:us-east-1:123456789012:alias/aws/fsx" is an AWS managed key: set a customer managed KMS key'],
  },

  // secretsmanager-customer-kms-key
  {
    rule: "secretsmanager-customer-kms-key",
    title: "customer managed key alias",
    type: T.secretsManagerSecret,
    inputs: { kmsKeyId: "alias/lab-fsx" },
    want: [],
  },
  {
    rule: "secretsmanager-customer-kms-key",
    title: "no key",
    type: T.secretsManagerSecret,
    inputs: { description: "x" },
    want: ["kmsKeyId is not set (the AWS managed key aws/secretsmanager would be used): set a customer managed KMS key"],
  },
  {
    rule: "secretsmanager-customer-kms-key",
    title: "the AWS managed key alias",
    type: T.secretsManagerSecret,
    inputs: { kmsKeyId: "alias/aws/secretsmanager" },
    want: ['kmsKeyId "alias/aws/secretsmanager" is an AWS managed key: set a customer managed KMS key'],
  },

  // kms-key-rotation
  {
    rule: "kms-key-rotation",
    title: "rotation on",
    type: T.kmsKey,
    inputs: { enableKeyRotation: true, deletionWindowInDays: 7 },
    want: [],
  },
  {
    rule: "kms-key-rotation",
    title: "an HMAC key rotates too, and must",
    type: T.kmsKey,
    inputs: { keySpec: "HMAC_256", keyUsage: "GENERATE_VERIFY_MAC", enableKeyRotation: true },
    want: [],
  },
  {
    rule: "kms-key-rotation",
    title: "an asymmetric key cannot rotate: not judged (as Checkov)",
    type: T.kmsKey,
    inputs: { customerMasterKeySpec: "RSA_2048", keyUsage: "SIGN_VERIFY" },
    want: [],
  },
  {
    rule: "kms-key-rotation",
    title: "unset: AWS leaves rotation off",
    type: T.kmsKey,
    inputs: { description: "fsx" },
    want: ["enableKeyRotation must be true (yearly rotation of the key material), got nothing"],
  },
  {
    rule: "kms-key-rotation",
    title: "a symmetric key with rotation off",
    type: T.kmsKey,
    inputs: { keySpec: "SYMMETRIC_DEFAULT", enableKeyRotation: false },
    want: ["enableKeyRotation must be true (yearly rotation of the key material), got false"],
  },
  {
    rule: "kms-key-rotation",
    title: "unknown until deploy fails (a setting that must have a given value)",
    type: T.kmsKey,
    inputs: { enableKeyRotation: COMPUTED },
    want: ["enableKeyRotation must be true (yearly rotation of the key material), got <computed>"],
  },
];

testRules("storage", STORAGE_RULES, CASES);
