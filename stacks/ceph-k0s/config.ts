/** Config of the `ceph-k0s` stack kind: k0s on EC2 + Rook-Ceph + Postgres + pgbench. */
import { z } from "zod";
import { hypervisorOf, INSTANCE_TYPE_RULE } from "../../components/k0s/instance-types";
import { POSTGRES_DEFAULTS } from "../../components/postgres/manifests";
import { K0S_VERSION } from "../../components/versions";
import { problem } from "../../core/errors";
import { commonFields } from "../lib/config/common";
import { int, ipv4Cidr, oneOf, stackName, text } from "../lib/config/fields";

/** gp3 limits (EBS User Guide, "General Purpose SSD volumes"; since September 2025 up to 64 TiB, 80 000 IOPS, 2000 MiB/s): IOPS per GiB and MiB/s per IOPS. */
export const GP3_MAX_IOPS_PER_GIB = 500;
export const GP3_MAX_MBPS_PER_IOPS = 0.25;
/** Ceph's default nearfull ratio: keep the Postgres volume below it once replicated. */
export const CEPH_NEARFULL_RATIO = 0.85;
/** Replicas of the RBD pool (one per host). */
export const CEPH_REPLICAS = 3;

const AZ_RULE = "an availability zone name of aws:region among the network stack's zones (e.g. us-east-1a)";
const SSH_KEY_RULE = "an OpenSSH public key (ssh-ed25519, ssh-rsa or ecdsa-sha2-nistp256/384/521 followed by its base64 key)";

export const cephK0sSchema = z.object({
  ...commonFields,
  /** `lab:networkStack`: the network stack (VPC, subnets) the cluster lives in. */
  networkStack: stackName("network"),
  /** `lab:instanceType`: the nodes' instance type; m4.xlarge (Xen) in stack dev, m5.xlarge (Nitro) in stack nitro. */
  instanceType: text(INSTANCE_TYPE_RULE).refine((t) => hypervisorOf(t) !== undefined, { error: INSTANCE_TYPE_RULE }),
  /** `lab:workerCount`: workers, one OSD each; Ceph keeps 3 replicas on 3 hosts. @default 3 */
  workerCount: int(3, 9, "a whole number of workers from 3 to 9 (3 replicas on 3 different hosts)").default(3),
  /** `lab:az`: the one zone of every node and volume. @default "<aws:region>a" */
  az: text(AZ_RULE, /^[a-z]{2}(-gov)?-[a-z]+-\d[a-z]$/).optional(),
  /** `lab:adminCidrs`: who may reach the bastion (SSH, Kubernetes API). Required. */
  adminCidrs: z
    .array(ipv4Cidr(8, 32), { error: 'a list of 1 to 10 IPv4 CIDRs of the operators (e.g. ["198.51.100.7/32"])' })
    .min(1, { error: 'a list of 1 to 10 IPv4 CIDRs of the operators (e.g. ["198.51.100.7/32"])' })
    .max(10, { error: 'a list of 1 to 10 IPv4 CIDRs of the operators (e.g. ["198.51.100.7/32"])' }),
  /** `lab:sshPublicKey`: use this key (its private half in the SSH agent) instead of a generated one. */
  sshPublicKey: text(SSH_KEY_RULE, /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/]+={0,3}( [^\n]*)?$/).optional(),
  /** `lab:osdVolumeGiB`: size of each worker's gp3 OSD volume. @default 100 */
  osdVolumeGiB: int(10, 65536, "a whole number of GiB from 10 to 65536 (gp3)").default(100),
  /** `lab:osdVolumeIops`: gp3 provisioned IOPS of each OSD volume (gp3's baseline is 3000 at any size). @default 3000 */
  osdVolumeIops: int(3000, 80000, "a whole number of IOPS from 3000 to 80000 (gp3)").default(3000),
  /** `lab:osdVolumeThroughputMBps`: gp3 provisioned throughput, MiB/s (gp3's baseline is 125 at any size). @default 125 */
  osdVolumeThroughputMBps: int(125, 2000, "a whole number of MiB/s from 125 to 2000 (gp3)").default(125),
  /** `lab:k0sVersion`: override the pinned k0s version. @default K0S_VERSION of components/versions.ts */
  k0sVersion: text("a k0s release (e.g. v1.36.3+k0s.2)", /^v1\.\d+\.\d+\+k0s\.\d+$/).default(K0S_VERSION),
  /** `lab:cni`: k0s' network provider. @default "kuberouter" */
  cni: oneOf(["kuberouter", "calico"]).default("kuberouter"),
  /** `lab:pgbenchScale`: `pgbench -i -s` (1000 ≈ 15 GB). @default 1000 */
  pgbenchScale: int(1, 3000, "a whole number from 1 to 3000 (scale 3000 ≈ 45 GB, the most the 64 GiB volume holds)").default(1000),
  /** `lab:pgbenchClients`: `pgbench -c`. @default 20 */
  pgbenchClients: int(1, 90, "a whole number of clients from 1 to 90 (Postgres allows 100 connections)").default(20),
  /** `lab:pgbenchThreads`: `pgbench -j`, at most the clients. @default 2 */
  pgbenchThreads: int(1, 90, "a whole number of threads from 1 to 90").default(2),
  /** `lab:pgbenchDurationSeconds`: `pgbench -T` of each repetition. @default 300 */
  pgbenchDurationSeconds: int(10, 86400, "a whole number of seconds from 10 to 86400").default(300),
  /** `lab:reps`: pgbench repetitions (median and spread over them). @default 3 */
  reps: int(1, 20, "a whole number of repetitions from 1 to 20").default(3),
});

export type CephK0sConfig = z.output<typeof cephK0sSchema>;

/** The zone of the cluster: `lab:az`, else the region's first zone. */
export function clusterZone(c: Pick<CephK0sConfig, "az" | "region">): string {
  return c.az ?? `${c.region}a`;
}

/** Cross-field rules of the ceph-k0s kind. */
export function checkCephK0s(c: CephK0sConfig): string[] {
  const problems: string[] = [];
  if (c.az !== undefined && !c.az.startsWith(c.region)) problems.push(problem("lab:az", `a zone of aws:region ${c.region}`, c.az));
  if (c.osdVolumeIops > c.osdVolumeGiB * GP3_MAX_IOPS_PER_GIB) {
    problems.push(
      problem(
        "lab:osdVolumeIops",
        `at most ${GP3_MAX_IOPS_PER_GIB} per GiB of 'lab:osdVolumeGiB' (${c.osdVolumeGiB * GP3_MAX_IOPS_PER_GIB})`,
        c.osdVolumeIops,
      ),
    );
  }
  if (c.osdVolumeThroughputMBps > c.osdVolumeIops * GP3_MAX_MBPS_PER_IOPS) {
    problems.push(
      problem(
        "lab:osdVolumeThroughputMBps",
        `at most 'lab:osdVolumeIops' / 4 (${Math.floor(c.osdVolumeIops * GP3_MAX_MBPS_PER_IOPS)})`,
        c.osdVolumeThroughputMBps,
      ),
    );
  }
  const usableGiB = ((c.osdVolumeGiB * c.workerCount) / CEPH_REPLICAS) * CEPH_NEARFULL_RATIO;
  if (usableGiB < POSTGRES_DEFAULTS.volumeGiB) {
    const minGiB = Math.ceil((POSTGRES_DEFAULTS.volumeGiB * CEPH_REPLICAS) / (c.workerCount * CEPH_NEARFULL_RATIO));
    problems.push(
      problem(
        "lab:osdVolumeGiB",
        `at least ${minGiB} with ${c.workerCount} workers (the ${POSTGRES_DEFAULTS.volumeGiB} GiB Postgres volume, 3 replicas, below Ceph's nearfull ratio 0.85)`,
        c.osdVolumeGiB,
      ),
    );
  }
  if (c.pgbenchThreads > c.pgbenchClients) {
    problems.push(problem("lab:pgbenchThreads", `at most 'lab:pgbenchClients' (${c.pgbenchClients})`, c.pgbenchThreads));
  }
  const open = c.adminCidrs.filter((cidr) => cidr.startsWith("0.0.0.0/"));
  if (open.length > 0)
    problems.push(problem("lab:adminCidrs", "CIDRs of the operators' own networks, not the whole internet", c.adminCidrs));
  return problems;
}
