/** core/metrics.ts lists what the parsers emit: every fixture of the real tools is checked against it. */
import * as fs from "node:fs";
import * as path from "node:path";
import { isStackMetric, STACK_METRICS } from "../../core/metrics";
import { parseToolOutput } from "../../core/parsers";
import { ROOT } from "../helpers/root";

const FIXTURES: Record<keyof typeof STACK_METRICS, RegExp> = {
  fio: /\.(json|txt)$/,
  ioping: /\.(json|txt)$/,
  pgbench: /\.txt$/,
  omb: /\.json$/,
};

describe("the metrics a stack's results can hold", () => {
  for (const [tool, re] of Object.entries(FIXTURES) as [keyof typeof STACK_METRICS, RegExp][]) {
    test(`every metric parsed from the ${tool} fixtures is listed under ${tool}`, () => {
      const dir = path.join(ROOT, "test", "fixtures", tool);
      const seen = new Set<string>();
      for (const f of fs.readdirSync(dir).filter((x) => re.test(x))) {
        for (const s of parseToolOutput(tool, fs.readFileSync(path.join(dir, f), "utf8"), f)) seen.add(s.metric);
      }
      expect(seen.size).toBeGreaterThan(0);
      expect([...seen].filter((m) => !STACK_METRICS[tool].includes(m))).toEqual([]);
    });
  }

  test("a name no parser emits is not a stack metric", () => {
    expect(isStackMetric("pgbench.tps")).toBe(true);
    expect(isStackMetric("fio.read.clat.p99.9")).toBe(true);
    expect(isStackMetric("pgbench.latency")).toBe(false);
    expect(isStackMetric("fio.randread.iops")).toBe(false);
    expect(isStackMetric("util.limit")).toBe(false);
  });
});
