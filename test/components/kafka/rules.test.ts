/** The Kafka cluster's rules and defaults (components/kafka/rules.ts): exact values, exact messages, Strimzi's own lists. */
import { formatArgProblem } from "../../../core/errors";
import {
  BROKER_POOL,
  CONTROLLER_POOL,
  FORBIDDEN_CONFIG_EXCEPTIONS,
  FORBIDDEN_CONFIG_PREFIXES,
  gibQuantity,
  isForbiddenConfig,
  KAFKA_DEFAULTS,
  KAFKA_GID,
  KAFKA_UID,
  memoryBytes,
  NFS_MOUNT_OPTIONS,
  problems,
  PUBLISHED_BROKER_CONFIG,
  RACK_TOPOLOGY_KEY,
  REPLICATION_CONFIG,
  resolve,
  STRIMZI_KAFKA_VERSIONS,
} from "../../../components/kafka/rules";
import { fitsBrokerSetting, KAFKA_BROKER_SETTINGS } from "../../../components/kafka/broker-settings";
import { KAFKA_METADATA_VERSION, KAFKA_VERSION, STRIMZI_KAFKA_IMAGE } from "../../../components/versions";

const VOLUMES = ["/kafkafsxN1", "/kafkafsxN2", "/kafkafsxN3", "/kafkafsxN4", "/kafkafsxN5", "/kafkafsxN6"];
const base = { dataVolumes: VOLUMES };
const lines = (spec: Parameters<typeof problems>[0]) => problems(spec).map((p) => formatArgProblem(p));

describe("published facts and Strimzi's", () => {
  test("NetApp's broker settings, exactly (facts file, 'Broker settings')", () => {
    expect(PUBLISHED_BROKER_CONFIG).toEqual({
      "num.network.threads": 64,
      "num.io.threads": 64,
      "num.replica.fetchers": 20,
      "replica.fetch.max.bytes": 524288000,
      "background.threads": 20,
      "num.replica.alter.log.dirs.threads": 40,
      "socket.request.max.bytes": 104857600,
    });
    // None of them is an option Strimzi sets itself.
    for (const k of Object.keys(PUBLISHED_BROKER_CONFIG)) expect(isForbiddenConfig(k)).toBe(false);
  });

  test("Strimzi's example replication settings (kafka-persistent.yaml at 1.2.0)", () => {
    expect(REPLICATION_CONFIG).toEqual({
      "offsets.topic.replication.factor": 3,
      "transaction.state.log.replication.factor": 3,
      "transaction.state.log.min.isr": 2,
      "default.replication.factor": 3,
      "min.insync.replicas": 2,
    });
  });

  test("the forbidden prefixes and exceptions are KafkaClusterSpec's at 1.2.0, character for character", () => {
    // KafkaClusterSpec.FORBIDDEN_PREFIXES and FORBIDDEN_PREFIX_EXCEPTIONS, as the Java source joins them.
    expect(FORBIDDEN_CONFIG_PREFIXES.join(", ")).toBe(
      "listeners, advertised., broker., listener., host.name, port, " +
        "inter.broker.listener.name, sasl., ssl., security., password., log.dir, " +
        "zookeeper.connect, zookeeper.set.acl, zookeeper.ssl, zookeeper.clientCnxnSocket, authorizer., super.user, " +
        "cruise.control.metrics.topic, cruise.control.metrics.reporter.bootstrap.servers, " +
        "node.id, process.roles, controller., metadata.log.dir, zookeeper.metadata.migration.enable, " +
        "client.quota.callback.static.kafka.admin., client.quota.callback.static.produce, client.quota.callback.static.fetch, " +
        "client.quota.callback.static.storage.per.volume.limit.min.available., client.quota.callback.static.excluded.principal.name.list, " +
        "prometheus.metrics.reporter., cordoned.log.dirs",
    );
    expect(FORBIDDEN_CONFIG_EXCEPTIONS.join(", ")).toBe(
      "zookeeper.connection.timeout.ms, sasl.server.max.receive.size, " +
        "ssl.cipher.suites, ssl.protocol, ssl.enabled.protocols, ssl.secure.random.implementation, " +
        "cruise.control.metrics.topic.num.partitions, cruise.control.metrics.topic.replication.factor, cruise.control.metrics.topic.retention.ms, " +
        "cruise.control.metrics.topic.auto.create.retries, cruise.control.metrics.topic.auto.create.timeout.ms, " +
        "cruise.control.metrics.topic.min.insync.replicas, " +
        "broker.session.timeout.ms, broker.heartbeat.interval.ms, controller.socket.timeout.ms, " +
        "controller.quorum.election.backoff.max.ms, controller.quorum.election.timeout.ms, controller.quorum.fetch.timeout.ms",
    );
    expect(isForbiddenConfig("log.dirs")).toBe(true);
    expect(isForbiddenConfig("controller.quorum.voters")).toBe(true);
    expect(isForbiddenConfig("controller.quorum.fetch.timeout.ms")).toBe(false);
    expect(isForbiddenConfig("log.retention.hours")).toBe(false);
  });

  test("pins and service facts: Kafka 4.3.1 / 4.3-IV0, Strimzi's image, NFSv4.1 + nconnect=16, rack = zone, user 1001:0", () => {
    expect([KAFKA_VERSION, KAFKA_METADATA_VERSION, STRIMZI_KAFKA_IMAGE]).toEqual([
      "4.3.1",
      "4.3-IV0",
      "quay.io/strimzi/kafka:1.2.0-kafka-4.3.1",
    ]);
    expect(STRIMZI_KAFKA_VERSIONS).toEqual(["4.3.0", "4.3.1"]);
    expect(NFS_MOUNT_OPTIONS).toEqual(["nfsvers=4.1", "nconnect=16"]);
    expect(RACK_TOPOLOGY_KEY).toBe("topology.kubernetes.io/zone");
    expect([KAFKA_UID, KAFKA_GID]).toEqual([1001, 0]);
  });
});

describe("defaults", () => {
  test("the table, resolved: 3 brokers (IDs 0–2), 3 controllers (100–102), the published settings under the replication defaults", () => {
    expect(KAFKA_DEFAULTS).toEqual({
      clusterName: "kafka",
      namespace: "kafka",
      kafkaVersion: "4.3.1",
      brokers: 3,
      controllers: 3,
      brokerVolumeGiB: 2048,
      controllerVolumeGiB: 20,
      controllerStorageClass: "gp3",
      brokerNodeGroup: "brokers",
      controllerNodeGroup: "system",
      brokerResources: { requests: { cpu: "7", memory: "48Gi" }, limits: { cpu: "8", memory: "48Gi" } },
      brokerHeapGiB: 6,
      controllerResources: { requests: { cpu: "500m", memory: "2Gi" }, limits: { cpu: "1", memory: "2Gi" } },
      controllerHeapGiB: 1,
      brokerConfig: {},
    });
    const r = resolve({ ...base, brokerConfig: { "log.retention.hours": 1, "num.io.threads": 32 } });
    expect([r.brokerPool, r.controllerPool, BROKER_POOL, CONTROLLER_POOL]).toEqual(["brokers", "controllers", "brokers", "controllers"]);
    expect(r.brokerIds).toEqual([0, 1, 2]);
    expect(r.controllerIds).toEqual([100, 101, 102]);
    expect(r.config).toEqual({ ...PUBLISHED_BROKER_CONFIG, ...REPLICATION_CONFIG, "log.retention.hours": 1, "num.io.threads": 32 });
    expect(r.dataVolumes).toEqual(VOLUMES);
  });

  test("the defaults satisfy the rules (heap at most half the memory limit)", () => {
    expect(problems(base)).toEqual([]);
  });

  test("quantities: bytes of memory quantities; GiB as the API server writes them back", () => {
    expect([memoryBytes("48Gi"), memoryBytes("2G"), memoryBytes("512Mi"), memoryBytes("1.5Ki"), memoryBytes("4x")]).toEqual([
      48 * 2 ** 30,
      2e9,
      512 * 2 ** 20,
      1536,
      undefined,
    ]);
    expect([gibQuantity(2048), gibQuantity(20), gibQuantity(1536), gibQuantity(1024)]).toEqual(["2Ti", "20Gi", "1536Gi", "1Ti"]);
  });
});

describe("rules", () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    [
      "data volumes: required, junction paths, distinct",
      { dataVolumes: undefined },
      [
        `'dataVolumes' must be a non-empty list of distinct FSx for ONTAP junction paths (e.g. ["/kafkafsxN1","/kafkafsxN2"]): every broker mounts all of them, got nothing`,
      ],
    ],
    [
      "a relative path and a repeated one",
      { dataVolumes: ["/kafkafsxN1", "kafkafsxN2", "/kafkafsxN1"] },
      [
        `'dataVolumes' must be a non-empty list of distinct FSx for ONTAP junction paths (e.g. ["/kafkafsxN1","/kafkafsxN2"]): every broker mounts all of them, got ["/kafkafsxN1","kafkafsxN2","/kafkafsxN1"]`,
      ],
    ],
    [
      "Kafka 4.2 is not the 4.3 line the experiment runs",
      { kafkaVersion: "4.2.1" },
      [`'kafkaVersion' must be one of 4.3.0, 4.3.1 (Kafka 4.3.x, run by Strimzi 1.2.0), got "4.2.1"`],
    ],
    ["an even quorum", { controllers: 2 }, ["'controllers' must be 1, 3 or 5 (a KRaft quorum of an odd number of controllers), got 2"]],
    ["no brokers", { brokers: 0 }, ["'brokers' must be an integer from 1 to 30 (brokers, one a node of 'brokerNodeGroup'), got 0"]],
    [
      "two brokers: the lab's internal-topic factors (3) are defaults checked like values",
      { brokers: 2 },
      [
        "'brokers' must be at least 3, the lab's offsets.topic.replication.factor (or set offsets.topic.replication.factor in 'brokerConfig'), got 2",
        "'brokers' must be at least 3, the lab's transaction.state.log.replication.factor (or set transaction.state.log.replication.factor in 'brokerConfig'), got 2",
        "'brokers' must be at least 3, the lab's default.replication.factor (or set default.replication.factor in 'brokerConfig'), got 2",
      ],
    ],
    [
      "one broker with the factors set to 1 fits; a minimum in-sync count above its factor never does",
      {
        brokers: 1,
        brokerConfig: {
          "offsets.topic.replication.factor": 1,
          "transaction.state.log.replication.factor": 1,
          "default.replication.factor": 1,
          "transaction.state.log.min.isr": 1,
        },
      },
      [
        `'brokerConfig["default.replication.factor"]' must be at least the lab's min.insync.replicas (2), or set min.insync.replicas lower in 'brokerConfig', got 1`,
      ],
    ],
    [
      "given factors above the brokers, a minimum above its factor, a factor that is no number",
      {
        brokers: 3,
        brokerConfig: { "offsets.topic.replication.factor": 4, "min.insync.replicas": 4, "default.replication.factor": "three" },
      },
      [
        `'brokerConfig["offsets.topic.replication.factor"]' must be at most 'brokers' (3): Kafka refuses a replication factor above the broker count, got 4`,
        `'brokerConfig["default.replication.factor"]' must be a whole number from 1 to 30 (a replication factor), got "three"`,
      ],
    ],
    [
      "a cluster name too long for its pods' and claims' names",
      { clusterName: "k".repeat(41) },
      [
        `'clusterName' must be an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit, at most 40 characters, got "${"k".repeat(41)}"`,
      ],
    ],
    [
      "a cluster name starting with a digit: its bootstrap Service name would not be an RFC 1035 label",
      { clusterName: "3kafka" },
      [
        `'clusterName' must be a name starting with a letter: Strimzi's Services are <cluster>-kafka-bootstrap, and a Service name is an RFC 1035 label, got "3kafka"`,
      ],
    ],
    [
      "controllers and brokers on one group",
      { controllerNodeGroup: "brokers" },
      [`'controllerNodeGroup' must be another node group than 'brokerNodeGroup', got "brokers"`],
    ],
    [
      "a heap above half the memory limit",
      { brokerHeapGiB: 25 },
      [
        "'brokerHeapGiB' must be at most half of 'brokerResources'.limits.memory (48Gi): the rest is the page cache and the JVM's off-heap memory, got 25",
      ],
    ],
    [
      "the heap is checked against the given limit",
      { controllerResources: { requests: { cpu: "500m", memory: "4Gi" }, limits: { cpu: "1", memory: "4Gi" } }, controllerHeapGiB: 2 },
      [],
    ],
    [
      "limits below requests, bad quantities",
      {
        brokerResources: { requests: { cpu: "8", memory: "48Gi" }, limits: { cpu: "7", memory: "40Gi" } },
        controllerResources: { requests: { cpu: "x", memory: "2Gi" }, limits: { cpu: "1" } },
      },
      [
        "'brokerResources.limits.cpu' must be at least the request (8), got \"7\"",
        "'brokerResources.limits.memory' must be at least the request (48Gi), got \"40Gi\"",
        `'controllerResources.requests.cpu' must be a Kubernetes CPU quantity (e.g. "1" or "500m"), got "x"`,
        `'controllerResources.limits.memory' must be a Kubernetes memory quantity (e.g. "4Gi"), got nothing`,
      ],
    ],
    [
      "settings Strimzi sets itself",
      { brokerConfig: { "log.dirs": "/data", listeners: "PLAINTEXT://:9092", "log.retention.hours": [1] } },
      [
        `'brokerConfig["log.dirs"]' must be a setting Strimzi lets the user set (it sets listeners, log.dirs, node.id, controller.* … itself), got "/data"`,
        `'brokerConfig["listeners"]' must be a setting Strimzi lets the user set (it sets listeners, log.dirs, node.id, controller.* … itself), got "PLAINTEXT://:9092"`,
        `'brokerConfig["log.retention.hours"]' must be a string, number or boolean, got [1]`,
      ],
    ],
  ])("%s", (_n, extra, expected) => {
    expect(lines({ ...base, ...extra } as Parameters<typeof problems>[0])).toEqual(expected);
  });
});

describe("brokerConfig: each key against Kafka's type and range (components/kafka/broker-settings.ts)", () => {
  const problemsOf = (brokerConfig: Record<string, unknown>) => lines({ ...base, brokerConfig } as Parameters<typeof problems>[0]);

  test("the published tuning and Strimzi's replication settings are known keys whose values fit", () => {
    for (const [k, v] of Object.entries({ ...PUBLISHED_BROKER_CONFIG, ...REPLICATION_CONFIG })) {
      expect([k, KAFKA_BROKER_SETTINGS[k] !== undefined && fitsBrokerSetting(KAFKA_BROKER_SETTINGS[k], v)]).toEqual([k, true]);
    }
    expect(problemsOf({ ...PUBLISHED_BROKER_CONFIG })).toEqual([]);
  });

  test("a value Kafka would not parse, one below its atLeast, one past Java's int, an unknown value of an enum, a boolean as text: each named with its rule", () => {
    expect(
      problemsOf({
        "num.io.threads": 1.5,
        "num.network.threads": 0,
        "socket.request.max.bytes": 2147483648,
        "log.flush.interval.messages": "9223372036854775807",
        "compression.type": "brotli",
        "log.preallocate": "TRUE",
        "auto.create.topics.enable": false,
        "log.segment.bytes": "1048575",
        "num.replica.fetchers": "+20",
      }),
    ).toEqual([
      `'brokerConfig["num.io.threads"]' must be a whole number from 1 to 2147483647 (Kafka type INT, atLeast(1)), got 1.5`,
      `'brokerConfig["num.network.threads"]' must be a whole number from 1 to 2147483647 (Kafka type INT, atLeast(1)), got 0`,
      `'brokerConfig["socket.request.max.bytes"]' must be a whole number from 1 to 2147483647 (Kafka type INT, atLeast(1)), got 2147483648`,
      `'brokerConfig["compression.type"]' must be one of uncompressed, zstd, lz4, snappy, gzip, producer (Kafka type STRING), got "brotli"`,
      `'brokerConfig["log.preallocate"]' must be true or false (Kafka type BOOLEAN), got "TRUE"`,
      `'brokerConfig["log.segment.bytes"]' must be a whole number from 1048576 to 2147483647 (Kafka type INT, atLeast(1048576)), got "1048575"`,
    ]);
  });

  test("num.replica.fetchers at least 1 (KAFKA-19645)", () => {
    expect(problemsOf({ "num.replica.fetchers": 0 })).toEqual([
      `'brokerConfig["num.replica.fetchers"]' must be a whole number from 1 to 2147483647 (Kafka type INT, atLeast(1)), got 0`,
    ]);
  });

  test("the broker's startup checks between settings (KafkaConfig validateValues): each names the key given", () => {
    const K = "core/src/main/scala/kafka/server/KafkaConfig.scala";
    expect(problemsOf({ "log.retention.minutes": 0 })).toEqual([
      `'brokerConfig["log.retention.minutes"]' must be -1 (unlimited) or at least 1: a broker stops at 0 (${K}:858), got 0`,
    ]);
    // ms wins over minutes and hours, as logRetentionTimeMillis reads them; a negative one is unlimited
    expect(problemsOf({ "log.retention.ms": -5, "log.retention.hours": 0 })).toEqual([]);
    expect(problemsOf({ "log.cleaner.threads": 128 })).toEqual([
      `'brokerConfig["log.cleaner.threads"]' must be such that log.cleaner.dedupe.buffer.size (134217728) / log.cleaner.threads (128) is more than 1 MiB: a broker stops otherwise (${K}:860), got 128`,
    ]);
    expect(problemsOf({ "log.cleaner.threads": 0 })).toHaveLength(1);
    // Kafka divides as Longs: (3 MiB + 1) / 3 is 1 MiB, not more
    expect(problemsOf({ "log.cleaner.threads": 3, "log.cleaner.dedupe.buffer.size": 3 * 1048576 + 1 })).toHaveLength(1);
    expect(problemsOf({ "log.cleaner.threads": 3, "log.cleaner.dedupe.buffer.size": 3 * 1048576 + 3 })).toEqual([]);
    expect(problemsOf({ "log.cleaner.threads": 4, "log.cleaner.dedupe.buffer.size": 536870912 })).toEqual([]);
    expect(problemsOf({ "replica.fetch.wait.max.ms": 60000 })).toEqual([
      `'brokerConfig["replica.fetch.wait.max.ms"]' must be such that replica.fetch.wait.max.ms (60000) is at most replica.socket.timeout.ms (30000): a broker stops otherwise (${K}:861), got 60000`,
      `'brokerConfig["replica.fetch.wait.max.ms"]' must be such that replica.fetch.wait.max.ms (60000) is at most replica.lag.time.max.ms (30000): a broker stops otherwise (${K}:863), got 60000`,
    ]);
    expect(problemsOf({ "replica.lag.time.max.ms": 100 })).toEqual([
      `'brokerConfig["replica.lag.time.max.ms"]' must be such that replica.fetch.wait.max.ms (500) is at most replica.lag.time.max.ms (100): a broker stops otherwise (${K}:863), got 100`,
    ]);
  });

  test("an unknown key (a misspelt one would measure the default) is named, with what to do", () => {
    expect(problemsOf({ "log.flush.interval.mesages": 1 })).toEqual([
      `'brokerConfig["log.flush.interval.mesages"]' must be a broker setting whose Kafka type and range the lab checks (KAFKA_BROKER_SETTINGS, components/kafka/broker-settings.ts: Kafka ignores a key it does not know, so a misspelt one would measure the default); another setting needs its ConfigDef type and range added there, got 1`,
    ]);
  });

  test("Java's parse rules: a sign and digits only, within the type", () => {
    const int = KAFKA_BROKER_SETTINGS["replica.fetch.wait.max.ms"];
    const short = KAFKA_BROKER_SETTINGS["offsets.topic.replication.factor"];
    expect(["-1", "+5", "2147483647", 20].map((v) => fitsBrokerSetting(int, v))).toEqual([true, true, true, true]);
    expect(["2147483648", " 5", "5 ", "0x10", "1e3", "", 2.5].map((v) => fitsBrokerSetting(int, v))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([32767, 32768, 0].map((v) => fitsBrokerSetting(short, v))).toEqual([true, false, false]);
  });
});
