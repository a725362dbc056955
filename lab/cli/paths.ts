/** The CLI's path checks (lab/lib/paths.ts) as a usage error: exit 2, every problem at once. */
import { UsageError } from "./errors";
import { type PathArg, pathProblems } from "../lib/paths";

export { type PathArg, type PathKind, pathProblems, pathWhy } from "../lib/paths";

/** Throws one UsageError (exit 2) with every problem of `args`, or returns. */
export function checkPaths(args: readonly PathArg[]): void {
  const problems = pathProblems(args);
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
}
