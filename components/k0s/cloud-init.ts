/**
 * cloud-init user data of the lab's EC2 instances, rendered with the `yaml` package. Pure.
 *
 * Every document starts with `#cloud-config` and passes `cloud-init schema --config-file` (the
 * tests run the real checker). Modules used: `package_update`/`packages`, `ntp`, `write_files`,
 * `runcmd` (https://cloudinit.readthedocs.io/en/latest/reference/modules.html).
 */
import YAML from "yaml";

/** Amazon Time Sync Service, link-local on every instance, Xen and Nitro alike. */
export const AMAZON_TIME_SYNC = "169.254.169.123";

/** Where the node loads the rbd module at every boot (systemd-modules-load). */
export const RBD_MODULES_LOAD_FILE = "/etc/modules-load.d/rbd.conf";

function cloudConfig(doc: Record<string, unknown>): string {
  return `#cloud-config\n${YAML.stringify(doc, { lineWidth: 0 })}`;
}

/**
 * A k0s node (controller or worker) that can host Ceph daemons and map RBD images:
 * - `lvm2`: ceph-volume (in Rook's OSD pods) prepares OSDs as LVM logical volumes on the raw device;
 * - the `rbd` kernel module, loaded now and at every boot: the Ceph-CSI node plugin maps RBD images
 *   with the kernel client (krbd). Ubuntu's cloud kernels may ship it in `linux-modules-extra`, so
 *   that package is installed when `modprobe rbd` finds no module;
 * - `chrony` synchronised to the Amazon Time Sync Service: Ceph monitors report HEALTH_WARN on clock
 *   skew above 0.05 s.
 * k0s brings its own containerd, runc and CNI plugins; nothing else is installed (no cgroup v1
 * switches: Ubuntu 24.04 runs cgroup v2, which k0s and Kubernetes 1.36 expect).
 */
export function renderNodeCloudInit(): string {
  return cloudConfig({
    package_update: true,
    packages: ["lvm2", "chrony"],
    ntp: { enabled: true, ntp_client: "chrony", servers: [AMAZON_TIME_SYNC] },
    write_files: [{ path: RBD_MODULES_LOAD_FILE, owner: "root:root", permissions: "0644", content: "rbd\n" }],
    runcmd: ['modprobe rbd || { apt-get install -y "linux-modules-extra-$(uname -r)" && modprobe rbd; }'],
  });
}

/** The systemd unit on the bastion that forwards the Kubernetes API port to the controller. */
export const API_FORWARD_UNIT = "lab-kube-api-forward.service";

/**
 * The bastion: an SSH jump host for k0sctl (`ssh.bastion`) that also forwards TCP 6443 to the
 * controller's Kubernetes API with socat, so Pulumi's Kubernetes provider on the operator's machine
 * reaches the API without a tunnel process. The forward runs as an unprivileged dynamic user.
 * @param controllerPrivateIp the controller's private IPv4 address
 * @param apiPort the Kubernetes API port on both ends
 */
export function renderBastionCloudInit(controllerPrivateIp: string, apiPort = 6443): string {
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
  return cloudConfig({
    package_update: true,
    packages: ["socat"],
    write_files: [{ path: `/etc/systemd/system/${API_FORWARD_UNIT}`, owner: "root:root", permissions: "0644", content: unit }],
    runcmd: [
      ["systemctl", "daemon-reload"],
      ["systemctl", "enable", "--now", API_FORWARD_UNIT],
    ],
  });
}
