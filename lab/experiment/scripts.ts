/**
 * The files the experiments' Jobs run, read from their one home: `lab/experiment/scripts/`
 * (mysql-writer.sh, fio-failover.sh, failover.fio) and the benchmark scripts' lib.sh
 * (components/bench/scripts/lib.sh: logging, checks, the result markers the bench collector and
 * lab/experiment/fio-log.ts cut on). The ConfigMaps carry them; the tests run the same files.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BENCH_SCRIPTS_DIR } from "../../components/bench/scripts";

export const EXPERIMENT_SCRIPTS_DIR = path.join(__dirname, "scripts");

export const EXPERIMENT_SCRIPT_FILES = ["mysql-writer.sh", "fio-failover.sh", "failover.fio"] as const;

export type ExperimentScripts = Readonly<Record<(typeof EXPERIMENT_SCRIPT_FILES)[number] | "lib.sh", string>>;

export function readExperimentScripts(dir: string = EXPERIMENT_SCRIPTS_DIR, benchDir: string = BENCH_SCRIPTS_DIR): ExperimentScripts {
  const out: Record<string, string> = { "lib.sh": fs.readFileSync(path.join(benchDir, "lib.sh"), "utf8") };
  for (const f of EXPERIMENT_SCRIPT_FILES) out[f] = fs.readFileSync(path.join(dir, f), "utf8");
  return out as ExperimentScripts;
}
