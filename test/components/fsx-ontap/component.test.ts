/** The FsxOntap component under Pulumi's mocks: intent, not mere existence. */
import * as pulumi from "@pulumi/pulumi";
import { FsxOntap, FsxOntapArgs } from "../../../components/fsx-ontap";
import { FORCE_NEW_ARGS } from "../../../components/fsx-ontap/rules";
import { ingressRules, ruleSources } from "../../../components/fsx-ontap/security";
import { Captured, Run, underMocks } from "./harness";

const FS = "aws:fsx/ontapFileSystem:OntapFileSystem";
const SVM = "aws:fsx/ontapStorageVirtualMachine:OntapStorageVirtualMachine";
const VOL = "aws:fsx/ontapVolume:OntapVolume";
const KEY = "aws:kms/key:Key";
const SG = "aws:ec2/securityGroup:SecurityGroup";
const IN = "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule";
const OUT = "aws:vpc/securityGroupEgressRule:SecurityGroupEgressRule";
const SECRET_RES = "aws:secretsmanager/secret:Secret";
const SECRET_VERSION = "aws:secretsmanager/secretVersion:SecretVersion";
const PASSWORD = "random:index/randomPassword:RandomPassword";
const COMPONENT = "lab:fsx-ontap:FsxOntap";

/** A network of three zones: the file system uses two, every zone's route table gets its endpoints. */
const net = {
  vpcId: "vpc-0123456789abcdef0",
  vpcCidr: "10.20.0.0/16",
  privateSubnetIds: ["subnet-a", "subnet-b", "subnet-c"],
  privateRouteTableIds: ["rtb-a", "rtb-b", "rtb-c"],
  availabilityZones: ["eu-west-1a", "eu-west-1b", "eu-west-1c"],
};

function build(extra: Partial<FsxOntapArgs> = {}): Promise<Run> {
  return underMocks(
    () => {
      const c = new FsxOntap("fsx", { ...net, throughputCapacityMBps: 512, ...extra });
      return {
        fileSystemId: c.fileSystemId,
        svmName: c.svmName,
        preferredSubnetId: c.preferredSubnetId,
        preferredAz: c.preferredAz,
        standbyAz: c.standbyAz,
        securityGroupId: c.securityGroupId,
        kmsKeyArn: c.kmsKeyArn,
        credentialsSecretArn: c.credentialsSecretArn,
        managementEndpoint: c.managementEndpoint,
        nfsEndpoint: c.nfsEndpoint,
        iscsiEndpoint: c.iscsiEndpoint,
        volumes: c.volumes,
        throughputCapacityMBps: c.throughputCapacityMBps,
        maintenanceWindow: c.maintenanceWindow,
      };
    },
    { region: "eu-west-1" },
  );
}

const kafkaVolumes = [1, 2, 3, 4, 5, 6].map((n) => ({
  name: `kafkafsxN${n}`,
  sizeGiB: 2048,
  junctionPath: `/kafkafsxN${n}`,
  snapshotPolicy: "none",
}));

describe("FsxOntap component (Multi-AZ, defaults)", () => {
  let run: Run;
  let fs: Captured;
  beforeAll(async () => {
    run = await build({ storageCapacityGiB: 1024 });
    fs = run.one(FS, "fsx-fs");
  });

  test("Multi-AZ wiring: the two first private subnets, the first preferred, route tables = every private route table", () => {
    expect(fs.inputs).toMatchObject({
      deploymentType: "MULTI_AZ_1",
      storageType: "SSD",
      storageCapacity: 1024,
      subnetIds: ["subnet-a", "subnet-b"],
      preferredSubnetId: "subnet-a",
      routeTableIds: ["rtb-a", "rtb-b", "rtb-c"],
      diskIopsConfiguration: { mode: "AUTOMATIC" },
      automaticBackupRetentionDays: 0,
      weeklyMaintenanceStartTime: "7:02:00",
    });
    expect(fs.inputs.endpointIpAddressRange).toBeUndefined();
    expect(run.outputs.preferredSubnetId.value).toBe("subnet-a");
    expect(run.outputs.preferredAz.value).toBe("eu-west-1a");
    expect(run.outputs.standbyAz.value).toBe("eu-west-1b");
  });

  test("throughput as throughputCapacity, never the per-HA-pair form (ForceNew on raise for Gen1)", () => {
    expect(fs.inputs.throughputCapacity).toBe(512);
    expect(fs.inputs).not.toHaveProperty("throughputCapacityPerHaPair");
    expect(fs.inputs).not.toHaveProperty("haPairs");
    expect(run.outputs.throughputCapacityMBps.value).toBe(512);
  });

  test("encryption at rest with a new customer-managed key that rotates; the secrets use it too", () => {
    const [key, ...more] = run.ofType(KEY);
    expect(more).toHaveLength(0);
    expect(key.inputs).toMatchObject({ enableKeyRotation: true, deletionWindowInDays: 7 });
    const keyArn = run.outputs.kmsKeyArn.value;
    expect(keyArn).toMatch(/^arn:aws:kms:eu-west-1:123456789012:key\//);
    expect(fs.inputs.kmsKeyId).toBe(keyArn);
    const secrets = run.ofType(SECRET_RES);
    expect(secrets.map((s) => s.name).sort()).toEqual(["fsx-vsadmin"]);
    for (const s of secrets) expect(s.inputs).toMatchObject({ kmsKeyId: keyArn, recoveryWindowInDays: 0 });
  });

  test("one generated password, vsadmin's: 32 characters of letters, digits and JSON/shell-safe specials, inside FSx's 8–50", () => {
    const passwords = run.ofType(PASSWORD);
    expect(passwords.map((p) => p.name).sort()).toEqual(["fsx-vsadmin"]);
    for (const p of passwords) {
      expect(p.inputs).toEqual({
        length: 32,
        special: true,
        overrideSpecial: "_-.+=",
        minLower: 1,
        minUpper: 1,
        minNumeric: 1,
        minSpecial: 1,
      });
    }
    // No fsxadmin password: nothing in the lab logs in as the file-system administrator.
    expect(fs.inputs).not.toHaveProperty("fsxAdminPassword");
    expect(run.outputs).not.toHaveProperty("fsxadminSecretArn");
    // A file system created with one keeps it: an update to none would send an empty password.
    expect(fs.options.ignoreChanges).toEqual(["fsxAdminPassword"]);
  });

  test("the SVM: name, UNIX root volume, vsadmin password (secret), on this file system", () => {
    const svm = run.one(SVM, "fsx-svm");
    expect(svm.inputs).toMatchObject({ name: "svm1", rootVolumeSecurityStyle: "UNIX", fileSystemId: run.outputs.fileSystemId.value });
    expect(svm.secretInputs).toEqual(["svmAdminPassword"]);
  });

  test("the credentials secret is valid JSON {username: vsadmin, password} holding the SVM's password, stored as a secret", () => {
    const version = run.one(SECRET_VERSION, "fsx-vsadmin");
    expect(version.secretInputs).toEqual(["secretString"]);
    const parsed = JSON.parse(version.inputs.secretString as string);
    expect(parsed).toEqual({ username: "vsadmin", password: run.one(SVM, "fsx-svm").inputs.svmAdminPassword });
    expect(run.outputs.credentialsSecretArn.value).toMatch(/^arn:aws:secretsmanager:eu-west-1:123456789012:secret\//);
  });

  test("its own security group, no inline rules; no ingress of its own without client groups (never the VPC CIDR); egress to the VPC only", () => {
    const sg = run.one(SG, "fsx-sg");
    expect(sg.inputs.vpcId).toBe(net.vpcId);
    expect(sg.inputs.ingress).toBeUndefined();
    expect(sg.inputs.egress).toBeUndefined();
    expect(fs.inputs.securityGroupIds).toEqual([run.outputs.securityGroupId.value]);
    expect(run.ofType(IN)).toEqual([]);
    const [egress, ...moreEgress] = run.ofType(OUT);
    expect(moreEgress).toHaveLength(0);
    expect(egress.inputs).toMatchObject({ ipProtocol: "-1", cidrIpv4: "10.20.0.0/16" });
    expect(JSON.stringify(run.resources.map((r) => r.inputs))).not.toContain("0.0.0.0/0");
  });

  test("every resource is the component's child; the component is lab:fsx-ontap:FsxOntap", () => {
    const component = run.one(COMPONENT, "fsx");
    const children = run.resources.filter((r) => r !== component);
    // Key, security group, egress rule, vsadmin password, file system, SVM, secret and its version (no volumes by default).
    expect(children.length).toBe(8);
    expect(children.filter((r) => r.parent !== component.urn).map((r) => r.name)).toEqual([]);
  });

  test("endpoints are exported as DNS name + IPs", () => {
    expect(run.outputs.managementEndpoint.value).toMatchObject({
      dnsName: expect.stringMatching(/^management\.fs-/),
      ipAddresses: ["198.19.255.10"],
    });
    expect(run.outputs.nfsEndpoint.value).toMatchObject({ dnsName: expect.stringMatching(/^svm-/) });
    expect((run.outputs.iscsiEndpoint.value as { ipAddresses: string[] }).ipAddresses).toHaveLength(2);
  });

  test("lab choices: nothing retained on destroy, room for a 30–40 min Multi-AZ create and a failover update", () => {
    const aws = run.resources.filter((r) => r.type.startsWith("aws:"));
    expect(aws.length).toBe(7);
    expect(aws.filter((r) => r.options.retainOnDelete !== false).map((r) => r.name)).toEqual([]);
    expect(fs.options.customTimeouts).toEqual({ create: "120m", update: "120m", delete: "60m" });
  });
});

describe("the failover lever: a throughput change is an in-place update of the same file system", () => {
  let before: Run;
  let after: Run;
  beforeAll(async () => {
    before = await build({ throughputCapacityMBps: 512 });
    after = await build({ throughputCapacityMBps: 1024 });
  });

  test("no resource carries replaceOnChanges or deleteBeforeReplace; ignoreChanges only the file system's fsxAdminPassword", () => {
    for (const r of [...before.resources, ...after.resources]) {
      const ignored = r.type === FS ? ["fsxAdminPassword"] : [];
      expect([r.name, r.options.replaceOnChanges, r.options.deleteBeforeReplace, r.options.ignoreChanges]).toEqual([
        r.name,
        [],
        false,
        ignored,
      ]);
    }
  });

  test("the same resources (same URNs); the file system differs in throughputCapacity alone; every other resource is unchanged", () => {
    expect(after.resources.map((r) => r.urn).sort()).toEqual(before.resources.map((r) => r.urn).sort());
    for (const b of before.resources) {
      const a = after.resources.find((r) => r.urn === b.urn)!;
      if (b.type === FS) {
        const { throughputCapacity: tb, ...restBefore } = b.inputs;
        const { throughputCapacity: ta, ...restAfter } = a.inputs;
        expect([tb, ta]).toEqual([512, 1024]);
        expect(restAfter).toEqual(restBefore);
        for (const arg of FORCE_NEW_ARGS) expect([arg, a.inputs[arg]]).toEqual([arg, b.inputs[arg]]);
        expect(a.options).toEqual(b.options);
      } else {
        expect([b.name, a.inputs, a.options]).toEqual([b.name, b.inputs, b.options]);
      }
    }
  });
});

describe("FsxOntap component variants", () => {
  test("preferred zone by name; the standby is the other zone", async () => {
    const run = await build({ preferredAz: "eu-west-1b" });
    expect(run.one(FS, "fsx-fs").inputs).toMatchObject({ subnetIds: ["subnet-a", "subnet-b"], preferredSubnetId: "subnet-b" });
    expect([run.outputs.preferredAz.value, run.outputs.standbyAz.value]).toEqual(["eu-west-1b", "eu-west-1a"]);
  });

  test("a KMS key given as an Output (another resource's ARN) is used as it resolves", async () => {
    const arn = "arn:aws:kms:eu-west-1:123456789012:key/66666666-7777-8888-9999-000000000000";
    const run = await build({ kmsKeyArn: pulumi.output(arn) });
    expect(run.ofType(KEY)).toHaveLength(0);
    expect(run.one(FS, "fsx-fs").inputs.kmsKeyId).toBe(arn);
    expect(run.outputs.kmsKeyArn.value).toBe(arn);
  });

  test("a given KMS key is used and none is created", async () => {
    const arn = "arn:aws:kms:eu-west-1:123456789012:key/11111111-2222-3333-4444-555555555555";
    const run = await build({ kmsKeyArn: arn });
    expect(run.ofType(KEY)).toHaveLength(0);
    expect(run.one(FS, "fsx-fs").inputs.kmsKeyId).toBe(arn);
    expect(run.ofType(SECRET_RES).map((s) => s.inputs.kmsKeyId)).toEqual([arn]);
  });

  test("client security groups become the only sources", async () => {
    const run = await build({ clientSecurityGroupIds: ["sg-0aaaaaaaaaaaaaaaa"] });
    const rules = run.ofType(IN);
    expect(rules).toHaveLength(15);
    expect(rules.every((r) => r.inputs.referencedSecurityGroupId === "sg-0aaaaaaaaaaaaaaaa" && r.inputs.cidrIpv4 === undefined)).toBe(true);
  });

  test("Kafka flavour: USER_PROVISIONED IOPS and six thin 2 TiB volumes without snapshots, final backups skipped", async () => {
    const run = await build({
      storageCapacityGiB: 5120,
      throughputCapacityMBps: 4096,
      diskIopsMode: "USER_PROVISIONED",
      diskIops: 160_000,
      volumes: kafkaVolumes,
    });
    expect(run.one(FS, "fsx-fs").inputs.diskIopsConfiguration).toEqual({ mode: "USER_PROVISIONED", iops: 160_000 });
    const vols = run.ofType(VOL);
    expect(vols.map((v) => [v.inputs.name, v.inputs.junctionPath, v.inputs.sizeInMegabytes])).toEqual(
      kafkaVolumes.map((v) => [v.name, v.junctionPath, 2 * 1024 * 1024]),
    );
    for (const v of vols) {
      expect(v.inputs).toMatchObject({
        snapshotPolicy: "none",
        tieringPolicy: { name: "NONE" },
        storageEfficiencyEnabled: true,
        skipFinalBackup: true,
        securityStyle: "UNIX",
        volumeType: "ONTAP",
      });
      expect(v.options.retainOnDelete).toBe(false);
    }
    expect((run.outputs.volumes.value as { name: string; junctionPath: string; id: string }[]).map((v) => v.junctionPath)).toEqual(
      kafkaVolumes.map((v) => v.junctionPath),
    );
  });

  test("retainOnDelete keeps a usable file system: with it its KMS key, security group and rules, and the vsadmin secret", async () => {
    const run = await build({ retainOnDelete: true, volumes: kafkaVolumes.slice(0, 1) });
    const retained = run.resources.filter((r) => r.options.retainOnDelete === true).map((r) => `${r.type}::${r.name}`);
    const rules = ingressRules(ruleSources([])).map((r) => `${IN}::fsx-in-${r.name}`);
    expect(retained.sort()).toEqual(
      [
        `${FS}::fsx-fs`,
        `${SVM}::fsx-svm`,
        `${VOL}::fsx-vol-kafkafsxN1`,
        `${KEY}::fsx-kms`,
        `${SG}::fsx-sg`,
        ...rules,
        `${OUT}::fsx-out-all-vpc`,
        `${SECRET_RES}::fsx-vsadmin`,
        `${SECRET_VERSION}::fsx-vsadmin`,
      ].sort(),
    );
    // Every AWS resource; the generated passwords are state only (no cloud resource to keep).
    expect(
      run.resources
        .filter((r) => r.type.startsWith("aws:"))
        .map((r) => `${r.type}::${r.name}`)
        .sort(),
    ).toEqual(retained.sort());
    expect(run.ofType(PASSWORD).map((p) => p.options.retainOnDelete)).not.toContain(true);
  });

  test("retainOnDelete is an option, not an input: switching it changes no resource's inputs", async () => {
    const kept = await build({ retainOnDelete: true });
    const plain = await build({ retainOnDelete: false });
    expect(kept.resources.map((r) => [r.urn, r.inputs])).toEqual(plain.resources.map((r) => [r.urn, r.inputs]));
  });

  test("Single-AZ: the preferred subnet alone and no route tables", async () => {
    const run = await build({ deploymentType: "SINGLE_AZ_1", preferredAz: "eu-west-1c" });
    const fs = run.one(FS, "fsx-fs").inputs;
    expect(fs).toMatchObject({ deploymentType: "SINGLE_AZ_1", subnetIds: ["subnet-c"], preferredSubnetId: "subnet-c" });
    expect(fs.routeTableIds).toBeUndefined();
    expect(run.outputs.standbyAz.value).toBe("eu-west-1c");
  });

  test("SINGLE_AZ_2 scale-out: haPairs and throughput per HA pair", async () => {
    const run = await build({ deploymentType: "SINGLE_AZ_2", haPairs: 4, throughputCapacityMBps: 3072, storageCapacityGiB: 8192 });
    const fs = run.one(FS, "fsx-fs").inputs;
    expect(fs).toMatchObject({ haPairs: 4, throughputCapacityPerHaPair: 3072 });
    expect(fs).not.toHaveProperty("throughputCapacity");
    expect(run.outputs.throughputCapacityMBps.value).toBe(4 * 3072);
    // eight file servers patched in turn, up to an hour each, after the default window's start
    expect(run.outputs.maintenanceWindow.value).toEqual({ start: "7:02:00", minutes: 8 * 60 });
  });

  test("the maintenance window as FSx reports it: the one given, one HA pair's two file servers", async () => {
    const run = await build({ maintenanceWindow: "3:23:30" });
    expect(run.one(FS, "fsx-fs").inputs.weeklyMaintenanceStartTime).toBe("3:23:30");
    expect(run.outputs.maintenanceWindow.value).toEqual({ start: "3:23:30", minutes: 120 });
  });

  test("invalid arguments: one InputPropertiesError with every problem, named by argument, before any child resource", async () => {
    const bad = () =>
      new FsxOntap("bad", {
        ...net,
        deploymentType: "MULTI_AZ_2",
        throughputCapacityMBps: 512,
        svmName: "1svm",
        endpointIpAddressRange: "198.19.255.0/24",
        volumes: [{ name: "bad-name", sizeGiB: 10, junctionPath: "vol" }],
      });
    const reasons = [
      "'throughputCapacityMBps' must be one of 384, 768, 1536, 3072, 6144 (MBps) for 'deploymentType' MULTI_AZ_2, got 512",
      "'svmName' must be an SVM name: 1–47 letters, digits or '_', starting with a letter (e.g. ekssvm), got \"1svm\"",
      "'volumes[0].name' must be an ONTAP volume name: 1–203 letters, digits or '_', starting with a letter (e.g. kafkafsxN1), got \"bad-name\"",
      "'volumes[0].junctionPath' must be a junction path of at most 255 characters starting with '/' (e.g. /kafkafsxN1), got \"vol\"",
    ];
    let thrown: unknown;
    const run = await underMocks(() => {
      try {
        bad();
      } catch (e) {
        thrown = e;
      }
    });
    expect(pulumi.InputPropertiesError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toBe(["invalid arguments of lab:fsx-ontap:FsxOntap 'bad':", ...reasons].join("\n"));
    expect((thrown as pulumi.InputPropertiesError).errors).toEqual([
      { propertyPath: "throughputCapacityMBps", reason: reasons[0] },
      { propertyPath: "svmName", reason: reasons[1] },
      { propertyPath: "volumes[0].name", reason: reasons[2] },
      { propertyPath: "volumes[0].junctionPath", reason: reasons[3] },
    ]);
    expect(run.resources.filter((r) => r.type !== COMPONENT)).toEqual([]);
  });
});
