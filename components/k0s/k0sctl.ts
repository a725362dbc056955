/**
 * The k0sctl side of the cluster: the k0sctl configuration (rendered with the `yaml` package) and
 * the shell text the component's local.Commands run. Pure (reads its own shell file).
 *
 * Config format: k0sctl `apiVersion: k0sctl.k0sproject.io/v1beta1`, `kind: Cluster`
 * (k0sproject/k0sctl README at v0.32.2, "Configuration file"): hosts with `role`, `privateAddress`
 * and `ssh` (`address`, `user`, `port`, `keyPath`, `bastion` with the same fields); `k0s.version`
 * and `k0s.config`, a k0s ClusterConfig (k0s docs/configuration.md at v1.36.3+k0s.2). k0sctl adds
 * the controllers' addresses to `spec.api.sans` itself; the bastion's public address is added here
 * because the kubeconfig points at it. k0sctl substitutes `${VAR}` from the environment in the
 * config it reads (cmd/flags.go: `envsubst.Bytes`), which is how the key files, the known_hosts
 * file and the encryption config of one call are named without their content (or a temporary
 * path) ever being part of the config: k0sctl.sh writes them and sets the variables.
 *
 * Every connection verifies its host key against the lab's known_hosts, read-only (ssh.ts
 * `sshOptions`); the bastion hop and the nodes use different keys (ssh.ts). The controller gets
 * the Secrets encryption config (encryption.ts) as an uploaded file and the API server flag.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { argProblem, ArgProblem, formatArgProblem } from "../../core/errors";
import { isListOf, isText } from "../../core/checks";
import {
  API_SERVER_USER,
  ENCRYPTION_CONFIG_DIR_PERM,
  ENCRYPTION_CONFIG_PATH,
  ENCRYPTION_CONFIG_PERM,
  ENCRYPTION_EXTRA_ARGS,
} from "./encryption";
import { WORKER_LABEL } from "./placement";
import { sshOptions } from "./ssh";
import { API_PORT, Cni, POD_CIDR, SERVICE_CIDR, VXLAN_PORT } from "./ports";
import { CALICO_MTU, K0S_VERSION_RE, K0S_VERSION_RULE } from "./rules";

/** The SSH user of Canonical's Ubuntu images. */
export const SSH_USER = "ubuntu";
/** The nodes' client key file (`keyPath` of every host): filled in by k0sctl.sh at run time. */
export const KEY_PATH_VARIABLE = "${LAB_SSH_KEY_PATH}";
/** The bastion's client key file (`keyPath` of every `bastion`). */
export const BASTION_KEY_PATH_VARIABLE = "${LAB_SSH_BASTION_KEY_PATH}";
/** The known_hosts file every connection verifies host keys against (ssh.ts). */
export const KNOWN_HOSTS_PATH_VARIABLE = "${LAB_SSH_KNOWN_HOSTS_PATH}";
/** The local encryption config file k0sctl uploads to the controller (encryption.ts). */
export const ENCRYPTION_CONFIG_SOURCE_VARIABLE = "${LAB_ENCRYPTION_CONFIG_PATH}";
/** The variables the config names, each a file k0sctl.sh writes for the call. */
export const CONFIG_VARIABLES = [
  KEY_PATH_VARIABLE,
  BASTION_KEY_PATH_VARIABLE,
  KNOWN_HOSTS_PATH_VARIABLE,
  ENCRYPTION_CONFIG_SOURCE_VARIABLE,
] as const;

export interface K0sctlSpec {
  /** `metadata.name` of the k0sctl config and the k0s ClusterConfig; also the kubeconfig's cluster name. */
  readonly clusterName: string;
  /** k0s version, e.g. "v1.36.3+k0s.2". */
  readonly k0sVersion: string;
  /** The controller's private IPv4 address (SSH target and k0s private address). */
  readonly controllerAddress: string;
  /** The workers' private IPv4 addresses, in node order: worker n (labelled `storage-bench-lab/worker=n`) is the n-th. */
  readonly workerAddresses: readonly string[];
  /** The bastion's public address: k0sctl's `ssh.bastion` and an extra API certificate SAN. */
  readonly bastionAddress: string;
  /** k0s' network provider. */
  readonly cni: Cni;
  /** Calico's WireGuard encryption (Calico only). */
  readonly wireguard: boolean;
  /** The nodes' availability zone, set as the workers' `topology.kubernetes.io/zone` label (k0s on EC2 runs no cloud provider that would). */
  readonly zone: string;
  /** The nodes' instance type, set as the workers' `node.kubernetes.io/instance-type` label. */
  readonly instanceType: string;
}

const IPV4_RE = /^(\d{1,3}\.){3}\d{1,3}$/;
const IPV4_RULE = "an IPv4 address (e.g. 10.0.1.10)";

/**
 * Every problem of a k0sctl spec. The component checks its own arguments first (rules.ts), so
 * these catch what arrives later, at apply time: the addresses EC2 assigned.
 */
export function k0sctlProblems(spec: K0sctlSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  if (!isText(spec.k0sVersion, K0S_VERSION_RE)) out.push(argProblem("k0sVersion", K0S_VERSION_RULE, spec.k0sVersion));
  if (!isText(spec.controllerAddress, IPV4_RE)) out.push(argProblem("controllerAddress", IPV4_RULE, spec.controllerAddress));
  if (!isListOf(spec.workerAddresses, (a): a is string => typeof a === "string") || spec.workerAddresses.length === 0) {
    out.push(argProblem("workerAddresses", "a list of at least one worker's IPv4 address", spec.workerAddresses));
  } else {
    spec.workerAddresses.forEach((a, i) => {
      if (!isText(a, IPV4_RE)) out.push(argProblem(`workerAddresses[${i}]`, IPV4_RULE, a));
    });
  }
  return out;
}

/** The k0sctl config as an object (what {@link renderK0sctlConfig} serialises); every problem of `spec` at once otherwise. */
export function k0sctlConfig(spec: K0sctlSpec): Record<string, unknown> {
  const problems = k0sctlProblems(spec);
  if (problems.length > 0) throw new Error(`invalid k0sctl spec:\n${problems.map((p) => formatArgProblem(p)).join("\n")}`);
  const options = sshOptions(KNOWN_HOSTS_PATH_VARIABLE);
  const ssh = (address: string) => ({
    address,
    user: SSH_USER,
    port: 22,
    keyPath: KEY_PATH_VARIABLE,
    options,
    bastion: { address: spec.bastionAddress, user: SSH_USER, port: 22, keyPath: BASTION_KEY_PATH_VARIABLE, options },
  });
  // The Secrets encryption config, owned by the API server's user, 0600 in a 0700 directory (encryption.ts).
  const files = [
    {
      name: "secrets-encryption-config",
      src: ENCRYPTION_CONFIG_SOURCE_VARIABLE,
      dst: ENCRYPTION_CONFIG_PATH,
      perm: ENCRYPTION_CONFIG_PERM,
      dirPerm: ENCRYPTION_CONFIG_DIR_PERM,
      user: API_SERVER_USER,
    },
  ];
  // Labels a kubelet may set on its own node (NodeRestriction, placement.ts): the benchmark Jobs are
  // pinned to the zone, and each worker carries its number so a workload can be pinned to one worker.
  const labels = (n: number) =>
    `--labels=topology.kubernetes.io/zone=${spec.zone},node.kubernetes.io/instance-type=${spec.instanceType},${WORKER_LABEL}=${n}`;
  const network: Record<string, unknown> = { provider: spec.cni, podCIDR: POD_CIDR, serviceCIDR: SERVICE_CIDR };
  // Calico as published (k0s/k0sctl.yaml.pre lines 29-38): VXLAN on k0s' default port and VNI, the
  // MTU explicit (k0s applies it to the VXLAN and the WireGuard devices: FELIX_VXLANMTU and
  // FELIX_WIREGUARDMTU in static/manifests/calico/DaemonSet/calico-node.yaml), WireGuard as asked.
  if (spec.cni === "calico")
    network.calico = { mode: "vxlan", vxlanPort: VXLAN_PORT, vxlanVNI: 4096, mtu: CALICO_MTU, wireguard: spec.wireguard };
  // Every host first waits for its cloud-init (lvm2, chrony, the rbd module) to finish: SSH is up
  // before cloud-init is done, and k0s must not start on a half-prepared node.
  const hooks = { apply: { before: [WAIT_FOR_CLOUD_INIT] } };
  return {
    apiVersion: "k0sctl.k0sproject.io/v1beta1",
    kind: "Cluster",
    metadata: { name: spec.clusterName, user: "admin" },
    spec: {
      hosts: [
        { role: "controller", privateAddress: spec.controllerAddress, ssh: ssh(spec.controllerAddress), files, hooks },
        ...spec.workerAddresses.map((a, i) => ({ role: "worker", privateAddress: a, installFlags: [labels(i + 1)], ssh: ssh(a), hooks })),
      ],
      k0s: {
        version: spec.k0sVersion,
        config: {
          apiVersion: "k0s.k0sproject.io/v1beta1",
          kind: "ClusterConfig",
          metadata: { name: spec.clusterName },
          spec: {
            api: { port: API_PORT, sans: [spec.bastionAddress], extraArgs: { ...ENCRYPTION_EXTRA_ARGS } },
            network,
            telemetry: { enabled: false },
          },
        },
      },
      options: { wait: { enabled: true } },
    },
  };
}

/** The k0sctl config as YAML, exactly what k0sctl reads on stdin. */
export function renderK0sctlConfig(spec: K0sctlSpec): string {
  // No anchors and aliases for the objects hosts share (hooks, ssh options): every host reads in full.
  return YAML.stringify(k0sctlConfig(spec), { lineWidth: 0, aliasDuplicateObjects: false });
}

/** The shell file holding the functions (components/k0s/k0sctl.sh). */
export const K0SCTL_SCRIPT_FILE = path.join(__dirname, "k0sctl.sh");

/** What a local.Command runs: k0sctl.sh's functions, then the one call for `action`. */
export function k0sctlCommand(action: "apply" | "kubeconfig" | "reset", scriptFile: string = K0SCTL_SCRIPT_FILE): string {
  return `# storage-bench-lab: k0sctl ${action} (functions from components/k0s/k0sctl.sh)\n${fs.readFileSync(scriptFile, "utf8")}\nlab_k0sctl_${action}\n`;
}

/**
 * k0sctl `hooks.apply.before` command on every host: wait for cloud-init. Since cloud-init 23.4
 * `--wait` exits 2 for "done, with recoverable errors", which must not stop the install: then the
 * status still reads `done` (an `error` status stops it). No `$` in it: k0sctl expands
 * environment variables in its whole config.
 */
export const WAIT_FOR_CLOUD_INIT = "cloud-init status --wait >/dev/null || cloud-init status | grep -q '^status: done'";

/** The kubeconfig's API server URL: the bastion's public address, which forwards the API port. */
export function apiUrl(bastionAddress: string): string {
  return `https://${bastionAddress}:${API_PORT}`;
}
