/**
 * Names of a run: its run id, the Pulumi stacks it creates, and its config. A run's stacks are
 * `<owner>-<runId>-<stack>` (`alice-r250301-142500-network`), so two users or two runs never
 * share a stack, and the scenario's `lab:*Stack` references are rewritten to them.
 */
import { commonFields, PROJECT_NAMESPACE } from "../../stacks/lib/config/common";
import { problem } from "../../core/errors";

/** The project (Pulumi.yaml `name`): the middle segment of a stack's fully qualified name. */
export const PROJECT = PROJECT_NAMESPACE;
/** The organization of self-managed (DIY) backends: "org must be set to organization" (Automation API `fullyQualifiedStackName`, pulumi/pulumi sdk/nodejs/automation/stack.ts). */
export const DIY_ORGANIZATION = "organization";
/** Pulumi stack names: letters, digits, '-', '_', '.' (pulumi.com/docs/iac/concepts/stacks); Pulumi Cloud allows 100 characters. */
export const MAX_STACK_NAME = 100;

/** `r<yymmdd>-<hhmmss>` in UTC: a valid `lab:runId` (14 characters, room for `-<rep>`). */
export function defaultRunId(now: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `r${p(now.getUTCFullYear() % 100)}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
}

/** The run id of the k-th run (k ≥ 2) of a rerun step. */
export function repRunId(runId: string, k: number): string {
  return `${runId}-${k}`;
}

/** Problems of a run id (the `lab:runId` rule of stacks/lib/config/common.ts), the repetitions' ids included. */
export function runIdProblems(runId: string, maxRep = 1): string[] {
  const ids = [runId, ...Array.from({ length: Math.max(0, maxRep - 1) }, (_, i) => repRunId(runId, i + 2))];
  const bad = ids.find((id) => !commonFields.runId.safeParse(id).success);
  if (bad === undefined) return [];
  const rule = "a run id of 1–20 lowercase letters, digits or '-', starting with a letter or digit (e.g. r2)";
  return [problem("--run-id", bad === runId ? rule : `${rule}, with room for the rerun ids up to ${repRunId(runId, maxRep)}`, runId)];
}

/** A user name as a stack-name segment: lowercase letters, digits and '-', at most 20. */
export function userSlug(user: string): string {
  const s = user
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 20)
    .replace(/-+$/, "");
  return s.length > 0 ? s : "lab";
}

/** The Pulumi stack a run creates for scenario stack `stack`. */
export function runStackName(user: string, runId: string, stack: string): string {
  return `${userSlug(user)}-${runId}-${stack}`;
}

export function fullyQualified(org: string, stack: string): string {
  return `${org}/${PROJECT}/${stack}`;
}

/**
 * `config` with every `lab:*Stack` reference to a stack of the scenario (by its last segment)
 * pointed at the run's stack of that name (`toRun(stack)`, fully qualified).
 */
export function rewriteReferences(
  config: Readonly<Record<string, string>>,
  scenarioStacks: readonly string[],
  toRun: (stack: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) {
    const last = v.split("/").pop() as string;
    out[k] = /^lab:[A-Za-z0-9]+Stack$/.test(k) && scenarioStacks.includes(last) ? toRun(last) : v;
  }
  return out;
}

/** One `--set stack.key=value`: `*` for every stack; a key without a namespace is a `lab:` key. */
export interface SetOption {
  readonly stack: string;
  readonly key: string;
  readonly value: string;
}

const SET_RE = /^([A-Za-z0-9_.-]+?|\*)\.((?:[A-Za-z0-9_-]+:)?[A-Za-z0-9_.-]+)=(.*)$/s;

/** Parses `--set` values against the scenario's stacks; problems name the option as typed. */
export function parseSets(values: readonly string[], stacks: readonly string[]): { sets: SetOption[]; problems: string[] } {
  const sets: SetOption[] = [];
  const problems: string[] = [];
  for (const v of values) {
    const m = SET_RE.exec(v);
    if (!m) {
      problems.push(problem("--set", "<stack>.<key>=<value> (e.g. dev.lab:reps=5, or *.lab:owner=alice for every stack)", v));
      continue;
    }
    const stack = m[1];
    const key = m[2].includes(":") ? m[2] : `lab:${m[2]}`;
    if (stack !== "*" && !stacks.includes(stack)) {
      problems.push(problem("--set", `a stack of the scenario (${stacks.join(", ")}) or * before the first '.'`, v));
      continue;
    }
    if (key === "lab:runId") {
      problems.push(problem("--set", "no lab:runId (give the run's id with --run-id)", v));
      continue;
    }
    sets.push({ stack, key, value: m[3] });
  }
  return { sets, problems };
}

/** The keys `--set` gives `stack`, in order (later wins). */
export function setsFor(stack: string, sets: readonly SetOption[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of sets) if (s.stack === "*" || s.stack === stack) out[s.key] = s.value;
  return out;
}
