/**
 * Issue 40 item 2: a Kubernetes provider is judged as pulumi-kubernetes' DiffConfig judges it, and
 * its replacement replaces every resource it manages, as the engine does. The pure rule on
 * hand-made resources, then the shipped `nitro` stack through the real program.
 */
import { changedSpec, planChange } from "../../../../lab/plan/change";
import { diffPlans } from "../../../../lab/plan/change/diff";
import { kubernetesProviderVerdicts } from "../../../../lab/plan/change/providers";
import { PlanMemo } from "../../../../lab/plan";
import type { StackPlan } from "../../../../lab/plan/run";
import { shippedStacks } from "../../../../lab/plan/sources";
import { runStack } from "../../../../stacks";
import { ROOT } from "../../../helpers/root";
import { res, URN } from "./support";

jest.setTimeout(120_000);

const U = (type: string, name: string) => `${URN}${type}::${name}`;
const KCMD = U("command:local:Command", "kubeconfig");
const CTRL = U("aws:ec2/instance:Instance", "controller");
const provider = (inputs: Record<string, unknown>) =>
  res("pulumi:providers:kubernetes", "k0s", inputs, { propertyDependencies: { kubeconfig: [KCMD], clusterIdentifier: [CTRL] } });

describe("kubernetesProviderVerdicts (DiffConfig)", () => {
  const none = () => false;
  const same = () => false;
  it("a kubeconfig unknown at preview replaces a provider without clusterIdentifier", () => {
    const p = provider({ kubeconfig: "[secret]" });
    expect(kubernetesProviderVerdicts(p, p, (u) => u === KCMD, none, same).map((v) => [v.path, v.verdict, v.rule])).toEqual([
      [
        "kubeconfig",
        "replace",
        "replaces the provider: kubeconfig is unknown at preview (its value comes from kubeconfig, which the change touches), and no clusterIdentifier",
      ],
    ]);
  });
  it("with an unchanged clusterIdentifier the same change updates it in place", () => {
    const p = provider({ kubeconfig: "[secret]", clusterIdentifier: "k0s/i-1/c-1" });
    expect(kubernetesProviderVerdicts(p, p, (u) => u === KCMD, none, same).map((v) => [v.path, v.verdict])).toEqual([
      ["kubeconfig", "update"],
    ]);
  });
  it("a clusterIdentifier that comes from a replaced resource replaces it", () => {
    const p = provider({ kubeconfig: "[secret]", clusterIdentifier: "k0s/i-1/c-1" });
    expect(
      kubernetesProviderVerdicts(
        p,
        p,
        () => true,
        (u) => u === CTRL,
        same,
      ).map((v) => [v.path, v.verdict, v.rule]),
    ).toEqual([
      [
        "clusterIdentifier",
        "replace",
        "replaces the provider: clusterIdentifier changes (its value comes from controller, which is replaced)",
      ],
    ]);
  });
  it("a clusterIdentifier from a resource of unknown effect: unknown, never in place (a computed identifier is an update to DiffConfig)", () => {
    const p = provider({ kubeconfig: "[secret]", clusterIdentifier: "eks/arn/t" });
    expect(
      kubernetesProviderVerdicts(
        p,
        p,
        () => true,
        none,
        same,
        (u) => u === CTRL,
      ).map((v) => [v.path, v.verdict, v.rule]),
    ).toEqual([
      [
        "clusterIdentifier",
        "unknown",
        "unknown: clusterIdentifier comes from controller, whose change is of unknown effect: replaced with everything in the cluster if that is replaced",
      ],
    ]);
  });
  it("an identifier added to a live provider does not replace it (DiffConfig: not when adding or removing one)", () => {
    const before = provider({ kubeconfig: "[secret]" });
    const after = provider({ kubeconfig: "[secret]", clusterIdentifier: "k0s/i-1/c-1" });
    expect(kubernetesProviderVerdicts(before, after, none, none, (p) => p === "clusterIdentifier")).toEqual([]);
  });
  it("a known kubeconfig that changed: unknown (replaced if its active cluster changed)", () => {
    const p = provider({ kubeconfig: "[secret]" });
    expect(kubernetesProviderVerdicts(p, p, none, none, (x) => x === "kubeconfig").map((v) => v.verdict)).toEqual(["unknown"]);
  });
});

describe("diffPlans: a replaced provider replaces everything it manages", () => {
  const plan = (providerInputs: Record<string, unknown>, cmd: Record<string, unknown>): StackPlan =>
    ({
      stack: "s",
      kind: "ceph-k0s",
      config: {},
      resources: [
        res("command:local:Command", "kubeconfig", cmd),
        res("pulumi:providers:kubernetes", "k0s", providerInputs, { propertyDependencies: { kubeconfig: [KCMD] } }),
        res("kubernetes:core/v1:ConfigMap", "cm", { data: { a: "1" } }, { provider: `${U("pulumi:providers:kubernetes", "k0s")}::id` }),
      ],
    }) as unknown as StackPlan;
  it("without clusterIdentifier a touched kubeconfig Command replaces the provider and its ConfigMap", () => {
    const p = diffPlans(plan({ kubeconfig: "x" }, { create: "a" }), plan({ kubeconfig: "x" }, { create: "b" }));
    expect(p.changes.map((c) => [c.action, c.name])).toEqual([
      ["update", "kubeconfig"],
      ["replace", "k0s"],
      ["replace", "cm"],
    ]);
    expect(p.changes[2].inputs.map((i) => i.rule)).toEqual([
      "replaced with its provider k0s: the engine replaces every resource of a replaced provider",
    ]);
  });
  it("with an unchanged clusterIdentifier the provider is updated and the ConfigMap unchanged", () => {
    const p = diffPlans(
      plan({ kubeconfig: "x", clusterIdentifier: "c" }, { create: "a" }),
      plan({ kubeconfig: "x", clusterIdentifier: "c" }, { create: "b" }),
    );
    expect(p.changes.map((c) => [c.action, c.name])).toEqual([
      ["update", "kubeconfig"],
      ["update", "k0s"],
    ]);
  });
});

describe("the shipped nitro stack", () => {
  const shipped = shippedStacks(ROOT);
  const nitro = shipped.find((s) => s.name === "nitro")!;
  const memo: PlanMemo = new Map();
  const change = (...pairs: string[]) => planChange(nitro, changedSpec(nitro, { changes: pairs }), shipped, runStack, memo);

  test("a k0s upgrade replaces nothing in the cluster: the provider carries a clusterIdentifier and is updated in place", async () => {
    const p = await change("lab:k0sVersion=v1.36.4+k0s.0");
    expect(p.changes.map((c) => [c.action, c.name])).toEqual([
      ["update", "ceph-k0sctl-apply"],
      ["update", "ceph-kubeconfig"],
      ["update", "k0s"],
    ]);
    expect(p.changes[2].inputs.map((i) => i.rule)).toEqual([
      "in place: kubeconfig is unknown at preview (its value comes from ceph-kubeconfig, which the change touches), clusterIdentifier is unchanged",
    ]);
  });

  test("a new controller (new user data) is a new cluster: the identifier changes and every object in the cluster is replaced", async () => {
    const p = await change("lab:hugepages2Mi=1024");
    const provider = p.changes.find((c) => c.name === "k0s")!;
    expect([provider.action, provider.inputs.map((i) => i.path)]).toEqual(["replace", ["clusterIdentifier"]]);
    const inCluster = p.changes.filter((c) => c.type.startsWith("kubernetes:"));
    expect(inCluster.length).toBeGreaterThanOrEqual(19);
    expect(inCluster.filter((c) => c.action !== "replace")).toEqual([]);
    expect(p.benchmarks.sameRunId).toEqual(["pgbench-pgbench-collect-r1"]);
  });
});
