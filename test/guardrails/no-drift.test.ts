/**
 * No drift: a plan is a function of the stack's config and its upstream stacks' outputs, nothing
 * else (no random names, no timestamps, no map whose key order varies). Planned twice, in this
 * process and in another (`lab plan --all --json`, a child process started later, with its own
 * module load order and clock), every shipped stack (every discovered Pulumi.<stack>.yaml) and every
 * scenario's stacks plan to the same resources, inputs (key order included), dependencies and
 * outputs.
 *
 * And a run id (`lab:runId`) re-runs the benchmarks and nothing else: between two plans with
 * different run ids, exactly the benchmark Jobs change (and so are replaced: a Job's pod template
 * is immutable) and exactly the result collectors are replaced (their names carry the run id);
 * every other resource keeps its inputs.
 */
import { planAll, PlanResult, scenarioSpecs } from "../../lab/plan";
import { PlannedResource, StackSpec } from "../../lab/plan/run";
import { planJson } from "../../lab/plan/render";
import { RESULT_KINDS } from "../../lab/run/results";
import { shippedStacks } from "../../lab/plan/sources";
import { SCENARIOS } from "../../scenarios";
import { runStack } from "../../stacks";
import { ROOT } from "../helpers/root";
import { SHIPPED_STACKS } from "../helpers/shipped";
import { lab } from "./cli";

/** A plan as `--json` prints it, as text: key order counts. */
const text = (r: PlanResult) => JSON.stringify(planJson(r.plan));

/** Every shipped stack, then every scenario's stacks, as `lab plan --all` plans them. */
async function planEverything(): Promise<PlanResult[]> {
  const out = await planAll(shippedStacks(ROOT), runStack);
  for (const s of SCENARIOS) out.push(...(await planAll(scenarioSpecs(s, ROOT), runStack)));
  return out;
}

/** The resources whose inputs differ between two plans by URN, and the URNs only one plan has. */
function diff(a: readonly PlannedResource[], b: readonly PlannedResource[]) {
  const before = new Map(a.map((r) => [r.urn, r]));
  const after = new Map(b.map((r) => [r.urn, r]));
  const name = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
  const kept = [...before.keys()].filter((u) => after.has(u));
  return {
    inputsChanged: kept.filter((u) => JSON.stringify(before.get(u)?.inputs) !== JSON.stringify(after.get(u)?.inputs)).map(name),
    dependenciesOnly: kept
      .filter((u) => JSON.stringify(before.get(u)?.inputs) === JSON.stringify(after.get(u)?.inputs))
      .filter((u) => JSON.stringify(before.get(u)?.dependencies) !== JSON.stringify(after.get(u)?.dependencies))
      .map(name),
    removed: [...before.keys()].filter((u) => !after.has(u)).map(name),
    added: [...after.keys()].filter((u) => !before.has(u)).map(name),
  };
}

/** `v` with the run id `from` replaced by `to` wherever it is a whole word of a string. */
function withRunId(v: unknown, from: string, to: string): string {
  return JSON.stringify(v).replace(new RegExp(`\\b${from}\\b`, "g"), to);
}

describe("no drift: the same config plans to the same resources", () => {
  let first: PlanResult[];
  let second: PlanResult[];
  let cli: Array<Record<string, unknown>>;

  beforeAll(async () => {
    first = await planEverything();
    second = await planEverything();
    const r = await lab(["plan", "--all", "--json"]);
    if (r.status !== 0) throw new Error(`lab plan --all --json exited ${r.status}: ${r.stderr}`);
    cli = JSON.parse(r.stdout);
  }, 300_000);

  test("every discovered Pulumi.<stack>.yaml is planned", () => {
    expect(SHIPPED_STACKS.length).toBeGreaterThan(0);
    expect(
      first
        .slice(0, SHIPPED_STACKS.length)
        .map((r) => r.plan.stack)
        .sort(),
    ).toEqual(SHIPPED_STACKS);
  });

  test.each(SHIPPED_STACKS)("%s: planned twice in one process, identical resources, inputs, dependencies and outputs", (stack) => {
    const a = first.find((r) => r.plan.stack === stack) as PlanResult;
    const b = second.find((r) => r.plan.stack === stack) as PlanResult;
    expect(a.plan.resources.length).toBeGreaterThan(0);
    expect(text(b)).toBe(text(a));
  });

  test("every shipped stack and scenario stack, planned in another process later, is the same text", () => {
    expect(cli.length).toBe(first.length);
    const differing = first.filter((r, i) => JSON.stringify(cli[i]) !== text(r)).map((r) => r.spec.source);
    expect(differing).toEqual([]);
  });

  test("a stack exports `results` exactly when its kind is one lab run holds to having results (lab/run/results.ts RESULT_KINDS)", () => {
    const kinds = first.slice(0, SHIPPED_STACKS.length).map((r) => [r.spec.config["lab:kind"], "results" in r.plan.outputs]);
    expect(kinds).toEqual(kinds.map(([kind]) => [kind, RESULT_KINDS.includes(String(kind))]));
    expect(new Set(kinds.filter(([, has]) => has).map(([kind]) => kind))).toEqual(new Set(RESULT_KINDS));
  });

  test("scenario stacks are planned twice alike too", () => {
    expect(second.length).toBe(first.length);
    expect(second.slice(SHIPPED_STACKS.length).map(text)).toEqual(first.slice(SHIPPED_STACKS.length).map(text));
    expect(first.length).toBeGreaterThan(SHIPPED_STACKS.length);
  });
});

describe("a new lab:runId re-runs the benchmarks and nothing else", () => {
  let r1: PlanResult[];
  let r2: PlanResult[];

  beforeAll(async () => {
    const specs = shippedStacks(ROOT);
    const withRun = (s: StackSpec, runId: string): StackSpec => ({ ...s, config: { ...s.config, "lab:runId": runId } });
    r1 = await planAll(
      specs.map((s) => withRun(s, "r1")),
      runStack,
    );
    r2 = await planAll(
      specs.map((s) => withRun(s, "r2")),
      runStack,
    );
  }, 300_000);

  const of = (results: PlanResult[], stack: string) => (results.find((r) => r.plan.stack === stack) as PlanResult).plan;

  /** The fsx-eks benchmark runs, in the order they run, and the tools of each. */
  const FSX_EKS_RUNS: ReadonlyArray<[string, string[]]> = [
    ["nas-same-seed", ["fio", "ioping"]],
    ["nas-same-latency", ["fio"]],
    ["nas-cross-seed", ["fio", "ioping"]],
    ["nas-cross-latency", ["fio"]],
    ["gp3-same-seed", ["fio", "ioping"]],
    ["gp3-same-latency", ["fio"]],
  ];
  const jobs = FSX_EKS_RUNS.flatMap(([run, tools]) => tools.map((t) => `${run}-${t}`));
  /** The kafka stack's OMB matrix cells, in the order they run (one driver Job each). */
  const OMB_CELLS = ["kafka-sync-rf1", "kafka-sync-rf3", "kafka-throughput-rf1", "kafka-throughput-rf3"].map((c) => `omb-${c}`);
  /** The stacks whose benchmarks a run id re-runs. */
  const BENCHMARK_STACKS = ["dev", "nitro", "fsx-eks", "kafka"];

  test.each([
    {
      stack: "dev",
      // The collector's Role names the run's Jobs (components/bench/access.ts): updated in place.
      inputsChanged: ["pgbench-collect-role", "pgbench-pgbench"],
      removed: ["pgbench-pgbench-collect-r1"],
      added: ["pgbench-pgbench-collect-r2"],
      dependenciesOnly: [],
    },
    {
      stack: "nitro",
      // The collector's Role names the run's Jobs (components/bench/access.ts): updated in place.
      inputsChanged: ["pgbench-collect-role", "pgbench-pgbench"],
      removed: ["pgbench-pgbench-collect-r1"],
      added: ["pgbench-pgbench-collect-r2"],
      dependenciesOnly: [],
    },
    {
      stack: "fsx-eks",
      inputsChanged: [...jobs, ...FSX_EKS_RUNS.map(([run]) => `${run}-collect-role`)],
      removed: jobs.map((j) => `${j}-collect-r1`),
      added: jobs.map((j) => `${j}-collect-r2`),
      // A run's volume and scripts wait for the run before it (dependsOn its collector): a new
      // dependency, not a new input, so Pulumi neither updates nor replaces them.
      // So do its collector's ServiceAccount and RoleBinding.
      dependenciesOnly: FSX_EKS_RUNS.slice(1).flatMap(([run]) => [
        `${run}-scripts`,
        `${run}-data`,
        `${run}-collect-sa`,
        `${run}-collect-binding`,
      ]),
    },
    {
      stack: "kafka",
      inputsChanged: [...OMB_CELLS, "omb-collect-role"],
      removed: OMB_CELLS.map((j) => `${j}-collect-r1`),
      added: OMB_CELLS.map((j) => `${j}-collect-r2`),
      dependenciesOnly: [],
    },
  ])("$stack: exactly its benchmark Jobs change, exactly its collectors are replaced", ({ stack, ...want }) => {
    const d = diff(of(r1, stack).resources, of(r2, stack).resources);
    expect({ ...d, inputsChanged: [...d.inputsChanged].sort(), dependenciesOnly: [...d.dependenciesOnly].sort() }).toEqual({
      ...want,
      inputsChanged: [...want.inputsChanged].sort(),
      dependenciesOnly: [...want.dependenciesOnly].sort(),
    });
  });

  test("the Jobs differ in the run id only", () => {
    for (const stack of BENCHMARK_STACKS) {
      const before = of(r1, stack).resources.filter((r) => r.type === "kubernetes:batch/v1:Job");
      const after = new Map(of(r2, stack).resources.map((r) => [r.urn, r]));
      expect(before.length).toBeGreaterThan(0);
      for (const job of before)
        expect([job.name, withRunId(job.inputs, "r1", "r2")]).toEqual([job.name, JSON.stringify(after.get(job.urn)?.inputs)]);
    }
  });

  test("every other shipped stack plans identically under a new run id; the benchmark stacks' outputs differ in the run id only", () => {
    const untouched = r1.map((r) => r.plan.stack).filter((s) => !BENCHMARK_STACKS.includes(s));
    expect(untouched.sort()).toEqual(SHIPPED_STACKS.filter((s) => !BENCHMARK_STACKS.includes(s)));
    for (const stack of untouched) {
      const a = { ...planJson(of(r1, stack)), config: undefined };
      const b = { ...planJson(of(r2, stack)), config: undefined };
      expect([stack, JSON.stringify(b)]).toEqual([stack, JSON.stringify(a)]);
    }
    // The benchmark stacks' outputs name the runs' Jobs (`<run>-<tool>-<runId>`): the run id, nothing else.
    for (const stack of BENCHMARK_STACKS)
      expect([stack, JSON.stringify(of(r2, stack).outputs)]).toEqual([stack, withRunId(of(r1, stack).outputs, "r1", "r2")]);
  });
});
