/**
 * The lab's statistics (report, compare kind): median and range over repetitions, and the ratio of two medians with
 * a seeded percentile-bootstrap interval. Pure: no I/O.
 *
 * Written here rather than taken from a library: the maintained ones that have these pieces
 * (d3-array's `median`/`quantile`, vega-statistics' `bootstrapCI` and `randomLCG`) are published
 * as ES modules only, which this CommonJS project cannot `require()` and Jest cannot `import()`;
 * vega-statistics' `bootstrapCI` also bootstraps the mean of one sample with `Math.random`, not a
 * ratio of two medians with a seeded generator; and pure-rand's generators are reachable only
 * through subpath exports that the project's TypeScript resolution (`moduleResolution: node`)
 * does not read. Each piece below is a few lines and names its definition.
 */

/** How a ratio's interval was obtained. */
export type IntervalMethod = "bootstrap" | "min-max";

/** Defaults of {@link ratioInterval}. */
export const BOOTSTRAP_DEFAULTS = {
  /** Bootstrap resamples. */
  resamples: 10_000,
  /** Seed of the generator, so that a report is reproducible. */
  seed: 1,
  /** Two-sided confidence level of the percentile interval. */
  level: 0.95,
  /**
   * Fewest repetitions on each side for a bootstrap; below it the interval is the min–max range
   * of the repetition ratios. With n values a resample's median can take only n values, so at
   * n = 3 a percentile bootstrap is the min–max range anyway (test/core/stats.test.ts shows it on
   * real fio runs) while claiming a 95 % level it does not have; from 8 a side it has enough
   * distinct medians to mean something.
   */
  minReps: 8,
  /** Exact permutation tests enumerate at most this many relabellings (C(16, 8) = 12,870). */
  maxPermutations: 200_000,
} as const;

/** Values sorted ascending (a copy). */
export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function requireValues(values: readonly number[], what: string): void {
  if (values.length === 0) throw new RangeError(`${what} of no values`);
}

/** The median: the middle value, or the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  requireValues(values, "median");
  const s = sorted(values);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The `p` quantile of ascending `sortedValues` by linear interpolation between order statistics
 * (Hyndman & Fan's type 7, the default of R's `quantile` and NumPy's `percentile`):
 * h = (n − 1)·p, q = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 */
export function quantileSorted(sortedValues: readonly number[], p: number): number {
  requireValues(sortedValues, "quantile");
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile p must be in [0, 1], got ${p}`);
  const h = (sortedValues.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sortedValues.length - 1);
  return sortedValues[lo] + (h - lo) * (sortedValues[hi] - sortedValues[lo]);
}

/** Median, min, max, count and coefficient of variation of one group's values. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
  /** Sample standard deviation / mean (n − 1 denominator); undefined below 2 values or for a mean of 0. */
  readonly cv?: number;
}

/**
 * The coefficient of variation: the sample standard deviation (n − 1 in the denominator) over the
 * absolute mean. Undefined for fewer than two values or a zero mean.
 */
export function coefficientOfVariation(values: readonly number[]): number | undefined {
  if (values.length < 2) return undefined;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (mean === 0) return undefined;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance) / Math.abs(mean);
}

export function summarize(values: readonly number[]): Summary {
  requireValues(values, "summary");
  const cv = coefficientOfVariation(values);
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    n: values.length,
    ...(cv === undefined ? {} : { cv }),
  };
}

/** The relative spread of a group: (max − min) / median; undefined for a median of 0. */
export function relativeRange(s: Summary): number | undefined {
  return s.median === 0 ? undefined : (s.max - s.min) / Math.abs(s.median);
}

/** C(n, k), exactly for the small numbers used here. */
export function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

/**
 * The Mann–Whitney U of `a` against `b`: the pairs (x of a, y of b) with x > y, ties counting ½.
 */
export function mannWhitneyU(a: readonly number[], b: readonly number[]): number {
  let u = 0;
  for (const x of a) for (const y of b) u += x > y ? 1 : x === y ? 0.5 : 0;
  return u;
}

/**
 * The exact two-sided Mann–Whitney (Wilcoxon rank-sum) test of "both sides come from one
 * distribution": under it every way of splitting the pooled values into groups of the two sizes
 * is equally likely, so the p-value is the share of the C(n + m, n) splits whose |U − nm/2| is at
 * least the observed one (the observed split included). Rank-based, so one outlying repetition
 * weighs as much as any other. With 3 values a side there are 20 splits: sides wholly apart give
 * the smallest p any data can, 2/20 = 0.1. Returns undefined when the split count exceeds
 * `maxPermutations`.
 */
export function permutationTest(
  a: readonly number[],
  b: readonly number[],
  maxPermutations: number = BOOTSTRAP_DEFAULTS.maxPermutations,
): { p: number; permutations: number } | undefined {
  requireValues(a, "permutation test side");
  requireValues(b, "permutation test side");
  const pooled = [...a, ...b];
  const total = choose(pooled.length, a.length);
  if (total > maxPermutations) return undefined;
  const centre = (a.length * b.length) / 2;
  const stat = (x: readonly number[], y: readonly number[]) => Math.abs(mannWhitneyU(x, y) - centre);
  const observed = stat(a, b);
  let atLeast = 0;
  const pick: number[] = [];
  const walk = (start: number) => {
    if (pick.length === a.length) {
      const inA = new Set(pick);
      const x = pick.map((i) => pooled[i]);
      const y = pooled.filter((_, i) => !inA.has(i));
      // U is a multiple of ½: an exact comparison.
      if (stat(x, y) >= observed) atLeast++;
      return;
    }
    for (let i = start; i <= pooled.length - (a.length - pick.length); i++) {
      pick.push(i);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return { p: atLeast / total, permutations: total };
}

/**
 * Mulberry32 (Tommy Ettinger, public domain): a 32-bit generator with a 32-bit state, plenty for
 * drawing resample indexes. Returns uniform numbers in [0, 1) (a 32-bit integer / 2^32); the same
 * seed gives the same sequence on every machine (integer arithmetic only).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A ratio of medians and its interval. */
export interface RatioEstimate {
  /** median(numerator) / median(denominator). */
  readonly ratio: number;
  readonly low: number;
  readonly high: number;
  /**
   * `bootstrap`: the percentile interval at `level` over `resamples` bootstrap resamples;
   * `min-max`: fewer than `minReps` repetitions on a side, so the interval is the range of the
   * ratio the repetitions allow, min(num)/max(den) to max(num)/min(den): the range of every
   * repetition ratio, a spread, not a confidence interval.
   */
  readonly method: IntervalMethod;
  readonly level: number;
  readonly resamples: number;
  readonly seed: number;
  readonly minReps: number;
  /** The exact Mann–Whitney test of the two sides ({@link permutationTest}), when the split count allows it. */
  readonly permutation?: { readonly p: number; readonly permutations: number };
}

/** Whether a ratio's interval includes 1: the runs show no difference. */
export function includesOne(e: Pick<RatioEstimate, "low" | "high">): boolean {
  return e.low <= 1 && e.high >= 1;
}

/** Options of {@link ratioInterval}; defaults in {@link BOOTSTRAP_DEFAULTS}. */
export interface BootstrapOptions {
  readonly resamples?: number;
  readonly seed?: number;
  readonly level?: number;
  readonly minReps?: number;
  readonly maxPermutations?: number;
}

function resampleMedian(values: readonly number[], random: () => number, scratch: number[]): number {
  for (let i = 0; i < values.length; i++) scratch[i] = values[Math.floor(random() * values.length)];
  return median(scratch);
}

/**
 * The ratio of the medians of `num` and `den` with an interval. With at least `minReps` values on
 * each side: a percentile bootstrap (Efron): each resample draws `num.length` values from `num`
 * and `den.length` from `den` with replacement (numerator first, then denominator, from one
 * Mulberry32 stream seeded with `seed`), and the interval is the (1 − level)/2 and (1 + level)/2
 * type-7 quantiles of the resampled ratios. Otherwise the min–max range (see
 * {@link RatioEstimate.method}).
 *
 * @throws RangeError when a side is empty or a value of `den` is not positive (a ratio needs a
 *   positive denominator).
 */
export function ratioInterval(num: readonly number[], den: readonly number[], options: BootstrapOptions = {}): RatioEstimate {
  const { resamples, seed, level, minReps, maxPermutations } = { ...BOOTSTRAP_DEFAULTS, ...options };
  requireValues(num, "ratio numerator");
  requireValues(den, "ratio denominator");
  if (den.some((v) => !(v > 0))) throw new RangeError("ratio denominator values must be positive");
  const ratio = median(num) / median(den);
  const test = permutationTest(num, den, maxPermutations);
  const permutation = test === undefined ? {} : { permutation: test };
  if (num.length < minReps || den.length < minReps) {
    return {
      ratio,
      low: Math.min(...num) / Math.max(...den),
      high: Math.max(...num) / Math.min(...den),
      method: "min-max",
      level,
      resamples,
      seed,
      minReps,
      ...permutation,
    };
  }
  const random = mulberry32(seed);
  const a = new Array<number>(num.length);
  const b = new Array<number>(den.length);
  const ratios = new Array<number>(resamples);
  for (let i = 0; i < resamples; i++) ratios[i] = resampleMedian(num, random, a) / resampleMedian(den, random, b);
  ratios.sort((x, y) => x - y);
  const tail = (1 - level) / 2;
  return {
    ratio,
    low: quantileSorted(ratios, tail),
    high: quantileSorted(ratios, 1 - tail),
    method: "bootstrap",
    level,
    resamples,
    seed,
    minReps,
    ...permutation,
  };
}
