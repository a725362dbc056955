/**
 * The utilization manifest's ServiceAccount (stacks/eks/utilization-access.ts): its rules and
 * objects exactly, and every request the manifest's code makes with its token is allowed by them,
 * with no rule unused. The requests are read from the source (lab/utilization/manifest.ts): a new
 * read fails here until the grant has it. The stand-in API server enforces the same grant on what
 * the real kubectl sends (./cluster-read.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { accessManifests, grantAllows, rbacProblems, ruleAllows, type ApiCall } from "../../../components/lib/rbac";
import { accessOutputSchema, ACCESS_OUTPUT, CLUSTER_LISTS, tokenRequestPath } from "../../../lab/utilization/manifest";
import { eksOutputs } from "../../../stacks/eks/outputs";
import { UTILIZATION_NAMESPACE, UTILIZATION_SERVICE_ACCOUNT, utilizationGrant } from "../../../stacks/eks/utilization-access";
import { ROOT } from "../../helpers/root";
import { requestCall } from "../experiment/apiserver";

const SOURCE = fs.readFileSync(path.join(ROOT, "lab", "utilization", "manifest.ts"), "utf8");

test("the grant: list on PersistentVolumes, nodes, StorageClasses and VolumeAttachments, nothing else", () => {
  expect(utilizationGrant).toEqual({
    name: "lab-utilization",
    namespace: "kube-system",
    namespaced: {},
    cluster: [
      { apiGroups: [""], resources: ["persistentvolumes", "nodes"], verbs: ["list"] },
      { apiGroups: ["storage.k8s.io"], resources: ["storageclasses", "volumeattachments"], verbs: ["list"] },
    ],
  });
  expect([UTILIZATION_SERVICE_ACCOUNT, UTILIZATION_NAMESPACE]).toEqual(["lab-utilization", "kube-system"]);
  expect(rbacProblems(utilizationGrant)).toEqual([]);
});

test("its objects: a ServiceAccount without a mounted token, one ClusterRole and its binding, no Role", () => {
  const labels = { "app.kubernetes.io/part-of": "storage-bench-lab", "app.kubernetes.io/managed-by": "pulumi" };
  expect(accessManifests(utilizationGrant)).toEqual({
    serviceAccount: {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "lab-utilization", namespace: "kube-system", labels },
      automountServiceAccountToken: false,
    },
    roles: [],
    roleBindings: [],
    clusterRole: {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "lab-utilization", labels },
      rules: [
        { apiGroups: [""], resources: ["persistentvolumes", "nodes"], verbs: ["list"] },
        { apiGroups: ["storage.k8s.io"], resources: ["storageclasses", "volumeattachments"], verbs: ["list"] },
      ],
    },
    clusterRoleBinding: {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "lab-utilization", labels },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "lab-utilization" },
      subjects: [{ kind: "ServiceAccount", name: "lab-utilization", namespace: "kube-system" }],
    },
  });
});

test("the manifest's kubectl calls, read from its source: config view and the TokenRequest as admin, the lists as the reader", () => {
  const calls = [...SOURCE.matchAll(/\bkube\((\w+), \[([^\]]*)\]/g)].map((m) => `${m[1]}: ${m[2]}`);
  expect(calls).toEqual([
    'admin: "config", "view", "--minify", "--raw", "--flatten", "-o", "json"',
    'admin: "create", "--raw", tokenRequestPath(namespace, serviceAccount), "-f", body',
    'reader: "get", "--raw", l.path',
  ]);
  // No other way to the cluster in the file: every kubectl run goes through kube() (the others run pulumi and git).
  expect([...SOURCE.matchAll(/\brun\((\w+),/g)].map((m) => m[1])).toEqual(["kubectl", "pulumi", "git", "git", "git", "git"]);
  // The lists, as written in the source.
  expect([...SOURCE.matchAll(/\{ path: "([^"]+)"/g)].map((m) => m[1])).toEqual(CLUSTER_LISTS.map((l) => l.path));
});

test("every read of the manifest is allowed by the grant, every rule is used, and the TokenRequest is not", () => {
  const reads: ApiCall[] = CLUSTER_LISTS.map((l) => requestCall("GET", l.path));
  expect(reads).toEqual([
    { verb: "list", apiGroup: "", resource: "persistentvolumes" },
    { verb: "list", apiGroup: "storage.k8s.io", resource: "storageclasses" },
    { verb: "list", apiGroup: "storage.k8s.io", resource: "volumeattachments" },
    { verb: "list", apiGroup: "", resource: "nodes" },
  ]);
  for (const call of reads) expect(grantAllows(utilizationGrant, call)).toBe(true);
  for (const rule of utilizationGrant.cluster!) expect(reads.some((c) => ruleAllows(rule, c))).toBe(true);
  // Each resource of each rule is read: nothing in the grant the code does not use.
  expect(utilizationGrant.cluster!.flatMap((r) => r.resources).sort()).toEqual(reads.map((c) => c.resource).sort());
  // The reader cannot mint its own tokens, read a node or a Secret, or watch.
  const token = requestCall("POST", tokenRequestPath("kube-system", "lab-utilization"));
  expect(token).toEqual({
    verb: "create",
    apiGroup: "",
    resource: "serviceaccounts",
    subresource: "token",
    namespace: "kube-system",
    name: "lab-utilization",
  });
  expect(grantAllows(utilizationGrant, token)).toBe(false);
  expect(grantAllows(utilizationGrant, requestCall("GET", "/api/v1/nodes/ip-10-0-1-23.ec2.internal"))).toBe(false);
  expect(grantAllows(utilizationGrant, requestCall("GET", "/api/v1/namespaces/kube-system/secrets"))).toBe(false);
  expect(grantAllows(utilizationGrant, requestCall("GET", "/api/v1/nodes", true))).toBe(false);
});

test("the output the lab reads is the one the eks stack exports, with the same shape", () => {
  expect(ACCESS_OUTPUT).toBe("utilizationAccess");
  expect(ACCESS_OUTPUT in eksOutputs).toBe(true);
  const good = { namespace: "kube-system", serviceAccount: "lab-utilization" };
  for (const v of [good, { namespace: "kube-system" }, { namespace: "", serviceAccount: "x" }, "lab-utilization"])
    expect(accessOutputSchema.safeParse(v).success).toBe(eksOutputs.utilizationAccess.safeParse(v).success);
  expect(accessOutputSchema.safeParse(good).success).toBe(true);
});
