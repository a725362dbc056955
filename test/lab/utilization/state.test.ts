/**
 * lab/utilization/state.ts on exports made from the real stack programs (test/lab/utilization/support.ts): the
 * ceph-k0s `dev` and `nitro` stacks, the network they read, the fsx-eks experiment's file system;
 * an EKS managed node group as its state holds it (the group is a remote component: the plan does
 * not expand it).
 */
import type { StackPlan } from "../../../lab/plan/run";
import { infraFacts, resourcesOf, roleName, urnName, utilTargets, type StateResource } from "../../../lab/utilization/state";
import { exportOf, idOf, planShipped } from "./support";

let plans: Map<string, StackPlan>;
beforeAll(async () => {
  plans = await planShipped(["network", "dev", "nitro", "fsx-eks-ontap"]);
}, 120000);

/** What AWS adds to the ceph-k0s resources: the zone, the root volumes (gp3 defaults 3000 IOPS, 125 MiB/s). */
function cephExtra(plan: StackPlan) {
  const extra: Record<string, Record<string, unknown>> = {};
  for (const r of plan.resources.filter((x) => x.type === "aws:ec2/instance:Instance")) {
    extra[r.name] = {
      availabilityZone: "us-east-1a",
      rootBlockDevice: { ...(r.inputs.rootBlockDevice as object), volumeId: `vol-root-${r.name}`, iops: 3000, throughput: 125 },
    };
  }
  return extra;
}
const netExtra = {
  "lab-private-az1": { availabilityZoneId: "use1-az6" },
  "lab-private-az2": { availabilityZoneId: "use1-az1" },
  "lab-public-az1": { availabilityZoneId: "use1-az6" },
  "lab-public-az2": { availabilityZoneId: "use1-az1" },
};

describe("utilTargets", () => {
  it("dev (m4.xlarge, Xen): the controller and workers with detailed monitoring, their root volumes, the gp3 OSD volumes with their limits; no bastion", () => {
    const dev = plans.get("dev")!;
    const targets = utilTargets(resourcesOf("dev", exportOf(dev, cephExtra(dev))));
    const inst = (n: string) => idOf(dev, `ceph-${n}`, "aws:ec2/instance:Instance");
    const osd = (n: number) => idOf(dev, `ceph-osd-${n}`, "aws:ebs/volume:Volume");
    const ec2 = (n: string) => ({ kind: "ec2", resource: n, instanceId: inst(n), instanceType: "m4.xlarge", detailedMonitoring: true });
    const vol = (resource: string, volumeId: string, instanceId: string) => ({
      kind: "ebs",
      resource,
      volumeId,
      volumeType: "gp3",
      iops: 3000,
      throughputMiBps: 125,
      instanceId,
      instanceType: "m4.xlarge",
      hypervisor: "xen",
    });
    expect(targets).toEqual([
      ec2("controller"),
      vol("osd-1", osd(1), inst("worker-1")),
      vol("osd-2", osd(2), inst("worker-2")),
      vol("osd-3", osd(3), inst("worker-3")),
      vol("root-controller", "vol-root-ceph-controller", inst("controller")),
      vol("root-worker-1", "vol-root-ceph-worker-1", inst("worker-1")),
      vol("root-worker-2", "vol-root-ceph-worker-2", inst("worker-2")),
      vol("root-worker-3", "vol-root-ceph-worker-3", inst("worker-3")),
      ec2("worker-1"),
      ec2("worker-2"),
      ec2("worker-3"),
    ]);
  });

  it("nitro (m5.xlarge): the same resources on Nitro", () => {
    const nitro = plans.get("nitro")!;
    const targets = utilTargets(resourcesOf("nitro", exportOf(nitro, cephExtra(nitro))));
    expect(targets.filter((t) => t.kind === "ebs").map((t) => [t.resource, t.kind === "ebs" && t.hypervisor])).toEqual([
      ["osd-1", "nitro"],
      ["osd-2", "nitro"],
      ["osd-3", "nitro"],
      ["root-controller", "nitro"],
      ["root-worker-1", "nitro"],
      ["root-worker-2", "nitro"],
      ["root-worker-3", "nitro"],
    ]);
  });

  it("fsx-eks-ontap: the file system with its throughput capacity, HA pairs, deployment type and SSD IOPS", () => {
    const fsx = plans.get("fsx-eks-ontap")!;
    // AWS reports the HA pairs and the automatic IOPS (3 per GiB of the 1024 GiB).
    const targets = utilTargets(
      resourcesOf("fsx-eks-ontap", exportOf(fsx, { "fsx-fs": { haPairs: 1, diskIopsConfiguration: { mode: "AUTOMATIC", iops: 3072 } } })),
    );
    expect(targets).toEqual([
      {
        kind: "fsx",
        resource: "fsx",
        fileSystemId: idOf(fsx, "fsx-fs", "aws:fsx/ontapFileSystem:OntapFileSystem"),
        deploymentType: "MULTI_AZ_1",
        throughputCapacityMBps: 512,
        haPairs: 1,
        diskIops: 3072,
      },
    ]);
  });

  it("fsx-eks-ontap: the file system's zones are its two subnets' (Multi-AZ)", () => {
    const fsx = plans.get("fsx-eks-ontap")!;
    const own = resourcesOf("fsx-eks-ontap", exportOf(fsx));
    const all = [...own, ...resourcesOf("network", exportOf(plans.get("network")!, netExtra))];
    expect(infraFacts(own, all)).toMatchObject({
      azs: ["us-east-1a", "us-east-1b"],
      azIds: ["use1-az1", "use1-az6"],
      amiIds: [],
      instanceTypes: [],
    });
  });

  it("an EKS managed node group: its Auto Scaling group, monitored in detail when its launch template says so", () => {
    const parent = "urn:pulumi:fsx-eks-cluster::storage-bench-lab::eks:index:ManagedNodeGroup::eks-nodes";
    const resources: StateResource[] = [
      {
        urn: "urn:pulumi:fsx-eks-cluster::storage-bench-lab::aws:ec2/launchTemplate:LaunchTemplate::eks-nodes",
        type: "aws:ec2/launchTemplate:LaunchTemplate",
        id: "lt-0abc",
        outputs: { monitoring: { enabled: true } },
      },
      {
        urn: `${parent}$aws:eks/nodeGroup:NodeGroup::eks-nodes`,
        type: "aws:eks/nodeGroup:NodeGroup",
        id: "lab-eks:eks-nodes-0123",
        parent,
        outputs: {
          instanceTypes: ["m5.xlarge"],
          amiType: "AL2023_x86_64_STANDARD",
          releaseVersion: "1.35.0-20260101",
          launchTemplate: { id: "lt-0abc", version: "1" },
          resources: [{ autoscalingGroups: [{ name: "eks-eks-nodes-0123-abcd" }], remoteAccessSecurityGroupId: "" }],
          subnetIds: ["subnet-a", "subnet-b"],
        },
      },
    ];
    expect(utilTargets(resources)).toEqual([
      {
        kind: "asg",
        resource: "eks-nodes",
        autoScalingGroupName: "eks-eks-nodes-0123-abcd",
        instanceTypes: ["m5.xlarge"],
        detailedMonitoring: true,
      },
    ]);
    expect(
      infraFacts(resources, [
        ...resources,
        {
          urn: "u::subnet-a",
          type: "aws:ec2/subnet:Subnet",
          id: "subnet-a",
          outputs: { availabilityZone: "us-east-1a", availabilityZoneId: "use1-az6" },
        },
      ]),
    ).toEqual({
      azs: ["us-east-1a"],
      azIds: ["use1-az6"],
      amiIds: ["AL2023_x86_64_STANDARD/1.35.0-20260101"],
      instanceTypes: ["m5.xlarge"],
      images: [],
      regions: [],
    });
  });
});

describe("infraFacts", () => {
  it("dev: zone and zone id through the network's subnets, AMI, instance types, the benchmark Jobs' images", () => {
    const dev = plans.get("dev")!;
    const net = plans.get("network")!;
    const own = resourcesOf("dev", exportOf(dev, cephExtra(dev)));
    const all = [...own, ...resourcesOf("network", exportOf(net, netExtra))];
    const f = infraFacts(own, all);
    expect(f.azs).toEqual(["us-east-1a"]);
    expect(f.azIds).toEqual(["use1-az6"]);
    expect(f.instanceTypes).toEqual(["m4.xlarge", "t3.micro"]);
    expect(f.amiIds).toHaveLength(1);
    expect(f.amiIds[0]).toMatch(/^ami-/);
    expect(f.images).toEqual(["docker.io/library/postgres:17.11-bookworm"]);
    expect(f.regions).toEqual(["us-east-1"]);
  });

  it("without the network's export the zone ids are unknown, the zone names still read", () => {
    const dev = plans.get("dev")!;
    const own = resourcesOf("dev", exportOf(dev, cephExtra(dev)));
    expect(infraFacts(own, own)).toMatchObject({ azs: ["us-east-1a"], azIds: [] });
  });
});

describe("reading exports", () => {
  it("names resources by their URN and without their component's prefix; refuses an export without resources", () => {
    const r: StateResource = {
      urn: "urn:pulumi:dev::p::lab:k0s:K0sCluster$aws:ebs/volume:Volume::ceph-osd-2",
      type: "aws:ebs/volume:Volume",
      parent: "urn:pulumi:dev::p::lab:k0s:K0sCluster::ceph",
    };
    expect([urnName(r.urn), roleName(r), roleName({ ...r, parent: undefined })]).toEqual(["ceph-osd-2", "osd-2", "ceph-osd-2"]);
    expect(() => resourcesOf("dev", {})).toThrow("stack dev: its export has no deployment.resources (not deployed, or not a stack export)");
  });
});
