/**
 * The offline half of `lab run` (and all of `--dry-run`): the scenario loaded and validated, the
 * options checked, every stack's config assembled (file, scenario, `--set`, `lab:runId`) and planned
 * under Pulumi's mock runtime (lab/plan) — the same validation as `lab plan`, so a config error is
 * reported, with every other problem, before any cloud call.
 */
import { secretsProviderProblems } from "./preflight";
import { ConfigError } from "../../core/errors";
import { loadScenario, LoadedScenario, ScenarioError } from "../../scenarios/load";
import { runStack } from "../../stacks";
import { scenarioSpecs } from "../plan";
import { PlannedOutputs, PlanError, planStack, StackPlan, StackSpec } from "../plan/run";
import { dependencyOrder, stackReferences, upstreamNames } from "../plan/sources";
import * as fs from "node:fs";
import * as path from "node:path";
import { evaluatePlan } from "../policy/evaluate";
import {
  ADMIN_KEY,
  ADMIN_MIN_PREFIX_KEY,
  ADMIN_ROLES_KEY,
  adminCidrOptionProblems,
  kindHasKey,
  placeholderProblems,
  withAdminCidr,
  withCleanupRole,
  withWideAdmin,
} from "./admin";
import { experimentResultDirs, runSteps } from "./experiments";
import { upstreamsAmong } from "./graph";
import { defaultRunId, parseSets, repRunId, runIdProblems, setsFor } from "./names";

export interface RunOptions {
  readonly keep?: boolean;
  /** `stack.key=value`, repeatable. */
  readonly set?: readonly string[];
  readonly runId?: string;
  readonly verbose?: boolean;
  readonly dryRun?: boolean;
  /** Leave out the scenario's failover experiment steps. @default false */
  readonly skipExperiments?: boolean;
  /** The organization of the run's stacks. @default "organization" on self-managed backends, else the Pulumi user */
  readonly org?: string;
  /**
   * `--admin-cidr`: `lab:adminCidrs` of every stack whose kind has the key (./admin.ts); `auto` is
   * resolved before (lab/cli/run.ts) and left unset for `--dry-run`.
   */
  readonly adminCidr?: string;
  /** `--allow-wide-admin`: `lab:adminCidrMinPrefix` 8 on every stack whose kind has it (admin CIDRs up to a /8). */
  readonly allowWideAdmin?: boolean;
  /**
   * `--cleanup-role-arn`: added to `lab:adminRoleArns` of every stack whose kind has the key (the
   * EKS clusters' admin access entries), so the cleanup identity (`lab janitor`, docs/ci.md) can
   * delete the clusters' Kubernetes objects.
   */
  readonly cleanupRoleArn?: string;
  /** `--secrets-provider`: the secrets provider of the stacks the run creates (lab/run/preflight.ts secretsProviderProblems). */
  readonly secretsProvider?: string;
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

/**
 * Stack problems about a key an option set (`'lab:adminCidrs[0]' must be …` of every stack the
 * option reached) as one problem under the option the user typed (`'--admin-cidr' must be …`); and
 * when nothing else is wrong, without the "not planned further" lines that follow from them.
 */
export function asOptionProblems(lines: readonly string[], options: Readonly<Record<string, string>>): string[] {
  const renamed = lines.map((l) => {
    for (const [key, option] of Object.entries(options)) {
      const m = new RegExp(`^stack [^:]+: '${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\[\\d+\\])?' (must be .*)$`).exec(l);
      if (m) return { line: `'${option}' ${m[2]}`, option: true };
    }
    return { line: l, option: false };
  });
  const consequence = (l: string) => / not planned further: its upstream .* has problems$/.test(l);
  const onlyOptions = renamed.every((r) => r.option || consequence(r.line));
  return [...new Set(renamed.filter((r) => !(onlyOptions && consequence(r.line))).map((r) => r.line))];
}

/** The directory of the lab's CrossGuard pack (lab/policy/pack): every run's `up` enforces it. */
export const POLICY_PACK_DIR = path.join("lab", "policy", "pack");

/**
 * The mandatory violations of the lab's policy rules (lab/policy, the rules of the CrossGuard pack)
 * over the planned stacks, one problem each: the run stops before anything is created.
 */
export function policyProblems(plans: ReadonlyMap<string, StackPlan>): string[] {
  const out: string[] = [];
  for (const [stack, plan] of plans)
    for (const v of evaluatePlan(plan))
      if (v.enforcementLevel === "mandatory")
        out.push(`stack ${stack}: policy (mandatory): ${v.message}: fix the config (the rules: lab/policy)`);
  return out;
}

/** Reruns the scenario's steps ask for at most (for the run ids they need). */
export function maxRuns(scenario: LoadedScenario): number {
  return 1 + Math.max(0, ...scenario.steps.map((s) => (s.kind === "rerun" ? s.times : 0)));
}

export async function prepareOffline(name: string, opts: RunOptions, root: string, resultsRoot: string, now: Date): Promise<OfflinePrep> {
  const runId = opts.runId ?? defaultRunId(now);
  let scenario: LoadedScenario;
  try {
    const loaded = loadScenario(name, root);
    scenario = { ...loaded, steps: runSteps(loaded.steps, opts.skipExperiments === true) };
  } catch (e) {
    if (e instanceof ScenarioError) return { runId, specs: [], plans: new Map(), upstreams: {}, problems: [...e.problems] };
    throw e;
  }
  const problems: string[] = [];
  // A bad option is one problem under its own name: the stacks are planned without it (a bad --run-id
  // as the default one, a bad --admin-cidr not applied), so they do not report it again as their key.
  const runIdBad = runIdProblems(runId, maxRuns(scenario));
  problems.push(...runIdBad);
  const stackRunId = runIdBad.length > 0 ? defaultRunId(now) : runId;
  const names = scenario.stacks.map((s) => s.name);
  const { sets, problems: setProblems } = parseSets(opts.set ?? [], names);
  problems.push(...setProblems);
  problems.push(...secretsProviderProblems(opts.secretsProvider));
  const given = opts.adminCidr !== undefined && opts.adminCidr !== "auto" ? opts.adminCidr : undefined;
  const adminBad = given !== undefined ? adminCidrOptionProblems(given) : [];
  problems.push(...adminBad);
  const admin = adminBad.length === 0 ? given : undefined;
  const specs = scenarioSpecs(scenario, root).map((spec) => {
    for (const k of spec.secretKeys)
      problems.push(
        `stack ${spec.name}: '${k}' is a secure: value, which a run's new stack cannot decrypt: give it with --set ${spec.name}.${k}=…`,
      );
    // `--set '*.key=v'` gives the key to the stacks whose kind has it; a named stack gets it as asked.
    const kind = spec.config["lab:kind"] ?? "";
    const own = sets.filter((s) => s.stack === spec.name || (s.stack === "*" && kindHasKey(kind, s.key, spec.config)));
    const withAdmin = admin !== undefined ? withAdminCidr(spec.config, admin) : spec.config;
    const withCleanup = opts.cleanupRoleArn !== undefined ? withCleanupRole(withAdmin, opts.cleanupRoleArn) : withAdmin;
    const base = opts.allowWideAdmin === true ? withWideAdmin(withCleanup) : withCleanup;
    return { ...spec, config: { ...base, ...setsFor(spec.name, own), "lab:runId": stackRunId }, secretKeys: [] };
  });
  // A placeholder administrator address would close the cluster to the user after money is spent.
  if (!opts.dryRun && adminBad.length === 0) problems.push(...placeholderProblems(specs));
  const { plans, problems: planProblems } = await planEach(specs);
  problems.push(
    ...asOptionProblems(planProblems, {
      ...(admin !== undefined ? { [ADMIN_KEY]: "--admin-cidr" } : {}),
      ...(opts.runId !== undefined ? { "lab:runId": "--run-id" } : {}),
      ...(opts.cleanupRoleArn !== undefined ? { [ADMIN_ROLES_KEY]: "--cleanup-role-arn" } : {}),
    }).map((l) =>
      opts.allowWideAdmin === true ? l : l.replace(`'${ADMIN_MIN_PREFIX_KEY}' allows wider`, "--allow-wide-admin allows wider"),
    ),
  );
  if (!opts.dryRun) problems.push(...policyProblems(plans));
  // A run directory is written once (lab/results/files.ts): refuse now rather than after the benchmarks.
  const ids = Array.from({ length: maxRuns(scenario) }, (_, i) => (i === 0 ? runId : repRunId(runId, i + 1)));
  for (const [stack, plan] of plans) {
    if (!("results" in plan.outputs)) continue;
    for (const id of ids) {
      const dir = path.join(resultsRoot, stack, id);
      if (fs.existsSync(dir)) problems.push(`results: ${dir} exists already (a run's results are written once): pick another --run-id`);
    }
  }
  for (const dir of experimentResultDirs(resultsRoot, scenario.steps, runId))
    if (fs.existsSync(dir)) problems.push(`results: ${dir} exists already (a run's results are written once): pick another --run-id`);
  const upstreams = upstreamsAmong(Object.fromEntries(specs.map((s) => [s.name, s.config])));
  return { scenario, runId, specs, plans, upstreams, problems };
}
