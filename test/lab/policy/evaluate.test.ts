import { renderBenchmark } from "../../../components/bench/render";
import { readJobScripts } from "../../../components/bench/scripts";
import { planAll, PlanResult, scenarioSpecs } from "../../../lab/plan";
import { PlannedResource } from "../../../lab/plan/run";
import { shippedStacks } from "../../../lab/plan/sources";
import {
  compareViolations,
  evaluatePlan,
  evaluatePolicies,
  evaluateStackOutputs,
  hasMandatory,
  PolicyResource,
  STACK_TYPE,
  Violation,
} from "../../../lab/policy/evaluate";
import { Rule, RULES, StackRule } from "../../../lab/policy/rules";
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
      "sg-rule-description: z: description is not set: say what the rule is for (which port, from whom, why)",
    ]);
    expect(evaluatePolicies([...resources].reverse())).toEqual(v);
    expect([...v].reverse().sort(compareViolations)).toEqual(v);
  });

  test("a rule that throws is a violation of that rule, not a skip", () => {
    const broken: Rule = {
      name: "broken",
      description: "throws",
      enforcementLevel: "mandatory",
      controls: { checkov: [], trivy: [] },
      resourceTypes: [T.subnet],
      check: () => {
        throw new Error("boom");
      },
    };
    expect(evaluatePolicies([res("sn", T.subnet, {})], [broken]).map((x) => x.message)).toEqual([
      "broken: sn: could not be evaluated: boom",
    ]);
  });

  test("stack outputs: reported on the stack's root resource, in the one format", () => {
    const v = evaluateStackOutputs({
      stack: "dev",
      outputs: { kubeconfig: "<computed>", rootPassword: "[secret]", adminPassword: "p", amiId: "ami-1" },
      secretOutputNames: ["rootPassword"],
    });
    expect(v).toEqual([
      {
        rule: "stack-outputs-no-passwords",
        enforcementLevel: "mandatory",
        urn: "urn:pulumi:dev::storage-bench-lab::pulumi:pulumi:Stack::storage-bench-lab-dev",
        type: STACK_TYPE,
        name: "storage-bench-lab-dev",
        message:
          "stack-outputs-no-passwords: storage-bench-lab-dev: output adminPassword holds a password: export a reference to where it is kept (a Secret's name and key, an ARN) instead",
      },
      {
        rule: "stack-outputs-no-passwords",
        enforcementLevel: "mandatory",
        urn: "urn:pulumi:dev::storage-bench-lab::pulumi:pulumi:Stack::storage-bench-lab-dev",
        type: STACK_TYPE,
        name: "storage-bench-lab-dev",
        message:
          "stack-outputs-no-passwords: storage-bench-lab-dev: output rootPassword holds a password: export a reference to where it is kept (a Secret's name and key, an ARN) instead",
      },
      {
        rule: "stack-outputs-secret",
        enforcementLevel: "mandatory",
        urn: "urn:pulumi:dev::storage-bench-lab::pulumi:pulumi:Stack::storage-bench-lab-dev",
        type: STACK_TYPE,
        name: "storage-bench-lab-dev",
        message:
          "stack-outputs-secret: storage-bench-lab-dev: output adminPassword holds a password and is not a secret: export it wrapped in pulumi.secret()",
      },
      {
        rule: "stack-outputs-secret",
        enforcementLevel: "mandatory",
        urn: "urn:pulumi:dev::storage-bench-lab::pulumi:pulumi:Stack::storage-bench-lab-dev",
        type: STACK_TYPE,
        name: "storage-bench-lab-dev",
        message:
          "stack-outputs-secret: storage-bench-lab-dev: output kubeconfig holds a kubeconfig and is not a secret: export it wrapped in pulumi.secret()",
      },
    ]);
    expect(STACK_TYPE).toBe("pulumi:pulumi:Stack");
  });

  test("a stack rule that throws is a violation of that rule; evaluatePlan merges resources and outputs, sorted", () => {
    const broken: StackRule = {
      name: "broken-outputs",
      description: "throws",
      enforcementLevel: "advisory",
      controls: { checkov: [], trivy: [] },
      checkOutputs: () => {
        throw new Error("boom");
      },
    };
    expect(evaluateStackOutputs({ stack: "s", outputs: {} }, [broken]).map((x) => x.message)).toEqual([
      "broken-outputs: storage-bench-lab-s: could not be evaluated: boom",
    ]);
    const plan = {
      stack: "s",
      outputs: { token: "t" },
      secretOutputNames: [],
      resources: [res("k", T.kmsKey, { enableKeyRotation: false }), res("z", T.ingressRule, { description: "d" })],
    };
    expect(evaluatePlan(plan).map((x) => x.message)).toEqual([
      "kms-key-rotation: k: enableKeyRotation must be true (yearly rotation of the key material), got false",
      "stack-outputs-secret: storage-bench-lab-s: output token holds a token and is not a secret: export it wrapped in pulumi.secret()",
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

  test("every shipped stack and scenario plan passes, resources and outputs: no violation at all, advisory included", () => {
    expect(SHIPPED.length).toBeGreaterThan(0);
    expect(shipped.map((r) => r.plan.stack).sort()).toEqual(SHIPPED);
    expect(scenarios.length).toBeGreaterThan(0);
    const found = [...shipped, ...scenarios].map((r) => [r.spec.source, evaluatePlan(r.plan).map((v) => v.message)]);
    expect(found).toEqual([...shipped, ...scenarios].map((r) => [r.spec.source, []]));
  });

  test("the plans carry what the stack rules read: every stack's secret outputs, known or not", () => {
    const secrets = Object.fromEntries(shipped.map((r) => [r.plan.stack, r.plan.secretOutputNames]));
    expect(secrets.dev).toEqual(["kubeconfig"]);
    expect(secrets["fsx-eks-cluster"]).toEqual(["kubeconfig"]);
    // dev's kubeconfig is unknown until the cluster exists: the plan shows "<computed>", the names say it is secret.
    expect(shipped.find((r) => r.plan.stack === "dev")?.plan.outputs.kubeconfig).toBe("<computed>");
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

  const stackOf = (urn: string) => urn.split("::")[0].replace("urn:pulumi:", "");
  /** A copy of the shipped stacks' resources, and a finder of one resource in it. */
  const copyOf = (stacks: readonly string[]) => {
    const copy: PlannedResource[] = structuredClone(resources(shipped).filter((r) => stacks.includes(stackOf(r.urn))));
    const one = (stack: string, type: string, name: string) => {
      const r = copy.find((x) => stackOf(x.urn) === stack && x.type === type && x.name === name);
      if (!r) throw new Error(`no ${type} ${name} in the plan of ${stack}`);
      return r;
    };
    return { copy, one };
  };
  /** What breaking a copy added: the violations of the copy that the untouched plans do not have. */
  const added = (copy: PlannedResource[], stacks: readonly string[]): Violation[] => {
    const key = (v: Violation) => `${v.urn}\n${v.message}`;
    const before = new Set(evaluatePolicies(resources(shipped).filter((r) => stacks.includes(stackOf(r.urn)))).map(key));
    return evaluatePolicies(copy).filter((v) => !before.has(key(v)));
  };

  test("a deliberately broken copy fails, with exactly the broken settings", () => {
    const stacks = ["dev", "network"];
    const { copy, one } = copyOf(stacks);
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
    one("network", T.kmsKey, "lab-flow-logs").inputs.enableKeyRotation = false;
    const group = one("network", T.logGroup, "lab-flow-logs").inputs;
    group.retentionInDays = 0;
    delete group.kmsKeyId;

    const v = added(copy, stacks);
    expect(v.map((x) => [x.enforcementLevel, x.message])).toEqual([
      ["mandatory", "aws-provider-lab-tags: aws: defaultTags.tags lacks lab:owner: build the provider with stacks/lib labAwsProvider"],
      ["mandatory", "ebs-encrypted: ceph-osd-3: encrypted must be true, got false"],
      ["mandatory", 'ec2-imdsv2-required: ceph-worker-2: metadataOptions.httpTokens must be "required", got "optional"'],
      [
        "mandatory",
        'k8s-image-pinned: pgbench-pgbench: containers[pgbench]: image "docker.io/library/postgres:latest" uses the tag latest: pin a version tag or a digest',
      ],
      ["mandatory", "kms-key-rotation: lab-flow-logs: enableKeyRotation must be true (yearly rotation of the key material), got false"],
      [
        "mandatory",
        "log-group-kms: lab-flow-logs: kmsKeyId is not set: encrypt the log group with a customer managed KMS key whose key policy lets logs.<region>.amazonaws.com use it (for this log group's ARN)",
      ],
      [
        "mandatory",
        "log-group-retention: lab-flow-logs: retentionInDays must be a number of days, got 0 (kept forever): set a retention, e.g. 30",
      ],
      [
        "mandatory",
        "sg-no-open-ingress: ceph-bastion-ssh-admin-1: ingress tcp 22 from 0.0.0.0/0 (cidrIpv4) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
      ],
      ["mandatory", "subnet-no-public-ip-on-launch: lab-public-az1: mapPublicIpOnLaunch must be false, got true"],
    ]);
    expect([...new Set(v.map((x) => stackOf(x.urn)))].sort()).toEqual(["dev", "network"]);
    expect(hasMandatory(v)).toBe(true);
  });

  test("a broken copy of the EKS experiment fails on the EKS, IAM, ECR and Kubernetes rules, naming each setting", () => {
    const stacks = ["fsx-eks-cluster", "fsx-eks"];
    const { copy, one } = copyOf(stacks);
    const cluster = one("fsx-eks-cluster", T.eksComponentCluster, "eks-cluster").inputs;
    cluster.publicAccessCidrs = ["198.51.100.7/32", "0.0.0.0/0"];
    cluster.enabledClusterLogTypes = ["api", "audit"];
    delete cluster.encryptionConfigKeyArn;
    cluster.skipDefaultNodeGroup = false;
    delete one("fsx-eks-cluster", T.eksManagedNodeGroup, "eks-nodes").inputs.launchTemplate;
    const policy = one("fsx-eks-cluster", T.iamRolePolicy, "trident-fsx").inputs;
    const doc = JSON.parse(policy.policy as string);
    doc.Statement.push({ Sid: "Everything", Effect: "Allow", Action: "fsx:*", Resource: "*" });
    policy.policy = JSON.stringify(doc);
    const repo = one("fsx-eks-cluster", T.ecrRepository, "tools-repo").inputs;
    repo.imageTagMutability = "MUTABLE";
    repo.imageScanningConfiguration = { scanOnPush: false };
    const bench = one("fsx-eks", T.namespace, "bench-ns").inputs as { metadata: { labels: Record<string, string> } };
    bench.metadata.labels["pod-security.kubernetes.io/enforce"] = "privileged";
    const fio = one("fsx-eks", T.job, "nas-same-seed-fio").inputs as {
      metadata: Record<string, unknown>;
      spec: { template: { spec: Record<string, unknown> } };
    };
    fio.metadata.namespace = "default";
    fio.spec.template.spec.hostNetwork = true;
    const mysql = one("fsx-eks", T.statefulSet, "mysql-servers").inputs as {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    delete mysql.spec.template.spec.containers[0].readinessProbe;

    const v = added(copy, stacks);
    const open = "only rook-ceph, trident may run privileged or host-access pods: drop it, or run the workload in one of them";
    expect(v.map((x) => x.message)).toEqual([
      'ecr-immutable-tags: tools-repo: imageTagMutability must be "IMMUTABLE", got "MUTABLE"',
      "ecr-scan-on-push: tools-repo: imageScanningConfiguration.scanOnPush must be true, got false",
      "eks-control-plane-logging: eks-cluster: enabledClusterLogTypes lacks authenticator, controllerManager, scheduler: enable all five control-plane log types",
      "eks-node-group-imdsv2: eks-cluster: skipDefaultNodeGroup must be true, got false: the default node group cannot require IMDSv2; add managed node groups with an IMDSv2 launch template instead",
      'eks-node-group-imdsv2: eks-nodes: launchTemplate is not set and enableIMDSv2 is not true: give it a launch template with metadataOptions.httpTokens "required" (checked by ec2-imdsv2-required), or set enableIMDSv2: true',
      'eks-public-endpoint-restricted: eks-cluster: publicAccessCidrs has "0.0.0.0/0": the public endpoint is open to the internet: set the operator\'s own CIDRs, or endpointPublicAccess: false',
      "eks-secrets-encryption: eks-cluster: encryptionConfigKeyArn is not set: encrypt Kubernetes secrets with a KMS key of the stack's",
      'iam-no-wildcard-actions: trident-fsx: policy Statement[1] (Everything) allows action "fsx:*": list the actions it needs',
      'iam-no-wildcard-resources: trident-fsx: policy Statement[1] (Everything) allows fsx:* on Resource "*": name the resources (ARNs), or, where the service documents that it needs *, list the statement in IAM_WILDCARD_RESOURCE_EXCEPTIONS with its source',
      "k8s-job-restricted-pod-security: nas-same-seed-fio: pod: hostNetwork must not be true",
      'k8s-namespace-pod-security: bench-ns: metadata.labels["pod-security.kubernetes.io/enforce"] is "privileged" for namespace "bench": only rook-ceph, trident may be privileged: use "restricted" or "baseline"',
      'k8s-no-default-namespace: nas-same-seed-fio: metadata.namespace is "default": use a namespace the lab creates for the workload',
      `k8s-privileged-namespaces: nas-same-seed-fio: pod hostNetwork in namespace "default": ${open}`,
      "k8s-probes: mysql-servers: containers[mysql]: readinessProbe not set: probe the container (exec, httpGet or tcpSocket on its port)",
    ]);
    expect(v.every((x) => x.enforcementLevel === "mandatory")).toBe(true);
  });

  test("a stack output made plain: the stack rule names it on the stack", () => {
    const dev = shipped.find((r) => r.plan.stack === "dev")?.plan;
    if (!dev) throw new Error("no plan of dev");
    const plain = {
      ...dev,
      secretOutputNames: ["kubeconfig"],
      outputs: { ...dev.outputs, sshPrivateKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nx" },
    };
    expect(
      evaluatePlan(plain)
        .filter((x) => x.rule === "stack-outputs-secret")
        .map((x) => [x.urn, x.message]),
    ).toEqual([
      [
        "urn:pulumi:dev::storage-bench-lab::pulumi:pulumi:Stack::storage-bench-lab-dev",
        "stack-outputs-secret: storage-bench-lab-dev: output sshPrivateKey holds a key and is not a secret: export it wrapped in pulumi.secret()",
      ],
    ]);
    // Made a secret, it is still a private key in an output.
    const secret = { ...plain, secretOutputNames: ["kubeconfig", "sshPrivateKey"], outputs: { ...dev.outputs, sshPrivateKey: "[secret]" } };
    expect(evaluatePlan(secret).map((x) => x.message)).toEqual([
      "stack-outputs-no-private-key: storage-bench-lab-dev: output sshPrivateKey holds a private key: export none, not even as a secret; give the key to what uses it as an input",
    ]);
  });
});
