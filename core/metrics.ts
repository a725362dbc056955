/**
 * The metric names a stack's `results` output can hold: what the parsers of the benchmark tools the
 * stacks run emit (fio, ioping: fsx-eks; pgbench: ceph-k0s; OMB: kafka). Each parser's header
 * table is the source (core/parsers/fio.ts, ioping.ts, pgbench.ts, omb.ts);
 * test/core/metrics.test.ts parses every fixture of the real tools and checks that each metric it
 * yields is listed here, so the list cannot fall behind a parser.
 */

const FIO_DIRECTIONS = ["read", "write"];
const FIO_FIGURES = ["iops", "bandwidth", "clat.mean", "clat.p50", "clat.p99", "clat.p99.9"];
const FIO = FIO_DIRECTIONS.flatMap((d) => FIO_FIGURES.map((m) => `fio.${d}.${m}`));

/** Every metric a stack's `results` can carry, by tool. */
export const STACK_METRICS: Readonly<Record<"fio" | "ioping" | "pgbench" | "omb", readonly string[]>> = {
  fio: [...FIO, "fio.error"],
  ioping: ["ioping.latency.min", "ioping.latency.mean", "ioping.latency.max", "ioping.latency.mdev", "ioping.iops", "ioping.requests"],
  pgbench: [
    "pgbench.tps",
    "pgbench.latency.mean",
    "pgbench.latency.stddev",
    "pgbench.transactions",
    "pgbench.failed",
    "pgbench.statement.latency",
    "pgbench.statement.failures",
    "pgbench.statement.retries",
  ],
  omb: ["omb.publish.rate", "omb.consume.rate", "omb.throughput", "omb.publish.latency.p99", "omb.e2e.latency.p99", "omb.publish.errors"],
};

/** True when some stack's `results` can hold `metric`. */
export function isStackMetric(metric: string): boolean {
  return Object.values(STACK_METRICS).some((l) => l.includes(metric));
}

/** The list as a rule reads it: fio's per-direction metrics folded into one pattern. */
export const STACK_METRICS_TEXT = [
  `fio.<${FIO_DIRECTIONS.join("|")}>.<${FIO_FIGURES.join("|")}>`,
  ...STACK_METRICS.fio.filter((m) => !FIO.includes(m)),
  ...STACK_METRICS.ioping,
  ...STACK_METRICS.pgbench,
  ...STACK_METRICS.omb,
].join(", ");
