/**
 * OpenMessaging Benchmark (OMB) result file → samples (docs/samples.md).
 *
 * The file is OMB's `TestResult` written by Jackson
 * (`new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file, result)` in
 * benchmark-framework/src/main/java/io/openmessaging/benchmark/Benchmark.java), so its fields are
 * the public fields of openmessaging/benchmark
 * benchmark-framework/src/main/java/io/openmessaging/benchmark/TestResult.java (read at commit
 * 85599891321cafa2fb7065a63f009b4bb5374288), filled by WorkloadGenerator.printAndCollectStats:
 *
 * - `workload` (the workload's name), `driver` (the driver's name), `messageSize` (bytes),
 *   `topics`, `partitions` (per topic), `producersPerTopic`, `consumersPerTopic`;
 * - one entry per 10-second reporting period: `publishRate`, `consumeRate` (msg/s),
 *   `publishErrorRate` (errors/s; added by "Collect producer error stats" #317, 2022-09, absent
 *   from older results), `backlog`, and per-period latencies;
 * - whole-run latencies in ms: `aggregatedPublishLatency99pct`, `aggregatedEndToEndLatency99pct`.
 *
 * | metric                    | unit  | from                                                        |
 * |---------------------------|-------|-------------------------------------------------------------|
 * | `omb.publish.rate`        | msg/s | mean of `publishRate`                                       |
 * | `omb.consume.rate`        | msg/s | mean of `consumeRate`                                       |
 * | `omb.throughput`          | MB/s  | (publish rate + consume rate) × `messageSize` / 10^6        |
 * | `omb.publish.latency.p99` | ms    | `aggregatedPublishLatency99pct`                             |
 * | `omb.e2e.latency.p99`     | ms    | `aggregatedEndToEndLatency99pct`                            |
 * | `omb.publish.errors`      | msg/s | mean of `publishErrorRate`, when the file has the field     |
 *
 * `omb.throughput` is NetApp's "total rate": what producers wrote plus what consumers read, in
 * MB = 10^6 bytes. (OMB's own console log prints `bytes / 1024 / 1024` labelled "MB/s", i.e.
 * MiB/s; this figure is 1.048576 times that.)
 *
 * No fake zeros: OMB writes 0.0 into the aggregated fields when its histograms saw nothing, so
 * the publish p99 is emitted only when messages were published (mean publish rate > 0) and the
 * end-to-end p99 only when messages were consumed (mean consume rate > 0).
 *
 * Metadata: `tool`, `workload`, `driver`, `messageSize`, `topics`, `partitions`,
 * `producersPerTopic`, `consumersPerTopic`, `periods` (number of reporting periods averaged).
 * The result file carries no OMB version.
 */
import { ToolOutputError } from "../errors";
import type { Sample, SampleMetadata } from "../sample";
import { findJsonStart, isJsonObject, JsonFields, mean, normaliseText, parseJsonAt, requireNonEmpty } from "./common";

/** TestResult fields the parser needs; a file without them is not an OMB result. */
const REQUIRED_FIELDS = [
  "workload",
  "driver",
  "messageSize",
  "topics",
  "partitions",
  "producersPerTopic",
  "consumersPerTopic",
  "publishRate",
  "consumeRate",
  "aggregatedPublishLatency99pct",
  "aggregatedEndToEndLatency99pct",
] as const;

/**
 * Parses an OMB result JSON file into samples; throws a {@link ToolOutputError} naming `file` and
 * what is missing otherwise.
 */
export function parseOmb(text: string, file: string): Sample[] {
  const body = normaliseText(text);
  requireNonEmpty(body, file, "an OpenMessaging Benchmark result (JSON)");
  const start = findJsonStart(body, "{");
  if (start === undefined) throw new ToolOutputError(file, "not an OpenMessaging Benchmark result: no JSON object");
  const doc = parseJsonAt(body, start, file, "OMB result JSON");
  if (!isJsonObject(doc)) throw new ToolOutputError(file, "not an OpenMessaging Benchmark result: no JSON object");
  const missing = REQUIRED_FIELDS.filter((k) => !(k in doc));
  if (missing.length > 0) {
    throw new ToolOutputError(file, `not an OpenMessaging Benchmark result: missing ${missing.map((k) => `"${k}"`).join(", ")}`);
  }

  const r = new JsonFields(doc, file, "");
  const meta: SampleMetadata = {
    tool: "omb",
    workload: r.string("workload"),
    driver: r.string("driver"),
    messageSize: r.number("messageSize"),
    topics: r.number("topics"),
    partitions: r.number("partitions"),
    producersPerTopic: r.number("producersPerTopic"),
    consumersPerTopic: r.number("consumersPerTopic"),
  };
  const publishRate = r.numbers("publishRate");
  const consumeRate = r.numbers("consumeRate");
  if (publishRate.length === 0) throw new ToolOutputError(file, '"publishRate" is empty: no reporting period completed');
  if (consumeRate.length !== publishRate.length) {
    throw new ToolOutputError(file, `"consumeRate" has ${entries(consumeRate.length)}, "publishRate" has ${publishRate.length}`);
  }
  const errorRate = r.has("publishErrorRate") ? r.numbers("publishErrorRate") : undefined;
  if (errorRate !== undefined && errorRate.length !== publishRate.length) {
    throw new ToolOutputError(file, `"publishErrorRate" has ${entries(errorRate.length)}, "publishRate" has ${publishRate.length}`);
  }
  meta.periods = publishRate.length;

  const publish = mean(publishRate);
  const consume = mean(consumeRate);
  const figures: [string, number, string][] = [
    ["omb.publish.rate", publish, "msg/s"],
    ["omb.consume.rate", consume, "msg/s"],
    ["omb.throughput", ((publish + consume) * r.number("messageSize")) / 1e6, "MB/s"],
  ];
  const publishP99 = r.number("aggregatedPublishLatency99pct");
  const e2eP99 = r.number("aggregatedEndToEndLatency99pct");
  if (publish > 0) figures.push(["omb.publish.latency.p99", publishP99, "ms"]);
  if (consume > 0) figures.push(["omb.e2e.latency.p99", e2eP99, "ms"]);
  if (errorRate !== undefined) figures.push(["omb.publish.errors", mean(errorRate), "msg/s"]);
  return figures.map(([metric, value, unit]) => ({ metric, value, unit, metadata: { ...meta } }));
}

/** "1 entry", "5 entries". */
function entries(n: number): string {
  return `${n} ${n === 1 ? "entry" : "entries"}`;
}
