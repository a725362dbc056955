/** The ceph-k0s stacks `dev` and `nitro` planned under the project's mocks, from the shipped config files. */
import * as path from "node:path";
import YAML from "yaml";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import * as fs from "node:fs";
import { planAll } from "../../../lab/plan";
import { fakeHash, fakeIp } from "../../../lab/plan/fakes";
import { PlannedResource, StackPlan, StackSpec } from "../../../lab/plan/run";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { runStack } from "../../../stacks";
import { pgbenchMetadata } from "../../../stacks/ceph-k0s/index";
import { cephK0sSchema } from "../../../stacks/ceph-k0s/config";
import { parseConfig } from "../../../stacks/lib/config/load";
import { crdProblems } from "../../helpers/crd";
import { K0S_RULES } from "../../../lab/policy/k0s";

const ROOT = path.resolve(__dirname, "../../..");
const shipped = (stack: string) => readStackConfigFile(path.join(ROOT, `Pulumi.${stack}.yaml`), stack);

async function plan(
  stack: "dev" | "nitro",
  extra: Record<string, string> = {},
  networkExtra: Record<string, string> = {},
): Promise<{ p: StackPlan; net: StackPlan }> {
  const spec = shipped(stack);
  const withExtra: StackSpec = { ...spec, config: { ...spec.config, ...extra } };
  const network = shipped("network");
  const results = await planAll([withExtra, { ...network, config: { ...network.config, ...networkExtra } }], runStack);
  return { p: results.find((r) => r.spec.name === stack)!.plan, net: results.find((r) => r.spec.name === "network")!.plan };
}
const ofType = (p: StackPlan, type: string): PlannedResource[] => p.resources.filter((r) => r.type === type);
/**
 * The round in which `pulumi destroy` deletes each resource: a resource is deleted once everything
 * that depends on it (dependencies, parent) has been, as the engine schedules deletes.
 */
function destroyRounds(resources: readonly PlannedResource[]): Map<string, number> {
  const dependents = new Map<string, string[]>(resources.map((r) => [r.urn, []]));
  for (const r of resources) for (const d of [...r.dependencies, ...(r.parent ? [r.parent] : [])]) dependents.get(d)?.push(r.urn);
  const round = new Map<string, number>();
  const of = (urn: string): number => {
    const known = round.get(urn);
    if (known !== undefined) return known;
    const n = Math.max(-1, ...(dependents.get(urn) ?? []).map(of)) + 1;
    round.set(urn, n);
    return n;
  };
  for (const r of resources) of(r.urn);
  return round;
}
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

test("the planned dev and nitro stacks differ only in what follows from the instance type (its name and hypervisor)", async () => {
  const [dev, nitro] = [(await plan("dev")).p, (await plan("nitro")).p];
  // The mocks' made-up ids, addresses and keys depend on the stack's name: written one way, as is the stack's name itself.
  const norm = (v: unknown, stack: string): unknown =>
    JSON.parse(
      JSON.stringify(v)
        .replaceAll(`urn:pulumi:${stack}::`, "urn:pulumi:STACK::")
        .replace(new RegExp(`("lab:stack\\*":\\*"|"stack":")${stack}`, "g"), "$1STACK")
        .replace(/\b(vpc|sg|subnet|ami|i|vol|eipalloc|eni|igw|nat|rtb)-[0-9a-f]{8,}\b/g, "$1-ID")
        .replace(/\b\d{1,3}(\.\d{1,3}){3}\b(?!\/)/g, "IP")
        .replace(/AAAAIPlan[0-9a-f]+/g, "KEY")
        .replace(/sha256:[0-9a-f]+/g, "sha256:HASH"),
    );
  const leaves = (v: unknown, at: string, out: Map<string, unknown>) => {
    if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) leaves(x, `${at}.${k}`, out);
    else out.set(at, v);
    return out;
  };
  const flat = (sp: StackPlan, stack: string) =>
    leaves(norm(Object.fromEntries(sp.resources.map((r) => [`${r.type}::${r.name}`, r.inputs])), stack), "", new Map());
  const a = flat(dev, "dev");
  const b = flat(nitro, "nitro");
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  const differing = [...a.keys()].filter((k) => a.get(k) !== b.get(k));
  // The instance type itself (and the node label k0sctl installs with it), and the stack's tag.
  expect(differing).toEqual([
    ".pulumi:providers:aws::aws.defaultTags",
    ".aws:ec2/instance:Instance::ceph-controller.instanceType",
    ".aws:ec2/instance:Instance::ceph-worker-1.instanceType",
    ".aws:ec2/instance:Instance::ceph-worker-2.instanceType",
    ".aws:ec2/instance:Instance::ceph-worker-3.instanceType",
    ".command:local:Command::ceph-k0sctl-apply.environment.LAB_K0SCTL_CONFIG",
    ".command:local:Command::ceph-kubeconfig.environment.LAB_K0SCTL_CONFIG",
    // The setup the pgbench collector records for its samples (components/bench/collect.ts RUN_METADATA_ENV).
    ".command:local:Command::pgbench-pgbench-collect-r1.environment.LAB_RUN_METADATA",
  ]);
  for (const k of differing) {
    const [x, y] = [String(a.get(k)), String(b.get(k))];
    expect(
      x
        .replaceAll("m4.xlarge", "m5.xlarge")
        .replace('"hypervisor":"xen"', '"hypervisor":"nitro"')
        .replace('"stack":"dev"', '"stack":"nitro"')
        .replace('\\"lab:stack\\":\\"dev\\"', "")
        .replace('"lab:stack":"dev"', ""),
    ).toBe(y.replace('\\"lab:stack\\":\\"nitro\\"', "").replace('"lab:stack":"nitro"', ""));
  }
  expect(String(a.get(".command:local:Command::ceph-k0sctl-apply.environment.LAB_K0SCTL_CONFIG"))).toContain(
    "node.kubernetes.io/instance-type=m4.xlarge",
  );
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

  test("every instance: IMDSv2 required (hop limit 1), encrypted gp3 root, Canonical's AMI; Calico VXLAN workers keep the source/dest check", () => {
    // m4 and m5 are EBS-optimized by default: asked for on the nodes; the t3.micro bastion is left alone.
    expect(
      ofType(p, "aws:ec2/instance:Instance")
        .map((i) => [i.name, i.inputs.ebsOptimized])
        .sort(),
    ).toEqual([
      ["ceph-bastion", undefined],
      ["ceph-controller", true],
      ["ceph-worker-1", true],
      ["ceph-worker-2", true],
      ["ceph-worker-3", true],
    ]);
    for (const i of ofType(p, "aws:ec2/instance:Instance")) {
      expect(i.inputs.metadataOptions).toEqual({ httpEndpoint: "enabled", httpTokens: "required", httpPutResponseHopLimit: 1 });
      expect(i.inputs.rootBlockDevice).toMatchObject({ volumeType: "gp3", encrypted: true, deleteOnTermination: true });
      expect(i.inputs.ami).toBe(p.outputs.amiId);
      // The user data holds the host's private key: a secret; cloud-init runs it once, so a change replaces the instance.
      expect(i.inputs.userData).toBe("[secret]");
      expect(i.inputs.userDataReplaceOnChange).toBe(true);
      // VXLAN and WireGuard packets go between node addresses: the check stays on (kube-router would need it off).
      expect(i.inputs.sourceDestCheck).toBe(i.name === "ceph-bastion" ? undefined : true);
    }
  });

  test("one encrypted gp3 OSD volume per worker, sized and tuned explicitly, attached as /dev/xvdf", () => {
    const volumes = ofType(p, "aws:ebs/volume:Volume");
    expect(volumes.map((v) => v.inputs)).toEqual(
      [1, 2, 3].map((n) => ({
        availabilityZone: "us-east-1a",
        type: "gp3",
        size: 350,
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
    // k0s' ports, Calico VXLAN and WireGuard between workers; no Ceph port (Ceph is on the pod network).
    expect(ingress).toHaveLength(15);
    expect(ingress.filter((r) => r.inputs.ipProtocol === "udp").map((r) => [r.name, r.inputs.fromPort, r.inputs.toPort])).toEqual([
      ["ceph-worker-vxlan", 4789, 4789],
      ["ceph-worker-wireguard", 51820, 51820],
    ]);
    expect(ingress.some((r) => /ceph-worker-ceph-/.test(r.name))).toBe(false);
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

  test("k0sctl apply: the config from the environment, re-applied by an update (no triggers), reset on delete, after the volumes and the bastion's address", () => {
    const apply = named(p, "ceph-k0sctl-apply");
    const env = apply.inputs.environment as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual([
      "LAB_ENCRYPTION_CONFIG",
      "LAB_K0SCTL_CONFIG",
      "LAB_SSH_BASTION_KEY",
      "LAB_SSH_KNOWN_HOSTS",
      "LAB_SSH_NODE_KEY",
    ]);
    expect([env.LAB_SSH_NODE_KEY, env.LAB_SSH_BASTION_KEY, env.LAB_ENCRYPTION_CONFIG]).toEqual(["[secret]", "[secret]", "[secret]"]);
    // A trigger would replace the command on a config change, and the replaced one's delete resets the cluster.
    expect(apply.inputs).not.toHaveProperty("triggers");
    expect(String(apply.inputs.create)).toMatch(/\nlab_k0sctl_apply\n$/);
    expect(apply.inputs.update).toBe(apply.inputs.create);
    expect(String(apply.inputs.delete)).toMatch(/\nlab_k0sctl_reset\n$/);
    const config = YAML.parse(env.LAB_K0SCTL_CONFIG) as Any;
    const ip = (name: string) => fakeIp(name);
    expect(config.spec.hosts.map((h: Any) => [h.role, h.privateAddress, h.ssh.address, h.ssh.bastion.address])).toEqual([
      ["controller", ip("ceph-controller"), ip("ceph-controller"), p.outputs.bastionPublicIp],
      ...[1, 2, 3].map((n) => ["worker", ip(`ceph-worker-${n}`), ip(`ceph-worker-${n}`), p.outputs.bastionPublicIp]),
    ]);
    // Each worker carries its number (storage-bench-lab/worker), the label Postgres and pgbench are pinned by.
    expect(config.spec.hosts.slice(1).map((h: Any) => h.installFlags)).toEqual(
      [1, 2, 3].map((n) => [
        `--labels=topology.kubernetes.io/zone=us-east-1a,node.kubernetes.io/instance-type=${instanceType},storage-bench-lab/worker=${n}`,
      ]),
    );
    expect(config.spec.hosts[0].installFlags).toBeUndefined();
    expect(config.spec.k0s.version).toBe("v1.36.3+k0s.2");
    for (const n of ["ceph-osd-1", "ceph-osd-2", "ceph-osd-3"])
      expect(apply.dependencies).toContain(named(p, n, "aws:ec2/volumeAttachment:VolumeAttachment").urn);
    const association = named(p, "ceph-bastion", "aws:ec2/eipAssociation:EipAssociation");
    expect(apply.dependencies).toContain(association.urn);
    expect(association.dependencies).toEqual(
      expect.arrayContaining([named(p, "ceph-bastion", "aws:ec2/instance:Instance").urn, named(p, "ceph-bastion", "aws:ec2/eip:Eip").urn]),
    );

    const kubeconfig = named(p, "ceph-kubeconfig");
    expect((kubeconfig.inputs.environment as Record<string, string>).LAB_API_URL).toBe(`https://${p.outputs.bastionPublicIp}:6443`);
    expect(kubeconfig.inputs.logging).toBe("stderr");
    expect(String(kubeconfig.inputs.create)).toMatch(/\nlab_k0sctl_kubeconfig\n$/);
    expect(kubeconfig.dependencies).toContain(apply.urn);
    expect(kubeconfig.inputs).not.toHaveProperty("triggers");
  });

  test("destroy: k0sctl reset runs while its SSH path exists, since every security-group rule is deleted after it (issue 40 item 8)", () => {
    const apply = named(p, "ceph-k0sctl-apply");
    const rules = p.resources.filter(
      (r) =>
        r.type === "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule" ||
        r.type === "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule",
    );
    expect(rules.map((r) => r.name)).toEqual(
      expect.arrayContaining(["ceph-bastion-ssh-admin-1", "ceph-bastion-egress", "ceph-controller-egress", "ceph-worker-egress"]),
    );
    // The engine's destroy order: a resource goes only after everything that depends on it has gone
    // (pulumi/pulumi pkg/resource/deploy, the delete antichains). So the reset runs in an earlier round than any rule.
    const round = destroyRounds(p.resources);
    const missing = rules.filter((r) => !(round.get(r.urn)! > round.get(apply.urn)!)).map((r) => r.name);
    expect(missing).toEqual([]);
  });

  test("the bastion's address is an Elastic IP of its own: the k0sctl config, the API SAN and the kubeconfig use it", () => {
    const eip = named(p, "ceph-bastion", "aws:ec2/eip:Eip");
    expect(eip.inputs).toEqual({ domain: "vpc", tags: expect.objectContaining({ Name: "ceph-bastion", "lab:role": "bastion" }) });
    const association = named(p, "ceph-bastion", "aws:ec2/eipAssociation:EipAssociation");
    expect(association.inputs).toEqual({
      allocationId: expect.stringMatching(/^eipalloc-/),
      instanceId: expect.stringMatching(/^i-/),
      // a replaced bastion takes the address over (create before delete); force-new, so set from the start
      allowReassociation: true,
    });
    expect(p.outputs.bastionPublicIp).toMatch(/^203\.0\.113\.\d+$/);
    const config = YAML.parse((named(p, "ceph-k0sctl-apply").inputs.environment as Record<string, string>).LAB_K0SCTL_CONFIG) as Any;
    expect(config.spec.k0s.config.spec.api.sans).toEqual([p.outputs.bastionPublicIp]);
  });

  test("Rook, Postgres and pgbench go through the provider built from the k0s kubeconfig", () => {
    const k0s = named(p, "k0s", "pulumi:providers:kubernetes");
    expect([...k0s.dependencies].sort()).toEqual(
      [
        named(p, "ceph-kubeconfig").urn,
        named(p, "ceph-controller", "aws:ec2/instance:Instance").urn,
        named(p, "ceph-k0sctl-apply").urn,
      ].sort(),
    );
    // Its clusterIdentifier: the controller's id and the install's (K0sCluster.clusterIdentifier).
    expect(k0s.propertyDependencies?.clusterIdentifier).toEqual([
      named(p, "ceph-controller", "aws:ec2/instance:Instance").urn,
      named(p, "ceph-k0sctl-apply").urn,
    ]);
    const inCluster = p.resources.filter((r) => r.type.startsWith("kubernetes:") && r.custom);
    expect(inCluster.map((r) => r.name).sort()).toEqual(
      [
        "pg-credentials",
        "pg-netpol-allow-dns",
        "pg-netpol-default-deny",
        "pg-netpol-postgres-clients",
        "pg-netpol-postgres-server",
        "pg-ns",
        "pg-server",
        "pg-svc",
        "pgbench-collect-binding",
        "pgbench-collect-role",
        "pgbench-collect-sa",
        "pgbench-pgbench",
        "pgbench-scripts",
        "rook-block",
        "rook-cluster",
        "rook-csi-drivers",
        "rook-ns",
        "rook-operator",
        "rook-policy-allow-dns",
        "rook-policy-ceph-clients-egress",
        "rook-policy-ceph-mgr-ingress",
        "rook-policy-ceph-mon-ingress",
        "rook-policy-ceph-osd-ingress",
        "rook-policy-default-deny",
        "rook-policy-rook-api-server",
        "rook-pool",
      ].sort(),
    );
    for (const r of inCluster) expect(r.provider?.startsWith(`${k0s.urn}::`)).toBe(true);
    // The benchmark's ConfigMap and Job wait for Postgres, whose namespace they live in.
    expect(named(p, "pgbench-scripts").dependencies).toContain(named(p, "pg-ns", "kubernetes:core/v1:Namespace").urn);
    expect(named(p, "pgbench-pgbench").dependencies).toContain(named(p, "pg-server").urn);
    // The collector's identity lives in Postgres's namespace too, and its command waits for the binding.
    expect((named(p, "pgbench-collect-sa").inputs as Any).metadata).toMatchObject({
      name: "pgbench-collect",
      namespace: (named(p, "pgbench-pgbench").inputs as Any).metadata.namespace,
    });
    expect(named(p, "pgbench-collect-sa").dependencies).toContain(named(p, "pg-server").urn);
    expect(named(p, "pgbench-pgbench-collect-r1").dependencies).toContain(named(p, "pgbench-collect-binding").urn);
  });

  test("Rook's namespace: default deny and Ceph's flows from the planned node addresses, all before the operator chart", () => {
    const policies = p.resources.filter(
      (r) => r.type === "kubernetes:networking.k8s.io/v1:NetworkPolicy" && r.name.startsWith("rook-policy-"),
    );
    expect(policies).toHaveLength(7);
    for (const pol of policies) {
      expect(() => new NetworkPolicy(pol.inputs as never).validate()).not.toThrow();
      expect((pol.inputs as Any).metadata.namespace).toBe("rook-ceph");
      expect(pol.dependencies).toContain(named(p, "rook-ns").urn);
      expect(named(p, "rook-operator").dependencies).toContain(pol.urn);
    }
    const ips = p.outputs.nodePrivateIps as string[];
    const workers = ips.slice(1).map((ip) => ({ ipBlock: { cidr: `${ip}/32` } }));
    // Calico (as published): the workers and the pod network, whose tunnel addresses a node's packets carry.
    expect((named(p, "rook-policy-ceph-osd-ingress").inputs as Any).spec.ingress[0].from).toEqual([
      { podSelector: {} },
      ...workers,
      { ipBlock: { cidr: "10.244.0.0/16" } },
    ]);
    expect((named(p, "rook-policy-rook-api-server").inputs as Any).spec.egress).toEqual([
      { to: [{ ipBlock: { cidr: `${ips[0]}/32` } }], ports: [{ protocol: "TCP", port: 6443 }] },
      { to: [{ ipBlock: { cidr: "10.96.0.1/32" } }], ports: [{ protocol: "TCP", port: 443 }] },
    ]);
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
    // Waits for HEALTH_OK and the 3 OSDs up, with the four AES cephx warnings muted (issue 9 item 1).
    expect(JSON.parse(cluster.metadata.annotations["pulumi.com/waitFor"])).toEqual([
      "jsonpath={.status.ceph.health}=HEALTH_OK",
      "jsonpath={.status.ceph.versions.osd.*}=3",
    ]);
    expect(Object.keys(cluster.spec.healthCheck.muteHealthWarning)).toEqual([
      "AUTH_INSECURE_CLIENT_KEY_TYPE",
      "AUTH_INSECURE_KEYS_ALLOWED",
      "AUTH_INSECURE_KEYS_CREATABLE",
      "AUTH_INSECURE_ROTATING_SERVICE_KEY_TYPE",
    ]);
    expect(cluster.spec.storage.nearFullRatio).toBe(0.85);
    expect((named(p, "rook-pool").inputs as Any).spec.replicated.size).toBe(3);
    expect(named(p, "rook-cluster").dependencies).toEqual([named(p, "rook-csi-drivers").urn, named(p, "rook-operator").urn].sort());
    expect(named(p, "rook-block").inputs).toMatchObject({
      provisioner: "rook-ceph.rbd.csi.ceph.com",
      metadata: { name: "rook-ceph-block" },
    });
  });

  test("the published method as planned: Calico VXLAN + WireGuard, Ceph on the pod network with its limits, Postgres' huge pages, pgbench --foreign-keys and -r from a Guaranteed 2 CPU / 8 Gi client", () => {
    const apply = named(p, "ceph-k0sctl-apply");
    const k0sctl = YAML.parse((apply.inputs.environment as Record<string, string>).LAB_K0SCTL_CONFIG) as Any;
    expect(k0sctl.spec.k0s.config.spec.network).toEqual({
      provider: "calico",
      podCIDR: "10.244.0.0/16",
      serviceCIDR: "10.96.0.0/12",
      calico: { mode: "vxlan", vxlanPort: 4789, vxlanVNI: 4096, mtu: 1450, wireguard: true },
    });
    const cluster = named(p, "rook-cluster").inputs as Any;
    expect(cluster.spec.network).toBeUndefined();
    expect(cluster.spec.resources.osd).toEqual({ requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } });
    expect(cluster.spec.placement.mgr.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: "storage-bench-lab/worker", operator: "NotIn", values: ["2"] }] },
    ]);
    const pg = (named(p, "pg-server").inputs as Any).spec.template.spec.containers[0].resources;
    expect(pg).toEqual({
      requests: { cpu: "1", memory: "4Gi", "hugepages-2Mi": "64Mi" },
      limits: { cpu: "1", memory: "4Gi", "hugepages-2Mi": "64Mi" },
    });
    const job = named(p, "pgbench-pgbench").inputs as Any;
    const container = job.spec.template.spec.containers[0];
    expect(container.resources).toEqual({ requests: { cpu: "2", memory: "8Gi" }, limits: { cpu: "2", memory: "8Gi" } });
    const env = Object.fromEntries(container.env.filter((e: Any) => e.value !== undefined).map((e: Any) => [e.name, e.value]));
    expect([env.PGBENCH_FOREIGN_KEYS, env.PGBENCH_PER_STATEMENT]).toEqual(["1", "1"]);
    for (const w of ofType(p, "aws:ec2/instance:Instance").filter((i) => i.name.startsWith("ceph-worker")))
      expect(w.inputs.sourceDestCheck).toBe(true);
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
    // Placement (issue 9 item 5): Postgres on worker 1, the pgbench client on worker 2, both in the zone.
    expect(sts.spec.template.spec.nodeSelector).toEqual({ "storage-bench-lab/worker": "1" });
    expect(job.spec.template.spec.nodeSelector).toEqual({ "storage-bench-lab/worker": "2" });
    expect(job.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a"] }] },
    ]);
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

  test("SSH: separate node and bastion keys, a host key per instance, known_hosts with every host before first contact", () => {
    const keys = ofType(p, "tls:index/privateKey:PrivateKey");
    expect(keys.map((k) => [k.name, k.inputs]).sort()).toEqual(
      [
        "ceph-bastion-host-key",
        "ceph-bastion-ssh",
        "ceph-controller-host-key",
        "ceph-ssh",
        "ceph-worker-1-host-key",
        "ceph-worker-2-host-key",
        "ceph-worker-3-host-key",
      ].map((n) => [n, { algorithm: "ED25519" }]),
    );
    // The nodes' EC2 key pair is the node key; the bastion has none (its authorized keys come from cloud-init, jump-only).
    const pub = (name: string) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPlan${fakeHash(`tls:index/privateKey:PrivateKey::${name}`)}`;
    expect(named(p, "ceph-ssh", "aws:ec2/keyPair:KeyPair").inputs.publicKey).toBe(`${pub("ceph-ssh")} lab-plan`);
    const instances = ofType(p, "aws:ec2/instance:Instance");
    expect(instances.map((i) => [i.name, i.inputs.keyName]).sort()).toEqual([
      ["ceph-bastion", undefined],
      ["ceph-controller", "<computed>"],
      ["ceph-worker-1", "<computed>"],
      ["ceph-worker-2", "<computed>"],
      ["ceph-worker-3", "<computed>"],
    ]);
    const env = named(p, "ceph-k0sctl-apply").inputs.environment as Record<string, string>;
    const ip = (name: string) => fakeIp(name);
    expect(env.LAB_SSH_KNOWN_HOSTS).toBe(
      [
        `${p.outputs.bastionPublicIp} ${pub("ceph-bastion-host-key")}`,
        ...["controller", "worker-1", "worker-2", "worker-3"].map((r) => `${ip(`ceph-${r}`)} ${pub(`ceph-${r}-host-key`)}`),
      ]
        .map((l) => `${l}\n`)
        .join(""),
    );
    expect(p.outputs.sshKnownHosts).toBe(env.LAB_SSH_KNOWN_HOSTS);
    // Every connection and its bastion hop: its own key file, the known_hosts read-only, strict checking.
    const config = YAML.parse(env.LAB_K0SCTL_CONFIG) as Any;
    const options = {
      StrictHostKeyChecking: true,
      UserKnownHostsFile: "none",
      GlobalKnownHostsFile: "${LAB_SSH_KNOWN_HOSTS_PATH}",
      IdentitiesOnly: true,
    };
    for (const h of config.spec.hosts) {
      expect(h.ssh).toEqual({
        address: h.privateAddress,
        user: "ubuntu",
        port: 22,
        keyPath: "${LAB_SSH_KEY_PATH}",
        options,
        bastion: { address: p.outputs.bastionPublicIp, user: "ubuntu", port: 22, keyPath: "${LAB_SSH_BASTION_KEY_PATH}", options },
      });
    }
  });

  test("Secrets encrypted at rest: a 32-byte key, the config uploaded to the controller 0600, the API server flag", () => {
    expect(named(p, "ceph-secrets-key", "random:index/randomBytes:RandomBytes").inputs).toEqual({ length: 32 });
    const config = YAML.parse((named(p, "ceph-k0sctl-apply").inputs.environment as Record<string, string>).LAB_K0SCTL_CONFIG) as Any;
    expect(config.spec.k0s.config.spec.api.extraArgs).toEqual({
      "encryption-provider-config": "/etc/storage-bench-lab/encryption-config.yaml",
      "encryption-provider-config-automatic-reload": "true",
    });
    expect(config.spec.hosts.map((h: Any) => h.files)).toEqual([
      [
        {
          name: "secrets-encryption-config",
          src: "${LAB_ENCRYPTION_CONFIG_PATH}",
          dst: "/etc/storage-bench-lab/encryption-config.yaml",
          perm: "0600",
          dirPerm: "0700",
          user: "kube-apiserver",
        },
      ],
      undefined,
      undefined,
      undefined,
    ]);
  });

  test("the k0s policy rules read the planned k0sctl Command: compliant as planned, violated without the flag or the host key checks", () => {
    const apply = named(p, "ceph-k0sctl-apply");
    for (const rule of K0S_RULES) expect([rule.name, rule.check(apply.inputs, apply.type)]).toEqual([rule.name, []]);
    const env = apply.inputs.environment as Record<string, string>;
    const broken = YAML.parse(env.LAB_K0SCTL_CONFIG) as Any;
    delete broken.spec.k0s.config.spec.api.extraArgs;
    delete broken.spec.hosts[0].ssh.options;
    const inputs = { ...apply.inputs, environment: { ...env, LAB_K0SCTL_CONFIG: YAML.stringify(broken) } };
    expect(K0S_RULES.map((r) => r.check(inputs, apply.type).length)).toEqual([1, 3]);
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
      sshKnownHosts: expect.stringMatching(
        /^203\.0\.113\.\d+ ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPlan[0-9a-f]+\n(10\.\d+\.\d+\.\d+ ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPlan[0-9a-f]+\n){4}$/,
      ),
      storageClass: "rook-ceph-block",
      osdVolume: { sizeGiB: 350, iops: 3000, throughputMiBps: 125, type: "gp3", deviceName: "/dev/xvdf" },
      results: "<computed>",
      rawOutputs: "<computed>",
      expiresAt: "2026-01-01T08:00:00Z",
    });
  });
});

test("a given SSH public key is the operator's, in the user data; k0sctl keeps the generated keys, no private key is exported", async () => {
  const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBdfvP1u1ifI4ZV5ofEw1dXXZk5Jp3qkWm3ow2ZqE0Zf alice@example";
  const { p } = await plan("nitro", { "lab:sshPublicKey": key });
  expect(ofType(p, "tls:index/privateKey:PrivateKey")).toHaveLength(7);
  expect(named(p, "ceph-ssh", "aws:ec2/keyPair:KeyPair").inputs.publicKey).not.toContain("alice@example");
  const env = named(p, "ceph-k0sctl-apply").inputs.environment as Record<string, string>;
  expect(Object.keys(env).sort()).toEqual([
    "LAB_ENCRYPTION_CONFIG",
    "LAB_K0SCTL_CONFIG",
    "LAB_SSH_BASTION_KEY",
    "LAB_SSH_KNOWN_HOSTS",
    "LAB_SSH_NODE_KEY",
  ]);
  expect(Object.keys(p.outputs).filter((o) => /key/i.test(o))).toEqual([]);
  expect(JSON.stringify(p.outputs)).not.toContain("PRIVATE KEY");
});

test("today's variants stay one key away: kube-router (BGP, no source/dest check) and Ceph on the host network (its ports)", async () => {
  const { p } = await plan("dev", { "lab:cni": "kuberouter", "lab:wireguard": "false", "lab:cephHostNetwork": "true" });
  const names = ofType(p, "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule").map((r) => r.name);
  expect(names).toEqual(
    expect.arrayContaining(["ceph-worker-bgp", "ceph-worker-ceph-mon-v2", "ceph-worker-ceph-mon-v1", "ceph-worker-ceph-daemons"]),
  );
  expect(names).not.toContain("ceph-worker-vxlan");
  expect(names).not.toContain("ceph-worker-wireguard");
  for (const w of ofType(p, "aws:ec2/instance:Instance").filter((i) => i.name.startsWith("ceph-worker")))
    expect(w.inputs.sourceDestCheck).toBe(false);
  expect((named(p, "rook-cluster").inputs as Any).spec.network).toEqual({ provider: "host" });
  // Ceph on the nodes: no daemon ingress policy; the pod-network pods reach the workers on Ceph's ports.
  const rookPolicies = ofType(p, "kubernetes:networking.k8s.io/v1:NetworkPolicy").filter((r) => r.name.startsWith("rook-policy-"));
  expect(rookPolicies.map((r) => r.name).sort()).toEqual(
    ["rook-policy-allow-dns", "rook-policy-ceph-clients-egress", "rook-policy-default-deny", "rook-policy-rook-api-server"].sort(),
  );
  const workers = (p.outputs.nodePrivateIps as string[]).slice(1).map((ip) => ({ ipBlock: { cidr: `${ip}/32` } }));
  expect((named(p, "rook-policy-ceph-clients-egress").inputs as Any).spec.egress).toEqual([
    {
      to: workers,
      ports: [
        { protocol: "TCP", port: 3300 },
        { protocol: "TCP", port: 6789 },
        { protocol: "TCP", port: 6800, endPort: 7300 },
      ],
    },
  ]);
  const k0sctl = YAML.parse((named(p, "ceph-k0sctl-apply").inputs.environment as Record<string, string>).LAB_K0SCTL_CONFIG) as Any;
  expect(k0sctl.spec.k0s.config.spec.network.provider).toBe("kuberouter");
  expect(k0sctl.spec.k0s.config.spec.network.calico).toBeUndefined();
});

test("a type that cannot be EBS-optimized (t2) is launched without asking for it (issue 9 item 3)", async () => {
  const { p } = await plan("dev", { "lab:instanceType": "t2.xlarge" });
  expect(
    ofType(p, "aws:ec2/instance:Instance")
      .map((i) => [i.name, i.inputs.instanceType, i.inputs.ebsOptimized])
      .sort(),
  ).toEqual([
    ["ceph-bastion", "t3.micro", undefined],
    ["ceph-controller", "t2.xlarge", undefined],
    ["ceph-worker-1", "t2.xlarge", undefined],
    ["ceph-worker-2", "t2.xlarge", undefined],
    ["ceph-worker-3", "t2.xlarge", undefined],
  ]);
  expect(p.outputs.hypervisor).toBe("xen");
});

test("every pgbench sample records the setup: muted warnings, placement, volumes, Ceph (issue 9 items 1 and 5)", () => {
  const cfg = parseConfig("ceph-k0s", cephK0sSchema, shipped("nitro").config);
  expect(pgbenchMetadata(cfg, { project: "storage-bench-lab", stack: "nitro" })).toEqual({
    scenario: "ceph-nitro",
    stack: "nitro",
    instanceType: "m5.xlarge",
    hypervisor: "nitro",
    storageClass: "rook-ceph-block",
    provisioner: "rook-ceph.rbd.csi.ceph.com",
    zoneRelation: "same",
    workers: 3,
    osdVolumeType: "gp3",
    osdVolumeGiB: 350,
    osdVolumeIops: 3000,
    osdVolumeThroughputMiBps: 125,
    // The published data path and resources (koor-tech/experiment-ceph-on-nitro@6686fc8).
    cni: "calico",
    calicoMode: "vxlan",
    calicoMtu: 1450,
    wireguard: true,
    cephNetwork: "pod",
    nodeHugepages2Mi: 2048,
    cephMonCpuRequest: "500m",
    cephMonCpuLimit: "1",
    cephMonMemoryRequest: "1Gi",
    cephMonMemoryLimit: "2Gi",
    cephMgrCpuRequest: "500m",
    cephMgrCpuLimit: "500m",
    cephMgrMemoryRequest: "1Gi",
    cephMgrMemoryLimit: "1Gi",
    cephOsdCpuRequest: "500m",
    cephOsdCpuLimit: "1",
    cephOsdMemoryRequest: "1Gi",
    cephOsdMemoryLimit: "2Gi",
    postgresCpu: "1",
    postgresMemory: "4Gi",
    postgresHugepages2Mi: "64Mi",
    k0sVersion: "v1.36.3+k0s.2",
    rookVersion: "v1.20.6",
    cephImage: "quay.io/ceph/ceph:v20.2.4",
    cephReplicas: 3,
    cephMutedHealthWarnings:
      "AUTH_INSECURE_CLIENT_KEY_TYPE,AUTH_INSECURE_KEYS_ALLOWED,AUTH_INSECURE_KEYS_CREATABLE,AUTH_INSECURE_ROTATING_SERVICE_KEY_TYPE",
    postgresNode: "storage-bench-lab/worker=1",
    pgbenchNode: "storage-bench-lab/worker=2",
  });
});

// Last in the file: a plan that fails leaves the failed program's pending outputs rejecting, and a
// plan started after it in the same process would report them as its own.
test("what the kind needs of the network stack is checked where it is read: its zone, and a VPC CIDR clear of k0s' networks", async () => {
  await expect(plan("dev", { "lab:az": "us-east-1c" }, { "lab:vpcCidr": "10.96.0.0/16" })).rejects.toThrow(
    [
      "'lab:az' must be one of the zones of network stack 'organization/storage-bench-lab/network' (us-east-1a, us-east-1b), got \"us-east-1c\"",
      "'lab:networkStack' must be a network stack whose 'lab:vpcCidr' is a network that overlaps neither k0s' pod network 10.244.0.0/16 nor its service network 10.96.0.0/12; its 'lab:vpcCidr' 10.96.0.0/16 overlaps the service network 10.96.0.0/12, got \"organization/storage-bench-lab/network\"",
    ].join("\n"),
  );
});
