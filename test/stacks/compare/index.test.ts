/** The compare kind under Pulumi's mocks with stack references (lab/plan/run.ts planStack), its config rules and its statistics. */
import { planStack, StackPlan } from "../../../lab/plan/run";
import { runStack } from "../../../stacks";
import { checkCompare, compareSchema, CompareConfig } from "../../../stacks/compare/config";
import { parseConfig } from "../../../stacks/lib/config/load";
import { median } from "../../../core/stats";
import { ratio, seriesStats } from "../../../stacks/compare/stats";
import { problemsOf } from "../../helpers/config";

const s = (stack: string, metric: string, value: number, extra: Record<string, string | number> = {}) => ({
  metric,
  value,
  unit: metric.startsWith("pgbench.latency") ? "ms" : "txn/s",
  metadata: { tool: "pgbench", stack, runId: "r1", ...extra },
});
const DEV = [
  s("dev", "pgbench.tps", 370, { rep: 1 }),
  s("dev", "pgbench.tps", 374.95, { rep: 2 }),
  s("dev", "pgbench.tps", 380, { rep: 3 }),
  s("dev", "pgbench.latency.mean", 53.35),
];
const NITRO = [
  s("nitro", "pgbench.tps", 530, { rep: 1 }),
  s("nitro", "pgbench.tps", 537.24, { rep: 2 }),
  s("nitro", "pgbench.tps", 545, { rep: 3 }),
  s("nitro", "pgbench.latency.mean", 37.23),
];

const config = {
  "aws:region": "us-east-1",
  "lab:kind": "compare",
  "lab:owner": "alice",
  "lab:devStack": "organization/storage-bench-lab/alice-r1-dev",
  "lab:nitroStack": "organization/storage-bench-lab/alice-r1-nitro",
  "lab:ratios": JSON.stringify([
    { name: "nitro/dev pgbench TPS", metric: "pgbench.tps", numerator: { stack: "nitro" }, denominator: { stack: "dev" } },
    { name: "nitro/dev pgbench latency", metric: "pgbench.latency.mean", numerator: { stack: "nitro" }, denominator: { stack: "dev" } },
  ]),
};

async function plan(
  results: Record<string, unknown> | undefined,
): Promise<{ plan: StackPlan; outputs: Record<string, unknown>; seen: string[] }> {
  const seen: string[] = [];
  const r = await planStack({ name: "compare", source: "test", config, secretKeys: [] }, runStack, (name) => {
    seen.push(name);
    const stack = name.split("-").pop() as string;
    return { outputs: { ...(results ? { results: results[stack] } : {}), storageClass: "rook-ceph-block" }, secretOutputNames: [] };
  });
  return { plan: r.plan, outputs: r.planned.outputs, seen };
}

describe("compare kind under mocks", () => {
  test("one StackReference per lab:<label>Stack key; stats per metric and stack; ratios with their spread", async () => {
    const { plan: p, outputs, seen } = await plan({ dev: DEV, nitro: NITRO });
    // StackReferences reach the mock by their `name` input (DESIGN.md: type pulumi:pulumi:StackReference, inputs.name)
    expect([...new Set(seen)].sort()).toEqual([
      "organization/storage-bench-lab/alice-r1-dev",
      "organization/storage-bench-lab/alice-r1-nitro",
    ]);
    expect(outputs.stacks).toEqual({
      dev: "organization/storage-bench-lab/alice-r1-dev",
      nitro: "organization/storage-bench-lab/alice-r1-nitro",
    });
    expect(outputs.stats).toEqual([
      { metric: "pgbench.latency.mean", unit: "ms", stack: "dev", group: {}, n: 1, median: 53.35, min: 53.35, max: 53.35 },
      { metric: "pgbench.latency.mean", unit: "ms", stack: "nitro", group: {}, n: 1, median: 37.23, min: 37.23, max: 37.23 },
      { metric: "pgbench.tps", unit: "txn/s", stack: "dev", group: {}, n: 3, median: 374.95, min: 370, max: 380 },
      { metric: "pgbench.tps", unit: "txn/s", stack: "nitro", group: {}, n: 3, median: 537.24, min: 530, max: 545 },
    ]);
    expect(outputs.ratios).toEqual([
      {
        name: "nitro/dev pgbench TPS",
        metric: "pgbench.tps",
        unit: "txn/s",
        numerator: { stack: "nitro", where: {}, n: 3, median: 537.24, min: 530, max: 545 },
        denominator: { stack: "dev", where: {}, n: 3, median: 374.95, min: 370, max: 380 },
        value: 537.24 / 374.95,
        low: 530 / 380,
        high: 545 / 370,
      },
      {
        name: "nitro/dev pgbench latency",
        metric: "pgbench.latency.mean",
        unit: "ms",
        numerator: { stack: "nitro", where: {}, n: 1, median: 37.23, min: 37.23, max: 37.23 },
        denominator: { stack: "dev", where: {}, n: 1, median: 53.35, min: 53.35, max: 53.35 },
        value: 37.23 / 53.35,
        low: 37.23 / 53.35,
        high: 37.23 / 53.35,
      },
    ]);
    expect(Number((outputs.ratios as { value: number }[])[0].value.toFixed(2))).toBe(1.43); // the published ×1.43
    expect(p.resources.filter((r) => r.custom).map((r) => r.type)).toEqual(["time:index/static:Static"]);
    expect(outputs.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test("upstream results not known yet (a preview, the offline plan): stats and ratios are unknown, not an error", async () => {
    const { plan: p } = await plan(undefined);
    expect(p.outputs.stats).toBe("<computed>");
    expect(p.outputs.ratios).toBe("<computed>");
  });

  test("a ratio whose side has no samples fails naming the ratio and the stack", async () => {
    await expect(plan({ dev: DEV.filter((x) => x.metric !== "pgbench.latency.mean"), nitro: NITRO })).rejects.toThrow(
      "ratio 'nitro/dev pgbench latency': stack 'dev' has no pgbench.latency.mean samples",
    );
  });
});

describe("compare config: every problem at once, with the key the user typed", () => {
  const parse = (raw: Record<string, string>) => () =>
    parseConfig("compare", compareSchema(raw), raw, (c) => checkCompare(c as CompareConfig));
  test("ratios naming stacks that are not compared, a duplicate name, a ratio of one selection to itself; no compared stack", () => {
    const ratios = [
      { name: "a", metric: "pgbench.tps", numerator: { stack: "nitro" }, denominator: { stack: "m4" } },
      { name: "a", metric: "pgbench.tps", numerator: { stack: "dev" }, denominator: { stack: "dev" } },
    ];
    expect(
      problemsOf(
        parse({
          "aws:region": "us-east-1",
          "lab:kind": "compare",
          "lab:owner": "a",
          "lab:devStack": "o/p/dev",
          "lab:nitroStack": "o/p/nitro",
          "lab:ratios": JSON.stringify(ratios),
        }),
      ),
    ).toEqual([
      `'lab:ratios[0].denominator.stack' must be one of the compared stacks (dev, nitro), got "m4"`,
      `'lab:ratios[1].name' must be a name no other ratio has, got "a"`,
      `'lab:ratios[1].denominator' must be other samples than the numerator's (a ratio of one selection to itself is 1), got {"stack":"dev"}`,
    ]);
    expect(problemsOf(parse({ "aws:region": "us-east-1", "lab:kind": "compare", "lab:owner": "a" }))).toEqual([
      "'lab:<label>Stack' must be set for 1 to 10 compared stacks (e.g. lab:devStack), got []",
    ]);
    expect(
      problemsOf(parse({ "aws:region": "us-east-1", "lab:kind": "compare", "lab:owner": "a", "lab:devStack": "not a stack name" })),
    ).toEqual([
      `'lab:devStack' must be the name of the compared (dev) stack (org/storage-bench-lab/<stack>, each part at most 100 characters), got "not a stack name"`,
    ]);
  });
});

describe("statistics", () => {
  test("median of odd and even counts; series split by groupBy metadata", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const fio = (zone: string, v: number) => ({
      metric: "fio.read.iops",
      value: v,
      unit: "op/s",
      metadata: { tool: "fio" as const, zoneRelation: zone, job: "randrw" },
    });
    const st = seriesStats({ fsxEks: [fio("same", 37500), fio("same", 37000), fio("cross", 33400)] }, ["job", "zoneRelation"]);
    expect(st.map((x) => [x.group, x.n, x.median])).toEqual([
      [{ job: "randrw", zoneRelation: "cross" }, 1, 33400],
      [{ job: "randrw", zoneRelation: "same" }, 2, 37250],
    ]);
    const r = ratio(
      {
        name: "cross/same",
        metric: "fio.read.iops",
        numerator: { stack: "fsxEks", where: { zoneRelation: "cross" } },
        denominator: { stack: "fsxEks", where: { zoneRelation: "same" } },
      },
      { fsxEks: [fio("same", 37500), fio("same", 37000), fio("cross", 33400)] },
    );
    expect([r.value, r.low, r.high]).toEqual([33400 / 37250, 33400 / 37500, 33400 / 37000]);
  });
});
