/**
 * The published figures the lab reproduces, shown as labelled reference rows beside our numbers.
 * Each figure cites the publication it comes from (title, address, where in it, when it was read)
 * and says which of our rows it belongs beside:
 *
 * - `scenario`: the experiment (sample metadata `scenario`); a figure is never shown in another
 *   experiment's tables, so a local run never sits beside an FSx or Ceph figure;
 * - `storage`: metadata that names the storage the figure was measured on (the Trident ONTAP-NAS
 *   StorageClass for FSx on EKS), so the gp3 baseline rows of the same experiment do not get it;
 * - `metric` and `unit`: the sample metric it is comparable with;
 * - `workload`: metadata our rows must have for the figure to apply at all (the published fio
 *   line's rw, mix, block size and queue depth, which is the `seed` profile; pgbench's TPC-B);
 * - `side`: metadata that places it beside one row (same AZ, m4.xlarge/Xen, RF1 + kafka-sync): a
 *   figure is shown only where a row has its side;
 * - `setup`: the published run's other settings, which the report compares with ours and lists
 *   where they differ (file size, scale, clients…).
 *
 * Figures whose publication could not be found and opened are kept in {@link UNSOURCED_FIGURES}
 * and never shown: a reader must be able to open what a reference row cites. Where a publication
 * gives its individual runs (the Ceph experiment's six raw pgbench outputs), a figure is their mean
 * and carries them (`runs`). Pure.
 */
import { workloadPayload } from "../../components/omb/files";
import type { MetadataValue } from "../../core/sample";
import { optionValue } from "../../core/parsers/common";
import { PUBLISHED_FIO_LINE } from "../../components/bench/profiles";
import { STORAGE_CLASS_NAMES } from "../../components/trident/rules";

/** A publication a figure was taken from. */
export interface PublishedSource {
  readonly title: string;
  readonly url: string;
  /** The table, figure or section the number is in. */
  readonly where: string;
  /** When the lab's authors read it (ISO date). */
  readonly read: string;
}

export interface PublishedFigure {
  /** The experiment as the report titles it. */
  readonly experiment: string;
  /** The scenario id whose samples it belongs beside (scenarios/index.ts). */
  readonly scenario: string;
  readonly metric: string;
  /** In the sample unit (bandwidth in B/s). */
  readonly value: number;
  readonly unit: string;
  /** What the figure is, e.g. `same AZ`, `m4.xlarge (Xen)`. */
  readonly label: string;
  readonly storage: Readonly<Record<string, MetadataValue>>;
  readonly side: Readonly<Record<string, MetadataValue>>;
  readonly workload: Readonly<Record<string, MetadataValue>>;
  readonly setup: Readonly<Record<string, MetadataValue>>;
  /** What was deployed for it, as the publication describes it. */
  readonly deployed: string;
  readonly source: PublishedSource;
  /** The figure as the lab's experiments table writes it. */
  readonly quote: string;
  /** A caveat about how the figure is matched, when there is one. */
  readonly note?: string;
  /**
   * The publication's individual runs when it gives them (the figure is their mean), in the
   * figure's unit: the report shows their spread beside the figure and says whether ours is in it.
   */
  readonly runs?: readonly number[];
}

/** The date the publications below were read. */
const READ = "2026-12-01";

/** AWS Containers blog, 2022-04-27 (Benson Kwong, Haofei Feng, Joe Guo). */
export const FSX_EKS_SOURCE: PublishedSource = {
  title: "How to run a Multi-AZ stateful application on EKS with AWS FSx for NetApp ONTAP (AWS Containers Blog, 2022-04-27)",
  url: "https://aws.amazon.com/blogs/containers/how-to-run-a-multi-az-stateful-application-on-eks-with-aws-fsx-for-netapp-ontap/",
  where: "the fio and ioping results, pod in the file system's AZ and in the other AZ",
  read: READ,
};

/** NetApp Solutions documentation, "Performance overview and validation in AWS FSx for NetApp ONTAP". */
export const KAFKA_SOURCE: PublishedSource = {
  title:
    "Performance overview and validation in AWS FSx for NetApp ONTAP (NetApp Solutions, Apache Kafka workloads with NetApp NFS storage)",
  url: "https://docs.netapp.com/us-en/netapp-solutions/data-analytics/kafka-nfs-performance-overview-and-validation-in-aws-FSxN.html",
  where: "the OpenMessaging Benchmark results for replication factor 1 and 3 with the kafka-sync and kafka-throughput drivers",
  read: READ,
};

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
const FSX_DEPLOYED = "FSx for NetApp ONTAP Multi-AZ, EKS with three nodes over two AZs, Trident CSI";
const KAFKA = "Kafka on FSx ONTAP";
const KAFKA_DEPLOYED = "FSx ONTAP Multi-AZ at 4 GB/s and 160 000 IOPS, 6 NFS volumes (nconnect=16), 3 Kafka brokers";
const CEPH = "Ceph on Nitro";
const CEPH_DEPLOYED =
  "1 controller + 3 workers, k0s 1.23 with Calico VXLAN and WireGuard, Rook-Ceph RBD (3 replicas) on the pod network, Postgres 14 on Ceph";
const TPCB = { transactionType: "<builtin: TPC-B (sort of)>" };
const PGBENCH_SETUP = { scale: 1000, clients: 20, threads: 2, durationSeconds: 300 };
const IOPING_NOTE =
  "matched on 4 KiB reads, ioping's default request (ioping(1) -s 4k; the lab runs it so); the publication gives one ioping latency without naming the statistic; shown beside the mean";
/** What makes an ioping run the published one: its operation and request size, as the parser reads them (core/parsers/ioping.ts). */
const IOPING_WORKLOAD = { operation: "read", requestSizeBytes: 4096 };
/** The Trident ONTAP-NAS StorageClass (components/trident/rules.ts): the storage the published figures were measured on. */
const FSX_NAS = { storageClass: STORAGE_CLASS_NAMES.nas };

function fsx(metric: string, value: number, unit: string, zone: "same" | "cross", quote: string, note?: string): PublishedFigure {
  return {
    experiment: FSX_EKS,
    scenario: "fsx-eks",
    metric,
    value,
    unit,
    label: zone === "same" ? "same AZ" : "other AZ",
    storage: FSX_NAS,
    side: { zoneRelation: zone },
    workload: metric.startsWith("fio.") ? FIO_WORKLOAD : metric.startsWith("ioping.") ? IOPING_WORKLOAD : {},
    setup: metric.startsWith("fio.") ? FIO_SETUP : {},
    deployed: FSX_DEPLOYED,
    source: FSX_EKS_SOURCE,
    quote,
    ...(note === undefined ? {} : { note }),
  };
}

/**
 * NetApp's OMB workload (its edit of OMB's 1-topic file: 4 topics, 32 KiB messages, 40 producers
 * and 80 consumers per topic, components/omb/files.ts), as the result file records it: a row of
 * another workload gets no Kafka figure beside it, only the line saying how it differs.
 */
const KAFKA_WORKLOAD = {
  messageSize: 32768,
  topics: 4,
  producersPerTopic: 40,
  consumersPerTopic: 80,
  // the cell's metadata: OMB's half-random payloads, as NetApp's block (components/omb/files.ts)
  ombPayload: workloadPayload("netapp-4-topics-32kb"),
};
const KAFKA_NOTE =
  "matched on NetApp's OMB workload (messageSize 32768, 4 topics, 40 producers and 80 consumers per topic, half-random payloads: the block its Cloud Volumes ONTAP page prints, which its FSx page reuses; the same page's prose says \"In our performance test, we used 3K\", which the block contradicts, and the lab runs the block); NetApp gives MBps without saying whether a MB is 10^6 or 2^20 bytes, ours (omb.throughput) is 10^6";

function kafka(value: number, rf: 1 | 3, driverConfig: "kafka-sync" | "kafka-throughput", quote: string): PublishedFigure {
  return {
    experiment: KAFKA,
    scenario: "kafka-fsx",
    metric: "omb.throughput",
    value,
    unit: "MB/s",
    label: `RF${rf}, ${driverConfig} (~)`,
    storage: {},
    side: { replicationFactor: rf, driverConfig },
    workload: KAFKA_WORKLOAD,
    setup: { fsxThroughputCapacityMBps: 4096 },
    deployed: KAFKA_DEPLOYED,
    source: KAFKA_SOURCE,
    quote,
    note: KAFKA_NOTE,
  };
}

/** A figure the lab reproduces whose publication was not found: kept for when it is, never shown. */
export interface UnsourcedFigure extends Omit<PublishedFigure, "source"> {
  /** What is known of the publication, and where it was looked for. */
  readonly sought: string;
}

/** The figures kept aside because no publication a reader could open was found for them (none at present). */
export const UNSOURCED_FIGURES: readonly UnsourcedFigure[] = [];

/** The published Ceph experiment's repository, at the commit whose `results/` the figures are read from. */
export const CEPH_REPOSITORY = "https://github.com/koor-tech/experiment-ceph-on-nitro";
export const CEPH_COMMIT = "6686fc84f2f74058e7743830ff4c06a33bed42a1";

/**
 * One published pgbench run (koor-tech/experiment-ceph-on-nitro at {@link CEPH_COMMIT},
 * `results/2vcpu-8gb.<stock|nitro>.run-<n>.pgbench.output`, pgbench 14.1 against server 14.2,
 * `--report-latencies --jobs=2 --client=20 --time=300` at scale 1000): the summary and the
 * per-statement latencies, ms, in script order ({@link TPCB_STATEMENTS}). `stock` is m4.xlarge (Xen,
 * pulumi/Pulumi.stock.yaml), `nitro` m5.xlarge (pulumi/Pulumi.nitro.yaml). The repository also holds
 * `2vcpu-8gb.nitro.run-3.pgench.output`, byte for byte the same as run 3's file: counted once.
 */
export interface PublishedPgbenchRun {
  readonly side: "stock" | "nitro";
  readonly run: 1 | 2 | 3;
  readonly tps: number;
  readonly latencyMeanMs: number;
  readonly transactions: number;
  readonly statementsMs: readonly number[];
}

/** TPC-B's statements as pgbench 14 prints them under `statement latencies in milliseconds:`. */
export const TPCB_STATEMENTS = [
  "\\set aid random(1, 100000 * :scale)",
  "\\set bid random(1, 1 * :scale)",
  "\\set tid random(1, 10 * :scale)",
  "\\set delta random(-5000, 5000)",
  "BEGIN;",
  "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;",
  "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;",
  "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;",
  "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;",
  "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);",
  "END;",
] as const;

/** The six published runs, read from the files (a test compares them with the files where the repository is at hand). */
export const PUBLISHED_PGBENCH_RUNS: readonly PublishedPgbenchRun[] = [
  {
    side: "stock",
    run: 1,
    tps: 369.609508,
    latencyMeanMs: 54.111,
    transactions: 111004,
    statementsMs: [0.003, 0.002, 0.002, 0.002, 1.338, 10.759, 1.459, 3.626, 3.018, 3.707, 30.158],
  },
  {
    side: "stock",
    run: 2,
    tps: 383.341662,
    latencyMeanMs: 52.173,
    transactions: 114958,
    statementsMs: [0.003, 0.002, 0.002, 0.002, 1.403, 11.394, 1.424, 3.041, 2.617, 3.154, 29.102],
  },
  {
    side: "stock",
    run: 3,
    tps: 371.896436,
    latencyMeanMs: 53.778,
    transactions: 111547,
    statementsMs: [0.004, 0.003, 0.002, 0.002, 1.293, 11.117, 1.372, 3.505, 2.879, 3.527, 30.021],
  },
  {
    side: "nitro",
    run: 1,
    tps: 545.169796,
    latencyMeanMs: 36.686,
    transactions: 163485,
    statementsMs: [0.002, 0.001, 0.001, 0.001, 1.06, 7.229, 1.144, 2.599, 2.164, 2.611, 19.85],
  },
  {
    side: "nitro",
    run: 2,
    tps: 535.89045,
    latencyMeanMs: 37.321,
    transactions: 160713,
    statementsMs: [0.002, 0.001, 0.001, 0.001, 1.058, 7.341, 1.129, 2.545, 2.145, 2.565, 20.508],
  },
  {
    side: "nitro",
    run: 3,
    tps: 530.653615,
    latencyMeanMs: 37.689,
    transactions: 159145,
    statementsMs: [0.002, 0.001, 0.001, 0.0, 0.995, 7.546, 1.12, 2.553, 2.092, 2.523, 20.838],
  },
];

/** The file of one published run in the repository. */
export function cephRunFile(r: Pick<PublishedPgbenchRun, "side" | "run">): string {
  return `results/2vcpu-8gb.${r.side}.run-${r.run}.pgbench.output`;
}

/** The ratio the post reports: Nitro's TPS over Xen's. */
export const PUBLISHED_CEPH_RATIO = 1.43;

export const CEPH_SOURCE: PublishedSource = {
  title: 'koor-tech/experiment-ceph-on-nitro, the six raw pgbench outputs behind "Faster Ceph on Nitro"',
  url: `${CEPH_REPOSITORY}/tree/${CEPH_COMMIT}/results`,
  where: "results/2vcpu-8gb.{stock,nitro}.run-{1,2,3}.pgbench.output, stock = m4.xlarge, nitro = m5.xlarge",
  read: "2026-12-03",
};

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
/** Rounded as pgbench prints latencies (3 decimals), TPS to 2. */
const round = (x: number, digits: number) => Number(x.toFixed(digits));

function cephFigure(
  side: "stock" | "nitro",
  metric: string,
  unit: string,
  runs: readonly number[],
  digits: number,
  quote: string,
  workload = {},
): PublishedFigure {
  const xen = side === "stock";
  return {
    experiment: CEPH,
    scenario: "ceph-nitro",
    metric,
    value: round(mean(runs), digits),
    unit,
    label: xen ? "m4.xlarge (Xen)" : "m5.xlarge (Nitro)",
    storage: {},
    side: xen ? { instanceType: "m4.xlarge", hypervisor: "xen" } : { instanceType: "m5.xlarge", hypervisor: "nitro" },
    workload: { ...TPCB, ...workload },
    setup: PGBENCH_SETUP,
    deployed: CEPH_DEPLOYED,
    source: CEPH_SOURCE,
    quote,
    runs,
  };
}

/** The Ceph figures: TPS and mean latency per side, and each statement's latency per side (means of the three runs). */
function cephFigures(): PublishedFigure[] {
  const out: PublishedFigure[] = [];
  for (const side of ["stock", "nitro"] as const) {
    const runs = PUBLISHED_PGBENCH_RUNS.filter((r) => r.side === side);
    const name = side === "stock" ? "m4" : "m5";
    const tps = cephFigure(
      side,
      "pgbench.tps",
      "txn/s",
      runs.map((r) => r.tps),
      2,
      "",
    );
    const lat = cephFigure(
      side,
      "pgbench.latency.mean",
      "ms",
      runs.map((r) => r.latencyMeanMs),
      2,
      "",
    );
    out.push({ ...tps, quote: `${name} ${tps.value} TPS` }, { ...lat, quote: `${name} ${tps.value} TPS / ${lat.value} ms` });
    TPCB_STATEMENTS.forEach((statement, i) => {
      const f = cephFigure(
        side,
        "pgbench.statement.latency",
        "ms",
        runs.map((r) => r.statementsMs[i]),
        3,
        "",
        { statement },
      );
      out.push({ ...f, quote: "per-statement latencies of the six raw outputs" });
    });
  }
  return out;
}

/** Every published figure shown in reports, in the order of the experiments table. */
export const PUBLISHED_FIGURES: readonly PublishedFigure[] = [
  fsx("fio.read.iops", 37_500, "op/s", "same", "same AZ 37.5K read"),
  fsx("fio.write.iops", 12_500, "op/s", "same", "12.5K write IOPS"),
  fsx("fio.read.bandwidth", 154e6, "B/s", "same", "154 / 51.3 MB/s"),
  fsx("fio.write.bandwidth", 51.3e6, "B/s", "same", "154 / 51.3 MB/s"),
  fsx("ioping.latency.mean", 483.8, "us", "same", "483.8 µs", IOPING_NOTE),
  fsx("fio.read.iops", 33_400, "op/s", "cross", "other AZ 33.4K"),
  fsx("fio.write.iops", 11_100, "op/s", "cross", "33.4K / 11.1K IOPS"),
  fsx("ioping.latency.mean", 1030, "us", "cross", "1.03 ms", IOPING_NOTE),
  kafka(3218, 1, "kafka-sync", "RF1 ~3218"),
  kafka(3679, 1, "kafka-throughput", "~3679 MB/s"),
  kafka(1252, 3, "kafka-sync", "RF3 ~1252"),
  kafka(1218, 3, "kafka-throughput", "~1218 MB/s"),
  ...cephFigures(),
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

/**
 * The published settings `rows` differ from: per key, our distinct values and the published one.
 * A row that does not record a key is left out of it, or, with `missing`, counted as that text.
 */
function settingDifferences(
  published: Readonly<Record<string, MetadataValue>>,
  rows: readonly Readonly<Record<string, MetadataValue>>[],
  missing?: string,
): SetupDifference[] {
  const out: SetupDifference[] = [];
  for (const [key, value] of Object.entries(published)) {
    const seen = rows.map((g) => (g[key] === undefined ? missing : String(g[key]))).filter((v): v is string => v !== undefined);
    const ours = [...new Set(seen)];
    if (ours.some((v) => v !== String(value))) out.push({ key, ours, published: String(value) });
  }
  return out;
}

/**
 * A published figure of a table's experiment, storage and side whose workload no row runs: not
 * shown as a row, but named under the table with how our workload differs.
 */
export interface UnmatchedReference {
  readonly figure: PublishedFigure;
  /** Indexes of the rows on the figure's storage and side. */
  readonly rows: readonly number[];
  /** The workload keys our rows differ on: our distinct values (or "not recorded"), and the published one. */
  readonly differences: readonly SetupDifference[];
}

type Groups = readonly Readonly<Record<string, MetadataValue>>[];

/** The figures of `experiment`, `metric`, `unit` with the indexes of the rows on their storage and side (at least one). */
function placedFigures(experiment: string, metric: string, unit: string, groups: Groups, figures: readonly PublishedFigure[]) {
  return figures
    .filter((f) => f.scenario === experiment && f.metric === metric && f.unit === unit)
    .map((figure) => ({
      figure,
      placed: groups.flatMap((g, i) => (matchesAll(g, figure.storage) && matchesAll(g, figure.side) ? [i] : [])),
    }))
    .filter((x) => x.placed.length > 0);
}

/** The figures of `experiment`, `metric`, `unit` that rows on their storage and side have, but not their workload. */
export function unmatchedReferences(
  experiment: string,
  metric: string,
  unit: string,
  groups: Groups,
  figures: readonly PublishedFigure[] = PUBLISHED_FIGURES,
): UnmatchedReference[] {
  return placedFigures(experiment, metric, unit, groups, figures)
    .filter(({ figure, placed }) => !placed.some((i) => matchesAll(groups[i], figure.workload)))
    .map(({ figure, placed }) => ({
      figure,
      rows: placed,
      differences: settingDifferences(
        figure.workload,
        placed.map((i) => groups[i]),
        "not recorded",
      ),
    }));
}

/** A published figure shown in one metric table. */
export interface ReferenceRow {
  readonly figure: PublishedFigure;
  /** Indexes of the table's rows the figure belongs beside (its storage, workload and side). */
  readonly rows: readonly number[];
  /** Published settings our rows differ from (only keys our samples record). */
  readonly differences: readonly SetupDifference[];
}

/**
 * The figures that apply to a table of `experiment` (its scenario id), `metric` in `unit` whose
 * rows have `groups` metadata: same scenario, metric and unit, and at least one row on the
 * figure's storage, doing its workload, on its side. Each comes with the indexes of the rows it
 * belongs beside and the published settings those rows differ from.
 */
export function referencesFor(
  experiment: string,
  metric: string,
  unit: string,
  groups: Groups,
  figures: readonly PublishedFigure[] = PUBLISHED_FIGURES,
): ReferenceRow[] {
  return placedFigures(experiment, metric, unit, groups, figures)
    .map(({ figure, placed }) => ({ figure, rows: placed.filter((i) => matchesAll(groups[i], figure.workload)) }))
    .filter(({ rows }) => rows.length > 0)
    .map(({ figure, rows }) => ({
      figure,
      rows,
      differences: settingDifferences(
        figure.setup,
        rows.map((i) => groups[i]),
      ),
    }));
}
