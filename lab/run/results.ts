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

/**
 * The stack kinds whose programs export `results` (stacks/ceph-k0s, stacks/fsx-eks, stacks/kafka
 * index.ts): a run of one of them that exports none measured nothing.
 */
export const RESULT_KINDS: readonly string[] = ["ceph-k0s", "fsx-eks", "kafka"];

/**
 * Why a benchmark stack's outputs hold nothing to save, in one line naming the stack, its kind and
 * the outputs it has; undefined when it exported `results` or is not a benchmark stack.
 * (Pulumi drops an output whose value is undefined: a benchmark that never collected leaves no key.)
 */
export function noResults(stack: string, kind: string | undefined, outputs: OutputMap): string | undefined {
  if (kind === undefined || !RESULT_KINDS.includes(kind) || "results" in outputs) return undefined;
  const names = Object.keys(outputs).sort();
  return `stack ${stack} (lab:kind ${kind}) exported no 'results': its benchmarks saved nothing (its outputs: ${names.join(", ") || "none"})`;
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
