/** The OpenMessaging Benchmark's rules and defaults (components/omb/rules.ts): exact values, exact messages, the matrix order. */
import { formatArgProblem } from "../../../core/errors";
import {
  noOmbImageRule,
  driverDeadlineSeconds,
  matrix,
  OMB_DEFAULTS,
  OMB_WARMUP_MINUTES,
  ombImageProblems,
  problems,
  resolve,
  WORKER_PORT,
  WORKER_STATS_PORT,
  WORKLOAD_DURATION_MINUTES,
} from "../../../components/omb/rules";

const base = { runId: "r1", bootstrapServers: "kafka-kafka-bootstrap.kafka.svc.cluster.local:9092" };
const lines = (spec: Parameters<typeof problems>[0]) => problems(spec).map((p) => formatArgProblem(p));

describe("OMB defaults", () => {
  test("the table: 4 workers on the client nodes, NetApp's workload, the matrix {sync, throughput} × {RF1, RF3}, one repetition", () => {
    expect(OMB_DEFAULTS).toEqual({
      namespace: "omb",
      workers: 4,
      clientNodeGroup: "clients",
      workload: "netapp-4-topics-32kb",
      drivers: ["kafka-sync", "kafka-throughput"],
      replicationFactors: [1, 3],
      reps: 1,
      workerResources: { requests: { cpu: "5", memory: "12Gi" }, limits: { cpu: "7", memory: "12Gi" } },
      workerHeapGiB: 6,
      driverResources: { requests: { cpu: "1", memory: "4Gi" }, limits: { cpu: "2", memory: "4Gi" } },
      driverHeapGiB: 2,
    });
    expect([WORKER_PORT, WORKER_STATS_PORT, OMB_WARMUP_MINUTES]).toEqual([8080, 8081, 1]);
    expect(WORKLOAD_DURATION_MINUTES).toEqual({ "1-topic-100-partitions-1kb": 240, "netapp-4-topics-32kb": 5 });
    expect(problems(base)).toEqual([]);
  });

  test("the matrix runs every replication factor of one driver, then the next: sync RF1, sync RF3, throughput RF1, throughput RF3", () => {
    expect(resolve(base).cells).toEqual([
      { name: "kafka-sync-rf1", driver: "kafka-sync", replicationFactor: 1 },
      { name: "kafka-sync-rf3", driver: "kafka-sync", replicationFactor: 3 },
      { name: "kafka-throughput-rf1", driver: "kafka-throughput", replicationFactor: 1 },
      { name: "kafka-throughput-rf3", driver: "kafka-throughput", replicationFactor: 3 },
    ]);
    expect(matrix(["kafka-throughput"], [3, 1]).map((c) => c.name)).toEqual(["kafka-throughput-rf3", "kafka-throughput-rf1"]);
  });

  test("the duration is the workload's own unless configured", () => {
    expect(resolve(base).testDurationMinutes).toBe(5);
    expect(resolve({ ...base, workload: "1-topic-100-partitions-1kb" }).testDurationMinutes).toBe(240);
    expect(resolve({ ...base, workload: "1-topic-100-partitions-1kb", testDurationMinutes: 15 }).testDurationMinutes).toBe(15);
  });

  test("a driver Job's deadline: 600 s, plus per repetition the warm-up minute, the test and 600 s", () => {
    expect(driverDeadlineSeconds({ reps: 1, testDurationMinutes: 5 })).toBe(600 + (1 + 5) * 60 + 600);
    expect(driverDeadlineSeconds({ reps: 3, testDurationMinutes: 5 })).toBe(600 + 3 * 960);
  });
});

describe("OMB rules", () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    [
      "a workload that is not named",
      { workload: "1-topic-16-partitions-1kb" },
      [`'workload' must be one of 1-topic-100-partitions-1kb, netapp-4-topics-32kb, got "1-topic-16-partitions-1kb"`],
    ],
    [
      "one worker cannot be both producer and consumer",
      { workers: 1 },
      [
        "'workers' must be an integer from 2 to 64 (OMB splits the workers into producers and consumers; one a node of 'clientNodeGroup'), got 1",
      ],
    ],
    [
      "drivers: known, distinct, not empty",
      { drivers: ["kafka-sync", "kafka-latency"] },
      [`'drivers' must be a non-empty list of distinct drivers among kafka-sync, kafka-throughput, got ["kafka-sync","kafka-latency"]`],
    ],
    [
      "replication factors",
      { replicationFactors: [1, 1] },
      ["'replicationFactors' must be a non-empty list of distinct replication factors from 1 to 30 (e.g. [1,3]), got [1,1]"],
    ],
    ["duration", { testDurationMinutes: 0 }, ["'testDurationMinutes' must be an integer from 1 to 1440 (minutes), got 0"]],
    [
      "bootstrap",
      { bootstrapServers: "kafka:port" },
      [`'bootstrapServers' must be a Kafka bootstrap address list host:port[,host:port…], got "kafka:port"`],
    ],
    [
      "a worker heap above half its limit",
      { workerHeapGiB: 7 },
      ["'workerHeapGiB' must be at most half of 'workerResources'.limits.memory (12Gi): the JVM needs memory beyond its heap, got 7"],
    ],
    [
      "a long run id: the longest Job name of the matrix must fit",
      { runId: "r".repeat(39) },
      [`'runId' must be at most 38 characters (Job "omb-kafka-throughput-rf1-<runId>" must fit in 63), got "${"r".repeat(39)}"`],
    ],
  ])("%s", (_n, extra, expected) => {
    expect(lines({ ...base, ...extra } as Parameters<typeof problems>[0])).toEqual(expected);
  });

  test("the image: pinned by a tag other than latest, or a digest", () => {
    expect(ombImageProblems("123456789012.dkr.ecr.us-east-1.amazonaws.com/lab/omb:omb-85599891321c")).toEqual([]);
    expect(ombImageProblems("openmessaging/openmessaging-benchmark:latest").map((p) => formatArgProblem(p))).toEqual([
      `'ombImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest of an OpenMessaging Benchmark image (built from docker/Dockerfile.build), got "openmessaging/openmessaging-benchmark:latest"`,
    ]);
  });
});

describe("the OMB image's source", () => {
  test("without a given OMB image, the rule names the eks stack and both ways out", () => {
    expect(formatArgProblem({ path: "ombImage", rule: noOmbImageRule("org/p/c"), value: undefined }, (a) => `lab:${a}`)).toBe(
      "'lab:ombImage' must be a pinned OpenMessaging Benchmark image when 'lab:eksStack' (org/p/c) builds none (its output images has no omb): add omb to that eks stack's lab:images, or build docker/Dockerfile.build of openmessaging/benchmark elsewhere, push it and set lab:ombImage to its reference, got nothing",
    );
  });
});
