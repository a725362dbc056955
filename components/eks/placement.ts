/**
 * How a pod runs on one node group of an EksCluster with `nodeGroups` (pure): a required node
 * affinity on the group's label and a toleration of its taint. The toleration matches the taint a
 * dedicated group carries (rules.ts: `storage-bench-lab/node-group=<name>:NoSchedule`) and is harmless
 * on a group without one, so a workload's manifest does not depend on whether its group is dedicated.
 *
 * Kubernetes docs: "Assigning Pods to Nodes" (`requiredDuringSchedulingIgnoredDuringExecution`,
 * `nodeSelectorTerms` → `matchExpressions` with operator `In`); "Taints and Tolerations" (a toleration
 * "matches" a taint with the same key and effect and, for operator `Equal`, the same value).
 */
import type { IAffinity } from "kubernetes-models/v1/Affinity";
import type { IToleration } from "kubernetes-models/v1/Toleration";
import { DEDICATED_TAINT_EFFECT, NODE_GROUP_LABEL } from "./rules";

/** The zone label every node carries (Kubernetes "Well-Known Labels, Annotations and Taints": `topology.kubernetes.io/zone`, set by the cloud provider). */
export const ZONE_LABEL = "topology.kubernetes.io/zone";

/**
 * The node affinity that keeps a pod on `group`'s nodes and, with `zone`, on those of that zone only
 * (both expressions in one term: a node must match all of them, "Assigning Pods to Nodes").
 */
export function nodeGroupAffinity(group: string, zone?: string): Required<Pick<IAffinity, "nodeAffinity">> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchExpressions: [
              { key: NODE_GROUP_LABEL, operator: "In", values: [group] },
              ...(zone !== undefined ? [{ key: ZONE_LABEL, operator: "In" as const, values: [zone] }] : []),
            ],
          },
        ],
      },
    },
  };
}

/** The toleration of `group`'s taint. */
export function nodeGroupToleration(group: string): IToleration {
  return { key: NODE_GROUP_LABEL, operator: "Equal", value: group, effect: DEDICATED_TAINT_EFFECT.kubernetes };
}
