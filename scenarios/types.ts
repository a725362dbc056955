/**
 * A scenario is one experiment: the stacks it needs, with their config, in dependency order
 * (given by the `lab:*Stack` keys). The Automation API runner and the offline plan both read it.
 */
export interface ScenarioStack {
  /** Stack name within the scenario; `lab:*Stack` keys of other stacks name it. */
  readonly name: string;
  /** A shipped `Pulumi.<stack>.yaml` to take the config from (relative to the project root). */
  readonly file?: string;
  /** Config (Pulumi's stack config map), merged over the file's, keys as typed (`lab:…`). */
  readonly config?: Readonly<Record<string, unknown>>;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly stacks: readonly ScenarioStack[];
}
