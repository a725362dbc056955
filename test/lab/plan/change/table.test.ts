/**
 * docs/changing-a-live-stack.md is the generator's output, every key of every stack kind has a
 * representative change, and the documented levers have their expected impact.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LEVERS } from "../../../../lab/plan/change/levers";
import { effectCell, LeverImpact, leverImpacts, renderLeverPage, verdictCell } from "../../../../lab/plan/change/table";
import { refusals } from "../../../../lab/plan/change/diff";
import { shippedStacks } from "../../../../lab/plan/sources";
import { runStack } from "../../../../stacks";
import { cephK0sSchema } from "../../../../stacks/ceph-k0s/config";
import { compareBaseFields } from "../../../../stacks/compare/config";
import { eksSchema } from "../../../../stacks/eks/config";
import { fsxEksSchema } from "../../../../stacks/fsx-eks/config";
import { fsxOntapSchema } from "../../../../stacks/fsx-ontap/config";
import { kafkaSchema } from "../../../../stacks/kafka/config";
import { networkSchema } from "../../../../stacks/network/config";
import { ROOT } from "../../../helpers/root";

jest.setTimeout(600_000);

/** A schema field → the key a user types: `region` is aws:region, the rest lab:<field>. */
const keyOf = (field: string) => (field === "region" ? "aws:region" : `lab:${field}`);

const SCHEMAS: Record<string, readonly string[]> = {
  network: Object.keys(networkSchema.shape),
  "fsx-ontap": Object.keys(fsxOntapSchema.shape),
  eks: Object.keys(eksSchema.shape),
  "fsx-eks": Object.keys(fsxEksSchema.shape),
  kafka: Object.keys(kafkaSchema.shape),
  "ceph-k0s": Object.keys(cephK0sSchema.shape),
  compare: Object.keys(compareBaseFields),
};

test("every key of every stack kind has a representative change (or says why not), and no other key", () => {
  expect(Object.keys(LEVERS)).toEqual(Object.keys(SCHEMAS));
  for (const [kind, fields] of Object.entries(SCHEMAS)) {
    expect([kind, Object.keys(LEVERS[kind].keys).sort()]).toEqual([kind, fields.map(keyOf).sort()]);
  }
});

describe("the change table", () => {
  let impacts: LeverImpact[];
  beforeAll(async () => {
    impacts = await leverImpacts(shippedStacks(ROOT), runStack);
  });
  const row = (kind: string, key: string) => impacts.find((i) => i.kind === kind && i.key === key) as LeverImpact;

  test("docs/changing-a-live-stack.md is exactly the generator's output (`npx lab plan --change-table > docs/changing-a-live-stack.md`)", () => {
    expect(fs.readFileSync(path.join(ROOT, "docs", "changing-a-live-stack.md"), "utf8")).toBe(renderLeverPage(impacts));
  });

  test("lab:runId re-runs the benchmarks: only Jobs and their collectors are replaced, the collectors' Roles updated in place, nothing refused", () => {
    for (const kind of ["ceph-k0s", "fsx-eks", "kafka"]) {
      const p = row(kind, "lab:runId").plan!;
      expect([kind, [...new Set(p.changes.map((c) => `${c.action} ${c.type}`))]]).toEqual([
        kind,
        ["update kubernetes:rbac.authorization.k8s.io/v1:Role", "replace kubernetes:batch/v1:Job", "replace command:local:Command"],
      ]);
      expect(refusals(p)).toEqual([]);
    }
    expect(row("ceph-k0s", "lab:runId").plan!.changes.map((c) => c.name)).toEqual([
      "pgbench-collect-role",
      "pgbench-pgbench",
      "pgbench-pgbench-collect-r2",
    ]);
    // 18 Jobs and collectors, and the Role of each of the 6 runs (its Jobs' names).
    expect(row("fsx-eks", "lab:runId").plan!.changes.length).toBe(24);
    for (const kind of ["network", "fsx-ontap", "eks", "compare"])
      expect([kind, effectCell(row(kind, "lab:runId"))]).toEqual([kind, "no resource changes"]);
  });

  test("repetitions: the benchmark Jobs and collectors replaced, nothing else", () => {
    for (const kind of ["ceph-k0s", "fsx-eks", "kafka"]) {
      const p = row(kind, "lab:reps").plan!;
      expect([kind, [...new Set(p.changes.map((c) => `${c.action} ${c.type}`))]]).toEqual([
        kind,
        ["replace kubernetes:batch/v1:Job", "replace command:local:Command"],
      ]);
    }
  });

  test("FSx throughput capacity: the file system updated in place", () => {
    expect(effectCell(row("fsx-ontap", "lab:throughputCapacityMBps"))).toBe("in place: `fsx-fs`");
    expect(verdictCell(row("fsx-ontap", "lab:throughputCapacityMBps"))).toBe("allowed");
  });

  test("lab:k0sVersion and the worker count: in place, nothing with a destructive delete replaced", () => {
    // The provider too: its kubeconfig is unknown at preview, its clusterIdentifier unchanged (nothing in the cluster replaced).
    expect(effectCell(row("ceph-k0s", "lab:k0sVersion"))).toBe("in place: `ceph-k0sctl-apply`, `ceph-kubeconfig`, `k0s`");
    expect(effectCell(row("ceph-k0s", "lab:workerCount"))).toBe(
      "in place: `ceph-k0sctl-apply`, `ceph-kubeconfig`, `k0s`, `rook-policy-rook-api-server`, `rook-policy-ceph-osd-ingress`, `rook-policy-ceph-mon-ingress` and 1 more; replaces `ceph-bastion`; creates `ceph-worker-4-host-key`, `ceph-osd-4`, `ceph-worker-4`, `ceph-osd-4`; unknown effect on `ceph-bastion`",
    );
    for (const key of ["lab:k0sVersion", "lab:workerCount", "lab:instanceType", "lab:adminCidrs", "lab:cephResources"]) {
      const p = row("ceph-k0s", key).plan!;
      expect([key, p.changes.filter((c) => c.action === "replace" && c.destroys?.data)]).toEqual([key, []]);
    }
  });

  test("instance type: the k0s nodes change type in place (stop, modify, start); an EKS node group is replaced", () => {
    expect(effectCell(row("ceph-k0s", "lab:instanceType"))).toBe(
      "in place: `ceph-controller`, `ceph-worker-1`, `ceph-worker-2`, `ceph-worker-3`, `ceph-k0sctl-apply`, `ceph-kubeconfig` and 1 more; " +
        "stops and starts 4 instance(s) at once (ceph-controller, ceph-worker-1, ceph-worker-2, ceph-worker-3): each is stopped, changed and " +
        "started again, in parallel: a power cycle of every node, its pods restarted, storage unavailable until the cluster is back",
    );
    expect(effectCell(row("eks", "lab:instanceType"))).toBe("replaces `eks-nodes`");
    expect(effectCell(row("eks", "lab:nodeCount"))).toBe("in place: `eks-nodes`");
  });

  test("EKS version: only the pinned one is accepted by the config (the add-on versions are pinned per Kubernetes version)", () => {
    expect(effectCell(row("eks", "lab:kubernetesVersion"))).toBe(
      `refused by the config: 'lab:kubernetesVersion' must be a Kubernetes version with pinned add-on versions in components/versions.ts (1.35), got "1.36"`,
    );
  });

  test("what destroys data is refused: another zone, a PVC size change, a new FSx deployment type", () => {
    for (const [kind, key] of [
      ["ceph-k0s", "lab:az"],
      // The WireGuard module and the huge pages are in the nodes' user data: new workers.
      ["ceph-k0s", "lab:wireguard"],
      ["ceph-k0s", "lab:hugepages2Mi"],
      ["fsx-eks", "lab:mysqlVolumeGiB"],
      ["fsx-ontap", "lab:deploymentType"],
    ]) {
      expect([kind, key, verdictCell(row(kind, key))]).toEqual([
        kind,
        key,
        // A new cluster would run its benchmark again under the same run id.
        key === "lab:az" || key === "lab:hugepages2Mi"
          ? "refused under the same run id (a run id runs once): with a new `lab:runId` and `--allow-replace`"
          : "refused without `--allow-replace`",
      ]);
    }
  });

  test("a claim the running cluster holds: refused whatever --allow-replace says (the benchmark Jobs' pods hold fsx-eks' claims)", () => {
    expect(verdictCell(row("fsx-eks", "lab:pvcSizeGiB"))).toBe(
      'refused on a running cluster: the update cannot finish (see "Changes a running cluster holds"); destroy the stack and deploy it with the new value',
    );
  });

  test("creation-time keys: refused before any plan (exit 2) with the upstream tool's rule, and listed with their sources", () => {
    for (const [kind, key] of [
      ["ceph-k0s", "lab:cni"],
      ["ceph-k0s", "lab:cephHostNetwork"],
      ["kafka", "lab:controllers"],
    ]) {
      const r = row(kind, key);
      expect([kind, key, r.plan, r.creationTime, verdictCell(r)]).toEqual([kind, key, undefined, true, "refused (exit 2)"]);
    }
    expect(effectCell(row("ceph-k0s", "lab:cni"))).toBe(
      'fixed when the cluster is created: k0s fixes the CNI provider (network.provider) when the cluster is initialised: its controller refuses another one ("cannot change CNI provider from kuberouter to calico") and only a full redeployment changes it (see "Creation-time keys")',
    );
  });
});
