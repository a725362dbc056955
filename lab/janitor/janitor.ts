/**
 * `lab janitor`: the lab's stacks whose `lab:expires-at` has passed, with their age and hourly
 * cost, destroyed on confirmation (dependents first; a stack that a live stack still depends on is
 * kept).
 *
 * A stack is the lab's when it lives in this project (`pulumi stack ls` in the project directory
 * lists the project's stacks) and exports `expiresAt` (core/tags.ts `EXPIRES_AT_OUTPUT`); when its
 * state has an AWS provider, that provider's `defaultTags` must carry `lab:project` =
 * storage-bench-lab (stacks/lib/context.ts). Its age is the time since its `created-at`
 * (`time:index/static:Static`) resource's `rfc3339` output; its hourly cost is lab/cost's estimate
 * over the resources in its state (`pulumi stack export`: Pulumi's deployment format, `{version: 3,
 * deployment: {resources: [{urn, type, inputs, outputs, …}]}}`, pulumi/pulumi sdk/go/common/apitype
 * `DeploymentV3`/`ResourceV3`).
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { EXPIRES_AT_OUTPUT } from "../../core/tags";
import { estimateHourly } from "../cost/estimate";
import { upstreamNames } from "../plan/sources";
import { dependentsOf, runDag } from "../run/graph";
import { formatElapsed } from "../run/progress";
import type { JanitorWorkspace } from "../run/workspace";
import { PROJECT } from "../run/names";

export interface LabStack {
  readonly name: string;
  readonly expiresAt: Date;
  readonly createdAt?: Date;
  readonly usdPerHour: number;
  readonly unpriced: number;
  /** Names (last segment) of the stacks its `lab:*Stack` keys reference. */
  readonly upstreams: readonly string[];
}

export interface Survey {
  readonly expired: readonly LabStack[];
  readonly live: readonly LabStack[];
  /** Stacks that are not the lab's, or could not be read, with why. */
  readonly skipped: readonly string[];
}

interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
}

const last = (n: string) => n.split("/").pop() as string;

/** The lab's stacks and which of them have expired at `now`. */
export async function survey(ws: JanitorWorkspace, now: Date): Promise<Survey> {
  const expired: LabStack[] = [];
  const live: LabStack[] = [];
  const skipped: string[] = [];
  for (const s of await ws.listStacks()) {
    try {
      const outputs = await ws.stackOutputs(s.name);
      const exp = outputs[EXPIRES_AT_OUTPUT]?.value;
      if (typeof exp !== "string" || Number.isNaN(Date.parse(exp))) {
        skipped.push(`${s.name}: no ${EXPIRES_AT_OUTPUT} output (not a lab stack, or never deployed)`);
        continue;
      }
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
      const created = resources.find((r) => r.type === "time:index/static:Static" && r.urn.endsWith("::created-at"))?.outputs?.rfc3339;
      const config = await ws.getAllConfig(s.name);
      const region = String(config["aws:region"]?.value ?? "us-east-1");
      const cost = estimateHourly(
        resources.map((r) => ({ type: r.type, name: r.urn.split("::").pop() as string, inputs: r.inputs ?? {} })),
        region,
      );
      const flat = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v.value)]));
      const stack: LabStack = {
        name: s.name,
        expiresAt: new Date(exp),
        createdAt: typeof created === "string" ? new Date(created) : undefined,
        usdPerHour: cost.totalUsdPerHour,
        unpriced: cost.unpriced.length,
        upstreams: upstreamNames(flat),
      };
      (stack.expiresAt.getTime() <= now.getTime() ? expired : live).push(stack);
    } catch (e) {
      skipped.push(`${s.name}: not read: ${(e instanceof Error ? e.message : String(e)).split("\n")[0]}`);
    }
  }
  return { expired, live, skipped };
}

/** The list as printed. */
export function renderSurvey(sv: Survey, now: Date): string[] {
  const out: string[] = [];
  if (sv.expired.length === 0) out.push("no expired lab stacks");
  else {
    out.push(`${sv.expired.length} expired lab stack(s):`);
    for (const s of sv.expired) {
      const age = s.createdAt ? formatElapsed(now.getTime() - s.createdAt.getTime()) : "unknown";
      out.push(
        `  ${s.name}  expired ${formatElapsed(now.getTime() - s.expiresAt.getTime())} ago (${s.expiresAt.toISOString()})  age ${age}  $${s.usdPerHour.toFixed(4)}/h${s.unpriced ? ` (+${s.unpriced} part(s) not priced)` : ""}`,
      );
    }
    out.push(`  together $${sv.expired.reduce((n, s) => n + s.usdPerHour, 0).toFixed(4)}/h`);
  }
  if (sv.live.length > 0)
    out.push(
      `${sv.live.length} lab stack(s) not expired: ${sv.live.map((s) => `${s.name} (until ${s.expiresAt.toISOString()})`).join(", ")}`,
    );
  for (const s of sv.skipped) out.push(`skipped ${s}`);
  return out;
}

export interface JanitorOutcome {
  readonly destroyed: readonly string[];
  readonly failed: ReadonlyArray<{ stack: string; error: string }>;
  readonly kept: ReadonlyArray<{ stack: string; why: string }>;
}

/** Destroys the expired stacks, dependents first, independent ones in parallel; keeps those a live stack depends on. */
export async function destroyExpired(ws: JanitorWorkspace, sv: Survey, line: (s: string) => void): Promise<JanitorOutcome> {
  const kept: { stack: string; why: string }[] = [];
  const liveDeps = (s: LabStack) => sv.live.filter((l) => l.upstreams.includes(last(s.name))).map((l) => l.name);
  const candidates = sv.expired.filter((s) => {
    const deps = liveDeps(s);
    if (deps.length > 0) kept.push({ stack: s.name, why: `not expired: ${deps.join(", ")} depend(s) on it` });
    return deps.length === 0;
  });
  const names = candidates.map((s) => last(s.name));
  const fullName = new Map(candidates.map((s) => [last(s.name), s.name]));
  const ups = Object.fromEntries(candidates.map((s) => [last(s.name), [...s.upstreams]]));
  const res = await runDag(
    names,
    (n) => dependentsOf(n, ups, names),
    async (n) => {
      line(`destroying ${fullName.get(n)}`);
      await ws.destroyStack(fullName.get(n) as string, { color: "never" });
      line(`destroyed ${fullName.get(n)}`);
    },
    { continueOnFailure: true },
  );
  for (const n of res.notStarted) kept.push({ stack: fullName.get(n) as string, why: "a stack that depends on it was not destroyed" });
  return {
    destroyed: [...res.ok.keys()].map((n) => fullName.get(n) as string),
    failed: [...res.failed.entries()].map(([n, e]) => ({
      stack: fullName.get(n) as string,
      error: (e instanceof Error ? e.message : String(e)).split("\n")[0],
    })),
    kept,
  };
}
