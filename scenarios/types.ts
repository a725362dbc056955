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

/**
 * The step kinds. A typed list, extended one kind at a time: the failover experiments of `fsx-eks`
 * (`mysql-failover`, `fsx-failover`) become step kinds when `lab experiment` exists; they are not
 * built yet.
 */
export type ScenarioStep = RerunStep;

/** The step kinds there are (./load.ts rejects any other). */
export const STEP_KINDS = ["rerun"] as const;

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly stacks: readonly ScenarioStack[];
  /** Run once every stack is up, in order; none by default. */
  readonly steps?: readonly ScenarioStep[];
}
