/**
 * Config keys that the upstream tool fixes when the stack's cluster is created: Pulumi would
 * update them in place (or replace only a node's user data), but the tool refuses the change on a
 * running cluster, or breaks it. `lab plan --change` refuses them before planning (exit 2), like a
 * config error, naming the tool's rule and its source; docs/changing-a-live-stack.md lists them.
 * Each entry is read in the upstream source at the version the lab pins (components/versions.ts).
 * Pure data and one check.
 */
import type { ConfigChange } from "./diff";

export interface CreationTimeKey {
  readonly key: string;
  /** What the tool does with a change on a running cluster, in one sentence. */
  readonly rule: string;
  /** Where the rule is written: repository, version, file and line. */
  readonly source: string;
  /** What to do instead. */
  readonly instead: string;
}

const NEW_STACK = "plan the new setup as a new stack (`lab plan --config`) and deploy it beside this one";

/** Stack kind → its creation-time keys. */
export const CREATION_TIME_KEYS: Readonly<Record<string, readonly CreationTimeKey[]>> = {
  "ceph-k0s": [
    {
      key: "lab:cni",
      rule:
        "k0s fixes the CNI provider (network.provider) when the cluster is initialised: its controller refuses another one " +
        '("cannot change CNI provider from kuberouter to calico") and only a full redeployment changes it',
      source:
        "k0sproject/k0s v1.36.3+k0s.2 pkg/component/controller/calico.go:360 and kuberouter.go:105; docs/networking.md:25; " +
        "docs/dynamic-configuration.md:54-65 (network.provider among the non-changeable options)",
      instead: NEW_STACK,
    },
    {
      key: "lab:cephHostNetwork",
      rule:
        "Rook supports changing only the network encryption settings of a deployed Ceph cluster; another network " +
        "(host or pod) is NOT supported and will likely leave the cluster non-functioning",
      source: "rook/rook v1.20.6 Documentation/CRDs/Cluster/ceph-cluster-crd.md:255-258 (Network Configuration Settings)",
      instead: NEW_STACK,
    },
  ],
  kafka: [
    {
      key: "lab:controllers",
      rule:
        "Strimzi runs KRaft with a static controller quorum: the number of controllers is fixed and scaling it " +
        "requires downtime; scaling a node pool with the controller role is not supported as an online change",
      source: "strimzi/strimzi-kafka-operator 1.2.0 documentation/assemblies/deploying/assembly-kraft-mode.adoc:62-63, 76-88",
      instead: NEW_STACK,
    },
    {
      key: "lab:clusterName",
      rule:
        "Strimzi gives a node pool's StrimziPodSet, pods and claims an ownerReference to the KafkaNodePool, not to the Kafka: " +
        "the pools relabelled in place to the new cluster keep the old brokers running on their claims and nodes, the old Kafka " +
        "no longer reconciles (no KafkaNodePool carries its name), its claims cannot be deleted while the old brokers mount them, " +
        "and the new brokers find no room on the nodes the old ones hold",
      source:
        "strimzi/strimzi-kafka-operator 1.2.0 cluster-operator/src/main/java/io/strimzi/operator/cluster/model/nodepools/NodePoolUtils.java:71 " +
        "(ModelUtils.createOwnerReference(nodePool, false)), :91-94 (no KafkaNodePools for the Kafka), model/KafkaCluster.java:1266-1271 (the pool's StrimziPodSet)",
      instead: NEW_STACK,
    },
  ],
};

/**
 * The refusal of `changes` on a live stack of `kind`: one line per creation-time key changed,
 * or undefined when none is.
 */
export function creationTimeProblems(kind: string, changes: readonly ConfigChange[]): string[] {
  const fixed = CREATION_TIME_KEYS[kind] ?? [];
  return changes.flatMap((c) => {
    const k = fixed.find((f) => f.key === c.key);
    if (!k) return [];
    const shown = (v: string | undefined) => (v === undefined ? "its default" : JSON.stringify(v));
    return [
      `'${c.key}' cannot change on a live ${kind} stack (${shown(c.before)} -> ${shown(c.after)}): ${k.rule} [${k.source}]; ${k.instead}`,
    ];
  });
}
