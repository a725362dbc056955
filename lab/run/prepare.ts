/**
 * The offline half of `lab run` (and all of `--dry-run`): the scenario loaded and validated, the
 * options checked, every stack's config assembled (file, scenario, `--set`, `lab:runId`) and planned
 * under Pulumi's mock runtime (lab/plan) — the same validation as `lab plan`, so a config error is
 * reported, with every other problem, before any cloud call.
 */
import { ConfigError } from "../../core/errors";
import { loadScenario, LoadedScenario, ScenarioError } from "../../scenarios/load";
import { runStack } from "../../stacks";
import { scenarioSpecs } from "../plan";
import { PlannedOutputs, PlanError, planStack, StackPlan, StackSpec } from "../plan/run";
import { dependencyOrder, stackReferences, upstreamNames } from "../plan/sources";
import * as fs from "node:fs";
import * as path from "node:path";
import { upstreamsAmong } from "./graph";
import { defaultRunId, parseSets, repRunId, runIdProblems, setsFor } from "./names";

export interface RunOptions {
  readonly keep?: boolean;
  /** `stack.key=value`, repeatable. */
  readonly set?: readonly string[];
  readonly runId?: string;
  readonly verbose?: boolean;
  readonly dryRun?: boolean;
  /** The organization of the run's stacks. @default "organization" on self-managed backends, else the Pulumi user */
  readonly org?: string;
}

export interface OfflinePrep {
  readonly scenario?: LoadedScenario;
  readonly runId: string;
  /** Scenario stacks with their whole config, in dependency order. */
  readonly specs: readonly StackSpec[];
  readonly plans: ReadonlyMap<string, StackPlan>;
  readonly upstreams: Readonly<Record<string, string[]>>;
  readonly problems: readonly string[];
}

/** A plan error as lines: `stack <s>: <problem>` for each problem of a ConfigError, else the message. */
export function planErrorLines(stack: string, e: unknown): string[] {
  const cause = e instanceof PlanError ? e.cause : e;
  if (cause instanceof ConfigError) return cause.problems.map((p) => `stack ${stack}: ${p}`);
  const msg = cause instanceof Error ? cause.message : String(cause);
  return msg.split("\n").map((l, i) => (i === 0 ? `stack ${stack}: ${l}` : `  ${l}`));
}

/** Plans every spec it can (a stack whose upstream failed is reported, not planned); collects every problem. */
export async function planEach(specs: readonly StackSpec[]): Promise<{ plans: Map<string, StackPlan>; problems: string[] }> {
  const plans = new Map<string, StackPlan>();
  const planned = new Map<string, PlannedOutputs>();
  const failed = new Set<string>();
  const problems: string[] = [];
  const names = specs.map((s) => s.name);
  for (const spec of dependencyOrder(specs)) {
    const bad = upstreamNames(spec.config).filter((u) => names.includes(u) && failed.has(u));
    if (bad.length > 0) {
      // Its own config is still checked (the config is parsed before any upstream output is read);
      // whatever else fails is the upstream's doing.
      failed.add(spec.name);
      try {
        await planStack(spec, runStack, (n) => planned.get(n.split("/").pop() as string) ?? { outputs: {}, secretOutputNames: [] });
      } catch (e) {
        const cause = e instanceof PlanError ? e.cause : e;
        // Problems about the failed upstreams' keys (their outputs, read here as none) are theirs.
        const keys = stackReferences(spec.config)
          .filter(({ stack }) => bad.includes(stack.split("/").pop() as string))
          .map(({ key }) => key);
        if (cause instanceof ConfigError)
          problems.push(
            ...planErrorLines(spec.name, new ConfigError(cause.problems.filter((l) => !keys.some((k) => l.startsWith(`'${k}' `))))),
          );
      }
      problems.push(`stack ${spec.name}: not planned further: its upstream ${bad.join(", ")} has problems`);
      continue;
    }
    try {
      const r = await planStack(spec, runStack, (n) => planned.get(n.split("/").pop() as string));
      plans.set(spec.name, r.plan);
      planned.set(spec.name, r.planned);
    } catch (e) {
      failed.add(spec.name);
      problems.push(...planErrorLines(spec.name, e));
    }
  }
  return { plans, problems };
}

/** Reruns the scenario's steps ask for at most (for the run ids they need). */
export function maxRuns(scenario: LoadedScenario): number {
  return 1 + Math.max(0, ...scenario.steps.map((s) => s.times));
}

export async function prepareOffline(name: string, opts: RunOptions, root: string, resultsRoot: string, now: Date): Promise<OfflinePrep> {
  const runId = opts.runId ?? defaultRunId(now);
  let scenario: LoadedScenario;
  try {
    scenario = loadScenario(name, root);
  } catch (e) {
    if (e instanceof ScenarioError) return { runId, specs: [], plans: new Map(), upstreams: {}, problems: [...e.problems] };
    throw e;
  }
  const problems: string[] = [];
  problems.push(...runIdProblems(runId, maxRuns(scenario)));
  const names = scenario.stacks.map((s) => s.name);
  const { sets, problems: setProblems } = parseSets(opts.set ?? [], names);
  problems.push(...setProblems);
  const specs = scenarioSpecs(scenario, root).map((spec) => {
    for (const k of spec.secretKeys)
      problems.push(
        `stack ${spec.name}: '${k}' is a secure: value, which a run's new stack cannot decrypt: give it with --set ${spec.name}.${k}=…`,
      );
    return { ...spec, config: { ...spec.config, ...setsFor(spec.name, sets), "lab:runId": runId }, secretKeys: [] };
  });
  const { plans, problems: planProblems } = await planEach(specs);
  problems.push(...planProblems);
  // A run directory is written once (lab/results/files.ts): refuse now rather than after the benchmarks.
  const ids = Array.from({ length: maxRuns(scenario) }, (_, i) => (i === 0 ? runId : repRunId(runId, i + 1)));
  for (const [stack, plan] of plans) {
    if (!("results" in plan.outputs)) continue;
    for (const id of ids) {
      const dir = path.join(resultsRoot, stack, id);
      if (fs.existsSync(dir)) problems.push(`results: ${dir} exists already (a run's results are written once): pick another --run-id`);
    }
  }
  const upstreams = upstreamsAmong(Object.fromEntries(specs.map((s) => [s.name, s.config])));
  return { scenario, runId, specs, plans, upstreams, problems };
}
