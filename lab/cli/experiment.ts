/**
 * `lab experiment <mysql-failover|fsx-failover> --stack <org/project/stack>`: the failover
 * experiments against a deployed fsx-eks stack (lab/experiment/). {@link defineExperimentCommand}
 * adds the command to the CLI; {@link experimentAction} is what it does and returns the exit code:
 * 0 passed, 1 failed (and cleaned up), 2 usage or the stack's outputs (nothing touched), 3 the
 * cleanup left something (the report says what and how to finish), 130 interrupted (Ctrl-C).
 *
 * This module loads nothing heavy: the experiment, @kubernetes/client-node and the AWS SDK load
 * when the command runs.
 */
import type { Command } from "commander";
import * as path from "node:path";
import type { ExperimentOutputs } from "../experiment/outputs";
import { pathProblems } from "./paths";

export interface ExperimentCliOptions {
  readonly stack: string;
  /** @default r<yymmdd>-<hhmmss> (UTC), lab/run/names.ts `defaultRunId` */
  readonly runId?: string;
  /** Results root. @default "results" (of the working directory) */
  readonly results?: string;
  /** The Pulumi CLI. @default "pulumi" */
  readonly pulumi?: string;
  /** Programmatic only (a scenario runner, the tests): the experiments' timings (lab/experiment/*-failover.ts `*_DEFAULTS`). */
  readonly timings?: {
    readonly mysql?: Partial<import("../experiment/mysql-failover").MysqlFailoverOptions>;
    readonly fsx?: Partial<import("../experiment/fsx-failover").FsxFailoverOptions>;
  };
}

/** Adds `experiment` to `program`; `root` is the project directory (where Pulumi.yaml is). */
export function defineExperimentCommand(program: Command, root: string): Command {
  return program
    .command("experiment")
    .description(
      "run a failover experiment against a deployed fsx-eks stack: judged on evidence, samples to results/<stack>/<experiment>-<runId>/, always cleaned up",
    )
    .argument("<name>", "mysql-failover | fsx-failover")
    .requiredOption("--stack <name>", "the deployed fsx-eks stack (org/project/stack, as `pulumi stack ls` names it)")
    .option("--run-id <id>", "the experiment's run id (default r<yymmdd>-<hhmmss>, UTC); a run id with results is refused")
    .option("--results <dir>", "results root", "results")
    .action(async (name: string, opts: ExperimentCliOptions) => {
      process.exit(await experimentAction(name, opts, root));
    });
}

/** The experiment's exit code; everything it says goes to stdout (progress, report) and stderr (why it could not start). */
export async function experimentAction(
  name: string,
  opts: ExperimentCliOptions,
  root: string,
  cwd = process.cwd(),
  now = new Date(),
  io: { out: (s: string) => void; err: (s: string) => void } = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
): Promise<number> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { EXPERIMENTS } = require("../experiment/manifests") as typeof import("../experiment/manifests");
  const { defaultRunId, runIdProblems } = require("../run/names") as typeof import("../run/names");
  const { readExperimentOutputs } = require("../experiment/outputs") as typeof import("../experiment/outputs");
  const { runExperiment, RunRefusedError } = require("../experiment/run") as typeof import("../experiment/run");
  const { realTime } = require("../experiment/steps") as typeof import("../experiment/steps");
  /* eslint-enable @typescript-eslint/no-require-imports */

  const experiment = EXPERIMENTS.find((e) => e === name);
  if (experiment === undefined) {
    io.err(`unknown experiment '${name}': one of ${EXPERIMENTS.join(", ")}\n`);
    return 2;
  }
  const runId = opts.runId ?? defaultRunId(now);
  const bad = [
    ...runIdProblems(runId),
    ...pathProblems([{ option: "--results", value: opts.results ?? "results", kind: "out-dir", base: cwd }]),
  ];
  if (bad.length > 0) {
    io.err(`${bad.join("\n")}\n`);
    return 2;
  }
  let outputs: ExperimentOutputs;
  try {
    outputs = await readExperimentOutputs(opts.stack, { cwd: root, ...(opts.pulumi ? { pulumi: opts.pulumi } : {}) });
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  // Loaded only now: client-node, an ES module (Node require()s it), and the AWS SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { experimentCluster } = require("../experiment/kube") as typeof import("../experiment/kube");
  const { fsxApi } = require("../experiment/fsx") as typeof import("../experiment/fsx");
  /* eslint-enable @typescript-eslint/no-require-imports */

  return withInterrupts(io.out, async (interrupts) => {
    try {
      const outcome = await runExperiment({
        experiment,
        stack: opts.stack,
        runId,
        resultsRoot: path.resolve(cwd, opts.results ?? "results"),
        outputs,
        // As the experiment's own ServiceAccount: the admin kubeconfig only requests its tokens.
        cluster: experimentCluster(outputs.kubeconfig, outputs.experimentAccess[experiment]),
        ...(experiment === "fsx-failover" ? { fsx: fsxApi(outputs.region) } : {}),
        env: { ...realTime, line: (t) => io.out(`${t}\n`), interrupts },
        ...(opts.timings?.mysql ? { mysql: opts.timings.mysql } : {}),
        ...(opts.timings?.fsx ? { fsxOptions: opts.timings.fsx } : {}),
      });
      return outcome.exitCode;
    } catch (e) {
      if (e instanceof RunRefusedError) {
        io.err(`${e.message}\n`);
        return 2;
      }
      throw e;
    }
  });
}

/**
 * Runs `fn` with SIGINT and SIGTERM as the experiment's interrupts: the first aborts the steps
 * (the cleanup runs), the second stops the cleanup. Node's default exit is off for the time of `fn`.
 */
export async function withInterrupts<T>(
  say: (s: string) => void,
  fn: (interrupts: { abort: AbortSignal; stop: AbortSignal }) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const stop = new AbortController();
  let count = 0;
  const onSignal = () => {
    count++;
    if (count === 1) {
      say(
        "Ctrl-C: stopping the experiment; the cleanup runs (uncordon, delete the experiment's Jobs and volume, restore the throughput). Ctrl-C again stops the cleanup.\n",
      );
      abort.abort();
    } else {
      say("Ctrl-C again: stopping the cleanup; what is left is listed below.\n");
      stop.abort();
    }
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await fn({ abort: abort.signal, stop: stop.signal });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
