/**
 * lab/utilization/cloudwatch.ts against a fake CloudWatch: the exact queries built for a repetition's
 * window (namespaces, metric names, dimensions, periods, statistics, time range), the answers
 * turned into utilization samples, pagination and batching; and the SDK adapter against the real
 * @aws-sdk/client-cloudwatch with a stand-in HTTP handler (no network).
 */
import { Readable } from "node:stream";
import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import {
  cloudWatchApi,
  fetchUtilization,
  fsxSeriesResource,
  minimumWindowSeconds,
  queryRange,
  type UtilWindow,
} from "../../../lab/utilization/cloudwatch";
import type { AsgTarget, EbsTarget, Ec2Target, FsxTarget } from "../../../lab/utilization/state";
import { fakeCloudWatch, type Dims, type Series } from "./fake-cloudwatch";
import type { MetricDataQuery } from "@aws-sdk/client-cloudwatch";

const WINDOW: UtilWindow = {
  key: "dev|r1|pgbench|1|2026-01-15T10:00:30Z",
  start: new Date("2026-01-15T10:00:30Z"),
  end: new Date("2026-01-15T10:03:10Z"),
  metadata: { tool: "pgbench", stack: "dev", runId: "r1", rep: 1, repStart: "2026-01-15T10:00:30Z", repEnd: "2026-01-15T10:03:10Z" },
};
const OSD2: EbsTarget = {
  kind: "ebs",
  resource: "osd-2",
  volumeId: "vol-0osd2",
  volumeType: "gp3",
  iops: 3000,
  throughputMiBps: 125,
  instanceId: "i-0w2",
  instanceType: "m5.xlarge",
  hypervisor: "nitro",
};
const WORKER2: Ec2Target = { kind: "ec2", resource: "worker-2", instanceId: "i-0w2", instanceType: "m5.xlarge", detailedMonitoring: true };
const q = (Id: string, Namespace: string, MetricName: string, Dimensions: Dims, Period: number, Stat: string) => ({
  Id,
  MetricStat: { Metric: { Namespace, MetricName, Dimensions }, Period, Stat },
  ReturnData: true,
});
const vol = [{ Name: "VolumeId", Value: "vol-0osd2" }];
const inst = [{ Name: "InstanceId", Value: "i-0w2" }];

describe("queryRange: the periods CloudWatch answers for a window", () => {
  it("the whole periods inside the window when there is at least one", () => {
    expect(queryRange(WINDOW.start, WINDOW.end, 60)).toEqual({
      start: new Date("2026-01-15T10:01:00Z"),
      end: new Date("2026-01-15T10:03:00Z"),
      coverage: "inside",
    });
    expect(queryRange(new Date("2026-01-15T10:01:00Z"), new Date("2026-01-15T10:02:00Z"), 60)).toMatchObject({ coverage: "inside" });
  });

  it("else the periods the window overlaps (a short repetition, or a 5-minute period)", () => {
    expect(queryRange(WINDOW.start, WINDOW.end, 300)).toEqual({
      start: new Date("2026-01-15T10:00:00Z"),
      end: new Date("2026-01-15T10:05:00Z"),
      coverage: "overlapping",
    });
    expect(queryRange(new Date("2026-01-15T10:00:10Z"), new Date("2026-01-15T10:00:50Z"), 60)).toEqual({
      start: new Date("2026-01-15T10:00:00Z"),
      end: new Date("2026-01-15T10:01:00Z"),
      coverage: "overlapping",
    });
    expect(queryRange(new Date("2026-01-15T10:01:00Z"), new Date("2026-01-15T10:01:00Z"), 60)).toEqual({
      start: new Date("2026-01-15T10:01:00Z"),
      end: new Date("2026-01-15T10:02:00Z"),
      coverage: "overlapping",
    });
  });
});

describe("an EBS volume on a Nitro instance and that instance's CPU", () => {
  const series: Series[] = [
    // 10:00 and 10:03 are outside the window's whole minutes: left out.
    {
      namespace: "AWS/EBS",
      metric: "VolumeReadOps",
      dims: vol,
      stat: "Sum",
      points: [
        ["2026-01-15T10:00:00Z", 999999],
        ["2026-01-15T10:01:00Z", 120000],
        ["2026-01-15T10:02:00Z", 60000],
        ["2026-01-15T10:03:00Z", 999999],
      ],
    },
    {
      namespace: "AWS/EBS",
      metric: "VolumeWriteOps",
      dims: vol,
      stat: "Sum",
      points: [
        ["2026-01-15T10:01:00Z", 60000],
        ["2026-01-15T10:02:00Z", 58800],
      ],
    },
    {
      namespace: "AWS/EBS",
      metric: "VolumeReadBytes",
      dims: vol,
      stat: "Sum",
      points: [
        ["2026-01-15T10:01:00Z", 491520000],
        ["2026-01-15T10:02:00Z", 245760000],
      ],
    },
    // No write bytes at all in one minute: a counter's missing period is 0.
    { namespace: "AWS/EBS", metric: "VolumeWriteBytes", dims: vol, stat: "Sum", points: [["2026-01-15T10:02:00Z", 7864320000]] },
    {
      namespace: "AWS/EBS",
      metric: "VolumeIOPSExceededCheck",
      dims: vol,
      stat: "Maximum",
      points: [
        ["2026-01-15T10:01:00Z", 1],
        ["2026-01-15T10:02:00Z", 0],
      ],
    },
    {
      namespace: "AWS/EBS",
      metric: "VolumeThroughputExceededCheck",
      dims: vol,
      stat: "Maximum",
      points: [
        ["2026-01-15T10:01:00Z", 0],
        ["2026-01-15T10:02:00Z", 1],
      ],
    },
    {
      namespace: "AWS/EC2",
      metric: "CPUUtilization",
      dims: inst,
      stat: "Average",
      points: [
        ["2026-01-15T10:01:00Z", 50],
        ["2026-01-15T10:02:00Z", 70],
      ],
    },
    {
      namespace: "AWS/EC2",
      metric: "CPUUtilization",
      dims: inst,
      stat: "Maximum",
      points: [
        ["2026-01-15T10:01:00Z", 80],
        ["2026-01-15T10:02:00Z", 95],
      ],
    },
  ];

  it("asks exactly these metrics, dimensions, periods and statistics for the window's whole minutes, in one call", async () => {
    const cw = fakeCloudWatch(series);
    const r = await fetchUtilization(cw.api, [WORKER2, OSD2], [WINDOW]);
    expect(cw.lists).toEqual([]);
    expect(cw.gets).toEqual([
      {
        MetricDataQueries: [
          q("q0", "AWS/EC2", "CPUUtilization", inst, 60, "Average"),
          q("q1", "AWS/EC2", "CPUUtilization", inst, 60, "Maximum"),
          q("q2", "AWS/EBS", "VolumeReadOps", vol, 60, "Sum"),
          q("q3", "AWS/EBS", "VolumeWriteOps", vol, 60, "Sum"),
          q("q4", "AWS/EBS", "VolumeReadBytes", vol, 60, "Sum"),
          q("q5", "AWS/EBS", "VolumeWriteBytes", vol, 60, "Sum"),
          q("q6", "AWS/EBS", "VolumeIOPSExceededCheck", vol, 60, "Maximum"),
          q("q7", "AWS/EBS", "VolumeThroughputExceededCheck", vol, 60, "Maximum"),
        ],
        StartTime: new Date("2026-01-15T10:01:00Z"),
        EndTime: new Date("2026-01-15T10:03:00Z"),
        ScanBy: "TimestampAscending",
      },
    ]);
    expect(r).toMatchObject({ getMetricDataCalls: 1, metricsRequested: 8, listMetricsCalls: 0, notes: [] });
  });

  it("turns the answers into the window's utilization samples with their limits", async () => {
    const r = await fetchUtilization(fakeCloudWatch(series).api, [WORKER2, OSD2], [WINDOW]);
    const mib = 2 ** 20;
    expect(
      r.samples.map((s) => [s.metric, s.value, s.unit, s.metadata.max, s.metadata.limit ?? null, s.metadata.limitLabel ?? null]),
    ).toEqual([
      ["util.worker-2.cpu", 60, "%", 95, 100, "EC2 CPU"],
      ["util.osd-2.readOps", 1500, "op/s", 2000, null, null],
      ["util.osd-2.writeOps", 990, "op/s", 1000, null, null],
      ["util.osd-2.readBytes", 6144000, "B/s", 8192000, null, null],
      ["util.osd-2.writeBytes", 65536000, "B/s", 131072000, null, null],
      ["util.osd-2.iops", 2490, "op/s", 3000, 3000, "gp3 IOPS"],
      ["util.osd-2.throughput", 71680000, "B/s", 135168000, 125 * mib, "gp3 throughput"],
      ["util.osd-2.iopsExceeded", 50, "%", 100, 100, "gp3 IOPS exceeded, share of minutes"],
      ["util.osd-2.throughputExceeded", 50, "%", 100, 100, "gp3 throughput exceeded, share of minutes"],
      // The instance's own EBS limits over its volumes (components/lib/ebs-optimized.ts): m5.xlarge
      // sustains 6,000 IOPS and 143.75 MB/s, bursts to 18,750 and 593.75 for 30 minutes a day.
      ["util.worker-2.ebsIops", 2490, "op/s", 3000, 6000, "m5.xlarge EBS IOPS, instance baseline (sustained)"],
      [
        "util.worker-2.ebsThroughput",
        71680000,
        "B/s",
        135168000,
        143750000,
        "m5.xlarge EBS bandwidth 1150 Mbps, instance baseline (sustained)",
      ],
      ["util.worker-2.ebsIopsBurst", 2490, "op/s", 3000, 18750, "m5.xlarge EBS IOPS, instance maximum (30 min per 24 h)"],
      [
        "util.worker-2.ebsThroughputBurst",
        71680000,
        "B/s",
        135168000,
        593750000,
        "m5.xlarge EBS bandwidth 4750 Mbps, instance maximum (30 min per 24 h)",
      ],
    ]);
    expect(r.samples[10].metadata).toMatchObject({ resource: "worker-2", resourceId: "i-0w2", volumes: "osd-2", limitUnit: "MB/s" });
    expect(r.samples[5].metadata).toEqual({
      ...WINDOW.metadata,
      utilSource: "cloudwatch",
      resource: "osd-2",
      resourceId: "vol-0osd2",
      cloudwatch: "AWS/EBS VolumeReadOps+VolumeWriteOps Sum",
      periodSeconds: 60,
      periods: 2,
      coverage: "inside",
      max: 3000,
      limit: 3000,
      limitLabel: "gp3 IOPS",
      volumeType: "gp3",
      instanceType: "m5.xlarge",
    });
    expect(r.samples[6].metadata.limitUnit).toBe("MiB/s");
    expect(r.samples[0].metadata).toMatchObject({
      cloudwatch: "AWS/EC2 CPUUtilization Average/Maximum",
      resourceId: "i-0w2",
      instanceType: "m5.xlarge",
      detailedMonitoring: true,
    });
  });
});

describe("the instances that lack what Nitro publishes, and basic monitoring", () => {
  it("a volume on a Xen instance (m4.xlarge): no VolumeIOPSExceededCheck / VolumeThroughputExceededCheck asked, and the run says why", async () => {
    const xen: EbsTarget = { ...OSD2, instanceType: "m4.xlarge", hypervisor: "xen" };
    const cw = fakeCloudWatch();
    const r = await fetchUtilization(cw.api, [xen], [WINDOW]);
    expect(cw.gets[0].MetricDataQueries!.map((x) => `${x.MetricStat!.Metric!.MetricName} ${x.MetricStat!.Stat}`)).toEqual([
      "VolumeReadOps Sum",
      "VolumeWriteOps Sum",
      "VolumeReadBytes Sum",
      "VolumeWriteBytes Sum",
    ]);
    expect(r.notes).toEqual([
      {
        resource: "osd-2",
        note: "VolumeIOPSExceededCheck and VolumeThroughputExceededCheck are published only for volumes attached to Nitro instances; vol-0osd2 is attached to m4.xlarge (xen)",
      },
    ]);
    // Counters without a datapoint did nothing (Xen reports only when there is activity): zero, not missing.
    expect(r.samples.find((s) => s.metric === "util.osd-2.iops")).toMatchObject({ value: 0, metadata: { max: 0, limit: 3000 } });
  });

  it("an instance without detailed monitoring: its 5-minute periods are too short for a 160 s window: not asked, said, no diluted figure", async () => {
    const basic: Ec2Target = { ...WORKER2, detailedMonitoring: false };
    const asg: AsgTarget = {
      kind: "asg",
      resource: "eks-nodes",
      autoScalingGroupName: "eks-nodes-asg",
      instanceTypes: ["m5.xlarge"],
      detailedMonitoring: true,
    };
    const cw = fakeCloudWatch([
      { namespace: "AWS/EC2", metric: "CPUUtilization", dims: inst, stat: "Average", points: [["2026-01-15T10:00:00Z", 12]] },
      { namespace: "AWS/EC2", metric: "CPUUtilization", dims: inst, stat: "Maximum", points: [["2026-01-15T10:00:00Z", 30]] },
    ]);
    const r = await fetchUtilization(cw.api, [basic, asg], [WINDOW]);
    expect(
      cw.gets.map((g) => [
        g.StartTime,
        g.EndTime,
        g.MetricDataQueries!.map((x) => [x.MetricStat!.Metric!.Dimensions, x.MetricStat!.Period, x.MetricStat!.Stat]),
      ]),
    ).toEqual([
      [
        new Date("2026-01-15T10:01:00Z"),
        new Date("2026-01-15T10:03:00Z"),
        [
          [[{ Name: "AutoScalingGroupName", Value: "eks-nodes-asg" }], 60, "Average"],
          [[{ Name: "AutoScalingGroupName", Value: "eks-nodes-asg" }], 60, "Maximum"],
        ],
      ],
    ]);
    const note =
      "too short for CloudWatch: the 160 s window holds no whole 300 s period, so the figures of worker-2 were not asked (a diluted percentage is no verdict; repetitions of ≥ 600 s always hold one)";
    expect(r.samples).toEqual([
      {
        metric: "util.cloudwatch.window",
        value: 160,
        unit: "s",
        metadata: { ...WINDOW.metadata, utilSource: "cloudwatch", resource: "cloudwatch", periodSeconds: 300, unjudged: note },
      },
    ]);
    expect(r.notes).toEqual([
      { resource: "worker-2", note: "detailed monitoring is off on i-0w2: CPUUtilization has 5-minute periods only" },
      {
        window: WINDOW.key,
        resource: "eks-nodes",
        note: "no AWS/EC2 CPUUtilization datapoint for eks-nodes-asg between 2026-01-15T10:01:00.000Z and 2026-01-15T10:03:00.000Z",
      },
      { window: WINDOW.key, resource: "", note },
    ]);
  });

  it("a 45 s repetition holds no whole minute: nothing asked, no 37.5 % figure, the window marked too short for CloudWatch", async () => {
    const short: UtilWindow = {
      ...WINDOW,
      key: "dev|r1|fio|1|2026-01-15T10:00:30Z",
      end: new Date("2026-01-15T10:01:15Z"),
      metadata: { ...WINDOW.metadata, tool: "fio", repEnd: "2026-01-15T10:01:15Z" },
    };
    const cw = fakeCloudWatch([
      {
        namespace: "AWS/EBS",
        metric: "VolumeReadOps",
        dims: vol,
        stat: "Sum",
        points: [
          ["2026-01-15T10:00:00Z", 135000],
          ["2026-01-15T10:01:00Z", 45000],
        ],
      },
    ]);
    const r = await fetchUtilization(cw.api, [OSD2], [short]);
    expect(cw.gets).toEqual([]);
    expect(r.samples.map((x) => [x.metric, x.value, x.metadata.unjudged])).toEqual([
      [
        "util.cloudwatch.window",
        45,
        "too short for CloudWatch: the 45 s window holds no whole 60 s period, so the figures of osd-2 were not asked (a diluted percentage is no verdict; repetitions of ≥ 120 s always hold one)",
      ],
    ]);
    expect(minimumWindowSeconds(60)).toBe(120);
  });
});

describe("an FSx for ONTAP file system: its series found with ListMetrics", () => {
  const FS: FsxTarget = {
    kind: "fsx",
    resource: "fsx",
    fileSystemId: "fs-0123456789abcdef0",
    deploymentType: "MULTI_AZ_1",
    throughputCapacityMBps: 512,
    haPairs: 1,
    diskIops: 3072,
  };
  const fsDim = { Name: "FileSystemId", Value: "fs-0123456789abcdef0" };
  const LISTED_NAMES = [
    "NetworkThroughputUtilization",
    "CPUUtilization",
    "FileServerDiskThroughputUtilization",
    "FileServerDiskIopsUtilization",
    "DiskIopsUtilization",
    "DataReadOperations",
    "DataWriteOperations",
    "DataReadBytes",
    "DataWriteBytes",
  ];

  it("lists each metric by FileSystemId, then asks every file-system-level series (first generation: FileSystemId; aggregates)", async () => {
    const listed = [
      ...["NetworkThroughputUtilization", "CPUUtilization", "FileServerDiskThroughputUtilization", "FileServerDiskIopsUtilization"].map(
        (m) => ({ MetricName: m, Dimensions: [fsDim] }),
      ),
      { MetricName: "DiskIopsUtilization", Dimensions: [{ Name: "Aggregate", Value: "aggr1" }, fsDim] },
      // A volume's series of the same name is not the file system's, nor a storage tier's.
      { MetricName: "DataReadOperations", Dimensions: [fsDim, { Name: "VolumeId", Value: "fsvol-1" }] },
      { MetricName: "DataReadOperations", Dimensions: [fsDim, { Name: "StorageTier", Value: "SSD" }] },
      ...["DataReadOperations", "DataWriteOperations", "DataReadBytes", "DataWriteBytes"].map((m) => ({
        MetricName: m,
        Dimensions: [fsDim],
      })),
    ];
    const cw = fakeCloudWatch(
      [
        {
          namespace: "AWS/FSx",
          metric: "NetworkThroughputUtilization",
          dims: [fsDim],
          stat: "Average",
          points: [
            ["2026-01-15T10:01:00Z", 80],
            ["2026-01-15T10:02:00Z", 90],
          ],
        },
        {
          namespace: "AWS/FSx",
          metric: "NetworkThroughputUtilization",
          dims: [fsDim],
          stat: "Maximum",
          points: [
            ["2026-01-15T10:01:00Z", 88],
            ["2026-01-15T10:02:00Z", 97],
          ],
        },
        {
          namespace: "AWS/FSx",
          metric: "DataReadOperations",
          dims: [fsDim],
          stat: "Sum",
          points: [
            ["2026-01-15T10:01:00Z", 2250000],
            ["2026-01-15T10:02:00Z", 2250000],
          ],
        },
      ],
      listed,
    );
    const r = await fetchUtilization(cw.api, [FS], [WINDOW]);
    expect(cw.lists).toEqual([
      ...LISTED_NAMES.slice(0, 5).map((MetricName) => ({ Namespace: "AWS/FSx", MetricName, Dimensions: [fsDim] })),
      // Two series a page in the fake: DataReadOperations' three take two pages.
      { Namespace: "AWS/FSx", MetricName: "DataReadOperations", Dimensions: [fsDim] },
      { Namespace: "AWS/FSx", MetricName: "DataReadOperations", Dimensions: [fsDim], NextToken: "1" },
      ...LISTED_NAMES.slice(6).map((MetricName) => ({ Namespace: "AWS/FSx", MetricName, Dimensions: [fsDim] })),
    ]);
    const aggr = [fsDim, { Name: "Aggregate", Value: "aggr1" }];
    expect(cw.gets[0].MetricDataQueries).toEqual([
      q("q0", "AWS/FSx", "NetworkThroughputUtilization", [fsDim], 60, "Average"),
      q("q1", "AWS/FSx", "NetworkThroughputUtilization", [fsDim], 60, "Maximum"),
      q("q2", "AWS/FSx", "CPUUtilization", [fsDim], 60, "Average"),
      q("q3", "AWS/FSx", "CPUUtilization", [fsDim], 60, "Maximum"),
      q("q4", "AWS/FSx", "FileServerDiskThroughputUtilization", [fsDim], 60, "Average"),
      q("q5", "AWS/FSx", "FileServerDiskThroughputUtilization", [fsDim], 60, "Maximum"),
      q("q6", "AWS/FSx", "FileServerDiskIopsUtilization", [fsDim], 60, "Average"),
      q("q7", "AWS/FSx", "FileServerDiskIopsUtilization", [fsDim], 60, "Maximum"),
      q("q8", "AWS/FSx", "DiskIopsUtilization", aggr, 60, "Average"),
      q("q9", "AWS/FSx", "DiskIopsUtilization", aggr, 60, "Maximum"),
      q("q10", "AWS/FSx", "DataReadOperations", [fsDim], 60, "Sum"),
      q("q11", "AWS/FSx", "DataWriteOperations", [fsDim], 60, "Sum"),
      q("q12", "AWS/FSx", "DataReadBytes", [fsDim], 60, "Sum"),
      q("q13", "AWS/FSx", "DataWriteBytes", [fsDim], 60, "Sum"),
    ]);
    expect(r.samples.find((s) => s.metric === "util.fsx.network")).toMatchObject({
      value: 85,
      unit: "%",
      metadata: {
        max: 97,
        limit: 100,
        limitLabel: "FSx network throughput",
        resourceId: "fs-0123456789abcdef0",
        throughputCapacityMBps: 512,
        deploymentType: "MULTI_AZ_1",
        diskIops: 3072,
      },
    });
    expect(r.samples.find((s) => s.metric === "util.fsx.readOps")).toMatchObject({ value: 37500, unit: "op/s", metadata: { max: 37500 } });
    // Utilization metrics without a datapoint in the window are missing, not zero.
    expect(r.samples.some((s) => s.metric === "util.fsx.cpu")).toBe(false);
    expect(r.notes.map((n) => n.note)).toContain(
      "no AWS/FSx CPUUtilization datapoint for fs-0123456789abcdef0 between 2026-01-15T10:01:00.000Z and 2026-01-15T10:03:00.000Z",
    );
    expect(r.listMetricsCalls).toBe(10);
  });

  it("second generation: one series per file server (FileSystemId and FileServer), named by the server's number", async () => {
    const server = (n: string) => [fsDim, { Name: "FileServer", Value: `FsxId0123456789abcdef0-${n}` }];
    const listed = [
      { MetricName: "CPUUtilization", Dimensions: server("01") },
      { MetricName: "CPUUtilization", Dimensions: server("02") },
    ];
    const cw = fakeCloudWatch([], listed);
    const r = await fetchUtilization(cw.api, [{ ...FS, deploymentType: "MULTI_AZ_2" }], [WINDOW]);
    expect(cw.gets[0].MetricDataQueries).toEqual([
      q("q0", "AWS/FSx", "CPUUtilization", server("01"), 60, "Average"),
      q("q1", "AWS/FSx", "CPUUtilization", server("01"), 60, "Maximum"),
      q("q2", "AWS/FSx", "CPUUtilization", server("02"), 60, "Average"),
      q("q3", "AWS/FSx", "CPUUtilization", server("02"), 60, "Maximum"),
    ]);
    expect(r.notes.filter((n) => n.window === undefined).map((n) => n.note)).toEqual(
      ["NetworkThroughputUtilization", "FileServerDiskThroughputUtilization", "FileServerDiskIopsUtilization", "DiskIopsUtilization"].map(
        (m) => `no ${m} series for fs-0123456789abcdef0 (ListMetrics): not published for this file system, or no data for two weeks`,
      ),
    );
    expect(fsxSeriesResource("fsx", server("03"))).toBe("fsx-03");
    expect(fsxSeriesResource("fsx", [fsDim, { Name: "Aggregate", Value: "aggr 1" }])).toBe("fsx-aggr-1");
  });
});

describe("calls: pages and batches", () => {
  it("at most 500 queries a call, every page of each, and the metrics requested counted for the bill", async () => {
    const volumes: EbsTarget[] = Array.from({ length: 84 }, (_, i) => ({ ...OSD2, resource: `v-${i}`, volumeId: `vol-${i}` }));
    const cw = fakeCloudWatch(
      [
        {
          namespace: "AWS/EBS",
          metric: "VolumeReadOps",
          dims: [{ Name: "VolumeId", Value: "vol-0" }],
          stat: "Sum",
          points: [
            ["2026-01-15T10:01:00Z", 60],
            ["2026-01-15T10:02:00Z", 120],
          ],
        },
      ],
      [],
      1,
    );
    const r = await fetchUtilization(cw.api, volumes, [WINDOW]);
    // 84 volumes × 6 queries = 504: a call of 500 (two pages) and a call of 4 (two pages).
    expect(cw.gets.map((g) => [g.MetricDataQueries!.length, g.NextToken ?? null])).toEqual([
      [500, null],
      [500, "1"],
      [4, null],
      [4, "1"],
    ]);
    expect(cw.gets[2].MetricDataQueries![0].Id).toBe("q500");
    expect(r).toMatchObject({ getMetricDataCalls: 4, metricsRequested: 1008 });
    expect(r.samples.find((s) => s.metric === "util.v-0.readOps")).toMatchObject({ value: 1.5, metadata: { max: 2 } });
  });
});

describe("cloudWatchApi: the SDK client", () => {
  it("sends GetMetricData and ListMetrics as CloudWatch's JSON protocol and reads the answers", async () => {
    const sent: Array<{ target: string; body: unknown }> = [];
    const answers: Record<string, unknown> = {
      "GraniteServiceVersion20100801.GetMetricData": {
        MetricDataResults: [{ Id: "q0", Timestamps: [1768471260], Values: [42.5], StatusCode: "Complete" }],
      },
      "GraniteServiceVersion20100801.ListMetrics": {
        Metrics: [{ Namespace: "AWS/FSx", MetricName: "CPUUtilization", Dimensions: [{ Name: "FileSystemId", Value: "fs-1" }] }],
      },
    };
    const client = new CloudWatchClient({
      region: "us-east-1",
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "not-a-secret" },
      requestHandler: {
        async handle(request: { headers: Record<string, string>; body: Uint8Array | string }) {
          const target = request.headers["x-amz-target"];
          sent.push({ target, body: JSON.parse(typeof request.body === "string" ? request.body : new TextDecoder().decode(request.body)) });
          // A plain HTTP response: status, headers and a body stream, as the node handler returns one.
          return {
            response: {
              statusCode: 200,
              headers: { "content-type": "application/x-amz-json-1.0" },
              body: Readable.from([Buffer.from(JSON.stringify(answers[target]))]),
            },
          };
        },
      } as never,
    });
    const api = cloudWatchApi("us-east-1", client);
    const data = await api.getMetricData({
      MetricDataQueries: [q("q0", "AWS/EC2", "CPUUtilization", inst, 60, "Average") as MetricDataQuery],
      StartTime: new Date("2026-01-15T10:01:00Z"),
      EndTime: new Date("2026-01-15T10:03:00Z"),
    });
    expect(data.MetricDataResults).toEqual([
      { Id: "q0", Timestamps: [new Date(1768471260 * 1000)], Values: [42.5], StatusCode: "Complete" },
    ]);
    const list = await api.listMetrics({
      Namespace: "AWS/FSx",
      MetricName: "CPUUtilization",
      Dimensions: [{ Name: "FileSystemId", Value: "fs-1" }],
    });
    expect(list.Metrics?.[0].MetricName).toBe("CPUUtilization");
    expect(sent.map((s) => s.target)).toEqual(["GraniteServiceVersion20100801.GetMetricData", "GraniteServiceVersion20100801.ListMetrics"]);
    expect(sent[0].body).toMatchObject({
      MetricDataQueries: [
        {
          Id: "q0",
          MetricStat: { Metric: { Namespace: "AWS/EC2", MetricName: "CPUUtilization", Dimensions: inst }, Period: 60, Stat: "Average" },
          ReturnData: true,
        },
      ],
      StartTime: 1768471260,
      EndTime: 1768471380,
    });
  });
});
