/**
 * Replicated MySQL 8.4 as plain Kubernetes objects (pure): the Kubernetes tutorial "Run a Replicated
 * Stateful Application" (kubernetes/website content/en/examples/application/mysql/
 * mysql-statefulset.yaml, commit 044d11de: init-mysql, clone-mysql, mysql, xtrabackup sidecar),
 * rewritten for MySQL 8.4 and Percona XtraBackup 8.4 — the tutorial's MySQL 5.7 and
 * gcr.io/google-samples/xtrabackup:1.0 (XtraBackup 2.4) do not work with 8.4, whose replication
 * statements are CHANGE REPLICATION SOURCE TO and START REPLICA (scripts/xtrabackup.sh).
 *
 * Changes from the tutorial, each for a reason:
 * - a root password from a Secret (the tutorial's MYSQL_ALLOW_EMPTY_PASSWORD is a known trap);
 *   clients read it from an option file init-mysql writes (`--defaults-extra-file`, first option);
 * - every container non-root (uid 999, the image's `mysql`), no privilege escalation, all
 *   capabilities dropped, RuntimeDefault seccomp: the restricted Pod Security profile, which the
 *   namespace enforces; the data volume is mounted whole and the data directory is a subdirectory
 *   (`datadir`, common.cnf) that the uid 999 entrypoint creates, instead of a kubelet-made subPath;
 * - requests and limits on every container, startup/liveness/readiness probes;
 * - socat instead of ncat (the XtraBackup image ships socat);
 * - placement: no node or zone affinity and a *soft* zone spread, so `mysql-0` can be rescheduled
 *   into the other zone (the failover experiment): its FSx for ONTAP volume is reachable from both
 *   zones and carries no topology; a required spread would refuse that move.
 */
import type { IStatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import type { IPodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { INamespace } from "kubernetes-models/v1/Namespace";
import type { ISecurityContext } from "kubernetes-models/v1/SecurityContext";
import type { IService } from "kubernetes-models/v1/Service";
import type { IServicePort } from "kubernetes-models/v1/ServicePort";
import { podSecurityNamespace } from "../lib/kubernetes";
import { baselineNetworkPolicies } from "../lib/network-policy";
import { MYSQL_PORT, MYSQL_UID, ResolvedMySql, XTRABACKUP_PORT } from "./rules";
import type { MySqlScripts } from "./scripts";

/** The StatefulSet, its headless Service, ConfigMap, PodDisruptionBudget and the pods' label. */
export const MYSQL_NAME = "mysql";
/** The client Service for reads (any server). */
export const MYSQL_READ_SERVICE = "mysql-read";
/** The Secret holding the root password, and its key. */
export const ROOT_SECRET_NAME = "mysql-root";
export const ROOT_PASSWORD_KEY = "password";
/**
 * The replication account (REPLICATION SLAVE only, created on the source by xtrabackup.sh) and the
 * Secret holding its password (key {@link ROOT_PASSWORD_KEY}): replicas connect with it, never as
 * root, because a replica keeps its SOURCE_PASSWORD in plain text in mysql.slave_master_info, which
 * is in every backup the sidecar serves on {@link XTRABACKUP_PORT}.
 */
export const REPLICATION_USER = "repl";
export const REPLICATION_SECRET_NAME = "mysql-replication";
/**
 * The failover experiment's writer account (lab/experiment/scripts/mysql-writer.sh), created on the
 * source by xtrabackup.sh with CREATE, INSERT and SELECT on {@link WRITER_DATABASE} and REPLICATION
 * CLIENT, never root; the Secret holding its password (key {@link ROOT_PASSWORD_KEY}), which the
 * writer's Job reads through a secretKeyRef.
 */
export const WRITER_USER = "lab_writer";
export const WRITER_DATABASE = "lab_failover";
export const WRITER_SECRET_NAME = "mysql-writer";

/** Where the data volume is mounted, and the data directory inside it. */
export const DATA_MOUNT = "/var/lib/mysql";
export const DATA_DIR = `${DATA_MOUNT}/data`;
/** The clients' option file (written by init-mysql into an emptyDir). */
export const CLIENT_DIR = "/etc/mysql-client";
export const CLIENT_CNF = `${CLIENT_DIR}/root.cnf`;
/** Where the ConfigMap (configuration files and scripts) is mounted. */
export const CONFIG_MAP_MOUNT = "/mnt/config-map";

export const ZONE_KEY = "topology.kubernetes.io/zone";
export const HOSTNAME_KEY = "kubernetes.io/hostname";

export function mysqlLabels(): Record<string, string> {
  return { "app.kubernetes.io/name": "mysql", "app.kubernetes.io/instance": MYSQL_NAME, "app.kubernetes.io/part-of": "storage-bench-lab" };
}

/** The source's DNS name (pod 0 through the headless Service). */
export function sourceHost(namespace: string): string {
  return `${MYSQL_NAME}-0.${MYSQL_NAME}.${namespace}.svc.cluster.local`;
}

/**
 * The pods allowed to query the servers on {@link MYSQL_PORT} besides the servers themselves:
 * `lab experiment mysql-failover`'s writer Job (lab/experiment/manifests.ts labels it so; a test
 * there holds the two together).
 */
export const MYSQL_CLIENT_SELECTOR: Readonly<Record<string, string>> = {
  "app.kubernetes.io/name": "mysql-writer",
  "app.kubernetes.io/part-of": "storage-bench-lab",
};
/** The servers' own NetworkPolicy and the clients'. */
export const MYSQL_SERVERS_POLICY = "mysql-servers";
export const MYSQL_CLIENTS_POLICY = "mysql-clients";

/**
 * The namespace's NetworkPolicies: default deny and DNS (components/lib/network-policy.ts), then
 * exactly the flows replication and the experiments use:
 * - servers ← servers and the writer on 3306 (replication: a replica's receiver connects to
 *   mysql-0; the writer writes to mysql-0 and reads back from the replicas);
 * - servers ← servers only on 3307: the xtrabackup sidecar streams a full, unauthenticated backup
 *   to the next pod's clone-mysql, and to nobody else;
 * - servers → servers on 3306 and 3307; the writer → servers on 3306.
 * No pod here talks to the API server (automountServiceAccountToken: false everywhere), so no
 * egress to it. kubelet's exec probes use no network.
 */
export function mysqlNetworkPolicyManifests(r: ResolvedMySql): INetworkPolicy[] {
  const servers = { podSelector: { matchLabels: mysqlLabels() } };
  const clients = { podSelector: { matchLabels: { ...MYSQL_CLIENT_SELECTOR } } };
  const tcp = (port: number) => ({ protocol: "TCP" as const, port });
  const meta = (name: string) => ({ name, namespace: r.namespace, labels: mysqlLabels() });
  return [
    ...baselineNetworkPolicies(r.namespace),
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: meta(MYSQL_SERVERS_POLICY),
      spec: {
        podSelector: { matchLabels: mysqlLabels() },
        policyTypes: ["Ingress", "Egress"],
        ingress: [
          { from: [servers, clients], ports: [tcp(MYSQL_PORT)] },
          { from: [servers], ports: [tcp(XTRABACKUP_PORT)] },
        ],
        egress: [{ to: [servers], ports: [tcp(MYSQL_PORT), tcp(XTRABACKUP_PORT)] }],
      },
    },
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: meta(MYSQL_CLIENTS_POLICY),
      spec: {
        podSelector: { matchLabels: { ...MYSQL_CLIENT_SELECTOR } },
        policyTypes: ["Egress"],
        egress: [{ to: [servers], ports: [tcp(MYSQL_PORT)] }],
      },
    },
  ];
}

/** A namespace that admits only pods meeting the restricted Pod Security profile. */
export function restrictedNamespaceManifest(name: string): INamespace {
  return podSecurityNamespace(name, "restricted");
}

/**
 * The servers' configuration (the tutorial's primary.cnf/replica.cnf in 8.4 words) and the
 * scripts. `datadir` below the mount point; binary log on the source; replicas read-only even
 * for SUPER (`super_read_only`).
 */
export function mysqlConfigMapManifest(r: ResolvedMySql, scripts: MySqlScripts): IConfigMap {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: MYSQL_NAME, namespace: r.namespace, labels: mysqlLabels() },
    data: {
      "common.cnf": `[mysqld]\ndatadir=${DATA_DIR}\n`,
      "source.cnf": "# The source (mysql-0): binary log on.\n[mysqld]\nlog-bin\n",
      "replica.cnf": "# Replicas: read-only, also for accounts with SUPER.\n[mysqld]\nsuper-read-only\n",
      ...scripts,
    },
  };
}

/** The headless Service (stable pod DNS names) and the read Service. */
export function mysqlServiceManifests(r: ResolvedMySql): IService[] {
  const port: IServicePort = { name: "mysql", port: MYSQL_PORT, targetPort: "mysql", protocol: "TCP" };
  return [
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: MYSQL_NAME, namespace: r.namespace, labels: mysqlLabels() },
      spec: { clusterIP: "None", selector: mysqlLabels(), ports: [port] },
    },
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: MYSQL_READ_SERVICE, namespace: r.namespace, labels: mysqlLabels() },
      spec: { type: "ClusterIP", selector: mysqlLabels(), ports: [port] },
    },
  ];
}

/** At most one server down at a time by voluntary disruption (drain, node group update). */
export function mysqlPdbManifest(r: ResolvedMySql): IPodDisruptionBudget {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: MYSQL_NAME, namespace: r.namespace, labels: mysqlLabels() },
    spec: { maxUnavailable: 1, selector: { matchLabels: mysqlLabels() } },
  };
}

const RESTRICTED: ISecurityContext = {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ["ALL"] },
  runAsNonRoot: true,
  seccompProfile: { type: "RuntimeDefault" },
};

const res = (cpu: string, memory: string, cpuLimit = cpu, memoryLimit = memory) => ({
  requests: { cpu, memory },
  limits: { cpu: cpuLimit, memory: memoryLimit },
});

const secretEnv = { name: "MYSQL_ROOT_PASSWORD", valueFrom: { secretKeyRef: { name: ROOT_SECRET_NAME, key: ROOT_PASSWORD_KEY } } };
const replicationPasswordEnv = {
  name: "REPLICATION_PASSWORD",
  valueFrom: { secretKeyRef: { name: REPLICATION_SECRET_NAME, key: ROOT_PASSWORD_KEY } },
};
const podNameEnv = { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } };
const script = (file: keyof MySqlScripts) => ["bash", `${CONFIG_MAP_MOUNT}/${file}`];

/** The xtrabackup sidecar serves backups once socat is its PID 1 (xtrabackup.sh ends with `exec socat`). */
export const SERVING = ["sh", "-c", "grep -qx socat /proc/1/comm"];

/** The pod's volume mounts, by volume. */
const MOUNTS = {
  data: { name: "data", mountPath: DATA_MOUNT },
  conf: { name: "conf", mountPath: "/etc/mysql/conf.d" },
  client: { name: "client", mountPath: CLIENT_DIR, readOnly: true },
  configMap: { name: "config-map", mountPath: CONFIG_MAP_MOUNT, readOnly: true },
  tmp: { name: "tmp", mountPath: "/tmp" },
};

/** init-mysql: the server's config and the clients' option file. */
function initMysqlContainer(r: ResolvedMySql): IContainer {
  return {
    name: "init-mysql",
    image: r.image,
    command: script("init-mysql.sh"),
    env: [podNameEnv, secretEnv],
    resources: res("100m", "64Mi", "500m", "128Mi"),
    securityContext: RESTRICTED,
    volumeMounts: [{ name: "conf", mountPath: "/mnt/conf.d" }, { name: "client", mountPath: "/mnt/client" }, MOUNTS.configMap],
  };
}

/** clone-mysql: a replica's data cloned from the pod before it. */
function cloneMysqlContainer(r: ResolvedMySql): IContainer {
  return {
    name: "clone-mysql",
    image: r.xtrabackupImage,
    command: script("clone-mysql.sh"),
    env: [
      podNameEnv,
      { name: "STATEFULSET", value: MYSQL_NAME },
      { name: "SERVICE", value: MYSQL_NAME },
      { name: "DATA_DIR", value: DATA_DIR },
      { name: "XTRABACKUP_PORT", value: String(XTRABACKUP_PORT) },
    ],
    resources: res("500m", "512Mi", "2", "2Gi"),
    securityContext: RESTRICTED,
    volumeMounts: [MOUNTS.data, MOUNTS.conf, MOUNTS.configMap, MOUNTS.tmp],
  };
}

/** mysql: the server, with its startup, liveness and readiness probes. */
function mysqlContainer(r: ResolvedMySql): IContainer {
  return {
    name: "mysql",
    image: r.image,
    env: [secretEnv],
    ports: [{ name: "mysql", containerPort: MYSQL_PORT, protocol: "TCP" }],
    resources: res(r.cpu, r.memory),
    securityContext: RESTRICTED,
    volumeMounts: [MOUNTS.data, MOUNTS.conf, MOUNTS.client, MOUNTS.tmp],
    // First start initializes the source's data directory: give it up to 10 minutes.
    startupProbe: {
      exec: { command: ["mysqladmin", `--defaults-extra-file=${CLIENT_CNF}`, "ping"] },
      periodSeconds: 10,
      failureThreshold: 60,
    },
    // mysqladmin ping exits 0 whenever the server runs (even on access denied): the liveness signal.
    livenessProbe: {
      exec: { command: ["mysqladmin", `--defaults-extra-file=${CLIENT_CNF}`, "ping"] },
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 3,
    },
    // Ready when it executes queries over TCP (networking on, credentials right).
    readinessProbe: {
      exec: { command: ["mysql", `--defaults-extra-file=${CLIENT_CNF}`, "-e", "SELECT 1"] },
      periodSeconds: 2,
      timeoutSeconds: 1,
      failureThreshold: 3,
    },
  };
}

/** xtrabackup: the sidecar that sets up replication and serves backups. */
function xtrabackupContainer(r: ResolvedMySql): IContainer {
  return {
    name: "xtrabackup",
    image: r.xtrabackupImage,
    command: script("xtrabackup.sh"),
    // No root password here: the sidecar reaches its own server with the clients' option file.
    env: [
      podNameEnv,
      { name: "REPLICATION_USER", value: REPLICATION_USER },
      replicationPasswordEnv,
      { name: "WRITER_USER", value: WRITER_USER },
      { name: "WRITER_DATABASE", value: WRITER_DATABASE },
      { name: "WRITER_PASSWORD", valueFrom: { secretKeyRef: { name: WRITER_SECRET_NAME, key: ROOT_PASSWORD_KEY } } },
      { name: "DATA_DIR", value: DATA_DIR },
      { name: "SOURCE_HOST", value: sourceHost(r.namespace) },
      { name: "XTRABACKUP_PORT", value: String(XTRABACKUP_PORT) },
      { name: "CLIENT_CNF", value: CLIENT_CNF },
    ],
    ports: [{ name: "xtrabackup", containerPort: XTRABACKUP_PORT, protocol: "TCP" }],
    // Serving once xtrabackup.sh has set up replication and exec'ed socat as PID 1. Not a TCP probe:
    // every connection to the port streams a full backup (socat ... fork EXEC:xtrabackup --backup).
    // The startup probe gives the replication setup (which waits for mysqld) up to 10 minutes.
    startupProbe: { exec: { command: SERVING }, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 60 },
    livenessProbe: { exec: { command: SERVING }, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 3 },
    readinessProbe: { exec: { command: SERVING }, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 },
    resources: res("100m", "256Mi", "1", "1Gi"),
    securityContext: RESTRICTED,
    volumeMounts: [MOUNTS.data, MOUNTS.conf, MOUNTS.client, MOUNTS.configMap, MOUNTS.tmp],
  };
}

/** The StatefulSet: init-mysql, clone-mysql, mysql and the xtrabackup sidecar. */
export function mysqlStatefulSetManifest(r: ResolvedMySql): IStatefulSet {
  const labels = mysqlLabels();
  const [initMysql, cloneMysql, mysql, xtrabackup] = [
    initMysqlContainer(r),
    cloneMysqlContainer(r),
    mysqlContainer(r),
    xtrabackupContainer(r),
  ];
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: MYSQL_NAME, namespace: r.namespace, labels },
    spec: {
      serviceName: MYSQL_NAME,
      replicas: r.replicas,
      selector: { matchLabels: labels },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: "Delete", whenScaled: "Retain" },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 60,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: MYSQL_UID,
            runAsGroup: MYSQL_UID,
            fsGroup: MYSQL_UID,
            fsGroupChangePolicy: "OnRootMismatch",
            seccompProfile: { type: "RuntimeDefault" },
          },
          // Soft spread over zones and hosts only: a server may always move to the other zone.
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: ZONE_KEY, whenUnsatisfiable: "ScheduleAnyway", labelSelector: { matchLabels: labels } },
          ],
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 100, podAffinityTerm: { topologyKey: HOSTNAME_KEY, labelSelector: { matchLabels: labels } } },
              ],
            },
          },
          initContainers: [initMysql, cloneMysql],
          containers: [mysql, xtrabackup],
          volumes: [
            { name: "conf", emptyDir: {} },
            { name: "client", emptyDir: { medium: "Memory", sizeLimit: "1Mi" } },
            { name: "tmp", emptyDir: {} },
            { name: "config-map", configMap: { name: MYSQL_NAME } },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: "data", labels },
          spec: {
            accessModes: ["ReadWriteOnce"],
            storageClassName: r.storageClass,
            resources: { requests: { storage: `${r.volumeGiB}Gi` } },
          },
        },
      ],
    },
  };
}
