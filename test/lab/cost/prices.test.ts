import { DEPLOYMENT_TYPES } from "../../../components/fsx-ontap/rules";
import {
  allPrices,
  EBS_GP3_IOPS_MONTH,
  EBS_GP3_STORAGE_GB_MONTH,
  EBS_GP3_THROUGHPUT_MIBPS_MONTH,
  EC2_LINUX_ON_DEMAND,
  EKS_CLUSTER_HOUR,
  FSX_ONTAP,
  HOURS_PER_MONTH,
  KMS_KEY_MONTH,
  NAT_GATEWAY_HOUR,
  perHour,
  CROSS_AZ_TRANSFER_GB,
  PRICE_REGION,
  PUBLIC_IPV4_HOUR,
  SECRETS_MANAGER_SECRET_MONTH,
} from "../../../lab/cost/prices";

describe("price table", () => {
  test("is for us-east-1 and converts months at 730 h", () => {
    expect(PRICE_REGION).toBe("us-east-1");
    expect(HOURS_PER_MONTH).toBe(730);
    expect(perHour(KMS_KEY_MONTH)).toBe(1 / 730);
    expect(perHour(NAT_GATEWAY_HOUR)).toBe(0.045);
    expect(perHour(PUBLIC_IPV4_HOUR)).toBe(0.005);
    expect(() => perHour(CROSS_AZ_TRANSFER_GB)).toThrow(
      "EC2 data transfer between Availability Zones of one region, per GB in each direction is billed per GB sent, not per hour",
    );
  });

  test("every entry has a unit, a positive USD figure, a source and a real date; an unstated region is explained", () => {
    const prices = allPrices();
    expect(prices.length).toBe(23);
    for (const p of prices) {
      expect(p.what).not.toBe("");
      expect(p.usd).toBeGreaterThan(0);
      expect(p.source).toMatch(/^https:\/\//);
      expect(p.asOf).toMatch(/^20\d\d-\d\d-\d\d$/);
      expect(new Date(`${p.asOf}T00:00:00Z`).toISOString().slice(0, 10)).toBe(p.asOf);
      if (!p.regionStated) expect(p.note ?? "").not.toBe("");
    }
  });

  test("the figures read in the sources", () => {
    expect(Object.fromEntries(Object.entries(EC2_LINUX_ON_DEMAND).map(([t, p]) => [t, [p.usd, p.unit]]))).toEqual({
      "c5n.2xlarge": [0.432, "USD/hour"],
      "i3en.2xlarge": [0.904, "USD/hour"],
      "m4.large": [0.1, "USD/hour"],
      "m4.xlarge": [0.2, "USD/hour"],
      "m4.2xlarge": [0.4, "USD/hour"],
      "m5.large": [0.096, "USD/hour"],
      "m5.xlarge": [0.192, "USD/hour"],
      "m5.2xlarge": [0.384, "USD/hour"],
      "t3.micro": [0.0104, "USD/hour"],
      "t3.small": [0.0208, "USD/hour"],
      "t3.medium": [0.0416, "USD/hour"],
    });
    const fig = (p: { usd: number; unit: string }) => [p.usd, p.unit];
    expect(fig(NAT_GATEWAY_HOUR)).toEqual([0.045, "USD/hour"]);
    expect(fig(PUBLIC_IPV4_HOUR)).toEqual([0.005, "USD/IP-hour"]);
    expect(fig(EBS_GP3_STORAGE_GB_MONTH)).toEqual([0.08, "USD/GB-month"]);
    expect(fig(EBS_GP3_IOPS_MONTH)).toEqual([0.005, "USD/IOPS-month"]);
    expect(fig(EBS_GP3_THROUGHPUT_MIBPS_MONTH)).toEqual([0.04, "USD/MiBps-month"]);
    expect(fig(KMS_KEY_MONTH)).toEqual([1, "USD/key-month"]);
    expect(fig(SECRETS_MANAGER_SECRET_MONTH)).toEqual([0.4, "USD/secret-month"]);
    expect(fig(EKS_CLUSTER_HOUR)).toEqual([0.1, "USD/hour"]);
  });

  test("FSx for ONTAP: only first-generation Multi-AZ is priced, its SSD IOPS unconfirmed; Single-AZ and second generation are absent", () => {
    const table = Object.fromEntries(
      Object.entries(FSX_ONTAP).map(([dt, p]) => [
        dt,
        { ssd: p.ssdGbMonth?.usd, iops: p.ssdIopsMonth?.usd, throughput: p.throughputMbpsMonth?.usd },
      ]),
    );
    expect(table).toEqual({
      MULTI_AZ_1: { ssd: 0.25, iops: 0.017, throughput: 1.2 },
      SINGLE_AZ_1: { ssd: undefined, iops: undefined, throughput: undefined },
      MULTI_AZ_2: { ssd: undefined, iops: undefined, throughput: undefined },
      SINGLE_AZ_2: { ssd: undefined, iops: undefined, throughput: undefined },
    });
    expect(Object.keys(FSX_ONTAP).sort()).toEqual([...DEPLOYMENT_TYPES].sort());
    expect(FSX_ONTAP.MULTI_AZ_1.ssdGbMonth?.unit).toBe("USD/GB-month");
    expect(FSX_ONTAP.MULTI_AZ_1.throughputMbpsMonth?.unit).toBe("USD/MBps-month");
    expect(FSX_ONTAP.MULTI_AZ_1.ssdIopsMonth?.unit).toBe("USD/IOPS-month");
    expect(FSX_ONTAP.MULTI_AZ_1.ssdIopsMonth?.unconfirmed).toMatch(/^the source names neither the region nor the deployment type/);
    expect([FSX_ONTAP.MULTI_AZ_1.ssdGbMonth?.unconfirmed, FSX_ONTAP.MULTI_AZ_1.throughputMbpsMonth?.unconfirmed]).toEqual([
      undefined,
      undefined,
    ]);
  });
});
