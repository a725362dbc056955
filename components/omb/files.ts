/**
 * The files a driver Job hands `bin/benchmark` (pure): OMB's own driver and workload files
 * (upstream.ts, byte for byte) with the lab's substitutions, each replacing one whole line that must
 * be there exactly once (a changed upstream file fails loudly instead of running something else).
 *
 * Driver files (driver-kafka/kafka-sync.yaml, kafka-throughput.yaml):
 * - `bootstrap.servers=localhost:9092` → the Kafka cluster's bootstrap service;
 * - `replicationFactor: 3` → the matrix cell's replication factor;
 * - `min.insync.replicas=2` → the smaller of 2 and the replication factor. Kafka refuses an `acks=all`
 *   write when a partition has fewer in-sync replicas than `min.insync.replicas` (apache/kafka
 *   clients/…/common/config/TopicConfig.java `MIN_IN_SYNC_REPLICAS_DOC`: "If this minimum cannot be
 *   met, then the producer will raise an exception (either NotEnoughReplicas or
 *   NotEnoughReplicasAfterAppend)"; KIP-579: with min.insync.replicas > replication.factor "produce
 *   with acks=all fails with NotEnoughReplicaException"), and an RF 1 topic has one replica: with
 *   upstream's 2 every RF 1 write would fail. RF 3 keeps upstream's 2.
 *
 * Workloads:
 * - `1-topic-100-partitions-1kb`: upstream's file, its `testDurationMinutes` the configured one;
 * - `netapp-4-topics-32kb`: NetApp's edit of it, as its Cloud Volumes ONTAP page prints the block
 *   ("OpenMessage Benchmarking configurations", NetAppDocs/netapp-solutions at 061dd533,
 *   data-analytics/kafka-nfs-performance-overview-and-validation-in-aws.adoc), which its FSx page
 *   reuses ("We used the same configuration used for the NetApp Cloud volumes ONTAP"): topics 4,
 *   messageSize 32768, `useRandomizedPayloads: true`, `randomBytesRatio: 0.5`,
 *   `randomizedPayloadPoolSize: 100` (no payload file), producersPerTopic 40,
 *   consumerPerSubscription 80, producerRate 1000000, testDurationMinutes 5; named after the option.
 *   OMB then builds 100 payloads, each 16 KiB of random bytes and 16 KiB of zeros
 *   (benchmark-framework/…/WorkloadGenerator.java:105-117 at the pinned commit, from an unseeded
 *   Random: other bytes each run; each message one of them picked at random, LocalWorker.java:209): half-compressible
 *   data like NetApp's runs wrote (a payload repeated would compress much further on volumes with
 *   storage efficiency). (The page's prose says "we
 *   used 3K"; the block it prints says 32768, which the lab runs: docs/experiments.md.)
 */
import YAML from "yaml";
import { KAFKA_SYNC_YAML, KAFKA_THROUGHPUT_YAML, ONE_TOPIC_1KB_YAML } from "./upstream";
import type { OmbDriver, OmbWorkload } from "./rules";

/** Where the driver Job keeps its files (an emptyDir). */
export const WORK_DIR = "/work";

/** `text` with the one line `from` replaced by `to`; an error unless `from` is there exactly once. */
export function replaceLine(text: string, from: string, to: string): string {
  const lines = text.split("\n");
  const at = lines.flatMap((l, i) => (l === from ? [i] : []));
  if (at.length !== 1) throw new Error(`OMB file: expected the line ${JSON.stringify(from)} once, found it ${at.length} times`);
  lines[at[0]] = to;
  return lines.join("\n");
}

const UPSTREAM_DRIVERS: Readonly<Record<OmbDriver, string>> = {
  "kafka-sync": KAFKA_SYNC_YAML,
  "kafka-throughput": KAFKA_THROUGHPUT_YAML,
};

/** The driver file of one matrix cell. */
export function driverFile(driver: OmbDriver, replicationFactor: number, bootstrapServers: string): string {
  let t = UPSTREAM_DRIVERS[driver];
  t = replaceLine(t, "replicationFactor: 3", `replicationFactor: ${replicationFactor}`);
  t = replaceLine(t, "  min.insync.replicas=2", `  min.insync.replicas=${Math.min(2, replicationFactor)}`);
  t = replaceLine(t, "  bootstrap.servers=localhost:9092", `  bootstrap.servers=${bootstrapServers}`);
  return t;
}

/** The workload file of a named workload, with its test duration. */
export function workloadFile(workload: OmbWorkload, testDurationMinutes: number): string {
  let t = replaceLine(ONE_TOPIC_1KB_YAML, "testDurationMinutes: 240", `testDurationMinutes: ${testDurationMinutes}`);
  if (workload === "netapp-4-topics-32kb") {
    t = replaceLine(t, "name: 1 producer / 1 consumers on 1 topic", "name: netapp-4-topics-32kb");
    t = replaceLine(t, "topics: 1", "topics: 4");
    t = replaceLine(t, "messageSize: 1024", "messageSize: 32768");
    t = replaceLine(
      t,
      'payloadFile: "payload/payload-1Kb.data"',
      "useRandomizedPayloads: true\nrandomBytesRatio: 0.5\nrandomizedPayloadPoolSize: 100",
    );
    t = replaceLine(t, "producersPerTopic: 1", "producersPerTopic: 40");
    t = replaceLine(t, "consumerPerSubscription: 1", "consumerPerSubscription: 80");
    t = replaceLine(t, "producerRate: 50000", "producerRate: 1000000");
  }
  return t;
}

/**
 * What a workload's messages hold, read from its rendered file, for the samples (`ombPayload`): OMB's
 * randomized payloads (`randomized: 0.5 random bytes, 100 payloads`) or the payload file it names
 * (`file payload/payload-1Kb.data`). ONTAP's storage efficiency compresses the two differently, so
 * rows of different payloads are never pooled.
 */
export function workloadPayload(workload: OmbWorkload, testDurationMinutes = 1): string {
  const w = YAML.parse(workloadFile(workload, testDurationMinutes)) as Record<string, unknown>;
  return w.useRandomizedPayloads === true
    ? `randomized: ${String(w.randomBytesRatio)} random bytes, ${String(w.randomizedPayloadPoolSize)} payloads`
    : `file ${String(w.payloadFile)}`;
}

/** The ConfigMap key of a cell's driver file. */
export function driverFileName(cell: { name: string }): string {
  return `driver-${cell.name}.yaml`;
}
export const WORKLOAD_FILE_NAME = "workload.yaml";
