/** The fsx-eks kind's runs, their zones and the upstream checks (pure parts of the kind). */
import { formatArgProblem } from "../../../core/errors";
import { userKey } from "../../../stacks/lib/config/load";
import { benchRuns, runZoneProblems, runZones } from "../../../stacks/fsx-eks/runs";
import { nfsDataLif, nfsDataLifProblems, toolsImageSourceProblems } from "../../../stacks/fsx-eks";
import { fsxOntapOutputs } from "../../../stacks/fsx-ontap/outputs";
import { eksOutputs } from "../../../stacks/eks/outputs";
import { fsxEksOutputs } from "../../../stacks/fsx-eks/outputs";

describe("benchmark runs", () => {
  test("seed (+ ioping) and latency, same and cross zone on FSx, same zone on gp3, in this order", () => {
    expect(
      benchRuns({ preferredZone: "us-east-1b", otherZone: "us-east-1a", nasStorageClass: "fsx-ontap-nas", gp3StorageClass: "gp3" }),
    ).toEqual([
      {
        name: "nas-same-seed",
        zone: "us-east-1b",
        zoneRelation: "same",
        storageClass: "fsx-ontap-nas",
        fioProfile: "seed",
        tools: ["fio", "ioping"],
      },
      {
        name: "nas-same-latency",
        zone: "us-east-1b",
        zoneRelation: "same",
        storageClass: "fsx-ontap-nas",
        fioProfile: "latency",
        tools: ["fio"],
      },
      {
        name: "nas-cross-seed",
        zone: "us-east-1a",
        zoneRelation: "cross",
        storageClass: "fsx-ontap-nas",
        fioProfile: "seed",
        tools: ["fio", "ioping"],
      },
      {
        name: "nas-cross-latency",
        zone: "us-east-1a",
        zoneRelation: "cross",
        storageClass: "fsx-ontap-nas",
        fioProfile: "latency",
        tools: ["fio"],
      },
      {
        name: "gp3-same-seed",
        zone: "us-east-1b",
        zoneRelation: "same",
        storageClass: "gp3",
        fioProfile: "seed",
        tools: ["fio", "ioping"],
      },
      { name: "gp3-same-latency", zone: "us-east-1b", zoneRelation: "same", storageClass: "gp3", fioProfile: "latency", tools: ["fio"] },
    ]);
  });

  test("zones: the file system's preferred and standby zones, both node zones; else a config problem naming the stack's key", () => {
    const stacks = { fsxOntapStack: "org/p/fsx", eksStack: "org/p/eks" };
    expect(runZones("us-east-1b", "us-east-1a")).toEqual({ preferredZone: "us-east-1b", otherZone: "us-east-1a" });
    expect(runZoneProblems("us-east-1b", "us-east-1a", ["us-east-1a", "us-east-1b"], stacks)).toEqual([]);
    expect(runZoneProblems("us-east-1a", "us-east-1a", ["us-east-1a", "us-east-1b"], stacks)).toEqual([
      "'lab:fsxOntapStack' must be the name of a Multi-AZ fsx-ontap stack (its preferred and standby zones are both us-east-1a): the cross-zone benchmark needs two zones, got \"org/p/fsx\"",
    ]);
    expect(runZoneProblems("us-east-1c", "us-east-1d", ["us-east-1a", "us-east-1b"], stacks)).toEqual([
      "'lab:eksStack' must be the name of an eks stack with nodes in the file system's preferred zone us-east-1c (its node zones: us-east-1a, us-east-1b), got \"org/p/eks\"",
      "'lab:eksStack' must be the name of an eks stack with nodes in the file system's standby zone us-east-1d (its node zones: us-east-1a, us-east-1b), got \"org/p/eks\"",
    ]);
  });

  test("Trident's data LIF is the SVM's first NFS address; none is a config problem naming lab:fsxOntapStack", () => {
    const ep = { dnsName: "svm.fs.fsx", ipAddresses: ["198.19.255.20", "198.19.255.21"] };
    expect(nfsDataLif(ep)).toBe("198.19.255.20");
    expect(nfsDataLifProblems(ep, "org/p/fsx")).toEqual([]);
    expect(nfsDataLifProblems(null, "org/p/fsx")).toEqual([
      "'lab:fsxOntapStack' must be the name of an fsx-ontap stack whose SVM has an NFS endpoint address (it reports none), got \"org/p/fsx\"",
    ]);
  });

  test("the tools image: lab:toolsImage, or the eks stack's images.tools; neither is one config error naming both keys", () => {
    const cfg = { eksStack: "organization/storage-bench-lab/fsx-eks-cluster" };
    const built =
      "123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-lab/fsx-eks-cluster/bench-tools:fio-3.33-ioping-1.3-0123456789ab@sha256:" +
      "a".repeat(64);
    expect(toolsImageSourceProblems({ ...cfg, toolsImage: "registry.example.com/lab/tools:1.0" }, undefined)).toEqual([]);
    expect(toolsImageSourceProblems(cfg, { tools: built })).toEqual([]);
    for (const images of [undefined, {}, { omb: built }])
      expect(toolsImageSourceProblems(cfg, images).map((p) => formatArgProblem(p, userKey))).toEqual([
        "'lab:toolsImage' must be a pinned image with fio and ioping when 'lab:eksStack' (organization/storage-bench-lab/fsx-eks-cluster) builds none (its output images has no tools): add tools to that eks stack's lab:images, or build components/bench/image/Dockerfile elsewhere, push it and set lab:toolsImage to its reference, got nothing",
      ]);
  });
});

describe("output schemas downstream kinds read", () => {
  test("fsx-ontap: the file system's id, SVM, secret, zones and NFS endpoint", () => {
    expect(fsxOntapOutputs.fileSystemId.safeParse("fs-0123456789abcdef0").success).toBe(true);
    expect(fsxOntapOutputs.fileSystemId.safeParse("fsvol-0123").success).toBe(false);
    expect(fsxOntapOutputs.fileSystemArn.safeParse("arn:aws:fsx:us-east-1:123456789012:file-system/fs-0123456789abcdef0").success).toBe(
      true,
    );
    expect(fsxOntapOutputs.fileSystemArn.safeParse("arn:aws:fsx:us-east-1:123456789012:volume/fs-0123456789abcdef0/fsvol-1").success).toBe(
      false,
    );
    expect(fsxOntapOutputs.nfsEndpoint.safeParse(null).success).toBe(true);
    expect(fsxOntapOutputs.nfsEndpoint.safeParse({ dnsName: "x", ipAddresses: [] }).success).toBe(true);
    expect(fsxOntapOutputs.nfsEndpoint.safeParse({ dnsName: "" }).success).toBe(false);
    expect(Object.keys(fsxOntapOutputs)).toEqual([
      "fileSystemId",
      "fileSystemArn",
      "svmId",
      "svmName",
      "managementEndpoint",
      "svmManagementEndpoint",
      "nfsEndpoint",
      "iscsiEndpoint",
      "preferredSubnetId",
      "preferredAz",
      "standbyAz",
      "securityGroupId",
      "kmsKeyArn",
      "credentialsSecretArn",
      "clientSubnetCidrs",
      "volumes",
      "throughputCapacityMBps",
      "maintenanceWindow",
    ]);
    // maintenanceWindow: optional (an fsx-ontap stack deployed before it existed), a weekly time and whole minutes
    expect(fsxOntapOutputs.maintenanceWindow.safeParse(undefined).success).toBe(true);
    expect(fsxOntapOutputs.maintenanceWindow.safeParse({ start: "7:02:00", minutes: 120 }).success).toBe(true);
    expect(fsxOntapOutputs.maintenanceWindow.safeParse({ start: "0:02:00", minutes: 120 }).success).toBe(false);
    expect(fsxOntapOutputs.maintenanceWindow.safeParse({ start: "7:02:00", minutes: 0 }).success).toBe(false);
  });

  test("eks and fsx-eks", () => {
    expect(Object.keys(eksOutputs)).toEqual([
      "kubeconfig",
      "clusterName",
      "kubernetesVersion",
      "nodeSecurityGroupId",
      "clusterSecurityGroupId",
      "serviceIpv4Cidr",
      "zones",
      "instanceType",
      "nodeGroups",
      "networkPolicyEnforced",
      "tridentRoleName",
      "tridentInstall",
      "tridentVersion",
      "tridentNodePrep",
      "images",
      "utilizationAccess",
    ]);
    // networkPolicyEnforced: optional (an eks stack deployed before it existed), a boolean
    expect(eksOutputs.networkPolicyEnforced.safeParse(undefined).success).toBe(true);
    expect(eksOutputs.networkPolicyEnforced.safeParse("true").success).toBe(false);
    // utilizationAccess: optional (an eks stack deployed before it existed), both names set
    expect(eksOutputs.utilizationAccess.safeParse(undefined).success).toBe(true);
    expect(eksOutputs.utilizationAccess.safeParse({ namespace: "kube-system", serviceAccount: "lab-utilization" }).success).toBe(true);
    expect(eksOutputs.utilizationAccess.safeParse({ namespace: "kube-system", serviceAccount: "" }).success).toBe(false);
    expect(eksOutputs.zones.safeParse(["us-east-1a"]).success).toBe(false);
    // images: optional (an eks stack deployed before it existed), each one pinned
    expect(eksOutputs.images.safeParse(undefined).success).toBe(true);
    expect(eksOutputs.images.safeParse({}).success).toBe(true);
    expect(eksOutputs.images.safeParse({ tools: "registry.example.com/lab/tools:latest" }).success).toBe(false);
    expect(eksOutputs.images.safeParse({ omb: "registry.example.com/lab/omb@sha256:" + "0".repeat(64) }).success).toBe(true);
    expect(eksOutputs.kubernetesVersion.safeParse("1.35").success).toBe(true);
    expect(Object.keys(fsxEksOutputs)).toEqual(["backendNames", "storageClasses", "mysql", "toolsImage", "benchmarks"]);
  });
});
