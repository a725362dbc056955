/**
 * The `lab` CLI as a user runs it, for the guardrail tests: a bad input's config written as a stack
 * config file, and `node bin/lab.js …` run as child processes, at most {@link CONCURRENCY} at a time.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { SCENARIOS } from "../../scenarios";
import { ROOT } from "../helpers/root";
import type { BadInput } from "./bad-inputs";

/** Child processes at once: the machine the tests run on has two cores. */
export const CONCURRENCY = 2;

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/lab.js <args>` in the project root. */
export function lab(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin", "lab.js"), ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    // Decoded as a stream: a chunk may end inside a multi-byte character (the plans carry "…"),
    // which a per-chunk toString() would turn into two replacement characters.
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d: string) => (stdout += d));
    child.stderr.on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs `jobs` with at most `limit` running at once; results in the jobs' order. */
export async function pool<T>(jobs: ReadonlyArray<() => Promise<T>>, limit = CONCURRENCY): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return out;
}

/** A shipped config file's `config` map, as written (structured values kept). */
export function shippedConfig(file: string): Record<string, unknown> {
  const doc = YAML.parse(fs.readFileSync(path.join(ROOT, file), "utf8")) as { config: Record<string, unknown> };
  return { ...doc.config };
}

/** The config a scenario gives one of its stacks: its file's, with the scenario's own config over it. */
export function scenarioStackConfig(scenario: string, stack: string): Record<string, unknown> {
  const s = SCENARIOS.find((x) => x.name === scenario)?.stacks.find((x) => x.name === stack);
  if (!s) throw new Error(`no stack ${stack} in scenario ${scenario}`);
  return { ...(s.file ? shippedConfig(s.file) : {}), ...(s.config ?? {}) };
}

/** A bad input's whole config map. */
export function configOf(c: BadInput): Record<string, unknown> {
  const base = c.scenario ? scenarioStackConfig(c.scenario.name, c.scenario.stack) : shippedConfig(c.base as string);
  const config: Record<string, unknown> = { ...base, ...(c.set ?? {}) };
  for (const key of c.unset ?? []) {
    if (!(key in config)) throw new Error(`${c.title}: the base has no key ${key} to remove`);
    delete config[key];
  }
  return config;
}

/** Writes the bad input as `<dir>/Pulumi.<stack>.yaml` and returns its path. */
export function writeConfig(c: BadInput, stack: string, dir: string): string {
  const file = path.join(dir, `Pulumi.${stack}.yaml`);
  fs.writeFileSync(file, c.raw ?? YAML.stringify({ config: configOf(c) }));
  return file;
}
