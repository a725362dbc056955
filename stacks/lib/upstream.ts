/**
 * Reading an upstream stack's outputs: one StackReference per upstream stack, each output checked
 * against a zod schema so a missing or mistyped output is an error naming the upstream stack, the
 * config key that named it, and the output.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";

export type Upstream<S extends Record<string, z.ZodType>> = { [K in keyof S]: pulumi.Output<z.output<S[K]>> };

/**
 * `outputs` maps each output name this stack needs to its schema. Secret outputs stay secret.
 * @param configKey the key that named the stack, for the message (e.g. "lab:networkStack")
 * @param stackName the fully qualified (or org-less) stack name from that key
 */
export function readUpstream<S extends Record<string, z.ZodType>>(
  configKey: string,
  stackName: string,
  outputs: S,
  opts?: pulumi.CustomResourceOptions,
): Upstream<S> {
  const ref = new pulumi.StackReference(stackName, { name: stackName }, opts);
  const result = {} as Record<string, pulumi.Output<unknown>>;
  for (const [output, schema] of Object.entries(outputs)) {
    // getOutput keeps secrecy (an output the upstream marked secret stays secret here).
    result[output] = pulumi.all([ref.getOutput(output), ref.outputs]).apply(([value, all]) => {
      if (value === undefined) {
        const has = Object.keys(all).sort().join(", ") || "no outputs";
        throw new Error(`upstream stack '${stackName}' (from '${configKey}') has no output '${output}'; it has ${has}`);
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        const why = parsed.error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; ");
        throw new Error(`upstream stack '${stackName}' (from '${configKey}') output '${output}' has the wrong shape: ${why}`);
      }
      return parsed.data;
    });
  }
  return result as Upstream<S>;
}
