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
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { EksCluster } from "../../components/eks";
import { TridentOperator } from "../../components/trident";
import { parseConfig } from "../lib/config/load";
import { labAwsProvider, StackIdentity } from "../lib/context";
import { readNetwork } from "../network/outputs";
import { checkEks, eksArgs, EksConfig, eksSchema, imagesOf, installsTrident, tridentArgs } from "./config";
import { buildImages, requireDocker } from "./images";
import { whenUpstreamsFit } from "../lib/upstream";

export function eksStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("eks", eksSchema, raw, (c) => checkEks(c, id.stack));
  // Only an update builds the images (./images.ts): look for the Docker daemon then, before any resource.
  if (!pulumi.runtime.isDryRun()) requireDocker(imagesOf(cfg));
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = readNetwork(cfg.networkStack);
  // Every output it reads checked before any resource (stacks/lib/upstream.ts).
  return whenUpstreamsFit(
    { net },
    () => [],
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
  // The chart (and the readiness wait) talk to the cluster; the add-on goes through the EKS API.
  const trident = installsTrident(cfg)
    ? new TridentOperator(
        "trident",
        { ...tridentArgs(cfg), clusterName: eks.clusterName, kubeconfig: eks.kubeconfig },
        // After the Pod Identity agent (and the other node add-ons): Trident's pods need it at start.
        {
          providers: [provider, new k8s.Provider("eks", { kubeconfig: eks.kubeconfig }, { dependsOn: eks.nodeAddons })],
          dependsOn: eks.nodeAddons,
        },
      )
    : undefined;
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
    ...(trident === undefined
      ? {}
      : {
          tridentRoleName: trident.roleName,
          tridentInstall: trident.installMethod,
          tridentVersion: trident.version,
          tridentNodePrep: trident.nodePrep,
        }),
    images: pulumi.output(images),
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
