/** Running an experiment on the simulated world (./sim.ts), with the stack's outputs as an fsx-eks stack would export them. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ExperimentName } from "../../../lab/experiment/manifests";
import type { ExperimentOutputs } from "../../../lab/experiment/outputs";
import { runExperiment, type ExperimentOutcome, type ExperimentRun } from "../../../lab/experiment/run";
import type { ExperimentEnv } from "../../../lab/experiment/steps";
import { FS_ID, RUN_ID, SimCluster, simEnv, SimFsx, SOURCE_HOST, World } from "./sim";

export const TOOLS_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-lab/fsx-eks/bench-tools:fio-3.33-ioping-1.3";

export const OUTPUTS: ExperimentOutputs = {
  kubeconfig: "apiVersion: v1\nkind: Config\nclusters: []\n",
  region: "us-east-1",
  fileSystemId: FS_ID,
  mysql: {
    namespace: "mysql",
    sourceHost: SOURCE_HOST,
    statefulSetName: "mysql",
    writerPasswordSecretRef: { name: "mysql-writer", key: "password" },
    storageClass: "fsx-ontap-nas",
  },
  storageClasses: ["fsx-ontap-nas", "gp3"],
  experimentAccess: {
    "mysql-failover": { namespace: "mysql", serviceAccount: "lab-mysql-failover" },
    "fsx-failover": { namespace: "bench", serviceAccount: "lab-fsx-failover" },
  },
  toolsImage: TOOLS_IMAGE,
};

export const STACK = "organization/storage-bench-lab/fsx-eks";

const made: string[] = [];

/** A new temporary directory, removed by {@link removeTmpDirs}. */
export function tmpDir(prefix = "lab-experiment-"): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

/** A results root for one run. */
export function tmpResults(): string {
  return tmpDir();
}

/** Removes the temporary directories made so far (call it in afterAll). */
export function removeTmpDirs(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export interface SimRun {
  readonly outcome: ExperimentOutcome;
  readonly lines: readonly string[];
  readonly resultsRoot: string;
}

/** Runs `experiment` on `world` with the real default options but `extra`. */
export async function runOn(
  world: World,
  experiment: ExperimentName,
  extra: Partial<Pick<ExperimentRun, "mysql" | "fsxOptions" | "runId" | "resultsRoot">> & {
    interrupts?: ExperimentEnv["interrupts"];
    /** Sees the env's lines as they are printed. */
    onLines?: (lines: readonly string[]) => void;
  } = {},
): Promise<SimRun> {
  const env = simEnv(world, extra.interrupts);
  extra.onLines?.(env.lines);
  const resultsRoot = extra.resultsRoot ?? tmpResults();
  const outcome = await runExperiment({
    experiment,
    stack: STACK,
    runId: extra.runId ?? RUN_ID,
    resultsRoot,
    outputs: OUTPUTS,
    cluster: new SimCluster(world, env.clock),
    fsx: new SimFsx(world, env.clock),
    env,
    ...(extra.mysql ? { mysql: extra.mysql } : {}),
    ...(extra.fsxOptions ? { fsxOptions: extra.fsxOptions } : {}),
  });
  return { outcome, lines: env.lines, resultsRoot };
}

/** The samples of a metric, as [value, unit]. */
export function valuesOf(outcome: ExperimentOutcome, metric: string): Array<[number, string]> {
  return outcome.samples.filter((s) => s.metric === metric).map((s) => [s.value, s.unit]);
}

/** The step lines printed so far (`[i/n] <step>: done|failed|interrupted …`). */
export function stepLines(lines: readonly string[]): string[] {
  return lines.filter((l) => /^\+\d\d:\d\d:\d\d \S+ \[\d+\/\d+\] /.test(l));
}

/**
 * Runs `experiment` once without failures and returns, for every step that makes a call, the index
 * of its first call (over every call of the world) and the step's name.
 */
export async function firstCallOfEachStep(
  make: () => World,
  experiment: ExperimentName,
): Promise<Array<{ step: string; call: number; what: string }>> {
  const world = make();
  let lines: readonly string[] = [];
  const stepOfCall: number[] = [];
  world.onCall = () => stepOfCall.push(stepLines(lines).length);
  const r = await runOn(world, experiment, { onLines: (l) => (lines = l) });
  if (r.outcome.status !== "passed") throw new Error(`the run without failures did not pass: ${r.outcome.report.join(" | ")}`);
  const names = stepLines(r.lines).map((l) => /\] (.*?): done in /.exec(l)![1]);
  const out: Array<{ step: string; call: number; what: string }> = [];
  stepOfCall.forEach((done, call) => {
    if (done < names.length && !out.some((o) => o.step === names[done])) out.push({ step: names[done], call, what: world.calls[call] });
  });
  return out;
}
