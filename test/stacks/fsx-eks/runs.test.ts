/** The fsx-eks kind's runs, their zones, the upstream checks and the Docker check (pure parts of the kind). */
import { ConfigError } from "../../../core/errors";
import { benchRuns, runZoneProblems, runZones } from "../../../stacks/fsx-eks/runs";
import { dockerCanBuild, nfsDataLif, nfsDataLifProblems, requireDocker, toolsRepositoryName } from "../../../stacks/fsx-eks";
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

  test("the ECR repository is per stack, lowercase", () => {
    expect(toolsRepositoryName("fsx-eks")).toBe("storage-bench-lab/fsx-eks/bench-tools");
    expect(toolsRepositoryName("My Stack")).toBe("storage-bench-lab/my-stack/bench-tools");
  });

  test("no Docker daemon: one config error naming lab:toolsImage and what to do", () => {
    const none = {
      env: {},
      homeDir: "/nonexistent",
      os: "linux",
      arch: "x64",
      exists: () => false,
      readFile: () => undefined,
      get: () => Promise.reject(new Error("not called")),
    };
    expect(() => requireDocker(none)).toThrow(
      new ConfigError([
        "'lab:toolsImage' must be a pinned image with fio and ioping when this machine has no Docker daemon to build one (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): start Docker, or build components/bench/image/Dockerfile elsewhere, push it and set lab:toolsImage to its reference, got nothing",
      ]),
    );
    expect(() => requireDocker({ ...none, env: { DOCKER_HOST: "unix:///run/user/1000/docker.sock" } })).not.toThrow();
  });

  test("a daemon that does not answer: the image's wait fails with one config error naming lab:toolsImage and the daemon's problem", async () => {
    const dead = {
      env: { DOCKER_HOST: "unix:///run/user/1000/docker.sock" },
      homeDir: "/nonexistent",
      os: "linux",
      arch: "x64",
      exists: () => false,
      readFile: () => undefined,
      get: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED /run/user/1000/docker.sock"), { code: "ECONNREFUSED" })),
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const value = (dockerCanBuild(dead) as any).promise() as Promise<unknown>;
    await expect(value).rejects.toThrow(
      new ConfigError([
        "'lab:toolsImage' must be a pinned image with fio and ioping when this machine cannot build one: the Docker daemon at unix:///run/user/1000/docker.sock (DOCKER_HOST) does not answer (connect ECONNREFUSED /run/user/1000/docker.sock): start it (e.g. sudo systemctl start docker), or install and start Docker Engine (https://docs.docker.com/engine/install/), or build components/bench/image/Dockerfile elsewhere, push it and set lab:toolsImage to its reference, got nothing",
      ]),
    );
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
    ]);
  });

  test("eks and fsx-eks", () => {
    expect(Object.keys(eksOutputs)).toEqual([
      "kubeconfig",
      "clusterName",
      "kubernetesVersion",
      "nodeSecurityGroupId",
      "clusterSecurityGroupId",
      "zones",
      "instanceType",
      "nodeGroups",
      "tridentRoleName",
      "tridentInstall",
      "tridentVersion",
      "tridentNodePrep",
    ]);
    expect(eksOutputs.zones.safeParse(["us-east-1a"]).success).toBe(false);
    expect(eksOutputs.kubernetesVersion.safeParse("1.35").success).toBe(true);
    expect(Object.keys(fsxEksOutputs)).toEqual(["backendNames", "storageClasses", "mysql", "toolsImage", "benchmarks"]);
  });
});
