/**
 * The method tables of docs/experiments.md: every parameter of a published setup, where the source
 * states it, the value the lab ships, and "same" or why it differs. Data here, rendered by
 * `npm run docs` (lab/docs/pages.ts); test/lab/report/methods.test.ts plans the shipped stacks and fails
 * when a row's lab value is not what the plan holds, or when a row marked "same" is not. So a
 * shipped config cannot diverge from its table unlisted.
 *
 * Ceph on Nitro: koor-tech/experiment-ceph-on-nitro at 6686fc84f2f74058e7743830ff4c06a33bed42a1;
 * FSx on EKS: aws-samples/mltiaz-fsxontap-eks at 612a7dfda2625815c32a0737af255eba0eb3c50e and the
 * AWS blog post (files and lines of those commits). Kafka on FSx: NetApp's "Performance overview and
 * validation in AWS FSx for NetApp ONTAP" page (NetAppDocs/netapp-solutions at 06ea8b2b,
 * data-analytics/kafka-nfs-performance-overview-and-validation-in-aws-FSxN.adoc: "FSx page") and the
 * Cloud Volumes ONTAP page whose OMB configuration it reuses ("We used the same configuration used for
 * the NetApp Cloud volumes ONTAP"; at 061dd533, data-analytics/kafka-nfs-performance-overview-and-
 * validation-in-aws.adoc: "CVO page"), cited by section.
 */
import YAML from "yaml";
import { PUBLISHED_BROKER_CONFIG } from "../../components/kafka/rules";
import { UBUNTU_AMI } from "../../components/versions";
import type { PlannedResource, StackPlan } from "../plan/run";

/** One parameter of a published setup. */
export interface MethodRow {
  readonly parameter: string;
  /** Where the source states it: `file:line` of its repository, or the publication's section. */
  readonly source: string;
  /** The published value as the source writes it. */
  readonly published: string;
  /** The published value in the lab's notation, when it is the same setting written otherwise (`--client=20` is `-c 20`). */
  readonly publishedAs?: string;
  /** The lab's shipped value, as {@link read} finds it in the plan. */
  readonly lab: string;
  /** Why the lab differs; absent: the same. */
  readonly differs?: string;
  /** The shipped stack the value is read from. @default the table's `stack` */
  readonly stack?: string;
  /** Reads the lab's value from the planned shipped stack. */
  readonly read: (plan: StackPlan) => string;
}

export interface MethodTable {
  readonly experiment: string;
  /** The shipped stack the table's lab values are read from (a row may name another). */
  readonly stack: string;
  /** Every shipped stack the rows read, planned together (the scenario's, with their upstreams). */
  readonly stacks: readonly string[];
  /** The source repository (its files are cited by path and line) at the commit read, or the publication's page. */
  readonly repository: string;
  /** The link text of a source that is not a GitHub repository at a commit. */
  readonly sourceTitle?: string;
  /** A second publication the rows cite. */
  readonly alsoSource?: { readonly title: string; readonly url: string };
  readonly rows: readonly MethodRow[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

function named(p: StackPlan, name: string): PlannedResource {
  const r = p.resources.find((x) => x.name === name);
  if (r === undefined) throw new Error(`the plan of ${p.stack} has no resource '${name}'`);
  return r;
}
const inputs = (p: StackPlan, name: string): Any => named(p, name).inputs;
const k0sctl = (p: StackPlan): Any => YAML.parse(String(inputs(p, "ceph-k0sctl-apply").environment.LAB_K0SCTL_CONFIG));
const k0sNetwork = (p: StackPlan): Any => k0sctl(p).spec.k0s.config.spec.network;
const cluster = (p: StackPlan): Any => inputs(p, "rook-cluster").spec;
/** The pod spec of the planned Job `name`. */
const jobPod = (p: StackPlan, name: string): Any => inputs(p, name).spec.template.spec;
/** The literal environment of a pod spec's first container (valueFrom entries left out). */
function envOf(spec: Any): Record<string, string> {
  return Object.fromEntries(
    (spec.containers[0].env as { name: string; value?: string }[]).filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]),
  );
}
const pgbenchJob = (p: StackPlan): Any => jobPod(p, "pgbench-pgbench");
const pgbenchEnv = (p: StackPlan): Record<string, string> => envOf(pgbenchJob(p));
const postgres = (p: StackPlan): Any => inputs(p, "pg-server").spec;
const res = (r: Any) => `requests ${r.requests.cpu} / ${r.requests.memory}, limits ${r.limits.cpu} / ${r.limits.memory}`;
const workers = (p: StackPlan) => p.resources.filter((r) => r.type === "aws:ec2/instance:Instance" && /^ceph-worker-\d+$/.test(r.name));

/** The commit of koor-tech/experiment-ceph-on-nitro the Ceph table cites. */
const KOOR = "https://github.com/koor-tech/experiment-ceph-on-nitro/tree/6686fc84f2f74058e7743830ff4c06a33bed42a1";

export const CEPH_METHOD: MethodTable = {
  experiment: "ceph-nitro",
  stack: "dev",
  stacks: ["network", "dev"],
  repository: KOOR,
  rows: [
    {
      parameter: "instance type (stack dev / the source's stock)",
      source: "pulumi/Pulumi.stock.yaml:4",
      published: "m4.xlarge",
      lab: "m4.xlarge",
      read: (p) => [...new Set(workers(p).map((w) => String(w.inputs.instanceType)))].join(", "),
    },
    {
      parameter: "nodes",
      source: "k0s/k0sctl.yaml.pre:64-91",
      published: "1 controller + 3 workers",
      lab: "1 controller + 3 workers",
      read: (p) =>
        `${p.resources.filter((r) => r.name === "ceph-controller" && r.type === "aws:ec2/instance:Instance").length} controller + ${workers(p).length} workers`,
    },
    {
      parameter: "region",
      source: "pulumi/Pulumi.stock.yaml:3",
      published: "us-west-2",
      lab: "us-east-1",
      differs: "any region with both instance types; the shipped network stack is in us-east-1",
      read: (p) => String(inputs(p, "aws").region),
    },
    {
      parameter: "OS image",
      source: "pulumi/src/compute.ts:44-50",
      published: "ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-20220420",
      lab: UBUNTU_AMI.namePattern,
      differs: "Ubuntu 22.04's image of 2022 is long out of support; the newest 24.04 LTS image",
      read: () => UBUNTU_AMI.namePattern,
    },
    {
      parameter: "cgroup hierarchy",
      source: "config/aws/ec2-worker-userdata.bash:64-67",
      published: "v1 (systemd.unified_cgroup_hierarchy=0)",
      lab: "v2 (Ubuntu 24.04's default)",
      differs:
        "Kubernetes has deprecated cgroup v1 (the kubelet's failCgroupV1); Ubuntu 24.04 and the pinned k0s run cgroup v2, which accounts huge pages and memory limits differently",
      // The nodes' user data is a secret in the plan; the lab changes no kernel command line
      // (components/k0s/cloud-init.ts), so the hierarchy is the image's: noble's is v2.
      read: () =>
        UBUNTU_AMI.namePattern.includes("ubuntu-noble-24.04") ? "v2 (Ubuntu 24.04's default)" : `the default of ${UBUNTU_AMI.namePattern}`,
    },
    {
      parameter: "OSD volume per worker",
      source: "pulumi/src/compute.ts:136",
      published: "350 GiB gp3 (baseline 3000 IOPS, 125 MiB/s)",
      lab: "350 GiB gp3 (baseline 3000 IOPS, 125 MiB/s)",
      read: (p) => {
        const v = inputs(p, "ceph-osd-1");
        return `${v.size} GiB ${v.type} (baseline ${v.iops} IOPS, ${v.throughput} MiB/s)`;
      },
    },
    {
      parameter: "root volume",
      source: "pulumi/src/compute.ts:129-130",
      published: "32 GiB gp3",
      lab: "30 GiB gp3",
      differs: "the lab's default; the root volume holds the OS and images, not Ceph's or Postgres' data",
      read: (p) => {
        const r = inputs(p, "ceph-worker-1").rootBlockDevice;
        return `${r.volumeSize} GiB ${r.volumeType}`;
      },
    },
    {
      parameter: "k0s version",
      source: "k0s/k0sctl.yaml.pre:8",
      published: "1.23.5+k0s.0",
      lab: "v1.36.3+k0s.2",
      differs: "k0s 1.23 (Kubernetes 1.23) is long out of support; the pinned current release (components/versions.ts)",
      read: (p) => String(k0sctl(p).spec.k0s.version),
    },
    {
      parameter: "CNI",
      source: "k0s/k0sctl.yaml.pre:29-35",
      published: "calico, mode vxlan, vxlanPort 4789, vxlanVNI 4096, mtu 1450, wireguard true",
      lab: "calico, mode vxlan, vxlanPort 4789, vxlanVNI 4096, mtu 1450, wireguard true",
      read: (p) => {
        const n = k0sNetwork(p);
        const c = n.calico ?? {};
        return `${n.provider}, mode ${c.mode}, vxlanPort ${c.vxlanPort}, vxlanVNI ${c.vxlanVNI}, mtu ${c.mtu}, wireguard ${c.wireguard}`;
      },
    },
    {
      parameter: "pod and service networks",
      source: "k0s/k0sctl.yaml.pre:27-28",
      published: "10.244.0.0/16, 10.96.0.0/12",
      lab: "10.244.0.0/16, 10.96.0.0/12",
      read: (p) => `${k0sNetwork(p).podCIDR}, ${k0sNetwork(p).serviceCIDR}`,
    },
    {
      parameter: "Ceph image",
      source: "k8s/base/rook-ceph.cluster.yaml:9",
      published: "quay.io/ceph/ceph:v16.2.7",
      lab: "quay.io/ceph/ceph:v20.2.4",
      differs:
        "Ceph 16 (Pacific) is end of life and not among the versions the pinned Rook v1.20.6 runs; the Ceph pinned with it (components/versions.ts)",
      read: (p) => String(cluster(p).cephVersion.image),
    },
    {
      parameter: "monitors, managers",
      source: "k8s/base/rook-ceph.cluster.yaml:36, 45",
      published: "3 mons, 2 mgrs, one a node",
      lab: "3 mons, 2 mgrs, one a node",
      read: (p) =>
        `${cluster(p).mon.count} mons, ${cluster(p).mgr.count} mgrs${!cluster(p).mon.allowMultiplePerNode && !cluster(p).mgr.allowMultiplePerNode ? ", one a node" : ""}`,
    },
    {
      parameter: "Ceph network",
      source: "k8s/base/rook-ceph.cluster.yaml:84-85 (provider: host commented out)",
      published: "the pod network",
      lab: "the pod network",
      read: (p) => (cluster(p).network?.provider === "host" ? "host" : "the pod network"),
    },
    {
      parameter: "Ceph OSD resources",
      source: "k8s/base/rook-ceph.cluster.yaml:218-224",
      published: "requests 500m / 1024Mi, limits 1000m / 2Gi",
      publishedAs: "requests 500m / 1Gi, limits 1 / 2Gi",
      lab: "requests 500m / 1Gi, limits 1 / 2Gi",
      read: (p) => res(cluster(p).resources.osd),
    },
    {
      parameter: "Ceph monitor resources",
      source: "k8s/base/rook-ceph.cluster.yaml:211-217",
      published: "requests 500m / 1024Mi, limits 1000m / 2Gi",
      publishedAs: "requests 500m / 1Gi, limits 1 / 2Gi",
      lab: "requests 500m / 1Gi, limits 1 / 2Gi",
      read: (p) => res(cluster(p).resources.mon),
    },
    {
      parameter: "Ceph manager resources",
      source: "k8s/base/rook-ceph.cluster.yaml:204-210",
      published: "requests 500m / 1024Mi, limits 500m / 1024Mi",
      publishedAs: "requests 500m / 1Gi, limits 500m / 1Gi",
      lab: "requests 500m / 1Gi, limits 500m / 1Gi",
      read: (p) => res(cluster(p).resources.mgr),
    },
    {
      parameter: "Ceph dashboard",
      source: "k8s/base/rook-ceph.cluster.yaml:54-55",
      published: "enabled",
      lab: "disabled",
      differs: "nothing reads it; one less listener and mgr module on the measured nodes",
      read: (p) => (cluster(p).dashboard?.enabled ? "enabled" : "disabled"),
    },
    {
      parameter: "RBD pool",
      source: "k8s/base/rbd.storageclass.yaml:7-12",
      published: "3 replicas, failure domain host, requireSafeReplicaSize",
      lab: "3 replicas, failure domain host, requireSafeReplicaSize",
      read: (p) => {
        const s = inputs(p, "rook-pool").spec;
        return `${s.replicated.size} replicas, failure domain ${s.failureDomain}${s.replicated.requireSafeReplicaSize ? ", requireSafeReplicaSize" : ""}`;
      },
    },
    {
      parameter: "RBD StorageClass",
      source: "k8s/base/rbd.storageclass.yaml:60-76",
      published: "imageFormat 2, imageFeatures layering, ext4",
      lab: "imageFormat 2, imageFeatures layering, ext4",
      read: (p) => {
        const s = inputs(p, "rook-block").parameters;
        return `imageFormat ${s.imageFormat}, imageFeatures ${s.imageFeatures}, ${s["csi.storage.k8s.io/fstype"]}`;
      },
    },
    {
      parameter: "Postgres volume",
      source: "k8s/base/pg.pvc.yaml:8-13",
      published: "64Gi on rook-ceph-block",
      lab: "64Gi on rook-ceph-block",
      read: (p) => {
        const c = postgres(p).volumeClaimTemplates[0].spec;
        return `${c.resources.requests.storage} on ${c.storageClassName}`;
      },
    },
    {
      parameter: "Postgres server",
      source: "k8s/base/postgres.deployment.yaml:23; k8s/base/pg.configmap.yaml:67",
      published: "postgres:14.2-alpine, a Deployment; postgresql.conf sets only listen_addresses",
      lab: "docker.io/library/postgres:17.11-bookworm, a StatefulSet with the image's configuration",
      differs: "PostgreSQL 14 reached its end of life in November 2026; the pinned 17 (components/versions.ts)",
      read: (p) => `${postgres(p).template.spec.containers[0].image}, a StatefulSet with the image's configuration`,
    },
    {
      parameter: "Postgres resources",
      source: "k8s/base/postgres.deployment.yaml:27-35",
      published: "1 CPU / 4Gi, hugepages-2Mi 64Mi, requests = limits",
      lab: "1 CPU / 4Gi, hugepages-2Mi 64Mi, requests = limits",
      read: (p) => {
        const r = postgres(p).template.spec.containers[0].resources;
        const same = JSON.stringify(r.requests) === JSON.stringify(r.limits) ? ", requests = limits" : "";
        return `${r.limits.cpu} CPU / ${r.limits.memory}, hugepages-2Mi ${r.limits["hugepages-2Mi"] ?? "none"}${same}`;
      },
    },
    {
      parameter: "huge pages a node",
      source: "config/aws/ec2-worker-userdata.bash:100-102",
      published: "2048 (vm.nr_hugepages)",
      lab: "2048 (vm.nr_hugepages)",
      read: (p) => `${p.config["lab:hugepages2Mi"] ?? "2048"} (vm.nr_hugepages)`,
    },
    {
      parameter: "pgbench initialisation",
      source: "k8s/base/pgbench.job.yaml:33-36",
      published: "pgbench --initialize --foreign-keys --scale=1000",
      publishedAs: "pgbench -i -s 1000 --foreign-keys",
      lab: "pgbench -i -s 1000 --foreign-keys",
      read: (p) => {
        const e = pgbenchEnv(p);
        return `pgbench -i -s ${e.PGBENCH_SCALE}${e.PGBENCH_FOREIGN_KEYS === "1" ? " --foreign-keys" : ""}`;
      },
    },
    {
      parameter: "pgbench run",
      source: "k8s/base/pgbench.job.yaml:57-61",
      published: "pgbench --report-latencies --jobs=2 --client=20 --time=300",
      publishedAs: "pgbench -c 20 -j 2 -T 300 -r",
      lab: "pgbench -c 20 -j 2 -T 300 -r",
      read: (p) => {
        const e = pgbenchEnv(p);
        return `pgbench -c ${e.PGBENCH_CLIENTS} -j ${e.PGBENCH_THREADS} -T ${e.PGBENCH_DURATION}${e.PGBENCH_PER_STATEMENT === "1" ? " -r" : ""}`;
      },
    },
    {
      parameter: "pgbench client resources",
      source: "k8s/base/pgbench.job.yaml:49-55",
      published: "requests 2 / 8Gi, limits 2 / 8Gi",
      lab: "requests 2 / 8Gi, limits 2 / 8Gi",
      read: (p) => res(pgbenchJob(p).containers[0].resources),
    },
    {
      parameter: "pgbench client image",
      source: "k8s/base/pgbench.job.yaml:47",
      published: "postgres:14.1-alpine",
      lab: "docker.io/library/postgres:17.11-bookworm",
      differs: "the server's image; pgbench 17 prints the per-statement block with a failures column, which the parser reads",
      read: (p) => String(pgbenchJob(p).containers[0].image),
    },
    {
      parameter: "repetitions",
      source: "results/2vcpu-8gb.{stock,nitro}.run-{1,2,3}.pgbench.output",
      published: "3 a side",
      lab: "3 a side",
      read: (p) => `${pgbenchEnv(p).REPS} a side`,
    },
    {
      parameter: "initialisation per repetition",
      source: "k8s/base/pgbench.job.yaml:29-36 (an init container of the Job)",
      published: "before every run",
      lab: "once a database, then CHECKPOINT and 30 s",
      differs: "every repetition starts from the same state without rewriting 16 GB (components/bench/scripts/pgbench.sh)",
      read: (p) =>
        `${pgbenchEnv(p).PGBENCH_INIT === "auto" ? "once a database" : pgbenchEnv(p).PGBENCH_INIT}, then CHECKPOINT and ${pgbenchEnv(p).PGBENCH_SETTLE} s`,
    },
    {
      parameter: "placement",
      source: "k8s/base/pgbench.job.yaml, postgres.deployment.yaml (no nodeSelector)",
      published: "the scheduler's choice",
      lab: "Postgres on worker 1, the client on worker 2, the managers off worker 2",
      differs: "dev and nitro place alike; the config refuses resources that would not fit",
      read: (p) => {
        const pg = postgres(p).template.spec.nodeSelector?.["storage-bench-lab/worker"];
        const client = pgbenchJob(p).nodeSelector?.["storage-bench-lab/worker"];
        const mgr =
          cluster(p).placement?.mgr?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
            ?.matchExpressions?.[0]?.values?.[0];
        return `Postgres on worker ${pg}, the client on worker ${client}, the managers off worker ${mgr}`;
      },
    },
  ],
};

/** aws-samples/mltiaz-fsxontap-eks at the commit read (the blog's sample repository). */
const FSX_SAMPLE = "https://github.com/aws-samples/mltiaz-fsxontap-eks/tree/612a7dfda2625815c32a0737af255eba0eb3c50e";
const fsx = (p: StackPlan): Any => inputs(p, "fsx-fs");
const zoneOf = (spec: Any): string =>
  spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0];

export const FSX_METHOD: MethodTable = {
  experiment: "fsx-eks",
  stack: "fsx-eks",
  stacks: ["network", "fsx-eks-cluster", "fsx-eks-ontap", "fsx-eks"],
  repository: FSX_SAMPLE,
  rows: [
    {
      parameter: "FSx for ONTAP deployment type",
      source: "FSxONTAP/FSxONTAP.yaml:254",
      published: "MULTI_AZ_1",
      lab: "MULTI_AZ_1",
      stack: "fsx-eks-ontap",
      read: (p) => String(fsx(p).deploymentType),
    },
    {
      parameter: "storage capacity",
      source: "FSxONTAP/FSxONTAP.yaml:74-77 (Default)",
      published: "1024 GiB",
      lab: "1024 GiB",
      stack: "fsx-eks-ontap",
      read: (p) => `${fsx(p).storageCapacity} GiB`,
    },
    {
      parameter: "throughput capacity",
      source: "FSxONTAP/FSxONTAP.yaml:83-87 (AllowedValues, no Default)",
      published: "512, 1024 or 2048 MB/s, the user's choice",
      lab: "512 MB/s",
      differs: "the template leaves it to the user; the lab ships the smallest it allows",
      stack: "fsx-eks-ontap",
      read: (p) => `${fsx(p).throughputCapacity} MB/s`,
    },
    {
      parameter: "preferred subnet",
      source: "FSxONTAP/FSxONTAP.yaml:257",
      published: "the first of the two subnets",
      lab: "the first of the two subnets",
      stack: "fsx-eks-ontap",
      read: (p) =>
        fsx(p).preferredSubnetId === fsx(p).subnetIds[0] && fsx(p).subnetIds.length === 2 ? "the first of the two subnets" : "another",
    },
    {
      parameter: "region",
      source: "eks/cluster.yaml:5",
      published: "ap-southeast-2",
      lab: "us-east-1",
      differs: "any region with FSx for ONTAP Multi-AZ; the shipped network stack is in us-east-1",
      stack: "fsx-eks-cluster",
      read: (p) => String(p.config["aws:region"]),
    },
    {
      parameter: "EKS nodes",
      source: "eks/cluster.yaml:24-30",
      published: "3 × t3.large over two zones",
      lab: "3 × m5.xlarge over two zones",
      differs:
        "t3 is burstable: its CPU credits and network baseline would shape the numbers; m5.xlarge holds the fio and MySQL Jobs without bursting",
      stack: "fsx-eks-cluster",
      read: (p) => `${p.config["lab:nodeCount"]} × ${p.config["lab:instanceType"]} over two zones`,
    },
    {
      parameter: "Trident backend",
      source: "eks/backend-ontap-nas.yaml:7-14",
      published: "ontap-nas, management and data LIFs, credentials in a Kubernetes Secret",
      lab: "ontap-nas, the FSx-aware backend (aws.fsxFilesystemID), credentials in Secrets Manager",
      differs: "Trident's FSx integration finds the LIFs and keeps the vsadmin password out of the cluster",
      read: (p) => {
        const b = inputs(p, "trident-ontap-nas").spec;
        return `${b.storageDriverName}, ${b.aws?.fsxFilesystemID ? "the FSx-aware backend (aws.fsxFilesystemID)" : "LIFs"}, credentials in ${b.credentials?.type === "awsarn" ? "Secrets Manager" : "a Kubernetes Secret"}`;
      },
    },
    {
      parameter: "StorageClass",
      source: "eks/storage-class-csi-nas.yaml:5-10",
      published: "csi.trident.netapp.io, backendType ontap-nas, reclaimPolicy Retain, no mount options",
      lab: "csi.trident.netapp.io, backendType ontap-nas, reclaimPolicy Delete, mount nfsvers=4.1",
      differs: "a lab keeps no volume (lab:reclaimPolicy); NFS 4.1 pinned rather than left to the client's negotiation",
      read: (p) => {
        const c = inputs(p, "trident-ontap-nas-class");
        return `${c.provisioner}, backendType ${c.parameters.backendType}, reclaimPolicy ${c.reclaimPolicy}, mount ${c.mountOptions.filter((o: string) => o.startsWith("nfsvers")).join(",")}`;
      },
    },
    {
      parameter: "volume under test",
      source: "eks/pod_performance_same_AZ.yaml:1-11",
      published: "10Gi, ReadWriteOnce",
      lab: "64Gi, ReadWriteOnce",
      differs: "the fio file is 8 GiB: a 64 GiB volume leaves room for the latency profile and the file system's reserve",
      read: (p) => {
        const c = inputs(p, "nas-same-seed-data").spec;
        return `${c.resources.requests.storage}, ${c.accessModes.join(", ")}`;
      },
    },
    {
      parameter: "pod placement",
      source: "eks/pod_performance_same_AZ.yaml:31-32, pod_performance_different_AZ.yaml",
      published: "a nodeSelector on the zone: the file system's zone, then the other",
      lab: "a node affinity on the zone: us-east-1a (the preferred subnet's), then us-east-1b",
      differs: "topology.kubernetes.io/zone, the well-known label, instead of the EBS CSI driver's topology.ebs.csi.aws.com/zone",
      read: (p) =>
        `a node affinity on the zone: ${zoneOf(jobPod(p, "nas-same-seed-fio"))} (the preferred subnet's), then ${zoneOf(jobPod(p, "nas-cross-seed-fio"))}`,
    },
    {
      parameter: "fio workload",
      source: "the AWS blog post, its fio command (components/bench/profiles.ts PUBLISHED_FIO_LINE)",
      published: "profile seed: 4k randrw 75/25, iodepth 64, 8G, libaio, direct, gtod_reduce",
      lab: "profile seed: 4k randrw 75/25, iodepth 64, 8G, libaio, direct, gtod_reduce",
      read: (p) => {
        const e = envOf(jobPod(p, "nas-same-seed-fio"));
        return e.FIO_PROFILE === "seed" && e.FIO_SIZE === "8G"
          ? "profile seed: 4k randrw 75/25, iodepth 64, 8G, libaio, direct, gtod_reduce"
          : `profile ${e.FIO_PROFILE}, ${e.FIO_SIZE}`;
      },
    },
    {
      parameter: "repetitions",
      source: "the AWS blog post (one result each)",
      published: "1",
      lab: "3",
      differs: "a median and a spread need more than one run (lab:reps)",
      read: (p) => envOf(jobPod(p, "nas-same-seed-fio")).REPS,
    },
    {
      parameter: "MySQL StatefulSet",
      source: "eks/mysql/mysql-statefulset.yaml:11, 67, 98, 166-169",
      published: "2 replicas, mysql:5.7, xtrabackup 1.0 (gcr.io/google-samples), 30Gi on trident-csi",
      lab: "3 replicas, docker.io/library/mysql:8.4.11, 50Gi on fsx-ontap-nas",
      differs:
        "MySQL 5.7 is end of life (the lab runs 8.4 LTS with Percona XtraBackup 8.4); the replica count and volume size are lab:mysqlReplicas and lab:mysqlVolumeGiB",
      read: (p) => {
        const m = inputs(p, "mysql-servers").spec;
        const c = m.volumeClaimTemplates[0].spec;
        return `${m.replicas} replicas, ${m.template.spec.containers[0].image}, ${c.resources.requests.storage} on ${c.storageClassName}`;
      },
    },
  ],
};

const NETAPP_FSX_PAGE =
  "https://docs.netapp.com/us-en/netapp-solutions/data-analytics/kafka-nfs-performance-overview-and-validation-in-aws-FSxN.html";
/** The managed node group `name` (its launch template has the same name). */
const nodeGroup = (p: StackPlan, name: string): Any => {
  const r = p.resources.find((x) => x.type === "eks:index:ManagedNodeGroup" && x.name === `eks-nodes-${name}`);
  if (r === undefined) throw new Error(`the plan of ${p.stack} has no node group 'eks-nodes-${name}'`);
  return r.inputs;
};
const group = (p: StackPlan, name: string) =>
  `${nodeGroup(p, name).scalingConfig.desiredSize} × ${nodeGroup(p, name).instanceTypes.join(", ")}`;
const kafkaSpec = (p: StackPlan): Any => inputs(p, "kafka-kafka").spec.kafka;
const brokerPvs = (p: StackPlan): Any[] =>
  p.resources.filter((r) => /^kafka-pv-data-\d+-kafka-brokers-\d+$/.test(r.name)).map((r) => r.inputs.spec);
const ombData = (p: StackPlan): Record<string, string> => inputs(p, "omb-config").data;
const ombWorkload = (p: StackPlan): Any => YAML.parse(ombData(p)["workload.yaml"]);
const ombDrivers = (p: StackPlan): Any[] =>
  Object.entries(ombData(p))
    .filter(([k]) => k.startsWith("driver-"))
    .map(([k, v]) => ({ file: k, ...YAML.parse(v) }));
const ombJobEnv = (p: StackPlan): Record<string, string> =>
  envOf(
    (p.resources.find((r) => r.type === "kubernetes:batch/v1:Job" && r.name.startsWith("omb-kafka-"))!.inputs as Any).spec.template.spec,
  );
const NETAPP_CVO_PAGE =
  "https://docs.netapp.com/us-en/netapp-solutions/data-analytics/kafka-nfs-performance-overview-and-validation-in-aws.html";
/** NetApp's workload block (CVO page), key by key. */
const NETAPP_WORKLOAD =
  "topics 4, partitionsPerTopic 100, messageSize 32768, useRandomizedPayloads true, randomBytesRatio 0.5, randomizedPayloadPoolSize 100, subscriptionsPerTopic 1, consumerPerSubscription 80, producersPerTopic 40, producerRate 1000000, consumerBacklogSizeGB 0, testDurationMinutes 5";
/** The client settings of NetApp's two driver files (CVO page), besides the factor, the minimum ISR and the bootstrap servers. */
const NETAPP_DRIVER_SETTINGS =
  "kafka-sync: flush.messages=1, flush.ms=0; producer acks=all, linger.ms=1, batch.size=1048576; consumer auto.offset.reset=earliest, enable.auto.commit=false, max.partition.fetch.bytes=10485760. kafka-throughput: default.api.timeout.ms=1200000, request.timeout.ms=1200000; the same producer and consumer settings";
/** The planned driver files' settings in {@link NETAPP_DRIVER_SETTINGS}'s words (RF 3's files). */
function driverSettings(p: StackPlan): string {
  const lines = (text: string | undefined) =>
    (text ?? "")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
  const of = (driver: string) => ombDrivers(p).find((x) => x.file === `driver-${driver}-rf3.yaml`);
  const sync = of("kafka-sync");
  const thr = of("kafka-throughput");
  if (!sync || !thr) return "missing";
  const topic = lines(sync.topicConfig).filter((l) => !l.startsWith("min.insync.replicas="));
  const common = lines(thr.commonConfig).filter((l) => !l.startsWith("bootstrap.servers="));
  const same =
    lines(sync.producerConfig).join() === lines(thr.producerConfig).join() &&
    lines(sync.consumerConfig).join() === lines(thr.consumerConfig).join();
  return (
    `kafka-sync: ${topic.join(", ")}; producer ${lines(sync.producerConfig).join(", ")}; consumer ${lines(sync.consumerConfig).join(", ")}. ` +
    `kafka-throughput: ${common.join(", ")}; ${same ? "the same producer and consumer settings" : "other producer or consumer settings"}`
  );
}
/** NetApp's broker tuning (the FSx run's and the CVO page's server.properties): the keys of PUBLISHED_BROKER_CONFIG. */
const NETAPP_BROKER_KEYS = Object.keys(PUBLISHED_BROKER_CONFIG);
/** The planned FSx volumes' inputs. */
const ontapVolumes = (p: StackPlan): Any[] => p.resources.filter((r) => r.type === "aws:fsx/ontapVolume:OntapVolume").map((r) => r.inputs);

export const KAFKA_METHOD: MethodTable = {
  experiment: "kafka-fsx",
  stack: "kafka",
  stacks: ["network", "kafka-ontap", "kafka-cluster", "kafka"],
  repository: NETAPP_FSX_PAGE,
  sourceTitle: "NetApp Solutions, Performance overview and validation in AWS FSx for NetApp ONTAP",
  alsoSource: { title: "the Cloud Volumes ONTAP page whose OMB configuration it reuses", url: NETAPP_CVO_PAGE },
  rows: [
    {
      parameter: "Kafka",
      source: "FSx page, Architectural setup",
      published: "Kafka 3.2.3; 3 x zookeepers – t2.small",
      lab: "Kafka 4.3.1 in KRaft mode, 3 controllers",
      differs: "Kafka 4 has no ZooKeeper mode; Strimzi 1.2 runs Kafka 4.2–4.3, its controllers on the system nodes",
      read: (p) => `Kafka ${kafkaSpec(p).version} in KRaft mode, ${inputs(p, "kafka-pool-controllers").spec.replicas} controllers`,
    },
    {
      parameter: "brokers",
      source: "FSx page, Architectural setup",
      published: "3 x broker servers – i3en.2xlarge",
      publishedAs: "3 × i3en.2xlarge",
      lab: "3 × i3en.2xlarge",
      stack: "kafka-cluster",
      read: (p) => group(p, "brokers"),
    },
    {
      parameter: "producers and consumers",
      source: "FSx page, Architectural setup",
      published:
        '4 x producer/consumer -- c5n.2xlarge, 1 x Grafana – c5n.2xlarge (the setup section\'s Monitoring bullet says "a separate three-node cluster that could produce and consume")',
      publishedAs: "4 × c5n.2xlarge",
      lab: "4 × c5n.2xlarge",
      stack: "kafka-cluster",
      read: (p) => group(p, "clients"),
    },
    {
      parameter: "OMB invocation",
      source: "FSx page, Methodology of testing",
      published: "sudo bin/benchmark –drivers driver-kafka/kafka-sync.yaml workloads/1-topic-100-partitions-1kb.yaml (no --workers)",
      lab: "bin/benchmark --drivers <cell's file> --workers <4 workers> -o <result> <workload>",
      differs:
        "without --workers OMB runs one local worker inside the driver's process, yet the page lists 4 producer/consumer nodes; the lab runs a worker on each of the 4 client nodes",
      read: (p) => {
        const e = ombJobEnv(p);
        return `bin/benchmark --drivers <cell's file> --workers <${e.WORKERS.split(",").length} workers> -o <result> <workload>`;
      },
    },
    {
      parameter: "operating system",
      source: "FSx page, Architectural setup; Apache Kafka in AWS FSx for NetApp ONTAP",
      published: 'RHEL8.6 on all nodes (the NFS client fix the page describes is "generally available in RHEL8.7, RHEL9.1")',
      lab: "AL2023_x86_64_STANDARD (EKS managed node groups)",
      differs: "EKS nodes run Amazon Linux 2023 (kernel 6.1 or later: nconnect and NFSv4.1)",
      stack: "kafka-cluster",
      read: (p) => `${nodeGroup(p, "brokers").amiType} (EKS managed node groups)`,
    },
    {
      parameter: "platform",
      source: "FSx page, Methodology of testing",
      published: "EC2 instances built with Terraform, Kafka installed with Ansible",
      lab: "EKS, Kafka under the Strimzi operator, OMB workers as a StatefulSet",
      differs: "the lab's experiments run on Kubernetes; brokers keep dedicated nodes of the published type",
      read: (p) =>
        inputs(p, "omb-workers").kind === "StatefulSet" ? "EKS, Kafka under the Strimzi operator, OMB workers as a StatefulSet" : "other",
    },
    {
      parameter: "region",
      source: "FSx page, NetApp FSx for NetApp ONTAP setup",
      published: '"our test region (US-East-1)" (its create-file-system command says --region us-east-2, the later ones us-east-1)',
      publishedAs: "us-east-1",
      lab: "us-east-1",
      stack: "kafka-ontap",
      read: (p) => String(p.config["aws:region"]),
    },
    {
      parameter: "file system",
      source: "FSx page, Architectural setup; NetApp FSx for NetApp ONTAP setup (update-file-system)",
      published: "Multi-AZ with 4GB/Sec throughput and 160000 IOPS, 5 TB (--storage-capacity 5120)",
      publishedAs: "MULTI_AZ_1, 4096 MB/s, 160000 SSD IOPS, 5120 GiB",
      lab: "MULTI_AZ_1, 4096 MB/s, 160000 SSD IOPS, 5120 GiB",
      stack: "kafka-ontap",
      read: (p) =>
        `${fsx(p).deploymentType}, ${fsx(p).throughputCapacity} MB/s, ${fsx(p).diskIopsConfiguration.iops} SSD IOPS, ${fsx(p).storageCapacity} GiB`,
    },
    {
      parameter: "how the file system came to be",
      source: "FSx page, NetApp FSx for NetApp ONTAP setup",
      published:
        'created with 2TB, 40000 IOPS and 2GB/Sec ("For our initial testing"), the volumes made, then updated to 4GB/Sec, 160000 IOPS and 5 TB',
      lab: "created at 4096 MB/s, 160000 SSD IOPS and 5120 GiB",
      differs:
        "the figures compared are the 4 GB/s ones, measured after the update; the lab creates that file system directly (lab:throughputCapacityMBps changes it in place, docs/kinds/fsx-ontap.md)",
      stack: "kafka-ontap",
      read: (p) =>
        `created at ${fsx(p).throughputCapacity} MB/s, ${fsx(p).diskIopsConfiguration.iops} SSD IOPS and ${fsx(p).storageCapacity} GiB`,
    },
    {
      parameter: "ONTAP",
      source: "FSx page, Apache Kafka in AWS FSx for NetApp ONTAP",
      published: '"the current FSx for NetApp ONTAP release, ONTAP 9.12.1"',
      lab: "the release FSx runs when the file system is created (not chosen by the API)",
      differs: "FSx picks the ONTAP release; the NFS fix the page relies on is in 9.12.1 and later",
      stack: "kafka-ontap",
      read: (p) =>
        "ontapVersion" in fsx(p)
          ? String(fsx(p).ontapVersion)
          : "the release FSx runs when the file system is created (not chosen by the API)",
    },
    {
      parameter: "volumes",
      source: "FSx page, NetApp FSx for NetApp ONTAP setup",
      published: '6 volumes kafkafsxN1–kafkafsxN6 at /kafkafsxN1…N6, "six 2TB volumes" (ONTAP lists them at 2.10t after their +2TB resize)',
      lab: "6 × 2048 GiB, /kafkafsxN1…/kafkafsxN6",
      differs: "2TB read as 2 TiB each; the page's 2.10t is the size after its resize, which it does not give as a target",
      stack: "kafka-ontap",
      read: (p) => {
        const vols = ontapVolumes(p);
        const sizes = [...new Set(vols.map((v) => v.sizeInMegabytes / 1024))];
        return `${vols.length} × ${sizes.join("/")} GiB, ${vols[0].junctionPath}…${vols[vols.length - 1].junctionPath}`;
      },
    },
    {
      parameter: "volume style",
      source: "FSx page, NetApp FSx for NetApp ONTAP setup (volume create, volume show)",
      published:
        'volume create … -aggr-list aggr1 (a FlexGroup: volume show lists its aggregate as -); "keep the default constituent (8) or less"',
      lab: "6 FlexGroups, 8 constituents on aggr1",
      differs:
        "the page contradicts itself: its command takes ONTAP's default -aggr-list-multiplier, 4 constituents on aggr1 (NetApp's FlexGroup provisioning docs), its text says the default is 8, which is FSx's (API CreateAggregateConfiguration); the lab follows the text (lab:volumes[].constituentsPerAggregate for 4)",
      stack: "kafka-ontap",
      read: (p) => {
        const vols = ontapVolumes(p);
        const layouts = [
          ...new Set(
            vols.map((v) =>
              v.volumeStyle === "FLEXGROUP"
                ? `FlexGroups, ${v.aggregateConfiguration.constituentsPerAggregate} constituents on ${v.aggregateConfiguration.aggregates.join(", ")}`
                : "FlexVols",
            ),
          ),
        ];
        return `${vols.length} ${layouts.join(" / ")}`;
      },
    },
    {
      parameter: "volume options",
      source: "FSx page, NetApp FSx for NetApp ONTAP setup (volume create)",
      published: "-snapshot-policy none -type RW; storage efficiency and tiering not stated",
      lab: "snapshot policy none, RW; storage efficiency on, tiering NONE",
      differs:
        "the page does not say whether storage efficiency ran; the lab turns it on (FSx's default for a new volume) and keeps every block on SSD",
      stack: "kafka-ontap",
      read: (p) => {
        const v = ontapVolumes(p)[0];
        return `snapshot policy ${v.snapshotPolicy}, ${v.ontapVolumeType}; storage efficiency ${v.storageEfficiencyEnabled ? "on" : "off"}, tiering ${v.tieringPolicy.name}`;
      },
    },
    {
      parameter: "NFS mount",
      source: 'FSx page, NetApp FSx for NetApp ONTAP setup (Storage: "mounted with 16 nconnect sessions and default options")',
      published: "nconnect=16, default options (NFS version not stated)",
      lab: "nfsvers=4.1,nconnect=16",
      differs:
        "NFS 4.1 pinned instead of the client's negotiation: the silly-rename fix needs NFSv4.1 or later (../shared/facts/eks-trident-kafka-omb.md, NetApp's Kafka NFS pages)",
      read: (p) => [...new Set(brokerPvs(p).map((v) => v.mountOptions.join(",")))].join(" / "),
    },
    {
      parameter: "broker data directories",
      source:
        'FSx page, NetApp FSx for NetApp ONTAP setup (Compute: "six NFS mount points to a six volumes"); CVO page, OpenMessage Benchmarking configurations (log.dirs)',
      published: "every broker on all six volumes, a directory of its own on each in log.dirs",
      lab: "every broker on all six volumes, a directory of its own on each in log.dirs",
      read: (p) => {
        const pvs = brokerPvs(p);
        const byBroker = new Map<string, Set<string>>();
        for (const v of pvs) {
          const [, vol, dir] = /^\/([^/]+)\/(.+)$/.exec(v.nfs.path) ?? [];
          byBroker.set(dir, (byBroker.get(dir) ?? new Set()).add(vol));
        }
        const all = [...byBroker.values()].every((vols) => vols.size === 6) && byBroker.size === 3;
        return all ? "every broker on all six volumes, a directory of its own on each in log.dirs" : `${byBroker.size} directories`;
      },
    },
    {
      parameter: "broker tuning",
      source:
        'FSx page, OpenMessage Benchmarking configurations ("the same configuration used for the NetApp Cloud volumes ONTAP"); CVO page, OpenMessage Benchmarking configurations (server.properties)',
      published: NETAPP_BROKER_KEYS.map((k) => `${k}=${PUBLISHED_BROKER_CONFIG[k]}`).join(", "),
      lab: NETAPP_BROKER_KEYS.map((k) => `${k}=${PUBLISHED_BROKER_CONFIG[k]}`).join(", "),
      read: (p) => NETAPP_BROKER_KEYS.map((k) => `${k}=${kafkaSpec(p).config[k]}`).join(", "),
    },
    {
      parameter: "other broker settings",
      source: "CVO page, OpenMessage Benchmarking configurations (server.properties)",
      published:
        "socket.send.buffer.bytes=102400, socket.receive.buffer.bytes=102400, num.partitions=1, num.recovery.threads.per.data.dir=1",
      lab: "not set: Kafka 4.3's defaults (102400, 102400, 1, and num.recovery.threads.per.data.dir=2)",
      differs:
        "the first three are Kafka's defaults; Kafka 4.0 raised num.recovery.threads.per.data.dir's to 2 (KIP-1030), the threads that recover logs at startup and flush them at shutdown, not the benchmark's path",
      read: (p) =>
        ["socket.send.buffer.bytes", "socket.receive.buffer.bytes", "num.partitions", "num.recovery.threads.per.data.dir"].some(
          (k) => kafkaSpec(p).config[k] !== undefined,
        )
          ? "set"
          : "not set: Kafka 4.3's defaults (102400, 102400, 1, and num.recovery.threads.per.data.dir=2)",
    },
    {
      parameter: "replication settings",
      source: "CVO page, OpenMessage Benchmarking configurations (server.properties)",
      published:
        "offsets.topic.replication.factor=1, transaction.state.log.replication.factor=1, transaction.state.log.min.isr=1; default.replication.factor and min.insync.replicas not set (Kafka's 1 and 1)",
      lab: "offsets.topic.replication.factor=3, transaction.state.log.replication.factor=3, transaction.state.log.min.isr=2, default.replication.factor=3, min.insync.replicas=2",
      differs:
        "Strimzi's example settings for three brokers: the consumers' offsets survive a broker; OMB creates its topics with the driver file's factor and min.insync.replicas, so the benchmark's topics are as published",
      read: (p) =>
        [
          "offsets.topic.replication.factor",
          "transaction.state.log.replication.factor",
          "transaction.state.log.min.isr",
          "default.replication.factor",
          "min.insync.replicas",
        ]
          .map((k) => `${k}=${kafkaSpec(p).config[k]}`)
          .join(", "),
    },
    {
      parameter: "OMB drivers and replication factors",
      source: "FSx page, Methodology of testing and Observation",
      published:
        "kafka-sync.yaml and kafka-throughput.yaml at replication factor 1 and 3 (the files print replicationFactor: 3; how RF 1 was set is not stated)",
      publishedAs: "kafka-sync, kafka-throughput × RF 1, 3",
      lab: "kafka-sync, kafka-throughput × RF 1, 3",
      read: (p) => {
        const d = ombDrivers(p);
        const names = [...new Set(d.map((x) => x.file.replace(/^driver-/, "").replace(/-rf\d+\.yaml$/, "")))].join(", ");
        const rfs = [...new Set(d.map((x) => x.replicationFactor))].sort().join(", ");
        return `${names} × RF ${rfs}`;
      },
    },
    {
      parameter: "driver files' client settings",
      source: "CVO page, OpenMessage Benchmarking configurations (both driver files)",
      published: NETAPP_DRIVER_SETTINGS,
      lab: NETAPP_DRIVER_SETTINGS,
      read: (p) => driverSettings(p),
    },
    {
      parameter: "min.insync.replicas (topics)",
      source: "CVO page, OpenMessage Benchmarking configurations (both driver files)",
      published: "2",
      lab: "1 at RF 1, 2 at RF 3",
      differs: "min(2, RF): with 2 an RF 1 topic refuses every acks=all write (NotEnoughReplicas)",
      read: (p) => {
        const isr = (rf: number) =>
          /min\.insync\.replicas=(\d+)/.exec(ombDrivers(p).find((x) => x.replicationFactor === rf)!.topicConfig)![1];
        return `${isr(1)} at RF 1, ${isr(3)} at RF 3`;
      },
    },
    {
      parameter: "OMB workload",
      source: "CVO page, OpenMessage Benchmarking configurations (the workload block)",
      published: NETAPP_WORKLOAD,
      lab: NETAPP_WORKLOAD,
      read: (p) => {
        const { name: _name, ...w } = ombWorkload(p);
        return Object.entries(w)
          .map(([k, v]) => `${k} ${String(v)}`)
          .join(", ");
      },
    },
    {
      parameter: "message size in the text",
      source: "CVO page, OpenMessage Benchmarking configurations",
      published: '"In our performance test, we used 3K."',
      lab: "32768 bytes",
      differs:
        "the page's own workload block says messageSize 32768; the lab runs the block, and the report matches NetApp's figures on it",
      read: (p) => `${ombWorkload(p).messageSize} bytes`,
    },
    {
      parameter: "warm-up",
      source: "CVO page, OpenMessage Benchmarking configurations (the workload block sets none)",
      published: "not set: OMB's default",
      publishedAs: "1 minute (OMB's default warmupDurationMinutes)",
      lab: "1 minute (OMB's default warmupDurationMinutes)",
      read: (p) =>
        ombWorkload(p).warmupDurationMinutes === undefined
          ? "1 minute (OMB's default warmupDurationMinutes)"
          : `${ombWorkload(p).warmupDurationMinutes} minutes`,
    },
    {
      parameter: "repetitions",
      source: "FSx page, Observation",
      published: "not stated (a consistent and a peak figure per cell)",
      lab: "1",
      differs: "the page gives no count; the lab ships one repetition a cell, lab:reps for more",
      read: (p) => ombJobEnv(p).REPS,
    },
    {
      parameter: "placement",
      source: "FSx page, NetApp FSx for NetApp ONTAP setup (subnets as placeholders)",
      published: "not stated (a Multi-AZ file system)",
      lab: "brokers and clients in the file system's preferred zone (us-east-1a)",
      differs:
        "the page does not say; the lab keeps NFS traffic in one zone (lab:zonePlacement) and records every broker's and worker's zone",
      stack: "kafka",
      read: (p) => {
        const z = inputs(
          p,
          "kafka-pool-brokers",
        ).spec.template.pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions.find(
          (e: Any) => e.key === "topology.kubernetes.io/zone",
        );
        return z ? `brokers and clients in the file system's preferred zone (${z.values.join(", ")})` : "any zone";
      },
    },
  ],
};

/** Every method table, in the order of docs/experiments.md. */
export const METHOD_TABLES: readonly MethodTable[] = [FSX_METHOD, KAFKA_METHOD, CEPH_METHOD];

const cell = (s: string) => s.replaceAll("|", "\\|");

/** A method table as markdown: parameter, source, published, the lab's, verdict. */
export function renderMethodTable(t: MethodTable): string {
  const lines = [
    `Source: [${t.sourceTitle ?? t.repository.replace("https://github.com/", "").replace("/tree/", " at ").slice(0, -33)}](${t.repository})${t.alsoSource ? ` and [${t.alsoSource.title}](${t.alsoSource.url})` : ""}; the lab's values are the shipped stacks ${t.stacks
      .filter((x) => x !== "network")
      .map((x) => `\`${x}\``)
      .join(", ")} as planned.`,
    "",
    "| parameter | source | published | lab | verdict |",
    "|---|---|---|---|---|",
    ...t.rows.map(
      (r) =>
        `| ${cell(r.parameter)} | \`${cell(r.source)}\` | ${cell(r.published)} | ${cell(r.lab)} | ${r.differs === undefined ? "same" : `differs: ${cell(r.differs)}`} |`,
    ),
  ];
  return lines.join("\n");
}
