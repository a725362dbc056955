/** lab/plan/run.ts: the first-preview mode of the plan, and what the plan skips to be fast. */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import * as time from "@pulumiverse/time";
import { K0sCluster } from "../../../components/k0s";
import { Network } from "../../../components/network";
import { FAKE_NOW } from "../../../lab/plan/fakes";
import { PlanError } from "../../../lab/plan/errors";
import {
  emptyInvokesNote,
  holdsUnknown,
  planStack,
  resourceOfLabel,
  skipUnusedStackTraces,
  StackSpec,
  unknownConfigKeys,
} from "../../../lab/plan/run";

const spec = (name: string, config: Record<string, string> = {}): StackSpec => ({ name, source: "test", config, secretKeys: [] });
const none = () => undefined;
/** The engine's unknown id of a provider created in the same update (pulumi/pulumi pkg/resource/deploy/providers/registry.go UnknownID). */
const UNKNOWN_ID = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A provider with known config, one whose config holds a time.Static time, and invokes through each. */
function probe() {
  const created = new time.Static("created-at", {});
  const known = new aws.Provider("known", { region: "us-east-1" });
  const unconfigured = new aws.Provider("unconfigured", {
    region: "us-east-1",
    defaultTags: { tags: { "lab:expires-at": created.rfc3339 } },
  });
  const vpc = new aws.ec2.Vpc("vpc", { cidrBlock: "10.0.0.0/16" }, { provider: known });
  return {
    created: created.rfc3339,
    vpcId: vpc.id,
    vpcArn: vpc.arn,
    vpcCidr: vpc.cidrBlock,
    zonesViaKnown: aws.getAvailabilityZonesOutput({}, { provider: known }).names,
    zonesViaUnconfigured: aws.getAvailabilityZonesOutput({}, { provider: unconfigured }),
    regionViaDefault: aws.getRegionOutput({}).name,
  };
}

/** The bug of issue 18: an invoke result used unguarded, through a provider whose tags hold a time made in the same update. */
function broken() {
  const created = new time.Static("created-at", {});
  const provider = new aws.Provider("aws", { region: "us-east-1", defaultTags: { tags: { "lab:expires-at": created.rfc3339 } } });
  const zones = aws.getAvailabilityZonesOutput({ state: "available" }, { provider });
  return { firstZone: zones.apply((z) => z.names[0]) };
}

/** The same bug, the invoke result feeding a resource's input: the resource cannot be registered. */
function brokenResource() {
  const created = new time.Static("created-at", {});
  const provider = new aws.Provider("aws", { region: "us-east-1", defaultTags: { tags: { "lab:expires-at": created.rfc3339 } } });
  const zones = aws.getAvailabilityZonesOutput({ state: "available" }, { provider });
  const subnet = new aws.ec2.Subnet(
    "first",
    { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24", availabilityZone: zones.apply((z) => z.names[0]) },
    { provider },
  );
  return { subnetId: subnet.id };
}

describe("first preview (planStack with firstPreview)", () => {
  test("new resources report their inputs only; invokes through a provider with unknown config are answered {}; others as usual", async () => {
    const { plan } = await planStack(spec("probe"), probe, none, { firstPreview: true });
    expect(plan.outputs).toEqual({
      created: "<computed>",
      vpcId: "<computed>",
      vpcArn: "<computed>",
      vpcCidr: "10.0.0.0/16",
      zonesViaKnown: ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1e", "us-east-1f"],
      zonesViaUnconfigured: {},
      regionViaDefault: "us-east-1",
    });
    const byName = (n: string) => plan.resources.find((r) => r.name === n)!;
    expect(byName("unconfigured").inputs.defaultTags).toBe("<computed>");
    expect(byName("known").inputs.defaultTags).toBeUndefined();
    // A provider created in the same update is referenced with the engine's unknown id.
    expect(byName("vpc").provider).toBe(`${byName("known").urn}::${UNKNOWN_ID}`);
  });

  test("the default plan answers the same program as if everything existed", async () => {
    const { plan } = await planStack(spec("probe"), probe, none);
    expect(plan.outputs).toMatchObject({
      created: FAKE_NOW,
      vpcId: expect.stringMatching(/^vpc-[0-9a-f]{17}$/),
      vpcArn: expect.stringMatching(/^arn:aws:ec2:us-east-1:123456789012:vpc\/vpc-[0-9a-f]{17}$/),
      zonesViaUnconfigured: expect.objectContaining({ names: expect.any(Array) }),
    });
  });

  test("a program that uses an invoke result unguarded fails, naming the stack and the invoke answered {}", async () => {
    let error: unknown;
    await planStack(spec("broken"), broken, none, { firstPreview: true }).catch((e) => (error = e));
    expect(error).toBeInstanceOf(PlanError);
    expect((error as PlanError).stack).toBe("broken");
    expect((error as PlanError).message).toBe(
      "Cannot read properties of undefined (reading '0')\n" +
        "first preview: the engine answers invokes through an unconfigured provider with an empty result:\n" +
        "  invoke aws:index/getAvailabilityZones:getAvailabilityZones through provider urn:pulumi:broken::storage-bench-lab::pulumi:providers:aws::aws answered {}: its configuration holds values unknown at preview (defaultTags)",
    );
    // The program's own error, with its trace.
    expect((error as PlanError).cause).toBeInstanceOf(TypeError);
    expect(((error as PlanError).cause as Error).stack).toContain("run.test.ts");
    // The default plan does not see it.
    await expect(planStack(spec("broken"), broken, none)).resolves.toMatchObject({ plan: { outputs: { firstZone: "us-east-1a" } } });
  });
});

test("a resource whose input fails is named, with the invokes answered {}; at once, not at the plan's deadline", async () => {
  let error: unknown;
  const started = Date.now();
  await planStack(spec("broken"), brokenResource, none, { firstPreview: true }).catch((e) => (error = e));
  expect(Date.now() - started).toBeLessThan(10_000);
  expect((error as PlanError).message).toBe(
    "error serializing property \"availabilityZone\": Cannot read properties of undefined (reading '0')\n" +
      "while registering resource aws:ec2/subnet:Subnet 'first'\n" +
      "first preview: the engine answers invokes through an unconfigured provider with an empty result:\n" +
      "  invoke aws:index/getAvailabilityZones:getAvailabilityZones through provider urn:pulumi:broken::storage-bench-lab::pulumi:providers:aws::aws answered {}: its configuration holds values unknown at preview (defaultTags)",
  );
});

test.each([
  ["resource:first[aws:ec2/subnet:Subnet]", "resource aws:ec2/subnet:Subnet 'first'"],
  ["resource:lab[lab:network:Network]#...", "resource lab:network:Network 'lab'"],
  ["resource:urn=urn:pulumi:s::p::t::n", "resource:urn=urn:pulumi:s::p::t::n"],
])("the SDK's registration label %s names %s", (label, want) => {
  expect(resourceOfLabel(label)).toBe(want);
});

describe("the components' guards on invoke results, in a first preview through a provider with unknown config", () => {
  /** The provider of issue 18: its tags hold a time.Static time, unknown until the first deploy. */
  const unconfigured = () => {
    const created = new time.Static("created-at", {});
    return new aws.Provider("aws", { region: "us-east-1", defaultTags: { tags: { "lab:expires-at": created.rfc3339 } } });
  };
  const emptyAnswer = (stack: string, token: string) =>
    `  invoke ${token} through provider urn:pulumi:${stack}::storage-bench-lab::pulumi:providers:aws::aws answered {}: its configuration holds values unknown at preview (defaultTags)`;
  const failureOf = async (name: string, program: () => Record<string, unknown>) => {
    let error: unknown;
    await planStack(spec(name), program, none, { firstPreview: true }).catch((e) => (error = e));
    return (error as PlanError).message.split("\n");
  };

  test("Network: getAvailabilityZones' empty answer is an error naming the invoke, not a TypeError", async () => {
    const lines = await failureOf("net", () => ({
      azs: new Network("lab", { region: "us-east-1", azCount: 2 }, { provider: unconfigured() }).azs,
    }));
    expect(lines[0]).toMatch(
      /(^|: )invoke aws:index\/getAvailabilityZones:getAvailabilityZones returned no zone names \(got \{\}\): the AWS provider it went through is not configured \(at preview: a provider input is not known yet\)$/,
    );
    expect(lines.slice(-1)).toEqual([emptyAnswer("net", "aws:index/getAvailabilityZones:getAvailabilityZones")]);
  });

  test("K0sCluster: getAmi's empty answer is an error naming the invoke, not an instance without an image", async () => {
    const program = () => {
      const cluster = new K0sCluster(
        "ceph",
        {
          instanceType: "m5.xlarge",
          az: "us-east-1a",
          adminCidrs: ["198.51.100.7/32"],
          vpcId: "vpc-1",
          privateSubnetId: "subnet-1",
          publicSubnetId: "subnet-2",
        },
        { provider: unconfigured() },
      );
      return { amiId: cluster.amiId };
    };
    const lines = await failureOf("k0s", program);
    expect(lines[0]).toMatch(
      /(^|: )invoke aws:ec2\/getAmi:getAmi returned no image id \(got \{\}\): the AWS provider it went through is not configured \(at preview: a provider input is not known yet\)$/,
    );
    expect(lines[1]).toMatch(/^while registering resource aws:ec2\/instance:Instance 'ceph-(controller|worker-\d|bastion)'$/);
    expect(lines.slice(-1)).toEqual([emptyAnswer("k0s", "aws:ec2/getAmi:getAmi")]);
  });
});

describe("unknown values in a provider's configuration (as the monitor receives them)", () => {
  const u = rpc.unknownValue;
  test.each([
    [u, true],
    ["us-east-1", false],
    [{ tags: { a: "1", b: u } }, true],
    [[1, [2, u]], true],
    [{ [rpc.specialSigKey]: rpc.specialOutputValueSig }, true],
    [{ [rpc.specialSigKey]: rpc.specialOutputValueSig, value: "x" }, false],
    [{ [rpc.specialSigKey]: rpc.specialOutputValueSig, value: { a: u } }, true],
    [{ [rpc.specialSigKey]: rpc.specialSecretSig, value: u }, true],
    [null, false],
  ])("holdsUnknown(%j) = %s", (v, want) => {
    expect(holdsUnknown(v)).toBe(want);
  });

  test("the keys holding unknowns, sorted; `version` does not configure a provider (provider_plugin.go Configure)", () => {
    expect(unknownConfigKeys({ version: u, region: "us-east-1", skipMetadataApiCheck: u, defaultTags: u })).toEqual([
      "defaultTags",
      "skipMetadataApiCheck",
    ]);
  });

  test("the note a failed first preview adds; none without an empty answer", () => {
    expect(emptyInvokesNote([])).toBeUndefined();
    expect(emptyInvokesNote([{ token: "aws:ec2/getAmi:getAmi", provider: "urn:p", unknownKeys: ["defaultTags", "region"] }])).toBe(
      "first preview: the engine answers invokes through an unconfigured provider with an empty result:\n" +
        "  invoke aws:ec2/getAmi:getAmi through provider urn:p answered {}: its configuration holds values unknown at preview (defaultTags, region)",
    );
  });
});

describe("stack traces the plan skips", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const debuggable = require("@pulumi/pulumi/runtime/debuggable") as { debuggablePromise<T>(p: Promise<T>, ctx: string): Promise<T> };

  test("the SDK's promise traces are captured without frames, and no resource formats its source position", () => {
    expect(skipUnusedStackTraces()).toBe(true);
    const limit = Error.stackTraceLimit;
    const p = Promise.resolve(1) as Promise<number> & { _debugStackTrace?: string; _debugCtx?: string };
    void debuggable.debuggablePromise(p, "probe");
    expect(p._debugCtx).toBe("probe");
    // The error line only, no `    at …` frame (its exact text depends on who formats traces: Node, Jest).
    expect(p._debugStackTrace!.split("\n")).toEqual([expect.stringMatching(/^Error:? ?$/)]);
    expect(Error.stackTraceLimit).toBe(limit);
    expect((pulumi.Resource as unknown as { callsites(): unknown[] }).callsites()).toEqual([]);
  });

  test("not with PULUMI_DEBUG_PROMISE_LEAKS set (its leak report prints those traces)", () => {
    expect(skipUnusedStackTraces({ PULUMI_DEBUG_PROMISE_LEAKS: "1" })).toBe(false);
  });

  test("a program error keeps its full trace", async () => {
    const program = () => ({ x: pulumi.output(1).apply(() => failingHelper()) });
    let error: unknown;
    await planStack(spec("trace"), program, none).catch((e) => (error = e));
    const lines = ((error as PlanError).cause as Error).stack!.split("\n");
    expect(lines[0]).toBe("Error: boom");
    expect(lines[1]).toMatch(/^ {4}at failingHelper \(.*run\.test\.ts:\d+:\d+\)$/);
  });
});

function failingHelper(): never {
  throw new Error("boom");
}
