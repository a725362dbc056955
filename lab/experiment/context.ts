/**
 * What an experiment's body gets (./run.ts builds it) and what it hands back: the evidence, as
 * samples and raw files, with the verdict.
 */
import type { RawFile } from "../results/files";
import type { MetadataValue, Sample } from "../../core/sample";
import type { Cluster } from "./cluster";
import type { FsxApi } from "./fsx";
import type { ExperimentName } from "./manifests";
import type { ExperimentOutputs } from "./outputs";
import type { ExperimentScripts } from "./scripts";
import type { Cleanup, ExperimentEnv, Steps } from "./steps";

/** The scenario the fsx-eks stack's samples belong to (stacks/fsx-eks/index.ts `SCENARIO`). */
export const FSX_EKS_SCENARIO = "fsx-eks";

export interface ExperimentContext {
  readonly experiment: ExperimentName;
  /** The stack's short name (the results directory's). */
  readonly stack: string;
  readonly runId: string;
  readonly outputs: ExperimentOutputs;
  readonly cluster: Cluster;
  /** The FSx API (fsx-failover only). */
  readonly fsx?: FsxApi;
  readonly scripts: ExperimentScripts;
  readonly env: ExperimentEnv;
  readonly steps: Steps;
  readonly cleanup: Cleanup;
}

/** What an experiment found. `failure` says what was lost when the evidence fails it. */
export interface Evidence {
  readonly samples: Sample[];
  readonly raws: RawFile[];
  readonly failure?: string;
}

/** One timeline entry of a raw `timeline.json`. */
export interface TimelineEvent {
  /** ISO 8601, on the clock named by `clock`. */
  readonly at: string;
  readonly clock: "operator" | "writer" | "fio";
  readonly what: string;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A failover sample (tool `failover`) with the run's metadata. */
export function failoverSample(
  c: Pick<ExperimentContext, "experiment" | "stack" | "runId">,
  metric: string,
  value: number,
  unit: string,
  metadata: Record<string, MetadataValue>,
): Sample {
  return {
    metric,
    value,
    unit,
    metadata: { tool: "failover", experiment: c.experiment, scenario: FSX_EKS_SCENARIO, stack: c.stack, runId: c.runId, ...metadata },
  };
}

/** Seconds with millisecond precision. */
export const seconds = (ms: number): number => Math.round(ms) / 1000;
