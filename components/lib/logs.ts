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
