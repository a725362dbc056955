/**
 * `lab plan --stack dev --change …` on the shipped stack, through the real program under the mock
 * runtime: what the "done when" asks of it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import YAML from "yaml";
import { changedSpec, parseChanges, planChange, renderChangePlan } from "../../../../lab/plan/change";
import { ChangePlan, refusals } from "../../../../lab/plan/change/diff";
import { PlanMemo } from "../../../../lab/plan";
import { shippedStacks } from "../../../../lab/plan/sources";
import { runStack } from "../../../../stacks";
import { ROOT } from "../../../helpers/root";

jest.setTimeout(120_000);

const shipped = shippedStacks(ROOT);
const dev = shipped.find((s) => s.name === "dev")!;
const memo: PlanMemo = new Map();
const change = (...pairs: string[]) => planChange(dev, changedSpec(dev, { changes: pairs }), shipped, runStack, memo);
const summary = (p: ChangePlan) => p.changes.map((c) => [c.action, c.type, c.name]);

describe("lab plan --stack dev --change", () => {
  test("lab:k0sVersion to the next patch: the k0sctl apply (and the kubeconfig read) updated in place, nothing replaced", async () => {
    const p = await change("lab:k0sVersion=v1.36.4+k0s.0");
    expect(summary(p)).toEqual([
      ["update", "command:local:Command", "ceph-k0sctl-apply"],
      ["update", "command:local:Command", "ceph-kubeconfig"],
      ["update", "pulumi:providers:kubernetes", "k0s"],
    ]);
    expect(p.changes[0].inputs.map((i) => [i.path, i.verdict])).toEqual([["environment.LAB_K0SCTL_CONFIG", "update"]]);
    expect(refusals(p)).toEqual([]);
    const text = renderChangePlan(p, false);
    expect(text).toContain("  lab:k0sVersion: (unset: its default) -> v1.36.4+k0s.0\n");
    expect(text).toContain(
      "updated in place: command:local:Command ceph-k0sctl-apply\n    environment.LAB_K0SCTL_CONFIG: in place (not a replacing input) [1]\n",
    );
    expect(text).toContain(", 3 updated in place, 0 replaced, 0 created, 0 deleted, 0 of unknown effect");
    expect(text).not.toContain("refused");
  });

  test("a worker added: its instance, host key, volume and attachment created, the k0sctl apply updated, the stateless bastion replaced (its tunnels list the nodes), nothing deleted", async () => {
    const p = await change("lab:workerCount=4");
    expect(summary(p)).toEqual([
      ["create", "tls:index/privateKey:PrivateKey", "ceph-worker-4-host-key"],
      ["create", "aws:ebs/volume:Volume", "ceph-osd-4"],
      ["create", "aws:ec2/instance:Instance", "ceph-worker-4"],
      ["create", "aws:ec2/volumeAttachment:VolumeAttachment", "ceph-osd-4"],
      ["replace", "aws:ec2/instance:Instance", "ceph-bastion"],
      ["unknown", "aws:ec2/eipAssociation:EipAssociation", "ceph-bastion"],
      ["update", "command:local:Command", "ceph-k0sctl-apply"],
      ["update", "command:local:Command", "ceph-kubeconfig"],
      ["update", "pulumi:providers:kubernetes", "k0s"],
      // Rook's policies that name the nodes' addresses (components/rook/network.ts), in place: never replaced.
      ["update", "kubernetes:networking.k8s.io/v1:NetworkPolicy", "rook-policy-rook-api-server"],
      ["update", "kubernetes:networking.k8s.io/v1:NetworkPolicy", "rook-policy-ceph-osd-ingress"],
      ["update", "kubernetes:networking.k8s.io/v1:NetworkPolicy", "rook-policy-ceph-mon-ingress"],
      ["update", "kubernetes:ceph.rook.io/v1:CephCluster", "rook-cluster"],
    ]);
    const bastion = p.changes.find((c) => c.action === "replace")!;
    expect(bastion.inputs.filter((i) => i.verdict === "replace").map((i) => [i.path, i.rule])).toEqual([
      ["userData", "replaces (force-new userData when userDataReplaceOnChange is true)"],
    ]);
    expect(bastion.destroys).toEqual({
      what: "the bastion instance (stateless: its Elastic IP and SSH host key stay, the new one takes them)",
      data: false,
    });
    expect(refusals(p)).toEqual([]);
  });

  test("a worker removed (4 → 3) deletes a node and its OSD volume: refused without --allow-replace", async () => {
    const four = { ...dev, config: { ...dev.config, "lab:workerCount": "4" } };
    const p = await planChange(four, dev, shipped, runStack, memo);
    expect(summary(p).filter(([a]) => a === "delete")).toEqual([
      ["delete", "tls:index/privateKey:PrivateKey", "ceph-worker-4-host-key"],
      ["delete", "aws:ebs/volume:Volume", "ceph-osd-4"],
      ["delete", "aws:ec2/instance:Instance", "ceph-worker-4"],
      ["delete", "aws:ec2/volumeAttachment:VolumeAttachment", "ceph-osd-4"],
    ]);
    expect(refusals(p).map((c) => c.name)).toEqual(["ceph-osd-4", "ceph-worker-4"]);
  });

  test("lab:runId=r2: exactly the pgbench Job and its collector replaced, the collector's Role updated in place (its Job's new name)", async () => {
    const p = await change("lab:runId=r2");
    expect(p.changes.map((c) => [c.action, c.type, c.name, c.renamedFrom])).toEqual([
      ["update", "kubernetes:rbac.authorization.k8s.io/v1:Role", "pgbench-collect-role", undefined],
      ["replace", "kubernetes:batch/v1:Job", "pgbench-pgbench", undefined],
      ["replace", "command:local:Command", "pgbench-pgbench-collect-r2", "pgbench-pgbench-collect-r1"],
    ]);
    expect(p.changes[0].inputs.map((i) => [i.path, i.verdict])).toEqual([["rules[0].resourceNames[0]", "update"]]);
    expect(p.changes[1].inputs.filter((i) => i.verdict === "replace").map((i) => i.path)).toEqual([
      "metadata.name",
      "spec.template.metadata.labels.lab/run-id",
      "spec.template.spec.containers[0].env[17].value",
    ]);
    expect(p.changes[1].deleteBeforeReplace).toBe(true);
    expect(refusals(p)).toEqual([]);
  });

  test("the bastion's address is its Elastic IP: the k0sctl config and the kubeconfig read it, never the instance's own address", async () => {
    const p = await change("lab:runId=r1");
    expect(p.changes).toEqual([]);
    const { planAll } = await import("../../../../lab/plan");
    const { withUpstreams } = await import("../../../../lab/plan/sources");
    const plan = (await planAll(withUpstreams(dev, shipped), runStack, undefined, {}, memo)).find((r) => r.spec.name === "dev")!.plan;
    const urn = (type: string, name: string) => plan.resources.find((r) => r.type === type && r.name === name)!.urn;
    const eip = urn("aws:ec2/eip:Eip", "ceph-bastion");
    const bastion = urn("aws:ec2/instance:Instance", "ceph-bastion");
    for (const name of ["ceph-k0sctl-apply", "ceph-kubeconfig"]) {
      const env = plan.resources.find((r) => r.name === name)!.propertyDependencies!.environment;
      expect([name, env.includes(eip), env.includes(bastion)]).toEqual([name, true, false]);
    }
  });

  test("arguments: KEY=VALUE with a config key; lab:kind is not changed; all problems at once", () => {
    expect(parseChanges(["lab:runId=r2", 'lab:adminCidrs=["203.0.113.9/32"]'])).toEqual({
      "lab:runId": "r2",
      "lab:adminCidrs": '["203.0.113.9/32"]',
    });
    expect(() => parseChanges(["runId", "owner=me", "lab:kind=eks"])).toThrow(
      [
        `'--change' must be KEY=VALUE (e.g. lab:runId=r2), got "runId"`,
        `'--change' key must be a config key like lab:<name> or aws:<name>, got "owner"`,
        `'--change' cannot change lab:kind: a stack of another kind is another stack, got "lab:kind=eks"`,
      ].join("\n"),
    );
    expect(() => changedSpec(dev, {})).toThrow(
      "lab plan --stack S needs exactly one of --change KEY=VALUE… or --change-config FILE to plan a change",
    );
  });

  test("a value the config refuses fails the change plan with the config's own message", async () => {
    await expect(change("lab:workerCount=0")).rejects.toThrow("'lab:workerCount' must be");
  });

  test("--change-config NEW.yaml: the whole new config file, the same plan as --change; another kind is refused", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-change-"));
    const doc = YAML.parse(fs.readFileSync(path.join(ROOT, "Pulumi.dev.yaml"), "utf8"));
    const file = path.join(dir, "new.yaml");
    fs.writeFileSync(file, YAML.stringify({ config: { ...doc.config, "lab:k0sVersion": "v1.36.4+k0s.0" } }));
    const next = changedSpec(dev, { changeConfig: file });
    expect(next.name).toBe("dev");
    const p = await planChange(dev, next, shipped, runStack, memo);
    expect(summary(p)).toEqual(summary(await change("lab:k0sVersion=v1.36.4+k0s.0")));
    fs.writeFileSync(file, YAML.stringify({ config: { ...doc.config, "lab:kind": "eks" } }));
    expect(() => changedSpec(dev, { changeConfig: file })).toThrow(
      `'lab:kind' in ${file} must be the stack's own kind ceph-k0s, got "eks"`,
    );
    fs.rmSync(dir, { recursive: true });
  });
});

describe("every shipped stack", () => {
  test.each(shipped.map((s) => [s.name]))(
    "%s: lab:runId=r2 replaces only benchmark Jobs and their collectors, updates their Roles' Job names in place, and refuses nothing",
    async (name) => {
      const spec = shipped.find((s) => s.name === name)!;
      const p = await planChange(spec, changedSpec(spec, { changes: ["lab:runId=r2"] }), shipped, runStack, memo);
      const roleNames = (c: (typeof p.changes)[number]) =>
        c.action === "update" &&
        c.type === "kubernetes:rbac.authorization.k8s.io/v1:Role" &&
        c.inputs.every((i) => /^rules\[0\]\.resourceNames\[\d+\]$/.test(i.path) && i.verdict === "update");
      expect(
        p.changes.filter(
          (c) => !(c.action === "replace" && ["kubernetes:batch/v1:Job", "command:local:Command"].includes(c.type)) && !roleNames(c),
        ),
      ).toEqual([]);
      expect(refusals(p)).toEqual([]);
    },
  );
});
