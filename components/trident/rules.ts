/**
 * NetApp Trident's rules and defaults, in one place (pure): how it is installed on the EKS cluster
 * (the `eks` stack) and how its FSx for ONTAP backends and StorageClasses look (the `fsx-eks` stack).
 *
 * Sources (NetApp Trident 26.06 documentation, docs.netapp.com/us-en/trident/…, and the NetApp/trident
 * repository at tag v26.06.0, commit fe88a3ac):
 * - EKS add-on: name `netapp_trident-operator`, namespace `trident` (EKS User Guide, workloads/
 *   eks-add-ons: "The add-on name is netapp_trident-operator and the namespace is trident"); a
 *   Marketplace add-on; versions `vX.Y.Z-eksbuild.N`. No build of Trident 25.10 or newer was found
 *   (../shared/facts/eks-trident-kafka-omb.md), and 25.06 supports Kubernetes up to 1.33, so the
 *   Helm chart (Trident 26.06) is the default and the add-on takes an explicit version.
 * - The controller's service account `trident-controller` in `trident` (Pod Identity association,
 *   facts file; trident-use/trident-fsx-iam-role.html).
 * - TridentOrchestrator `trident` (helm/trident-operator/templates/tridentorchestrator.yaml) whose
 *   `.status.status` is `Installed` once Trident runs (operator/crd/apis/netapp/v1/types.go
 *   `Status string json:"status"`; tridentorchestrator.go `AppStatusInstalled AppStatus = "Installed"`).
 * - Provisioner `csi.trident.netapp.io`; StorageClass parameters `backendType`, `provisioningType`,
 *   `snapshots` (trident-use/trident-fsx-storageclass-pvc.html and the facts file); `media` is not
 *   supported on FSx.
 */
import { argProblem, ArgProblem } from "../../core/errors";
import { isListOf, isOneOf, isText } from "../../core/checks";

export const TRIDENT_NAMESPACE = "trident";
export const TRIDENT_CONTROLLER_SERVICE_ACCOUNT = "trident-controller";
export const TRIDENT_ADDON_NAME = "netapp_trident-operator";
export const TRIDENT_ORCHESTRATOR = "trident";
export const TRIDENT_PROVISIONER = "csi.trident.netapp.io";

/** How Trident is installed: the trident-operator Helm chart (Trident 26.06) or the EKS add-on. */
export const TRIDENT_INSTALLS = ["helm", "addon"] as const;
export type TridentInstallMethod = (typeof TRIDENT_INSTALLS)[number];

/** An EKS add-on build version (`aws eks describe-addon-versions`). */
export const ADDON_VERSION_RE = /^v\d+\.\d+\.\d+-eksbuild\.\d+$/;

/** The plain arguments of the Trident install (components/trident/index.ts `TridentOperator`). */
export interface TridentInstallSpec {
  /** `helm`: chart trident-operator 100.2606.0; `addon`: the EKS add-on at `tridentAddonVersion`. @default "helm" */
  readonly tridentInstall?: TridentInstallMethod;
  /** Version of the `netapp_trident-operator` add-on, e.g. v25.6.2-eksbuild.1; with `addon` only, and then required. */
  readonly tridentAddonVersion?: string;
  /**
   * Protocols Trident prepares the nodes for (the chart's `nodePrep`): `["iscsi"]` installs and
   * starts the iSCSI initiator on every node, which AL2023 nodes lack and the `ontap-san` backend
   * needs. With `helm` only. @default [] (none)
   */
  readonly tridentNodePrep?: readonly string[];
}

/**
 * The protocols of the chart's `nodePrep` (trident-operator 100.2606.0 values.yaml: "nodePrep
 * enables Trident to prepare the nodes of the Kubernetes cluster to manage volumes using the
 * specified data storage protocol. Currently, iSCSI is the only value supported."; its template
 * copies the list into the TridentOrchestrator's `spec.nodePrep`, which NetApp's "Customize Trident
 * operator installation" page documents, and whose operator installs the iSCSI tools NetApp's
 * "Prepare the worker node" page requires for `ontap-san`).
 */
export const NODE_PREP_PROTOCOLS = ["iscsi"] as const;
export type NodePrepProtocol = (typeof NODE_PREP_PROTOCOLS)[number];

export const TRIDENT_INSTALL_DEFAULTS = { tridentInstall: "helm" as TridentInstallMethod } as const;

export function resolveInstall(
  spec: TridentInstallSpec,
): Required<Pick<TridentInstallSpec, "tridentInstall" | "tridentNodePrep">> & TridentInstallSpec {
  return {
    tridentInstall: spec.tridentInstall ?? TRIDENT_INSTALL_DEFAULTS.tridentInstall,
    tridentAddonVersion: spec.tridentAddonVersion,
    tridentNodePrep: spec.tridentNodePrep ?? [],
  };
}

export const ADDON_VERSION_RULE =
  "an EKS add-on version of netapp_trident-operator offered for the cluster's Kubernetes version (e.g. v25.6.2-eksbuild.1; aws eks describe-addon-versions --addon-name netapp_trident-operator)";

/** Every problem of the install arguments. */
export function installProblems(spec: TridentInstallSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  const r = resolveInstall(spec);
  if (!isOneOf(r.tridentInstall, TRIDENT_INSTALLS)) {
    out.push(argProblem("tridentInstall", `one of ${TRIDENT_INSTALLS.join(", ")}`, spec.tridentInstall));
    return out;
  }
  if (r.tridentInstall === "addon" && !isText(spec.tridentAddonVersion, ADDON_VERSION_RE))
    out.push(argProblem("tridentAddonVersion", `${ADDON_VERSION_RULE} when {tridentInstall} is addon`, spec.tridentAddonVersion));
  if (r.tridentInstall === "helm" && spec.tridentAddonVersion !== undefined)
    out.push(
      argProblem("tridentAddonVersion", "unset when {tridentInstall} is helm (the chart pins Trident 26.06)", spec.tridentAddonVersion),
    );
  const prep = spec.tridentNodePrep;
  if (prep !== undefined) {
    const isProtocol = (x: unknown): x is NodePrepProtocol => isOneOf(x, NODE_PREP_PROTOCOLS);
    if (!isListOf(prep, isProtocol) || new Set(prep).size !== prep.length)
      out.push(
        argProblem("tridentNodePrep", `a list of distinct protocols among ${NODE_PREP_PROTOCOLS.join(", ")} (e.g. ["iscsi"])`, prep),
      );
    else if (r.tridentInstall === "addon" && prep.length > 0)
      out.push(argProblem("tridentNodePrep", "empty when {tridentInstall} is addon (the lab sets the chart's nodePrep only)", prep));
  }
  return out;
}

/** The rule the fsx-eks stack reports when its SAN backend meets nodes nobody prepared for iSCSI. */
export function sanNodePrepProblem(nodePrep: readonly string[], eksStack: string): string | undefined {
  if (nodePrep.includes("iscsi")) return undefined;
  return `'lab:sanBackend' is true, but the eks stack '${eksStack}' (from 'lab:eksStack') installs Trident without nodePrep iscsi (its tridentNodePrep is ${JSON.stringify(nodePrep)}): AL2023 nodes have no iSCSI initiator, so no ontap-san volume could attach; set lab:tridentNodePrep: ["iscsi"] on that stack and update it first`;
}

// ---------------------------------------------------------------------------------------------
// Backends and StorageClasses

/** Reclaim policies a StorageClass takes. */
export const RECLAIM_POLICIES = ["Delete", "Retain"] as const;
export type ReclaimPolicy = (typeof RECLAIM_POLICIES)[number];

/**
 * NFS mount options of the `fsx-ontap-nas` StorageClass (StorageClass `mountOptions` are passed to
 * the NFS mount; backend `nfsMountOptions` would apply only without them):
 * - `nfsvers=4.1`: NFSv4.1, as NetApp's Kafka validation and the facts file require (v3 lacks the
 *   "silly rename" fix; v4.1 sessions survive an FSx failover of the floating endpoint);
 * - `hard`, `proto=tcp`, `rsize=262144`, `wsize=262144`: NetApp's MySQL-on-ONTAP guidance ("NFSv4,
 *   hard, TCP, rsize/wsize 262144", facts file). No `nconnect`: NetApp documents it for Azure
 *   NetApp Files only (unverified on FSx).
 */
export const NFS_MOUNT_OPTIONS = ["nfsvers=4.1", "hard", "proto=tcp", "rsize=262144", "wsize=262144"] as const;

/** The plain arguments of the FSx backend (components/trident/index.ts `TridentFsxBackend`). */
export interface FsxBackendSpec {
  /** Also an `ontap-san` backend and StorageClass (iSCSI; the nodes need iSCSI and multipath prepared). @default false */
  readonly sanBackend?: boolean;
  /** Reclaim policy of the Trident StorageClasses. @default "Delete" */
  readonly reclaimPolicy?: ReclaimPolicy;
}

export const FSX_BACKEND_DEFAULTS = { sanBackend: false, reclaimPolicy: "Delete" as ReclaimPolicy } as const;

export function resolveBackend(spec: FsxBackendSpec): Required<FsxBackendSpec> {
  return {
    sanBackend: spec.sanBackend ?? FSX_BACKEND_DEFAULTS.sanBackend,
    reclaimPolicy: spec.reclaimPolicy ?? FSX_BACKEND_DEFAULTS.reclaimPolicy,
  };
}

/** Every problem of the backend arguments. */
export function backendProblems(spec: FsxBackendSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  if (spec.sanBackend !== undefined && typeof spec.sanBackend !== "boolean")
    out.push(argProblem("sanBackend", "true or false", spec.sanBackend));
  if (spec.reclaimPolicy !== undefined && !isOneOf(spec.reclaimPolicy, RECLAIM_POLICIES))
    out.push(argProblem("reclaimPolicy", `one of ${RECLAIM_POLICIES.join(", ")}`, spec.reclaimPolicy));
  return out;
}

/** The StorageClass names the backends are used through. */
export const STORAGE_CLASS_NAMES = { nas: "fsx-ontap-nas", san: "fsx-ontap-san" } as const;
