/**
 * Config of the `compare` kind: the keys' types; their rules and defaults are in ./rules.ts.
 *
 * The compared stacks are `lab:<label>Stack` keys, one per stack (`lab:devStack:
 * organization/storage-bench-lab/dev`): the same `lab:*Stack` convention as every upstream
 * reference, so the offline plan, `lab plan --graph` and `lab run` order and rewrite them like any
 * other. The label names the stack in the outputs and in `lab:ratios`.
 */
import { z } from "zod";
import { ArgProblem, argProblem } from "../../core/errors";
import { commonFields } from "../lib/config/common";
import { list, stackName, text } from "../lib/config/fields";
import { CompareSpec, MAX_COMPARED_STACKS, problems, RatioSpec } from "./rules";

/**
 * A `lab:<label>Stack` key: group 1 is the label.
 * @source lab rule (a label of letters and digits starting lowercase, 1 to 10 stacks); Pulumi StackReference: a stack name of letters,
 * digits, '-', '_' or '.', as stack, org/stack or org/project/stack — https://www.pulumi.com/docs/iac/concepts/stacks/
 */
export const COMPARED_STACK_KEY = /^lab:([a-z][A-Za-z0-9]*)Stack$/;

const selector = z.object({
  stack: text(),
  where: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]), { error: "a map of metadata keys to values" }).optional(),
});

export const compareBaseFields = {
  ...commonFields,
  /**
   * `lab:ratios` → `ratios`.
   * @source lab rule (distinct names; a metric some stack's results hold; selectors of compared labels, the two not the same); only the
   * compare program reads it — stacks/compare/rules.ts problems, core/metrics.ts
   */
  ratios: list(z.object({ name: text(), metric: text(), numerator: selector, denominator: selector })).optional(),
  /**
   * `lab:groupBy` → `groupBy`.
   * @source lab rule (distinct metadata keys; keys a sample lacks are ignored); only the compare program reads it, over the samples'
   * metadata — stacks/compare/rules.ts problems, ../shared/DESIGN.md (Result samples)
   */
  groupBy: list(text()).optional(),
};

/**
 * The schema for this config: the base keys and one `<label>Stack` field per `lab:<label>Stack` key present.
 * @source Pulumi StackReference (each `<label>Stack` field): a stack name of letters, digits, '-', '_' or '.', as stack, org/stack or
 * org/project/stack — https://www.pulumi.com/docs/iac/concepts/stacks/
 */
export function compareSchema(raw: Readonly<Record<string, string>>) {
  const stacks: Record<string, ReturnType<typeof stackName>> = {};
  for (const key of Object.keys(raw)) {
    const m = COMPARED_STACK_KEY.exec(key);
    if (m) stacks[`${m[1]}Stack`] = stackName(`compared (${m[1]})`);
  }
  return z.object({ ...compareBaseFields, ...stacks });
}

export type CompareConfig = z.output<z.ZodObject<typeof compareBaseFields>> & Record<string, unknown>;

/** label → stack name, from the config's `<label>Stack` fields. */
export function comparedStacks(c: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(c)) {
    const m = /^([a-z][A-Za-z0-9]*)Stack$/.exec(field);
    if (m && typeof value === "string") out[m[1]] = value;
  }
  return out;
}

export function compareArgs(c: CompareConfig): CompareSpec {
  return { stacks: comparedStacks(c), ratios: c.ratios as RatioSpec[] | undefined, groupBy: c.groupBy };
}

/** The rules over the config's fields: `stacks.<label>` is the field `<label>Stack`. */
export function checkCompare(c: CompareConfig): ArgProblem[] {
  return problems(compareArgs(c)).map((p) => {
    // The compared stacks are a family of keys, named by their pattern.
    if (p.path === "stacks")
      return argProblem("lab:<label>Stack", `set for 1 to ${MAX_COMPARED_STACKS} compared stacks (e.g. lab:devStack)`, p.value);
    const m = /^stacks\.(.*)$/.exec(p.path);
    return m ? { ...p, path: `${m[1]}Stack` } : p;
  });
}
