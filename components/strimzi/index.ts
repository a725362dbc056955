/**
 * `lab:strimzi:StrimziOperator`: the Strimzi cluster operator, from its Helm chart pinned in
 * components/versions.ts (`STRIMZI_CHART`: oci://quay.io/strimzi-helm/strimzi-kafka-operator 1.2.0),
 * in a namespace of its own, and the namespaces it watches (created first: the chart binds the
 * operator's role in each), all enforcing the restricted Pod Security Standard (the chart's operator
 * pod meets it: its default `securityContext` "matches the Restricted Kubernetes Pod Security
 * Standard", values.yaml; the Kafka pods by the restricted provider, rules.ts). The chart installs Strimzi's CRDs (`kafka.strimzi.io/v1`) before anything
 * else; a Kafka custom resource must depend on {@link StrimziOperator.ready}. The Kubernetes provider
 * comes from `opts`. Its namespace gets default-deny NetworkPolicies with DNS and the operator's own
 * egress (API server, the watched Kafka pods), and the operator names that namespace in the policies
 * it generates (./network.ts). Rules and sources: ./rules.ts, ./manifests.ts, ./network.ts.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { throwIfInvalid } from "../lib/args";
import { childOptions } from "../lib/child";
import { createNetworkPolicies } from "../lib/network-policy-resources";
import { STRIMZI_CHART } from "../versions";
import { podSecurityNamespaceManifest, strimziChartValues } from "./manifests";
import { strimziNetworkPolicies } from "./network";
import { problems, resolve, StrimziSpec } from "./rules";

export interface StrimziOperatorArgs extends StrimziSpec {
  /** The subnets the EKS nodes have addresses in: where the API server's endpoints are (./network.ts). */
  readonly nodeSubnetCidrs: pulumi.Input<string[]>;
  /** The cluster's Service IPv4 range: the operator reaches the API server at its first address. */
  readonly serviceIpv4Cidr: pulumi.Input<string>;
}

export class StrimziOperator extends pulumi.ComponentResource {
  readonly namespace: pulumi.Output<string>;
  /** The chart's version (Strimzi's release). */
  readonly version: pulumi.Output<string>;
  /** What a Kafka custom resource waits for: the chart (its CRDs and the operator's Deployment) and the watched namespaces. */
  readonly ready: pulumi.Resource[];

  constructor(name: string, args: StrimziOperatorArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:strimzi:StrimziOperator", name, {}, opts);
    throwIfInvalid("lab:strimzi:StrimziOperator", name, problems(args));
    const r = resolve(args);
    const child = childOptions(this, opts);

    const ns = new k8s.core.v1.Namespace(
      `${name}-ns`,
      podSecurityNamespaceManifest(r.namespace, "restricted") as k8s.core.v1.NamespaceArgs,
      child,
    );
    const watched = r.watchNamespaces
      .filter((w) => w !== r.namespace)
      .map(
        (w) =>
          new k8s.core.v1.Namespace(
            `${name}-watch-${w}`,
            podSecurityNamespaceManifest(w, "restricted") as k8s.core.v1.NamespaceArgs,
            child,
          ),
      );
    // Default deny, DNS, and the operator's egress (./network.ts), before the operator starts.
    const policies = createNetworkPolicies(
      name,
      (cidrs, apiServerIp) => strimziNetworkPolicies(r.namespace, r.watchNamespaces, cidrs, apiServerIp),
      args.nodeSubnetCidrs,
      args.serviceIpv4Cidr,
      { ...child, dependsOn: [ns] },
    );
    const chart = new k8s.helm.v4.Chart(
      `${name}-chart`,
      { chart: STRIMZI_CHART.chart, version: STRIMZI_CHART.version, namespace: r.namespace, values: strimziChartValues(r) },
      { ...child, dependsOn: [ns, ...watched, ...policies] },
    );

    this.ready = [chart, ...watched];
    this.namespace = pulumi.output(r.namespace);
    this.version = pulumi.output(STRIMZI_CHART.version);
    this.registerOutputs({ namespace: this.namespace, version: this.version });
  }
}
