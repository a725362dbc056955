/**
 * A stack's benchmark outputs (`results`: samples, `rawOutputs`: `{name, text}`), as
 * `pulumi stack output --json` prints them, checked and made ready for lab/results/files.ts.
 * Anything malformed is an error naming the stack and what is wrong: never a partial save.
 */
import { z } from "zod";
import type { RawFile } from "./files";
import type { Sample } from "../../core/sample";

const sampleSchema = z.object({
  metric: z.string().min(1),
  value: z.number(),
  unit: z.string().min(1),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).and(z.object({ tool: z.string().min(1) })),
});
const rawSchema = z.object({ name: z.string().min(1), text: z.string() });

export interface StackResults {
  readonly runId: string;
  readonly samples: Sample[];
  readonly raws: RawFile[];
}

/** Reads `results` and `rawOutputs` from a stack's outputs; all samples must share one runId. */
export function stackResults(stack: string, outputs: unknown): StackResults {
  const o = (outputs ?? {}) as Record<string, unknown>;
  if (!("results" in o)) throw new Error(`stack ${stack} has no 'results' output: it is not a benchmark stack, or it has not been deployed`);
  const samples = z.array(sampleSchema).safeParse(o.results);
  if (!samples.success) throw new Error(`stack ${stack}: 'results' is not an array of samples: ${samples.error.issues[0].path.join(".")}: ${samples.error.issues[0].message}`);
  if (samples.data.length === 0) throw new Error(`stack ${stack}: 'results' is empty: no benchmark has completed yet`);
  const raws = z.array(rawSchema).safeParse(o.rawOutputs ?? []);
  if (!raws.success) throw new Error(`stack ${stack}: 'rawOutputs' is not an array of {name, text}`);
  const runIds = [...new Set(samples.data.map((s) => s.metadata.runId))];
  if (runIds.length !== 1 || typeof runIds[0] !== "string") {
    throw new Error(`stack ${stack}: the samples must carry one runId, got ${JSON.stringify(runIds)}`);
  }
  return { runId: runIds[0], samples: samples.data as Sample[], raws: raws.data };
}
