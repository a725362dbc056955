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
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ArgProblem, ConfigError, formatArgProblem, problem } from "../../../core/errors";
import { arnProblems } from "./arns";
import { PROJECT_NAMESPACE } from "./common";

/** Schema field → the config key a user types, for keys outside the `lab:` namespace. */
export const FOREIGN_KEYS: Readonly<Record<string, string>> = { region: "aws:region" };

export { PROJECT_NAMESPACE } from "./common";

/**
 * The AWS provider's own config keys (`aws:<key>`): @pulumi/aws `config` (config/vars.js defines one
 * enumerable getter per key of the provider's schema), so a key there is the provider's, never a
 * misplaced lab key.
 */
let awsProviderKeys: ReadonlySet<string> | undefined;
function isAwsProviderKey(name: string): boolean {
  // Read once, and only when a config holds an aws: key other than aws:region (the shipped ones hold none).
  awsProviderKeys ??= new Set(
    Object.keys(aws.config).filter((k) => typeof (Object.getOwnPropertyDescriptor(aws.config, k)?.get ?? undefined) === "function"),
  );
  return awsProviderKeys.has(name);
}

/** ` (did you mean '<key>'?)` for the `lab:` key of `known` nearest `key` (edit distance at most 3), else "". */
function didYouMean(key: string, known: readonly string[]): string {
  const near = known.filter((k) => k.startsWith("lab:")).sort((a, b) => distance(key, a) - distance(key, b))[0];
  return near !== undefined && distance(key, near) <= 3 ? ` (did you mean '${near}'?)` : "";
}

/**
 * A key outside the `lab:` namespace that is a lab key in the wrong namespace, or undefined:
 * - the project's own (`storage-bench-lab:vpcCidr`, what `pulumi config set vpcCidr …` writes):
 *   no program of the lab reads that namespace (they read `lab:` and `aws:region`), so any key there
 *   is a mistake; the nearest `lab:` key is named;
 * - another namespace (`aws:vpcCidr`, `labs:vpcCidr`) whose name is one of the kind's keys (letter
 *   case aside) and not that provider's own key: the program would read the key's default instead.
 */
export function misplacedKeyProblem(key: string, value: unknown, known: readonly string[]): string | undefined {
  const colon = key.indexOf(":");
  if (colon < 0 || key.startsWith("lab:") || Object.values(FOREIGN_KEYS).includes(key)) return undefined;
  const ns = key.slice(0, colon);
  const name = key.slice(colon + 1);
  const labKeys = known.filter((k) => k.startsWith("lab:"));
  if (ns === PROJECT_NAMESPACE) {
    const hint = didYouMean(`lab:${name}`, labKeys);
    return problem(
      key,
      `a key in the lab: namespace${hint}: no stack program reads the project's namespace ${PROJECT_NAMESPACE}:, where \`pulumi config set ${name} …\` puts a key written without lab:`,
      value,
    );
  }
  if (ns === "aws" && isAwsProviderKey(name)) return undefined;
  const same = labKeys.find((k) => k.slice(4).toLowerCase() === name.toLowerCase());
  if (same === undefined) return undefined;
  return problem(
    key,
    `a key in the lab: namespace (did you mean '${same}'?): no stack program reads ${key}, so ${same} would keep its default`,
    value,
  );
}

/** The rule of a key given with no value. */
export const EMPTY_RULE = "a value: an empty one is none (give one, or remove the key where it has a default)";

/** A secret config key's value as a problem line shows it: never in clear (`pulumi config set --secret`). */
export const SECRET_SHOWN = "[secret]";

/**
 * Whether the stack's config marks `key` secret: the SDK's `isConfigSecret` (@pulumi/pulumi
 * runtime/config.js, `@internal`: it reads PULUMI_CONFIG_SECRET_KEYS, which the engine sets and
 * `setAllConfig` fills under the plan's mocks); test/stacks/lib/config-load.test.ts fails if a later
 * SDK drops it.
 */
function isSecretKey(key: string): boolean {
  const f = (pulumi.runtime as unknown as { isConfigSecret?: (k: string) => boolean }).isConfigSecret;
  return typeof f === "function" ? f(key) : false;
}

/** `value` as a problem line may show it for `key`: {@link SECRET_SHOWN} for a secret key. */
function shownValue(key: string, value: unknown): unknown {
  return isSecretKey(key) ? SECRET_SHOWN : value;
}

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
  const emptyFields = new Set<string>();

  for (const [key, rawValue] of Object.entries(raw)) {
    const field = Object.keys(shape).find((f) => userKey(f) === key);
    if (field !== undefined && rawValue.trim() === "") {
      // `lab:x:` or `lab:x: ""`: Pulumi hands over "" (lab/plan/sources.ts specFromConfigObject),
      // which no key takes: said once, in these words, instead of each rule's view of "".
      problems.push(problem(key, EMPTY_RULE, rawValue));
      emptyFields.add(field);
    } else if (field !== undefined) {
      input[field] = decode(shape[field], rawValue);
    } else if (key.startsWith("lab:")) {
      const hint = didYouMean(key, known);
      problems.push(problem(key, `a key of kind ${kind}${hint}; its keys are ${known.join(", ")}`, shownValue(key, rawValue)));
    } else {
      const misplaced = misplacedKeyProblem(key, shownValue(key, rawValue), known);
      if (misplaced !== undefined) problems.push(misplaced);
    }
  }

  let result = schema.safeParse(input);
  const badFields = new Set<string>(emptyFields);
  if (!result.success) {
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      if (emptyFields.has(String(issue.path[0]))) continue; // said above
      badFields.add(String(issue.path[0]));
      const line = problem(pathKey(issue.path), issue.message, shownValue(userKey(String(issue.path[0])), valueAt(input, issue.path)));
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
      const data = result.data as Record<string, unknown>;
      // ARNs against the stack's own partition and region (./arns.ts), beside the kind's rules.
      const arns = typeof data.region === "string" && !badFields.has("region") ? arnProblems(data, data.region) : [];
      const own = rules({ ...result.data, ...bad } as z.output<S>);
      found = [...own, ...arns.filter((a) => !own.some((p) => pathHead(p.path) === pathHead(a.path)))];
    } catch (e) {
      // A rule that needs a field left out above: that field's own problem is reported.
      if (badFields.size === 0) throw e;
    }
    for (const p of found) {
      if (!badFields.has(pathHead(p.path)))
        problems.push(formatArgProblem({ ...p, value: shownValue(userKey(pathHead(p.path)), p.value) }, userKey));
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
