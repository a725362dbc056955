/**
 * The offline policy check of `lab run` (lab/run/prepare.ts `policyProblems`) on the real plan of
 * a shipped stack: clean as shipped; a mandatory violation (a security group rule opened to the
 * world, which no config can produce: the config rules refuse 0.0.0.0/0 first) is one problem
 * naming the stack and the rule, and stops the run before anything is created
 * (test/lab/run/runner.test.ts: a failed preflight creates nothing).
 */
import type { StackPlan } from "../../../lab/plan/run";
import { planEach, policyProblems, POLICY_PACK_DIR } from "../../../lab/run/prepare";
import { scenarioSpecs } from "../../../lab/plan";
import { loadScenario } from "../../../scenarios/load";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");

describe("policy in preflight", () => {
  let plans: Map<string, StackPlan>;
  beforeAll(async () => {
    const specs = scenarioSpecs(loadScenario("ceph-nitro", ROOT), ROOT).filter((s) => s.name === "network");
    plans = (await planEach(specs)).plans;
  });

  test("the shipped network plans without a mandatory violation", () => {
    expect(policyProblems(plans)).toEqual([]);
  });

  test("an ingress rule open to 0.0.0.0/0: one problem per violation, naming stack and rule", () => {
    const plan = plans.get("network") as StackPlan;
    const open: StackPlan = {
      ...plan,
      resources: [
        ...plan.resources,
        {
          urn: "urn:pulumi:network::storage-bench-lab::aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule::lab-ssh-world",
          type: "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule",
          name: "lab-ssh-world",
          parent: null,
          inputs: { securityGroupId: "sg-1", ipProtocol: "tcp", fromPort: 22, toPort: 22, cidrIpv4: "0.0.0.0/0", description: "ssh" },
          dependencies: [],
          custom: true,
          provider: "",
        },
      ],
    };
    const problems = policyProblems(new Map([["network", open]]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^stack network: policy \(mandatory\): sg-no-open-ingress: lab-ssh-world: .+: fix the config \(the rules: lab\/policy\)$/,
    );
  });

  test("the pack every up enforces is the CrossGuard pack of lab/policy", () => {
    expect(POLICY_PACK_DIR).toBe(path.join("lab", "policy", "pack"));
    expect(fs.existsSync(path.join(ROOT, POLICY_PACK_DIR, "PulumiPolicy.yaml"))).toBe(true);
  });
});
