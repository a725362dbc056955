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
