/**
 * A problem known only at deploy time (an invoke's answer, the Docker daemon, an upstream stack's
 * outputs), raised where its value becomes known: inside an `apply`. Every check that config alone
 * decides runs before any resource is registered (stacks/lib/config/load.ts, the components'
 * rules); these are the rest.
 *
 * A `pulumi.RunError`: the Node runtime prints its message without a stack trace ("Always hide the
 * stack for RunErrors", @pulumi/pulumi cmd/run/run.js uncaughtHandler), each problem on a line of
 * its own as `[lab] error: <problem>`, the prefix the lab's scripts print theirs with
 * (components/bench/scripts/lib.sh `lab_die`).
 */
import * as pulumi from "@pulumi/pulumi";

export const LAB_ERROR_PREFIX = "[lab] error: ";

export class DeployTimeError extends pulumi.RunError {
  /** The problems, without the prefix. */
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.map((p) => `${LAB_ERROR_PREFIX}${p}`).join("\n"));
    this.name = "DeployTimeError";
    this.problems = problems;
  }
}
