/**
 * The OpenMessaging Benchmark's objects (pure): the workers (a StatefulSet with a headless Service,
 * one worker a client node), the ConfigMap of driver and workload files and the driver script, and
 * one driver Job per matrix cell.
 *
 * - Workers: `bin/benchmark-worker --port 8080 --stats-port 8081` (rules.ts), reached by the driver as
 *   `http://<pod>.<service>.<namespace>.svc.cluster.local:8080` (Kubernetes DNS for a StatefulSet's pods
 *   behind a headless Service: "<pod-name>.<service-name>.<namespace>.svc.cluster.local", Kubernetes
 *   docs, "StatefulSets" → "Stable Network ID"); probed on their HTTP port. OMB's own Helm chart runs
 *   them the same way (deployment/kubernetes/helm/benchmark/templates/benchmark-worker.yaml: a
 *   StatefulSet and a headless Service of the workers).
 * - Driver Jobs: restart `Never`, `backoffLimit: 0` (a failed benchmark is not re-run on warm
 *   brokers), a deadline from the workload (rules.ts), one day to live; an init container deletes
 *   the topics the previous cell left (OMB names its topics `test-topic-…`, KafkaBenchmarkDriver
 *   `getTopicNamePrefix`; Apache Kafka's TopicCommand options: `--topic` "The topic to create,
 *   alter, describe or delete. It also accepts a regular expression, except for --create option",
 *   `--if-exists` "if set when altering or deleting or describing topics, the action will only
 *   execute if the topic exists"), so every cell starts on an empty cluster and the volumes hold one
 *   cell's data at a time.
 * - Every pod meets the restricted Pod Security Standard: the OMB image sets no user (it would run as
 *   root, docker/Dockerfile.build), so the pods name one; root file systems read-only, `/tmp` and
 *   the work directory `emptyDir`s. OMB's own logging configuration also writes
 *   `benchmark-worker.log` into the working directory (benchmark-framework/src/main/resources/
 *   log4j2.yaml, a `RollingFile` appender), which the bin/ scripts need to be the read-only
 *   installation (`lib/*` on the class path is relative): the pods point Log4j 2.20 (OMB's pom) at
 *   {@link LOG4J2_YAML}, the same configuration without that appender, through the environment
 *   (`LOG4J_CONFIGURATION_FILE`, the environment form of `log4j2.configurationFile`, Log4j 2 manual,
 *   "Configuration" → "System Properties").
 */
import { createHash } from "node:crypto";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { ISecurityContext } from "kubernetes-models/v1/SecurityContext";
import type { IService } from "kubernetes-models/v1/Service";
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { IStatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { nodeGroupAffinity, nodeGroupToleration } from "../eks/placement";
import { STRIMZI_KAFKA_IMAGE } from "../versions";
import { driverFile, driverFileName, workloadFile, WORK_DIR, WORKLOAD_FILE_NAME } from "./files";
import {
  driverDeadlineSeconds,
  JOB_TTL_SECONDS,
  MatrixCell,
  OMB_UID,
  ResolvedOmb,
  Resources,
  WORKER_PORT,
  WORKER_STATS_PORT,
} from "./rules";

export const WORKER_NAME = "omb-worker";
/** The driver Jobs' pods' `app.kubernetes.io/name` (network.ts selects them). */
export const DRIVER_NAME = "omb-driver";
export const CONFIG_NAME = "omb-config";
/** Where the OMB image installs the benchmark (docker/Dockerfile.build: `WORKDIR /benchmark`). */
export const OMB_HOME = "/benchmark";
/** Where the driver Jobs mount the ConfigMap. */
export const CONFIG_DIR = "/config";
/** The OMB topic name regex the clean-up deletes. */
export const OMB_TOPICS_REGEX = "test-topic-.*";
/** The topic clean-up container's requests and limits (kafka-topics.sh runs with a 256 MiB heap). */
export const CLEANUP_RESOURCES: Resources = { requests: { cpu: "100m", memory: "512Mi" }, limits: { cpu: "1", memory: "512Mi" } };

/** OMB's log4j2.yaml with its console appender only (the file appender dropped, see the module comment). */
export const LOG4J2_YAML = `Configuration:
  status: INFO
  name: messaging-benchmark
  Appenders:
    Console:
      name: Console
      target: SYSTEM_OUT
      PatternLayout:
        Pattern: "%d{HH:mm:ss.SSS} [%t] %-4level %c{1} - %msg%n"
  Loggers:
    Root:
      level: info
      additivity: false
      AppenderRef:
        - ref: Console
`;
/** Where the pods read it (the ConfigMap's key, mounted at {@link CONFIG_DIR}). */
export const LOG4J_ENV = { name: "LOG4J_CONFIGURATION_FILE", value: "/config/log4j2.yaml" } as const;

const WORKER_LABELS = { "app.kubernetes.io/name": WORKER_NAME, "app.kubernetes.io/part-of": "storage-bench-lab" };

/** The workers' URLs, as `--workers` takes them. */
export function workerUrls(r: Pick<ResolvedOmb, "workers" | "namespace">): string[] {
  return Array.from(
    { length: r.workers },
    (_, i) => `http://${WORKER_NAME}-${i}.${WORKER_NAME}.${r.namespace}.svc.cluster.local:${WORKER_PORT}`,
  );
}

/** A driver Job's name. */
export function driverJobName(cell: MatrixCell, runId: string): string {
  return `omb-${cell.name}-${runId}`;
}

/** `-Xms<n>G -Xmx<n>G`, as bin/benchmark(-worker) reads HEAP_OPTS. */
export function heapOpts(heapGiB: number): string {
  return `-Xms${heapGiB}G -Xmx${heapGiB}G`;
}

/** Every OMB container's security context (restricted: no escalation, no capability, not root). */
function restricted(): ISecurityContext {
  return { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ["ALL"] } };
}

function resources(r: Resources): Resources {
  return { requests: { ...r.requests }, limits: { ...r.limits } };
}

/** Pod-level security of every OMB pod. */
const podSecurity = {
  runAsNonRoot: true,
  runAsUser: OMB_UID,
  runAsGroup: OMB_UID,
  seccompProfile: { type: "RuntimeDefault" },
} as const;

export function workerServiceManifest(r: ResolvedOmb): IService {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: WORKER_NAME, namespace: r.namespace, labels: { ...WORKER_LABELS } },
    spec: {
      clusterIP: "None",
      selector: { ...WORKER_LABELS },
      ports: [
        { name: "http", port: WORKER_PORT, targetPort: WORKER_PORT, protocol: "TCP" },
        { name: "stats", port: WORKER_STATS_PORT, targetPort: WORKER_STATS_PORT, protocol: "TCP" },
      ],
    },
  };
}

/** The workers, one a node of {clientNodeGroup} (in `zone` only, when given); `image` is the OMB image. */
export function workerStatefulSetManifest(r: ResolvedOmb, image: string, zone?: string): IStatefulSet {
  const probe = { tcpSocket: { port: WORKER_PORT }, periodSeconds: 10, timeoutSeconds: 5 };
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: WORKER_NAME, namespace: r.namespace, labels: { ...WORKER_LABELS } },
    spec: {
      serviceName: WORKER_NAME,
      replicas: r.workers,
      podManagementPolicy: "Parallel",
      selector: { matchLabels: { ...WORKER_LABELS } },
      template: {
        metadata: { labels: { ...WORKER_LABELS } },
        spec: {
          automountServiceAccountToken: false,
          affinity: {
            ...nodeGroupAffinity(r.clientNodeGroup, zone),
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { labelSelector: { matchLabels: { ...WORKER_LABELS } }, topologyKey: "kubernetes.io/hostname" },
              ],
            },
          },
          tolerations: [nodeGroupToleration(r.clientNodeGroup)],
          securityContext: { ...podSecurity },
          containers: [
            {
              name: "worker",
              image,
              workingDir: OMB_HOME,
              command: ["bin/benchmark-worker", "--port", String(WORKER_PORT), "--stats-port", String(WORKER_STATS_PORT)],
              env: [{ name: "HEAP_OPTS", value: heapOpts(r.workerHeapGiB) }, { ...LOG4J_ENV }],
              ports: [
                { name: "http", containerPort: WORKER_PORT, protocol: "TCP" },
                { name: "stats", containerPort: WORKER_STATS_PORT, protocol: "TCP" },
              ],
              readinessProbe: { ...probe, initialDelaySeconds: 5 },
              livenessProbe: { ...probe, initialDelaySeconds: 30, failureThreshold: 6 },
              resources: resources(r.workerResources),
              securityContext: restricted(),
              volumeMounts: [
                { name: "config", mountPath: CONFIG_DIR, readOnly: true },
                { name: "tmp", mountPath: "/tmp" },
              ],
            },
          ],
          volumes: [
            { name: "config", configMap: { name: CONFIG_NAME } },
            { name: "tmp", emptyDir: { sizeLimit: "1Gi" } },
          ],
        },
      },
    },
  };
}

/** The driver files of every cell, the workload file and the driver script. */
export function configMapManifest(r: ResolvedOmb, driverScript: string): IConfigMap {
  const data: Record<string, string> = {
    "driver.sh": driverScript,
    "log4j2.yaml": LOG4J2_YAML,
    [WORKLOAD_FILE_NAME]: workloadFile(r.workload, r.testDurationMinutes),
  };
  for (const cell of r.cells) data[driverFileName(cell)] = driverFile(cell.driver, cell.replicationFactor, r.bootstrapServers);
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name: CONFIG_NAME, namespace: r.namespace }, data };
}

/** The command line the driver script runs, for one repetition (what the README and the tests show). */
export function benchmarkCommand(r: ResolvedOmb, cell: MatrixCell, rep: number): string[] {
  return [
    "bin/benchmark",
    "--drivers",
    `${CONFIG_DIR}/${driverFileName(cell)}`,
    "--workers",
    workerUrls(r).join(","),
    "-o",
    `${WORK_DIR}/result-rep${rep}.json`,
    `${CONFIG_DIR}/${WORKLOAD_FILE_NAME}`,
  ];
}

/** The environment of a cell's driver container (scripts/driver.sh). */
export function driverEnv(r: ResolvedOmb, cell: MatrixCell): Array<{ name: string; value: string }> {
  return [
    { name: "OMB_HOME", value: OMB_HOME },
    { name: "DRIVER_FILE", value: `${CONFIG_DIR}/${driverFileName(cell)}` },
    { name: "WORKLOAD_FILE", value: `${CONFIG_DIR}/${WORKLOAD_FILE_NAME}` },
    { name: "WORKERS", value: workerUrls(r).join(",") },
    { name: "REPS", value: String(r.reps) },
    { name: "RESULT_DIR", value: WORK_DIR },
    { name: "HEAP_OPTS", value: heapOpts(r.driverHeapGiB) },
    { ...LOG4J_ENV },
  ];
}

/** The container that deletes the previous cell's topics (Strimzi's Kafka CLI, same release as the brokers). */
function topicCleanup(r: ResolvedOmb): IContainer {
  return {
    name: "delete-topics",
    image: STRIMZI_KAFKA_IMAGE,
    command: [
      "/opt/kafka/bin/kafka-topics.sh",
      "--bootstrap-server",
      r.bootstrapServers,
      "--delete",
      "--if-exists",
      "--topic",
      OMB_TOPICS_REGEX,
    ],
    env: [
      { name: "LOG_DIR", value: "/tmp" },
      { name: "KAFKA_HEAP_OPTS", value: "-Xmx256M" },
    ],
    resources: resources(CLEANUP_RESOURCES),
    securityContext: restricted(),
    volumeMounts: [{ name: "tmp", mountPath: "/tmp" }],
  };
}

/** The driver Job of one cell, on {clientNodeGroup} (in `zone` only, when given); `image` is the OMB image. */
/**
 * The pod-template annotation holding the digest of what a cell measures with: its driver file and
 * the workload file. They reach the driver through the ConfigMap, which the Job's spec does not
 * show; with the digest in the pod template a changed workload, duration or driver file replaces
 * the cell's Job (pulumi-kubernetes replaces a Job on any `.spec.template` change), so it runs again
 * (and `lab plan --change` refuses that under the same run id) instead of leaving samples of the old
 * files under a config that names the new ones.
 */
export const CELL_FILES_ANNOTATION = "storage-bench-lab/omb-files-sha256";

/** SHA-256 (hex) of the cell's driver file and the workload file, as the ConfigMap holds them. */
export function cellFilesDigest(r: ResolvedOmb, cell: MatrixCell): string {
  return createHash("sha256")
    .update(driverFile(cell.driver, cell.replicationFactor, r.bootstrapServers))
    .update("\0")
    .update(workloadFile(r.workload, r.testDurationMinutes))
    .digest("hex");
}

export function driverJobManifest(r: ResolvedOmb, cell: MatrixCell, image: string, zone?: string): IJob {
  const name = driverJobName(cell, r.runId);
  const labels = {
    "app.kubernetes.io/name": DRIVER_NAME,
    "app.kubernetes.io/part-of": "storage-bench-lab",
    "storage-bench-lab/omb-cell": cell.name,
    "storage-bench-lab/run-id": r.runId,
  };
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, namespace: r.namespace, labels },
    spec: {
      backoffLimit: 0,
      activeDeadlineSeconds: driverDeadlineSeconds(r),
      ttlSecondsAfterFinished: JOB_TTL_SECONDS,
      template: {
        metadata: { labels, annotations: { [CELL_FILES_ANNOTATION]: cellFilesDigest(r, cell) } },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          affinity: nodeGroupAffinity(r.clientNodeGroup, zone),
          tolerations: [nodeGroupToleration(r.clientNodeGroup)],
          securityContext: { ...podSecurity },
          initContainers: [topicCleanup(r)],
          containers: [
            {
              name: "driver",
              image,
              command: ["/bin/sh", `${CONFIG_DIR}/driver.sh`],
              env: driverEnv(r, cell),
              resources: resources(r.driverResources),
              securityContext: restricted(),
              volumeMounts: [
                { name: "config", mountPath: CONFIG_DIR, readOnly: true },
                { name: "work", mountPath: WORK_DIR },
                { name: "tmp", mountPath: "/tmp" },
              ],
            },
          ],
          volumes: [
            { name: "config", configMap: { name: CONFIG_NAME } },
            { name: "work", emptyDir: { sizeLimit: "1Gi" } },
            { name: "tmp", emptyDir: { sizeLimit: "1Gi" } },
          ],
        },
      },
    },
  };
}
