/**
 * Every version the lab pins, in one place (DESIGN.md "Versions"). Pure: no Pulumi imports.
 *
 * Each value was checked against its upstream; the comment says where. Bump them together: k0s'
 * Kubernetes minor must be one Rook supports, and the Rook chart, its ceph-csi-drivers chart and the
 * CRDs in ../shared/schemas/crds/ceph.rook.io (Rook v1.20.6) must agree.
 */

/**
 * k0s, installed by k0sctl on every node. The newest stable release of the newest minor at the
 * time of pinning (k0sproject/k0s tag `v1.36.3+k0s.2`, 2026-08-11: Kubernetes 1.36.3; `+k0s.2`
 * bumps bundled images (CoreDNS, metrics-server, kube-proxy, CNI plugins, Calico, kube-router,
 * envoy) and fixes Autopilot restarts and the API server's anonymous-auth default over `+k0s.0`). Rook v1.20 supports
 * Kubernetes v1.31–v1.36 (rook/rook v1.20.6 Documentation/Getting-Started/Prerequisites).
 */
export const K0S_VERSION = "v1.36.3+k0s.2";

/** The k0sctl release the config format was checked against (k0sproject/k0sctl `v0.32.2`): `--config -` reads stdin. */
export const K0SCTL_VERSION = "v0.32.2";

/** The `rook-ceph` operator chart (https://charts.rook.io/release), matching the CRDs in shared/schemas. */
export const ROOK_CHART = { name: "rook-ceph", repo: "https://charts.rook.io/release", version: "v1.20.6" } as const;

/**
 * The Ceph-CSI drivers chart Rook v1.20 requires next to the operator chart (since v1.20 the CSI
 * drivers are configured by this chart, not by the operator's `csi.*` values): `ceph-csi-drivers`
 * 1.0.4 from https://ceph.github.io/ceph-csi-operator, the version Rook v1.20.6's own Helm
 * installer uses (tests/framework/installer/ceph_helm_installer.go) and the version of the
 * `ceph-csi-operator` subchart in the rook-ceph chart.
 */
export const CEPH_CSI_DRIVERS_CHART = {
  name: "ceph-csi-drivers",
  repo: "https://ceph.github.io/ceph-csi-operator",
  version: "1.0.4",
} as const;

/**
 * Ceph (Tentacle), the image Rook v1.20.6's deploy/examples/cluster.yaml pins. Rook v1.20 supports
 * Squid (v19) and Tentacle (v20); the Rook default is the combination upstream tests.
 */
export const CEPH_IMAGE = "quay.io/ceph/ceph:v20.2.4";

/**
 * PostgreSQL 17 server (official image on Debian 12). The pgbench client image of
 * components/bench/images.ts is the same tag, so client and server are the same release.
 */
export const POSTGRES_IMAGE = "docker.io/library/postgres:17.11-bookworm";

/**
 * The nodes' OS: Ubuntu 24.04 LTS (noble), amd64, from Canonical's own account. HVM images boot
 * on Xen (m4) and Nitro (m5) alike and carry the ENA, ixgbevf (m4's Intel 82599 VF) and NVMe drivers.
 * Owner id and name scheme: https://documentation.ubuntu.com/aws/aws-how-to/instances/find-ubuntu-images/
 */
export const UBUNTU_AMI = {
  owner: "099720109477",
  namePattern: "ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*",
  architecture: "x86_64",
} as const;
