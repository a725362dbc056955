import * as path from "node:path";
import { provisioningRatio } from "../../../components/fsx-ontap/rules";
import { checkFsxOntap, fsxOntapSchema } from "../../../stacks/fsx-ontap/config";
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

describe("fsx-ontap config", () => {
  test("defaults: Multi-AZ 1, 1024 GiB, automatic IOPS, first zone preferred, no volumes, lab choices explicit", () => {
    expect(parse({})).toEqual({
      region: "us-east-1",
      kind: "fsx-ontap",
      owner: "alice",
      ttlHours: 8,
      runId: "r1",
      networkStack: "organization/storage-bench-lab/network",
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
  });

  test("the shipped EKS flavour: MULTI_AZ_1, 1024 GiB, 512 MB/s, AUTOMATIC, no volumes (Trident creates its own)", () => {
    const spec = readStackConfigFile(path.join(ROOT, "Pulumi.fsx-eks-ontap.yaml"));
    expect(parseConfig("fsx-ontap", fsxOntapSchema, spec.config, checkFsxOntap)).toMatchObject({
      networkStack: "organization/storage-bench-lab/network",
      deploymentType: "MULTI_AZ_1",
      storageCapacityGiB: 1024,
      throughputCapacityMBps: 512,
      diskIopsMode: "AUTOMATIC",
      svmName: "ekssvm",
      volumes: [],
    });
  });

  test("the shipped Kafka flavour: 5120 GiB, 4096 MB/s, 160 000 IOPS, six 2 TiB volumes at /kafkafsxN1…6 without snapshots", () => {
    const spec = readStackConfigFile(path.join(ROOT, "Pulumi.kafka-ontap.yaml"));
    const c = parseConfig("fsx-ontap", fsxOntapSchema, spec.config, checkFsxOntap);
    expect(c).toMatchObject({
      networkStack: "organization/storage-bench-lab/network",
      deploymentType: "MULTI_AZ_1",
      storageCapacityGiB: 5120,
      throughputCapacityMBps: 4096,
      diskIopsMode: "USER_PROVISIONED",
      diskIops: 160_000,
    });
    expect(c.volumes).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => ({
        name: `kafkafsxN${n}`,
        sizeGiB: 2048,
        junctionPath: `/kafkafsxN${n}`,
        snapshotPolicy: "none",
        tieringPolicy: "NONE",
        storageEfficiency: true,
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
  });

  test("sizing problems name the lab: keys", () => {
    expect(problemsOf(() => parse({ "lab:deploymentType": "MULTI_AZ_2", "lab:diskIopsMode": "USER_PROVISIONED" }))).toEqual([
      "'lab:throughputCapacityMBps' must be one of 384, 768, 1536, 3072, 6144 (MBps) for lab:deploymentType MULTI_AZ_2, got 512",
      "'lab:diskIops' must be set (a whole number of SSD IOPS) when lab:diskIopsMode is USER_PROVISIONED, got nothing",
    ]);
    expect(
      problemsOf(() => parse({ "lab:throughputCapacityMBps": "256", "lab:diskIopsMode": "USER_PROVISIONED", "lab:diskIops": "30000" })),
    ).toEqual(["'lab:diskIops' must be at most 12000 (the most SSD IOPS a 256 MBps MULTI_AZ_1 file server can use), got 30000"]);
  });

  test("the throughput is required", () => {
    expect(problemsOf(() => parse({}, ["lab:throughputCapacityMBps"]))).toEqual([
      "'lab:throughputCapacityMBps' must be a throughput capacity in MBps (e.g. 512), got nothing",
    ]);
  });

  test("volume problems, each with its path", () => {
    const volumes = JSON.stringify([
      { name: "9lives", sizeGiB: 10, junctionPath: "/a" },
      { name: "b", sizeGiB: 0, junctionPath: "b" },
      { name: "c", sizeGiB: 10, junctionPath: "/c", size: 3 },
      { name: "d", sizeGiB: 10, junctionPath: "/a", tieringPolicy: "SOMETIMES" },
    ]);
    expect(problemsOf(() => parse({ "lab:volumes": volumes }))).toEqual([
      "'lab:volumes[0].name' must be an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1), got \"9lives\"",
      "'lab:volumes[1].sizeGiB' must be a whole number of GiB from 1 to 307200, got 0",
      "'lab:volumes[1].junctionPath' must be a junction path starting with '/' (e.g. /kafkafsxN1), got \"b\"",
      '\'lab:volumes[2]\' must be an object with keys name, sizeGiB, junctionPath, snapshotPolicy, tieringPolicy, coolingPeriodDays, storageEfficiency (name, sizeGiB and junctionPath required), got {"name":"c","sizeGiB":10,"junctionPath":"/c","size":3}',
      "'lab:volumes[3].tieringPolicy' must be one of NONE, SNAPSHOT_ONLY, AUTO, ALL, got \"SOMETIMES\"",
    ]);
    expect(
      problemsOf(() =>
        parse({
          "lab:volumes": JSON.stringify([
            { name: "a", sizeGiB: 1, junctionPath: "/a" },
            { name: "b", sizeGiB: 1, junctionPath: "/a" },
          ]),
        }),
      ),
    ).toEqual(["'lab:volumes[1].junctionPath' must be distinct from lab:volumes[0].junctionPath, got \"/a\""]);
  });

  test("other fields: Multi-AZ-only endpoint range, security group ids, KMS ARN, maintenance window, unknown keys", () => {
    expect(problemsOf(() => parse({ "lab:deploymentType": "SINGLE_AZ_1", "lab:endpointIpAddressRange": "198.19.255.0/24" }))).toEqual([
      "'lab:endpointIpAddressRange' must be unset for lab:deploymentType SINGLE_AZ_1 (Multi-AZ only), got \"198.19.255.0/24\"",
    ]);
    expect(
      problemsOf(() =>
        parse({
          "lab:clientSecurityGroupIds": '["sg-12"]',
          "lab:kmsKeyArn": "alias/fsx",
          "lab:maintenanceWindow": "0:02:00",
          "lab:throughput": "512",
        }),
      ),
    ).toEqual([
      "'lab:throughput' must be a key of kind fsx-ontap; its keys are aws:region, lab:kind, lab:owner, lab:ttlHours, lab:runId, lab:networkStack, lab:deploymentType, lab:storageCapacityGiB, lab:throughputCapacityMBps, lab:haPairs, lab:diskIopsMode, lab:diskIops, lab:preferredAz, lab:svmName, lab:volumes, lab:kmsKeyArn, lab:backupRetentionDays, lab:maintenanceWindow, lab:clientSecurityGroupIds, lab:endpointIpAddressRange, lab:skipFinalBackup, lab:retainOnDelete, got \"512\"",
      "'lab:kmsKeyArn' must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got \"alias/fsx\"",
      "'lab:maintenanceWindow' must be d:HH:MM with d from 1 (Monday) to 7 (Sunday), UTC (e.g. 7:02:00), got \"0:02:00\"",
      "'lab:clientSecurityGroupIds[0]' must be a security group id (sg-…), got \"sg-12\"",
    ]);
  });
});
