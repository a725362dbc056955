/**
 * lab/plan/index.ts: every shipped stack (each Pulumi.*.yaml found, so a new kind is covered without
 * editing this file) and every scenario planned as the first preview of new stacks: the preview a
 * first `pulumi up` runs, with every new resource's outputs unknown and every invoke through a
 * provider whose configuration is unknown answered {} (issues 18 and 19).
 */
import { planAll, PlanMemo, planKey, PlanResult, scenarioSpecs } from "../../../lab/plan";
import { PlannedOutputs, StackPlan, StackSpec } from "../../../lab/plan/run";
import { shippedStacks, withUpstreams } from "../../../lab/plan/sources";
import { SCENARIOS } from "../../../scenarios";
import { runStack } from "../../../stacks";
import { ROOT } from "../../helpers/root";

const shipped = shippedStacks(ROOT);
const byStack = (results: readonly PlanResult[], name: string): StackPlan => results.find((r) => r.spec.name === name)!.plan;

/** What a first preview must have: the default plan's resources, known provider configs, unknown expiry. */
function expectSoundFirstPreview(preview: StackPlan, deployed: StackPlan) {
  // Resources of the default plan only (in another order: unknown values settle at other times); some
  // may be missing, as in the real preview: those created inside an `apply` over a value unknown until deploy.
  const deployedUrns = new Set(deployed.resources.map((r) => r.urn));
  expect(preview.resources.map((r) => r.urn).filter((u) => !deployedUrns.has(u))).toEqual([]);
  expect(preview.resources.length).toBeGreaterThan(0);
  expect(Object.keys(preview.outputs)).toEqual(Object.keys(deployed.outputs));
  // Every AWS provider's configuration is known: the engine configures it, and its invokes are answered.
  // (A Kubernetes provider may well be unknown: its cluster is created in the same update.)
  const providers = preview.resources.filter((r) => r.type === "pulumi:providers:aws");
  if (preview.resources.some((r) => r.type.startsWith("aws:"))) expect(providers.length).toBeGreaterThan(0);
  expect(providers.filter((r) => JSON.stringify(r.inputs).includes("<computed>")).map((r) => r.inputs)).toEqual([]);
  // The expiry comes from the first deploy time: unknown until the first deploy.
  expect(preview.outputs.expiresAt).toBe("<computed>");
  expect(deployed.outputs.expiresAt).toMatch(/^2026-01-01T\d\d:00:00Z$/);
}

test("the shipped stacks are discovered from the Pulumi.<stack>.yaml files", () => {
  expect(shipped.length).toBeGreaterThanOrEqual(5);
  expect(shipped.map((s) => s.source)).toEqual(shipped.map((s) => `Pulumi.${s.name}.yaml`));
});

describe.each(shipped.map((s) => [s.name]))("shipped stack %s", (name) => {
  test("plans as its first preview, upstream stacks read as deployed", async () => {
    const chain = withUpstreams(
      shipped.find((s) => s.name === name)!,
      shipped,
    );
    const preview = await planAll(chain, runStack, undefined, { firstPreview: true, firstPreviewOf: [name] });
    const deployed = await planAll(chain, runStack);
    expect(preview.map((r) => r.spec.name)).toEqual(deployed.map((r) => r.spec.name));
    expectSoundFirstPreview(byStack(preview, name), byStack(deployed, name));
    // Upstream stacks are planned as deployed (the same plan as the default one), not as previews.
    for (const up of chain.filter((s) => s.name !== name)) expect(byStack(preview, up.name)).toEqual(byStack(deployed, up.name));
  });
});

describe.each(SCENARIOS.map((s) => [s.name, s]))("scenario %s", (_, scenario) => {
  test("every stack plans as its first preview", async () => {
    const specs = scenarioSpecs(scenario, ROOT);
    const preview = await planAll(specs, runStack, undefined, { firstPreview: true });
    const deployed = await planAll(specs, runStack);
    expect(preview.map((r) => r.spec.name)).toEqual(deployed.map((r) => r.spec.name));
    for (const r of preview) expectSoundFirstPreview(r.plan, byStack(deployed, r.spec.name));
  });
});

describe("a memo of plans (lab plan --all plans the shipped stacks, then mostly the same again per scenario)", () => {
  const network = shipped.find((s) => s.name === "network")!;
  const up: PlannedOutputs = { outputs: { vpcId: "vpc-1" }, secretOutputNames: [] };
  const spec = (over: Partial<StackSpec>): StackSpec => ({
    name: "s",
    source: "a",
    config: { "lab:networkStack": "o/p/network" },
    secretKeys: [],
    ...over,
  });

  test("a plan made once is reused: the same object, equal to a plan made without the memo", async () => {
    const memo: PlanMemo = new Map();
    const [first] = await planAll([network], runStack, undefined, {}, memo);
    const [again] = await planAll([{ ...network, source: "scenario x" }], runStack, undefined, {}, memo);
    expect(memo.size).toBe(1);
    expect(again.plan).toBe(first.plan);
    expect(again.spec.source).toBe("scenario x");
    const [fresh] = await planAll([network], runStack);
    expect(first.plan).toEqual(fresh.plan);
  });

  test("the key: name, config (in any order), secret keys, mode and the upstream outputs read; not the source", () => {
    const key = (s: StackSpec, firstPreview = false, outs: PlannedOutputs | null = up) =>
      planKey(s, { firstPreview }, () => outs ?? undefined);
    const base = key(spec({}));
    expect(key(spec({ source: "b" }))).toBe(base);
    expect(key(spec({ config: { "lab:networkStack": "o/p/network", "lab:owner": "a" } }))).not.toBe(base);
    expect(planKey(spec({ config: { "lab:owner": "a", "lab:networkStack": "o/p/network" } }), {}, () => up)).toBe(
      key(spec({ config: { "lab:networkStack": "o/p/network", "lab:owner": "a" } })),
    );
    expect(key(spec({ name: "t" }))).not.toBe(base);
    expect(key(spec({ secretKeys: ["lab:networkStack"] }))).not.toBe(base);
    expect(key(spec({}), true)).not.toBe(base);
    expect(key(spec({}), false, { outputs: { vpcId: "vpc-2" }, secretOutputNames: [] })).not.toBe(base);
    expect(key(spec({}), false, null)).not.toBe(base);
  });
});
