import { diffPlans, refusals } from "../../../../lab/plan/change/diff";
import { renderChangePlan } from "../../../../lab/plan/change";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { comparableValue, displayValue } from "../../../../lab/plan/run";
import type { PlannedResource, StackPlan } from "../../../../lab/plan/run";

import { res, URN } from "./support";

const plan = (config: Record<string, string>, resources: PlannedResource[]): StackPlan => ({
  stack: "s",
  kind: "ceph-k0s",
  config,
  resources,
  outputs: {},
});

const RESET = "# k0sctl reset\nlab_k0sctl_reset\n";

describe("a change plan", () => {
  test("the deliberately wrong component: k0sctl apply re-run by a hash trigger is replaced, its reset runs, and the change is refused", () => {
    const wrong = (hash: string) =>
      res("command:local:Command", "ceph-k0sctl-apply", {
        create: "apply",
        update: "apply",
        delete: RESET,
        triggers: [hash],
        environment: { C: hash },
      });
    const p = diffPlans(
      plan({ "lab:k0sVersion": "v1.36.3+k0s.2" }, [wrong("aaa")]),
      plan({ "lab:k0sVersion": "v1.36.4+k0s.0" }, [wrong("bbb")]),
    );
    expect(p.changes).toEqual([
      expect.objectContaining({
        action: "replace",
        name: "ceph-k0sctl-apply",
        destroys: { what: "its delete runs (lab_k0sctl_reset)", data: true },
        deleteBeforeReplace: false,
      }),
    ]);
    expect(p.changes[0].inputs.filter((i) => i.verdict === "replace").map((i) => [i.path, i.rule])).toEqual([
      ["triggers[0]", "replaces (replaceOnChanges: triggers[*], added by the @pulumi/command SDK to every Command)"],
    ]);
    expect(refusals(p).map((c) => c.name)).toEqual(["ceph-k0sctl-apply"]);
    const text = renderChangePlan(p, false);
    expect(text).toContain("REPLACED: command:local:Command ceph-k0sctl-apply\n");
    expect(text).toContain("    destroys: its delete runs (lab_k0sctl_reset)\n");
    expect(text).toContain("refused: 1 change(s) would destroy data or may (ceph-k0sctl-apply); re-run with --allow-replace to accept");
    expect(renderChangePlan(p, true)).toContain("--allow-replace: accepted 1 change(s) that destroy data or may (ceph-k0sctl-apply)");
  });

  test("the fixed component: the config in the environment, no triggers: an update, nothing refused", () => {
    const fixed = (c: string) =>
      res("command:local:Command", "ceph-k0sctl-apply", { create: "apply", update: "apply", delete: RESET, environment: { C: c } });
    const p = diffPlans(plan({}, [fixed("a")]), plan({}, [fixed("b")]));
    expect(p.changes.map((c) => [c.action, c.name, c.inputs.map((i) => i.path)])).toEqual([
      ["update", "ceph-k0sctl-apply", ["environment.C"]],
    ]);
    expect(refusals(p)).toEqual([]);
    expect(p.unchanged).toBe(0);
  });

  test("a name carrying the changed value is one resource replaced under its new name", () => {
    const collector = (run: string) => res("command:local:Command", `pg-collect-${run}`, { create: "collect", triggers: [run] });
    const p = diffPlans(plan({}, [collector("r1")]), plan({ "lab:runId": "r2" }, [collector("r2")]));
    expect(p.changes).toEqual([
      {
        action: "replace",
        urn: `${URN}command:local:Command::pg-collect-r2`,
        type: "command:local:Command",
        name: "pg-collect-r2",
        renamedFrom: "pg-collect-r1",
        inputs: [],
        destroys: { what: "no delete command; its stdout (a collector's: the run's raw results) leaves the state", data: false },
        deleteBeforeReplace: false,
      },
    ]);
  });

  test("a replacement reaches the inputs that read it: a collector whose trigger holds a replaced Job's uid is replaced", () => {
    const job = (image: string) =>
      res("kubernetes:batch/v1:Job", "pg", { metadata: { name: "pg-r1" }, spec: { template: { spec: { containers: [{ image }] } } } });
    const collector = res(
      "command:local:Command",
      "pg-collect",
      { create: "collect", triggers: ["r1", "uid-pg"] },
      { propertyDependencies: { triggers: [`${URN}kubernetes:batch/v1:Job::pg`] } },
    );
    const p = diffPlans(plan({}, [job("pg:17.1"), collector]), plan({}, [job("pg:17.2"), collector]));
    expect(p.changes.map((c) => [c.action, c.name])).toEqual([
      ["replace", "pg"],
      ["replace", "pg-collect"],
    ]);
    expect(p.changes[1].inputs.map((i) => i.rule)).toEqual([
      "replaces (replaceOnChanges: triggers[*], added by the @pulumi/command SDK to every Command); its value comes from pg, which is replaced",
    ]);
  });

  test("created, deleted, unknown; the lab's own components are not listed", () => {
    const before = plan({}, [
      res("aws:ebs/volume:Volume", "osd-3", { size: 100 }),
      res("aws:kms/key:Key", "k", { description: "a" }),
      res("lab:k0s:K0sCluster", "ceph", {}, { custom: false }),
    ]);
    const after = plan({}, [
      res("aws:kms/key:Key", "k", { description: "b" }),
      res("aws:ebs/volume:Volume", "osd-4", { size: 100 }),
      res("lab:k0s:K0sCluster", "ceph", {}, { custom: false }),
    ]);
    const p = diffPlans(before, after);
    expect(p.changes.map((c) => [c.action, c.name])).toEqual([
      ["unknown", "k"],
      ["create", "osd-4"],
      ["delete", "osd-3"],
    ]);
    // Deleting a volume destroys data; an unknown change of a KMS key may (its replacement would).
    expect(refusals(p).map((c) => c.name)).toEqual(["k", "osd-3"]);
  });
});

test("a changed secret is a change, compared by a digest; its value never shows", () => {
  const secret = (v: string) => ({ [rpc.specialSigKey]: rpc.specialSecretSig, value: v });
  const a = comparableValue({ k: secret("one") }) as Record<string, string>;
  expect(a.k).toMatch(/^\[secret sha256:[0-9a-f]{16}\]$/);
  expect(comparableValue({ k: secret("two") })).not.toEqual(a);
  expect(comparableValue({ k: secret("one") })).toEqual(a);
  expect(JSON.stringify(a)).not.toContain("one");
  expect(displayValue({ k: secret("one") })).toEqual({ k: "[secret]" });
});
