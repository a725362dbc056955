/**
 * What deleting a resource destroys, by type: what a replacement or a deletion takes with it, in
 * the user's terms. Pure.
 *
 * `data: true` marks the deletions that lose data a benchmark or a user put there (a volume, a
 * file system, a cluster's installation): `lab plan --change` refuses a change that causes one
 * unless `--allow-replace`.
 */
import { COMPUTED, SECRET } from "../markers";

export interface Destruction {
  /** What goes, in a sentence fragment. */
  readonly what: string;
  /** Data is lost (refused without --allow-replace). */
  readonly data: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v !== COMPUTED && v !== SECRET ? v : undefined);

/** The first line of a Command's `delete` that is a call (`lab_k0sctl_reset`), else its first line. */
function deleteCall(script: string): string {
  const lines = script
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  return lines[lines.length - 1] ?? "";
}

/** The PersistentVolumes and StorageClasses of the stack as deployed, by name, to word a claim's deletion by its real reclaim policy. */
export interface StorageLookup {
  readonly persistentVolume: (name: string) => Record<string, unknown> | undefined;
  readonly storageClass: (name: string) => Record<string, unknown> | undefined;
}

/** A lookup over planned resources (their Kubernetes names). */
export function storageLookup(resources: readonly { type: string; inputs: Record<string, unknown> }[]): StorageLookup {
  const byKind = (type: string) =>
    new Map(
      resources
        .filter((r) => r.type === type)
        .map((r) => [text(isObj(r.inputs.metadata) ? r.inputs.metadata.name : undefined), r.inputs] as const)
        .filter((e): e is [string, Record<string, unknown>] => e[0] !== undefined),
    );
  const pvs = byKind("kubernetes:core/v1:PersistentVolume");
  const classes = byKind("kubernetes:storage.k8s.io/v1:StorageClass");
  return { persistentVolume: (n) => pvs.get(n), storageClass: (n) => classes.get(n) };
}

const NO_STORAGE: StorageLookup = { persistentVolume: () => undefined, storageClass: () => undefined };

/**
 * A PV's reclaim policy: its own, or the API server's default for one created without it, `Retain`
 * (kubernetes/kubernetes pkg/apis/core/v1/defaults.go SetDefaults_PersistentVolume). A class's:
 * its own, or `Delete` (pkg/apis/storage/v1beta1/defaults.go SetDefaults_StorageClass, read; v1 defaults the same).
 */
const pvPolicy = (pv: Record<string, unknown>) => (isObj(pv.spec) ? text(pv.spec.persistentVolumeReclaimPolicy) : undefined) ?? "Retain";
const classPolicy = (sc: Record<string, unknown>) => text(sc.reclaimPolicy) ?? "Delete";

function claimDestruction(inputs: Record<string, unknown>, storage: StorageLookup): Destruction {
  const spec = isObj(inputs.spec) ? inputs.spec : {};
  const volumeName = text(spec.volumeName);
  const pv = volumeName === undefined ? undefined : storage.persistentVolume(volumeName);
  if (pv && volumeName !== undefined) {
    return pvPolicy(pv) === "Retain"
      ? {
          what: `the claim; its PersistentVolume ${volumeName} and the data stay (reclaim policy Retain), the volume Released`,
          data: false,
        }
      : {
          what: `the claim; its PersistentVolume ${volumeName} and the storage behind it go with it (reclaim policy ${pvPolicy(pv)})`,
          data: true,
        };
  }
  const className = text(spec.storageClassName);
  const sc = className === undefined ? undefined : storage.storageClass(className);
  if (sc && className !== undefined) {
    return classPolicy(sc) === "Retain"
      ? {
          what: `the claim; its volume stays, Released, with the data (StorageClass ${className}: reclaim policy Retain; delete it by hand)`,
          data: false,
        }
      : { what: `the claim; its volume goes with it under the StorageClass ${className}'s ${classPolicy(sc)} reclaim policy`, data: true };
  }
  return {
    what: "the claim; its volume per its StorageClass's reclaim policy (the class is not in this stack: Delete unless it says otherwise)",
    data: true,
  };
}

/**
 * What deleting a resource of `type` with `inputs` destroys; `storage` (the stack as deployed)
 * words a claim's and a volume's deletion by the reclaim policy that applies.
 */
export function destroys(type: string, inputs: Record<string, unknown>, storage: StorageLookup = NO_STORAGE): Destruction {
  switch (type) {
    case "command:local:Command":
    case "command:remote:Command": {
      const del = text(inputs.delete);
      // Any `delete` counts as destructive: the plan cannot tell a cleanup from a reset by its text.
      if (del !== undefined) return { what: `its delete runs (${deleteCall(del)})`, data: true };
      return { what: "no delete command; its stdout (a collector's: the run's raw results) leaves the state", data: false };
    }
    case "aws:ebs/volume:Volume":
      return { what: "the EBS volume and every byte on it", data: true };
    case "aws:ec2/instance:Instance":
      // The k0s bastion (components/k0s, tag lab:role=bastion) keeps nothing: a jump host and the API
      // forward, both from its user data; its Elastic IP and its host key are resources of their own.
      if (isObj(inputs.tags) && inputs.tags["lab:role"] === "bastion")
        return { what: "the bastion instance (stateless: its Elastic IP and SSH host key stay, the new one takes them)", data: false };
      return { what: "the instance, its root volume and everything running on it", data: true };
    case "aws:fsx/ontapFileSystem:OntapFileSystem":
      return { what: "the FSx file system with every SVM and volume on it", data: true };
    case "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine":
      return { what: "the SVM with its volumes", data: true };
    case "aws:fsx/ontapVolume:OntapVolume":
      return { what: "the FSx volume and its data", data: true };
    case "aws:eks/cluster:Cluster":
    case "eks:index:Cluster":
      return { what: "the EKS cluster and every workload and volume claim in it", data: true };
    case "eks:index:ManagedNodeGroup":
    case "aws:eks/nodeGroup:NodeGroup":
      return { what: "the node group's nodes (pods rescheduled, node-local data lost)", data: false };
    case "aws:kms/key:Key":
      return { what: "the KMS key (scheduled for deletion: data encrypted under it becomes unreadable)", data: true };
    case "aws:ec2/eip:Eip":
      return { what: "the Elastic IP address (released: a new one differs)", data: false };
    case "aws:secretsmanager/secret:Secret":
      return { what: "the secret (scheduled for deletion)", data: false };
    // terraform-provider-aws internal/service/ecr/repository.go `resourceRepositoryDelete`:
    // DeleteRepository with `Force: force_delete`; without it ECR refuses a repository that holds
    // images (RepositoryNotEmptyException). The lab's images are built again from their context.
    case "aws:ecr/repository:Repository":
      return inputs.forceDelete === true
        ? { what: "the ECR repository and every image in it (forceDelete)", data: false }
        : { what: "the ECR repository (refused while it holds images: no forceDelete)", data: false };
    // @pulumi/docker-build v0.0.22 provider/internal/image.go `Delete`: the pushed manifest is deleted from the registry.
    case "docker-build:index:Image":
      return { what: "the pushed image (its manifest deleted from the registry)", data: false };
    case "kubernetes:core/v1:PersistentVolumeClaim":
      return claimDestruction(inputs, storage);
    case "kubernetes:core/v1:PersistentVolume":
      return pvPolicy(inputs) === "Retain"
        ? { what: "the PersistentVolume object; the storage it names and its data stay (reclaim policy Retain)", data: false }
        : { what: `the PersistentVolume and the storage behind it (reclaim policy ${pvPolicy(inputs)})`, data: true };
    case "kubernetes:apps/v1:StatefulSet": {
      // kubernetes/kubernetes pkg/controller/statefulset/stateful_set_utils.go updateClaimOwnerRefForSetAndPod:
      // with whenDeleted: Delete the set owns its claims, and the garbage collector deletes them with it.
      const spec = isObj(inputs.spec) ? inputs.spec : {};
      const retention = isObj(spec.persistentVolumeClaimRetentionPolicy) ? spec.persistentVolumeClaimRetentionPolicy : {};
      if (retention.whenDeleted === "Delete") {
        const templates = Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates : [];
        const classes = [...new Set(templates.map((t) => (isObj(t) && isObj(t.spec) ? text(t.spec.storageClassName) : undefined)))];
        const policies = classes.map((c) => {
          const sc = c === undefined ? undefined : storage.storageClass(c);
          return sc ? classPolicy(sc) : undefined;
        });
        const retained = policies.length > 0 && policies.every((x) => x === "Retain");
        return retained
          ? {
              what: "the StatefulSet's pods and its claims (whenDeleted: Delete); their volumes stay, Released (reclaim policy Retain)",
              data: false,
            }
          : {
              what: "the StatefulSet's pods and its claims (whenDeleted: Delete), and with them their volumes and every byte on them (their StorageClass's reclaim policy)",
              data: true,
            };
      }
      return { what: "the StatefulSet's pods (its claims stay: whenDeleted Retain)", data: false };
    }
    // kubernetes/kubernetes pkg/apis/storage/validation ValidateStorageClassUpdate: its provisioner, parameters,
    // reclaim policy and binding mode are immutable; the volumes it provisioned keep the policy they were created with.
    case "kubernetes:storage.k8s.io/v1:StorageClass":
      return {
        what: "the StorageClass (its volumes stay, with the reclaim policy they were provisioned with; new claims wait for the new one)",
        data: false,
      };
    case "kubernetes:batch/v1:Job":
      return { what: "the Job and its pods (their logs)", data: false };
    case "kubernetes:ceph.rook.io/v1:CephCluster":
      return { what: "the Ceph cluster (Rook tears down its daemons; pools and images become unreachable)", data: true };
    case "kubernetes:ceph.rook.io/v1:CephBlockPool":
      return { what: "the Ceph pool and every RBD image in it", data: true };
    case "kubernetes:kafka.strimzi.io/v1:Kafka":
      return { what: "the Kafka cluster (its topics and messages)", data: true };
    case "kubernetes:kafka.strimzi.io/v1:KafkaNodePool":
      return { what: "the node pool's brokers", data: true };
    case "kubernetes:core/v1:Namespace":
      return { what: "the namespace and every object in it", data: true };
    default:
      return { what: "the resource", data: false };
  }
}
