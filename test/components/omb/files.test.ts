/**
 * The files `bin/benchmark` gets (components/omb/files.ts): OMB's own driver and workload files,
 * byte for byte, with exactly the lab's substitutions. Whole files compared.
 */
import { createHash } from "node:crypto";
import YAML from "yaml";
import { driverFile, replaceLine, workloadFile, workloadPayload } from "../../../components/omb/files";
import { KAFKA_SYNC_YAML, KAFKA_THROUGHPUT_YAML, ONE_TOPIC_1KB_YAML, UPSTREAM_SHA256 } from "../../../components/omb/upstream";

const BOOTSTRAP = "kafka-kafka-bootstrap.kafka.svc.cluster.local:9092";

/** The Apache License header every one of the three upstream files starts with. */
const HEADER = `#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
# http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
`;

describe("OMB's own files", () => {
  test("the stored texts hash to what openmessaging/benchmark@85599891 holds", () => {
    const sha = (t: string) => createHash("sha256").update(t).digest("hex");
    expect({
      "driver-kafka/kafka-sync.yaml": sha(KAFKA_SYNC_YAML),
      "driver-kafka/kafka-throughput.yaml": sha(KAFKA_THROUGHPUT_YAML),
      "workloads/1-topic-100-partitions-1kb.yaml": sha(ONE_TOPIC_1KB_YAML),
    }).toEqual(UPSTREAM_SHA256);
    expect(UPSTREAM_SHA256).toEqual({
      "driver-kafka/kafka-sync.yaml": "7462c3b92e8115fdda93da813eec33e98733e1a25af9f1d9ef82aae15187d9ac",
      "driver-kafka/kafka-throughput.yaml": "306e7d70520488ca91748dd13efd3884586870dccda22c3ed54d7ea6d5a23e0c",
      "workloads/1-topic-100-partitions-1kb.yaml": "23c0101cd9dae2af99dfd733cf7abd4cb26789058c0615f90e957a5561a9b492",
    });
  });
});

describe("driver files", () => {
  test("kafka-sync at RF 1: upstream's, with the bootstrap service, replicationFactor 1 and min.insync.replicas 1", () => {
    expect(driverFile("kafka-sync", 1, BOOTSTRAP)).toBe(
      HEADER +
        `
# Kafka driver profile that is configuring to sync all
# published messages to disk to achieve durability
name: Kafka
driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver

# Kafka client-specific configuration
replicationFactor: 1

topicConfig: |
  min.insync.replicas=1
  flush.messages=1
  flush.ms=0

commonConfig: |
  bootstrap.servers=kafka-kafka-bootstrap.kafka.svc.cluster.local:9092

producerConfig: |
  acks=all
  linger.ms=1
  batch.size=1048576

consumerConfig: |
  auto.offset.reset=earliest
  enable.auto.commit=false
  max.partition.fetch.bytes=10485760`,
    );
  });

  test("kafka-sync at RF 3 differs from upstream in the bootstrap line only", () => {
    expect(driverFile("kafka-sync", 3, BOOTSTRAP)).toBe(
      KAFKA_SYNC_YAML.replace("  bootstrap.servers=localhost:9092", `  bootstrap.servers=${BOOTSTRAP}`),
    );
  });

  test("kafka-throughput at RF 3: upstream's, with the bootstrap service (its timeouts kept)", () => {
    expect(driverFile("kafka-throughput", 3, BOOTSTRAP)).toBe(
      HEADER +
        `

name: Kafka
driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver

# Kafka client-specific configuration
replicationFactor: 3

topicConfig: |
  min.insync.replicas=2

commonConfig: |
  bootstrap.servers=kafka-kafka-bootstrap.kafka.svc.cluster.local:9092
  default.api.timeout.ms=1200000
  request.timeout.ms=1200000

producerConfig: |
  acks=all
  linger.ms=1
  batch.size=1048576

consumerConfig: |
  auto.offset.reset=earliest
  enable.auto.commit=false
  max.partition.fetch.bytes=10485760
`,
    );
  });

  test("kafka-throughput at RF 1: replicationFactor 1, min.insync.replicas 1, nothing else changed", () => {
    const rf1 = driverFile("kafka-throughput", 1, BOOTSTRAP).split("\n");
    const rf3 = driverFile("kafka-throughput", 3, BOOTSTRAP).split("\n");
    expect(rf1.flatMap((l, i) => (l === rf3[i] ? [] : [[rf3[i], l]]))).toEqual([
      ["replicationFactor: 3", "replicationFactor: 1"],
      ["  min.insync.replicas=2", "  min.insync.replicas=1"],
    ]);
  });
});

describe("workloads", () => {
  test("upstream's 1-topic-100-partitions-1kb as it is (240 minutes), or with the configured duration", () => {
    expect(workloadFile("1-topic-100-partitions-1kb", 240)).toBe(ONE_TOPIC_1KB_YAML);
    expect(workloadFile("1-topic-100-partitions-1kb", 15)).toBe(
      HEADER +
        `
name: 1 producer / 1 consumers on 1 topic

topics: 1
partitionsPerTopic: 100
messageSize: 1024
payloadFile: "payload/payload-1Kb.data"
subscriptionsPerTopic: 1
consumerPerSubscription: 1
producersPerTopic: 1
producerRate: 50000
consumerBacklogSizeGB: 0
testDurationMinutes: 15
`,
    );
  });

  test("NetApp's: 4 topics, 32 KiB half-random payloads, 40 producers and 80 consumers per topic, 1 000 000 msg/s, 5 minutes", () => {
    const file = workloadFile("netapp-4-topics-32kb", 5);
    expect(file).toBe(
      HEADER +
        `
name: netapp-4-topics-32kb

topics: 4
partitionsPerTopic: 100
messageSize: 32768
useRandomizedPayloads: true
randomBytesRatio: 0.5
randomizedPayloadPoolSize: 100
subscriptionsPerTopic: 1
consumerPerSubscription: 80
producersPerTopic: 40
producerRate: 1000000
consumerBacklogSizeGB: 0
testDurationMinutes: 5
`,
    );
    // The block NetApp prints ("OpenMessage Benchmarking configurations", NetAppDocs/netapp-solutions at 061dd533,
    // data-analytics/kafka-nfs-performance-overview-and-validation-in-aws.adoc), key for key: the lab's file is it plus a name.
    const published = {
      topics: 4,
      partitionsPerTopic: 100,
      messageSize: 32768,
      useRandomizedPayloads: true,
      randomBytesRatio: 0.5,
      randomizedPayloadPoolSize: 100,
      subscriptionsPerTopic: 1,
      consumerPerSubscription: 80,
      producersPerTopic: 40,
      producerRate: 1000000,
      consumerBacklogSizeGB: 0,
      testDurationMinutes: 5,
    };
    expect(YAML.parse(file)).toEqual({ name: "netapp-4-topics-32kb", ...published });
  });

  test("a substitution whose line is not there exactly once is an error, never a silent no-op", () => {
    expect(() => replaceLine("a\nb\n", "c", "d")).toThrow('OMB file: expected the line "c" once, found it 0 times');
    expect(() => replaceLine("a\na\n", "a", "d")).toThrow('OMB file: expected the line "a" once, found it 2 times');
    expect(replaceLine("a\nb\n", "b", "c")).toBe("a\nc\n");
  });
});

describe("workloadPayload: what the messages hold, read from the rendered file", () => {
  test("NetApp's randomized payloads; upstream's payload file", () => {
    expect(workloadPayload("netapp-4-topics-32kb")).toBe("randomized: 0.5 random bytes, 100 payloads");
    expect(workloadPayload("1-topic-100-partitions-1kb")).toBe("file payload/payload-1Kb.data");
  });
});
