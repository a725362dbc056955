/**
 * The Rook component's rules and defaults, in one place (pure): monitors, managers, the RBD pool's
 * replicas, Ceph's nearfull ratio, the health warnings the cluster mutes, and the capacity rule a
 * stack checks before it asks Ceph for a volume. The component (index.ts) resolves and checks its
 * arguments with them; the `ceph-k0s` stack's config calls the same functions.
 *
 * Sources (rook/rook at v1.20.6): Documentation/CRDs/Cluster/ceph-cluster-crd.md ("Mon Settings":
 * `count` "must be between 1 and 9", "for highest availability, an odd number of mons should be
 * specified", `allowMultiplePerNode` false puts one mon a node; `mgr.count` "between 1 to 2";
 * `storage.nearFullRatio` "the default is 0.85"; "Health settings" → `muteHealthWarning`);
 * Documentation/CRDs/Block-Storage/ceph-block-pool-crd.md (`failureDomain: host` puts each replica
 * on another host); pkg/operator/ceph/pool/validate.go (a pool of size 1 with
 * `requireSafeReplicaSize` is refused); the CephCluster CRD (deploy/examples/crds.yaml, in
 * ../shared/schemas/crds/ceph.rook.io/CephCluster.yaml): `muteHealthWarning` keys must match
 * `^[A-Z]+(_[A-Z]+)+$` (a CEL rule), at most 10 of them, `backfillFullRatio` "Default is 0.90".
 */
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt, isListOf } from "../../core/checks";
import { isPinnedImage, PINNED_IMAGE_RULE } from "../../core/images";
import { withDefaults } from "../lib/defaults";
import { type ContainerResources, containerResourcesProblems, isLabels, LABEL_RULE, memoryBytes } from "../lib/kubernetes";
import { CEPH_IMAGE } from "../versions";

/**
 * The health warnings a cluster with AES cephx keys reports forever from Ceph v20.2.4 on; this
 * cluster must keep AES keys for the CSI clients (`security.cephx.csi.keyType: aes`, manifests.ts)
 * while its nodes run a kernel older than 7.0. rook v1.20.6
 * Documentation/Storage-Configuration/Advanced/cephx-key-rotation.md ("Warnings") lists exactly
 * these four, says they "can be ignored safely" when keys cannot be rotated yet, and gives the
 * CephCluster patch that mutes them. Muted, the cluster can still reach HEALTH_OK, which
 * the wait (manifests.ts) requires; every other warning still keeps it from passing.
 */
export const AES_CEPHX_HEALTH_WARNINGS = [
  "AUTH_INSECURE_CLIENT_KEY_TYPE",
  "AUTH_INSECURE_KEYS_ALLOWED",
  "AUTH_INSECURE_KEYS_CREATABLE",
  "AUTH_INSECURE_ROTATING_SERVICE_KEY_TYPE",
] as const;

/** The Ceph daemons whose requests and limits the CephCluster sets (`spec.resources.<daemon>`). */
export const CEPH_DAEMONS = ["mon", "mgr", "osd"] as const;
export type CephDaemon = (typeof CEPH_DAEMONS)[number];
export type CephResources = Readonly<Record<CephDaemon, ContainerResources>>;

/**
 * The published setup's daemon resources (koor-tech/experiment-ceph-on-nitro@6686fc8
 * k8s/base/rook-ceph.cluster.yaml lines 203-224, not changed by either overlay): mgr 500m / 1024Mi
 * requested and limited; mon and OSD 500m / 1024Mi requested, limited to 1000m / 2Gi. Rook gives
 * each daemon its memory limit and request as POD_MEMORY_LIMIT and POD_MEMORY_REQUEST (rook
 * v1.20.6 pkg/operator/k8sutil/pod.go); Ceph sets an OSD's `osd_memory_target` from
 * POD_MEMORY_REQUEST when it is set (ceph src/common/config.cc, md_config_t::parse_env), so the OSD
 * cache targets the 1 GiB request here, as it did in the published setup.
 */
export const PUBLISHED_CEPH_RESOURCES: CephResources = {
  mon: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } },
  mgr: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "500m", memory: "1Gi" } },
  osd: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } },
};

/**
 * The smallest memory limit, MiB, Rook recommends a daemon runs with (rook v1.20.6
 * Documentation/CRDs/Cluster/ceph-cluster-crd.md lines 522-527, "Rook internally recommends minimum
 * memory limits": mon 1024MB, mgr 512MB, osd 2048MB; pkg/operator/ceph/cluster/mon/mon.go
 * cephMonPodMinimumMemory, mgr/mgr.go cephMgrPodMinimumMemory, osd/osd.go cephOsdPodMinimumMemory,
 * compared with `display.MbTob`, × 1024 × 1024). Rook only logs a warning below them; the lab
 * refuses, since a daemon limited below them can be killed for memory mid-benchmark. Rook documents
 * no CPU minimum (none in its pkg/ at v1.20.6), so a CPU limit has only the rule that it is at least
 * its request.
 */
export const ROOK_MIN_MEMORY_MIB: Readonly<Record<CephDaemon, number>> = { mon: 1024, mgr: 512, osd: 2048 };

/** The arguments of the Rook component (all plain values). */
export interface RookArgs {
  /**
   * Nodes with one OSD each (the device path filter picks one volume a node): the cluster is ready
   * only when this many OSDs are up. At least the pool's replicas and the monitors.
   */
  readonly osdCount: number;
  /** Ceph image of the cluster's daemons, pinned by tag or digest (core/images.ts). @default ROOK_DEFAULTS.cephImage (CEPH_IMAGE of components/versions.ts) */
  readonly cephImage?: string;
  /** Ceph monitors, one a node: odd, 1 to 9. @default ROOK_DEFAULTS.monCount */
  readonly monCount?: number;
  /** Ceph managers (active + standby): 1 or 2. @default ROOK_DEFAULTS.mgrCount */
  readonly mgrCount?: number;
  /** Replicas of the RBD pool, each on another host (failure domain host): 2 to `osdCount`. @default ROOK_DEFAULTS.replicas */
  readonly replicas?: number;
  /**
   * Ceph's nearfull ratio (`storage.nearFullRatio`): above it Ceph warns, and the wait for HEALTH_OK
   * fails. Above 0, at most the backfillfull ratio 0.90. @default ROOK_DEFAULTS.nearfullRatio
   */
  readonly nearfullRatio?: number;
  /** Ceph health check codes muted in the CephCluster (`healthCheck.muteHealthWarning`): at most 10. @default ROOK_DEFAULTS.muteHealthWarnings */
  readonly muteHealthWarnings?: readonly string[];
  /** Longest wait for the cluster to become ready (HEALTH_OK and every OSD up), minutes: 10 to 240. @default ROOK_DEFAULTS.healthTimeoutMinutes */
  readonly healthTimeoutMinutes?: number;
  /**
   * Ceph daemons on the nodes' network (`network.provider: host`) instead of the pod network. The
   * published setup leaves `provider: host` commented out (k8s/base/rook-ceph.cluster.yaml line 85):
   * Ceph traffic crosses the CNI (there Calico VXLAN with WireGuard). The cluster's security groups
   * must open Ceph's ports between the nodes when this is on (components/k0s/ports.ts). A creation-time
   * fact: "Changing networking configuration after a Ceph cluster has been deployed is only supported
   * for the network encryption settings" (rook v1.20.6 ceph-cluster-crd.md, "Network Configuration
   * Settings").
   * @default ROOK_DEFAULTS.hostNetwork
   */
  readonly hostNetwork?: boolean;
  /**
   * Requests and limits of the monitors, managers and OSDs (`spec.resources`): limits at least the
   * requests, memory limits at least Rook's recommended minimum ({@link ROOK_MIN_MEMORY_MIB}).
   * @default ROOK_DEFAULTS.resources ({@link PUBLISHED_CEPH_RESOURCES})
   */
  readonly resources?: CephResources;
  /**
   * Node labels of a node the managers must not run on (a `NotIn` node affinity per label): the
   * ceph-k0s stack keeps them off the pgbench worker, whose CPU the Guaranteed client takes. Empty:
   * anywhere (one a node).
   * @default ROOK_DEFAULTS.mgrAvoidNodeLabels
   */
  readonly mgrAvoidNodeLabels?: Readonly<Record<string, string>>;
}

/** Defaults of {@link RookArgs}, the only place they are written. */
export const ROOK_DEFAULTS = {
  cephImage: CEPH_IMAGE,
  monCount: 3,
  mgrCount: 2,
  replicas: 3,
  nearfullRatio: 0.85,
  muteHealthWarnings: AES_CEPHX_HEALTH_WARNINGS as readonly string[],
  healthTimeoutMinutes: 40,
  hostNetwork: false,
  resources: PUBLISHED_CEPH_RESOURCES,
  mgrAvoidNodeLabels: {} as Readonly<Record<string, string>>,
} as const;

export type ResolvedRook = Required<RookArgs>;

/** Defaults applied. */
export function resolve(args: RookArgs): ResolvedRook {
  return withDefaults(args, ROOK_DEFAULTS);
}

/** Ceph's backfillfull ratio (CRD `backfillFullRatio`, "Default is 0.90"): nearfull may not exceed it. */
export const BACKFILLFULL_RATIO = 0.9;
/** Most muted warnings the CRD allows (`maxProperties: 10`). */
export const MAX_MUTED_WARNINGS = 10;
/** A Ceph health check code, as the CRD's CEL rule on `muteHealthWarning` keys states it. */
export const HEALTH_CODE_RE = /^[A-Z]+(_[A-Z]+)+$/;

/** Every problem of `args`, in argument order; empty when they are valid. */
export function problems(args: RookArgs): ArgProblem[] {
  const out: ArgProblem[] = [];
  const r = resolve(args);
  const monOk = isInt(r.monCount, 1, 9) && r.monCount % 2 === 1;
  const replicasOk = isInt(r.replicas, 2);
  if (!isInt(r.osdCount, 1)) out.push(argProblem("osdCount", "a whole number of nodes with an OSD, at least 1", r.osdCount));
  else if (monOk && replicasOk && r.osdCount < Math.max(r.replicas, r.monCount)) {
    out.push(
      argProblem(
        "osdCount",
        `at least ${Math.max(r.replicas, r.monCount)} (${r.replicas} replicas on as many hosts and ${r.monCount} monitors, one a node)`,
        r.osdCount,
      ),
    );
  }
  if (!isPinnedImage(r.cephImage)) out.push(argProblem("cephImage", PINNED_IMAGE_RULE, r.cephImage));
  if (!monOk) out.push(argProblem("monCount", "an odd number from 1 to 9", r.monCount));
  if (!isInt(r.mgrCount, 1, 2)) out.push(argProblem("mgrCount", "1 or 2", r.mgrCount));
  if (!replicasOk) out.push(argProblem("replicas", "a whole number of at least 2 (Rook refuses a pool of one replica)", r.replicas));
  if (typeof r.nearfullRatio !== "number" || !(r.nearfullRatio > 0 && r.nearfullRatio <= BACKFILLFULL_RATIO))
    out.push(argProblem("nearfullRatio", `a ratio above 0 and at most Ceph's backfillfull ratio ${BACKFILLFULL_RATIO}`, r.nearfullRatio));
  const muted = r.muteHealthWarnings as unknown;
  if (!isListOf(muted, (c): c is string => typeof c === "string") || muted.length > MAX_MUTED_WARNINGS) {
    out.push(argProblem("muteHealthWarnings", `a list of at most ${MAX_MUTED_WARNINGS} Ceph health check codes`, muted));
  } else {
    muted.forEach((c, i) => {
      if (!HEALTH_CODE_RE.test(c))
        out.push(argProblem(`muteHealthWarnings[${i}]`, "a Ceph health check code (e.g. AUTH_INSECURE_KEYS_ALLOWED)", c));
    });
    if (new Set(muted).size !== muted.length) out.push(argProblem("muteHealthWarnings", "distinct health check codes", muted));
  }
  if (!isInt(r.healthTimeoutMinutes, 10, 240))
    out.push(argProblem("healthTimeoutMinutes", "a whole number of minutes from 10 to 240", r.healthTimeoutMinutes));
  if (typeof r.hostNetwork !== "boolean") out.push(argProblem("hostNetwork", "true or false", r.hostNetwork));
  out.push(...cephResourcesProblems(r.resources));
  if (!isLabels(r.mgrAvoidNodeLabels)) out.push(argProblem("mgrAvoidNodeLabels", LABEL_RULE, r.mgrAvoidNodeLabels));
  return out;
}

/** Problems of the daemons' resources: every daemon given, valid pairs, memory limits at least Rook's minimum. */
function cephResourcesProblems(res: unknown): ArgProblem[] {
  const rule = `requests and limits of ${CEPH_DAEMONS.join(", ")} (e.g. {"osd":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{"cpu":"1","memory":"2Gi"}},...})`;
  if (typeof res !== "object" || res === null || Array.isArray(res)) return [argProblem("resources", rule, res)];
  const given = res as Record<string, unknown>;
  const unknown = Object.keys(given).filter((k) => !(CEPH_DAEMONS as readonly string[]).includes(k));
  const missing = CEPH_DAEMONS.filter((d) => given[d] === undefined);
  if (unknown.length > 0 || missing.length > 0) return [argProblem("resources", rule, res)];
  const out: ArgProblem[] = [];
  for (const d of CEPH_DAEMONS) {
    const ps = containerResourcesProblems(`resources.${d}`, given[d]);
    out.push(...ps);
    if (ps.length > 0) continue;
    const limit = (given[d] as ContainerResources).limits.memory;
    if (memoryBytes(limit)! < ROOK_MIN_MEMORY_MIB[d] * 2 ** 20)
      out.push(
        argProblem(
          `resources.${d}.limits.memory`,
          `at least ${ROOK_MIN_MEMORY_MIB[d]}Mi, the ${d} memory limit Rook recommends as a minimum`,
          limit,
        ),
      );
  }
  return out;
}

/** What {@link capacityProblems} checks: `osdCount` OSDs of `osdSizeGiB` each must hold a claim of `claimGiB`. */
export interface CapacitySpec {
  readonly osdCount: number;
  readonly osdSizeGiB: number;
  readonly claimGiB: number;
  /** What the claim is, for the message (e.g. "Postgres volume"). */
  readonly claimName: string;
  /** @default ROOK_DEFAULTS.replicas */
  readonly replicas?: number;
  /** @default ROOK_DEFAULTS.nearfullRatio */
  readonly nearfullRatio?: number;
}

/**
 * The smallest OSD, GiB, for which a claim of `claimGiB` (written `replicas` times, spread over
 * `osdCount` equal OSDs) stays below the nearfull ratio: claim × replicas ≤ osdCount × size × ratio.
 */
export function minOsdSizeGiB(spec: CapacitySpec): number {
  const replicas = spec.replicas ?? ROOK_DEFAULTS.replicas;
  const ratio = spec.nearfullRatio ?? ROOK_DEFAULTS.nearfullRatio;
  return Math.ceil((spec.claimGiB * replicas) / (spec.osdCount * ratio));
}

/**
 * The Ceph capacity rule: a volume of `claimGiB` fits below the nearfull ratio with `replicas`
 * copies on `osdCount` OSDs of `osdSizeGiB`. Checked only on whole numbers (their own rules report
 * anything else); the problem is on `osdSizeGiB`.
 */
export function capacityProblems(spec: CapacitySpec): ArgProblem[] {
  const replicas = spec.replicas ?? ROOK_DEFAULTS.replicas;
  const ratio = spec.nearfullRatio ?? ROOK_DEFAULTS.nearfullRatio;
  if (!isInt(spec.osdCount, 1) || !isInt(spec.osdSizeGiB, 1) || !isInt(spec.claimGiB, 1)) return [];
  const min = minOsdSizeGiB(spec);
  if (spec.osdSizeGiB >= min) return [];
  return [
    argProblem(
      "osdSizeGiB",
      `at least ${min} with {osdCount} = ${spec.osdCount} (the ${spec.claimGiB} GiB ${spec.claimName}, ${replicas} replicas, below Ceph's nearfull ratio ${ratio})`,
      spec.osdSizeGiB,
    ),
  ];
}
