/**
 * Cross-zone data transfer a plan chooses (pure): the Kafka brokers' pool without a zone pin
 * (stacks/kafka with `lab:zonePlacement: spread`) sends NFS traffic to the file system, replication
 * between brokers and producer/consumer traffic across Availability Zones, billed per GB in each
 * direction ({@link CROSS_AZ_TRANSFER_GB}). It is usage, not an hourly charge: the estimate names it
 * with its price and what one GB/s crossing for an hour costs, never adds it to the total.
 */
import { ZONE_LABEL } from "../../components/eks/placement";
import { CROSS_AZ_TRANSFER_GB } from "./prices";

/** The planned resources the check reads (type, name, inputs). */
interface Planned {
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
}

const KAFKA_NODE_POOL = "kubernetes:kafka.strimzi.io/v1:KafkaNodePool";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Whether a broker pool's required node affinity keeps its pods in one zone. */
function pinnedToOneZone(pool: Any): boolean {
  const terms: Any[] =
    pool?.spec?.template?.pod?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return (
    terms.length > 0 &&
    terms.every((t) =>
      (t?.matchExpressions ?? []).some((e: Any) => e?.key === ZONE_LABEL && e?.operator === "In" && e?.values?.length === 1),
    )
  );
}

/** One GB/s sustained for an hour, crossing a zone boundary (3600 GB, billed out and in). */
export function crossZoneUsdPerGBpsHour(): number {
  return 3600 * 2 * CROSS_AZ_TRANSFER_GB.usd;
}

/** The estimate's notes on cross-zone transfer: one per Kafka broker pool not pinned to one zone. */
export function crossZoneNotes(resources: readonly Planned[]): string[] {
  return resources
    .filter((r) => r.type === KAFKA_NODE_POOL && ((r.inputs as Any)?.spec?.roles ?? []).includes("broker"))
    .filter((r) => !pinnedToOneZone(r.inputs))
    .map(
      (r) =>
        `cross-zone data transfer: the brokers of ${r.name} are not pinned to one zone (lab:zonePlacement spread), so NFS, replication and client traffic crosses zones, ` +
        `billed at $${CROSS_AZ_TRANSFER_GB.usd.toFixed(2)}/GB in each direction ($${(2 * CROSS_AZ_TRANSFER_GB.usd).toFixed(2)} a GB crossing): ` +
        `$${crossZoneUsdPerGBpsHour().toFixed(2)} for each GB/s crossing for an hour while the benchmark runs (usage: not in the total)`,
    );
}
