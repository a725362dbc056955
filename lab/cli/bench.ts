/**
 * `lab bench local [--dir D] [--profile seed|latency|suite] [--tools fio,ioping,pgbench] [--quick]
 * [--reps N] [--pg URL] [--name N]`: the benchmark Jobs' scripts on this machine (lab/bench/run.ts), then
 * `lab report` (lab/cli/report.ts `runReport`) on the run's directory, written to
 * `results/local/<name>/<runId>/report/`. {@link benchLocalAction} is what the command does; it returns
 * the exit status (lab/bench/run.ts: 0 done, 1 a step failed, 2 a problem before anything started,
 * 130 Ctrl-C).
 */
import * as path from "node:path";
import type { BenchLocalOptions } from "../bench/plan";
import { runBenchLocal, type LocalRunOptions } from "../bench/run";
import { runReport } from "./report";

/** The report of one run directory, as `lab report <runDir> --out <runDir>/report` writes and prints it. */
export async function reportRun(runDir: string, cwd: string): Promise<string> {
  return (await runReport({ dirs: [runDir], out: path.join(runDir, "report"), cwd })).text;
}

/** `lab bench local`: the exit status. `extra` is for tests (results root, run id, output, events). */
export async function benchLocalAction(
  opts: BenchLocalOptions,
  extra: Omit<LocalRunOptions, keyof BenchLocalOptions> = {},
): Promise<number> {
  const cwd = extra.cwd ?? process.cwd();
  const result = await runBenchLocal({ ...opts, report: (dir) => reportRun(dir, cwd), ...extra, cwd });
  return result.code;
}
