/**
 * OpenMessaging Benchmark's own driver and workload files, as they are in openmessaging/benchmark at
 * commit 85599891321cafa2fb7065a63f009b4bb5374288 (components/versions.ts `OMB_SOURCE`; all three
 * unchanged there since d4933541, 2022-09-15), byte for byte (Apache License 2.0, header kept): the
 * benchmark's files are these with the lab's few substitutions (files.ts). {@link UPSTREAM_SHA256}
 * holds each file's SHA-256 as read from the repository; a test recomputes it.
 */

/** `driver-kafka/kafka-sync.yaml` */
export const KAFKA_SYNC_YAML =
  '#\n# Licensed under the Apache License, Version 2.0 (the "License");\n# you may not use this file except in compliance with the License.\n# You may obtain a copy of the License at\n#\n# http://www.apache.org/licenses/LICENSE-2.0\n#\n# Unless required by applicable law or agreed to in writing, software\n# distributed under the License is distributed on an "AS IS" BASIS,\n# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n# See the License for the specific language governing permissions and\n# limitations under the License.\n#\n\n# Kafka driver profile that is configuring to sync all\n# published messages to disk to achieve durability\nname: Kafka\ndriverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver\n\n# Kafka client-specific configuration\nreplicationFactor: 3\n\ntopicConfig: |\n  min.insync.replicas=2\n  flush.messages=1\n  flush.ms=0\n\ncommonConfig: |\n  bootstrap.servers=localhost:9092\n\nproducerConfig: |\n  acks=all\n  linger.ms=1\n  batch.size=1048576\n\nconsumerConfig: |\n  auto.offset.reset=earliest\n  enable.auto.commit=false\n  max.partition.fetch.bytes=10485760';

/** `driver-kafka/kafka-throughput.yaml` */
export const KAFKA_THROUGHPUT_YAML =
  '#\n# Licensed under the Apache License, Version 2.0 (the "License");\n# you may not use this file except in compliance with the License.\n# You may obtain a copy of the License at\n#\n# http://www.apache.org/licenses/LICENSE-2.0\n#\n# Unless required by applicable law or agreed to in writing, software\n# distributed under the License is distributed on an "AS IS" BASIS,\n# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n# See the License for the specific language governing permissions and\n# limitations under the License.\n#\n\n\nname: Kafka\ndriverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver\n\n# Kafka client-specific configuration\nreplicationFactor: 3\n\ntopicConfig: |\n  min.insync.replicas=2\n\ncommonConfig: |\n  bootstrap.servers=localhost:9092\n  default.api.timeout.ms=1200000\n  request.timeout.ms=1200000\n\nproducerConfig: |\n  acks=all\n  linger.ms=1\n  batch.size=1048576\n\nconsumerConfig: |\n  auto.offset.reset=earliest\n  enable.auto.commit=false\n  max.partition.fetch.bytes=10485760\n';

/** `workloads/1-topic-100-partitions-1kb.yaml` */
export const ONE_TOPIC_1KB_YAML =
  '#\n# Licensed under the Apache License, Version 2.0 (the "License");\n# you may not use this file except in compliance with the License.\n# You may obtain a copy of the License at\n#\n# http://www.apache.org/licenses/LICENSE-2.0\n#\n# Unless required by applicable law or agreed to in writing, software\n# distributed under the License is distributed on an "AS IS" BASIS,\n# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n# See the License for the specific language governing permissions and\n# limitations under the License.\n#\n\nname: 1 producer / 1 consumers on 1 topic\n\ntopics: 1\npartitionsPerTopic: 100\nmessageSize: 1024\npayloadFile: "payload/payload-1Kb.data"\nsubscriptionsPerTopic: 1\nconsumerPerSubscription: 1\nproducersPerTopic: 1\nproducerRate: 50000\nconsumerBacklogSizeGB: 0\ntestDurationMinutes: 240\n';

/** SHA-256 of each file at that commit (`git show <commit>:<path> | sha256sum`). */
export const UPSTREAM_SHA256: Readonly<Record<string, string>> = {
  "driver-kafka/kafka-sync.yaml": "7462c3b92e8115fdda93da813eec33e98733e1a25af9f1d9ef82aae15187d9ac",
  "driver-kafka/kafka-throughput.yaml": "306e7d70520488ca91748dd13efd3884586870dccda22c3ed54d7ea6d5a23e0c",
  "workloads/1-topic-100-partitions-1kb.yaml": "23c0101cd9dae2af99dfd733cf7abd4cb26789058c0615f90e957a5561a9b492",
};
