/**
 * Trident's Kubernetes objects for FSx for ONTAP, as plain objects (pure): the TridentBackendConfig
 * of each backend, their StorageClasses, Trident's namespace and the Helm values of its chart.
 * The component (index.ts) turns them into resources; the tests validate them against the upstream
 * CRD (../shared/schemas/crds/trident.netapp.io) and kubernetes-models, and check the fields
 * Trident's FSx pages document.
 *
 * TridentBackendConfig (docs.netapp.com/us-en/trident/trident-use/trident-fsx-storage-backend.html,
 * "Configure the Storage Backend", and trident-fsx-examples.html "FSx for ONTAP configuration options
 * and examples"): `version: 1`, `storageDriverName`, `backendName`, `svm`, `aws.fsxFilesystemID`,
 * `credentials: {name: <secret ARN>, type: awsarn}`; `managementLIF` is left out (Trident reads the
 * SVM's management endpoint from the FSx API when `fsxFilesystemID` is given:
 * storage_drivers/ontap/aws_common.go `validateFSxFilesystem`, "Infer management LIF"); `dataLIF`
 * set for NAS ("NetApp recommends specifying dataLIF") and not for SAN ("do not specify for iSCSI");
 * `autoExportPolicy`/`autoExportCIDRs` so the volumes are exported to the cluster's nodes in the VPC
 * only. `aws.apiRegion` (storage_drivers/types.go `AWSConfig.APIRegion json:"apiRegion"`) names the
 * FSx API's region: without it the AWS SDK's default chain decides (awsapi/aws.go `createAWSConfig`),
 * and EKS Pod Identity sets no region in the pod (only AWS_CONTAINER_CREDENTIALS_FULL_URI and
 * AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE, EKS User Guide service-accounts.adoc).
 */
import type { IStorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import type { INamespace } from "kubernetes-models/v1/Namespace";
import { podSecurityNamespace } from "../lib/kubernetes";
import { NFS_MOUNT_OPTIONS, ReclaimPolicy, STORAGE_CLASS_NAMES, TRIDENT_NAMESPACE, TRIDENT_PROVISIONER } from "./rules";

/** The two ONTAP drivers the lab uses on FSx. */
export type OntapDriver = "ontap-nas" | "ontap-san";

/** What a backend on the FSx file system needs (plain values, from the fsx-ontap stack's outputs). */
export interface FsxBackendInputs {
  readonly fileSystemId: string;
  readonly svmName: string;
  /** The Secrets Manager secret holding `{"username":"vsadmin","password":…}`. */
  readonly credentialsSecretArn: string;
  /** The region of the FSx API (the stack's `aws:region`). */
  readonly region: string;
  /** The SVM's NFS endpoint address (ontap-nas `dataLIF`). */
  readonly nfsDataLif: string;
  /** Node addresses Trident may export volumes to (the VPC's CIDR). */
  readonly exportCidrs: readonly string[];
}

/** The TridentBackendConfig custom resource. */
export interface TridentBackendConfig {
  readonly apiVersion: "trident.netapp.io/v1";
  readonly kind: "TridentBackendConfig";
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly spec: {
    readonly version: 1;
    readonly storageDriverName: OntapDriver;
    readonly backendName: string;
    readonly svm: string;
    readonly aws: { readonly fsxFilesystemID: string; readonly apiRegion: string };
    readonly credentials: { readonly name: string; readonly type: "awsarn" };
    readonly dataLIF?: string;
    readonly autoExportPolicy?: boolean;
    readonly autoExportCIDRs?: readonly string[];
  };
}

/** The backend (and StorageClass) name of a driver: `fsx-ontap-nas`, `fsx-ontap-san`. */
export function backendName(driver: OntapDriver): string {
  return driver === "ontap-nas" ? STORAGE_CLASS_NAMES.nas : STORAGE_CLASS_NAMES.san;
}

/** The TridentBackendConfig's apiVersion, kind and metadata (known before any upstream value). */
export function backendConfigHead(driver: OntapDriver): Omit<TridentBackendConfig, "spec"> {
  return {
    apiVersion: "trident.netapp.io/v1",
    kind: "TridentBackendConfig",
    metadata: { name: backendName(driver), namespace: TRIDENT_NAMESPACE },
  };
}

/** The TridentBackendConfig of one driver on the file system's SVM. */
export function backendConfigManifest(driver: OntapDriver, b: FsxBackendInputs): TridentBackendConfig {
  const nas = driver === "ontap-nas";
  return {
    ...backendConfigHead(driver),
    spec: {
      version: 1,
      storageDriverName: driver,
      backendName: backendName(driver),
      svm: b.svmName,
      aws: { fsxFilesystemID: b.fileSystemId, apiRegion: b.region },
      credentials: { name: b.credentialsSecretArn, type: "awsarn" },
      ...(nas ? { dataLIF: b.nfsDataLif, autoExportPolicy: true, autoExportCIDRs: [...b.exportCidrs] } : {}),
    },
  };
}

/**
 * The StorageClass of a Trident backend: thin provisioning, snapshots, expansion allowed, the
 * configured reclaim policy; NAS mounts with {@link NFS_MOUNT_OPTIONS}, SAN volumes formatted ext4.
 * No `media` (unsupported on FSx) and, for NAS, no `fsType` (an NFS volume has none). Immediate
 * binding: a Multi-AZ file system serves both zones, so the volume never ties a pod to one.
 */
export function tridentStorageClassManifest(driver: OntapDriver, reclaimPolicy: ReclaimPolicy): IStorageClass {
  const nas = driver === "ontap-nas";
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: backendName(driver), labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
    provisioner: TRIDENT_PROVISIONER,
    parameters: {
      backendType: driver,
      provisioningType: "thin",
      snapshots: "true",
      ...(nas ? {} : { "csi.storage.k8s.io/fstype": "ext4" }),
    },
    reclaimPolicy,
    allowVolumeExpansion: true,
    volumeBindingMode: "Immediate",
    ...(nas ? { mountOptions: [...NFS_MOUNT_OPTIONS] } : {}),
  };
}

/**
 * Trident's namespace (Helm install). Its node plugin is a privileged DaemonSet with host paths, so
 * the namespace admits the `privileged` Pod Security level, and says so in its labels.
 */
export function tridentNamespaceManifest(): INamespace {
  return podSecurityNamespace(TRIDENT_NAMESPACE, "privileged");
}

/**
 * Values of the trident-operator chart (keys of ../shared/schemas/helm/trident-operator-100.2606.0.values.yaml):
 * autosupport telemetry off (a lab sends no usage data to NetApp); `nodePrep` (default `[]`) when
 * nodes are to be prepared for a protocol (rules.ts NODE_PREP_PROTOCOLS); everything else the
 * chart's defaults.
 */
export function tridentChartValues(nodePrep: readonly string[] = []): Record<string, unknown> {
  return { tridentSilenceAutosupport: true, ...(nodePrep.length > 0 ? { nodePrep: [...nodePrep] } : {}) };
}
