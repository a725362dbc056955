/**
 * Policy rules of EKS: the control plane (its public endpoint, the encryption of Kubernetes
 * secrets, its logs) and its node groups (IMDSv2, through their launch template). Pure (see
 * ./rule.ts for how rules read inputs and unknown values).
 *
 * Two shapes of cluster carry the same settings:
 * - the provider's `aws.eks.Cluster`: `vpcConfig.endpointPublicAccess` / `vpcConfig.publicAccessCidrs`,
 *   `encryptionConfig {provider.keyArn, resources}`, `enabledClusterLogTypes`;
 * - pulumi-eks' `eks.Cluster` component (planned as one resource: a remote component):
 *   `endpointPublicAccess`, `publicAccessCidrs`, `encryptionConfigKeyArn`, `enabledClusterLogTypes`,
 *   `skipDefaultNodeGroup` (@pulumi/eks 4 cluster.d.ts: the public endpoint is on by default, no
 *   log type is enabled by default, the default node group is created unless skipped).
 * EKS opens a public endpoint without `publicAccessCidrs` to 0.0.0.0/0 (EKS API, VpcConfigRequest
 * `publicAccessCidrs`: "The default value is 0.0.0.0/0").
 */
import { TYPES as T } from "../resource-types";
import { isOpenCidr } from "./network";
import { controls, defineRule, dig, isObj, isOpaque, isSet, isTrue, mirrors, Obj, shown } from "./rule";

/** The EKS control-plane log types, all of which the lab enables (EKS User Guide, "Send control plane logs to CloudWatch Logs"). */
export const CONTROL_PLANE_LOG_TYPES = ["api", "audit", "authenticator", "controllerManager", "scheduler"] as const;

/** Both cluster shapes. */
const CLUSTERS = [T.eksCluster, T.eksComponentCluster] as const;

/** Where a cluster shape keeps its endpoint settings: `vpcConfig.` for the provider's, top level for the component. */
function endpoint(inputs: Obj, type: string): { prefix: string; settings: unknown } {
  return type === T.eksCluster ? { prefix: "vpcConfig.", settings: inputs.vpcConfig } : { prefix: "", settings: inputs };
}

const PUBLIC_ENDPOINT = controls(["CKV_AWS_38"], ["AWS-0041"]);
const RESTRICT = "set the operator's own CIDRs, or endpointPublicAccess: false";

export const eksPublicEndpointRestricted = defineRule({
  name: "eks-public-endpoint-restricted",
  description:
    "An EKS cluster's public API endpoint is never open to the world: either it is off (`endpointPublicAccess: false`) " +
    "or `publicAccessCidrs` lists the operator's own networks, none of them a /0 (unset, EKS opens it to 0.0.0.0/0). " +
    mirrors(PUBLIC_ENDPOINT),
  enforcementLevel: "mandatory",
  controls: PUBLIC_ENDPOINT,
  resourceTypes: CLUSTERS,
  check(inputs, type) {
    const { prefix, settings } = endpoint(inputs, type);
    if (isOpaque(settings)) return [];
    const s: Obj = isObj(settings) ? settings : {};
    const publicAccess = s.endpointPublicAccess;
    if (publicAccess === false || publicAccess === "false") return [];
    const cidrs = s.publicAccessCidrs;
    if (isOpaque(cidrs)) return [];
    if (!Array.isArray(cidrs) || cidrs.length === 0)
      return [`${prefix}publicAccessCidrs is not set, so EKS opens the public endpoint to 0.0.0.0/0: ${RESTRICT}`];
    return cidrs
      .filter(isOpenCidr)
      .map((cidr) => `${prefix}publicAccessCidrs has ${JSON.stringify(cidr)}: the public endpoint is open to the internet: ${RESTRICT}`);
  },
});

const SECRETS_ENCRYPTION = controls(["CKV_AWS_58"], ["AWS-0039"]);

export const eksSecretsEncryption = defineRule({
  name: "eks-secrets-encryption",
  description:
    "EKS envelope-encrypts Kubernetes secrets with a KMS key of the lab's (`encryptionConfig` with resources " +
    '["secrets"] and a key ARN; `encryptionConfigKeyArn` on the pulumi-eks component). ' +
    mirrors(SECRETS_ENCRYPTION),
  enforcementLevel: "mandatory",
  controls: SECRETS_ENCRYPTION,
  resourceTypes: CLUSTERS,
  check(inputs, type) {
    const remedy = "encrypt Kubernetes secrets with a KMS key of the stack's";
    if (type === T.eksComponentCluster) return isSet(inputs.encryptionConfigKeyArn) ? [] : [`encryptionConfigKeyArn is not set: ${remedy}`];
    const config = inputs.encryptionConfig;
    if (isOpaque(config)) return [`encryptionConfig must be known before deploy, got ${config}`];
    if (!isObj(config)) return [`encryptionConfig is not set: ${remedy} (resources ["secrets"], provider.keyArn)`];
    const out: string[] = [];
    const resources = config.resources;
    if (!(Array.isArray(resources) && resources.includes("secrets")))
      out.push(`encryptionConfig.resources must include "secrets", got ${shown(resources)}`);
    if (!isSet(dig(config, ["provider", "keyArn"]))) out.push(`encryptionConfig.provider.keyArn is not set: ${remedy}`);
    return out;
  },
});

const CONTROL_PLANE_LOGS = controls(["CKV_AWS_37"], ["AWS-0038"]);

export const eksControlPlaneLogging = defineRule({
  name: "eks-control-plane-logging",
  description:
    `EKS sends every control-plane log type to CloudWatch Logs (\`enabledClusterLogTypes\`: ${CONTROL_PLANE_LOG_TYPES.join(", ")}): ` +
    "who did what to the cluster stays on record after the stack is gone. " +
    mirrors(CONTROL_PLANE_LOGS),
  enforcementLevel: "mandatory",
  controls: CONTROL_PLANE_LOGS,
  resourceTypes: CLUSTERS,
  check(inputs) {
    const types = inputs.enabledClusterLogTypes;
    if (isOpaque(types)) return [`enabledClusterLogTypes must be known before deploy, got ${types}`];
    const enabled = Array.isArray(types) ? types : [];
    const missing = CONTROL_PLANE_LOG_TYPES.filter((t) => !enabled.includes(t));
    return missing.length === 0 ? [] : [`enabledClusterLogTypes lacks ${missing.join(", ")}: enable all five control-plane log types`];
  },
});

const NODE_IMDSV2 = controls(["CKV_AWS_79"], ["AWS-0130"]);
const WITH_TEMPLATE = 'give it a launch template with metadataOptions.httpTokens "required" (checked by ec2-imdsv2-required)';

export const eksNodeGroupImdsv2 = defineRule({
  name: "eks-node-group-imdsv2",
  description:
    "EKS nodes require IMDSv2: every node group launches from a launch template (whose `metadataOptions` " +
    "ec2-imdsv2-required checks) or, on pulumi-eks' ManagedNodeGroup, sets `enableIMDSv2`; a pulumi-eks cluster skips " +
    "its default node group, whose options cannot require IMDSv2. " +
    mirrors(NODE_IMDSV2),
  enforcementLevel: "mandatory",
  controls: NODE_IMDSV2,
  resourceTypes: [T.eksNodeGroup, T.eksManagedNodeGroup, T.eksComponentCluster],
  check(inputs, type) {
    if (type === T.eksComponentCluster) {
      // No default node group: skipped, or replaced by Fargate or Auto Mode (@pulumi/eks cluster.d.ts, skipDefaultNodeGroup).
      if (isTrue(inputs.skipDefaultNodeGroup) || isSet(inputs.fargate) || isTrue(dig(inputs, ["autoMode", "enabled"]))) return [];
      return [
        `skipDefaultNodeGroup must be true, got ${shown(inputs.skipDefaultNodeGroup)}: the default node group cannot require IMDSv2; ` +
          "add managed node groups with an IMDSv2 launch template instead",
      ];
    }
    if (isSet(inputs.launchTemplate)) return [];
    if (type === T.eksManagedNodeGroup && isTrue(inputs.enableIMDSv2)) return [];
    return [
      type === T.eksManagedNodeGroup
        ? `launchTemplate is not set and enableIMDSv2 is not true: ${WITH_TEMPLATE}, or set enableIMDSv2: true`
        : `launchTemplate is not set (the nodes' metadata options are then EKS's and the AMI's, not the lab's): ${WITH_TEMPLATE}`,
    ];
  },
});

/** The EKS area's rules. */
export const EKS_RULES = [eksPublicEndpointRestricted, eksSecretsEncryption, eksControlPlaneLogging, eksNodeGroupImdsv2] as const;
