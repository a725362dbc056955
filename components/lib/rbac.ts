/**
 * Narrow Kubernetes identities for the lab's automation (pure): a ServiceAccount, the Roles (one per
 * namespace) and ClusterRole it is given, and their bindings, rendered as Kubernetes objects; the
 * checks every such grant must pass; and the RBAC authorizer's rule matching, to test that a code
 * path's API calls are covered by its grant.
 *
 * Who uses them: the benchmark collectors (components/bench: the collecting `kubectl` reads its Job,
 * the Job's pods and their logs with a token of its own ServiceAccount) and the failover
 * experiments (stacks/fsx-eks/experiment-access.ts; lab/experiment/kube.ts asks the API server for a
 * short-lived token of the experiment's ServiceAccount and makes every other call with it). Pulumi
 * itself keeps the admin identity: it creates these objects.
 *
 * Rule matching follows kube-apiserver's RBAC authorizer (kubernetes/kubernetes
 * plugin/pkg/auth/authorizer/rbac/rbac.go `RuleAllows`, with VerbMatches, APIGroupMatches,
 * ResourceMatches and ResourceNameMatches of pkg/apis/rbac/v1/evaluation_helpers.go): a rule allows
 * a request when it lists the request's verb, API group and resource (`<resource>/<subresource>`
 * for a subresource), and, when it lists resource names, the request's name is one of them. A
 * request without a name (list, create, watch of a collection) never matches a rule with
 * resource names. `*` would match anything; the lab never writes it ({@link rbacProblems}).
 */
import type { IClusterRole } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole";
import type { IClusterRoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding";
import type { IRole } from "kubernetes-models/rbac.authorization.k8s.io/v1/Role";
import type { IRoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding";
import type { IServiceAccount } from "kubernetes-models/v1/ServiceAccount";

/** One RBAC policy rule (rbac.authorization.k8s.io/v1 PolicyRule, without nonResourceURLs). */
export interface AccessRule {
  /** "" is the core group. */
  readonly apiGroups: readonly string[];
  /** Resources, a subresource as `<resource>/<subresource>` (`pods/log`). */
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  /** Only these objects (never for create, list or watch: those requests carry no name). */
  readonly resourceNames?: readonly string[];
}

/** A ServiceAccount and what it may do. */
export interface AccessGrant {
  /** The ServiceAccount's, Roles', ClusterRole's and bindings' name. */
  readonly name: string;
  /** The ServiceAccount's namespace. */
  readonly namespace: string;
  /** Rules per namespace: one Role and RoleBinding in each. */
  readonly namespaced: Readonly<Record<string, readonly AccessRule[]>>;
  /** Rules on cluster-scoped resources (nodes, StorageClasses): one ClusterRole and binding. @default [] */
  readonly cluster?: readonly AccessRule[];
}

/** What an API request asks for, as the authorizer sees it (k8s.io/apiserver pkg/endpoints/request RequestInfo). */
export interface ApiCall {
  readonly verb: "get" | "list" | "watch" | "create" | "update" | "patch" | "delete";
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource?: string;
  /** Undefined for a cluster-scoped resource. */
  readonly namespace?: string;
  /** Undefined for list, watch and create (create of a subresource names its parent). */
  readonly name?: string;
}

/** The verbs the lab grants: Kubernetes' resource verbs but `*`, `deletecollection` and the escalating ones. */
export const GRANTABLE_VERBS = ["get", "list", "watch", "create", "update", "patch", "delete"] as const;

const LABELS = { "app.kubernetes.io/part-of": "storage-bench-lab", "app.kubernetes.io/managed-by": "pulumi" };

/** True when `rule` allows `call` (see the module comment). */
export function ruleAllows(rule: AccessRule, call: ApiCall): boolean {
  const resource = call.subresource === undefined ? call.resource : `${call.resource}/${call.subresource}`;
  if (!rule.verbs.some((v) => v === "*" || v === call.verb)) return false;
  if (!rule.apiGroups.some((g) => g === "*" || g === call.apiGroup)) return false;
  if (!rule.resources.some((r) => r === "*" || r === resource)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (call.name !== undefined && names.includes(call.name));
}

/** True when the grant allows `call`: a rule of the call's namespace, or of the cluster rules (which apply everywhere). */
export function grantAllows(grant: AccessGrant, call: ApiCall): boolean {
  const namespaced = call.namespace === undefined ? [] : (grant.namespaced[call.namespace] ?? []);
  return [...namespaced, ...(grant.cluster ?? [])].some((r) => ruleAllows(r, call));
}

/** `get pods/log in mysql`, `patch nodes ip-10-0-1-10`: a call in words, for messages. */
export function describeCall(call: ApiCall): string {
  const group = call.apiGroup === "" ? "" : `.${call.apiGroup}`;
  const resource = `${call.resource}${group}${call.subresource === undefined ? "" : `/${call.subresource}`}`;
  return `${call.verb} ${resource}${call.name === undefined ? "" : ` ${call.name}`}${call.namespace === undefined ? "" : ` in ${call.namespace}`}`;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Every problem of a grant, at once: no `*` anywhere (verbs, API groups, resources, names), only
 * {@link GRANTABLE_VERBS}, no empty lists, no resource names on create/list/watch (they would
 * never match), names DNS labels. The lab's RBAC objects pass it; the policy rule `k8s-rbac-no-wildcards`
 * (lab/policy/rbac.ts) checks the planned objects too.
 */
export function rbacProblems(grant: AccessGrant): string[] {
  const out: string[] = [];
  for (const [what, v] of [
    ["name", grant.name],
    ["namespace", grant.namespace],
  ] as const)
    if (!DNS_LABEL.test(v)) out.push(`${what} must be a DNS label, got ${JSON.stringify(v)}`);
  const check = (where: string, rules: readonly AccessRule[]) => {
    if (rules.length === 0) out.push(`${where}: no rules (leave the namespace out instead)`);
    rules.forEach((r, i) => {
      const at = `${where} rule ${i + 1}`;
      for (const field of ["apiGroups", "resources", "verbs", "resourceNames"] as const) {
        const list = r[field] ?? [];
        if (field !== "resourceNames" && list.length === 0) out.push(`${at}: ${field} is empty`);
        if (list.includes("*")) out.push(`${at}: ${field} has the wildcard "*": list exactly what is used`);
      }
      for (const v of r.verbs)
        if (v !== "*" && !(GRANTABLE_VERBS as readonly string[]).includes(v))
          out.push(`${at}: verb ${JSON.stringify(v)} is not one of ${GRANTABLE_VERBS.join(", ")}`);
      if ((r.resourceNames ?? []).length > 0) {
        const unnamed = r.verbs.filter((v) => v === "create" || v === "list" || v === "watch");
        if (unnamed.length > 0) out.push(`${at}: resourceNames cannot restrict ${unnamed.join(", ")} (those requests carry no name)`);
      }
    });
  };
  for (const [ns, rules] of Object.entries(grant.namespaced)) {
    if (!DNS_LABEL.test(ns)) out.push(`namespace ${JSON.stringify(ns)} of a Role must be a DNS label`);
    check(`Role in ${ns}`, rules);
  }
  if (grant.cluster !== undefined) check("ClusterRole", grant.cluster);
  return out;
}

const rulesOf = (rules: readonly AccessRule[]) =>
  rules.map((r) => ({
    apiGroups: [...r.apiGroups],
    resources: [...r.resources],
    verbs: [...r.verbs],
    ...(r.resourceNames !== undefined && r.resourceNames.length > 0 ? { resourceNames: [...r.resourceNames] } : {}),
  }));

/** The objects of a grant; throws when {@link rbacProblems} finds any (a programming error: the grants are the lab's own). */
export function accessManifests(grant: AccessGrant): {
  serviceAccount: IServiceAccount;
  roles: IRole[];
  roleBindings: IRoleBinding[];
  clusterRole?: IClusterRole;
  clusterRoleBinding?: IClusterRoleBinding;
} {
  const problems = rbacProblems(grant);
  if (problems.length > 0) throw new Error(`access ${grant.name}: ${problems.join("; ")}`);
  const subject = { kind: "ServiceAccount", name: grant.name, namespace: grant.namespace };
  const roles: IRole[] = Object.entries(grant.namespaced).map(([namespace, rules]) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: { name: grant.name, namespace, labels: LABELS },
    rules: rulesOf(rules),
  }));
  const roleBindings: IRoleBinding[] = Object.keys(grant.namespaced).map((namespace) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: grant.name, namespace, labels: LABELS },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: grant.name },
    subjects: [subject],
  }));
  const cluster = grant.cluster ?? [];
  return {
    // No token is mounted anywhere: no pod runs as it; its tokens come from the TokenRequest API.
    serviceAccount: {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: grant.name, namespace: grant.namespace, labels: LABELS },
      automountServiceAccountToken: false,
    },
    roles,
    roleBindings,
    ...(cluster.length === 0
      ? {}
      : {
          clusterRole: {
            apiVersion: "rbac.authorization.k8s.io/v1",
            kind: "ClusterRole",
            metadata: { name: grant.name, labels: LABELS },
            rules: rulesOf(cluster),
          },
          clusterRoleBinding: {
            apiVersion: "rbac.authorization.k8s.io/v1",
            kind: "ClusterRoleBinding",
            metadata: { name: grant.name, labels: LABELS },
            roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: grant.name },
            subjects: [subject],
          },
        }),
  };
}
