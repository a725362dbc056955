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
import { ArgProblem, ConfigError, formatArgProblem, problem } from "../../../core/errors";

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
 * `kind`, and returns the typed config or throws one ConfigError with every problem.
 *
 * Two kinds of checks, each in its one home:
 * - the schema: the keys every stack has (stacks/lib/config/common.ts, with their rules) and, for
 *   the kind's own keys, their *types* only (a number, a list, an object of these keys);
 * - `rules`: the component's rules (components/<name>/rules.ts) on the typed value, returning
 *   {@link ArgProblem}s over field names, rendered with the key the user typed ({@link userKey}).
 * Every problem is reported at once: a field whose type is wrong is left out and the rules still
 * run on the others (their problems about that field are dropped: it already has one).
 */
export function parseConfig<S extends AnySchema>(
  kind: string,
  schema: S,
  raw: Readonly<Record<string, string>>,
  rules?: (value: z.output<S>) => readonly ArgProblem[],
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

  let result = schema.safeParse(input);
  const badFields = new Set<string>();
  if (!result.success) {
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      badFields.add(String(issue.path[0]));
      const line = problem(pathKey(issue.path), issue.message, valueAt(input, issue.path));
      if (!seen.has(line)) problems.push(line);
      seen.add(line);
    }
    // The rules still see every field whose type is right (a required field whose value is wrong
    // is left out of the schema too, so it hides no other key's problems).
    const rest = Object.fromEntries(Object.entries(input).filter(([f]) => !badFields.has(f)));
    const omitted = Object.fromEntries([...badFields].filter((f) => f in shape).map((f) => [f, true as const]));
    result = (Object.keys(omitted).length > 0 ? schema.omit(omitted) : schema).safeParse(rest) as typeof result;
  }
  if (result.success && rules) {
    let found: readonly ArgProblem[] = [];
    try {
      // Rules check types too (core/checks.ts): they see a mistyped field as given, and their
      // problems about it are dropped below (it has one already).
      const bad = Object.fromEntries(Object.entries(input).filter(([f]) => badFields.has(f)));
      found = rules({ ...result.data, ...bad } as z.output<S>);
    } catch (e) {
      // A rule that needs a field left out above: that field's own problem is reported.
      if (badFields.size === 0) throw e;
    }
    for (const p of found) {
      if (!badFields.has(pathHead(p.path))) problems.push(formatArgProblem(p, userKey));
    }
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}

/** The field an argument path starts with: `volumes[2].name` → `volumes`. */
export function pathHead(path: string): string {
  return /^[A-Za-z0-9]*/.exec(path)![0];
}

/**
 * Problems of a component whose arguments are named differently from the config fields, with the
 * fields' names: `renames` maps argument → field (`{ osdVolumeSizeGiB: "osdVolumeGiB" }`), for the
 * head of each path and for `{arg}` references in rules.
 */
export function renamed(problems: readonly ArgProblem[], renames: Readonly<Record<string, string>>): ArgProblem[] {
  const to = (a: string) => renames[a] ?? a;
  return problems.map((p) => ({
    path: `${to(pathHead(p.path))}${p.path.slice(pathHead(p.path).length)}`,
    rule: p.rule.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_m, a: string) => `{${to(a)}}`),
    value: p.value,
  }));
}
