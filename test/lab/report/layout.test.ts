/** The report's words for a ratio: its interval's label, what it shows, and the spread flags. */
import type { Sample } from "../../../core/sample";
import { answerLines, intervalText, metricTableLayout, spreadNotes, summaryLines, verdictText } from "../../../lab/report/layout";
import { buildModel } from "../../../lab/report/model";
import { cephSet, fsxSet, parseFixture } from "./samples";

/** A row of `values` for named local run `stack` (ioping.latency.mean, us). */
function run(stack: string, values: number[]): Sample[] {
  return values.map((value, i) => ({
    metric: "ioping.latency.mean",
    value,
    unit: "us",
    metadata: { tool: "ioping", scenario: "local", stack, runId: "r1", rep: i + 1, fileSystem: stack },
  }));
}

const ratioOf = (a: number[], b: number[]) => {
  const m = buildModel(
    [
      { file: "b.json", samples: run("ext4", b) },
      { file: "a.json", samples: run("tmpfs", a) },
    ],
    { baseline: "ext4" },
  );
  return { m, r: m.experiments[0].ratios[0] };
};

describe("a ratio's words", () => {
  it("three a side wholly apart: a difference, with the exact Mann–Whitney p and the least p 3 / 3 allow", () => {
    const { r } = ratioOf([110, 120, 130], [100, 101, 102]);
    expect(intervalText(r)).toBe("1.078–1.3 (min–max of the 3 × 3 repetition ratios; n < 8 a side: not a confidence interval)");
    expect(verdictText(r)).toBe(
      "a difference: every repetition ratio above 1; exact Mann–Whitney p = 0.1 (the least 3 / 3 repetitions can give is 0.1)",
    );
  });

  it("a spread wider than the difference is flagged in the verdict, the table and a note", () => {
    // tmpfs spans 80–130 around 120: (130 − 80) / 120 = 0.42 > 120 / 101 − 1 = 0.19, and 80 / 102 < 1. CVs (python3
    // statistics.stdev / mean): 0.0099 and 0.2360.
    const { m, r } = ratioOf([80, 120, 130], [100, 101, 102]);
    expect(verdictText(r)).toBe("no difference shown: the interval includes 1");
    expect(r.spreadWider).toEqual(["num"]);
    const t = m.experiments[0].tables[0];
    expect(metricTableLayout(t, m.experiments[0].ratios).rows.map((row) => row.cells[4].text)).toEqual(["0.99 %", "24 % ⚠"]);
    expect(spreadNotes(t, m.experiments[0].ratios)).toEqual([
      "⚠ tmpfs: its spread (max − min = 42 % of the median) is wider than the difference of tmpfs / ext4 (1.188): another run could reverse it.",
    ]);
  });

  it("fewer than three repetitions a side: no difference shown, whatever the ratio", () => {
    const { r } = ratioOf([500, 510], [100, 101]);
    expect(verdictText(r)).toBe("no difference shown: fewer than 3 repetitions on a side");
    expect(r.noDifference).toBe(true);
  });
});

describe("failed fio jobs", () => {
  it("are counted in the summary, named with their errno, and none of their figures is in a table", () => {
    const [same, cross] = fsxSet();
    // a third run whose one job hit ENOSPC after 8500 IOPS (real fio JSON, test/fixtures/fio/enospc.json)
    const enospc = parseFixture("fio", "fio/enospc.json").map((s) => ({
      ...s,
      metadata: { ...s.metadata, scenario: "fsx-eks", stack: "fsx-eks", runId: "full", rep: 1, storageClass: "fsx-ontap-nas" },
    }));
    const m = buildModel([same, cross, { file: "results/fsx-eks/full/samples.json", samples: enospc }], { bootstrap: { resamples: 200 } });
    const jobs = [same, cross].flatMap((f) => f.samples).filter((s) => s.metric === "fio.error").length;
    expect(m.fioJobs).toEqual({ total: jobs + 1, failed: [{ stack: "fsx-eks", runId: "full", job: "enospc", errno: 28 }] });
    expect(summaryLines(m)[2]).toMatch(
      new RegExp(` fio: 1 of ${jobs + 1} jobs failed \\(fsx-eks/full enospc errno 28\\): no figure of theirs is in a table\\.$`),
    );
    const values = m.experiments
      .flatMap((e) => e.tables)
      .filter((t) => t.metric === "fio.write.iops")
      .flatMap((t) => t.groups.flatMap((g) => g.values));
    expect(values).not.toContain(8500);
    // without the failed run: no note
    expect(summaryLines(buildModel([same, cross], { bootstrap: { resamples: 200 } }))[2]).not.toContain("failed");
  });
});

describe("the answer, first and in words", () => {
  it("one sentence per experiment of a two-experiment set, on its headline ratio, with the interval's wording and the published ratio", () => {
    expect(answerLines(buildModel([...cephSet(), ...fsxSet()], { bootstrap: { resamples: 200 } }))).toEqual([
      "ceph-nitro: no difference shown between Nitro and Xen in pgbench.tps (×1.734, 0.4052–3.431, min–max of the 2 × 3 repetition ratios; n < 8 a side: not a confidence interval); published ×1.433 (1 more ratio in its table).",
      "fsx-eks: no difference shown between cross-zone and same-zone in fio.read.iops (×1.234, 0.1846–4.545, min–max of the 3 × 3 repetition ratios; n < 8 a side: not a confidence interval); published ×0.8907 (3 more ratios in its table).",
    ]);
  });

  it("a difference shown: its direction and size in percent; the baseline's numerator by its own name", () => {
    expect(answerLines(ratioOf([110, 120, 130], [100, 101, 102]).m)).toEqual([
      "local: tmpfs's ioping.latency.mean was 19 % higher than ext4's (×1.188, 1.078–1.3, min–max of the 3 × 3 repetition ratios; n < 8 a side: not a confidence interval); no published ratio beside it.",
    ]);
    expect(answerLines(ratioOf([80, 81, 82], [100, 101, 102]).m)[0]).toMatch(
      /^local: tmpfs's ioping\.latency\.mean was 20 % lower than ext4's \(×0\.802, 0\.7843–0\.82, /,
    );
  });

  it("an experiment with one side only says there is nothing to compare", () => {
    const [same] = fsxSet();
    expect(answerLines(buildModel([same]))).toEqual([
      "fsx-eks: no ratio: these results hold one side of its comparisons only, so there is nothing to compare.",
    ]);
  });
});

describe("repetitions in the file system's maintenance window", () => {
  /** The fsx set with each repetition's window and verdict as the collector records them (overlap: the reps that overlapped). */
  const withWindows = (overlap: (runId: string, rep: number) => boolean) =>
    fsxSet().map((f) => ({
      ...f,
      samples: f.samples.map((s) => {
        const rep = Number(s.metadata.rep);
        const hour = String(rep).padStart(2, "0");
        return {
          ...s,
          metadata: {
            ...s.metadata,
            repStart: `2026-12-06T${hour}:00:00Z`,
            repEnd: `2026-12-06T${hour}:30:00Z`,
            fsxMaintenanceStart: "7:02:00",
            fsxMaintenanceMinutes: 120,
            fsxMaintenanceOverlap: overlap(String(s.metadata.runId), rep),
          },
        };
      }),
    }));
  // a repetition runs every fio job of the profile in one window: one verdict each
  const reps = (files: ReturnType<typeof fsxSet>) =>
    new Set(files.flatMap((f) => f.samples).map((s) => `${s.metadata.runId}/${s.metadata.rep}`));

  it("are named in the summary, each once, and split no row", () => {
    const files = withWindows((runId, rep) => runId === "cross" && rep === 2);
    const m = buildModel(files, { bootstrap: { resamples: 200 } });
    const plain = buildModel(fsxSet(), { bootstrap: { resamples: 200 } });
    // the same rows and values as without the windows
    const rows = (mm: typeof m) => mm.experiments.flatMap((e) => e.tables.map((t) => [t.metric, t.groups.map((g) => g.values)]));
    expect(rows(m)).toEqual(rows(plain));
    expect(m.maintenance.overlapped.map((w) => `${w.stack}/${w.runId} ${w.tool} rep ${w.rep}`)).toEqual(["fsx-eks/cross fio rep 2"]);
    expect(m.maintenance.checked).toBe(reps(files).size);
    expect(reps(files).size).toBe(6);
    expect(summaryLines(m)[2]).toMatch(
      / FSx maintenance window: 1 of 6 repetitions checked overlapped it \(fsx-eks\/cross fio rep 2, 2026-12-06T02:00:00Z–2026-12-06T02:30:00Z, window 7:02:00 \+ 120 min\): the file system may have served it from its standby file server\.$/,
    );
  });

  it("none overlapping is said; no verdict recorded, nothing said", () => {
    const files = withWindows(() => false);
    expect(summaryLines(buildModel(files, { bootstrap: { resamples: 200 } }))[2]).toMatch(
      new RegExp(` FSx maintenance window: none of the ${reps(files).size} repetitions checked overlapped it\\.$`),
    );
    expect(summaryLines(buildModel(fsxSet(), { bootstrap: { resamples: 200 } }))[2]).not.toContain("maintenance");
  });
});
