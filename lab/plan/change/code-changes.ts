/**
 * Changes of the lab's code (not of a stack's config) that act on a live stack at its next `up`:
 * `lab plan --change` plans config changes only, so each is stated here, with its source, and
 * rendered at the end of docs/changing-a-live-stack.md (./table.ts). Pure data.
 */
export interface CodeChange {
  /** The stack kind it acts on. */
  readonly kind: string;
  /** What changed in the code. */
  readonly change: string;
  /** What the next `up` of a stack deployed before does. */
  readonly effect: string;
  /** Where the behaviour comes from. */
  readonly source: string;
}

export const CODE_CHANGES: readonly CodeChange[] = [
  {
    kind: "eks",
    change: "no IAM OIDC provider (`createOidcProvider: false`); output `oidcProviderArn` dropped",
    effect:
      "deletes the cluster's `aws.iam.OpenIdConnectProvider` (`<cluster>-cluster-oidcProvider`); nothing else changes. Nothing in the lab assumed a role through it (IRSA): Trident and the EBS CSI driver use EKS Pod Identity, the VPC CNI the node role. The deploy policy keeps `iam:GetOpenIDConnectProvider` and `iam:DeleteOpenIDConnectProvider` for this deletion",
    source: "pulumi/pulumi-eks v4.3.0 nodejs/eks/cluster/cluster.ts: the provider is created only `if (args.createOidcProvider)`",
  },
  {
    kind: "fsx-eks",
    change: "output `mysqlRootPassword` dropped; the experiments' ServiceAccounts, Roles and ClusterRoles added",
    effect:
      "creates `lab-mysql-failover` (namespace mysql) and `lab-fsx-failover` (namespace bench) with their Roles, ClusterRoles and bindings; the output disappears (the password stays in the Secret `mysql-root`). `lab experiment` needs them: run it only after this `up`",
    source: "stacks/fsx-eks/experiment-access.ts",
  },
];
