/**
 * `lab run <scenario>` and `lab run <scenario> --dry-run` (lab/run). lab/cli/main.ts declares the
 * command; {@link runAction} is what it does and returns the exit code
 * (lab/run/runner.ts `EXIT`: 0 ok, 1 failed and cleaned up, 2 preflight, 3 stacks left, 130 Ctrl-C).
 */
import { EventEmitter } from "node:events";
import * as path from "node:path";
import { realTime } from "../experiment/steps";
import { dependencyOrder } from "../plan/sources";
import type { DockerProbe } from "../../components/image/rules";
import { publicAddressCidr } from "../run/admin";
import { savePartialResults } from "../run/partial";
import { awsIdentity, backendChecks, buildsImage, dockerProblems, localToolEnv, toolProblems } from "../run/preflight";
import { POLICY_PACK_DIR, prepareOffline, RunOptions } from "../run/prepare";
import { consoleReporter, RunLog } from "../run/progress";
import { archiveStackOutputs, runDirOf, saveStackOutputs } from "../run/results";
import { runScenario, type RunPlan } from "../run/runner";
import { manifestForSave } from "./utilization";
import { pulumiCliSource, type ManifestFile } from "../utilization/manifest";
import { renderSchedule, schedule } from "../run/schedule";
import { automationWorkspace } from "../run/workspace";
import { createRunWorkDir, removeRunWorkDir } from "../run/workdir";
import { experimentStepRunner, type ExperimentStepDeps } from "../run/experiments";
import { runReportDir, runReportLines } from "../run/report";
import { asCidr, keptCostLines, realRunNeeds } from "../run/needs";

/** Options as commander hands them over. */
export interface RunCliOptions extends RunOptions {
  readonly set?: string[];
}

const write = (s: string) => process.stdout.write(s);

/** What {@link runAction} takes from outside instead of this machine's (tests). */
export interface RunDeps {
  /** How the Docker daemon is reached for preflight. @default the local one */
  readonly dockerProbe?: DockerProbe;
  /**
   * The experiment steps' clients and clock (lab/run/experiments.ts): e.g. a simulated cluster, FSx
   * and clock. The line printer is always the run's. @default the stack's kubeconfig and region, real time
   */
  readonly experiments?: Omit<ExperimentStepDeps, "resultsRoot" | "env"> & { readonly env?: Omit<ExperimentStepDeps["env"], "line"> };
}

/** `lab run`: the exit code. Results and the run log go under ./results of the working directory. */
export async function runAction(
  scenario: string,
  opts: RunCliOptions,
  root: string,
  cwd = process.cwd(),
  now = new Date(),
  deps: RunDeps = {},
): Promise<number> {
  const resultsRoot = path.resolve(cwd, "results");
  // --admin-cidr auto: the caller's public address, looked up when the run starts (not for --dry-run).
  let adminCidr = opts.adminCidr === undefined ? undefined : asCidr(opts.adminCidr);
  const lookup: string[] = [];
  if (adminCidr === "auto" && !opts.dryRun) {
    try {
      adminCidr = await publicAddressCidr();
    } catch (e) {
      lookup.push(e instanceof Error ? e.message : String(e));
      adminCidr = undefined;
    }
  }
  const offline = await prepareOffline(scenario, { ...opts, adminCidr }, root, resultsRoot, now);
  const prep = { ...offline, problems: [...lookup, ...offline.problems] };

  if (opts.dryRun) {
    if (prep.problems.length > 0) {
      process.stderr.write(`${prep.problems.join("\n")}\n`);
      return 2;
    }
    const ordered = dependencyOrder(prep.specs).map((s) => s.name);
    const sch = schedule(ordered, prep.upstreams, prep.scenario?.steps ?? [], prep.plans);
    const stacks = prep.specs.map((s) => ({
      name: s.name,
      kind: s.config["lab:kind"] ?? "",
      config: s.config,
      needsDocker: buildsImage(prep.plans.get(s.name)?.resources.map((r) => r.type) ?? []),
    }));
    const lines = [
      ...renderSchedule(scenario, prep.runId, sch, prep.upstreams),
      ...(opts.keep ? keptCostLines(sch.costs) : []),
      ...realRunNeeds(stacks, adminCidr),
    ];
    write(`${lines.join("\n")}\n`);
    return 0;
  }

  const runDir = runDirOf(resultsRoot, scenario, prep.runId);
  const log = prep.scenario ? new RunLog(path.join(runDir, "run.log")) : undefined;
  const reporter = consoleReporter(log, opts.verbose === true);
  if (log) reporter.line(`run log: ${log.file}`);
  if (opts.adminCidr === "auto" && adminCidr !== undefined)
    reporter.line(`admin address: ${adminCidr} (this machine's public address, --admin-cidr auto)`);
  else if (opts.adminCidr !== undefined && adminCidr !== opts.adminCidr)
    reporter.line(`admin address: ${adminCidr} (--admin-cidr ${opts.adminCidr}: one address, taken as a /32)`);

  // The run's manifest (lab/utilization/manifest.ts) goes with each stack's results. Taking it reads the
  // stacks through the Pulumi CLI; if that fails the results are still saved, without it.
  // The stacks' config is in the run's work directory; the checkout's state is the project's (tracked tree).
  let planned: RunPlan | undefined;
  let ws: Awaited<ReturnType<typeof automationWorkspace>> | undefined;
  let workDir: string | undefined;
  const manifestOf = (stack: string): ManifestFile | undefined => {
    const spec = planned?.stacks.find((s) => s.name === stack);
    if (!planned || !spec) return undefined;
    const byFq = new Map(planned.stacks.map((s) => [s.fqName, s.name]));
    try {
      return manifestForSave(spec.fqName, root, {
        nameOf: (fq) => byFq.get(fq) ?? (fq.split("/").pop() as string),
        source: pulumiCliSource(planned.workDir),
      });
    } catch (e) {
      reporter.line(`manifest of ${stack} not taken (${e instanceof Error ? e.message : String(e)}): its results are saved without one`);
      return undefined;
    }
  };

  return withInterrupts(async (interrupts) => {
    const outcome = await runScenario({
      reporter,
      interrupts,
      // From a terminal, Ctrl-C already reached the Pulumi CLI processes (same process group).
      forwardInterrupt: !process.stdin.isTTY,
      saveResults: (stack, outputs) => saveStackOutputs(resultsRoot, stack, outputs, manifestOf(stack)),
      archiveOutputs: (stack, outputs) => void archiveStackOutputs(runDir, stack, outputs),
      savePartial: async (stack, fqName, runId) =>
        ws ? savePartialResults(await ws.exportStack(fqName), resultsRoot, stack, runId, manifestOf(stack)) : undefined,
      // The failover experiments, in this process, on the real clock and clients (lab/experiment) unless deps.experiments gives others.
      runExperiment: experimentStepRunner({
        ...deps.experiments,
        resultsRoot,
        env: { ...(deps.experiments?.env ?? realTime), line: (t) => reporter.line(t) },
      }),
      // lab report over what the run saved, into the run directory, before the first destroy.
      afterResults: (saved, status) => writeRunReport(runDir, saved, status, cwd),
      preflight: async () => {
        if (prep.problems.length > 0) return { problems: prep.problems };
        const stacks = prep.specs.map((s) => ({
          name: s.name,
          kind: s.config["lab:kind"] ?? "",
          needsDocker: buildsImage(prep.plans.get(s.name)?.resources.map((r) => r.type) ?? []),
        }));
        const tools = [...(await toolProblems(stacks, localToolEnv)), ...(await dockerProblems(stacks, deps.dockerProbe))];
        if (tools.length > 0) return { problems: tools };
        // The run's own work directory: the stacks' Pulumi.<stack>.yaml go there, not into the project.
        workDir = createRunWorkDir(root, scenario, prep.runId);
        ws = await automationWorkspace(workDir, undefined, { secretsProvider: opts.secretsProvider });
        const region = prep.specs[0]?.config["aws:region"] ?? "us-east-1";
        const [aws, backend] = await Promise.all([
          awsIdentity(localToolEnv, region),
          backendChecks(ws, prep, {
            keep: opts.keep === true,
            org: opts.org,
            workDir,
            scenario,
            policyPacks: [path.join(root, POLICY_PACK_DIR)],
            secretsProvider: opts.secretsProvider,
          }),
        ]);
        const problems = [...(aws.problem ? [aws.problem] : []), ...backend.problems];
        if (problems.length > 0 || !backend.plan) return { problems };
        planned = backend.plan;
        reporter.line(`AWS account ${aws.account} (${aws.arn}); Pulumi backend ${backend.who?.url ?? "?"} as ${backend.who?.user}`);
        reporter.line(`work directory (the stacks' Pulumi.<stack>.yaml): ${workDir}`);
        return { problems: [], run: { plan: backend.plan, workspace: ws } };
      },
    });
    // Nothing left to finish: the work directory goes too (kept while any stack remains, lab/run/workdir.ts).
    if (workDir !== undefined && outcome.status !== "kept" && outcome.left.length === 0) {
      removeRunWorkDir(workDir);
      reporter.line(`work directory removed: ${workDir} (no stack of the run is left)`);
    }
    return outcome.exitCode;
  });
}

/**
 * `lab report` over a run's saved results directories into `<runDir>/report/` (markdown, HTML,
 * charts); the lines the run closes with (lab/run/report.ts).
 */
export async function writeRunReport(
  runDir: string,
  saved: readonly string[],
  status: "complete" | "partial",
  cwd = process.cwd(),
  format?: string,
): Promise<string[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runReport } = require("./report") as typeof import("./report");
  const res = await runReport({ dirs: saved, out: runReportDir(runDir), cwd, ...(format ? { format } : {}) });
  return runReportLines(res.outDir, res.model, status);
}

/**
 * Runs `fn` with SIGINT and SIGTERM turned into the runner's interrupts: the first signal emits
 * "cancel", any later one "stop" (lab/run/runner.ts). The handlers replace Node's default exit for
 * the time of `fn` only.
 */
export async function withInterrupts<T>(fn: (interrupts: EventEmitter) => Promise<T>): Promise<T> {
  const interrupts = new EventEmitter();
  let count = 0;
  const onSignal = () => interrupts.emit(++count === 1 ? "cancel" : "stop");
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await fn(interrupts);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
