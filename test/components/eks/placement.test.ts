/** How a pod runs on one node group (components/eks/placement.ts): exact affinity and toleration, valid Kubernetes. */
import { Affinity } from "kubernetes-models/v1/Affinity";
import { Toleration } from "kubernetes-models/v1/Toleration";
import { nodeGroupAffinity, nodeGroupToleration } from "../../../components/eks/placement";
import { resolve } from "../../../components/eks/rules";

describe("node group placement", () => {
  test("a required node affinity on the group's label, and the toleration of its taint", () => {
    expect(nodeGroupAffinity("brokers")).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: "storage-bench-lab/node-group", operator: "In", values: ["brokers"] }] }],
        },
      },
    });
    expect(nodeGroupToleration("brokers")).toEqual({
      key: "storage-bench-lab/node-group",
      operator: "Equal",
      value: "brokers",
      effect: "NoSchedule",
    });
    expect(() => new Affinity(nodeGroupAffinity("brokers")).validate()).not.toThrow();
    expect(() => new Toleration(nodeGroupToleration("brokers")).validate()).not.toThrow();
  });

  test("with a zone: the group's nodes in that zone only, one term (a node matches both expressions)", () => {
    expect(nodeGroupAffinity("brokers", "us-east-1a")).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: "storage-bench-lab/node-group", operator: "In", values: ["brokers"] },
                { key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a"] },
              ],
            },
          ],
        },
      },
    });
    expect(() => new Affinity(nodeGroupAffinity("brokers", "us-east-1a")).validate()).not.toThrow();
  });

  test("they match what a dedicated group's nodes carry: its label, and its taint in Kubernetes' form", () => {
    const [g] = resolve({
      clusterName: "c",
      nodeGroups: [
        { name: "clients", instanceType: "c5n.2xlarge", nodeCount: 4, dedicated: true },
        { name: "system", instanceType: "m5.large", nodeCount: 2 },
      ],
    }).nodeGroups;
    const expr =
      nodeGroupAffinity("clients").nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms[0].matchExpressions![0];
    expect(g.labels[expr.key]).toBe(expr.values![0]);
    const t = nodeGroupToleration("clients");
    expect(g.taints).toEqual([{ key: t.key, value: t.value, effect: t.effect }]);
  });
});
