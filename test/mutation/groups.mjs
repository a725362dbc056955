/**
 * The mutation-test groups of `npm run mutate [group…]`: the modules that produce or judge
 * numbers, each with the tests that cover it (only those run, so a group stays within ~15 min on
 * 2 cores). A group's score is the share of its mutants that a test kills (Stryker's "mutation
 * score"); the floor is 90 %.
 */
export const GROUPS = {
  parsers: {
    mutate: ["core/parsers/common.ts", "core/parsers/fio.ts", "core/parsers/ioping.ts", "core/parsers/pgbench.ts", "core/parsers/omb.ts"],
    tests: ["test/core/parsers"],
  },
  sampler: { mutate: ["core/parsers/sampler.ts"], tests: ["test/core/parsers/sampler.test.ts", "test/components/bench/collect-utilization.test.ts"] },
  stats: { mutate: ["core/stats.ts", "stacks/compare/stats.ts", "stacks/compare/rules.ts"], tests: ["test/core/stats.test.ts", "test/stacks/compare"] },
  limits: { mutate: ["core/limits.ts", "core/utilization.ts"], tests: ["test/core/limits.test.ts", "test/lab/utilization"] },
  "fsx-rules": { mutate: ["components/fsx-ontap/rules.ts"], tests: ["test/components/fsx-ontap/rules.test.ts", "test/components/fsx-ontap/placement.test.ts"] },
  sizing: { mutate: ["components/bench/sizing.ts"], tests: ["test/components/bench/sizing.test.ts", "test/components/bench/rules.test.ts"] },
  cost: { mutate: ["lab/cost/estimate.ts", "lab/cost/prices.ts"], tests: ["test/lab/cost"] },
};

/** Stryker's mutation score over a JSON report (mutation-testing-report-schema): killed and timed-out mutants over all valid ones. */
export function score(report) {
  const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, CompileError: 0, RuntimeError: 0, Pending: 0 };
  const survivors = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      counts[m.status] = (counts[m.status] ?? 0) + 1;
      if (m.status === "Survived" || m.status === "NoCoverage")
        survivors.push(`${file}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}${m.replacement !== undefined ? ` -> ${JSON.stringify(m.replacement).slice(0, 60)}` : ""}`);
    }
  }
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  return { counts, valid, detected, percent: valid === 0 ? NaN : (100 * detected) / valid, survivors };
}
