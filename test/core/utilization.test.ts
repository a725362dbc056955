/** Utilization samples (core/utilization.ts): the metric name, reading a sample back, the window key. */
import type { Sample } from "../../core/sample";
import { isUtilMetric, parseUtilMetric, UTIL_PREFIX, utilizationOf, utilMetric, windowKey } from "../../core/utilization";

describe("utilMetric / parseUtilMetric", () => {
  it("util.<resource>.<metric>, the metric may hold dots, the resource may not", () => {
    expect(UTIL_PREFIX).toBe("util.");
    expect(utilMetric("osd-2", "iops")).toBe("util.osd-2.iops");
    expect(utilMetric("node", "disk.read")).toBe("util.node.disk.read");
    expect(() => utilMetric("a.b", "iops")).toThrow(`utilization resource "a.b" must be a non-empty name without '.'`);
    expect(() => utilMetric("", "iops")).toThrow(`utilization resource "" must be a non-empty name without '.'`);
    expect(parseUtilMetric("util.osd-2.iops")).toEqual({ resource: "osd-2", metric: "iops" });
    expect(parseUtilMetric("util.node.disk.read")).toEqual({ resource: "node", metric: "disk.read" });
    expect(parseUtilMetric("util.limit")).toBeUndefined(); // no metric part
    expect(parseUtilMetric("util..iops")).toBeUndefined(); // empty resource
    expect(parseUtilMetric("util.node.")).toBeUndefined(); // empty metric
    expect(parseUtilMetric("util.a.b")).toEqual({ resource: "a", metric: "b" });
    expect(parseUtilMetric("fio.read.iops")).toBeUndefined();
    expect([isUtilMetric("util.limit"), isUtilMetric("utilx.a.b"), isUtilMetric("fio.util.a")]).toEqual([true, false, false]);
  });
});

describe("utilizationOf", () => {
  const s = (metric: string, metadata: Record<string, string | number | boolean>): Sample =>
    ({ metric, value: 42, unit: "op/s", metadata: { tool: "fio", ...metadata } }) as Sample;

  it("reads max, limit (with its label, the metric when none) and source; a non-utilization sample is undefined", () => {
    expect(utilizationOf(s("util.osd-1.iops", { max: 50, limit: 3000, limitLabel: "gp3 IOPS", utilSource: "cloudwatch" }))).toStrictEqual({
      resource: "osd-1",
      metric: "iops",
      mean: 42,
      unit: "op/s",
      max: 50,
      limit: 3000,
      limitLabel: "gp3 IOPS",
      source: "cloudwatch",
    });
    expect(utilizationOf(s("util.osd-1.iops", { limit: 3000 }))).toStrictEqual({
      resource: "osd-1",
      metric: "iops",
      mean: 42,
      unit: "op/s",
      limit: 3000,
      limitLabel: "iops",
    });
    expect(utilizationOf(s("fio.read.iops", { limit: 3000 }))).toBeUndefined();
  });

  it("a limit that is not a positive finite number, a max that is not a finite number, a label or source not text: left out", () => {
    for (const limit of [0, -5, "3000", Infinity, NaN, true])
      expect(utilizationOf(s("util.n.cpu", { limit: limit as number, limitLabel: "x" }))).toStrictEqual({
        resource: "n",
        metric: "cpu",
        mean: 42,
        unit: "op/s",
      });
    for (const max of ["50", NaN, Infinity]) expect("max" in utilizationOf(s("util.n.cpu", { max: max as number }))!).toBe(false);
    expect(utilizationOf(s("util.n.cpu", { limit: 1, limitLabel: 7, utilSource: 3 }))).toStrictEqual({
      resource: "n",
      metric: "cpu",
      mean: 42,
      unit: "op/s",
      limit: 1,
      limitLabel: "cpu",
    });
  });
});

describe("windowKey", () => {
  it("stack|runId|tool|rep|repStart; missing stack, runId or tool are empty; no rep or no repStart text: no window", () => {
    expect(windowKey({ stack: "dev", runId: "r1", tool: "fio", rep: 2, repStart: "2026-01-15T10:00:00Z" })).toBe(
      "dev|r1|fio|2|2026-01-15T10:00:00Z",
    );
    expect(windowKey({ rep: 1, repStart: "t" })).toBe("|||1|t");
    expect(windowKey({ tool: "fio", repStart: "t" })).toBeUndefined();
    expect(windowKey({ tool: "fio", rep: 1 })).toBeUndefined();
    expect(windowKey({ tool: "fio", rep: 1, repStart: 5 })).toBeUndefined();
  });
});
