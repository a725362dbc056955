import type { Sample } from "../../../core/sample";
import { buildModel, type InputFile, type MetricTable, type ReportModel } from "../../../lab/report/model";
import { median } from "../../../core/stats";
import { PUBLISHED_FIGURES, UNSOURCED_FIGURES } from "../../../lab/report/published";
import { unmatchedNote } from "../../../lab/report/layout";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT, SHARED } from "../../helpers/root";
import { cephSet, fixtureValue, fsxSet, localRun, parseFixture, PGBENCH_TPCB, repetitions } from "./samples";

function table(model: ReportModel, experiment: string, metric: string): MetricTable {
  const t = model.experiments.find((e) => e.id === experiment)?.tables.find((x) => x.metric === metric);
  if (t === undefined) throw new Error(`no table ${experiment} ${metric}`);
  return t;
}

const rows = (t: MetricTable) =>
  t.groups.map((g) => {
    const { cv, ...summary } = g.summary;
    expect(typeof cv).toBe("number");
    return { label: g.label, values: g.values, ...summary, runs: g.runs };
  });

describe("Ceph on Nitro from real pgbench outputs: dev (Xen) 3 repetitions, nitro (Nitro) 2", () => {
  const model = buildModel(cephSet(), { scenarioTitles: { "ceph-nitro": "ceph-nitro: Ceph on Nitro" } });
  const tps = table(model, "ceph-nitro", "pgbench.tps");
  const [tpcb, serializable, retries] = PGBENCH_TPCB.map((f) => fixtureValue("pgbench", f, "pgbench.tps"));

  it("the fixtures' TPS, as core/parsers reads them", () => {
    expect([tpcb, serializable, retries]).toEqual([1644.801001, 479.4364, 666.454009]);
  });

  it("one row per stack: exact median, min, max, n and runs", () => {
    expect(model.experiments.map((e) => [e.id, e.title])).toEqual([["ceph-nitro", "ceph-nitro: Ceph on Nitro"]]);
    expect(tps.unit).toBe("txn/s");
    expect(tps.columns).toEqual(["stack", "instanceType", "hypervisor"]);
    expect(rows(tps)).toEqual([
      {
        label: "dev · m4.xlarge · xen",
        values: [tpcb, serializable, retries],
        median: retries,
        min: serializable,
        max: tpcb,
        n: 3,
        runs: ["r1"],
      },
      {
        label: "nitro · m5.xlarge · nitro",
        values: [tpcb, retries],
        median: (tpcb + retries) / 2,
        min: retries,
        max: tpcb,
        n: 2,
        runs: ["r1"],
      },
    ]);
    expect(tps.groups[1].summary.median).toBe(1155.627505);
  });

  it("the settings every row shares are listed once, in order", () => {
    expect(tps.shared).toEqual([
      ["toolVersion", "pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"],
      ["clients", 4],
      ["durationSeconds", 5],
      ["maxTries", 1],
      ["queryMode", "simple"],
      ["scale", 2],
      ["threads", 2],
      ["tpsMeasure", "without initial connection time"],
      ["transactionType", "<builtin: TPC-B (sort of)>"],
    ]);
  });

  it("the m4 and m5 figures come from the six published runs: a reference row beside each side, where our setup differs listed", () => {
    expect(UNSOURCED_FIGURES).toEqual([]);
    expect(
      tps.references.map((r) => [
        r.figure.label,
        r.figure.value,
        r.rows,
        r.differences.map((d) => `${d.key} ${d.ours.join(",")} / ${d.published}`),
      ]),
    ).toEqual([
      ["m4.xlarge (Xen)", 374.95, [0], ["scale 2 / 1000", "clients 4 / 20", "durationSeconds 5 / 300"]],
      ["m5.xlarge (Nitro)", 537.24, [1], ["scale 2 / 1000", "clients 4 / 20", "durationSeconds 5 / 300"]],
    ]);
  });

  it("Nitro / Xen: ratio of medians; n < 8 a side, so the interval is the min-max range of the repetition ratios: it includes 1, no difference shown", () => {
    const ratios = model.experiments[0].ratios;
    expect(ratios.map((r) => r.metric)).toEqual(["pgbench.tps", "pgbench.latency.mean"]);
    const r = ratios[0];
    expect(r.comparison.id).toBe("hypervisor");
    expect([r.num.label, r.den.label]).toEqual(["nitro · m5.xlarge · nitro", "dev · m4.xlarge · xen"]);
    expect(r.estimate).toEqual({
      ratio: 1155.627505 / retries,
      low: retries / tpcb,
      high: tpcb / serializable,
      method: "min-max",
      level: 0.95,
      resamples: 10_000,
      seed: 1,
      minReps: 8,
      // U of nitro [1644.8, 666.45] over dev [1644.8, 479.44, 666.45]: (0.5 + 1 + 1) + (0 + 1 + 0.5) = 4, |4 − 3| = 1:
      // 8 of the 10 splits are as extreme (python3, itertools.combinations over the pooled values).
      permutation: { p: 0.8, permutations: 10 },
    });
    expect(r.estimate.ratio).toBe(1.7339943782977527);
    expect(r.noDifference).toBe(true);
    // Both rows spread far wider (relative range 1.5 and 1.75) than the 73 % difference.
    expect(r.spreadWider).toEqual(["num", "den"]);
    // The published ratio of the two sides' figures, beside ours.
    expect(r.published).toBe(537.24 / 374.95);
    expect(r.differs).toEqual([
      ["stack", "nitro", "dev"],
      ["instanceType", "m5.xlarge", "m4.xlarge"],
      ["hypervisor", "nitro", "xen"],
    ]);
  });

  it("leaves nothing incomparable", () => {
    expect(model.incomparable).toEqual([]);
    expect(model.sampleCount).toBe(20);
    expect(model.inputs).toEqual([
      { file: "results/dev/r1/samples.json", samples: 12 },
      { file: "results/nitro/r1/samples.json", samples: 8 },
    ]);
  });
});

describe("FSx on EKS from real fio outputs: the seed workload in the same and in the other zone, 3 repetitions each", () => {
  const model = buildModel(fsxSet());
  const iops = table(model, "fsx-eks", "fio.read.iops");

  it("rows by zone relation, exact summaries", () => {
    expect(rows(iops)).toEqual([
      {
        label: "fsx-eks · same · us-east-1a",
        values: [47020.652898, 80979.010495, 15225.887056],
        median: 47020.652898,
        min: 15225.887056,
        max: 80979.010495,
        n: 3,
        runs: ["same"],
      },
      {
        label: "fsx-eks · cross · us-east-1b",
        values: [58000, 14948.051948, 69200],
        median: 58000,
        min: 14948.051948,
        max: 69200,
        n: 3,
        runs: ["cross"],
      },
    ]);
  });

  it("the published same-AZ and other-AZ IOPS apply beside their own row (Trident NAS storage, the published fio line), the file size differs", () => {
    expect(iops.references.map((r) => [r.figure.label, r.figure.value, r.figure.side, r.rows, r.differences])).toEqual([
      ["same AZ", 37_500, { zoneRelation: "same" }, [0], [{ key: "size", ours: ["64M"], published: "8G" }]],
      ["other AZ", 33_400, { zoneRelation: "cross" }, [1], [{ key: "size", ours: ["64M"], published: "8G" }]],
    ]);
    expect(
      table(model, "fsx-eks", "fio.read.bandwidth").references.map((r) => [
        r.figure.label,
        r.figure.value,
        r.figure.unit,
        r.figure.source.url,
      ]),
    ).toEqual([
      [
        "same AZ",
        154e6,
        "B/s",
        "https://aws.amazon.com/blogs/containers/how-to-run-a-multi-az-stateful-application-on-eks-with-aws-fsx-for-netapp-ontap/",
      ],
    ]);
  });

  it("no published row beside another experiment's run, another storage, or a row of another side", () => {
    const [same, cross] = fsxSet();
    const local: Sample[] = same.samples.map((s) => {
      const { storageClass, ...metadata } = s.metadata;
      expect(storageClass).toBe("fsx-ontap-nas");
      return { ...s, metadata: { ...metadata, scenario: "local", stack: "ext4" } };
    });
    const gp3 = same.samples.map((s) => ({ ...s, metadata: { ...s.metadata, storageClass: "gp3", runId: "gp3" } }));
    const m = buildModel([{ file: "local.json", samples: local }, { file: "gp3.json", samples: gp3 }, cross]);
    expect(table(m, "local", "fio.read.iops").references).toEqual([]);
    const t = table(m, "fsx-eks", "fio.read.iops");
    expect(t.groups.map((g) => g.label)).toEqual(["fsx-eks · gp3 · same · us-east-1a", "fsx-eks · fsx-ontap-nas · cross · us-east-1b"]);
    // The same-AZ figure was measured on the NAS class: not beside the gp3 row; the other-AZ one beside the NAS row.
    expect(t.references.map((r) => [r.figure.label, r.rows])).toEqual([["other AZ", [1]]]);
  });

  it("cross / same zone: with three repetitions a side, the min-max range of the repetition ratios, min(cross)/max(same) to max(cross)/min(same)", () => {
    const r = model.experiments[0].ratios.find((x) => x.metric === "fio.read.iops");
    expect(r?.comparison.id).toBe("zone");
    expect(r?.estimate).toEqual({
      ratio: 58000 / 47020.652898,
      low: 14948.051948 / 80979.010495,
      high: 69200 / 15225.887056,
      method: "min-max",
      level: 0.95,
      resamples: 10_000,
      seed: 1,
      minReps: 8,
      // U of cross [58000, 14948, 69200] over same [47021, 80979, 15226] = 2 + 0 + 2 = 4, |4 − 4.5| = 0.5: no split is
      // less extreme (U is a whole number here), so p = 1.
      permutation: { p: 1, permutations: 20 },
    });
    expect(r?.noDifference).toBe(true);
    expect(r?.published).toBe(33_400 / 37_500);
    expect(r?.differs).toEqual([
      ["zoneRelation", "cross", "same"],
      ["zone", "us-east-1b", "us-east-1a"],
    ]);
    // No ratio of counts (fio.error).
    expect(model.experiments[0].ratios.map((x) => x.metric)).toEqual([
      "fio.read.iops",
      "fio.read.bandwidth",
      "fio.write.iops",
      "fio.write.bandwidth",
    ]);
  });

  it("a fio workload other than the published line gets no published row", () => {
    const m = buildModel([{ file: "lat.json", samples: parseFixture("fio", "fio/latency-qd1-randread.json") }]);
    expect(m.experiments.map((e) => e.id)).toEqual([""]);
    expect(m.experiments[0].title).toBe("Runs without a scenario");
    expect(m.experiments[0].tables.every((t) => t.references.length === 0)).toBe(true);
  });
});

describe("Kafka: RF3 / RF1 from the OMB result fixtures", () => {
  const kafka = (rf: number, driverConfig: string) => ({
    scenario: "kafka-fsx",
    stack: "kafka",
    runId: `rf${rf}`,
    replicationFactor: rf,
    driverConfig,
  });

  it("another workload (the fixtures' 1 KiB, 1 topic) gets no published row, only the line naming how it differs", () => {
    const m = buildModel([
      {
        file: "rf1.json",
        samples: repetitions("omb", "omb/kafka-throughput-1kb.json", ["omb/kafka-throughput-1kb.json"], kafka(1, "kafka-throughput")),
      },
    ]);
    const t = table(m, "kafka-fsx", "omb.throughput");
    expect(t.references).toEqual([]);
    expect(t.unmatched.map((u) => [u.figure.label, u.rows])).toEqual([["RF1, kafka-throughput (~)", [0]]]);
    expect(unmatchedNote(t, 0)).toBe(
      "published RF1, kafka-throughput (~): 3,679 MB/s (Performance overview and validation in AWS FSx for NetApp ONTAP (NetApp Solutions, Apache Kafka workloads with NetApp NFS storage)) is not shown: our setup differs: messageSize (ours 1024; published 32768), topics (ours 1; published 4), producersPerTopic (ours 4; published 40), consumersPerTopic (ours 4; published 80), ombPayload (ours not recorded; published randomized: 0.5 random bytes, 100 payloads).",
    );
  });

  it("like for like: the ratio of omb.throughput, the published RF3/RF1 of the same driver beside it", () => {
    // The fixtures' values under NetApp's workload (4 topics, 32 KiB, 40 producers and 80 consumers per topic).
    const netapp = {
      messageSize: 32768,
      topics: 4,
      producersPerTopic: 40,
      consumersPerTopic: 80,
      ombPayload: "randomized: 0.5 random bytes, 100 payloads",
    };
    const m = buildModel([
      {
        file: "rf1.json",
        samples: repetitions("omb", "omb/kafka-throughput-1kb.json", ["omb/kafka-throughput-1kb.json"], {
          ...kafka(1, "kafka-throughput"),
          ...netapp,
        }),
      },
      {
        file: "rf3.json",
        samples: repetitions("omb", "omb/kafka-throughput-1kb.json", ["omb/kafka-sync-1kb-legacy.json"], {
          ...kafka(3, "kafka-throughput"),
          ...netapp,
        }),
      },
    ]);
    const t = table(m, "kafka-fsx", "omb.throughput");
    expect(t.groups.map((g) => [g.label, g.values])).toEqual([
      ["kafka · 1", [2048]],
      ["kafka · 3", [409.6]],
    ]);
    // Only the figures of each row's own driver and replication factor.
    expect(t.references.map((r) => [r.figure.label, r.rows])).toEqual([
      ["RF1, kafka-throughput (~)", [0]],
      ["RF3, kafka-throughput (~)", [1]],
    ]);
    const r = m.experiments[0].ratios.find((x) => x.metric === "omb.throughput");
    expect(r?.comparison.title).toBe("RF3 / RF1");
    expect(r?.estimate.ratio).toBe(409.6 / 2048);
    expect(r?.estimate.method).toBe("min-max");
    expect(r?.published).toBe(1218 / 3679);
    // The legacy result file predates publishErrorRate: RF3 has no omb.publish.errors.
    expect(m.incomparable).toEqual([
      {
        experiment: "kafka-fsx",
        metric: "omb.publish.errors",
        what: "kafka",
        samples: 1,
        files: ["rf1.json"],
        reason: "RF3 / RF1: one side missing: no replicationFactor=3 samples of this metric",
      },
    ]);
  });

  it("different OMB workloads are not like for like: both rows listed, with what differs", () => {
    const m = buildModel([
      {
        file: "rf1.json",
        samples: parseFixture("omb", "omb/kafka-throughput-1kb.json").map((s) => ({
          ...s,
          metadata: { ...s.metadata, ...kafka(1, "kafka-sync") },
        })),
      },
      {
        file: "rf3.json",
        samples: parseFixture("omb", "omb/kafka-sync-1kb-legacy.json").map((s) => ({
          ...s,
          metadata: { ...s.metadata, ...kafka(3, "kafka-sync") },
        })),
      },
    ]);
    expect(m.experiments[0].ratios).toEqual([]);
    const throughput = m.incomparable.filter((i) => i.metric === "omb.throughput");
    expect(throughput).toEqual([
      {
        experiment: "kafka-fsx",
        metric: "omb.throughput",
        what: "kafka · 3",
        samples: 1,
        files: ["rf3.json"],
        reason:
          "RF3 / RF1: not like-for-like: differs from kafka · 1 in workload (200k rate 4 producers and 4 consumers on 1 topic / 100 partition vs 1000k rate 4 producers and 4 consumers on 1 topic / 100 partition)",
      },
      {
        experiment: "kafka-fsx",
        metric: "omb.throughput",
        what: "kafka · 1",
        samples: 1,
        files: ["rf1.json"],
        reason:
          "RF3 / RF1: not like-for-like: differs from kafka · 3 in workload (1000k rate 4 producers and 4 consumers on 1 topic / 100 partition vs 200k rate 4 producers and 4 consumers on 1 topic / 100 partition)",
      },
    ]);
  });
});

describe("samples that cannot be compared are listed, not dropped", () => {
  const ioping = (stack: string, files: string[]) =>
    repetitions("ioping", "ioping/ioping-J.json", files, {
      scenario: "fsx-eks",
      stack,
      runId: "r1",
      zoneRelation: stack === "a" ? "same" : "cross",
    });

  it("mixed units: the metric keeps its most common unit, the others are listed", () => {
    const same = ioping("a", ["ioping/ioping-J.json", "ioping/ioping-periodic-J.json", "ioping/ioping-quiet-1201.txt"]);
    const inMs: Sample = { ...same.find((s) => s.metric === "ioping.latency.mean")!, value: 0.403646, unit: "ms" };
    const m = buildModel([{ file: "a.json", samples: [...same, { ...inMs, metadata: { ...inMs.metadata, rep: 4 } }] }]);
    expect(table(m, "fsx-eks", "ioping.latency.mean").groups.map((g) => g.values)).toEqual([[403.646, 588.253, 329.1]]);
    expect(m.incomparable).toContainEqual({
      experiment: "fsx-eks",
      metric: "ioping.latency.mean",
      what: "unit ms",
      samples: 1,
      files: ["a.json"],
      reason: "mixed units: 1 sample(s) in ms, while 3 sample(s) of this metric are in us",
    });
  });

  it("one side missing, and missing metadata", () => {
    const [dev] = cephSet();
    const noHypervisor = repetitions("pgbench", PGBENCH_TPCB[0], [PGBENCH_TPCB[0]], { scenario: "ceph-nitro", stack: "old", runId: "r0" });
    const m = buildModel([dev, { file: "results/old/r0/samples.json", samples: noHypervisor }]);
    expect(m.experiments[0].ratios).toEqual([]);
    expect(m.incomparable.filter((i) => i.metric === "pgbench.tps")).toEqual([
      {
        experiment: "ceph-nitro",
        metric: "pgbench.tps",
        what: "old · — · —",
        samples: 1,
        files: ["results/old/r0/samples.json"],
        reason: "Nitro / Xen: no 'hypervisor' in its metadata, so it cannot take a side",
      },
      {
        experiment: "ceph-nitro",
        metric: "pgbench.tps",
        what: "dev · m4.xlarge · xen",
        samples: 3,
        files: ["results/dev/r1/samples.json"],
        reason: "Nitro / Xen: one side missing: no hypervisor=nitro samples of this metric",
      },
    ]);
  });

  it("a repetition read twice (the same run copied) counts once and is listed", () => {
    const [dev] = cephSet();
    const m = buildModel([dev, { file: "copy/dev/r1/samples.json", samples: dev.samples }]);
    expect(table(m, "ceph-nitro", "pgbench.tps").groups.map((g) => g.summary.n)).toEqual([3]);
    expect(m.incomparable.filter((i) => i.metric === "pgbench.tps" && i.reason.startsWith("duplicate"))).toEqual(
      [1, 2, 3].map((rep) => ({
        experiment: "ceph-nitro",
        metric: "pgbench.tps",
        what: `run r1 rep ${rep}`,
        samples: 1,
        files: ["copy/dev/r1/samples.json"],
        reason: `duplicate: run r1 repetition ${rep} of this row was already read from results/dev/r1/samples.json; counted once`,
      })),
    );
  });

  it("a denominator that is not positive gives no ratio", () => {
    const a = ioping("a", ["ioping/ioping-J.json", "ioping/ioping.txt", "ioping/ioping-periodic-J.json"]).map((s) =>
      s.metric === "ioping.latency.min" && s.metadata.rep === 2 ? { ...s, value: 0 } : s,
    );
    const b = ioping("b", ["ioping/ioping-quiet-1201.txt"]);
    const m = buildModel([
      { file: "a.json", samples: a },
      { file: "b.json", samples: b },
    ]);
    expect(m.incomparable).toEqual([
      {
        experiment: "fsx-eks",
        metric: "ioping.latency.min",
        what: "a · same",
        samples: 3,
        files: ["a.json"],
        reason: "cross-zone / same-zone: a denominator value is not positive, so no ratio",
      },
    ]);
    expect(m.experiments[0].ratios.map((r) => r.metric)).toEqual([
      "ioping.iops",
      "ioping.latency.mean",
      "ioping.latency.max",
      "ioping.latency.mdev",
    ]);
  });
});

describe("grouping", () => {
  it("repetitions of two runs of one stack pool into one row", () => {
    const run = (runId: string, files: string[]) =>
      repetitions("pgbench", PGBENCH_TPCB[0], files, {
        scenario: "ceph-nitro",
        stack: "dev",
        runId,
        instanceType: "m4.xlarge",
        hypervisor: "xen",
      });
    const m = buildModel([
      { file: "results/dev/r1/samples.json", samples: run("r1", PGBENCH_TPCB) },
      { file: "results/dev/r2/samples.json", samples: run("r2", ["pgbench/tpcb-15.txt", "pgbench/retries-t-15.txt"]) },
    ]);
    const t = table(m, "ceph-nitro", "pgbench.tps");
    expect(t.groups).toHaveLength(1);
    expect(t.groups[0].values).toEqual([1644.801001, 479.4364, 666.454009, 1644.801001, 666.454009]);
    expect(t.groups[0].summary).toEqual({ median: 666.454009, min: 479.4364, max: 1644.801001, n: 5, cv: expect.any(Number) });
    expect(t.groups[0].runs).toEqual(["r1", "r2"]);
    expect(t.groups[0].files).toEqual(["results/dev/r1/samples.json", "results/dev/r2/samples.json"]);
    expect(t.columns).toEqual(["stack"]);
  });

  it("a setting that differs between runs of one stack splits them and becomes a column", () => {
    const base = parseFixture("pgbench", PGBENCH_TPCB[0]);
    const with14 = base.map((s) => ({ ...s, metadata: { ...s.metadata, stack: "dev", runId: "r2", rep: 1, toolVersion: "14.0" } }));
    const m = buildModel([
      { file: "r1.json", samples: base.map((s) => ({ ...s, metadata: { ...s.metadata, stack: "dev", runId: "r1", rep: 1 } })) },
      { file: "r2.json", samples: with14 },
    ]);
    const t = table(m, "", "pgbench.tps");
    expect(t.columns).toEqual(["stack", "toolVersion"]);
    expect(t.groups.map((g) => g.label)).toEqual(["dev · pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)", "dev · 14.0"]);
  });
});

describe("--baseline STACK", () => {
  const ioping = (stack: string, files: string[]) => repetitions("ioping", "ioping/ioping-J.json", files, { stack, runId: "r1" });
  const inputs: InputFile[] = [
    {
      file: "results/disk/r1/samples.json",
      samples: ioping("disk", ["ioping/ioping-J.json", "ioping/ioping-periodic-J.json", "ioping/ioping.txt"]),
    },
    {
      file: "results/other/r1/samples.json",
      samples: ioping("other", ["ioping/ioping-quiet-1201.txt", "ioping/ioping.txt", "ioping/ioping-J.json"]),
    },
  ];

  it("divides every other stack's rows by the baseline stack's like-for-like rows", () => {
    const m = buildModel(inputs, { baseline: "disk" });
    const r = m.experiments[0].ratios.find((x) => x.metric === "ioping.latency.mean");
    expect(r?.comparison).toEqual(expect.objectContaining({ id: "baseline", key: "stack", den: "disk" }));
    expect(r?.estimate.ratio).toBe(329.1 / 403.646);
    expect([r?.estimate.low, r?.estimate.high]).toEqual([283.1 / 588.253, 403.646 / 283.1]);
    expect(m.experiments[0].ratios.map((x) => x.metric)).toEqual([
      "ioping.iops",
      "ioping.latency.min",
      "ioping.latency.mean",
      "ioping.latency.max",
      "ioping.latency.mdev",
    ]);
    expect(buildModel(inputs).experiments[0].ratios).toEqual([]);
  });

  it("does not repeat a ratio a built-in comparison already gives, and applies only where the baseline ran", () => {
    const m = buildModel([...cephSet(), ...fsxSet()], { baseline: "dev" });
    expect(m.experiments.map((e) => [e.id, e.ratios.map((r) => `${r.comparison.id} ${r.metric}`)])).toEqual([
      ["ceph-nitro", ["hypervisor pgbench.tps", "hypervisor pgbench.latency.mean"]],
      ["fsx-eks", ["zone fio.read.iops", "zone fio.read.bandwidth", "zone fio.write.iops", "zone fio.write.bandwidth"]],
    ]);
    expect(m.incomparable).toEqual([]);
  });
});

describe("--baseline NAME with named local runs (lab bench local --name)", () => {
  // Where each ran differs (its --dir, so the ioping target): that goes with the run's name.
  const local = (name: string, fileSystem: string, files: string[]) =>
    localRun(name, fileSystem, files, { target: `/mnt/${name}/.lab-bench/data` });
  const ext4 = {
    file: "results/local/ext4/r1/samples.json",
    samples: local("ext4", "ext4", ["ioping/ioping-J.json", "ioping/ioping.txt"]),
  };
  const tmpfs = { file: "results/local/tmpfs/r1/samples.json", samples: local("tmpfs", "tmpfs", ["ioping/ioping-quiet-1201.txt"]) };

  it("tmpfs / ext4: runs of the same setup that differ only in where they ran form a ratio; the baseline row comes first", () => {
    const m = buildModel([tmpfs, ext4], { baseline: "ext4" });
    const t = table(m, "local", "ioping.latency.mean");
    expect(t.groups.map((g) => g.metadata.stack)).toEqual(["ext4", "tmpfs"]);
    const r = m.experiments[0].ratios.find((x) => x.metric === "ioping.latency.mean");
    expect([r?.comparison.id, r?.num.metadata.stack, r?.den.metadata.stack, r?.estimate.ratio]).toEqual([
      "baseline",
      "tmpfs",
      "ext4",
      329.1 / median([403.646, 283.1]),
    ]);
    // One repetition on the tmpfs side: no spread known, so no difference is shown whatever the ratio.
    expect(r?.noDifference).toBe(true);
    expect(m.baselineNotes).toEqual([]);
    expect(m.incomparable).toEqual([]);
  });

  it("a baseline with no other run of its experiment: one line saying why, not a listing per row", () => {
    const m = buildModel([ext4, ...fsxSet()], { baseline: "ext4" });
    expect(m.experiments.find((e) => e.id === "local")?.ratios).toEqual([]);
    expect(m.incomparable).toEqual([]);
    expect(m.baselineNotes).toEqual([
      "--baseline ext4: not like for like with anything: experiment local has no other named run to divide by it (the runs of fsx-eks are other setups and are never divided by it); name runs of the same setup (lab bench local --name N) to compare them.",
    ]);
  });
});

it("every published figure cites its publication (title, https URL, where, date read) and is one the experiments table states", () => {
  const docs = fs.readFileSync(path.join(ROOT, "README.md"), "utf8") + fs.readFileSync(path.join(SHARED, "DESIGN.md"), "utf8");
  for (const f of PUBLISHED_FIGURES) {
    expect([f.quote, docs.includes(f.quote)]).toEqual([f.quote, true]);
    expect(f.source.url).toMatch(
      /^https:\/\/(aws\.amazon\.com|docs\.netapp\.com|github\.com\/koor-tech\/experiment-ceph-on-nitro\/tree\/[0-9a-f]{40})\//,
    );
    expect(f.source.title.length).toBeGreaterThan(20);
    expect(f.source.where.length).toBeGreaterThan(10);
    expect(f.source.read).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }
  expect(PUBLISHED_FIGURES.map((f) => `${f.scenario} ${f.label} ${f.metric} ${f.value} ${f.unit} ${new URL(f.source.url).host}`)).toEqual([
    "fsx-eks same AZ fio.read.iops 37500 op/s aws.amazon.com",
    "fsx-eks same AZ fio.write.iops 12500 op/s aws.amazon.com",
    "fsx-eks same AZ fio.read.bandwidth 154000000 B/s aws.amazon.com",
    "fsx-eks same AZ fio.write.bandwidth 51300000 B/s aws.amazon.com",
    "fsx-eks same AZ ioping.latency.mean 483.8 us aws.amazon.com",
    "fsx-eks other AZ fio.read.iops 33400 op/s aws.amazon.com",
    "fsx-eks other AZ fio.write.iops 11100 op/s aws.amazon.com",
    "fsx-eks other AZ ioping.latency.mean 1030 us aws.amazon.com",
    "kafka-fsx RF1, kafka-sync (~) omb.throughput 3218 MB/s docs.netapp.com",
    "kafka-fsx RF1, kafka-throughput (~) omb.throughput 3679 MB/s docs.netapp.com",
    "kafka-fsx RF3, kafka-sync (~) omb.throughput 1252 MB/s docs.netapp.com",
    "kafka-fsx RF3, kafka-throughput (~) omb.throughput 1218 MB/s docs.netapp.com",
    // Means of the three raw outputs a side (python3 over the source's files: the same numbers).
    ...(
      [
        ["m4.xlarge (Xen)", 374.95, 53.35, [0.003, 0.002, 0.002, 0.002, 1.345, 11.09, 1.418, 3.391, 2.838, 3.463, 29.76]],
        ["m5.xlarge (Nitro)", 537.24, 37.23, [0.002, 0.001, 0.001, 0.001, 1.038, 7.372, 1.131, 2.566, 2.134, 2.566, 20.399]],
      ] as const
    ).flatMap(([label, tps, lat, statements]) => [
      `ceph-nitro ${label} pgbench.tps ${tps} txn/s github.com`,
      `ceph-nitro ${label} pgbench.latency.mean ${lat} ms github.com`,
      ...statements.map((v) => `ceph-nitro ${label} pgbench.statement.latency ${v} ms github.com`),
    ]),
  ]);
  // The fio workload is the published command line's (components/bench/profiles.ts).
  expect(PUBLISHED_FIGURES[0].workload).toEqual({ rw: "randrw", rwmixread: 75, bs: "4k", iodepth: 64 });
  expect(PUBLISHED_FIGURES[0].setup).toEqual({ size: "8G", ioengine: "libaio", direct: 1, gtod_reduce: 1 });
});
