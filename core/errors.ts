/**
 * The project's one error format.
 *
 * Config problems read `'<key>' must be <rule>, got <value>`, naming the key the user typed
 * (`lab:vpcCidr`, `aws:region`), and are reported all at once in one {@link ConfigError}.
 * Tool-output problems name the file and what is missing ({@link ToolOutputError}).
 */

/** Renders a value the way a user typed it: strings quoted, nothing as `nothing`. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return JSON.stringify(value);
}

/** One config problem: `'<key>' must be <rule>, got <value>`. */
export function problem(key: string, rule: string, value: unknown): string {
  return `'${key}' must be ${rule}, got ${formatValue(value)}`;
}

/** Every problem found in one stack's (or one component's) input, reported together. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

/** Throws one ConfigError carrying every problem, or returns when there are none. */
export function throwIfProblems(problems: readonly string[]): void {
  if (problems.length > 0) throw new ConfigError(problems);
}

/** A benchmark tool's output that cannot be read whole: `<file>: <what is wrong>`. */
export class ToolOutputError extends Error {
  readonly file: string;
  constructor(file: string, what: string) {
    super(`${file}: ${what}`);
    this.name = "ToolOutputError";
    this.file = file;
  }
}

/**
 * One bad argument of a component (or of a pure helper): the argument's property path
 * (`storageCapacityGiB`, `volumes[2].name`), the rule it breaks and the value it has. A rule may
 * name another argument as `{argName}`: whoever renders the problem puts the name the reader knows
 * there (the argument itself inside a program, the `lab:` config key for a stack's user).
 */
export interface ArgProblem {
  readonly path: string;
  readonly rule: string;
  readonly value: unknown;
}

export function argProblem(path: string, rule: string, value: unknown): ArgProblem {
  return { path, rule, value };
}

/** How a reader names an argument: identity for component users, `lab:<key>` for stack users. */
export type KeyOf = (argument: string) => string;

const ARG_REF = /\{([A-Za-z][A-Za-z0-9]*)\}/g;
const PATH_HEAD = /^([A-Za-z][A-Za-z0-9]*)(.*)$/s;

/**
 * `'<path>' must be <rule>, got <value>`, every argument named through `keyOf`. A path that is
 * already a config key (it has a namespace: `lab:<label>Stack`) is printed as it is.
 */
export function formatArgProblem(p: ArgProblem, keyOf: KeyOf = (a) => a): string {
  const head = p.path.includes(":") ? null : PATH_HEAD.exec(p.path);
  const key = head ? `${keyOf(head[1])}${head[2]}` : p.path;
  return problem(
    key,
    p.rule.replace(ARG_REF, (_m, arg: string) => `'${keyOf(arg)}'`),
    p.value,
  );
}
