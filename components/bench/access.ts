/**
 * The Kubernetes identity of a collector (scripts/collect-job.sh, run by a `local.Command` on the
 * deploying machine for every benchmark Job: BenchmarkRun here, the kafka storage Job, the OMB
 * driver Jobs): one ServiceAccount per run (per BenchmarkRun, per KafkaCluster's storage Job, per
 * OmbBenchmark) in its Jobs' namespace, whose Role allows exactly the API requests of the
 * script's `kubectl` calls and nothing else. Pure: the component renders it with
 * ./collector-access.ts. The script uses the admin kubeconfig for one request only, a TokenRequest
 * for this ServiceAccount (`kubectl create token`), and makes every read with that token.
 *
 * The requests behind the script's calls, as kubectl (kubernetes/kubectl v0.35.7, the client of
 * the EKS 1.35 clusters; the same code in the v1.32.4 kubectl of this machine) makes them:
 * - `kubectl get job/<name>`: GET the Job;
 * - `kubectl logs job/<name>`: GET the Job, then LIST its pods by the Job's selector, and when
 *   none is there yet WATCH them until one appears (pkg/polymorphichelpers/logsforobject.go →
 *   helpers.go `GetPodList`), then GET the first pod's `log` subresource;
 * - `kubectl describe job/<name>`: GET the Job (the resource builder, then JobDescriber) and LIST
 *   the events of the namespace by field selector (pkg/describe/describe.go `JobDescriber.Describe`
 *   → `searchEvents`);
 * - with MOUNT_FIX: `kubectl get pods -l …` (LIST pods), `kubectl get events
 *   --field-selector reason=FailedMount` (LIST events).
 * With KAFKA_NAME (a Strimzi Kafka awaited, {@link kafkaAwaitGrant}):
 * - `kubectl get kafkas.v1.kafka.strimzi.io/<name>`: GET the Kafka;
 * - `kubectl describe kafkas.v1.kafka.strimzi.io/<name>`: GET it (the resource builder, then the
 *   generic describer's dynamic client) and LIST the namespace's events by field selector
 *   (pkg/describe/describe.go `GenericDescriberFor` → `searchEvents`);
 * - `kubectl get pods -l strimzi.io/cluster=<name>` (LIST pods) and the FailedMount events (LIST).
 * Discovery (`/api`, `/apis`) is allowed to every authenticated user by the default ClusterRole
 * `system:discovery`; the lab grants no nonResourceURLs.
 */
import type { AccessGrant } from "../lib/rbac";

/** Seconds the collector's token outlives its wait: the description and log read after a timeout. */
export const COLLECTOR_TOKEN_SLACK_SECONDS = 600;

/**
 * The shortest token the API server issues: a TokenRequest with `expirationSeconds` below 600 is
 * invalid ("may not specify a duration less than 10 minutes", kubernetes/kubernetes
 * pkg/apis/authentication/validation/validation.go `ValidateTokenRequest`).
 */
export const MIN_TOKEN_SECONDS = 600;

/** Kubernetes object names (DNS labels) are at most this long. */
const MAX_NAME = 63;
const SUFFIX = "-collect";

/**
 * The collector ServiceAccount (and Role, RoleBinding) of a run named `base`: `<base>-collect`, the
 * base cut so that it fits in 63 characters (a cut that ends in `-` still makes a DNS label: the
 * suffix starts with `-`).
 */
export function collectorAccountName(base: string): string {
  return `${base.slice(0, MAX_NAME - SUFFIX.length)}${SUFFIX}`;
}

/** The lifetime the collector asks its token for: its wait plus {@link COLLECTOR_TOKEN_SLACK_SECONDS}, at least {@link MIN_TOKEN_SECONDS}. */
export function collectorTokenSeconds(waitTimeoutSeconds: number): number {
  return Math.max(MIN_TOKEN_SECONDS, waitTimeoutSeconds + COLLECTOR_TOKEN_SLACK_SECONDS);
}

/** What a run's collector may do: read its own Jobs (by name), list and watch the namespace's pods, list its events, read pods' logs. */
export function collectorGrant(account: string, namespace: string, jobNames: readonly string[]): AccessGrant {
  if (jobNames.length === 0) throw new Error(`collector ${account}: no Jobs to read`);
  return {
    name: account,
    namespace,
    namespaced: {
      [namespace]: [
        { apiGroups: ["batch"], resources: ["jobs"], verbs: ["get"], resourceNames: [...jobNames] },
        // logs job/<name> lists the Job's pods (and watches for the first when there is none yet);
        // MOUNT_FIX lists them too. A pod's name is not known in advance: no resourceNames.
        { apiGroups: [""], resources: ["pods"], verbs: ["list", "watch"] },
        { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
        // describe job/<name> and the FailedMount look: events are listed by field selector.
        { apiGroups: [""], resources: ["events"], verbs: ["list"] },
      ],
    },
  };
}

/** What the collector awaiting a Strimzi Kafka may do: read that Kafka (by name), list the namespace's pods and events. */
export function kafkaAwaitGrant(account: string, namespace: string, kafkaName: string): AccessGrant {
  return {
    name: account,
    namespace,
    namespaced: {
      [namespace]: [
        { apiGroups: ["kafka.strimzi.io"], resources: ["kafkas"], verbs: ["get"], resourceNames: [kafkaName] },
        // the cluster's pods by label (their names are Strimzi's), for the FailedMount look and the timeout's listing
        { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
        // describe and the FailedMount look: events are listed by field selector
        { apiGroups: [""], resources: ["events"], verbs: ["list"] },
      ],
    },
  };
}
