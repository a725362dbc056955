import { deriveLimit, formatLimitNumber, LIMIT_METRIC, LIMIT_THRESHOLD_PERCENT, limitSample } from "../../core/limits";
import type { MetadataValue, Sample } from "../../core/sample";

/** A utilization sample as the samplers write them. */
function util(metric: string, unit: string, mean: number, extra: Record<string, MetadataValue> = {}): Sample {
  return { metric, value: mean, unit, metadata: { tool: "pgbench", rep: 1, ...extra } };
}

const gp3Iops = (resource: string, mean: number, max = mean) =>
  util(`util.${resource}.iops`, "op/s", mean, { max, limit: 3000, limitLabel: "gp3 IOPS", resource });

describe("deriveLimit: the resource closest to its limit", () => {
  it("names the closest resource, its mean over its limit and the share, as the issue's example", () => {
    const v = deriveLimit([
      gp3Iops("osd-1", 1500),
      gp3Iops("osd-2", 2980, 3000),
      util("util.worker-2.cpu", "%", 41.5, { max: 63, limit: 100, limitLabel: "EC2 CPU" }),
      util("util.osd-2.readOps", "op/s", 2000), // no limit: not a candidate
    ]);
    expect(v).toEqual({
      line: "gp3 IOPS 2980/3000 (99 %) on osd-2",
      bound: true,
      percent: (100 * 2980) / 3000,
      maxPercent: 100,
      resource: "osd-2",
      metric: "iops",
      label: "gp3 IOPS",
      mean: 2980,
      limit: 3000,
      unit: "op/s",
      candidates: 3,
      unjudged: [],
    });
  });

  it("below the threshold it says client-bound and still names the highest", () => {
    const v = deriveLimit([
      gp3Iops("osd-1", 1200),
      util("util.node.cpuBusy", "%", 35.25, { max: 80, limit: 100, limitLabel: "node CPU busy" }),
    ]);
    expect(v?.line).toBe(
      "no resource at ≥ 70 % of its limit (a heuristic threshold): likely client-bound (highest: gp3 IOPS 1200/3000 (40 %) on osd-1)",
    );
    expect(v?.bound).toBe(false);
  });

  it("what was not judged (a window too short for CloudWatch, CloudWatch not asked) is said instead of client-bound, and beside a bound", () => {
    const tooShort = util("util.cloudwatch.window", "s", 45, { unjudged: "too short for CloudWatch (45 s)" });
    const low = util("util.node.cpuBusy", "%", 20, { limit: 100, limitLabel: "node CPU busy (node-wide)" });
    expect(deriveLimit([tooShort, low])).toMatchObject({
      line: "not judged: too short for CloudWatch (45 s) (highest sampled: node CPU busy (node-wide) 20/100 % (20 %) on node)",
      bound: false,
      unjudged: ["too short for CloudWatch (45 s)"],
    });
    expect(deriveLimit([low], ["CloudWatch not asked (--no-cloudwatch)"])?.line).toBe(
      "not judged: CloudWatch not asked (--no-cloudwatch) (highest sampled: node CPU busy (node-wide) 20/100 % (20 %) on node)",
    );
    expect(deriveLimit([tooShort, gp3Iops("osd-1", 2400)])?.line).toBe(
      "gp3 IOPS 2400/3000 (80 %) on osd-1; not judged: too short for CloudWatch (45 s)",
    );
    expect(limitSample(deriveLimit([tooShort, low])!, { tool: "fio" }).metadata.limitUnjudged).toBe("too short for CloudWatch (45 s)");
    expect(deriveLimit([tooShort])).toBeUndefined();
  });

  it("the threshold is inclusive: exactly 70 % of the limit is what bounded the repetition", () => {
    expect(LIMIT_THRESHOLD_PERCENT).toBe(70);
    expect(deriveLimit([gp3Iops("osd-1", 2100)])).toMatchObject({ bound: true, line: "gp3 IOPS 2100/3000 (70 %) on osd-1" });
    expect(deriveLimit([gp3Iops("osd-1", 2099.9)])).toMatchObject({ bound: false });
  });

  it("shows throughput in the limit's unit: MiB/s for gp3, MB/s otherwise; percent as percent", () => {
    const mib = 2 ** 20;
    expect(
      deriveLimit([
        util("util.osd-3.throughput", "B/s", 124.5 * mib, { limit: 125 * mib, limitLabel: "gp3 throughput", limitUnit: "MiB/s" }),
      ])?.line,
    ).toBe("gp3 throughput 125/125 MiB/s (100 %) on osd-3");
    expect(deriveLimit([util("util.fsx.data", "B/s", 256e6, { limit: 512e6, limitLabel: "FSx throughput" })])?.line).toBe(
      "no resource at ≥ 70 % of its limit (a heuristic threshold): likely client-bound (highest: FSx throughput 256/512 MB/s (50 %) on fsx)",
    );
    expect(deriveLimit([util("util.fsx.network", "%", 83.333, { limit: 100, limitLabel: "FSx network throughput" })])?.line).toBe(
      "FSx network throughput 83.3/100 % (83 %) on fsx",
    );
  });

  it("ties go to the resource, then the metric, in alphabetical order", () => {
    const a = util("util.worker-2.cpu", "%", 90, { limit: 100, limitLabel: "EC2 CPU" });
    const b = util("util.worker-1.cpu", "%", 90, { limit: 100, limitLabel: "EC2 CPU" });
    expect(deriveLimit([a, b])?.resource).toBe("worker-1");
    expect(deriveLimit([b, a])?.resource).toBe("worker-1");
  });

  it("gives no verdict when nothing sampled has a limit, and ignores non-utilization samples", () => {
    expect(deriveLimit([])).toBeUndefined();
    expect(
      deriveLimit([
        util("util.node-vda.readOps", "op/s", 10),
        { metric: "pgbench.tps", value: 500, unit: "txn/s", metadata: { tool: "pgbench", limit: 100 } },
      ]),
    ).toBeUndefined();
  });

  it("formats whole numbers from 100 up and three significant digits below", () => {
    expect([
      formatLimitNumber(2980.4),
      formatLimitNumber(99.95),
      formatLimitNumber(93.75),
      formatLimitNumber(1.2345),
      formatLimitNumber(0),
    ]).toEqual(["2980", "100", "93.8", "1.23", "0"]);
  });
});

describe("limitSample", () => {
  it("is the repetition's util.limit sample: the percent, the line and the resource in metadata", () => {
    const v = deriveLimit([gp3Iops("osd-2", 2980)])!;
    expect(limitSample(v, { tool: "pgbench", stack: "dev", runId: "r1", rep: 2, repStart: "2026-01-15T10:00:00Z" })).toEqual({
      metric: LIMIT_METRIC,
      value: (100 * 2980) / 3000,
      unit: "%",
      metadata: {
        tool: "pgbench",
        stack: "dev",
        runId: "r1",
        rep: 2,
        repStart: "2026-01-15T10:00:00Z",
        utilSource: "derived",
        limitLine: "gp3 IOPS 2980/3000 (99 %) on osd-2",
        limitBound: true,
        limitResource: "osd-2",
        limitMetric: "iops",
        limitCandidates: 1,
      },
    });
  });
});

describe("deriveLimit and limitSample: edges a mutation test found untested", () => {
  const cpu = (resource: string, metric: string, mean: number) =>
    util(`util.${resource}.${metric}`, "%", mean, { limit: 100, limitLabel: "EC2 CPU" });

  it("several things not judged: distinct, sorted, joined by '; ' in the line and the sample; an empty one is no entry", () => {
    const w = (why: string) => util("util.cloudwatch.window", "s", 45, { unjudged: why });
    const samples = [w("z: second"), w(""), w("a: first"), w("z: second")];
    const low = cpu("node", "cpuBusy", 20);
    const v = deriveLimit([...samples, low], ["m: caller"])!;
    expect(v.unjudged).toEqual(["a: first", "m: caller", "z: second"]);
    expect(v.line).toBe("not judged: a: first; m: caller; z: second (highest sampled: EC2 CPU 20/100 % (20 %) on node)");
    expect(deriveLimit([...samples, cpu("node", "cpuBusy", 90)])!.line).toBe(
      "EC2 CPU 90/100 % (90 %) on node; not judged: a: first; z: second",
    );
    expect(limitSample(v, { tool: "fio" }).metadata.limitUnjudged).toBe("a: first; m: caller; z: second");
    expect(deriveLimit([w(""), low])!.unjudged).toEqual([]);
    expect("limitUnjudged" in limitSample(deriveLimit([low])!, { tool: "fio" }).metadata).toBe(false);
  });

  it("other samples beside those with a limit are not candidates", () => {
    const v = deriveLimit([
      { metric: "pgbench.tps", value: 500, unit: "txn/s", metadata: { tool: "pgbench", limit: 100 } },
      util("util.node-vda.readOps", "op/s", 10),
      cpu("node", "cpuBusy", 50),
    ]);
    expect([v?.candidates, v?.resource]).toEqual([1, "node"]);
  });

  it("ties: resource first, then metric, alphabetical, whatever the order given", () => {
    const all = [cpu("w2", "b", 90), cpu("w1", "b", 90), cpu("w1", "a", 90), cpu("w3", "a", 90)];
    const orders = [all, [...all].reverse(), [all[2], all[0], all[3], all[1]], [all[1], all[3], all[0], all[2]]];
    for (const o of orders) expect([deriveLimit(o)?.resource, deriveLimit(o)?.metric]).toEqual(["w1", "a"]);
    expect(deriveLimit([cpu("w1", "b", 90), cpu("w1", "a", 90)])?.metric).toBe("a");
    expect(deriveLimit([cpu("w1", "a", 90), cpu("w1", "b", 90)])?.metric).toBe("a");
    expect(deriveLimit([cpu("w2", "a", 90), cpu("w1", "b", 90)])?.resource).toBe("w1");
    expect(deriveLimit([cpu("w1", "b", 90), cpu("w2", "a", 90)])?.resource).toBe("w1");
    // a higher share wins over the alphabet
    expect(deriveLimit([cpu("a", "a", 80), cpu("z", "z", 90)])?.resource).toBe("z");
  });

  it("counts and operations are shown without a unit; the highest interval's share, or the mean's without one", () => {
    const v = deriveLimit([util("util.fsx.iops", "count", 1500, { limit: 2000, limitLabel: "FSx IOPS" })])!;
    expect([v.line, v.maxPercent]).toEqual(["FSx IOPS 1500/2000 (75 %) on fsx", 75]);
    expect(deriveLimit([gp3Iops("osd-1", 1500, 2400)])!.maxPercent).toBe(80);
  });

  it("whole numbers from 100 up are rounded, not cut to three digits", () => {
    expect([formatLimitNumber(2984.6), formatLimitNumber(-150.4), formatLimitNumber(100), formatLimitNumber(-99.44)]).toEqual([
      "2985",
      "-150",
      "100",
      "-99.4",
    ]);
  });
});
