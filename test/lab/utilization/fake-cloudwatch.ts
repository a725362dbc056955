/**
 * A fake CloudWatch for the lab/utilization tests: answers GetMetricData from the series given (by
 * namespace, metric, dimensions and statistic), ListMetrics from the listed metrics, and records
 * every call.
 */
import type { GetMetricDataCommandInput, ListMetricsCommandInput, MetricDataQuery } from "@aws-sdk/client-cloudwatch";
import type { CloudWatchApi } from "../../../lab/utilization/cloudwatch";

export type Dims = ReadonlyArray<{ Name: string; Value: string }>;
export interface Series {
  namespace: string;
  metric: string;
  dims: Dims;
  stat: string;
  points: ReadonlyArray<readonly [string, number]>;
}

/** A fake CloudWatch: answers GetMetricData from `series`, ListMetrics from `listed`, and records every call. */
export function fakeCloudWatch(
  series: readonly Series[] = [],
  listed: ReadonlyArray<{ MetricName: string; Dimensions: Dims }> = [],
  pageSize = 1000,
) {
  const gets: GetMetricDataCommandInput[] = [];
  const lists: ListMetricsCommandInput[] = [];
  const key = (ns: string, m: string, d: Dims, s: string) => JSON.stringify([ns, m, [...d].map((x) => [x.Name, x.Value]), s]);
  const table = new Map(series.map((s) => [key(s.namespace, s.metric, s.dims, s.stat), s.points]));
  const api: CloudWatchApi = {
    async getMetricData(input) {
      gets.push(input);
      const page = input.NextToken === undefined ? 0 : Number(input.NextToken);
      const results = (input.MetricDataQueries ?? []).map((q: MetricDataQuery) => {
        const ms = q.MetricStat!;
        const pts = (table.get(key(ms.Metric!.Namespace!, ms.Metric!.MetricName!, ms.Metric!.Dimensions as Dims, ms.Stat!)) ?? []).slice(
          page * pageSize,
          (page + 1) * pageSize,
        );
        return { Id: q.Id, Timestamps: pts.map(([t]) => new Date(t)), Values: pts.map(([, v]) => v), StatusCode: "Complete" as const };
      });
      const more = series.some((s) => s.points.length > (page + 1) * pageSize);
      return { MetricDataResults: results, ...(more ? { NextToken: String(page + 1) } : {}) };
    },
    async listMetrics(input) {
      lists.push(input);
      const all = listed.filter((m) => m.MetricName === input.MetricName);
      const page = input.NextToken === undefined ? 0 : Number(input.NextToken);
      const out = all
        .slice(page * 2, page * 2 + 2)
        .map((m) => ({ Namespace: "AWS/FSx", MetricName: m.MetricName, Dimensions: m.Dimensions.map((d) => ({ ...d })) }));
      return { Metrics: out, ...(all.length > page * 2 + 2 ? { NextToken: String(page + 1) } : {}) };
    },
  };
  return { api, gets, lists };
}
