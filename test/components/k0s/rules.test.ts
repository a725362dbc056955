/** K0sCluster rules: defaults in one table, every problem at once, exact messages. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { formatArgProblem } from "../../../core/errors";
import {
  clusterNetworksOverlapping,
  isSshPublicKey,
  SSH_PUBLIC_KEY_RULE,
  K0S_CLUSTER_DEFAULTS,
  K0sClusterChecked,
  MIN_NODE,
  NODE_NETWORK_RULE,
  problems,
  resolve,
} from "../../../components/k0s/rules";
import { K0sCluster } from "../../../components/k0s";
import { minimalMocks } from "../../helpers/mocks";

const valid = { instanceType: "m5.xlarge", az: "us-east-1a", adminCidrs: ["198.51.100.7/32"] };
const lines = (spec: K0sClusterChecked) => problems(spec).map((p) => formatArgProblem(p));

/** Real keys from ssh-keygen (the OpenSSH client every operator has). */
function sshKey(type: "ed25519" | "rsa" | "ecdsa" | "dsa"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-sshkey-"));
  try {
    execFileSync("ssh-keygen", [
      "-q",
      "-t",
      type,
      ...(type === "rsa" ? ["-b", "2048"] : []),
      "-N",
      "",
      "-C",
      "alice@example",
      "-f",
      path.join(dir, "k"),
    ]);
    return fs.readFileSync(path.join(dir, "k.pub"), "utf8").trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("K0sCluster rules", () => {
  test("defaults, in one table", () => {
    expect(K0S_CLUSTER_DEFAULTS).toEqual({
      workerCount: 3,
      // The published setup's (koor-tech/experiment-ceph-on-nitro@6686fc8): 350 GiB gp3 volumes, Calico, 2048 huge pages, Ceph on the pod network.
      osdVolumeGiB: 350,
      osdVolumeIops: 3000,
      osdVolumeThroughputMiBps: 125,
      rootVolumeGiB: 30,
      k0sVersion: "v1.36.3+k0s.2",
      cni: "calico",
      cephHostNetwork: false,
      hugepages2Mi: 2048,
      bastionInstanceType: "t3.micro",
    });
    expect(resolve(valid)).toEqual({ ...valid, ...K0S_CLUSTER_DEFAULTS, wireguard: true });
    expect(resolve({ ...valid, workerCount: 5, cni: "kuberouter" })).toMatchObject({
      workerCount: 5,
      cni: "kuberouter",
      wireguard: false,
      osdVolumeGiB: 350,
    });
    expect(resolve({ ...valid, wireguard: false })).toMatchObject({ cni: "calico", wireguard: false });
    expect(MIN_NODE).toEqual({ vcpus: 4, memoryGiB: 16 });
  });

  test("a valid spec has no problem; an Output zone is left to whoever made it", () => {
    expect(problems(valid)).toEqual([]);
    expect(problems({ ...valid, instanceType: "t2.xlarge", workerCount: 9, adminCidrs: ["10.1.2.0/24", "203.0.113.9/32"] })).toEqual([]);
    // a /8 only where adminCidrMinPrefix allows it (lab run --allow-wide-admin)
    expect(problems({ ...valid, adminCidrs: ["10.0.0.0/8"], adminCidrMinPrefix: 8 })).toEqual([]);
    expect(problems({ ...valid, az: pulumi.output("not a zone") })).toEqual([]);
  });

  test("a k0s release of a Kubernetes minor Rook v1.20 does not support (v1.31–v1.36) is refused", () => {
    const rule = "'k0sVersion' must be a k0s release of Kubernetes v1.31 to v1.36, the versions Rook v1.20.6 supports (e.g. v1.36.3+k0s.2)";
    expect(lines({ ...valid, k0sVersion: "v1.29.15+k0s.0" })).toEqual([`${rule}, got "v1.29.15+k0s.0"`]);
    expect(lines({ ...valid, k0sVersion: "v1.37.0+k0s.0" })).toEqual([`${rule}, got "v1.37.0+k0s.0"`]);
    expect(lines({ ...valid, k0sVersion: "v1.31.0+k0s.0" })).toEqual([]);
  });

  test("more than 32,000 volume IOPS on a Xen instance is refused (EC2: only Nitro instances reach more); on Nitro it passes", () => {
    const big = { osdVolumeGiB: 1000, osdVolumeIops: 40000, osdVolumeThroughputMiBps: 1000 };
    expect(lines({ ...valid, ...big, instanceType: "m4.xlarge" })).toEqual([
      "'osdVolumeIops' must be at most 32000 on 'instanceType' m4.xlarge (Xen): EC2 volumes reach more only on Nitro instances, got 40000",
    ]);
    expect(lines({ ...valid, ...big, instanceType: "m5.xlarge" })).toEqual([]);
  });

  test("each admin CIDR once: EC2 refuses a second identical security-group rule", () => {
    expect(
      problems({ ...valid, adminCidrs: ["198.51.100.7/32", "192.0.2.0/24", "198.51.100.7/32"] }).map((p) => formatArgProblem(p)),
    ).toEqual([`'adminCidrs' must be a list without duplicates, got ["198.51.100.7/32","192.0.2.0/24","198.51.100.7/32"]`]);
  });

  test("every problem at once, in argument order, other arguments referenced by name", () => {
    const dsa = "ssh-dss AAAAB3NzaC1kc3MAAACBAP";
    expect(
      lines({
        instanceType: "m4.large",
        workerCount: 10,
        az: "1",
        adminCidrs: ["0.0.0.0/8", "10.0.0.5/16"],
        sshPublicKey: dsa,
        osdVolumeGiB: 10,
        osdVolumeIops: 6000,
        osdVolumeThroughputMiBps: 1600,
        rootVolumeGiB: 0,
        k0sVersion: "1.36",
        cni: "flannel" as never,
        bastionInstanceType: "t9.micro",
      }),
    ).toEqual([
      `'instanceType' must be an instance type with at least 4 vCPUs and 16 GiB of memory (a worker runs a Ceph OSD and monitor beside Postgres or pgbench); m4.large has 2 vCPUs and 8 GiB, got "m4.large"`,
      "'workerCount' must be an integer from 1 to 9, got 10",
      `'az' must be an availability zone name (e.g. us-east-1a), got "1"`,
      `'adminCidrs[1]' must be an IPv4 network CIDR with a prefix from /8 to /32 (e.g. 198.51.100.7/32), got "10.0.0.5/16"`,
      `'adminCidrs' must be CIDRs of the operators' own networks, not the whole internet, got ["0.0.0.0/8","10.0.0.5/16"]`,
      `'sshPublicKey' must be ${SSH_PUBLIC_KEY_RULE}, got ${JSON.stringify(dsa)}`,
      "'osdVolumeIops' must be at most 500 per GiB of 'osdVolumeGiB' (5000), got 6000",
      "'osdVolumeThroughputMiBps' must be at most 0.25 MiB/s per IOPS of 'osdVolumeIops' (1500), got 1600",
      "'rootVolumeGiB' must be a whole number of GiB from 1 to 65536 (gp3), got 0",
      `'k0sVersion' must be a k0s release (e.g. v1.36.3+k0s.2), got "1.36"`,
      `'cni' must be one of kuberouter, calico, got "flannel"`,
      `'bastionInstanceType' must be an x86_64 EC2 instance type listed in components/k0s/instance-types.ts (e.g. m4.xlarge on Xen, m5.xlarge on Nitro), got "t9.micro"`,
    ]);
  });

  test("required arguments and types are checked too", () => {
    expect(lines({} as K0sClusterChecked)).toEqual([
      "'instanceType' must be an x86_64 EC2 instance type listed in components/k0s/instance-types.ts (e.g. m4.xlarge on Xen, m5.xlarge on Nitro), got nothing",
      "'az' must be an availability zone name (e.g. us-east-1a), got nothing",
      `'adminCidrs' must be a list of 1 to 10 IPv4 CIDRs of the operators (e.g. ["198.51.100.7/32"]), got nothing`,
    ]);
    expect(lines({ ...valid, workerCount: "3" as never, adminCidrs: [], osdVolumeGiB: 100.5 })).toEqual([
      `'workerCount' must be an integer from 1 to 9, got "3"`,
      `'adminCidrs' must be a list of 1 to 10 IPv4 CIDRs of the operators (e.g. ["198.51.100.7/32"]), got []`,
      "'osdVolumeGiB' must be a whole number of GiB from 1 to 65536 (gp3), got 100.5",
    ]);
    expect(lines({ ...valid, adminCidrs: Array.from({ length: 11 }, (_, i) => `198.51.100.${i}/32`) })[0]).toMatch(
      /^'adminCidrs' must be a list of 1 to 10 IPv4 CIDRs/,
    );
  });

  test.each([
    ["m5.large", 2, 8],
    ["c5.xlarge", 4, 8],
    ["c4.2xlarge", 8, 15],
    ["r4.large", 2, 15.25],
    ["t3.medium", 2, 4],
  ])("%s (%d vCPUs, %d GiB) is too small, and says what it needs", (type, vcpus, gib) => {
    expect(lines({ ...valid, instanceType: type })).toEqual([
      `'instanceType' must be an instance type with at least 4 vCPUs and 16 GiB of memory (a worker runs a Ceph OSD and monitor beside Postgres or pgbench); ${type} has ${vcpus} vCPUs and ${gib} GiB, got "${type}"`,
    ]);
  });

  test.each(["m5d.xlarge", "i3.xlarge", "i3.metal", "i3en.xlarge"])(
    "%s (NVMe instance storage beside the EBS volume) is refused: the OSD device is found by its name (issue 40 item 5)",
    (type) => {
      expect(lines({ ...valid, instanceType: type })).toEqual([
        "'instanceType' must be an instance type without NVMe instance storage (not m5d, i3, i3en): the OSD device is found by its name " +
          `(/dev/xvdf or /dev/nvme1n1), which an instance-store NVMe disk can take, so Ceph would run on it while the samples say gp3, got "${type}"`,
      ]);
    },
  );

  test.each(["m4.xlarge", "m5.xlarge", "t3.xlarge", "c5.2xlarge", "r4.xlarge", "m3.2xlarge"])("%s is big enough", (type) => {
    expect(problems({ ...valid, instanceType: type })).toEqual([]);
  });
});

/** An ssh-rsa key line whose modulus has `bits` bits (ssh-keygen makes none under 1024): RFC 4253 section 6.6. */
function rsaKeyOfBits(bits: number): string {
  const str = (b: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  const n = Buffer.alloc(bits / 8, 0xab);
  n[0] = 0xc1; // top bit set: the mpint takes a leading zero byte
  const mpint = (b: Buffer) => str(b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
  return `ssh-rsa ${Buffer.concat([str(Buffer.from("ssh-rsa")), mpint(Buffer.from([1, 0, 1])), mpint(n)]).toString("base64")} old@example`;
}

describe("SSH public keys: the types the nodes' sshd accepts (OpenSSH 9.6 PubkeyAcceptedAlgorithms, RequiredRSASize)", () => {
  test("real ED25519, ECDSA and RSA keys pass, with or without a comment", () => {
    const ed = sshKey("ed25519");
    const rsa = sshKey("rsa");
    const ecdsa = sshKey("ecdsa");
    expect(ed).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]+ alice@example$/);
    expect(rsa).toMatch(/^ssh-rsa AAAAB3NzaC1yc2EAAAA[A-Za-z0-9+/=]+ alice@example$/);
    expect(ecdsa).toMatch(/^ecdsa-sha2-nistp256 /);
    for (const k of [ed, rsa, ecdsa, ed.replace(/ alice@example$/, "")]) expect(isSshPublicKey(k)).toBe(true);
    expect(isSshPublicKey(rsaKeyOfBits(1024))).toBe(true);
  });

  test("an RSA key under 1024 bits, DSA, a truncated blob, a blob of another type than its prefix, and malformed lines are refused", () => {
    const ed = sshKey("ed25519");
    const ecdsa = sshKey("ecdsa");
    const edBlob = ed.split(" ")[1];
    const small = rsaKeyOfBits(768);
    for (const k of [
      small,
      `ssh-rsa ${edBlob}`, // the ED25519 blob under an RSA prefix
      `ecdsa-sha2-nistp384 ${ecdsa.split(" ")[1]}`, // a P-256 key under the P-384 prefix
      "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBHk0", // truncated
      "ssh-ed25519 AAAA",
      "ssh-ed25519",
      `ssh-ed25519  ${edBlob}`,
      `${ed}\nssh-rsa AAAA`,
      "ssh-dss AAAAB3NzaC1kc3MAAACBAP",
      42,
    ])
      expect(isSshPublicKey(k)).toBe(false);
    expect(lines({ ...valid, sshPublicKey: small })).toEqual([
      `'sshPublicKey' must be ${SSH_PUBLIC_KEY_RULE}, got ${JSON.stringify(small)}`,
    ]);
    expect(SSH_PUBLIC_KEY_RULE).toBe(
      "an OpenSSH public key the nodes' sshd accepts (ssh-ed25519, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com, ssh-rsa; RSA of at least 1024 bits), followed by its base64 key",
    );
  });
});

describe("node network against k0s' pod (10.244.0.0/16) and service (10.96.0.0/12) networks", () => {
  test.each([
    ["10.0.0.0/16", []],
    ["10.96.0.0/16", ["service network 10.96.0.0/12"]],
    ["10.111.255.0/24", ["service network 10.96.0.0/12"]],
    ["10.112.0.0/16", []],
    ["10.95.0.0/16", []],
    ["10.244.128.0/20", ["pod network 10.244.0.0/16"]],
    ["10.0.0.0/8", ["pod network 10.244.0.0/16", "service network 10.96.0.0/12"]],
    ["192.168.0.0/16", []],
  ])("%s overlaps %j", (cidr, expected) => {
    expect(clusterNetworksOverlapping(cidr)).toEqual(expected);
  });

  test("the rule names both networks", () => {
    expect(NODE_NETWORK_RULE).toBe("a network that overlaps neither k0s' pod network 10.244.0.0/16 nor its service network 10.96.0.0/12");
    expect(() => clusterNetworksOverlapping("10.0.0.0")).toThrow("not an IPv4 CIDR: 10.0.0.0");
  });
});

describe("the component starts with its rules", () => {
  beforeAll(minimalMocks);

  test("bad arguments: one InputPropertiesError with every problem, before any child exists", () => {
    const make = () =>
      new K0sCluster("bad", {
        ...valid,
        instanceType: "m5.large",
        workerCount: 0,
        vpcId: "vpc-1",
        privateSubnetId: "subnet-1",
        publicSubnetId: "subnet-2",
      });
    expect(make).toThrow(
      [
        "invalid arguments of lab:k0s:K0sCluster 'bad':",
        `'instanceType' must be an instance type with at least 4 vCPUs and 16 GiB of memory (a worker runs a Ceph OSD and monitor beside Postgres or pgbench); m5.large has 2 vCPUs and 8 GiB, got "m5.large"`,
        "'workerCount' must be an integer from 1 to 9, got 0",
      ].join("\n"),
    );
    try {
      make();
    } catch (e) {
      expect(pulumi.InputPropertiesError.isInstance(e)).toBe(true);
      expect((e as pulumi.InputPropertiesError).errors?.map((x) => x.propertyPath)).toEqual(["instanceType", "workerCount"]);
    }
    expect.assertions(3);
  });
});
