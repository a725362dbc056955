/** What the kafka stack checks of its upstream stacks (stacks/kafka/upstream.ts): exact messages. */
import { checkDataVolumes, checkPlacement, nfsServerOf, UpstreamNodeGroup } from "../../../stacks/kafka/upstream";

const group = (name: string, instanceType: string, nodeCount: number, dedicated: boolean): UpstreamNodeGroup => ({
  name,
  instanceType,
  nodeCount,
  labels: { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": name },
  taints: dedicated ? [{ key: "storage-bench-lab/node-group", value: name, effect: "NoSchedule" }] : [],
});
const GROUPS = [group("system", "m5.large", 3, false), group("brokers", "i3en.2xlarge", 3, true), group("clients", "c5n.2xlarge", 4, true)];
const WANT = { brokerNodeGroup: "brokers", controllerNodeGroup: "system", clientNodeGroup: "clients", brokers: 3, workers: 4 };
const EKS = "organization/storage-bench-lab/kafka-cluster";

describe("kafka's upstream checks", () => {
  test("the shipped layout fits; the samples get the brokers' and clients' instance types", () => {
    expect(checkPlacement(GROUPS, WANT, EKS)).toEqual({
      brokerInstanceType: "i3en.2xlarge",
      clientInstanceType: "c5n.2xlarge",
      controllerInstanceType: "m5.large",
    });
  });

  test("brokers and clients on dedicated groups only, one pod a node", () => {
    const groups = [
      group("system", "m5.large", 3, false),
      group("brokers", "i3en.2xlarge", 2, false),
      group("clients", "c5n.2xlarge", 4, true),
    ];
    expect(() => checkPlacement(groups, { ...WANT, workers: 5 }, EKS)).toThrow(
      `upstream stack '${EKS}' (from 'lab:eksStack') does not fit this Kafka stack: ` +
        "node group 'brokers' (lab:brokerNodeGroup) is not dedicated (tainted storage-bench-lab/node-group=brokers:NoSchedule): other pods could share the brokers' nodes; " +
        "node group 'brokers' (lab:brokerNodeGroup) has 2 node(s) for 3 brokers, one a node; " +
        "node group 'clients' (lab:clientNodeGroup) has 4 node(s) for 5 OMB workers, one a node",
    );
  });

  test("a group without its label is not the group", () => {
    const unlabelled = GROUPS.map((g) => (g.name === "clients" ? { ...g, labels: { "storage-bench-lab/role": "worker" } } : g));
    expect(() => checkPlacement(unlabelled, WANT, EKS)).toThrow(
      "no node group 'clients' (lab:clientNodeGroup) labelled storage-bench-lab/node-group=clients; it has system, brokers, clients",
    );
  });

  test("the data volumes and the NFS endpoint", () => {
    const vols = [1, 2].map((i) => ({ name: `kafkafsxN${i}`, junctionPath: `/kafkafsxN${i}` }));
    expect(() => checkDataVolumes(vols, ["/kafkafsxN1", "/kafkafsxN2"], "org/p/kafka-ontap")).not.toThrow();
    expect(() => checkDataVolumes([], ["/kafkafsxN1"], "org/p/kafka-ontap")).toThrow(
      "upstream stack 'org/p/kafka-ontap' (from 'lab:fsxOntapStack') has no volume at /kafkafsxN1 (lab:dataVolumes); its junction paths are none",
    );
    expect(nfsServerOf({ dnsName: "svm.fs.example", ipAddresses: ["198.19.255.20"] }, "x")).toBe("svm.fs.example");
    expect(() => nfsServerOf(null, "org/p/kafka-ontap")).toThrow(
      "upstream stack 'org/p/kafka-ontap' (from 'lab:fsxOntapStack') reports no NFS endpoint for its SVM",
    );
  });
});
