import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { planAll } from "../../../lab/plan";
import { SECRET_PLACEHOLDER, fakeCall } from "../../../lab/plan/fakes";
import { planJson, renderMermaid, renderTree } from "../../../lab/plan/render";
import { planStack, StackSpec } from "../../../lab/plan/run";
import { dependencyOrder, readStackConfigFile, specFromConfigObject } from "../../../lab/plan/sources";
import { readNetwork } from "../../../stacks/network/outputs";
import { whenUpstreamsFit } from "../../../stacks/lib/upstream";
import { runStack } from "../../../stacks";

const spec = (name: string, config: Record<string, string>, secretKeys: string[] = []): StackSpec => ({
  name,
  source: "test",
  config,
  secretKeys,
});
const networkConfig = { "aws:region": "us-east-1", "lab:kind": "network", "lab:owner": "alice" };

/** A downstream program reading the network stack, as every downstream kind does: checked, then built. */
function downstream(raw: Readonly<Record<string, string>>) {
  const net = readNetwork(raw["lab:networkStack"]);
  return whenUpstreamsFit(
    { net },
    () => [],
    () => {
      const sg = new aws.ec2.SecurityGroup("probe", { vpcId: net.vpcId, description: "probe" });
      return { sgId: sg.id, subnets: net.privateSubnetIds, password: pulumi.secret(raw["lab:password"]) };
    },
  );
}

describe("offline plan engine", () => {
  test("strict invokes: an unmocked token is an error naming it", () => {
    expect(() => fakeCall("aws:rds/getEngineVersion:getEngineVersion", {}, { region: "us-east-1" })).toThrow(
      "unmocked invoke 'aws:rds/getEngineVersion:getEngineVersion': the offline plan answers only the invokes listed in lab/plan/fakes.ts (fakeCall)",
    );
  });

  test("an unresolvable stack reference is a config error naming the key and the stack", async () => {
    const run = planStack(spec("probe", { "lab:networkStack": "acme/storage-bench-lab/nowhere" }), downstream, () => undefined);
    await expect(run).rejects.toThrow(
      `'lab:networkStack' must be the name of a stack planned before it or shipped as Pulumi.<stack>.yaml (no stack named 'nowhere'), got "acme/storage-bench-lab/nowhere"`,
    );
    await expect(run).rejects.toMatchObject({ stack: "probe", cause: { name: "ConfigError" } });
  });

  test("an upstream stack missing an output is a config error naming the key, the stack and the output, before any resource", async () => {
    const resolve = () => ({
      outputs: { vpcId: "vpc-1", vpcCidr: "10.0.0.0/16", azs: ["a"], publicSubnetIds: ["s"], privateRouteTableIds: ["r"] },
      secretOutputNames: [],
    });
    const run = planStack(spec("probe", { "lab:networkStack": "org/storage-bench-lab/network" }), downstream, resolve);
    await expect(run).rejects.toThrow(
      `'lab:networkStack' must be the name of a network stack with outputs 'privateSubnetIds', 'privateSubnetCidrs' (its outputs: azs, privateRouteTableIds, publicSubnetIds, vpcCidr, vpcId), got "org/storage-bench-lab/network"`,
    );
    await expect(run).rejects.toMatchObject({ stack: "probe", cause: { name: "ConfigError" } });
  });

  test("upstream outputs are resolved from the upstream plan and wired into inputs; secure config is a placeholder kept secret", async () => {
    const results = await planAll(
      [
        spec("probe", { "lab:networkStack": "org/storage-bench-lab/network", "lab:password": SECRET_PLACEHOLDER }, ["lab:password"]),
        spec("network", networkConfig),
      ],
      (raw, id) => (raw["lab:kind"] === "network" ? runStack(raw, id) : downstream(raw)),
    );
    expect(results.map((r) => r.plan.stack)).toEqual(["network", "probe"]);
    const [net, probe] = results.map((r) => r.plan);
    const sg = probe.resources.find((r) => r.type === "aws:ec2/securityGroup:SecurityGroup")!;
    expect(sg.inputs.vpcId).toBe(net.outputs.vpcId);
    expect(probe.outputs.subnets).toEqual(net.outputs.privateSubnetIds);
    expect(probe.outputs.password).toBe("[secret]");
    expect(probe.config["lab:password"]).toBe("[secret]");
    expect(JSON.stringify(planJson(probe))).not.toContain(SECRET_PLACEHOLDER);
  });

  test("--json has exactly the documented fields", async () => {
    const { plan } = await planStack(spec("network", networkConfig), runStack, () => undefined);
    const doc = planJson(plan) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(["stack", "kind", "config", "resources", "outputs"]);
    for (const r of doc.resources as Record<string, unknown>[])
      expect(Object.keys(r)).toEqual(["urn", "type", "name", "parent", "inputs", "dependencies"]);
    expect(doc.config).toEqual(networkConfig);
    const tree = renderTree(plan);
    expect(tree.split("\n").slice(0, 2)).toEqual([
      "stack network (kind network)",
      "  25 resources (24 cloud and provider resources, 1 component)",
    ]);
    expect(tree).toContain("aws:ec2:Subnet lab-private-az1  cidrBlock=10.0.0.0/18 availabilityZone=us-east-1a mapPublicIpOnLaunch=false");
    const graph = renderMermaid([plan]);
    expect(graph.split("\n")[0]).toBe("flowchart LR");
    expect(graph).toContain('["aws:ec2:Vpc<br/>lab-vpc"]');
  });

  test("--graph: each reference points at the latest plan of that name before it (--all plans names twice)", async () => {
    const specs = [spec("network", networkConfig), spec("probe", { "lab:networkStack": "o/storage-bench-lab/network" })];
    const program: Parameters<typeof planAll>[1] = (raw, id) => (raw["lab:kind"] === "network" ? runStack(raw, id) : downstream(raw));
    const twice = [...(await planAll(specs, program)), ...(await planAll(specs, program))].map((r) => r.plan);
    expect(
      renderMermaid(twice)
        .split("\n")
        .filter((l) => l.includes("==>")),
    ).toEqual(["  s0_network ==> s1_probe", "  s2_network ==> s3_probe"]);
  });

  test("stacks are ordered after the stacks their lab:*Stack keys name; a cycle is an error", () => {
    const a = spec("a", { "lab:networkStack": "o/p/b" });
    const b = spec("b", { "lab:networkStack": "c" });
    const c = spec("c", {});
    expect(dependencyOrder([a, b, c]).map((s) => s.name)).toEqual(["c", "b", "a"]);
    expect(() => dependencyOrder([spec("x", { "lab:networkStack": "y" }), spec("y", { "lab:networkStack": "x" })])).toThrow(
      "stack references form a cycle: x -> y -> x",
    );
  });

  test("config files are flattened the way Pulumi hands them to programs", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-plan-"));
    const file = path.join(dir, "Pulumi.demo.yaml");
    fs.writeFileSync(
      file,
      "config:\n  aws:region: us-east-1\n  lab:azCount: 2\n  lab:flowLogs: true\n  lab:azs: [us-east-1a, us-east-1b]\n  lab:pw:\n    secure: AAABADQ=\n",
    );
    expect(readStackConfigFile(file)).toEqual({
      name: "demo",
      source: file,
      config: {
        "aws:region": "us-east-1",
        "lab:azCount": "2",
        "lab:flowLogs": "true",
        "lab:azs": '["us-east-1a","us-east-1b"]',
        "lab:pw": SECRET_PLACEHOLDER,
      },
      secretKeys: ["lab:pw"],
    });
    expect(specFromConfigObject("s", "x", { "lab:volumes": [{ name: "v1" }] }).config).toEqual({ "lab:volumes": '[{"name":"v1"}]' });
  });
});
