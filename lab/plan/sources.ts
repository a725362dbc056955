/**
 * Where the offline plan finds stacks: the shipped `Pulumi.<stack>.yaml` files (Pulumi's own
 * stack-config format) and the scenarios' stack lists; and the order to plan them in (upstream
 * stacks, named by `lab:*Stack` config keys, first).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathWhy } from "../lib/paths";
import YAML, { isMap, isNode, isScalar, LineCounter } from "yaml";
import { ConfigError, problem } from "../../core/errors";
import { SECRET_PLACEHOLDER } from "./fakes";
import type { StackSpec } from "./run";

/**
 * Reads a Pulumi stack config file into the flat map Pulumi hands a program. A file that is not a
 * stack config is a ConfigError naming the file and, for what YAML reports, the line and column
 * (the `yaml` library's error positions): a missing file, malformed YAML, a key given twice, a
 * document or a `config:` that is not a map.
 */
export function readStackConfigFile(file: string, stackName = stackNameOfFile(file)): StackSpec {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (pathWhy(file, "file") ?? String((e as Error).message));
    throw new ConfigError([`${file}: ${problem("config", `a readable Pulumi stack config file (Pulumi.<stack>.yaml; ${why})`, file)}`]);
  }
  const lines = text.split(/\r?\n/);
  const counter = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter: counter });
  const at = (offset: number) => {
    const { line, col } = counter.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const keyOn = (line: number) => /^\s*(?:-\s*)?["']?([^\s"'#][^"'#]*?)["']?\s*:(?:\s|$)/.exec(lines[line - 1] ?? "")?.[1];
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => {
        const { line } = counter.linePos(e.pos[0]);
        const what = e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
        const key = keyOn(line) ?? "config";
        const rule = e.code === "DUPLICATE_KEY" ? "given once (YAML map keys must be unique)" : `valid YAML (${what})`;
        return `${at(e.pos[0])}: ${problem(key, rule, (lines[line - 1] ?? "").trim())}`;
      }),
    );
  }
  const root = doc.contents;
  if (root !== null && !isMap(root)) {
    throw new ConfigError([
      `${at(root.range?.[0] ?? 0)}: ${problem("config", "a map of config keys under the file's top-level map (config: {lab:kind: …})", doc.toJS())}`,
    ]);
  }
  const node = root === null ? undefined : root.get("config", true);
  if (node !== undefined && node !== null && !isMap(node) && !(isScalar(node) && node.value === null)) {
    const value = isNode(node) ? node.toJSON() : node;
    const offset = isNode(node) ? (node.range?.[0] ?? 0) : 0;
    throw new ConfigError([`${at(offset)}: ${problem("config", "a map of config keys to values", value)}`]);
  }
  const config = (isMap(node) ? node.toJSON() : {}) as Record<string, unknown>;
  return specFromConfigObject(stackName, file, config);
}

/** `Pulumi.nitro.yaml` → `nitro`. */
export function stackNameOfFile(file: string): string {
  const m = /^Pulumi\.(.+)\.ya?ml$/.exec(path.basename(file));
  return m ? m[1] : path.basename(file).replace(/\.ya?ml$/, "");
}

/**
 * Flattens a config object the way Pulumi does: scalars as strings, structured values as JSON,
 * `{secure: …}` values as a placeholder whose key is marked secret.
 */
export function specFromConfigObject(name: string, source: string, config: Record<string, unknown>): StackSpec {
  const flat: Record<string, string> = {};
  const secretKeys: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value) && "secure" in value) {
      flat[key] = SECRET_PLACEHOLDER;
      secretKeys.push(key);
    } else if (typeof value === "string") flat[key] = value;
    // An empty value (`lab:x:`, YAML null) is the empty string to Pulumi, with a warning: "No value
    // for configuration key … This is currently treated as an empty string `""`, but will be
    // treated as `null` in a future version of pulumi" (pulumi/pulumi sdk/go/common/workspace
    // loaders.go `checkForEmptyConfig`). Not the text "null"; the lab refuses it either way
    // (stacks/lib/config/load.ts EMPTY_RULE).
    else if (value === null) flat[key] = "";
    else flat[key] = JSON.stringify(value);
  }
  return { name, source, config: flat, secretKeys };
}

/** Every `Pulumi.<stack>.yaml` in `dir`, by stack name. */
export function shippedStacks(dir: string): StackSpec[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^Pulumi\..+\.ya?ml$/.test(f))
    .sort()
    .map((f) => ({ ...readStackConfigFile(path.join(dir, f)), source: f }));
}

/** A config's references to upstream stacks: its `lab:*Stack` keys and the stack names they hold. */
export function stackReferences(config: Readonly<Record<string, string>>): { key: string; stack: string }[] {
  return Object.entries(config)
    .filter(([k]) => /^lab:[A-Za-z0-9]+Stack$/.test(k))
    .map(([key, stack]) => ({ key, stack }));
}

/** The stacks a config references, by the last path segment of their names (`org/project/network` → `network`). */
export function upstreamNames(config: Readonly<Record<string, string>>): string[] {
  return stackReferences(config).map((r) => r.stack.split("/").pop() as string);
}

/**
 * Orders specs so every stack comes after the stacks it references (among `specs`); references to
 * stacks outside `specs` are left for the resolver. A cycle is an error naming it.
 */
export function dependencyOrder(specs: readonly StackSpec[]): StackSpec[] {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const done = new Set<string>();
  const visiting: string[] = [];
  const out: StackSpec[] = [];
  const visit = (s: StackSpec) => {
    if (done.has(s.name)) return;
    if (visiting.includes(s.name)) throw new Error(`stack references form a cycle: ${[...visiting, s.name].join(" -> ")}`);
    visiting.push(s.name);
    for (const up of upstreamNames(s.config)) {
      const u = byName.get(up);
      if (u) visit(u);
    }
    visiting.pop();
    done.add(s.name);
    out.push(s);
  };
  specs.forEach(visit);
  return out;
}

/** `spec` and, transitively, the stacks among `pool` that it references. */
export function withUpstreams(spec: StackSpec, pool: readonly StackSpec[]): StackSpec[] {
  const out = new Map<string, StackSpec>([[spec.name, spec]]);
  const queue = [spec];
  while (queue.length > 0) {
    for (const up of upstreamNames((queue.pop() as StackSpec).config)) {
      const u = pool.find((s) => s.name === up);
      if (u && !out.has(up)) {
        out.set(up, u);
        queue.push(u);
      }
    }
  }
  return [...out.values()];
}
