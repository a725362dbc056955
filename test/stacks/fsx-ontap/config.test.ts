import * as path from "node:path";
import { FSX_ONTAP_DEFAULTS, provisioningRatio, resolve } from "../../../components/fsx-ontap/rules";
import { checkFsxOntap, fsxOntapArgs, fsxOntapSchema } from "../../../stacks/fsx-ontap/config";
import { parseConfig } from "../../../stacks/lib/config/load";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { problemsOf } from "../../helpers/config";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const base = {
  "aws:region": "us-east-1",
  "lab:kind": "fsx-ontap",
  "lab:owner": "alice",
  "lab:networkStack": "organization/storage-bench-lab/network",
  "lab:throughputCapacityMBps": "512",
};
const parse = (extra: Record<string, string>, drop: string[] = []) => {
  const raw: Record<string, string> = { ...base, ...extra };
  for (const k of drop) delete raw[k];
  return parseConfig("fsx-ontap", fsxOntapSchema, raw, checkFsxOntap);
};
const shipped = (name: string) =>
  parseConfig("fsx-ontap", fsxOntapSchema, readStackConfigFile(path.join(ROOT, `Pulumi.${name}.yaml`)).config, checkFsxOntap);

const KEYS =
  "aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:deploymentType, lab:storageCapacityGiB, lab:throughputCapacityMBps, lab:haPairs, lab:diskIopsMode, lab:diskIops, lab:preferredAz, lab:svmName, lab:volumes, lab:kmsKeyArn, lab:backupRetentionDays, lab:maintenanceWindow, lab:clientSecurityGroupIds, lab:endpointIpAddressRange, lab:skipFinalBackup, lab:retainOnDelete";
const VOLUME_RULE =
  "an object with keys name, sizeGiB, junctionPath, snapshotPolicy, tieringPolicy, coolingPeriodDays, storageEfficiency, style, constituentsPerAggregate (name, sizeGiB and junctionPath required)";

describe("fsx-ontap config", () => {
  test("no defaults of its own: the FsxOntap component's (components/fsx-ontap/rules.ts) apply", () => {
    const c = parse({});
    expect(c).toEqual({
      region: "us-east-1",
      kind: "fsx-ontap",
      owner: "alice",
      ttlHours: 8,
      runId: "r1",
      networkStack: "organization/storage-bench-lab/network",
      throughputCapacityMBps: 512,
    });
    // Multi-AZ 1, 1024 GiB, automatic IOPS, first zone preferred, no volumes, lab choices explicit.
    expect(resolve(fsxOntapArgs(c))).toMatchObject({
      deploymentType: "MULTI_AZ_1",
      storageCapacityGiB: 1024,
      throughputCapacityMBps: 512,
      haPairs: 1,
      diskIopsMode: "AUTOMATIC",
      preferredAz: 0,
      svmName: "svm1",
      volumes: [],
      backupRetentionDays: 0,
      maintenanceWindow: "7:02:00",
      clientSecurityGroupIds: [],
      skipFinalBackup: true,
      retainOnDelete: false,
    });
    expect(FSX_ONTAP_DEFAULTS.svmName).toBe("svm1");
  });

  test("keys are the component's argument names: the config is its arguments as they are", () => {
    const c = parse({
      "lab:backupRetentionDays": "7",
      "lab:maintenanceWindow": "1:05:00",
      "lab:retainOnDelete": "true",
      "lab:clientSecurityGroupIds": '["sg-0123456789abcdef0"]',
    });
    expect(fsxOntapArgs(c)).toMatchObject({
      backupRetentionDays: 7,
      maintenanceWindow: "1:05:00",
      retainOnDelete: true,
      clientSecurityGroupIds: ["sg-0123456789abcdef0"],
    });
  });

  test("the shipped EKS flavour: MULTI_AZ_1, 1024 GiB, 512 MB/s, AUTOMATIC, no volumes (Trident creates its own)", () => {
    expect(resolve(fsxOntapArgs(shipped("fsx-eks-ontap")))).toMatchObject({
      deploymentType: "MULTI_AZ_1",
      storageCapacityGiB: 1024,
      throughputCapacityMBps: 512,
      diskIopsMode: "AUTOMATIC",
      svmName: "ekssvm",
      volumes: [],
      retainOnDelete: false,
    });
    expect(shipped("fsx-eks-ontap").networkStack).toBe("organization/storage-bench-lab/network");
  });

  test("the shipped Kafka flavour: 5120 GiB, 4096 MB/s, 160 000 IOPS, six 2 TiB FlexGroups of 8 constituents at /kafkafsxN1…6 without snapshots", () => {
    const c = resolve(fsxOntapArgs(shipped("kafka-ontap")));
    expect(c).toMatchObject({
      deploymentType: "MULTI_AZ_1",
      storageCapacityGiB: 5120,
      throughputCapacityMBps: 4096,
      diskIopsMode: "USER_PROVISIONED",
      diskIops: 160_000,
      retainOnDelete: false,
    });
    expect(c.volumes).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => ({
        name: `kafkafsxN${n}`,
        sizeGiB: 2048,
        junctionPath: `/kafkafsxN${n}`,
        snapshotPolicy: "none",
        tieringPolicy: "NONE",
        coolingPeriodDays: undefined,
        storageEfficiency: true,
        // NetApp's `volume create … -aggr-list aggr1`: a FlexGroup, "keep the default constituent (8)"
        style: "FLEXGROUP",
        constituentsPerAggregate: 8,
      })),
    );
    // Thin provisioning: 12 TiB of volumes on a 5 TiB SSD tier.
    expect(provisioningRatio(c.volumes, c.storageCapacityGiB)).toBe(2.4);
  });

  test("preferred zone by index or by name", () => {
    expect(parse({ "lab:preferredAz": "1" }).preferredAz).toBe(1);
    expect(parse({ "lab:preferredAz": "us-east-1b" }).preferredAz).toBe("us-east-1b");
    const rule = "0 or 1 (index of the zone among the file system's two) or an availability zone name (e.g. us-east-1a)";
    expect(problemsOf(() => parse({ "lab:preferredAz": "2" }))).toEqual([`'lab:preferredAz' must be ${rule}, got 2`]);
    expect(problemsOf(() => parse({ "lab:preferredAz": "east" }))).toEqual([`'lab:preferredAz' must be ${rule}, got "east"`]);
    expect(problemsOf(() => parse({ "lab:preferredAz": "true" }))).toEqual([`'lab:preferredAz' must be ${rule}, got true`]);
  });

  test("sizing problems name the lab: keys, other keys quoted", () => {
    expect(problemsOf(() => parse({ "lab:deploymentType": "MULTI_AZ_2", "lab:diskIopsMode": "USER_PROVISIONED" }))).toEqual([
      "'lab:throughputCapacityMBps' must be one of 384, 768, 1536, 3072, 6144 (MBps) for 'lab:deploymentType' MULTI_AZ_2, got 512",
      "'lab:diskIops' must be set (a whole number of SSD IOPS) when 'lab:diskIopsMode' is USER_PROVISIONED, got nothing",
    ]);
    expect(
      problemsOf(() => parse({ "lab:throughputCapacityMBps": "256", "lab:diskIopsMode": "USER_PROVISIONED", "lab:diskIops": "30000" })),
    ).toEqual(["'lab:diskIops' must be at most 12000 (the most SSD IOPS a 256 MBps MULTI_AZ_1 file server can use), got 30000"]);
    expect(problemsOf(() => parse({ "lab:diskIopsMode": "USER_PROVISIONED", "lab:diskIops": "3000" }))).toEqual([
      "'lab:diskIops' must be at least 3072 (3 SSD IOPS per GiB of 'lab:storageCapacityGiB' 1024), got 3000",
    ]);
  });

  test("the throughput is required: the rule says which levels the deployment type has", () => {
    expect(problemsOf(() => parse({}, ["lab:throughputCapacityMBps"]))).toEqual([
      "'lab:throughputCapacityMBps' must be one of 128, 256, 512, 1024, 2048, 4096 (MBps) for 'lab:deploymentType' MULTI_AZ_1, got nothing",
    ]);
  });

  test("a value of the wrong type is named by the loader; the rules still check every other key", () => {
    expect(problemsOf(() => parse({ "lab:storageCapacityGiB": "lots", "lab:haPairs": "2", "lab:retainOnDelete": "yes" }))).toEqual([
      "'lab:storageCapacityGiB' must be a whole number, got \"lots\"",
      "'lab:retainOnDelete' must be true or false, got \"yes\"",
      "'lab:haPairs' must be 1 for 'lab:deploymentType' MULTI_AZ_1 (only SINGLE_AZ_2 has more than one HA pair), got 2",
    ]);
  });

  test("volume problems, each with its path, all at once", () => {
    const volumes = JSON.stringify([
      { name: "9lives", sizeGiB: 10, junctionPath: "/a" },
      { name: "b", sizeGiB: 0, junctionPath: "b" },
      { name: "c", sizeGiB: 10, junctionPath: "/c", size: 3 },
      { name: "d", sizeGiB: 10, junctionPath: "/a", tieringPolicy: "SOMETIMES" },
      { name: "D", sizeGiB: 10, junctionPath: "/e", coolingPeriodDays: 10 },
      { sizeGiB: 10 },
    ]);
    expect(problemsOf(() => parse({ "lab:volumes": volumes }))).toEqual([
      "'lab:volumes[0].name' must be an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1), got \"9lives\"",
      "'lab:volumes[1].sizeGiB' must be a whole number of GiB from 1 to 307200, got 0",
      "'lab:volumes[1].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got \"b\"",
      `'lab:volumes[2]' must be ${VOLUME_RULE}, got {"name":"c","sizeGiB":10,"junctionPath":"/c","size":3}`,
      "'lab:volumes[3].junctionPath' must be distinct from the junction path of volume [0] (ONTAP junction paths ignore case), got \"/a\"",
      "'lab:volumes[3].tieringPolicy' must be one of NONE, SNAPSHOT_ONLY, AUTO, ALL, got \"SOMETIMES\"",
      "'lab:volumes[4].name' must be distinct from the name of volume [3] (ONTAP volume names ignore case), got \"D\"",
      "'lab:volumes[4].coolingPeriodDays' must be unset unless the volume's tieringPolicy is AUTO or SNAPSHOT_ONLY (it is NONE), got 10",
      "'lab:volumes[5].name' must be an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1), got nothing",
      "'lab:volumes[5].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got nothing",
    ]);
  });

  test("volumes of the wrong shape: the list, an item, a field's type", () => {
    expect(problemsOf(() => parse({ "lab:volumes": '"kafka"' }))).toEqual([
      "'lab:volumes' must be a list of at most 500 volumes ({name, sizeGiB, junctionPath, …}), got \"kafka\"",
    ]);
    expect(problemsOf(() => parse({ "lab:volumes": '["kafka"]' }))).toEqual([`'lab:volumes[0]' must be ${VOLUME_RULE}, got "kafka"`]);
    expect(problemsOf(() => parse({ "lab:volumes": '[{"name":"a","sizeGiB":"2TiB","junctionPath":"/a"}]' }))).toEqual([
      "'lab:volumes[0].sizeGiB' must be a whole number, got \"2TiB\"",
    ]);
  });

  test("other keys: Multi-AZ-only endpoint range, security group ids, KMS ARN, maintenance window, backups, unknown keys", () => {
    expect(problemsOf(() => parse({ "lab:deploymentType": "SINGLE_AZ_1", "lab:endpointIpAddressRange": "198.19.255.0/24" }))).toEqual([
      "'lab:endpointIpAddressRange' must be unset for 'lab:deploymentType' SINGLE_AZ_1 (Multi-AZ only), got \"198.19.255.0/24\"",
    ]);
    expect(problemsOf(() => parse({ "lab:endpointIpAddressRange": "198.19.255.0/29" }))).toEqual([
      "'lab:endpointIpAddressRange' must be an IPv4 network CIDR with a prefix from /16 to /28 (e.g. 10.0.0.0/16), got \"198.19.255.0/29\"",
    ]);
    expect(
      problemsOf(() =>
        parse({
          "lab:clientSecurityGroupIds": '["sg-12","sg-12"]',
          "lab:kmsKeyArn": "alias/fsx",
          "lab:maintenanceWindow": "0:02:00",
          "lab:backupRetentionDays": "91",
          "lab:throughput": "512",
        }),
      ),
    ).toEqual([
      `'lab:throughput' must be a key of kind fsx-ontap; its keys are ${KEYS}, got "512"`,
      "'lab:kmsKeyArn' must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got \"alias/fsx\"",
      "'lab:backupRetentionDays' must be a whole number of days from 0 to 90 (0 turns automatic backups off), got 91",
      "'lab:maintenanceWindow' must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00), got \"0:02:00\"",
      "'lab:clientSecurityGroupIds[0]' must be a security group id: sg- and 8 to 17 hex digits (e.g. sg-0123456789abcdef0), got \"sg-12\"",
      "'lab:clientSecurityGroupIds[1]' must be a security group id: sg- and 8 to 17 hex digits (e.g. sg-0123456789abcdef0), got \"sg-12\"",
      '\'lab:clientSecurityGroupIds\' must be distinct security group ids, got ["sg-12","sg-12"]',
    ]);
    expect(problemsOf(() => parse({ "lab:clientSecurityGroupIds": "sg-0123456789abcdef0" }))).toEqual([
      '\'lab:clientSecurityGroupIds\' must be a list of at most 4 security group ids (e.g. ["sg-0123456789abcdef0"]), got "sg-0123456789abcdef0"',
    ]);
  });

  test("every key wrong at once, in one error", () => {
    expect(
      problemsOf(() =>
        parse({
          "lab:deploymentType": "MULTI_AZ_3",
          "lab:storageCapacityGiB": "100",
          "lab:throughputCapacityMBps": "0",
          "lab:haPairs": "13",
          "lab:diskIopsMode": "MANUAL",
          "lab:diskIops": "-1",
          "lab:preferredAz": "5",
          "lab:svmName": "svm-1",
          "lab:volumes": '[{"name":"v","sizeGiB":1,"junctionPath":"v"}]',
          "lab:kmsKeyArn": "key",
          "lab:backupRetentionDays": "-1",
          "lab:maintenanceWindow": "Sun",
          "lab:clientSecurityGroupIds": '["sg"]',
          "lab:endpointIpAddressRange": "10.0.0.1/24",
          "lab:skipFinalBackup": "no",
          "lab:retainOnDelete": "1",
        }),
      ),
    ).toEqual([
      "'lab:skipFinalBackup' must be true or false, got \"no\"",
      "'lab:retainOnDelete' must be true or false, got 1",
      "'lab:deploymentType' must be one of MULTI_AZ_1, MULTI_AZ_2, SINGLE_AZ_1, SINGLE_AZ_2, got \"MULTI_AZ_3\"",
      "'lab:haPairs' must be a whole number of HA pairs from 1 to 12, got 13",
      "'lab:throughputCapacityMBps' must be a throughput capacity in MBps (e.g. 512), got 0",
      "'lab:storageCapacityGiB' must be a whole number of GiB from 1024 to 1048576, got 100",
      "'lab:diskIopsMode' must be one of AUTOMATIC, USER_PROVISIONED, got \"MANUAL\"",
      "'lab:diskIops' must be a whole number of SSD IOPS (e.g. 160000), got -1",
      "'lab:preferredAz' must be 0 or 1 (index of the zone among the file system's two) or an availability zone name (e.g. us-east-1a), got 5",
      "'lab:svmName' must be an SVM name: 1–47 letters, digits or '_', starting with a letter (e.g. ekssvm), got \"svm-1\"",
      "'lab:volumes[0].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got \"v\"",
      "'lab:kmsKeyArn' must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got \"key\"",
      "'lab:backupRetentionDays' must be a whole number of days from 0 to 90 (0 turns automatic backups off), got -1",
      "'lab:maintenanceWindow' must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00), got \"Sun\"",
      "'lab:clientSecurityGroupIds[0]' must be a security group id: sg- and 8 to 17 hex digits (e.g. sg-0123456789abcdef0), got \"sg\"",
      "'lab:endpointIpAddressRange' must be an IPv4 network CIDR with a prefix from /16 to /28 (e.g. 10.0.0.0/16), got \"10.0.0.1/24\"",
    ]);
  });
});
