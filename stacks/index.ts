/**
 * The stack-kind dispatcher: `lab:kind` picks the module in this folder that builds the stack.
 * Config is validated whole before any resource is registered, so a config error creates nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigError, problem } from "../core/errors";
import { cephK0sStack } from "./ceph-k0s/index";
import { compareStack } from "./compare/index";
import { eksStack } from "./eks/index";
import { fsxEksStack } from "./fsx-eks/index";
import { fsxOntapStack } from "./fsx-ontap/index";
import { kafkaStack } from "./kafka/index";
import { StackIdentity } from "./lib/context";
import { networkStack } from "./network/index";

/** A stack's outputs; a kind that reads upstream stacks returns them once its upstream checks pass (stacks/lib/upstream.ts). */
export type StackOutputs = Record<string, pulumi.Input<unknown>>;
export type StackProgram = (raw: Readonly<Record<string, string>>, id: StackIdentity) => StackOutputs | Promise<StackOutputs>;

/** Every stack kind, in dependency order of the stack graph (README, "Real use on AWS"). */
export const STACK_KINDS: Readonly<Record<string, StackProgram>> = {
  network: networkStack,
  "fsx-ontap": fsxOntapStack,
  eks: eksStack,
  "fsx-eks": fsxEksStack,
  kafka: kafkaStack,
  "ceph-k0s": cephK0sStack,
  compare: compareStack,
};

export const KIND_NAMES = Object.keys(STACK_KINDS);

/** Checks `lab:kind` and returns the kind's program. */
export function programFor(raw: Readonly<Record<string, string>>): StackProgram {
  const kind = raw["lab:kind"];
  const program = kind !== undefined ? STACK_KINDS[kind] : undefined;
  if (!program) throw new ConfigError([problem("lab:kind", `one of ${KIND_NAMES.join(", ")}`, kind)]);
  return program;
}

/** Runs the current stack's program with the stack's config (what index.ts exports). */
export function runStack(
  raw: Readonly<Record<string, string>> = pulumi.runtime.allConfig(),
  id: StackIdentity = { project: pulumi.getProject(), stack: pulumi.getStack() },
): StackOutputs | Promise<StackOutputs> {
  return programFor(raw)(raw, id);
}
