/** The fsx-ontap stack kind planned after the shipped network stack, from the shipped configs. */
import * as fs from "node:fs";
import * as path from "node:path";
import { estimateHourly } from "../../../lab/cost/estimate";
import { HOURS_PER_MONTH } from "../../../lab/cost/prices";
import { planAll, PlanResult } from "../../../lab/plan";
import { PlannedResource, StackPlan, StackSpec } from "../../../lab/plan/run";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { runStack } from "../../../stacks";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FS = "aws:fsx/ontapFileSystem:OntapFileSystem";
const network = readStackConfigFile(path.join(ROOT, "Pulumi.network.yaml"));
const shipped = (name: string, over: Record<string, string> = {}): StackSpec => {
  const spec = readStackConfigFile(path.join(ROOT, `Pulumi.${name}.yaml`));
  return { ...spec, config: { ...spec.config, ...over } };
};

async function plan(spec: StackSpec): Promise<{ net: StackPlan; fsx: StackPlan }> {
  const results: PlanResult[] = await planAll([spec, network], runStack);
  const of = (n: string) => results.find((r) => r.spec.name === n)!.plan;
  return { net: of("network"), fsx: of(spec.name) };
}
const one = (p: StackPlan, type: string, name?: string): PlannedResource => {
  const found = p.resources.filter((r) => r.type === type && (name === undefined || r.name === name));
  if (found.length !== 1) throw new Error(`${found.length} ${type} ${name ?? ""}`);
  return found[0];
};

describe.each(["fsx-eks-ontap", "kafka-ontap"])("stack %s", (name) => {
  let net: StackPlan;
  let fsx: StackPlan;
  beforeAll(async () => {
    ({ net, fsx } = await plan(shipped(name)));
  });

  test("the file system is wired to the network stack's outputs: subnets, every private route table, the VPC and its CIDR", () => {
    const fs = one(fsx, FS);
    const subnets = net.outputs.privateSubnetIds as string[];
    expect(fs.inputs).toMatchObject({
      deploymentType: "MULTI_AZ_1",
      subnetIds: subnets.slice(0, 2),
      preferredSubnetId: subnets[0],
      routeTableIds: net.outputs.privateRouteTableIds,
    });
    expect(one(fsx, "aws:ec2/securityGroup:SecurityGroup").inputs.vpcId).toBe(net.outputs.vpcId);
    const rules = fsx.resources.filter((r) => r.type.startsWith("aws:vpc/securityGroup"));
    // No ingress of the stack's own (never from the VPC CIDR): the consuming stacks add their node
    // groups; the one egress rule goes to the VPC CIDR only.
    expect(rules.map((r) => [r.type, r.name, r.inputs.cidrIpv4])).toEqual([
      ["aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule", "fsx-out-all-vpc", net.outputs.vpcCidr],
    ]);
    expect(fsx.outputs).toMatchObject({
      preferredSubnetId: subnets[0],
      preferredAz: (net.outputs.azs as string[])[0],
      standbyAz: (net.outputs.azs as string[])[1],
    });
  });

  test("the documented outputs, secrets kept out of them", () => {
    expect(Object.keys(fsx.outputs)).toEqual([
      "fileSystemId",
      "fileSystemArn",
      "svmId",
      "svmName",
      "managementEndpoint",
      "svmManagementEndpoint",
      "nfsEndpoint",
      "iscsiEndpoint",
      "preferredSubnetId",
      "preferredAz",
      "standbyAz",
      "securityGroupId",
      "kmsKeyArn",
      "credentialsSecretArn",
      "clientSubnetCidrs",
      "volumes",
      "throughputCapacityMBps",
      "maintenanceWindow",
      "expiresAt",
    ]);
    expect(fsx.outputs.expiresAt).toBe("2026-01-01T08:00:00Z");
    // the shipped window (lab:maintenanceWindow's default) and one HA pair's two file servers, an hour each
    expect(fsx.outputs.maintenanceWindow).toEqual({ start: "7:02:00", minutes: 120 });
    const text = JSON.stringify(fsx);
    expect(text).not.toContain("PlanPlaceholder-Secret-0");
    // No fsxadmin password is set (nothing in the lab logs in as the file-system administrator).
    expect(one(fsx, FS).inputs).not.toHaveProperty("fsxAdminPassword");
  });

  test("every AWS resource goes through the stack's provider (its defaultTags carry the lab tags)", () => {
    const provider = one(fsx, "pulumi:providers:aws");
    const aws = fsx.resources.filter((r) => r.type.startsWith("aws:"));
    expect(aws.filter((r) => !r.provider?.startsWith(provider.urn)).map((r) => r.name)).toEqual([]);
    expect(JSON.parse(provider.inputs.defaultTags as string).tags["lab:kind"]).toBe("fsx-ontap");
  });
});

describe("lab:retainOnDelete on the shipped stacks", () => {
  // The component keeps every AWS resource with the file system (test/components/fsx-ontap), so a
  // retained file system costs what the stack's estimate says: docs/kinds/fsx-ontap.md quotes these figures.
  test.each([
    ["fsx-eks-ontap", "871.80", []],
    ["kafka-ontap", "8655.48", []],
  ])("%s: docs/kinds/fsx-ontap.md's monthly cost of a retained file system is the estimate's, $%s", async (name, monthly, unpriced) => {
    const { fsx } = await plan(shipped(name));
    const e = estimateHourly(fsx.resources, "us-east-1");
    expect((e.totalUsdPerHour * HOURS_PER_MONTH).toFixed(2)).toBe(monthly);
    expect(e.unpriced.map((u) => u.what.split(":")[0])).toEqual(unpriced);
    const readme = fs.readFileSync(path.join(ROOT, "docs", "kinds", "fsx-ontap.md"), "utf8");
    const dollars = `$${Number(monthly).toLocaleString("en-US", { minimumFractionDigits: 2 }).replace(",", " ")} a month`;
    expect(readme).toContain(`\`${name}\` ${dollars}`);
  });

  test.each(["fsx-eks-ontap", "kafka-ontap"])(
    "%s: true plans the same resources with the same inputs (retention is an option)",
    async (name) => {
      const kept = (await plan(shipped(name, { "lab:retainOnDelete": "true" }))).fsx;
      const plain = (await plan(shipped(name))).fsx;
      expect(kept.resources.map((r) => [r.urn, r.inputs])).toEqual(plain.resources.map((r) => [r.urn, r.inputs]));
      expect(kept.outputs).toEqual(plain.outputs);
    },
  );
});

describe("the failover lever on the shipped EKS stack", () => {
  test("lab:throughputCapacityMBps 512 → 1024 changes the file system's throughputCapacity and nothing else", async () => {
    const before = (await plan(shipped("fsx-eks-ontap"))).fsx;
    const after = (await plan(shipped("fsx-eks-ontap", { "lab:throughputCapacityMBps": "1024" }))).fsx;
    expect(after.resources.map((r) => r.urn)).toEqual(before.resources.map((r) => r.urn));
    for (const b of before.resources) {
      const a = after.resources.find((r) => r.urn === b.urn)!;
      if (b.type === FS) {
        expect([b.inputs.throughputCapacity, a.inputs.throughputCapacity]).toEqual([512, 1024]);
        expect({ ...a.inputs, throughputCapacity: 0 }).toEqual({ ...b.inputs, throughputCapacity: 0 });
      } else {
        expect([a.name, a.inputs]).toEqual([b.name, b.inputs]);
      }
    }
    expect(after.outputs.throughputCapacityMBps).toBe(1024);
  });

  test("a level MULTI_AZ_1 does not have is refused before anything is planned", async () => {
    await expect(plan(shipped("fsx-eks-ontap", { "lab:throughputCapacityMBps": "768" }))).rejects.toThrow(
      "'lab:throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'lab:deploymentType' MULTI_AZ_1, got 768",
    );
  });
});
