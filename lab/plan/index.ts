/** The offline plan of one or several stacks, each after the stacks it references. */
import * as path from "node:path";
import { Scenario } from "../../scenarios/types";
import { planStack, PlannedOutputs, StackPlan, StackSpec } from "./run";
import { dependencyOrder, readStackConfigFile, specFromConfigObject } from "./sources";

export type Program = Parameters<typeof planStack>[1];

export interface PlanResult {
  readonly spec: StackSpec;
  readonly plan: StackPlan;
}

/**
 * Plans `specs` in dependency order. A StackReference resolves to a stack planned earlier in this
 * call (by the last segment of its name), else to `fallback` (e.g. the shipped stacks).
 */
export async function planAll(
  specs: readonly StackSpec[],
  program: Program,
  fallback: ReadonlyMap<string, PlannedOutputs> = new Map(),
): Promise<PlanResult[]> {
  const planned = new Map<string, PlannedOutputs>();
  const results: PlanResult[] = [];
  for (const spec of dependencyOrder(specs)) {
    const resolve = (name: string) => {
      const key = name.split("/").pop() as string;
      return planned.get(key) ?? fallback.get(key);
    };
    const { plan, planned: outs } = await planStack(spec, program, resolve);
    planned.set(spec.name, outs);
    results.push({ spec, plan });
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
