/**
 * OMB parser against result files written by OMB's own TestResult class and Jackson writer
 * (test/fixtures/omb, how in test/fixtures/README.md). Rates are round numbers so every mean
 * below can be checked by hand.
 */
import { parseOmb } from "../../../core/parsers/omb";
import { expectToolOutputError, fixture, summary } from "./helpers";

const THROUGHPUT_META = {
  tool: "omb",
  workload: "1000k rate 4 producers and 4 consumers on 1 topic / 100 partition",
  driver: "Kafka",
  messageSize: 1024,
  topics: 1,
  partitions: 100,
  producersPerTopic: 4,
  consumersPerTopic: 4,
  periods: 6,
};

describe("parseOmb", () => {
  test("current TestResult: rates are means of the periods, throughput is (publish + consume) × messageSize / 1e6", () => {
    const samples = parseOmb(fixture("omb", "kafka-throughput-1kb.json"), "kafka-throughput-1kb.json");
    expect(summary(samples)).toEqual([
      // (999000 + 1001000 + 1000500 + 999500 + 1000250 + 999750) / 6
      "omb.publish.rate 1000000 msg/s",
      // (998000 + 1002000 + 1000000 + 1000000 + 999000 + 1001000) / 6
      "omb.consume.rate 1000000 msg/s",
      // (1000000 + 1000000) × 1024 / 1e6
      "omb.throughput 2048 MB/s",
      "omb.publish.latency.p99 12.543 ms", // aggregatedPublishLatency99pct
      "omb.e2e.latency.p99 45.055 ms", // aggregatedEndToEndLatency99pct
      // (0 + 0.5 + 0 + 0.25 + 0.25 + 0.5) / 6
      "omb.publish.errors 0.25 msg/s",
    ]);
    for (const s of samples) expect(s.metadata).toEqual(THROUGHPUT_META);
  });

  test("result from before publishErrorRate existed (2022-09): no omb.publish.errors", () => {
    const samples = parseOmb(fixture("omb", "kafka-sync-1kb-legacy.json"), "kafka-sync-1kb-legacy.json");
    expect(summary(samples)).toEqual([
      "omb.publish.rate 200000 msg/s", // (200000 + 199000 + 201000) / 3
      "omb.consume.rate 200000 msg/s", // (199500 + 199500 + 201000) / 3
      "omb.throughput 409.6 MB/s", // 400000 × 1024 / 1e6
      "omb.publish.latency.p99 7.125 ms",
      "omb.e2e.latency.p99 18.25 ms",
    ]);
    expect(samples[0].metadata).toMatchObject({ workload: "200k rate 4 producers and 4 consumers on 1 topic / 100 partition", periods: 3 });
  });

  test("nothing consumed: no end-to-end p99 (OMB writes 0.0 for an empty histogram)", () => {
    const doc = JSON.parse(fixture("omb", "kafka-throughput-1kb.json"));
    doc.consumeRate = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    doc.aggregatedEndToEndLatency99pct = 0.0;
    expect(summary(parseOmb(JSON.stringify(doc), "x.json"))).toEqual([
      "omb.publish.rate 1000000 msg/s",
      "omb.consume.rate 0 msg/s",
      "omb.throughput 1024 MB/s",
      "omb.publish.latency.p99 12.543 ms",
      "omb.publish.errors 0.25 msg/s",
    ]);
  });

  test("nothing published: no publish p99", () => {
    const doc = JSON.parse(fixture("omb", "kafka-sync-1kb-legacy.json"));
    doc.publishRate = [0.0, 0.0, 0.0];
    doc.consumeRate = [0.0, 0.0, 0.0];
    expect(summary(parseOmb(JSON.stringify(doc), "x.json"))).toEqual([
      "omb.publish.rate 0 msg/s",
      "omb.consume.rate 0 msg/s",
      "omb.throughput 0 MB/s",
    ]);
  });
});

describe("parseOmb: errors name the file and what is missing", () => {
  test("empty file", () => {
    expectToolOutputError(() => parseOmb("", "empty.json"), "empty.json", "is empty; expected an OpenMessaging Benchmark result (JSON)");
  });

  test("JSON cut in the middle", () => {
    const text = fixture("omb", "kafka-throughput-1kb.json");
    expectToolOutputError(
      () => parseOmb(text.slice(0, 1000), "cut.json"),
      "cut.json",
      "OMB result JSON is truncated: the object opened on line 1 is never closed",
    );
  });

  test("two results in one file", () => {
    const text = fixture("omb", "kafka-sync-1kb-legacy.json");
    expectToolOutputError(
      () => parseOmb(`${text}\n${text}`, "two.json"),
      "two.json",
      "holds more than one OMB result JSON document (another starts on line 72); give one run a file",
    );
  });

  test("missing fields are listed together", () => {
    const doc = JSON.parse(fixture("omb", "kafka-throughput-1kb.json"));
    delete doc.aggregatedEndToEndLatency99pct;
    delete doc.messageSize;
    expectToolOutputError(
      () => parseOmb(JSON.stringify(doc), "partial.json"),
      "partial.json",
      'not an OpenMessaging Benchmark result: missing "messageSize", "aggregatedEndToEndLatency99pct"',
    );
  });

  test("no reporting period, periods that do not line up, a non-number rate", () => {
    const empty = JSON.parse(fixture("omb", "kafka-throughput-1kb.json"));
    empty.publishRate = [];
    expectToolOutputError(
      () => parseOmb(JSON.stringify(empty), "a.json"),
      "a.json",
      '"publishRate" is empty: no reporting period completed',
    );

    const short = JSON.parse(fixture("omb", "kafka-throughput-1kb.json"));
    short.consumeRate.pop();
    expectToolOutputError(() => parseOmb(JSON.stringify(short), "b.json"), "b.json", '"consumeRate" has 5 entries, "publishRate" has 6');

    const errors = JSON.parse(fixture("omb", "kafka-throughput-1kb.json"));
    errors.publishErrorRate = [0.0];
    expectToolOutputError(
      () => parseOmb(JSON.stringify(errors), "c.json"),
      "c.json",
      '"publishErrorRate" has 1 entry, "publishRate" has 6',
    );

    const typed = JSON.parse(fixture("omb", "kafka-throughput-1kb.json"));
    typed.publishRate[2] = "x";
    expectToolOutputError(() => parseOmb(JSON.stringify(typed), "d.json"), "d.json", '"publishRate[2]" must be a number, got "x"');

    const name = JSON.parse(fixture("omb", "kafka-throughput-1kb.json"));
    name.driver = null;
    expectToolOutputError(() => parseOmb(JSON.stringify(name), "e.json"), "e.json", '"driver" must be a string, got null');
  });

  test("another tool's file", () => {
    expectToolOutputError(
      () => parseOmb(fixture("fio", "seed-gtod-reduce.json"), "fio.json"),
      "fio.json",
      'not an OpenMessaging Benchmark result: missing "workload", "driver", "messageSize", "topics", "partitions", ' +
        '"producersPerTopic", "consumersPerTopic", "publishRate", "consumeRate", "aggregatedPublishLatency99pct", ' +
        '"aggregatedEndToEndLatency99pct"',
    );
    expectToolOutputError(
      () => parseOmb(fixture("pgbench", "tpcb-15.txt"), "pgbench.txt"),
      "pgbench.txt",
      "not an OpenMessaging Benchmark result: no JSON object",
    );
    expectToolOutputError(
      () => parseOmb(fixture("ioping", "ioping-J.json"), "ioping.json"),
      "ioping.json",
      "not an OpenMessaging Benchmark result: no JSON object",
    );
  });
});
