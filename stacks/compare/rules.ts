/**
 * The `compare` kind's rules and defaults, in one place (pure). The kind owns no component (it
 * creates no cloud resource: it reads other stacks' `results` and computes statistics), so its
 * rules live beside it rather than in components/. Same pattern as a component's rules.ts:
 * {@link COMPARE_DEFAULTS}, {@link resolve}, and {@link problems} returning every problem at once.
 */
import { argProblem, ArgProblem } from "../../core/errors";
import { isListOf, isText } from "../../core/checks";
import { isStackMetric, STACK_METRICS_TEXT } from "../../core/metrics";
import { STACK_NAME_RE } from "../lib/config/fields";

/** A metadata value a selector matches (the sample schema's metadata values). */
export type MetadataMatch = string | number | boolean;

/** Which samples of one compared stack: its label and, optionally, metadata they must carry. */
export interface SampleSelector {
  /** A compared stack's label (`dev` for `lab:devStack`). */
  readonly stack: string;
  /** Metadata the samples must carry, e.g. `{ zoneRelation: "cross" }`. @default {} */
  readonly where?: Readonly<Record<string, MetadataMatch>>;
}

/** A ratio of medians, numerator / denominator, over the samples of one metric. */
export interface RatioSpec {
  /** How reports name it, e.g. "nitro/dev pgbench TPS"; unique. */
  readonly name: string;
  /** The metric, e.g. `pgbench.tps` (core/sample.ts). */
  readonly metric: string;
  readonly numerator: SampleSelector;
  readonly denominator: SampleSelector;
}

export interface CompareSpec {
  /** The compared stacks: label → Pulumi stack name (`org/storage-bench-lab/<stack>`); 1–10. */
  readonly stacks: Readonly<Record<string, string>>;
  /** @default [] (statistics only) */
  readonly ratios?: readonly RatioSpec[];
  /**
   * Metadata keys that split one stack's samples of a metric into series (a fio suite's jobs, the
   * same/cross-zone pods of fsx-eks); keys a sample lacks are ignored. @default ["job", "zoneRelation"]
   */
  readonly groupBy?: readonly string[];
}

export const COMPARE_DEFAULTS = {
  ratios: [] as readonly RatioSpec[],
  groupBy: ["job", "zoneRelation"] as readonly string[],
} as const;

/** At most this many stacks in one comparison. */
export const MAX_COMPARED_STACKS = 10;
/** A label: the `<label>` of a `lab:<label>Stack` key. */
export const STACK_LABEL_RE = /^[a-z][A-Za-z0-9]*$/;

export type ResolvedCompare = Required<CompareSpec>;

export function resolve(spec: CompareSpec): ResolvedCompare {
  return {
    stacks: spec.stacks,
    ratios: spec.ratios ?? COMPARE_DEFAULTS.ratios,
    groupBy: spec.groupBy ?? COMPARE_DEFAULTS.groupBy,
  };
}

const isMatch = (v: unknown): v is MetadataMatch => ["string", "number", "boolean"].includes(typeof v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function selectorProblems(path: string, sel: unknown, labels: readonly string[]): ArgProblem[] {
  if (!isRecord(sel)) return [argProblem(path, "an object {stack, where}", sel)];
  const out: ArgProblem[] = [];
  if (!isText(sel.stack) || !labels.includes(sel.stack))
    out.push(argProblem(`${path}.stack`, `one of the compared stacks (${labels.join(", ") || "none"})`, sel.stack));
  if (sel.where !== undefined && (!isRecord(sel.where) || !Object.values(sel.where).every(isMatch)))
    out.push(argProblem(`${path}.where`, "a map of metadata keys to strings, numbers or booleans", sel.where));
  return out;
}

const selectorKey = (s: SampleSelector) => JSON.stringify([s.stack, Object.entries(s.where ?? {}).sort()]);

/** Every problem of `spec`; empty when it is valid. Paths: `stacks.<label>`, `ratios[i].…`, `groupBy`. */
export function problems(spec: CompareSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  const r = resolve(spec);
  const labels = isRecord(r.stacks) ? Object.keys(r.stacks) : [];
  if (labels.length < 1 || labels.length > MAX_COMPARED_STACKS)
    out.push(argProblem("stacks", `1 to ${MAX_COMPARED_STACKS} compared stacks`, labels));
  for (const label of labels) {
    if (!STACK_LABEL_RE.test(label))
      out.push(argProblem(`stacks.${label}`, "labelled by a name of letters and digits starting with a lowercase letter", label));
    if (!isText(r.stacks[label], STACK_NAME_RE))
      out.push(
        argProblem(`stacks.${label}`, "a stack name (org/storage-bench-lab/<stack>, each part at most 100 characters)", r.stacks[label]),
      );
  }
  if (!Array.isArray(r.ratios)) out.push(argProblem("ratios", "a list of {name, metric, numerator, denominator}", r.ratios));
  else {
    const names = new Set<string>();
    r.ratios.forEach((ratio: unknown, i) => {
      const p = `ratios[${i}]`;
      if (!isRecord(ratio)) {
        out.push(argProblem(p, "an object {name, metric, numerator, denominator}", ratio));
        return;
      }
      if (!isText(ratio.name)) out.push(argProblem(`${p}.name`, "a non-empty name", ratio.name));
      else if (names.has(ratio.name)) out.push(argProblem(`${p}.name`, "a name no other ratio has", ratio.name));
      else names.add(ratio.name);
      if (!isText(ratio.metric) || !isStackMetric(ratio.metric))
        out.push(argProblem(`${p}.metric`, `a metric some stack's results hold (${STACK_METRICS_TEXT})`, ratio.metric));
      const num = selectorProblems(`${p}.numerator`, ratio.numerator, labels);
      const den = selectorProblems(`${p}.denominator`, ratio.denominator, labels);
      out.push(...num, ...den);
      if (
        num.length === 0 &&
        den.length === 0 &&
        selectorKey(ratio.numerator as SampleSelector) === selectorKey(ratio.denominator as SampleSelector)
      )
        out.push(
          argProblem(`${p}.denominator`, `other samples than the numerator's (a ratio of one selection to itself is 1)`, ratio.denominator),
        );
    });
  }
  if (!isListOf(r.groupBy, (k): k is string => isText(k)) || new Set(r.groupBy).size !== r.groupBy.length)
    out.push(argProblem("groupBy", 'a list of distinct metadata keys (e.g. ["job","zoneRelation"])', r.groupBy));
  return out;
}
