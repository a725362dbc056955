/**
 * The config-key tables of docs/kinds/<kind>.md, generated from the code that checks the keys, so
 * they cannot drift from it:
 *
 * - key, type and requiredness: the kind's zod schema (`stacks/<kind>/config.ts`);
 * - rule: what the kind's own check says about a bad value (the schema, then the components'
 *   `problems` through `parseConfig`): each key is probed on the kind's shipped config with a value
 *   of its type that no rule accepts, and with the key left out; the table shows the rule a user
 *   would read in `'lab:<key>' must be <rule>, got <value>`;
 * - default: the component's `<NAME>_DEFAULTS` table (the one place a default is written), else the
 *   `@default` of the config field or of the component argument it sets;
 * - description: the TSDoc of the config field and of the component argument it sets, found with
 *   the TypeScript compiler (the config.ts functions that turn the config into a component's
 *   arguments say which argument a field sets).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { ConfigError } from "../../core/errors";
import { checkCephK0s, cephK0sSchema } from "../../stacks/ceph-k0s/config";
import { checkCompare, compareBaseFields, compareSchema, CompareConfig, COMPARED_STACK_KEY } from "../../stacks/compare/config";
import { checkEks, eksSchema } from "../../stacks/eks/config";
import { checkFsxEks, fsxEksSchema } from "../../stacks/fsx-eks/config";
import { checkFsxOntap, fsxOntapSchema } from "../../stacks/fsx-ontap/config";
import { checkKafka, kafkaSchema } from "../../stacks/kafka/config";
import { checkNetwork, networkSchema } from "../../stacks/network/config";
import { MAX_COMPARED_STACKS } from "../../stacks/compare/rules";
import { commonFields } from "../../stacks/lib/config/common";
import { parseConfig, userKey } from "../../stacks/lib/config/load";
import { ArgProblem } from "../../core/errors";

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** What the generator needs of a stack kind: its schema and its check, as the stack program calls them. */
export interface KindDoc {
  readonly kind: string;
  /** `stacks/<kind>/config.ts`, relative to the project root. */
  readonly configFile: string;
  readonly schema: (raw: Readonly<Record<string, string>>) => AnyObject;
  readonly check: (c: never) => readonly ArgProblem[];
}

/** Every stack kind (stacks/index.ts `STACK_KINDS`; a test checks that this list has each one). */
export const KIND_DOCS: readonly KindDoc[] = [
  { kind: "network", configFile: "stacks/network/config.ts", schema: () => networkSchema, check: checkNetwork },
  { kind: "fsx-ontap", configFile: "stacks/fsx-ontap/config.ts", schema: () => fsxOntapSchema, check: checkFsxOntap },
  {
    kind: "eks",
    configFile: "stacks/eks/config.ts",
    schema: () => eksSchema,
    check: (c: Parameters<typeof checkEks>[0]) => checkEks(c, "eks"),
  },
  { kind: "fsx-eks", configFile: "stacks/fsx-eks/config.ts", schema: () => fsxEksSchema, check: checkFsxEks },
  { kind: "kafka", configFile: "stacks/kafka/config.ts", schema: () => kafkaSchema, check: checkKafka },
  { kind: "ceph-k0s", configFile: "stacks/ceph-k0s/config.ts", schema: () => cephK0sSchema, check: checkCephK0s },
  {
    kind: "compare",
    configFile: "stacks/compare/config.ts",
    schema: (raw) => compareSchema(raw) as unknown as AnyObject,
    check: (c: CompareConfig) => checkCompare(c),
  },
];

/** One row of a key table. */
export interface KeyRow {
  readonly key: string;
  readonly type: string;
  readonly required: boolean;
  readonly default: string;
  readonly rule: string;
  /**
   * The rule's consumer and source (the field's `@source` tag: the system the value is handed to,
   * its rule and where it is written), or why the key is free text (`@freeText`); "" when the
   * field has neither (test/lab/docs/keys.test.ts fails then).
   */
  readonly source: string;
  readonly description: string;
}

// ---------------------------------------------------------------------------------------------
// Types, from the zod schema

function def(t: z.core.$ZodType): Record<string, unknown> & { type: string } {
  return t._zod.def as unknown as Record<string, unknown> & { type: string };
}

/** The field without its optional/default wrappers, and whether the schema requires it. */
function unwrap(t: z.core.$ZodType): { inner: z.core.$ZodType; optional: boolean; zodDefault?: unknown } {
  let inner = t;
  let optional = false;
  let zodDefault: unknown;
  for (;;) {
    const d = def(inner);
    if (d.type === "optional") optional = true;
    else if (d.type === "default") {
      optional = true;
      const v = d.defaultValue;
      zodDefault = typeof v === "function" ? (v as () => unknown)() : v;
    } else if (d.type !== "nullable" && d.type !== "readonly" && d.type !== "prefault") break;
    inner = d.innerType as z.core.$ZodType;
  }
  return { inner, optional, zodDefault };
}

/** The field's type in words: `integer`, `string`, `list of integer`, `object {a, b}`… */
export function typeName(t: z.core.$ZodType): string {
  const { inner } = unwrap(t);
  const d = def(inner);
  switch (d.type) {
    case "number":
      return numberName(inner);
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "enum":
      return `one of ${Object.values(d.entries as Record<string, string>).join(", ")}`;
    case "array":
      return `list of ${typeName(d.element as z.core.$ZodType)}`;
    case "object":
      return `object {${Object.keys(d.shape as object).join(", ")}}`;
    case "record":
      return `map of string to ${typeName(d.valueType as z.core.$ZodType)}`;
    case "union":
      return (d.options as z.core.$ZodType[]).map(typeName).join(" or ");
    default:
      return d.type;
  }
}

function numberName(t: z.core.$ZodType): string {
  const checks = (def(t).checks ?? []) as z.core.$ZodType[];
  return checks.some((c) => (c._zod.def as { format?: string }).format === "safeint") ? "integer" : "number";
}

/** The unit a key's name carries (CONTRIBUTING: units are in names). */
export function unitOf(key: string): string | undefined {
  const units: [RegExp, string][] = [
    [/GiB$/, "GiB"],
    [/MiBps$/, "MiB/s"],
    [/MBps$/, "MB/s"],
    [/Seconds$/, "seconds"],
    [/Minutes$/, "minutes"],
    [/Hours$/, "hours"],
    [/Days$/, "days"],
  ];
  return units.find(([re]) => re.test(key))?.[1];
}

// ---------------------------------------------------------------------------------------------
// Rules, from the check

/**
 * Values of the field's type that rules refuse, as Pulumi config text: for a number, both ends and
 * 1 (a rule that bounds it by another key or by a component's minimum speaks up at one of them).
 */
function probeValues(t: z.core.$ZodType): string[] {
  const inner = unwrap(t).inner;
  const values = def(inner).type === "number" ? [-999999999, 1, 999999999] : [probeOf(inner)];
  return values.filter((v) => v !== undefined).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
}

function probeOf(t: z.core.$ZodType): unknown {
  const d = def(t);
  switch (d.type) {
    case "number":
      return -999999999;
    case "string":
    case "enum":
      return "?";
    case "array": {
      const item = d.element as z.core.$ZodType;
      return [def(item).type === "object" ? {} : probeOf(item)];
    }
    case "object":
      return "?"; // its type's rule (the object's own message) is what a user reads first
    case "record":
      return { "?": "?" };
    case "union":
      return probeOf((d.options as z.core.$ZodType[]).find((o) => def(o).type === "string") ?? (d.options as z.core.$ZodType[])[0]);
    default:
      return undefined; // boolean: its type is its only rule
  }
}

/** The rules the kind's check states about `key` (and its items), for the raw config `raw`. */
function rulesFor(kind: KindDoc, raw: Readonly<Record<string, string>>, key: string): string[] {
  try {
    parseConfig(kind.kind, kind.schema(raw), raw, kind.check as (c: unknown) => readonly ArgProblem[]);
    return [];
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const prefix = `'${key}`;
    return e.problems
      .filter((p) => p.startsWith(`${prefix}'`) || p.startsWith(`${prefix}[`) || p.startsWith(`${prefix}.`))
      .map((p) => {
        const m = /^'([^']+)' must be (.*), got .*$/s.exec(p);
        const rule = m === null ? p : m[1] === key ? m[2] : `${m[1].slice(key.length)}: ${m[2]}`;
        // zod's own wording for a missing or mistyped part of an object: "an object", "a string"
        return rule.replace(/Invalid input: expected (\w+), received \w+$/, (_m, t: string) => `${/^[aeiou]/.test(t) ? "an" : "a"} ${t}`);
      });
  }
}

function ruleOf(
  kind: KindDoc,
  base: Readonly<Record<string, string>>,
  key: string,
  field: z.core.$ZodType,
): { rule: string; required: boolean } {
  const without = Object.fromEntries(Object.entries(base).filter(([k]) => k !== key));
  const missing = rulesFor(kind, without, key);
  const bad = probeValues(field).flatMap((probe) => rulesFor(kind, { ...base, [key]: probe }, key));
  const typeRule = typeErrorOf(field);
  const rules = [...new Set([...bad, ...missing])];
  return { rule: rules.length > 0 ? rules.join("; ") : typeRule, required: !unwrap(field).optional || missing.length > 0 };
}

/** The rule the schema states for a value of the wrong type. */
function typeErrorOf(field: z.core.$ZodType): string {
  const r = z.object({ f: field as z.ZodType }).safeParse({ f: Symbol("wrong type") });
  return r.success ? "" : r.error.issues[0].message;
}

// ---------------------------------------------------------------------------------------------
// Descriptions and defaults, from the TSDoc of the config fields and of the arguments they set

interface FieldDoc {
  readonly text: string;
  readonly defaultTag?: string;
  /** `@source …`, or `free text: …` from `@freeText …`. */
  readonly source?: string;
  /** The component argument the field sets: its doc, its default tag, the file it is declared in. */
  readonly arg?: { readonly name: string; readonly text: string; readonly defaultTag?: string; readonly file: string };
}

function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): { text: string; defaultTag?: string; source?: string } {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, " ").trim();
  const tags = symbol.getJsDocTags(checker);
  const tagText = (name: string) => {
    const t = tags.find((x) => x.name === name);
    return t ? ts.displayPartsToString(t.text).replace(/\s+/g, " ").trim() : undefined;
  };
  const source = tagText("source");
  const free = tagText("freeText");
  return {
    text,
    defaultTag: tagText("default"),
    source: source !== undefined ? source : free !== undefined ? `free text: ${free}` : undefined,
  };
}

/** The type a config-to-arguments function returns, or the type its result `satisfies`. */
function resultType(fn: ts.FunctionDeclaration, checker: ts.TypeChecker): { type: ts.Type; returned: ts.Expression[] } | undefined {
  const returned: ts.Expression[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isReturnStatement(n) && n.expression) returned.push(n.expression);
    if (!ts.isFunctionLike(n) || n === fn) ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  if (fn.type) return { type: checker.getTypeFromTypeNode(fn.type), returned };
  const sat = returned.map(strip).find(ts.isSatisfiesExpression);
  return sat ? { type: checker.getTypeFromTypeNode(sat.type), returned } : undefined;
}

function strip(e: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(e) ? strip(e.expression) : e;
}

/** `c.<field>` accesses inside `node`, where `c` is the function's first parameter. */
function fieldsRead(node: ts.Node, param: string): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === param) out.push(n.name.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** field → the argument it sets, over every config-to-arguments function of a config.ts. */
function argumentsSet(file: ts.SourceFile, checker: ts.TypeChecker): Map<string, { symbol: ts.Symbol; name: string }> {
  const out = new Map<string, { symbol: ts.Symbol; name: string }>();
  for (const fn of file.statements.filter(ts.isFunctionDeclaration)) {
    const param = fn.parameters[0]?.name;
    const result = resultType(fn, checker);
    if (!param || !ts.isIdentifier(param) || !result) continue;
    for (const r of result.returned.map(strip)) {
      const value = ts.isSatisfiesExpression(r) ? strip(r.expression) : r;
      if (ts.isAsExpression(value) && ts.isIdentifier(strip(value.expression))) {
        for (const p of checker.getPropertiesOfType(result.type)) if (!out.has(p.name)) out.set(p.name, { symbol: p, name: p.name });
      } else if (ts.isObjectLiteralExpression(value)) {
        for (const prop of value.properties) {
          if (!ts.isPropertyAssignment(prop) || !ts.isIdentifier(prop.name)) continue;
          const symbol = checker.getPropertyOfType(result.type, prop.name.text);
          if (!symbol) continue;
          for (const field of fieldsRead(prop.initializer, param.text))
            if (!out.has(field)) out.set(field, { symbol, name: prop.name.text });
        }
      }
    }
  }
  return out;
}

/** The TSDoc of every config field of a config.ts (properties whose doc names their `lab:` key). */
function fieldDocs(file: ts.SourceFile, checker: ts.TypeChecker): Map<string, FieldDoc> {
  const args = argumentsSet(file, checker);
  const out = new Map<string, FieldDoc>();
  const visit = (n: ts.Node) => {
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name)) {
      const symbol = checker.getSymbolAtLocation(n.name);
      const own = symbol ? docOf(symbol, checker) : { text: "" };
      if (/^`lab:/.test(own.text) && !out.has(n.name.text)) {
        const a = args.get(n.name.text);
        const argDoc = a ? docOf(a.symbol, checker) : undefined;
        const declFile = a?.symbol.declarations?.[0]?.getSourceFile().fileName;
        out.set(n.name.text, {
          ...own,
          arg: a && argDoc && declFile ? { name: a.name, ...argDoc, file: declFile } : undefined,
        });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

/** `` `lab:x` → Component `arg`: rest `` → `rest`; `` `lab:x`: rest `` → `rest`. */
function ownText(text: string): string {
  return text
    .replace(/^`[a-z]+:[A-Za-z0-9]+`(, required)?(\s*→\s*[^`]*`[A-Za-z0-9]+`(,\s*\w+\s+`[A-Za-z0-9]+`)*(\s*\([^)]*\))?)?[.:;,]?\s*/, "")
    .replace(/\{@link ([^}]+)\}/g, "`$1`")
    .trim();
}

/** The argument's own default in its component's `<NAME>_DEFAULTS` table, if it has one there. */
function tableDefault(file: string, arg: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(file) as Record<string, unknown>;
  for (const [name, table] of Object.entries(mod)) {
    if (!/_DEFAULTS$/.test(name) || table === null || typeof table !== "object") continue;
    if (Object.prototype.hasOwnProperty.call(table, arg)) return (table as Record<string, unknown>)[arg];
  }
  return undefined;
}

function renderValue(v: unknown): string {
  return `\`${typeof v === "string" ? v : JSON.stringify(v)}\``;
}

function sentence(s: string): string {
  const t = s.replace(/\{@link ([^}]+)\}/g, "`$1`").trim();
  return t.endsWith(".") ? t.slice(0, -1) : t;
}

/** A `@default` tag as shown: quoted strings as code. */
function defaultText(tag: string): string {
  return sentence(tag.replace(/"([^"]*)"/g, "`$1`"));
}

// ---------------------------------------------------------------------------------------------

/** A TypeScript program over every kind's config.ts, for their TSDoc and the arguments they set. */
export function configProgram(root: string): ts.Program {
  return ts.createProgram(
    KIND_DOCS.map((k) => path.join(root, k.configFile)),
    { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, strict: true, skipLibCheck: true, noEmit: true, types: [] },
  );
}

/** The first shipped config (Pulumi.<stack>.yaml, by name) of a kind, as Pulumi hands it over. */
export function shippedConfig(root: string, kind: string): Record<string, string> {
  for (const f of fs
    .readdirSync(root)
    .filter((n) => /^Pulumi\..+\.yaml$/.test(n))
    .sort()) {
    const config = (parseYaml(fs.readFileSync(path.join(root, f), "utf8")) as { config?: Record<string, unknown> }).config ?? {};
    if (config["lab:kind"] !== kind) continue;
    return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  }
  throw new Error(`no shipped Pulumi.<stack>.yaml has lab:kind ${kind}`);
}

/** The keys of a kind (without the keys every kind has), one row each, in the schema's order. */
export function keyRows(root: string, kind: KindDoc, program: ts.Program): KeyRow[] {
  const base = shippedConfig(root, kind.kind);
  const shape = kind.schema(base).shape as Record<string, z.core.$ZodType>;
  const file = program.getSourceFile(path.join(root, kind.configFile))!;
  const docs = fieldDocs(file, program.getTypeChecker());
  const common = new Set(Object.keys(commonFields));
  const fields = Object.keys(shape).filter((f) => !common.has(f) && !(kind.kind === "compare" && !(f in compareBaseFields)));
  const rows = fields.map((f) => row(kind, base, userKey(f), shape[f], docs.get(f)));
  if (kind.kind === "compare") {
    const stackField = Object.keys(shape).find((f) => COMPARED_STACK_KEY.test(userKey(f)))!;
    const label = COMPARED_STACK_KEY.exec(userKey(stackField))![1];
    // The family's doc is COMPARED_STACK_KEY's (the fields are made from the config's own keys).
    const one = row(kind, base, userKey(stackField), shape[stackField], variableDoc(file, program.getTypeChecker(), "COMPARED_STACK_KEY"));
    rows.unshift({
      ...one,
      key: "lab:<label>Stack",
      rule: one.rule.replace(`(${label})`, "(<label>)"),
      required: true,
      description: `a compared stack, named \`<label>\` in the outputs and in \`lab:ratios\` (e.g. \`lab:devStack\`); 1 to ${MAX_COMPARED_STACKS} of them`,
    });
  }
  return rows;
}

/** The keys every kind has (stacks/lib/config/common.ts), with `lab:kind`'s rule from the dispatcher. */
export function commonRows(root: string, program: ts.Program): KeyRow[] {
  const kind = KIND_DOCS[0];
  const base = shippedConfig(root, kind.kind);
  const file = program.getSourceFile(path.join(root, "stacks/lib/config/common.ts"))!;
  const docs = fieldDocs(file, program.getTypeChecker());
  return Object.entries(commonFields).map(([f, t]) => {
    const key = userKey(f);
    const doc = docs.get(f) ?? commonDoc(file, program.getTypeChecker(), f);
    if (f === "kind")
      return {
        key,
        type: "string",
        required: true,
        default: "(required)",
        rule: `one of ${KIND_DOCS.map((k) => k.kind).join(", ")}`,
        source: doc?.source ?? "",
        description: ownText(doc?.text ?? ""),
      };
    return row(kind, base, key, t, doc);
  });
}

/** The TSDoc of a top-level `const <name>` of `file`. */
function variableDoc(file: ts.SourceFile, checker: ts.TypeChecker, name: string): FieldDoc | undefined {
  for (const st of file.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.name.text === name) {
        const s = checker.getSymbolAtLocation(d.name);
        if (s) return docOf(s, checker);
      }
    }
  }
  return undefined;
}

function commonDoc(file: ts.SourceFile, checker: ts.TypeChecker, field: string): FieldDoc | undefined {
  let found: FieldDoc | undefined;
  const visit = (n: ts.Node) => {
    if (!found && ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === field) {
      const s = checker.getSymbolAtLocation(n.name);
      if (s) found = docOf(s, checker);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return found;
}

function row(
  kind: KindDoc,
  base: Readonly<Record<string, string>>,
  key: string,
  field: z.core.$ZodType,
  doc: FieldDoc | undefined,
): KeyRow {
  const { rule, required } = ruleOf(kind, base, key, field);
  const unit = unitOf(key);
  const { zodDefault } = unwrap(field);
  let dflt = "";
  const fromTable = doc?.arg ? tableDefault(doc.arg.file, doc.arg.name) : undefined;
  if (zodDefault !== undefined) dflt = renderValue(zodDefault);
  else if (fromTable !== undefined) dflt = renderValue(fromTable);
  else if (doc?.defaultTag) dflt = defaultText(doc.defaultTag);
  else if (doc?.arg?.defaultTag) dflt = defaultText(doc.arg.defaultTag);
  if (required && dflt === "") dflt = "(required)";
  const parts = [sentence(ownText(doc?.text ?? "")), sentence(doc?.arg?.text ?? "")].filter((p) => p !== "");
  return {
    key,
    type: unit ? `${typeName(field)} (${unit})` : typeName(field),
    required,
    default: dflt,
    rule,
    source: doc?.source ?? "",
    description: [...new Set(parts)].join(". "),
  };
}

/** A table cell: pipes escaped, and `<…>` outside code spans as entities (Markdown would take it for HTML). */
function cell(s: string): string {
  return s
    .replace(/\n/g, " ")
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "&lt;").replace(/>/g, "&gt;")))
    .join("")
    .replace(/\|/g, "\\|");
}

/** A key table as Markdown. */
export function renderKeyTable(rows: readonly KeyRow[]): string {
  const lines = [
    "| key | type | default | rule (as the check words it) | the consumer's rule and its source | what it is |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of rows)
    lines.push(
      `| \`${r.key}\` | ${cell(r.type)} | ${cell(r.default || "—")} | ${cell(r.rule)} | ${cell(r.source || "—")} | ${cell(r.description)} |`,
    );
  return lines.join("\n");
}
