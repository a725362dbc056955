import { LOG_RULES } from "../../../lab/policy/logs";
import { COMPUTED } from "../../../lab/policy/rule";
import { TYPES as T } from "../../../lab/resource-types";
import { Case, testRules } from "./cases";

const KEY = "arn:aws:kms:us-east-1:123456789012:key/lab-flow-logs-1";
const NO_KEY =
  "kmsKeyId is not set: encrypt the log group with a customer managed KMS key whose key policy lets logs.<region>.amazonaws.com use it (for this log group's ARN)";

const CASES: readonly Case[] = [
  // log-group-retention
  { rule: "log-group-retention", title: "30 days", type: T.logGroup, inputs: { retentionInDays: 30, kmsKeyId: KEY }, want: [] },
  {
    rule: "log-group-retention",
    title: "unknown until deploy is present",
    type: T.logGroup,
    inputs: { retentionInDays: COMPUTED },
    want: [],
  },
  {
    rule: "log-group-retention",
    title: "unset: kept forever",
    type: T.logGroup,
    inputs: { kmsKeyId: KEY },
    want: ["retentionInDays must be a number of days, got nothing (kept forever): set a retention, e.g. 30"],
  },
  {
    rule: "log-group-retention",
    title: "0 is never expire",
    type: T.logGroup,
    inputs: { retentionInDays: 0 },
    want: ["retentionInDays must be a number of days, got 0 (kept forever): set a retention, e.g. 30"],
  },

  // log-group-kms
  { rule: "log-group-kms", title: "a customer managed key", type: T.logGroup, inputs: { retentionInDays: 30, kmsKeyId: KEY }, want: [] },
  { rule: "log-group-kms", title: "a key ARN unknown until deploy is present", type: T.logGroup, inputs: { kmsKeyId: COMPUTED }, want: [] },
  {
    rule: "log-group-kms",
    title: "no key (CloudWatch's own encryption)",
    type: T.logGroup,
    inputs: { retentionInDays: 30 },
    want: [NO_KEY],
  },
  { rule: "log-group-kms", title: "a blank key", type: T.logGroup, inputs: { retentionInDays: 30, kmsKeyId: "" }, want: [NO_KEY] },
];

testRules("logs", LOG_RULES, CASES);
