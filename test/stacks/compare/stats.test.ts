/** The compare kind's statistics (stacks/compare/stats.ts), pure: upstream results checked as samples, series and ratios. */
import type { Sample } from "../../../core/sample";
import { asSamples, ratio, seriesStats } from "../../../stacks/compare/stats";

const fio = (value: number, metadata: Record<string, string | number> = {}, metric = "fio.read.iops", unit = "op/s"): Sample =>
  ({ metric, value, unit, metadata: { tool: "fio", ...metadata } }) as Sample;

describe("asSamples", () => {
  test("an array of samples is taken as it is", () => {
    const ok = [fio(1), fio(2)];
    expect(asSamples("dev", ok)).toBe(ok);
    expect(asSamples("dev", [])).toEqual([]);
  });

  test("anything else fails naming the stack, and the index of the first value that is not a sample", () => {
    expect(() => asSamples("dev", { a: 1 })).toThrow(`stack 'dev': 'results' is not an array of samples, got {"a":1}`);
    expect(() => asSamples("dev", "<computed>")).toThrow(`stack 'dev': 'results' is not an array of samples, got "<computed>"`);
    const good = { metric: "fio.read.iops", value: 1, unit: "op/s", metadata: { tool: "fio" } };
    const bad: unknown[] = [
      null,
      "x",
      { ...good, metric: 1 },
      { ...good, value: "1" },
      { ...good, value: NaN },
      { ...good, value: Infinity },
      { ...good, unit: undefined },
      { ...good, metadata: null },
      { ...good, metadata: "fio" },
      { ...good, metadata: { tool: 1 } },
      { ...good, metadata: {} },
    ];
    for (const b of bad)
      expect(() => asSamples("nitro", [good, b])).toThrow(
        "stack 'nitro': 'results'[1] is not a sample {metric, value, unit, metadata: {tool, …}}",
      );
  });
});

describe("seriesStats", () => {
  test("sorted by metric, stack and series whatever the order of the samples; a groupBy key a sample lacks is left out", () => {
    const st = seriesStats(
      {
        zeta: [fio(5, { job: "b" }), fio(1, { job: "a" }), fio(3, { job: "a" })],
        alpha: [fio(10, { job: "b" }, "fio.write.iops"), fio(20, {}, "fio.read.iops")],
      },
      ["job", "zoneRelation"],
    );
    expect(st.map((s) => s.group)).toStrictEqual([{}, { job: "a" }, { job: "b" }, { job: "b" }]);
    expect(st.map((s) => [s.metric, s.stack, s.group, s.n, s.median, s.min, s.max, s.unit])).toEqual([
      ["fio.read.iops", "alpha", {}, 1, 20, 20, 20, "op/s"],
      ["fio.read.iops", "zeta", { job: "a" }, 2, 2, 1, 3, "op/s"],
      ["fio.read.iops", "zeta", { job: "b" }, 1, 5, 5, 5, "op/s"],
      ["fio.write.iops", "alpha", { job: "b" }, 1, 10, 10, 10, "op/s"],
    ]);
    // Reversed input, same output.
    const rev = seriesStats(
      {
        alpha: [fio(20), fio(10, { job: "b" }, "fio.write.iops")],
        zeta: [fio(3, { job: "a" }), fio(5, { job: "b" }), fio(1, { job: "a" })],
      },
      ["job"],
    );
    expect(rev.map((s) => [s.metric, s.stack, s.group])).toEqual([
      ["fio.read.iops", "alpha", {}],
      ["fio.read.iops", "zeta", { job: "a" }],
      ["fio.read.iops", "zeta", { job: "b" }],
      ["fio.write.iops", "alpha", { job: "b" }],
    ]);
  });

  test("one series in two units fails naming the stack, the metric and the units", () => {
    expect(() => seriesStats({ dev: [fio(1), fio(2, {}, "fio.read.iops", "IOPS")] }, [])).toThrow(
      "stack 'dev': metric fio.read.iops comes in several units (op/s, IOPS)",
    );
  });
});

describe("ratio", () => {
  const byStack = {
    fsx: [fio(37500, { zone: "same" }), fio(37000, { zone: "same" }), fio(33400, { zone: "cross" }), fio(36000, { zone: "cross" })],
  };
  test("medians, and the range of every pairing of a numerator sample with a denominator sample", () => {
    const r = ratio(
      {
        name: "c/s",
        metric: "fio.read.iops",
        numerator: { stack: "fsx", where: { zone: "cross" } },
        denominator: { stack: "fsx", where: { zone: "same" } },
      },
      byStack,
    );
    expect(r).toEqual({
      name: "c/s",
      metric: "fio.read.iops",
      unit: "op/s",
      numerator: { stack: "fsx", where: { zone: "cross" }, n: 2, median: 34700, min: 33400, max: 36000 },
      denominator: { stack: "fsx", where: { zone: "same" }, n: 2, median: 37250, min: 37000, max: 37500 },
      value: 34700 / 37250,
      low: 33400 / 37500,
      high: 36000 / 37000,
    });
  });

  test("a side without samples fails naming the ratio, the stack, the metric and the selection", () => {
    const spec = (stack: string, where?: Record<string, string>) => ({
      name: "c/s",
      metric: "fio.read.iops",
      numerator: { stack, ...(where ? { where } : {}) },
      denominator: { stack: "fsx" },
    });
    expect(() => ratio(spec("fsx", { zone: "other" }), byStack)).toThrow(
      `ratio 'c/s': stack 'fsx' has no fio.read.iops samples with {"zone":"other"}`,
    );
    expect(() => ratio(spec("fsx", { zone: "cross", rack: "r1" }), byStack)).toThrow(
      `ratio 'c/s': stack 'fsx' has no fio.read.iops samples with {"zone":"cross","rack":"r1"}`,
    );
    expect(() => ratio(spec("gone"), byStack)).toThrow(/^ratio 'c\/s': stack 'gone' has no fio.read.iops samples$/);
    expect(() => ratio({ ...spec("fsx"), metric: "fio.write.iops" }, byStack)).toThrow(
      /^ratio 'c\/s': stack 'fsx' has no fio.write.iops samples$/,
    );
  });
});
