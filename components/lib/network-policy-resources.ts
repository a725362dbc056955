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
