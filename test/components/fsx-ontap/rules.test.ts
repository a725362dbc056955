import {
  FORCE_NEW_ARGS,
  OntapSizing,
  THROUGHPUT_PER_HA_PAIR_MBPS,
  automaticIops,
  credentialsSecretString,
  maxSsdIops,
  provisioningRatio,
  sizingProblems,
  storageBoundsGiB,
  throughputArgs,
  volumeProblems,
} from "../../../components/fsx-ontap/rules";

const base: OntapSizing = {
  deploymentType: "MULTI_AZ_1",
  storageCapacityGiB: 1024,
  throughputCapacityMBps: 512,
  haPairs: 1,
  diskIopsMode: "AUTOMATIC",
};
const s = (over: Partial<OntapSizing>): OntapSizing => ({ ...base, ...over });

describe("sizing rules: every deployment type × throughput, storage bounds, IOPS limits", () => {
  test.each<[string, OntapSizing, string[]]>([
    // deployment type × throughput
    ["MULTI_AZ_1 512 MBps (the EKS experiment)", s({}), []],
    [
      "MULTI_AZ_1 4096 MBps, 5120 GiB, 160 000 IOPS (the Kafka experiment)",
      s({ storageCapacityGiB: 5120, throughputCapacityMBps: 4096, diskIopsMode: "USER_PROVISIONED", diskIops: 160_000 }),
      [],
    ],
    [
      "MULTI_AZ_1 rejects a second-generation level",
      s({ throughputCapacityMBps: 384 }),
      ["'throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for deploymentType MULTI_AZ_1, got 384"],
    ],
    [
      "SINGLE_AZ_1 rejects 6144",
      s({ deploymentType: "SINGLE_AZ_1", throughputCapacityMBps: 6144 }),
      ["'throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for deploymentType SINGLE_AZ_1, got 6144"],
    ],
    ["SINGLE_AZ_1 128 MBps", s({ deploymentType: "SINGLE_AZ_1", throughputCapacityMBps: 128 }), []],
    [
      "MULTI_AZ_2 rejects a first-generation level",
      s({ deploymentType: "MULTI_AZ_2", throughputCapacityMBps: 512 }),
      ["'throughputCapacityMBps' must be one of 384, 768, 1536, 3072, 6144 (MBps) for deploymentType MULTI_AZ_2, got 512"],
    ],
    ["MULTI_AZ_2 384 MBps", s({ deploymentType: "MULTI_AZ_2", throughputCapacityMBps: 384 }), []],
    [
      "MULTI_AZ_2 has one HA pair",
      s({ deploymentType: "MULTI_AZ_2", throughputCapacityMBps: 6144, haPairs: 2 }),
      ["'haPairs' must be 1 for deploymentType MULTI_AZ_2 (only SINGLE_AZ_2 has more than one HA pair), got 2"],
    ],
    [
      "MULTI_AZ_1 has one HA pair",
      s({ haPairs: 2 }),
      ["'haPairs' must be 1 for deploymentType MULTI_AZ_1 (only SINGLE_AZ_2 has more than one HA pair), got 2"],
    ],
    [
      "SINGLE_AZ_2 rejects 768 (API reference: 1536, 3072, 6144 only)",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 768 }),
      ["'throughputCapacityMBps' must be one of 1536, 3072, 6144 (MBps per HA pair) for deploymentType SINGLE_AZ_2, got 768"],
    ],
    [
      "SINGLE_AZ_2 up to 12 HA pairs",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 3072, haPairs: 13, storageCapacityGiB: 13_312 }),
      ["'haPairs' must be an integer from 1 to 12 for deploymentType SINGLE_AZ_2, got 13"],
    ],
    [
      "SINGLE_AZ_2 12 HA pairs × 6144 MBps",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 6144, haPairs: 12, storageCapacityGiB: 12_288 }),
      [],
    ],
    // storage bounds
    [
      "storage below 1024 GiB",
      s({ storageCapacityGiB: 1000 }),
      ["'storageCapacityGiB' must be a whole number of GiB from 1024 to 196608 for deploymentType MULTI_AZ_1, got 1000"],
    ],
    [
      "first generation up to 192 TiB",
      s({ storageCapacityGiB: 196_609 }),
      ["'storageCapacityGiB' must be a whole number of GiB from 1024 to 196608 for deploymentType MULTI_AZ_1, got 196609"],
    ],
    [
      "MULTI_AZ_2 up to 512 TiB",
      s({ deploymentType: "MULTI_AZ_2", throughputCapacityMBps: 1536, storageCapacityGiB: 524_289 }),
      ["'storageCapacityGiB' must be a whole number of GiB from 1024 to 524288 for deploymentType MULTI_AZ_2, got 524289"],
    ],
    [
      "SINGLE_AZ_2 needs 1024 GiB per HA pair",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 1536, haPairs: 3, storageCapacityGiB: 2048 }),
      [
        "'storageCapacityGiB' must be a whole number of GiB from 3072 (1024 per HA pair) to 1048576 for deploymentType SINGLE_AZ_2 with 3 HA pairs, got 2048",
      ],
    ],
    [
      "SINGLE_AZ_2 with one HA pair stops at 512 TiB",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 1536, storageCapacityGiB: 600_000 }),
      ["'storageCapacityGiB' must be a whole number of GiB from 1024 to 524288 for deploymentType SINGLE_AZ_2 with 1 HA pair, got 600000"],
    ],
    // IOPS
    [
      "USER_PROVISIONED needs diskIops",
      s({ diskIopsMode: "USER_PROVISIONED" }),
      ["'diskIops' must be set (a whole number of SSD IOPS) when diskIopsMode is USER_PROVISIONED, got nothing"],
    ],
    [
      "AUTOMATIC takes no diskIops",
      s({ diskIops: 5000 }),
      ["'diskIops' must be unset when diskIopsMode is AUTOMATIC (FSx provisions 3 SSD IOPS per GiB), got 5000"],
    ],
    [
      "at least 3 IOPS per GiB",
      s({ diskIopsMode: "USER_PROVISIONED", diskIops: 3000 }),
      ["'diskIops' must be at least 3072 (3 SSD IOPS per GiB of storageCapacityGiB 1024), got 3000"],
    ],
    [
      "at most 50 IOPS per GiB",
      s({ throughputCapacityMBps: 2048, diskIopsMode: "USER_PROVISIONED", diskIops: 60_000 }),
      ["'diskIops' must be at most 51200 (50 SSD IOPS per GiB of storageCapacityGiB 1024), got 60000"],
    ],
    [
      "at most what a 1024 MBps file server supports",
      s({ storageCapacityGiB: 2048, throughputCapacityMBps: 1024, diskIopsMode: "USER_PROVISIONED", diskIops: 60_000 }),
      ["'diskIops' must be at most 40000 (the most SSD IOPS a 1024 MBps MULTI_AZ_1 file server can use), got 60000"],
    ],
    [
      "a level without a verified ceiling gets the API's (512 MBps: 40 000 IOPS on 2048 GiB passes)",
      s({ storageCapacityGiB: 2048, diskIopsMode: "USER_PROVISIONED", diskIops: 40_000 }),
      [],
    ],
    [
      "MULTI_AZ_2 768 MBps: the API's 200 000 per HA pair",
      s({
        deploymentType: "MULTI_AZ_2",
        throughputCapacityMBps: 768,
        storageCapacityGiB: 8192,
        diskIopsMode: "USER_PROVISIONED",
        diskIops: 210_000,
      }),
      ["'diskIops' must be at most 200000 (the FSx API's maximum, 200000 SSD IOPS per HA pair), got 210000"],
    ],
    [
      "160 000 IOPS need 4096 MBps",
      s({ storageCapacityGiB: 5120, throughputCapacityMBps: 2048, diskIopsMode: "USER_PROVISIONED", diskIops: 160_000 }),
      ["'diskIops' must be at most 80000 (the most SSD IOPS a 2048 MBps MULTI_AZ_1 file server can use), got 160000"],
    ],
    [
      "SINGLE_AZ_2 IOPS scale with HA pairs",
      s({
        deploymentType: "SINGLE_AZ_2",
        throughputCapacityMBps: 6144,
        haPairs: 2,
        storageCapacityGiB: 10_240,
        diskIopsMode: "USER_PROVISIONED",
        diskIops: 450_000,
      }),
      ["'diskIops' must be at most 400000 (the most SSD IOPS 2 HA pairs at 6144 MBps each can use), got 450000"],
    ],
    [
      "MULTI_AZ_2 6144 MBps, 200 000 IOPS on 4096 GiB",
      s({
        deploymentType: "MULTI_AZ_2",
        throughputCapacityMBps: 6144,
        storageCapacityGiB: 4096,
        diskIopsMode: "USER_PROVISIONED",
        diskIops: 200_000,
      }),
      [],
    ],
    [
      "every problem at once",
      s({
        deploymentType: "MULTI_AZ_2",
        throughputCapacityMBps: 500,
        haPairs: 4,
        storageCapacityGiB: 512,
        diskIopsMode: "USER_PROVISIONED",
      }),
      [
        "'haPairs' must be 1 for deploymentType MULTI_AZ_2 (only SINGLE_AZ_2 has more than one HA pair), got 4",
        "'throughputCapacityMBps' must be one of 384, 768, 1536, 3072, 6144 (MBps) for deploymentType MULTI_AZ_2, got 500",
        "'storageCapacityGiB' must be a whole number of GiB from 1024 to 524288 for deploymentType MULTI_AZ_2, got 512",
        "'diskIops' must be set (a whole number of SSD IOPS) when diskIopsMode is USER_PROVISIONED, got nothing",
      ],
    ],
  ])("%s", (_name, sizing, problems) => {
    expect(sizingProblems(sizing)).toEqual(problems);
  });

  test("messages name the keys the caller passes (config keys for the stack)", () => {
    const keys = {
      deploymentType: "lab:deploymentType",
      storageCapacityGiB: "lab:storageCapacityGiB",
      throughputCapacityMBps: "lab:throughputCapacityMBps",
      haPairs: "lab:haPairs",
      diskIopsMode: "lab:diskIopsMode",
      diskIops: "lab:diskIops",
    };
    expect(sizingProblems(s({ throughputCapacityMBps: 384 }), keys)).toEqual([
      "'lab:throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for lab:deploymentType MULTI_AZ_1, got 384",
    ]);
  });

  test("every documented throughput level of every type is accepted, and has an IOPS ceiling", () => {
    for (const [type, levels] of Object.entries(THROUGHPUT_PER_HA_PAIR_MBPS)) {
      for (const t of levels) {
        const sizing = s({ deploymentType: type as OntapSizing["deploymentType"], throughputCapacityMBps: t });
        expect([type, t, sizingProblems(sizing)]).toEqual([type, t, []]);
        expect(maxSsdIops(sizing.deploymentType, t, 1).iops).toBeGreaterThan(0);
      }
    }
  });

  test("storage bounds per type and HA pairs", () => {
    expect(storageBoundsGiB("MULTI_AZ_1", 1)).toEqual({ min: 1024, max: 196_608 });
    expect(storageBoundsGiB("SINGLE_AZ_1", 1)).toEqual({ min: 1024, max: 196_608 });
    expect(storageBoundsGiB("MULTI_AZ_2", 1)).toEqual({ min: 1024, max: 524_288 });
    expect(storageBoundsGiB("SINGLE_AZ_2", 2)).toEqual({ min: 2048, max: 1_048_576 });
    expect(storageBoundsGiB("SINGLE_AZ_2", 12)).toEqual({ min: 12_288, max: 1_048_576 });
  });

  test("AUTOMATIC IOPS: 3 per GiB, capped at the file server's ceiling", () => {
    expect(automaticIops(1024, "MULTI_AZ_1", 512, 1)).toBe(3072);
    expect(automaticIops(5120, "MULTI_AZ_1", 4096, 1)).toBe(15_360);
    expect(automaticIops(100_000, "MULTI_AZ_1", 128, 1)).toBe(6000);
  });
});

describe("throughput arguments (the failover lever must update in place)", () => {
  test("one-HA-pair types use throughputCapacity only: never the per-HA-pair form, which forces a new Gen1 file system when raised", () => {
    for (const t of ["MULTI_AZ_1", "SINGLE_AZ_1", "MULTI_AZ_2"] as const) {
      expect(throughputArgs({ deploymentType: t, throughputCapacityMBps: 1536, haPairs: 1 })).toEqual({ throughputCapacity: 1536 });
    }
  });
  test("SINGLE_AZ_2 uses haPairs and throughputCapacityPerHaPair", () => {
    expect(throughputArgs({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 3072, haPairs: 4 })).toEqual({
      haPairs: 4,
      throughputCapacityPerHaPair: 3072,
    });
  });
  test("throughput is not among the upstream ForceNew arguments", () => {
    expect(FORCE_NEW_ARGS).not.toContain("throughputCapacity");
    expect([...FORCE_NEW_ARGS].sort()).toEqual([
      "deploymentType",
      "endpointIpAddressRange",
      "kmsKeyId",
      "preferredSubnetId",
      "securityGroupIds",
      "storageType",
      "subnetIds",
    ]);
  });
});

describe("volumes", () => {
  const vol = (name: string, junctionPath: string, extra = {}) => ({ name, sizeGiB: 2048, junctionPath, ...extra });
  test("names and junction paths distinct, cooling period only with AUTO/SNAPSHOT_ONLY", () => {
    expect(
      volumeProblems([vol("a", "/a"), vol("A", "/b"), vol("c", "/a"), vol("d", "/d", { coolingPeriodDays: 10 })], "lab:volumes"),
    ).toEqual([
      "'lab:volumes[1].name' must be distinct from lab:volumes[0].name (ONTAP volume names ignore case), got \"A\"",
      "'lab:volumes[2].junctionPath' must be distinct from lab:volumes[0].junctionPath, got \"/a\"",
      "'lab:volumes[3].coolingPeriodDays' must be unset unless tieringPolicy is AUTO or SNAPSHOT_ONLY (it is NONE), got 10",
    ]);
    expect(volumeProblems([vol("d", "/d", { tieringPolicy: "AUTO", coolingPeriodDays: 10 })])).toEqual([]);
  });
  test("the Kafka layout is 2.4× thin-provisioned over its SSD tier", () => {
    const kafka = [1, 2, 3, 4, 5, 6].map((n) => vol(`kafkafsxN${n}`, `/kafkafsxN${n}`));
    expect(provisioningRatio(kafka, 5120)).toBe(2.4);
  });
});

describe("credentials secret", () => {
  test("valid JSON with exactly username and password, whatever the password holds", () => {
    for (const pw of ["Ab1_-.+=xyz", 'quote"back\\slash', "ünïcødé"]) {
      const text = credentialsSecretString("vsadmin", pw);
      expect(JSON.parse(text)).toEqual({ username: "vsadmin", password: pw });
      expect(Object.keys(JSON.parse(text))).toEqual(["username", "password"]);
    }
  });
});
