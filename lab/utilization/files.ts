/**
 * utilization.json, the file `lab util` writes beside a run's samples.json (lab/utilization/run.ts says
 * what it holds), and its reader for `lab report`. Kept apart from lab/utilization/run.ts so that reading
 * it loads no AWS SDK.
 */
import * as path from "node:path";
import type { Sample } from "../../core/sample";
import type { UtilNote, UtilizationFetch } from "./cloudwatch";
import { readJsonIfPresent } from "./json-file";

export const UTILIZATION_FILE = "utilization.json";

export interface UtilizationFile {
  readonly schema: 1;
  readonly createdAt: string;
  readonly samples: Sample[];
  readonly notes: UtilNote[];
  /** What CloudWatch was asked; null when it was not (`--no-cloudwatch`, or no manifest). */
  readonly cloudwatch: Pick<UtilizationFetch, "getMetricDataCalls" | "metricsRequested" | "listMetricsCalls"> | null;
}

/** Reads `<dir>/utilization.json`; undefined when there is none. */
export function readUtilizationFile(dir: string): UtilizationFile | undefined {
  const file = path.join(dir, UTILIZATION_FILE);
  const data = readJsonIfPresent(file);
  if (data === undefined) return undefined;
  const u = data as Partial<UtilizationFile>;
  if (u?.schema !== 1 || !Array.isArray(u.samples) || !Array.isArray(u.notes))
    throw new Error(`${file}: not a utilization file (schema 1 with samples and notes)`);
  return u as UtilizationFile;
}
