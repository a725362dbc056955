import { CONTROL_PLANE_LOG_TYPES, EKS_RULES } from "../../../lab/policy/eks";
import { COMPUTED } from "../../../lab/policy/rule";
import { TYPES as T } from "../../../lab/resource-types";
import { Case, testRules } from "./cases";

const ALL_LOGS = [...CONTROL_PLANE_LOG_TYPES];
const KEY = "arn:aws:kms:us-east-1:123456789012:key/eks-secrets-1";
/** The pulumi-eks component as components/eks builds it. */
const component = (over: Record<string, unknown> = {}) => ({
  endpointPrivateAccess: true,
  endpointPublicAccess: true,
  publicAccessCidrs: ["198.51.100.7/32"],
  encryptionConfigKeyArn: KEY,
  enabledClusterLogTypes: ALL_LOGS,
  skipDefaultNodeGroup: true,
  ...over,
});
/** The provider's aws.eks.Cluster. */
const cluster = (vpcConfig: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  vpcConfig: { subnetIds: ["subnet-1", "subnet-2"], ...vpcConfig },
  encryptionConfig: { provider: { keyArn: KEY }, resources: ["secrets"] },
  enabledClusterLogTypes: ALL_LOGS,
  ...over,
});
const RESTRICT = "set the operator's own CIDRs, or endpointPublicAccess: false";
const TEMPLATE = 'give it a launch template with metadataOptions.httpTokens "required" (checked by ec2-imdsv2-required)';

const CASES: readonly Case[] = [
  // eks-public-endpoint-restricted
  {
    rule: "eks-public-endpoint-restricted",
    title: "component: the operator's /32",
    type: T.eksComponentCluster,
    inputs: component(),
    want: [],
  },
  {
    rule: "eks-public-endpoint-restricted",
    title: "provider cluster: public endpoint off, no CIDRs needed",
    type: T.eksCluster,
    inputs: cluster({ endpointPublicAccess: false, endpointPrivateAccess: true }),
    want: [],
  },
  {
    rule: "eks-public-endpoint-restricted",
    title: "CIDRs unknown until deploy are not judged",
    type: T.eksComponentCluster,
    inputs: component({ publicAccessCidrs: COMPUTED }),
    want: [],
  },
  {
    rule: "eks-public-endpoint-restricted",
    title: "component: public endpoint by default, no CIDRs (EKS's default 0.0.0.0/0)",
    type: T.eksComponentCluster,
    inputs: component({ endpointPublicAccess: undefined, publicAccessCidrs: undefined }),
    want: [`publicAccessCidrs is not set, so EKS opens the public endpoint to 0.0.0.0/0: ${RESTRICT}`],
  },
  {
    rule: "eks-public-endpoint-restricted",
    title: "provider cluster: an empty list is EKS's default too",
    type: T.eksCluster,
    inputs: cluster({ endpointPublicAccess: true, publicAccessCidrs: [] }),
    want: [`vpcConfig.publicAccessCidrs is not set, so EKS opens the public endpoint to 0.0.0.0/0: ${RESTRICT}`],
  },
  {
    rule: "eks-public-endpoint-restricted",
    title: "provider cluster: 0.0.0.0/0 beside an operator's CIDR, and ::/0",
    type: T.eksCluster,
    inputs: cluster({ publicAccessCidrs: ["198.51.100.7/32", "0.0.0.0/0", "::/0"] }),
    want: [
      `vpcConfig.publicAccessCidrs has "0.0.0.0/0": the public endpoint is open to the internet: ${RESTRICT}`,
      `vpcConfig.publicAccessCidrs has "::/0": the public endpoint is open to the internet: ${RESTRICT}`,
    ],
  },

  // eks-secrets-encryption
  { rule: "eks-secrets-encryption", title: "component with a key", type: T.eksComponentCluster, inputs: component(), want: [] },
  { rule: "eks-secrets-encryption", title: "provider cluster with a key", type: T.eksCluster, inputs: cluster({}), want: [] },
  {
    rule: "eks-secrets-encryption",
    title: "component: a key ARN unknown until deploy is present",
    type: T.eksComponentCluster,
    inputs: component({ encryptionConfigKeyArn: COMPUTED }),
    want: [],
  },
  {
    rule: "eks-secrets-encryption",
    title: "component without a key",
    type: T.eksComponentCluster,
    inputs: component({ encryptionConfigKeyArn: undefined }),
    want: ["encryptionConfigKeyArn is not set: encrypt Kubernetes secrets with a KMS key of the stack's"],
  },
  {
    rule: "eks-secrets-encryption",
    title: "provider cluster without encryptionConfig",
    type: T.eksCluster,
    inputs: cluster({}, { encryptionConfig: undefined }),
    want: [
      'encryptionConfig is not set: encrypt Kubernetes secrets with a KMS key of the stack\'s (resources ["secrets"], provider.keyArn)',
    ],
  },
  {
    rule: "eks-secrets-encryption",
    title: "provider cluster: no secrets resource, no key",
    type: T.eksCluster,
    inputs: cluster({}, { encryptionConfig: { resources: [] } }),
    want: [
      'encryptionConfig.resources must include "secrets", got []',
      "encryptionConfig.provider.keyArn is not set: encrypt Kubernetes secrets with a KMS key of the stack's",
    ],
  },
  {
    rule: "eks-secrets-encryption",
    title: "provider cluster: encryptionConfig unknown until deploy fails",
    type: T.eksCluster,
    inputs: cluster({}, { encryptionConfig: COMPUTED }),
    want: ["encryptionConfig must be known before deploy, got <computed>"],
  },

  // eks-control-plane-logging
  {
    rule: "eks-control-plane-logging",
    title: "all five, any order",
    type: T.eksCluster,
    inputs: cluster({}, { enabledClusterLogTypes: [...ALL_LOGS].reverse() }),
    want: [],
  },
  {
    rule: "eks-control-plane-logging",
    title: "component: none (pulumi-eks enables none by default)",
    type: T.eksComponentCluster,
    inputs: component({ enabledClusterLogTypes: undefined }),
    want: ["enabledClusterLogTypes lacks api, audit, authenticator, controllerManager, scheduler: enable all five control-plane log types"],
  },
  {
    rule: "eks-control-plane-logging",
    title: "api and audit only",
    type: T.eksCluster,
    inputs: cluster({}, { enabledClusterLogTypes: ["api", "audit"] }),
    want: ["enabledClusterLogTypes lacks authenticator, controllerManager, scheduler: enable all five control-plane log types"],
  },
  {
    rule: "eks-control-plane-logging",
    title: "unknown until deploy fails",
    type: T.eksComponentCluster,
    inputs: component({ enabledClusterLogTypes: COMPUTED }),
    want: ["enabledClusterLogTypes must be known before deploy, got <computed>"],
  },

  // eks-node-group-imdsv2
  {
    rule: "eks-node-group-imdsv2",
    title: "managed node group with the lab's launch template",
    type: T.eksManagedNodeGroup,
    inputs: { launchTemplate: { id: "lt-1", version: COMPUTED }, instanceTypes: ["m5.xlarge"] },
    want: [],
  },
  {
    rule: "eks-node-group-imdsv2",
    title: "pulumi-eks' enableIMDSv2",
    type: T.eksManagedNodeGroup,
    inputs: { enableIMDSv2: true },
    want: [],
  },
  {
    rule: "eks-node-group-imdsv2",
    title: "component without its default node group",
    type: T.eksComponentCluster,
    inputs: component(),
    want: [],
  },
  {
    rule: "eks-node-group-imdsv2",
    title: "component with Auto Mode (no default node group)",
    type: T.eksComponentCluster,
    inputs: component({ skipDefaultNodeGroup: undefined, autoMode: { enabled: true } }),
    want: [],
  },
  {
    rule: "eks-node-group-imdsv2",
    title: "provider node group without a launch template",
    type: T.eksNodeGroup,
    inputs: { clusterName: "c", instanceTypes: ["m5.xlarge"] },
    want: [`launchTemplate is not set (the nodes' metadata options are then EKS's and the AMI's, not the lab's): ${TEMPLATE}`],
  },
  {
    rule: "eks-node-group-imdsv2",
    title: "managed node group with neither",
    type: T.eksManagedNodeGroup,
    inputs: { enableIMDSv2: false },
    want: [`launchTemplate is not set and enableIMDSv2 is not true: ${TEMPLATE}, or set enableIMDSv2: true`],
  },
  {
    rule: "eks-node-group-imdsv2",
    title: "component keeping its default node group",
    type: T.eksComponentCluster,
    inputs: component({ skipDefaultNodeGroup: undefined }),
    want: [
      "skipDefaultNodeGroup must be true, got nothing: the default node group cannot require IMDSv2; add managed node groups with an IMDSv2 launch template instead",
    ],
  },
];

testRules("eks", EKS_RULES, CASES);
