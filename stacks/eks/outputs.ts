/** The eks stack's outputs, as downstream kinds read them (`lab:eksStack`: fsx-eks, kafka). */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isPinnedImage, PINNED_IMAGE_RULE } from "../../core/images";
import { readUpstream } from "../lib/upstream";

const text = z.string().min(1);
const pinnedImage = z.string().refine((v) => isPinnedImage(v), PINNED_IMAGE_RULE);

/** Output schemas of the `eks` kind (stacks/eks/index.ts exports them). */
export const eksOutputs = {
  /** Kubeconfig (JSON; `aws eks get-token`), secret. */
  kubeconfig: text,
  clusterName: text,
  kubernetesVersion: z.string().regex(/^1\.\d+$/),
  /** The nodes' security group (the EKS cluster security group). */
  nodeSecurityGroupId: z.string().regex(/^sg-[0-9a-f]{8,17}$/),
  clusterSecurityGroupId: z.string().regex(/^sg-[0-9a-f]{8,17}$/),
  /** The cluster's Service IPv4 range; the `kubernetes` Service (the API server) has its first address. */
  serviceIpv4Cidr: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/),
  /** The zones the nodes run in, in the network's order. */
  zones: z.array(text).min(2),
  /** The first node group's instance type (the only one's, without `lab:nodeGroups`). */
  instanceType: text,
  /** Every node group: its nodes' labels (to select them) and taints (to tolerate them). */
  nodeGroups: z
    .array(
      z.object({
        name: text,
        instanceType: text,
        nodeCount: z.number().int().positive(),
        labels: z.record(z.string(), z.string()),
        taints: z.array(z.object({ key: text, value: z.string(), effect: z.literal("NoSchedule") })),
        /** The zones its nodes run in: its `zone`, or every zone of the network. */
        zones: z.array(text).min(1),
      }),
    )
    .min(1),
  /**
   * Whether the VPC CNI enforces NetworkPolicies (components/eks `NETWORK_POLICY_ENFORCED`).
   * Optional: an eks stack deployed before this output existed has none; readers record "unknown".
   */
  networkPolicyEnforced: z.boolean().optional(),
  /** The IAM role Trident's controller assumes (EKS Pod Identity); absent with `lab:trident: false`. */
  tridentRoleName: text,
  /** How Trident was installed (helm or addon) and its version. */
  tridentInstall: z.enum(["helm", "addon"]),
  tridentVersion: text,
  /** The protocols Trident prepares the nodes for (`lab:tridentNodePrep`): fsx-eks' SAN backend needs `iscsi`. */
  tridentNodePrep: z.array(text),
  /**
   * The images the stack built (`lab:images`), by name: `<repository url>:<tag>@sha256:<digest>`.
   * Optional: an eks stack deployed before this output existed has none, and a reader that needs an
   * image it lacks says which key gives one (fsx-eks `lab:toolsImage`, kafka `lab:ombImage`).
   */
  images: z.object({ tools: pinnedImage.optional(), omb: pinnedImage.optional() }).optional(),
  /**
   * The ServiceAccount the utilization manifest reads the cluster as (./utilization-access.ts;
   * lab/utilization/manifest.ts requests a short-lived token of it). Optional: an eks stack
   * deployed before this output existed has none, and the manifest then does not list its cluster.
   */
  utilizationAccess: z.object({ namespace: text, serviceAccount: text }).optional(),
};

export type EksOutputName = keyof typeof eksOutputs;

/** Reads the named outputs of the eks stack named by `lab:eksStack`. */
export function readEks<K extends EksOutputName>(eksStack: string, names: readonly K[], opts?: pulumi.CustomResourceOptions) {
  const picked = Object.fromEntries(names.map((n) => [n, eksOutputs[n]])) as Pick<typeof eksOutputs, K>;
  return readUpstream("lab:eksStack", eksStack, picked, opts);
}
