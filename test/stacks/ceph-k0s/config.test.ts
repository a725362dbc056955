/** `ceph-k0s` config: defaults, field rules and cross-field rules, with the exact messages a user reads. */
import { checkCephK0s, cephK0sSchema, clusterZone } from "../../../stacks/ceph-k0s/config";
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

test("defaults: 3 workers, gp3 baseline 100 GiB / 3000 IOPS / 125 MiB/s, kube-router, the published pgbench run, 3 reps", () => {
  const c = parse();
  expect(c).toMatchObject({
    workerCount: 3,
    osdVolumeGiB: 100,
    osdVolumeIops: 3000,
    osdVolumeThroughputMBps: 125,
    k0sVersion: "v1.36.3+k0s.2",
    cni: "kuberouter",
    pgbenchScale: 1000,
    pgbenchClients: 20,
    pgbenchThreads: 2,
    pgbenchDurationSeconds: 300,
    reps: 3,
    runId: "r1",
    ttlHours: 8,
  });
  expect(c.az).toBeUndefined();
  expect(clusterZone(c)).toBe("us-east-1a");
  expect(clusterZone(parse({ "lab:az": "us-east-1c" }))).toBe("us-east-1c");
});

test("field rules, all problems at once", () => {
  expect(
    problems({
      "lab:instanceType": "m6g.large",
      "lab:workerCount": "2",
      "lab:az": "1",
      "lab:adminCidrs": '["0.0.0.0/0","10.0.0.5/16"]',
      "lab:osdVolumeIops": "90000",
      "lab:cni": "flannel",
      "lab:sshPublicKey": "ssh-dss AAAA",
      "lab:k0sVersion": "1.36",
    }),
  ).toEqual([
    "'lab:instanceType' must be an x86_64 EC2 instance type of a family in components/k0s/instance-types.ts (e.g. m4.xlarge on Xen, m5.xlarge on Nitro), got \"m6g.large\"",
    "'lab:workerCount' must be a whole number of workers from 3 to 9 (3 replicas on 3 different hosts), got 2",
    "'lab:az' must be an availability zone name of aws:region among the network stack's zones (e.g. us-east-1a), got \"1\"",
    "'lab:adminCidrs[0]' must be an IPv4 network CIDR with a prefix from /8 to /32 (e.g. 10.0.0.0/16), got \"0.0.0.0/0\"",
    "'lab:adminCidrs[1]' must be an IPv4 network CIDR with a prefix from /8 to /32 (e.g. 10.0.0.0/16), got \"10.0.0.5/16\"",
    "'lab:sshPublicKey' must be an OpenSSH public key (ssh-ed25519, ssh-rsa or ecdsa-sha2-nistp256/384/521 followed by its base64 key), got \"ssh-dss AAAA\"",
    "'lab:osdVolumeIops' must be a whole number of IOPS from 3000 to 80000 (gp3), got 90000",
    "'lab:k0sVersion' must be a k0s release (e.g. v1.36.3+k0s.2), got \"1.36\"",
    "'lab:cni' must be one of kuberouter, calico, got \"flannel\"",
  ]);
  expect(problems({ "lab:adminCidrs": "[]" })).toEqual([
    "'lab:adminCidrs' must be a list of 1 to 10 IPv4 CIDRs of the operators (e.g. [\"198.51.100.7/32\"]), got []",
  ]);
  expect(problems({ "lab:instanceTyp": "m5.large" })[0]).toMatch(
    /^'lab:instanceTyp' must be a key of kind ceph-k0s \(did you mean 'lab:instanceType'\?\)/,
  );
});

test("cross-field rules: gp3 ratios, Ceph capacity for the Postgres volume, threads ≤ clients, zone of the region, not the whole internet", () => {
  expect(
    problems({
      "lab:osdVolumeGiB": "10",
      "lab:osdVolumeIops": "6000",
      "lab:osdVolumeThroughputMBps": "1000",
      "lab:pgbenchClients": "4",
      "lab:pgbenchThreads": "8",
      "lab:az": "eu-west-1a",
      "lab:adminCidrs": '["0.0.0.0/8"]',
    }),
  ).toEqual([
    "'lab:az' must be a zone of aws:region us-east-1, got \"eu-west-1a\"",
    "'lab:osdVolumeIops' must be at most 500 per GiB of 'lab:osdVolumeGiB' (5000), got 6000",
    "'lab:osdVolumeGiB' must be at least 76 with 3 workers (the 64 GiB Postgres volume, 3 replicas, below Ceph's nearfull ratio 0.85), got 10",
    "'lab:pgbenchThreads' must be at most 'lab:pgbenchClients' (4), got 8",
    "'lab:adminCidrs' must be CIDRs of the operators' own networks, not the whole internet, got [\"0.0.0.0/8\"]",
  ]);
  expect(problems({ "lab:osdVolumeIops": "3000", "lab:osdVolumeThroughputMBps": "1000" })).toEqual([
    "'lab:osdVolumeThroughputMBps' must be at most 'lab:osdVolumeIops' / 4 (750), got 1000",
  ]);
  expect(() => parse({ "lab:osdVolumeGiB": "76" })).not.toThrow();
  expect(problems({ "lab:osdVolumeGiB": "75" })).toEqual([
    "'lab:osdVolumeGiB' must be at least 76 with 3 workers (the 64 GiB Postgres volume, 3 replicas, below Ceph's nearfull ratio 0.85), got 75",
  ]);
});
