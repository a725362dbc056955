import { TYPES as T } from "../../../lab/resource-types";
import { evaluatePlanRules } from "../../../lab/policy/evaluate";
import {
  k8sServiceNetworkPolicy,
  KUBERNETES_PLAN_RULES,
  KUBERNETES_RULES,
  PRIVILEGED_NAMESPACES,
  SERVICE_NETWORK_POLICY_EXCEPTIONS,
} from "../../../lab/policy/kubernetes";
import { COMPUTED } from "../../../lab/policy/rule";
import { kafkaPodSelector } from "../../../components/kafka/network";
import { ombNetworkPolicies } from "../../../components/omb/network";
import { Case, testRules } from "./cases";

/** A restricted, pinned, limited container. */
const container = (over: Record<string, unknown> = {}) => ({
  name: "c",
  image: "docker.io/library/postgres:17.11-bookworm",
  resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "1Gi" } },
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
  ...over,
});
const POD_SC = { runAsNonRoot: true, runAsUser: 999, seccompProfile: { type: "RuntimeDefault" } };
const podSpec = (containers: unknown[], over: Record<string, unknown> = {}) => ({ securityContext: POD_SC, containers, ...over });
const JOB_LIMITS = { activeDeadlineSeconds: 600, backoffLimit: 0, ttlSecondsAfterFinished: 86400 };
const job = (spec: unknown, limits: Record<string, unknown> = JOB_LIMITS) => ({
  apiVersion: "batch/v1",
  kind: "Job",
  metadata: { name: "bench" },
  spec: { ...limits, template: { spec } },
});
const workload = (spec: unknown) => ({ spec: { template: { spec } } });
const cronJob = (spec: unknown, limits: Record<string, unknown> = JOB_LIMITS) => ({
  spec: { schedule: "0 * * * *", jobTemplate: { spec: { ...limits, template: { spec } } } },
});
const DIGEST = "a".repeat(64);
/** `inputs` with `metadata.namespace`. */
const inNs = (namespace: unknown, inputs: Record<string, unknown>) => ({
  ...inputs,
  metadata: { ...((inputs.metadata as Record<string, unknown>) ?? {}), namespace },
});
const ENFORCE = "pod-security.kubernetes.io/enforce";
const ns = (name: string, labels: Record<string, string>) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name, labels } });
const PROBE = { tcpSocket: { port: 5432 }, periodSeconds: 10 };
const ruleOf = (name: string) => KUBERNETES_RULES.find((r) => r.name === name) as (typeof KUBERNETES_RULES)[number];

const CASES: readonly Case[] = [
  // k8s-image-pinned
  {
    rule: "k8s-image-pinned",
    title: "version tags and digests, registry ports",
    type: T.job,
    inputs: job(
      podSpec(
        [
          container({ image: "localhost:5000/lab/tools:fio-3.33" }),
          container({ name: "d", image: `registry:5000/tools@sha256:${DIGEST}` }),
        ],
        { initContainers: [container({ name: "init", image: `busybox:1.37@sha256:${DIGEST}` })] },
      ),
    ),
    want: [],
  },
  {
    rule: "k8s-image-pinned",
    title: "a sha512 digest pins too (OCI image spec v1.1.1 registers sha256 and sha512)",
    type: T.job,
    inputs: job(podSpec([container({ image: `quay.io/ceph/ceph@sha512:${"b".repeat(128)}` })])),
    want: [],
  },
  {
    rule: "k8s-image-pinned",
    title: "latest beside a digest, an unregistered or short sha512 digest, a capital in the path, surrounding spaces",
    type: T.deployment,
    inputs: workload(
      podSpec([
        container({ name: "a", image: `postgres:latest@sha256:${DIGEST}` }),
        container({ name: "b", image: `tools@sha384:${"c".repeat(96)}` }),
        container({ name: "c", image: `tools@sha512:${DIGEST}` }),
        container({ name: "d", image: "Postgres:17" }),
        container({ name: "e", image: " postgres:17 " }),
      ]),
    ),
    want: [
      `containers[a]: image "postgres:latest@sha256:${DIGEST}" uses the tag latest beside its digest: drop the tag or name a version`,
      `containers[b]: image "tools@sha384:${"c".repeat(96)}" has a malformed digest (want sha256:<64 hex digits> or sha512:<128 hex digits>, lowercase)`,
      `containers[c]: image "tools@sha512:${DIGEST}" has a malformed digest (want sha256:<64 hex digits> or sha512:<128 hex digits>, lowercase)`,
      'containers[d]: image "Postgres:17" is not a valid image reference: want [registry[:port]/]path, the path of lowercase letters and digits joined by ".", "_" or "-", at most 255 characters',
      'containers[e]: image " postgres:17 " is not a valid image reference: want [registry[:port]/]path, the path of lowercase letters and digits joined by ".", "_" or "-", at most 255 characters',
    ],
  },
  {
    rule: "k8s-image-pinned",
    title: "an image unknown until deploy is not judged",
    type: T.job,
    inputs: job(podSpec([container({ image: COMPUTED })])),
    want: [],
  },
  {
    rule: "k8s-image-pinned",
    title: "no tag, latest, a registry port that is not a tag, a bad digest, no image",
    type: T.job,
    inputs: job(
      podSpec(
        [
          container({ name: "a", image: "postgres" }),
          container({ name: "b", image: "postgres:latest" }),
          container({ name: "c", image: "registry:5000/tools" }),
          container({ name: "d", image: "tools@sha256:abc" }),
          container({ name: "e", image: undefined }),
        ],
        { initContainers: [container({ name: "init", image: "busybox:" })] },
      ),
    ),
    want: [
      'initContainers[init]: image "busybox:" has no tag (Kubernetes pulls latest): pin a version tag or a digest',
      'containers[a]: image "postgres" has no tag (Kubernetes pulls latest): pin a version tag or a digest',
      'containers[b]: image "postgres:latest" uses the tag latest: pin a version tag or a digest',
      'containers[c]: image "registry:5000/tools" has no tag (Kubernetes pulls latest): pin a version tag or a digest',
      'containers[d]: image "tools@sha256:abc" has a malformed digest (want sha256:<64 hex digits> or sha512:<128 hex digits>, lowercase)',
      "containers[e]: image is not set: set a pinned image (a version tag or a digest)",
    ],
  },
  {
    rule: "k8s-image-pinned",
    title: "a Pod's own spec",
    type: T.pod,
    inputs: { spec: podSpec([container({ image: "nginx" })]) },
    want: ['containers[c]: image "nginx" has no tag (Kubernetes pulls latest): pin a version tag or a digest'],
  },
  {
    rule: "k8s-image-pinned",
    title: "a CronJob's job template",
    type: T.cronJob,
    inputs: cronJob(podSpec([container({ image: "nginx:latest" })])),
    want: ['containers[c]: image "nginx:latest" uses the tag latest: pin a version tag or a digest'],
  },
  {
    rule: "k8s-image-pinned",
    title: "a StatefulSet's template",
    type: T.statefulSet,
    inputs: workload(podSpec([container({ name: "mysql", image: "mysql" })])),
    want: ['containers[mysql]: image "mysql" has no tag (Kubernetes pulls latest): pin a version tag or a digest'],
  },

  // k8s-container-resources
  { rule: "k8s-container-resources", title: "requests and limits", type: T.deployment, inputs: workload(podSpec([container()])), want: [] },
  {
    rule: "k8s-container-resources",
    title: "a quantity unknown until deploy is present",
    type: T.job,
    inputs: job(podSpec([container({ resources: { requests: { cpu: COMPUTED, memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } } })])),
    want: [],
  },
  {
    rule: "k8s-container-resources",
    title: "missing quantities, one line per container",
    type: T.job,
    inputs: job(
      podSpec([
        container({ resources: { requests: { cpu: "1" }, limits: { memory: "1Gi" } } }),
        container({ name: "d", resources: undefined }),
      ]),
    ),
    want: [
      "containers[c]: resources.requests.memory, resources.limits.cpu not set: size the container's CPU and memory",
      "containers[d]: resources.requests.cpu, resources.requests.memory, resources.limits.cpu, resources.limits.memory not set: size the container's CPU and memory",
    ],
  },
  {
    rule: "k8s-container-resources",
    title: "resources unknown until deploy fail",
    type: T.job,
    inputs: job(podSpec([container({ resources: COMPUTED })])),
    want: ["containers[c]: resources must be known before deploy, got <computed>"],
  },
  {
    rule: "k8s-container-resources",
    title: "a pod template unknown until deploy fails",
    type: T.deployment,
    inputs: { spec: { template: { spec: COMPUTED } } },
    want: ["spec.template.spec must be known before deploy, got <computed>"],
  },
  {
    rule: "k8s-container-resources",
    title: "a container unknown until deploy fails",
    type: T.daemonSet,
    inputs: workload(podSpec([COMPUTED])),
    want: ["spec.template.spec.containers[0] must be known before deploy, got <computed>"],
  },
  {
    rule: "k8s-container-resources",
    title: "no pod template",
    type: T.replicaSet,
    inputs: { spec: {} },
    want: ["spec.template.spec is not set"],
  },

  // k8s-job-limits
  { rule: "k8s-job-limits", title: "deadline, backoffLimit 0, TTL", type: T.job, inputs: job(podSpec([container()])), want: [] },
  {
    rule: "k8s-job-limits",
    title: "none of them",
    type: T.job,
    inputs: job(podSpec([container()]), {}),
    want: [
      "spec.activeDeadlineSeconds is not set: set it so that a hung run ends",
      "spec.backoffLimit is not set: set it explicitly (0: a failed benchmark is not re-run on a warm cache)",
      "spec.ttlSecondsAfterFinished is not set: set it so that finished Jobs go away",
    ],
  },
  {
    rule: "k8s-job-limits",
    title: "a CronJob's job template",
    type: T.cronJob,
    inputs: cronJob(podSpec([container()]), { activeDeadlineSeconds: 60 }),
    want: [
      "spec.jobTemplate.spec.backoffLimit is not set: set it explicitly (0: a failed benchmark is not re-run on a warm cache)",
      "spec.jobTemplate.spec.ttlSecondsAfterFinished is not set: set it so that finished Jobs go away",
    ],
  },
  {
    rule: "k8s-job-limits",
    title: "a Job spec unknown until deploy fails",
    type: T.job,
    inputs: { spec: COMPUTED },
    want: ["spec must be known before deploy, got <computed>"],
  },

  // k8s-job-restricted-pod-security
  { rule: "k8s-job-restricted-pod-security", title: "restricted pod", type: T.job, inputs: job(podSpec([container()])), want: [] },
  {
    rule: "k8s-job-restricted-pod-security",
    title: "no security context at all",
    type: T.job,
    inputs: job({ containers: [container({ securityContext: undefined })] }),
    want: [
      "containers[c]: allowPrivilegeEscalation must be false",
      "containers[c]: runAsNonRoot must be true (pod or container)",
      "containers[c]: seccompProfile must be RuntimeDefault or Localhost (pod or container)",
      "containers[c]: capabilities must drop ALL",
    ],
  },
  {
    rule: "k8s-job-restricted-pod-security",
    title: "unknown until deploy: a required setting fails, a forbidden one is not judged",
    type: T.job,
    inputs: job(
      podSpec(
        [container({ securityContext: { allowPrivilegeEscalation: COMPUTED, privileged: COMPUTED, capabilities: { drop: ["ALL"] } } })],
        {
          hostNetwork: COMPUTED,
          volumes: COMPUTED,
        },
      ),
    ),
    want: ["containers[c]: allowPrivilegeEscalation must be false"],
  },
  {
    rule: "k8s-job-restricted-pod-security",
    title: "privileged host access in a CronJob",
    type: T.cronJob,
    inputs: cronJob(
      podSpec([container({ ports: [{ containerPort: 80, hostPort: 80 }] })], {
        hostPID: true,
        volumes: [{ name: "h", hostPath: { path: "/" } }],
      }),
    ),
    want: [
      "pod: hostPID must not be true",
      "volume h: hostPath is forbidden",
      "volume h: type hostPath is not allowed",
      "containers[c]: hostPort 80 is forbidden",
    ],
  },
  {
    rule: "k8s-job-restricted-pod-security",
    title: "a pod template unknown until deploy fails",
    type: T.job,
    inputs: { spec: { ...JOB_LIMITS, template: COMPUTED } },
    want: ["spec.template.spec must be known before deploy, got <computed>"],
  },

  // k8s-workload-restricted-pod-security
  {
    rule: "k8s-workload-restricted-pod-security",
    title: "restricted StatefulSet",
    type: T.statefulSet,
    inputs: workload(podSpec([container()])),
    want: [],
  },
  {
    rule: "k8s-workload-restricted-pod-security",
    title: "a Deployment on the host network, running as root",
    type: T.deployment,
    inputs: workload(podSpec([container()], { hostNetwork: true, securityContext: { ...POD_SC, runAsNonRoot: false, runAsUser: 0 } })),
    want: [
      "pod: hostNetwork must not be true",
      "pod: runAsUser must not be 0",
      "pod: runAsNonRoot must not be false",
      "containers[c]: runAsNonRoot must be true (pod or container)",
    ],
  },
  {
    rule: "k8s-workload-restricted-pod-security",
    title: "a Pod",
    type: T.pod,
    inputs: {
      spec: podSpec([
        container({ securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"], add: ["SYS_ADMIN"] } } }),
      ]),
    },
    want: ["containers[c]: capability SYS_ADMIN must not be added", "containers[c]: capability SYS_ADMIN is beyond baseline"],
  },

  // k8s-privileged-namespaces
  {
    rule: "k8s-privileged-namespaces",
    title: "a restricted workload anywhere",
    type: T.statefulSet,
    inputs: inNs("mysql", workload(podSpec([container()]))),
    want: [],
  },
  {
    rule: "k8s-privileged-namespaces",
    title: "a privileged, host-access DaemonSet in trident (PRIVILEGED_NAMESPACES)",
    type: T.daemonSet,
    inputs: inNs(
      "trident",
      workload(
        podSpec([container({ securityContext: { privileged: true } })], {
          hostNetwork: true,
          hostPID: true,
          hostIPC: true,
          volumes: [{ name: "dev", hostPath: { path: "/dev" } }],
        }),
      ),
    ),
    want: [],
  },
  {
    rule: "k8s-privileged-namespaces",
    title: "the same in rook-ceph",
    type: T.pod,
    inputs: { metadata: { namespace: "rook-ceph" }, spec: podSpec([container({ securityContext: { privileged: true } })]) },
    want: [],
  },
  {
    rule: "k8s-privileged-namespaces",
    title: "privileged, host namespaces and hostPath in bench: one line each",
    type: T.job,
    inputs: inNs(
      "bench",
      job(
        podSpec([container({ securityContext: { privileged: true } })], {
          hostPID: true,
          hostIPC: true,
          hostNetwork: true,
          initContainers: [container({ name: "init", securityContext: { privileged: true } })],
          volumes: [
            { name: "data", emptyDir: {} },
            { name: "root", hostPath: { path: "/" } },
          ],
        }),
      ),
    ),
    want: [
      'pod hostPID in namespace "bench": only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them',
      'pod hostIPC in namespace "bench": only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them',
      'pod hostNetwork in namespace "bench": only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them',
      'volumes[root] hostPath in namespace "bench": only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them',
      'initContainers[init] privileged in namespace "bench": only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them',
      'containers[c] privileged in namespace "bench": only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them',
    ],
  },
  {
    rule: "k8s-privileged-namespaces",
    title: "a privileged CronJob without a namespace",
    type: T.cronJob,
    inputs: cronJob(podSpec([container({ securityContext: { privileged: true } })])),
    want: [
      "containers[c] privileged in an unset namespace: only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them",
    ],
  },
  {
    rule: "k8s-privileged-namespaces",
    title: "a namespace unknown until deploy is not in the list",
    type: T.deployment,
    inputs: inNs(COMPUTED, workload(podSpec([container()], { hostNetwork: true }))),
    want: [
      "pod hostNetwork in namespace <computed>: only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them",
    ],
  },
  {
    rule: "k8s-privileged-namespaces",
    title: "a privilege unknown until deploy is not judged (the pack judges it at deploy)",
    type: T.deployment,
    inputs: inNs("bench", workload(podSpec([container({ securityContext: { privileged: COMPUTED } })], { hostPID: COMPUTED }))),
    want: [],
  },

  // k8s-no-default-namespace
  { rule: "k8s-no-default-namespace", title: "a Job in bench", type: T.job, inputs: inNs("bench", job(podSpec([container()]))), want: [] },
  {
    rule: "k8s-no-default-namespace",
    title: "a namespace unknown until deploy (from a Namespace resource) is set",
    type: T.service,
    inputs: { metadata: { name: "mysql", namespace: COMPUTED } },
    want: [],
  },
  {
    rule: "k8s-no-default-namespace",
    title: "Checkov's exceptions: the default ServiceAccount, the kubernetes Service",
    type: T.serviceAccount,
    inputs: { metadata: { name: "default", namespace: "default" } },
    want: [],
  },
  {
    rule: "k8s-no-default-namespace",
    title: "a ConfigMap without a namespace",
    type: T.configMap,
    inputs: { metadata: { name: "fio-scripts" }, data: {} },
    want: ['metadata.namespace is not set (the provider puts the object in "default"): set the namespace the lab made for it'],
  },
  {
    rule: "k8s-no-default-namespace",
    title: "a StatefulSet in default",
    type: T.statefulSet,
    inputs: inNs("default", workload(podSpec([container()]))),
    want: ['metadata.namespace is "default": use a namespace the lab creates for the workload'],
  },
  {
    rule: "k8s-no-default-namespace",
    title: "a PVC with a blank namespace",
    type: T.persistentVolumeClaim,
    inputs: { metadata: { name: "data", namespace: " " } },
    want: ['metadata.namespace is not set (the provider puts the object in "default"): set the namespace the lab made for it'],
  },

  // k8s-namespace-pod-security
  {
    rule: "k8s-namespace-pod-security",
    title: "bench enforces restricted",
    type: T.namespace,
    inputs: ns("bench", { [ENFORCE]: "restricted", "pod-security.kubernetes.io/enforce-version": "latest" }),
    want: [],
  },
  {
    rule: "k8s-namespace-pod-security",
    title: "trident may be privileged",
    type: T.namespace,
    inputs: ns("trident", { [ENFORCE]: "privileged" }),
    want: [],
  },
  {
    rule: "k8s-namespace-pod-security",
    title: "labels unknown until deploy are present",
    type: T.namespace,
    inputs: { metadata: { name: "x", labels: COMPUTED } },
    want: [],
  },
  {
    rule: "k8s-namespace-pod-security",
    title: "no labels",
    type: T.namespace,
    inputs: { metadata: { name: "bench" } },
    want: ['metadata.labels["pod-security.kubernetes.io/enforce"] is not set: label the namespace "restricted" (or "baseline")'],
  },
  {
    rule: "k8s-namespace-pod-security",
    title: "rook-ceph without its label: the remedy is privileged",
    type: T.namespace,
    inputs: ns("rook-ceph", { "pod-security.kubernetes.io/warn": "privileged" }),
    want: [
      'metadata.labels["pod-security.kubernetes.io/enforce"] is not set: label the namespace "privileged" (rook-ceph is in PRIVILEGED_NAMESPACES)',
    ],
  },
  {
    rule: "k8s-namespace-pod-security",
    title: "a misspelt level",
    type: T.namespace,
    inputs: ns("bench", { [ENFORCE]: "restricted " }),
    want: ['metadata.labels["pod-security.kubernetes.io/enforce"] must be one of restricted, baseline, privileged, got "restricted "'],
  },
  {
    rule: "k8s-namespace-pod-security",
    title: "privileged outside the list",
    type: T.namespace,
    inputs: ns("mysql", { [ENFORCE]: "privileged" }),
    want: [
      'metadata.labels["pod-security.kubernetes.io/enforce"] is "privileged" for namespace "mysql": only rook-ceph, trident may be privileged: use "restricted" or "baseline"',
    ],
  },

  // k8s-probes
  {
    rule: "k8s-probes",
    title: "both probes; an init container needs none",
    type: T.statefulSet,
    inputs: workload(
      podSpec([container({ livenessProbe: PROBE, readinessProbe: PROBE })], { initContainers: [container({ name: "init" })] }),
    ),
    want: [],
  },
  {
    rule: "k8s-probes",
    title: "probes unknown until deploy are present",
    type: T.deployment,
    inputs: workload(podSpec([container({ livenessProbe: COMPUTED, readinessProbe: COMPUTED })])),
    want: [],
  },
  {
    rule: "k8s-probes",
    title: "a sidecar without probes, a server without a liveness probe",
    type: T.statefulSet,
    inputs: workload(
      podSpec([
        container({ name: "mysql", livenessProbe: PROBE }),
        container({ name: "xtrabackup" }),
        container({ name: "pg", readinessProbe: PROBE }),
      ]),
    ),
    want: [
      "containers[mysql]: readinessProbe not set: probe the container (exec, httpGet or tcpSocket on its port)",
      "containers[xtrabackup]: livenessProbe, readinessProbe not set: probe the container (exec, httpGet or tcpSocket on its port)",
      "containers[pg]: livenessProbe not set: probe the container (exec, httpGet or tcpSocket on its port)",
    ],
  },
  {
    rule: "k8s-probes",
    title: "a DaemonSet whose pod template is unknown until deploy",
    type: T.daemonSet,
    inputs: { spec: { template: COMPUTED } },
    want: ["spec.template.spec must be known before deploy, got <computed>"],
  },

  // k8s-no-csi-inline-volumes
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "a Job mounting claims, a ConfigMap and an emptyDir",
    type: T.job,
    inputs: job(
      podSpec([container()], {
        volumes: [
          { name: "data", persistentVolumeClaim: { claimName: "volume-root-0" } },
          { name: "s", configMap: { name: "x" } },
          { name: "t", emptyDir: {} },
        ],
      }),
    ),
    want: [],
  },
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "a Job with an NFS CSI inline volume (what the kafka kind's prepare Job had)",
    type: T.job,
    inputs: job(
      podSpec([container()], {
        volumes: [
          { name: "scripts", configMap: { name: "x" } },
          { name: "data-0", csi: { driver: "nfs.csi.k8s.io", volumeAttributes: { server: "svm", share: "/kafkafsxN1" } } },
        ],
      }),
    ),
    want: [
      'spec.template.spec.volumes[data-0] is a CSI inline volume (driver "nfs.csi.k8s.io"): mount it through a PersistentVolumeClaim bound to a PersistentVolume instead',
    ],
  },
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "a Pod's inline volume of a driver unknown until deploy",
    type: T.pod,
    inputs: { metadata: { name: "p" }, spec: podSpec([container()], { volumes: [{ name: "v", csi: { driver: COMPUTED } }] }) },
    want: [
      "spec.volumes[v] is a CSI inline volume (driver <computed>): mount it through a PersistentVolumeClaim bound to a PersistentVolume instead",
    ],
  },
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "a StatefulSet's inline volume",
    type: T.statefulSet,
    inputs: workload(podSpec([container()], { volumes: [{ name: "secrets", csi: { driver: "secrets-store.csi.k8s.io" } }] })),
    want: [
      'spec.template.spec.volumes[secrets] is a CSI inline volume (driver "secrets-store.csi.k8s.io"): mount it through a PersistentVolumeClaim bound to a PersistentVolume instead',
    ],
  },
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "a CSIDriver for persistent volumes only (csi-driver-nfs 4.13.4's with enableInlineVolume false)",
    type: T.csiDriver,
    inputs: {
      metadata: { name: "nfs.csi.k8s.io" },
      spec: { attachRequired: false, volumeLifecycleModes: ["Persistent"], fsGroupPolicy: "File" },
    },
    want: [],
  },
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "a CSIDriver allowing Ephemeral (csi-driver-nfs with enableInlineVolume true)",
    type: T.csiDriver,
    inputs: { metadata: { name: "nfs.csi.k8s.io" }, spec: { attachRequired: false, volumeLifecycleModes: ["Persistent", "Ephemeral"] } },
    want: ['spec.volumeLifecycleModes includes "Ephemeral": pods could mount the driver\'s volumes inline; keep "Persistent" only'],
  },
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "the csi-driver-nfs chart with inline volumes on",
    type: T.helmChart,
    inputs: { chart: "csi-driver-nfs", version: "4.13.4", values: { feature: { enableInlineVolume: true } } },
    want: [
      "values.feature.enableInlineVolume is true: chart csi-driver-nfs would let pods mount its volumes inline; set it false (the chart's default)",
    ],
  },
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "the csi-driver-nfs chart by repository path with inline volumes off; another chart's same value is not read",
    type: T.helmChart,
    inputs: { chart: "csi-driver-nfs/csi-driver-nfs", values: { feature: { enableInlineVolume: false } } },
    want: [],
  },
  {
    rule: "k8s-no-csi-inline-volumes",
    title: "another chart's same-named value is not read",
    type: T.helmChart,
    inputs: { chart: "oci://quay.io/strimzi-helm/strimzi-kafka-operator", values: { feature: { enableInlineVolume: true } } },
    want: [],
  },
];

testRules("kubernetes", KUBERNETES_RULES, CASES);

describe("the privileged namespaces", () => {
  test("are one list, each entry with why and its source", () => {
    expect(Object.keys(PRIVILEGED_NAMESPACES)).toEqual(["rook-ceph", "trident"]);
    expect(PRIVILEGED_NAMESPACES["rook-ceph"]).toContain("rook.github.io/docs/rook/");
    expect(PRIVILEGED_NAMESPACES.trident).toContain("docs.netapp.com");
  });

  test("probes are asked of long-running workloads only: never of Jobs", () => {
    expect(ruleOf("k8s-probes").resourceTypes).toEqual([T.pod, T.deployment, T.statefulSet, T.daemonSet, T.replicaSet]);
    expect(ruleOf("k8s-probes").check(job(podSpec([container()])), T.job)).toEqual([
      "containers[c]: livenessProbe, readinessProbe not set: probe the container (exec, httpGet or tcpSocket on its port)",
    ]);
  });
});

describe("k8s-service-network-policy (over a stack's objects together)", () => {
  const rule = k8sServiceNetworkPolicy;
  const sel = { app: "db", tier: "data" };
  const svc = (ns: string, name = "db", selector: unknown = sel) => ({
    urn: `urn:svc:${ns}:${name}`,
    type: T.service,
    name: `${name}-svc`,
    inputs: { metadata: { name, namespace: ns }, spec: { selector, ports: [{ port: 3306 }] } },
  });
  const np = (ns: string, spec: Record<string, unknown>, name = "p") => ({
    urn: `urn:np:${ns}:${name}`,
    type: T.networkPolicy,
    name: `${ns}-${name}`,
    inputs: { metadata: { name, namespace: ns }, spec },
  });
  const deny = (ns: string) => np(ns, { podSelector: {}, policyTypes: ["Ingress", "Egress"] }, "default-deny");
  const details = (resources: Parameters<typeof rule.checkResources>[0]) =>
    rule.checkResources(resources).map((f) => [f.resource.name, f.detail]);
  const missing = (ns: string) =>
    `no NetworkPolicy in namespace "${ns}" restricts ingress to the pods of selector {"app":"db","tier":"data"}: add a default-deny ` +
    "policy (podSelector {}, policyTypes Ingress and Egress) and policies allowing exactly the flows its clients use";

  test("reads Services and NetworkPolicies, mandatory, the lab's own", () => {
    expect([rule.resourceTypes, rule.enforcementLevel]).toEqual([[T.service, T.networkPolicy], "mandatory"]);
    expect(KUBERNETES_PLAN_RULES).toEqual([rule]);
  });

  test("compliant: a default deny in the Service's namespace; a policy whose plain labels the selector includes, with named sources", () => {
    expect(details([svc("mysql"), deny("mysql")])).toEqual([]);
    const narrow = np("mysql", {
      podSelector: { matchLabels: { app: "db" } },
      policyTypes: ["Ingress"],
      ingress: [{ from: [{ podSelector: {} }] }],
    });
    expect(details([svc("mysql"), narrow])).toEqual([]);
    // Without policyTypes a policy is an Ingress policy (Kubernetes NetworkPolicySpec.policyTypes).
    expect(details([svc("mysql"), np("mysql", { podSelector: {} })])).toEqual([]);
    // A Service without a selector has no pods of its own; unknown namespaces are judged at deploy.
    expect(details([svc("mysql", "ext", {})])).toEqual([]);
    expect(details([svc(COMPUTED)])).toEqual([]);
    // Nothing is exempt any more; the OMB workers' Service passes with the OMB namespace's own policies.
    expect(SERVICE_NETWORK_POLICY_EXCEPTIONS).toEqual({});
    // The workers' Service's selector (components/omb/manifests.ts WORKER_LABELS).
    const worker = svc("omb", "omb-worker", { "app.kubernetes.io/name": "omb-worker", "app.kubernetes.io/part-of": "storage-bench-lab" });
    const ombPolicies = ombNetworkPolicies("omb", { namespace: "kafka", podLabels: kafkaPodSelector("kafka"), port: 9092 }).map((p) =>
      np("omb", p.spec as unknown as Record<string, unknown>, p.metadata!.name),
    );
    expect(details([worker, ...ombPolicies])).toEqual([]);
    // Only the worker-ingress policy (no default deny): still restricted, from the driver pods only.
    expect(details([worker, ombPolicies.find((p) => p.inputs.metadata.name === "omb-worker-ingress")!])).toEqual([]);
  });

  test("non-compliant: no policy; one in another namespace; one for other pods; Egress only; allow-all ingress; an expression selector", () => {
    expect(details([svc("mysql")])).toEqual([["db-svc", missing("mysql")]]);
    expect(details([svc("mysql"), deny("bench")])).toEqual([["db-svc", missing("mysql")]]);
    const other = np("mysql", { podSelector: { matchLabels: { app: "web" } }, policyTypes: ["Ingress"] });
    expect(details([svc("mysql"), other])).toEqual([["db-svc", missing("mysql")]]);
    expect(details([svc("mysql"), np("mysql", { podSelector: {}, policyTypes: ["Egress"] })])).toEqual([["db-svc", missing("mysql")]]);
    const allowAll = np("mysql", { podSelector: {}, policyTypes: ["Ingress"], ingress: [{}] });
    expect(details([svc("mysql"), allowAll])).toEqual([["db-svc", missing("mysql")]]);
    const expr = np("mysql", { podSelector: { matchExpressions: [{ key: "app", operator: "Exists" }] }, policyTypes: ["Ingress"] });
    expect(details([svc("mysql"), expr])).toEqual([["db-svc", missing("mysql")]]);
    expect(details([svc("omb", "omb-driver")]).length).toBe(1);
    // The OMB workers' Service is checked now (it was exempt until the kafka kind's NetworkPolicies).
    expect(details([svc("omb", "omb-worker")]).map(([n]) => n)).toEqual(["omb-worker-svc"]);
  });

  test("offline through evaluatePlan: reported on the Service, with the one message format", () => {
    const v = evaluatePlanRules([svc("mysql"), deny("bench")]);
    expect(v.map((x) => [x.rule, x.enforcementLevel, x.urn, x.message])).toEqual([
      ["k8s-service-network-policy", "mandatory", "urn:svc:mysql:db", `k8s-service-network-policy: db-svc: ${missing("mysql")}`],
    ]);
  });
});
