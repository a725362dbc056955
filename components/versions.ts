/**
 * Every version the lab pins, in one place (README "Versions"). Pure: no Pulumi imports.
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

/**
 * The EKS Kubernetes minor of the `eks` stack kind (README "eks": how to move it). 1.35 is in EKS
 * standard support until 2027-03-27 (14 months after its EKS release; endoflife.date/amazon-eks,
 * as recorded in ../shared/facts/eks-trident-kafka-omb.md); 1.34 leaves it on 2026-12-02. Trident
 * 26.06 (the chart below) supports it (Kubernetes 1.27–1.36, same facts file; NetApp's 25.10 notes
 * already say "Kubernetes 1.35 is now supported", docs.netapp.com/us-en/trident/trident-install/kubernetes-deploy-helm.html).
 */
export const EKS_KUBERNETES_VERSION = "1.35";

/** The EKS add-ons the lab installs at a pinned version (AWS's own names, `aws eks describe-addon-versions`). */
export interface EksAddonVersions {
  readonly "vpc-cni": string;
  readonly "kube-proxy": string;
  readonly coredns: string;
  readonly "eks-pod-identity-agent": string;
  readonly "aws-ebs-csi-driver": string;
}

/**
 * Add-on versions per Kubernetes minor: a cluster version is usable only with a row here, so moving
 * the Kubernetes version is adding a row (checked with `aws eks describe-addon-versions
 * --kubernetes-version <minor> --addon-name <name>`) and changing {@link EKS_KUBERNETES_VERSION}.
 *
 * The 1.35 row is the set of versions seen together on an EKS 1.35 cluster in a public Terraform
 * configuration (a terraform.tfvars with `eks_cluster_version = "1.35"`, found through the lab's code
 * index; no AWS-published table for 1.35 could be read offline). It is third-party evidence: verify
 * it with the command above before the first `pulumi up` (a version EKS does not offer for the
 * cluster fails CreateAddon with InvalidParameterException, nothing else is created by it).
 */
export const EKS_ADDON_VERSIONS: Readonly<Record<string, EksAddonVersions>> = {
  "1.35": {
    "vpc-cni": "v1.21.1-eksbuild.3",
    "kube-proxy": "v1.35.0-eksbuild.2",
    coredns: "v1.13.2-eksbuild.1",
    "eks-pod-identity-agent": "v1.3.10-eksbuild.3",
    "aws-ebs-csi-driver": "v1.57.1-eksbuild.1",
  },
};

/**
 * NetApp Trident's operator chart (Trident 26.06.0): repository and version from NetApp's "Deploy
 * Trident operator using Helm" (docs.netapp.com/us-en/trident-2606/trident-install/kubernetes-deploy-helm.html:
 * `helm repo add netapp-trident https://netapp.github.io/trident-helm-chart`); `version: 100.2606.0`
 * and `appVersion: 26.06.0` in NetApp/trident v26.06.0 `helm/trident-operator/Chart.yaml`. Its
 * values file is ../shared/schemas/helm/trident-operator-100.2606.0.values.yaml.
 */
export const TRIDENT_CHART = {
  name: "trident-operator",
  repo: "https://netapp.github.io/trident-helm-chart",
  version: "100.2606.0",
} as const;

/**
 * MySQL 8.4 LTS server, the official image: `Tags: 8.4.11, 8.4, 8, …` in docker-library/official-images
 * `library/mysql` (commit c0fa14df, 2026-07-27), Oracle Linux 9 based, user `mysql` uid/gid 999
 * (docker-library/mysql `8.4/Dockerfile.oracle`: `useradd --system --uid 999 --gid 999 … mysql`).
 */
export const MYSQL_IMAGE = "docker.io/library/mysql:8.4.11";

/**
 * Percona XtraBackup 8.4 (XtraBackup must match the server's major version: 8.4 backs up MySQL 8.4
 * only, docs.percona.com/percona-xtrabackup/8.4). Tag = `XTRABACKUP_VERSION 8.4.0-5.1` of
 * percona/percona-docker `percona-xtrabackup-8.x/Dockerfile` (commit 63de95ae, 2026-01-14), which
 * installs `socat` and the Percona Server 8.4 client next to xtrabackup and runs as uid 1001.
 * Its server version check (issue 39 item 6) compares the server with XtraBackup's *major* version:
 * "if you use Percona XtraBackup 8.4.x, you can safely back up the source server from 8.4.x to
 * 8.4.xx"; it stops only for another major (docs.percona.com/percona-xtrabackup/8.4/
 * server-backup-version-comparison.html). So 8.4.0-5 backs up the pinned 8.4.11 as it is, and
 * components/mysql/scripts/xtrabackup.sh passes no `--no-server-version-check` (which would also
 * let a 9.x server through, with a backup Percona calls at risk of corruption).
 */
export const XTRABACKUP_IMAGE = "docker.io/percona/percona-xtrabackup:8.4.0-5.1";

/**
 * Strimzi 1.2.0 (2026-08-18), the operator of the `kafka` kind: its Helm chart from Strimzi's OCI
 * registry (the strimzi.io/charts repository is deprecated: ../shared/facts/eks-trident-kafka-omb.md):
 * `helm install … oci://quay.io/strimzi-helm/strimzi-kafka-operator` in the chart's README at tag
 * 1.2.0 (commit 6c7b43c4); the release pipeline pushes the chart under the release version
 * (`.azure/templates/jobs/build/publish_helm_chart_as_oci.yaml`: `helm push
 * strimzi-kafka-operator-helm-3-chart-${releaseVersion}.tgz oci://$DOCKER_REGISTRY/$DOCKER_ORG`; the
 * Chart.yaml in git holds a placeholder). Its CRDs are ../shared/schemas/crds/kafka.strimzi.io (same
 * tag) and its values file ../shared/schemas/helm/strimzi-kafka-operator-1.2.0.values.yaml.
 */
export const STRIMZI_CHART = { chart: "oci://quay.io/strimzi-helm/strimzi-kafka-operator", version: "1.2.0" } as const;

/**
 * Kafka 4.3.1 (KRaft), Strimzi 1.2.0's default and newest supported Kafka (1.2.0 supports 4.2.0,
 * 4.2.1, 4.3.0, 4.3.1: the `STRIMZI_KAFKA_IMAGES` map of the chart's templates), and its metadata
 * version `4.3-IV0` (packaging/examples/kafka/kafka-persistent.yaml at tag 1.2.0).
 */
export const KAFKA_VERSION = "4.3.1";
export const KAFKA_METADATA_VERSION = "4.3-IV0";

/**
 * Strimzi's Kafka 4.3.1 image, the one its operator runs the brokers with
 * (`<defaultImageRegistry>/<defaultImageRepository>/kafka:<defaultImageTag>-kafka-4.3.1` in the chart's
 * `strimzi.kafka.image.map`: quay.io/strimzi/kafka:1.2.0-kafka-4.3.1). The lab runs it too for the
 * storage toolbox and the topic clean-up between benchmark cells (same Kafka CLI as the brokers;
 * user 1001, group 0: `useradd -r -m -u 1001 -g 0 kafka` in docker-images/kafka-based/kafka/Dockerfile).
 */
export const STRIMZI_KAFKA_IMAGE = "quay.io/strimzi/kafka:1.2.0-kafka-4.3.1";

/**
 * OpenMessaging Benchmark, built from source: there is no maintained public image (the Docker Hub
 * one carries a Kafka 1.0 client, which Kafka 4 refuses, KIP-896). Pinned to the newest commit of
 * openmessaging/benchmark `master` when this was written (85599891, 2026-01-04, "Support RocketMQ5
 * benchmark using grpc sdk (#444)"); its `docker/Dockerfile.build` (Maven 3.9.9 + Temurin 17 build,
 * Temurin 17 runtime, "working again" since #436, 2025-07-25) is built as it is, with the repository
 * at that commit as the build context. driver-kafka uses kafka-clients 3.6.1 (driver-kafka/pom.xml).
 */
export const OMB_SOURCE = {
  repository: "https://github.com/openmessaging/benchmark.git",
  commit: "85599891321cafa2fb7065a63f009b4bb5374288",
  dockerfile: "docker/Dockerfile.build",
} as const;

/**
 * The image of the Job that sets the Kafka data volumes' export policy and root ownership through
 * the ONTAP REST API (components/kafka/ontap.ts): the official Python image, standard library only
 * (urllib, ssl, json). Tag `3.13.16-alpine3.24`: the newest 3.13 release built on Alpine 3.24 in
 * October 2026 ("PYTHON_VERSION moves from 3.13.3 to 3.13.16, the latest 3.13 patch release
 * published for Alpine 3.24", osism/python-osism release v0.20261023.0, which moved to it).
 */
export const ONTAP_TOOLS_IMAGE = "docker.io/library/python:3.13.16-alpine3.24";
