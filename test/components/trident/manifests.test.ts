/**
 * Trident's objects for FSx: the TridentBackendConfig against Trident's CRD (which has no structural
 * schema: ../shared/schemas/README.md) and, field by field, against what Trident's FSx pages
 * document; the StorageClasses and the namespace against the Kubernetes schemas; the chart's
 * values against the chart's own values.yaml.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { StorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import { Namespace } from "kubernetes-models/v1/Namespace";
import YAML from "yaml";
import {
  backendConfigManifest,
  FsxBackendInputs,
  tridentChartValues,
  tridentNamespaceManifest,
  tridentStorageClassManifest,
} from "../../../components/trident/manifests";
import { crdProblems } from "../../helpers/crd";
import { SHARED } from "../../helpers/root";

const INPUTS: FsxBackendInputs = {
  fileSystemId: "fs-0123456789abcdef0",
  svmName: "ekssvm",
  credentialsSecretArn: "arn:aws:secretsmanager:us-east-1:123456789012:secret:fsx-vsadmin-AbCdEf",
  region: "us-east-1",
  nfsDataLif: "198.19.255.20",
  exportCidrs: ["10.0.0.0/16"],
};

/** The options Trident's FSx pages document for a TridentBackendConfig (trident-fsx-examples.html, trident-fsx-storage-backend.html). */
const DOCUMENTED = new Set([
  "version",
  "storageDriverName",
  "backendName",
  "managementLIF",
  "dataLIF",
  "svm",
  "aws",
  "credentials",
  "autoExportPolicy",
  "autoExportCIDRs",
  "nfsMountOptions",
  "labels",
  "limitVolumeSize",
]);

describe("TridentBackendConfig (ontap-nas on FSx)", () => {
  const tbc = backendConfigManifest("ontap-nas", INPUTS);

  test("is a served trident.netapp.io/v1 TridentBackendConfig with a namespaced name (the CRD checks only that)", () => {
    expect(crdProblems("trident.netapp.io", "TridentBackendConfig", tbc as never)).toEqual([]);
    expect(crdProblems("trident.netapp.io", "TridentBackendConfig", { ...tbc, metadata: { name: "x" } } as never)).toEqual([
      "metadata.namespace is missing",
    ]);
  });

  test("the FSx-aware fields, exactly: file system id, SVM, secret ARN as awsarn credentials, NFS data LIF, no management LIF", () => {
    expect(tbc).toEqual({
      apiVersion: "trident.netapp.io/v1",
      kind: "TridentBackendConfig",
      metadata: { name: "fsx-ontap-nas", namespace: "trident" },
      spec: {
        version: 1,
        storageDriverName: "ontap-nas",
        backendName: "fsx-ontap-nas",
        svm: "ekssvm",
        aws: { fsxFilesystemID: "fs-0123456789abcdef0", apiRegion: "us-east-1" },
        credentials: { name: "arn:aws:secretsmanager:us-east-1:123456789012:secret:fsx-vsadmin-AbCdEf", type: "awsarn" },
        dataLIF: "198.19.255.20",
        autoExportPolicy: true,
        autoExportCIDRs: ["10.0.0.0/16"],
      },
    });
    expect(tbc.spec).not.toHaveProperty("managementLIF");
  });

  test("every spec field is one Trident documents for FSx; the aws block holds Trident's AWSConfig keys only", () => {
    for (const k of Object.keys(tbc.spec)) expect(DOCUMENTED).toContain(k);
    // NetApp/trident v26.06.0 storage_drivers/types.go AWSConfig: apiRegion, fsxFilesystemID, apiKey, secretKey.
    for (const k of Object.keys(tbc.spec.aws)) expect(["apiRegion", "fsxFilesystemID", "apiKey", "secretKey"]).toContain(k);
    expect(tbc.spec).not.toHaveProperty("aws.apiKey");
  });

  test("ontap-san: same FSx identity and credentials, no data LIF (iSCSI LIFs are discovered) and no export policy", () => {
    expect(backendConfigManifest("ontap-san", INPUTS)).toEqual({
      apiVersion: "trident.netapp.io/v1",
      kind: "TridentBackendConfig",
      metadata: { name: "fsx-ontap-san", namespace: "trident" },
      spec: {
        version: 1,
        storageDriverName: "ontap-san",
        backendName: "fsx-ontap-san",
        svm: "ekssvm",
        aws: { fsxFilesystemID: "fs-0123456789abcdef0", apiRegion: "us-east-1" },
        credentials: { name: INPUTS.credentialsSecretArn, type: "awsarn" },
      },
    });
  });
});

describe("Trident StorageClasses", () => {
  test("validate against the Kubernetes schema, and the check can fail", () => {
    for (const d of ["ontap-nas", "ontap-san"] as const) {
      expect(() => new StorageClass(tridentStorageClassManifest(d, "Delete")).validate()).not.toThrow();
    }
    expect(() =>
      new StorageClass({ ...tridentStorageClassManifest("ontap-nas", "Delete"), mountOptions: "hard" as never }).validate(),
    ).toThrow(/mountOptions/);
  });

  test("fsx-ontap-nas: Trident's provisioner, ontap-nas, thin, snapshots, expansion, the reclaim policy, NFS 4.1 hard; no fsType, no media", () => {
    const sc = tridentStorageClassManifest("ontap-nas", "Retain");
    expect(sc).toEqual({
      apiVersion: "storage.k8s.io/v1",
      kind: "StorageClass",
      metadata: { name: "fsx-ontap-nas", labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } },
      provisioner: "csi.trident.netapp.io",
      parameters: { backendType: "ontap-nas", provisioningType: "thin", snapshots: "true" },
      reclaimPolicy: "Retain",
      allowVolumeExpansion: true,
      volumeBindingMode: "Immediate",
      mountOptions: ["nfsvers=4.1", "hard", "proto=tcp", "rsize=262144", "wsize=262144"],
    });
    expect(Object.keys(sc.parameters ?? {}).filter((k) => /fstype|media/i.test(k))).toEqual([]);
    expect(sc.allowedTopologies).toBeUndefined();
  });

  test("fsx-ontap-san: ext4 on the LUN, no NFS mount options", () => {
    const sc = tridentStorageClassManifest("ontap-san", "Delete");
    expect(sc.parameters).toEqual({
      backendType: "ontap-san",
      provisioningType: "thin",
      snapshots: "true",
      "csi.storage.k8s.io/fstype": "ext4",
    });
    expect(sc.mountOptions).toBeUndefined();
  });
});

describe("Trident's namespace and chart values", () => {
  test("the namespace says what it admits: privileged (the node plugin is a privileged DaemonSet)", () => {
    const ns = tridentNamespaceManifest();
    expect(() => new Namespace(ns).validate()).not.toThrow();
    expect(ns.metadata?.labels).toEqual({
      "pod-security.kubernetes.io/enforce": "privileged",
      "pod-security.kubernetes.io/enforce-version": "latest",
      "pod-security.kubernetes.io/warn": "privileged",
      "pod-security.kubernetes.io/audit": "privileged",
    });
  });

  test("every value is a key of the chart's values.yaml (Helm ignores unknown keys silently)", () => {
    const defaults = YAML.parse(
      fs.readFileSync(path.join(SHARED, "schemas/helm/trident-operator-100.2606.0.values.yaml"), "utf8"),
    ) as Record<string, unknown>;
    expect(tridentChartValues()).toEqual({ tridentSilenceAutosupport: true });
    const values = tridentChartValues(["iscsi"]);
    expect(values).toEqual({ tridentSilenceAutosupport: true, nodePrep: ["iscsi"] });
    for (const [k, v] of Object.entries(values)) {
      expect(Object.keys(defaults)).toContain(k);
      expect(typeof v).toBe(typeof defaults[k]);
    }
  });
});
