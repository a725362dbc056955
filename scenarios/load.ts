/**
 * Loading a scenario with validation: every problem of a definition at once, each in the project's
 * one format `'<where>' must be <rule>, got <value>` (core/errors.ts), where `<where>` is the path
 * inside the definition (`ceph-nitro.stacks[1].file`). `lab run`, `lab run --dry-run` and the
 * scenario tests read scenarios through {@link loadScenario}.
 *
 * What is checked: names (scenario: lowercase, digits, '-'; stacks: Pulumi's stack-name characters,
 * unique); each stack's config source (a readable `Pulumi.<stack>.yaml` with a `config` map, and/or
 * an inline map) and its `lab:kind` (a registered stack kind); references (`lab:*Stack` keys) that
 * name only stacks of the scenario listed before it, so the list is a dependency order; steps
 * (a known kind, its stacks among the scenario's, its counts in range; an experiment's stack of kind
 * fsx-eks).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { ConfigError, problem } from "../core/errors";
import { KIND_NAMES } from "../stacks";
import { SCENARIOS } from "./index";
import { EXPERIMENT_KINDS, Scenario, ScenarioStep, STEP_KINDS } from "./types";

export const SCENARIO_NAME_RE = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** Pulumi stack names: letters, digits, '-', '_', '.' (pulumi.com/docs/iac/concepts/stacks, "Create a stack"). */
export const STACK_NAME_RE = /^[A-Za-z0-9_.-]{1,40}$/;
/** Most extra repetitions a rerun step may ask for. */
export const MAX_RERUNS = 10;

/** A scenario that passed {@link scenarioProblems}: every stack's merged raw config is known. */
export interface LoadedScenario extends Scenario {
  readonly steps: readonly ScenarioStep[];
  /** Each stack's config as written (file values under the inline ones), by stack name. */
  readonly configs: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** Thrown by {@link loadScenario}: every problem of the definition. */
export class ScenarioError extends ConfigError {
  constructor(problems: readonly string[]) {
    super(problems);
    this.name = "ScenarioError";
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const REFERENCE_KEY = /^lab:[A-Za-z0-9]+Stack$/;

function readConfigFile(file: string): Record<string, unknown> | string {
  let doc: unknown;
  try {
    doc = YAML.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT"
      ? "a file of the project"
      : `a readable YAML file (${(e as Error).message.split("\n")[0]})`;
  }
  const config = isRecord(doc) ? doc.config : undefined;
  return isRecord(config) ? config : "a Pulumi stack config file with a 'config' map";
}

/** Every problem of one definition, and the stacks' raw configs. `others` are the other definitions (for unique names). */
export function scenarioProblems(
  def: unknown,
  root: string,
  others: readonly unknown[] = [],
): { problems: string[]; configs: Record<string, Record<string, unknown>> } {
  const out: string[] = [];
  const configs: Record<string, Record<string, unknown>> = {};
  if (!isRecord(def)) return { problems: [problem("scenario", "an object {name, description, stacks, steps}", def)], configs };
  const name = typeof def.name === "string" ? def.name : "scenario";
  const at = (p: string) => `${name}.${p}`;
  if (!(typeof def.name === "string" && SCENARIO_NAME_RE.test(def.name)))
    out.push(problem("scenario.name", "1–40 lowercase letters, digits or '-' (e.g. ceph-nitro)", def.name));
  else if (others.some((o) => isRecord(o) && o.name === def.name)) out.push(problem(at("name"), "a name no other scenario has", def.name));
  if (!(typeof def.description === "string" && def.description.length > 0))
    out.push(problem(at("description"), "a non-empty description", def.description));

  const stacks = Array.isArray(def.stacks) ? def.stacks : undefined;
  if (!stacks || stacks.length === 0) out.push(problem(at("stacks"), "a non-empty list of {name, file, config}", def.stacks));
  const names: string[] = [];
  (stacks ?? []).forEach((s: unknown, i: number) => {
    const p = `stacks[${i}]`;
    if (!isRecord(s)) {
      out.push(problem(at(p), "an object {name, file, config}", s));
      return;
    }
    if (!(typeof s.name === "string" && STACK_NAME_RE.test(s.name)))
      out.push(problem(at(`${p}.name`), "1–40 letters, digits, '-', '_' or '.'", s.name));
    else if (names.includes(s.name)) out.push(problem(at(`${p}.name`), "a name no other stack of the scenario has", s.name));
    const stackName = typeof s.name === "string" ? s.name : p;
    let config: Record<string, unknown> = {};
    if (s.file === undefined && s.config === undefined) out.push(problem(at(p), "given a file, a config map or both", s));
    if (s.file !== undefined) {
      if (typeof s.file !== "string" || s.file.length === 0)
        out.push(problem(at(`${p}.file`), "a path relative to the project root", s.file));
      else {
        const read = readConfigFile(path.join(root, s.file));
        if (typeof read === "string") out.push(problem(at(`${p}.file`), read, s.file));
        else config = { ...read };
      }
    }
    if (s.config !== undefined) {
      if (!isRecord(s.config) || Object.keys(s.config).some((k) => !/^[A-Za-z0-9_-]+:[A-Za-z0-9_.-]+$/.test(k)))
        out.push(problem(at(`${p}.config`), "a map of '<namespace>:<key>' to values (e.g. {\"lab:reps\": 5})", s.config));
      else config = { ...config, ...s.config };
    }
    if (!KIND_NAMES.includes(config["lab:kind"] as string))
      out.push(problem(at(`${p} lab:kind`), `one of ${KIND_NAMES.join(", ")}`, config["lab:kind"]));
    for (const [key, value] of Object.entries(config)) {
      if (!REFERENCE_KEY.test(key)) continue;
      const up = typeof value === "string" ? value.split("/").pop() : undefined;
      if (up === undefined || !names.includes(up))
        out.push(
          problem(
            at(`${p} ${key}`),
            `a stack of the scenario listed before ${stackName} (${names.join(", ") || "none"}), as org/storage-bench-lab/<stack>`,
            value,
          ),
        );
    }
    if (typeof s.name === "string" && !names.includes(s.name)) {
      names.push(s.name);
      configs[s.name] = config;
    }
  });

  if (def.steps !== undefined && !Array.isArray(def.steps)) out.push(problem(at("steps"), "a list of steps", def.steps));
  ((Array.isArray(def.steps) ? def.steps : []) as unknown[]).forEach((step, i) => {
    const p = `steps[${i}]`;
    if (!isRecord(step) || !(STEP_KINDS as readonly string[]).includes(step.kind as string)) {
      out.push(
        problem(
          at(`${p}.kind`),
          `one of ${STEP_KINDS.join(", ")}`,
          isRecord(step) ? step.kind : step,
        ),
      );
      return;
    }
    if ((EXPERIMENT_KINDS as readonly string[]).includes(step.kind as string)) {
      const target = typeof step.stack === "string" ? configs[step.stack] : undefined;
      if (target === undefined || target["lab:kind"] !== "fsx-eks") {
        const fsxEks = names.filter((n) => configs[n]?.["lab:kind"] === "fsx-eks");
        out.push(problem(at(`${p}.stack`), `a stack of kind fsx-eks of the scenario (${fsxEks.join(", ") || "none"})`, step.stack));
      }
      return;
    }
    // kind "rerun"
    const ok = Array.isArray(step.stacks) && step.stacks.length > 0 && step.stacks.every((x) => typeof x === "string" && names.includes(x));
    if (!ok || new Set(step.stacks as string[]).size !== (step.stacks as string[]).length)
      out.push(problem(at(`${p}.stacks`), `a non-empty list of distinct stacks of the scenario (${names.join(", ")})`, step.stacks));
    if (!(typeof step.times === "number" && Number.isInteger(step.times) && step.times >= 1 && step.times <= MAX_RERUNS))
      out.push(problem(at(`${p}.times`), `a whole number of extra runs from 1 to ${MAX_RERUNS}`, step.times));
  });
  return { problems: out, configs };
}

/** The scenario named `name`, validated; throws a ScenarioError listing every problem (or the names there are). */
export function loadScenario(name: string, root: string, all: readonly Scenario[] = SCENARIOS): LoadedScenario {
  const idx = all.findIndex((s) => s.name === name);
  if (idx < 0) throw new ScenarioError([problem("scenario", `one of ${all.map((s) => s.name).join(", ")}`, name)]);
  const def = all[idx];
  const { problems, configs } = scenarioProblems(
    def,
    root,
    all.filter((_, i) => i !== idx),
  );
  if (problems.length > 0) throw new ScenarioError(problems);
  return { ...def, steps: def.steps ?? [], configs };
}

/** Every problem of every definition (the test that keeps the shipped scenarios valid). */
export function allScenarioProblems(root: string, all: readonly unknown[] = SCENARIOS): string[] {
  return all.flatMap((def, i) => scenarioProblems(def, root, all.slice(0, i)).problems);
}
