/**
 * `lab results save --stack S`: writes a deployed stack's benchmark outputs to
 * `results/<stack>/<runId>/` (samples.json + raw/), so that `pulumi destroy` never loses them.
 * Reads the outputs with the Pulumi CLI (`pulumi stack output --json --stack S`).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { writeRunResults } from "../results/files";
import { stackResults } from "../results/stack-outputs";
import { checkPaths } from "./paths";
import { manifestForSave } from "./utilization";
import { pulumiCliSource, type ManifestFile } from "../utilization/manifest";

export interface SaveOptions {
  stack: string;
  /** Results root. @default "results" */
  dir?: string;
  /** The Pulumi CLI. @default "pulumi" */
  pulumi?: string;
}

/** Returns the directory written. */
export function saveStackResults(opts: SaveOptions, cwd: string): string {
  // Before the CLI is asked: the results root is written into (created if need be).
  checkPaths([{ option: "--dir", value: opts.dir ?? "results", kind: "out-dir", base: cwd }]);
  let text: string;
  try {
    text = execFileSync(opts.pulumi ?? "pulumi", ["stack", "output", "--json", "--stack", opts.stack], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (e) {
    const err = e as { code?: string; stderr?: string; message: string };
    if (err.code === "ENOENT") throw new Error("the Pulumi CLI is not on the PATH (https://www.pulumi.com/docs/install/)");
    throw new Error(`pulumi stack output --stack ${opts.stack} failed: ${(err.stderr ?? err.message).trim()}`);
  }
  let outputs: unknown;
  try {
    outputs = JSON.parse(text);
  } catch {
    throw new Error(`pulumi stack output --stack ${opts.stack} did not print JSON`);
  }
  // A fully qualified stack name (org/project/stack) is filed under its last segment.
  const stack = opts.stack.split("/").pop() as string;
  const r = stackResults(opts.stack, outputs);
  // The run's manifest (versions, config hashes, git state: lab/utilization/manifest.ts) is taken from the
  // same stack and checkout; saving the results never depends on it.
  const root = path.resolve(cwd, opts.dir ?? "results");
  let manifest: ManifestFile | undefined;
  // A run already on disk is refused by writeRunResults: no manifest is taken for it.
  if (!fs.existsSync(path.join(root, stack, r.runId)))
    try {
      manifest = manifestForSave(opts.stack, cwd, opts.pulumi ? { source: pulumiCliSource(cwd, opts.pulumi) } : {});
    } catch (e) {
      process.stderr.write(`manifest not taken (${e instanceof Error ? e.message : String(e)}): results saved without one\n`);
    }
  return writeRunResults(root, stack, r.runId, r.samples, r.raws, manifest);
}
