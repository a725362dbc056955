/**
 * The one argument error of every component: all bad arguments at once, as Pulumi's own
 * `InputPropertiesError` (what pulumi-eks throws for its argument checks), each problem rendered
 * `'<argument>' must be <rule>, got <value>`. Stacks check the same rules before creating anything
 * and name the `lab:` config keys instead (stacks/lib/config/load.ts), so a user of a stack never
 * sees this error; a program that uses a component directly does.
 */
import * as pulumi from "@pulumi/pulumi";
import { ArgProblem, formatArgProblem } from "../../core/errors";

/** Throws one InputPropertiesError naming every problem of `type`'s `name`; returns when there is none. */
export function throwIfInvalid(type: string, name: string, problems: readonly ArgProblem[]): void {
  if (problems.length === 0) return;
  const lines = problems.map((p) => formatArgProblem(p));
  throw new pulumi.InputPropertiesError({
    message: `invalid arguments of ${type} '${name}':\n${lines.join("\n")}`,
    errors: problems.map((p, i) => ({ propertyPath: p.path, reason: lines[i] })),
  });
}
