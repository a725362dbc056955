/**
 * Policy rules of Kubernetes objects: workloads (Pods, Deployments, StatefulSets, DaemonSets,
 * ReplicaSets, Jobs, CronJobs: pinned images, requests and limits, Job limits, the restricted Pod
 * Security Standard, probes, privileges only where {@link PRIVILEGED_NAMESPACES} allows them),
 * the namespaces objects live in (never `default`) and the Pod Security labels of the namespaces
 * the lab creates. Pure (see ./rule.ts for how rules read inputs and unknown values).
 */
import { unpinnedImage } from "../../core/images";
import { TYPES as T } from "../resource-types";
import { PodSpecLike, restrictedViolations } from "./pod-security";
import {
  controls,
  definePlanRule,
  defineRule,
  dig,
  entry,
  isObj,
  isOpaque,
  isSet,
  mirrors,
  Obj,
  PlanResource,
  shown,
  withoutOpaque,
} from "./rule";

/** Every workload type, whose pods the container rules look into. */
export const WORKLOADS = [T.pod, T.deployment, T.statefulSet, T.daemonSet, T.replicaSet, T.job, T.cronJob] as const;
/** Jobs, and CronJobs' job templates. */
export const JOBS = [T.job, T.cronJob] as const;
/** Workloads whose pods run until stopped (not Jobs): the ones that need probes. */
export const LONG_RUNNING = [T.pod, T.deployment, T.statefulSet, T.daemonSet, T.replicaSet] as const;
/** Namespaced objects that must not be in `default`: workloads and what they use. */
export const NAMESPACED = [
  ...WORKLOADS,
  T.service,
  T.configMap,
  T.kubernetesSecret,
  T.serviceAccount,
  T.persistentVolumeClaim,
  T.podDisruptionBudget,
] as const;

/**
 * The one list of namespaces whose pods may be privileged or reach into the host (host PID, IPC
 * or network namespaces, hostPath volumes), each with why and the source that says so. Every
 * other namespace runs the restricted or baseline profile: `k8s-privileged-namespaces` refuses a
 * privileged pod elsewhere, `k8s-namespace-pod-security` a `privileged` label elsewhere.
 */
export const PRIVILEGED_NAMESPACES: Readonly<Record<string, string>> = {
  "rook-ceph":
    "Rook's Ceph OSDs and the Ceph CSI node plugin run privileged with hostPath devices (/dev, /var/lib/rook): " +
    '"Rook requires privileges to manage the storage in your cluster" (Rook docs, rook.github.io/docs/rook/latest/Getting-Started/Prerequisites/pod-security-policies/)',
  trident:
    "Trident's node pods run a privileged container (bidirectional CSI mounts) with host networking, IPC and PID, and its " +
    'namespace is labelled "enforce: privileged" (NetApp Trident docs, docs.netapp.com/us-en/trident/trident-reference/pod-security.html)',
};

/** The privileged namespaces, comma-separated, for messages. */
const PRIVILEGED_LIST = Object.keys(PRIVILEGED_NAMESPACES).join(", ");

/** The namespace an object's inputs put it in: its `metadata.namespace`, or undefined when unset. */
function namespaceOf(inputs: Obj): unknown {
  const ns = dig(inputs, ["metadata", "namespace"]);
  return isSet(ns) ? ns : undefined;
}

/** Where a workload keeps its pod spec, and the spec (or an opaque value, or undefined). */
function podSpec(inputs: Obj, type: string): { path: string; spec: unknown } {
  if (type === T.pod) return { path: "spec", spec: inputs.spec };
  if (type === T.cronJob)
    return { path: "spec.jobTemplate.spec.template.spec", spec: dig(inputs, ["spec", "jobTemplate", "spec", "template", "spec"]) };
  return { path: "spec.template.spec", spec: dig(inputs, ["spec", "template", "spec"]) };
}

interface Containers {
  /** `containers[name]` / `initContainers[name]` with the container, or… */
  readonly list?: ReadonlyArray<{ where: string; c: Obj }>;
  /** …what keeps the containers from view (unknown or missing). */
  readonly problem?: string;
}

function containersOf(inputs: Obj, type: string): Containers {
  const { path, spec } = podSpec(inputs, type);
  if (isOpaque(spec)) return { problem: `${path} must be known before deploy, got ${spec}` };
  if (!isObj(spec)) return { problem: `${path} is not set` };
  const list: Array<{ where: string; c: Obj }> = [];
  for (const kind of ["initContainers", "containers"]) {
    const cs = spec[kind];
    if (isOpaque(cs)) return { problem: `${path}.${kind} must be known before deploy, got ${cs}` };
    if (cs === undefined && kind === "initContainers") continue;
    if (!Array.isArray(cs)) return { problem: `${path}.${kind} is not set` };
    for (let i = 0; i < cs.length; i++) {
      const c: unknown = cs[i];
      if (isOpaque(c)) return { problem: `${path}.${kind}[${i}] must be known before deploy, got ${c}` };
      if (isObj(c)) list.push({ where: entry(kind, c, i, "name"), c });
    }
  }
  return { list };
}

/**
 * CKV_K8S_14 ("Image Tag is not fixed": a tag other than latest) and Trivy KSV-0013 ("Image tag
 * ':latest' used") are what this rule checks. Not CKV_K8S_43 (bridgecrewio/checkov
 * checkov/kubernetes/checks/resource/k8s/ImageDigest.py, "Image should use digest"): that check
 * requires an `@sha256:` digest on every image, and the lab accepts a version tag. Pinning every
 * third-party image by digest means resolving each tag against its registry and recording the
 * digest beside it (components/versions.ts), which the lab does not do yet (docs/security.md lists it
 * as open); so the rule does not claim CKV_K8S_43.
 */
const IMAGE_PINNED = controls(["CKV_K8S_14"], ["KSV-0013"]);

export const k8sImagePinned = defineRule({
  name: "k8s-image-pinned",
  description:
    "Containers run pinned images: an explicit tag other than `latest`, or a sha256 or sha512 digest. A benchmark must " +
    "be re-runnable on the same bits. A version tag passes, so this is not Checkov's digest check CKV_K8S_43. " +
    mirrors(IMAGE_PINNED),
  enforcementLevel: "mandatory",
  controls: IMAGE_PINNED,
  resourceTypes: WORKLOADS,
  check(inputs, type) {
    const { list } = containersOf(inputs, type);
    const out: string[] = [];
    for (const { where, c } of list ?? []) {
      const image = c.image;
      if (isOpaque(image)) continue;
      if (typeof image !== "string" || image.trim() === "")
        out.push(`${where}: image is not set: set a pinned image (a version tag or a digest)`);
      else {
        const why = unpinnedImage(image);
        if (why) out.push(`${where}: image ${JSON.stringify(image)} ${why}`);
      }
    }
    return out;
  },
});

const RESOURCES = controls(["CKV_K8S_10", "CKV_K8S_11", "CKV_K8S_12", "CKV_K8S_13"], ["KSV-0011", "KSV-0015", "KSV-0016", "KSV-0018"]);

export const k8sContainerResources = defineRule({
  name: "k8s-container-resources",
  description:
    "Containers set CPU and memory requests and limits: benchmark pods are placed by what they ask for and cannot " +
    "starve the storage daemons on the same node. " +
    mirrors(RESOURCES),
  enforcementLevel: "mandatory",
  controls: RESOURCES,
  resourceTypes: WORKLOADS,
  check(inputs, type) {
    const { list, problem } = containersOf(inputs, type);
    if (problem !== undefined) return [problem];
    const out: string[] = [];
    for (const { where, c } of list ?? []) {
      const resources = c.resources;
      if (isOpaque(resources)) {
        out.push(`${where}: resources must be known before deploy, got ${resources}`);
        continue;
      }
      const missing: string[] = [];
      for (const section of ["requests", "limits"]) {
        for (const resource of ["cpu", "memory"])
          if (!isSet(dig(resources, [section, resource]))) missing.push(`resources.${section}.${resource}`);
      }
      if (missing.length > 0) out.push(`${where}: ${missing.join(", ")} not set: size the container's CPU and memory`);
    }
    return out;
  },
});

const LAB_OWN = controls([]);

/** Why each Job limit is needed: the remedy of its message. */
const JOB_LIMIT_WHY: Readonly<Record<string, string>> = {
  activeDeadlineSeconds: "set it so that a hung run ends",
  backoffLimit: "set it explicitly (0: a failed benchmark is not re-run on a warm cache)",
  ttlSecondsAfterFinished: "set it so that finished Jobs go away",
};

export const k8sJobLimits = defineRule({
  name: "k8s-job-limits",
  description:
    "Jobs set `activeDeadlineSeconds` (a hung benchmark ends), `backoffLimit` (explicit: Kubernetes' default of 6 " +
    "retries would re-run a failed benchmark on a warm cache) and `ttlSecondsAfterFinished` (finished Jobs go away). " +
    mirrors(LAB_OWN),
  enforcementLevel: "mandatory",
  controls: LAB_OWN,
  resourceTypes: JOBS,
  check(inputs, type) {
    const path = type === T.cronJob ? "spec.jobTemplate.spec" : "spec";
    const spec = type === T.cronJob ? dig(inputs, ["spec", "jobTemplate", "spec"]) : inputs.spec;
    if (isOpaque(spec)) return [`${path} must be known before deploy, got ${spec}`];
    return ["activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished"]
      .filter((field) => !isSet(dig(spec, [field])))
      .map((field) => `${path}.${field} is not set: ${JOB_LIMIT_WHY[field]}`);
  },
});

function podSecurity(inputs: Obj, type: string): string[] {
  const { problem } = containersOf(inputs, type);
  if (problem !== undefined) return [problem];
  // Opaque values are dropped: a required setting that is unknown then fails, a forbidden one passes.
  return restrictedViolations(withoutOpaque(podSpec(inputs, type).spec) as PodSpecLike);
}

/** The restricted profile's main controls: privilege escalation, root, capabilities, seccomp. */
const RESTRICTED = controls(
  ["CKV_K8S_20", "CKV_K8S_23", "CKV_K8S_28", "CKV_K8S_31", "CKV_K8S_37"],
  ["KSV-0001", "KSV-0003", "KSV-0012", "KSV-0030"],
);

export const k8sJobRestrictedPodSecurity = defineRule({
  name: "k8s-job-restricted-pod-security",
  description:
    "Pods of Jobs meet the restricted Pod Security Standard (non-root, no privilege escalation, all capabilities " +
    "dropped, RuntimeDefault or Localhost seccomp, …): fio, ioping, pgbench and OMB need no privilege. " +
    mirrors(RESTRICTED),
  enforcementLevel: "mandatory",
  controls: RESTRICTED,
  resourceTypes: JOBS,
  check: podSecurity,
});

export const k8sWorkloadRestrictedPodSecurity = defineRule({
  name: "k8s-workload-restricted-pod-security",
  description:
    "Pods of other workloads (Pods, Deployments, StatefulSets, DaemonSets, ReplicaSets) meet the restricted Pod " +
    "Security Standard wherever the software allows. Advisory: some storage software needs privileges. " +
    mirrors(RESTRICTED),
  enforcementLevel: "advisory",
  controls: RESTRICTED,
  resourceTypes: [T.pod, T.deployment, T.statefulSet, T.daemonSet, T.replicaSet],
  check: podSecurity,
});

/** What in a pod spec reaches into the host or runs privileged, one `<where> <what>` each. */
function hostAccess(spec: Obj): string[] {
  const out: string[] = [];
  for (const ns of ["hostPID", "hostIPC", "hostNetwork"]) if (spec[ns] === true) out.push(`pod ${ns}`);
  const volumes = spec.volumes;
  if (Array.isArray(volumes))
    volumes.forEach((v, i) => {
      if (isObj(v) && v.hostPath !== undefined) out.push(`${entry("volumes", v, i, "name")} hostPath`);
    });
  for (const kind of ["initContainers", "containers", "ephemeralContainers"]) {
    const cs = spec[kind];
    if (!Array.isArray(cs)) continue;
    cs.forEach((c, i) => {
      if (dig(c, ["securityContext", "privileged"]) === true) out.push(`${entry(kind, c, i, "name")} privileged`);
    });
  }
  return out;
}

const PRIVILEGED = controls(
  ["CKV_K8S_16", "CKV_K8S_17", "CKV_K8S_18", "CKV_K8S_19"],
  ["KSV-0017", "KSV-0010", "KSV-0008", "KSV-0009", "KSV-0023"],
);

export const k8sPrivilegedNamespaces = defineRule({
  name: "k8s-privileged-namespaces",
  description:
    "Privileged containers, the host's PID, IPC or network namespace and hostPath volumes only in the namespaces that " +
    `need them (${PRIVILEGED_LIST}: PRIVILEGED_NAMESPACES in lab/policy/kubernetes.ts, each with its source). ` +
    mirrors(PRIVILEGED),
  enforcementLevel: "mandatory",
  controls: PRIVILEGED,
  resourceTypes: WORKLOADS,
  check(inputs, type) {
    const spec = podSpec(inputs, type).spec;
    if (!isObj(spec)) return [];
    const found = hostAccess(withoutOpaque(spec) as Obj);
    if (found.length === 0) return [];
    const ns = namespaceOf(inputs);
    if (typeof ns === "string" && Object.prototype.hasOwnProperty.call(PRIVILEGED_NAMESPACES, ns)) return [];
    const where = ns === undefined ? "an unset namespace" : `namespace ${shown(ns)}`;
    return found.map(
      (what) =>
        `${what} in ${where}: only ${PRIVILEGED_LIST} may run privileged or host-access pods: drop it, or run the workload in one of them`,
    );
  },
});

const DEFAULT_NAMESPACE = controls(["CKV_K8S_21"], ["KSV-0110"]);

export const k8sNoDefaultNamespace = defineRule({
  name: "k8s-no-default-namespace",
  description:
    "Workloads and the objects they use (Services, ConfigMaps, Secrets, ServiceAccounts, PersistentVolumeClaims, " +
    "PodDisruptionBudgets) name their namespace, never `default`: an unset namespace is the provider's default, " +
    "`default` unless configured. " +
    mirrors(DEFAULT_NAMESPACE),
  enforcementLevel: "mandatory",
  controls: DEFAULT_NAMESPACE,
  resourceTypes: NAMESPACED,
  check(inputs, type) {
    const name = dig(inputs, ["metadata", "name"]);
    // Checkov's own exceptions: objects Kubernetes itself keeps in `default`.
    if ((type === T.serviceAccount && name === "default") || (type === T.service && name === "kubernetes")) return [];
    const ns = namespaceOf(inputs);
    if (ns === undefined)
      return ['metadata.namespace is not set (the provider puts the object in "default"): set the namespace the lab made for it'];
    if (ns === "default") return ['metadata.namespace is "default": use a namespace the lab creates for the workload'];
    return [];
  },
});

/** The Pod Security Admission label a namespace enforces, and the levels it takes (kubernetes.io, "Pod Security Admission"). */
export const PSA_ENFORCE = "pod-security.kubernetes.io/enforce";
export const PSA_LEVELS = ["restricted", "baseline", "privileged"] as const;

export const k8sNamespacePodSecurity = defineRule({
  name: "k8s-namespace-pod-security",
  description:
    `Every namespace the lab creates enforces a Pod Security Standard (label \`${PSA_ENFORCE}\`): restricted or ` +
    `baseline, privileged only for ${PRIVILEGED_LIST}. Without the label the cluster's default applies (privileged ` +
    "unless the API server is configured otherwise). " +
    mirrors(LAB_OWN),
  enforcementLevel: "mandatory",
  controls: LAB_OWN,
  resourceTypes: [T.namespace],
  check(inputs) {
    const labels = dig(inputs, ["metadata", "labels"]);
    if (isOpaque(labels)) return [];
    const level = isObj(labels) ? labels[PSA_ENFORCE] : undefined;
    const key = `metadata.labels["${PSA_ENFORCE}"]`;
    const name = dig(inputs, ["metadata", "name"]);
    const privileged = typeof name === "string" && Object.prototype.hasOwnProperty.call(PRIVILEGED_NAMESPACES, name);
    if (!isSet(level))
      return [
        privileged
          ? `${key} is not set: label the namespace "privileged" (${name} is in PRIVILEGED_NAMESPACES)`
          : `${key} is not set: label the namespace "restricted" (or "baseline")`,
      ];
    if (isOpaque(level)) return [];
    if (!(PSA_LEVELS as readonly unknown[]).includes(level)) return [`${key} must be one of ${PSA_LEVELS.join(", ")}, got ${shown(level)}`];
    if (level === "privileged" && !privileged && !isOpaque(name))
      return [
        `${key} is "privileged" for namespace ${shown(name)}: only ${PRIVILEGED_LIST} may be privileged: use "restricted" or "baseline"`,
      ];
    return [];
  },
});

const PROBES = controls(["CKV_K8S_8", "CKV_K8S_9"]);

export const k8sProbes = defineRule({
  name: "k8s-probes",
  description:
    "Containers of long-running workloads (Pods, Deployments, StatefulSets, DaemonSets, ReplicaSets; not Jobs, not " +
    "init containers) have a liveness and a readiness probe: a hung server is restarted, and a Service routes only " +
    "to a ready one. " +
    mirrors(PROBES),
  enforcementLevel: "mandatory",
  controls: PROBES,
  resourceTypes: LONG_RUNNING,
  check(inputs, type) {
    const { list, problem } = containersOf(inputs, type);
    if (problem !== undefined) return [problem];
    const out: string[] = [];
    for (const { where, c } of list ?? []) {
      if (where.startsWith("initContainers")) continue;
      const missing = ["livenessProbe", "readinessProbe"].filter((p) => !isSet(c[p]));
      if (missing.length > 0)
        out.push(`${where}: ${missing.join(", ")} not set: probe the container (exec, httpGet or tcpSocket on its port)`);
    }
    return out;
  },
});

/**
 * Services `k8s-service-network-policy` does not ask for a NetworkPolicy, as `<namespace>/<name>`,
 * each with why. None: every Service the lab creates has its namespace's policies (the OMB workers'
 * since the kafka kind's change: components/omb/network.ts). Nothing is exempt.
 */
export const SERVICE_NETWORK_POLICY_EXCEPTIONS: Readonly<Record<string, string>> = {};

/** A label selector's `matchLabels` when it is nothing else (no `matchExpressions`), else undefined. */
function plainMatchLabels(selector: unknown): Record<string, unknown> | undefined {
  if (!isObj(selector)) return undefined;
  const expressions = selector.matchExpressions;
  if (Array.isArray(expressions) ? expressions.length > 0 : isSet(expressions)) return undefined;
  const labels = selector.matchLabels;
  if (labels === undefined || labels === null) return {};
  return isObj(labels) ? labels : undefined;
}

/** True when the policy restricts ingress to the pods a Service selects (`selector`), and allows it only from named peers. */
function restrictsIngressOf(policy: PlanResource, selector: Record<string, unknown>): boolean {
  const spec = dig(policy.inputs, ["spec"]);
  if (!isObj(spec)) return false;
  const types = spec.policyTypes;
  // Kubernetes: without policyTypes a policy is Ingress (plus Egress when it has egress rules).
  const ingressType = types === undefined || types === null || (Array.isArray(types) && types.includes("Ingress"));
  if (!ingressType) return false;
  const match = plainMatchLabels(spec.podSelector);
  if (match === undefined) return false;
  if (!Object.entries(match).every(([k, v]) => selector[k] === v)) return false;
  const ingress = spec.ingress;
  if (ingress === undefined || ingress === null) return true;
  if (!Array.isArray(ingress)) return false;
  // A rule without `from` (or with an empty one) admits every source.
  return ingress.every((r) => isObj(r) && Array.isArray(r.from) && r.from.length > 0);
}

export const k8sServiceNetworkPolicy = definePlanRule({
  name: "k8s-service-network-policy",
  description:
    "Every Service's pods are covered by a NetworkPolicy of its namespace that restricts their ingress (policy type Ingress, a " +
    "podSelector of plain labels that the Service's selector includes, every ingress rule naming its sources): on EKS every pod has a " +
    "VPC address, and a Service that does not authenticate (MySQL's backup sidecar, a Kafka PLAINTEXT listener, the OMB workers' HTTP " +
    "API) is otherwise open to every pod of the cluster. Exempt only the Services of SERVICE_NETWORK_POLICY_EXCEPTIONS, each with why. " +
    mirrors(controls([])),
  enforcementLevel: "mandatory",
  controls: controls([]),
  resourceTypes: [T.service, T.networkPolicy],
  checkResources: (resources) => {
    const policies = resources.filter((r) => r.type === T.networkPolicy);
    const out: Array<{ resource: PlanResource; detail: string }> = [];
    for (const service of resources.filter((r) => r.type === T.service)) {
      const ns = dig(service.inputs, ["metadata", "namespace"]);
      const name = dig(service.inputs, ["metadata", "name"]);
      const selector = dig(service.inputs, ["spec", "selector"]);
      // Unknown until deploy: CrossGuard judges it then. No selector: no pods of its own.
      if (isOpaque(ns) || isOpaque(name) || isOpaque(selector)) continue;
      if (!isObj(selector) || Object.keys(selector).length === 0) continue;
      if (typeof ns === "string" && typeof name === "string" && SERVICE_NETWORK_POLICY_EXCEPTIONS[`${ns}/${name}`] !== undefined) continue;
      const inNs = policies.filter((p) => dig(p.inputs, ["metadata", "namespace"]) === ns);
      if (inNs.some((p) => restrictsIngressOf(p, selector))) continue;
      out.push({
        resource: service,
        detail:
          `no NetworkPolicy in namespace ${shown(ns)} restricts ingress to the pods of selector ${shown(selector)}: add a default-deny ` +
          "policy (podSelector {}, policyTypes Ingress and Egress) and policies allowing exactly the flows its clients use",
      });
    }
    return out;
  },
});

/**
 * Helm charts whose values turn on a CSI driver's inline (ephemeral) volumes, as `<chart>` →
 * the values path: kubernetes-csi/csi-driver-nfs `feature.enableInlineVolume` (default false in the
 * chart's values.yaml at v4.13.4, charts/v4.13.4/csi-driver-nfs/values.yaml; true adds `Ephemeral`
 * to its CSIDriver's `volumeLifecycleModes`, templates/csi-nfs-driverinfo.yaml).
 */
export const INLINE_VOLUME_CHART_VALUES: Readonly<Record<string, readonly string[]>> = {
  "csi-driver-nfs": ["feature", "enableInlineVolume"],
};

/** The chart's name in a Chart's `chart` input (`repo/name`, an OCI or HTTP reference, or a bare name). */
function chartName(chart: unknown): string | undefined {
  if (typeof chart !== "string") return undefined;
  const last = chart.replace(/\/+$/, "").split("/").pop() ?? "";
  return last.replace(/-\d+\.\d+\.\d+.*\.tgz$/, "");
}

export const k8sNoCsiInlineVolumes = defineRule({
  name: "k8s-no-csi-inline-volumes",
  description:
    "No pod mounts a CSI inline volume (`csi` in its volumes), no CSIDriver allows the `Ephemeral` lifecycle mode, no chart " +
    "turns it on (csi-driver-nfs `feature.enableInlineVolume`). The restricted Pod Security profile allows `csi` volumes, so " +
    "an inline volume lets any pod of any namespace mount whatever the driver reaches (with the NFS driver, any export the " +
    "nodes can reach). Storage is mounted through claims bound to PersistentVolumes the lab writes. " +
    mirrors(LAB_OWN),
  enforcementLevel: "mandatory",
  controls: LAB_OWN,
  resourceTypes: [...WORKLOADS, T.csiDriver, T.helmChart],
  check(inputs, type) {
    if (type === T.csiDriver) {
      const modes = dig(inputs, ["spec", "volumeLifecycleModes"]);
      return Array.isArray(modes) && modes.includes("Ephemeral")
        ? ['spec.volumeLifecycleModes includes "Ephemeral": pods could mount the driver\'s volumes inline; keep "Persistent" only']
        : [];
    }
    if (type === T.helmChart) {
      const name = chartName(inputs.chart);
      const path = name === undefined ? undefined : INLINE_VOLUME_CHART_VALUES[name];
      if (path === undefined) return [];
      return dig(inputs, ["values", ...path]) === true
        ? [`values.${path.join(".")} is true: chart ${name} would let pods mount its volumes inline; set it false (the chart's default)`]
        : [];
    }
    const spec = podSpec(inputs, type);
    const volumes = dig(spec.spec, ["volumes"]);
    if (!Array.isArray(volumes)) return [];
    const out: string[] = [];
    volumes.forEach((v, i) => {
      if (!isObj(v) || !isSet(v.csi)) return;
      const driver = dig(v.csi, ["driver"]);
      out.push(
        `${spec.path}.${entry("volumes", v, i, "name")} is a CSI inline volume (driver ${shown(driver)}): mount it through a ` +
          "PersistentVolumeClaim bound to a PersistentVolume instead",
      );
    });
    return out;
  },
});

/** The Kubernetes area's plan rules (over a stack's objects together). */
export const KUBERNETES_PLAN_RULES = [k8sServiceNetworkPolicy] as const;

/** The Kubernetes area's rules. */
export const KUBERNETES_RULES = [
  k8sImagePinned,
  k8sContainerResources,
  k8sJobLimits,
  k8sJobRestrictedPodSecurity,
  k8sWorkloadRestrictedPodSecurity,
  k8sPrivilegedNamespaces,
  k8sNoDefaultNamespace,
  k8sNamespacePodSecurity,
  k8sProbes,
  k8sNoCsiInlineVolumes,
] as const;
