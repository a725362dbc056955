/**
 * The Strimzi operator's objects (pure): its namespace and its chart's values; and the namespace
 * manifest every Kafka-side namespace of the lab uses (a Pod Security level, labelled).
 *
 * Pod Security Admission labels (Kubernetes docs, "Pod Security Admission" → "Pod Security Admission
 * labels for namespaces"): `pod-security.kubernetes.io/<MODE>: <LEVEL>` with modes `enforce`, `audit`,
 * `warn`, levels `privileged`, `baseline`, `restricted`; `<MODE>-version: latest`.
 */
import type { INamespace } from "kubernetes-models/v1/Namespace";
import { podSecurityNamespace } from "../lib/kubernetes";
import { ResolvedStrimzi, STRIMZI_POD_SECURITY_PROVIDER } from "./rules";
import { operatorNamespaceLabels } from "./network";

export type PodSecurityLevel = "restricted" | "baseline";

/** A namespace that enforces (and audits, warns at) `level`. */
export function podSecurityNamespaceManifest(name: string, level: PodSecurityLevel): INamespace {
  return podSecurityNamespace(name, level, { "app.kubernetes.io/part-of": "storage-bench-lab" });
}

/**
 * The chart's values (every key one of the chart's values.yaml: Helm ignores an unknown key silently,
 * the test checks them): the namespaces to watch, the operator's namespace label, and the restricted
 * pod security provider.
 */
export function strimziChartValues(r: ResolvedStrimzi): Record<string, unknown> {
  return {
    watchNamespaces: [...r.watchNamespaces],
    // STRIMZI_OPERATOR_NAMESPACE_LABELS: its generated Kafka policies admit its own namespace only (./network.ts)
    image: { operatorNamespaceLabels: operatorNamespaceLabels(r.namespace) },
    extraEnvs: [{ name: STRIMZI_POD_SECURITY_PROVIDER.name, value: STRIMZI_POD_SECURITY_PROVIDER.value }],
  };
}
