/**
 * The mutation-test groups of `npm run mutate [group…]`: the modules that produce or judge
 * numbers, each with the tests that cover it (only those run, so a group stays within ~15 min on
 * 2 cores). A group's score is the share of its mutants that a test kills (Stryker's "mutation
 * score"); the floor is 90 %.
 */
export const GROUPS = {
  // The parsers in two groups (900 mutants in one took over 15 min): fio with the helpers every
  // parser uses, and the other tools. index.test.ts (the CLI's dispatch, lab/cli/parse) and
  // sampler.test.ts (its own group) are left out.
  parsers: {
    mutate: ["core/parsers/common.ts", "core/parsers/fio.ts"],
    tests: [
      "test/core/parsers/common.test.ts",
      "test/core/parsers/fio.test.ts",
      "test/core/parsers/ioping.test.ts",
      "test/core/parsers/pgbench.test.ts",
      "test/core/parsers/omb.test.ts",
    ],
  },
  "parsers-tools": {
    mutate: ["core/parsers/ioping.ts", "core/parsers/pgbench.ts", "core/parsers/omb.ts"],
    tests: ["test/core/parsers/ioping.test.ts", "test/core/parsers/pgbench.test.ts", "test/core/parsers/omb.test.ts"],
  },
  sampler: {
    mutate: ["core/parsers/sampler.ts"],
    tests: ["test/core/parsers/sampler.test.ts", "test/components/bench/collect-utilization.test.ts"],
  },
  // core/stats.ts alone: its bootstrap and permutation tests take seconds under Stryker's
  // instrumentation, which the compare kind's mutants need not wait for.
  stats: { mutate: ["core/stats.ts"], tests: ["test/core/stats.test.ts"] },
  // test/stacks/compare/index.test.ts (the kind under Pulumi's mocks) is left out: the pure rules and
  // statistics have unit tests of their own.
  compare: {
    mutate: ["stacks/compare/stats.ts", "stacks/compare/rules.ts"],
    tests: ["test/stacks/compare/rules.test.ts", "test/stacks/compare/stats.test.ts"],
  },
  // test/lab/utilization/limit-lines.test.ts (deriveLimit over a fake CloudWatch) loads the AWS SDK, a
  // second a mutant: the unit tests cover the code.
  limits: {
    mutate: ["core/limits.ts", "core/utilization.ts"],
    tests: ["test/core/limits.test.ts", "test/core/utilization.test.ts"],
  },
  "fsx-rules": {
    mutate: ["components/fsx-ontap/rules.ts"],
    tests: ["test/components/fsx-ontap/rules.test.ts", "test/components/fsx-ontap/placement.test.ts"],
  },
  sizing: {
    mutate: ["components/bench/sizing.ts"],
    tests: ["test/components/bench/sizing.test.ts", "test/components/bench/rules.test.ts"],
  },
  // prices.ts is a table of figures (test/lab/cost/prices.test.ts checks each against its source):
  // only its two functions are mutated. Stryker's jest runner starts a jest run a mutant, which
  // loads every test file of the group: shipped.test.ts (plans every stack), placeholders.test.ts
  // (@pulumi/pulumi) and cross-zone.test.ts (the Kafka manifests; cross-zone.ts is not mutated) are
  // left out, the unit tests cover the code.
  cost: {
    mutate: ["lab/cost/estimate.ts", "lab/cost/prices.ts:54-58", "lab/cost/prices.ts:286-302"],
    tests: ["test/lab/cost/estimate.test.ts", "test/lab/cost/prices.test.ts"],
  },
};

/** Stryker's mutation score over a JSON report (mutation-testing-report-schema): killed and timed-out mutants over all valid ones. */
export function score(report) {
  const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, CompileError: 0, RuntimeError: 0, Pending: 0 };
  const survivors = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      counts[m.status] = (counts[m.status] ?? 0) + 1;
      if (m.status === "Survived" || m.status === "NoCoverage")
        survivors.push(
          `${file}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}${m.replacement !== undefined ? ` -> ${JSON.stringify(m.replacement).slice(0, 60)}` : ""}`,
        );
    }
  }
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  return { counts, valid, detected, percent: valid === 0 ? NaN : (100 * detected) / valid, survivors };
}
