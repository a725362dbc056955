/**
 * `lab run`: one experiment end to end on the Automation API (./workspace.ts), PerfKitBenchmarker's
 * provision → run → cleanup with a guaranteed cleanup:
 *
 * 1. preflight: every problem at once, nothing created when there is one (./preflight.ts);
 * 2. up: each stack created (or selected), configured and brought up once its upstream stacks are
 *    up, independent stacks in parallel (./graph.ts);
 * 3. steps, in order: reruns of benchmarks, and the failover experiments through `env.runExperiment`
 *    (./experiments.ts), each after its stack's benchmark results are saved;
 * 4. results: every stack's `results` written to `results/<stack>/<runId>/` — before anything is
 *    destroyed, on every path (after a failure or Ctrl-C the results there are are saved first);
 *    then `env.afterResults` (the run's report, ./report.ts), still before any destroy;
 * 5. destroy: every stack the run created, dependents first (independent ones in parallel), each
 *    retried, on success (unless `--keep`), on any failure and on Ctrl-C. A destroy that still fails
 *    leaves it and the stacks it depends on, reported with the commands that finish the job.
 *
 * Ctrl-C: the first cancels the running operations (the CLI gets SIGINT and stops gracefully, see
 * ./workspace.ts) and cleans up as after a failure; the second stops at once and reports what is
 * left. From a terminal the Pulumi CLI processes get the same SIGINT as `lab` (one foreground
 * process group), so `forwardInterrupt: false` keeps the runner from sending a second one, which the
 * CLI would take as "terminate immediately".
 */
import type { EventEmitter } from "node:events";
import type { ConfigMap, OutputMap } from "@pulumi/pulumi/automation";
import { isExperimentStep, type ExperimentStep, type ScenarioStep } from "../../scenarios/types";
import { pulumiError } from "./cli-errors";
import { dependentsOf, runDag } from "./graph";
import { repRunId } from "./names";
import { OpProgress, Reporter } from "./progress";
import type { RunStackHandle, RunWorkspace } from "./workspace";

/** One stack of a run. */
export interface RunStackSpec {
  /** The scenario's name for it (results/<name>/…, progress lines). */
  readonly name: string;
  /** The Pulumi stack the run creates, fully qualified. */
  readonly fqName: string;
  /** Its whole config, flat (`lab:runId` and rewritten references included). */
  readonly config: Readonly<Record<string, string>>;
  /** Scenario stacks it references. */
  readonly upstreams: readonly string[];
  /** Resources in its offline plan: the total of its `up` progress. */
  readonly plannedResources?: number;
}

export interface RunPlan {
  readonly scenario: string;
  readonly runId: string;
  /** In dependency order. */
  readonly stacks: readonly RunStackSpec[];
  readonly steps: readonly ScenarioStep[];
  readonly keep: boolean;
  /** The run's Pulumi work directory (lab/run/workdir.ts: where the commands to finish a cleanup run). */
  readonly workDir: string;
  /** CrossGuard policy packs every `up` enforces (`--policy-pack`). @default none */
  readonly policyPacks?: readonly string[];
}

/** What preflight hands the run: every problem, or the plan and the workspace to run it on. */
export interface Preflight {
  readonly problems: readonly string[];
  readonly run?: { readonly plan: RunPlan; readonly workspace: RunWorkspace };
}

/** What an experiment step gets from the runner. */
export interface StepContext {
  /** The stack's Pulumi name, fully qualified. */
  readonly fqName: string;
  readonly runId: string;
  /** The stack's outputs from its last up (secrets in clear, as the Automation API returns them). */
  readonly outputs: OutputMap;
  /** Aborted on the first Ctrl-C: the experiment stops and cleans up. */
  readonly abort: AbortSignal;
  /** Aborted on the second Ctrl-C: the experiment's cleanup stops. */
  readonly stop: AbortSignal;
}

/** What an experiment step hands back; `ok: false` fails the run (the cleanup still saves and destroys). */
export interface StepOutcome {
  readonly ok: boolean;
  readonly error?: string;
  /** The experiment's results directory, when its evidence was written. */
  readonly resultsDir?: string;
}

export interface RunEnv {
  readonly preflight: () => Promise<Preflight>;
  readonly reporter: Reporter;
  /** Writes a stack's `results` to results/<stack>/<runId>/; the directory, or undefined when the stack has no `results` output. */
  readonly saveResults: (stack: string, outputs: OutputMap) => string | undefined;
  /** Keeps a copy of a stack's outputs (secrets masked) after each up: the safety net of the results. */
  readonly archiveOutputs?: (stack: string, outputs: OutputMap) => void;
  /**
   * Saves what a stack whose up failed had already collected (lab/run/partial.ts), before any
   * destroy; the directory, or undefined when there was nothing.
   */
  readonly savePartial?: (stack: string, fqName: string, runId: string) => Promise<string | undefined>;
  /** Runs a failover experiment step (./experiments.ts); without it such a step fails the run. */
  readonly runExperiment?: (step: ExperimentStep, ctx: StepContext) => Promise<StepOutcome>;
  /**
   * Runs once the results are saved, before the first destroy (also after a failure, when results
   * were saved): writes the run's report over `saved`; its lines go into the closing report. Never
   * fails the run: a rejection is reported as one line.
   */
  readonly afterResults?: (saved: readonly string[], status: "complete" | "partial") => Promise<readonly string[]>;
  /** Emits "cancel" (first Ctrl-C) and "stop" (second). */
  readonly interrupts?: EventEmitter;
  /** Send SIGINT to running operations on the first Ctrl-C (false when the terminal already did). @default true */
  readonly forwardInterrupt?: boolean;
  /** Attempts of each destroy. @default 3 */
  readonly destroyAttempts?: number;
  /** Wait between two destroy attempts. @default 30000 */
  readonly retryDelayMs?: number;
  readonly clock?: () => number;
  /** Least time between two progress lines of one operation. @default 10000 */
  readonly progressIntervalMs?: number;
}

export type RunStatus = "succeeded" | "kept" | "preflight-failed" | "failed" | "interrupted" | "stopped";

export interface LeftStack {
  readonly stack: string;
  readonly fqName: string;
  readonly why: string;
}

export interface RunOutcome {
  readonly status: RunStatus;
  /** The stage that failed or was interrupted (`up dev`, `step 1 rerun dev (lab:runId r1-2)`, `results save dev`, `destroy nitro`). */
  readonly stage?: string;
  readonly error?: string;
  /** Problems of a failed preflight. */
  readonly problems: readonly string[];
  readonly created: readonly string[];
  /** In the order their destroys finished. */
  readonly destroyed: readonly string[];
  readonly left: readonly LeftStack[];
  /** Results directories written. */
  readonly saved: readonly string[];
  readonly exitCode: number;
  /** The closing report, as printed. */
  readonly report: readonly string[];
}

/** Attempts of each destroy, and the wait between two (the runner's defaults; the janitor's too). */
export const DESTROY_ATTEMPTS = 3;
export const RETRY_DELAY_MS = 30_000;

/** Exit codes of `lab run`. */
export const EXIT = { ok: 0, failed: 1, preflight: 2, left: 3, interrupted: 130 } as const;

/** A failure in one line: the Pulumi CLI's own error lines when it printed some (./cli-errors.ts). */
const firstLine = (e: unknown) => pulumiError(e);
const toConfigMap = (c: Readonly<Record<string, string>>): ConfigMap =>
  Object.fromEntries(Object.entries(c).map(([k, v]) => [k, { value: v }]));

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** Runs a scenario; never rejects: every failure is in the outcome. */
export async function runScenario(env: RunEnv): Promise<RunOutcome> {
  const clock = env.clock ?? Date.now;
  const t0 = clock();
  const r = env.reporter;
  const interval = env.progressIntervalMs ?? 10_000;
  const attempts = env.destroyAttempts ?? DESTROY_ATTEMPTS;
  const forward = env.forwardInterrupt ?? true;

  const created: string[] = [];
  const handles = new Map<string, RunStackHandle>();
  const outputs = new Map<string, OutputMap>();
  const reached = new Map<string, number>();
  const savedOutputs = new WeakSet<OutputMap>();
  /** Stacks whose up failed: their completed collectors are saved before the destroy. */
  const upFailed = new Map<string, string>();
  const saved: string[] = [];
  const destroyed: string[] = [];
  const active = new Set<string>();
  let failure: { stage: string; error: string } | undefined;
  let interrupted = false;
  let stopped = false;
  let plan: RunPlan | undefined;
  let workspace: RunWorkspace | undefined;

  const ops = new AbortController();
  const stopCtl = new AbortController();
  // In-process steps (experiments) get no terminal SIGINT: they are always told.
  const stepAbort = new AbortController();
  const stepStop = new AbortController();
  let reportLines: readonly string[] = [];
  let opsCancelled = false;
  const cancelOps = () => {
    if (!opsCancelled) ops.abort();
    opsCancelled = true;
  };
  const fail = (stage: string, e: unknown) => {
    if (!failure) {
      failure = { stage, error: firstLine(e) };
      r.line(`failed: ${stage}: ${firstLine(e)}`);
    }
    cancelOps();
  };

  let resolveStop: () => void = () => undefined;
  const stopP = new Promise<"stop">((res) => (resolveStop = () => res("stop")));
  const onCancel = () => {
    if (interrupted) return;
    interrupted = true;
    const during = [...active].join(", ") || "cleanup";
    if (!failure) failure = { stage: `interrupted (Ctrl-C) during ${during}`, error: "interrupted" };
    r.line(
      "Ctrl-C: cancelling the running operations, then saving results and destroying what was created; press Ctrl-C again to stop at once",
    );
    r.line("  (a cancelled operation first waits for the cloud operations already running: an FSx file system create can take 40 minutes)");
    stepAbort.abort();
    if (forward) cancelOps();
    else opsCancelled = true; // the terminal delivered the same SIGINT to the Pulumi CLI processes
  };
  let stopStage = "";
  const onStop = () => {
    stopped = true;
    stopStage = `stopped (second Ctrl-C) during ${[...active].join(", ") || "cleanup"}`;
    stepStop.abort();
    if (!failure) failure = { stage: stopStage, error: "stopped" };
    if (forward) {
      cancelOps();
      stopCtl.abort();
    }
    resolveStop();
  };
  env.interrupts?.on("cancel", onCancel);
  env.interrupts?.on("stop", onStop);

  const ensureSaved = (stack: string) => {
    const out = outputs.get(stack);
    if (!out || savedOutputs.has(out)) return;
    const dir = env.saveResults(stack, out);
    savedOutputs.add(out);
    if (dir !== undefined) {
      saved.push(dir);
      r.line(`${" ".repeat(10)}results ${stack.padEnd(12)} saved to ${dir}`);
    }
  };

  const up = async (s: RunStackSpec, op: string, config: Readonly<Record<string, string>>, stage: string) => {
    active.add(stage);
    const prog = new OpProgress(s.name, op, s.plannedResources, t0, clock, r, interval);
    try {
      let h = handles.get(s.name);
      if (!h) {
        h = await workspace!.createOrSelectStack(s.fqName);
        created.push(s.name);
        handles.set(s.name, h);
      }
      await h.setAllConfig(toConfigMap(config));
      const res = await h.up({
        onEvent: (e) => prog.onEvent(e),
        onOutput: (t) => r.output(s.name, op, t),
        onError: (t) => r.output(s.name, op, t),
        signal: ops.signal,
        color: "never",
        ...(plan?.policyPacks?.length ? { policyPacks: [...plan.policyPacks] } : {}),
      });
      outputs.set(s.name, res.outputs);
      env.archiveOutputs?.(s.name, res.outputs);
      prog.report("done");
    } catch (e) {
      prog.report(interrupted || stopped ? "cancelled" : "failed", firstLine(e));
      if (handles.has(s.name)) upFailed.set(s.name, String(config["lab:runId"] ?? plan?.runId ?? ""));
      fail(stage, e);
      throw e;
    } finally {
      reached.set(s.name, Math.max(reached.get(s.name) ?? 0, prog.resourcesDone));
      active.delete(stage);
    }
  };

  const destroyOne = async (name: string) => {
    const h = handles.get(name) as RunStackHandle;
    const stage = `destroy ${name}`;
    active.add(stage);
    let last: unknown;
    try {
      for (let attempt = 1; attempt <= attempts && !stopped; attempt++) {
        const prog = new OpProgress(name, "destroy", reached.get(name), t0, clock, r, interval);
        try {
          await h.destroy({
            onEvent: (e) => prog.onEvent(e),
            onOutput: (t) => r.output(name, "destroy", t),
            onError: (t) => r.output(name, "destroy", t),
            signal: stopCtl.signal,
            color: "never",
            remove: true,
          });
          prog.report("done");
          destroyed.push(name);
          return;
        } catch (e) {
          last = e;
          prog.report(attempt < attempts && !stopped ? "retrying" : "failed", `attempt ${attempt}/${attempts}: ${firstLine(e)}`);
          if (attempt < attempts) await sleep(env.retryDelayMs ?? RETRY_DELAY_MS, stopCtl.signal);
        }
      }
      throw last ?? new Error("stopped");
    } finally {
      active.delete(stage);
    }
  };

  const experimentStep = async (i: number, step: ExperimentStep, runId: string, fqName: string) => {
    try {
      ensureSaved(step.stack); // the benchmarks' results first: a failing experiment cannot lose them
    } catch (e) {
      return fail(`results save ${step.stack}`, e);
    }
    const stage = `step ${i + 1} ${step.kind} ${step.stack}`;
    active.add(stage);
    try {
      if (!env.runExperiment) throw new Error(`this runner cannot run ${step.kind}`);
      const out = await env.runExperiment(step, {
        fqName,
        runId,
        outputs: outputs.get(step.stack) ?? {},
        abort: stepAbort.signal,
        stop: stepStop.signal,
      });
      if (out.resultsDir !== undefined) saved.push(out.resultsDir);
      if (!out.ok) fail(stage, out.error ?? `${step.kind} failed`);
    } catch (e) {
      fail(stage, e);
    } finally {
      active.delete(stage);
    }
  };

  const writeReport = async () => {
    if (!env.afterResults || saved.length === 0 || stopped) return;
    try {
      reportLines = await env.afterResults([...saved], failure ? "partial" : "complete");
    } catch (e) {
      reportLines = [`report not written: ${firstLine(e)}`];
    }
    if (reportLines.length > 0) r.line(reportLines[0]); // where it is, while the destroys run; the rest closes the run
  };

  const main = async (): Promise<RunOutcome> => {
    // 1. preflight
    let pre: Preflight;
    try {
      pre = await env.preflight();
    } catch (e) {
      pre = { problems: [firstLine(e)] };
    }
    if (pre.problems.length > 0 || !pre.run) {
      const problems = pre.problems.length > 0 ? pre.problems : ["preflight returned no plan"];
      const report = [`preflight failed (nothing was created):`, ...problems.map((p) => `  ${p}`)];
      report.forEach((l) => r.line(l));
      return {
        status: "preflight-failed",
        stage: "preflight",
        problems,
        created,
        destroyed,
        left: [],
        saved,
        exitCode: EXIT.preflight,
        report,
      };
    }
    workspace = pre.run.workspace;
    plan = pre.run.plan;
    const p = plan;
    const byName = new Map(p.stacks.map((s) => [s.name, s]));
    const order = p.stacks.map((s) => s.name);
    const upstreams = Object.fromEntries(p.stacks.map((s) => [s.name, s.upstreams]));
    r.line(`run ${p.scenario} ${p.runId}: ${order.length} stacks (${p.stacks.map((s) => s.fqName).join(", ")})`);

    // 2. up, in dependency order, independent stacks in parallel
    if (!failure) {
      await runDag(
        order,
        (n) => upstreams[n],
        (n) => up(byName.get(n)!, "up", byName.get(n)!.config, `up ${n}`),
        { shouldStart: () => !failure },
      );
    }

    // 3. steps
    for (const [i, step] of p.steps.entries()) {
      if (failure) break;
      if (isExperimentStep(step)) {
        await experimentStep(i, step, p.runId, byName.get(step.stack)!.fqName);
        continue;
      }
      for (let k = 2; k <= step.times + 1 && !failure; k++) {
        const id = repRunId(p.runId, k);
        const among = order.filter((n) => step.stacks.includes(n));
        await runDag(
          among,
          (n) => upstreams[n],
          async (n) => {
            const stage = `step ${i + 1} rerun ${n} (lab:runId ${id})`;
            try {
              ensureSaved(n); // the run before, before its outputs are replaced
            } catch (e) {
              fail(`results save ${n}`, e);
              throw e;
            }
            await up(byName.get(n)!, "rerun", { "lab:runId": id }, stage);
          },
          { shouldStart: () => !failure },
        );
      }
    }

    // 4. results, before anything is destroyed
    if (!failure) {
      for (const n of order) {
        try {
          ensureSaved(n);
        } catch (e) {
          fail(`results save ${n}`, e);
        }
      }
    }
    return cleanup(p, upstreams);
  };

  const cleanup = async (p: RunPlan, upstreams: Record<string, readonly string[]>): Promise<RunOutcome> => {
    if (failure) {
      for (const n of created) {
        try {
          ensureSaved(n);
        } catch (e) {
          r.line(`${" ".repeat(10)}results ${n.padEnd(12)} not saved: ${firstLine(e)}`);
        }
      }
      for (const [n, runId] of upFailed) {
        if (!env.savePartial || stopped) break;
        try {
          const dir = await env.savePartial(n, p.stacks.find((s) => s.name === n)?.fqName ?? n, runId);
          if (dir !== undefined) {
            saved.push(dir);
            r.line(`${" ".repeat(10)}results ${n.padEnd(12)} PARTIAL (its up failed): what completed saved to ${dir}`);
          }
        } catch (e) {
          r.line(`${" ".repeat(10)}results ${n.padEnd(12)} partial results not saved: ${firstLine(e)}`);
        }
      }
    }
    await writeReport();
    if (!failure && p.keep) return finish(p, "kept");
    // 5. destroy, dependents first
    const toDestroy = [...created].reverse();
    const res = await runDag(toDestroy, (n) => dependentsOf(n, upstreams, toDestroy), destroyOne, {
      continueOnFailure: true,
      shouldStart: () => !stopped,
    });
    const destroyFailures = [...res.failed.entries()];
    if (destroyFailures.length > 0 && !failure)
      failure = { stage: `destroy ${destroyFailures[0][0]}`, error: firstLine(destroyFailures[0][1]) };
    return finish(p, stopped ? "stopped" : interrupted ? "interrupted" : failure ? "failed" : "succeeded", res.failed);
  };

  const finish = (p: RunPlan, status: RunStatus, destroyFailed: ReadonlyMap<string, unknown> = new Map()): RunOutcome => {
    const fq = (n: string) => p.stacks.find((s) => s.name === n)?.fqName ?? n;
    const left: LeftStack[] = [];
    if (status !== "kept") {
      for (const n of [...created].reverse()) {
        if (destroyed.includes(n)) continue;
        const blockers = created.filter((d) => (p.stacks.find((s) => s.name === d)?.upstreams ?? []).includes(n) && !destroyed.includes(d));
        const why = destroyFailed.has(n)
          ? `destroy failed ${attempts} time(s): ${firstLine(destroyFailed.get(n))}`
          : stopped
            ? "not destroyed: stopped"
            : `kept: ${blockers.join(", ")} depend(s) on it`;
        left.push({ stack: n, fqName: fq(n), why });
      }
    }
    const headline =
      status === "succeeded"
        ? "succeeded, every stack destroyed"
        : status === "kept"
          ? "succeeded; stacks kept (--keep)"
          : status === "failed"
            ? `failed at ${failure!.stage}: ${failure!.error}`
            : status === "stopped"
              ? `${stopStage}, after ${failure!.stage === stopStage ? "nothing else" : failure!.stage}`
              : failure!.stage;
    const report = [
      `== run ${p.scenario} ${p.runId}: ${headline}`,
      `created: ${created.join(", ") || "nothing"}`,
      ...(status === "kept" ? [] : [`destroyed: ${destroyed.join(", ") || "nothing"}`]),
      `results: ${saved.join(", ") || "none"}`,
      ...reportLines,
    ];
    const remaining = status === "kept" ? [...created].reverse().map((n) => ({ stack: n, fqName: fq(n), why: "kept (--keep)" })) : left;
    if (remaining.length > 0) {
      report.push(status === "kept" ? "kept (destroy them when done, dependents first):" : "left (NOT destroyed, still billed):");
      for (const l of remaining) report.push(`  ${l.stack} (${l.fqName}): ${l.why}`);
      report.push(`finish with, in ${p.workDir}:`);
      for (const l of remaining) report.push(`  pulumi destroy --yes --remove --stack ${l.fqName}`);
      if (status === "stopped")
        report.push(
          "  an operation stopped at once may have left its stack locked and pending operations in its state:",
          "  pulumi cancel --yes --stack <stack> (Pulumi Cloud backend) releases the lock; pulumi refresh --clear-pending-creates --yes --stack <stack> clears the pending creates",
          "  (they are resources that may exist in AWS without being in the state: look for them by their lab:stack tag); lab janitor lists every lab stack left over",
        );
    } else if (status !== "kept") report.push("left: nothing");
    report.forEach((l) => r.line(l));
    const exitCode =
      left.length > 0
        ? EXIT.left
        : status === "succeeded" || status === "kept"
          ? EXIT.ok
          : status === "failed"
            ? EXIT.failed
            : EXIT.interrupted;
    env.interrupts?.off("cancel", onCancel);
    env.interrupts?.off("stop", onStop);
    return {
      status,
      stage: status === "stopped" ? stopStage : failure?.stage,
      error: failure?.error,
      problems: [],
      created,
      destroyed,
      left,
      saved,
      exitCode,
      report,
    };
  };

  const first = await Promise.race([main(), stopP]);
  if (first !== "stop") return first;
  // Second Ctrl-C: report what is left now; running operations are not awaited.
  if (!plan)
    return {
      status: "stopped",
      stage: "preflight",
      problems: [],
      created,
      destroyed,
      left: [],
      saved,
      exitCode: EXIT.interrupted,
      report: [],
    };
  return finish(plan, "stopped");
}
