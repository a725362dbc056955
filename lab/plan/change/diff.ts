/**
 * The change plan of a stack: two offline plans of it (before and after a config change) compared
 * resource by resource, each change judged by the rules of ./rules.ts. Pure.
 *
 * - A resource in both plans (same URN) with changed inputs is updated in place, replaced, or of
 *   unknown effect, by its most severe changed input (replace > unknown > update; an ignored
 *   input changes nothing).
 * - A resource only in the new plan is created; only in the old one, deleted. A deleted and a
 *   created resource of one type whose names differ exactly by a changed config value (`…-r1` →
 *   `…-r2`) are one resource replaced under a new name: the engine creates the new one and then
 *   deletes the old (a URN is a resource's identity; a new name without an alias is a new resource).
 * - A replacement reaches the resources that read it: an input whose value comes from a replaced
 *   or created resource (the plan records each input's dependencies) is a changed input of theirs,
 *   unknown until that resource exists, and is judged like any other. The offline plan's fake ids
 *   depend on names only, so without this a replaced resource's new id would go unseen.
 * Component resources (the lab's own) own nothing in the cloud and are not listed.
 */
import { RUN_METADATA_ENV } from "../../../components/bench/collect";
import { COMPUTED, SECRET } from "../markers";
import type { PlannedResource, StackPlan } from "../run";
import { destroys, Destruction, storageLookup } from "./destroys";
import { HeldDeletion, heldDeletions } from "./held";
import { changedPaths } from "./paths";
import { KUBERNETES_PROVIDER_TYPE, kubernetesProviderVerdicts, PROVIDER_REPLACED_SOURCE, providerUrn } from "./providers";
import { InputVerdict, judgeInput } from "./rules";

export type Action = "update" | "replace" | "unknown" | "create" | "delete";

export interface ResourceChange {
  readonly action: Action;
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  /** The changed inputs and what each does (update, replace, unknown). */
  readonly inputs: readonly InputVerdict[];
  /** A replacement under a new name: the old resource's name. */
  readonly renamedFrom?: string;
  /** Replace and delete: what the old resource's deletion destroys. */
  readonly destroys?: Destruction;
  /** Replace: the old one is deleted before the new one is created. */
  readonly deleteBeforeReplace?: boolean;
}

/** One changed config key. */
export interface ConfigChange {
  readonly key: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
}

/** What a change does to the benchmarks' samples (issue 40 item 1). */
export interface BenchmarkEffects {
  /** Collectors created or replaced under a new name (a new run id): their benchmark runs and its samples are new. */
  readonly reRun: readonly string[];
  /**
   * Collectors replaced under their own name: their Job re-created under a run id that has run.
   * Where the run id's stamp survives on the storage, the fio, ioping and pgbench scripts refuse
   * such a run (exit 4) and the update fails there; on new storage (a re-created cluster), or for
   * an OMB cell, it runs again and replaces the results measured under that run id. Refused.
   */
  readonly sameRunId: readonly string[];
  /**
   * Collectors kept as they are whose recorded setup differs from what the changed config says:
   * their samples keep the setup they were measured on (each differing metadata key, before → after).
   */
  readonly kept: readonly { readonly name: string; readonly keys: readonly ConfigChange[] }[];
}

export interface ChangePlan {
  readonly stack: string;
  readonly kind: string;
  readonly config: readonly ConfigChange[];
  /** Every resource that changes, in the new plan's order (deleted ones after). */
  readonly changes: readonly ResourceChange[];
  /** How many custom resources are unchanged. */
  readonly unchanged: number;
  /** The benchmarks the change re-runs, and those whose samples keep the setup they recorded. */
  readonly benchmarks: BenchmarkEffects;
  /** Deletions and replacements a running cluster holds (./held.ts): the update cannot finish. */
  readonly held: readonly HeldDeletion[];
}

/**
 * A benchmark collector's recorded setup (components/bench/collect.ts RUN_METADATA_ENV), read from
 * its planned environment; undefined for any other resource.
 */
export function recordedSetup(r: PlannedResource): Record<string, unknown> | undefined {
  if (r.type !== "command:local:Command") return undefined;
  const env = r.inputs.environment as Record<string, unknown> | undefined;
  const json = env?.[RUN_METADATA_ENV];
  if (typeof json !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function benchmarkEffects(
  olds: ReadonlyMap<string, PlannedResource>,
  news: readonly PlannedResource[],
  changes: readonly ResourceChange[],
) {
  const byUrn = new Map(changes.map((c) => [c.urn, c]));
  const reRun: string[] = [];
  const sameRunId: string[] = [];
  const kept: { name: string; keys: ConfigChange[] }[] = [];
  for (const r of news) {
    const now = recordedSetup(r);
    if (now === undefined) continue;
    const c = byUrn.get(r.urn);
    if (c && (c.action === "create" || c.action === "replace")) {
      (c.action === "replace" && c.renamedFrom === undefined ? sameRunId : reRun).push(r.name);
      continue;
    }
    const old = olds.get(r.urn);
    const then = old ? recordedSetup(old) : undefined;
    if (then === undefined) continue;
    const shown = (v: unknown) => (v === undefined ? undefined : typeof v === "string" ? v : JSON.stringify(v));
    const keys = configChanges(
      Object.fromEntries(Object.entries(then).map(([k, v]) => [k, shown(v) as string])),
      Object.fromEntries(Object.entries(now).map(([k, v]) => [k, shown(v) as string])),
    );
    if (keys.length > 0) kept.push({ name: r.name, keys });
  }
  return { reRun, sameRunId, kept };
}

/** The config keys whose values differ. */
export function configChanges(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): ConfigChange[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => before[k] !== after[k])
    .sort()
    .map((key) => ({ key, before: before[key], after: after[key] }));
}

const SEVERITY: Record<InputVerdict["verdict"], number> = { ignored: 0, update: 1, unknown: 2, replace: 3 };

function actionOf(verdicts: readonly InputVerdict[]): Action | undefined {
  const worst = verdicts.reduce((m, v) => Math.max(m, SEVERITY[v.verdict]), 0);
  return worst === 3 ? "replace" : worst === 2 ? "unknown" : worst === 1 ? "update" : undefined;
}

const optionsOf = (r: PlannedResource) =>
  r.options ?? { replaceOnChanges: [], ignoreChanges: [], deleteBeforeReplace: false, retainOnDelete: false };
const comparable = (r: PlannedResource) => r.comparableInputs ?? r.inputs;

/**
 * Whether a replacement deletes the old object first: the resource option, or pulumi-kubernetes'
 * own rule for an object of a fixed name that keeps its name and namespace (./held.ts
 * NAMED_DBR_SOURCE; a Pulumi-autonamed one has no `metadata.name` in its inputs).
 */
function deletesFirst(old: PlannedResource, r: PlannedResource): boolean {
  if (optionsOf(r).deleteBeforeReplace) return true;
  if (!r.type.startsWith("kubernetes:")) return false;
  const meta = (x: PlannedResource) => (x.inputs.metadata ?? {}) as Record<string, unknown>;
  const name = meta(r).name;
  const known = (v: unknown) => typeof v === "string" && v !== COMPUTED && v !== SECRET;
  return known(name) && name === meta(old).name && (meta(r).namespace ?? "") === (meta(old).namespace ?? "");
}

/**
 * A created resource's old self: a deleted one of its type whose name is the created one's with a
 * changed key's new value swapped for something else (`x-collect-r2` ← `x-collect-r1`; the old
 * value may be a default the config never named).
 */
function renamedFrom(
  created: PlannedResource,
  deleted: readonly PlannedResource[],
  config: readonly ConfigChange[],
): PlannedResource | undefined {
  for (const c of config) {
    const value = c.after;
    if (!value) continue;
    const at = created.name.indexOf(value);
    if (at < 0) continue;
    const head = created.name.slice(0, at);
    const tail = created.name.slice(at + value.length);
    const match = deleted.find(
      (d) =>
        d.type === created.type &&
        d.name.length > head.length + tail.length &&
        d.name.startsWith(head) &&
        d.name.endsWith(tail) &&
        (c.before === undefined || d.name.slice(head.length, d.name.length - tail.length) === c.before),
    );
    if (match) return match;
  }
  return undefined;
}

/**
 * The resources that own something: custom resources, and remote components (pulumi-eks'
 * `eks:index:*`), whose children the offline plan does not see. The lab's own components (`lab:`)
 * own nothing but their children, which are listed themselves.
 */
function owns(r: PlannedResource): boolean {
  return r.custom || !(r.type.startsWith("lab:") || r.type.startsWith("pulumi:pulumi:"));
}

/** Every change in the new plan's order (deleted resources after), and how many resources stay as they are. */
function listChanges(
  before: StackPlan,
  news: readonly PlannedResource[],
  olds: ReadonlyMap<string, PlannedResource>,
  renamed: ReadonlyMap<string, PlannedResource>,
  verdicts: ReadonlyMap<string, InputVerdict[]>,
  deleted: readonly PlannedResource[],
  providerReplaced: (r: PlannedResource) => boolean,
): { changes: ResourceChange[]; unchanged: number } {
  const changes: ResourceChange[] = [];
  let unchanged = 0;
  const storage = storageLookup(before.resources);
  const pairedOld = new Set([...renamed.values()].map((d) => d.urn));
  for (const r of news) {
    const old = olds.get(r.urn);
    if (!old) {
      const from = renamed.get(r.urn);
      changes.push(
        from
          ? {
              action: "replace",
              urn: r.urn,
              type: r.type,
              name: r.name,
              renamedFrom: from.name,
              inputs: [],
              destroys: destroys(from.type, from.inputs, storage),
              deleteBeforeReplace: optionsOf(r).deleteBeforeReplace,
            }
          : { action: "create", urn: r.urn, type: r.type, name: r.name, inputs: [] },
      );
      continue;
    }
    const mine = (verdicts.get(r.urn) ?? []).filter((v) => v.verdict !== "ignored");
    const action = actionOf(mine);
    if (action === undefined) {
      unchanged++;
      continue;
    }
    changes.push({
      action,
      urn: r.urn,
      type: r.type,
      name: r.name,
      inputs: mine,
      ...(action === "replace"
        ? {
            destroys: destroys(old.type, old.inputs, storage),
            // Replaced with its provider: the engine asks no Diff of the resource, so only the option deletes first.
            deleteBeforeReplace: providerReplaced(r) ? optionsOf(r).deleteBeforeReplace : deletesFirst(old, r),
          }
        : {}),
    });
  }
  for (const d of deleted) {
    if (pairedOld.has(d.urn)) continue;
    changes.push({ action: "delete", urn: d.urn, type: d.type, name: d.name, inputs: [], destroys: destroys(d.type, d.inputs, storage) });
  }
  return { changes, unchanged };
}

/** Compares two plans of one stack. */
export function diffPlans(before: StackPlan, after: StackPlan): ChangePlan {
  const config = configChanges(before.config, after.config);
  const olds = new Map(before.resources.filter(owns).map((r) => [r.urn, r]));
  const news = after.resources.filter(owns);
  const newUrns = new Set(news.map((r) => r.urn));
  const deleted = [...olds.values()].filter((r) => !newUrns.has(r.urn));

  // Direct changes: each common resource's changed inputs, judged.
  const verdicts = new Map<string, InputVerdict[]>();
  for (const r of news) {
    const old = olds.get(r.urn);
    if (!old) continue;
    verdicts.set(
      r.urn,
      changedPaths(comparable(old), comparable(r)).map((p) => judgeInput(r.type, p, optionsOf(r), r.inputs)),
    );
  }
  const renamed = new Map<string, PlannedResource>();
  for (const r of news) {
    if (olds.has(r.urn)) continue;
    const from = renamedFrom(r, deleted, config);
    if (from) renamed.set(r.urn, from);
  }

  // Replacements and creations reach the inputs that read them, until nothing new is replaced.
  const fresh = new Set(news.filter((r) => !olds.has(r.urn)).map((r) => r.urn));
  const touched = (urn: string) => fresh.has(urn) || (verdicts.get(urn) ?? []).some((v) => v.verdict !== "ignored");
  let grew = true;
  while (grew) {
    grew = false;
    // A Kubernetes provider is judged as DiffConfig judges it, and its replacement replaces what it manages (./providers.ts).
    for (const r of news) {
      const old = olds.get(r.urn);
      if (r.type !== KUBERNETES_PROVIDER_TYPE || !old || fresh.has(r.urn)) continue;
      const paths = changedPaths(comparable(old), comparable(r));
      const differs = (p: string) => paths.some((x) => x === p || x.startsWith(`${p}.`));
      const uncertain = (u: string) => !fresh.has(u) && actionOf(verdicts.get(u) ?? []) === "unknown";
      const pv = kubernetesProviderVerdicts(old, r, touched, (u) => fresh.has(u), differs, uncertain);
      verdicts.set(r.urn, pv);
      if (actionOf(pv) === "replace") {
        fresh.add(r.urn);
        grew = true;
      }
    }
    for (const r of news) {
      const mine = verdicts.get(r.urn);
      const via = providerUrn(r.provider);
      if (!mine || via === undefined || !fresh.has(via) || fresh.has(r.urn)) continue;
      mine.push({
        path: "provider",
        verdict: "replace",
        rule: `replaced with its provider ${urnName(via)}: the engine replaces every resource of a replaced provider`,
        source: PROVIDER_REPLACED_SOURCE,
      });
      fresh.add(r.urn);
      grew = true;
    }
    for (const r of news) {
      const mine = verdicts.get(r.urn);
      if (!mine) continue;
      for (const [prop, urns] of Object.entries(r.propertyDependencies ?? {})) {
        const from = urns.find((u) => fresh.has(u));
        if (from === undefined || mine.some((v) => v.path === prop || v.path.startsWith(`${prop}.`) || v.path.startsWith(`${prop}[`)))
          continue;
        const v = judgeInput(r.type, prop, optionsOf(r), r.inputs);
        const via = `${v.rule}; its value comes from ${urnName(from)}, which is ${olds.has(from) ? "replaced" : "created"}`;
        mine.push({ ...v, rule: via });
        if (v.verdict === "replace" && !fresh.has(r.urn)) {
          fresh.add(r.urn);
          grew = true;
        }
      }
      if (actionOf(mine) === "replace" && !fresh.has(r.urn)) {
        fresh.add(r.urn);
        grew = true;
      }
    }
  }

  const { changes, unchanged } = listChanges(before, news, olds, renamed, verdicts, deleted, (r) => {
    const via = providerUrn(r.provider);
    return via !== undefined && fresh.has(via);
  });
  return {
    stack: after.stack,
    kind: after.kind,
    config,
    changes,
    unchanged,
    benchmarks: benchmarkEffects(olds, news, changes),
    held: heldDeletions([...olds.values()], news, changes),
  };
}

/** The resource name of a URN (its last `::` segment). */
export function urnName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/**
 * The changes a user must allow with `--allow-replace`: a replacement or deletion that destroys
 * data, and a change of unknown effect on a resource whose replacement would.
 */
export function refusals(plan: ChangePlan): ResourceChange[] {
  return plan.changes.filter(
    (c) =>
      ((c.action === "replace" || c.action === "delete") && c.destroys?.data === true) ||
      (c.action === "unknown" && destroys(c.type, {}).data),
  );
}

/** Where the AWS provider stops an instance to change its type (the rule's source, lab/plan/change/aws.ts). */
export const STOP_START_SOURCE =
  "hashicorp/terraform-provider-aws internal/service/ec2/ec2_instance.go resourceInstanceUpdate (instance_type: stop the instance, modify it, start it); " +
  "the Pulumi engine runs the steps of resources that do not depend on each other in parallel";

/**
 * Updates in place that interrupt what runs on the resource: EC2 instances whose type changes
 * are stopped and started, all at once where they do not depend on each other (issue 40 item 4).
 */
export function disruptions(plan: ChangePlan): string[] {
  const stopped = plan.changes.filter(
    (c) => c.action === "update" && c.type === "aws:ec2/instance:Instance" && c.inputs.some((i) => i.path === "instanceType"),
  );
  if (stopped.length === 0) return [];
  return [
    `stops and starts ${stopped.length} instance(s) at once (${stopped.map((c) => c.name).join(", ")}): each is stopped, changed and ` +
      "started again, in parallel: a power cycle of every node, its pods restarted, storage unavailable until the cluster is back",
  ];
}
