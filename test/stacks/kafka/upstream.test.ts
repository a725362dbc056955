/** What the kafka stack checks of its upstream stacks (stacks/kafka/upstream.ts): exact messages. */
import { checkDataVolumes, checkPlacement, nfsServerOf, UpstreamNodeGroup, zoneMetadata } from "../../../stacks/kafka/upstream";

const BOTH = ["us-east-1a", "us-east-1b"];
const group = (name: string, instanceType: string, nodeCount: number, dedicated: boolean, zones = BOTH): UpstreamNodeGroup => ({
  name,
  instanceType,
  nodeCount,
  labels: { "storage-bench-lab/role": "worker", "storage-bench-lab/node-group": name },
  taints: dedicated ? [{ key: "storage-bench-lab/node-group", value: name, effect: "NoSchedule" }] : [],
  zones,
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
      brokerGroupZones: BOTH,
      clientGroupZones: BOTH,
    });
  });

  test("preferred zone: the brokers' and the clients' groups must run in that zone only (the controllers' may span both)", () => {
    const inA = [
      group("system", "m5.large", 3, false),
      group("brokers", "i3en.2xlarge", 3, true, ["us-east-1a"]),
      group("clients", "c5n.2xlarge", 4, true, ["us-east-1a"]),
    ];
    expect(checkPlacement(inA, { ...WANT, zone: "us-east-1a" }, EKS)).toMatchObject({
      brokerGroupZones: ["us-east-1a"],
      clientGroupZones: ["us-east-1a"],
    });
    expect(() => checkPlacement(inA, { ...WANT, zone: "us-east-1b" }, EKS)).toThrow(
      `upstream stack '${EKS}' (from 'lab:eksStack') does not fit this Kafka stack: ` +
        "node group 'brokers' (lab:brokerNodeGroup) runs in us-east-1a, not only in the file system's preferred zone us-east-1b (lab:zonePlacement preferred): give it that zone (\"zone\" in the eks stack's lab:nodeGroups), or set lab:zonePlacement to spread; " +
        "node group 'clients' (lab:clientNodeGroup) runs in us-east-1a, not only in the file system's preferred zone us-east-1b (lab:zonePlacement preferred): give it that zone (\"zone\" in the eks stack's lab:nodeGroups), or set lab:zonePlacement to spread",
    );
    expect(() => checkPlacement(GROUPS, { ...WANT, zone: "us-east-1a" }, EKS)).toThrow(
      "node group 'brokers' (lab:brokerNodeGroup) runs in us-east-1a, us-east-1b, not only in the file system's preferred zone us-east-1a",
    );
  });

  test("the samples' zones: every broker and worker in the preferred zone, or the groups' zones when spread", () => {
    expect(zoneMetadata("preferred", "us-east-1a", { brokerGroupZones: ["us-east-1a"], clientGroupZones: ["us-east-1a"] }, 3, 4)).toEqual({
      zonePlacement: "preferred",
      fsxPreferredAz: "us-east-1a",
      brokerGroupZones: "us-east-1a",
      clientGroupZones: "us-east-1a",
      zone: "us-east-1a",
      zoneRelation: "same",
      brokerZones: "us-east-1a,us-east-1a,us-east-1a",
      workerZones: "us-east-1a,us-east-1a,us-east-1a,us-east-1a",
    });
    expect(zoneMetadata("spread", "us-east-1b", { brokerGroupZones: BOTH, clientGroupZones: ["us-east-1b"] }, 3, 4)).toEqual({
      zonePlacement: "spread",
      fsxPreferredAz: "us-east-1b",
      brokerGroupZones: "us-east-1a,us-east-1b",
      clientGroupZones: "us-east-1b",
      zoneRelation: "cross",
    });
    expect(
      zoneMetadata("spread", "us-east-1b", { brokerGroupZones: ["us-east-1b"], clientGroupZones: ["us-east-1b"] }, 3, 4),
    ).toMatchObject({
      zoneRelation: "same",
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
