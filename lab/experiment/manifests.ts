/**
 * The Kubernetes objects the failover experiments create (pure): for the MySQL experiment the
 * writer's ConfigMap (its script) and Job; for the FSx experiment the fio volume's claim, the
 * ConfigMap (lib.sh, the script, the job file) and the fio Job. Every object carries the labels
 * `lab/experiment` and `lab/run-id`, and the cleanup deletes each by name.
 *
 * The Jobs follow the lab's Job rules (components/bench/render.ts, lab/policy/kubernetes.ts):
 * pinned images, `restartPolicy: Never`, `backoffLimit: 0` (a writer or fio that failed must not
 * be restarted: its evidence would be split over two pods), `activeDeadlineSeconds` (the work's
 * own upper bound + a margin), `ttlSecondsAfterFinished`, requests and limits, and the restricted
 * Pod Security profile (non-root uid, no privilege escalation, all capabilities dropped,
 * RuntimeDefault seccomp, read-only root file system with an emptyDir /tmp), no service-account
 * token.
 *
 * How the experiment stops a Job's work: it sets the annotation {@link STOP_ANNOTATION} `"true"` on
 * the Job's pod, and the pod sees it in a downward API volume file of its annotations, which the
 * kubelet rewrites when they change (Kubernetes conformance test "DownwardAPI volume, update
 * annotations", kubernetes/kubernetes test/e2e/common/storage/downwardapi_volume.go), one
 * `key="value"` a line (pkg/fieldpath/fieldpath.go FormatMap, `%v=%q`). The scripts poll that file.
 */
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import type { IVolume } from "kubernetes-models/v1/Volume";
import { TOOLS_IMAGE_UID } from "../../components/bench/images";
import { RUN_ID_LABEL } from "../../components/bench/render";
import { restrictedContainerSecurityContext, restrictedPodSecurityContext } from "../../components/bench/security";
import { DEFAULT_RESOURCES } from "../../components/bench/rules";
import { WRITER_USER } from "../../components/mysql/manifests";
import { MYSQL_UID } from "../../components/mysql/rules";
import { MYSQL_IMAGE } from "../../components/versions";
import type { ExperimentScripts } from "./scripts";

/** The experiments. */
export const EXPERIMENTS = ["mysql-failover", "fsx-failover"] as const;
export type ExperimentName = (typeof EXPERIMENTS)[number];

/** The pod annotation that asks a writer or fio Job to stop, and its value. */
export const STOP_ANNOTATION = "lab/stop";
/** Where the pod's annotations are mounted (downward API), and the file. */
export const PODINFO_MOUNT = "/etc/podinfo";
export const ANNOTATIONS_FILE = `${PODINFO_MOUNT}/annotations`;
/** Where the ConfigMap's scripts are mounted. */
export const SCRIPTS_MOUNT = "/opt/lab";
/** The label of every object an experiment creates. */
export const EXPERIMENT_LABEL = "lab/experiment";

/** Finished Jobs Kubernetes deletes after a day, if the cleanup could not. */
export const TTL_SECONDS_AFTER_FINISHED = 86_400;
/** Added to a Job's own upper bound of work for its `activeDeadlineSeconds`. */
export const DEADLINE_MARGIN_SECONDS = 600;

export function labels(experiment: ExperimentName, runId: string, component: string): Record<string, string> {
  return {
    "app.kubernetes.io/name": component,
    "app.kubernetes.io/part-of": "storage-bench-lab",
    "app.kubernetes.io/managed-by": "lab-experiment",
    [EXPERIMENT_LABEL]: experiment,
    [RUN_ID_LABEL]: runId,
  };
}

function podSpec(uid: number, container: IContainer, volumes: IVolume[], fsGroup: boolean): IPodSpec {
  return {
    restartPolicy: "Never",
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    terminationGracePeriodSeconds: 30,
    securityContext: restrictedPodSecurityContext(uid, fsGroup),
    containers: [container],
    volumes: [
      ...volumes,
      { name: "podinfo", downwardAPI: { items: [{ path: "annotations", fieldRef: { fieldPath: "metadata.annotations" } }] } },
      { name: "tmp", emptyDir: { sizeLimit: "256Mi" } },
    ],
  };
}

const commonMounts = [
  { name: "scripts", mountPath: SCRIPTS_MOUNT, readOnly: true },
  { name: "podinfo", mountPath: PODINFO_MOUNT, readOnly: true },
  { name: "tmp", mountPath: "/tmp" },
];

function job(name: string, namespace: string, lbl: Record<string, string>, deadline: number, spec: IPodSpec): IJob {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, namespace, labels: lbl },
    spec: {
      backoffLimit: 0,
      completions: 1,
      parallelism: 1,
      activeDeadlineSeconds: deadline,
      ttlSecondsAfterFinished: TTL_SECONDS_AFTER_FINISHED,
      template: { metadata: { labels: lbl }, spec },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// MySQL writer

export interface WriterSpec {
  readonly namespace: string;
  readonly runId: string;
  /** The source's address. */
  readonly host: string;
  /** The writer's MySQL account. @default WRITER_USER (components/mysql: CREATE, INSERT, SELECT on lab_failover, REPLICATION CLIENT) */
  readonly user?: string;
  /** The Secret and key of its password (the stack's `mysql.writerPasswordSecretRef`), read through a secretKeyRef. */
  readonly passwordSecret: { readonly name: string; readonly key: string };
  readonly intervalMs: number;
  /** The writer stops by itself after this long (the experiment stops it earlier). */
  readonly maxSeconds: number;
  /** How long the final read-back is retried. */
  readonly readbackSeconds: number;
  /** The replicas' addresses, checked after the read-back. */
  readonly replicaHosts: readonly string[];
  /** How long the writer waits for one replica to catch up. */
  readonly replicaWaitSeconds: number;
  /** @default MYSQL_IMAGE (the server's own pinned image: its client is the server's version) */
  readonly image?: string;
}

export const writerJobName = (runId: string) => `mysql-failover-writer-${runId}`;
export const writerConfigMapName = (runId: string) => `mysql-failover-${runId}`;
export const WRITER_CONTAINER = "writer";

export function writerManifests(s: WriterSpec, scripts: ExperimentScripts): { configMap: IConfigMap; job: IJob } {
  const lbl = labels("mysql-failover", s.runId, "mysql-writer");
  const configMap: IConfigMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: writerConfigMapName(s.runId), namespace: s.namespace, labels: lbl },
    data: { "mysql-writer.sh": scripts["mysql-writer.sh"] },
  };
  const env = (vars: Record<string, string | number>) => Object.entries(vars).map(([name, value]) => ({ name, value: String(value) }));
  const container: IContainer = {
    name: WRITER_CONTAINER,
    image: s.image ?? MYSQL_IMAGE,
    imagePullPolicy: "IfNotPresent",
    command: ["bash", `${SCRIPTS_MOUNT}/mysql-writer.sh`],
    env: [
      ...env({ LAB_MYSQL_HOST: s.host, LAB_RUN_ID: s.runId, LAB_MYSQL_USER: s.user ?? WRITER_USER }),
      { name: "LAB_MYSQL_PASSWORD", valueFrom: { secretKeyRef: { name: s.passwordSecret.name, key: s.passwordSecret.key } } },
      ...env({
        LAB_INTERVAL_MS: s.intervalMs,
        LAB_MAX_SECONDS: s.maxSeconds,
        LAB_READBACK_SECONDS: s.readbackSeconds,
        LAB_REPLICA_HOSTS: s.replicaHosts.join(" "),
        LAB_REPLICA_WAIT_SECONDS: s.replicaWaitSeconds,
        LAB_STOP_FILE: ANNOTATIONS_FILE,
        LAB_STOP_KEY: STOP_ANNOTATION,
        TMPDIR: "/tmp",
      }),
    ],
    resources: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
    securityContext: restrictedContainerSecurityContext(),
    volumeMounts: commonMounts,
  };
  const volumes: IVolume[] = [{ name: "scripts", configMap: { name: configMap.metadata!.name!, defaultMode: 0o444 } }];
  const deadline = s.maxSeconds + s.readbackSeconds + s.replicaHosts.length * s.replicaWaitSeconds + DEADLINE_MARGIN_SECONDS;
  return { configMap, job: job(writerJobName(s.runId), s.namespace, lbl, deadline, podSpec(MYSQL_UID, container, volumes, false)) };
}

// ---------------------------------------------------------------------------------------------
// fio under the FSx failover

export interface FioSpec {
  readonly namespace: string;
  readonly runId: string;
  /** The project's tools image (fio 3.33), pinned. */
  readonly image: string;
  readonly storageClass: string;
  readonly volumeGiB: number;
  /** fio's file size, fio syntax (`4G`). */
  readonly fileSize: string;
  /** fio's runtime: the longest it writes. */
  readonly maxRuntimeSeconds: number;
}

export const fioJobName = (runId: string) => `fsx-failover-fio-${runId}`;
export const fioObjectsName = (runId: string) => `fsx-failover-${runId}`;
export const FIO_CONTAINER = "fio";
export const FIO_DATA_MOUNT = "/data";

export function fioManifests(s: FioSpec, scripts: ExperimentScripts): { claim: IPersistentVolumeClaim; configMap: IConfigMap; job: IJob } {
  const lbl = labels("fsx-failover", s.runId, "fio-failover");
  const name = fioObjectsName(s.runId);
  const claim: IPersistentVolumeClaim = {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace: s.namespace, labels: lbl },
    spec: {
      accessModes: ["ReadWriteOnce"],
      volumeMode: "Filesystem",
      storageClassName: s.storageClass,
      resources: { requests: { storage: `${s.volumeGiB}Gi` } },
    },
  };
  const configMap: IConfigMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: s.namespace, labels: lbl },
    data: { "lib.sh": scripts["lib.sh"], "fio-failover.sh": scripts["fio-failover.sh"], "failover.fio": scripts["failover.fio"] },
  };
  const env = Object.entries({
    FIO_DIR: `${FIO_DATA_MOUNT}/fio`,
    FIO_SIZE: s.fileSize,
    FIO_MAX_RUNTIME: s.maxRuntimeSeconds,
    LAB_STOP_FILE: ANNOTATIONS_FILE,
    LAB_STOP_KEY: STOP_ANNOTATION,
    TMPDIR: "/tmp",
  }).map(([n, v]) => ({ name: n, value: String(v) }));
  const r = DEFAULT_RESOURCES.fio;
  const container: IContainer = {
    name: FIO_CONTAINER,
    image: s.image,
    imagePullPolicy: "IfNotPresent",
    command: ["/bin/sh", `${SCRIPTS_MOUNT}/fio-failover.sh`],
    env,
    resources: { requests: { ...r.requests }, limits: { ...r.limits } },
    securityContext: restrictedContainerSecurityContext(),
    volumeMounts: [...commonMounts, { name: "data", mountPath: FIO_DATA_MOUNT }],
  };
  const volumes: IVolume[] = [
    { name: "scripts", configMap: { name, defaultMode: 0o444 } },
    { name: "data", persistentVolumeClaim: { claimName: name } },
  ];
  const deadline = s.maxRuntimeSeconds + DEADLINE_MARGIN_SECONDS;
  return {
    claim,
    configMap,
    job: job(fioJobName(s.runId), s.namespace, lbl, deadline, podSpec(TOOLS_IMAGE_UID, container, volumes, true)),
  };
}
