/** Trident's install and backend rules (components/trident/rules.ts): exact values and messages. */
import * as fs from "node:fs";
import * as path from "node:path";
import { formatArgProblem } from "../../../core/errors";
import {
  backendProblems,
  NODE_PREP_PROTOCOLS,
  sanNodePrepProblem,
  FSX_BACKEND_DEFAULTS,
  installProblems,
  NFS_MOUNT_OPTIONS,
  resolveBackend,
  resolveInstall,
  STORAGE_CLASS_NAMES,
  TRIDENT_ADDON_NAME,
  TRIDENT_CONTROLLER_SERVICE_ACCOUNT,
  TRIDENT_NAMESPACE,
  TRIDENT_ORCHESTRATOR,
  TRIDENT_PROVISIONER,
} from "../../../components/trident/rules";
import { TRIDENT_CHART } from "../../../components/versions";
import { SHARED } from "../../helpers/root";

const lines = (ps: ReturnType<typeof installProblems>) => ps.map((p) => formatArgProblem(p));

describe("Trident facts and pins", () => {
  test("names NetApp and EKS use", () => {
    expect([TRIDENT_NAMESPACE, TRIDENT_CONTROLLER_SERVICE_ACCOUNT, TRIDENT_ADDON_NAME, TRIDENT_ORCHESTRATOR, TRIDENT_PROVISIONER]).toEqual([
      "trident",
      "trident-controller",
      "netapp_trident-operator",
      "trident",
      "csi.trident.netapp.io",
    ]);
    expect(TRIDENT_CHART).toEqual({ name: "trident-operator", repo: "https://netapp.github.io/trident-helm-chart", version: "100.2606.0" });
    expect(STORAGE_CLASS_NAMES).toEqual({ nas: "fsx-ontap-nas", san: "fsx-ontap-san" });
  });

  test("NFS mount options: v4.1, hard, TCP, 256 KiB transfers; no nconnect", () => {
    expect(NFS_MOUNT_OPTIONS).toEqual(["nfsvers=4.1", "hard", "proto=tcp", "rsize=262144", "wsize=262144"]);
  });
});

describe("the SAN backend's check of the cluster's nodePrep", () => {
  test("iscsi prepared: fine; otherwise the message names the key, the stack and what to do", () => {
    expect(sanNodePrepProblem(["iscsi"], "org/storage-bench-lab/c")).toBeUndefined();
    expect(sanNodePrepProblem([], "org/storage-bench-lab/c")).toBe(
      `'lab:sanBackend' is true, but the eks stack 'org/storage-bench-lab/c' (from 'lab:eksStack') installs Trident without nodePrep iscsi (its tridentNodePrep is []): AL2023 nodes have no iSCSI initiator, so no ontap-san volume could attach; set lab:tridentNodePrep: ["iscsi"] on that stack and update it first`,
    );
  });

  test("the protocols are the chart's: its values.yaml says iSCSI is the only one, and its template copies the list into the TridentOrchestrator", () => {
    const values = fs.readFileSync(path.join(SHARED, "schemas/helm/trident-operator-100.2606.0.values.yaml"), "utf8");
    expect(values).toContain("# specified data storage protocol. Currently, iSCSI is the only value supported.\nnodePrep: []");
    const templates = fs.readFileSync(path.join(SHARED, "schemas/helm/trident-operator-100.2606.0.templates.txt"), "utf8");
    expect(templates).toContain("{{- if .Values.nodePrep }}\n  nodePrep: {{- range .Values.nodePrep }}");
    expect(NODE_PREP_PROTOCOLS).toEqual(["iscsi"]);
  });
});

describe("install rules", () => {
  test("defaults: the Helm chart; the add-on needs its version", () => {
    expect(resolveInstall({})).toEqual({ tridentInstall: "helm", tridentAddonVersion: undefined, tridentNodePrep: [] });
    expect(installProblems({ tridentNodePrep: ["iscsi"] })).toEqual([]);
    expect(installProblems({})).toEqual([]);
    expect(installProblems({ tridentInstall: "addon", tridentAddonVersion: "v25.6.2-eksbuild.1" })).toEqual([]);
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    [
      "add-on without a version",
      { tridentInstall: "addon" },
      [
        "'tridentAddonVersion' must be an EKS add-on version of netapp_trident-operator offered for the cluster's Kubernetes version (e.g. v25.6.2-eksbuild.1; aws eks describe-addon-versions --addon-name netapp_trident-operator) when 'tridentInstall' is addon, got nothing",
      ],
    ],
    [
      "add-on version of the wrong form",
      { tridentInstall: "addon", tridentAddonVersion: "25.06.2" },
      [
        "'tridentAddonVersion' must be an EKS add-on version of netapp_trident-operator offered for the cluster's Kubernetes version (e.g. v25.6.2-eksbuild.1; aws eks describe-addon-versions --addon-name netapp_trident-operator) when 'tridentInstall' is addon, got \"25.06.2\"",
      ],
    ],
    [
      "a version with the chart",
      { tridentAddonVersion: "v25.6.2-eksbuild.1" },
      ["'tridentAddonVersion' must be unset when 'tridentInstall' is helm (the chart pins Trident 26.06), got \"v25.6.2-eksbuild.1\""],
    ],
    ["unknown method", { tridentInstall: "operator" }, ["'tridentInstall' must be one of helm, addon, got \"operator\""]],
    [
      "nodePrep: a protocol the chart does not prepare",
      { tridentNodePrep: ["nvme"] },
      [`'tridentNodePrep' must be a list of distinct protocols among iscsi (e.g. ["iscsi"]), got ["nvme"]`],
    ],
    [
      "nodePrep: twice the same",
      { tridentNodePrep: ["iscsi", "iscsi"] },
      [`'tridentNodePrep' must be a list of distinct protocols among iscsi (e.g. ["iscsi"]), got ["iscsi","iscsi"]`],
    ],
    [
      "nodePrep with the add-on",
      { tridentInstall: "addon", tridentAddonVersion: "v25.6.2-eksbuild.1", tridentNodePrep: ["iscsi"] },
      [`'tridentNodePrep' must be empty when 'tridentInstall' is addon (the lab sets the chart's nodePrep only), got ["iscsi"]`],
    ],
  ])("%s", (_n, spec, expected) => {
    expect(lines(installProblems(spec))).toEqual(expected);
  });
});

describe("backend rules", () => {
  test("defaults: NAS only, reclaim Delete", () => {
    expect(FSX_BACKEND_DEFAULTS).toEqual({ sanBackend: false, reclaimPolicy: "Delete" });
    expect(resolveBackend({})).toEqual({ sanBackend: false, reclaimPolicy: "Delete" });
    expect(resolveBackend({ sanBackend: true, reclaimPolicy: "Retain" })).toEqual({ sanBackend: true, reclaimPolicy: "Retain" });
  });

  test("reclaim policy and SAN flag, every problem", () => {
    expect(lines(backendProblems({ sanBackend: "yes" as never, reclaimPolicy: "Recycle" as never }))).toEqual([
      "'sanBackend' must be true or false, got \"yes\"",
      "'reclaimPolicy' must be one of Delete, Retain, got \"Recycle\"",
    ]);
  });
});
