/**
 * Issue 40 item 1: a change of the setup never relabels samples measured before it. The shipped
 * `nitro` stack, planned before and after `lab:instanceType=m6i.xlarge` through the real program
 * under the mock runtime: its benchmark is not re-run, its collector keeps the setup it recorded,
 * and the samples read from what that collector printed say m5.xlarge.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { changedSpec, planChange, renderChangePlan } from "../../../../lab/plan/change";
import { recordedSetup } from "../../../../lab/plan/change/diff";
import { PlanMemo } from "../../../../lab/plan";
import { planAll } from "../../../../lab/plan";
import { shippedStacks, withUpstreams } from "../../../../lab/plan/sources";
import { runStack } from "../../../../stacks";
import { collectSamples } from "../../../../components/bench/collect";
import { parseToolOutput } from "../../../../core/parsers";
import { collectorStdout } from "../../../components/bench/support";
import { ROOT } from "../../../helpers/root";

jest.setTimeout(120_000);

const shipped = shippedStacks(ROOT);
const nitro = shipped.find((s) => s.name === "nitro")!;
const memo: PlanMemo = new Map();
const change = (...pairs: string[]) => planChange(nitro, changedSpec(nitro, { changes: pairs }), shipped, runStack, memo);
const COLLECTOR = "pgbench-pgbench-collect-r1";
const JOB_LOG = fs.readFileSync(path.join(ROOT, "test/components/bench/fixtures/pgbench-job.txt"), "utf8");

describe("a setup change on a live nitro stack (lab:instanceType m5.xlarge → m6i.xlarge)", () => {
  test("re-runs no benchmark: no Job and no collector is replaced; the collector keeps the setup it recorded", async () => {
    const p = await change("lab:instanceType=m6i.xlarge");
    expect(p.changes.filter((c) => c.type.includes("Job") || c.name.includes("-collect-"))).toEqual([]);
    expect(p.benchmarks).toEqual({
      reRun: [],
      sameRunId: [],
      kept: [{ name: COLLECTOR, keys: [{ key: "instanceType", before: "m5.xlarge", after: "m6i.xlarge" }] }],
    });
    const text = renderChangePlan(p, false);
    expect(text).toContain(
      `keeps the setup its samples were measured on: ${COLLECTOR} (its inputs but the trigger are ignored; it recorded the setup when it ran [5])\n` +
        "    instanceType: measured with m5.xlarge, the config now says m6i.xlarge\n" +
        "    to measure the changed setup, set a new lab:runId\n",
    );
  });

  test("the samples are those the collector printed when it ran: instance type m5.xlarge, hypervisor nitro, never the new type", async () => {
    // The collector as deployed before the change: what it printed is what the real script prints with its environment.
    const [deployed] = await planAll(
      withUpstreams(
        nitro,
        shipped.filter((s) => s.name !== "nitro"),
      ),
      runStack,
      undefined,
      {},
      memo,
    ).then((rs) =>
      rs
        .filter((r) => r.spec.name === "nitro")
        .map((r) => (r as { plan: { resources: { name: string; inputs: Record<string, unknown> }[] } }).plan),
    );
    const collector = deployed.resources.find((r) => r.name === COLLECTOR)!;
    expect(recordedSetup(collector as never)).toMatchObject({ instanceType: "m5.xlarge", hypervisor: "nitro", stack: "nitro" });
    const stdout = collectorStdout(collector.inputs as { environment?: Record<string, unknown> }, JOB_LOG);
    const { samples } = collectSamples(
      stdout,
      { tool: "pgbench", reps: 2, source: `job/pgbench-pgbench-r1`, run: { instanceType: "m6i.xlarge" }, recordedRun: true },
      parseToolOutput,
    );
    expect(samples.length).toBeGreaterThan(0);
    expect([...new Set(samples.map((s) => s.metadata.instanceType))]).toEqual(["m5.xlarge"]);
    expect([...new Set(samples.map((s) => s.metadata.runId))]).toEqual(["r1"]);
  });

  test("a new run id re-runs the benchmark under its new collector, and says so", async () => {
    const p = await change("lab:runId=r2");
    expect(p.benchmarks).toEqual({ reRun: ["pgbench-pgbench-collect-r2"], sameRunId: [], kept: [] });
    expect(renderChangePlan(p, false)).toContain("runs its benchmark: pgbench-pgbench-collect-r2: a new run id, so its samples are new\n");
  });

  test("a benchmark option changed under the same run id: refused, since a run id runs once", async () => {
    const p = await change("lab:pgbenchClients=40");
    expect(p.benchmarks).toEqual({ reRun: [], sameRunId: ["pgbench-pgbench-collect-r1"], kept: [] });
    const text = renderChangePlan(p, true);
    expect(text).toContain(
      "runs again under the same run id: pgbench-pgbench-collect-r1: its Job is re-created, and a run id runs once (where its stamp " +
        "survives on the storage, the fio, ioping and pgbench scripts refuse it with exit 4 and the update fails there; on new storage, " +
        "or for an OMB cell, the run replaces the results measured under that run id)\n",
    );
    expect(text).toContain(
      "refused: 1 benchmark(s) would run again under run id(s) that ran (pgbench-pgbench-collect-r1); set a new lab:runId with this change " +
        "(--allow-replace does not accept this)",
    );
    const both = await change("lab:pgbenchClients=40", "lab:runId=r2");
    expect(both.benchmarks).toEqual({ reRun: ["pgbench-pgbench-collect-r2"], sameRunId: [], kept: [] });
  });
});
