/**
 * The CrossGuard pack as the Pulumi CLI runs it: `@pulumi/pulumi/cmd/run-policy-pack` started in
 * lab/policy/pack (what `pulumi preview|up --policy-pack lab/policy/pack` does), ts-node compiling
 * the pack, dependencies resolved from the project's node_modules. The test talks to the pack's
 * analyzer over gRPC as the engine would, and checks that it reports exactly what
 * evaluatePolicies reports offline, on the real plans of the shipped stacks.
 */
import * as grpc from "@grpc/grpc-js"; // @pulumi/pulumi's own (single) copy
import { AnalyzerClient } from "@pulumi/pulumi/proto/analyzer_grpc_pb";
import {
  AnalyzeRequest,
  AnalyzeResponse,
  AnalyzerInfo,
  AnalyzerResource,
  AnalyzerResourceOptions,
  AnalyzerPropertyDependencies,
  AnalyzeStackRequest,
  EnforcementLevel,
} from "@pulumi/pulumi/proto/analyzer_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { planAll } from "../../../lab/plan";
import { PlannedResource } from "../../../lab/plan/run";
import { shippedStacks } from "../../../lab/plan/sources";
import { evaluatePlanRules, evaluatePolicies, PolicyResource } from "../../../lab/policy/evaluate";
import { PLAN_RULES, RULES } from "../../../lab/policy/rules";
import { TYPES as T } from "../../../lab/resource-types";
import { runStack } from "../../../stacks";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const PACK = path.join(ROOT, "lab", "policy", "pack");
/** The engine's placeholder for a string unknown during preview (@pulumi/policy proxy.ts). */
const UNKNOWN_STRING = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const STARTUP_MS = 120_000;

let pack: ChildProcess | undefined;
let client: AnalyzerClient;
let planned: PlannedResource[];

/** Starts the pack like the CLI's analyzer host and resolves with the port it prints. */
function startPack(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [require.resolve("@pulumi/pulumi/cmd/run-policy-pack"), "127.0.0.1:1", "."], {
      cwd: PACK,
      stdio: ["ignore", "pipe", "pipe"],
    });
    pack = child;
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`the pack printed no port in ${STARTUP_MS / 1000} s; stderr:\n${err}`)), STARTUP_MS);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\s*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the pack exited with ${code}; stdout:\n${out}\nstderr:\n${err}`));
    });
  });
}

function analyze(r: PolicyResource): Promise<AnalyzeResponse> {
  const req = new AnalyzeRequest();
  req.setType(r.type);
  req.setUrn(r.urn);
  req.setName(r.name);
  req.setProperties(Struct.fromJavaScript(JSON.parse(JSON.stringify(r.inputs))));
  req.setOptions(new AnalyzerResourceOptions()); // the engine always sends options
  return new Promise((resolve, reject) => client.analyze(req, (e, resp) => (e ? reject(e) : resolve(resp))));
}

/** The stack policies' answer for these resources, as the engine asks after a deployment's resources are known. */
async function packStackViolations(resources: readonly PolicyResource[]) {
  const req = new AnalyzeStackRequest();
  req.setResourcesList(
    resources.map((r) => {
      const a = new AnalyzerResource();
      a.setType(r.type);
      a.setUrn(r.urn);
      a.setName(r.name);
      a.setProperties(Struct.fromJavaScript(JSON.parse(JSON.stringify(r.inputs))));
      a.setOptions(new AnalyzerResourceOptions());
      // As the engine sends them (AnalyzerResource.propertyDependencies: input → URNs).
      for (const [key, urns] of Object.entries(r.propertyDependencies ?? {}))
        a.getPropertydependenciesMap().set(key, new AnalyzerPropertyDependencies().setUrnsList([...urns]));
      return a;
    }),
  );
  const resp = await new Promise<AnalyzeResponse>((resolve, reject) => client.analyzeStack(req, (e, r) => (e ? reject(e) : resolve(r))));
  return resp.getDiagnosticsList().map((d) => ({
    rule: d.getPolicyname(),
    enforcementLevel: d.getEnforcementlevel() === EnforcementLevel.MANDATORY ? "mandatory" : "advisory",
    urn: d.getUrn(),
    message: d.getMessage(),
  }));
}

/** What the pack reported, in evaluatePolicies' terms. */
async function packViolations(resources: readonly PolicyResource[]) {
  const out: Array<{ rule: string; enforcementLevel: string; urn: string; message: string }> = [];
  for (const r of resources) {
    for (const d of (await analyze(r)).getDiagnosticsList()) {
      out.push({
        rule: d.getPolicyname(),
        enforcementLevel: d.getEnforcementlevel() === EnforcementLevel.MANDATORY ? "mandatory" : "advisory",
        urn: r.urn,
        message: d.getMessage(),
      });
    }
  }
  return out;
}

const offline = (resources: readonly PolicyResource[]) =>
  evaluatePolicies(resources).map(({ rule, enforcementLevel, urn, message }) => ({ rule, enforcementLevel, urn, message }));
/** CrossGuard shows a violation as the policy's description, then the message reported. */
const asReported = (v: { rule: string; enforcementLevel: string; urn: string; message: string }) => ({
  ...v,
  message: `${RULES.find((r) => r.name === v.rule)?.description}\n${v.message}`,
});
const sorted = <X extends { rule: string; urn: string; message: string }>(xs: X[]) =>
  [...xs].sort((a, b) => (a.rule + a.urn + a.message < b.rule + b.urn + b.message ? -1 : 1));

beforeAll(async () => {
  const [port, results] = await Promise.all([startPack(), planAll(shippedStacks(ROOT), runStack)]);
  planned = results.flatMap((r) => r.plan.resources);
  client = new AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}, STARTUP_MS + 30_000);

afterAll(() => {
  client?.close();
  pack?.removeAllListeners("exit");
  pack?.kill();
});

describe("the CrossGuard pack (lab/policy/pack)", () => {
  test("is a nodejs pack with its version in its own package.json and no dependencies of its own", () => {
    expect(fs.readFileSync(path.join(PACK, "PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    const pkg = JSON.parse(fs.readFileSync(path.join(PACK, "package.json"), "utf8"));
    expect([pkg.version, pkg.dependencies, pkg.devDependencies]).toEqual(["0.1.0", undefined, undefined]);
    expect(fs.existsSync(path.join(PACK, "node_modules"))).toBe(false);
  });

  test("announces the lab's rules: names, descriptions, enforcement levels", async () => {
    const info = await new Promise<AnalyzerInfo>((resolve, reject) =>
      client.getAnalyzerInfo(new Empty(), (e, r) => (e ? reject(e) : resolve(r))),
    );
    expect([info.getName(), info.getVersion()]).toEqual(["storage-bench-lab", "0.1.0"]);
    expect(
      info.getPoliciesList().map((p) => [p.getName(), p.getDescription(), p.getEnforcementlevel() === EnforcementLevel.MANDATORY]),
    ).toEqual([...RULES, ...PLAN_RULES].map((r) => [r.name, r.description, r.enforcementLevel === "mandatory"]));
  });

  test("reports on every planned resource of the shipped stacks exactly what evaluatePolicies reports", async () => {
    // That there is nothing to report is test/lab/policy/evaluate.test.ts' assertion; this one is that both runners agree.
    expect(planned.length).toBeGreaterThan(100);
    expect(sorted(await packViolations(planned))).toEqual(sorted(offline(planned).map(asReported)));
  });

  test("reports exactly what evaluatePolicies reports on a broken copy (after the policy's description)", async () => {
    const broken = structuredClone(planned.filter((r) => r.urn.startsWith("urn:pulumi:dev::")));
    const find = (type: string, name: string) => broken.find((r) => r.type === type && r.name === name) as PlannedResource;
    find(T.ingressRule, "ceph-bastion-api-admin-1").inputs.cidrIpv4 = "0.0.0.0/0";
    (find(T.instance, "ceph-controller").inputs.metadataOptions as Record<string, unknown>).httpTokens = "optional";
    find(T.ebsVolume, "ceph-osd-1").inputs.type = "gp2";
    find(T.securityGroup, "ceph-worker").inputs.ingress = [
      { protocol: "tcp", fromPort: 22, toPort: 22, cidrBlocks: ["10.0.0.0/16"], description: "SSH from the VPC" },
      { protocol: "-1", fromPort: 0, toPort: 0, ipv6CidrBlocks: ["::/0"] },
    ];
    const provider = find(T.awsProvider, "aws");
    const tags = JSON.parse(provider.inputs.defaultTags as string);
    delete tags.tags["lab:stack"];
    delete tags.tags["lab:owner"];
    provider.inputs.defaultTags = JSON.stringify(tags);
    const job = find(T.job, "pgbench-pgbench").inputs as { spec: Record<string, unknown> };
    delete job.spec.ttlSecondsAfterFinished;
    const bench = find(T.namespace, "pg-ns").inputs as { metadata: { labels: Record<string, string> } };
    bench.metadata.labels["pod-security.kubernetes.io/enforce"] = "privileged";
    (find(T.statefulSet, "pg-server").inputs.metadata as Record<string, unknown>).namespace = "default";

    const expected = offline(broken);
    const before = new Set(offline(planned).map((v) => `${v.urn}\n${v.message}`));
    expect(expected.filter((v) => !before.has(`${v.urn}\n${v.message}`)).map((v) => v.message)).toEqual([
      "aws-provider-lab-tags: aws: defaultTags.tags lacks lab:stack, lab:owner: build the provider with stacks/lib labAwsProvider",
      'ec2-imdsv2-required: ceph-controller: metadataOptions.httpTokens must be "required", got "optional"',
      "k8s-job-limits: pgbench-pgbench: spec.ttlSecondsAfterFinished is not set: set it so that finished Jobs go away",
      'k8s-namespace-pod-security: pg-ns: metadata.labels["pod-security.kubernetes.io/enforce"] is "privileged" for namespace "bench": only rook-ceph, trident may be privileged: use "restricted" or "baseline"',
      'k8s-no-default-namespace: pg-server: metadata.namespace is "default": use a namespace the lab creates for the workload',
      "sg-no-open-ingress: ceph-worker: ingress[1] all traffic from ::/0 (ipv6CidrBlocks) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
      "sg-no-open-ingress: ceph-bastion-api-admin-1: ingress tcp 6443 from 0.0.0.0/0 (cidrIpv4) is open to the internet: allow the VPC's CIDR, a security group or the operator's own CIDRs instead",
      'ebs-no-gp2: ceph-osd-1: type is "gp2": use "gp3"',
      "sg-rule-description: ceph-worker: ingress[1]: description is not set: say what the rule is for (which port, from whom, why)",
    ]);
    expect(sorted(await packViolations(broken))).toEqual(sorted(expected.map(asReported)));
  });

  test("the plan rules run as stack policies: nothing on the shipped stacks; on a Service without its policies, what evaluatePlanRules reports", async () => {
    const fsxEks = planned.filter((r) => r.urn.startsWith("urn:pulumi:fsx-eks::"));
    expect(await packStackViolations(fsxEks)).toEqual([]);
    const withoutPolicies = fsxEks.filter((r) => !(r.type === T.networkPolicy && r.name.startsWith("mysql-netpol-")));
    const offlineStack = evaluatePlanRules(withoutPolicies).map(({ rule, enforcementLevel, urn, message }) => ({
      rule,
      enforcementLevel,
      urn,
      message,
    }));
    expect(offlineStack.map((v) => v.message)).toEqual([
      'k8s-service-network-policy: mysql-mysql: no NetworkPolicy in namespace "mysql" restricts ingress to the pods of selector {"app.kubernetes.io/instance":"mysql","app.kubernetes.io/name":"mysql","app.kubernetes.io/part-of":"storage-bench-lab"}: add a default-deny policy (podSelector {}, policyTypes Ingress and Egress) and policies allowing exactly the flows its clients use',
      'k8s-service-network-policy: mysql-mysql-read: no NetworkPolicy in namespace "mysql" restricts ingress to the pods of selector {"app.kubernetes.io/instance":"mysql","app.kubernetes.io/name":"mysql","app.kubernetes.io/part-of":"storage-bench-lab"}: add a default-deny policy (podSelector {}, policyTypes Ingress and Egress) and policies allowing exactly the flows its clients use',
    ]);
    const described = offlineStack.map((v) => ({
      ...v,
      message: `${PLAN_RULES.find((r) => r.name === v.rule)?.description}\n${v.message}`,
    }));
    expect(sorted(await packStackViolations(withoutPolicies))).toEqual(sorted(described));
  });

  test("ec2-no-public-ip-eip under the pack ties the bastion's Elastic IP to its instance by the property dependencies, as offline", async () => {
    const association = planned.find((r) => r.type === T.eipAssociation);
    if (association === undefined) throw new Error("no Elastic IP association planned");
    const stack = planned.filter((r) => r.urn.startsWith(association.urn.slice(0, association.urn.indexOf("::") + 2)));
    expect(association.propertyDependencies?.instanceId).toEqual([
      stack.find((r) => r.type === T.instance && r.name === "ceph-bastion")?.urn,
    ]);
    expect(await packStackViolations(stack)).toEqual([]);
    const controller = stack.find((r) => r.type === T.instance && r.name === "ceph-controller");
    if (controller === undefined) throw new Error("no ceph-controller planned");
    const moved = stack.map((r) =>
      r === association ? { ...r, propertyDependencies: { ...r.propertyDependencies, instanceId: [controller.urn] } } : r,
    );
    const offlineStack = evaluatePlanRules(moved).map(({ rule, enforcementLevel, urn, message }) => ({
      rule,
      enforcementLevel,
      urn,
      message,
    }));
    expect(offlineStack.map((v) => v.message)).toEqual([
      'ec2-no-public-ip-eip: ceph-bastion: instanceId is instance ceph-controller, whose lab:role is "controller": an Elastic IP goes only to instances tagged lab:role bastion',
    ]);
    const described = offlineStack.map((v) => ({
      ...v,
      message: `${PLAN_RULES.find((r) => r.name === v.rule)?.description}\n${v.message}`,
    }));
    expect(await packStackViolations(moved)).toEqual(described);
  });

  test("during preview, a rule that reads a value not yet known is an advisory, never a pass or a block", async () => {
    const instance = res(T.instance, "ceph-worker-1", {
      metadataOptions: { httpTokens: UNKNOWN_STRING },
      rootBlockDevice: { encrypted: true },
    });
    expect(await packViolations([instance])).toEqual([
      {
        rule: "ec2-imdsv2-required",
        enforcementLevel: "advisory",
        urn: instance.urn,
        message:
          "can't run policy 'ec2-imdsv2-required' from policy pack 'storage-bench-lab@v0.1.0' during preview: " +
          "string value at .metadataOptions.httpTokens can't be known during preview",
      },
    ]);
  });
});

function res(type: string, name: string, inputs: Record<string, unknown>): PolicyResource {
  return { urn: `urn:pulumi:dev::storage-bench-lab::${type}::${name}`, type, name, inputs };
}
