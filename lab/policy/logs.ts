/**
 * Policy rules of CloudWatch Logs log groups (VPC flow logs, the EKS control plane): a retention,
 * and encryption with a customer managed KMS key. Pure (see ./rule.ts for how rules read inputs
 * and unknown values).
 */
import { TYPES as T } from "../resource-types";
import { controls, defineRule, isOpaque, isSet, mirrors, shown } from "./rule";

const RETENTION = controls(["CKV_AWS_66"]);

export const logGroupRetention = defineRule({
  name: "log-group-retention",
  description:
    "CloudWatch log groups set a retention (`retentionInDays`, not 0): without one, CloudWatch keeps the logs, and " +
    "bills their storage, forever, long after the lab's stack is gone. " +
    mirrors(RETENTION),
  enforcementLevel: "mandatory",
  controls: RETENTION,
  resourceTypes: [T.logGroup],
  check(inputs) {
    const v = inputs.retentionInDays;
    if (isOpaque(v) || (typeof v === "number" && v > 0)) return [];
    return [`retentionInDays must be a number of days, got ${shown(v)} (kept forever): set a retention, e.g. 30`];
  },
});

const LOG_KMS = controls(["CKV_AWS_158"], ["AWS-0017"]);

export const logGroupKms = defineRule({
  name: "log-group-kms",
  description:
    "CloudWatch log groups are encrypted with a customer managed KMS key (`kmsKeyId`), as the lab's other data at " +
    "rest is: the lab owns who may decrypt flow logs and control-plane logs. " +
    mirrors(LOG_KMS),
  enforcementLevel: "mandatory",
  controls: LOG_KMS,
  resourceTypes: [T.logGroup],
  check(inputs) {
    if (isSet(inputs.kmsKeyId)) return [];
    return [
      "kmsKeyId is not set: encrypt the log group with a customer managed KMS key whose key policy lets " +
        "logs.<region>.amazonaws.com use it (for this log group's ARN)",
    ];
  },
});

/** The CloudWatch Logs area's rules. */
export const LOG_RULES = [logGroupRetention, logGroupKms] as const;
