/**
 * `lab:sanBackend: true` needs the cluster's Trident to prepare the nodes for iSCSI (AL2023 has no
 * initiator): the eks stack's `lab:tridentNodePrep: ["iscsi"]` (the chart's `nodePrep`). Without it
 * the fsx-eks plan fails, naming the key to set and the stack to set it on. (A file of its own: a
 * failed plan leaves the program's pending outputs rejecting.)
 */
import { planAll, scenarioSpecs } from "../../../lab/plan";
import { StackSpec } from "../../../lab/plan/run";
import { SCENARIOS } from "../../../scenarios";
import { runStack } from "../../../stacks";
import { ROOT } from "../../helpers/root";

test("the SAN backend on a cluster whose Trident does not prepare iSCSI: the plan fails with what to set on which stack", async () => {
  const specs = scenarioSpecs(
    SCENARIOS.find((s) => s.name === "fsx-eks")!,
    ROOT,
  ).map((s): StackSpec =>
    s.name === "fsx-eks"
      ? { ...s, config: { ...s.config, "lab:sanBackend": "true", "lab:toolsImage": "registry.example.com/lab/tools:1" } }
      : s,
  );
  const error = await planAll(specs, runStack).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error?.message).toContain(
    `'lab:sanBackend' is true, but the eks stack 'organization/storage-bench-lab/fsx-eks-cluster' (from 'lab:eksStack') installs Trident without nodePrep iscsi (its tridentNodePrep is []): AL2023 nodes have no iSCSI initiator, so no ontap-san volume could attach; set lab:tridentNodePrep: ["iscsi"] on that stack and update it first`,
  );
});
