/** Config of the `kafka` kind: types here, rules the components' (KafkaCluster, OmbBenchmark), named by the `lab:` keys typed. */
import { parseConfig } from "../../../stacks/lib/config/load";
import { checkKafka, kafkaArgs, kafkaSchema, ombArgs } from "../../../stacks/kafka/config";
import { problemsOf } from "../../helpers/config";

const base = {
  "aws:region": "us-east-1",
  "lab:kind": "kafka",
  "lab:owner": "alice",
  "lab:fsxOntapStack": "organization/storage-bench-lab/kafka-ontap",
  "lab:eksStack": "organization/storage-bench-lab/kafka-cluster",
  "lab:dataVolumes": '["/kafkafsxN1","/kafkafsxN2"]',
};
const parse = (extra: Record<string, string | undefined> = {}) => {
  const raw = Object.fromEntries(Object.entries({ ...base, ...extra }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return parseConfig("kafka", kafkaSchema, raw, checkKafka);
};
const BOOTSTRAP = "kafka-kafka-bootstrap.kafka.svc.cluster.local:9092";

describe("kafka config", () => {
  test("no defaults of its own: the components' apply", () => {
    const c = parse();
    expect(c).toEqual({
      region: "us-east-1",
      kind: "kafka",
      owner: "alice",
      ttlHours: 8,
      runId: "r1",
      fsxOntapStack: "organization/storage-bench-lab/kafka-ontap",
      eksStack: "organization/storage-bench-lab/kafka-cluster",
      dataVolumes: ["/kafkafsxN1", "/kafkafsxN2"],
    });
    expect(kafkaArgs(c)).toMatchObject({ dataVolumes: ["/kafkafsxN1", "/kafkafsxN2"], brokers: undefined, kafkaVersion: undefined });
    expect(ombArgs(c, BOOTSTRAP)).toEqual({
      runId: "r1",
      bootstrapServers: BOOTSTRAP,
      workers: undefined,
      clientNodeGroup: undefined,
      workload: undefined,
      testDurationMinutes: undefined,
      drivers: undefined,
      replicationFactors: undefined,
      reps: undefined,
      workerResources: undefined,
      workerHeapGiB: undefined,
      driverResources: undefined,
      driverHeapGiB: undefined,
    });
  });

  test("typed values from Pulumi's strings, OMB's keys mapped to its arguments", () => {
    const c = parse({
      "lab:ombWorkers": "6",
      "lab:ombWorkload": "1-topic-100-partitions-1kb",
      "lab:ombDrivers": '["kafka-throughput"]',
      "lab:replicationFactors": "[3]",
      "lab:testDurationMinutes": "15",
      "lab:brokerConfig": '{"log.retention.hours": 1}',
      "lab:brokerResources": '{"requests":{"cpu":"6","memory":"40Gi"},"limits":{"cpu":"8","memory":"40Gi"}}',
    });
    expect(ombArgs(c, BOOTSTRAP)).toMatchObject({
      workers: 6,
      workload: "1-topic-100-partitions-1kb",
      drivers: ["kafka-throughput"],
      replicationFactors: [3],
      testDurationMinutes: 15,
    });
    expect(kafkaArgs(c)).toMatchObject({
      brokerConfig: { "log.retention.hours": 1 },
      brokerResources: { requests: { cpu: "6", memory: "40Gi" }, limits: { cpu: "8", memory: "40Gi" } },
    });
  });

  test.each<[string, Record<string, string | undefined>, string[]]>([
    [
      "the data volumes are required",
      { "lab:dataVolumes": undefined },
      [
        `'lab:dataVolumes' must be a non-empty list of distinct FSx for ONTAP junction paths (e.g. ["/kafkafsxN1","/kafkafsxN2"]): every broker mounts all of them, got nothing`,
      ],
    ],
    [
      "OMB's problems carry the keys the user typed",
      { "lab:ombWorkers": "1", "lab:ombWorkload": "big", "lab:ombDrivers": '["kafka-sync","kafka-sync"]' },
      [
        "'lab:ombWorkers' must be an integer from 2 to 64 (OMB splits the workers into producers and consumers; one a node of 'lab:clientNodeGroup'), got 1",
        `'lab:ombWorkload' must be one of 1-topic-100-partitions-1kb, netapp-4-topics-32kb, got "big"`,
        `'lab:ombDrivers' must be a non-empty list of distinct drivers among kafka-sync, kafka-throughput, got ["kafka-sync","kafka-sync"]`,
      ],
    ],
    [
      "a replication factor above the brokers",
      { "lab:brokers": "3", "lab:replicationFactors": "[1,5]" },
      ["'lab:replicationFactors[1]' must be at most 'lab:brokers' (3): a topic has at most one replica a broker, got 5"],
    ],
    [
      "clients on the brokers' group",
      { "lab:clientNodeGroup": "brokers" },
      [
        `'lab:clientNodeGroup' must be a node group other than 'lab:brokerNodeGroup' and 'lab:controllerNodeGroup': brokers and clients never share a node, got "brokers"`,
      ],
    ],
    [
      "an unpinned OMB image",
      { "lab:ombImage": "openmessaging/openmessaging-benchmark:latest" },
      [
        `'lab:ombImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest of an OpenMessaging Benchmark image (built from docker/Dockerfile.build), got "openmessaging/openmessaging-benchmark:latest"`,
      ],
    ],
    [
      "Kafka's own rules, with the keys typed",
      { "lab:kafkaVersion": "3.9.0", "lab:controllers": "2", "lab:brokerHeapGiB": "30" },
      [
        `'lab:kafkaVersion' must be one of 4.3.0, 4.3.1 (Kafka 4.3.x, run by Strimzi 1.2.0), got "3.9.0"`,
        "'lab:controllers' must be 1, 3 or 5 (a KRaft quorum of an odd number of controllers), got 2",
        "'lab:brokerHeapGiB' must be at most half of 'lab:brokerResources'.limits.memory (48Gi): the rest is the page cache and the JVM's off-heap memory, got 30",
      ],
    ],
    [
      "a type error is the field's own",
      { "lab:replicationFactors": '["one"]' },
      [`'lab:replicationFactors[0]' must be a whole number, got "one"`],
    ],
  ])("%s", (_n, extra, expected) => {
    expect(problemsOf(() => parse(extra))).toEqual(expected);
  });
});
