/**
 * The method tables of docs/experiments.md: every parameter of a published setup, where the source
 * states it, the value the lab ships, and "same" or why it differs. Data here, rendered by
 * `npm run docs` (lab/docs/pages.ts); test/lab/report/methods.test.ts plans the shipped stacks and fails
 * when a row's lab value is not what the plan holds, or when a row marked "same" is not. So a
 * shipped config cannot diverge from its table unlisted.
 *
 * Ceph on Nitro: koor-tech/experiment-ceph-on-nitro at 6686fc84f2f74058e7743830ff4c06a33bed42a1;
 * FSx on EKS: aws-samples/mltiaz-fsxontap-eks at 612a7dfda2625815c32a0737af255eba0eb3c50e and the
 * AWS blog post (files and lines of those commits). Kafka has no table yet.
 */
import YAML from "yaml";
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
  /** The source repository (its files are cited by path and line) at the commit read. */
  readonly repository: string;
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

/** Every method table, in the order of docs/experiments.md. */
export const METHOD_TABLES: readonly MethodTable[] = [FSX_METHOD, CEPH_METHOD];

const cell = (s: string) => s.replaceAll("|", "\\|");

/** A method table as markdown: parameter, source, published, the lab's, verdict. */
export function renderMethodTable(t: MethodTable): string {
  const lines = [
    `Source: [${t.repository.replace("https://github.com/", "").replace("/tree/", " at ").slice(0, -33)}](${t.repository}); the lab's values are the shipped stacks ${t.stacks
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
