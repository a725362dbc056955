/**
 * `lab plan --stack S --change KEY=VALUE… | --change-config FILE [--allow-replace]`: plans the
 * stack as it is (its shipped config) and as it would be after the change, both offline as a
 * settled stack (every resource exists), with the same upstream stacks, and lists what the change
 * updates, replaces (why, and what that destroys), creates and deletes (./diff.ts).
 */
import { PlanMemo, Program, planAll } from "..";
import type { StackSpec } from "../run";
import { readStackConfigFile, withUpstreams } from "../sources";
import { creationTimeProblems, oneWayProblems } from "./creation-time";
import { ChangePlan, configChanges, diffPlans, disruptions, refusals, ResourceChange, STOP_START_SOURCE } from "./diff";
import { heldInstead, NAMED_DBR_SOURCE } from "./held";

/** A `--change` argument that is not `KEY=VALUE` with a config key. */
export class ChangeArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChangeArgumentError";
  }
}

const KEY_RE = /^(lab|aws):[A-Za-z][A-Za-z0-9]*$/;

/**
 * `KEY=VALUE` pairs → config entries (values exactly as typed, as `pulumi config set` stores them;
 * a list key takes its JSON, e.g. `lab:adminCidrs=["203.0.113.9/32"]`). Every bad one at once.
 */
export function parseChanges(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const problems: string[] = [];
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (eq < 0) problems.push(`'--change' must be KEY=VALUE (e.g. lab:runId=r2), got ${JSON.stringify(pair)}`);
    else if (!KEY_RE.test(key))
      problems.push(`'--change' key must be a config key like lab:<name> or aws:<name>, got ${JSON.stringify(key)}`);
    else if (key === "lab:kind")
      problems.push(`'--change' cannot change lab:kind: a stack of another kind is another stack, got ${JSON.stringify(pair)}`);
    else out[key] = pair.slice(eq + 1);
  }
  if (problems.length > 0) throw new ChangeArgumentError(problems.join("\n"));
  return out;
}

export interface ChangeRequest {
  /** `--change KEY=VALUE` arguments, applied over the stack's config. */
  readonly changes?: readonly string[];
  /** `--change-config FILE`: the whole new config of the stack. */
  readonly changeConfig?: string;
}

/** The stack's config after the change. */
export function changedSpec(spec: StackSpec, req: ChangeRequest): StackSpec {
  if ((req.changes?.length ?? 0) > 0 === (req.changeConfig !== undefined)) {
    throw new ChangeArgumentError("lab plan --stack S needs exactly one of --change KEY=VALUE… or --change-config FILE to plan a change");
  }
  if (req.changeConfig !== undefined) {
    const next = readStackConfigFile(req.changeConfig, spec.name);
    if (next.config["lab:kind"] !== spec.config["lab:kind"]) {
      throw new ChangeArgumentError(
        `'lab:kind' in ${req.changeConfig} must be the stack's own kind ${spec.config["lab:kind"]}, got ${JSON.stringify(next.config["lab:kind"])}`,
      );
    }
    return { ...next, source: `${req.changeConfig} (new config of ${spec.name})` };
  }
  const set = parseChanges(req.changes ?? []);
  return { ...spec, config: { ...spec.config, ...set }, source: `${spec.source} with --change` };
}

/** A change of a key the upstream tool fixes at creation (./creation-time.ts): refused before planning. */
export class CreationTimeChangeError extends ChangeArgumentError {
  constructor(message: string) {
    super(message);
    this.name = "CreationTimeChangeError";
  }
}

/** Plans `spec` before and after the change, with the shipped stacks it references as its upstreams. */
export async function planChange(
  spec: StackSpec,
  next: StackSpec,
  shipped: readonly StackSpec[],
  program: Program,
  memo?: PlanMemo,
): Promise<ChangePlan> {
  const changes = configChanges(spec.config, next.config);
  const kind = String(spec.config["lab:kind"]);
  const fixed = [...creationTimeProblems(kind, changes), ...oneWayProblems(kind, changes, next.config)];
  if (fixed.length > 0) throw new CreationTimeChangeError(fixed.join("\n"));
  const planOf = async (s: StackSpec) => {
    const results = await planAll(
      withUpstreams(
        s,
        shipped.filter((x) => x.name !== s.name),
      ),
      program,
      undefined,
      {},
      memo,
    );
    return (results.find((r) => r.spec.name === s.name) as { plan: Parameters<typeof diffPlans>[0] }).plan;
  };
  const before = await planOf(spec);
  const after = await planOf(next);
  return diffPlans(before, after);
}

const LABEL: Record<ResourceChange["action"], string> = {
  update: "updated in place",
  replace: "REPLACED",
  unknown: "UNKNOWN effect",
  create: "created",
  delete: "DELETED",
};

/** The change plan as text: the config change, one block per changed resource, the totals, the refusals, the sources cited. */
export function renderChangePlan(plan: ChangePlan, allowReplace: boolean): string {
  const out: string[] = [];
  const sources: string[] = [];
  const cite = (source: string) => {
    if (!source) return "";
    if (!sources.includes(source)) sources.push(source);
    return ` [${sources.indexOf(source) + 1}]`;
  };
  const shown = (v: string | undefined) => (v === undefined ? "(unset: its default)" : v);
  out.push(`change plan of stack ${plan.stack} (${plan.kind}), offline, against the stack as deployed:`);
  for (const c of plan.config) out.push(`  ${c.key}: ${shown(c.before)} -> ${shown(c.after)}`);
  for (const c of plan.changes) {
    out.push(`${LABEL[c.action]}: ${c.type} ${c.name}${c.renamedFrom ? ` (replaces ${c.renamedFrom})` : ""}`);
    for (const v of c.inputs.filter((i) => c.action !== "replace" || i.verdict === "replace"))
      out.push(`    ${v.path}: ${v.rule}${cite(v.source)}`);
    if (c.renamedFrom)
      out.push(
        `    its name carries a changed value: a new logical name is a new resource, created before ${c.renamedFrom} is deleted${cite(URN_SOURCE)}`,
      );
    if (c.destroys)
      out.push(
        `    destroys: ${c.destroys.what}${c.action === "replace" && c.deleteBeforeReplace ? ` (deleted before its replacement is created${c.type.startsWith("kubernetes:") ? cite(NAMED_DBR_SOURCE) : ""})` : ""}`,
      );
  }
  const count = (a: ResourceChange["action"]) => plan.changes.filter((c) => c.action === a).length;
  out.push(
    `${plan.unchanged} unchanged, ${count("update")} updated in place, ${count("replace")} replaced, ${count("create")} created, ` +
      `${count("delete")} deleted, ${count("unknown")} of unknown effect`,
  );
  for (const d of disruptions(plan)) out.push(`disrupts: ${d}${cite(STOP_START_SOURCE)}`);
  for (const name of plan.benchmarks.reRun) out.push(`runs its benchmark: ${name}: a new run id, so its samples are new`);
  for (const name of plan.benchmarks.sameRunId)
    out.push(
      `runs again under the same run id: ${name}: its Job is re-created, and a run id runs once (where its stamp survives ` +
        "on the storage, the fio, ioping and pgbench scripts refuse it with exit 4 and the update fails there; on new storage, " +
        "or for an OMB cell, the run replaces the results measured under that run id)",
    );
  for (const k of plan.benchmarks.kept) {
    out.push(
      `keeps the setup its samples were measured on: ${k.name} (its inputs but the trigger are ignored; it recorded the setup when it ran${cite(RECORDED_SOURCE)})`,
    );
    for (const m of k.keys) out.push(`    ${m.key}: measured with ${shown(m.before)}, the config now says ${shown(m.after)}`);
    out.push("    to measure the changed setup, set a new lab:runId");
  }
  const refused = refusals(plan);
  if (refused.length > 0) {
    out.push(
      allowReplace
        ? `--allow-replace: accepted ${refused.length} change(s) that destroy data or may (${refused.map((c) => c.name).join(", ")})`
        : `refused: ${refused.length} change(s) would destroy data or may (${refused.map((c) => c.name).join(", ")}); re-run with --allow-replace to accept`,
    );
  }
  if (plan.benchmarks.sameRunId.length > 0)
    out.push(
      `refused: ${plan.benchmarks.sameRunId.length} benchmark(s) would run again under run id(s) that ran ` +
        `(${plan.benchmarks.sameRunId.join(", ")}); set a new lab:runId with this change (--allow-replace does not accept this)`,
    );
  for (const h of plan.held) out.push(`cannot finish: ${h.name}: ${h.why}${cite(h.source)}${cite(h.wait)}`);
  if (plan.held.length > 0)
    out.push(
      `refused: ${plan.held.length} deletion(s) cannot finish on the running cluster (${plan.held.map((h) => h.name).join(", ")}); ` +
        `instead, ${heldInstead(plan.kind, plan.stack)} (--allow-replace does not accept this)`,
    );
  if (sources.length > 0) out.push("sources:", ...sources.map((s, i) => `  [${i + 1}] ${s}`));
  return out.join("\n");
}

/** Why a kept collector's samples keep their setup. */
export const RECORDED_SOURCE =
  "components/bench/collect.ts RUN_METADATA_ENV: scripts/collect-job.sh prints the setup it was created with before the Job's log; the samples read it from there";

/** Where a resource's identity is its URN (project, stack, type, name): a new name is a new resource. */
export const URN_SOURCE =
  'https://www.pulumi.com/docs/iac/concepts/resources/names/ ("changing the name of a resource will create a new resource and delete the old/original resource")';
