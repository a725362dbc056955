/**
 * A run's files: each stack's results through the existing `lab results save` code
 * (lab/results/stack-outputs.ts, lab/results/files.ts: `results/<stack>/<runId>/samples.json` +
 * `raw/`), and the run directory `results/runs/<scenario>-<runId>/` with the run log and a copy of
 * every stack's outputs (secrets masked) after each up.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { writeRunResults } from "../results/files";
import { stackResults } from "../results/stack-outputs";
import type { ManifestFile } from "../utilization/manifest";

/** Output values as `pulumi stack output --json --show-secrets` prints them. */
export function plainOutputs(outputs: OutputMap): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));
}

/**
 * Writes `stack`'s results under `resultsRoot`, with the run's manifest when given (lab/utilization/manifest.ts
 * `takeManifest`); undefined when the stack has no `results` output (network, compare).
 */
export function saveStackOutputs(resultsRoot: string, stack: string, outputs: OutputMap, manifest?: ManifestFile): string | undefined {
  const plain = plainOutputs(outputs);
  if (!("results" in plain)) return undefined;
  const r = stackResults(stack, plain);
  return writeRunResults(resultsRoot, stack, r.runId, r.samples, r.raws, manifest);
}

/** `results/runs/<scenario>-<runId>`. */
export function runDirOf(resultsRoot: string, scenario: string, runId: string): string {
  return path.join(resultsRoot, "runs", `${scenario}-${runId}`);
}

/** Writes `<runDir>/outputs/<stack>.json`: the outputs, secret ones as "[secret]". */
export function archiveStackOutputs(runDir: string, stack: string, outputs: OutputMap): string {
  const file = path.join(runDir, "outputs", `${stack}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const masked = Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.secret ? "[secret]" : v.value]));
  fs.writeFileSync(file, `${JSON.stringify(masked, null, 2)}\n`);
  return file;
}
