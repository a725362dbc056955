/**
 * Utilization from CloudWatch for the window of each benchmark repetition: the queries
 * (GetMetricData, and ListMetrics to find an FSx file system's series), their answers turned into
 * utilization samples (core/utilization.ts) with each resource's configured limit.
 *
 * What is asked, per resource of the run (lab/utilization/state.ts `utilTargets`):
 *
 * - **EBS volume** (namespace `AWS/EBS`, dimension `VolumeId`, the only one EBS publishes):
 *   `VolumeReadOps`, `VolumeWriteOps`, `VolumeReadBytes`, `VolumeWriteBytes` (`Sum` per period:
 *   "The Sum statistic reports the total number of bytes transferred during the period"; on Xen
 *   instances "data is reported only when there is read activity on the volume", so a period
 *   without a datapoint counts as 0: the EBS metrics as @pulumi/awsx 3.0.0 classic/ebs/metrics.d.ts
 *   quotes the EC2 User Guide) → read/write operations and bytes per second, and their sums `iops`
 *   (limit: the provisioned IOPS) and `throughput` (limit: the provisioned MiB/s). On volumes
 *   attached to Nitro instances also `VolumeIOPSExceededCheck` and `VolumeThroughputExceededCheck`
 *   (`Maximum` per period, 0 or 1): "Supported for all volume types, except magnetic (standard),
 *   attached to Nitro instances. Not supported with Multi-Attach enabled volumes" (AWS Compute
 *   Optimizer User Guide, "EBS volume metrics",
 *   https://docs.aws.amazon.com/compute-optimizer/latest/ug/ebs-metrics-analyzed.html): not asked
 *   for a volume on a Xen instance (m4.xlarge, the `dev` stack: components/k0s/instance-types.ts),
 *   and the run says so. Period 60 s: EBS "metrics collect samples at 1-minute intervals" (AWS
 *   re:Post, "Identify micro-bursting on an EBS volume",
 *   https://repost.aws/knowledge-center/ebs-identify-micro-bursting).
 * - **EC2 instance** (`AWS/EC2`, `InstanceId`): `CPUUtilization`, `Average` and `Maximum`, limit
 *   100 %. "Basic (five-minute) monitoring is enabled by default. You can enable detailed
 *   (one-minute) monitoring" (CloudWatch User Guide, "Amazon EC2 metrics and dimensions",
 *   https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/ec2-metricscollected.html):
 *   period 60 s with detailed monitoring (components/k0s sets it on every node), else 300 s.
 * - **An instance's EBS limit**, from its volumes' own queries (no request of its own): per period
 *   the read and write operations and bytes of every volume attached to the instance (root volume
 *   included) are added and compared with what the instance type allows all of them together
 *   (components/lib/ebs-optimized.ts, the EC2 User Guide's EBS-optimized table): `util.<instance>.ebsIops`
 *   and `util.<instance>.ebsThroughput` against the sustained (baseline) limit, and on types that
 *   burst `ebsIopsBurst`/`ebsThroughputBurst` against the maximum they hold 30 minutes a day. On
 *   m4.xlarge the instance's 93.75 MB/s is below a gp3 volume's 125 MiB/s: the line then names the
 *   instance, not the volume. The volumes' sums are used, not the instance's own `EBSReadBytes`…
 *   metrics, which EC2 publishes for Nitro instances only.
 * - **EKS node group** (`AWS/EC2`, `AutoScalingGroupName`): the same CPU over the group's instances.
 * - **FSx for ONTAP file system** (`AWS/FSx`): `NetworkThroughputUtilization`, `CPUUtilization`,
 *   `FileServerDiskThroughputUtilization`, `FileServerDiskIopsUtilization`, `DiskIopsUtilization`
 *   (`Average`, `Maximum`, percent of the limit, so limit 100 %) and `DataReadOperations`,
 *   `DataWriteOperations`, `DataReadBytes`, `DataWriteBytes` (`Sum`). The dimensions differ by
 *   generation: on a first-generation (single HA pair) file system "All of these metrics take one
 *   dimension, FileSystemId" (FSx for ONTAP User Guide, "File system metrics",
 *   https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/file-system-metrics.html), on a
 *   second-generation one they "take two dimensions, FileSystemId and FileServer", the file
 *   server's ONTAP node name such as `FsxId01234567890abcdef-01`, odd numbers the preferred file
 *   servers ("Second-generation file system metrics",
 *   https://docs.aws.amazon.com/fsx/latest/ONTAPGuide/so-file-system-metrics.html), and both pages
 *   say that a utilization metric has "one minutely metric per active file server for
 *   FileServerDiskIopsUtilization, and one minutely metric per aggregate for DiskIopsUtilization".
 *   So the series are not guessed: `ListMetrics` on the metric name with the `FileSystemId`
 *   dimension returns every series that has it ("If you specify one dimension name and a metric has
 *   that dimension and also other dimensions, it will be returned", @aws-sdk/client-cloudwatch
 *   ListMetricsInput; metrics that reported no data for two weeks are not listed, ListMetrics
 *   command doc), and every series whose dimensions are among `FileSystemId`, `FileServer` and
 *   `Aggregate` is asked for: `fsx`, `fsx-01` (a file server), `fsx-aggr1` (an aggregate).
 *
 * The window: the repetition's start and end from its result marker (lib.sh), second precision.
 * CloudWatch answers whole periods ("Start time less than 15 days ago - Round down to the nearest
 * whole minute", GetMetricDataInput.StartTime), so the periods that lie wholly inside the window are
 * used (`coverage: inside`). A window that holds no whole period is **too short for CloudWatch**:
 * the periods it overlaps would average the repetition with the idle time around it (a 45 s
 * repetition at 100 % of a limit reads 37.5 % over two minutes), so nothing is asked for it and
 * one `util.cloudwatch.window` sample says so (metadata `unjudged`, which core/limits.ts turns into
 * "not judged" instead of "client-bound"). A window of at least twice the period always holds a
 * whole one ({@link minimumWindowSeconds}: 120 s for one-minute metrics). Sums become rates over
 * the covered seconds; `max` is the highest period. One-minute data are kept 15 days (GetMetricData
 * command doc): fetch within two weeks of the run.
 *
 * Cost: GetMetricData is billed per metric requested ($0.01 per 1,000 in us-east-1; it is not in
 * the free tier: "1 Million API requests (not including GetMetricData …: these 3 operations are
 * always charged)", https://aws.amazon.com/cloudwatch/pricing/); {@link UtilizationFetch.metricsRequested}
 * counts them. ListMetrics requests fall under the free million.
 */
import {
  CloudWatchClient,
  GetMetricDataCommand,
  ListMetricsCommand,
  type GetMetricDataCommandInput,
  type GetMetricDataCommandOutput,
  type ListMetricsCommandInput,
  type ListMetricsCommandOutput,
  type MetricDataQuery,
} from "@aws-sdk/client-cloudwatch";
import { EBS_BURST, instanceEbsLimits, type InstanceEbsLimits } from "../../components/lib/ebs-optimized";
import type { MetadataValue, Sample } from "../../core/sample";
import { UNJUDGED_KEY } from "../../core/limits";
import { utilMetric } from "../../core/utilization";
import type { AsgTarget, EbsTarget, Ec2Target, FsxTarget, UtilTarget } from "./state";

/** The two CloudWatch calls used, narrowed so tests can fake them (cloudWatchApi wraps the SDK client). */
export interface CloudWatchApi {
  getMetricData(input: GetMetricDataCommandInput): Promise<Pick<GetMetricDataCommandOutput, "MetricDataResults" | "NextToken">>;
  listMetrics(input: ListMetricsCommandInput): Promise<Pick<ListMetricsCommandOutput, "Metrics" | "NextToken">>;
}

/** A benchmark repetition's window and the metadata its utilization samples carry. */
export interface UtilWindow {
  readonly key: string;
  readonly start: Date;
  readonly end: Date;
  readonly metadata: Readonly<Record<string, MetadataValue>> & { tool: Sample["metadata"]["tool"] };
}

export type Statistic = "Sum" | "Average" | "Maximum";
export interface Dimension {
  readonly Name: string;
  readonly Value: string;
}

/** One metric series and statistic to ask for. */
export interface MetricRequest {
  readonly namespace: string;
  readonly metricName: string;
  readonly dimensions: readonly Dimension[];
  readonly stat: Statistic;
  readonly period: number;
}

/** Period of every one-minute metric; EC2 CPU without detailed monitoring is five-minute. */
export const PERIOD_SECONDS = 60;
export const BASIC_EC2_PERIOD_SECONDS = 300;
/** A GetMetricData call holds at most 500 queries (GetMetricDataInput.MetricDataQueries). */
export const MAX_QUERIES_PER_CALL = 500;

/** The FSx for ONTAP utilization metrics (percent of their limit) and what the samples call them. */
export const FSX_UTILIZATION = {
  NetworkThroughputUtilization: { metric: "network", label: "FSx network throughput" },
  CPUUtilization: { metric: "cpu", label: "FSx file server CPU" },
  FileServerDiskThroughputUtilization: { metric: "diskThroughput", label: "FSx file server disk throughput" },
  FileServerDiskIopsUtilization: { metric: "diskIops", label: "FSx file server disk IOPS" },
  DiskIopsUtilization: { metric: "ssdIops", label: "FSx SSD IOPS" },
} as const;
/** The FSx for ONTAP counters (`Sum` per period) and their rates' names and units. */
export const FSX_COUNTERS = {
  DataReadOperations: { metric: "readOps", unit: "op/s" },
  DataWriteOperations: { metric: "writeOps", unit: "op/s" },
  DataReadBytes: { metric: "readBytes", unit: "B/s" },
  DataWriteBytes: { metric: "writeBytes", unit: "B/s" },
} as const;
/** The dimensions of a file-system-level FSx series (volume and storage-tier series are left out). */
export const FSX_SERIES_DIMENSIONS: readonly string[] = ["FileSystemId", "FileServer", "Aggregate"];

/** Why a figure is missing: shown by `lab util`, kept in utilization.json. */
export interface UtilNote {
  readonly window?: string;
  readonly resource: string;
  readonly note: string;
}

/** One FSx series: its dimensions and the resource name its samples get. */
export interface FsxSeries {
  readonly resource: string;
  readonly dimensions: readonly Dimension[];
}

/** The resource name of an FSx series: `fsx`, `fsx-01` (file server `FsxId…-01`), `fsx-aggr1`. */
export function fsxSeriesResource(base: string, dimensions: readonly Dimension[]): string {
  const server = dimensions.find((d) => d.Name === "FileServer")?.Value;
  const aggregate = dimensions.find((d) => d.Name === "Aggregate")?.Value;
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "-");
  return [
    base,
    ...(server === undefined ? [] : [clean(server.slice(server.lastIndexOf("-") + 1))]),
    ...(aggregate === undefined ? [] : [clean(aggregate)]),
  ].join("-");
}

/**
 * The file-system-level series of each FSx metric (ListMetrics, every page), by metric name; the
 * series are sorted by resource name, so the queries come out in a stable order.
 */
export async function discoverFsxSeries(api: CloudWatchApi, target: FsxTarget): Promise<Map<string, FsxSeries[]>> {
  const out = new Map<string, FsxSeries[]>();
  for (const metricName of [...Object.keys(FSX_UTILIZATION), ...Object.keys(FSX_COUNTERS)]) {
    const series: FsxSeries[] = [];
    let token: string | undefined;
    do {
      const page = await api.listMetrics({
        Namespace: "AWS/FSx",
        MetricName: metricName,
        Dimensions: [{ Name: "FileSystemId", Value: target.fileSystemId }],
        ...(token === undefined ? {} : { NextToken: token }),
      });
      for (const m of page.Metrics ?? []) {
        const dims = (m.Dimensions ?? []).filter((d): d is Dimension => typeof d.Name === "string" && typeof d.Value === "string");
        if (!dims.every((d) => FSX_SERIES_DIMENSIONS.includes(d.Name))) continue;
        const sorted = [...dims].sort((a, b) => FSX_SERIES_DIMENSIONS.indexOf(a.Name) - FSX_SERIES_DIMENSIONS.indexOf(b.Name));
        series.push({ resource: fsxSeriesResource(target.resource, sorted), dimensions: sorted });
      }
      token = page.NextToken;
    } while (token !== undefined);
    out.set(
      metricName,
      series.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0)),
    );
  }
  return out;
}

/** How the answers of a target's requests become samples. */
interface Figure {
  readonly resource: string;
  readonly resourceId: string;
  readonly metric: string;
  readonly unit: string;
  /** Requests whose per-period values are added (a sum over read and write), by index in `requests`. */
  readonly sum?: readonly number[];
  /** A statistic read as is: mean of `mean`'s periods, max of `max`'s periods. */
  readonly stat?: { readonly mean: number; readonly max: number };
  /** Scale of the value (100 for a 0/1 check read as percent of periods). */
  readonly scale?: number;
  readonly limit?: number;
  readonly limitLabel?: string;
  readonly limitUnit?: string;
  readonly extra?: Readonly<Record<string, MetadataValue>>;
}

/** A target's requests and figures. */
export interface TargetPlan {
  readonly target: UtilTarget;
  readonly requests: readonly MetricRequest[];
  readonly figures: readonly Figure[];
  readonly notes: readonly UtilNote[];
}

function ebsPlan(t: EbsTarget): TargetPlan {
  const dims = [{ Name: "VolumeId", Value: t.volumeId }];
  const req = (metricName: string, stat: Statistic): MetricRequest => ({
    namespace: "AWS/EBS",
    metricName,
    dimensions: dims,
    stat,
    period: PERIOD_SECONDS,
  });
  const requests: MetricRequest[] = [
    req("VolumeReadOps", "Sum"),
    req("VolumeWriteOps", "Sum"),
    req("VolumeReadBytes", "Sum"),
    req("VolumeWriteBytes", "Sum"),
  ];
  const base = {
    resource: t.resource,
    resourceId: t.volumeId,
    extra: { volumeType: t.volumeType, ...(t.instanceType === undefined ? {} : { instanceType: t.instanceType }) },
  };
  const figures: Figure[] = [
    { ...base, metric: "readOps", unit: "op/s", sum: [0] },
    { ...base, metric: "writeOps", unit: "op/s", sum: [1] },
    { ...base, metric: "readBytes", unit: "B/s", sum: [2] },
    { ...base, metric: "writeBytes", unit: "B/s", sum: [3] },
    {
      ...base,
      metric: "iops",
      unit: "op/s",
      sum: [0, 1],
      ...(t.iops === undefined ? {} : { limit: t.iops, limitLabel: `${t.volumeType} IOPS` }),
    },
    {
      ...base,
      metric: "throughput",
      unit: "B/s",
      sum: [2, 3],
      ...(t.throughputMiBps === undefined
        ? {}
        : { limit: t.throughputMiBps * 2 ** 20, limitLabel: `${t.volumeType} throughput`, limitUnit: "MiB/s" }),
    },
  ];
  const notes: UtilNote[] = [];
  if (t.hypervisor === "nitro") {
    requests.push(req("VolumeIOPSExceededCheck", "Maximum"), req("VolumeThroughputExceededCheck", "Maximum"));
    figures.push(
      {
        ...base,
        metric: "iopsExceeded",
        unit: "%",
        stat: { mean: 4, max: 4 },
        scale: 100,
        limit: 100,
        limitLabel: `${t.volumeType} IOPS exceeded, share of minutes`,
      },
      {
        ...base,
        metric: "throughputExceeded",
        unit: "%",
        stat: { mean: 5, max: 5 },
        scale: 100,
        limit: 100,
        limitLabel: `${t.volumeType} throughput exceeded, share of minutes`,
      },
    );
  } else {
    notes.push({
      resource: t.resource,
      note: `VolumeIOPSExceededCheck and VolumeThroughputExceededCheck are published only for volumes attached to Nitro instances; ${t.volumeId} is attached to ${t.instanceType === undefined ? "no known instance" : `${t.instanceType} (${t.hypervisor ?? "hypervisor unknown"})`}`,
    });
  }
  return { target: t, requests, figures, notes };
}

function cpuPlan(t: Ec2Target | AsgTarget): TargetPlan {
  const period = t.detailedMonitoring ? PERIOD_SECONDS : BASIC_EC2_PERIOD_SECONDS;
  const dims =
    t.kind === "ec2" ? [{ Name: "InstanceId", Value: t.instanceId }] : [{ Name: "AutoScalingGroupName", Value: t.autoScalingGroupName }];
  const requests: MetricRequest[] = [
    { namespace: "AWS/EC2", metricName: "CPUUtilization", dimensions: dims, stat: "Average", period },
    { namespace: "AWS/EC2", metricName: "CPUUtilization", dimensions: dims, stat: "Maximum", period },
  ];
  const id = t.kind === "ec2" ? t.instanceId : t.autoScalingGroupName;
  const types = t.kind === "ec2" ? t.instanceType : t.instanceTypes.join(",");
  return {
    target: t,
    requests,
    figures: [
      {
        resource: t.resource,
        resourceId: id,
        metric: "cpu",
        unit: "%",
        stat: { mean: 0, max: 1 },
        limit: 100,
        limitLabel: t.kind === "ec2" ? "EC2 CPU" : "EC2 CPU (node group)",
        extra: { instanceType: types, detailedMonitoring: t.detailedMonitoring },
      },
    ],
    notes: t.detailedMonitoring
      ? []
      : [{ resource: t.resource, note: `detailed monitoring is off on ${id}: CPUUtilization has 5-minute periods only` }],
  };
}

/** The requests and figures of an FSx file system, from its series ({@link discoverFsxSeries}). */
export function fsxPlan(t: FsxTarget, series: ReadonlyMap<string, readonly FsxSeries[]>): TargetPlan {
  const requests: MetricRequest[] = [];
  const figures: Figure[] = [];
  const notes: UtilNote[] = [];
  const extra = {
    deploymentType: t.deploymentType,
    haPairs: t.haPairs,
    ...(t.throughputCapacityMBps === undefined ? {} : { throughputCapacityMBps: t.throughputCapacityMBps }),
    ...(t.diskIops === undefined ? {} : { diskIops: t.diskIops }),
  };
  for (const [name, f] of Object.entries(FSX_UTILIZATION)) {
    const list = series.get(name) ?? [];
    if (list.length === 0)
      notes.push({
        resource: t.resource,
        note: `no ${name} series for ${t.fileSystemId} (ListMetrics): not published for this file system, or no data for two weeks`,
      });
    for (const s of list) {
      const i = requests.length;
      requests.push(
        { namespace: "AWS/FSx", metricName: name, dimensions: s.dimensions, stat: "Average", period: PERIOD_SECONDS },
        { namespace: "AWS/FSx", metricName: name, dimensions: s.dimensions, stat: "Maximum", period: PERIOD_SECONDS },
      );
      figures.push({
        resource: s.resource,
        resourceId: t.fileSystemId,
        metric: f.metric,
        unit: "%",
        stat: { mean: i, max: i + 1 },
        limit: 100,
        limitLabel: f.label,
        extra,
      });
    }
  }
  for (const [name, f] of Object.entries(FSX_COUNTERS)) {
    for (const s of series.get(name) ?? []) {
      const i = requests.length;
      requests.push({ namespace: "AWS/FSx", metricName: name, dimensions: s.dimensions, stat: "Sum", period: PERIOD_SECONDS });
      figures.push({ resource: s.resource, resourceId: t.fileSystemId, metric: f.metric, unit: f.unit, sum: [i], extra });
    }
  }
  return { target: t, requests, figures, notes };
}

/** The plan of one target (FSx needs its series). */
export function targetPlan(t: UtilTarget, fsxSeries?: ReadonlyMap<string, readonly FsxSeries[]>): TargetPlan {
  switch (t.kind) {
    case "ebs":
      return ebsPlan(t);
    case "ec2":
    case "asg":
      return cpuPlan(t);
    case "fsx":
      return fsxPlan(t, fsxSeries ?? new Map());
  }
}

/** The time range asked for a window and period, and whether it lies inside the window. */
export interface QueryRange {
  readonly start: Date;
  readonly end: Date;
  readonly coverage: "inside" | "overlapping";
}

/** Whole periods inside [start, end], or, when there is none, the periods the window overlaps. */
export function queryRange(start: Date, end: Date, period: number): QueryRange {
  const p = period * 1000;
  const s = start.getTime();
  const e = end.getTime();
  const inStart = Math.ceil(s / p) * p;
  const inEnd = Math.floor(e / p) * p;
  if (inEnd - inStart >= p) return { start: new Date(inStart), end: new Date(inEnd), coverage: "inside" };
  const outStart = Math.floor(s / p) * p;
  const outEnd = Math.max(Math.ceil(e / p) * p, outStart + p);
  return { start: new Date(outStart), end: new Date(outEnd), coverage: "overlapping" };
}

/** The shortest window that always holds a whole `period`, wherever the window starts: two periods. */
export function minimumWindowSeconds(period: number): number {
  return 2 * period;
}

/** What a window too short for a period's figures leaves unjudged (core/limits.ts UNJUDGED_KEY). */
export function tooShortNote(windowSeconds: number, period: number, resources: readonly string[]): string {
  return (
    `too short for CloudWatch: the ${Math.round(windowSeconds)} s window holds no whole ${period} s period, ` +
    `so the figures of ${resources.join(", ")} were not asked (a diluted percentage is no verdict; repetitions of ≥ ${minimumWindowSeconds(period)} s always hold one)`
  );
}

/** The GetMetricData query of a request (Id `q<n>`: "The first character must be a lowercase letter"). */
export function metricDataQuery(id: string, r: MetricRequest): MetricDataQuery {
  return {
    Id: id,
    MetricStat: {
      Metric: { Namespace: r.namespace, MetricName: r.metricName, Dimensions: r.dimensions.map((d) => ({ Name: d.Name, Value: d.Value })) },
      Period: r.period,
      Stat: r.stat,
    },
    ReturnData: true,
  };
}

/** What fetching a run's utilization returns. */
export interface UtilizationFetch {
  readonly samples: Sample[];
  readonly notes: UtilNote[];
  /** GetMetricData calls made (pages included). */
  readonly getMetricDataCalls: number;
  /** Metrics requested over all calls: what GetMetricData is billed by. */
  readonly metricsRequested: number;
  readonly listMetricsCalls: number;
}

interface Answer {
  timestamps: number[];
  values: number[];
}

/** Every answer of one range's queries: GetMetricData, in calls of at most 500 queries, every page. */
async function fetchRange(
  api: CloudWatchApi,
  range: QueryRange,
  queries: readonly MetricDataQuery[],
  count: { calls: number; metrics: number },
): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  for (let i = 0; i < queries.length; i += MAX_QUERIES_PER_CALL) {
    const batch = queries.slice(i, i + MAX_QUERIES_PER_CALL);
    let token: string | undefined;
    do {
      const out = await api.getMetricData({
        MetricDataQueries: [...batch],
        StartTime: range.start,
        EndTime: range.end,
        ScanBy: "TimestampAscending",
        ...(token === undefined ? {} : { NextToken: token }),
      });
      count.calls++;
      count.metrics += batch.length;
      for (const r of out.MetricDataResults ?? []) {
        if (r.Id === undefined) continue;
        const a = answers.get(r.Id) ?? { timestamps: [], values: [] };
        (r.Timestamps ?? []).forEach((t, k) => {
          const v = r.Values?.[k];
          if (v !== undefined && Number.isFinite(v)) {
            a.timestamps.push(new Date(t).getTime());
            a.values.push(v);
          }
        });
        answers.set(r.Id, a);
      }
      token = out.NextToken;
    } while (token !== undefined);
  }
  return answers;
}

/** Per-period values of an answer inside the range (period start → value). */
function byPeriod(a: Answer | undefined, range: QueryRange, period: number): Map<number, number> {
  const out = new Map<number, number>();
  if (a === undefined) return out;
  a.timestamps.forEach((t, k) => {
    if (t >= range.start.getTime() && t + period * 1000 <= range.end.getTime()) out.set(t, (out.get(t) ?? 0) + a.values[k]);
  });
  return out;
}

/**
 * The utilization of every target in every window. FSx series are listed once per file system.
 * Samples carry the window's metadata, `utilSource: cloudwatch`, the resource and its id, the
 * namespace and metric names, the statistic, the period, the coverage and the periods used.
 */
export async function fetchUtilization(
  api: CloudWatchApi,
  targets: readonly UtilTarget[],
  windows: readonly UtilWindow[],
): Promise<UtilizationFetch> {
  let listCalls = 0;
  const counting: CloudWatchApi = {
    getMetricData: (i) => api.getMetricData(i),
    listMetrics: (i) => {
      listCalls++;
      return api.listMetrics(i);
    },
  };
  const plans: TargetPlan[] = [];
  for (const t of targets) plans.push(targetPlan(t, t.kind === "fsx" ? await discoverFsxSeries(counting, t) : undefined));
  const count = { calls: 0, metrics: 0 };
  const samples: Sample[] = [];
  const notes: UtilNote[] = plans.flatMap((p) => p.notes);
  for (const w of windows) {
    // Requests grouped by period: one time range per period.
    const periods = [...new Set(plans.flatMap((p) => p.requests.map((r) => r.period)))].sort((a, b) => a - b);
    for (const period of periods) {
      const range = queryRange(w.start, w.end, period);
      if (range.coverage === "overlapping") {
        const resources = [...new Set(plans.filter((p) => p.requests.some((r) => r.period === period)).map((p) => p.target.resource))];
        const seconds = (w.end.getTime() - w.start.getTime()) / 1000;
        const note = tooShortNote(seconds, period, resources);
        notes.push({ window: w.key, resource: "", note });
        samples.push({
          metric: utilMetric("cloudwatch", "window"),
          value: seconds,
          unit: "s",
          metadata: { ...w.metadata, utilSource: "cloudwatch", resource: "cloudwatch", periodSeconds: period, [UNJUDGED_KEY]: note },
        });
        continue;
      }
      const ids = new Map<string, string>(); // plan#request → query id
      const queries: MetricDataQuery[] = [];
      plans.forEach((p, pi) =>
        p.requests.forEach((r, ri) => {
          if (r.period !== period) return;
          const id = `q${queries.length}`;
          ids.set(`${pi}#${ri}`, id);
          queries.push(metricDataQuery(id, r));
        }),
      );
      if (queries.length === 0) continue;
      const answers = await fetchRange(api, range, queries, count);
      const periodsInRange = (range.end.getTime() - range.start.getTime()) / (period * 1000);
      const seconds = periodsInRange * period;
      plans.forEach((p, pi) => {
        for (const f of p.figures) {
          const reqIndex = f.sum?.[0] ?? f.stat?.mean ?? 0;
          const req = p.requests[reqIndex];
          if (req.period !== period) continue;
          const answer = (ri: number) => byPeriod(answers.get(ids.get(`${pi}#${ri}`) ?? ""), range, period);
          let mean: number;
          let max: number;
          let used: number;
          if (f.sum !== undefined) {
            // Counters: a period without a datapoint did nothing.
            const total = new Map<number, number>();
            for (const ri of f.sum) for (const [t, v] of answer(ri)) total.set(t, (total.get(t) ?? 0) + v);
            const values = [...total.values()];
            mean = values.reduce((a, b) => a + b, 0) / seconds;
            max = values.length === 0 ? 0 : Math.max(...values) / period;
            used = periodsInRange;
          } else {
            const means = [...answer(f.stat!.mean).values()];
            const maxes = [...answer(f.stat!.max).values()];
            if (means.length === 0) {
              notes.push({
                window: w.key,
                resource: f.resource,
                note: `no ${req.namespace} ${req.metricName} datapoint for ${f.resourceId} between ${range.start.toISOString()} and ${range.end.toISOString()}`,
              });
              continue;
            }
            mean = means.reduce((a, b) => a + b, 0) / means.length;
            max = maxes.length === 0 ? mean : Math.max(...maxes);
            used = means.length;
          }
          const scale = f.scale ?? 1;
          samples.push({
            metric: utilMetric(f.resource, f.metric),
            value: mean * scale,
            unit: f.unit,
            metadata: {
              ...w.metadata,
              utilSource: "cloudwatch",
              resource: f.resource,
              resourceId: f.resourceId,
              cloudwatch: `${req.namespace} ${(f.sum ?? [f.stat!.mean]).map((ri) => p.requests[ri].metricName).join("+")} ${f.sum !== undefined ? "Sum" : `${p.requests[f.stat!.mean].stat}/${p.requests[f.stat!.max].stat}`}`,
              periodSeconds: period,
              periods: used,
              coverage: range.coverage,
              max: max * scale,
              ...(f.limit === undefined ? {} : { limit: f.limit, limitLabel: f.limitLabel ?? f.metric }),
              ...(f.limitUnit === undefined ? {} : { limitUnit: f.limitUnit }),
              ...f.extra,
            },
          });
        }
      });
      samples.push(
        ...instanceEbsSamples(
          plans,
          targets,
          period,
          range,
          seconds,
          (pi, ri) => byPeriod(answers.get(ids.get(`${pi}#${ri}`) ?? ""), range, period),
          w,
        ),
      );
    }
  }
  return { samples, notes, getMetricDataCalls: count.calls, metricsRequested: count.metrics, listMetricsCalls: listCalls };
}

/**
 * The instance-level EBS figures of one window and period: per instance with volumes among the
 * targets, the per-period sums of its volumes' operations and bytes against its type's limits.
 */
function instanceEbsSamples(
  plans: readonly TargetPlan[],
  targets: readonly UtilTarget[],
  period: number,
  range: QueryRange,
  seconds: number,
  answer: (plan: number, request: number) => Map<number, number>,
  w: UtilWindow,
): Sample[] {
  if (period !== PERIOD_SECONDS) return [];
  const byInstance = new Map<string, { type: string; plans: number[] }>();
  plans.forEach((p, pi) => {
    if (p.target.kind !== "ebs" || p.target.instanceId === undefined || p.target.instanceType === undefined) return;
    const g = byInstance.get(p.target.instanceId) ?? { type: p.target.instanceType, plans: [] };
    g.plans.push(pi);
    byInstance.set(p.target.instanceId, g);
  });
  const out: Sample[] = [];
  for (const [instanceId, g] of byInstance) {
    const limits = instanceEbsLimits(g.type);
    if (limits === undefined) continue;
    const resource = targets.find((t): t is Ec2Target => t.kind === "ec2" && t.instanceId === instanceId)?.resource ?? instanceId;
    const sum = (requests: readonly number[]) => {
      const total = new Map<number, number>();
      for (const pi of g.plans) for (const ri of requests) for (const [t, v] of answer(pi, ri)) total.set(t, (total.get(t) ?? 0) + v);
      const values = [...total.values()];
      return { mean: values.reduce((a, b) => a + b, 0) / seconds, max: values.length === 0 ? 0 : Math.max(...values) / period };
    };
    const ops = sum([0, 1]);
    const bytes = sum([2, 3]);
    const volumes = g.plans.map((pi) => plans[pi].target.resource).join(",");
    const base = {
      ...w.metadata,
      utilSource: "cloudwatch",
      resource,
      resourceId: instanceId,
      instanceType: g.type,
      cloudwatch: `AWS/EBS VolumeReadOps+VolumeWriteOps / VolumeReadBytes+VolumeWriteBytes Sum over ${volumes}`,
      volumes,
      periodSeconds: period,
      periods: (range.end.getTime() - range.start.getTime()) / (period * 1000),
      coverage: range.coverage,
    };
    const figure = (
      metric: string,
      unit: string,
      v: { mean: number; max: number },
      limit: number,
      limitLabel: string,
      limitUnit?: string,
    ): Sample => ({
      metric: utilMetric(resource, metric),
      value: v.mean,
      unit,
      metadata: { ...base, max: v.max, limit, limitLabel, ...(limitUnit === undefined ? {} : { limitUnit }) },
    });
    // The sustained limit, and on a bursting type the maximum it holds 30 minutes a day.
    const pair = (suffix: string, l: NonNullable<InstanceEbsLimits["burst"]>, scope: string) => [
      figure(`ebsIops${suffix}`, "op/s", ops, l.iops, `${g.type} EBS IOPS, ${scope}`),
      figure(
        `ebsThroughput${suffix}`,
        "B/s",
        bytes,
        l.throughputMBps * 1e6,
        `${g.type} EBS bandwidth ${l.bandwidthMbps} Mbps, ${scope}`,
        "MB/s",
      ),
    ];
    out.push(...pair("", limits.baseline, limits.burst === undefined ? "instance" : "instance baseline (sustained)"));
    if (limits.burst !== undefined)
      out.push(...pair("Burst", limits.burst, `instance maximum (${EBS_BURST.minutes} min per ${EBS_BURST.perHours} h)`));
  }
  return out;
}

/** The SDK's CloudWatch client as a {@link CloudWatchApi}, in `region` (credentials from the default chain). */
export function cloudWatchApi(region: string, client: CloudWatchClient = new CloudWatchClient({ region })): CloudWatchApi {
  return {
    getMetricData: (input) => client.send(new GetMetricDataCommand(input)),
    listMetrics: (input) => client.send(new ListMetricsCommand(input)),
  };
}
