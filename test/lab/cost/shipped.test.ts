/** The estimate over the real offline plans of the shipped stacks (Pulumi.<stack>.yaml). */
import * as path from "node:path";
import { estimateHourly, HourlyEstimate } from "../../../lab/cost/estimate";
import { planAll, PlanResult } from "../../../lab/plan";
import { shippedStacks } from "../../../lab/plan/sources";
import { runStack } from "../../../stacks";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const DIGITS = 12;

let results: PlanResult[];
const estimates = new Map<string, HourlyEstimate>();

beforeAll(async () => {
  results = await planAll(shippedStacks(ROOT), runStack);
  for (const r of results) estimates.set(r.spec.name, estimateHourly(r.plan.resources, r.spec.config["aws:region"]));
});

const est = (stack: string) => estimates.get(stack) as HourlyEstimate;

describe("hourly estimate of the shipped stacks", () => {
  test("every shipped stack is planned in us-east-1 and has a positive total", () => {
    expect(results.map((r) => r.spec.name).sort()).toEqual(["dev", "fsx-eks-ontap", "kafka-ontap", "network", "nitro"]);
    for (const r of results) {
      expect(r.spec.config["aws:region"]).toBe("us-east-1");
      expect(est(r.spec.name).totalUsdPerHour).toBeGreaterThan(0);
    }
  });

  test("nothing is unpriced except the kafka file system's SSD IOPS above 3/GB (no sourced us-east-1 price)", () => {
    expect(Object.fromEntries([...estimates].map(([stack, e]) => [stack, e.unpriced]))).toEqual({
      network: [],
      dev: [],
      nitro: [],
      "fsx-eks-ontap": [],
      "kafka-ontap": [
        {
          type: "aws:fsx/ontapFileSystem:OntapFileSystem",
          name: "fsx-fs",
          what: "SSD IOPS above the included 3/GB (144640 of 160000 IOPS): no sourced us-east-1 price for MULTI_AZ_1 in lab/cost/prices.ts",
        },
      ],
    });
  });

  test("network: two NAT gateways and their two Elastic IPs", () => {
    expect(est("network").totalUsdPerHour).toBeCloseTo(2 * 0.045 + 2 * 0.005, DIGITS); // $0.10/h
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

  test("kafka-ontap: 5120 GiB / 4096 MBps Multi-AZ, a KMS key and two secrets (SSD IOPS not priced)", () => {
    expect(est("kafka-ontap").totalUsdPerHour).toBeCloseTo((5120 * 0.25 + 4096 * 1.2 + 1 + 2 * 0.4) / 730, DIGITS); // $8.4890/h
  });
});
