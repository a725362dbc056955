/**
 * The Strimzi cluster operator's rules and defaults, in one place (pure): where it runs, which
 * namespaces it watches, how it secures the pods it creates.
 *
 * Sources (strimzi/strimzi-kafka-operator at tag 1.2.0, commit 6c7b43c4, and its chart's values and
 * templates in ../shared/schemas/helm/strimzi-kafka-operator-1.2.0.*):
 * - `watchNamespaces`: the chart adds the release namespace and binds the operator's role in each
 *   (`strimzi.watchNamespacesList`: `append $namespacesList .Release.Namespace | sortAlpha | uniq`;
 *   020-RoleBinding-strimzi-cluster-operator.yaml: one RoleBinding per namespace), and sets
 *   `STRIMZI_NAMESPACE` to their comma-separated list (060-Deployment-strimzi-cluster-operator.yaml).
 * - `STRIMZI_POD_SECURITY_PROVIDER_CLASS=restricted`: "You enable the Restricted Provider by setting the
 *   STRIMZI_POD_SECURITY_PROVIDER_CLASS environment variable to restricted" (documentation/modules/
 *   configuring/con-config-security-providers.adoc), so the Kafka pods meet the restricted Pod
 *   Security Standard the lab's namespaces enforce; passed through the chart's `extraEnvs`.
 */
import { argProblem, ArgProblem } from "../../core/errors";
import { isListOf } from "../../core/checks";
import { DNS_LABEL_RULE, isDnsLabel } from "../lib/kubernetes";

/** The pod security provider the operator applies to the pods it creates (its env var and value). */
export const STRIMZI_POD_SECURITY_PROVIDER = { name: "STRIMZI_POD_SECURITY_PROVIDER_CLASS", value: "restricted" } as const;

/** The plain arguments of the StrimziOperator component. */
export interface StrimziSpec {
  /** The operator's namespace (the Helm release's). @default "strimzi" */
  readonly namespace?: string;
  /** The namespaces whose Kafka resources it manages (it always watches its own too); they must exist before it. */
  readonly watchNamespaces: readonly string[];
}

export const STRIMZI_DEFAULTS = { namespace: "strimzi" } as const;

export type ResolvedStrimzi = Required<StrimziSpec>;

export function resolve(spec: StrimziSpec): ResolvedStrimzi {
  return { namespace: spec.namespace ?? STRIMZI_DEFAULTS.namespace, watchNamespaces: [...spec.watchNamespaces] };
}

export const WATCH_NAMESPACES_RULE = `a non-empty list of distinct namespace names (${DNS_LABEL_RULE})`;

/** Every problem of `spec`, in argument order. */
export function problems(spec: StrimziSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  if (spec.namespace !== undefined && !isDnsLabel(spec.namespace)) out.push(argProblem("namespace", DNS_LABEL_RULE, spec.namespace));
  const w = spec.watchNamespaces;
  if (!isListOf(w, isDnsLabel) || w.length === 0 || new Set(w).size !== w.length)
    out.push(argProblem("watchNamespaces", WATCH_NAMESPACES_RULE, w));
  return out;
}
