/**
 * cloud-init user data of the lab's EC2 instances, rendered with the `yaml` package. Pure.
 *
 * Every document starts with `#cloud-config` and passes `cloud-init schema --config-file` (the
 * tests run the real checker). Modules used: `package_update`/`packages`, `ntp`, `write_files`,
 * `runcmd`, `ssh` (`ssh_keys`, `ssh_authorized_keys`), `users_groups`
 * (https://cloudinit.readthedocs.io/en/latest/reference/modules.html).
 *
 * Every document carries its host's SSH host key (`ssh_keys`), so k0sctl knows it before first
 * contact (ssh.ts). cloud-init's ssh module deletes the image's host keys and writes only the given
 * ones (canonical/cloud-init 25.1.4 cloudinit/config/cc_ssh.py `handle`: `ssh_deletekeys` defaults
 * to true; with `ssh_keys` nothing is generated), in the init stage, which systemd orders before
 * sshd (systemd/cloud-init-network.service.tmpl: `Before=sshd.service`). The private half is thus
 * in the user data: readable on the instance through IMDS and by principals allowed
 * `ec2:DescribeInstanceAttribute` (docs/security.md). It runs once per instance (`PER_INSTANCE`):
 * the instances are created with `userDataReplaceOnChange` (index.ts), so a changed document is a
 * new instance, never a stop/start that would not run it.
 */
import YAML from "yaml";
import { API_SERVER_USER } from "./encryption";
import { bastionAuthorizedKey, publicKeyBody } from "./ssh";

/** Amazon Time Sync Service, link-local on every instance, Xen and Nitro alike. */
export const AMAZON_TIME_SYNC = "169.254.169.123";

/** Where the node loads the rbd module at every boot (systemd-modules-load). */
export const RBD_MODULES_LOAD_FILE = "/etc/modules-load.d/rbd.conf";
/** Where the node loads the wireguard module at every boot, when Calico encrypts with WireGuard. */
export const WIREGUARD_MODULES_LOAD_FILE = "/etc/modules-load.d/wireguard.conf";
/** Where the node's huge pages are reserved at every boot (systemd-sysctl reads /etc/sysctl.d). */
export const HUGEPAGES_SYSCTL_FILE = "/etc/sysctl.d/60-storage-bench-lab-hugepages.conf";

/**
 * Load kernel module `m` now, installing Ubuntu's linux-modules-extra for the running kernel when the
 * base package lacks it; else stop the script. cloud-init runs `runcmd` as one `sh` script without
 * `set -e` (cc_runcmd), so only an explicit exit makes a failed line fail the boot (status `error`,
 * which stops k0sctl's install): a worker without the wireguard module would otherwise join and
 * carry its pod traffic unencrypted.
 */
function loadModule(m: string): string {
  return `modprobe ${m} || { apt-get install -y "linux-modules-extra-$(uname -r)" && modprobe ${m}; } || exit 1`;
}

function cloudConfig(doc: Record<string, unknown>): string {
  return `#cloud-config\n${YAML.stringify(doc, { lineWidth: 0 })}`;
}

/** A host key as the tls provider gives it: OpenSSH private key and `ssh-ed25519 …` public key. */
export interface HostKey {
  readonly privateKeyOpenssh: string;
  readonly publicKeyOpenssh: string;
}

/** The `ssh_keys` of a host: its ED25519 host key, nothing else (cc_ssh CONFIG_KEY_TO_FILE: ed25519_private/_public). */
function hostKeys(key: HostKey): Record<string, unknown> {
  if (!key.privateKeyOpenssh.includes("-----BEGIN OPENSSH PRIVATE KEY-----"))
    throw new RangeError("the host key must be an OpenSSH private key");
  const pub = publicKeyBody(key.publicKeyOpenssh);
  if (!pub.startsWith("ssh-ed25519 ")) throw new RangeError(`the host key must be ED25519, got ${pub.split(" ")[0]}`);
  return {
    ssh_deletekeys: true,
    ssh_keys: {
      ed25519_private: key.privateKeyOpenssh.endsWith("\n") ? key.privateKeyOpenssh : `${key.privateKeyOpenssh}\n`,
      ed25519_public: pub,
    },
  };
}

/** What a node's document needs besides the fixed setup. */
export interface NodeCloudInit {
  /** The node's SSH host key. */
  readonly hostKey: HostKey;
  /** The controller only: create the user k0s runs kube-apiserver as, which owns the encryption config (encryption.ts). */
  readonly controller: boolean;
  /** The operator's own public key (`lab:sshPublicKey`), authorized for `ubuntu` besides the node key EC2 installs. */
  readonly operatorKey?: string;
  /** Load the wireguard module (Calico's WireGuard encryption needs it in the kernel). */
  readonly wireguard: boolean;
  /** 2 MiB huge pages to reserve (`vm.nr_hugepages`); 0 reserves none and writes no setting. */
  readonly hugepages2Mi: number;
}

/**
 * A k0s node (controller or worker) that can host Ceph daemons and map RBD images:
 * - `lvm2`: ceph-volume (in Rook's OSD pods) prepares OSDs as LVM logical volumes on the raw device;
 * - the `rbd` kernel module, loaded now and at every boot: the Ceph-CSI node plugin maps RBD images
 *   with the kernel client (krbd). Ubuntu's cloud kernels may ship it in `linux-modules-extra`, so
 *   that package is installed when `modprobe rbd` finds no module;
 * - `chrony` synchronised to the Amazon Time Sync Service: Ceph monitors report HEALTH_WARN on clock
 *   skew above 0.05 s;
 * - with WireGuard, the `wireguard` module, loaded the same way (Calico's felix creates the
 *   `wireguard.cali` device, which needs it);
 * - `hugepages2Mi` huge pages reserved now and at every boot (`vm.nr_hugepages`, as the published
 *   user data does with `sysctl`), before k0s starts, so the kubelet reports them as allocatable
 *   `hugepages-2Mi`; the boot fails (cloud-init status `error`, which stops k0sctl's install) when
 *   the kernel reserved fewer than asked.
 * k0s brings its own containerd, runc and CNI plugins; nothing else is installed (no cgroup v1
 * switches: Ubuntu 24.04 runs cgroup v2, which k0s and Kubernetes 1.36 expect).
 */
export function renderNodeCloudInit(node: NodeCloudInit): string {
  // `users` replaces the image's user list: `default` keeps `ubuntu` (cc_users_groups). The
  // kube-apiserver user is what `k0s install controller` would create (k0s pkg/install/users_linux.go:
  // `useradd --home <data dir> --shell <nologin> --system --no-create-home`), here before k0sctl uploads its file.
  const users = node.controller
    ? {
        users: [
          "default",
          { name: API_SERVER_USER, system: true, no_create_home: true, homedir: "/var/lib/k0s", shell: "/usr/sbin/nologin" },
        ],
      }
    : {};
  return cloudConfig({
    ...hostKeys(node.hostKey),
    ...(node.operatorKey !== undefined ? { ssh_authorized_keys: [publicKeyBody(node.operatorKey)] } : {}),
    ...users,
    package_update: true,
    packages: ["lvm2", "chrony"],
    ntp: { enabled: true, ntp_client: "chrony", servers: [AMAZON_TIME_SYNC] },
    write_files: [
      { path: RBD_MODULES_LOAD_FILE, owner: "root:root", permissions: "0644", content: "rbd\n" },
      ...(node.wireguard ? [{ path: WIREGUARD_MODULES_LOAD_FILE, owner: "root:root", permissions: "0644", content: "wireguard\n" }] : []),
      ...(node.hugepages2Mi > 0
        ? [{ path: HUGEPAGES_SYSCTL_FILE, owner: "root:root", permissions: "0644", content: `vm.nr_hugepages = ${node.hugepages2Mi}\n` }]
        : []),
    ],
    runcmd: [
      loadModule("rbd"),
      ...(node.wireguard ? [loadModule("wireguard")] : []),
      ...(node.hugepages2Mi > 0
        ? [
            `sysctl -p ${HUGEPAGES_SYSCTL_FILE}`,
            `test "$(cat /proc/sys/vm/nr_hugepages)" -eq ${node.hugepages2Mi} || { echo "reserved $(cat /proc/sys/vm/nr_hugepages) of ${node.hugepages2Mi} huge pages" >&2; exit 1; }`,
          ]
        : []),
    ],
  });
}

/** The systemd unit on the bastion that forwards the Kubernetes API port to the controller. */
export const API_FORWARD_UNIT = "lab-kube-api-forward.service";

/** What the bastion's document needs. */
export interface BastionCloudInit {
  /** The controller's private IPv4 address, where the API port is forwarded to. */
  readonly controllerPrivateIp: string;
  /** Every node's private IPv4 address: the only places the authorized keys may open a tunnel to (port 22). */
  readonly nodePrivateIps: readonly string[];
  /** The bastion's SSH host key. */
  readonly hostKey: HostKey;
  /** The public key k0sctl's bastion hop authenticates with (the bastion key, not the nodes'). */
  readonly bastionKey: string;
  /** The operator's own public key (`lab:sshPublicKey`), restricted the same way. */
  readonly operatorKey?: string;
  /** The Kubernetes API port on both ends. */
  readonly apiPort?: number;
}

/**
 * The bastion: an SSH jump host for k0sctl (`ssh.bastion`) that also forwards TCP 6443 to the
 * controller's Kubernetes API with socat, so Pulumi's Kubernetes provider on the operator's machine
 * reaches the API without a tunnel process. The forward runs as an unprivileged dynamic user. The
 * instance has no EC2 key pair: its only authorized keys are the ones here, each able to open a
 * tunnel to a node's SSH port and nothing else (ssh.ts `bastionAuthorizedKey`).
 */
export function renderBastionCloudInit(b: BastionCloudInit): string {
  const { controllerPrivateIp } = b;
  const apiPort = b.apiPort ?? 6443;
  if (!/^(\d{1,3}\.){3}\d{1,3}$/.test(controllerPrivateIp)) throw new RangeError(`not an IPv4 address: ${controllerPrivateIp}`);
  const unit = [
    "[Unit]",
    "Description=storage-bench-lab: forward the Kubernetes API port to the k0s controller",
    "Wants=network-online.target",
    "After=network-online.target",
    "",
    "[Service]",
    `ExecStart=/usr/bin/socat TCP-LISTEN:${apiPort},fork,reuseaddr TCP:${controllerPrivateIp}:${apiPort}`,
    "DynamicUser=yes",
    "Restart=always",
    "RestartSec=2",
    "",
    "[Install]",
    "WantedBy=multi-user.target",
    "",
  ].join("\n");
  const keys = [b.bastionKey, ...(b.operatorKey !== undefined ? [b.operatorKey] : [])];
  return cloudConfig({
    ...hostKeys(b.hostKey),
    ssh_authorized_keys: keys.map((k) => bastionAuthorizedKey(k, b.nodePrivateIps)),
    package_update: true,
    packages: ["socat"],
    write_files: [{ path: `/etc/systemd/system/${API_FORWARD_UNIT}`, owner: "root:root", permissions: "0644", content: unit }],
    runcmd: [
      ["systemctl", "daemon-reload"],
      ["systemctl", "enable", "--now", API_FORWARD_UNIT],
    ],
  });
}
