/**
 * `lab run --dry-run`: the run's schedule from the offline plan and ./durations.ts, offline. Stacks
 * start when their upstream stacks are up (independent ones in parallel), steps follow, results are
 * saved, and stacks are destroyed dependents first. The critical path is the longest chain through
 * that schedule (the run's wall time), not the sum of the stacks' times; the cost is each stack's
 * estimated hourly cost (lab/cost) × its lifetime in the schedule (from the start of its up to the
 * end of its destroy).
 */
import { isExperimentStep, type ExperimentKind, type ScenarioStep } from "../../scenarios/types";
import { estimateHourly } from "../cost/estimate";
import type { StackPlan } from "../plan/run";
import { estimateStack, experimentParts, experimentSeconds, StackEstimate } from "./durations";
import { stackColumn } from "./progress";

export interface Slot {
  readonly op: "up" | "rerun" | "experiment" | "destroy";
  readonly stack: string;
  readonly start: number;
  readonly end: number;
  /** What this slot waited for (the chain the critical path follows). */
  readonly after?: Slot;
  readonly note?: string;
}

export interface Schedule {
  readonly slots: readonly Slot[];
  /** Seconds from the start to the last destroy. */
  readonly total: number;
  /** The longest chain, first slot first. */
  readonly critical: readonly Slot[];
  /** Sum of every slot's duration. */
  readonly sum: number;
  readonly costs: ReadonlyArray<{ stack: string; usdPerHour: number; hours: number; usd: number; unpriced: number }>;
  readonly estimates: ReadonlyMap<string, StackEstimate>;
}

const latest = (slots: readonly (Slot | undefined)[]): Slot | undefined =>
  slots.filter((s): s is Slot => s !== undefined).reduce<Slot | undefined>((a, b) => (a === undefined || b.end > a.end ? b : a), undefined);

/** The schedule of `order` (dependency order) with `upstreams`, `steps` and the stacks' plans. */
export function schedule(
  order: readonly string[],
  upstreams: Readonly<Record<string, readonly string[]>>,
  steps: readonly ScenarioStep[],
  plans: ReadonlyMap<string, StackPlan>,
): Schedule {
  const est = new Map(order.map((s) => [s, estimateStack(plans.get(s) as StackPlan)]));
  const slots: Slot[] = [];
  const upOf = new Map<string, Slot>();
  for (const s of order) {
    const after = latest((upstreams[s] ?? []).map((u) => upOf.get(u)));
    const start = after?.end ?? 0;
    const slot: Slot = { op: "up", stack: s, start, end: start + est.get(s)!.upSeconds, after };
    upOf.set(s, slot);
    slots.push(slot);
  }
  let last = latest([...upOf.values()]);
  for (const step of steps) {
    if (isExperimentStep(step)) {
      const start = last?.end ?? 0;
      const slot: Slot = {
        op: "experiment",
        stack: step.stack,
        start,
        end: start + experimentSeconds(step.kind),
        after: last,
        note: step.kind,
      };
      slots.push(slot);
      last = slot;
      continue;
    }
    for (let k = 2; k <= step.times + 1; k++) {
      const base = last;
      const rerunOf = new Map<string, Slot>();
      for (const s of order.filter((x) => step.stacks.includes(x))) {
        const after = latest((upstreams[s] ?? []).map((u) => rerunOf.get(u))) ?? base;
        const start = after?.end ?? 0;
        const slot: Slot = { op: "rerun", stack: s, start, end: start + est.get(s)!.benchSeconds + 60, after, note: `run ${k}` };
        rerunOf.set(s, slot);
        slots.push(slot);
      }
      last = latest([...rerunOf.values()]) ?? last;
    }
  }
  const destroyOf = new Map<string, Slot>();
  for (const s of [...order].reverse()) {
    const dependents = order.filter((d) => (upstreams[d] ?? []).includes(s));
    const after = latest(dependents.map((d) => destroyOf.get(d))) ?? last;
    const start = after?.end ?? 0;
    const slot: Slot = { op: "destroy", stack: s, start, end: start + est.get(s)!.destroySeconds, after };
    destroyOf.set(s, slot);
    slots.push(slot);
  }
  const end = latest([...destroyOf.values()]);
  const critical: Slot[] = [];
  for (let s = end; s !== undefined; s = s.after) critical.unshift(s);
  const costs = order.map((s) => {
    const plan = plans.get(s) as StackPlan;
    const e = estimateHourly(plan.resources, plan.config["aws:region"] ?? "us-east-1");
    const hours = (destroyOf.get(s)!.end - upOf.get(s)!.start) / 3600;
    return { stack: s, usdPerHour: e.totalUsdPerHour, hours, usd: e.totalUsdPerHour * hours, unpriced: e.unpriced.length };
  });
  return { slots, total: end?.end ?? 0, critical, sum: slots.reduce((n, s) => n + (s.end - s.start), 0), costs, estimates: est };
}

const m = (s: number) => String(Math.round(s / 60));

/** The dry-run's text. */
export function renderSchedule(
  scenario: string,
  runId: string,
  sch: Schedule,
  upstreams: Readonly<Record<string, readonly string[]>>,
): string[] {
  // the stack column as wide as the longest name (fsx-eks-cluster)
  const width = stackColumn([...sch.slots.map((s) => s.stack), ...sch.costs.map((c) => c.stack)]);
  const out = [
    `lab run ${scenario} --dry-run (run id ${runId}): offline, nothing is created; times are estimates (lab/run/durations.ts)`,
    "schedule, minutes from the start:",
  ];
  for (const s of sch.slots) {
    const peers = sch.slots
      .filter((o) => o !== s && o.op === s.op && o.note === s.note && o.start < s.end && s.start < o.end)
      .map((o) => o.stack);
    const what =
      s.op === "up"
        ? sch.estimates.get(s.stack)!.parts.join(", ")
        : s.op === "rerun"
          ? `benchmarks again (${s.note})`
          : s.op === "experiment"
            ? `${s.note}: ${experimentParts(s.note as ExperimentKind)
                .map((x) => `${x.what} ${m(x.seconds)}m`)
                .join(", ")}`
            : "";
    out.push(
      `  ${s.op.padEnd(7)} ${s.stack.padEnd(width)} ${m(s.start).padStart(4)} → ${m(s.end).padStart(4)}${peers.length ? `  ∥ ${peers.join(", ")}` : ""}${what ? `  (${what})` : ""}`,
    );
  }
  const firstDestroy = sch.slots.find((x) => x.op === "destroy");
  if (firstDestroy) out.push(`  results saved at ${m(firstDestroy.start)}, before the first destroy`);
  const groups = new Map<string, string[]>();
  for (const s of sch.slots.filter((x) => x.op === "up")) {
    const key = [...(upstreams[s.stack] ?? [])].sort().join(", ");
    groups.set(key, [...(groups.get(key) ?? []), s.stack]);
  }
  for (const [after, stacks] of groups)
    if (stacks.length > 1)
      out.push(
        `in parallel: ${stacks.join(" ∥ ")}${after ? ` (after ${after}: none of them reads another, so all start once ${after} is up)` : ""}`,
      );
  for (const [stack, e] of sch.estimates)
    if (e.parallel) out.push(`in parallel within ${stack}: ${e.parallel}; ${imagesOnPath(stack, e, sch, upstreams)}`);
  out.push(
    `critical path (the longest chain): ${sch.critical.map((s) => `${s.op === "experiment" ? (s.note as string) : s.op} ${s.stack} ${m(s.end - s.start)}m`).join(" → ")} = ${m(sch.total)} min (the stacks' times add up to ${m(sch.sum)} min)`,
  );
  out.push("cost of the whole run (estimated hourly cost × the stack's lifetime in this schedule, us-east-1 list prices, lab/cost):");
  for (const c of sch.costs)
    out.push(
      `  ${c.stack.padEnd(width)} $${c.usdPerHour.toFixed(4)}/h × ${c.hours.toFixed(2)} h = $${c.usd.toFixed(2)}${c.unpriced > 0 ? `  (${c.unpriced} part(s) not priced: lab plan --scenario ${scenario})` : ""}`,
    );
  out.push(totalLine(sch));
  return out;
}

/**
 * Whether the images a stack builds beside its other phases are on the critical path, and why: off
 * it when the stack's up is not on it (the stacks that read it wait for another, longer upstream),
 * or when the rest of the stack outlasts the images; on it when the images outlast the rest of a
 * stack whose up is on it.
 */
function imagesOnPath(stack: string, e: StackEstimate, sch: Schedule, upstreams: Readonly<Record<string, readonly string[]>>): string {
  const up = sch.slots.find((s) => s.op === "up" && s.stack === stack) as Slot;
  const [beside, rest] = [m(e.besideSeconds ?? 0), m(e.restSeconds ?? 0)];
  if (!sch.critical.includes(up)) {
    const later = sch.slots.filter(
      (s) => s.op === "up" && (upstreams[s.stack] ?? []).includes(stack) && s.after !== undefined && s.after !== up,
    );
    const why = later.map((s) => `; ${s.stack}, which reads it, starts at ${m(s.start)}, when ${(s.after as Slot).stack} is up`).join("");
    return `off the critical path: ${stack} is up at ${m(up.end)}${why}`;
  }
  return (e.besideSeconds ?? 0) > (e.restSeconds ?? 0)
    ? `on the critical path: the images (${beside}m) outlast the rest of ${stack} (${rest}m)`
    : `off the critical path: the rest of ${stack} (${rest}m) outlasts the images (${beside}m)`;
}

/**
 * The total's line. When a part has no price or no duration, the figures are lower bounds and the
 * line says so where the total is read: "at least", with what was left out.
 */
export function totalLine(sch: Schedule): string {
  const usd = `$${sch.costs.reduce((n, c) => n + c.usd, 0).toFixed(2)}`;
  const unpriced = sch.costs.reduce((n, c) => n + c.unpriced, 0);
  const unknown = [...new Set([...sch.estimates.values()].flatMap((e) => e.unknown))];
  const gaps = [
    ...(unpriced > 0 ? [`${unpriced} part(s) not priced`] : []),
    ...(unknown.length > 0 ? [`no duration for ${unknown.join(", ")} (counted as 0)`] : []),
  ];
  const notEstimated = "not estimated: data transfer, requests, usage-billed storage";
  if (gaps.length === 0) return `  total ≈ ${usd} for ${m(sch.total)} min; ${notEstimated}`;
  return `  total at least ${usd} for ${unknown.length > 0 ? "at least " : ""}${m(sch.total)} min (${gaps.join("; ")}); ${notEstimated}`;
}
