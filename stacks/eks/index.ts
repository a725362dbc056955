/**
 * Stack kind `eks`: the EKS cluster of the FSx-on-EKS experiment, over the network stack's private
 * subnets of both zones (`lab:networkStack`), with Trident installed and able to reach the FSx API
 * (EKS Pod Identity). It reads the network stack only, so it deploys in parallel with `fsx-ontap`;
 * the `fsx-eks` stack joins them (the Trident backend, the storage classes, MySQL, the benchmarks).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { EksCluster } from "../../components/eks";
import { TridentOperator } from "../../components/trident";
import { parseConfig } from "../lib/config/load";
import { labAwsProvider, StackIdentity } from "../lib/context";
import { readNetwork } from "../network/outputs";
import { checkEks, eksArgs, eksSchema, tridentArgs } from "./config";

export function eksStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("eks", eksSchema, raw, (c) => checkEks(c, id.stack));
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = readNetwork(cfg.networkStack);

  const eks = new EksCluster(
    "eks",
    { ...eksArgs(cfg, id.stack), vpcId: net.vpcId, privateSubnetIds: net.privateSubnetIds, zones: net.azs },
    { provider },
  );
  // The chart (and the readiness wait) talk to the cluster; the add-on goes through the EKS API.
  const k8sProvider = new k8s.Provider("eks", { kubeconfig: eks.kubeconfig }, { dependsOn: eks.nodeAddons });
  const trident = new TridentOperator(
    "trident",
    { ...tridentArgs(cfg), clusterName: eks.clusterName, kubeconfig: eks.kubeconfig },
    // After the Pod Identity agent (and the other node add-ons): Trident's pods need it at start.
    { providers: [provider, k8sProvider], dependsOn: eks.nodeAddons },
  );

  return {
    kubeconfig: eks.kubeconfig,
    clusterName: eks.clusterName,
    kubernetesVersion: eks.kubernetesVersion,
    nodeSecurityGroupId: eks.nodeSecurityGroupId,
    clusterSecurityGroupId: eks.clusterSecurityGroupId,
    oidcProviderArn: eks.oidcProviderArn,
    zones: eks.zones,
    instanceType: eks.instanceType,
    tridentRoleName: trident.roleName,
    tridentInstall: trident.installMethod,
    tridentVersion: trident.version,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}
