/** What the kafka stack checks of its upstream stacks (stacks/kafka/upstream.ts): exact messages, with the keys a user typed. */
import { formatArgProblem } from "../../../core/errors";
import { userKey } from "../../../stacks/lib/config/load";
import {
  dataVolumeProblems,
  driverPlacementProblems,
  nfsEndpointProblems,
  placementOf,
  placementProblems,
  UpstreamNodeGroup,
  Workload,
  volumeStyleMetadata,
  zoneMetadata,
} from "../../../stacks/kafka/upstream";

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
const res = (cpu: string, memory: string) => ({ requests: { cpu, memory }, limits: { cpu, memory } });
const BROKERS: Workload = {
  groupKey: "brokerNodeGroup",
  group: "brokers",
  countKey: "brokers",
  count: 3,
  dedicated: true,
  resourcesKey: "brokerResources",
  resources: res("7", "48Gi"),
  role: "brokers",
};
const CONTROLLERS: Workload = {
  groupKey: "controllerNodeGroup",
  group: "system",
  count: 1,
  dedicated: false,
  resourcesKey: "controllerResources",
  resources: res("1", "2Gi"),
  role: "controllers",
};
const CLIENTS: Workload = {
  groupKey: "clientNodeGroup",
  group: "clients",
  countKey: "ombWorkers",
  count: 4,
  dedicated: true,
  resourcesKey: "workerResources",
  resources: res("5", "12Gi"),
  role: "OMB workers",
};
const lines = (ps: Parameters<typeof formatArgProblem>[0][]) => ps.map((p) => formatArgProblem(p, userKey));

describe("kafka's upstream checks", () => {
  test("the shipped layout fits; the samples get the brokers' and clients' instance types", () => {
    expect(placementProblems(GROUPS, [BROKERS, CONTROLLERS, CLIENTS])).toEqual([]);
    expect(placementOf(GROUPS, { brokerNodeGroup: "brokers", controllerNodeGroup: "system", clientNodeGroup: "clients" })).toEqual({
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
    const inZone = (zone: string) => [BROKERS, CONTROLLERS, CLIENTS].map((w) => (w.dedicated ? { ...w, zone } : w));
    expect(placementProblems(inA, inZone("us-east-1a"))).toEqual([]);
    const wrong = (key: string, name: string, zones: string, zone: string) =>
      `'lab:${key}' must be a node group of 'lab:eksStack' in the file system's preferred zone ${zone} only ('lab:zonePlacement' preferred; it runs in ${zones}): give it that zone ("zone" in the eks stack's lab:nodeGroups), or set 'lab:zonePlacement' to spread, got "${name}"`;
    expect(lines(placementProblems(inA, inZone("us-east-1b")))).toEqual([
      wrong("brokerNodeGroup", "brokers", "us-east-1a", "us-east-1b"),
      wrong("clientNodeGroup", "clients", "us-east-1a", "us-east-1b"),
    ]);
    expect(lines(placementProblems(GROUPS, inZone("us-east-1a")))).toEqual([
      wrong("brokerNodeGroup", "brokers", "us-east-1a, us-east-1b", "us-east-1a"),
      wrong("clientNodeGroup", "clients", "us-east-1a, us-east-1b", "us-east-1a"),
    ]);
  });

  test("the samples' zones (the configured placement, so marked): every broker and worker in the preferred zone, or the groups' zones when spread", () => {
    expect(zoneMetadata("preferred", "us-east-1a", { brokerGroupZones: ["us-east-1a"], clientGroupZones: ["us-east-1a"] }, 3, 4)).toEqual({
      zoneSource: "configured",
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
      zoneSource: "configured",
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

  test("brokers and clients on dedicated groups only, one pod a node: every problem, each naming its key", () => {
    const groups = [
      group("system", "m5.large", 3, false),
      group("brokers", "i3en.2xlarge", 2, false),
      group("clients", "c5n.2xlarge", 4, true),
    ];
    expect(lines(placementProblems(groups, [BROKERS, CONTROLLERS, { ...CLIENTS, count: 5 }]))).toEqual([
      "'lab:brokerNodeGroup' must be a dedicated node group of 'lab:eksStack' (tainted storage-bench-lab/node-group=brokers:NoSchedule), so no other pod shares the brokers' nodes, got \"brokers\"",
      "'lab:brokers' must be at most the 2 node(s) of node group 'brokers' ('lab:brokerNodeGroup'), one a node, got 3",
      "'lab:ombWorkers' must be at most the 4 node(s) of node group 'clients' ('lab:clientNodeGroup'), one a node, got 5",
    ]);
  });

  test("a group without its label is not the group", () => {
    const unlabelled = GROUPS.map((g) => (g.name === "clients" ? { ...g, labels: { "storage-bench-lab/role": "worker" } } : g));
    expect(lines(placementProblems(unlabelled, [CLIENTS]))).toEqual([
      "'lab:clientNodeGroup' must be a node group of 'lab:eksStack' labelled storage-bench-lab/node-group=<name> (its groups: system, brokers, clients), got \"clients\"",
    ]);
  });

  test("requests above the instance type's vCPUs or memory never schedule (i3en.2xlarge: 8 vCPU, 64 GiB; c5n.2xlarge: 8, 21)", () => {
    expect(
      lines(
        placementProblems(GROUPS, [
          { ...BROKERS, resources: res("9", "65Gi") },
          { ...CLIENTS, resources: res("8", "22Gi") },
        ]),
      ),
    ).toEqual([
      "'lab:brokerResources.requests.cpu' must be at most the 8 vCPUs of i3en.2xlarge, the instance type of node group 'brokers' ('lab:brokerNodeGroup'), got \"9\"",
      "'lab:brokerResources.requests.memory' must be at most the 64 GiB of i3en.2xlarge, the instance type of node group 'brokers' ('lab:brokerNodeGroup'), got \"65Gi\"",
      "'lab:workerResources.requests.memory' must be at most the 21 GiB of c5n.2xlarge, the instance type of node group 'clients' ('lab:clientNodeGroup'), got \"22Gi\"",
    ]);
    expect(placementProblems(GROUPS, [{ ...BROKERS, resources: res("8000m", "64Gi") }])).toEqual([]);
  });

  test("the OMB driver: its requests fit the clients' instance type, with a worker's where a worker runs on every node (c5n.2xlarge: 8 vCPU, 21 GiB)", () => {
    const worker = res("5", "12Gi");
    // shipped: 4 workers on 4 nodes, the driver (1 CPU, 4Gi) beside one: 6 CPU, 16 GiB
    expect(driverPlacementProblems(GROUPS, "clients", 4, worker, res("1", "4Gi"))).toEqual([]);
    expect(lines(driverPlacementProblems(GROUPS, "clients", 4, worker, res("3.5", "10Gi")))).toEqual([
      "'lab:driverResources.requests.cpu' must be at most the 8 vCPUs of c5n.2xlarge, the instance type of node group 'clients' ('lab:clientNodeGroup') less an OMB worker's request (5): a worker runs on each of its 4 node(s) ('lab:ombWorkers' 4), so the driver shares a node with one, got \"3.5\"",
      "'lab:driverResources.requests.memory' must be at most the 21 GiB of c5n.2xlarge, the instance type of node group 'clients' ('lab:clientNodeGroup') less an OMB worker's request (12Gi): a worker runs on each of its 4 node(s) ('lab:ombWorkers' 4), so the driver shares a node with one, got \"10Gi\"",
    ]);
    // three workers on four nodes: one node is the driver's alone
    expect(driverPlacementProblems(GROUPS, "clients", 3, worker, res("3.5", "10Gi"))).toEqual([]);
    expect(lines(driverPlacementProblems(GROUPS, "clients", 3, worker, res("16", "4Gi")))).toEqual([
      "'lab:driverResources.requests.cpu' must be at most the 8 vCPUs of c5n.2xlarge, the instance type of node group 'clients' ('lab:clientNodeGroup'), got \"16\"",
    ]);
    // a group the eks stack lacks is placementProblems' to name
    expect(driverPlacementProblems(GROUPS, "nowhere", 4, worker, res("16", "64Gi"))).toEqual([]);
  });

  test("the data volumes: on the file system, ONTAP's case-insensitive junction paths", () => {
    const vols = [1, 2].map((i) => ({ junctionPath: `/kafkafsxN${i}` }));
    expect(dataVolumeProblems(vols, ["/kafkafsxN1", "/kafkafsxN2"])).toEqual([]);
    expect(lines(dataVolumeProblems([], ["/kafkafsxN1"]))).toEqual([
      "'lab:dataVolumes[0]' must be a junction path of a volume of 'lab:fsxOntapStack' (its junction paths: none), got \"/kafkafsxN1\"",
    ]);
    expect(lines(dataVolumeProblems(vols, ["/kafkafsxN1", "/KAFKAFSXN1", "/kafkafsxn2"]))).toEqual([
      "'lab:dataVolumes[1]' must be another volume than entry 0 of 'lab:dataVolumes' (ONTAP junction paths are case-insensitive), got \"/KAFKAFSXN1\"",
      "'lab:dataVolumes[1]' must be spelled as 'lab:fsxOntapStack' has it (/kafkafsxN1): ONTAP junction paths are case-insensitive, got \"/KAFKAFSXN1\"",
      "'lab:dataVolumes[2]' must be spelled as 'lab:fsxOntapStack' has it (/kafkafsxN2): ONTAP junction paths are case-insensitive, got \"/kafkafsxn2\"",
    ]);
  });

  test("the NFS endpoint", () => {
    expect(nfsEndpointProblems({ dnsName: "svm.fs.example" }, "x")).toEqual([]);
    expect(lines(nfsEndpointProblems(null, "org/p/kafka-ontap"))).toEqual([
      "'lab:fsxOntapStack' must be the name of an fsx-ontap stack whose SVM has an NFS endpoint (it reports none), got \"org/p/kafka-ontap\"",
    ]);
  });
});

describe("volumeStyleMetadata: the brokers' volumes' layout in every sample", () => {
  const fg = (p: string, n = 8) => ({ junctionPath: p, style: "FLEXGROUP", constituentsPerAggregate: n });
  test("one layout, or each volume's, or none from a stack that predates the export", () => {
    expect(volumeStyleMetadata([fg("/a"), fg("/b")], ["/a", "/B"])).toEqual({ fsxVolumeStyle: "FLEXGROUP, 8 constituents per aggregate" });
    expect(volumeStyleMetadata([fg("/a"), { junctionPath: "/b", style: "FLEXVOL" }], ["/a", "/b"])).toEqual({
      fsxVolumeStyle: "/a: FLEXGROUP, 8 constituents per aggregate; /b: FLEXVOL",
    });
    expect(volumeStyleMetadata([fg("/a"), { junctionPath: "/b" }], ["/a", "/b"])).toEqual({});
    // a volume the brokers do not use does not count
    expect(volumeStyleMetadata([fg("/a"), { junctionPath: "/x" }], ["/a"])).toEqual({
      fsxVolumeStyle: "FLEXGROUP, 8 constituents per aggregate",
    });
  });
});
