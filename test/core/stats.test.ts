import {
  choose,
  coefficientOfVariation,
  includesOne,
  mannWhitneyU,
  median,
  mulberry32,
  permutationTest,
  quantileSorted,
  ratioInterval,
  relativeRange,
  sorted,
  summarize,
} from "../../core/stats";

describe("median, quantiles, summary", () => {
  it("median: the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([1644.801001, 479.4364, 666.454009])).toBe(666.454009);
    expect(median([1644.801001, 666.454009])).toBe((1644.801001 + 666.454009) / 2);
    expect(() => median([])).toThrow("median of no values");
  });

  it("quantiles by linear interpolation (type 7: R's quantile(), NumPy's percentile())", () => {
    // R: quantile(c(1, 2, 3, 4), c(0, 0.25, 0.5, 0.9, 1)) gives 1, 1.75, 2.5, 3.7, 4.
    const xs = [1, 2, 3, 4];
    expect([0, 0.25, 0.5, 1].map((p) => quantileSorted(xs, p))).toEqual([1, 1.75, 2.5, 4]);
    expect(quantileSorted(xs, 0.9)).toBeCloseTo(3.7, 12);
    expect(quantileSorted([7], 0.3)).toBe(7);
    expect(() => quantileSorted(xs, 1.5)).toThrow("quantile p must be in [0, 1], got 1.5");
  });

  it("coefficient of variation: sample standard deviation (n − 1) over the mean, as Python's statistics.stdev / mean", () => {
    // python3: statistics.stdev([1, 2, 3, 4]) / statistics.mean([1, 2, 3, 4]) = 0.5163977794943222
    expect(coefficientOfVariation([1, 2, 3, 4])).toBeCloseTo(0.5163977794943222, 14);
    expect(coefficientOfVariation([5, 5, 5])).toBe(0);
    expect(coefficientOfVariation([5])).toBeUndefined();
    expect(coefficientOfVariation([-1, 1])).toBeUndefined();
  });

  it("summary: median, min, max, n, CV; the input is not reordered", () => {
    const xs = [80979.010495, 47020.652898, 15225.887056];
    const { cv, ...rest } = summarize(xs);
    expect(rest).toEqual({ median: 47020.652898, min: 15225.887056, max: 80979.010495, n: 3 });
    // python3: statistics.stdev(xs) / statistics.mean(xs) = 0.6887561707308898
    expect(cv).toBeCloseTo(0.6887561707308898, 14);
    expect(summarize([7])).toEqual({ median: 7, min: 7, max: 7, n: 1 });
    expect(relativeRange(summarize([90, 100, 110]))).toBeCloseTo(0.2, 14);
    expect(xs).toEqual([80979.010495, 47020.652898, 15225.887056]);
    expect(sorted(xs)).toEqual([15225.887056, 47020.652898, 80979.010495]);
  });
});

describe("mulberry32", () => {
  /** The generator as published (Tommy Ettinger's mulberry32, the common JavaScript transcription). */
  function reference(a: number): () => number {
    return () => {
      let t = (a += 0x6d2b79f5);
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it("gives the reference sequence for a seed, in [0, 1)", () => {
    for (const seed of [1, 42, 0xdeadbeef]) {
      const ours = mulberry32(seed);
      const ref = reference(seed);
      const a = Array.from({ length: 1000 }, ours);
      expect(a).toEqual(Array.from({ length: 1000 }, ref));
      expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    }
  });

  it("is uniform enough to draw indexes: 100 000 draws over 3 indexes within 1 % of a third each", () => {
    const r = mulberry32(7);
    const counts = [0, 0, 0];
    for (let i = 0; i < 100_000; i++) counts[Math.floor(r() * 3)]++;
    for (const c of counts) expect(Math.abs(c / 100_000 - 1 / 3)).toBeLessThan(0.01);
  });
});

/** P(median of a resample of `n` draws ≤ the k-th smallest of n distinct values), n odd. */
function medianCdf(n: number, k: number): number {
  const m = (n + 1) / 2;
  const choose = (a: number, b: number) => {
    let c = 1;
    for (let i = 1; i <= b; i++) c = (c * (a - b + i)) / i;
    return c;
  };
  let p = 0;
  for (let j = m; j <= n; j++) p += choose(n, j) * (k / n) ** j * (1 - k / n) ** (n - j);
  return p;
}

/** The exact distribution of the bootstrap ratio of medians, for distinct values and odd n. */
function exactRatioQuantile(num: number[], den: number[], q: number): number {
  const pm = (xs: number[]) => sorted(xs).map((x, i) => ({ x, p: medianCdf(xs.length, i + 1) - medianCdf(xs.length, i) }));
  const pairs = pm(num).flatMap((a) => pm(den).map((b) => ({ r: a.x / b.x, p: a.p * b.p })));
  pairs.sort((a, b) => a.r - b.r);
  let cum = 0;
  for (const { r, p } of pairs) {
    cum += p;
    if (cum >= q) return r;
  }
  return pairs[pairs.length - 1].r;
}

describe("ratioInterval", () => {
  it("bootstrap: 2.5 to 10 for a constant 10 over 1, 2, 4 (a resample's median is 1 or 4 with probability 7/27 each)", () => {
    const r = ratioInterval([10, 10, 10, 10, 10], [1, 2, 4], { minReps: 3 });
    expect(r).toEqual({
      ratio: 5,
      low: 2.5,
      high: 10,
      method: "bootstrap",
      level: 0.95,
      resamples: 10_000,
      seed: 1,
      minReps: 3,
      // C(8, 5) = 56 splits; only the observed one has U = 15 (every 10 above 1, 2 and 4): U = 0
      // cannot happen, since three 10s on the other side tie with the 10s left here.
      permutation: { p: 1 / 56, permutations: 56 },
    });
  });

  it("bootstrap on three real fio runs a side: the interval is the min-max range, as the exact distribution says", () => {
    // fio.read.iops of the fixtures: cross = seed .txt, psync, suite .txt; same = seed .json, suite json+, latency.
    const cross = [58000, 14948.051948, 69200];
    const same = [47020.652898, 80979.010495, 15225.887056];
    const r = ratioInterval(cross, same, { minReps: 3 });
    expect(r.ratio).toBe(58000 / 47020.652898);
    // A 3-value resample has its minimum (maximum) as median with probability 7/27, so both
    // extremes of the ratio have probability 49/729 > 2.5 %.
    expect(exactRatioQuantile(cross, same, 0.025)).toBe(14948.051948 / 80979.010495);
    expect(r.low).toBe(14948.051948 / 80979.010495);
    expect(r.high).toBe(69200 / 15225.887056);
    expect(r.method).toBe("bootstrap");
  });

  it("bootstrap with nine repetitions a side: inside the min-max range, at the exact distribution's 2.5 % and 97.5 % quantiles, reproducible", () => {
    const num = [90, 95, 100, 102, 104, 108, 110, 115, 130];
    const den = [48, 49, 50, 50.5, 51, 52, 53, 55, 60];
    // The permutation test (C(18, 9) = 48,620 splits, ~0.4 s a call) is not this test's subject: capped off.
    const NO_PERM = { maxPermutations: 1 };
    const r = ratioInterval(num, den, NO_PERM);
    expect(r.method).toBe("bootstrap");
    expect("permutation" in r).toBe(false);
    expect(r.ratio).toBe(104 / 51);
    expect(r.low).toBeGreaterThanOrEqual(exactRatioQuantile(num, den, 0.015));
    expect(r.low).toBeLessThanOrEqual(exactRatioQuantile(num, den, 0.035));
    expect(r.high).toBeGreaterThanOrEqual(exactRatioQuantile(num, den, 0.965));
    expect(r.high).toBeLessThanOrEqual(exactRatioQuantile(num, den, 0.985));
    expect(r.low).toBeGreaterThan(90 / 60);
    expect(r.high).toBeLessThan(130 / 48);
    // Seeded: the same numbers on every run and machine (pinned for seed 1: 95/51 and 115/52).
    const again = () => ratioInterval(num, den, { ...NO_PERM, resamples: 500 });
    expect(again()).toEqual(again());
    expect([r.low, r.high]).toEqual([95 / 51, 115 / 52]);
    // Another seed draws other resamples: with few resamples the interval moves with it.
    const few = [1, 2, 3, 4, 5].map((seed) => ratioInterval(num, den, { ...NO_PERM, seed, resamples: 5 }));
    expect(few.every((f) => f.ratio === r.ratio && f.seed >= 1)).toBe(true);
    expect(new Set(few.map((f) => `${f.low}/${f.high}`)).size).toBeGreaterThan(1);
  });

  it("fewer than eight repetitions on a side (the default): the range of every repetition ratio, with the exact permutation test", () => {
    const nitro = [1644.801001, 666.454009];
    const dev = [1644.801001, 479.4364, 666.454009];
    const r = ratioInterval(nitro, dev);
    expect(r).toEqual({
      ratio: (1644.801001 + 666.454009) / 2 / 666.454009,
      low: 666.454009 / 1644.801001,
      high: 1644.801001 / 479.4364,
      method: "min-max",
      level: 0.95,
      resamples: 10_000,
      seed: 1,
      minReps: 8,
      permutation: r.permutation,
    });
    expect(r.permutation?.permutations).toBe(10);
    expect(includesOne(r)).toBe(true);
    // Three a side, wholly apart: every repetition ratio above 1, yet p is 0.1, the least 3 / 3 allow.
    const apart = ratioInterval([110, 120, 130], [100, 101, 102]);
    expect([apart.method, apart.low, apart.high, includesOne(apart)]).toEqual(["min-max", 110 / 102, 130 / 100, false]);
    expect(apart.permutation).toEqual({ p: 0.1, permutations: 20 });
  });

  it("refuses an empty side and a denominator that is not positive", () => {
    expect(() => ratioInterval([], [1])).toThrow("ratio numerator of no values");
    expect(() => ratioInterval([1], [])).toThrow("ratio denominator of no values");
    expect(() => ratioInterval([1, 2, 3], [1, 0, 2])).toThrow("ratio denominator values must be positive");
  });
});

describe("permutationTest (exact Mann–Whitney)", () => {
  it("counts every split of the pooled values at least as extreme as the observed one, exactly", () => {
    expect(choose(6, 3)).toBe(20);
    expect(choose(16, 8)).toBe(12870);
    expect(mannWhitneyU([1, 2, 5], [3, 4, 6])).toBe(2);
    expect(mannWhitneyU([2, 3], [2])).toBe(1.5);
    // U of [1, 2, 5] against [3, 4, 6] is 2, |2 − 4.5| = 2.5; by enumeration of the 20 splits, those with |U − 4.5| >= 2.5:
    const a = [1, 2, 5];
    const b = [3, 4, 6];
    const pooled = [...a, ...b];
    let atLeast = 0;
    let total = 0;
    for (let m = 0; m < 64; m++) {
      const x = pooled.filter((_, i) => (m >> i) & 1);
      if (x.length !== 3) continue;
      total++;
      const y = pooled.filter((_, i) => !((m >> i) & 1));
      if (Math.abs(mannWhitneyU(x, y) - 4.5) >= 2.5) atLeast++;
    }
    expect([total, atLeast]).toEqual([20, 8]);
    expect(permutationTest(a, b)).toEqual({ p: 8 / 20, permutations: 20 });
    // R: wilcox.test(c(110, 120, 130), c(100, 101, 102))$p.value is 0.1 (exact).
    expect(permutationTest([110, 120, 130], [100, 101, 102])).toEqual({ p: 0.1, permutations: 20 });
  });

  it("gives up past maxPermutations", () => {
    expect(permutationTest([1, 2, 3], [4, 5, 6], 19)).toBeUndefined();
  });
});

describe("edges (each a boundary a mutation test found untested)", () => {
  it("the error of an empty input names what was asked", () => {
    expect(() => quantileSorted([], 0.5)).toThrow("quantile of no values");
    expect(() => summarize([])).toThrow("summary of no values");
    expect(() => permutationTest([], [1])).toThrow("permutation test side of no values");
    expect(() => permutationTest([1], [])).toThrow("permutation test side of no values");
    expect(() => quantileSorted([1, 2], -0.1)).toThrow("quantile p must be in [0, 1], got -0.1");
  });

  it("two values have a CV (python3: statistics.stdev([1, 3]) / statistics.mean([1, 3]) = 0.7071067811865476)", () => {
    expect(coefficientOfVariation([1, 3])).toBe(0.7071067811865476);
  });

  it("a summary without a CV has no cv key; a median of 0 has no relative range", () => {
    expect(Object.keys(summarize([7]))).toEqual(["median", "min", "max", "n"]);
    expect(Object.keys(summarize([0, 0]))).toEqual(["median", "min", "max", "n"]);
    expect(relativeRange({ median: 0, min: -1, max: 1, n: 3 })).toBeUndefined();
    expect(relativeRange({ median: -2, min: -3, max: -1, n: 3 })).toBe(1);
  });

  it("an interval that ends at exactly 1 includes 1", () => {
    expect([
      includesOne({ low: 1, high: 2 }),
      includesOne({ low: 0.5, high: 1 }),
      includesOne({ low: 1.01, high: 2 }),
      includesOne({ low: 0.5, high: 0.99 }),
    ]).toEqual([true, true, false, false]);
  });

  it("the permutation test runs at exactly maxPermutations splits, and a ratio past it carries no permutation key", () => {
    expect(permutationTest([1, 2, 3], [4, 5, 6], 20)).toEqual({ p: 0.1, permutations: 20 });
    const r = ratioInterval([1, 2, 3], [4, 5, 6], { maxPermutations: 19 });
    expect("permutation" in r).toBe(false);
  });

  it("the denominator alone below minReps is enough for the min-max interval (and the numerator alone)", () => {
    expect(ratioInterval([10, 11, 12], [5, 6], { minReps: 3 })).toStrictEqual({
      ratio: 2,
      low: 10 / 6,
      high: 12 / 5,
      method: "min-max",
      level: 0.95,
      resamples: 10_000,
      seed: 1,
      minReps: 3,
      permutation: { p: 0.2, permutations: 10 },
    });
    const numOnly = ratioInterval([10, 11], [5, 6, 7], { minReps: 3 });
    expect([numOnly.method, numOnly.ratio, numOnly.low, numOnly.high]).toEqual(["min-max", 10.5 / 6, 10 / 7, 11 / 5]);
  });

  it("one resample is one ratio: both ends of the interval are it (seed 1: 108/50.5)", () => {
    const r = ratioInterval([90, 95, 100, 102, 104, 108, 110, 115, 130], [48, 49, 50, 50.5, 51, 52, 53, 55, 60], {
      resamples: 1,
      maxPermutations: 1,
    });
    expect([r.low, r.high, r.resamples]).toEqual([108 / 50.5, 108 / 50.5, 1]);
  });
});
