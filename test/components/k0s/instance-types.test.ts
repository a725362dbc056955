/** The instance-type table: hypervisor, vCPUs and memory (AWS instance type specifications), EBS optimization. */
import { ebsOptimizedArg, hypervisorOf, INSTANCE_TYPES, instanceTypeInfo } from "../../../components/k0s/instance-types";

describe("hypervisor (AWS 'Instances built on the AWS Nitro System')", () => {
  test.each([
    ["m4.xlarge", "xen"],
    ["m4.16xlarge", "xen"],
    ["c4.8xlarge", "xen"],
    ["r4.large", "xen"],
    ["t2.micro", "xen"],
    ["m3.medium", "xen"],
    ["i3.large", "xen"],
    ["i3.metal", "nitro"],
    ["m5.xlarge", "nitro"],
    ["m5d.2xlarge", "nitro"],
    ["t3.micro", "nitro"],
    ["i3en.3xlarge", "nitro"],
    ["m7i.metal-48xl", "nitro"],
    ["c6i.32xlarge", "nitro"],
    ["m6g.large", undefined], // Graviton: arm64, the nodes boot an amd64 image
    ["g5.xlarge", undefined], // a GPU family: not in the table
    ["m1.small", undefined], // PV only
    ["m5", undefined],
    ["M5.xlarge", undefined],
    ["m5.huge", undefined],
    ["m5.xlarge ", undefined],
    ["m5.32xlarge", undefined], // m5 stops at 24xlarge
    ["toString", undefined],
  ])("%s → %s", (type, expected) => {
    expect(hypervisorOf(type)).toBe(expected);
  });
});

describe("vCPUs and memory (AWS instance type specifications)", () => {
  test.each([
    ["m4.large", 2, 8],
    ["m4.xlarge", 4, 16],
    ["m4.10xlarge", 40, 160],
    ["m4.16xlarge", 64, 256],
    ["m5.xlarge", 4, 16],
    ["m5.24xlarge", 96, 384],
    ["m5.metal", 96, 384],
    ["c4.xlarge", 4, 7.5],
    ["c4.8xlarge", 36, 60],
    ["c5.9xlarge", 36, 72],
    ["c5.18xlarge", 72, 144],
    ["r4.large", 2, 15.25],
    ["r4.16xlarge", 64, 488],
    ["r5.xlarge", 4, 32],
    ["r6i.metal", 128, 1024],
    ["m3.xlarge", 4, 15],
    ["c3.8xlarge", 32, 60],
    ["t2.micro", 1, 1],
    ["t2.xlarge", 4, 16],
    ["t3.micro", 2, 1],
    ["t3a.2xlarge", 8, 32],
    ["i3.metal", 72, 512],
    ["i3en.3xlarge", 12, 96],
    ["m6a.48xlarge", 192, 768],
    ["m7i.metal-24xl", 96, 384],
  ])("%s: %d vCPUs, %d GiB", (type, vcpus, memoryGiB) => {
    expect(instanceTypeInfo(type)).toMatchObject({ vcpus, memoryGiB });
  });

  test("every row is whole: a known family, a size, a hypervisor, positive vCPUs and memory", () => {
    for (const [type, info] of Object.entries(INSTANCE_TYPES)) {
      expect(type).toBe(`${info.family}.${info.size}`);
      expect(["xen", "nitro"]).toContain(info.hypervisor);
      expect(Number.isInteger(info.vcpus) && info.vcpus > 0).toBe(true);
      expect(info.memoryGiB).toBeGreaterThan(0);
    }
    expect(Object.keys(INSTANCE_TYPES)).toHaveLength(172);
  });
});

describe("EBS optimization (EC2 User Guide, 'Amazon EBS-optimized instance types')", () => {
  test("asked for wherever the type can be EBS-optimized, never where it cannot (RunInstances fails 'Unsupported')", () => {
    const unsupported = Object.keys(INSTANCE_TYPES).filter((t) => ebsOptimizedArg(t) === undefined);
    expect(unsupported.sort()).toEqual(
      [
        "c3.8xlarge",
        "c3.large",
        "m3.large",
        "m3.medium",
        "r3.8xlarge",
        "r3.large",
        "t2.2xlarge",
        "t2.large",
        "t2.medium",
        "t2.micro",
        "t2.nano",
        "t2.small",
        "t2.xlarge",
      ].sort(),
    );
    for (const [type, info] of Object.entries(INSTANCE_TYPES)) {
      expect(ebsOptimizedArg(type)).toBe(info.ebsOptimization === "unsupported" ? undefined : true);
      if (info.hypervisor === "nitro") expect(info.ebsOptimization).toBe("default");
    }
  });

  test("on by default on m4 and every Nitro type; on request on the larger m3, c3, r3", () => {
    expect(
      ["m4.xlarge", "m5.xlarge", "c4.large", "r4.large", "i3.large", "t3.micro"].map((t) => instanceTypeInfo(t)?.ebsOptimization),
    ).toEqual(["default", "default", "default", "default", "default", "default"]);
    expect(
      ["m3.xlarge", "m3.2xlarge", "c3.xlarge", "c3.4xlarge", "r3.xlarge", "r3.4xlarge"].map((t) => instanceTypeInfo(t)?.ebsOptimization),
    ).toEqual(["supported", "supported", "supported", "supported", "supported", "supported"]);
    expect(ebsOptimizedArg("not-a-type")).toBeUndefined();
  });
});
