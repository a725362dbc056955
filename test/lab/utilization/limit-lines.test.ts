/**
 * The limit line a run's repetitions get, end to end from what lab util knows (the manifest's
 * resources, CloudWatch's answers through a fake, the node sampler's samples) to core/limits.ts:
 * the verdicts the issue that introduced them named (#31), each with its exact line.
 */
import { deriveLimit } from "../../../core/limits";
import type { Sample } from "../../../core/sample";
import { fetchUtilization, type UtilWindow } from "../../../lab/utilization/cloudwatch";
import { clusterTargets, type EbsTarget, type Ec2Target, type UtilTarget } from "../../../lab/utilization/state";
import { CLUSTER } from "./cluster-fixture";
import { fakeCloudWatch, type Series } from "./fake-cloudwatch";

const window = (startIso: string, endIso: string): UtilWindow => ({
  key: `s|r1|fio|1|${startIso}`,
  start: new Date(startIso),
  end: new Date(endIso),
  metadata: { tool: "fio", stack: "s", runId: "r1", rep: 1, repStart: startIso, repEnd: endIso },
});
/** Two whole minutes, 10:01 and 10:02, inside the window. */
const TWO_MINUTES = window("2026-01-15T10:00:30Z", "2026-01-15T10:03:10Z");
const SHORT = window("2026-01-15T10:00:30Z", "2026-01-15T10:01:15Z");

/** The node sampler's CPU busy of the window (node-wide), as samplerSamples writes it. */
const nodeBusy = (w: UtilWindow, busy: number): Sample => ({
  metric: "util.node.cpuBusy",
  value: busy,
  unit: "%",
  metadata: { ...w.metadata, utilSource: "node-sampler", resource: "node", max: busy, limit: 100, limitLabel: "node CPU busy (node-wide)" },
});

/** A volume's counter: the same Sum in both minutes. */
const perMinute = (volumeId: string, metric: string, sum: number): Series => ({
  namespace: "AWS/EBS",
  metric,
  dims: [{ Name: "VolumeId", Value: volumeId }],
  stat: "Sum",
  points: [
    ["2026-01-15T10:01:00Z", sum],
    ["2026-01-15T10:02:00Z", sum],
  ],
});

const WORKER: Ec2Target = { kind: "ec2", resource: "worker-2", instanceId: "i-0w2", instanceType: "m4.xlarge", detailedMonitoring: true };
const OSD: EbsTarget = {
  kind: "ebs",
  resource: "osd-2",
  volumeId: "vol-0osd2",
  volumeType: "gp3",
  iops: 4000,
  throughputMiBps: 250,
  instanceId: "i-0w2",
  instanceType: "m4.xlarge",
  hypervisor: "xen",
};
const ROOT: EbsTarget = { ...OSD, resource: "root-worker-2", volumeId: "vol-0root2", iops: 3000, throughputMiBps: 125 };

interface Case {
  readonly what: string;
  readonly targets: readonly UtilTarget[];
  readonly series: readonly Series[];
  readonly w: UtilWindow;
  readonly busy: number;
  readonly line: string;
  readonly bound: boolean;
}

const CASES: readonly Case[] = [
  {
    what: "gp3 at 3000/3000 IOPS on a volume the EBS CSI driver created for a PVC (found through its PV)",
    targets: clusterTargets(CLUSTER, true).targets,
    // 135,000 reads and 45,000 writes a minute: 3,000 op/s.
    series: [perMinute("vol-0a1b2c3d4e5f60718", "VolumeReadOps", 135000), perMinute("vol-0a1b2c3d4e5f60718", "VolumeWriteOps", 45000)],
    w: TWO_MINUTES,
    busy: 35,
    line: "gp3 IOPS 3000/3000 (100 %) on pv-bench-fio-gp3",
    bound: true,
  },
  {
    what: "an m4.xlarge OSD whose throughput the instance's EBS bandwidth caps (the volume at 35 % of its own 250 MiB/s)",
    targets: [WORKER, OSD, ROOT],
    // 93 MB/s read from the OSD volume in 128 KiB reads (710 op/s), nothing from the root volume.
    series: [perMinute("vol-0osd2", "VolumeReadBytes", 93e6 * 60), perMinute("vol-0osd2", "VolumeReadOps", 710 * 60)],
    w: TWO_MINUTES,
    busy: 40,
    line: "m4.xlarge EBS bandwidth 750 Mbps, instance 93/93.8 MB/s (99 %) on worker-2",
    bound: true,
  },
  {
    what: "a 45 s repetition: no whole CloudWatch minute, so no diluted percentage, and not called client-bound",
    targets: [WORKER, OSD, ROOT],
    series: [perMinute("vol-0osd2", "VolumeReadOps", 180000)],
    w: SHORT,
    busy: 30,
    line:
      "not judged: too short for CloudWatch: the 45 s window holds no whole 60 s period, so the figures of worker-2, osd-2, root-worker-2 were not asked " +
      "(a diluted percentage is no verdict; repetitions of ≥ 120 s always hold one) (highest sampled: node CPU busy (node-wide) 30/100 % (30 %) on node)",
    bound: false,
  },
];

describe("the limit line, from the manifest's resources and CloudWatch to the verdict", () => {
  it.each(CASES)("$what", async (c) => {
    const fetched = await fetchUtilization(fakeCloudWatch(c.series).api, c.targets, [c.w]);
    const v = deriveLimit([...fetched.samples, nodeBusy(c.w, c.busy)]);
    expect(v?.line).toBe(c.line);
    expect(v?.bound).toBe(c.bound);
  });

  it("the m4 OSD volume's own share stays far below its limit: only the instance's limit explains the number", async () => {
    const c = CASES[1];
    const fetched = await fetchUtilization(fakeCloudWatch(c.series).api, c.targets, [c.w]);
    const osd = fetched.samples.find((s) => s.metric === "util.osd-2.throughput")!;
    expect(Math.round((100 * osd.value) / (osd.metadata.limit as number))).toBe(35);
  });
});
