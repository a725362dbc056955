/**
 * Deletions a running cluster holds (issue 40 item 6): a change that deletes or replaces a
 * PersistentVolume or a PersistentVolumeClaim that Kubernetes keeps while it is in use cannot
 * finish, and leaves the cluster half changed. Pure.
 *
 * What Kubernetes and the tools do, each from its source:
 * - pulumi-kubernetes replaces an object whose fixed name and namespace stay the same by deleting
 *   it first (`DeleteBeforeReplace`, {@link NAMED_DBR_SOURCE}); the engine deletes first only the
 *   dependents whose inputs come from it ({@link DEPENDENTS_SOURCE}), so the claim a PV is
 *   `dependsOn`'d by, and the workload that mounts the claim, are still there when the delete runs;
 * - a claim that a pod mounts is kept by `kubernetes.io/pvc-protection`, a PV bound to a claim by
 *   `kubernetes.io/pv-protection` ({@link PROTECTION_SOURCE}); pulumi-kubernetes' delete then waits
 *   for the object to go, up to 10 minutes, and fails, the object left Terminating
 *   ({@link DELETE_TIMEOUT_SOURCE});
 * - a claim deleted and created again under its name is another claim (a new uid): a `Retain` PV
 *   that was bound to the old one stays `Released`, its `claimRef` holding the old uid, and the new
 *   claim, pre-bound to it by `volumeName`, stays Pending ({@link REBIND_SOURCE}), and the update
 *   waits 5 minutes for it to bind and fails ({@link BIND_WAIT_SOURCE});
 * - Strimzi's broker pods mount the claims `data-<id>-<pod>` (JBOD) or `data-<pod>`, the pod
 *   `<cluster>-<pool>-<node id>` ({@link STRIMZI_CLAIMS_SOURCE}): a KafkaNodePool mounts the claims
 *   of its cluster and pool by name, whichever program created them.
 * A claim is in use while any scheduled pod names it, a complete Job's pods included
 * ({@link PVC_IN_USE_SOURCE}); a workload that stays in the stack (updated or not) keeps mounting
 * its claims until its own controller rolls its pods, after the update.
 */
import type { PlannedResource } from "../run";
import type { ResourceChange } from "./diff";

export const NAMED_DBR_SOURCE =
  "pulumi/pulumi-kubernetes provider/pkg/provider/provider.go Diff, lines 1645-1659 at 94977969d (deleteBeforeReplace: replaced, named, the same name and namespace)";
export const DEPENDENTS_SOURCE =
  "pulumi/pulumi pkg/resource/deploy/step_generator.go calculateDependentReplacements (a dependent is deleted first only when an input of it comes from the replaced resource and its diff then replaces it)";
export const PROTECTION_SOURCE =
  'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#storage-object-in-use-protection ("If a user deletes a PVC in active use by a Pod, the PVC is not removed immediately … If an admin deletes a PV that is bound to a PVC, the PV is not removed immediately")';
export const DELETE_TIMEOUT_SOURCE =
  "pulumi/pulumi-kubernetes provider/pkg/await/await.go Deletion, lines 933-980 at 94977969d (delete, then wait for the object to go: 10 minutes unless customTimeouts)";
export const REBIND_SOURCE =
  'kubernetes/kubernetes pkg/controller/volume/persistentvolume/pv_controller.go syncVolume ("claim %s has different UID, the old one must have been deleted": the volume is treated as bound to a missing claim, Released, and under Retain left so)';
export const BIND_WAIT_SOURCE =
  "pulumi/pulumi-kubernetes provider/pkg/await/awaiters.go untilCoreV1PersistentVolumeClaimReady, lines 288-321 at 94977969d (a created claim is awaited until Bound, 5 minutes)";
export const PVC_IN_USE_SOURCE =
  "kubernetes/kubernetes pkg/controller/volume/pvcprotection/pvc_protection_controller.go podUsesPVC (any scheduled pod whose volumes name the claim; podIsShutDown counts for ephemeral volumes only, so a complete Job's pods hold it)";
export const STRIMZI_CLAIMS_SOURCE =
  "strimzi/strimzi-kafka-operator cluster-operator/src/main/java/io/strimzi/operator/cluster/model/VolumeUtils.java createPodSetVolumes, lines 381-383, and createVolumePrefix, lines 428-437 at tag 1.2.0";

/** A deletion that cannot finish while the cluster runs. */
export interface HeldDeletion {
  /** The resource deleted or replaced. */
  readonly name: string;
  readonly type: string;
  /** What holds it, in a sentence fragment. */
  readonly why: string;
  readonly source: string;
  /** Where the update's wait for it, and its failure, come from. */
  readonly wait: string;
}

const PV = "kubernetes:core/v1:PersistentVolume";
const PVC = "kubernetes:core/v1:PersistentVolumeClaim";
const POOL = "kubernetes:kafka.strimzi.io/v1:KafkaNodePool";
const POD_TEMPLATE_KINDS: Readonly<Record<string, (inputs: Record<string, unknown>) => unknown>> = {
  "kubernetes:apps/v1:Deployment": (i) => at(i, "spec", "template", "spec", "volumes"),
  "kubernetes:apps/v1:StatefulSet": (i) => at(i, "spec", "template", "spec", "volumes"),
  "kubernetes:apps/v1:DaemonSet": (i) => at(i, "spec", "template", "spec", "volumes"),
  "kubernetes:apps/v1:ReplicaSet": (i) => at(i, "spec", "template", "spec", "volumes"),
  "kubernetes:core/v1:Pod": (i) => at(i, "spec", "volumes"),
  // A Job's pods hold its claims when complete too, until they are deleted (its ttlSecondsAfterFinished): PVC_IN_USE_SOURCE.
  "kubernetes:batch/v1:Job": (i) => at(i, "spec", "template", "spec", "volumes"),
  "kubernetes:batch/v1:CronJob": (i) => at(i, "spec", "jobTemplate", "spec", "template", "spec", "volumes"),
};

function at(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const p of path) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const nameOf = (r: PlannedResource) => str(at(r.inputs, "metadata", "name"));
const namespaceOf = (r: PlannedResource) => str(at(r.inputs, "metadata", "namespace")) ?? "default";
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A workload that mounts claims: what it is called, and the claim names (in its namespace) it mounts. */
interface Mounter {
  readonly label: string;
  readonly mounts: (claim: string) => boolean;
}

function mounterOf(r: PlannedResource): Mounter | undefined {
  const name = nameOf(r);
  if (name === undefined) return undefined;
  if (r.type === POOL) {
    const cluster = str(at(r.inputs, "metadata", "labels", "strimzi.io/cluster"));
    if (cluster === undefined) return undefined;
    // Strimzi's claim prefixes: `data-<id>` per persistent-claim volume of a JBOD, `data` for one persistent claim.
    const storage = at(r.inputs, "spec", "storage");
    const type = str(at(storage, "type"));
    const volumes = at(storage, "volumes");
    const prefixes =
      type === "jbod" && Array.isArray(volumes)
        ? volumes.filter((v) => str(at(v, "type")) === "persistent-claim").map((v) => `data-${String(at(v, "id"))}`)
        : type === "persistent-claim"
          ? ["data"]
          : type === "ephemeral"
            ? []
            : ["data", "data-\\d+"]; // not known here: any claim of the pool
    if (prefixes.length === 0) return undefined;
    const claim = new RegExp(
      `^(${prefixes.map((x) => (x.includes("\\") ? x : escape(x))).join("|")})-${escape(cluster)}-${escape(name)}-\\d+$`,
    );
    return {
      label: `the broker pods of KafkaNodePool ${name} (cluster ${cluster})`,
      mounts: (c) => claim.test(c),
    };
  }
  const volumes = POD_TEMPLATE_KINDS[r.type]?.(r.inputs);
  if (!Array.isArray(volumes)) return undefined;
  const claims = new Set(volumes.map((v) => str(at(v, "persistentVolumeClaim", "claimName"))).filter((c): c is string => c !== undefined));
  if (claims.size === 0) return undefined;
  return { label: `the pods of ${r.type.split(":").pop()} ${name}`, mounts: (c) => claims.has(c) };
}

/**
 * The deletions and replacements of `changes` that a running cluster holds. `olds` is the stack
 * as deployed, `news` as it will be.
 */
export function heldDeletions(
  olds: readonly PlannedResource[],
  news: readonly PlannedResource[],
  changes: readonly ResourceChange[],
): HeldDeletion[] {
  const oldByName = new Map(olds.map((r) => [r.name, r]));
  const newByUrn = new Map(news.map((r) => [r.urn, r]));
  const changeOf = new Map(changes.map((c) => [c.urn, c]));
  const oldMounters = olds.map((r) => ({ r, m: mounterOf(r) })).filter((x): x is { r: PlannedResource; m: Mounter } => x.m !== undefined);
  const gone = (c: ResourceChange) => c.action === "replace" || c.action === "delete";
  const going = new Map(changes.filter(gone).map((c) => [c.renamedFrom ?? c.name, c]));
  // When the old object is deleted: mid-update, as its replacement is registered (delete first), or
  // at the end of the update (removed, or replaced by creating first), in reverse dependency order.
  const atEnd = (x: ResourceChange | undefined) =>
    x !== undefined && (x.action === "delete" || (x.action === "replace" && x.deleteBeforeReplace !== true));
  const claimsOf = (pv: PlannedResource): PlannedResource[] => {
    const pvName = nameOf(pv);
    const ref = { ns: str(at(pv.inputs, "spec", "claimRef", "namespace")), name: str(at(pv.inputs, "spec", "claimRef", "name")) };
    return olds.filter(
      (c) =>
        c.type === PVC &&
        ((ref.name !== undefined && nameOf(c) === ref.name && namespaceOf(c) === (ref.ns ?? "default")) ||
          (pvName !== undefined && str(at(c.inputs, "spec", "volumeName")) === pvName)),
    );
  };

  const out: HeldDeletion[] = [];
  for (const [oldName, c] of going) {
    const old = oldByName.get(oldName);
    if (!old) continue;
    const verb = c.action === "replace" ? "replacing" : "deleting";
    if (old.type === PVC) {
      const claim = nameOf(old);
      const ns = namespaceOf(old);
      const using = oldMounters.filter((x) => claim !== undefined && namespaceOf(x.r) === ns && x.m.mounts(claim));
      // Deleted mid-update: every pod of the stack as deployed still mounts it (a workload removed or
      // replaced by creating first goes at the end; one replaced delete-first is registered after its claims).
      // Deleted at the end: the workloads that stay hold it, those deleted before it there do not.
      const holders = atEnd(c)
        ? using.filter((x) => {
            const w = changeOf.get(x.r.urn);
            return newByUrn.has(x.r.urn) && !(w && gone(w));
          })
        : using;
      if (holders.length > 0) {
        // A workload that stays but no longer names the claim releases it when its controller rolls the pods, after the update.
        const rolls = atEnd(c) && holders.every((h) => !mounterOf(newByUrn.get(h.r.urn) as PlannedResource)?.mounts(claim as string));
        out.push({
          name: c.name,
          type: c.type,
          why:
            `${verb} claim ${ns}/${claim} deletes it while ${holders.map((h) => h.m.label).join(" and ")} mount it: ` +
            "kubernetes.io/pvc-protection keeps a claim until no pod uses it (complete pods too), " +
            (rolls
              ? "and the pods let it go only when their controller rolls them, after the update: the delete waits 10 minutes only and may fail, the claim left Terminating"
              : "so the delete waits 10 minutes and fails, the claim left Terminating"),
          source: PVC_IN_USE_SOURCE,
          wait: DELETE_TIMEOUT_SOURCE,
        });
        continue;
      }
      // A claim of the same name created again never binds to the Retain PV it was bound to.
      const volumeName = str(at(old.inputs, "spec", "volumeName"));
      const pv = olds.find((r) => r.type === PV && nameOf(r) === volumeName);
      const pvGoes = pv !== undefined && going.has(pv.name);
      const policy = pv ? (str(at(pv.inputs, "spec", "persistentVolumeReclaimPolicy")) ?? "Retain") : undefined;
      if (c.action === "replace" && c.deleteBeforeReplace === true && pv && !pvGoes && policy === "Retain") {
        out.push({
          name: c.name,
          type: c.type,
          why:
            `the claim ${ns}/${claim} is deleted and created again under its name: its PersistentVolume ${volumeName} (Retain) stays Released ` +
            "with the deleted claim's uid in its claimRef, and the new claim stays Pending: pulumi-kubernetes waits 5 minutes for it to bind and fails",
          source: REBIND_SOURCE,
          wait: BIND_WAIT_SOURCE,
        });
      }
      continue;
    }
    if (old.type === PV) {
      // At the end a claim goes before its volume (it depends on it); a volume deleted first goes before its claim.
      const bound = claimsOf(old).filter((claim) => !(atEnd(c) && atEnd(going.get(claim.name))));
      if (bound.length > 0) {
        out.push({
          name: c.name,
          type: c.type,
          why:
            `${verb} PersistentVolume ${nameOf(old)} deletes it while ${bound.map((b) => `claim ${namespaceOf(b)}/${nameOf(b)}`).join(", ")} ` +
            "is bound to it: kubernetes.io/pv-protection keeps a bound volume, so the delete waits 10 minutes and fails, the volume left Terminating",
          source: PROTECTION_SOURCE,
          wait: DELETE_TIMEOUT_SOURCE,
        });
      }
    }
  }
  return out;
}

/** What to do instead of a change a running cluster holds, by stack kind. */
export function heldInstead(kind: string, stack: string): string {
  const base = `destroy the stack and deploy it again with the new value (\`pulumi destroy --stack ${stack}\`, then \`pulumi up --stack ${stack}\`)`;
  return kind === "kafka"
    ? `${base}, clearing the brokers' directories in between: they stay on the FSx volumes (Retain), and the new deployment's prepare Job refuses an earlier cluster's (docs/kinds/kafka.md, "Re-deploying onto the same file system")`
    : base;
}
