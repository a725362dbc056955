/**
 * `lab janitor`: the lab's stacks whose `lab:expires-at` has passed (and, on request, those whose
 * expiry is unknown because their first `up` failed), with their age and hourly cost, destroyed on
 * confirmation (dependents first, each retried as the runner does; a stack that a live stack still
 * depends on is kept). A stack that could not be read is reported and makes the janitor fail: a
 * cron job never reads "nothing to do" when it could not look.
 *
 * A stack is the lab's when it lives in this project (`pulumi stack ls` in the project directory
 * lists the project's stacks) and exports `expiresAt` (core/tags.ts `EXPIRES_AT_OUTPUT`); when its
 * state has an AWS provider, that provider's `defaultTags` must carry `lab:project` =
 * storage-bench-lab (stacks/lib/context.ts). Its age is the time since its `created-at`
 * (`time:index/static:Static`) resource's `rfc3339` output; its hourly cost is lab/cost's estimate
 * over the resources in its state (`pulumi stack export`: Pulumi's deployment format, `{version: 3,
 * deployment: {resources: [{urn, type, inputs, outputs, …}]}}`, pulumi/pulumi sdk/go/common/apitype
 * `DeploymentV3`/`ResourceV3`).
 *
 * Which stacks a stack depends on comes from its state, not from local `Pulumi.<stack>.yaml` files
 * (which a CI machine does not have): each `StackReference` is a resource of type
 * `pulumi:pulumi:StackReference` whose `name` input (and output, and id) is the referenced stack's
 * fully qualified name (@pulumi/pulumi stackReference.js registers it with `{ name }`). Its region
 * is the AWS provider's `region` input in the state.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { EXPIRES_AT_OUTPUT } from "../../core/tags";
import { estimateHourly } from "../cost/estimate";
import { pulumiError } from "../run/cli-errors";
import { dependentsOf, runDag } from "../run/graph";
import { formatElapsed } from "../../core/elapsed";
import { DESTROY_ATTEMPTS, RETRY_DELAY_MS } from "../run/runner";
import type { JanitorWorkspace } from "../run/workspace";
import { PROJECT } from "../run/names";

export interface LabStack {
  readonly name: string;
  /** Undefined: expiry unknown (no `expiresAt` output: its first up failed). */
  readonly expiresAt?: Date;
  readonly createdAt?: Date;
  readonly usdPerHour: number;
  readonly unpriced: number;
  /** Names (last segment) of the stacks its state's StackReferences read. */
  readonly upstreams: readonly string[];
}

export interface Survey {
  readonly expired: readonly LabStack[];
  readonly live: readonly LabStack[];
  /** Lab stacks without `expiresAt`, with the time of their state. */
  readonly unknown: readonly LabStack[];
  /** Stacks that are not the lab's, with why. */
  readonly skipped: readonly string[];
  /** Stacks that could not be read, with the Pulumi CLI's error: the janitor fails on any. */
  readonly unreadable: readonly string[];
}

export interface SurveyOptions {
  /** Only the stacks of this run (`<user>-<runId>-<stack>`, lab/run/names.ts), expired or not. */
  readonly runId?: string;
}

interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
  /** The URNs it depends on (apitype ResourceV3 `dependencies`). */
  readonly dependencies?: readonly string[];
}

/** The last segment of `org/project/stack`: how the run's stacks and their config files are named. */
export const shortName = (n: string) => n.split("/").pop() as string;

/** Whether stack `name` (any qualification) is one of run `runId`'s (lab/run/names.ts `runStackName`). */
export function ofRun(name: string, runId: string): boolean {
  return new RegExp(`^[a-z0-9-]+-${runId.replace(/[^a-z0-9-]/g, "")}-[A-Za-z0-9_.-]+$`).test(shortName(name));
}

/** The fully qualified names the state's StackReferences read. */
export function stackReferences(resources: readonly StateResource[]): string[] {
  const out: string[] = [];
  for (const r of resources) {
    if (r.type !== "pulumi:pulumi:StackReference") continue;
    const n = r.inputs?.name ?? r.outputs?.name ?? r.id;
    if (typeof n === "string" && n !== "" && !out.includes(n)) out.push(n);
  }
  return out;
}

/** The lab's stacks and which of them have expired at `now` (with `runId`: that run's stacks, all due). */
export async function survey(ws: JanitorWorkspace, now: Date, opts: SurveyOptions = {}): Promise<Survey> {
  const expired: LabStack[] = [];
  const live: LabStack[] = [];
  const unknown: LabStack[] = [];
  const skipped: string[] = [];
  const unreadable: string[] = [];
  for (const s of await ws.listStacks()) {
    if (opts.runId !== undefined && !ofRun(s.name, opts.runId)) continue;
    try {
      const outputs = await ws.stackOutputs(s.name);
      const exp = outputs[EXPIRES_AT_OUTPUT]?.value;
      const hasExpiry = typeof exp === "string" && !Number.isNaN(Date.parse(exp));
      const deployment: Deployment = await ws.exportStack(s.name);
      const resources: StateResource[] = (deployment.deployment as { resources?: StateResource[] } | undefined)?.resources ?? [];
      const provider = resources.find((r) => r.type === "pulumi:providers:aws");
      // A provider's inputs are kept as strings in the state, structured ones as JSON (the plan shows the same: lab/plan).
      const raw = provider?.inputs?.defaultTags;
      const defaultTags = (typeof raw === "string" ? JSON.parse(raw) : raw) as { tags?: Record<string, string> } | undefined;
      const project = defaultTags?.tags?.["lab:project"];
      if (provider && project !== PROJECT) {
        skipped.push(`${s.name}: its AWS provider's lab:project tag is ${JSON.stringify(project)}, not ${PROJECT}`);
        continue;
      }
      if (!hasExpiry && !provider) {
        skipped.push(
          `${s.name}: no ${EXPIRES_AT_OUTPUT} output and no lab AWS provider in its state (not a lab stack, or nothing deployed)`,
        );
        continue;
      }
      const created = resources.find((r) => r.type === "time:index/static:Static" && r.urn.endsWith("::created-at"))?.outputs?.rfc3339;
      const stateTime = (deployment.deployment as { manifest?: { time?: unknown } } | undefined)?.manifest?.time;
      const region = typeof provider?.inputs?.region === "string" ? provider.inputs.region : "us-east-1";
      const cost = estimateHourly(
        // With the URNs and dependencies, as the plan's estimate has them (an Elastic IP association names its instance).
        resources.map((r) => ({ type: r.type, name: r.urn.split("::").pop() as string, inputs: r.inputs ?? {}, urn: r.urn, dependencies: r.dependencies })),
        region,
      );
      const startedAt = typeof created === "string" ? created : typeof stateTime === "string" ? stateTime : undefined;
      const stack: LabStack = {
        name: s.name,
        ...(hasExpiry ? { expiresAt: new Date(exp as string) } : {}),
        createdAt: startedAt !== undefined && !Number.isNaN(Date.parse(startedAt)) ? new Date(startedAt) : undefined,
        usdPerHour: cost.totalUsdPerHour,
        unpriced: cost.unpriced.length,
        upstreams: stackReferences(resources).map(shortName),
      };
      if (!stack.expiresAt) unknown.push(stack);
      else (opts.runId !== undefined || stack.expiresAt.getTime() <= now.getTime() ? expired : live).push(stack);
    } catch (e) {
      unreadable.push(`${s.name}: ${pulumiError(e)}`);
    }
  }
  return { expired, live, unknown, skipped, unreadable };
}

const money = (s: LabStack) => `$${s.usdPerHour.toFixed(4)}/h${s.unpriced ? ` (+${s.unpriced} part(s) not priced)` : ""}`;

/** The list as printed. */
export function renderSurvey(sv: Survey, now: Date, runId?: string): string[] {
  const out: string[] = [];
  const what = runId === undefined ? "expired lab stack" : `lab stack of run ${runId}`;
  if (sv.expired.length === 0) out.push(`no ${what}s${sv.unreadable.length > 0 ? " among those read" : ""}`);
  else {
    out.push(`${sv.expired.length} ${what}(s):`);
    for (const s of sv.expired) {
      const age = s.createdAt ? formatElapsed(now.getTime() - s.createdAt.getTime()) : "unknown";
      const exp = s.expiresAt as Date;
      const when =
        exp.getTime() <= now.getTime()
          ? `expired ${formatElapsed(now.getTime() - exp.getTime())} ago`
          : `expires in ${formatElapsed(exp.getTime() - now.getTime())}`;
      out.push(`  ${s.name}  ${when} (${exp.toISOString()})  age ${age}  ${money(s)}`);
    }
    out.push(`  together $${sv.expired.reduce((n, s) => n + s.usdPerHour, 0).toFixed(4)}/h`);
  }
  if (sv.live.length > 0)
    out.push(
      `${sv.live.length} lab stack(s) not expired: ${sv.live.map((s) => `${s.name} (until ${(s.expiresAt as Date).toISOString()})`).join(", ")}`,
    );
  if (sv.unknown.length > 0) {
    out.push(
      `${sv.unknown.length} lab stack(s) of unknown expiry (no expiresAt output: their first up failed; destroyed with --include-unknown):`,
    );
    for (const s of sv.unknown)
      out.push(
        `  ${s.name}  expiry unknown  started ${s.createdAt ? `${s.createdAt.toISOString()} (${formatElapsed(now.getTime() - s.createdAt.getTime())} ago)` : "at an unknown time"}  ${money(s)}`,
      );
  }
  for (const s of sv.skipped) out.push(`skipped ${s}`);
  for (const s of sv.unreadable) out.push(`NOT READ ${s}`);
  return out;
}

export interface JanitorOutcome {
  readonly destroyed: readonly string[];
  readonly failed: ReadonlyArray<{ stack: string; error: string }>;
  readonly kept: ReadonlyArray<{ stack: string; why: string }>;
}

/** How the janitor retries a destroy: the runner's attempts and wait (lab/run/runner.ts). */
export interface RetryOptions {
  readonly attempts: number;
  readonly delayMs: number;
}

/**
 * Destroys the due stacks (`sv.expired`, and `sv.unknown` with `includeUnknown`), dependents first,
 * independent ones in parallel, each retried; keeps those a live stack depends on.
 */
export async function destroyExpired(
  ws: JanitorWorkspace,
  sv: Survey,
  line: (s: string) => void,
  opts: { includeUnknown?: boolean; retry?: RetryOptions } = {},
): Promise<JanitorOutcome> {
  const retry = opts.retry ?? { attempts: DESTROY_ATTEMPTS, delayMs: RETRY_DELAY_MS };
  const kept: { stack: string; why: string }[] = [];
  const others = [...sv.live, ...(opts.includeUnknown ? [] : sv.unknown)];
  const dependents = (s: LabStack, among: readonly LabStack[]) =>
    among.filter((l) => l.upstreams.includes(shortName(s.name))).map((l) => l.name);
  // A due stack stays when a stack that stays depends on it: not due ones, then the due ones kept for that, to a fixpoint.
  let candidates = [...sv.expired, ...(opts.includeUnknown ? sv.unknown : [])];
  const keptStacks: LabStack[] = [];
  for (let changed = true; changed;) {
    changed = false;
    for (const s of candidates) {
      const notDue = dependents(s, others);
      const keptDeps = dependents(s, keptStacks);
      if (notDue.length + keptDeps.length === 0) continue;
      kept.push({
        stack: s.name,
        why: notDue.length > 0 ? `not due: ${notDue.join(", ")} depend(s) on it` : `${keptDeps.join(", ")} depend(s) on it and stay(s)`,
      });
      keptStacks.push(s);
      changed = true;
    }
    candidates = candidates.filter((s) => !keptStacks.includes(s));
  }
  const names = candidates.map((s) => shortName(s.name));
  const fullName = new Map(candidates.map((s) => [shortName(s.name), s.name]));
  const ups = Object.fromEntries(candidates.map((s) => [shortName(s.name), [...s.upstreams]]));
  const res = await runDag(
    names,
    (n) => dependentsOf(n, ups, names),
    async (n) => {
      const fq = fullName.get(n) as string;
      for (let attempt = 1; ; attempt++) {
        line(`destroying ${fq}${attempt > 1 ? ` (attempt ${attempt}/${retry.attempts})` : ""}`);
        try {
          await ws.destroyStack(fq, { color: "never" });
          break;
        } catch (e) {
          if (attempt >= retry.attempts) throw e;
          line(
            `destroy of ${fq} failed (attempt ${attempt}/${retry.attempts}): ${pulumiError(e)}; retrying in ${formatElapsed(retry.delayMs)}`,
          );
          await new Promise((r) => setTimeout(r, retry.delayMs));
        }
      }
      line(`destroyed ${fq}`);
    },
    { continueOnFailure: true },
  );
  for (const n of res.notStarted) kept.push({ stack: fullName.get(n) as string, why: "a stack that depends on it was not destroyed" });
  return {
    destroyed: [...res.ok.keys()].map((n) => fullName.get(n) as string),
    failed: [...res.failed.entries()].map(([n, e]) => ({
      stack: fullName.get(n) as string,
      error: pulumiError(e),
    })),
    kept,
  };
}
