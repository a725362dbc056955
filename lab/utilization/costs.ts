/**
 * What sampling utilization costs on AWS (README "Utilization and limits"): list prices, us-east-1,
 * from the Amazon CloudWatch pricing page (https://aws.amazon.com/cloudwatch/pricing/, read
 * 2026-12): GetMetricData is "always charged" (outside the free million API requests) at $0.01 per
 * 1,000 metrics requested; the metrics of EC2 detailed monitoring are billed like custom metrics
 * (per metric and month), the free tier covering 10 "Custom Metrics and Detailed
 * Monitoring Metrics" a month: lab/cost/prices.ts has no sourced per-metric price, so `lab plan`'s
 * estimate leaves detailed monitoring out.
 */

/** GetMetricData, USD per 1,000 metrics requested. */
export const GET_METRIC_DATA_USD_PER_1000_METRICS = 0.01;

/** Metrics a repetition window asks of CloudWatch per resource kind (lab/utilization/cloudwatch.ts). */
export const METRICS_PER_WINDOW = {
  /** VolumeReadOps, VolumeWriteOps, VolumeReadBytes, VolumeWriteBytes, + the two checks on Nitro. */
  ebsXen: 4,
  ebsNitro: 6,
  /** CPUUtilization Average and Maximum. */
  ec2: 2,
  /** Per FSx utilization series (Average and Maximum) and per FSx counter series (Sum); ListMetrics finds the series. */
  fsxUtilizationSeries: 2,
  fsxCounterSeries: 1,
} as const;
