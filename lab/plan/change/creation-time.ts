/**
 * Config keys that the upstream tool fixes when the stack's cluster is created: Pulumi would
 * update them in place (or replace only a node's user data), but the tool refuses the change on a
 * running cluster, or breaks it. `lab plan --change` refuses them before planning (exit 2), like a
 * config error, naming the tool's rule and its source; docs/changing-a-live-stack.md lists them.
 * Each entry is read in the upstream source at the version the lab pins (components/versions.ts).
 * Pure data and one check.
 */
import type { ConfigChange } from "./diff";
import { FSX_ONTAP_DEFAULTS } from "../../../components/fsx-ontap/rules";
import { K0S_CLUSTER_DEFAULTS } from "../../../components/k0s/rules";
import { K0S_VERSION } from "../../../components/versions";

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

/**
 * Keys a live stack can change one way only: the tool refuses the other way at apply, after the
 * plan called the change an update. `problem(before, after, config)` compares the values (a key
 * left out is its default in this checkout's code: the change plan's model of the deployed stack,
 * as for every other key; a stack deployed under an older default should set the key explicitly
 * first) and returns why the change is refused, or undefined. `config` is the new config.
 */
export interface OneWayKey {
  readonly key: string;
  readonly default: string;
  readonly problem: (before: string, after: string, config: Readonly<Record<string, string>>) => string | undefined;
  /** What the tool refuses, in one sentence (the page's table). */
  readonly rule: string;
  readonly source: string;
  readonly instead: string;
}

/** `v1.36.3+k0s.2` → [1, 36, 3, 2]: the order k0sctl compares releases in (k0sproject/version `Compare`: segments, then the k0s build). */
function k0sRelease(v: string): number[] | undefined {
  const m = /^v(\d+)\.(\d+)\.(\d+)\+k0s\.(\d+)$/.exec(v);
  return m ? m.slice(1).map(Number) : undefined;
}

function lower(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i] < a[i];
  return false;
}

const K0SCTL_DOWNGRADE = "k0sproject/k0sctl v0.32.2 phase/validate_facts.go:39-53 (validateDowngrade)";
const K0S_SKEW = "k0sproject/k0s v1.36.3+k0s.2 docs/version-skew-policy.md:38-39";
const FSX_GEN1 = ["MULTI_AZ_1", "SINGLE_AZ_1"];

/** Stack kind → its one-way keys. */
export const ONE_WAY_KEYS: Readonly<Record<string, readonly OneWayKey[]>> = {
  "ceph-k0s": [
    {
      key: "lab:osdVolumeGiB",
      default: String(K0S_CLUSTER_DEFAULTS.osdVolumeGiB),
      problem: (b, a) => (Number(a) < Number(b) ? "EC2 ModifyVolume only grows a volume" : undefined),
      rule: 'EC2 ModifyVolume grows a volume only: "The target volume size must be greater than or equal to the existing size of the volume"',
      source: "boto/botocore 0e6e2404 botocore/data/ec2/2016-11-15/service-2.json:59984-59986 (ModifyVolumeRequest Size)",
      instead: "keep the size or grow it; a smaller OSD disk is a new stack",
    },
    {
      key: "lab:k0sVersion",
      default: K0S_VERSION,
      problem: (b, a) => {
        const [x, y] = [k0sRelease(b), k0sRelease(a)];
        if (x === undefined || y === undefined) return undefined;
        if (lower(x, y)) return `k0sctl refuses a downgrade [${K0SCTL_DOWNGRADE}]`;
        if (y[1] > x[1] + 1) return `k0s upgrades one minor at a time (v1.${x[1]} → v1.${x[1] + 1} first) [${K0S_SKEW}]`;
        return undefined;
      },
      rule:
        'k0sctl apply refuses a release older than the one running ("can\'t perform a downgrade"); k0s is upgraded one minor at a time ' +
        '("e.g. v1.30 → v1.31, not v1.30 → v1.32"), which k0sctl does not enforce',
      source: `${K0SCTL_DOWNGRADE}; ${K0S_SKEW}`,
      instead: "keep the running release, or upgrade to a later patch or the next minor (one minor per change)",
    },
  ],
  "fsx-ontap": [
    {
      key: "lab:storageCapacityGiB",
      default: "",
      problem: (b, a, config) => {
        const type = config["lab:deploymentType"] ?? FSX_ONTAP_DEFAULTS.deploymentType;
        if (!FSX_GEN1.includes(type) || b === "" || a === "") return undefined;
        if (Number(a) < Number(b)) return `a first-generation file system (${type}) only grows`;
        if (Number(a) > Number(b) && Number(a) < Number(b) * 1.1)
          return `an increase is at least 10 % (${Math.ceil(Number(b) * 1.1)} GiB from ${b})`;
        return undefined;
      },
      rule:
        "a first-generation file system (MULTI_AZ_1, SINGLE_AZ_1) only grows its SSD storage, each increase at least 10 % of the current capacity " +
        "and 6 hours after the last (second-generation file systems can also shrink)",
      source:
        "awsdocs/amazon-fsx-ontap-user-guide doc_source/managing-storage-capacity.md:27-29; boto/botocore 0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:6677 (UpdateFileSystem StorageCapacity)",
      instead: "grow it by at least 10 %; a smaller first-generation file system is a new stack",
    },
  ],
};

/** The refusal of `changes` that go the way a {@link ONE_WAY_KEYS} key cannot: one line each. */
export function oneWayProblems(kind: string, changes: readonly ConfigChange[], config: Readonly<Record<string, string>> = {}): string[] {
  const keys = ONE_WAY_KEYS[kind] ?? [];
  return changes.flatMap((c) => {
    const k = keys.find((x) => x.key === c.key);
    if (!k) return [];
    const [before, after] = [c.before ?? k.default, c.after ?? k.default];
    const why = k.problem(before, after, config);
    if (why === undefined) return [];
    return [
      `'${c.key}' cannot go from ${JSON.stringify(before)} to ${JSON.stringify(after)} on a live ${kind} stack: ${why}; ${k.instead}`,
    ];
  });
}
