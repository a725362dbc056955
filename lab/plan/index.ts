/** The offline plan of one or several stacks, each after the stacks it references. */
import * as path from "node:path";
import { Scenario } from "../../scenarios/types";
import { PlanMode, planStack, PlannedOutputs, StackPlan, StackSpec } from "./run";
import { dependencyOrder, readStackConfigFile, specFromConfigObject, stackReferences, upstreamNames } from "./sources";

export type Program = Parameters<typeof planStack>[1];

/** How {@link planAll} plans its stacks. */
export interface PlanAllMode extends PlanMode {
  /** With `firstPreview`, the stacks to plan as a first preview (the others only as deployed). @default every stack */
  readonly firstPreviewOf?: readonly string[];
}

export interface PlanResult {
  readonly spec: StackSpec;
  readonly plan: StackPlan;
}

/**
 * Plans already made, by everything a plan depends on ({@link planKey}), for one program: `lab plan
 * --all` plans the shipped stacks, then each scenario's, which are mostly the same stacks with the
 * same config and the same upstream outputs. A plan is a function of those (every fake derives from
 * the stack's and the resource's names: ./fakes.ts), so a plan made once is the plan made twice.
 */
export type PlanMemo = Map<string, { plan: StackPlan; planned: PlannedOutputs }>;

/** What a plan depends on: the stack's name, config and secret keys, the mode, and the outputs its references read. */
export function planKey(spec: StackSpec, mode: PlanMode, resolve: (stack: string) => PlannedOutputs | undefined): string {
  const config = Object.entries(spec.config).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const upstream = stackReferences(spec.config).map(({ stack }) => [stack, resolve(stack) ?? null]);
  return JSON.stringify([spec.name, config, [...spec.secretKeys].sort(), mode.firstPreview === true, mode.showSecrets === true, upstream]);
}

/**
 * Plans `specs` in dependency order. A StackReference resolves to a stack planned earlier in this
 * call (by the last segment of its name), else to `fallback` (e.g. the shipped stacks).
 *
 * With `mode.firstPreview` each stack (or each of `mode.firstPreviewOf`) is planned as its first
 * preview (./run.ts), and its stack references read the upstream stacks as deployed: a stack that
 * another one in `specs` references is also planned in the default mode, for its outputs after a
 * deploy. The result holds each stack once: its first preview where one was asked for.
 *
 * With `memo`, a stack planned before (same name, config, mode and upstream outputs) is not planned again.
 */
export async function planAll(
  specs: readonly StackSpec[],
  program: Program,
  fallback: ReadonlyMap<string, PlannedOutputs> = new Map(),
  mode: PlanAllMode = {},
  memo?: PlanMemo,
): Promise<PlanResult[]> {
  const planned = new Map<string, PlannedOutputs>();
  const results: PlanResult[] = [];
  const ordered = dependencyOrder(specs);
  const referenced = new Set(ordered.flatMap((s) => upstreamNames(s.config)));
  for (const spec of ordered) {
    const resolve = (name: string) => {
      const key = name.split("/").pop() as string;
      return planned.get(key) ?? fallback.get(key);
    };
    const plan1 = async (m: PlanMode) => {
      // A plan with its own EC2 offerings (a test's) is never memoized: the key cannot hold a function.
      const key = memo && m.offered === undefined ? planKey(spec, m, resolve) : undefined;
      const made = key !== undefined ? memo?.get(key) : undefined;
      if (made) return made;
      const r = await planStack(spec, program, resolve, m);
      if (key !== undefined) memo?.set(key, r);
      return r;
    };
    const firstPreview = mode.firstPreview === true && (mode.firstPreviewOf?.includes(spec.name) ?? true);
    const shown = { ...(mode.showSecrets === true ? { showSecrets: true } : {}), ...(mode.offered ? { offered: mode.offered } : {}) };
    if (firstPreview) results.push({ spec, plan: (await plan1({ firstPreview, ...shown })).plan });
    if (!firstPreview || referenced.has(spec.name)) {
      const { plan, planned: outs } = await plan1(shown);
      if (!firstPreview) results.push({ spec, plan });
      planned.set(spec.name, outs);
    }
  }
  return results;
}

/** A scenario's stacks as plan specs: each file's config with the scenario's config over it. */
export function scenarioSpecs(scenario: Scenario, rootDir: string): StackSpec[] {
  return scenario.stacks.map((s) => {
    const base = s.file ? readStackConfigFile(path.join(rootDir, s.file), s.name) : undefined;
    const over = specFromConfigObject(s.name, `scenario ${scenario.name}`, { ...(s.config ?? {}) });
    return {
      name: s.name,
      source: s.file ? `${s.file} (scenario ${scenario.name})` : `scenario ${scenario.name}`,
      config: { ...(base?.config ?? {}), ...over.config },
      secretKeys: [...new Set([...(base?.secretKeys ?? []), ...over.secretKeys])],
    };
  });
}
