/**
 * The failover experiments' ServiceAccounts (stacks/fsx-eks/experiment-access.ts): their rules
 * exactly, every Cluster call the experiments' code makes is covered by its grant (the calls are read
 * from the source files: a new call fails here until the grant has it), and no rule is unused. The
 * end-to-end test's API server enforces the same grants on the requests client-node really sends
 * (./e2e.test.ts, `expectNarrowIdentity`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { accessManifests, ApiCall, grantAllows, type AccessGrant } from "../../../components/lib/rbac";
import { CLUSTER_API_CALLS, type Cluster } from "../../../lab/experiment/cluster";
import { experimentGrants } from "../../../stacks/fsx-eks/experiment-access";
import { ROOT } from "../../helpers/root";
import { requestCall } from "./apiserver";

const grants = experimentGrants("mysql", "bench");

/** The Cluster methods a source file calls (`cluster.<method>(`). */
function callsIn(...files: string[]): string[] {
  const out = new Set<string>();
  for (const f of files) {
    const text = fs.readFileSync(path.join(ROOT, "lab", "experiment", f), "utf8");
    for (const m of text.matchAll(/\bcluster\.(\w+)\(/g)) out.add(m[1]);
  }
  return [...out].sort();
}

/** Each call with the arguments the experiment passes in `ns` (names as the code forms them). */
function callsFor(ns: string, methods: readonly string[]): ApiCall[] {
  const meta = { metadata: { name: "x", namespace: ns } };
  const args: { [K in keyof Cluster]: Parameters<Cluster[K]> } = {
    getStatefulSet: [ns, "mysql"],
    getPod: [ns, "mysql-0"],
    listPods: [ns, "batch.kubernetes.io/job-name=j"],
    deletePod: [ns, "mysql-0"],
    annotatePod: [ns, "writer-abcde", { "lab/stop": "true" }],
    getNode: ["ip-10-0-1-10.ec2.internal"],
    listNodes: [],
    setUnschedulable: ["ip-10-0-1-10.ec2.internal", true],
    getClaim: [ns, "data-mysql-0"],
    createClaim: [{ apiVersion: "v1", kind: "PersistentVolumeClaim", ...meta }],
    deleteClaim: [ns, "fsx-failover-r1"],
    getStorageClassProvisioner: ["fsx-ontap-nas"],
    createConfigMap: [{ apiVersion: "v1", kind: "ConfigMap", ...meta }],
    deleteConfigMap: [ns, "x"],
    createJob: [{ apiVersion: "batch/v1", kind: "Job", ...meta }],
    getJob: [ns, "j"],
    deleteJob: [ns, "j"],
    podLog: [ns, "writer-abcde", "writer"],
  };
  return methods.map((m) => {
    const make = CLUSTER_API_CALLS[m as keyof Cluster] as (...a: unknown[]) => ApiCall;
    return make(...(args[m as keyof Cluster] as unknown[]));
  });
}

const EXPERIMENTS = {
  "mysql-failover": { files: ["mysql-failover.ts", "job.ts"], ns: "mysql" },
  "fsx-failover": { files: ["fsx-failover.ts", "job.ts"], ns: "bench" },
} as const;

test("the calls each experiment's code makes (read from its source)", () => {
  expect(callsIn(...EXPERIMENTS["mysql-failover"].files)).toEqual([
    "annotatePod",
    "createConfigMap",
    "createJob",
    "deleteConfigMap",
    "deleteJob",
    "deletePod",
    "getClaim",
    "getJob",
    "getNode",
    "getPod",
    "getStatefulSet",
    "listNodes",
    "listPods",
    "podLog",
    "setUnschedulable",
  ]);
  expect(callsIn(...EXPERIMENTS["fsx-failover"].files)).toEqual([
    "annotatePod",
    "createClaim",
    "createConfigMap",
    "createJob",
    "deleteClaim",
    "deleteConfigMap",
    "deleteJob",
    "getClaim",
    "getJob",
    "getNode",
    "getStorageClassProvisioner",
    "listPods",
    "podLog",
  ]);
});

describe.each(Object.entries(EXPERIMENTS))("%s", (experiment, { files, ns }) => {
  const grant = grants[experiment as keyof typeof grants];
  const calls = callsFor(ns, callsIn(...files));

  test("every call its code makes is allowed", () => {
    expect(calls.filter((c) => !grantAllows(grant, c))).toEqual([]);
  });

  test("no rule is unused: without any one of them some call is refused", () => {
    const rules = [
      ...Object.entries(grant.namespaced).flatMap(([n, rs]) => rs.map((_r, i) => ({ n, i }))),
      ...(grant.cluster ?? []).map((_r, i) => ({ n: undefined, i })),
    ];
    for (const { n, i } of rules) {
      const without: AccessGrant =
        n === undefined
          ? { ...grant, cluster: grant.cluster!.filter((_r, j) => j !== i) }
          : { ...grant, namespaced: { ...grant.namespaced, [n]: grant.namespaced[n].filter((_r, j) => j !== i) } };
      expect([n, i, calls.every((c) => grantAllows(without, c))]).toEqual([n, i, false]);
    }
  });

  test("the same calls in another namespace, or another pod deleted, are refused", () => {
    expect(calls.filter((c) => c.namespace !== undefined).some((c) => grantAllows(grant, { ...c, namespace: "kube-system" }))).toBe(false);
    expect(grantAllows(grant, { verb: "get", apiGroup: "", resource: "secrets", namespace: ns, name: "mysql-root" })).toBe(false);
  });
});

test("the objects: ServiceAccounts without a mounted token, one Role per namespace, a ClusterRole for nodes (and Trident's StorageClass)", () => {
  const m = accessManifests(grants["mysql-failover"]);
  const labels = { "app.kubernetes.io/part-of": "storage-bench-lab", "app.kubernetes.io/managed-by": "pulumi" };
  expect(m.serviceAccount).toEqual({
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "lab-mysql-failover", namespace: "mysql", labels },
    automountServiceAccountToken: false,
  });
  expect(m.roles).toEqual([
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: { name: "lab-mysql-failover", namespace: "mysql", labels },
      rules: [
        { apiGroups: ["batch"], resources: ["jobs"], verbs: ["create", "get", "delete"] },
        { apiGroups: [""], resources: ["configmaps"], verbs: ["create", "delete"] },
        { apiGroups: [""], resources: ["pods"], verbs: ["list", "patch"] },
        { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
        { apiGroups: ["apps"], resources: ["statefulsets"], verbs: ["get"], resourceNames: ["mysql"] },
        { apiGroups: [""], resources: ["pods"], verbs: ["get"] },
        { apiGroups: [""], resources: ["pods"], verbs: ["delete"], resourceNames: ["mysql-0"] },
        { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["get"] },
      ],
    },
  ]);
  expect(m.roleBindings).toEqual([
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: "lab-mysql-failover", namespace: "mysql", labels },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "lab-mysql-failover" },
      subjects: [{ kind: "ServiceAccount", name: "lab-mysql-failover", namespace: "mysql" }],
    },
  ]);
  expect(m.clusterRole!.rules).toEqual([{ apiGroups: [""], resources: ["nodes"], verbs: ["get", "list", "patch"] }]);
  expect(m.clusterRoleBinding!.subjects).toEqual([{ kind: "ServiceAccount", name: "lab-mysql-failover", namespace: "mysql" }]);
  const f = accessManifests(grants["fsx-failover"]);
  expect(f.roles.map((r) => [r.metadata?.namespace, r.rules])).toEqual([
    [
      "bench",
      [
        { apiGroups: ["batch"], resources: ["jobs"], verbs: ["create", "get", "delete"] },
        { apiGroups: [""], resources: ["configmaps"], verbs: ["create", "delete"] },
        { apiGroups: [""], resources: ["pods"], verbs: ["list", "patch"] },
        { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
        { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["create", "get", "delete"] },
      ],
    ],
  ]);
  expect(f.clusterRole!.rules).toEqual([
    { apiGroups: [""], resources: ["nodes"], verbs: ["get"] },
    { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: ["get"], resourceNames: ["fsx-ontap-nas"] },
  ]);
});

test("the API server stand-in's request attributes (as kube-apiserver's requestinfo.go derives them)", () => {
  expect(requestCall("GET", "/api/v1/namespaces/mysql/pods/w-1/log")).toEqual({
    verb: "get",
    apiGroup: "",
    resource: "pods",
    subresource: "log",
    namespace: "mysql",
    name: "w-1",
  });
  expect(requestCall("GET", "/api/v1/namespaces/mysql/pods")).toEqual({ verb: "list", apiGroup: "", resource: "pods", namespace: "mysql" });
  expect(requestCall("PATCH", "/api/v1/nodes/n1")).toEqual({ verb: "patch", apiGroup: "", resource: "nodes", name: "n1" });
  expect(requestCall("POST", "/apis/batch/v1/namespaces/bench/jobs")).toEqual({
    verb: "create",
    apiGroup: "batch",
    resource: "jobs",
    namespace: "bench",
  });
  expect(requestCall("GET", "/apis/storage.k8s.io/v1/storageclasses/gp3")).toEqual({
    verb: "get",
    apiGroup: "storage.k8s.io",
    resource: "storageclasses",
    name: "gp3",
  });
  // The fsx-failover identity may read Trident's class only.
  expect(grantAllows(grants["fsx-failover"], requestCall("GET", "/apis/storage.k8s.io/v1/storageclasses/gp3"))).toBe(false);
});
