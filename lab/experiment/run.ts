/**
 * Runs one failover experiment against a deployed fsx-eks stack, on every path the same way:
 *
 * 1. refuses a run id that already has results (`results/<stack>/<experiment>-<runId>/`, written
 *    once by lab/results/files.ts), before anything is touched;
 * 2. runs the experiment's steps (./mysql-failover.ts, ./fsx-failover.ts), one progress line each;
 * 3. writes the evidence it gathered, passed or failed, beside the stack's benchmark results;
 * 4. runs the cleanup, whatever happened (a failure, a timeout, Ctrl-C), and says what it restored
 *    and what is left;
 * 5. ends with a report and an exit code: 0 passed, 1 failed (cleaned up), 3 something is left
 *    (the report says what and how to finish), 130 interrupted.
 *
 * `runExperiment` is also what a scenario runner calls as a step: it never exits the process and
 * never rejects but for a refused run id.
 */
import * as fs from "node:fs";
import { runDir, writeRunResults } from "../results/files";
import type { Sample } from "../../core/sample";
import { formatElapsed } from "../../core/elapsed";
import type { Cluster } from "./cluster";
import type { Evidence, ExperimentContext } from "./context";
import { fsxFailover, FSX_FAILOVER_STEPS, type FsxFailoverOptions } from "./fsx-failover";
import type { FsxApi } from "./fsx";
import type { ExperimentName } from "./manifests";
import { mysqlFailover, MYSQL_FAILOVER_STEPS, type MysqlFailoverOptions } from "./mysql-failover";
import type { ExperimentOutputs } from "./outputs";
import { readExperimentScripts, type ExperimentScripts } from "./scripts";
import { Cleanup, CleanupReport, ExperimentEnv, firstLine, Interrupted, Steps } from "./steps";

export interface ExperimentRun {
  readonly experiment: ExperimentName;
  /** The stack as given (`org/project/stack` or `stack`); results go under its last segment. */
  readonly stack: string;
  readonly runId: string;
  /** The results root (`results/`). */
  readonly resultsRoot: string;
  readonly outputs: ExperimentOutputs;
  readonly cluster: Cluster;
  readonly fsx?: FsxApi;
  readonly env: ExperimentEnv;
  readonly scripts?: ExperimentScripts;
  readonly mysql?: Partial<MysqlFailoverOptions>;
  readonly fsxOptions?: Partial<FsxFailoverOptions>;
}

export type ExperimentStatus = "passed" | "failed" | "interrupted";

export interface ExperimentOutcome {
  readonly status: ExperimentStatus;
  readonly exitCode: 0 | 1 | 3 | 130;
  /** The step that failed or was interrupted. */
  readonly stage?: string;
  readonly error?: string;
  /** The results directory, when the evidence was written. */
  readonly resultsDir?: string;
  readonly samples: readonly Sample[];
  readonly cleanup: CleanupReport;
  /** The closing report, as printed. */
  readonly report: readonly string[];
}

/** A run id whose results exist: nothing was touched. */
export class RunRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RunRefusedError";
  }
}

/** `results/<stack>/<experiment>-<runId>`. */
export function experimentDir(resultsRoot: string, stack: string, experiment: ExperimentName, runId: string): string {
  return runDir(resultsRoot, shortStack(stack), `${experiment}-${runId}`);
}

/** The last segment of `org/project/stack`. */
export function shortStack(stack: string): string {
  return stack.split("/").pop() as string;
}

export async function runExperiment(r: ExperimentRun): Promise<ExperimentOutcome> {
  const dir = experimentDir(r.resultsRoot, r.stack, r.experiment, r.runId);
  if (fs.existsSync(dir)) {
    throw new RunRefusedError(
      `${dir} already exists: ${r.experiment} has run under run id ${r.runId}; give a new --run-id (results are written once)`,
    );
  }
  const env = r.env;
  const steps = new Steps(r.experiment, r.experiment === "mysql-failover" ? MYSQL_FAILOVER_STEPS : FSX_FAILOVER_STEPS, env);
  const cleanup = new Cleanup(env);
  const ctx: ExperimentContext = {
    experiment: r.experiment,
    stack: shortStack(r.stack),
    runId: r.runId,
    outputs: r.outputs,
    cluster: r.cluster,
    ...(r.fsx ? { fsx: r.fsx } : {}),
    scripts: r.scripts ?? readExperimentScripts(),
    env,
    steps,
    cleanup,
  };
  env.line(`${r.experiment} ${r.runId} on ${r.stack}: results to ${dir}`);

  let evidence: Evidence | undefined;
  let error: unknown;
  try {
    evidence = r.experiment === "mysql-failover" ? await mysqlFailover(ctx, r.mysql) : await fsxFailover(ctx, r.fsxOptions);
  } catch (e) {
    error = e;
  }
  const stage = error !== undefined ? steps.current : evidence?.failure !== undefined ? steps.current : undefined;

  let resultsDir: string | undefined;
  if (evidence !== undefined) {
    try {
      resultsDir = writeRunResults(r.resultsRoot, shortStack(r.stack), `${r.experiment}-${r.runId}`, evidence.samples, evidence.raws);
    } catch (e) {
      error ??= e;
    }
  }

  const report = await cleanup.runAll();
  const interrupted = error instanceof Interrupted || env.interrupts?.abort.aborted === true;
  const failed = error !== undefined || evidence?.failure !== undefined;
  const status: ExperimentStatus = interrupted ? "interrupted" : failed ? "failed" : "passed";
  const why = error !== undefined ? firstLine(error) : evidence?.failure;
  const headline =
    status === "passed"
      ? "passed"
      : status === "interrupted"
        ? `interrupted (Ctrl-C) during "${stage ?? "the start"}"`
        : `FAILED at "${stage ?? "the start"}": ${why}`;
  const lines = [
    `== ${r.experiment} ${r.runId} on ${r.stack}: ${headline} (${formatElapsed(steps.elapsedMs())})`,
    `results: ${resultsDir ?? "none written"}`,
    `cleanup: ${report.done.length > 0 ? report.done.join("; ") : "nothing to undo"}`,
    ...(report.left.length > 0 ? ["left (NOT cleaned up):", ...report.left.map((l) => `  ${l}`)] : ["left: nothing"]),
  ];
  lines.forEach((l) => env.line(l));
  const exitCode = report.left.length > 0 ? 3 : status === "passed" ? 0 : status === "interrupted" ? 130 : 1;
  return {
    status,
    exitCode,
    ...(stage !== undefined ? { stage } : {}),
    ...(why !== undefined ? { error: why } : {}),
    ...(resultsDir !== undefined ? { resultsDir } : {}),
    samples: evidence?.samples ?? [],
    cleanup: report,
    report: lines,
  };
}
