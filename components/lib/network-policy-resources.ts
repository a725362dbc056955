/**
 * A namespace's NetworkPolicies as resources, when their rules need the cluster's addresses from
 * upstream (the node subnets, the API server's Service address): the number and names are fixed by
 * a render with placeholders, each policy's spec comes from the render with the real values.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { kubernetesServiceIp } from "./network-policy";

/** `<prefix>-policy-<name>` for each policy `render` gives, with the node subnets and the `kubernetes` Service's address. */
export function createNetworkPolicies(
  prefix: string,
  render: (nodeCidrs: readonly string[], apiServerIp: string) => INetworkPolicy[],
  nodeSubnetCidrs: pulumi.Input<string[]>,
  serviceIpv4Cidr: pulumi.Input<string>,
  opts: pulumi.CustomResourceOptions,
): k8s.networking.v1.NetworkPolicy[] {
  return render([], "0.0.0.0").map(
    (p, i) =>
      new k8s.networking.v1.NetworkPolicy(
        `${prefix}-policy-${p.metadata?.name}`,
        pulumi
          .all([nodeSubnetCidrs, serviceIpv4Cidr])
          .apply(([cidrs, services]) => render(cidrs, kubernetesServiceIp(services))[i]) as k8s.networking.v1.NetworkPolicyArgs,
        opts,
      ),
  );
}

/**
 * `<prefix>-policy-<name>` for each policy `render` gives with `values` (known at deploy); the number,
 * names and metadata come from `render(placeholder)`, which must give the same names in the same
 * order, and only a spec that names the values waits for them: a policy whose spec is the same
 * rendered with `placeholder` and with `probe` (two different values) is created with that spec as
 * it is. So a preview where the values are unknown (a node being added or replaced) plans the
 * policies that name them updated in place and leaves the others alone, never replaced (a replaced
 * named object is deleted first, and with it the flows it allows, while the default deny stays).
 */
export function createNetworkPoliciesOf<T>(
  prefix: string,
  render: (values: T) => INetworkPolicy[],
  values: pulumi.Input<T>,
  placeholder: T,
  probe: T,
  opts: pulumi.CustomResourceOptions,
): k8s.networking.v1.NetworkPolicy[] {
  const probed = render(probe);
  return render(placeholder).map((p, i) => {
    const fixed = JSON.stringify(p.spec) === JSON.stringify(probed[i]?.spec);
    return new k8s.networking.v1.NetworkPolicy(
      `${prefix}-policy-${p.metadata?.name}`,
      {
        apiVersion: p.apiVersion,
        kind: p.kind,
        metadata: p.metadata,
        spec: fixed ? p.spec : pulumi.output(values).apply((v) => render(v as T)[i].spec),
      } as k8s.networking.v1.NetworkPolicyArgs,
      opts,
    );
  });
}
