/**
 * What the utilization manifest (lab/utilization/manifest.ts, `lab results save`, `lab run`) may
 * read in an eks cluster: one ServiceAccount, `list` on exactly the four cluster-scoped resources
 * the manifest reads (`CLUSTER_LISTS` there: the volumes PVCs created, the StorageClasses that made
 * them, their attachments, the nodes). Nothing namespaced, no `get`, no `watch`: the manifest makes
 * four LIST requests and nothing else (test/lab/utilization/access.test.ts reads them from the
 * source and checks that every rule is used).
 *
 * Pure: the eks stack renders it (components/lib/rbac.ts `accessManifests`) and exports
 * `utilizationAccess` (the ServiceAccount's name and namespace); the lab asks the API server, with
 * the stack's admin kubeconfig, for a 10-minute token of it (one TokenRequest) and makes the four
 * reads with that token.
 *
 * What it still allows, stated: a node's object carries its addresses, labels and capacity, and a
 * PersistentVolume names its backing volume (the EBS volume id, the NFS export): the inventory of the
 * cluster's storage and machines, no Secret and nothing inside a volume.
 */
import type { AccessGrant } from "../../components/lib/rbac";

/** The ServiceAccount's name (and the ClusterRole's and binding's). */
export const UTILIZATION_SERVICE_ACCOUNT = "lab-utilization";

/**
 * Its namespace: `kube-system`, which every cluster has (the eks kind creates no namespace of its own;
 * the account runs no pod, it only has tokens requested for it, by the admin).
 */
export const UTILIZATION_NAMESPACE = "kube-system";

export const utilizationGrant: AccessGrant = {
  name: UTILIZATION_SERVICE_ACCOUNT,
  namespace: UTILIZATION_NAMESPACE,
  namespaced: {},
  cluster: [
    { apiGroups: [""], resources: ["persistentvolumes", "nodes"], verbs: ["list"] },
    { apiGroups: ["storage.k8s.io"], resources: ["storageclasses", "volumeattachments"], verbs: ["list"] },
  ],
};
