/** `lab plan --stack S --change KEY=VALUE… | --change-config FILE [--allow-replace]` (lab/plan/change). */
import { runStack } from "../../stacks";
import { ChangeArgumentError, changedSpec, planChange, renderChangePlan } from "../plan/change";
import { refusals } from "../plan/change/diff";
import { leverImpacts, renderLeverPage } from "../plan/change/table";
import { shippedStacks } from "../plan/sources";
import { UsageError } from "./errors";

export interface PlanChangeOptions {
  stack?: string;
  change?: string[];
  changeConfig?: string;
  allowReplace?: boolean;
}

/** What `lab plan --change` prints, and whether it refused the change (exit 1). */
export async function runPlanChange(opts: PlanChangeOptions, root: string): Promise<{ text: string; refused: boolean }> {
  if (opts.stack === undefined) throw new UsageError("lab plan --change and --change-config need --stack S (the deployed stack to change)");
  const shipped = shippedStacks(root);
  const spec = shipped.find((s) => s.name === opts.stack);
  if (!spec) {
    throw new UsageError(`no stack '${opts.stack}': the shipped stacks are ${shipped.map((s) => s.name).join(", ")} (Pulumi.<stack>.yaml)`);
  }
  // A bad argument and a creation-time key (both ChangeArgumentError) are usage errors: exit 2.
  let plan;
  try {
    plan = await planChange(spec, changedSpec(spec, { changes: opts.change, changeConfig: opts.changeConfig }), shipped, runStack);
  } catch (e) {
    if (e instanceof ChangeArgumentError) throw new UsageError(e.message);
    throw e;
  }
  const allow = opts.allowReplace === true;
  return {
    text: renderChangePlan(plan, allow),
    refused: (!allow && refusals(plan).length > 0) || plan.benchmarks.sameRunId.length > 0 || plan.held.length > 0,
  };
}

/** `lab plan --change-table`: docs/changing-a-live-stack.md as generated. */
export async function runChangeTable(root: string): Promise<string> {
  return renderLeverPage(await leverImpacts(shippedStacks(root), runStack));
}
