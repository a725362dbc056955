/**
 * The published figures the lab reproduces, shown as labelled reference rows beside our numbers
 * (README "experiments" table, column "published headline"; the figures that table leaves out
 * come from DESIGN.md "What it is"). Each figure says which of our samples it belongs beside:
 *
 * - `metric` and `unit`: the sample metric it is comparable with;
 * - `workload`: metadata our samples must have for the figure to apply at all (the published fio
 *   line's rw, mix, block size and queue depth; pgbench's TPC-B transaction type);
 * - `side`: metadata that places it beside one group (same AZ, m4.xlarge/Xen, RF1 + kafka-sync);
 * - `setup`: the published run's other settings, which the report compares with ours and lists
 *   where they differ (file size, scale, clients…).
 *
 * Neither document names the original publications' addresses, so the source given is the
 * document the figure was taken from. Pure.
 */
import type { MetadataValue } from "../../core/sample";
import { optionValue } from "../../core/parsers/common";
import { PUBLISHED_FIO_LINE } from "../../components/bench/profiles";

/** Where a figure was taken from. */
export interface PublishedSource {
  readonly document: string;
  readonly where: string;
}

export interface PublishedFigure {
  /** The experiment, as README names it. */
  readonly experiment: string;
  readonly metric: string;
  /** In the sample unit (bandwidth in B/s). */
  readonly value: number;
  readonly unit: string;
  /** What the figure is, e.g. `same AZ`, `m4.xlarge (Xen)`. */
  readonly label: string;
  readonly side: Readonly<Record<string, MetadataValue>>;
  readonly workload: Readonly<Record<string, MetadataValue>>;
  readonly setup: Readonly<Record<string, MetadataValue>>;
  /** What was deployed for it, as README says. */
  readonly deployed: string;
  readonly source: PublishedSource;
  /** The figure as the source writes it (a test finds these words in the source). */
  readonly quote: string;
  /** A caveat about how the figure is matched, when there is one. */
  readonly note?: string;
}

const README: PublishedSource = { document: "README.md", where: "experiments table, published headline" };
const DESIGN: PublishedSource = { document: "DESIGN.md", where: "What it is, published headline" };

/** `--key=value` options of the published fio command line (components/bench/profiles.ts). */
function fioLineOptions(): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  for (const arg of PUBLISHED_FIO_LINE.split(" ")) {
    const m = /^--([a-z_]+)=(.+)$/.exec(arg);
    if (m && m[1] !== "name") out[m[1]] = optionValue(m[2]);
  }
  return out;
}

function pick(from: Readonly<Record<string, MetadataValue>>, keys: readonly string[]): Record<string, MetadataValue> {
  return Object.fromEntries(keys.map((k) => [k, from[k]]));
}

const FIO_LINE = fioLineOptions();
/** What makes a fio run the published workload: its I/O pattern. */
const FIO_WORKLOAD = pick(FIO_LINE, ["rw", "rwmixread", "bs", "iodepth"]);
/** The published line's other options. */
const FIO_SETUP = pick(FIO_LINE, ["size", "ioengine", "direct", "gtod_reduce"]);

const FSX_EKS = "FSx ONTAP on EKS";
const FSX_DEPLOYED = "FSx for NetApp ONTAP Multi-AZ (1024 GiB, 512 MB/s), EKS over 2 AZs";
const KAFKA = "Kafka on FSx ONTAP";
const KAFKA_DEPLOYED = "FSx ONTAP Multi-AZ at 4096 MB/s and 160 000 IOPS, 6 NFS volumes (nconnect=16), 3 Kafka brokers";
const CEPH = "Ceph on Nitro";
const CEPH_DEPLOYED = "1 controller + 3 workers, k0s, Rook-Ceph RBD (3 replicas), Postgres on Ceph";
const TPCB = { transactionType: "<builtin: TPC-B (sort of)>" };
const PGBENCH_SETUP = { scale: 1000, clients: 20, threads: 2, durationSeconds: 300 };
const IOPING_NOTE = "the publication gives one ioping latency without naming the statistic; shown beside the mean";

function fsx(
  metric: string,
  value: number,
  unit: string,
  zone: "same" | "cross",
  quote: string,
  source = README,
  note?: string,
): PublishedFigure {
  return {
    experiment: FSX_EKS,
    metric,
    value,
    unit,
    label: zone === "same" ? "same AZ" : "other AZ",
    side: { zoneRelation: zone },
    workload: metric.startsWith("fio.") ? FIO_WORKLOAD : {},
    setup: metric.startsWith("fio.") ? FIO_SETUP : {},
    deployed: FSX_DEPLOYED,
    source,
    quote,
    ...(note === undefined ? {} : { note }),
  };
}

function kafka(value: number, rf: 1 | 3, driverConfig: "kafka-sync" | "kafka-throughput", quote: string): PublishedFigure {
  return {
    experiment: KAFKA,
    metric: "omb.throughput",
    value,
    unit: "MB/s",
    label: `RF${rf}, ${driverConfig} (~)`,
    side: { replicationFactor: rf, driverConfig },
    workload: {},
    setup: {},
    deployed: KAFKA_DEPLOYED,
    source: README,
    quote,
  };
}

function ceph(metric: string, value: number, unit: string, xen: boolean, quote: string, source: PublishedSource): PublishedFigure {
  return {
    experiment: CEPH,
    metric,
    value,
    unit,
    label: xen ? "m4.xlarge (Xen)" : "m5.xlarge (Nitro)",
    side: xen ? { instanceType: "m4.xlarge", hypervisor: "xen" } : { instanceType: "m5.xlarge", hypervisor: "nitro" },
    workload: TPCB,
    setup: PGBENCH_SETUP,
    deployed: CEPH_DEPLOYED,
    source,
    quote,
  };
}

/** Every published figure, in the order README lists them. */
export const PUBLISHED_FIGURES: readonly PublishedFigure[] = [
  fsx("fio.read.iops", 37_500, "op/s", "same", "same AZ 37.5K read"),
  fsx("fio.write.iops", 12_500, "op/s", "same", "12.5K write IOPS"),
  fsx("fio.read.bandwidth", 154e6, "B/s", "same", "154 / 51.3 MB/s", DESIGN),
  fsx("fio.write.bandwidth", 51.3e6, "B/s", "same", "154 / 51.3 MB/s", DESIGN),
  fsx("ioping.latency.mean", 483.8, "us", "same", "483.8 µs", README, IOPING_NOTE),
  fsx("fio.read.iops", 33_400, "op/s", "cross", "other AZ 33.4K"),
  fsx("fio.write.iops", 11_100, "op/s", "cross", "33.4K / 11.1K IOPS"),
  fsx("ioping.latency.mean", 1030, "us", "cross", "1.03 ms", README, IOPING_NOTE),
  kafka(3218, 1, "kafka-sync", "RF1 ~3218"),
  kafka(3679, 1, "kafka-throughput", "~3679 MB/s"),
  kafka(1252, 3, "kafka-sync", "RF3 ~1252"),
  kafka(1218, 3, "kafka-throughput", "~1218 MB/s"),
  ceph("pgbench.tps", 374.95, "txn/s", true, "m4 374.95 TPS", README),
  ceph("pgbench.tps", 537.24, "txn/s", false, "m5 537.24 TPS", README),
  ceph("pgbench.latency.mean", 53.35, "ms", true, "m4 374.95 TPS / 53.35 ms", DESIGN),
  ceph("pgbench.latency.mean", 37.23, "ms", false, "m5 537.24 TPS / 37.23 ms", DESIGN),
];

/** True when `metadata` has every key of `wanted` with the same value (numbers and their text compare equal). */
export function matchesAll(metadata: Readonly<Record<string, MetadataValue>>, wanted: Readonly<Record<string, MetadataValue>>): boolean {
  return Object.entries(wanted).every(([k, v]) => metadata[k] !== undefined && String(metadata[k]) === String(v));
}

/** A published setting where ours differs: our distinct values, and the published one. */
export interface SetupDifference {
  readonly key: string;
  readonly ours: readonly string[];
  readonly published: string;
}

/** A published figure shown in one metric table. */
export interface ReferenceRow {
  readonly figure: PublishedFigure;
  /** Published settings our rows differ from (only keys our samples record). */
  readonly differences: readonly SetupDifference[];
}

/**
 * The figures that apply to a table of `metric` in `unit` whose rows have `groups` metadata:
 * same metric and unit, and at least one row doing the published workload. Each comes with the
 * published settings the rows differ from.
 */
export function referencesFor(
  metric: string,
  unit: string,
  groups: readonly Readonly<Record<string, MetadataValue>>[],
  figures: readonly PublishedFigure[] = PUBLISHED_FIGURES,
): ReferenceRow[] {
  return figures
    .filter((f) => f.metric === metric && f.unit === unit && groups.some((g) => matchesAll(g, f.workload)))
    .map((figure) => {
      const differences: SetupDifference[] = [];
      for (const [key, published] of Object.entries(figure.setup)) {
        const ours = [...new Set(groups.filter((g) => g[key] !== undefined).map((g) => String(g[key])))];
        if (ours.some((v) => v !== String(published))) differences.push({ key, ours, published: String(published) });
      }
      return { figure, differences };
    });
}
