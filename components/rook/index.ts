/**
 * `lab:rook:Rook`: Rook-Ceph RBD block storage on a Kubernetes cluster (here k0s).
 *
 * - the `rook-ceph` operator chart (https://charts.rook.io/release, pinned in versions.ts to the
 *   CRDs in ../shared/schemas) as a Helm v3 Release, which installs the CRDs and waits for them;
 * - the `ceph-csi-drivers` chart Rook v1.20 needs for its CSI drivers, with k0s' kubelet directory;
 * - an explicit CephCluster (readiness: `pulumi.com/waitFor` on HEALTH_OK and every OSD up, never a
 *   sleep; the AES cephx warnings muted: manifests.ts, rules.ts), CephBlockPool (replicated,
 *   failure domain host, waits for phase Ready) and the `rook-ceph-block` StorageClass.
 * Before the operator: the namespace's default-deny NetworkPolicies and the flows Rook and Ceph need
 * (./network.ts), from the cluster's addresses (`clusterNetwork`).
 * The Kubernetes provider comes from `opts` (the caller builds it from the cluster's kubeconfig).
 * `opts.deletedWith` is passed to every child: objects inside a cluster that is being destroyed are
 * not deleted one by one (a CephCluster with finalizers would otherwise hold the destroy up).
 */
import * as k8s from "@pulumi/kubernetes";
import { STORAGE_CLASS_REPLACE_ON_CHANGES } from "../lib/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CEPH_CSI_DRIVERS_CHART, ROOK_CHART } from "../versions";
import { childOptions } from "../lib/child";
import { throwIfInvalid } from "../lib/args";
import { createNetworkPoliciesOf } from "../lib/network-policy-resources";
import {
  cephBlockPoolManifest,
  cephClusterManifest,
  cephCsiDriversValues,
  rookOperatorValues,
  ROOK_NAMESPACE,
  ROOK_NAMESPACE_LABELS,
  storageClassManifest,
} from "./manifests";
import { RookClusterNetwork, rookNetworkPolicies } from "./network";
import { problems, resolve, RookArgs } from "./rules";

export { ROOK_DEFAULTS } from "./rules";
export type { RookArgs } from "./rules";
export type { RookClusterNetwork } from "./network";

/** The component's arguments: Rook's (plain), and the cluster's addresses its NetworkPolicies name. */
export interface RookComponentArgs extends RookArgs {
  /** The Ceph nodes, where host-network clients send from, and the API server (./network.ts). */
  readonly clusterNetwork: pulumi.Input<RookClusterNetwork>;
}

export class Rook extends pulumi.ComponentResource {
  /** The StorageClass of RBD volumes (`rook-ceph-block`). */
  readonly storageClassName: pulumi.Output<string>;
  /** The namespace of the operator and the cluster. */
  readonly namespace: pulumi.Output<string>;
  /** The Ceph image the cluster runs. */
  readonly cephImage: pulumi.Output<string>;

  constructor(name: string, args: RookComponentArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:rook:Rook", name, {}, opts);
    throwIfInvalid("lab:rook:Rook", name, problems(args));
    const r = resolve(args);
    const child = childOptions(this, opts);
    const cluster = cephClusterManifest(r);
    const timeout = `${r.healthTimeoutMinutes}m`;

    // Rook's OSDs and the Ceph-CSI node plugin need privileged pods and host paths: the namespace
    // says so with the Pod Security label (Rook docs, Getting-Started/Prerequisites/pod-security-policies).
    const ns = new k8s.core.v1.Namespace(`${name}-ns`, { metadata: { name: ROOK_NAMESPACE, labels: { ...ROOK_NAMESPACE_LABELS } } }, child);
    // Default deny and exactly Rook's and Ceph's flows (./network.ts), before the operator starts.
    const policies = createNetworkPoliciesOf(
      name,
      (net: RookClusterNetwork) => rookNetworkPolicies(ROOK_NAMESPACE, net, r.hostNetwork),
      args.clusterNetwork,
      { cephNodeCidrs: [], hostSourceCidrs: [], apiServer: [] },
      { cephNodeCidrs: ["192.0.2.1/32"], hostSourceCidrs: ["192.0.2.2/32"], apiServer: [{ cidr: "192.0.2.3/32", port: 1 }] },
      { ...child, dependsOn: [ns] },
    );
    const operator = new k8s.helm.v3.Release(
      `${name}-operator`,
      {
        name: "rook-ceph",
        chart: ROOK_CHART.name,
        version: ROOK_CHART.version,
        repositoryOpts: { repo: ROOK_CHART.repo },
        namespace: ns.metadata.name,
        values: rookOperatorValues(),
        timeout: 900,
      },
      { ...child, dependsOn: policies },
    );
    const drivers = new k8s.helm.v3.Release(
      `${name}-csi-drivers`,
      {
        name: "ceph-csi-drivers",
        chart: CEPH_CSI_DRIVERS_CHART.name,
        version: CEPH_CSI_DRIVERS_CHART.version,
        repositoryOpts: { repo: CEPH_CSI_DRIVERS_CHART.repo },
        namespace: ns.metadata.name,
        values: cephCsiDriversValues(),
        timeout: 900,
      },
      { ...child, dependsOn: [operator] },
    );
    const cephCluster = new k8s.apiextensions.CustomResource(
      `${name}-cluster`,
      cluster as unknown as k8s.apiextensions.CustomResourceArgs,
      { ...child, dependsOn: [operator, drivers], customTimeouts: { create: timeout, update: timeout } },
    );
    const pool = new k8s.apiextensions.CustomResource(
      `${name}-pool`,
      cephBlockPoolManifest(r.replicas) as unknown as k8s.apiextensions.CustomResourceArgs,
      { ...child, dependsOn: [cephCluster] },
    );
    const sc = new k8s.storage.v1.StorageClass(`${name}-block`, storageClassManifest() as unknown as k8s.storage.v1.StorageClassArgs, {
      ...child,
      dependsOn: [pool, drivers],
      replaceOnChanges: [...STORAGE_CLASS_REPLACE_ON_CHANGES],
    });

    this.storageClassName = sc.metadata.name;
    this.namespace = ns.metadata.name;
    this.cephImage = pulumi.output(r.cephImage);
    this.registerOutputs({ storageClassName: this.storageClassName, namespace: this.namespace, cephImage: this.cephImage });
  }
}
