/**
 * Policy rules of ECR repositories (the benchmark tools image): images scanned on push, tags
 * immutable. Pure (see ./rule.ts for how rules read inputs and unknown values).
 */
import { TYPES as T } from "../resource-types";
import { controls, defineRule, dig, isTrue, mirrors, shown } from "./rule";

const SCAN_ON_PUSH = controls(["CKV_AWS_163"], ["AWS-0030"]);

export const ecrScanOnPush = defineRule({
  name: "ecr-scan-on-push",
  description:
    "ECR repositories scan every image for known vulnerabilities when it is pushed " +
    "(`imageScanningConfiguration.scanOnPush: true`). " +
    mirrors(SCAN_ON_PUSH),
  enforcementLevel: "mandatory",
  controls: SCAN_ON_PUSH,
  resourceTypes: [T.ecrRepository],
  check(inputs) {
    const v = dig(inputs, ["imageScanningConfiguration", "scanOnPush"]);
    return isTrue(v) ? [] : [`imageScanningConfiguration.scanOnPush must be true, got ${shown(v)}`];
  },
});

const IMMUTABLE_TAGS = controls(["CKV_AWS_51"], ["AWS-0031"]);

export const ecrImmutableTags = defineRule({
  name: "ecr-immutable-tags",
  description:
    'ECR repositories keep tags immutable (`imageTagMutability: "IMMUTABLE"`; ECR\'s default is MUTABLE): a tag a ' +
    "benchmark recorded always names the image that ran. " +
    mirrors(IMMUTABLE_TAGS),
  enforcementLevel: "mandatory",
  controls: IMMUTABLE_TAGS,
  resourceTypes: [T.ecrRepository],
  check(inputs) {
    const v = inputs.imageTagMutability;
    return v === "IMMUTABLE"
      ? []
      : [`imageTagMutability must be "IMMUTABLE", got ${shown(v)}${v === undefined ? " (ECR's default: MUTABLE)" : ""}`];
  },
});

/** The ECR area's rules. */
export const ECR_RULES = [ecrScanOnPush, ecrImmutableTags] as const;
