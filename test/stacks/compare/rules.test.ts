/** The compare kind's rules (stacks/compare/rules.ts `problems`), pure: every problem of a spec at once, with the path and the value. */
import { COMPARE_DEFAULTS, CompareSpec, MAX_COMPARED_STACKS, problems, resolve } from "../../../stacks/compare/rules";
import { STACK_METRICS_TEXT } from "../../../core/metrics";

const STACKS = { dev: "o/storage-bench-lab/dev", nitro: "o/storage-bench-lab/nitro" };
const ratio = (extra: Record<string, unknown> = {}) => ({
  name: "nitro/dev",
  metric: "pgbench.tps",
  numerator: { stack: "nitro" },
  denominator: { stack: "dev" },
  ...extra,
});
const spec = (extra: Record<string, unknown>) => ({ stacks: STACKS, ...extra }) as unknown as CompareSpec;
const METRIC_RULE = `a metric some stack's results hold (${STACK_METRICS_TEXT})`;

describe("compare rules", () => {
  test("a valid spec has no problem; the defaults: no ratio, series by job and zoneRelation", () => {
    expect(problems(spec({ ratios: [ratio()], groupBy: ["job"] }))).toEqual([]);
    expect(resolve({ stacks: STACKS })).toEqual({ stacks: STACKS, ratios: [], groupBy: ["job", "zoneRelation"] });
    expect(COMPARE_DEFAULTS.groupBy).toEqual(["job", "zoneRelation"]);
  });

  test("1 to 10 compared stacks: exactly 10 is valid, 11 and none are not; stacks that are not a map count as none", () => {
    const n = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, `o/storage-bench-lab/s${i}`]));
    expect(MAX_COMPARED_STACKS).toBe(10);
    expect(problems({ stacks: n(10) })).toEqual([]);
    expect(problems({ stacks: n(1) })).toEqual([]);
    expect(problems({ stacks: n(11) })).toEqual([{ path: "stacks", rule: "1 to 10 compared stacks", value: Object.keys(n(11)) }]);
    expect(problems({ stacks: {} })).toEqual([{ path: "stacks", rule: "1 to 10 compared stacks", value: [] }]);
    expect(problems({ stacks: ["dev"] as unknown as Record<string, string> })).toEqual([
      { path: "stacks", rule: "1 to 10 compared stacks", value: [] },
    ]);
    expect(problems({ stacks: null as unknown as Record<string, string> })).toEqual([
      { path: "stacks", rule: "1 to 10 compared stacks", value: [] },
    ]);
  });

  test("a label must start with a lowercase letter; a stack name must be non-empty text", () => {
    expect(problems({ stacks: { Dev: "o/p/dev", nitro: "", m5: 7 as unknown as string } })).toEqual([
      { path: "stacks.Dev", rule: "labelled by a name of letters and digits starting with a lowercase letter", value: "Dev" },
      { path: "stacks.nitro", rule: "a stack name (org/storage-bench-lab/<stack>, each part at most 100 characters)", value: "" },
      { path: "stacks.m5", rule: "a stack name (org/storage-bench-lab/<stack>, each part at most 100 characters)", value: 7 },
    ]);
  });

  test("ratios: a list of objects, each named once, of a stack metric", () => {
    expect(problems(spec({ ratios: "x" }))).toEqual([
      { path: "ratios", rule: "a list of {name, metric, numerator, denominator}", value: "x" },
    ]);
    expect(problems(spec({ ratios: [null, ["a"], 3] }))).toEqual([
      { path: "ratios[0]", rule: "an object {name, metric, numerator, denominator}", value: null },
      { path: "ratios[1]", rule: "an object {name, metric, numerator, denominator}", value: ["a"] },
      { path: "ratios[2]", rule: "an object {name, metric, numerator, denominator}", value: 3 },
    ]);
    expect(
      problems(
        spec({
          ratios: [ratio({ name: "" }), ratio({ name: "a" }), ratio({ name: "a", metric: 5 }), ratio({ name: "b", metric: "fio.nope" })],
        }),
      ),
    ).toEqual([
      { path: "ratios[0].name", rule: "a non-empty name", value: "" },
      { path: "ratios[2].name", rule: "a name no other ratio has", value: "a" },
      { path: "ratios[2].metric", rule: METRIC_RULE, value: 5 },
      { path: "ratios[3].metric", rule: METRIC_RULE, value: "fio.nope" },
    ]);
  });

  test("a selector: an object naming a compared stack, with a map of plain metadata values", () => {
    expect(
      problems(
        spec({
          ratios: [
            ratio({ name: "r0", numerator: null, denominator: [] }),
            ratio({ name: "r1", numerator: { stack: "m4" }, denominator: { stack: 4 } }),
            ratio({ name: "r2", numerator: { stack: "nitro", where: [] }, denominator: { stack: "dev", where: null } }),
            ratio({
              name: "r3",
              numerator: { stack: "nitro", where: { a: { b: 1 } } },
              denominator: { stack: "dev", where: { a: "x", b: 1, c: true } },
            }),
          ],
        }),
      ),
    ).toEqual([
      { path: "ratios[0].numerator", rule: "an object {stack, where}", value: null },
      { path: "ratios[0].denominator", rule: "an object {stack, where}", value: [] },
      { path: "ratios[1].numerator.stack", rule: "one of the compared stacks (dev, nitro)", value: "m4" },
      { path: "ratios[1].denominator.stack", rule: "one of the compared stacks (dev, nitro)", value: 4 },
      { path: "ratios[2].numerator.where", rule: "a map of metadata keys to strings, numbers or booleans", value: [] },
      { path: "ratios[2].denominator.where", rule: "a map of metadata keys to strings, numbers or booleans", value: null },
      { path: "ratios[3].numerator.where", rule: "a map of metadata keys to strings, numbers or booleans", value: { a: { b: 1 } } },
    ]);
    // No compared stack: the rule says so.
    expect(problems({ stacks: {}, ratios: [ratio({ name: "x" })] })).toEqual([
      { path: "stacks", rule: "1 to 10 compared stacks", value: [] },
      { path: "ratios[0].numerator.stack", rule: "one of the compared stacks (none)", value: "nitro" },
      { path: "ratios[0].denominator.stack", rule: "one of the compared stacks (none)", value: "dev" },
    ]);
  });

  test("a ratio of one selection to itself, whatever the order of its where keys; other where values are another selection", () => {
    const self = ratio({ numerator: { stack: "dev", where: { a: 1, b: "x" } }, denominator: { stack: "dev", where: { b: "x", a: 1 } } });
    expect(problems(spec({ ratios: [self] }))).toEqual([
      {
        path: "ratios[0].denominator",
        rule: "other samples than the numerator's (a ratio of one selection to itself is 1)",
        value: { stack: "dev", where: { b: "x", a: 1 } },
      },
    ]);
    expect(
      problems(spec({ ratios: [ratio({ numerator: { stack: "dev", where: { a: 2 } }, denominator: { stack: "dev", where: { a: 1 } } })] })),
    ).toEqual([]);
    expect(problems(spec({ ratios: [ratio({ numerator: { stack: "dev", where: { a: 1 } }, denominator: { stack: "dev" } })] }))).toEqual(
      [],
    );
    // A selector with a problem of its own is not compared again.
    expect(problems(spec({ ratios: [ratio({ numerator: { stack: "m4" }, denominator: { stack: "m4" } })] }))).toEqual([
      { path: "ratios[0].numerator.stack", rule: "one of the compared stacks (dev, nitro)", value: "m4" },
      { path: "ratios[0].denominator.stack", rule: "one of the compared stacks (dev, nitro)", value: "m4" },
    ]);
  });

  test("a where map with one value that is not plain is refused whole", () => {
    expect(problems(spec({ ratios: [ratio({ numerator: { stack: "nitro", where: { a: "x", b: [1] } } })] }))).toEqual([
      { path: "ratios[0].numerator.where", rule: "a map of metadata keys to strings, numbers or booleans", value: { a: "x", b: [1] } },
    ]);
  });

  test("one side with a problem of its own and the other valid: only that problem, not 'a ratio of one selection to itself'", () => {
    expect(problems(spec({ ratios: [ratio({ numerator: { stack: "dev", where: [] }, denominator: { stack: "dev" } })] }))).toEqual([
      { path: "ratios[0].numerator.where", rule: "a map of metadata keys to strings, numbers or booleans", value: [] },
    ]);
    expect(problems(spec({ ratios: [ratio({ numerator: { stack: "dev" }, denominator: { stack: "dev", where: [] } })] }))).toEqual([
      { path: "ratios[0].denominator.where", rule: "a map of metadata keys to strings, numbers or booleans", value: [] },
    ]);
  });

  test("groupBy: a list of distinct, non-empty keys", () => {
    const rule = 'a list of distinct metadata keys (e.g. ["job","zoneRelation"])';
    expect(problems(spec({ groupBy: [] }))).toEqual([]);
    expect(problems(spec({ groupBy: "job" }))).toEqual([{ path: "groupBy", rule, value: "job" }]);
    expect(problems(spec({ groupBy: ["job", ""] }))).toEqual([{ path: "groupBy", rule, value: ["job", ""] }]);
    expect(problems(spec({ groupBy: ["job", "job"] }))).toEqual([{ path: "groupBy", rule, value: ["job", "job"] }]);
  });
});
