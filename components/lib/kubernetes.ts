/**
 * Kubernetes names, labels and quantities, as the API server checks them, for every component's
 * rules. Pure.
 *
 * Sources (Kubernetes documentation):
 * - "Object Names and IDs": a namespace name is an RFC 1123 label (at most 63 lowercase letters,
 *   digits and '-', starting and ending with a letter or digit); most other names (a StorageClass,
 *   a label key's prefix) are DNS subdomains (such labels joined by '.', at most 253 characters);
 * - "Labels and Selectors" → "Syntax and character set": a label key is an optional DNS-subdomain
 *   prefix and '/', then a name of at most 63 characters, letters, digits, '-', '_' or '.',
 *   starting and ending with a letter or digit; a value is empty or the same as a name;
 * - "Resource Management for Pods and Containers" → "Resource units": CPU in cores or millicores
 *   (`1`, `0.5`, `500m`), memory in bytes with a decimal or binary suffix (`4Gi`, `512Mi`, `1G`).
 */
import type { INamespace } from "kubernetes-models/v1/Namespace";
import { argProblem, ArgProblem } from "../../core/errors";

const DNS_LABEL_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME_RE = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
/**
 * Cores with at most three decimals, or millicores: "Precision finer than 1m is not allowed"
 * (Kubernetes docs, "Assign CPU Resources to Containers and Pods", CPU units;
 * https://kubernetes.io/docs/tasks/configure-pod-container/assign-cpu-resource/).
 */
const CPU_RE = /^([0-9]+(\.[0-9]{1,3})?|[0-9]+m)$/;
const MEMORY_RE = /^[0-9]+(\.[0-9]+)?(k|M|G|T|Ki|Mi|Gi|Ti)?$/;

/** An RFC 1123 label: a namespace's name. */
export function isDnsLabel(v: unknown): v is string {
  return typeof v === "string" && v.length <= 63 && DNS_LABEL_RE.test(v);
}
export const DNS_LABEL_RULE = "an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit";

/** A DNS subdomain: a StorageClass's name, a label key's prefix. */
export function isDnsSubdomain(v: unknown): v is string {
  return typeof v === "string" && v.length <= 253 && DNS_SUBDOMAIN_RE.test(v);
}
export const DNS_SUBDOMAIN_RULE = "a DNS subdomain: lowercase labels joined by '.', at most 253 characters";

/** A label key: `[prefix/]name`. */
export function isLabelKey(k: unknown): k is string {
  if (typeof k !== "string") return false;
  const slash = k.lastIndexOf("/");
  const name = k.slice(slash + 1);
  return (slash < 0 || isDnsSubdomain(k.slice(0, slash))) && name.length <= 63 && LABEL_NAME_RE.test(name);
}

/**
 * The labels a kubelet may give its own Node (`--node-labels`, which EKS managed node groups set
 * from the group's labels): kubernetes/kubernetes staging/src/k8s.io/kubelet/pkg/apis/
 * well_known_labels.go `kubeletLabels` and `kubeletLabelNamespaces`. Any other key whose prefix is
 * kubernetes.io or k8s.io (or a subdomain of either) makes the kubelet refuse to start
 * (cmd/kubelet/app/options/options.go `ValidateKubeletFlags`: "unknown 'kubernetes.io' or 'k8s.io'
 * labels specified with --node-labels"), so the node never joins.
 */
export const KUBELET_LABELS: readonly string[] = [
  "beta.kubernetes.io/arch",
  "beta.kubernetes.io/instance-type",
  "beta.kubernetes.io/os",
  "failure-domain.beta.kubernetes.io/region",
  "failure-domain.beta.kubernetes.io/zone",
  "kubernetes.io/arch",
  "kubernetes.io/hostname",
  "kubernetes.io/os",
  "node.kubernetes.io/instance-type",
  "topology.kubernetes.io/region",
  "topology.kubernetes.io/zone",
];
export const KUBELET_LABEL_NAMESPACES: readonly string[] = ["kubelet.kubernetes.io", "node.kubernetes.io"];

/** Whether a kubelet may set label `key` on its own Node (the kubelet's own test, as above). */
export function kubeletMaySelfLabel(key: string): boolean {
  const slash = key.indexOf("/");
  const ns = slash < 0 ? "" : key.slice(0, slash);
  const under = (domain: string) => ns === domain || ns.endsWith(`.${domain}`);
  if (!under("kubernetes.io") && !under("k8s.io")) return true;
  return KUBELET_LABELS.includes(key) || KUBELET_LABEL_NAMESPACES.some(under);
}
export const KUBELET_SELF_LABEL_RULE = `free of kubernetes.io and k8s.io keys the kubelet may not set on its own node (allowed: under ${KUBELET_LABEL_NAMESPACES.join(", ")}, or one of ${KUBELET_LABELS.join(", ")}); set others with kubectl label after the node joined`;

/** A label value: empty, or at most 63 characters of a label name's syntax. */
export function isLabelValue(v: unknown): v is string {
  return typeof v === "string" && (v === "" || (v.length <= 63 && LABEL_NAME_RE.test(v)));
}
export const LABEL_RULE = "a label: a key [prefix/]name and a value of at most 63 letters, digits, '-', '_' or '.'";

/** A map of labels (a `nodeSelector`, a `matchLabels`): an object whose every entry is a label. */
export function isLabels(v: unknown): v is Record<string, string> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && Object.entries(v).every(([k, x]) => isLabelKey(k) && isLabelValue(x));
}

/** A CPU quantity: cores (`1`, `0.5`) or millicores (`500m`). */
export function isCpuQuantity(v: unknown): v is string {
  return typeof v === "string" && CPU_RE.test(v);
}
export const CPU_QUANTITY_RULE = 'a Kubernetes CPU quantity (e.g. "1" or "500m")';

/** A memory quantity: bytes, with a decimal (k, M, G, T) or binary (Ki, Mi, Gi, Ti) suffix. */
export function isMemoryQuantity(v: unknown): v is string {
  return typeof v === "string" && MEMORY_RE.test(v);
}
export const MEMORY_QUANTITY_RULE = 'a Kubernetes memory quantity (e.g. "4Gi")';

/**
 * A Pod Security Standards level (Kubernetes docs, "Pod Security Admission" → "Pod Security
 * Admission labels for namespaces": `pod-security.kubernetes.io/<MODE>: <LEVEL>`, modes `enforce`,
 * `audit`, `warn`; `<MODE>-version: latest`).
 */
export type PodSecurityLevel = "privileged" | "baseline" | "restricted";

/** A namespace that enforces (and audits, warns at) `level`; `labels` follow the Pod Security ones. */
export function podSecurityNamespace(name: string, level: PodSecurityLevel, labels: Record<string, string> = {}): INamespace {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: {
      name,
      labels: {
        "pod-security.kubernetes.io/enforce": level,
        "pod-security.kubernetes.io/enforce-version": "latest",
        "pod-security.kubernetes.io/warn": level,
        "pod-security.kubernetes.io/audit": level,
        ...labels,
      },
    },
  };
}

/** CPU and memory of one container, Kubernetes quantities. */
export interface ContainerResources {
  readonly requests: { readonly cpu: string; readonly memory: string };
  readonly limits: { readonly cpu: string; readonly memory: string };
}

/** A memory quantity in bytes (decimal k/M/G/T or binary Ki/Mi/Gi/Ti suffixes); undefined when it is not one. */
export function memoryBytes(q: unknown): number | undefined {
  if (!isMemoryQuantity(q)) return undefined;
  const m = /^([0-9]+(?:\.[0-9]+)?)([A-Za-z]*)$/.exec(q)!;
  const unit: Record<string, number> = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(m[1]) * unit[m[2]];
}

/** A CPU quantity in cores (`500m` → 0.5); undefined when it is not one. */
export function cpuCores(q: unknown): number | undefined {
  if (!isCpuQuantity(q)) return undefined;
  return q.endsWith("m") ? Number(q.slice(0, -1)) / 1000 : Number(q);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Problems of a requests/limits pair at `path`: every quantity valid, and each limit at least its
 * request (the API server refuses a container whose limit is below its request).
 */
export function containerResourcesProblems(path: string, r: unknown): ArgProblem[] {
  if (!isPlainObject(r)) return [argProblem(path, "requests and limits of cpu and memory", r)];
  const out: ArgProblem[] = [];
  for (const kind of ["requests", "limits"] as const) {
    const q = (r as Partial<ContainerResources>)[kind];
    if (!isCpuQuantity(q?.cpu)) out.push(argProblem(`${path}.${kind}.cpu`, CPU_QUANTITY_RULE, q?.cpu));
    if (!isMemoryQuantity(q?.memory)) out.push(argProblem(`${path}.${kind}.memory`, MEMORY_QUANTITY_RULE, q?.memory));
  }
  if (out.length > 0) return out;
  const res = r as unknown as ContainerResources;
  if (cpuCores(res.limits.cpu)! < cpuCores(res.requests.cpu)!)
    out.push(argProblem(`${path}.limits.cpu`, `at least the request (${res.requests.cpu})`, res.limits.cpu));
  if (memoryBytes(res.limits.memory)! < memoryBytes(res.requests.memory)!)
    out.push(argProblem(`${path}.limits.memory`, `at least the request (${res.requests.memory})`, res.limits.memory));
  return out;
}

/**
 * A StorageClass's fields the API server refuses to change (kubernetes/kubernetes
 * pkg/apis/storage/validation/validation.go ValidateStorageClassUpdate: provisioner, parameters,
 * reclaimPolicy and volumeBindingMode are immutable) that pulumi-kubernetes' force-new table does
 * not list (it lists provisioner and parameters only: provider/pkg/provider/diff.go), so that an
 * update of them would be a patch the API server answers 422. As `replaceOnChanges`, a change
 * replaces the class instead; the volumes it provisioned keep the policy they were created with.
 */
export const STORAGE_CLASS_REPLACE_ON_CHANGES: readonly string[] = ["reclaimPolicy", "volumeBindingMode"];
