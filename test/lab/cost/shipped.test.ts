/**
 * The estimate over the real offline plans of the shipped stacks: every `Pulumi.<stack>.yaml` in
 * the project root, found on disk (a new stack file is checked without an edit here).
 */
import { estimateHourly, HourlyEstimate, Unpriced } from "../../../lab/cost/estimate";
import { planAll, PlanResult } from "../../../lab/plan";
import { shippedStacks } from "../../../lab/plan/sources";
import { runStack } from "../../../stacks";
import { ROOT } from "../../helpers/root";
import { SHIPPED_STACKS as SHIPPED } from "../../helpers/shipped";

const DIGITS = 12;

/** What a shipped stack may leave unpriced, and why; every other shipped stack is priced whole. */
const KNOWN_UNPRICED: Readonly<Record<string, readonly Unpriced[]>> = {
  // The node group's root volumes are its launch template's; the estimate prices one resource at a time.
  "fsx-eks-cluster": [
    {
      type: "eks:index:ManagedNodeGroup",
      name: "eks-nodes",
      what: "node root volumes: their type and size come from the node group's AMI or launch template",
    },
  ],
  // The same for each of the Kafka cluster's three node groups.
  "kafka-cluster": ["system", "brokers", "clients"].map((g) => ({
    type: "eks:index:ManagedNodeGroup",
    name: `eks-nodes-${g}`,
    what: "node root volumes: their type and size come from the node group's AMI or launch template",
  })),
  // No sourced us-east-1 price for FSx SSD IOPS above the included 3/GB.
  "kafka-ontap": [
    {
      type: "aws:fsx/ontapFileSystem:OntapFileSystem",
      name: "fsx-fs",
      what: "SSD IOPS above the included 3/GB (144640 of 160000 IOPS): no sourced us-east-1 price for MULTI_AZ_1 in lab/cost/prices.ts",
    },
  ],
};

let results: PlanResult[];
const estimates = new Map<string, HourlyEstimate>();

beforeAll(async () => {
  results = await planAll(shippedStacks(ROOT), runStack);
  for (const r of results) estimates.set(r.spec.name, estimateHourly(r.plan.resources, r.spec.config["aws:region"]));
});

const est = (stack: string) => {
  const e = estimates.get(stack);
  if (e === undefined) throw new Error(`no estimate for stack ${stack}: is Pulumi.${stack}.yaml still shipped?`);
  return e;
};

describe("hourly estimate of the shipped stacks", () => {
  test("every Pulumi.<stack>.yaml is planned", () => {
    expect(SHIPPED.length).toBeGreaterThan(0);
    expect(results.map((r) => r.spec.name).sort()).toEqual(SHIPPED);
  });

  test.each(SHIPPED)(
    "%s: planned in us-east-1 (the prices' region), every resource type known, every part priced but the known gaps",
    (stack) => {
      const r = results.find((x) => x.spec.name === stack) as PlanResult;
      expect(r.spec.config["aws:region"]).toBe("us-east-1");
      expect(est(stack).unpriced).toEqual(KNOWN_UNPRICED[stack] ?? []);
      expect(est(stack).totalUsdPerHour).toBeCloseTo(
        est(stack).lines.reduce((sum, l) => sum + l.usdPerHour, 0),
        DIGITS,
      );
    },
  );

  test("the known gaps are of shipped stacks", () => {
    for (const stack of Object.keys(KNOWN_UNPRICED)) expect(SHIPPED).toContain(stack);
  });

  test("network: two NAT gateways, their two Elastic IPs and the flow logs' KMS key", () => {
    expect(est("network").totalUsdPerHour).toBeCloseTo(2 * 0.045 + 2 * 0.005 + 1 / 730, DIGITS); // $0.1014/h
    expect(est("network").notes).toContain(
      "usage-billed, no fixed hourly charge, not estimated: aws:cloudwatch/logGroup:LogGroup ×1, aws:ec2/flowLog:FlowLog ×1",
    );
  });

  // 4 nodes + a t3.micro bastion with a public IPv4; 4 × 30 GiB + 8 GiB gp3 roots and 3 × 100 GiB gp3 OSD volumes at 3000/125.
  const cephStorage = ((4 * 30 + 8) * 0.08 + 3 * 100 * 0.08) / 730;

  test("dev: four m4.xlarge (Xen)", () => {
    expect(est("dev").totalUsdPerHour).toBeCloseTo(4 * 0.2 + 0.0104 + 0.005 + cephStorage, DIGITS); // $0.8623/h
  });

  test("nitro: four m5.xlarge (Nitro), cheaper than dev by 4 × $0.008/h", () => {
    expect(est("nitro").totalUsdPerHour).toBeCloseTo(4 * 0.192 + 0.0104 + 0.005 + cephStorage, DIGITS); // $0.8303/h
    expect(est("dev").totalUsdPerHour - est("nitro").totalUsdPerHour).toBeCloseTo(0.032, DIGITS);
  });

  test("fsx-eks-ontap: 1024 GiB / 512 MBps Multi-AZ, a KMS key and two secrets", () => {
    expect(est("fsx-eks-ontap").totalUsdPerHour).toBeCloseTo((1024 * 0.25 + 512 * 1.2 + 1 + 2 * 0.4) / 730, DIGITS); // $1.1948/h
  });

  test("fsx-eks-cluster: the EKS control plane, three m5.xlarge managed nodes and two KMS keys (secrets, control-plane logs)", () => {
    expect(est("fsx-eks-cluster").totalUsdPerHour).toBeCloseTo(0.1 + 3 * 0.192 + 2 / 730, DIGITS); // $0.6787/h
  });

  test("kafka-cluster: the control plane, 3 × m5.large, 3 × i3en.2xlarge brokers, 4 × c5n.2xlarge clients, two KMS keys", () => {
    expect(est("kafka-cluster").totalUsdPerHour).toBeCloseTo(0.1 + 3 * 0.096 + 3 * 0.904 + 4 * 0.432 + 2 / 730, DIGITS);
  });

  test("kafka-ontap: 5120 GiB / 4096 MBps Multi-AZ, a KMS key and two secrets (SSD IOPS not priced)", () => {
    expect(est("kafka-ontap").totalUsdPerHour).toBeCloseTo((5120 * 0.25 + 4096 * 1.2 + 1 + 2 * 0.4) / 730, DIGITS); // $8.4890/h
  });
});
