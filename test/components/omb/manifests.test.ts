/**
 * The OpenMessaging Benchmark's objects (components/omb/manifests.ts) against the Kubernetes schemas,
 * the restricted Pod Security Standard and the lab's policy; the worker list and the command every
 * driver runs, exactly.
 */
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { Job } from "kubernetes-models/batch/v1/Job";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Service } from "kubernetes-models/v1/Service";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { DRIVER_SCRIPT } from "../../../components/omb";
import { driverFile, workloadFile } from "../../../components/omb/files";
import {
  benchmarkCommand,
  CELL_FILES_ANNOTATION,
  configMapManifest,
  driverEnv,
  driverJobManifest,
  driverJobName,
  workerServiceManifest,
  workerStatefulSetManifest,
  workerUrls,
  LOG4J2_YAML,
} from "../../../components/omb/manifests";
import YAML from "yaml";
import { resolve } from "../../../components/omb/rules";
import { evaluatePolicies } from "../../../lab/policy/evaluate";
import { restrictedViolations } from "../../helpers/podSecurity";

const IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-lab/kafka/omb:omb-85599891321c";
const BOOTSTRAP = "kafka-kafka-bootstrap.kafka.svc.cluster.local:9092";
const r = resolve({ runId: "r1", bootstrapServers: BOOTSTRAP });
const WORKERS = [0, 1, 2, 3].map((i) => `http://omb-worker-${i}.omb-worker.omb.svc.cluster.local:8080`);
const CLIENTS = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchExpressions: [{ key: "storage-bench-lab/node-group", operator: "In", values: ["clients"] }] }],
    },
  },
};
const CLIENTS_TOLERATION = [{ key: "storage-bench-lab/node-group", operator: "Equal", value: "clients", effect: "NoSchedule" }];

describe("workers", () => {
  const sts = workerStatefulSetManifest(r, IMAGE);
  const svc = workerServiceManifest(r);

  test("valid Kubernetes objects", () => {
    expect(() => new StatefulSet(sts).validate()).not.toThrow();
    expect(() => new Service(svc).validate()).not.toThrow();
  });

  test("a headless Service on 8080 (http) and 8081 (stats) selecting the StatefulSet's pods", () => {
    expect(svc.spec).toEqual({
      clusterIP: "None",
      selector: { "app.kubernetes.io/name": "omb-worker", "app.kubernetes.io/part-of": "storage-bench-lab" },
      ports: [
        { name: "http", port: 8080, targetPort: 8080, protocol: "TCP" },
        { name: "stats", port: 8081, targetPort: 8081, protocol: "TCP" },
      ],
    });
    expect(sts.spec!.serviceName).toBe(svc.metadata!.name);
    expect(sts.spec!.selector.matchLabels).toEqual(svc.spec!.selector);
  });

  test("4 workers, one a client node (required anti-affinity), tolerating the clients' taint, running bin/benchmark-worker", () => {
    const pod = sts.spec!.template.spec!;
    expect(sts.spec!.replicas).toBe(4);
    expect(pod.affinity).toEqual({
      ...CLIENTS,
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: svc.spec!.selector }, topologyKey: "kubernetes.io/hostname" },
        ],
      },
    });
    expect(pod.tolerations).toEqual(CLIENTS_TOLERATION);
    const c = pod.containers[0];
    expect([c.image, c.workingDir, c.command, c.env]).toEqual([
      IMAGE,
      "/benchmark",
      ["bin/benchmark-worker", "--port", "8080", "--stats-port", "8081"],
      [
        { name: "HEAP_OPTS", value: "-Xms6G -Xmx6G" },
        { name: "LOG4J_CONFIGURATION_FILE", value: "/config/log4j2.yaml" },
      ],
    ]);
    expect(c.resources).toEqual({ requests: { cpu: "5", memory: "12Gi" }, limits: { cpu: "7", memory: "12Gi" } });
    expect(c.readinessProbe!.tcpSocket).toEqual({ port: 8080 });
    expect(restrictedViolations(pod)).toEqual([]);
  });

  test("OMB's logging: its console appender only (the file appender would write into the read-only installation)", () => {
    expect(LOG4J2_YAML).toBe(
      [
        "Configuration:",
        "  status: INFO",
        "  name: messaging-benchmark",
        "  Appenders:",
        "    Console:",
        "      name: Console",
        "      target: SYSTEM_OUT",
        "      PatternLayout:",
        '        Pattern: "%d{HH:mm:ss.SSS} [%t] %-4level %c{1} - %msg%n"',
        "  Loggers:",
        "    Root:",
        "      level: info",
        "      additivity: false",
        "      AppenderRef:",
        "        - ref: Console",
        "",
      ].join("\n"),
    );
    expect(YAML.parse(LOG4J2_YAML).Configuration.Appenders).toEqual({
      Console: { name: "Console", target: "SYSTEM_OUT", PatternLayout: { Pattern: "%d{HH:mm:ss.SSS} [%t] %-4level %c{1} - %msg%n" } },
    });
    const mounts = sts.spec!.template.spec!.containers[0].volumeMounts;
    expect(mounts).toContainEqual({ name: "config", mountPath: "/config", readOnly: true });
  });

  test("the worker list every driver gets: each pod by its stable DNS name behind the headless Service", () => {
    expect(workerUrls(r)).toEqual(WORKERS);
  });
});

describe("driver Jobs", () => {
  test("one a cell, named omb-<cell>-<runId>, in matrix order", () => {
    expect(r.cells.map((c) => driverJobName(c, "r1"))).toEqual([
      "omb-kafka-sync-rf1-r1",
      "omb-kafka-sync-rf3-r1",
      "omb-kafka-throughput-rf1-r1",
      "omb-kafka-throughput-rf3-r1",
    ]);
  });

  test("the command each repetition runs: bin/benchmark --drivers <cell's file> --workers <list> -o <file> <workload>", () => {
    expect(benchmarkCommand(r, r.cells[1], 1)).toEqual([
      "bin/benchmark",
      "--drivers",
      "/config/driver-kafka-sync-rf3.yaml",
      "--workers",
      WORKERS.join(","),
      "-o",
      "/work/result-rep1.json",
      "/config/workload.yaml",
    ]);
    // The driver script gets the same pieces (scripts/driver.sh builds that command line from them).
    expect(driverEnv(r, r.cells[1])).toEqual([
      { name: "OMB_HOME", value: "/benchmark" },
      { name: "DRIVER_FILE", value: "/config/driver-kafka-sync-rf3.yaml" },
      { name: "WORKLOAD_FILE", value: "/config/workload.yaml" },
      { name: "WORKERS", value: WORKERS.join(",") },
      { name: "REPS", value: "1" },
      { name: "RESULT_DIR", value: "/work" },
      { name: "HEAP_OPTS", value: "-Xms2G -Xmx2G" },
      { name: "LOG4J_CONFIGURATION_FILE", value: "/config/log4j2.yaml" },
    ]);
  });

  test("the Job: restricted, never retried, a deadline from the workload, a day to live, on a client node; topics deleted first", () => {
    const job = driverJobManifest(r, r.cells[0], IMAGE);
    expect(() => new Job(job).validate()).not.toThrow();
    expect(job.spec).toMatchObject({ backoffLimit: 0, activeDeadlineSeconds: 600 + 6 * 60 + 600, ttlSecondsAfterFinished: 86400 });
    const pod = job.spec!.template.spec!;
    expect([pod.restartPolicy, pod.affinity, pod.tolerations]).toEqual(["Never", CLIENTS, CLIENTS_TOLERATION]);
    expect(pod.containers[0].command).toEqual(["/bin/sh", "/config/driver.sh"]);
    expect(pod.containers[0].image).toBe(IMAGE);
    expect(pod.initContainers![0]).toMatchObject({
      name: "delete-topics",
      image: "quay.io/strimzi/kafka:1.2.0-kafka-4.3.1",
      command: ["/opt/kafka/bin/kafka-topics.sh", "--bootstrap-server", BOOTSTRAP, "--delete", "--if-exists", "--topic", "test-topic-.*"],
    });
    expect(restrictedViolations(pod)).toEqual([]);
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      seccompProfile: { type: "RuntimeDefault" },
    });
  });

  test("the lab's policy has nothing to say about the workers and the Jobs", () => {
    const resources = [
      { urn: "urn:sts", type: "kubernetes:apps/v1:StatefulSet", name: "omb-workers", inputs: workerStatefulSetManifest(r, IMAGE) },
      ...r.cells.map((c) => ({
        urn: `urn:${c.name}`,
        type: "kubernetes:batch/v1:Job",
        name: c.name,
        inputs: driverJobManifest(r, c, IMAGE),
      })),
    ] as unknown as Parameters<typeof evaluatePolicies>[0];
    expect(evaluatePolicies(resources)).toEqual([]);
  });

  test("the ConfigMap: every cell's driver file, the workload, the driver script", () => {
    const cm = configMapManifest(r, readFileSync(DRIVER_SCRIPT, "utf8"));
    expect(() => new ConfigMap(cm).validate()).not.toThrow();
    expect(cm.data).toEqual({
      "driver.sh": readFileSync(DRIVER_SCRIPT, "utf8"),
      "log4j2.yaml": LOG4J2_YAML,
      "workload.yaml": workloadFile("netapp-4-topics-32kb", 5),
      "driver-kafka-sync-rf1.yaml": driverFile("kafka-sync", 1, BOOTSTRAP),
      "driver-kafka-sync-rf3.yaml": driverFile("kafka-sync", 3, BOOTSTRAP),
      "driver-kafka-throughput-rf1.yaml": driverFile("kafka-throughput", 1, BOOTSTRAP),
      "driver-kafka-throughput-rf3.yaml": driverFile("kafka-throughput", 3, BOOTSTRAP),
    });
  });
});

describe("a cell's Job carries the digest of the files it measures with", () => {
  const digestOf = (rr: ReturnType<typeof resolve>, i = 0) =>
    driverJobManifest(rr, rr.cells[i], IMAGE).spec!.template.metadata!.annotations![CELL_FILES_ANNOTATION];

  test("SHA-256 of the cell's driver file and the workload file, as the ConfigMap holds them", () => {
    const cell = r.cells[0];
    const want = createHash("sha256")
      .update(driverFile(cell.driver, cell.replicationFactor, BOOTSTRAP))
      .update("\0")
      .update(workloadFile(r.workload, r.testDurationMinutes))
      .digest("hex");
    expect(digestOf(r)).toBe(want);
    expect(digestOf(r)).toMatch(/^[0-9a-f]{64}$/);
  });

  test("another workload, duration or cell changes it (the Job is replaced and runs again); another run id's Job has the same files", () => {
    const base = digestOf(r);
    expect(digestOf(resolve({ runId: "r1", bootstrapServers: BOOTSTRAP, workload: "1-topic-100-partitions-1kb" }))).not.toBe(base);
    expect(digestOf(resolve({ runId: "r1", bootstrapServers: BOOTSTRAP, testDurationMinutes: 10 }))).not.toBe(base);
    expect(digestOf(r, 1)).not.toBe(base);
    expect(digestOf(resolve({ runId: "r2", bootstrapServers: BOOTSTRAP }))).toBe(base);
  });
});
