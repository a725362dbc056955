/** The k0s area: Secrets encryption and SSH host key checks read from the k0sctl config of the install Command. */
import YAML from "yaml";
import { renderK0sctlConfig } from "../../../components/k0s/k0sctl";
import { renderKnownHosts } from "../../../components/k0s/ssh";
import { K0S_RULES } from "../../../lab/policy/k0s";
import { COMPUTED, SECRET } from "../../../lab/policy/rule";
import { Case, testRules } from "./cases";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
/** The k0sctl config the component renders (the compliant one), as an object to break. */
const CONFIG = renderK0sctlConfig({
  clusterName: "ceph",
  k0sVersion: "v1.36.3+k0s.2",
  controllerAddress: "10.0.1.10",
  workerAddresses: ["10.0.1.11"],
  bastionAddress: "203.0.113.5",
  cni: "kuberouter",
  wireguard: false,
  zone: "us-east-1a",
  instanceType: "m5.xlarge",
});
const KNOWN_HOSTS = renderKnownHosts(
  ["203.0.113.5", "10.0.1.10", "10.0.1.11"].map((address, i) => ({ address, publicKey: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHost${i}` })),
);
/** The install Command's inputs with the config changed by `edit` and extra environment. */
function command(edit: (c: Any) => void = () => undefined, env: Record<string, unknown> = {}): Record<string, unknown> {
  const c = YAML.parse(CONFIG);
  edit(c);
  return {
    create: "k0sctl apply",
    delete: "k0sctl reset",
    environment: {
      LAB_K0SCTL_CONFIG: YAML.stringify(c),
      LAB_SSH_NODE_KEY: SECRET,
      LAB_SSH_BASTION_KEY: SECRET,
      LAB_SSH_KNOWN_HOSTS: KNOWN_HOSTS,
      LAB_ENCRYPTION_CONFIG: SECRET,
      ...env,
    },
  };
}
const LOCAL = "command:local:Command";

const CASES: readonly Case[] = [
  { rule: "k0s-secrets-encryption", title: "the component's config", type: LOCAL, inputs: command(), want: [] },
  {
    rule: "k0s-secrets-encryption",
    title: "a Command that is not k0sctl's (no LAB_K0SCTL_CONFIG) passes",
    type: LOCAL,
    inputs: { create: "collect.sh", environment: { KUBECONFIG: SECRET } },
    want: [],
  },
  {
    rule: "k0s-secrets-encryption",
    title: "no encryption-provider-config in the API server's extraArgs",
    type: LOCAL,
    inputs: command((c) => delete c.spec.k0s.config.spec.api.extraArgs),
    want: [
      "spec.k0s.config.spec.api.extraArgs.encryption-provider-config must name the API server's EncryptionConfiguration file, got nothing",
    ],
  },
  {
    rule: "k0s-secrets-encryption",
    title: "the flag without the file on the controller",
    type: LOCAL,
    inputs: command((c) => delete c.spec.hosts[0].files),
    want: [
      "spec.hosts[0] (controller) must get /etc/storage-bench-lab/encryption-config.yaml from k0sctl (spec.hosts[*].files dst), got no such file",
    ],
  },
  {
    rule: "k0s-secrets-encryption",
    title: "the file readable by others",
    type: LOCAL,
    inputs: command((c) => (c.spec.hosts[0].files[0].perm = "0644")),
    want: ['spec.hosts[0].files[0].perm must be "0600" or "0400" (the file holds the key), got "0644"'],
  },
  {
    rule: "k0s-secrets-encryption",
    title: "a config unknown until deploy",
    type: LOCAL,
    inputs: { create: "k0sctl apply", environment: { LAB_K0SCTL_CONFIG: COMPUTED } },
    want: ["environment.LAB_K0SCTL_CONFIG must be known before deploy, got <computed>"],
  },
  {
    rule: "k0s-secrets-encryption",
    title: "not a k0sctl Cluster",
    type: LOCAL,
    inputs: { create: "k0sctl apply", environment: { LAB_K0SCTL_CONFIG: "apiVersion: v1\nkind: Config\n" } },
    want: ['environment.LAB_K0SCTL_CONFIG must be a k0sctl Cluster (apiVersion k0sctl.k0sproject.io/v1beta1), got "v1"'],
  },
  { rule: "k0sctl-ssh-verified", title: "the component's config", type: LOCAL, inputs: command(), want: [] },
  {
    rule: "k0sctl-ssh-verified",
    title: "the old config: no options, one key for both hops (trust on first use)",
    type: LOCAL,
    inputs: command((c) => {
      for (const h of c.spec.hosts) {
        delete h.ssh.options;
        delete h.ssh.bastion.options;
        h.ssh.bastion.keyPath = h.ssh.keyPath;
      }
    }),
    want: [0, 1].flatMap((i) => [
      `spec.hosts[${i}].ssh.options.StrictHostKeyChecking must be true (yes), got nothing`,
      `spec.hosts[${i}].ssh.options.UserKnownHostsFile must be "none" (k0sctl would add unknown hosts to it), got nothing`,
      `spec.hosts[${i}].ssh.options.GlobalKnownHostsFile must name the lab's known_hosts (read-only), got nothing`,
      `spec.hosts[${i}].ssh.bastion.options.StrictHostKeyChecking must be true (yes), got nothing`,
      `spec.hosts[${i}].ssh.bastion.options.UserKnownHostsFile must be "none" (k0sctl would add unknown hosts to it), got nothing`,
      `spec.hosts[${i}].ssh.bastion.options.GlobalKnownHostsFile must name the lab's known_hosts (read-only), got nothing`,
      `spec.hosts[${i}].ssh.bastion.keyPath must be another key than spec.hosts[${i}].ssh.keyPath (the bastion's key only jumps), got "\${LAB_SSH_KEY_PATH}" for both`,
    ]),
  },
  {
    rule: "k0sctl-ssh-verified",
    title: "checking turned off for one host, SSH_KNOWN_HOSTS in the environment, a host missing from the known_hosts",
    type: LOCAL,
    inputs: command(
      (c) => {
        c.spec.hosts[1].ssh.options.StrictHostKeyChecking = false;
        c.spec.hosts[1].ssh.address = "10.0.1.99";
      },
      { SSH_KNOWN_HOSTS: "/tmp/kh" },
    ),
    want: [
      'environment.SSH_KNOWN_HOSTS must be absent (k0sctl would read it first and trust new hosts on first use), got "/tmp/kh"',
      "spec.hosts[1].ssh.options.StrictHostKeyChecking must be true (yes), got false",
      "environment.LAB_SSH_KNOWN_HOSTS has no host key for 10.0.1.99 (spec.hosts[1].ssh.address)",
    ],
  },
  {
    rule: "k0sctl-ssh-verified",
    title: "keys left to the agent",
    type: LOCAL,
    inputs: command((c) => {
      delete c.spec.hosts[0].ssh.keyPath;
      delete c.spec.hosts[0].ssh.bastion.keyPath;
    }),
    want: [
      "spec.hosts[0].ssh.keyPath and spec.hosts[0].ssh.bastion.keyPath must both be set (k0sctl would offer the SSH agent's keys), got nothing and nothing",
    ],
  },
];

testRules("k0s", [...K0S_RULES], CASES);
