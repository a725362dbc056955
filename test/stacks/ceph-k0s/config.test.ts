/** `ceph-k0s` config: the components' rules with the `lab:` keys a user typed, every problem at once, exact messages. */
import { PUBLISHED_CEPH_RESOURCES } from "../../../components/rook/rules";
import { SSH_PUBLIC_KEY_RULE } from "../../../components/k0s/rules";
import {
  checkCephK0s,
  cephK0sSchema,
  clusterSpec,
  clusterZone,
  networkProblems,
  pgbenchArgs,
  placementProblems,
  postgresArgs,
  rookArgs,
} from "../../../stacks/ceph-k0s/config";
import { parseConfig } from "../../../stacks/lib/config/load";
import { problemsOf } from "../../helpers/config";

const base = {
  "aws:region": "us-east-1",
  "lab:kind": "ceph-k0s",
  "lab:owner": "alice",
  "lab:networkStack": "organization/storage-bench-lab/network",
  "lab:instanceType": "m5.xlarge",
  "lab:adminCidrs": '["198.51.100.7/32"]',
};
const parse = (extra: Record<string, string> = {}) => parseConfig("ceph-k0s", cephK0sSchema, { ...base, ...extra }, checkCephK0s);
const problems = (extra: Record<string, string>): readonly string[] => problemsOf(() => parse(extra));

test("the config maps onto the components' arguments by the same names; the zone defaults to the region's first", () => {
  const c = parse({ "lab:osdVolumeGiB": "200", "lab:osdVolumeThroughputMiBps": "250", "lab:cni": "calico" });
  expect(clusterSpec(c)).toEqual({
    instanceType: "m5.xlarge",
    workerCount: undefined,
    az: "us-east-1a",
    adminCidrs: ["198.51.100.7/32"],
    sshPublicKey: undefined,
    osdVolumeGiB: 200,
    osdVolumeIops: undefined,
    osdVolumeThroughputMiBps: 250,
    k0sVersion: undefined,
    cni: "calico",
    wireguard: undefined,
    cephHostNetwork: undefined,
    hugepages2Mi: undefined,
  });
  const mgrAvoidNodeLabels = { "storage-bench-lab/worker": "2" };
  expect(rookArgs(c)).toEqual({ osdCount: 3, mgrAvoidNodeLabels });
  expect(rookArgs(parse({ "lab:workerCount": "5" }))).toEqual({ osdCount: 5, mgrAvoidNodeLabels });
  expect(clusterZone(c)).toBe("us-east-1a");
  expect(clusterZone(parse({ "lab:az": "us-east-1c" }))).toBe("us-east-1c");
});

test("every problem at once, each with the key the user typed", () => {
  expect(
    problems({
      "lab:instanceType": "m6g.large",
      "lab:workerCount": "0",
      "lab:az": "1",
      "lab:adminCidrs": '["0.0.0.0/0","10.0.0.5/16"]',
      "lab:osdVolumeIops": "90000",
      "lab:cni": "flannel",
      "lab:sshPublicKey": "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBHk0 bob@example",
      "lab:k0sVersion": "1.36",
    }),
  ).toEqual([
    `'lab:instanceType' must be an x86_64 EC2 instance type listed in components/k0s/instance-types.ts (e.g. m4.xlarge on Xen, m5.xlarge on Nitro), got "m6g.large"`,
    "'lab:workerCount' must be an integer from 1 to 9, got 0",
    `'lab:az' must be an availability zone name (e.g. us-east-1a), got "1"`,
    `'lab:adminCidrs[0]' must be an IPv4 network CIDR with a prefix from /8 to /32 (e.g. 198.51.100.7/32), got "0.0.0.0/0"`,
    `'lab:adminCidrs[1]' must be an IPv4 network CIDR with a prefix from /8 to /32 (e.g. 198.51.100.7/32), got "10.0.0.5/16"`,
    `'lab:sshPublicKey' must be ${SSH_PUBLIC_KEY_RULE}, got "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBHk0 bob@example"`,
    "'lab:osdVolumeIops' must be a whole number of IOPS from 3000 to 80000 (gp3), got 90000",
    `'lab:k0sVersion' must be a k0s release (e.g. v1.36.3+k0s.2), got "1.36"`,
    `'lab:cni' must be one of kuberouter, calico, got "flannel"`,
  ]);
  expect(problems({ "lab:adminCidrs": "[]" })).toEqual([
    `'lab:adminCidrs' must be a list of 1 to 10 IPv4 CIDRs of the operators (e.g. ["198.51.100.7/32"]), got []`,
  ]);
  expect(problems({ "lab:adminCidrs": '["0.0.0.0/8"]' })).toEqual([
    `'lab:adminCidrs' must be CIDRs of the operators' own networks, not the whole internet, got ["0.0.0.0/8"]`,
  ]);
  expect(problems({ "lab:instanceTyp": "m5.large" })[0]).toMatch(
    /^'lab:instanceTyp' must be a key of kind ceph-k0s \(did you mean 'lab:instanceType'\?\)/,
  );
});

test("a type is checked once: a wrong type is the schema's problem, the rules still check the other keys", () => {
  // A rule that depends on the mistyped key sees it as given (no size rule is judged against a worker count of "three")...
  expect(problems({ "lab:workerCount": '"three"', "lab:osdVolumeGiB": "10" })).toEqual([
    `'lab:workerCount' must be a whole number, got "three"`,
  ]);
  // ...the others still run, with the defaults.
  expect(problems({ "lab:ttlHours": '"x"', "lab:osdVolumeGiB": "10" })).toEqual([
    `'lab:ttlHours' must be a whole number of hours from 1 to 168, got "x"`,
    "'lab:osdVolumeGiB' must be at least 76 with 'lab:workerCount' = 3 (the 64 GiB Postgres volume, 3 replicas, below Ceph's nearfull ratio 0.85), got 10",
  ]);
  expect(problems({ "lab:adminCidrs": '"198.51.100.7/32"' })).toEqual([
    `'lab:adminCidrs' must be a list (JSON, e.g. ["a","b"]), got "198.51.100.7/32"`,
  ]);
});

test("required keys are named when missing", () => {
  const { "lab:instanceType": _t, "lab:adminCidrs": _a, ...rest } = base;
  expect(problemsOf(() => parseConfig("ceph-k0s", cephK0sSchema, rest, checkCephK0s))).toEqual([
    "'lab:instanceType' must be an x86_64 EC2 instance type listed in components/k0s/instance-types.ts (e.g. m4.xlarge on Xen, m5.xlarge on Nitro), got nothing",
    `'lab:adminCidrs' must be a list of 1 to 10 IPv4 CIDRs of the operators (e.g. ["198.51.100.7/32"]), got nothing`,
  ]);
});

test("too small an instance type is refused, naming what a worker needs (issue 9 item 6)", () => {
  expect(problems({ "lab:instanceType": "m4.large" })).toEqual([
    `'lab:instanceType' must be an instance type with at least 4 vCPUs and 16 GiB of memory (a worker runs a Ceph OSD and monitor beside Postgres or pgbench); m4.large has 2 vCPUs and 8 GiB, got "m4.large"`,
  ]);
  expect(() => parse({ "lab:instanceType": "m4.xlarge" })).not.toThrow();
});

test("the published method's keys reach the components: CNI, WireGuard, Ceph's network and resources, Postgres, pgbench", () => {
  const osd = { requests: { cpu: "1", memory: "2Gi" }, limits: { cpu: "2", memory: "4Gi" } };
  const c = parse({
    "lab:cni": "kuberouter",
    "lab:wireguard": "false",
    "lab:cephHostNetwork": "true",
    "lab:hugepages2Mi": "0",
    "lab:cephResources": JSON.stringify({ ...PUBLISHED_CEPH_RESOURCES, osd }),
    "lab:postgresCpu": "1",
    "lab:postgresMemory": "6Gi",
    "lab:postgresHugepages2Mi": "0",
    "lab:pgbenchForeignKeys": "false",
    "lab:pgbenchReportLatencies": "false",
    "lab:pgbenchResources": JSON.stringify({ requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "1Gi" } }),
  });
  expect(clusterSpec(c)).toMatchObject({ cni: "kuberouter", wireguard: false, cephHostNetwork: true, hugepages2Mi: 0 });
  expect(rookArgs(c)).toMatchObject({ hostNetwork: true, resources: { ...PUBLISHED_CEPH_RESOURCES, osd } });
  expect(postgresArgs(c)).toEqual({ cpu: "1", memory: "6Gi", hugepages2Mi: "0" });
  expect(pgbenchArgs(c)).toMatchObject({
    pgbenchForeignKeys: false,
    pgbenchPerStatementLatencies: false,
    resources: { pgbench: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "1Gi" } } },
  });
});

test("bad method keys: every problem at once, with the key, the value and the rule", () => {
  expect(
    problems({
      "lab:cni": "kuberouter",
      "lab:wireguard": "true",
      "lab:hugepages2Mi": "9000",
      "lab:cephResources": JSON.stringify({
        ...PUBLISHED_CEPH_RESOURCES,
        osd: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "250m", memory: "1Gi" } },
      }),
      "lab:postgresHugepages2Mi": "63Mi",
      "lab:pgbenchResources": JSON.stringify({ requests: { cpu: "2", memory: "8Gi" }, limits: { cpu: "2", memory: "4Gi" } }),
    }),
  ).toEqual([
    "'lab:wireguard' must be false with 'lab:cni' kuberouter (the WireGuard encryption k0s configures is Calico's), got true",
    "'lab:hugepages2Mi' must be a whole number of 2 MiB pages from 0 to 2048 (a quarter of the 16 GiB of 'lab:instanceType'), got 9000",
    `'lab:cephResources.osd.limits.cpu' must be at least the request (500m), got "250m"`,
    `'lab:postgresHugepages2Mi' must be a Kubernetes memory quantity of whole 2 MiB pages (e.g. "64Mi"), or "0" for none, got "63Mi"`,
    `'lab:pgbenchResources.limits.memory' must be at least the request (8Gi), got "4Gi"`,
  ]);
  expect(
    problems({
      "lab:cephResources": JSON.stringify({
        ...PUBLISHED_CEPH_RESOURCES,
        osd: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } },
      }),
    }),
  ).toEqual([
    `'lab:cephResources.osd.limits.memory' must be at least 2048Mi, the osd memory limit Rook recommends as a minimum, got "1Gi"`,
  ]);
  expect(problems({ "lab:cephResources": JSON.stringify({ osd: PUBLISHED_CEPH_RESOURCES.osd }) })).toEqual([
    `'lab:cephResources' must be requests and limits of mon, mgr, osd (e.g. {"osd":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{"cpu":"1","memory":"2Gi"}},...}), got {"osd":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{"cpu":"1","memory":"2Gi"}}}`,
  ]);
});

test("the fixed placement must fit: pgbench beside an OSD and a monitor, Postgres beside the Ceph daemons, huge pages", () => {
  expect(placementProblems(parse())).toEqual([]);
  expect(
    problems({
      "lab:pgbenchResources": JSON.stringify({ requests: { cpu: "3", memory: "10Gi" }, limits: { cpu: "3", memory: "10Gi" } }),
      "lab:postgresHugepages2Mi": "8Gi",
    }),
  ).toEqual([
    `'lab:pgbenchResources.requests.cpu' must be at most 2430m (the 4 vCPUs of m5.xlarge: an OSD, a monitor and k0s' and Rook's own pods on worker 2 request 1570m); the pgbench Job would stay Pending, got "3"`,
    `'lab:pgbenchResources.requests.memory' must be at most 8.70 GiB (the 16 GiB of m5.xlarge less 2048 huge pages 'lab:hugepages2Mi' and 1 GiB for the system, less 2.30 GiB that an OSD, a monitor and k0s' and Rook's own pods request); the pgbench Job would stay Pending, got "10Gi"`,
    `'lab:postgresHugepages2Mi' must be at most the 2048 huge pages of 2 MiB every node reserves ('lab:hugepages2Mi'); 4096 would leave Postgres Pending, got "8Gi"`,
  ]);
  // Without the nodes' huge pages, a 10 GiB client fits in memory.
  const noHugepages = {
    "lab:hugepages2Mi": "0",
    "lab:postgresHugepages2Mi": "0",
    "lab:pgbenchResources": JSON.stringify({ requests: { cpu: "2", memory: "10Gi" }, limits: { cpu: "2", memory: "10Gi" } }),
  };
  expect(placementProblems(parse(noHugepages))).toEqual([]);
  // Postgres' worker also holds a manager: 1 CPU more than the published 1 does not fit.
  expect(problems({ "lab:postgresCpu": "2" })).toEqual([
    `'lab:postgresCpu' must be at most 1930m (the 4 vCPUs of m5.xlarge: an OSD, a monitor, a manager and k0s' and Rook's own pods on worker 1 request 2070m); Postgres would stay Pending, got "2"`,
  ]);
});

test("ED25519 and ECDSA keys pass (the nodes' sshd takes both); DSA is refused with the sshd rule", () => {
  const ed = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBdfvP1u1ifI4ZV5ofEw1dXXZk5Jp3qkWm3ow2ZqE0Zf alice@example";
  expect(parse({ "lab:sshPublicKey": ed }).sshPublicKey).toBe(ed);
  const ecdsa =
    "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBHk0gI0j9su2KQe5W11eYPB1b5Crffs08JMZ51H8XNqQSsot5eO0PCjdiv9d+zwMmNRfX88Wmp5uL33Cf5rvM6Y= x";
  expect(parse({ "lab:sshPublicKey": ecdsa }).sshPublicKey).toBe(ecdsa);
  const dsa = "ssh-dss AAAAB3NzaC1kc3MAAACBAP x";
  expect(problems({ "lab:sshPublicKey": dsa })).toEqual([`'lab:sshPublicKey' must be ${SSH_PUBLIC_KEY_RULE}, got "${dsa}"`]);
});

test("gp3 limits and ratios, the Ceph capacity rule, the zone's region, with the keys' names", () => {
  expect(
    problems({
      "lab:osdVolumeGiB": "10",
      "lab:osdVolumeIops": "6000",
      "lab:osdVolumeThroughputMiBps": "1600",
      "lab:az": "eu-west-1a",
    }),
  ).toEqual([
    "'lab:osdVolumeIops' must be at most 500 per GiB of 'lab:osdVolumeGiB' (5000), got 6000",
    "'lab:osdVolumeThroughputMiBps' must be at most 0.25 MiB/s per IOPS of 'lab:osdVolumeIops' (1500), got 1600",
    `'lab:az' must be a zone of 'aws:region' us-east-1, got "eu-west-1a"`,
    "'lab:osdVolumeGiB' must be at least 76 with 'lab:workerCount' = 3 (the 64 GiB Postgres volume, 3 replicas, below Ceph's nearfull ratio 0.85), got 10",
  ]);
  expect(problems({ "lab:osdVolumeIops": "3000", "lab:osdVolumeThroughputMiBps": "1000" })).toEqual([
    "'lab:osdVolumeThroughputMiBps' must be at most 0.25 MiB/s per IOPS of 'lab:osdVolumeIops' (750), got 1000",
  ]);
  expect(problems({ "lab:osdVolumeThroughputMiBps": "2001" })).toEqual([
    "'lab:osdVolumeThroughputMiBps' must be a whole number of MiB/s from 125 to 2000 (gp3), got 2001",
  ]);
  expect(problems({ "lab:osdVolumeGiB": "65537" })).toEqual([
    "'lab:osdVolumeGiB' must be a whole number of GiB from 1 to 65536 (gp3), got 65537",
  ]);
  expect(() => parse({ "lab:osdVolumeGiB": "76" })).not.toThrow();
  expect(problems({ "lab:osdVolumeGiB": "75" })).toEqual([
    "'lab:osdVolumeGiB' must be at least 76 with 'lab:workerCount' = 3 (the 64 GiB Postgres volume, 3 replicas, below Ceph's nearfull ratio 0.85), got 75",
  ]);
  // More workers spread the replicas thinner: 64 × 3 / (6 × 0.85) = 37.6.
  expect(() => parse({ "lab:workerCount": "6", "lab:osdVolumeGiB": "38" })).not.toThrow();
  expect(problems({ "lab:workerCount": "6", "lab:osdVolumeGiB": "37" })).toEqual([
    "'lab:osdVolumeGiB' must be at least 38 with 'lab:workerCount' = 6 (the 64 GiB Postgres volume, 3 replicas, below Ceph's nearfull ratio 0.85), got 37",
  ]);
});

test("fewer workers than the pool's replicas and the monitors: Rook's rule on lab:workerCount, said once", () => {
  expect(problems({ "lab:workerCount": "2" })).toEqual([
    "'lab:workerCount' must be at least 3 (3 replicas on as many hosts and 3 monitors, one a node), got 2",
  ]);
  expect(problems({ "lab:workerCount": "10" })).toEqual(["'lab:workerCount' must be an integer from 1 to 9, got 10"]);
});

test("the pgbench keys are BenchmarkRun's rules, with this kind's key names", () => {
  expect(problems({ "lab:pgbenchClients": "4", "lab:pgbenchThreads": "8" })).toEqual([
    "'lab:pgbenchThreads' must be at most 'lab:pgbenchClients' (4), got 8",
  ]);
});

describe("what the kind needs of the network stack (checked where index.ts reads it)", () => {
  const network = { azs: ["us-east-1a", "us-east-1b"], vpcCidr: "10.0.0.0/16" };

  test("a zone of the network and a VPC CIDR clear of k0s' pod and service networks: no problem", () => {
    expect(networkProblems(parse(), network)).toEqual([]);
    expect(networkProblems(parse({ "lab:az": "us-east-1b" }), { ...network, vpcCidr: "10.112.0.0/16" })).toEqual([]);
  });

  test("a zone the network stack does not have, naming lab:az and the zones it has", () => {
    expect(networkProblems(parse({ "lab:az": "us-east-1c" }), network)).toEqual([
      `'lab:az' must be one of the zones of network stack 'organization/storage-bench-lab/network' (us-east-1a, us-east-1b), got "us-east-1c"`,
    ]);
    expect(networkProblems(parse({ "aws:region": "us-east-2" }), network)).toEqual([
      `'lab:az' must be one of the zones of network stack 'organization/storage-bench-lab/network' (us-east-1a, us-east-1b) (unset, it defaults to aws:region + a), got "us-east-2a"`,
    ]);
  });

  test("a VPC CIDR overlapping the pod or service network (issue 9 item 7), naming both keys", () => {
    const rule =
      "'lab:networkStack' must be a network stack whose 'lab:vpcCidr' is a network that overlaps neither k0s' pod network 10.244.0.0/16 nor its service network 10.96.0.0/12; its 'lab:vpcCidr'";
    expect(networkProblems(parse(), { ...network, vpcCidr: "10.96.0.0/16" })).toEqual([
      `${rule} 10.96.0.0/16 overlaps the service network 10.96.0.0/12, got "organization/storage-bench-lab/network"`,
    ]);
    expect(networkProblems(parse(), { ...network, vpcCidr: "10.244.0.0/20" })).toEqual([
      `${rule} 10.244.0.0/20 overlaps the pod network 10.244.0.0/16, got "organization/storage-bench-lab/network"`,
    ]);
    expect(networkProblems(parse({ "lab:az": "us-east-1c" }), { ...network, vpcCidr: "10.0.0.0/8" })).toEqual([
      `'lab:az' must be one of the zones of network stack 'organization/storage-bench-lab/network' (us-east-1a, us-east-1b), got "us-east-1c"`,
      `${rule} 10.0.0.0/8 overlaps the pod network 10.244.0.0/16 and the service network 10.96.0.0/12, got "organization/storage-bench-lab/network"`,
    ]);
  });
});
