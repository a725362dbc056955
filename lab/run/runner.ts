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
import { noResults } from "./results";
import { OpProgress, Reporter, STACK_COLUMN, stackColumn } from "./progress";
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

/**
 * Runs a scenario; never rejects: every failure is in the outcome. The method: preflight; up in
 * dependency order; the steps (reruns, experiments); the results saved; clean-up (what a failed run
 * collected saved, the report, destroy dependents first); the closing report. A second Ctrl-C
 * ends it at once with what is left.
 */
export async function runScenario(env: RunEnv): Promise<RunOutcome> {
  const run = new ScenarioRun(env);
  const first = await Promise.race([run.main(), run.secondCtrlC]);
  if (first !== "stop") return first;
  // Second Ctrl-C: report what is left now; running operations are not awaited.
  if (!run.plan)
    return {
      status: "stopped",
      stage: "preflight",
      problems: [],
      created: run.created,
      destroyed: run.destroyed,
      left: [],
      saved: run.saved,
      exitCode: EXIT.interrupted,
      report: [],
    };
  return run.finish(run.plan, "stopped");
}

/** The plan's stacks by name, in dependency order, with their upstreams. */
interface PlanIndex {
  readonly byName: ReadonlyMap<string, RunStackSpec>;
  readonly order: readonly string[];
  readonly upstreams: Record<string, readonly string[]>;
}

/** One run: what it created, saved and destroyed, how it failed, and its Ctrl-C handling. */
class ScenarioRun {
  private readonly clock: () => number;
  private readonly t0: number;
  private readonly r: Reporter;
  private readonly interval: number;
  private readonly attempts: number;
  private readonly forward: boolean;

  readonly created: string[] = [];
  private readonly handles = new Map<string, RunStackHandle>();
  private readonly outputs = new Map<string, OutputMap>();
  private readonly reached = new Map<string, number>();
  private readonly savedOutputs = new WeakSet<OutputMap>();
  /** Stacks whose up failed: their completed collectors are saved before the destroy. */
  private readonly upFailed = new Map<string, string>();
  readonly saved: string[] = [];
  readonly destroyed: string[] = [];
  private readonly active = new Set<string>();
  private failure: { stage: string; error: string } | undefined;
  /** The stack column of the run's lines (progress.ts `stackColumn`). */
  private stackWidth = STACK_COLUMN;
  private interrupted = false;
  private stopped = false;
  plan: RunPlan | undefined;
  private workspace: RunWorkspace | undefined;

  private readonly ops = new AbortController();
  private readonly stopCtl = new AbortController();
  // In-process steps (experiments) get no terminal SIGINT: they are always told.
  private readonly stepAbort = new AbortController();
  private readonly stepStop = new AbortController();
  private reportLines: readonly string[] = [];
  private opsCancelled = false;
  private stopStage = "";
  private resolveStop: () => void = () => undefined;
  /** Resolves on the second Ctrl-C. */
  readonly secondCtrlC = new Promise<"stop">((res) => (this.resolveStop = () => res("stop")));

  constructor(private readonly env: RunEnv) {
    this.clock = env.clock ?? Date.now;
    this.t0 = this.clock();
    this.r = env.reporter;
    this.interval = env.progressIntervalMs ?? 10_000;
    this.attempts = env.destroyAttempts ?? DESTROY_ATTEMPTS;
    this.forward = env.forwardInterrupt ?? true;
    env.interrupts?.on("cancel", this.onCancel);
    env.interrupts?.on("stop", this.onStop);
  }

  private cancelOps(): void {
    if (!this.opsCancelled) this.ops.abort();
    this.opsCancelled = true;
  }

  private fail(stage: string, e: unknown): void {
    if (!this.failure) {
      this.failure = { stage, error: firstLine(e) };
      this.r.line(`failed: ${stage}: ${firstLine(e)}`);
    }
    this.cancelOps();
  }

  /** The first Ctrl-C: cancel the running operations, then clean up as after a failure. */
  private readonly onCancel = () => {
    if (this.interrupted) return;
    this.interrupted = true;
    const during = [...this.active].join(", ") || "cleanup";
    if (!this.failure) this.failure = { stage: `interrupted (Ctrl-C) during ${during}`, error: "interrupted" };
    this.r.line(
      "Ctrl-C: cancelling the running operations, then saving results and destroying what was created; press Ctrl-C again to stop at once",
    );
    this.r.line(
      "  (a cancelled operation first waits for the cloud operations already running: an FSx file system create can take 40 minutes)",
    );
    this.stepAbort.abort();
    if (this.forward) this.cancelOps();
    else this.opsCancelled = true; // the terminal delivered the same SIGINT to the Pulumi CLI processes
  };

  /** The second Ctrl-C: stop at once. */
  private readonly onStop = () => {
    this.stopped = true;
    this.stopStage = `stopped (second Ctrl-C) during ${[...this.active].join(", ") || "cleanup"}`;
    this.stepStop.abort();
    if (!this.failure) this.failure = { stage: this.stopStage, error: "stopped" };
    if (this.forward) {
      this.cancelOps();
      this.stopCtl.abort();
    }
    this.resolveStop();
  };

  /** The run, step by step. */
  async main(): Promise<RunOutcome> {
    const pre = await this.preflight();
    if (pre.problems.length > 0 || !pre.run) return this.preflightFailed(pre.problems);
    const p = this.start(pre.run);
    const index: PlanIndex = {
      byName: new Map(p.stacks.map((s) => [s.name, s])),
      order: p.stacks.map((s) => s.name),
      upstreams: Object.fromEntries(p.stacks.map((s) => [s.name, s.upstreams])),
    };
    this.r.line(`run ${p.scenario} ${p.runId}: ${index.order.length} stacks (${p.stacks.map((s) => s.fqName).join(", ")})`);
    await this.upInDependencyOrder(index);
    await this.runSteps(p, index);
    this.saveResults(index);
    this.expectResults(p);
    return this.cleanUp(p, index.upstreams);
  }

  /** 1. preflight: every problem at once. */
  private async preflight(): Promise<Preflight> {
    try {
      return await this.env.preflight();
    } catch (e) {
      return { problems: [firstLine(e)] };
    }
  }

  /** A failed preflight: nothing was created. */
  private preflightFailed(found: readonly string[]): RunOutcome {
    const problems = found.length > 0 ? found : ["preflight returned no plan"];
    const report = [`preflight failed (nothing was created):`, ...problems.map((p) => `  ${p}`)];
    report.forEach((l) => this.r.line(l));
    return {
      status: "preflight-failed",
      stage: "preflight",
      problems,
      created: this.created,
      destroyed: this.destroyed,
      left: [],
      saved: this.saved,
      exitCode: EXIT.preflight,
      report,
    };
  }

  private start(run: NonNullable<Preflight["run"]>): RunPlan {
    this.workspace = run.workspace;
    this.plan = run.plan;
    this.stackWidth = stackColumn(run.plan.stacks.map((s) => s.name));
    return run.plan;
  }

  /** 2. up, in dependency order, independent stacks in parallel. */
  private async upInDependencyOrder({ order, upstreams, byName }: PlanIndex): Promise<void> {
    if (this.failure) return;
    await runDag(
      order,
      (n) => upstreams[n],
      (n) => this.up(byName.get(n)!, "up", byName.get(n)!.config, `up ${n}`),
      { shouldStart: () => !this.failure },
    );
  }

  /** Creates (or selects) a stack, sets its config and brings it up. */
  private async up(s: RunStackSpec, op: string, config: Readonly<Record<string, string>>, stage: string): Promise<void> {
    const { r, plan } = this;
    this.active.add(stage);
    const prog = new OpProgress(s.name, op, s.plannedResources, this.t0, this.clock, r, this.interval, this.stackWidth);
    try {
      let h = this.handles.get(s.name);
      if (!h) {
        h = await this.workspace!.createOrSelectStack(s.fqName);
        this.created.push(s.name);
        this.handles.set(s.name, h);
      }
      await h.setAllConfig(toConfigMap(config));
      const res = await h.up({
        onEvent: (e) => prog.onEvent(e),
        onOutput: (t) => r.output(s.name, op, t),
        onError: (t) => r.output(s.name, op, t),
        signal: this.ops.signal,
        color: "never",
        ...(plan?.policyPacks?.length ? { policyPacks: [...plan.policyPacks] } : {}),
      });
      this.outputs.set(s.name, res.outputs);
      this.env.archiveOutputs?.(s.name, res.outputs);
      prog.report("done");
    } catch (e) {
      prog.report(this.interrupted || this.stopped ? "cancelled" : "failed", firstLine(e));
      if (this.handles.has(s.name)) this.upFailed.set(s.name, String(config["lab:runId"] ?? plan?.runId ?? ""));
      this.fail(stage, e);
      throw e;
    } finally {
      this.reached.set(s.name, Math.max(this.reached.get(s.name) ?? 0, prog.resourcesDone));
      this.active.delete(stage);
    }
  }

  /** 3. steps, in order: reruns of benchmarks, experiments. */
  private async runSteps(p: RunPlan, index: PlanIndex): Promise<void> {
    for (const [i, step] of p.steps.entries()) {
      if (this.failure) break;
      if (isExperimentStep(step)) {
        await this.experimentStep(i, step, p.runId, index.byName.get(step.stack)!.fqName);
        continue;
      }
      for (let k = 2; k <= step.times + 1 && !this.failure; k++) await this.rerun(i, step.stacks, repRunId(p.runId, k), index);
    }
  }

  /** One rerun of a step's stacks (lab:runId `id`), each after its run before is saved. */
  private async rerun(i: number, stacks: readonly string[], id: string, { order, upstreams, byName }: PlanIndex): Promise<void> {
    const among = order.filter((n) => stacks.includes(n));
    await runDag(
      among,
      (n) => upstreams[n],
      async (n) => {
        const stage = `step ${i + 1} rerun ${n} (lab:runId ${id})`;
        try {
          this.ensureSaved(n); // the run before, before its outputs are replaced
        } catch (e) {
          this.fail(`results save ${n}`, e);
          throw e;
        }
        await this.up(byName.get(n)!, "rerun", { "lab:runId": id }, stage);
      },
      { shouldStart: () => !this.failure },
    );
  }

  /** An experiment step, after its stack's benchmark results are saved. */
  private async experimentStep(i: number, step: ExperimentStep, runId: string, fqName: string): Promise<void> {
    try {
      this.ensureSaved(step.stack); // the benchmarks' results first: a failing experiment cannot lose them
    } catch (e) {
      return this.fail(`results save ${step.stack}`, e);
    }
    const stage = `step ${i + 1} ${step.kind} ${step.stack}`;
    this.active.add(stage);
    try {
      if (!this.env.runExperiment) throw new Error(`this runner cannot run ${step.kind}`);
      const out = await this.env.runExperiment(step, {
        fqName,
        runId,
        outputs: this.outputs.get(step.stack) ?? {},
        abort: this.stepAbort.signal,
        stop: this.stepStop.signal,
      });
      if (out.resultsDir !== undefined) this.saved.push(out.resultsDir);
      if (!out.ok) this.fail(stage, out.error ?? `${step.kind} failed`);
    } catch (e) {
      this.fail(stage, e);
    } finally {
      this.active.delete(stage);
    }
  }

  /** Writes a stack's results once per up. */
  private ensureSaved(stack: string): void {
    const out = this.outputs.get(stack);
    if (!out || this.savedOutputs.has(out)) return;
    const dir = this.env.saveResults(stack, out);
    this.savedOutputs.add(out);
    if (dir !== undefined) {
      this.saved.push(dir);
      this.r.line(`${" ".repeat(10)}results ${stack.padEnd(this.stackWidth)} saved to ${dir}`);
    }
  }

  /** 4. results, before anything is destroyed. */
  private saveResults({ order }: PlanIndex): void {
    if (this.failure) return;
    for (const n of order) {
      try {
        this.ensureSaved(n);
      } catch (e) {
        this.fail(`results save ${n}`, e);
      }
    }
  }

  /**
   * A benchmark stack whose up succeeded but exported no `results` measured nothing: the run fails
   * (exit 1) naming each such stack with its outputs; what the others saved is still reported.
   */
  private expectResults(p: RunPlan): void {
    if (this.failure) return;
    const missing = p.stacks.flatMap((s) => {
      const out = this.outputs.get(s.name);
      const why = out === undefined ? undefined : noResults(s.name, s.config["lab:kind"], out);
      return why === undefined ? [] : [{ stack: s.name, why }];
    });
    if (missing.length > 0) this.fail(`results ${missing.map((m) => m.stack).join(", ")}`, missing.map((m) => m.why).join("; "));
  }

  /** After a failure: every created stack's results, and what a failed up had collected. */
  private async saveWhatWasCollected(p: RunPlan): Promise<void> {
    const r = this.r;
    for (const n of this.created) {
      try {
        this.ensureSaved(n);
      } catch (e) {
        r.line(`${" ".repeat(10)}results ${n.padEnd(this.stackWidth)} not saved: ${firstLine(e)}`);
      }
    }
    for (const [n, runId] of this.upFailed) {
      if (!this.env.savePartial || this.stopped) break;
      try {
        const dir = await this.env.savePartial(n, p.stacks.find((s) => s.name === n)?.fqName ?? n, runId);
        if (dir !== undefined) {
          this.saved.push(dir);
          r.line(`${" ".repeat(10)}results ${n.padEnd(this.stackWidth)} PARTIAL (its up failed): what completed saved to ${dir}`);
        }
      } catch (e) {
        r.line(`${" ".repeat(10)}results ${n.padEnd(this.stackWidth)} partial results not saved: ${firstLine(e)}`);
      }
    }
  }

  /** The run's report over the saved results, before the first destroy. */
  private async writeReport(): Promise<void> {
    if (!this.env.afterResults || this.saved.length === 0 || this.stopped) return;
    try {
      this.reportLines = await this.env.afterResults([...this.saved], this.failure ? "partial" : "complete");
    } catch (e) {
      this.reportLines = [`report not written: ${firstLine(e)}`];
    }
    if (this.reportLines.length > 0) this.r.line(this.reportLines[0]); // where it is, while the destroys run; the rest closes the run
  }

  /** Saved results (after a failure too), the report, then destroy unless kept. */
  private async cleanUp(p: RunPlan, upstreams: Record<string, readonly string[]>): Promise<RunOutcome> {
    if (this.failure) await this.saveWhatWasCollected(p);
    await this.writeReport();
    if (!this.failure && p.keep) return this.finish(p, "kept");
    const destroyFailed = await this.destroyDependentsFirst(upstreams);
    return this.finish(
      p,
      this.stopped ? "stopped" : this.interrupted ? "interrupted" : this.failure ? "failed" : "succeeded",
      destroyFailed,
    );
  }

  /** 5. destroy every created stack, dependents first; the destroys that failed. */
  private async destroyDependentsFirst(upstreams: Record<string, readonly string[]>): Promise<ReadonlyMap<string, unknown>> {
    const toDestroy = [...this.created].reverse();
    const res = await runDag(
      toDestroy,
      (n) => dependentsOf(n, upstreams, toDestroy),
      (n) => this.destroyOne(n),
      {
        continueOnFailure: true,
        shouldStart: () => !this.stopped,
      },
    );
    const destroyFailures = [...res.failed.entries()];
    if (destroyFailures.length > 0 && !this.failure)
      this.failure = { stage: `destroy ${destroyFailures[0][0]}`, error: firstLine(destroyFailures[0][1]) };
    return res.failed;
  }

  /** One stack's destroy, retried. */
  private async destroyOne(name: string): Promise<void> {
    const { r, attempts } = this;
    const h = this.handles.get(name) as RunStackHandle;
    const stage = `destroy ${name}`;
    this.active.add(stage);
    let last: unknown;
    try {
      for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
        const prog = new OpProgress(name, "destroy", this.reached.get(name), this.t0, this.clock, r, this.interval, this.stackWidth);
        try {
          await h.destroy({
            onEvent: (e) => prog.onEvent(e),
            onOutput: (t) => r.output(name, "destroy", t),
            onError: (t) => r.output(name, "destroy", t),
            signal: this.stopCtl.signal,
            color: "never",
            remove: true,
          });
          prog.report("done");
          this.destroyed.push(name);
          return;
        } catch (e) {
          last = e;
          prog.report(attempt < attempts && !this.stopped ? "retrying" : "failed", `attempt ${attempt}/${attempts}: ${firstLine(e)}`);
          if (attempt < attempts) await sleep(this.env.retryDelayMs ?? RETRY_DELAY_MS, this.stopCtl.signal);
        }
      }
      throw last ?? new Error("stopped");
    } finally {
      this.active.delete(stage);
    }
  }

  /** What is left and why (not for a kept run). */
  private leftStacks(p: RunPlan, status: RunStatus, destroyFailed: ReadonlyMap<string, unknown>): LeftStack[] {
    const { created, destroyed } = this;
    const left: LeftStack[] = [];
    if (status === "kept") return left;
    for (const n of [...created].reverse()) {
      if (destroyed.includes(n)) continue;
      const blockers = created.filter((d) => (p.stacks.find((s) => s.name === d)?.upstreams ?? []).includes(n) && !destroyed.includes(d));
      const why = destroyFailed.has(n)
        ? `destroy failed ${this.attempts} time(s): ${firstLine(destroyFailed.get(n))}`
        : this.stopped
          ? "not destroyed: stopped"
          : `kept: ${blockers.join(", ")} depend(s) on it`;
      left.push({ stack: n, fqName: fqNameOf(p, n), why });
    }
    return left;
  }

  /** The closing report's first line. */
  private headline(status: RunStatus): string {
    const failure = this.failure;
    return status === "succeeded"
      ? "succeeded, every stack destroyed"
      : status === "kept"
        ? "succeeded; stacks kept (--keep)"
        : status === "failed"
          ? `failed at ${failure!.stage}: ${failure!.error}`
          : status === "stopped"
            ? `${this.stopStage}, after ${failure!.stage === this.stopStage ? "nothing else" : failure!.stage}`
            : failure!.stage;
  }

  /** The closing report and the outcome. */
  finish(p: RunPlan, status: RunStatus, destroyFailed: ReadonlyMap<string, unknown> = new Map()): RunOutcome {
    const { created, destroyed, saved, failure } = this;
    const left = this.leftStacks(p, status, destroyFailed);
    const report = [
      `== run ${p.scenario} ${p.runId}: ${this.headline(status)}`,
      `created: ${created.join(", ") || "nothing"}`,
      ...(status === "kept" ? [] : [`destroyed: ${destroyed.join(", ") || "nothing"}`]),
      `results: ${saved.join(", ") || "none"}`,
      ...this.reportLines,
    ];
    const remaining =
      status === "kept" ? [...created].reverse().map((n) => ({ stack: n, fqName: fqNameOf(p, n), why: "kept (--keep)" })) : left;
    if (remaining.length > 0) report.push(...finishCommands(p, status, remaining));
    else if (status !== "kept") report.push("left: nothing");
    report.forEach((l) => this.r.line(l));
    const exitCode =
      left.length > 0
        ? EXIT.left
        : status === "succeeded" || status === "kept"
          ? EXIT.ok
          : status === "failed"
            ? EXIT.failed
            : EXIT.interrupted;
    this.env.interrupts?.off("cancel", this.onCancel);
    this.env.interrupts?.off("stop", this.onStop);
    return {
      status,
      stage: status === "stopped" ? this.stopStage : failure?.stage,
      error: failure?.error,
      problems: [],
      created,
      destroyed,
      left,
      saved,
      exitCode,
      report,
    };
  }
}

const fqNameOf = (p: RunPlan, n: string): string => p.stacks.find((s) => s.name === n)?.fqName ?? n;

/** The report's lines for stacks kept or left: which, why, and the commands that finish the job. */
function finishCommands(p: RunPlan, status: RunStatus, remaining: readonly LeftStack[]): string[] {
  const lines = [status === "kept" ? "kept (destroy them when done, dependents first):" : "left (NOT destroyed, still billed):"];
  for (const l of remaining) lines.push(`  ${l.stack} (${l.fqName}): ${l.why}`);
  lines.push(`finish with, in ${p.workDir}:`);
  for (const l of remaining) lines.push(`  pulumi destroy --yes --remove --stack ${l.fqName}`);
  if (status === "stopped")
    lines.push(
      "  an operation stopped at once may have left its stack locked and pending operations in its state:",
      "  pulumi cancel --yes --stack <stack> (Pulumi Cloud backend) releases the lock; pulumi refresh --clear-pending-creates --yes --stack <stack> clears the pending creates",
      "  (they are resources that may exist in AWS without being in the state: look for them by their lab:stack tag); lab janitor lists every lab stack left over",
    );
  return lines;
}
