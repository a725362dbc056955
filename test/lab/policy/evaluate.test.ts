import { renderBenchmark } from "../../../components/bench/render";
import { readJobScripts } from "../../../components/bench/scripts";
import { planAll, PlanResult, scenarioSpecs } from "../../../lab/plan";
import { PlannedResource } from "../../../lab/plan/run";
import { shippedStacks } from "../../../lab/plan/sources";
import { compareViolations, evaluatePolicies, hasMandatory, PolicyResource } from "../../../lab/policy/evaluate";
import { Rule, RULES } from "../../../lab/policy/rules";
import { TYPES as T } from "../../../lab/resource-types";
import { SCENARIOS } from "../../../scenarios";
import { runStack } from "../../../stacks";
import { ROOT } from "../../helpers/root";
import { SHIPPED_STACKS as SHIPPED } from "../../helpers/shipped";

const res = (name: string, type: string, inputs: Record<string, unknown>): PolicyResource => ({
  urn: `urn:pulumi:s::storage-bench-lab::${type}::${name}`,
  type,
  name,
  inputs,
});

describe("evaluatePolicies", () => {
  test("applies each rule to the types it lists, with the rule's level and the one message format", () => {
    const v = evaluatePolicies([
      res("vol", T.ebsVolume, { encrypted: false, type: "gp2" }),
      res("sn", T.subnet, { mapPublicIpOnLaunch: false }),
      res("bucket", "aws:s3/bucket:Bucket", { acl: "public-read" }),
    ]);
    expect(v).toEqual([
      {
        rule: "ebs-encrypted",
        enforcementLevel: "mandatory",
        urn: "urn:pulumi:s::storage-bench-lab::aws:ebs/volume:Volume::vol",
        type: T.ebsVolume,
        name: "vol",
        message: "ebs-encrypted: vol: encrypted must be true, got false",
      },
      {
        rule: "ebs-no-gp2",
        enforcementLevel: "advisory",
        urn: "urn:pulumi:s::storage-bench-lab::aws:ebs/volume:Volume::vol",
        type: T.ebsVolume,
        name: "vol",
        message: 'ebs-no-gp2: vol: type is "gp2": use "gp3"',
      },
    ]);
    expect(hasMandatory(v)).toBe(true);
    expect(hasMandatory(v.filter((x) => x.enforcementLevel === "advisory"))).toBe(false);
  });

  test("sorts mandatory first, then by rule, URN and message, whatever the input order", () => {
    const resources = [
      res("b", T.ebsVolume, { encrypted: false }),
      res("a", T.ebsVolume, { encrypted: false }),
      res("z", T.ingressRule, {}),
      res("i", T.instance, { metadataOptions: { httpTokens: "optional" }, rootBlockDevice: { encrypted: false } }),
    ];
    const v = evaluatePolicies(resources);
    expect(v.map((x) => x.message)).toEqual([
      "ebs-encrypted: a: encrypted must be true, got false",
      "ebs-encrypted: b: encrypted must be true, got false",
      "ebs-encrypted: i: rootBlockDevice.encrypted must be true, got false",
      'ec2-imdsv2-required: i: metadataOptions.httpTokens must be "required", got "optional"',
      'ebs-no-gp2: a: type is not set (AWS creates gp2): set "gp3"',
      'ebs-no-gp2: b: type is not set (AWS creates gp2): set "gp3"',
      "sg-rule-description: z: description is not set",
    ]);
    expect(evaluatePolicies([...resources].reverse())).toEqual(v);
    expect([...v].reverse().sort(compareViolations)).toEqual(v);
  });

  test("a rule that throws is a violation of that rule, not a skip", () => {
    const broken: Rule = {
      name: "broken",
      description: "throws",
      enforcementLevel: "mandatory",
      resourceTypes: [T.subnet],
      check: () => {
        throw new Error("boom");
      },
    };
    expect(evaluatePolicies([res("sn", T.subnet, {})], [broken]).map((x) => x.message)).toEqual([
      "broken: sn: could not be evaluated: boom",
    ]);
  });

  test("BenchmarkRun's Jobs (fio, ioping, pgbench) pass every rule", () => {
    const m = renderBenchmark(
      {
        name: "same-az",
        namespace: "bench",
        runId: "r1",
        zone: "us-east-1a",
        storageClass: "fsx-ontap-san",
        toolsImage: "123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-tools:fio-3.33-ioping-1.3",
        tools: ["fio", "ioping", "pgbench"],
        postgres: { host: "pg", user: "bench", database: "bench", passwordSecret: { name: "pg-auth", key: "password" } },
      },
      readJobScripts(),
    );
    const jobs = m.jobs.map((j) => res(j.tool, T.job, j.job as unknown as Record<string, unknown>));
    expect(jobs.map((j) => j.name)).toEqual(["fio", "ioping", "pgbench"]);
    expect(evaluatePolicies(jobs)).toEqual([]);
  });
});

describe("evaluatePolicies on the real plans of the shipped stacks and scenarios", () => {
  let shipped: PlanResult[];
  let scenarios: PlanResult[];

  beforeAll(async () => {
    shipped = await planAll(shippedStacks(ROOT), runStack);
    scenarios = [];
    for (const s of SCENARIOS) scenarios.push(...(await planAll(scenarioSpecs(s, ROOT), runStack)));
  });

  const resources = (results: PlanResult[]) => results.flatMap((r) => r.plan.resources);
  const ofType = (rs: PlannedResource[], type: string) => rs.filter((r) => r.type === type);

  test("every shipped stack and scenario plan passes: no violation at all, advisory included", () => {
    expect(SHIPPED.length).toBeGreaterThan(0);
    expect(shipped.map((r) => r.plan.stack).sort()).toEqual(SHIPPED);
    for (const r of [...shipped, ...scenarios]) expect([r.plan.stack, evaluatePolicies(r.plan.resources)]).toEqual([r.plan.stack, []]);
  });

  test("the plans exercise the rules: every rule applies to some planned resource", () => {
    const all = resources(shipped);
    const types = new Set(all.map((r) => r.type));
    const unexercised = RULES.filter((rule) => !rule.resourceTypes.some((t) => types.has(t))).map((r) => r.name);
    expect(unexercised).toEqual([]);
    // The inputs the rules read are there, in the shapes the rules expect.
    expect(new Set(ofType(all, T.awsProvider).map((p) => typeof p.inputs.defaultTags))).toEqual(new Set(["string"]));
    expect(ofType(all, T.instance).every((i) => (i.inputs.metadataOptions as { httpTokens: string }).httpTokens === "required")).toBe(true);
    expect(ofType(all, T.ingressRule).length).toBeGreaterThan(0);
  });

  test("a deliberately broken copy fails, with exactly the broken settings", () => {
    const stackOf = (urn: string) => urn.split("::")[0].replace("urn:pulumi:", "");
    const copy: PlannedResource[] = structuredClone(resources(shipped).filter((r) => ["dev", "network"].includes(stackOf(r.urn))));
    const one = (stack: string, type: string, name: string) => {
      const r = copy.find((x) => stackOf(x.urn) === stack && x.type === type && x.name === name);
      if (!r) throw new Error(`no ${type} ${name} in the plan of ${stack}`);
      return r;
    };
    one("dev", T.ingressRule, "ceph-bastion-ssh-admin-1").inputs.cidrIpv4 = "0.0.0.0/0";
    (one("dev", T.instance, "ceph-worker-2").inputs.metadataOptions as Record<string, unknown>).httpTokens = "optional";
    one("dev", T.ebsVolume, "ceph-osd-3").inputs.encrypted = false;
    one("network", T.subnet, "lab-public-az1").inputs.mapPublicIpOnLaunch = true;
    const provider = one("dev", T.awsProvider, "aws");
    const tags = JSON.parse(provider.inputs.defaultTags as string);
    delete tags.tags["lab:owner"];
    provider.inputs.defaultTags = JSON.stringify(tags);
    const job = one("dev", T.job, "pgbench-pgbench").inputs as {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    job.spec.template.spec.containers[0].image = "docker.io/library/postgres:latest";

    const v = evaluatePolicies(copy);
    expect(v.map((x) => [x.enforcementLevel, x.message])).toEqual([
      ["mandatory", "aws-provider-lab-tags: aws: defaultTags.tags lacks lab:owner"],
      ["mandatory", "ebs-encrypted: ceph-osd-3: encrypted must be true, got false"],
      ["mandatory", 'ec2-imdsv2-required: ceph-worker-2: metadataOptions.httpTokens must be "required", got "optional"'],
      [
        "mandatory",
        'k8s-image-pinned: pgbench-pgbench: containers[pgbench]: image "docker.io/library/postgres:latest" uses the tag latest: pin a version tag or a digest',
      ],
      ["mandatory", "sg-no-open-ingress: ceph-bastion-ssh-admin-1: ingress tcp 22 from 0.0.0.0/0 (cidrIpv4) is open to the internet"],
      ["mandatory", "subnet-no-public-ip-on-launch: lab-public-az1: mapPublicIpOnLaunch must be false, got true"],
    ]);
    expect([...new Set(v.map((x) => stackOf(x.urn)))].sort()).toEqual(["dev", "network"]);
    expect(hasMandatory(v)).toBe(true);
    // The shipped plan itself was not touched.
    expect(evaluatePolicies(resources(shipped))).toEqual([]);
  });
});
