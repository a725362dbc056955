/**
 * The plan's error: pure (no Pulumi import), so the CLI can tell a config error from a program
 * error without loading the engine's SDK.
 */
import { ConfigError } from "../../core/errors";

/** A program error (config, upstream, program bug) with the stack it came from. */
export class PlanError extends Error {
  /**
   * @param stack the stack whose plan failed
   * @param cause what the program (or the plan's runtime) threw
   * @param note what the plan knows about the failure beyond the program's message (e.g. the
   *   invokes a first preview answered with an empty result), appended on a line of its own
   */
  constructor(
    readonly stack: string,
    readonly cause: unknown,
    readonly note?: string,
  ) {
    super(`${cause instanceof Error ? cause.message : String(cause)}${note ? `\n${note}` : ""}`);
    this.name = isConfigError(cause) ? "ConfigError" : "PlanError";
  }
}

/** A config error: the user's to fix, shown without a stack trace (exit status 2 from the CLI). */
export function isConfigError(e: unknown): boolean {
  return e instanceof ConfigError || (e instanceof PlanError && e.cause instanceof ConfigError);
}

/**
 * The stack trace of a program error, the frames only (`    at …` lines), or "" for a config error
 * or a value that is not an Error: what the CLI prints under the message when a plan fails.
 */
export function programTrace(e: unknown): string {
  const cause = e instanceof PlanError ? e.cause : e;
  if (!(cause instanceof Error) || isConfigError(cause) || typeof cause.stack !== "string") return "";
  return cause.stack
    .split("\n")
    .filter((l) => /^\s+at /.test(l))
    .join("\n");
}
