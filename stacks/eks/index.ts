/**
 * Stack kind `eks`: an EKS cluster over the network stack's private subnets of both zones
 * (`lab:networkStack`), with one node group or several (`lab:nodeGroups`: labelled, dedicated ones
 * tainted) and, unless `lab:trident` is false, Trident installed and able to reach the FSx API (EKS
 * Pod Identity). It reads the network stack only, so it deploys in parallel with `fsx-ontap`; the
 * `fsx-eks` stack (Trident backend, storage classes, MySQL, benchmarks) or the `kafka` stack (Strimzi
 * on static NFS volumes, OMB) joins them. Shipped as `fsx-eks-cluster` and `kafka-cluster`.
 *
 * It also builds the images those stacks run (`lab:images`: `tools`, `omb`; ./images.ts), beside
 * the cluster, and exports their references as `images`: an image needs no cluster and no file
 * system, so it is built while the cluster (and, in parallel, the file system) is created.
 */
import * as aws from "@pulumi/aws";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { EksCluster } from "../../components/eks";
import { instanceTypeOfferingProblems, nodeGroupZoneProblems, resolve } from "../../components/eks/rules";
import { accessManifests } from "../../components/lib/rbac";
import { argProblem } from "../../core/errors";
import { TridentOperator } from "../../components/trident";
import { parseConfig } from "../lib/config/load";
import { labAwsProvider, StackIdentity } from "../lib/context";
import { readNetwork } from "../network/outputs";
import { checkEks, eksArgs, EksConfig, eksSchema, imagesOf, installsTrident, tridentArgs } from "./config";
import { buildImages, requireDocker } from "./images";
import { whenUpstreamsFit } from "../lib/upstream";
import { utilizationGrant } from "./utilization-access";

export function eksStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("eks", eksSchema, raw, (c) => checkEks(c, id.stack));
  // Only an update builds the images (./images.ts): look for the Docker daemon then, before any resource.
  if (!pulumi.runtime.isDryRun()) requireDocker(imagesOf(cfg));
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = readNetwork(cfg.networkStack);
  // Every output it reads checked before any resource (stacks/lib/upstream.ts).
  return whenUpstreamsFit(
    { net },
    // the node groups' zones among the network's (a zone the network lacks: a config error, not a throw in an apply),
    // then each group's instance type offered in its zones (EC2 DescribeInstanceTypeOfferings, a read: before any resource)
    async ({ net: n }) => {
      if (!n) return [];
      // "The subnets must be in at least two different Availability Zones" (awsdocs/amazon-eks-user-guide
      // 4d52b4d0 latest/ug/networking/network-reqs.adoc:78): CreateCluster refuses one zone's subnets.
      if (n.azs.length < 2)
        return [
          argProblem(
            "networkStack",
            `a network stack over at least two zones: EKS needs its subnets in two Availability Zones (${n.azs.length} zone: ${n.azs.join(", ")})`,
            cfg.networkStack,
          ),
        ];
      const groups = resolve(eksArgs(cfg, id.stack)).nodeGroups;
      const zoneProblems = nodeGroupZoneProblems(groups, n.privateSubnetIds, n.azs, cfg.networkStack);
      if (zoneProblems.length > 0) return zoneProblems;
      const offerings = await aws.ec2.getInstanceTypeOfferings(
        {
          locationType: "availability-zone",
          filters: [
            { name: "instance-type", values: [...new Set(groups.map((g) => g.instanceType))] },
            { name: "location", values: [...n.azs] },
          ],
        },
        { provider },
      );
      // A first preview whose provider configuration is unknown answers {}: nothing to check against then.
      if (!Array.isArray(offerings.instanceTypes) || !Array.isArray(offerings.locations)) return [];
      return instanceTypeOfferingProblems(groups, n.azs, offerings, cfg.nodeGroups !== undefined);
    },
    () => build(cfg, id, provider, expiresAt, net),
  );
}

function build(
  cfg: EksConfig,
  id: StackIdentity,
  provider: ReturnType<typeof labAwsProvider>["provider"],
  expiresAt: pulumi.Output<string>,
  net: ReturnType<typeof readNetwork>,
) {
  const eks = new EksCluster(
    "eks",
    { ...eksArgs(cfg, id.stack), vpcId: net.vpcId, privateSubnetIds: net.privateSubnetIds, zones: net.azs },
    { provider },
  );
  // After the node add-ons: Trident's pods need the Pod Identity agent at start.
  // Same cluster, same provider: a cluster updated in place replaces nothing in it (EksCluster.clusterIdentifier).
  const cluster = new k8s.Provider(
    "eks",
    { kubeconfig: eks.kubeconfig, clusterIdentifier: eks.clusterIdentifier },
    { dependsOn: eks.nodeAddons },
  );
  // The chart (and the readiness wait) talk to the cluster; the add-on goes through the EKS API.
  const trident = installsTrident(cfg)
    ? new TridentOperator(
        "trident",
        {
          ...tridentArgs(cfg),
          clusterName: eks.clusterName,
          kubeconfig: eks.kubeconfig,
          // The nodes are in the private subnets (eksArgs): the node pods' addresses, the API server's endpoints.
          nodeSubnetCidrs: net.privateSubnetCidrs,
          serviceIpv4Cidr: eks.serviceIpv4Cidr,
        },
        { providers: [provider, cluster], dependsOn: eks.nodeAddons },
      )
    : undefined;
  // The utilization manifest's own identity (./utilization-access.ts): `lab results save` asks for a
  // short-lived token of it and lists the cluster's volumes and nodes with it, never as admin.
  const access = accessManifests(utilizationGrant);
  const inCluster = { provider: cluster };
  const accessSa = new k8s.core.v1.ServiceAccount("utilization-sa", access.serviceAccount as k8s.core.v1.ServiceAccountArgs, inCluster);
  const accessRole = new k8s.rbac.v1.ClusterRole("utilization-clusterrole", access.clusterRole as k8s.rbac.v1.ClusterRoleArgs, inCluster);
  new k8s.rbac.v1.ClusterRoleBinding("utilization-clusterbinding", access.clusterRoleBinding as k8s.rbac.v1.ClusterRoleBindingArgs, {
    ...inCluster,
    dependsOn: [accessSa, accessRole],
  });
  // Beside the cluster: the images depend on nothing in it.
  const images = buildImages(imagesOf(cfg), id.stack, provider);

  return {
    kubeconfig: eks.kubeconfig,
    clusterName: eks.clusterName,
    kubernetesVersion: eks.kubernetesVersion,
    nodeSecurityGroupId: eks.nodeSecurityGroupId,
    clusterSecurityGroupId: eks.clusterSecurityGroupId,
    serviceIpv4Cidr: eks.serviceIpv4Cidr,
    zones: eks.zones,
    instanceType: eks.instanceType,
    nodeGroups: eks.nodeGroups,
    networkPolicyEnforced: eks.networkPolicyEnforced,
    ...(trident === undefined
      ? {}
      : {
          tridentRoleName: trident.roleName,
          tridentInstall: trident.installMethod,
          tridentVersion: trident.version,
          tridentNodePrep: trident.nodePrep,
        }),
    images: pulumi.output(images),
    // The utilization manifest's ServiceAccount (lab/utilization/manifest.ts requests its token).
    utilizationAccess: { namespace: utilizationGrant.namespace, serviceAccount: utilizationGrant.name },
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
