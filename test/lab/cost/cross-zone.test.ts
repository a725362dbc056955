/** lab/cost/cross-zone.ts: the estimate names cross-zone transfer exactly where a plan's brokers are not pinned to one zone. */
import { brokerPoolManifest, controllerPoolManifest } from "../../../components/kafka/manifests";
import { resolve } from "../../../components/kafka/rules";
import { crossZoneNotes, crossZoneUsdPerGBpsHour } from "../../../lab/cost/cross-zone";
import { estimateHourly } from "../../../lab/cost/estimate";
import { CROSS_AZ_TRANSFER_GB, perHour } from "../../../lab/cost/prices";

const r = resolve({ dataVolumes: ["/kafkafsxN1", "/kafkafsxN2"] });
const pool = (zone?: string) => ({
  type: "kubernetes:kafka.strimzi.io/v1:KafkaNodePool",
  name: "kafka-pool-brokers",
  inputs: brokerPoolManifest(r, zone) as unknown as Record<string, unknown>,
});
const controllers = {
  type: "kubernetes:kafka.strimzi.io/v1:KafkaNodePool",
  name: "kafka-pool-controllers",
  inputs: controllerPoolManifest(r) as unknown as Record<string, unknown>,
};
const NOTE =
  "cross-zone data transfer: the brokers of kafka-pool-brokers are not pinned to one zone (lab:zonePlacement spread), so NFS, replication and client traffic crosses zones, " +
  "billed at $0.01/GB in each direction ($0.02 a GB crossing): $72.00 for each GB/s crossing for an hour while the benchmark runs (usage: not in the total)";

describe("cross-zone transfer", () => {
  test("the price: $0.01/GB each way, per GB (never an hourly figure); one GB/s crossing for an hour is $72", () => {
    expect([CROSS_AZ_TRANSFER_GB.usd, CROSS_AZ_TRANSFER_GB.unit]).toEqual([0.01, "USD/GB"]);
    expect(() => perHour(CROSS_AZ_TRANSFER_GB)).toThrow(
      "EC2 data transfer between Availability Zones of one region, per GB in each direction is billed per GB sent, not per hour",
    );
    expect(crossZoneUsdPerGBpsHour()).toBeCloseTo(72, 10);
  });

  test("brokers pinned to one zone: nothing to name; not pinned: one note; controllers (no broker role) never", () => {
    expect(crossZoneNotes([pool("us-east-1a"), controllers])).toEqual([]);
    expect(crossZoneNotes([pool(), controllers])).toEqual([NOTE]);
  });

  test("the estimate carries the note with the usage-billed ones, and its total is unchanged", () => {
    const pinned = estimateHourly([pool("us-east-1a"), controllers], "us-east-1");
    const spread = estimateHourly([pool(), controllers], "us-east-1");
    expect(pinned.notes).not.toContain(NOTE);
    expect(spread.notes).toContain(NOTE);
    expect(spread.totalUsdPerHour).toBe(pinned.totalUsdPerHour);
  });
});
