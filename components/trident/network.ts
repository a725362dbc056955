/**
 * The `trident` namespace's NetworkPolicies (pure), on top of the baseline
 * (components/lib/network-policy.ts: default deny of ingress and egress, DNS to kube-dns), for the
 * Helm install (trident-operator chart 100.2606.0, Trident 26.06.0). Sources: NetApp/trident at tag
 * v26.06.0 (commit fe88a3ac), file:line.
 *
 * The pods and what they need:
 * - the operator (helm/trident-operator/templates/deployment.yaml:26-28, pod labels
 *   `app: operator.trident.netapp.io`, `name: trident-operator`; no `hostNetwork`): the API server
 *   only. It installs and checks Trident through the API server (its CLI calls run as pod exec,
 *   operator/controllers/orchestrator/installer/installer.go:2067, 2143); no Service of its own
 *   with the lab's values (templates/postinstallupgradehook.yaml:1, the configurators are off in
 *   values.yaml:177-178, 191-192), and no hook Job (templates/predeletecrdshook.yaml:1, `cleanupCrds` unset).
 * - the operator's transient version pod (installer.go:2203 `transient-trident-version-pod`,
 *   cli/k8s_client/yaml_factory.go:1762-1777: `tridentctl pause`, `tridentctl version --client` run in it through exec, installer.go:2203-2221): nothing beyond
 *   the baseline.
 * - the controller (the Deployment of cli/k8s_client/yaml_factory.go:716-, pod label
 *   `app: controller.csi.trident.netapp.io`, operator/controllers/orchestrator/installer/config.go:30),
 *   on the pod network: `{HOST_NETWORK}` (yaml_factory.go:740) is filled only when the
 *   TridentOrchestrator sets `hostNetwork` (yaml_factory.go:613-617; the chart's `hostNetwork: false`,
 *   values.yaml:323). It serves the HTTPS REST API on 8443 (yaml_factory.go:752, 760), with client
 *   certificates required (frontend/rest/apiserver_https.go:37, main.go:413), behind the `trident-csi`
 *   Service's port 34571 (yaml_factory.go:379-382); its plain REST API listens on 127.0.0.1:8000 only
 *   (yaml_factory.go:769, the probes and the operator's exec go there); metrics on 8001
 *   (yaml_factory.go:753, main.go:114-116, Service port 9220) are scraped by nothing in the lab, so
 *   not admitted. Its clients are the node pods: `https://trident-csi:34571` (frontend/csi/
 *   plugin.go:252-262, config/config.go:181), which run on the host network
 *   (yaml_factory.go:1311), so their packets carry the node's address: ingress on 8443 from the node
 *   subnets. Its egress: the API server (443, as components/kafka/network.ts says why: its Service
 *   address and the node subnets); the EKS Pod Identity agent at 169.254.170.23:80 for its
 *   credentials (Amazon EKS User Guide, "Set up the Amazon EKS Pod Identity Agent": the agent
 *   listens on 169.254.170.23; components/trident/iam.ts); HTTPS 443 to the FSx and Secrets Manager
 *   APIs (the only AWS clients, storage_drivers/ontap/awsapi/aws.go:18-20, 109-110) and to the SVM's
 *   management LIF, ONTAP REST and ZAPI over HTTPS (storage_drivers/ontap/api/ontap_rest.go:2155,
 *   api/azgo/common.go:231; the LIF is read from the FSx API, storage_drivers/ontap/aws_common.go:181-186).
 *   The network has no interface endpoints (components/network: an S3 gateway endpoint only), so the
 *   AWS APIs are their public addresses through the NAT gateway: 443 to 0.0.0.0/0 (a residual,
 *   docs/security.md). Its AutoSupport sidecar is silenced (manifests.ts `tridentSilenceAutosupport`).
 * - the node pods: `hostNetwork: true` (yaml_factory.go:1311), so no NetworkPolicy applies to them:
 *   a plugin that cannot tell host-network pods' traffic apart "ignores hostNetwork pods when
 *   matching podSelector and namespaceSelector. Traffic to/from hostNetwork pods is treated the same
 *   as all other traffic to/from the node IP. (This is the most common implementation.)" (Kubernetes
 *   docs, "Network Policies", hostNetwork pods); their mounts (NFS, iSCSI) are the node's, judged by
 *   security groups (index.ts `nodePortRules`).
 */
import type { INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { API_SERVER_PORT, apiServerPeers, baselineNetworkPolicies } from "../lib/network-policy";

/** The chart's operator pod labels (templates/deployment.yaml:26-28). */
export const TRIDENT_OPERATOR_POD_LABELS = { app: "operator.trident.netapp.io", name: "trident-operator" } as const;
/** The controller's pod label (operator/controllers/orchestrator/installer/config.go:30, yaml_factory.go:733). */
export const TRIDENT_CONTROLLER_POD_LABELS = { app: "controller.csi.trident.netapp.io" } as const;
/** The controller's HTTPS REST port, the `trident-csi` Service's target of port 34571 (yaml_factory.go:379-382, 752, 760). */
export const TRIDENT_CONTROLLER_HTTPS_PORT = 8443;
/** The EKS Pod Identity agent's IPv4 address and port (EKS User Guide, pod-id-agent-setup; the credentials URI is `http://169.254.170.23/v1/credentials`). */
export const POD_IDENTITY_AGENT = { ip: "169.254.170.23", port: 80 } as const;
/** HTTPS: the AWS APIs' port and ONTAP's management API's. */
export const HTTPS_PORT = 443;

export const OPERATOR_EGRESS_POLICY = "trident-operator-egress";
export const CONTROLLER_POLICY = "trident-controller";

const meta = (name: string, namespace: string) => ({ name, namespace, labels: { "app.kubernetes.io/part-of": "storage-bench-lab" } });

/** The operator's egress: the API server only. */
export function tridentOperatorEgressPolicy(namespace: string, nodeCidrs: readonly string[], apiServerIp: string): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(OPERATOR_EGRESS_POLICY, namespace),
    spec: {
      podSelector: { matchLabels: { ...TRIDENT_OPERATOR_POD_LABELS } },
      policyTypes: ["Egress"],
      egress: [{ to: apiServerPeers(apiServerIp, nodeCidrs), ports: [{ protocol: "TCP", port: API_SERVER_PORT }] }],
    },
  };
}

/**
 * The controller: ingress on 8443 from the node subnets (the host-network node pods); egress to the
 * API server, the Pod Identity agent, and HTTPS anywhere (FSx, Secrets Manager, the SVM's management LIF).
 */
export function tridentControllerPolicy(namespace: string, nodeCidrs: readonly string[], apiServerIp: string): INetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: meta(CONTROLLER_POLICY, namespace),
    spec: {
      podSelector: { matchLabels: { ...TRIDENT_CONTROLLER_POD_LABELS } },
      policyTypes: ["Ingress", "Egress"],
      ingress: [
        {
          from: nodeCidrs.map((cidr) => ({ ipBlock: { cidr } })),
          ports: [{ protocol: "TCP", port: TRIDENT_CONTROLLER_HTTPS_PORT }],
        },
      ],
      egress: [
        { to: apiServerPeers(apiServerIp, nodeCidrs), ports: [{ protocol: "TCP", port: API_SERVER_PORT }] },
        { to: [{ ipBlock: { cidr: `${POD_IDENTITY_AGENT.ip}/32` } }], ports: [{ protocol: "TCP", port: POD_IDENTITY_AGENT.port }] },
        { to: [{ ipBlock: { cidr: "0.0.0.0/0" } }], ports: [{ protocol: "TCP", port: HTTPS_PORT }] },
      ],
    },
  };
}

/** Every NetworkPolicy of Trident's namespace (Helm install): baseline, the operator's, the controller's. */
export function tridentNetworkPolicies(namespace: string, nodeCidrs: readonly string[], apiServerIp: string): INetworkPolicy[] {
  return [
    ...baselineNetworkPolicies(namespace),
    tridentOperatorEgressPolicy(namespace, nodeCidrs, apiServerIp),
    tridentControllerPolicy(namespace, nodeCidrs, apiServerIp),
  ];
}
