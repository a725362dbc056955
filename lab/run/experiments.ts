/**
 * The failover experiments as steps of a run (scenarios/types.ts `ExperimentStep`): what the
 * runner's `runExperiment` hook does (./runner.ts), and what preflight and `--skip-experiments`
 * need to know about such steps.
 *
 * A step runs lab/experiment/run.ts `runExperiment` — the same code as `lab experiment` — against
 * the stack's outputs from its `up` (the Automation API returns them with secrets in clear, as
 * `pulumi stack output --json --show-secrets` prints them), checked against the experiments' output
 * contract (lab/experiment/outputs.ts) first. Its evidence is written to
 * `results/<stack>/<experiment>-<runId>/`, beside the stack's benchmark results, `<stack>` being the
 * scenario's name for the stack (the directory the runner saves the benchmarks to).
 */
import * as path from "node:path";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { isExperimentStep, type ExperimentStep, type ScenarioStep } from "../../scenarios/types";
import type { Cluster } from "../experiment/cluster";
import type { FsxApi } from "../experiment/fsx";
import type { ServiceAccountRef } from "../experiment/kube";
import type { FsxFailoverOptions } from "../experiment/fsx-failover";
import type { MysqlFailoverOptions } from "../experiment/mysql-failover";
import { parseExperimentOutputs, StackOutputsError, type ExperimentOutputs } from "../experiment/outputs";
import { experimentDir, runExperiment } from "../experiment/run";
import type { ExperimentEnv } from "../experiment/steps";
import { plainOutputs } from "./results";
import type { StepContext, StepOutcome } from "./runner";

export interface ExperimentStepDeps {
  /** The results root (`results/`). */
  readonly resultsRoot: string;
  /** Clock, sleep, timers and the line printer; the runner adds the interrupts. */
  readonly env: Omit<ExperimentEnv, "interrupts">;
  /** A cluster client on the stack's kubeconfig, as the experiment's ServiceAccount. @default lab/experiment/kube.ts `experimentCluster` */
  readonly cluster?: (kubeconfig: string, who: ServiceAccountRef) => Cluster;
  /** The FSx API in the stack's region. @default lab/experiment/fsx.ts `fsxApi` */
  readonly fsx?: (region: string) => FsxApi;
  readonly mysql?: Partial<MysqlFailoverOptions>;
  readonly fsxOptions?: Partial<FsxFailoverOptions>;
}

/* eslint-disable @typescript-eslint/no-require-imports */
// Loaded when a step runs: @kubernetes/client-node is an ES module (Node 20.19+ require()s it), and the AWS SDK is large.
const defaultCluster = (kubeconfig: string, who: ServiceAccountRef): Cluster =>
  (require("../experiment/kube") as typeof import("../experiment/kube")).experimentCluster(kubeconfig, who);
const defaultFsx = (region: string): FsxApi => (require("../experiment/fsx") as typeof import("../experiment/fsx")).fsxApi(region);
/* eslint-enable @typescript-eslint/no-require-imports */

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).trim().split("\n")[0];

/** The stack's outputs as the experiments read them; one line naming every problem when they do not fit. */
export function stepOutputs(fqName: string, outputs: OutputMap): ExperimentOutputs {
  try {
    return parseExperimentOutputs(fqName, plainOutputs(outputs));
  } catch (e) {
    if (e instanceof StackOutputsError)
      throw new Error(`stack ${fqName} lacks what the failover experiments read (lab/experiment/outputs.ts): ${e.problems.join("; ")}`);
    throw e;
  }
}

/** The runner's `runExperiment` hook. Never rejects: every failure is in the outcome. */
export function experimentStepRunner(deps: ExperimentStepDeps): (step: ExperimentStep, ctx: StepContext) => Promise<StepOutcome> {
  return async (step, ctx) => {
    try {
      const outputs = stepOutputs(ctx.fqName, ctx.outputs);
      const out = await runExperiment({
        experiment: step.kind,
        stack: step.stack,
        runId: ctx.runId,
        resultsRoot: deps.resultsRoot,
        outputs,
        cluster: (deps.cluster ?? defaultCluster)(outputs.kubeconfig, outputs.experimentAccess[step.kind]),
        ...(step.kind === "fsx-failover" ? { fsx: (deps.fsx ?? defaultFsx)(outputs.region) } : {}),
        env: { ...deps.env, interrupts: { abort: ctx.abort, stop: ctx.stop } },
        ...(deps.mysql ? { mysql: deps.mysql } : {}),
        ...(deps.fsxOptions ? { fsxOptions: deps.fsxOptions } : {}),
      });
      const resultsDir = out.resultsDir !== undefined ? { resultsDir: out.resultsDir } : {};
      if (out.status !== "passed")
        return { ok: false, error: `${step.kind} ${out.status}: ${out.error ?? out.stage ?? "see above"}`, ...resultsDir };
      if (out.cleanup.left.length > 0)
        return { ok: false, error: `${step.kind} passed but its cleanup left: ${out.cleanup.left.join("; ")}`, ...resultsDir };
      return { ok: true, ...resultsDir };
    } catch (e) {
      return { ok: false, error: firstLine(e) };
    }
  };
}

/** The steps a run takes: without the experiments under `--skip-experiments`. */
export function runSteps(steps: readonly ScenarioStep[], skipExperiments: boolean): ScenarioStep[] {
  return steps.filter((s) => !(skipExperiments && isExperimentStep(s)));
}

/** The results directories the run's experiment steps will write (a run's results are written once). */
export function experimentResultDirs(resultsRoot: string, steps: readonly ScenarioStep[], runId: string): string[] {
  return steps.filter(isExperimentStep).map((s) => path.resolve(experimentDir(resultsRoot, s.stack, s.kind, runId)));
}
