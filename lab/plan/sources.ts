/**
 * Where the offline plan finds stacks: the shipped `Pulumi.<stack>.yaml` files (Pulumi's own
 * stack-config format) and the scenarios' stack lists; and the order to plan them in (upstream
 * stacks, named by `lab:*Stack` config keys, first).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { SECRET_PLACEHOLDER } from "./fakes";
import type { StackSpec } from "./run";

/** Reads a Pulumi stack config file into the flat map Pulumi hands a program. */
export function readStackConfigFile(file: string, stackName = stackNameOfFile(file)): StackSpec {
  let doc: unknown;
  try {
    doc = YAML.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const config = (doc as { config?: Record<string, unknown> } | null)?.config ?? {};
  if (typeof config !== "object" || Array.isArray(config)) throw new Error(`${file}: 'config' must be a map of keys to values`);
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
