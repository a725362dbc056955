/**
 * A collector's ServiceAccount, Role and RoleBinding (./access.ts `collectorGrant`) as Kubernetes
 * resources, and the environment collect-job.sh reads them from. Used by BenchmarkRun
 * (./index.ts), KafkaCluster's storage Job and OmbBenchmark's driver Jobs.
 *
 * On a live stack: new objects, created on the next `pulumi up`; a collector created before
 * keeps its old script and environment (its inputs but `triggers` are ignored, ./index.ts), so it
 * never runs again with them unless its Job is re-created; a new run id makes new collectors,
 * which use these identities. A changed run id changes the Role's resourceNames: an update in
 * place (no field of a Role is in pulumi-kubernetes' force-new table, lab/plan/change/kubernetes.ts).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { accessManifests, type AccessGrant } from "../lib/rbac";
import { collectorTokenSeconds } from "./access";

/** The collector's identity in the cluster, created; `ready` is what its command waits for (the binding, after the account and Role). */
export interface CollectorAccess {
  readonly ready: pulumi.Resource;
  /** collect-job.sh's COLLECTOR_ACCOUNT and TOKEN_SECONDS for a wait of `waitTimeoutSeconds`. */
  environment(waitTimeoutSeconds: number): { COLLECTOR_ACCOUNT: string; TOKEN_SECONDS: string };
}

/**
 * Creates `grant` (namespaced rules only) as `<logical>-collect-sa`, `-role`, `-binding`, with
 * `opts` (the parent and deletedWith: they die with the cluster), after `after` (the namespace).
 */
export function createCollectorAccess(
  logical: string,
  grant: AccessGrant,
  opts: pulumi.CustomResourceOptions,
  after: readonly pulumi.Resource[],
): CollectorAccess {
  const m = accessManifests(grant);
  if (m.roles.length !== 1 || m.clusterRole !== undefined) throw new Error(`collector ${grant.name}: one Role in its own namespace only`);
  const inNamespace = { ...opts, dependsOn: [...after] };
  const sa = new k8s.core.v1.ServiceAccount(`${logical}-collect-sa`, m.serviceAccount as k8s.core.v1.ServiceAccountArgs, inNamespace);
  const role = new k8s.rbac.v1.Role(`${logical}-collect-role`, m.roles[0] as k8s.rbac.v1.RoleArgs, inNamespace);
  const binding = new k8s.rbac.v1.RoleBinding(`${logical}-collect-binding`, m.roleBindings[0] as k8s.rbac.v1.RoleBindingArgs, {
    ...opts,
    dependsOn: [...after, sa, role],
  });
  return {
    ready: binding,
    environment: (waitTimeoutSeconds) => ({
      COLLECTOR_ACCOUNT: grant.name,
      TOKEN_SECONDS: String(collectorTokenSeconds(waitTimeoutSeconds)),
    }),
  };
}
