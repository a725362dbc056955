/**
 * Stack exports for the utilization and manifest tests, made from the real stack programs: the
 * shipped stacks planned under the project's mocks (lab/plan), each planned resource turned into
 * an exported one as `pulumi stack export` writes it (`{urn, type, id, parent, inputs, outputs}`),
 * with the id the plan's fakes give it (lab/plan/fakes.ts) and, as outputs, its inputs, the fakes'
 * state and what only AWS would report (`extra`: zone ids, root volume ids, a volume's IOPS).
 */
import * as path from "node:path";
import { planAll } from "../../../lab/plan";
import { fakeState } from "../../../lab/plan/fakes";
import type { StackPlan } from "../../../lab/plan/run";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { runStack } from "../../../stacks";
import type { StackExport, StateResource } from "../../../lab/utilization/state";
import type { ConfigEntry } from "../../../core/manifest";

export const ROOT = path.resolve(__dirname, "../../..");
export const shipped = (stack: string) => readStackConfigFile(path.join(ROOT, `Pulumi.${stack}.yaml`), stack);

/** The shipped stacks `names`, planned together (upstream references resolved among them). */
export async function planShipped(names: readonly string[]): Promise<Map<string, StackPlan>> {
  const results = await planAll(names.map(shipped), runStack);
  return new Map(results.map((r) => [r.spec.name, r.plan]));
}

/** What AWS would add to a resource's outputs, by resource name. */
export type Extra = Readonly<Record<string, Record<string, unknown>>>;

/** A plan as a stack export; `extra` adds outputs by resource name (merged into the resource's own). */
export function exportOf(plan: StackPlan, extra: Extra = {}, more: readonly StateResource[] = []): StackExport {
  const region = plan.config["aws:region"] ?? "us-east-1";
  const resources: StateResource[] = plan.resources.map((r) => {
    const { id, state } = fakeState(r.type, r.name, r.inputs, { region });
    return {
      urn: r.urn,
      type: r.type,
      ...(r.custom ? { id } : {}),
      ...(r.parent === null ? {} : { parent: r.parent }),
      inputs: r.inputs,
      outputs: { ...r.inputs, ...state, ...(r.type.startsWith("aws:") ? { region } : {}), ...(extra[r.name] ?? {}) },
    };
  });
  return { version: 3, deployment: { resources: [...resources, ...more] } };
}

/** The config of a plan as `pulumi config --json` prints it (every value a string). */
export function configOf(plan: StackPlan): Record<string, ConfigEntry> {
  return Object.fromEntries(Object.entries(plan.config).map(([k, v]) => [k, { value: v, secret: false }]));
}

/** The id the plan's fakes give a resource. */
export function idOf(plan: StackPlan, name: string, type: string): string {
  const r = plan.resources.find((x) => x.name === name && x.type === type);
  if (r === undefined) throw new Error(`no ${type} ${name} in the plan of ${plan.stack}`);
  return fakeState(r.type, r.name, r.inputs, { region: plan.config["aws:region"] ?? "us-east-1" }).id;
}
