/**
 * Policy rules of storage and encryption at rest: EBS volumes (standalone, and those of instances
 * and launch templates), customer-managed KMS keys for FSx for ONTAP and Secrets Manager, and the
 * rotation of the lab's own KMS keys. Pure (see ./rule.ts for how rules read inputs and unknown
 * values).
 */
import { GP3 } from "../../components/lib/ebs";
import { TYPES as T } from "../resource-types";
import { controls, defineRule, dig, entry, isObj, isOpaque, isSet, isTrue, mirrors, Obj, shown } from "./rule";

const EBS_ENCRYPTED = controls(["CKV_AWS_3", "CKV_AWS_8"], ["AWS-0026", "AWS-0131"]);

export const ebsEncrypted = defineRule({
  name: "ebs-encrypted",
  description:
    "EBS volumes are encrypted: standalone volumes, instances' root and attached volumes, and every EBS mapping of a " +
    "launch template (which must map the root volume). Unencrypted volumes would depend on the account's default. " +
    mirrors(EBS_ENCRYPTED),
  enforcementLevel: "mandatory",
  controls: EBS_ENCRYPTED,
  resourceTypes: [T.ebsVolume, T.instance, T.launchTemplate],
  check(inputs, type) {
    if (type === T.ebsVolume) return isTrue(inputs.encrypted) ? [] : [`encrypted must be true, got ${shown(inputs.encrypted)}`];
    const out: string[] = [];
    if (type === T.instance) {
      const root = inputs.rootBlockDevice;
      if (root === undefined || root === null) {
        if (!isSet(inputs.launchTemplate)) out.push("rootBlockDevice.encrypted must be true, got nothing");
      } else if (!isObj(root)) out.push(`rootBlockDevice.encrypted must be true, got ${shown(root)}`);
      else if (!isTrue(root.encrypted)) out.push(`rootBlockDevice.encrypted must be true, got ${shown(root.encrypted)}`);
      const devices = inputs.ebsBlockDevices;
      if (isOpaque(devices)) out.push(`ebsBlockDevices must be encrypted, got ${devices}`);
      else if (Array.isArray(devices)) {
        devices.forEach((d, i) => {
          const encrypted = isObj(d) ? d.encrypted : d;
          if (!isTrue(encrypted))
            out.push(`${entry("ebsBlockDevices", d, i, "deviceName")}.encrypted must be true, got ${shown(encrypted)}`);
        });
      }
      return out;
    }
    const mappings = inputs.blockDeviceMappings;
    if (isOpaque(mappings)) return [`blockDeviceMappings must encrypt every EBS volume, got ${mappings}`];
    const ebs = Array.isArray(mappings) ? mappings.map((m, i) => ({ m, i })).filter(({ m }) => isObj(m) && m.ebs !== undefined) : [];
    if (ebs.length === 0) return ['blockDeviceMappings must map the root volume with ebs.encrypted "true", got nothing'];
    for (const { m, i } of ebs) {
      const volume = (m as Obj).ebs;
      const encrypted = isObj(volume) ? volume.encrypted : volume;
      if (!isTrue(encrypted))
        out.push(`${entry("blockDeviceMappings", m, i, "deviceName")}.ebs.encrypted must be "true", got ${shown(encrypted)}`);
    }
    return out;
  },
});

const LAB_OWN = controls([]);

export const ebsNoGp2 = defineRule({
  name: "ebs-no-gp2",
  description:
    "EBS volumes are gp3, not gp2 (an aws.ebs.Volume without `type` is gp2): gp3 costs less per GiB and gives " +
    `${GP3.baselineIops} IOPS and ${GP3.baselineThroughputMiBps} MiB/s at any size, where gp2 ties IOPS to size and bursts. ` +
    mirrors(LAB_OWN),
  enforcementLevel: "advisory",
  controls: LAB_OWN,
  resourceTypes: [T.ebsVolume, T.instance, T.launchTemplate],
  check(inputs, type) {
    if (type === T.ebsVolume) {
      const t = inputs.type;
      if (t === undefined || t === null) return ['type is not set (AWS creates gp2): set "gp3"'];
      return t === "gp2" ? ['type is "gp2": use "gp3"'] : [];
    }
    const out: string[] = [];
    const gp2 = (where: string, v: unknown) => {
      if (v === "gp2") out.push(`${where} is "gp2": use "gp3"`);
    };
    if (type === T.instance) {
      gp2("rootBlockDevice.volumeType", dig(inputs, ["rootBlockDevice", "volumeType"]));
      const devices = inputs.ebsBlockDevices;
      if (Array.isArray(devices))
        devices.forEach((d, i) => gp2(`${entry("ebsBlockDevices", d, i, "deviceName")}.volumeType`, dig(d, ["volumeType"])));
      return out;
    }
    const mappings = inputs.blockDeviceMappings;
    if (Array.isArray(mappings)) {
      mappings.forEach((m, i) => gp2(`${entry("blockDeviceMappings", m, i, "deviceName")}.ebs.volumeType`, dig(m, ["ebs", "volumeType"])));
    }
    return out;
  },
});

/** A customer managed key in `kmsKeyId`: set, and not an `alias/aws/…` AWS managed key. */
function customerKey(inputs: Obj, service: string): string[] {
  const key = inputs.kmsKeyId;
  if (!isSet(key)) return [`kmsKeyId is not set (the AWS managed key aws/${service} would be used): set a customer managed KMS key`];
  if (typeof key === "string" && /(^|[:/])alias\/aws\//.test(key))
    return [`kmsKeyId ${JSON.stringify(key)} is an AWS managed key: set a customer managed KMS key`];
  return [];
}

const FSX_CMK = controls(["CKV_AWS_178"]);

export const fsxOntapCustomerKey = defineRule({
  name: "fsx-ontap-customer-kms-key",
  description:
    "FSx for ONTAP file systems encrypt their data with a customer managed KMS key (`kmsKeyId`), not the AWS managed " +
    "aws/fsx key: the lab owns the key's policy, rotation and deletion. " +
    mirrors(FSX_CMK),
  enforcementLevel: "mandatory",
  controls: FSX_CMK,
  resourceTypes: [T.ontapFileSystem],
  check: (inputs) => customerKey(inputs, "fsx"),
});

const SECRETS_CMK = controls(["CKV_AWS_149"], ["AWS-0098"]);

export const secretsCustomerKey = defineRule({
  name: "secretsmanager-customer-kms-key",
  description:
    "Secrets Manager secrets (the FSx admin credentials Trident reads) are encrypted with a customer managed KMS key " +
    "(`kmsKeyId`), not the AWS managed aws/secretsmanager key. " +
    mirrors(SECRETS_CMK),
  enforcementLevel: "mandatory",
  controls: SECRETS_CMK,
  resourceTypes: [T.secretsManagerSecret],
  check: (inputs) => customerKey(inputs, "secretsmanager"),
});

/**
 * Key specs that rotate automatically: symmetric encryption keys (`SYMMETRIC_DEFAULT`, also what a
 * key without a spec is) and HMAC keys. AWS KMS rotates no asymmetric key (KMS Developer Guide,
 * "Rotate AWS KMS keys"); Checkov's KMSRotation.py leaves other specs unjudged, and so does this rule.
 */
export function rotates(spec: unknown): boolean {
  return spec === undefined || spec === null || spec === "SYMMETRIC_DEFAULT" || (typeof spec === "string" && spec.startsWith("HMAC_"));
}

const KMS_ROTATION = controls(["CKV_AWS_7"], ["AWS-0065"]);

export const kmsKeyRotation = defineRule({
  name: "kms-key-rotation",
  description:
    "The lab's KMS keys rotate their key material every year (`enableKeyRotation: true`): the keys of FSx, Secrets " +
    "Manager, EKS secrets and log groups. Keys whose spec cannot rotate (asymmetric) are not judged. " +
    mirrors(KMS_ROTATION),
  enforcementLevel: "mandatory",
  controls: KMS_ROTATION,
  resourceTypes: [T.kmsKey],
  check(inputs) {
    const spec = inputs.keySpec ?? inputs.customerMasterKeySpec;
    if (!isOpaque(spec) && !rotates(spec)) return [];
    return isTrue(inputs.enableKeyRotation)
      ? []
      : [`enableKeyRotation must be true (yearly rotation of the key material), got ${shown(inputs.enableKeyRotation)}`];
  },
});

/** The storage and encryption area's rules. */
export const STORAGE_RULES = [ebsEncrypted, ebsNoGp2, fsxOntapCustomerKey, secretsCustomerKey, kmsKeyRotation] as const;
