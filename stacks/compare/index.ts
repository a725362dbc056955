/**
 * Stack kind `compare`: reads the `results` of the stacks named by its `lab:<label>Stack` keys
 * (StackReference) and exports, per metric, stack and series, the median, min, max and n of the
 * samples (`stats`), and the ratios of `lab:ratios` with their spread (`ratios`). It creates no
 * cloud resource, only the `time.Static` every kind's `expiresAt` starts from.
 *
 * During a preview an upstream stack whose `results` is not known yet (the offline plan, a stack
 * not deployed) leaves `stats` and `ratios` unknown; on `pulumi up` it is an error naming the stack.
 */
import * as pulumi from "@pulumi/pulumi";
import * as time from "@pulumiverse/time";
import { DeployTimeError } from "../../components/lib/deploy-error";
import { expiresAt as expiry } from "../../core/tags";
import type { Sample } from "../../core/sample";
import { parseConfig } from "../lib/config/load";
import { StackIdentity } from "../lib/context";
import { checkCompare, compareArgs, compareSchema, CompareConfig } from "./config";
import { resolve } from "./rules";
import { asSamples, ratio, RatioResult, SeriesStats, seriesStats } from "./stats";

export function compareStack(raw: Readonly<Record<string, string>>, _id: StackIdentity) {
  const cfg = parseConfig("compare", compareSchema(raw), raw, (c) => checkCompare(c as CompareConfig)) as CompareConfig;
  const spec = resolve(compareArgs(cfg));
  const created = new time.Static("created-at", {});
  const expiresAt = created.rfc3339.apply((t) => expiry(t, cfg.ttlHours));

  const results: Record<string, pulumi.Output<unknown>> = {};
  for (const [label, name] of Object.entries(spec.stacks)) {
    results[label] = new pulumi.StackReference(`compare-${label}`, { name }).getOutput("results");
  }
  const computed = pulumi.all(results).apply((values): { stats: SeriesStats[]; ratios: RatioResult[] } => {
    const missing = Object.keys(values).filter((label) => values[label] === undefined);
    if (missing.length > 0) {
      // A preview of stacks not deployed yet: the statistics are known only after the upstream ups.
      if (pulumi.runtime.isDryRun()) return pulumi.unknown as unknown as { stats: SeriesStats[]; ratios: RatioResult[] };
      throw new DeployTimeError(
        missing.map(
          (l) => `upstream stack '${spec.stacks[l]}' (from 'lab:${l}Stack') has no output 'results': deploy it (its benchmarks) first`,
        ),
      );
    }
    // The upstream results are known only once those stacks are up: a malformed one is a deploy-time problem.
    try {
      const byStack: Record<string, Sample[]> = {};
      for (const [label, value] of Object.entries(values)) byStack[label] = asSamples(spec.stacks[label], value);
      return { stats: seriesStats(byStack, spec.groupBy), ratios: spec.ratios.map((r) => ratio(r, byStack)) };
    } catch (e) {
      throw new DeployTimeError([e instanceof Error ? e.message : String(e)]);
    }
  });

  return {
    /** label → the stack compared. */
    stacks: spec.stacks,
    stats: computed.apply((c) => c.stats),
    ratios: computed.apply((c) => c.ratios),
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
