/** The ceph-k0s stacks `dev` and `nitro` planned under the project's mocks, from the shipped config files. */
import * as path from "node:path";
import YAML from "yaml";
import * as fs from "node:fs";
import { planAll } from "../../../lab/plan";
import { fakeIp } from "../../../lab/plan/fakes";
import { PlannedResource, StackPlan, StackSpec } from "../../../lab/plan/run";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { configHash } from "../../../components/k0s/k0sctl";
import { runStack } from "../../../stacks";
import { crdProblems } from "../../helpers/crd";

const ROOT = path.resolve(__dirname, "../../..");
const shipped = (stack: string) => readStackConfigFile(path.join(ROOT, `Pulumi.${stack}.yaml`), stack);

async function plan(stack: "dev" | "nitro", extra: Record<string, string> = {}): Promise<{ p: StackPlan; net: StackPlan }> {
  const spec = shipped(stack);
  const withExtra: StackSpec = { ...spec, config: { ...spec.config, ...extra } };
  const results = await planAll([withExtra, shipped("network")], runStack);
  return { p: results.find((r) => r.spec.name === stack)!.plan, net: results.find((r) => r.spec.name === "network")!.plan };
}
const ofType = (p: StackPlan, type: string): PlannedResource[] => p.resources.filter((r) => r.type === type);
const named = (p: StackPlan, name: string, type?: string): PlannedResource => {
  const found = p.resources.filter((r) => r.name === name && (type === undefined || r.type === type));
  if (found.length !== 1) throw new Error(`${found.length} resources named ${name}`);
  return found[0];
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

test("Pulumi.dev.yaml and Pulumi.nitro.yaml differ only in lab:instanceType (m4.xlarge vs m5.xlarge)", () => {
  const read = (s: string) => YAML.parse(fs.readFileSync(path.join(ROOT, `Pulumi.${s}.yaml`), "utf8")).config as Record<string, unknown>;
  const dev = read("dev");
  const nitro = read("nitro");
  const keys = [...new Set([...Object.keys(dev), ...Object.keys(nitro)])];
  expect(keys.filter((k) => JSON.stringify(dev[k]) !== JSON.stringify(nitro[k]))).toEqual(["lab:instanceType"]);
  expect([dev["lab:instanceType"], nitro["lab:instanceType"]]).toEqual(["m4.xlarge", "m5.xlarge"]);
  expect(dev["lab:kind"]).toBe("ceph-k0s");
});

describe.each([
  ["dev", "m4.xlarge", "xen"],
  ["nitro", "m5.xlarge", "nitro"],
] as const)("stack %s", (stack, instanceType, hypervisor) => {
  let p: StackPlan;
  let net: StackPlan;
  beforeAll(async () => {
    ({ p, net } = await plan(stack));
  });

  test(`1 controller + 3 workers of ${instanceType} in the network stack's first private subnet; a t3.micro bastion in its public one`, () => {
    const instances = ofType(p, "aws:ec2/instance:Instance").map((i) => [
      i.name,
      i.inputs.instanceType,
      i.inputs.subnetId,
      i.inputs.associatePublicIpAddress,
    ]);
    const [privateA] = net.outputs.privateSubnetIds as string[];
    const [publicA] = net.outputs.publicSubnetIds as string[];
    expect(instances.sort()).toEqual([
      ["ceph-bastion", "t3.micro", publicA, true],
      ["ceph-controller", instanceType, privateA, false],
      ["ceph-worker-1", instanceType, privateA, false],
      ["ceph-worker-2", instanceType, privateA, false],
      ["ceph-worker-3", instanceType, privateA, false],
    ]);
    for (const sg of ofType(p, "aws:ec2/securityGroup:SecurityGroup")) expect(sg.inputs.vpcId).toBe(net.outputs.vpcId);
  });

  test("every instance: IMDSv2 required (hop limit 1), encrypted gp3 root, Canonical's AMI; kube-router workers without source/dest check", () => {
    for (const i of ofType(p, "aws:ec2/instance:Instance")) {
      expect(i.inputs.metadataOptions).toEqual({ httpEndpoint: "enabled", httpTokens: "required", httpPutResponseHopLimit: 1 });
      expect(i.inputs.rootBlockDevice).toMatchObject({ volumeType: "gp3", encrypted: true, deleteOnTermination: true });
      expect(i.inputs.ami).toBe(p.outputs.amiId);
      expect(String(i.inputs.userData).startsWith("#cloud-config\n")).toBe(true);
      expect(i.inputs.sourceDestCheck).toBe(i.name.startsWith("ceph-worker") ? false : i.name === "ceph-controller" ? true : undefined);
    }
  });

  test("one encrypted gp3 OSD volume per worker, sized and tuned explicitly, attached as /dev/xvdf", () => {
    const volumes = ofType(p, "aws:ebs/volume:Volume");
    expect(volumes.map((v) => v.inputs)).toEqual(
      [1, 2, 3].map((n) => ({
        availabilityZone: "us-east-1a",
        type: "gp3",
        size: 100,
        iops: 3000,
        throughput: 125,
        encrypted: true,
        tags: { Name: `ceph-osd-${n}`, "lab:role": "ceph-osd" },
      })),
    );
    const attachments = ofType(p, "aws:ec2/volumeAttachment:VolumeAttachment");
    expect(attachments.map((a) => [a.name, a.inputs.deviceName, a.inputs.stopInstanceBeforeDetaching])).toEqual(
      [1, 2, 3].map((n) => [`ceph-osd-${n}`, "/dev/xvdf", true]),
    );
    for (const [n, a] of attachments.entries()) {
      expect(a.dependencies).toEqual(
        [named(p, `ceph-osd-${n + 1}`, "aws:ebs/volume:Volume").urn, named(p, `ceph-worker-${n + 1}`).urn].sort(),
      );
    }
  });

  test("no security group rule admits 0.0.0.0/0; the admin CIDR reaches the bastion only (SSH, API)", () => {
    const ingress = ofType(p, "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule");
    expect(ingress).toHaveLength(17);
    for (const r of ingress) expect(r.inputs.cidrIpv4).not.toBe("0.0.0.0/0");
    const byCidr = ingress
      .filter((r) => r.inputs.cidrIpv4 !== undefined)
      .map((r) => [r.name, r.inputs.cidrIpv4, r.inputs.fromPort ?? "all"]);
    expect(byCidr.sort()).toEqual([
      ["ceph-bastion-api-admin-1", "198.51.100.7/32", 6443],
      ["ceph-bastion-ssh-admin-1", "198.51.100.7/32", 22],
      ["ceph-worker-pods", "10.244.0.0/16", "all"],
      ["ceph-worker-services", "10.96.0.0/12", "all"],
    ]);
    expect(ofType(p, "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule").map((r) => r.inputs.ipProtocol)).toEqual([
      "-1",
      "-1",
      "-1",
    ]);
  });

  test("k0sctl apply: the config on stdin from the environment, re-run by its hash, reset on delete, after the volumes and the bastion", () => {
    const apply = named(p, "ceph-k0sctl-apply");
    const env = apply.inputs.environment as Record<string, string>;
    expect(env.LAB_SSH_PRIVATE_KEY).toBe("[secret]");
    expect(apply.inputs.triggers).toEqual([configHash(env.LAB_K0SCTL_CONFIG)]);
    expect(String(apply.inputs.create)).toMatch(/\nlab_k0sctl_apply\n$/);
    expect(apply.inputs.update).toBe(apply.inputs.create);
    expect(String(apply.inputs.delete)).toMatch(/\nlab_k0sctl_reset\n$/);
    const config = YAML.parse(env.LAB_K0SCTL_CONFIG) as Any;
    const ip = (name: string) => fakeIp(name);
    expect(config.spec.hosts.map((h: Any) => [h.role, h.privateAddress, h.ssh.address, h.ssh.bastion.address])).toEqual([
      ["controller", ip("ceph-controller"), ip("ceph-controller"), p.outputs.bastionPublicIp],
      ...[1, 2, 3].map((n) => ["worker", ip(`ceph-worker-${n}`), ip(`ceph-worker-${n}`), p.outputs.bastionPublicIp]),
    ]);
    expect(config.spec.hosts[1].installFlags).toEqual([
      `--labels=topology.kubernetes.io/zone=us-east-1a,node.kubernetes.io/instance-type=${instanceType}`,
    ]);
    expect(config.spec.k0s.version).toBe("v1.36.3+k0s.2");
    for (const n of ["ceph-osd-1", "ceph-osd-2", "ceph-osd-3"])
      expect(apply.dependencies).toContain(named(p, n, "aws:ec2/volumeAttachment:VolumeAttachment").urn);
    expect(apply.dependencies).toContain(named(p, "ceph-bastion", "aws:ec2/instance:Instance").urn);

    const kubeconfig = named(p, "ceph-kubeconfig");
    expect((kubeconfig.inputs.environment as Record<string, string>).LAB_API_URL).toBe(`https://${p.outputs.bastionPublicIp}:6443`);
    expect(kubeconfig.inputs.logging).toBe("stderr");
    expect(String(kubeconfig.inputs.create)).toMatch(/\nlab_k0sctl_kubeconfig\n$/);
    expect(kubeconfig.dependencies).toContain(apply.urn);
  });

  test("Rook, Postgres and pgbench go through the provider built from the k0s kubeconfig", () => {
    const k0s = named(p, "k0s", "pulumi:providers:kubernetes");
    expect(k0s.dependencies).toEqual([named(p, "ceph-kubeconfig").urn]);
    const inCluster = p.resources.filter((r) => r.type.startsWith("kubernetes:") && r.custom);
    expect(inCluster.map((r) => r.name).sort()).toEqual(
      [
        "pg-credentials",
        "pg-ns",
        "pg-server",
        "pg-svc",
        "pgbench-pgbench",
        "pgbench-scripts",
        "rook-block",
        "rook-cluster",
        "rook-csi-drivers",
        "rook-ns",
        "rook-operator",
        "rook-pool",
      ].sort(),
    );
    for (const r of inCluster) expect(r.provider?.startsWith(`${k0s.urn}::`)).toBe(true);
    // The benchmark's ConfigMap and Job wait for Postgres, whose namespace they live in.
    expect(named(p, "pgbench-scripts").dependencies).toContain(named(p, "pg-ns", "kubernetes:core/v1:Namespace").urn);
    expect(named(p, "pgbench-pgbench").dependencies).toContain(named(p, "pg-server").urn);
  });

  test("the Rook charts are pinned; the CephCluster and CephBlockPool as planned validate against Rook's CRDs", () => {
    const op = named(p, "rook-operator").inputs as Any;
    expect([op.chart, op.version, op.repositoryOpts.repo, op.namespace]).toEqual([
      "rook-ceph",
      "v1.20.6",
      "https://charts.rook.io/release",
      "rook-ceph",
    ]);
    const drivers = named(p, "rook-csi-drivers").inputs as Any;
    expect([drivers.chart, drivers.version, drivers.repositoryOpts.repo]).toEqual([
      "ceph-csi-drivers",
      "1.0.4",
      "https://ceph.github.io/ceph-csi-operator",
    ]);
    expect(drivers.values.operatorConfig.driverSpecDefaults.nodePlugin.kubeletDirPath).toBe("/var/lib/k0s/kubelet");
    const cluster = named(p, "rook-cluster").inputs as Any;
    expect(crdProblems("ceph.rook.io", "CephCluster", cluster)).toEqual([]);
    expect(cluster.spec.storage.devicePathFilter).toBe("^/dev/(xvdf|nvme1n1)$");
    expect(crdProblems("ceph.rook.io", "CephBlockPool", named(p, "rook-pool").inputs as Any)).toEqual([]);
    expect(named(p, "rook-cluster").dependencies).toEqual([named(p, "rook-csi-drivers").urn, named(p, "rook-operator").urn].sort());
    expect(named(p, "rook-block").inputs).toMatchObject({
      provisioner: "rook-ceph.rbd.csi.ceph.com",
      metadata: { name: "rook-ceph-block" },
    });
  });

  test("Postgres on rook-ceph-block after Rook; pgbench scale 1000, 20 clients, 2 threads, 300 s, 3 reps after Postgres", () => {
    const sts = named(p, "pg-server").inputs as Any;
    expect(sts.spec.volumeClaimTemplates[0].spec.storageClassName).toBe("rook-ceph-block");
    // The namespace waits for all of Rook; every other Postgres object waits for the namespace.
    expect(named(p, "pg-ns").dependencies).toEqual(
      expect.arrayContaining([named(p, "rook-block").urn, named(p, "rook-cluster").urn, named(p, "rook-pool").urn]),
    );
    expect(named(p, "pg-server").dependencies).toContain(named(p, "pg-ns").urn);
    const job = named(p, "pgbench-pgbench").inputs as Any;
    expect(job.metadata.namespace).toBe("bench");
    const env = Object.fromEntries(
      job.spec.template.spec.containers[0].env.filter((e: Any) => e.value !== undefined).map((e: Any) => [e.name, e.value]),
    );
    expect(env).toMatchObject({
      PGHOST: "postgres.bench.svc.cluster.local",
      PGBENCH_SCALE: "1000",
      PGBENCH_CLIENTS: "20",
      PGBENCH_THREADS: "2",
      PGBENCH_DURATION: "300",
      REPS: "3",
    });
    expect(named(p, "pgbench-pgbench").dependencies).toContain(named(p, "pg-server").urn);
  });

  test("outputs", () => {
    expect(p.outputs).toEqual({
      availabilityZone: "us-east-1a",
      kubeconfig: "<computed>",
      instanceType,
      hypervisor,
      amiId: expect.stringMatching(/^ami-[0-9a-f]{17}$/),
      nodePrivateIps: ["ceph-controller", "ceph-worker-1", "ceph-worker-2", "ceph-worker-3"].map(fakeIp),
      bastionPublicIp: expect.stringMatching(/^203\.0\.113\.\d+$/),
      sshPrivateKey: "[secret]",
      storageClass: "rook-ceph-block",
      osdVolume: { sizeGiB: 100, iops: 3000, throughputMBps: 125, type: "gp3", deviceName: "/dev/xvdf" },
      results: "<computed>",
      rawOutputs: "<computed>",
      expiresAt: "2026-01-01T08:00:00Z",
    });
  });
});

test("a given SSH public key replaces the generated one: no private key anywhere, k0sctl uses the agent", async () => {
  const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBdfvP1u1ifI4ZV5ofEw1dXXZk5Jp3qkWm3ow2ZqE0Zf alice@example";
  const { p } = await plan("nitro", { "lab:sshPublicKey": key });
  expect(ofType(p, "tls:index/privateKey:PrivateKey")).toEqual([]);
  expect(named(p, "ceph-ssh", "aws:ec2/keyPair:KeyPair").inputs.publicKey).toBe(key);
  const env = named(p, "ceph-k0sctl-apply").inputs.environment as Record<string, string>;
  expect(Object.keys(env)).toEqual(["LAB_K0SCTL_CONFIG"]);
  expect(env.LAB_K0SCTL_CONFIG).not.toContain("keyPath");
  expect(p.outputs.sshPrivateKey).toBe("");
});

test("calico: VXLAN between workers instead of BGP, and the source/dest check stays on", async () => {
  const { p } = await plan("dev", { "lab:cni": "calico" });
  const names = ofType(p, "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule").map((r) => r.name);
  expect(names).toContain("ceph-worker-vxlan");
  expect(names).not.toContain("ceph-worker-bgp");
  expect(named(p, "ceph-worker-vxlan").inputs).toMatchObject({ ipProtocol: "udp", fromPort: 4789, toPort: 4789 });
  for (const w of ofType(p, "aws:ec2/instance:Instance").filter((i) => i.name.startsWith("ceph-worker")))
    expect(w.inputs.sourceDestCheck).toBe(true);
});

test("a zone the network stack does not have is a config error naming lab:az and the zones it has", async () => {
  await expect(plan("dev", { "lab:az": "us-east-1c" })).rejects.toThrow(
    "'lab:az' must be one of the zones of network stack 'organization/storage-bench-lab/network' (us-east-1a, us-east-1b), got \"us-east-1c\"",
  );
});
