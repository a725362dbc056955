/**
 * The PostgreSQL server pgbench drives, as plain Kubernetes objects: a namespace under the
 * restricted Pod Security profile, a headless Service and a one-replica StatefulSet whose data
 * volume comes from a StorageClass (Rook's `rook-ceph-block` in the Ceph lab). Pure: the component
 * (index.ts) adds the password Secret and turns the objects into resources; the tests validate
 * them against the Kubernetes OpenAPI schemas (kubernetes-models).
 *
 * The server runs as the official image's `postgres` user (uid/gid 999) with no privilege, so it
 * satisfies the restricted profile; PGDATA is a subdirectory of the volume (an ext4 root holds
 * `lost+found`, which initdb refuses). Readiness is `pg_isready` against the local server.
 */
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import type { INamespace } from "kubernetes-models/v1/Namespace";
import { podSecurityNamespace } from "../lib/kubernetes";
import { baselineNetworkPolicies } from "../lib/network-policy";
import { hugepages2MiCount, POSTGRES_DEFAULTS, ResolvedPostgres } from "./rules";

/** The postgres user of the official image. */
export const POSTGRES_UID = 999;
/** Where the volume is mounted, and PGDATA inside it. */
export const DATA_MOUNT = "/var/lib/postgresql/data";
export const PGDATA = `${DATA_MOUNT}/pgdata`;
/** The Secret key holding the password. */
export const PASSWORD_KEY = "password";

/** What the manifests are rendered from: the component's resolved arguments (rules.ts), plus the names it picks. */
export interface PostgresSpec extends ResolvedPostgres {
  /** Name of the StatefulSet, its Service and its pods' label. */
  readonly name: string;
  /** The Secret holding the superuser's password under {@link PASSWORD_KEY}. */
  readonly passwordSecretName: string;
}

function labels(name: string): Record<string, string> {
  return { "app.kubernetes.io/name": "postgres", "app.kubernetes.io/instance": name, "app.kubernetes.io/part-of": "storage-bench-lab" };
}

/** A namespace that admits only pods meeting the restricted Pod Security profile. */
export function namespaceManifest(name: string): INamespace {
  return podSecurityNamespace(name, "restricted");
}

/**
 * The pods allowed to connect to the server: the benchmark's pgbench Jobs (components/bench
 * render.ts `benchLabels(name, "pgbench")`; a test holds the two together).
 */
export const POSTGRES_CLIENT_SELECTOR: Readonly<Record<string, string>> = {
  "app.kubernetes.io/name": "pgbench",
  "app.kubernetes.io/component": "benchmark",
  "app.kubernetes.io/part-of": "storage-bench-lab",
};

/**
 * The namespace's NetworkPolicies: default deny and DNS (components/lib/network-policy.ts), the
 * server ← pgbench on the PostgreSQL port, pgbench → the server on that port. Nothing else: the
 * server makes no connection, no pod here talks to the API server (no service-account token).
 * Enforced on k0s by either built-in CNI: Calico, the ceph-k0s kind's (as published), enforces them
 * (k0s "Networking": "pod-specific network policies"); kube-router runs a network policy controller
 * that programs iptables/ipsets from NetworkPolicies (Kubernetes docs, "Use Kube-router for
 * NetworkPolicy").
 */
export function postgresNetworkPolicyManifests(spec: PostgresSpec): INetworkPolicy[] {
  const server = { podSelector: { matchLabels: labels(spec.name) } };
  const clients = { podSelector: { matchLabels: { ...POSTGRES_CLIENT_SELECTOR } } };
  const ports = [{ protocol: "TCP" as const, port: POSTGRES_DEFAULTS.port }];
  const meta = (name: string) => ({ name, namespace: spec.namespace, labels: labels(spec.name) });
  return [
    ...baselineNetworkPolicies(spec.namespace),
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: meta(`${spec.name}-server`),
      spec: { podSelector: server.podSelector, policyTypes: ["Ingress"], ingress: [{ from: [clients], ports }] },
    },
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: meta(`${spec.name}-clients`),
      spec: { podSelector: clients.podSelector, policyTypes: ["Egress"], egress: [{ to: [server], ports }] },
    },
  ];
}

/** The headless Service in front of the StatefulSet (the pod's stable DNS name). */
export function serviceManifest(spec: PostgresSpec): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: spec.name, namespace: spec.namespace, labels: labels(spec.name) },
    spec: {
      clusterIP: "None",
      selector: labels(spec.name),
      ports: [{ name: "postgres", port: POSTGRES_DEFAULTS.port, targetPort: "postgres", protocol: "TCP" }],
    },
  };
}

/** The host name clients use: the Service's cluster DNS name. */
export function postgresHost(spec: Pick<PostgresSpec, "name" | "namespace">): string {
  return `${spec.name}.${spec.namespace}.svc.cluster.local`;
}

/** The server's name, and the Secret the component keeps its password in. */
export const POSTGRES_NAME = "postgres";
export const PASSWORD_SECRET_NAME = "postgres-credentials";

/** How a client in the cluster reaches the server the Postgres component creates in `namespace` (plain values). */
export function postgresConnection(namespace: string): {
  host: string;
  port: number;
  user: string;
  database: string;
  passwordSecret: { name: string; key: string };
} {
  return {
    host: postgresHost({ name: POSTGRES_NAME, namespace }),
    port: POSTGRES_DEFAULTS.port,
    user: POSTGRES_DEFAULTS.user,
    database: POSTGRES_DEFAULTS.database,
    passwordSecret: { name: PASSWORD_SECRET_NAME, key: PASSWORD_KEY },
  };
}

/** The StatefulSet: one replica, the data volume from the StorageClass, deleted with the set. */
export function statefulSetManifest(spec: PostgresSpec): Record<string, unknown> {
  const d = POSTGRES_DEFAULTS;
  const { user, database } = d;
  // Huge pages are requested and limited alike (Kubernetes requires it); none when "0".
  const hugepages = hugepages2MiCount(spec.hugepages2Mi) > 0 ? { "hugepages-2Mi": spec.hugepages2Mi } : {};
  const resources = { cpu: spec.cpu, memory: spec.memory, ...hugepages };
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: spec.name, namespace: spec.namespace, labels: labels(spec.name) },
    spec: {
      serviceName: spec.name,
      replicas: 1,
      selector: { matchLabels: labels(spec.name) },
      // The RBD image goes with the set (a lab never keeps a benchmark database).
      persistentVolumeClaimRetentionPolicy: { whenDeleted: "Delete", whenScaled: "Retain" },
      template: {
        metadata: { labels: labels(spec.name) },
        spec: {
          automountServiceAccountToken: false,
          // Pinned to one node when asked (the ceph-k0s stack: worker 1), so two stacks place it alike.
          ...(Object.keys(spec.nodeSelector).length > 0 ? { nodeSelector: { ...spec.nodeSelector } } : {}),
          terminationGracePeriodSeconds: 120,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: POSTGRES_UID,
            runAsGroup: POSTGRES_UID,
            fsGroup: POSTGRES_UID,
            fsGroupChangePolicy: "OnRootMismatch",
            seccompProfile: { type: "RuntimeDefault" },
          },
          containers: [
            {
              name: "postgres",
              image: spec.image,
              ports: [{ name: "postgres", containerPort: d.port, protocol: "TCP" }],
              env: [
                { name: "POSTGRES_USER", value: user },
                { name: "POSTGRES_DB", value: database },
                { name: "POSTGRES_PASSWORD", valueFrom: { secretKeyRef: { name: spec.passwordSecretName, key: PASSWORD_KEY } } },
                { name: "PGDATA", value: PGDATA },
              ],
              resources: { requests: resources, limits: resources },
              // Alive while the postmaster accepts TCP connections: it does during a long crash
              // recovery too (it then rejects logins, which only readiness reports), so a recovery is
              // never killed by its own liveness probe.
              livenessProbe: {
                tcpSocket: { port: "postgres" },
                initialDelaySeconds: 30,
                periodSeconds: 20,
                timeoutSeconds: 5,
                failureThreshold: 6,
              },
              readinessProbe: {
                exec: { command: ["pg_isready", "-h", "127.0.0.1", "-p", String(d.port), "-U", user, "-d", database] },
                initialDelaySeconds: 5,
                periodSeconds: 10,
                timeoutSeconds: 5,
                failureThreshold: 6,
              },
              securityContext: {
                allowPrivilegeEscalation: false,
                capabilities: { drop: ["ALL"] },
                runAsNonRoot: true,
                seccompProfile: { type: "RuntimeDefault" },
              },
              volumeMounts: [{ name: "data", mountPath: DATA_MOUNT }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: "data", labels: labels(spec.name) },
          spec: {
            accessModes: ["ReadWriteOnce"],
            storageClassName: spec.storageClass,
            resources: { requests: { storage: `${spec.volumeGiB}Gi` } },
          },
        },
      ],
    },
  };
}
