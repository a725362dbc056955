import { formatArgProblem } from "../../../core/errors";
import {
  API_MAX_HA_PAIRS,
  API_MAX_SSD_IOPS,
  ENDPOINT_RANGE_PREFIX_MAX,
  ENDPOINT_RANGE_PREFIX_MIN,
  FORCE_NEW_ARGS,
  FSX_ONTAP_DEFAULTS,
  FsxOntapSpec,
  MAX_BACKUP_RETENTION_DAYS,
  MAX_CLIENT_SECURITY_GROUPS,
  MAX_COOLING_DAYS,
  MAX_JUNCTION_PATH_LENGTH,
  MAX_VOLUME_GIB,
  MAX_VOLUMES,
  MIN_COOLING_DAYS,
  THROUGHPUT_PER_HA_PAIR_MBPS,
  automaticIops,
  flexGroupAggregates,
  credentialsSecretString,
  maxSsdIops,
  problems,
  provisioningRatio,
  resolve,
  storageBoundsGiB,
  throughputArgs,
} from "../../../components/fsx-ontap/rules";
import { ONTAP_INGRESS } from "../../../components/fsx-ontap/security";

type Spec = FsxOntapSpec<unknown>;
const base: FsxOntapSpec = {
  deploymentType: "MULTI_AZ_1",
  storageCapacityGiB: 1024,
  throughputCapacityMBps: 512,
  haPairs: 1,
  diskIopsMode: "AUTOMATIC",
};
const s = (over: Partial<Record<keyof Spec, unknown>>): Spec => ({ ...base, ...over }) as Spec;
/** Problems as a program using the component reads them (argument names). */
const lines = (spec: Spec) => problems(spec).map((p) => formatArgProblem(p));

describe("defaults: one table, applied by resolve", () => {
  test("the table", () => {
    expect(FSX_ONTAP_DEFAULTS).toEqual({
      deploymentType: "MULTI_AZ_1",
      storageCapacityGiB: 1024,
      haPairs: 1,
      diskIopsMode: "AUTOMATIC",
      preferredAz: 0,
      backupRetentionDays: 0,
      maintenanceWindow: "7:02:00",
      clientSecurityGroupIds: [],
      svmName: "svm1",
      volumes: [],
      skipFinalBackup: true,
      retainOnDelete: false,
      volume: { snapshotPolicy: "none", tieringPolicy: "NONE", storageEfficiency: true, style: "FLEXVOL" },
    });
  });

  test("only the throughput given: every other setting is its default", () => {
    const { volume: _volume, ...defaults } = FSX_ONTAP_DEFAULTS;
    expect(resolve({ throughputCapacityMBps: 512 })).toEqual({
      ...defaults,
      throughputCapacityMBps: 512,
      diskIops: undefined,
      kmsKeyArn: undefined,
      endpointIpAddressRange: undefined,
    });
  });

  test("volumes get their defaults; what is given wins", () => {
    const r = resolve({
      throughputCapacityMBps: 512,
      volumes: [
        { name: "a", sizeGiB: 10, junctionPath: "/a" },
        {
          name: "b",
          sizeGiB: 20,
          junctionPath: "/b",
          snapshotPolicy: "default",
          tieringPolicy: "AUTO",
          coolingPeriodDays: 7,
          storageEfficiency: false,
        },
      ],
    });
    expect(r.volumes).toEqual([
      {
        name: "a",
        sizeGiB: 10,
        junctionPath: "/a",
        snapshotPolicy: "none",
        tieringPolicy: "NONE",
        coolingPeriodDays: undefined,
        storageEfficiency: true,
        style: "FLEXVOL",
        constituentsPerAggregate: undefined,
      },
      {
        name: "b",
        sizeGiB: 20,
        junctionPath: "/b",
        snapshotPolicy: "default",
        tieringPolicy: "AUTO",
        coolingPeriodDays: 7,
        storageEfficiency: false,
        style: "FLEXVOL",
        constituentsPerAggregate: undefined,
      },
    ]);
  });

  test("a FlexGroup takes FSx's 8 constituents a aggregate unless given", () => {
    const r = resolve({
      throughputCapacityMBps: 512,
      volumes: [
        { name: "g", sizeGiB: 2048, junctionPath: "/g", style: "FLEXGROUP" },
        { name: "h", sizeGiB: 2048, junctionPath: "/h", style: "FLEXGROUP", constituentsPerAggregate: 4 },
      ],
    });
    expect(r.volumes.map((v) => [v.style, v.constituentsPerAggregate])).toEqual([
      ["FLEXGROUP", 8],
      ["FLEXGROUP", 4],
    ]);
  });
});

describe("FlexGroup volumes (FSx API CreateAggregateConfiguration; 100 GiB a constituent)", () => {
  const vol = (extra: Record<string, unknown>) => ({ name: "g", sizeGiB: 2048, junctionPath: "/g", ...extra });
  const lines = (spec: Parameters<typeof problems>[0]) => problems(spec).map((p) => formatArgProblem(p));

  test("NetApp's: 2 TiB, 8 constituents on aggr1; and the smallest that fits", () => {
    expect(lines({ throughputCapacityMBps: 512, volumes: [vol({ style: "FLEXGROUP", constituentsPerAggregate: 8 })] })).toEqual([]);
    expect(lines({ throughputCapacityMBps: 512, volumes: [vol({ style: "FLEXGROUP", sizeGiB: 800 })] })).toEqual([]);
    expect(flexGroupAggregates(1)).toEqual(["aggr1"]);
    expect(flexGroupAggregates(3)).toEqual(["aggr1", "aggr2", "aggr3"]);
    // The API names at most 6 aggregates: with more HA pairs FSx spreads the FlexGroup itself.
    expect(flexGroupAggregates(6)).toHaveLength(6);
    expect(flexGroupAggregates(7)).toBeUndefined();
  });

  test("every problem named: a style FSx has not, constituents on a FlexVol, out of range, a size below 100 GiB a constituent on every aggregate", () => {
    expect(
      lines({
        throughputCapacityMBps: 512,
        volumes: [
          vol({ style: "flexgroup" }),
          vol({ name: "h", junctionPath: "/h", constituentsPerAggregate: 8 }),
          vol({ name: "i", junctionPath: "/i", style: "FLEXGROUP", constituentsPerAggregate: 201 }),
          vol({ name: "j", junctionPath: "/j", style: "FLEXGROUP", sizeGiB: 799 }),
        ],
      }),
    ).toEqual([
      `'volumes[0].style' must be one of FLEXVOL, FLEXGROUP, got "flexgroup"`,
      "'volumes[1].constituentsPerAggregate' must be unset unless the volume's style is FLEXGROUP (it is FLEXVOL), got 8",
      "'volumes[2].constituentsPerAggregate' must be a whole number from 1 to 200, got 201",
      "'volumes[3].sizeGiB' must be a whole number of GiB from 800 to 2097151 for a FLEXGROUP of 8 constituents on each of 1 aggregate (100 GiB to 300 TiB a constituent, and 2097151 GiB, the API's SizeInMegabytes), got 799",
    ]);
    // A scale-out file system spreads the FlexGroup over every HA pair's aggregate: 4 × 8 × 100 GiB.
    const scaleOut = (volumes: ReturnType<typeof vol>[]) =>
      lines({ deploymentType: "SINGLE_AZ_2", haPairs: 4, throughputCapacityMBps: 3072, storageCapacityGiB: 8192, volumes });
    expect(scaleOut([vol({ style: "FLEXGROUP" })])).toEqual([
      "'volumes[0].sizeGiB' must be a whole number of GiB from 3200 to 2097151 for a FLEXGROUP of 8 constituents on each of 4 aggregates (100 GiB to 300 TiB a constituent, and 2097151 GiB, the API's SizeInMegabytes), got 2048",
    ]);
    // 200 constituents in all; a FlexGroup may be larger than a FlexVol.
    expect(
      scaleOut([
        vol({ style: "FLEXGROUP", constituentsPerAggregate: 51, sizeGiB: 500_000 }),
        vol({ name: "k", junctionPath: "/k", style: "FLEXGROUP", sizeGiB: 500_000 }),
      ]),
    ).toEqual(["'volumes[0].constituentsPerAggregate' must be at most 50 with 'haPairs' 4 (at most 200 constituents in all), got 51"]);
  });
});

describe("sizing rules: every deployment type × throughput, storage bounds, IOPS limits", () => {
  test.each<[string, Spec, string[]]>([
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
      ["'throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'deploymentType' MULTI_AZ_1, got 384"],
    ],
    [
      "SINGLE_AZ_1 rejects 6144",
      s({ deploymentType: "SINGLE_AZ_1", throughputCapacityMBps: 6144 }),
      ["'throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'deploymentType' SINGLE_AZ_1, got 6144"],
    ],
    ["SINGLE_AZ_1 128 MBps", s({ deploymentType: "SINGLE_AZ_1", throughputCapacityMBps: 128 }), []],
    [
      "MULTI_AZ_2 rejects a first-generation level",
      s({ deploymentType: "MULTI_AZ_2", throughputCapacityMBps: 512 }),
      ["'throughputCapacityMBps' must be one of 384, 768, 1536, 3072, 6144 (MBps) for 'deploymentType' MULTI_AZ_2, got 512"],
    ],
    ["MULTI_AZ_2 384 MBps", s({ deploymentType: "MULTI_AZ_2", throughputCapacityMBps: 384 }), []],
    [
      "MULTI_AZ_2 has one HA pair",
      s({ deploymentType: "MULTI_AZ_2", throughputCapacityMBps: 6144, haPairs: 2 }),
      ["'haPairs' must be 1 for 'deploymentType' MULTI_AZ_2 (only SINGLE_AZ_2 has more than one HA pair), got 2"],
    ],
    [
      "MULTI_AZ_1 has one HA pair",
      s({ haPairs: 2 }),
      ["'haPairs' must be 1 for 'deploymentType' MULTI_AZ_1 (only SINGLE_AZ_2 has more than one HA pair), got 2"],
    ],
    [
      "SINGLE_AZ_2 rejects 768 (API reference: 1536, 3072, 6144 only)",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 768 }),
      ["'throughputCapacityMBps' must be one of 1536, 3072, 6144 (MBps per HA pair) for 'deploymentType' SINGLE_AZ_2, got 768"],
    ],
    [
      "SINGLE_AZ_2 up to 12 HA pairs",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 3072, haPairs: 13, storageCapacityGiB: 13_312 }),
      ["'haPairs' must be an integer from 1 to 12 for 'deploymentType' SINGLE_AZ_2, got 13"],
    ],
    [
      "SINGLE_AZ_2 12 HA pairs × 6144 MBps",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 6144, haPairs: 12, storageCapacityGiB: 12_288 }),
      [],
    ],
    [
      "the throughput is required",
      s({ throughputCapacityMBps: undefined }),
      ["'throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'deploymentType' MULTI_AZ_1, got nothing"],
    ],
    // storage bounds
    [
      "storage below 1024 GiB",
      s({ storageCapacityGiB: 1000 }),
      ["'storageCapacityGiB' must be a whole number of GiB from 1024 to 196608 for 'deploymentType' MULTI_AZ_1, got 1000"],
    ],
    [
      "first generation up to 192 TiB",
      s({ storageCapacityGiB: 196_609 }),
      ["'storageCapacityGiB' must be a whole number of GiB from 1024 to 196608 for 'deploymentType' MULTI_AZ_1, got 196609"],
    ],
    [
      "MULTI_AZ_2 up to 512 TiB",
      s({ deploymentType: "MULTI_AZ_2", throughputCapacityMBps: 1536, storageCapacityGiB: 524_289 }),
      ["'storageCapacityGiB' must be a whole number of GiB from 1024 to 524288 for 'deploymentType' MULTI_AZ_2, got 524289"],
    ],
    [
      "SINGLE_AZ_2 needs 1024 GiB per HA pair",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 1536, haPairs: 3, storageCapacityGiB: 2048 }),
      [
        "'storageCapacityGiB' must be a whole number of GiB from 3072 (1024 per HA pair) to 1048576 for 'deploymentType' SINGLE_AZ_2 with 3 HA pairs, got 2048",
      ],
    ],
    [
      "SINGLE_AZ_2 with one HA pair stops at 512 TiB",
      s({ deploymentType: "SINGLE_AZ_2", throughputCapacityMBps: 1536, storageCapacityGiB: 600_000 }),
      [
        "'storageCapacityGiB' must be a whole number of GiB from 1024 to 524288 for 'deploymentType' SINGLE_AZ_2 with 1 HA pair, got 600000",
      ],
    ],
    // IOPS
    [
      "USER_PROVISIONED needs diskIops",
      s({ diskIopsMode: "USER_PROVISIONED" }),
      ["'diskIops' must be set (a whole number of SSD IOPS) when 'diskIopsMode' is USER_PROVISIONED, got nothing"],
    ],
    [
      "AUTOMATIC takes no diskIops",
      s({ diskIops: 5000 }),
      ["'diskIops' must be unset when 'diskIopsMode' is AUTOMATIC (FSx provisions 3 SSD IOPS per GiB), got 5000"],
    ],
    [
      "at least 3 IOPS per GiB",
      s({ diskIopsMode: "USER_PROVISIONED", diskIops: 3000 }),
      ["'diskIops' must be at least 3072 (3 SSD IOPS per GiB of 'storageCapacityGiB' 1024), got 3000"],
    ],
    [
      "at most 50 IOPS per GiB",
      s({ throughputCapacityMBps: 2048, diskIopsMode: "USER_PROVISIONED", diskIops: 60_000 }),
      ["'diskIops' must be at most 51200 (50 SSD IOPS per GiB of 'storageCapacityGiB' 1024), got 60000"],
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
      "IOPS beyond the API model's 2 400 000, or not whole",
      s({ diskIopsMode: "USER_PROVISIONED", diskIops: 2_400_001 }),
      ["'diskIops' must be a whole number of SSD IOPS (e.g. 160000), got 2400001"],
    ],
    [
      "every sizing problem at once",
      s({
        deploymentType: "MULTI_AZ_2",
        throughputCapacityMBps: 500,
        haPairs: 4,
        storageCapacityGiB: 512,
        diskIopsMode: "USER_PROVISIONED",
      }),
      [
        "'haPairs' must be 1 for 'deploymentType' MULTI_AZ_2 (only SINGLE_AZ_2 has more than one HA pair), got 4",
        "'throughputCapacityMBps' must be one of 384, 768, 1536, 3072, 6144 (MBps) for 'deploymentType' MULTI_AZ_2, got 500",
        "'storageCapacityGiB' must be a whole number of GiB from 1024 to 524288 for 'deploymentType' MULTI_AZ_2, got 512",
        "'diskIops' must be set (a whole number of SSD IOPS) when 'diskIopsMode' is USER_PROVISIONED, got nothing",
      ],
    ],
    [
      "an unknown deployment type: what every type shares is still checked",
      s({
        deploymentType: "MULTI_AZ_3",
        haPairs: 13,
        throughputCapacityMBps: "fast",
        storageCapacityGiB: 100,
        diskIopsMode: "MANUAL",
        diskIops: 1.5,
      }),
      [
        "'deploymentType' must be one of MULTI_AZ_1, MULTI_AZ_2, SINGLE_AZ_1, SINGLE_AZ_2, got \"MULTI_AZ_3\"",
        "'haPairs' must be a whole number of HA pairs from 1 to 12, got 13",
        "'throughputCapacityMBps' must be a throughput capacity in MBps (e.g. 512), got \"fast\"",
        "'storageCapacityGiB' must be a whole number of GiB from 1024 to 1048576, got 100",
        "'diskIopsMode' must be one of AUTOMATIC, USER_PROVISIONED, got \"MANUAL\"",
        "'diskIops' must be a whole number of SSD IOPS (e.g. 160000), got 1.5",
      ],
    ],
  ])("%s", (_name, spec, expected) => {
    expect(lines(spec)).toEqual(expected);
  });

  test("a stack's reader sees its own key names, other arguments quoted the same way", () => {
    expect(problems(s({ throughputCapacityMBps: 384 })).map((p) => formatArgProblem(p, (a) => `lab:${a}`))).toEqual([
      "'lab:throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'lab:deploymentType' MULTI_AZ_1, got 384",
    ]);
  });

  test("every documented throughput level of every type is accepted, and has an IOPS ceiling", () => {
    for (const [type, levels] of Object.entries(THROUGHPUT_PER_HA_PAIR_MBPS)) {
      for (const t of levels) {
        const spec = s({ deploymentType: type, throughputCapacityMBps: t });
        expect([type, t, lines(spec)]).toEqual([type, t, []]);
        expect(maxSsdIops(type as NonNullable<FsxOntapSpec["deploymentType"]>, t, 1).iops).toBeGreaterThan(0);
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

  test("the FSx API model's bounds (botocore fsx service-2.json): HAPairs 1–12, Iops 0–2 400 000", () => {
    expect([API_MAX_HA_PAIRS, API_MAX_SSD_IOPS]).toEqual([12, 2_400_000]);
  });

  test("AUTOMATIC IOPS: 3 per GiB, capped at the file server's ceiling", () => {
    expect(automaticIops(1024, "MULTI_AZ_1", 512, 1)).toBe(3072);
    expect(automaticIops(5120, "MULTI_AZ_1", 4096, 1)).toBe(15_360);
    expect(automaticIops(100_000, "MULTI_AZ_1", 128, 1)).toBe(6000);
  });
});

describe("the other settings' rules", () => {
  test.each<[string, Partial<Record<keyof Spec, unknown>>, string[]]>([
    ["preferred zone by index", { preferredAz: 1 }, []],
    ["preferred zone by name", { preferredAz: "us-east-1b" }, []],
    [
      "preferred zone index 2",
      { preferredAz: 2 },
      [
        "'preferredAz' must be 0 or 1 (index of the zone among the file system's two) or an availability zone name (e.g. us-east-1a), got 2",
      ],
    ],
    [
      "preferred zone that is no zone name",
      { preferredAz: "east" },
      [
        "'preferredAz' must be 0 or 1 (index of the zone among the file system's two) or an availability zone name (e.g. us-east-1a), got \"east\"",
      ],
    ],
    ["SVM name of 47 characters", { svmName: `s${"v".repeat(46)}` }, []],
    [
      "SVM name of 48 characters",
      { svmName: `s${"v".repeat(47)}` },
      [`'svmName' must be an SVM name: 1–47 letters, digits or '_', starting with a letter (e.g. ekssvm), got "s${"v".repeat(47)}"`],
    ],
    [
      "SVM name starting with a digit",
      { svmName: "1svm" },
      ["'svmName' must be an SVM name: 1–47 letters, digits or '_', starting with a letter (e.g. ekssvm), got \"1svm\""],
    ],
    ["a KMS key ARN", { kmsKeyArn: "arn:aws:kms:us-east-1:123456789012:key/11111111-2222-3333-4444-555555555555" }, []],
    [
      "a KMS alias is not an ARN",
      { kmsKeyArn: "alias/fsx" },
      ["'kmsKeyArn' must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got \"alias/fsx\""],
    ],
    ["a KMS key known later (a Pulumi Output or a Promise) is left to FSx", { kmsKeyArn: Promise.resolve("alias/fsx") }, []],
    ["backups kept 90 days", { backupRetentionDays: 90 }, []],
    [
      "backups kept 91 days",
      { backupRetentionDays: 91 },
      ["'backupRetentionDays' must be a whole number of days from 0 to 90 (0 turns automatic backups off), got 91"],
    ],
    [
      "backup days not whole",
      { backupRetentionDays: 1.5 },
      ["'backupRetentionDays' must be a whole number of days from 0 to 90 (0 turns automatic backups off), got 1.5"],
    ],
    ["maintenance Monday 00:00", { maintenanceWindow: "1:00:00" }, []],
    [
      "maintenance day 0",
      { maintenanceWindow: "0:02:00" },
      ["'maintenanceWindow' must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00), got \"0:02:00\""],
    ],
    [
      "maintenance hour 24",
      { maintenanceWindow: "7:24:00" },
      ["'maintenanceWindow' must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00), got \"7:24:00\""],
    ],
    [
      "maintenance hour not zero-padded",
      { maintenanceWindow: "7:2:00" },
      ["'maintenanceWindow' must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00), got \"7:2:00\""],
    ],
    ["client security groups of 8 and 17 hex digits", { clientSecurityGroupIds: ["sg-01234567", "sg-0123456789abcdef0"] }, []],
    [
      "client security group ids of 7 and 18 hex digits, upper case",
      { clientSecurityGroupIds: ["sg-0123456", "sg-0123456789abcdef01", "sg-0123456789ABCDEF0"] },
      [
        "'clientSecurityGroupIds[0]' must be a security group id: sg- and 8 to 17 hex digits (e.g. sg-0123456789abcdef0), got \"sg-0123456\"",
        "'clientSecurityGroupIds[1]' must be a security group id: sg- and 8 to 17 hex digits (e.g. sg-0123456789abcdef0), got \"sg-0123456789abcdef01\"",
        "'clientSecurityGroupIds[2]' must be a security group id: sg- and 8 to 17 hex digits (e.g. sg-0123456789abcdef0), got \"sg-0123456789ABCDEF0\"",
      ],
    ],
    [
      "client security groups twice",
      { clientSecurityGroupIds: ["sg-01234567", "sg-01234567"] },
      ['\'clientSecurityGroupIds\' must be distinct security group ids, got ["sg-01234567","sg-01234567"]'],
    ],
    [
      "five client security groups (5 × 15 rules > the default quota of 60)",
      { clientSecurityGroupIds: Array.from({ length: 5 }, (_, i) => `sg-0000000${i.toString(16)}`) },
      [
        `'clientSecurityGroupIds' must be a list of at most 4 security group ids (e.g. ["sg-0123456789abcdef0"]), got ${JSON.stringify(
          Array.from({ length: 5 }, (_, i) => `sg-0000000${i.toString(16)}`),
        )}`,
      ],
    ],
    [
      "client security groups not a list",
      { clientSecurityGroupIds: "sg-01234567" },
      ['\'clientSecurityGroupIds\' must be a list of at most 4 security group ids (e.g. ["sg-0123456789abcdef0"]), got "sg-01234567"'],
    ],
    ["an endpoint range /16", { endpointIpAddressRange: "198.19.0.0/16" }, []],
    ["an endpoint range /28", { endpointIpAddressRange: "198.19.255.240/28" }, []],
    [
      "an endpoint range /29",
      { endpointIpAddressRange: "198.19.255.248/29" },
      ["'endpointIpAddressRange' must be an IPv4 network CIDR with a prefix from /16 to /28 (e.g. 10.0.0.0/16), got \"198.19.255.248/29\""],
    ],
    [
      "an endpoint range /15",
      { endpointIpAddressRange: "198.18.0.0/15" },
      ["'endpointIpAddressRange' must be an IPv4 network CIDR with a prefix from /16 to /28 (e.g. 10.0.0.0/16), got \"198.18.0.0/15\""],
    ],
    [
      "an endpoint range with host bits",
      { endpointIpAddressRange: "198.19.255.1/24" },
      ["'endpointIpAddressRange' must be an IPv4 network CIDR with a prefix from /16 to /28 (e.g. 10.0.0.0/16), got \"198.19.255.1/24\""],
    ],
    [
      "an endpoint range on Single-AZ",
      { deploymentType: "SINGLE_AZ_1", endpointIpAddressRange: "198.19.255.0/24" },
      ["'endpointIpAddressRange' must be unset for 'deploymentType' SINGLE_AZ_1 (Multi-AZ only), got \"198.19.255.0/24\""],
    ],
    ["skipFinalBackup", { skipFinalBackup: "yes" }, ["'skipFinalBackup' must be true or false, got \"yes\""]],
    ["retainOnDelete", { retainOnDelete: 1 }, ["'retainOnDelete' must be true or false, got 1"]],
  ])("%s", (_name, over, expected) => {
    expect(lines(s(over))).toEqual(expected);
  });

  test("the bounds, as their sources state them", () => {
    expect([MAX_BACKUP_RETENTION_DAYS, ENDPOINT_RANGE_PREFIX_MIN, ENDPOINT_RANGE_PREFIX_MAX, MAX_CLIENT_SECURITY_GROUPS]).toEqual([
      90, 16, 28, 4,
    ]);
  });

  test("a client security group is the source of 15 inbound rules: 4 fit the default 60-rule quota, 5 do not (README)", () => {
    expect(ONTAP_INGRESS).toHaveLength(15);
    expect([4 * ONTAP_INGRESS.length, 5 * ONTAP_INGRESS.length]).toEqual([60, 75]);
  });
});

describe("volumes", () => {
  const vol = (name: string, junctionPath: string, extra = {}) => ({ name, sizeGiB: 2048, junctionPath, ...extra });
  const volumes = (v: unknown) => lines(s({ volumes: v }));

  test("each field, named by its path", () => {
    expect(
      volumes([
        { name: "9lives", sizeGiB: 10, junctionPath: "/a" },
        { name: "b", sizeGiB: 0, junctionPath: "b" },
        { name: "c", sizeGiB: 10, junctionPath: "/c", size: 3 },
        { name: "d", sizeGiB: 10, junctionPath: "/d", tieringPolicy: "SOMETIMES" },
        {
          name: "e",
          sizeGiB: MAX_VOLUME_GIB + 1,
          junctionPath: `/${"e".repeat(MAX_JUNCTION_PATH_LENGTH)}`,
          snapshotPolicy: "no snapshots",
        },
        { name: "f", sizeGiB: 1.5, junctionPath: "/f", storageEfficiency: "yes" },
        {},
        "g",
      ]),
    ).toEqual([
      "'volumes[0].name' must be an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1), got \"9lives\"",
      "'volumes[1].sizeGiB' must be a whole number of GiB from 1 to 307200, got 0",
      "'volumes[1].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got \"b\"",
      '\'volumes[2]\' must be an object with keys name, sizeGiB, junctionPath, snapshotPolicy, tieringPolicy, coolingPeriodDays, storageEfficiency, style, constituentsPerAggregate (name, sizeGiB and junctionPath required), got {"name":"c","sizeGiB":10,"junctionPath":"/c","size":3}',
      "'volumes[3].tieringPolicy' must be one of NONE, SNAPSHOT_ONLY, AUTO, ALL, got \"SOMETIMES\"",
      "'volumes[4].sizeGiB' must be a whole number of GiB from 1 to 307200, got 307201",
      `'volumes[4].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got "/${"e".repeat(255)}"`,
      "'volumes[4].snapshotPolicy' must be an ONTAP snapshot policy name (default, default-1weekly, none, or a custom one), got \"no snapshots\"",
      "'volumes[5].sizeGiB' must be a whole number of GiB from 1 to 307200, got 1.5",
      "'volumes[5].storageEfficiency' must be true or false, got \"yes\"",
      "'volumes[6].name' must be an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1), got nothing",
      "'volumes[6].sizeGiB' must be a whole number of GiB from 1 to 307200, got nothing",
      "'volumes[6].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got nothing",
      "'volumes[7]' must be an object with keys name, sizeGiB, junctionPath, snapshotPolicy, tieringPolicy, coolingPeriodDays, storageEfficiency, style, constituentsPerAggregate (name, sizeGiB and junctionPath required), got \"g\"",
    ]);
  });

  test("the longest names and paths pass", () => {
    expect(volumes([vol(`v${"x".repeat(202)}`, `/${"p".repeat(MAX_JUNCTION_PATH_LENGTH - 1)}`, { sizeGiB: MAX_VOLUME_GIB })])).toEqual([]);
    expect(volumes([vol(`v${"x".repeat(203)}`, "/a")])).toEqual([
      `'volumes[0].name' must be an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1), got "v${"x".repeat(203)}"`,
    ]);
  });

  test("names (ignoring case) and junction paths distinct", () => {
    expect(volumes([vol("a", "/a"), vol("A", "/b"), vol("c", "/a")])).toEqual([
      "'volumes[1].name' must be distinct from the name of volume [0] (ONTAP volume names ignore case), got \"A\"",
      "'volumes[2].junctionPath' must be distinct from the junction path of volume [0] (ONTAP junction paths ignore case), got \"/a\"",
    ]);
  });

  test("a cooling period only with AUTO or SNAPSHOT_ONLY, 2 to 183 days", () => {
    expect(
      volumes([
        vol("a", "/a", { coolingPeriodDays: 10 }),
        vol("b", "/b", { tieringPolicy: "ALL", coolingPeriodDays: 10 }),
        vol("c", "/c", { tieringPolicy: "AUTO", coolingPeriodDays: 1 }),
        vol("d", "/d", { tieringPolicy: "SNAPSHOT_ONLY", coolingPeriodDays: 184 }),
        vol("e", "/e", { tieringPolicy: "AUTO", coolingPeriodDays: 2 }),
        vol("f", "/f", { tieringPolicy: "SNAPSHOT_ONLY", coolingPeriodDays: 183 }),
      ]),
    ).toEqual([
      "'volumes[0].coolingPeriodDays' must be unset unless the volume's tieringPolicy is AUTO or SNAPSHOT_ONLY (it is NONE), got 10",
      "'volumes[1].coolingPeriodDays' must be unset unless the volume's tieringPolicy is AUTO or SNAPSHOT_ONLY (it is ALL), got 10",
      "'volumes[2].coolingPeriodDays' must be a whole number of days from 2 to 183, got 1",
      "'volumes[3].coolingPeriodDays' must be a whole number of days from 2 to 183, got 184",
    ]);
    expect([MIN_COOLING_DAYS, MAX_COOLING_DAYS]).toEqual([2, 183]);
  });

  test("at most 500 volumes, in a list", () => {
    const many = Array.from({ length: MAX_VOLUMES + 1 }, (_, i) => vol(`v${i}`, `/v${i}`));
    expect(volumes(many.slice(0, MAX_VOLUMES))).toEqual([]);
    expect(volumes(many)).toEqual([
      `'volumes' must be a list of at most 500 volumes ({name, sizeGiB, junctionPath, …}), got ${JSON.stringify(many)}`,
    ]);
    expect(volumes("kafka")).toEqual(["'volumes' must be a list of at most 500 volumes ({name, sizeGiB, junctionPath, …}), got \"kafka\""]);
  });

  test("the Kafka layout is 2.4× thin-provisioned over its SSD tier", () => {
    const kafka = [1, 2, 3, 4, 5, 6].map((n) => vol(`kafkafsxN${n}`, `/kafkafsxN${n}`));
    expect(volumes(kafka)).toEqual([]);
    expect(provisioningRatio(kafka, 5120)).toBe(2.4);
  });
});

describe("every argument at once", () => {
  test("one problem per bad argument, in order, other arguments referenced by name", () => {
    expect(
      lines(
        s({
          deploymentType: "SINGLE_AZ_1",
          storageCapacityGiB: 200_000,
          throughputCapacityMBps: 384,
          haPairs: 2,
          diskIopsMode: "AUTOMATIC",
          diskIops: 3000,
          preferredAz: 3,
          svmName: "svm-1",
          volumes: [{ name: "v", sizeGiB: 1, junctionPath: "v" }],
          kmsKeyArn: "key",
          backupRetentionDays: -1,
          maintenanceWindow: "Sun 02:00",
          clientSecurityGroupIds: ["sg-1"],
          endpointIpAddressRange: "198.19.0.0/24",
          skipFinalBackup: "no",
          retainOnDelete: "no",
        }),
      ),
    ).toEqual([
      "'haPairs' must be 1 for 'deploymentType' SINGLE_AZ_1 (only SINGLE_AZ_2 has more than one HA pair), got 2",
      "'throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'deploymentType' SINGLE_AZ_1, got 384",
      "'storageCapacityGiB' must be a whole number of GiB from 1024 to 196608 for 'deploymentType' SINGLE_AZ_1, got 200000",
      "'diskIops' must be unset when 'diskIopsMode' is AUTOMATIC (FSx provisions 3 SSD IOPS per GiB), got 3000",
      "'preferredAz' must be 0 or 1 (index of the zone among the file system's two) or an availability zone name (e.g. us-east-1a), got 3",
      "'svmName' must be an SVM name: 1–47 letters, digits or '_', starting with a letter (e.g. ekssvm), got \"svm-1\"",
      "'volumes[0].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got \"v\"",
      "'kmsKeyArn' must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got \"key\"",
      "'backupRetentionDays' must be a whole number of days from 0 to 90 (0 turns automatic backups off), got -1",
      "'maintenanceWindow' must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00), got \"Sun 02:00\"",
      "'clientSecurityGroupIds[0]' must be a security group id: sg- and 8 to 17 hex digits (e.g. sg-0123456789abcdef0), got \"sg-1\"",
      "'endpointIpAddressRange' must be unset for 'deploymentType' SINGLE_AZ_1 (Multi-AZ only), got \"198.19.0.0/24\"",
      "'skipFinalBackup' must be true or false, got \"no\"",
      "'retainOnDelete' must be true or false, got \"no\"",
    ]);
  });

  test("nothing but the throughput: no problem", () => {
    expect(problems({ throughputCapacityMBps: 512 })).toEqual([]);
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

describe("credentials secret", () => {
  test("valid JSON with exactly username and password, whatever the password holds", () => {
    for (const pw of ["Ab1_-.+=xyz", 'quote"back\\slash', "ünïcødé"]) {
      const text = credentialsSecretString("vsadmin", pw);
      expect(JSON.parse(text)).toEqual({ username: "vsadmin", password: pw });
      expect(Object.keys(JSON.parse(text))).toEqual(["username", "password"]);
    }
  });
});

describe("boundaries, each at the value and one past it", () => {
  const provisioned = (diskIops: number, over: Partial<Record<keyof Spec, unknown>> = {}) =>
    lines(s({ storageCapacityGiB: 1024, throughputCapacityMBps: 2048, diskIopsMode: "USER_PROVISIONED", diskIops, ...over }));

  test("SSD IOPS per GiB: exactly 3 and exactly 50 are valid; one fewer and one more are not", () => {
    expect(provisioned(3 * 1024)).toEqual([]);
    expect(provisioned(50 * 1024)).toEqual([]);
    expect(provisioned(3 * 1024 - 1)).toEqual([
      "'diskIops' must be at least 3072 (3 SSD IOPS per GiB of 'storageCapacityGiB' 1024), got 3071",
    ]);
    expect(provisioned(50 * 1024 + 1)).toEqual([
      "'diskIops' must be at most 51200 (50 SSD IOPS per GiB of 'storageCapacityGiB' 1024), got 51201",
    ]);
  });

  test("a file server's ceiling: exactly its IOPS is valid, one more is not", () => {
    // 2048 MBps first generation: 80,000 SSD IOPS (MAX_SSD_IOPS_PER_HA_PAIR.gen1).
    expect(provisioned(80_000, { storageCapacityGiB: 2048 })).toEqual([]);
    expect(provisioned(80_001, { storageCapacityGiB: 2048 })).toEqual([
      "'diskIops' must be at most 80000 (the most SSD IOPS a 2048 MBps MULTI_AZ_1 file server can use), got 80001",
    ]);
  });

  test("SINGLE_AZ_2 with several HA pairs: the ceiling is per pair × pairs, by the file server's figure or the API's", () => {
    const big = (haPairs: number, mbps: number, diskIops: number) =>
      provisioned(diskIops, { deploymentType: "SINGLE_AZ_2", haPairs, throughputCapacityMBps: mbps, storageCapacityGiB: 20_480 });
    expect(big(3, 6144, 600_000)).toEqual([]);
    expect(big(3, 6144, 600_001)).toEqual([
      "'diskIops' must be at most 600000 (the most SSD IOPS 3 HA pairs at 6144 MBps each can use), got 600001",
    ]);
    // 1536 MBps a pair has no sourced file-server figure: the API's 200,000 a pair.
    expect(big(3, 1536, 600_000)).toEqual([]);
    expect(big(3, 1536, 600_001)).toEqual([
      "'diskIops' must be at most 600000 (the FSx API's maximum, 200000 SSD IOPS per HA pair), got 600001",
    ]);
    // One HA pair: the message names the file server, not pairs.
    expect(big(1, 6144, 200_001)).toEqual([
      "'diskIops' must be at most 200000 (the most SSD IOPS a 6144 MBps SINGLE_AZ_2 file server can use), got 200001",
    ]);
    expect(maxSsdIops("SINGLE_AZ_2", 6144, 12)).toEqual({ iops: 2_400_000, source: "file server" });
    expect(maxSsdIops("SINGLE_AZ_2", 3072, 2)).toEqual({ iops: 400_000, source: "api" });
    expect(maxSsdIops("MULTI_AZ_1", 512, 1)).toEqual({ iops: 200_000, source: "api" });
    expect(automaticIops(100_000, "SINGLE_AZ_2", 6144, 2)).toBe(300_000);
    expect(automaticIops(200_000, "SINGLE_AZ_2", 6144, 2)).toBe(400_000);
  });

  test("exactly 4 client security groups are valid, 5 are not", () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `sg-0000000${i}`);
    expect(MAX_CLIENT_SECURITY_GROUPS).toBe(4);
    expect(lines(s({ clientSecurityGroupIds: ids(4) }))).toEqual([]);
    expect(lines(s({ clientSecurityGroupIds: ids(5) }))).toEqual([
      `'clientSecurityGroupIds' must be a list of at most 4 security group ids (e.g. ["sg-0123456789abcdef0"]), got ${JSON.stringify(ids(5))}`,
    ]);
  });

  test("junction paths: several segments are valid; a trailing slash, an empty segment or a bare '/' are not", () => {
    const vol = (junctionPath: string) => lines(s({ volumes: [{ name: "v", sizeGiB: 10, junctionPath }] }));
    const rule = (p: string) =>
      `'volumes[0].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got ${JSON.stringify(p)}`;
    expect(vol("/a/b/c")).toEqual([]);
    expect(vol("/kafka_1/data-2.x")).toEqual([]);
    expect(vol(`/${"a".repeat(254)}`)).toEqual([]);
    for (const bad of ["/a/", "/a//b", "/", "a/b", "/a b"]) expect(vol(bad)).toEqual([rule(bad)]);
  });
});

describe("one problem, not more (a mutation test found extra problems unnoticed)", () => {
  test("an unknown deployment type with every other setting valid: only the type", () => {
    expect(lines(s({ deploymentType: "MULTI_AZ_9" }))).toEqual([
      "'deploymentType' must be one of MULTI_AZ_1, MULTI_AZ_2, SINGLE_AZ_1, SINGLE_AZ_2, got \"MULTI_AZ_9\"",
    ]);
    // and no IOPS ceiling is applied without a type
    expect(
      lines(s({ deploymentType: "MULTI_AZ_9", storageCapacityGiB: 10_240, diskIopsMode: "USER_PROVISIONED", diskIops: 300_000 })),
    ).toEqual(["'deploymentType' must be one of MULTI_AZ_1, MULTI_AZ_2, SINGLE_AZ_1, SINGLE_AZ_2, got \"MULTI_AZ_9\""]);
  });

  test("a throughput FSx does not offer: no IOPS ceiling is derived from it", () => {
    expect(
      lines(s({ throughputCapacityMBps: 500, storageCapacityGiB: 10_240, diskIopsMode: "USER_PROVISIONED", diskIops: 300_000 })),
    ).toEqual(["'throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'deploymentType' MULTI_AZ_1, got 500"]);
  });

  test("an unknown IOPS mode without diskIops: only the mode", () => {
    expect(lines(s({ diskIopsMode: "MANUAL" }))).toEqual(["'diskIopsMode' must be one of AUTOMATIC, USER_PROVISIONED, got \"MANUAL\""]);
  });

  test("a storage capacity that is not a whole number of GiB: no per-GiB IOPS bound derived from it", () => {
    expect(lines(s({ storageCapacityGiB: 0, diskIopsMode: "USER_PROVISIONED", diskIops: 5000 }))).toEqual([
      "'storageCapacityGiB' must be a whole number of GiB from 1024 to 196608 for 'deploymentType' MULTI_AZ_1, got 0",
    ]);
  });

  test("volumes: null and a list are not volumes; storageEfficiency given as a boolean is valid", () => {
    expect(
      lines(
        s({
          volumes: [
            null,
            [],
            { name: "a", sizeGiB: 10, junctionPath: "/a", storageEfficiency: false },
            { name: "b", sizeGiB: 10, junctionPath: "/b", storageEfficiency: true },
          ],
        }),
      ),
    ).toEqual([
      "'volumes[0]' must be an object with keys name, sizeGiB, junctionPath, snapshotPolicy, tieringPolicy, coolingPeriodDays, storageEfficiency, style, constituentsPerAggregate (name, sizeGiB and junctionPath required), got null",
      "'volumes[1]' must be an object with keys name, sizeGiB, junctionPath, snapshotPolicy, tieringPolicy, coolingPeriodDays, storageEfficiency, style, constituentsPerAggregate (name, sizeGiB and junctionPath required), got []",
    ]);
  });
});
