/** stacks/lib/context.ts: the stack's AWS provider, known at every preview, and the stack's expiry. */
import * as aws from "@pulumi/aws";
import { planStack, StackPlan } from "../../../lab/plan/run";
import { labAwsProvider } from "../../../stacks/lib/context";

const cfg = { region: "eu-west-1", kind: "network", owner: "alice", ttlHours: 10, runId: "r1" };

/** The provider as a stack gets it, with one invoke through it (what `network` does for its zones). */
function program() {
  const { provider, expiresAt } = labAwsProvider(cfg, { project: "storage-bench-lab", stack: "s1" });
  const zones = aws.getAvailabilityZonesOutput({ state: "available" }, { provider });
  return { zones: zones.names, expiresAt };
}

const plan = async (firstPreview: boolean): Promise<StackPlan> =>
  (
    await planStack({ name: "s1", source: "test", config: { "aws:region": "eu-west-1" }, secretKeys: [] }, program, () => undefined, {
      firstPreview,
    })
  ).plan;

describe("labAwsProvider", () => {
  test("region and the four lab tags as defaultTags; the provider depends on nothing made in the update", async () => {
    const p = await plan(false);
    const [provider] = p.resources.filter((r) => r.type === "pulumi:providers:aws");
    expect(provider.name).toBe("aws");
    expect(provider.inputs.region).toBe("eu-west-1");
    expect(JSON.parse(provider.inputs.defaultTags as string)).toEqual({
      tags: { "lab:project": "storage-bench-lab", "lab:stack": "s1", "lab:kind": "network", "lab:owner": "alice" },
    });
    expect(provider.dependencies).toEqual([]);
  });

  test("expiresAt: the first deploy time (time.Static created-at, no inputs) plus lab:ttlHours", async () => {
    const p = await plan(false);
    const [created] = p.resources.filter((r) => r.type === "time:index/static:Static");
    expect([created.name, created.inputs]).toEqual(["created-at", {}]);
    expect(p.outputs.expiresAt).toBe("2026-01-01T10:00:00Z"); // lab/plan/fakes.ts FAKE_NOW + 10 h
  });

  test("first preview: the provider's configuration is known, so its invokes are answered; the expiry is unknown", async () => {
    const p = await plan(true);
    const [provider] = p.resources.filter((r) => r.type === "pulumi:providers:aws");
    expect(JSON.stringify(provider.inputs)).not.toContain("<computed>");
    expect(p.outputs).toEqual({
      zones: ["eu-west-1a", "eu-west-1b", "eu-west-1c", "eu-west-1d", "eu-west-1e", "eu-west-1f"],
      expiresAt: "<computed>",
    });
  });
});
