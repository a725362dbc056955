/**
 * The failover experiments' identities (./experiment-access.ts `experimentGrants`, rendered by
 * components/lib/rbac.ts `accessManifests`) as Kubernetes resources: per grant its ServiceAccount,
 * a Role and RoleBinding in each namespace it reaches, and its ClusterRole and ClusterRoleBinding
 * when it has cluster rules. The benchmark collectors' counterpart is
 * components/bench/collector-access.ts (one Role in its own namespace, other names).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { accessManifests, type AccessGrant } from "../../components/lib/rbac";

/**
 * Creates every grant, in order: `<name>-sa`, then `<name>-role-<namespace>` and
 * `<name>-binding-<namespace>` per namespace, then `<name>-clusterrole` and `<name>-clusterbinding`.
 * The account and Roles come after `after` (the namespaces they live in), each binding after its
 * account and role; the ClusterRole is cluster-scoped and waits for nothing. `opts` carries the
 * cluster's provider.
 */
export function createExperimentAccess(
  grants: readonly AccessGrant[],
  opts: pulumi.CustomResourceOptions,
  after: readonly pulumi.Resource[],
): void {
  for (const grant of grants) {
    const m = accessManifests(grant);
    const inNamespace = { ...opts, dependsOn: [...after] };
    const sa = new k8s.core.v1.ServiceAccount(`${grant.name}-sa`, m.serviceAccount as k8s.core.v1.ServiceAccountArgs, inNamespace);
    for (const [i, role] of m.roles.entries()) {
      const r = new k8s.rbac.v1.Role(`${grant.name}-role-${role.metadata!.namespace}`, role as k8s.rbac.v1.RoleArgs, inNamespace);
      new k8s.rbac.v1.RoleBinding(`${grant.name}-binding-${role.metadata!.namespace}`, m.roleBindings[i] as k8s.rbac.v1.RoleBindingArgs, {
        ...opts,
        dependsOn: [sa, r],
      });
    }
    if (m.clusterRole !== undefined && m.clusterRoleBinding !== undefined) {
      const cr = new k8s.rbac.v1.ClusterRole(`${grant.name}-clusterrole`, m.clusterRole as k8s.rbac.v1.ClusterRoleArgs, opts);
      new k8s.rbac.v1.ClusterRoleBinding(`${grant.name}-clusterbinding`, m.clusterRoleBinding as k8s.rbac.v1.ClusterRoleBindingArgs, {
        ...opts,
        dependsOn: [sa, cr],
      });
    }
  }
}
