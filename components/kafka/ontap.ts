/**
 * The Kafka data volumes' export policy and root ownership, set on the SVM through the ONTAP REST
 * API (pure: the objects; ./index.ts creates them, scripts/ontap-exports.py makes the calls).
 *
 * Why ONTAP's API, from a Job in the cluster:
 * - FSx's API has no export-policy argument: `CreateVolume`/`UpdateVolume`'s OntapConfiguration
 *   has junction path, security style, size, snapshot and tiering policies, no export policy, and a
 *   new volume gets the SVM's `default` policy, which FSx creates allowing every client ("Volumes
 *   … use the default export policy … which allows access from any client", FSx for ONTAP user
 *   guide, "Volume export policies"); FSx's guide points to ONTAP (CLI or REST API) for the change.
 * - Trident's `autoExportPolicy`/`autoExportCIDRs` govern only volumes Trident provisions or imports
 *   (one FlexVol per claim); the brokers' six shared volumes are static (./storage.ts), so Trident
 *   would have to own them, and a deleted claim would delete the volume.
 * - The management endpoint is reachable only from inside the VPC, so the calls run in a Job in the
 *   cluster (the deploying machine has no route), as the SVM's `vsadmin` (the credentials the
 *   fsx-ontap stack keeps in Secrets Manager for Trident; SVM-scoped, no file-system admin), awaited
 *   like the prepare Job (components/bench/scripts/collect-job.sh).
 *
 * The policy (ONTAP REST API reference, POST/PATCH /protocols/nfs/export-policies, `export_rule`):
 * clients = the private subnets of the network (where the EKS nodes run and, with the VPC CNI, every
 * pod's address), `protocols: nfs4` (the brokers mount NFSv4.1), `ro_rule`/`rw_rule: sys`,
 * `superuser: none` (root on a node is mapped to the anonymous user 65534: nothing in the lab writes
 * as root over NFS any more), `allow_suid: false`. Each volume (PATCH /storage/volumes/{uuid}):
 * `nas.export_policy.name`, and its root owned by Kafka's user and group (1001:0) mode 0751, so the
 * prepare Job, as Kafka's user, creates the brokers' directories without any root or 0777 step.
 *
 * Why 0751 (searchable, not listable, by others), not 0750: every broker PV mounts a subdirectory,
 * `<junction>/<broker pod>`, and the kubelet mounts it as root, which the rule squashes to the
 * anonymous user. An NFSv4 mount of a path mounts the server's root and walks down to the path
 * (Linux fs/nfs/nfs4super.c `do_nfs4_mount`: "We create a mount for the server's root, walk to the
 * requested location and then create another mount for that", `mount_subtree(root_mnt,
 * export_path)`); each step is a lookup that needs search (x) permission on the directory, which the
 * NFS client asks the server with the caller's credential (fs/nfs/dir.c `nfs_permission` →
 * `nfs_do_access`, an ACCESS call), and the server answers for 65534: with 0750 on `1001:0` it has
 * no search bit, the lookup fails with EACCES and the mount with "access denied by server", the
 * brokers stuck in ContainerCreating. 0751 gives others search only: the walk passes, a listing of
 * the root (the brokers' directory names) still fails, and the brokers' own directories stay 0750,
 * Kafka's (scripts/prepare-dirs.sh): the mount needs no permission on the directory it ends at.
 * The walk starts at the SVM root volume, which ONTAP creates 755 (NetApp KB "How to limit NFS
 * access to the SVM root volume": "By default, when an SVM is created, the root volume is configured
 * with 755 permissions"), so the junctions are reachable there.
 * The SVM's root volume keeps the `default` policy: NFS clients need read access to it to traverse
 * to the junctions ("the export policy of the SVM root volume must … allow read access", ONTAP
 * "NFS: Export policy rules for the SVM root volume"), and it holds nothing but the junctions.
 */
import type { ISecret } from "kubernetes-models/v1/Secret";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { nodeGroupAffinity, nodeGroupToleration } from "../eks/placement";
import { ONTAP_TOOLS_IMAGE } from "../versions";
import { KAFKA_GID, KAFKA_UID, ResolvedKafka, Resources } from "./rules";

/** The Job that calls the ONTAP API, and its Secret and ConfigMap. */
export const ONTAP_JOB = "kafka-storage-ontap";
export const ONTAP_CREDENTIALS_SECRET = "ontap-vsadmin";
export const ONTAP_SCRIPT_FILE = "ontap-exports.py";
/** The NetworkPolicy letting the Job reach the SVM's management endpoint. */
export const ONTAP_API_POLICY = "allow-ontap-api";
/** ONTAP's REST API port on the SVM management endpoint (HTTPS). */
export const ONTAP_API_PORT = 443;
/** The anonymous user root is squashed to ("nobody" on Linux clients). */
export const ANONYMOUS_UID = 65534;
/** The mode of every data volume's root, owned by Kafka's user and group: searchable, not listable, by others (see above). */
export const VOLUME_ROOT_MODE = "0751";
/** The Job's user and group (the distroless "nonroot" user of the tools image); also its pod's `fsGroup`. */
export const ONTAP_JOB_UID = 65532;
/**
 * The credentials' file mode. The kubelet writes a Secret volume's files owned by root, and there is
 * no way to give them to `runAsUser` (kubernetes/kubernetes#81089); with the pod's `fsGroup` set, it
 * gives them that group and ORs 0440 into the mode of a read-only volume's files, which a Secret
 * volume is (kubernetes/kubernetes pkg/volume/volume_linux.go: `roMask = os.FileMode(0440)`,
 * `chmod(path, info.Mode()|mask)` when `GetAttributes().ReadOnly`; pkg/volume/secret/secret.go:
 * `ReadOnly: true`). So `fsGroup` = the Job's gid with 0440 is the narrowest pair the Job can read:
 * 0400 without `fsGroup` leaves them `root:root 0400`, unreadable by 65532 (a `PermissionError`
 * before any call); anything narrower than 0440 with `fsGroup` is widened to 0440 by the kubelet.
 * `fsGroup` is allowed by restricted Pod Security (it restricts users, not groups).
 */
export const ONTAP_CREDENTIALS_MODE = 0o440;
/** How long the Job may run, s (its `activeDeadlineSeconds`); index.ts waits that long and a margin. */
export const ONTAP_DEADLINE_SECONDS = 600;
/** The Job's container: a Python interpreter and a few HTTP calls. */
export const ONTAP_RESOURCES: Resources = { requests: { cpu: "50m", memory: "64Mi" }, limits: { cpu: "500m", memory: "128Mi" } };

const LABELS = { "app.kubernetes.io/name": ONTAP_JOB, "app.kubernetes.io/part-of": "storage-bench-lab" };

/** The export policy of the cluster's data volumes on the SVM. */
export function exportPolicyName(r: Pick<ResolvedKafka, "clusterName">): string {
  return `lab-${r.clusterName}-brokers`;
}

/** The vsadmin credentials, as files the script reads (never in its environment). */
export function ontapCredentialsSecretManifest(namespace: string, username: string, password: string): ISecret {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: ONTAP_CREDENTIALS_SECRET, namespace, labels: { ...LABELS } },
    type: "Opaque",
    stringData: { username, password },
  };
}

export function ontapConfigMapManifest(namespace: string, script: string): IConfigMap {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `${ONTAP_JOB}-scripts`, namespace },
    data: { [ONTAP_SCRIPT_FILE]: script },
  };
}

/** What the ontap Job is told: where, which policy, which clients, which volumes, which owner. */
export interface OntapTarget {
  /** The SVM's management endpoint (DNS name). */
  readonly host: string;
  readonly svmName: string;
  /** The node subnets, comma-separated CIDRs. */
  readonly clientCidrs: string;
}

export function ontapJobManifest(r: ResolvedKafka, namespace: string, t: OntapTarget): IJob {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: ONTAP_JOB, namespace, labels: { ...LABELS }, annotations: { "pulumi.com/skipAwait": "true" } },
    spec: {
      backoffLimit: 2,
      activeDeadlineSeconds: ONTAP_DEADLINE_SECONDS,
      ttlSecondsAfterFinished: 86400,
      template: {
        metadata: { labels: { ...LABELS } },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          affinity: nodeGroupAffinity(r.controllerNodeGroup),
          tolerations: [nodeGroupToleration(r.controllerNodeGroup)],
          securityContext: {
            runAsNonRoot: true,
            runAsUser: ONTAP_JOB_UID,
            runAsGroup: ONTAP_JOB_UID,
            fsGroup: ONTAP_JOB_UID,
            seccompProfile: { type: "RuntimeDefault" },
          },
          containers: [
            {
              name: "ontap",
              image: ONTAP_TOOLS_IMAGE,
              command: ["python3", `/scripts/${ONTAP_SCRIPT_FILE}`],
              env: [
                { name: "ONTAP_HOST", value: t.host },
                { name: "SVM_NAME", value: t.svmName },
                { name: "POLICY_NAME", value: exportPolicyName(r) },
                { name: "CLIENT_CIDRS", value: t.clientCidrs },
                { name: "JUNCTION_PATHS", value: r.dataVolumes.join(",") },
                { name: "OWNER_UID", value: String(KAFKA_UID) },
                { name: "OWNER_GID", value: String(KAFKA_GID) },
                { name: "ROOT_MODE", value: VOLUME_ROOT_MODE },
                { name: "ANONYMOUS_UID", value: String(ANONYMOUS_UID) },
                { name: "CREDENTIALS_DIR", value: "/credentials" },
                { name: "PYTHONDONTWRITEBYTECODE", value: "1" },
              ],
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ["ALL"] },
              },
              resources: { requests: { ...ONTAP_RESOURCES.requests }, limits: { ...ONTAP_RESOURCES.limits } },
              volumeMounts: [
                { name: "scripts", mountPath: "/scripts", readOnly: true },
                { name: "credentials", mountPath: "/credentials", readOnly: true },
              ],
            },
          ],
          volumes: [
            { name: "scripts", configMap: { name: `${ONTAP_JOB}-scripts` } },
            { name: "credentials", secret: { secretName: ONTAP_CREDENTIALS_SECRET, defaultMode: ONTAP_CREDENTIALS_MODE } },
          ],
        },
      },
    },
  };
}

/** The ontap Job's only flow besides DNS: HTTPS to the SVM management endpoint's addresses. */
export function ontapApiPolicy(namespace: string, managementIps: readonly string[]): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: ONTAP_API_POLICY, namespace, labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
    spec: {
      podSelector: { matchLabels: { "app.kubernetes.io/name": ONTAP_JOB } },
      policyTypes: ["Egress"],
      egress: [{ to: managementIps.map((ip) => ({ ipBlock: { cidr: `${ip}/32` } })), ports: [{ protocol: "TCP", port: ONTAP_API_PORT }] }],
    },
  };
}

/** ls -l's form of {@link VOLUME_ROOT_MODE}, as ONTAP's `volume show -fields unix-permissions` prints it. */
function unixPermissions(mode: string): string {
  const bits = parseInt(mode, 8);
  return "---" + [6, 3, 0].map((shift) => ["r", "w", "x"].map((c, i) => ((bits >> shift) & (4 >> i) ? c : "-")).join("")).join("");
}

/**
 * What to do when the SVM refuses a broker's (or the prepare Job's) NFS mount: the lines
 * collect-job.sh prints after the event (MOUNT_FIX). The two causes this design can have: the
 * export policy's rule (this Job's) does not admit the node, or a directory on the mounted path is
 * not searchable by the anonymous user a squashed root is mapped to (the NFSv4 client walks the
 * path from the export's root, the module comment: the roots must be {@link VOLUME_ROOT_MODE}).
 */
export function kafkaMountFix(
  r: Pick<ResolvedKafka, "clusterName" | "namespace">,
  storageNamespace: string,
  svmName: string,
  nodeSubnetCidrs: readonly string[],
): string {
  const policy = exportPolicyName(r);
  return [
    `the SVM ${svmName} refused an NFS mount of the Kafka data volumes; check on the SVM (ssh fsxadmin@<its management endpoint>):`,
    `  vserver export-policy rule show -vserver ${svmName} -policyname ${policy} -fields clientmatch,protocol,rorule,rwrule,superuser`,
    `    (a rule for ${nodeSubnetCidrs.join(", ")}, protocol nfs4, rorule/rwrule sys, superuser none: the ontap Job sets it;`,
    `    its log: kubectl logs job/${ONTAP_JOB} -n ${storageNamespace})`,
    `  volume show -vserver ${svmName} -fields policy,user,group,unix-permissions`,
    `    (each data volume: policy ${policy}, user ${KAFKA_UID}, group ${KAFKA_GID}, unix-permissions ${unixPermissions(VOLUME_ROOT_MODE)}: others need search on the root)`,
    "then run pulumi up again: the kubelet retries the mount",
  ].join("\n");
}
