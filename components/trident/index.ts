/**
 * NetApp Trident on the lab's EKS cluster, in two components, one per stack:
 *
 * - `lab:trident:TridentOperator` (stack `eks`): the role the `trident-controller` service account
 *   assumes through EKS Pod Identity (NetApp's FSx actions), its Pod Identity association, then
 *   Trident itself (the trident-operator chart 100.2606.0 in a `trident` namespace, or the
 *   `netapp_trident-operator` EKS add-on; with the chart, the namespace's default-deny NetworkPolicies
 *   and each pod's flows first, ./network.ts), then a wait until the TridentOrchestrator reports
 *   `Installed` (scripts/wait-installed.sh), so the `fsx-eks` stack finds the backend CRD.
 * - `lab:trident:TridentFsxBackend` (stack `fsx-eks`): the role's permission to change the volumes
 *   of this one file system (the eks stack grants only FSx's Describe calls) and to read the SVM's
 *   secret (and decrypt it), security-group rules from the nodes to the file system on the NFS ports
 *   (and iSCSI with the SAN backend), the TridentBackendConfig(s) and their StorageClass(es).
 *
 * Rules and sources: ./rules.ts, ./iam.ts, ./manifests.ts. The Kubernetes provider comes from `opts`.
 */
import * as aws from "@pulumi/aws";
import { STORAGE_CLASS_REPLACE_ON_CHANGES } from "../lib/kubernetes";
import * as command from "@pulumi/command";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import * as fs from "node:fs";
import * as path from "node:path";
import { nodeIngressRules } from "../fsx-ontap/node-ingress";
import { ONTAP_INGRESS } from "../fsx-ontap/security";
import { throwIfInvalid } from "../lib/args";
import { childOptions } from "../lib/child";
import { createNetworkPolicies } from "../lib/network-policy-resources";
import { RoleGuardrailArgs, roleGuardrailProblems, roleGuardrails } from "../lib/iam";
import { podIdentityTrustPolicy } from "../eks/iam";
import { TRIDENT_CHART } from "../versions";
import { tridentFsxPolicy, tridentFsxVolumePolicy, tridentSecretPolicy } from "./iam";
import { tridentNetworkPolicies } from "./network";
import {
  backendConfigHead,
  backendConfigManifest,
  backendName,
  OntapDriver,
  tridentChartValues,
  tridentNamespaceManifest,
  tridentStorageClassManifest,
} from "./manifests";
import {
  backendProblems,
  FsxBackendSpec,
  installProblems,
  resolveBackend,
  resolveInstall,
  TRIDENT_ADDON_NAME,
  TRIDENT_CONTROLLER_SERVICE_ACCOUNT,
  TRIDENT_NAMESPACE,
  TRIDENT_ORCHESTRATOR,
  TridentInstallSpec,
} from "./rules";

/** The script the readiness command runs (its one home). */
export const WAIT_INSTALLED_SCRIPT = path.join(__dirname, "scripts", "wait-installed.sh");

/** How long the readiness command waits for Trident, seconds. */
export const TRIDENT_WAIT_SECONDS = 1200;

export interface TridentOperatorArgs extends TridentInstallSpec, RoleGuardrailArgs {
  /** The EKS cluster (the role's name is `<cluster>-trident`; only its `trident-controller` may assume it). */
  readonly clusterName: pulumi.Input<string>;
  /** Kubeconfig of the cluster (content, secret), for the readiness wait's kubectl. */
  readonly kubeconfig: pulumi.Input<string>;
  /** The subnets the EKS nodes have addresses in: the node pods' source, the API server's endpoints (./network.ts). */
  readonly nodeSubnetCidrs: pulumi.Input<string[]>;
  /** The cluster's Service IPv4 range: the pods reach the API server at its first address. */
  readonly serviceIpv4Cidr: pulumi.Input<string>;
}

export class TridentOperator extends pulumi.ComponentResource {
  /** The role Trident's controller assumes (the fsx-eks stack adds the file system's volume and SVM secret permissions to it). */
  readonly roleName: pulumi.Output<string>;
  readonly roleArn: pulumi.Output<string>;
  readonly namespace: pulumi.Output<string>;
  readonly installMethod: pulumi.Output<string>;
  /** Trident's version: the chart's app version, or the add-on build. */
  readonly version: pulumi.Output<string>;
  /** The protocols Trident prepares the nodes for (the chart's `nodePrep`). */
  readonly nodePrep: pulumi.Output<string[]>;

  constructor(name: string, args: TridentOperatorArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:trident:TridentOperator", name, {}, opts);
    throwIfInvalid("lab:trident:TridentOperator", name, [...installProblems(args), ...roleGuardrailProblems(args)]);
    const r = resolveInstall(args);
    const parent = { parent: this };
    const child = childOptions(this, opts);

    const role = new aws.iam.Role(
      `${name}-controller`,
      {
        name: pulumi.interpolate`${args.clusterName}-trident`,
        description: "NetApp Trident controller (EKS Pod Identity: trident/trident-controller)",
        ...roleGuardrails(args),
        assumeRolePolicy: pulumi
          .output(args.clusterName)
          .apply((clusterName) =>
            JSON.stringify(
              podIdentityTrustPolicy({ clusterName, namespace: TRIDENT_NAMESPACE, serviceAccount: TRIDENT_CONTROLLER_SERVICE_ACCOUNT }),
            ),
          ),
      },
      parent,
    );
    const fsxPolicy = new aws.iam.RolePolicy(`${name}-fsx`, { role: role.name, policy: JSON.stringify(tridentFsxPolicy()) }, parent);
    // Before Trident's pods exist: EKS injects the credentials' environment when a pod starts. After
    // the component's own dependsOn (the Pod Identity agent), which everything below then follows.
    const after = pulumi.output(opts?.dependsOn ?? []).apply((d) => (Array.isArray(d) ? d : [d]));
    const association = new aws.eks.PodIdentityAssociation(
      `${name}-controller`,
      {
        clusterName: args.clusterName,
        namespace: TRIDENT_NAMESPACE,
        serviceAccount: TRIDENT_CONTROLLER_SERVICE_ACCOUNT,
        roleArn: role.arn,
      },
      { parent: this, dependsOn: after.apply((d) => [fsxPolicy, ...d]) },
    );

    let installed: pulumi.Resource;
    if (r.tridentInstall === "addon") {
      installed = new aws.eks.Addon(
        `${name}-addon`,
        {
          clusterName: args.clusterName,
          addonName: TRIDENT_ADDON_NAME,
          addonVersion: r.tridentAddonVersion,
          resolveConflictsOnCreate: "OVERWRITE",
          resolveConflictsOnUpdate: "OVERWRITE",
        },
        { parent: this, dependsOn: [association] },
      );
    } else {
      const ns = new k8s.core.v1.Namespace(`${name}-ns`, tridentNamespaceManifest() as k8s.core.v1.NamespaceArgs, child);
      // Default deny, DNS, the operator's and the controller's flows (./network.ts), before the operator starts.
      const policies = createNetworkPolicies(
        name,
        (cidrs, apiServerIp) => tridentNetworkPolicies(TRIDENT_NAMESPACE, cidrs, apiServerIp),
        args.nodeSubnetCidrs,
        args.serviceIpv4Cidr,
        { ...child, dependsOn: [ns] },
      );
      installed = new k8s.helm.v4.Chart(
        `${name}-chart`,
        {
          chart: TRIDENT_CHART.name,
          version: TRIDENT_CHART.version,
          repositoryOpts: { repo: TRIDENT_CHART.repo },
          namespace: TRIDENT_NAMESPACE,
          values: tridentChartValues(r.tridentNodePrep),
        },
        { ...child, dependsOn: [ns, association, ...policies] },
      );
    }

    new command.local.Command(
      `${name}-installed`,
      {
        create: fs.readFileSync(WAIT_INSTALLED_SCRIPT, "utf8"),
        interpreter: ["/bin/sh", "-c"],
        environment: {
          LAB_KUBECONFIG: pulumi.secret(args.kubeconfig),
          ORCHESTRATOR: TRIDENT_ORCHESTRATOR,
          TRIDENT_NAMESPACE,
          WAIT_TIMEOUT_SECONDS: String(TRIDENT_WAIT_SECONDS),
        },
        triggers: [r.tridentInstall, r.tridentAddonVersion ?? TRIDENT_CHART.version],
        logging: "stderr",
      },
      { parent: this, dependsOn: [installed] },
    );

    this.roleName = role.name;
    this.roleArn = role.arn;
    this.namespace = pulumi.output(TRIDENT_NAMESPACE);
    this.installMethod = pulumi.output(r.tridentInstall);
    this.version = pulumi.output(r.tridentInstall === "addon" ? (r.tridentAddonVersion as string) : TRIDENT_CHART.version);
    this.nodePrep = pulumi.output([...r.tridentNodePrep]);
    this.registerOutputs({
      roleName: this.roleName,
      roleArn: this.roleArn,
      namespace: this.namespace,
      installMethod: this.installMethod,
      version: this.version,
      nodePrep: this.nodePrep,
    });
  }
}

export interface TridentFsxBackendArgs extends FsxBackendSpec {
  /** The role of Trident's controller (the eks stack's `tridentRoleName`). */
  readonly tridentRoleName: pulumi.Input<string>;
  readonly fileSystemId: pulumi.Input<string>;
  /** The file system's ARN: Trident's volume-changing FSx actions are scoped to its volumes (iam.ts). */
  readonly fileSystemArn: pulumi.Input<string>;
  /** The SVM's id (`svm-…`), the one SVM Trident creates volumes on. */
  readonly svmId: pulumi.Input<string>;
  readonly svmName: pulumi.Input<string>;
  /** The SVM's `vsadmin` credentials secret (JSON username/password). */
  readonly credentialsSecretArn: pulumi.Input<string>;
  /** The KMS key that secret is encrypted with. */
  readonly kmsKeyArn: pulumi.Input<string>;
  /** AWS region of the file system (the FSx API Trident calls). */
  readonly region: string;
  /** The SVM's NFS endpoint address (`dataLIF` of the NAS backend). */
  readonly nfsDataLif: pulumi.Input<string>;
  /** Where the nodes' addresses are (the VPC CIDR): Trident's export policy admits nodes in them only. */
  readonly exportCidrs: pulumi.Input<string[]>;
  /** The nodes' security group (the EKS cluster security group). */
  readonly nodeSecurityGroupId: pulumi.Input<string>;
  /** The file system's security group. */
  readonly fsxSecurityGroupId: pulumi.Input<string>;
}

/**
 * The FSx security group's port rules the nodes need: NFS, iSCSI with the SAN backend, and HTTPS
 * to the SVM's management endpoint, which the Trident controller (a pod, so the node's security
 * group with the VPC CNI) calls: "TCP 443, Outbound, HTTPS to ONTAP SVM/cluster mgmt LIF, ONTAP (all)"
 * (NetApp Trident docs, "Trident ports", docs.netapp.com/us-en/trident/trident-reference/ports.html).
 * The file system's own group opens nothing to the VPC (components/fsx-ontap/security.ts).
 */
export function nodePortRules(sanBackend: boolean) {
  return ONTAP_INGRESS.filter((p) => p.id.startsWith("nfs-") || p.id === "https-tcp-443" || (sanBackend && p.id.startsWith("iscsi-")));
}

export class TridentFsxBackend extends pulumi.ComponentResource {
  /** StorageClass names, NAS first. */
  readonly storageClassNames: pulumi.Output<string[]>;
  /** Trident backend names, NAS first. */
  readonly backendNames: pulumi.Output<string[]>;
  /** The StorageClass of the NAS backend. */
  readonly nasStorageClassName: pulumi.Output<string>;
  /** Resources that must exist before a PVC of these classes (the StorageClasses and backends). */
  readonly ready: pulumi.Resource[];

  constructor(name: string, args: TridentFsxBackendArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:trident:TridentFsxBackend", name, {}, opts);
    throwIfInvalid("lab:trident:TridentFsxBackend", name, backendProblems(args));
    const r = resolveBackend(args);
    const parent = { parent: this };
    const child = childOptions(this, opts);
    const drivers: OntapDriver[] = r.sanBackend ? ["ontap-nas", "ontap-san"] : ["ontap-nas"];

    const secretPolicy = new aws.iam.RolePolicy(
      `${name}-svm-secret`,
      {
        role: args.tridentRoleName,
        policy: pulumi
          .all([args.credentialsSecretArn, args.kmsKeyArn])
          .apply(([secretArn, keyArn]) => JSON.stringify(tridentSecretPolicy(secretArn, keyArn, args.region))),
      },
      parent,
    );

    const volumePolicy = new aws.iam.RolePolicy(
      `${name}-fsx-volumes`,
      {
        role: args.tridentRoleName,
        policy: pulumi
          .all([args.fileSystemArn, args.svmId])
          .apply(([fileSystemArn, svmId]) => JSON.stringify(tridentFsxVolumePolicy(fileSystemArn, svmId))),
      },
      parent,
    );

    const rules = nodeIngressRules(
      name,
      nodePortRules(r.sanBackend),
      args,
      (p) => (p.id === "https-tcp-443" ? "Trident's ONTAP API calls" : `Trident ${p.id.startsWith("iscsi-") ? "ontap-san" : "ontap-nas"}`),
      this,
    );

    const ready: pulumi.Resource[] = [];
    for (const driver of drivers) {
      const spec = pulumi
        .all([args.fileSystemId, args.svmName, args.credentialsSecretArn, args.nfsDataLif, args.exportCidrs])
        .apply(
          ([fileSystemId, svmName, credentialsSecretArn, nfsDataLif, exportCidrs]) =>
            backendConfigManifest(driver, { fileSystemId, svmName, credentialsSecretArn, region: args.region, nfsDataLif, exportCidrs })
              .spec,
        );
      const backend = new k8s.apiextensions.CustomResource(
        `${name}-${driver}`,
        { ...backendConfigHead(driver), spec },
        { ...child, dependsOn: [secretPolicy, volumePolicy, ...rules] },
      );
      const sc = new k8s.storage.v1.StorageClass(
        `${name}-${driver}-class`,
        tridentStorageClassManifest(driver, r.reclaimPolicy) as k8s.storage.v1.StorageClassArgs,
        { ...child, dependsOn: [backend], replaceOnChanges: [...STORAGE_CLASS_REPLACE_ON_CHANGES] },
      );
      ready.push(backend, sc);
    }

    this.ready = ready;
    this.storageClassNames = pulumi.output(drivers.map(backendName));
    this.backendNames = pulumi.output(drivers.map(backendName));
    this.nasStorageClassName = pulumi.output(backendName("ontap-nas"));
    this.registerOutputs({
      storageClassNames: this.storageClassNames,
      backendNames: this.backendNames,
      nasStorageClassName: this.nasStorageClassName,
    });
  }
}
