/**
 * Reads the benchmark scripts from `components/bench/scripts/`, the one place they live: the
 * Jobs get them through their ConfigMap; the tests run the same files.
 */
import * as fs from "fs";
import * as path from "path";

/** The directory of the scripts. */
export const BENCH_SCRIPTS_DIR = path.join(__dirname, "scripts");

/** The scripts a benchmark Job runs (and its ConfigMap holds), by file name. */
export const JOB_SCRIPT_FILES = ["lib.sh", "fio.sh", "ioping.sh", "pgbench.sh", "sampler.sh"] as const;

/** The script the collecting `local.Command` runs on the deploying machine. */
export const COLLECT_SCRIPT_FILE = "collect-job.sh";

/** The Job scripts' text by file name. */
export function readJobScripts(dir: string = BENCH_SCRIPTS_DIR): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of JOB_SCRIPT_FILES) out[f] = fs.readFileSync(path.join(dir, f), "utf8");
  return out;
}

/** The text of collect-job.sh. */
export function readCollectScript(dir: string = BENCH_SCRIPTS_DIR): string {
  return fs.readFileSync(path.join(dir, COLLECT_SCRIPT_FILE), "utf8");
}
