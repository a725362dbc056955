/**
 * Pulumi entry point: `lab:kind` selects the stack module (stacks/index.ts) and its outputs
 * become the stack's outputs. See README.md for every kind's config keys and outputs.
 */
import { runStack } from "./stacks";

export = runStack();
