/**
 * pgbench parser against real pgbench 15.18 outputs and a pre-14 layout (test/fixtures/pgbench,
 * commands and sources in test/fixtures/README.md). Expected figures were read by hand.
 */
import { parsePgbench } from "../../../core/parsers/pgbench";
import { TPCB_STATEMENTS } from "../../../lab/report/published";
import { expectToolOutputError, fixture, summary } from "./helpers";

const V15 = "pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)";

describe("parsePgbench: pgbench 15 (current layout)", () => {
  test("TPC-B -T 5: tps without initial connection time, latency, transactions, failed", () => {
    const samples = parsePgbench(fixture("pgbench", "tpcb-15.txt"), "tpcb-15.txt");
    expect(summary(samples)).toEqual([
      "pgbench.tps 1644.801001 txn/s", // tps = 1644.801001 (without initial connection time)
      "pgbench.latency.mean 2.432 ms", // latency average = 2.432 ms
      "pgbench.transactions 8180 count", // number of transactions actually processed: 8180
      "pgbench.failed 0 count", // number of failed transactions: 0 (0.000%)
    ]);
    for (const s of samples) {
      expect(s.metadata).toEqual({
        tool: "pgbench",
        toolVersion: V15,
        transactionType: "<builtin: TPC-B (sort of)>",
        scale: 2,
        queryMode: "simple",
        clients: 4,
        threads: 2,
        maxTries: 1,
        durationSeconds: 5,
        tpsMeasure: "without initial connection time",
      });
    }
  });

  test("select-only, prepared, -P 1 with stderr interleaved: stddev is read, progress lines are not", () => {
    const samples = parsePgbench(fixture("pgbench", "select-progress-15.txt"), "select-progress-15.txt");
    expect(summary(samples)).toEqual([
      "pgbench.tps 13593.098531 txn/s",
      "pgbench.latency.mean 0.143 ms",
      "pgbench.latency.stddev 0.458 ms", // latency stddev = 0.458 ms (printed because of -P)
      "pgbench.transactions 39217 count",
      "pgbench.failed 0 count",
    ]);
    expect(samples[0].metadata).toMatchObject({ transactionType: "<builtin: select only>", queryMode: "prepared", clients: 2, threads: 1 });
  });

  test("serializable contention: failed transactions and a latency that includes them", () => {
    const samples = parsePgbench(fixture("pgbench", "serializable-failures-15.txt"), "serializable-failures-15.txt");
    expect(summary(samples)).toEqual([
      "pgbench.tps 479.4364 txn/s", // tps = 479.436400
      "pgbench.latency.mean 3.201 ms", // latency average = 3.201 ms (including failures)
      "pgbench.transactions 1397 count",
      "pgbench.failed 5886 count", // number of failed transactions: 5886 (80.818%)
    ]);
    expect(samples[1].metadata.latencyIncludesFailures).toBe(true);
    expect("latencyIncludesFailures" in samples[0].metadata).toBe(false);
    expect(samples[0].metadata.clients).toBe(8);
  });

  test("-t 100 with retries and per-statement report: processed 351/400 counts 351", () => {
    const samples = parsePgbench(fixture("pgbench", "retries-t-15.txt"), "retries-t-15.txt");
    expect(summary(samples)).toEqual([
      "pgbench.tps 666.454009 txn/s",
      "pgbench.latency.mean 5.267 ms",
      "pgbench.transactions 351 count", // number of transactions actually processed: 351/400
      "pgbench.failed 49 count",
      ...[
        [0.003, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
        [0.122, 0, 0],
        [0.253, 0, 0],
        [0.343, 0, 0],
        [0.189, 35, 540],
        [0.14, 10, 201],
        [0.147, 3, 31],
        [0.542, 1, 25],
      ].flatMap(([l, f, r]) => [
        `pgbench.statement.latency ${l} ms`,
        `pgbench.statement.failures ${f} count`,
        `pgbench.statement.retries ${r} count`,
      ]),
    ]);
    const updates = samples.filter(
      (x) => x.metadata.statement === "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;",
    );
    expect(updates.map((x) => [x.metric, x.value, x.metadata.statementIndex])).toEqual([
      ["pgbench.statement.latency", 0.189, 8],
      ["pgbench.statement.failures", 35, 8],
      ["pgbench.statement.retries", 540, 8],
    ]);
    expect(updates[0].metadata.script).toBeUndefined();
    expect(samples[0].metadata).toEqual({
      tool: "pgbench",
      toolVersion: V15,
      transactionType: "<builtin: TPC-B (sort of)>",
      scale: 2,
      queryMode: "simple",
      clients: 4,
      threads: 2,
      maxTries: 10,
      transactionsPerClient: 100,
      tpsMeasure: "without initial connection time",
    });
  });

  test("a server of another version: the banner's client version is toolVersion", () => {
    const text = fixture("pgbench", "tpcb-15.txt").replace("pgbench (15.18 (Debian 15.18-0+deb12u1))", "pgbench (17.2, server 16.6)");
    const meta = parsePgbench(text, "x.txt")[0].metadata;
    expect(meta.toolVersion).toBe("pgbench (PostgreSQL) 17.2");
    expect(meta.serverVersion).toBe("16.6");
  });

  test("-C: the only tps pgbench prints includes reconnection times", () => {
    const text = fixture("pgbench", "tpcb-15.txt")
      .replace("initial connection time = 51.779 ms", "average connection time = 3.112 ms")
      .replace("tps = 1644.801001 (without initial connection time)", "tps = 812.5 (including reconnection times)");
    const samples = parsePgbench(text, "connect.txt");
    expect(samples[0]).toMatchObject({ metric: "pgbench.tps", value: 812.5, metadata: { tpsMeasure: "including reconnection times" } });
  });
});

describe("parsePgbench: the per-statement block of -r (--report-latencies)", () => {
  // TPC-B's statements as pgbench prints them (the list the published runs are recorded with).
  const TPCB = TPCB_STATEMENTS;
  const statements = (samples: ReturnType<typeof parsePgbench>, metric: string) =>
    samples.filter((x) => x.metric === metric).map((x) => [x.metadata.statementIndex, x.metadata.statement, x.value]);

  test("pgbench 15, real output: a latency and a failure count per statement, in script order", () => {
    const samples = parsePgbench(fixture("pgbench", "tpcb-r-15.txt"), "tpcb-r-15.txt");
    const latencies = [0.001, 0.001, 0.001, 0.001, 0.027, 0.136, 0.116, 0.121, 0.164, 0.15, 0.199];
    expect(statements(samples, "pgbench.statement.latency")).toEqual(TPCB.map((t, i) => [i + 1, t, latencies[i]]));
    expect(statements(samples, "pgbench.statement.failures")).toEqual(TPCB.map((t, i) => [i + 1, t, 0]));
    expect(samples.some((x) => x.metric === "pgbench.statement.retries")).toBe(false);
    // The summary is unchanged by the block.
    expect(summary(samples).slice(0, 4)).toEqual([
      "pgbench.tps 2177.897347 txn/s",
      "pgbench.latency.mean 0.918 ms",
      "pgbench.transactions 4348 count",
      "pgbench.failed 0 count",
    ]);
    expect(samples.find((x) => x.metric === "pgbench.statement.latency")?.metadata).toMatchObject({
      tool: "pgbench",
      toolVersion: V15,
      clients: 2,
    });
  });

  test("pgbench 14 (the published Ceph runs' layout): the latency alone; no failure accounting", () => {
    const samples = parsePgbench(fixture("pgbench", "tpcb-r-14-constructed.txt"), "tpcb-r-14-constructed.txt");
    const latencies = [0.002, 0.001, 0.001, 0.001, 1.2, 10, 1.5, 3.3, 2.9, 3.1, 28];
    expect(statements(samples, "pgbench.statement.latency")).toEqual(TPCB.map((t, i) => [i + 1, t, latencies[i]]));
    expect(samples.filter((x) => /failures|retries|failed/.test(x.metric))).toEqual([]);
    expect(samples[0].metadata).toMatchObject({
      toolVersion: "pgbench (PostgreSQL) 14.11",
      serverVersion: "14.12",
      scale: 1000,
      clients: 20,
      threads: 2,
    });
  });

  test("9.6 to 13 under 'script statistics:', and several scripts numbered", () => {
    const base = fixture("pgbench", "pre14-tpcb-constructed.txt");
    const one = `${base}script statistics:\n - statement latencies in milliseconds:\n         0.002  \\set aid random(1, 100000 * :scale)\n        49.100  END;\n`;
    expect(statements(parsePgbench(one, "x.txt"), "pgbench.statement.latency")).toEqual([
      [1, "\\set aid random(1, 100000 * :scale)", 0.002],
      [2, "END;", 49.1],
    ]);
    const two = `${base}statement latencies in milliseconds:\n         1.000  SELECT 1;\nstatement latencies in milliseconds:\n         2.000  SELECT 2;\n`;
    expect(
      parsePgbench(two, "x.txt")
        .filter((x) => x.metric === "pgbench.statement.latency")
        .map((x) => [x.metadata.script, x.metadata.statement, x.value]),
    ).toEqual([
      [1, "SELECT 1;", 1],
      [2, "SELECT 2;", 2],
    ]);
  });

  test("a header cut off before its first statement is an error naming the file", () => {
    const text = fixture("pgbench", "tpcb-r-15.txt").split("\n").slice(0, 15).join("\n");
    expect(text.endsWith("statement latencies in milliseconds and failures:")).toBe(true);
    expectToolOutputError(
      () => parsePgbench(text, "cut.txt"),
      "cut.txt",
      "pgbench output is incomplete: a 'statement latencies in milliseconds' header with no statement line under it",
    );
  });
});

describe("parsePgbench: before 14", () => {
  test("layout of pgbench 10-13: the excluding-connections tps, no banner, no failure line (so no pgbench.failed)", () => {
    const samples = parsePgbench(fixture("pgbench", "pre14-tpcb-constructed.txt"), "pre14-tpcb-constructed.txt");
    expect(summary(samples)).toEqual([
      "pgbench.tps 400.039911 txn/s", // (excluding connections establishing), not 400.010238 (including ...)
      "pgbench.latency.mean 49.995 ms",
      "pgbench.latency.stddev 31.25 ms",
      "pgbench.transactions 120012 count",
    ]);
    expect(samples[0].metadata).toEqual({
      tool: "pgbench",
      transactionType: "<builtin: TPC-B (sort of)>",
      scale: 1000,
      queryMode: "simple",
      clients: 20,
      threads: 2,
      durationSeconds: 300,
      tpsMeasure: "excluding connections establishing",
    });
  });

  test("9.x wrote 'latency average: X ms'; older ones no latency line at all", () => {
    const base = [
      "starting vacuum...end.",
      "transaction type: TPC-B (sort of)",
      "scaling factor: 10",
      "query mode: simple",
      "number of clients: 5",
      "number of threads: 1",
      "number of transactions per client: 10000",
      "number of transactions actually processed: 50000/50000",
    ];
    const tps = ["tps = 712.165617 (including connections establishing)", "tps = 712.221039 (excluding connections establishing)"];
    expect(summary(parsePgbench([...base, "latency average: 7.021 ms", ...tps].join("\n"), "96.txt"))).toEqual([
      "pgbench.tps 712.221039 txn/s",
      "pgbench.latency.mean 7.021 ms",
      "pgbench.transactions 50000 count",
    ]);
    expect(summary(parsePgbench([...base, ...tps].join("\n"), "93.txt"))).toEqual([
      "pgbench.tps 712.221039 txn/s",
      "pgbench.transactions 50000 count",
    ]);
  });
});

describe("parsePgbench: errors name the file and what is missing", () => {
  test("empty file", () => {
    expectToolOutputError(() => parsePgbench("\n", "empty.txt"), "empty.txt", "is empty; expected pgbench output");
  });

  test("output cut before the tps line", () => {
    const text = fixture("pgbench", "tpcb-15.txt");
    expectToolOutputError(
      () => parsePgbench(text.slice(0, text.indexOf("tps = ")), "cut.txt"),
      "cut.txt",
      "pgbench output is incomplete: missing 'tps = X (without initial connection time)' (before 14: '(excluding connections establishing)') line",
    );
    const pre14 = fixture("pgbench", "pre14-tpcb-constructed.txt");
    expectToolOutputError(
      () => parsePgbench(pre14.slice(0, pre14.indexOf("tps = 400.039911")), "cut14.txt"),
      "cut14.txt",
      "pgbench output is incomplete: missing 'tps = X (without initial connection time)' (before 14: '(excluding connections establishing)') line",
    );
  });

  test("missing parameter lines are listed together", () => {
    const text = fixture("pgbench", "tpcb-15.txt").replace("scaling factor: 2\n", "").replace("number of clients: 4\n", "");
    expectToolOutputError(
      () => parsePgbench(text, "noscale.txt"),
      "noscale.txt",
      "pgbench output is incomplete: missing 'scaling factor:', 'number of clients:' lines",
    );
  });

  test("two runs in one file", () => {
    const one = fixture("pgbench", "tpcb-15.txt");
    expectToolOutputError(
      () => parsePgbench(one + one, "two.txt"),
      "two.txt",
      "holds 2 pgbench runs ('transaction type:' lines); give one run a file",
    );
  });

  test("another tool's file", () => {
    for (const [tool, name] of [
      ["fio", "seed-gtod-reduce.json"],
      ["fio", "seed-gtod-reduce.txt"],
      ["ioping", "ioping.txt"],
      ["omb", "kafka-throughput-1kb.json"],
    ]) {
      expectToolOutputError(() => parsePgbench(fixture(tool, name), name), name, "not pgbench output: no 'transaction type:' line");
    }
  });
});

describe("parsePgbench: edges a mutation test found untested", () => {
  const text = fixture("pgbench", "tpcb-15.txt");
  test("every parameter line missing is named, in order", () => {
    const cut = text
      .replace(/^scaling factor:.*\n/m, "")
      .replace(/^query mode:.*\n/m, "")
      .replace(/^number of clients:.*\n/m, "")
      .replace(/^number of threads:.*\n/m, "")
      .replace(/^number of transactions actually processed:.*\n/m, "");
    expectToolOutputError(
      () => parsePgbench(cut, "x.txt"),
      "x.txt",
      "pgbench output is incomplete: missing 'scaling factor:', 'query mode:', 'number of clients:', 'number of threads:', 'number of transactions actually processed:' lines",
    );
  });

  test("trailing blanks on a line change nothing", () => {
    expect(summary(parsePgbench(text.replace(/\n/g, "  \n"), "x.txt"))).toEqual(summary(parsePgbench(text, "x.txt")));
  });
});
