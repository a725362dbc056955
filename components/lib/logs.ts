/**
 * CloudWatch Logs' accepted retention periods, days (the `retentionInDays` values PutRetentionPolicy
 * accepts: https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutRetentionPolicy.html).
 * Every log group of the lab (flow logs, EKS control plane) takes one of them.
 */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

export const LOG_RETENTION_RULE = `one of CloudWatch Logs' retention periods (${LOG_RETENTION_DAYS.join(", ")})`;

export function isLogRetention(v: unknown): v is (typeof LOG_RETENTION_DAYS)[number] {
  return typeof v === "number" && (LOG_RETENTION_DAYS as readonly number[]).includes(v);
}

/**
 * Key policy of a customer-managed KMS key that encrypts CloudWatch Logs log groups (CloudWatch
 * Logs User Guide, "Encrypt log data in CloudWatch Logs using AWS KMS", step 2): the account
 * administers the key; the regional Logs service principal `logs.<region>.amazonaws.com` may use it
 * (`kms:Encrypt*`, `kms:Decrypt*`, `kms:ReEncrypt*`, `kms:GenerateDataKey*`, `kms:Describe*`) only
 * for the log groups whose ARN (`kms:EncryptionContext:aws:logs:arn`) matches `logGroupPattern`
 * (a name, or a prefix ending in `*`). `sid` names the Logs statement. Used by the network's flow
 * logs and the EKS control-plane logs.
 */
export function logGroupKeyPolicy(k: {
  readonly partition: string;
  readonly account: string;
  readonly region: string;
  readonly logGroupPattern: string;
  readonly sid: string;
}) {
  return {
    Version: "2012-10-17" as const,
    Statement: [
      {
        Sid: "AccountAdministersTheKey",
        Effect: "Allow" as const,
        Principal: { AWS: `arn:${k.partition}:iam::${k.account}:root` },
        Action: "kms:*",
        Resource: "*",
      },
      {
        Sid: k.sid,
        Effect: "Allow" as const,
        Principal: { Service: `logs.${k.region}.amazonaws.com` },
        Action: ["kms:Encrypt*", "kms:Decrypt*", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:Describe*"],
        Resource: "*",
        Condition: {
          ArnLike: {
            "kms:EncryptionContext:aws:logs:arn": `arn:${k.partition}:logs:${k.region}:${k.account}:log-group:${k.logGroupPattern}`,
          },
        },
      },
    ],
  };
}
