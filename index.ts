/**
 * Pulumi entry point: `lab:kind` selects the stack module (stacks/index.ts) and its outputs
 * become the stack's outputs. See README.md for every kind's config keys and outputs.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigError } from "./core/errors";
import { runStack } from "./stacks";

async function main() {
  try {
    // A kind that reads upstream stacks checks them before its first resource (stacks/lib/upstream.ts): awaited here.
    return await runStack();
  } catch (e) {
    // A config error is the user's to fix: print its problems, not a stack trace (pulumi.RunError).
    if (e instanceof ConfigError) throw new pulumi.RunError(`invalid stack config:\n${e.message}`);
    // A component's own argument check (components/lib/args.ts): the problems, no stack trace.
    if (pulumi.InputPropertiesError.isInstance(e)) throw new pulumi.RunError(e.message);
    throw e;
  }
}

export = main();
