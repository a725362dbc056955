/**
 * What the failover experiments (`lab experiment`, lab/experiment/) may do in an fsx-eks cluster: one
 * ServiceAccount each, with exactly the API calls its code makes (lab/experiment/cluster.ts
 * `CLUSTER_API_CALLS` names the request of every call; test/lab/experiment/access.test.ts checks the
 * calls of mysql-failover.ts, fsx-failover.ts and job.ts against these grants, and that every rule
 * is used). Pure: the stack renders them (components/lib/rbac.ts `accessManifests`) and exports
 * `experimentAccess` (the ServiceAccounts' names and namespaces); the lab asks the API server, with
 * the stack's admin kubeconfig, for a short-lived token of the experiment's ServiceAccount
 * (TokenRequest) and makes every other call with that token (lab/experiment/kube.ts).
 *
 * What the grants still allow, honestly: creating Jobs in a namespace lets their pods mount any
 * Secret of that namespace (Kubernetes documentation, "Role Based Access Control Good Practices",
 * workload creation), so mysql-failover's identity could reach any of MySQL's Secrets (root's
 * too) through a Job it creates; the writer it creates reads only its own account's (`lab_writer`,
 * components/mysql `WRITER_SECRET_NAME`); and `patch` on nodes (the cordon) cannot be
 * narrowed by RBAC to `spec.unschedulable`.
 */
import { MYSQL_NAME } from "../../components/mysql/manifests";
import { STORAGE_CLASS_NAMES } from "../../components/trident/rules";
import type { AccessGrant, AccessRule } from "../../components/lib/rbac";

/** The experiments, as lab/experiment/manifests.ts `EXPERIMENTS` names them. */
export type ExperimentAccessName = "mysql-failover" | "fsx-failover";

/** The ServiceAccount of an experiment: `lab-<experiment>`. */
export const experimentServiceAccount = (experiment: ExperimentAccessName) => `lab-${experiment}`;

/** The rules the Job helpers of both experiments use (lab/experiment/job.ts): the Job, its ConfigMap, its pod, its log. */
const JOB_RULES: readonly AccessRule[] = [
  { apiGroups: ["batch"], resources: ["jobs"], verbs: ["create", "get", "delete"] },
  { apiGroups: [""], resources: ["configmaps"], verbs: ["create", "delete"] },
  // findJobPod lists the Job's pods; stopJob annotates its pod (a merge patch).
  { apiGroups: [""], resources: ["pods"], verbs: ["list", "patch"] },
  { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
];

/** mysql-failover in MySQL's namespace (`mysqlNamespace`), fsx-failover in the benchmark namespace. */
export function experimentGrants(mysqlNamespace: string, benchNamespace: string): Record<ExperimentAccessName, AccessGrant> {
  const source = `${MYSQL_NAME}-0`;
  return {
    "mysql-failover": {
      name: experimentServiceAccount("mysql-failover"),
      namespace: mysqlNamespace,
      namespaced: {
        [mysqlNamespace]: [
          ...JOB_RULES,
          { apiGroups: ["apps"], resources: ["statefulsets"], verbs: ["get"], resourceNames: [MYSQL_NAME] },
          // getPod reads mysql-0 (and watches it come back) and the writer's pod is found by list.
          { apiGroups: [""], resources: ["pods"], verbs: ["get"] },
          // The failover itself: only the source pod may be deleted.
          { apiGroups: [""], resources: ["pods"], verbs: ["delete"], resourceNames: [source] },
          { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["get"] },
        ],
      },
      // The source's zone and the cordon of its zone's nodes (`kubectl cordon` is this patch).
      cluster: [{ apiGroups: [""], resources: ["nodes"], verbs: ["get", "list", "patch"] }],
    },
    "fsx-failover": {
      name: experimentServiceAccount("fsx-failover"),
      namespace: benchNamespace,
      namespaced: {
        [benchNamespace]: [...JOB_RULES, { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["create", "get", "delete"] }],
      },
      cluster: [
        // fio's zone (the node of its pod).
        { apiGroups: [""], resources: ["nodes"], verbs: ["get"] },
        // The one StorageClass it checks is Trident's.
        { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: ["get"], resourceNames: [STORAGE_CLASS_NAMES.nas] },
      ],
    },
  };
}
