/**
 * What the failover experiments need from a Kubernetes cluster, as one narrow interface: the real
 * one is ./kube.ts (@kubernetes/client-node), the tests' is an in-memory cluster
 * (test/lab/experiment/fake-cluster.ts) and, for the end-to-end test, the same cluster behind an
 * HTTP server that speaks the Kubernetes REST API to the real ./kube.ts.
 *
 * The objects come back as plain summaries of the API objects ({@link podState} and its siblings
 * turn a Kubernetes object, as JSON or as client-node's model, into one), so the experiments never
 * depend on a client library's classes. A missing object is `undefined`, never an error.
 */
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { ApiCall } from "../../components/lib/rbac";

/** The node label of a node's zone (kubernetes.io/docs/reference/labels-annotations-taints/#topologykubernetesiozone). */
export const ZONE_LABEL = "topology.kubernetes.io/zone";

/** The label the Job controller puts on a Job's pods (kubernetes.io/docs/reference/labels-annotations-taints/#batchkubernetesiojob-name, Kubernetes 1.27+). */
export const JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

export interface PodState {
  readonly name: string;
  readonly uid: string;
  /** Where it was scheduled; undefined while pending. */
  readonly nodeName?: string;
  /** `status.phase`: Pending, Running, Succeeded, Failed, Unknown. */
  readonly phase?: string;
  /** The `Ready` condition is True. */
  readonly ready: boolean;
  /** When the `Ready` condition last changed (ISO 8601, the kubelet's clock), if reported. */
  readonly readySince?: string;
  /** The claim of each PersistentVolumeClaim volume, by volume name. */
  readonly claims: Readonly<Record<string, string>>;
  /** `metadata.deletionTimestamp` is set: it is going away. */
  readonly deleting: boolean;
  readonly annotations: Readonly<Record<string, string>>;
  /** Terminated containers: name, exit code, reason. */
  readonly terminated: ReadonlyArray<{ readonly container: string; readonly exitCode: number; readonly reason?: string }>;
}

export interface NodeState {
  readonly name: string;
  /** The {@link ZONE_LABEL} label. */
  readonly zone?: string;
  /** `spec.unschedulable` (cordoned). */
  readonly unschedulable: boolean;
  /** The `Ready` condition is True. */
  readonly ready: boolean;
}

export interface ClaimState {
  readonly name: string;
  readonly uid: string;
  /** `status.phase`: Pending, Bound, Lost. */
  readonly phase?: string;
  /** The bound PersistentVolume (`spec.volumeName`). */
  readonly volumeName?: string;
  readonly storageClassName?: string;
}

export interface JobState {
  readonly name: string;
  readonly active: number;
  readonly succeeded: number;
  readonly failed: number;
  /** `Complete` or `Failed` condition True, with its reason and message. */
  readonly finished?: { readonly type: "Complete" | "Failed"; readonly reason?: string; readonly message?: string };
}

export interface StatefulSetState {
  readonly name: string;
  readonly replicas: number;
  readonly readyReplicas: number;
}

/** The calls the experiments make. Every call may throw (network, API errors). */
export interface Cluster {
  getStatefulSet(namespace: string, name: string): Promise<StatefulSetState | undefined>;
  getPod(namespace: string, name: string): Promise<PodState | undefined>;
  /** Pods matching a label selector (`k=v,k2=v2`). */
  listPods(namespace: string, labelSelector: string): Promise<PodState[]>;
  /** Deletes a pod with its default grace period. */
  deletePod(namespace: string, name: string): Promise<void>;
  /** Merges `annotations` into the pod's annotations (a JSON merge patch). */
  annotatePod(namespace: string, name: string, annotations: Readonly<Record<string, string>>): Promise<void>;
  getNode(name: string): Promise<NodeState | undefined>;
  listNodes(): Promise<NodeState[]>;
  /** Cordons (`true`) or uncordons (`false`) a node: `spec.unschedulable`, as `kubectl cordon` does. */
  setUnschedulable(name: string, unschedulable: boolean): Promise<void>;
  getClaim(namespace: string, name: string): Promise<ClaimState | undefined>;
  createClaim(claim: IPersistentVolumeClaim): Promise<void>;
  /** Deletes a claim; a missing one is not an error. */
  deleteClaim(namespace: string, name: string): Promise<void>;
  /** The StorageClass's provisioner, undefined when there is no such class. */
  getStorageClassProvisioner(name: string): Promise<string | undefined>;
  createConfigMap(configMap: IConfigMap): Promise<void>;
  /** Deletes a ConfigMap; a missing one is not an error. */
  deleteConfigMap(namespace: string, name: string): Promise<void>;
  createJob(job: IJob): Promise<void>;
  getJob(namespace: string, name: string): Promise<JobState | undefined>;
  /** Deletes a Job and its pods (propagation `Background`); a missing one is not an error. */
  deleteJob(namespace: string, name: string): Promise<void>;
  /** A container's whole current log. */
  podLog(namespace: string, pod: string, container: string): Promise<string>;
}

/**
 * The API request each {@link Cluster} call makes (./kube.ts, one request each), as the RBAC
 * authorizer sees it: what the experiments' ServiceAccounts must be allowed
 * (stacks/fsx-eks/experiment-access.ts; test/lab/experiment/access.test.ts checks every call an
 * experiment's code makes against its grant, and the end-to-end test's API server enforces it).
 * Verbs as kube-apiserver names them (k8s.io/apiserver pkg/endpoints/request/requestinfo.go): GET of
 * an object `get`, of a collection `list`, POST `create`, PATCH `patch`, DELETE `delete`; a pod's log
 * is the subresource `log` of `pods`.
 */
export const CLUSTER_API_CALLS: { readonly [K in keyof Cluster]: (...args: Parameters<Cluster[K]>) => ApiCall } = {
  getStatefulSet: (namespace, name) => ({ verb: "get", apiGroup: "apps", resource: "statefulsets", namespace, name }),
  getPod: (namespace, name) => ({ verb: "get", apiGroup: "", resource: "pods", namespace, name }),
  listPods: (namespace) => ({ verb: "list", apiGroup: "", resource: "pods", namespace }),
  deletePod: (namespace, name) => ({ verb: "delete", apiGroup: "", resource: "pods", namespace, name }),
  annotatePod: (namespace, name) => ({ verb: "patch", apiGroup: "", resource: "pods", namespace, name }),
  getNode: (name) => ({ verb: "get", apiGroup: "", resource: "nodes", name }),
  listNodes: () => ({ verb: "list", apiGroup: "", resource: "nodes" }),
  setUnschedulable: (name) => ({ verb: "patch", apiGroup: "", resource: "nodes", name }),
  getClaim: (namespace, name) => ({ verb: "get", apiGroup: "", resource: "persistentvolumeclaims", namespace, name }),
  createClaim: (claim) => ({ verb: "create", apiGroup: "", resource: "persistentvolumeclaims", namespace: claim.metadata?.namespace }),
  deleteClaim: (namespace, name) => ({ verb: "delete", apiGroup: "", resource: "persistentvolumeclaims", namespace, name }),
  getStorageClassProvisioner: (name) => ({ verb: "get", apiGroup: "storage.k8s.io", resource: "storageclasses", name }),
  createConfigMap: (configMap) => ({ verb: "create", apiGroup: "", resource: "configmaps", namespace: configMap.metadata?.namespace }),
  deleteConfigMap: (namespace, name) => ({ verb: "delete", apiGroup: "", resource: "configmaps", namespace, name }),
  createJob: (job) => ({ verb: "create", apiGroup: "batch", resource: "jobs", namespace: job.metadata?.namespace }),
  getJob: (namespace, name) => ({ verb: "get", apiGroup: "batch", resource: "jobs", namespace, name }),
  deleteJob: (namespace, name) => ({ verb: "delete", apiGroup: "batch", resource: "jobs", namespace, name }),
  podLog: (namespace, pod) => ({ verb: "get", apiGroup: "", resource: "pods", subresource: "log", namespace, name: pod }),
};

/** The Kubernetes objects' fields the summaries read (JSON as the API serves it, or client-node's models). */
interface ObjectLike {
  readonly metadata?: {
    readonly name?: string;
    readonly uid?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
    readonly deletionTimestamp?: unknown;
  };
}
interface ConditionLike {
  readonly type?: string;
  readonly status?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: unknown;
}

/** A timestamp as the API serves it (a string) or as client-node parses it (a Date). */
function isoTime(t: unknown): string | undefined {
  if (t instanceof Date) return t.toISOString();
  return typeof t === "string" ? t : undefined;
}

export function podState(
  p: ObjectLike & {
    readonly spec?: {
      readonly nodeName?: string;
      readonly volumes?: ReadonlyArray<{ readonly name?: string; readonly persistentVolumeClaim?: { readonly claimName?: string } }>;
    };
    readonly status?: {
      readonly phase?: string;
      readonly conditions?: readonly ConditionLike[];
      readonly containerStatuses?: ReadonlyArray<{
        readonly name?: string;
        readonly state?: { readonly terminated?: { readonly exitCode?: number; readonly reason?: string } };
      }>;
    };
  },
): PodState {
  const ready = (p.status?.conditions ?? []).find((c) => c.type === "Ready");
  const claims: Record<string, string> = {};
  for (const v of p.spec?.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (v.name !== undefined && claim !== undefined) claims[v.name] = claim;
  }
  const terminated = (p.status?.containerStatuses ?? []).flatMap((c) => {
    const t = c.state?.terminated;
    return t === undefined
      ? []
      : [{ container: c.name ?? "", exitCode: t.exitCode ?? -1, ...(t.reason !== undefined ? { reason: t.reason } : {}) }];
  });
  const readySince = isoTime(ready?.lastTransitionTime);
  return {
    name: p.metadata?.name ?? "",
    uid: p.metadata?.uid ?? "",
    ...(p.spec?.nodeName ? { nodeName: p.spec.nodeName } : {}),
    ...(p.status?.phase ? { phase: p.status.phase } : {}),
    ready: ready?.status === "True",
    ...(readySince !== undefined && ready?.status === "True" ? { readySince } : {}),
    claims,
    deleting: p.metadata?.deletionTimestamp !== undefined && p.metadata?.deletionTimestamp !== null,
    annotations: { ...(p.metadata?.annotations ?? {}) },
    terminated,
  };
}

export function nodeState(
  n: ObjectLike & {
    readonly spec?: { readonly unschedulable?: boolean };
    readonly status?: { readonly conditions?: readonly ConditionLike[] };
  },
): NodeState {
  const zone = n.metadata?.labels?.[ZONE_LABEL];
  return {
    name: n.metadata?.name ?? "",
    ...(zone !== undefined ? { zone } : {}),
    unschedulable: n.spec?.unschedulable === true,
    ready: (n.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True"),
  };
}

export function claimState(
  c: ObjectLike & {
    readonly spec?: { readonly volumeName?: string; readonly storageClassName?: string };
    readonly status?: { readonly phase?: string };
  },
): ClaimState {
  return {
    name: c.metadata?.name ?? "",
    uid: c.metadata?.uid ?? "",
    ...(c.status?.phase ? { phase: c.status.phase } : {}),
    ...(c.spec?.volumeName ? { volumeName: c.spec.volumeName } : {}),
    ...(c.spec?.storageClassName ? { storageClassName: c.spec.storageClassName } : {}),
  };
}

export function jobState(
  j: ObjectLike & {
    readonly status?: {
      readonly active?: number;
      readonly succeeded?: number;
      readonly failed?: number;
      readonly conditions?: readonly ConditionLike[];
    };
  },
): JobState {
  const done = (j.status?.conditions ?? []).find((c) => (c.type === "Complete" || c.type === "Failed") && c.status === "True");
  return {
    name: j.metadata?.name ?? "",
    active: j.status?.active ?? 0,
    succeeded: j.status?.succeeded ?? 0,
    failed: j.status?.failed ?? 0,
    ...(done
      ? {
          finished: {
            type: done.type as "Complete" | "Failed",
            ...(done.reason !== undefined ? { reason: done.reason } : {}),
            ...(done.message !== undefined ? { message: done.message } : {}),
          },
        }
      : {}),
  };
}

export function statefulSetState(
  s: ObjectLike & { readonly spec?: { readonly replicas?: number }; readonly status?: { readonly readyReplicas?: number } },
): StatefulSetState {
  return { name: s.metadata?.name ?? "", replicas: s.spec?.replicas ?? 1, readyReplicas: s.status?.readyReplicas ?? 0 };
}
