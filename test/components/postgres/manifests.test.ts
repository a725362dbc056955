/** The Postgres server objects against the Kubernetes OpenAPI schemas and the restricted Pod Security profile. */
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { Namespace } from "kubernetes-models/v1/Namespace";
import { Service } from "kubernetes-models/v1/Service";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { DEFAULT_PGBENCH_IMAGE } from "../../../components/bench/images";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { benchLabels } from "../../../components/bench/render";
import {
  namespaceManifest,
  POSTGRES_CLIENT_SELECTOR,
  postgresConnection,
  postgresNetworkPolicyManifests,
  serviceManifest,
  statefulSetManifest,
} from "../../../components/postgres/manifests";
import { resolve } from "../../../components/postgres/rules";
import { POSTGRES_IMAGE } from "../../../components/versions";
import { restrictedViolations } from "../../helpers/podSecurity";

const spec = { ...resolve({ storageClass: "rook-ceph-block" }), name: "postgres", passwordSecretName: "postgres-credentials" };

describe("Postgres manifests", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const sts = statefulSetManifest(spec) as any;
  const pod = sts.spec.template.spec as IPodSpec;
  const [c] = pod.containers;

  test("validate against the Kubernetes OpenAPI schemas", () => {
    expect(() => new StatefulSet(sts).validate()).not.toThrow();
    expect(() => new Service(serviceManifest(spec) as never).validate()).not.toThrow();
    expect(() => new Namespace(namespaceManifest("bench") as never).validate()).not.toThrow();
    expect(() => new StatefulSet({ ...sts, spec: { ...sts.spec, replicas: "one" } }).validate()).toThrow(/replicas must be integer/);
  });

  test("Postgres 17 as published: 1 CPU / 4 GiB and 64 MiB of huge pages, a 64 GiB volume on the StorageClass, deleted with the set", () => {
    expect(c.image).toBe(POSTGRES_IMAGE);
    expect(POSTGRES_IMAGE).toMatch(/^docker\.io\/library\/postgres:17\.\d+-bookworm$/);
    // koor-tech/experiment-ceph-on-nitro k8s/base/postgres.deployment.yaml lines 27-35.
    const published = { cpu: "1", memory: "4Gi", "hugepages-2Mi": "64Mi" };
    expect(c.resources).toEqual({ requests: published, limits: published });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const none = statefulSetManifest({ ...spec, hugepages2Mi: "0" }) as any;
    expect(none.spec.template.spec.containers[0].resources).toEqual({
      requests: { cpu: "1", memory: "4Gi" },
      limits: { cpu: "1", memory: "4Gi" },
    });
    expect(sts.spec.volumeClaimTemplates).toEqual([
      {
        metadata: { name: "data", labels: sts.spec.selector.matchLabels },
        spec: { accessModes: ["ReadWriteOnce"], storageClassName: "rook-ceph-block", resources: { requests: { storage: "64Gi" } } },
      },
    ]);
    expect(sts.spec.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: "Delete", whenScaled: "Retain" });
    expect(sts.spec.replicas).toBe(1);
  });

  test("the password comes from the Secret; PGDATA is below the mount (ext4's lost+found)", () => {
    expect(c.env).toEqual([
      { name: "POSTGRES_USER", value: "postgres" },
      { name: "POSTGRES_DB", value: "pgbench" },
      { name: "POSTGRES_PASSWORD", valueFrom: { secretKeyRef: { name: "postgres-credentials", key: "password" } } },
      { name: "PGDATA", value: "/var/lib/postgresql/data/pgdata" },
    ]);
    expect(c.volumeMounts).toEqual([{ name: "data", mountPath: "/var/lib/postgresql/data" }]);
  });

  test("any node by default; pinned by nodeSelector when asked (the ceph-k0s stack: worker 1)", () => {
    expect(pod.nodeSelector).toBeUndefined();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const pinned = statefulSetManifest({ ...spec, nodeSelector: { "storage-bench-lab/worker": "1" } }) as any;
    expect(pinned.spec.template.spec.nodeSelector).toEqual({ "storage-bench-lab/worker": "1" });
    expect(() => new StatefulSet(pinned).validate()).not.toThrow();
  });

  test("readiness is pg_isready against the local server", () => {
    expect(c.readinessProbe?.exec?.command).toEqual(["pg_isready", "-h", "127.0.0.1", "-p", "5432", "-U", "postgres", "-d", "pgbench"]);
  });

  test("meets the restricted Pod Security profile, which its namespace enforces", () => {
    expect(restrictedViolations(pod)).toEqual([]);
    expect(pod.securityContext).toMatchObject({ runAsUser: 999, runAsGroup: 999, fsGroup: 999, runAsNonRoot: true });
    expect((namespaceManifest("bench").metadata as { labels: Record<string, string> }).labels["pod-security.kubernetes.io/enforce"]).toBe(
      "restricted",
    );
  });

  test("clients reach it by the headless Service's DNS name; the pgbench client is the same Postgres release", () => {
    expect(postgresConnection("bench")).toEqual({
      host: "postgres.bench.svc.cluster.local",
      port: 5432,
      user: "postgres",
      database: "pgbench",
      passwordSecret: { name: "postgres-credentials", key: "password" },
    });
    expect((serviceManifest(spec).spec as { clusterIP: string }).clusterIP).toBe("None");
    expect(DEFAULT_PGBENCH_IMAGE).toBe(POSTGRES_IMAGE);
  });
});

describe("Postgres NetworkPolicies", () => {
  const policies = postgresNetworkPolicyManifests(spec);
  const server = {
    podSelector: { matchLabels: serviceManifest(spec).spec ? (serviceManifest(spec).spec as { selector: object }).selector : {} },
  };
  const pgbench = { podSelector: { matchLabels: { ...POSTGRES_CLIENT_SELECTOR } } };

  test("default deny and DNS, then the server ← pgbench on 5432 and pgbench → the server on 5432; all valid", () => {
    expect(policies.map((p) => [p.metadata?.namespace, p.metadata?.name])).toEqual([
      ["bench", "default-deny"],
      ["bench", "allow-dns"],
      ["bench", "postgres-server"],
      ["bench", "postgres-clients"],
    ]);
    for (const p of policies) expect(() => new NetworkPolicy(p).validate()).not.toThrow();
    expect(policies[2].spec).toEqual({
      podSelector: server.podSelector,
      policyTypes: ["Ingress"],
      ingress: [{ from: [pgbench], ports: [{ protocol: "TCP", port: 5432 }] }],
    });
    expect(policies[3].spec).toEqual({
      podSelector: pgbench.podSelector,
      policyTypes: ["Egress"],
      egress: [{ to: [server], ports: [{ protocol: "TCP", port: 5432 }] }],
    });
  });

  test("the pgbench Jobs' pods carry the client labels (components/bench benchLabels), fio's do not", () => {
    expect(benchLabels("same-az", "pgbench")).toMatchObject({ ...POSTGRES_CLIENT_SELECTOR });
    expect(benchLabels("same-az", "fio")).not.toMatchObject({ ...POSTGRES_CLIENT_SELECTOR });
  });
});
