/**
 * Replicated MySQL 8.4's objects against the Kubernetes OpenAPI schemas (kubernetes-models), the
 * restricted Pod Security profile its namespace enforces, and the lab's intent: pinned images,
 * secret root password, probes, requests and limits, a PDB, placement that lets mysql-0 change zones.
 */
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { Service } from "kubernetes-models/v1/Service";
import {
  CLIENT_CNF,
  DATA_DIR,
  MYSQL_CLIENT_SELECTOR,
  mysqlConfigMapManifest,
  mysqlLabels,
  mysqlNetworkPolicyManifests,
  mysqlPdbManifest,
  mysqlServiceManifests,
  mysqlStatefulSetManifest,
  restrictedNamespaceManifest,
  sourceHost,
} from "../../../components/mysql/manifests";
import { resolve } from "../../../components/mysql/rules";
import { MYSQL_SCRIPT_FILES, readMySqlScripts } from "../../../components/mysql/scripts";
import { isPinnedImage } from "../../../core/images";
import { restrictedViolations } from "../../helpers/podSecurity";

const r = resolve({ storageClass: "fsx-ontap-nas" });
const sts = mysqlStatefulSetManifest(r);
const pod = sts.spec!.template.spec as IPodSpec;
const container = (name: string) => [...(pod.initContainers ?? []), ...pod.containers].find((c) => c.name === name)!;

describe("MySQL objects: Kubernetes schemas", () => {
  test("every object validates, and the check can fail", () => {
    expect(() => new StatefulSet(sts).validate()).not.toThrow();
    for (const s of mysqlServiceManifests(r)) expect(() => new Service(s).validate()).not.toThrow();
    expect(() => new PodDisruptionBudget(mysqlPdbManifest(r)).validate()).not.toThrow();
    expect(() => new ConfigMap(mysqlConfigMapManifest(r, readMySqlScripts())).validate()).not.toThrow();
    expect(() => new Namespace(restrictedNamespaceManifest("mysql")).validate()).not.toThrow();
    expect(() => new StatefulSet({ ...sts, spec: { ...sts.spec!, replicas: "three" as never } }).validate()).toThrow(/replicas/);
  });
});

describe("MySQL NetworkPolicies: default deny, then exactly replication's and the writer's flows", () => {
  const policies = mysqlNetworkPolicyManifests(r);
  const byName = (n: string) => policies.find((p) => p.metadata?.name === n)!;
  const servers = { podSelector: { matchLabels: mysqlLabels() } };
  const writer = { podSelector: { matchLabels: { "app.kubernetes.io/name": "mysql-writer", "app.kubernetes.io/part-of": "storage-bench-lab" } } };

  test("four policies in the MySQL namespace, each valid against the schema", () => {
    expect(policies.map((p) => [p.metadata?.namespace, p.metadata?.name])).toEqual([
      ["mysql", "default-deny"],
      ["mysql", "allow-dns"],
      ["mysql", "mysql-servers"],
      ["mysql", "mysql-clients"],
    ]);
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(MYSQL_CLIENT_SELECTOR).toEqual(writer.podSelector.matchLabels);
  });

  test("servers: 3306 from servers and the writer, 3307 (the unauthenticated backup stream) from servers only; out only to servers", () => {
    expect(byName("mysql-servers").spec).toEqual({
      podSelector: { matchLabels: mysqlLabels() },
      policyTypes: ["Ingress", "Egress"],
      ingress: [
        { from: [servers, writer], ports: [{ protocol: "TCP", port: 3306 }] },
        { from: [servers], ports: [{ protocol: "TCP", port: 3307 }] },
      ],
      egress: [{ to: [servers], ports: [{ protocol: "TCP", port: 3306 }, { protocol: "TCP", port: 3307 }] }],
    });
  });

  test("the writer: out to the servers' 3306 only (never 3307); no pod gets egress to the API server", () => {
    expect(byName("mysql-clients").spec).toEqual({
      podSelector: writer.podSelector,
      policyTypes: ["Egress"],
      egress: [{ to: [servers], ports: [{ protocol: "TCP", port: 3306 }] }],
    });
    expect(JSON.stringify(policies)).not.toMatch(/ipBlock|443/);
    expect(pod.automountServiceAccountToken).toBe(false);
  });
});

describe("the published pattern for 8.4", () => {
  test("init-mysql and clone-mysql, then mysql and the xtrabackup sidecar; pinned MySQL 8.4 and XtraBackup 8.4 images", () => {
    expect(pod.initContainers!.map((c) => [c.name, c.image])).toEqual([
      ["init-mysql", "docker.io/library/mysql:8.4.11"],
      ["clone-mysql", "docker.io/percona/percona-xtrabackup:8.4.0-5.1"],
    ]);
    expect(pod.containers.map((c) => [c.name, c.image])).toEqual([
      ["mysql", "docker.io/library/mysql:8.4.11"],
      ["xtrabackup", "docker.io/percona/percona-xtrabackup:8.4.0-5.1"],
    ]);
    for (const c of [...pod.initContainers!, ...pod.containers]) expect(isPinnedImage(c.image)).toBe(true);
    expect(container("init-mysql").command).toEqual(["bash", "/mnt/config-map/init-mysql.sh"]);
    expect(container("clone-mysql").command).toEqual(["bash", "/mnt/config-map/clone-mysql.sh"]);
    expect(container("xtrabackup").command).toEqual(["bash", "/mnt/config-map/xtrabackup.sh"]);
    expect(container("mysql").command).toBeUndefined(); // the image's entrypoint initialises the source
  });

  test("the root password comes from the Secret, never an empty one; clients read an option file", () => {
    const secretEnv = { name: "MYSQL_ROOT_PASSWORD", valueFrom: { secretKeyRef: { name: "mysql-root", key: "password" } } };
    expect(container("mysql").env).toEqual([secretEnv]);
    expect(container("init-mysql").env).toContainEqual(secretEnv);
    // The sidecar (whose port 3307 serves backups) gets no root password: the replication account's only.
    expect(container("xtrabackup").env).not.toContainEqual(secretEnv);
    expect(JSON.stringify(container("xtrabackup").env)).not.toContain("mysql-root");
    expect(container("xtrabackup").env).toEqual(
      expect.arrayContaining([
        { name: "REPLICATION_USER", value: "repl" },
        { name: "REPLICATION_PASSWORD", valueFrom: { secretKeyRef: { name: "mysql-replication", key: "password" } } },
        { name: "WRITER_USER", value: "lab_writer" },
        { name: "WRITER_DATABASE", value: "lab_failover" },
        { name: "WRITER_PASSWORD", valueFrom: { secretKeyRef: { name: "mysql-writer", key: "password" } } },
        { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
      ]),
    );
    expect(JSON.stringify(sts)).not.toMatch(/MYSQL_ALLOW_EMPTY_PASSWORD|MYSQL_RANDOM_ROOT_PASSWORD/);
    expect(CLIENT_CNF).toBe("/etc/mysql-client/root.cnf");
    expect(pod.volumes).toContainEqual({ name: "client", emptyDir: { medium: "Memory", sizeLimit: "1Mi" } });
  });

  test("configuration: data directory below the mount, binary log on the source, read-only replicas", () => {
    const data = mysqlConfigMapManifest(r, readMySqlScripts()).data!;
    expect(data["common.cnf"]).toBe(`[mysqld]\ndatadir=${DATA_DIR}\n`);
    expect(DATA_DIR).toBe("/var/lib/mysql/data");
    expect(data["source.cnf"]).toBe("# The source (mysql-0): binary log on.\n[mysqld]\nlog-bin\n");
    expect(data["replica.cnf"]).toBe("# Replicas: read-only, also for accounts with SUPER.\n[mysqld]\nsuper-read-only\n");
    for (const f of MYSQL_SCRIPT_FILES) expect(data[f]).toBe(readMySqlScripts()[f]);
  });

  test("probes: startup and liveness by mysqladmin ping, readiness by a query over TCP, all with the option file", () => {
    const m = container("mysql");
    expect(m.startupProbe).toEqual({
      exec: { command: ["mysqladmin", "--defaults-extra-file=/etc/mysql-client/root.cnf", "ping"] },
      periodSeconds: 10,
      failureThreshold: 60,
    });
    expect(m.livenessProbe?.exec?.command).toEqual(["mysqladmin", "--defaults-extra-file=/etc/mysql-client/root.cnf", "ping"]);
    expect(m.readinessProbe?.exec?.command).toEqual(["mysql", "--defaults-extra-file=/etc/mysql-client/root.cnf", "-e", "SELECT 1"]);
  });

  test("requests and limits on every container; the server Guaranteed (request = limit)", () => {
    for (const c of [...pod.initContainers!, ...pod.containers]) {
      expect(Object.keys(c.resources?.requests ?? {}).sort()).toEqual(["cpu", "memory"]);
      expect(Object.keys(c.resources?.limits ?? {}).sort()).toEqual(["cpu", "memory"]);
    }
    expect(container("mysql").resources).toEqual({ requests: { cpu: "1", memory: "2Gi" }, limits: { cpu: "1", memory: "2Gi" } });
  });

  test("restricted Pod Security profile, which the namespace enforces", () => {
    expect(restrictedViolations(pod)).toEqual([]);
    expect(pod.securityContext).toMatchObject({ runAsUser: 999, runAsGroup: 999, fsGroup: 999, runAsNonRoot: true });
    expect(restrictedNamespaceManifest("mysql").metadata?.labels).toEqual({
      "pod-security.kubernetes.io/enforce": "restricted",
      "pod-security.kubernetes.io/enforce-version": "latest",
      "pod-security.kubernetes.io/warn": "restricted",
      "pod-security.kubernetes.io/audit": "restricted",
    });
    expect(restrictedViolations({ ...pod, containers: [{ ...pod.containers[0], securityContext: {} }] })).not.toEqual([]);
  });

  test("placement lets mysql-0 move to the other zone: no node affinity, soft zone spread, soft host anti-affinity", () => {
    expect(pod.nodeSelector).toBeUndefined();
    expect(pod.affinity?.nodeAffinity).toBeUndefined();
    expect(pod.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toBeUndefined();
    expect(pod.topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: "topology.kubernetes.io/zone",
        whenUnsatisfiable: "ScheduleAnyway",
        labelSelector: { matchLabels: mysqlLabels() },
      },
    ]);
    expect(pod.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toEqual([
      { weight: 100, podAffinityTerm: { topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: mysqlLabels() } } },
    ]);
  });

  test("one volume per server on the StorageClass under test; a PDB allowing one server down; stable DNS names", () => {
    expect(sts.spec!.volumeClaimTemplates).toEqual([
      {
        metadata: { name: "data", labels: mysqlLabels() },
        spec: { accessModes: ["ReadWriteOnce"], storageClassName: "fsx-ontap-nas", resources: { requests: { storage: "50Gi" } } },
      },
    ]);
    expect(sts.spec!.replicas).toBe(3);
    expect(mysqlPdbManifest(r).spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: mysqlLabels() } });
    expect(mysqlServiceManifests(r).map((s) => [s.metadata?.name, s.spec?.clusterIP ?? s.spec?.type])).toEqual([
      ["mysql", "None"],
      ["mysql-read", "ClusterIP"],
    ]);
    expect(sourceHost("mysql")).toBe("mysql-0.mysql.mysql.svc.cluster.local");
    expect(container("xtrabackup").env).toContainEqual({ name: "SOURCE_HOST", value: "mysql-0.mysql.mysql.svc.cluster.local" });
  });
});
