/**
 * Which Kubernetes input changes replace the object, as pulumi-kubernetes decides it: its `Diff`
 * computes a JSON merge patch of old and new inputs and marks a replacement when a changed path
 * falls under one of `forceNewProperties(gvk)` (pulumi/pulumi-kubernetes
 * provider/pkg/provider/diff.go, the `forceNew` table, and provider/pkg/provider/provider.go, `Diff`:
 * `convertPatchToDiff(..., forceNewFields)`; read at commit 00302beb58ae08591f0c8b0b065871c50ba35250).
 * Every other change is a patch, in place. Transcribed for the kinds the lab creates; pure data.
 *
 * Where it differs from what the API server enforces, pulumi-kubernetes' table is what decides the
 * plan, so it is the table here:
 * - a PVC's whole `spec` forces a replacement (the API server would accept a larger
 *   `resources.requests.storage` on an expandable StorageClass);
 * - the table's key for DaemonSets is spelled `Daemonset`, which no object's kind matches: a
 *   DaemonSet's selector change is planned as an update (the API server then rejects it);
 * - `policy/v1` PodDisruptionBudgets are not in it (only `v1beta1`): in place;
 * - a Job's `spec.template` and `selector`, a StatefulSet's `volumeClaimTemplates`, `selector`,
 *   `serviceName`, `podManagementPolicy`, `revisionHistoryLimit`, a Service's `clusterIP`, a
 *   ConfigMap's and a Secret's data: replaced.
 * `metadata.name` and `metadata.namespace` replace every kind (`metadataForceNewProperties`).
 */

export const KUBERNETES_SOURCE =
  "pulumi/pulumi-kubernetes provider/pkg/provider/diff.go (forceNew table) @ 00302beb58ae08591f0c8b0b065871c50ba35250";

const labelSelector = (prefix: string) => [
  `${prefix}.matchExpressions`,
  `${prefix}.matchExpressions.key`,
  `${prefix}.matchExpressions.operator`,
  `${prefix}.matchExpressions.values`,
  `${prefix}.matchLabels`,
];

const METADATA = [".metadata.name", ".metadata.namespace"];

/** `<apiVersion>:<Kind>` (as in the Pulumi type token `kubernetes:<group>/<version>:<Kind>`) → its force-new paths beyond metadata. */
export const KUBERNETES_FORCE_NEW: Readonly<Record<string, readonly string[]>> = {
  "batch/v1:Job": [".spec.completions", ".spec.parallelism", ".spec.selector", ".spec.template", ...labelSelector(".spec.selector")],
  "apps/v1:StatefulSet": [
    ".spec.podManagementPolicy",
    ".spec.revisionHistoryLimit",
    ".spec.selector",
    ".spec.serviceName",
    ".spec.volumeClaimTemplates",
    ...labelSelector(".spec.selector"),
  ],
  "apps/v1:Deployment": [".spec.selector", ...labelSelector(".spec.selector")],
  "core/v1:ConfigMap": [".binaryData", ".data"],
  "core/v1:Secret": [".type", ".stringData", ".data"],
  "core/v1:Service": [".spec.clusterIP"],
  "core/v1:PersistentVolumeClaim": [
    ".spec",
    ".spec.accessModes",
    ".spec.resources",
    ".spec.resources.limits",
    ".spec.resources.requests",
    ".spec.selector",
    ".spec.storageClassName",
    ".spec.volumeName",
    ...labelSelector(".spec.selector"),
  ],
  "core/v1:PersistentVolume": [
    ".spec.awsElasticBlockStore",
    ".spec.azureDisk",
    ".spec.azureFile",
    ".spec.cephfs",
    ".spec.cinder",
    ".spec.csi",
    ".spec.fc",
    ".spec.flexVolume",
    ".spec.flocker",
    ".spec.gcePersistentDisk",
    ".spec.glusterfs",
    ".spec.hostPath",
    ".spec.iscsi",
    ".spec.local",
    ".spec.nfs",
    ".spec.photonPersistentDisk",
    ".spec.portworxVolume",
    ".spec.quobyte",
    ".spec.rbd",
    ".spec.scaleIO",
    ".spec.storageos",
    ".spec.vsphereVolume",
  ],
  "storage.k8s.io/v1:StorageClass": [".parameters", ".provisioner"],
};

/** `kubernetes:batch/v1:Job` → `batch/v1:Job`; `kubernetes:core/v1:Pod` → `core/v1:Pod`. */
export function kubernetesKind(token: string): string | undefined {
  const m = /^kubernetes:([^:]+):([A-Za-z0-9]+)$/.exec(token);
  return m ? `${m[1]}:${m[2]}` : undefined;
}

/** The force-new paths of a Kubernetes object type token (metadata's included); undefined for a token that is not an object. */
export function kubernetesForceNew(token: string): readonly string[] | undefined {
  const kind = kubernetesKind(token);
  if (kind === undefined || token.startsWith("kubernetes:helm.sh/") || token.startsWith("kubernetes:yaml/")) return undefined;
  return [...METADATA, ...(KUBERNETES_FORCE_NEW[kind] ?? [])];
}
