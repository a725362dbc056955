/**
 * Reading an upstream stack's outputs: one StackReference per upstream stack, each output checked
 * against a zod schema.
 *
 * The checks run before the stack registers anything ({@link whenUpstreamsFit}): the program awaits
 * the values of every output it reads, checks that they exist and have their shape, runs the kind's
 * rules between its config and those values, and throws one ConfigError with every problem
 * (`'<key>' must be <rule>, got <value>`, naming the config key) before its first resource. Only
 * then does it build, wiring the same outputs as Outputs. So a mismatch is a config error on
 * `pulumi up`, in `lab plan` and in `lab run --dry-run` alike, never an error thrown inside an
 * `apply` (which the engine reports as "error serializing property …" with a stack trace).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ArgProblem, ConfigError, formatArgProblem, problem } from "../../core/errors";
import { userKey } from "./config/load";

export type Upstream<S extends Record<string, z.ZodType>> = { [K in keyof S]: pulumi.Output<z.output<S[K]>> };

/** The values of an upstream read, once checked. */
export type UpstreamValues<S extends Record<string, z.ZodType>> = { [K in keyof S]: z.output<S[K]> };

const READ = Symbol("upstream read");

interface ReadInfo {
  readonly configKey: string;
  readonly stackName: string;
  /** The kind the stack must be, for messages (`an eks stack`). */
  readonly kind: string;
  readonly ref: pulumi.StackReference;
  readonly schemas: Readonly<Record<string, z.ZodType>>;
}

type Read<S extends Record<string, z.ZodType>> = Upstream<S> & { readonly [READ]: ReadInfo };

/** `an eks stack`, `a network stack`. */
function aKind(kind: string): string {
  return `${/^[aeio]/.test(kind) || kind.startsWith("fsx") ? "an" : "a"} ${kind} stack`;
}

/**
 * `outputs` maps each output name this stack needs to its schema. Secret outputs stay secret.
 * @param configKey the key that named the stack, for the message (e.g. "lab:networkStack")
 * @param stackName the fully qualified (or org-less) stack name from that key
 * @param kind the stack kind that exports these outputs (for messages)
 */
export function readUpstream<S extends Record<string, z.ZodType>>(
  configKey: string,
  stackName: string,
  outputs: S,
  opts?: pulumi.CustomResourceOptions,
  kind = configKey.replace(/^lab:/, "").replace(/Stack$/, ""),
): Read<S> {
  const ref = new pulumi.StackReference(stackName, { name: stackName }, opts);
  const result = {} as Record<string, pulumi.Output<unknown>>;
  for (const [output, schema] of Object.entries(outputs)) {
    // getOutput keeps secrecy (an output the upstream marked secret stays secret here). The value
    // is checked before any resource is registered (whenUpstreamsFit); this parse only gives the
    // Output its type.
    result[output] = ref.getOutput(output).apply((value) => {
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : value;
    });
  }
  Object.defineProperty(result, READ, { value: { configKey, stackName, kind, ref, schemas: outputs }, enumerable: false });
  return result as Read<S>;
}

/** The whole outputs map of a referenced stack (always known: a StackReference reads deployed state). */
async function allOutputs(ref: pulumi.StackReference): Promise<Record<string, unknown>> {
  // Output's resolution promise is internal to @pulumi/pulumi; StackReference reads it the same way
  // (stackReference.js `readOutputValue`).
  const o = ref.outputs as unknown as { promise(): Promise<Record<string, unknown> | undefined> };
  return (await o.promise()) ?? {};
}

/**
 * The checked values of one upstream read, or the problems that stop them: an output it does not
 * have (a stack of another kind, or not deployed whole; unless its schema is optional: then it is
 * absent from the values) or one of the wrong shape, each
 * `'<configKey>' must be the name of <kind> stack …, got "<stack>"`.
 */
export async function upstreamValues<S extends Record<string, z.ZodType>>(
  read: Read<S>,
): Promise<{ values?: UpstreamValues<S>; problems: string[] }> {
  const info = read[READ];
  const all = await allOutputs(info.ref);
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const has = Object.keys(all).sort().join(", ") || "none";
  const lacking: string[] = [];
  for (const [output, schema] of Object.entries(info.schemas)) {
    const details = await info.ref.getOutputDetails(output);
    const value = details.value ?? details.secretValue;
    if (value === undefined) {
      // An output whose schema admits nothing (`.optional()`) may be absent: the reader's rules decide.
      if (!schema.safeParse(undefined).success) lacking.push(output);
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${[output, ...i.path].join(".")}: ${i.message}`).join("; ");
      problems.push(problem(info.configKey, `the name of ${aKind(info.kind)} whose outputs have their shape (${why})`, info.stackName));
      continue;
    }
    values[output] = parsed.data;
  }
  if (lacking.length > 0)
    problems.unshift(
      problem(
        info.configKey,
        `the name of ${aKind(info.kind)} with output${lacking.length > 1 ? "s" : ""} ${lacking.map((o) => `'${o}'`).join(", ")} (its outputs: ${has})`,
        info.stackName,
      ),
    );
  return problems.length > 0 ? { problems } : { values: values as UpstreamValues<S>, problems };
}

type ValuesOf<R> = { [K in keyof R]: R[K] extends Read<infer S> ? UpstreamValues<S> | undefined : never };

/**
 * Awaits and checks every upstream read in `reads`, runs `rules` on the values (an upstream whose
 * outputs do not fit is `undefined` there: its problems are reported already), and throws one
 * ConfigError with every problem; else returns `build()`. `rules` returns argument problems over
 * config field names, rendered with the keys the user typed (`brokers` → `lab:brokers`), or lines
 * already in the one format.
 *
 * Call it before registering any resource but the reads' StackReferences: it is the one path by
 * which a rule between config and an upstream stack reaches the user.
 */
export async function whenUpstreamsFit<R extends Record<string, Read<Record<string, z.ZodType>>>, T>(
  reads: R,
  rules: (values: ValuesOf<R>) => readonly (ArgProblem | string)[] | Promise<readonly (ArgProblem | string)[]>,
  build: () => T,
): Promise<T> {
  const problems: string[] = [];
  const values = {} as Record<string, unknown>;
  for (const [name, read] of Object.entries(reads)) {
    const r = await upstreamValues(read);
    problems.push(...r.problems);
    values[name] = r.values;
  }
  problems.push(...(await rules(values as ValuesOf<R>)).map((p) => (typeof p === "string" ? p : formatArgProblem(p, userKey))));
  if (problems.length > 0) throw new ConfigError(problems);
  return build();
}
