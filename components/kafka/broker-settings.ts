/**
 * The broker settings `brokerConfig` may set, each with its type and range as Kafka's ConfigDef
 * defines it, and the check Strimzi runs on `spec.kafka.config` (pure).
 *
 * Why a table of our own: Strimzi checks `spec.kafka.config` against a model of Kafka's ConfigDef
 * that its build generates (config-model-generator/…/KafkaConfigModelGenerator.java; the generated
 * JSON is not in its repository, and building it needs Kafka's jars, which this machine cannot
 * fetch), and only when it reconciles: a bad value turns the Kafka resource NotReady after the node
 * groups, the file system and the operator are up (KafkaCluster.java `validateConfiguration` throws
 * InvalidResourceException, "has invalid spec.kafka.config: …"). A key it does not know passes
 * (KafkaConfiguration.java `validate`: "extra configs might be intended for plugins") and Kafka
 * only logs it at INFO ("These configurations '{}' were supplied but are not used yet.",
 * clients/…/common/config/AbstractConfig.java:380): a misspelt key silently measures the default.
 * So `brokerConfig` takes the keys below, checked as Strimzi checks them, and names any other.
 *
 * Checks, as Strimzi 1.2.0 does them (config-model/src/main/java/io/strimzi/kafka/config/model/
 * ConfigModel.java `validate`): the value's text (a number or boolean is written as Kafka reads
 * it) parsed with Java's `Integer.parseInt` / `Long.parseLong` / `Short.parseShort` (an optional
 * sign and decimal digits within the type's range), then the ConfigDef's `atLeast`; booleans
 * exactly `true` or `false`; strings one of the ConfigDef's `in(…)`.
 *
 * Types and ranges: apache/kafka at 1eb7644349cb07139d6a3c1ad1986979647cac99 (trunk of 2024-10-25,
 * before 4.0 was released: the newest snapshot of Kafka's source reachable here; the lab runs
 * 4.3.1), file and line of each `.define(…)` in `source`, with the one change 4.0 made to these
 * keys applied: KIP-1030 ("Change constraints and default values for various configurations",
 * shipped in 4.0) raised `log.segment.bytes`'s minimum from 14 bytes to 1 MiB (`atLeast(1024 *
 * 1024)` in 4.x LogConfig). A review read the other defines in newer sources unchanged; re-read
 * them at the 4.3.1 tag when a snapshot of it can be had.
 */
import { argProblem, type ArgProblem } from "../../core/errors";

export type BrokerSettingType = "int" | "long" | "short" | "boolean" | "string";

export interface BrokerSetting {
  readonly type: BrokerSettingType;
  /** ConfigDef `atLeast(min)`. */
  readonly min?: number;
  /** ConfigDef `in(…)` (strings). */
  readonly values?: readonly string[];
  /** The `.define(…)` in Kafka's source: `<path>:<line>`. */
  readonly source: string;
}

const SOCKET = "server/src/main/java/org/apache/kafka/network/SocketServerConfigs.java";
const SERVER = "server/src/main/java/org/apache/kafka/server/config/ServerConfigs.java";
const REPLICATION = "server/src/main/java/org/apache/kafka/server/config/ReplicationConfigs.java";
const LOG = "storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java";
const GROUP = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupCoordinatorConfig.java";
const TXN = "transaction-coordinator/src/main/java/org/apache/kafka/coordinator/transaction/TransactionLogConfig.java";
const CLEANER = "storage/src/main/java/org/apache/kafka/storage/internals/log/CleanerConfig.java";

/**
 * Every broker setting `brokerConfig` takes: NetApp's published tuning and Strimzi's replication
 * settings (components/kafka/rules.ts), and the ones a storage benchmark turns (threads, flushes,
 * segments, buffers, retention).
 */
export const KAFKA_BROKER_SETTINGS: Readonly<Record<string, BrokerSetting>> = {
  "num.network.threads": { type: "int", min: 1, source: `${SOCKET}:197` },
  "socket.send.buffer.bytes": { type: "int", source: `${SOCKET}:185` },
  "socket.receive.buffer.bytes": { type: "int", source: `${SOCKET}:186` },
  "socket.request.max.bytes": { type: "int", min: 1, source: `${SOCKET}:187` },
  "queued.max.requests": { type: "int", min: 1, source: `${SOCKET}:195` },
  "message.max.bytes": { type: "int", min: 0, source: `${SERVER}:145` },
  "num.io.threads": { type: "int", min: 1, source: `${SERVER}:146` },
  "num.replica.alter.log.dirs.threads": { type: "int", source: `${SERVER}:147` },
  "background.threads": { type: "int", min: 1, source: `${SERVER}:148` },
  // BrokerCompressionType.names() (server-common/src/main/java/org/apache/kafka/server/record/BrokerCompressionType.java:30-35)
  "compression.type": { type: "string", values: ["uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"], source: `${SERVER}:162` },
  "default.replication.factor": { type: "int", source: `${REPLICATION}:155` },
  "replica.lag.time.max.ms": { type: "long", source: `${REPLICATION}:156` },
  "replica.socket.receive.buffer.bytes": { type: "int", source: `${REPLICATION}:158` },
  "replica.fetch.max.bytes": { type: "int", min: 0, source: `${REPLICATION}:159` },
  "replica.fetch.wait.max.ms": { type: "int", source: `${REPLICATION}:160` },
  "replica.fetch.min.bytes": { type: "int", source: `${REPLICATION}:162` },
  // KAFKA-19645 (apache/kafka#20414, in Kafka 4.2): atLeast(1); the snapshot's define has no bound
  "num.replica.fetchers": { type: "int", min: 1, source: `${REPLICATION}:164, KAFKA-19645` },
  "replica.socket.timeout.ms": { type: "int", source: `${REPLICATION}:157` },
  "auto.leader.rebalance.enable": { type: "boolean", source: `${REPLICATION}:169` },
  "unclean.leader.election.enable": { type: "boolean", source: `${REPLICATION}:173` },
  "num.partitions": { type: "int", min: 1, source: `${LOG}:221` },
  // KIP-1030 (Kafka 4.0): atLeast(1024 * 1024); before 4.0 (the snapshot's LOG:224) atLeast(LegacyRecord.RECORD_OVERHEAD_V0), 14 bytes
  "log.segment.bytes": { type: "int", min: 1048576, source: `${LOG}:224, KIP-1030` },
  "log.roll.hours": { type: "int", min: 1, source: `${LOG}:227` },
  "log.retention.ms": { type: "long", source: `${LOG}:232` },
  "log.retention.minutes": { type: "int", source: `${LOG}:233` },
  "log.retention.hours": { type: "int", source: `${LOG}:234` },
  "log.retention.bytes": { type: "long", source: `${LOG}:236` },
  "log.flush.interval.messages": { type: "long", min: 1, source: `${LOG}:241` },
  "log.flush.scheduler.interval.ms": { type: "long", source: `${LOG}:243` },
  "log.flush.interval.ms": { type: "long", source: `${LOG}:244` },
  "log.preallocate": { type: "boolean", source: `${LOG}:247` },
  "num.recovery.threads.per.data.dir": { type: "int", min: 1, source: `${LOG}:248` },
  "auto.create.topics.enable": { type: "boolean", source: `${LOG}:249` },
  "min.insync.replicas": { type: "int", min: 1, source: `${LOG}:250` },
  "log.cleaner.threads": { type: "int", min: 0, source: `${CLEANER}:77` },
  "log.cleaner.dedupe.buffer.size": { type: "long", source: `${CLEANER}:79` },
  "group.initial.rebalance.delay.ms": { type: "int", source: `${GROUP}:211` },
  "offsets.topic.replication.factor": { type: "short", min: 1, source: `${GROUP}:225` },
  "transaction.state.log.min.isr": { type: "int", min: 1, source: `${TXN}:65` },
  "transaction.state.log.replication.factor": { type: "short", min: 1, source: `${TXN}:67` },
};

/** Java's bounds of each whole-number type (Integer, Long, Short `MIN_VALUE` / `MAX_VALUE`). */
const BOUNDS: Readonly<Record<"int" | "long" | "short", readonly [bigint, bigint]>> = {
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  short: [-(2n ** 15n), 2n ** 15n - 1n],
};

/** Java's `parseInt` / `parseLong` / `parseShort` syntax: an optional sign, then decimal digits. */
const JAVA_WHOLE = /^[+-]?\d+$/;

/** The text Strimzi hands Kafka for a `config` value (a number in plain decimal, a boolean as true/false). */
function asText(value: string | number | boolean): string {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  return String(value);
}

/** The rule a value of `s` follows, as the error says it. */
export function brokerSettingRule(s: BrokerSetting): string {
  switch (s.type) {
    case "boolean":
      return "true or false (Kafka type BOOLEAN)";
    case "string":
      return `one of ${(s.values ?? []).join(", ")} (Kafka type STRING)`;
    default: {
      const [lo, hi] = BOUNDS[s.type];
      const from = s.min === undefined ? lo : BigInt(s.min);
      return `a whole number from ${from} to ${hi} (Kafka type ${s.type.toUpperCase()}${s.min === undefined ? "" : `, atLeast(${s.min})`})`;
    }
  }
}

/** True when `value` is what Kafka (and Strimzi's check) accepts for `s`. */
export function fitsBrokerSetting(s: BrokerSetting, value: string | number | boolean): boolean {
  const text = asText(value);
  switch (s.type) {
    case "boolean":
      return text === "true" || text === "false";
    case "string":
      return (s.values ?? []).includes(text);
    default: {
      if (!JAVA_WHOLE.test(text)) return false;
      const n = BigInt(text);
      const [lo, hi] = BOUNDS[s.type];
      return n >= lo && n <= hi && (s.min === undefined || n >= BigInt(s.min));
    }
  }
}

/**
 * The problems of one `brokerConfig` entry: a value outside its Kafka type and range, or a key
 * not among {@link KAFKA_BROKER_SETTINGS}. `path` names the entry (`brokerConfig["num.io.threads"]`).
 */
export function brokerSettingProblems(path: string, key: string, value: string | number | boolean): ArgProblem[] {
  const s = KAFKA_BROKER_SETTINGS[key];
  if (s === undefined)
    return [
      argProblem(
        path,
        "a broker setting whose Kafka type and range the lab checks (KAFKA_BROKER_SETTINGS, components/kafka/broker-settings.ts: Kafka ignores a key it does not know, so a misspelt one would measure the default); another setting needs its ConfigDef type and range added there",
        value,
      ),
    ];
  return fitsBrokerSetting(s, value) ? [] : [argProblem(path, brokerSettingRule(s), value)];
}

const KAFKA_CONFIG = "core/src/main/scala/kafka/server/KafkaConfig.scala";

/**
 * Defaults of the settings the broker's startup checks read, when the resolved config leaves them
 * out: ReplicationConfigs.java `REPLICA_FETCH_WAIT_MAX_MS_DEFAULT` 500, `REPLICA_SOCKET_TIMEOUT_MS_DEFAULT`
 * 30 s, `REPLICA_LAG_TIME_MAX_MS_DEFAULT` 30 s; CleanerConfig.java `LOG_CLEANER_THREADS` 1,
 * `LOG_CLEANER_DEDUPE_BUFFER_SIZE` 128 MiB; LogConfig's `log.retention.hours` 168.
 */
export const BROKER_STARTUP_DEFAULTS: Readonly<Record<string, number>> = {
  "replica.fetch.wait.max.ms": 500,
  "replica.socket.timeout.ms": 30_000,
  "replica.lag.time.max.ms": 30_000,
  "log.cleaner.threads": 1,
  "log.cleaner.dedupe.buffer.size": 128 * 1024 * 1024,
  "log.retention.hours": 168,
};

/**
 * What each value being in its type and range (above) cannot see: the checks between settings that
 * a broker runs as it starts, and that stop it ("requirement failed: …": the pod crash-loops and
 * the Kafka resource never gets Ready). Kafka's KafkaConfig `validateValues` (apache/kafka
 * core/src/main/scala/kafka/server/KafkaConfig.scala:856-864 at the snapshot; the same `require`s
 * in 4.x):
 * - the retention time (`log.retention.ms`, else `.minutes` × 60 000, else `.hours` × 3 600 000; a
 *   negative one means unlimited, :677-689) must be -1 or at least 1 ms: 0 stops the broker;
 * - `log.cleaner.dedupe.buffer.size / log.cleaner.threads > 1 MiB` (a value of 0 threads divides by
 *   zero there);
 * - `replica.fetch.wait.max.ms` at most `replica.socket.timeout.ms` and at most
 *   `replica.lag.time.max.ms`.
 * `config` is the brokers' resolved config (the lab's settings with `brokerConfig` over them);
 * `given` the user's `brokerConfig`, whose keys the problems name (a default is named as a default).
 * Values outside their type are left to {@link brokerSettingProblems}.
 */
export function brokerStartupProblems(config: Readonly<Record<string, unknown>>, given: Readonly<Record<string, unknown>>): ArgProblem[] {
  const num = (k: string): number | undefined => {
    const v = k in config ? config[k] : BROKER_STARTUP_DEFAULTS[k];
    const n = typeof v === "string" && JAVA_WHOLE.test(v) ? Number(v) : v;
    return typeof n === "number" && Number.isInteger(n) ? n : undefined;
  };
  const at = (k: string) => `brokerConfig[${JSON.stringify(k)}]`;
  const out: ArgProblem[] = [];
  const retentionKey =
    ["log.retention.ms", "log.retention.minutes", "log.retention.hours"].find((k) => k in config) ?? "log.retention.hours";
  if (num(retentionKey) === 0 && retentionKey in given)
    out.push(argProblem(at(retentionKey), `-1 (unlimited) or at least 1: a broker stops at 0 (${KAFKA_CONFIG}:858)`, given[retentionKey]));
  const threads = num("log.cleaner.threads");
  const buffer = num("log.cleaner.dedupe.buffer.size");
  // Kafka's Long division (KafkaConfig.scala:860): 3 MiB + 1 over 3 threads is 1 MiB, not more.
  if (threads !== undefined && buffer !== undefined && (threads === 0 || Math.trunc(buffer / threads) <= 1024 * 1024)) {
    const key = "log.cleaner.threads" in given ? "log.cleaner.threads" : "log.cleaner.dedupe.buffer.size";
    if (key in given)
      out.push(
        argProblem(
          at(key),
          `such that log.cleaner.dedupe.buffer.size (${buffer}) / log.cleaner.threads (${threads}) is more than 1 MiB: a broker stops otherwise (${KAFKA_CONFIG}:860)`,
          given[key],
        ),
      );
  }
  const wait = num("replica.fetch.wait.max.ms");
  for (const [other, line] of [
    ["replica.socket.timeout.ms", 861],
    ["replica.lag.time.max.ms", 863],
  ] as const) {
    const limit = num(other);
    if (wait === undefined || limit === undefined || wait <= limit) continue;
    const key = "replica.fetch.wait.max.ms" in given ? "replica.fetch.wait.max.ms" : other;
    if (key in given)
      out.push(
        argProblem(
          at(key),
          `such that replica.fetch.wait.max.ms (${wait}) is at most ${other} (${limit}): a broker stops otherwise (${KAFKA_CONFIG}:${line})`,
          given[key],
        ),
      );
  }
  return out;
}
