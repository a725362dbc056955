/**
 * Results of a stack whose `up` failed: what its completed collectors returned, read from the
 * stack's state, saved (marked partial) before the destroy, so that a failing last Job does not
 * throw away the benchmarks that finished before it.
 *
 * A collector is the `@pulumi/command` `local.Command` that fetched a benchmark Job's log
 * (components/bench/index.ts `<name>-<tool>-collect-<runId>`, components/omb/index.ts
 * `<name>-<cell>-collect-<runId>`); the engine writes a resource to the state when its create
 * succeeded, with its outputs, `stdout` included (the Job's log, LAB-RESULT blocks). The state is
 * `pulumi stack export --show-secrets` (`{version: 3, deployment: {resources: [{urn, type, outputs}]}}`,
 * pulumi/pulumi sdk/go/common/apitype `DeploymentV3`); a secret output is kept there as
 * `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "plaintext": "<JSON>"}`
 * (apitype `SecretSig`). The blocks are cut and parsed exactly as the program does
 * (components/bench/collect.ts, core/parsers); every sample carries `partial: true` and the
 * collector's name, and the run's manifest says `partial`.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { cutResultBlocks, markerMetadata, rawOutputName, type RawOutput } from "../../components/bench/collect";
import { isToolName, parseToolOutput } from "../../core/parsers";
import { withRunMetadata, type Sample } from "../../core/sample";
import { writeRunResults } from "../results/files";
import type { ManifestFile } from "../utilization/manifest";

/** Pulumi's signature key of a secret value in a deployment (apitype `SecretSig`). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

export interface CompletedCollector {
  /** Its logical name (`bench-fio-collect-r1`). */
  readonly name: string;
  readonly stdout: string;
}

interface StateResource {
  readonly urn?: unknown;
  readonly type?: unknown;
  readonly outputs?: Record<string, unknown>;
}

function plain(v: unknown): unknown {
  if (v && typeof v === "object" && SECRET_SIG in (v as object)) {
    const p = (v as { plaintext?: unknown }).plaintext;
    return typeof p === "string" ? (JSON.parse(p) as unknown) : undefined;
  }
  return v;
}

/** The collectors of run `runId` that completed (in the state, with a stdout), in state order. */
export function completedCollectors(deployment: Deployment, runId: string): CompletedCollector[] {
  const resources = ((deployment.deployment as { resources?: StateResource[] } | undefined)?.resources ?? []) as StateResource[];
  const suffix = `-collect-${runId}`;
  const out: CompletedCollector[] = [];
  for (const r of resources) {
    if (r.type !== "command:local:Command" || typeof r.urn !== "string") continue;
    const name = r.urn.split("::").pop() as string;
    if (!name.endsWith(suffix)) continue;
    const stdout = plain(r.outputs?.stdout);
    if (typeof stdout === "string" && stdout.trim() !== "") out.push({ name, stdout });
  }
  return out;
}

/**
 * Samples and raw outputs of the completed collectors: each collector's LAB-RESULT blocks parsed,
 * with `stack`, `runId`, `partial: true`, `collector` and the marker's metadata. A block that does
 * not parse is an error naming the collector (never a partial sample set presented as whole).
 */
export function partialResults(
  stack: string,
  runId: string,
  collectors: readonly CompletedCollector[],
): { samples: Sample[]; raws: RawOutput[] } {
  const samples: Sample[] = [];
  const raws: RawOutput[] = [];
  for (const c of collectors) {
    // `<name>-<tool>-collect-<runId>` → raw files `<name>-<tool>-rep<n>.<ext>` (the tool once).
    const base = c.name.slice(0, -`-collect-${runId}`.length);
    for (const b of cutResultBlocks(c.stdout, `state/${c.name}`)) {
      if (!isToolName(b.tool)) throw new Error(`state/${c.name}: unknown tool ${JSON.stringify(b.tool)} in a LAB-RESULT marker`);
      const name = rawOutputName(b, `${base.endsWith(`-${b.tool}`) ? base.slice(0, -b.tool.length - 1) : base}-`);
      raws.push({ name, text: b.text });
      const parsed = parseToolOutput(b.tool, b.text, `state/${c.name}/${name}`);
      samples.push(...withRunMetadata(parsed, { stack, runId, partial: true, collector: c.name, ...markerMetadata(b.attrs), rep: b.rep }));
    }
  }
  return { samples, raws };
}

/**
 * Writes the partial results of `stack` (run `runId`) from its state to `results/<stack>/<runId>/`,
 * the manifest marked `partial`; undefined when no collector had completed.
 */
export function savePartialResults(
  deployment: Deployment,
  resultsRoot: string,
  stack: string,
  runId: string,
  manifest?: ManifestFile,
): string | undefined {
  const collectors = completedCollectors(deployment, runId);
  if (collectors.length === 0) return undefined;
  const { samples, raws } = partialResults(stack, runId, collectors);
  const marked = manifest && {
    ...manifest,
    partial: { reason: "the stack's up failed: only the collectors that had completed", collectors: collectors.map((c) => c.name) },
  };
  return writeRunResults(resultsRoot, stack, runId, samples, raws, marked);
}
