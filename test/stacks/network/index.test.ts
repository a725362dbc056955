/** The network stack planned under the project's mocks: what a user relies on in the plan. */
import { planStack, PlannedResource, StackPlan } from "../../../lab/plan/run";
import { runStack } from "../../../stacks";
import { FAKE_NOW } from "../../../lab/plan/fakes";

const config = { "aws:region": "eu-west-1", "lab:kind": "network", "lab:owner": "alice", "lab:ttlHours": "10" };

async function plan(extra: Record<string, string> = {}): Promise<StackPlan> {
  const r = await planStack(
    { name: "network", source: "test", config: { ...config, ...extra }, secretKeys: [] },
    runStack,
    () => undefined,
  );
  return r.plan;
}
const ofType = (p: StackPlan, type: string): PlannedResource[] => p.resources.filter((r) => r.type === type);

describe("network stack", () => {
  let p: StackPlan;
  beforeAll(async () => {
    p = await plan();
  });

  test("a VPC with the configured CIDR and DNS on", () => {
    const [vpc, ...more] = ofType(p, "aws:ec2/vpc:Vpc");
    expect(more).toHaveLength(0);
    expect(vpc.inputs).toMatchObject({ cidrBlock: "10.0.0.0/16", enableDnsHostnames: true, enableDnsSupport: true });
  });

  test("2 private and 2 public subnets, one per tier in each of 2 distinct AZs, none mapping public IPs", () => {
    const subnets = ofType(p, "aws:ec2/subnet:Subnet").map((s) => [
      s.name,
      s.inputs.cidrBlock,
      s.inputs.availabilityZone,
      s.inputs.mapPublicIpOnLaunch,
    ]);
    expect(subnets.sort()).toEqual([
      ["lab-private-az1", "10.0.0.0/18", "eu-west-1a", false],
      ["lab-private-az2", "10.0.64.0/18", "eu-west-1b", false],
      ["lab-public-az1", "10.0.192.0/20", "eu-west-1a", false],
      ["lab-public-az2", "10.0.208.0/20", "eu-west-1b", false],
    ]);
  });

  test("one private route table per AZ, each with its own AZ's NAT gateway as default route", () => {
    const urnOf = (name: string, type: string) => p.resources.find((r) => r.name === name && r.type === type)!.urn;
    const tables = ofType(p, "aws:ec2/routeTable:RouteTable")
      .map((r) => r.name)
      .sort();
    expect(tables).toEqual(["lab-private-az1", "lab-private-az2", "lab-public-rt"]);
    for (const az of ["az1", "az2"]) {
      const route = p.resources.find((r) => r.name === `lab-private-${az}-default`)!;
      expect(route.inputs.destinationCidrBlock).toBe("0.0.0.0/0");
      expect(route.dependencies).toEqual(
        [urnOf(`lab-private-${az}`, "aws:ec2/routeTable:RouteTable"), urnOf(`lab-nat-${az}`, "aws:ec2/natGateway:NatGateway")].sort(),
      );
      const assoc = p.resources.find(
        (r) => r.name === `lab-private-${az}` && r.type === "aws:ec2/routeTableAssociation:RouteTableAssociation",
      )!;
      expect(assoc.dependencies).toEqual(
        [urnOf(`lab-private-${az}`, "aws:ec2/routeTable:RouteTable"), urnOf(`lab-private-${az}`, "aws:ec2/subnet:Subnet")].sort(),
      );
    }
    expect(
      ofType(p, "aws:ec2/natGateway:NatGateway")
        .map((n) => n.name)
        .sort(),
    ).toEqual(["lab-nat-az1", "lab-nat-az2"]);
  });

  test("a single NAT gateway serves both private route tables when natGateways=single", async () => {
    const single = await plan({ "lab:natGateways": "single" });
    const nats = ofType(single, "aws:ec2/natGateway:NatGateway");
    expect(nats.map((n) => n.name)).toEqual(["lab-nat-az1"]);
    for (const az of ["az1", "az2"]) {
      expect(single.resources.find((r) => r.name === `lab-private-${az}-default`)!.dependencies).toContain(nats[0].urn);
    }
  });

  test("S3 gateway endpoint on the private route tables; default security group with no rules", () => {
    const [ep] = ofType(p, "aws:ec2/vpcEndpoint:VpcEndpoint");
    expect(ep.inputs).toMatchObject({ serviceName: "com.amazonaws.eu-west-1.s3", vpcEndpointType: "Gateway" });
    expect(ep.inputs.routeTableIds).toHaveLength(2);
    const [sg] = ofType(p, "aws:ec2/defaultSecurityGroup:DefaultSecurityGroup");
    expect(sg.inputs.ingress).toBeUndefined();
    expect(sg.inputs.egress).toBeUndefined();
  });

  test("every AWS resource is created through the stack's AWS provider, whose defaultTags carry the lab tags", () => {
    const [provider] = ofType(p, "pulumi:providers:aws");
    expect(provider.inputs.region).toBe("eu-west-1");
    expect(JSON.parse(provider.inputs.defaultTags as string)).toEqual({
      tags: {
        "lab:project": "storage-bench-lab",
        "lab:stack": "network",
        "lab:kind": "network",
        "lab:owner": "alice",
      },
    });
    expect(FAKE_NOW).toBe("2026-01-01T00:00:00Z");
    const aws = p.resources.filter((r) => r.type.startsWith("aws:"));
    expect(aws.length).toBeGreaterThan(20);
    for (const r of aws) expect(r.provider?.startsWith(`${provider.urn}::`)).toBe(true);
  });

  test("the provider depends on nothing made in the update (known at preview); the expiry comes from the first-deploy time", () => {
    const [provider] = ofType(p, "pulumi:providers:aws");
    const [created] = ofType(p, "time:index/static:Static");
    expect(created.inputs).toEqual({});
    expect(provider.dependencies).toEqual([]);
    expect(p.outputs.expiresAt).toBe("2026-01-01T10:00:00Z"); // FAKE_NOW (first deploy) + lab:ttlHours 10
  });

  test("outputs", () => {
    expect(p.outputs).toEqual({
      vpcId: expect.stringMatching(/^vpc-[0-9a-f]{17}$/),
      vpcCidr: "10.0.0.0/16",
      azs: ["eu-west-1a", "eu-west-1b"],
      azIds: ["euw1-az1", "euw1-az2"],
      publicSubnetIds: [expect.stringMatching(/^subnet-/), expect.stringMatching(/^subnet-/)],
      privateSubnetIds: [expect.stringMatching(/^subnet-/), expect.stringMatching(/^subnet-/)],
      privateSubnetCidrs: ["10.0.0.0/18", "10.0.64.0/18"],
      privateRouteTableIds: [expect.stringMatching(/^rtb-/), expect.stringMatching(/^rtb-/)],
      expiresAt: "2026-01-01T10:00:00Z",
    });
  });

  test("explicit AZs are used as given, in their order", async () => {
    const explicit = await plan({ "lab:azs": '["eu-west-1c","eu-west-1a","eu-west-1b"]' });
    expect(explicit.outputs.azs).toEqual(["eu-west-1c", "eu-west-1a", "eu-west-1b"]);
    expect(ofType(explicit, "aws:ec2/routeTable:RouteTable")).toHaveLength(4);
  });

  test("flow logs: role may write only to its own log group", async () => {
    expect(ofType(p, "aws:ec2/flowLog:FlowLog")).toHaveLength(0);
    const withLogs = await plan({ "lab:flowLogs": "true", "lab:flowLogsRetentionDays": "14" });
    expect(ofType(withLogs, "aws:cloudwatch/logGroup:LogGroup")[0].inputs.retentionInDays).toBe(14);
    const policy = JSON.parse(ofType(withLogs, "aws:iam/rolePolicy:RolePolicy")[0].inputs.policy as string);
    const arn = "arn:aws:cloudwatch:eu-west-1:123456789012:log-group/lab-flow-logs-";
    expect(policy.Statement).toHaveLength(1);
    expect(policy.Statement[0].Action).toEqual(["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"]);
    expect(policy.Statement[0].Resource[0].startsWith(arn)).toBe(true);
    const flowLog = ofType(withLogs, "aws:ec2/flowLog:FlowLog")[0];
    expect(flowLog.inputs).toMatchObject({ trafficType: "ALL", logDestinationType: "cloud-watch-logs" });
    // Created after its role's policy (terraform-aws-vpc#1264), the role trusted for this account's flow logs only.
    expect(flowLog.dependencies).toContain(ofType(withLogs, "aws:iam/rolePolicy:RolePolicy")[0].urn);
    const trust = JSON.parse(ofType(withLogs, "aws:iam/role:Role")[0].inputs.assumeRolePolicy as string);
    expect(trust.Statement).toEqual([
      {
        Effect: "Allow",
        Principal: { Service: "vpc-flow-logs.amazonaws.com" },
        Action: "sts:AssumeRole",
        Condition: {
          StringEquals: { "aws:SourceAccount": "123456789012" },
          ArnLike: { "aws:SourceArn": "arn:aws:ec2:eu-west-1:123456789012:vpc-flow-log/*" },
        },
      },
    ]);
  });

  test("a config error fails the plan with the config message", async () => {
    await expect(plan({ "lab:vpcCidr": "bad" })).rejects.toThrow(
      "'lab:vpcCidr' must be an IPv4 network CIDR with a prefix from /16 to /24 (e.g. 10.0.0.0/16), got \"bad\"",
    );
  });
});
