/**
 * Parses a stack's raw Pulumi config map (`{"lab:vpcCidr": "10.0.0.0/16", "aws:region": …}`, values
 * as Pulumi hands them over: strings, with structured values as JSON text) against a kind's zod
 * schema, and reports every problem at once in the project's one format
 * (`'lab:<key>' must be <rule>, got <value>`). Unknown `lab:` keys are problems too.
 *
 * Schema keys are the `lab:` keys without their namespace; the few keys of other namespaces that
 * the lab reads are mapped in {@link FOREIGN_KEYS}. Every zod check in a schema carries its rule as
 * its error message (see fields.ts), so a zod issue maps to one problem line.
 */
import { z } from "zod";
import { ConfigError, problem } from "../errors";

/** Schema field → the config key a user types, for keys outside the `lab:` namespace. */
export const FOREIGN_KEYS: Readonly<Record<string, string>> = { region: "aws:region" };

/** The config key a user types for a schema field. */
export function userKey(field: string): string {
  return FOREIGN_KEYS[field] ?? `lab:${field}`;
}

type AnySchema = z.ZodObject<z.ZodRawShape>;

/** True when a field's value is given as a plain string (not JSON) in Pulumi config. */
function takesRawString(t: z.core.$ZodType): boolean {
  const def = t._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType };
  switch (def.type) {
    case "string":
    case "enum":
    case "literal":
    case "template_literal":
      return true;
    case "optional":
    case "default":
    case "prefault":
    case "nullable":
    case "readonly":
      return takesRawString(def.innerType!);
    case "pipe":
      return takesRawString(def.in!);
    default:
      return false;
  }
}

function decode(schemaField: z.core.$ZodType, raw: string): unknown {
  if (takesRawString(schemaField)) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw; // left as text: the schema then reports it with the value the user typed
  }
}

/** `["volumes", 2, "sizeGiB"]` → `lab:volumes[2].sizeGiB`. */
export function pathKey(path: readonly PropertyKey[]): string {
  let key = userKey(String(path[0]));
  for (const p of path.slice(1)) key += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  return key;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** Edit distance, for "did you mean" on unknown keys. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

/**
 * Validates the whole raw config map against `schema` (a zod object over short keys) for stack kind
 * `kind`. Returns the typed, defaulted config or throws one ConfigError with every problem.
 * `extraChecks` runs on the parsed value (cross-field rules) and its problems join the others;
 * it only runs when the fields themselves are valid.
 */
export function parseConfig<S extends AnySchema>(
  kind: string,
  schema: S,
  raw: Readonly<Record<string, string>>,
  extraChecks?: (value: z.output<S>) => string[],
): z.output<S> {
  const shape = schema.shape as Record<string, z.core.$ZodType>;
  const known = Object.keys(shape).map(userKey);
  const problems: string[] = [];
  const input: Record<string, unknown> = {};

  for (const [key, rawValue] of Object.entries(raw)) {
    const field = Object.keys(shape).find((f) => userKey(f) === key);
    if (field !== undefined) {
      input[field] = decode(shape[field], rawValue);
    } else if (key.startsWith("lab:")) {
      const near = known.filter((k) => k.startsWith("lab:")).sort((a, b) => distance(key, a) - distance(key, b))[0];
      const hint = near !== undefined && distance(key, near) <= 3 ? ` (did you mean '${near}'?)` : "";
      problems.push(problem(key, `a key of kind ${kind}${hint}; its keys are ${known.join(", ")}`, rawValue));
    }
  }

  const result = schema.safeParse(input);
  if (!result.success) {
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      const key = pathKey(issue.path);
      const line = problem(key, issue.message, valueAt(input, issue.path));
      if (!seen.has(line)) problems.push(line);
      seen.add(line);
    }
  } else if (extraChecks) {
    problems.push(...extraChecks(result.data));
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return (result as { data: z.output<S> }).data;
}
