/**
 * Node labels the cluster's workers carry, so workloads can be pinned to a fixed worker. Pure.
 *
 * Each worker is installed with `k0s install worker --labels=…` (k0sctl passes a host's
 * `installFlags` to `k0s install`: k0sproject/k0sctl v0.32.2 README, "spec.hosts[*].installFlags";
 * k0s' `--labels` flag: "Node labels, list of key=value pairs", docs/cli/k0s_install_worker.md at
 * v1.36.3+k0s.2). The kubelet registers its node with them. The NodeRestriction admission plugin
 * lets a kubelet set its own labels except those under the `kubernetes.io` and `k8s.io` prefixes
 * that are not on its allow list (Kubernetes docs, "Admission Control" → NodeRestriction), so the
 * lab's own prefix is free, as are the zone and instance-type labels set beside it (k0sctl.ts).
 */

/** The label every worker carries: its number, 1 to the worker count, in the order of `nodePrivateIps` after the controller. */
export const WORKER_LABEL = "storage-bench-lab/worker";

/** The `nodeSelector` that pins a pod to worker `n` (1-based). */
export function workerSelector(n: number): Record<string, string> {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`worker numbers start at 1, got ${n}`);
  return { [WORKER_LABEL]: String(n) };
}
