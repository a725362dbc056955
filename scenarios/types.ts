/**
 * A scenario is one experiment: the stacks it needs, with their config, in dependency order
 * (given by the `lab:*Stack` keys), and the steps that run once its stacks are up. What it compares
 * is a stack of kind `compare` among its stacks (its `lab:<label>Stack` keys name the stacks
 * compared, `lab:ratios` the ratios). `lab plan --scenario`, `lab run` and `lab run --dry-run`
 * all read these definitions (validated by ./load.ts).
 */
export interface ScenarioStack {
  /** Stack name within the scenario; `lab:*Stack` keys of other stacks name it. */
  readonly name: string;
  /** A shipped `Pulumi.<stack>.yaml` to take the config from (relative to the project root). */
  readonly file?: string;
  /** Config (Pulumi's stack config map), merged over the file's, keys as typed (`lab:…`). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/**
 * Re-runs the benchmarks of `stacks` `times` more times without re-creating infrastructure: each
 * repetition sets `lab:runId` to `<runId>-2`, `<runId>-3`, … and runs `up` again (the benchmark
 * Jobs' triggers hold the run id). The results of the run before are saved first, so every
 * repetition ends up in `results/<stack>/<runId>[-k]/`.
 */
export interface RerunStep {
  readonly kind: "rerun";
  /** Scenario stacks whose benchmarks run again, in dependency order among themselves. */
  readonly stacks: readonly string[];
  /** Extra repetitions, 1–10. */
  readonly times: number;
}

/** The failover experiments of an fsx-eks stack (lab/experiment: `lab experiment <name>`). */
export const EXPERIMENT_KINDS = ["mysql-failover", "fsx-failover"] as const;
export type ExperimentKind = (typeof EXPERIMENT_KINDS)[number];

/**
 * Runs one failover experiment (lab/experiment) against a stack of kind `fsx-eks` of the scenario,
 * once its benchmarks' results are saved and before anything is destroyed. Its samples go to
 * `results/<stack>/<kind>-<runId>/`; `lab run --skip-experiments` leaves the step out. A failed
 * experiment fails the run (its evidence and the benchmarks' results are saved all the same).
 */
export interface ExperimentStep {
  readonly kind: ExperimentKind;
  /** The scenario stack (kind fsx-eks) it runs against. */
  readonly stack: string;
}

/** The step kinds. */
export type ScenarioStep = RerunStep | ExperimentStep;

/** The step kinds there are (./load.ts rejects any other). */
export const STEP_KINDS = ["rerun", ...EXPERIMENT_KINDS] as const;

/** Whether `step` is a failover experiment. */
export function isExperimentStep(step: ScenarioStep): step is ExperimentStep {
  return (EXPERIMENT_KINDS as readonly string[]).includes(step.kind);
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly stacks: readonly ScenarioStack[];
  /** Run once every stack is up, in order; none by default. */
  readonly steps?: readonly ScenarioStep[];
}
