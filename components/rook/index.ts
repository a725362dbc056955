/**
 * `lab:rook:Rook`: Rook-Ceph RBD block storage on a Kubernetes cluster (here k0s).
 *
 * - the `rook-ceph` operator chart (https://charts.rook.io/release, pinned in versions.ts to the
 *   CRDs in ../shared/schemas) as a Helm v3 Release, which installs the CRDs and waits for them;
 * - the `ceph-csi-drivers` chart Rook v1.20 needs for its CSI drivers, with k0s' kubelet directory;
 * - an explicit CephCluster (readiness: `pulumi.com/waitFor` on `.status.ceph.health` = HEALTH_OK,
 *   never a sleep), CephBlockPool (replicated 3, failure domain host, waits for phase Ready) and the
 *   `rook-ceph-block` StorageClass.
 * The Kubernetes provider comes from `opts` (the caller builds it from the cluster's kubeconfig).
 * `opts.deletedWith` is passed to every child: objects inside a cluster that is being destroyed are
 * not deleted one by one (a CephCluster with finalizers would otherwise hold the destroy up).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { CEPH_CSI_DRIVERS_CHART, ROOK_CHART } from "../versions";
import { childOptions } from "../lib/child";
import {
  cephBlockPoolManifest,
  cephClusterManifest,
  cephCsiDriversValues,
  rookOperatorValues,
  ROOK_NAMESPACE,
  storageClassManifest,
} from "./manifests";

export interface RookArgs {
  /** Ceph image of the cluster's daemons. @default CEPH_IMAGE of components/versions.ts */
  readonly cephImage?: string;
  /** Ceph monitors. @default 3 */
  readonly monCount?: number;
  /** Ceph managers. @default 2 */
  readonly mgrCount?: number;
  /** Replicas of the RBD pool, each on another host (at most the number of nodes with an OSD). @default 3 */
  readonly replicas?: number;
  /** Longest wait for the cluster to reach HEALTH_OK, minutes. @default 40 */
  readonly healthTimeoutMinutes?: number;
}

export class Rook extends pulumi.ComponentResource {
  /** The StorageClass of RBD volumes (`rook-ceph-block`). */
  readonly storageClassName: pulumi.Output<string>;
  /** The namespace of the operator and the cluster. */
  readonly namespace: pulumi.Output<string>;
  /** The Ceph image the cluster runs. */
  readonly cephImage: pulumi.Output<string>;

  constructor(name: string, args: RookArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    super("lab:rook:Rook", name, {}, opts);
    const child = childOptions(this, opts);
    const cluster = cephClusterManifest({ cephImage: args.cephImage, monCount: args.monCount, mgrCount: args.mgrCount });
    const timeout = `${args.healthTimeoutMinutes ?? 40}m`;

    const ns = new k8s.core.v1.Namespace(`${name}-ns`, { metadata: { name: ROOK_NAMESPACE } }, child);
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
      child,
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
      cephBlockPoolManifest(args.replicas ?? 3) as unknown as k8s.apiextensions.CustomResourceArgs,
      { ...child, dependsOn: [cephCluster] },
    );
    const sc = new k8s.storage.v1.StorageClass(`${name}-block`, storageClassManifest() as unknown as k8s.storage.v1.StorageClassArgs, {
      ...child,
      dependsOn: [pool, drivers],
    });

    this.storageClassName = sc.metadata.name;
    this.namespace = ns.metadata.name;
    this.cephImage = pulumi.output((cluster.spec as { cephVersion: { image: string } }).cephVersion.image);
    this.registerOutputs({ storageClassName: this.storageClassName, namespace: this.namespace, cephImage: this.cephImage });
  }
}
