import { SETUP_DIFFERENCES_LEAD, setupDifferenceLines } from "../../../lab/report/layout";
import { markdownTable, renderMarkdown } from "../../../lab/report/markdown";
import { buildModel } from "../../../lab/report/model";
import { fsxSet } from "./samples";

describe("report.md", () => {
  // fio.read.iops of the FSx set: same 47020.652898, 80979.010495, 15225.887056 op/s; cross 58000, 14948.051948, 69200.
  const model = buildModel(
    fsxSet().map((f) => ({ ...f, samples: f.samples.filter((s) => s.metric === "fio.read.iops") })),
    { scenarioTitles: { "fsx-eks": "fsx-eks: FSx ONTAP on EKS" } },
  );

  it("the whole document: the answer in words, summary, ratios and their chart, the table with each published row under its own row, notes, spread flags, the method after the tables, incomparables, inputs", () => {
    // Hand-checked: ratio 58000 / 47020.652898 = 1.2335; its range 14948.051948 / 80979.010495 = 0.18459 to
    // 69200 / 15225.887056 = 4.5449; published 33400 / 37500 = 0.89067; CV of same (python3 statistics.stdev / mean)
    // 0.68876; spreads (80979 − 15226) / 47021 = 1.398 and (69200 − 14948) / 58000 = 0.9354, both wider than 0.2335.
    expect(renderMarkdown(model, { charts: true }).split("\n")).toEqual([
      "# Benchmark report",
      "",
      "## Answer",
      "",
      "- fsx-eks: no difference shown between cross-zone and same-zone in fio.read.iops (×1.234, 0.1846–4.545, min–max of the 3 × 3 repetition ratios; n < 8 a side: not a confidence interval); published ×0.8907.",
      "",
      "## Summary",
      "",
      "- 6 samples from 2 files (2 runs of 1 stack): 1 experiment, 1 metric table, 2 rows.",
      "- 1 ratio, 0 showing a difference; headline: cross-zone / same-zone fio.read.iops: no difference shown (1.234, 0.1846–4.545, min–max of the 3 × 3 repetition ratios; n < 8 a side: not a confidence interval; published 0.8907).",
      "- 2 published figures beside ours; nothing left incomparable.",
      "",
      "## fsx-eks: FSx ONTAP on EKS",
      "",
      "### Ratios",
      "",
      "| ratio | metric | ours | interval | n | shows | published | rows (numerator / denominator) |",
      "| --- | --- | ---: | --- | ---: | --- | ---: | --- |",
      "| **cross-zone / same-zone** | `fio.read.iops` | 1.234 | 0.1846–4.545 (min–max of the 3 × 3 repetition ratios; n < 8 a side: not a confidence interval) | 3 / 3 | no difference shown: the interval includes 1 | 0.8907 | fsx-eks · cross · us-east-1b / fsx-eks · same · us-east-1a |",
      "",
      "![fsx-eks: FSx ONTAP on EKS: each ratio with its interval and the published ratio](charts/fsx-eks--ratios.svg)",
      "",
      "### `fio.read.iops` (op/s)",
      "",
      "| stack | zoneRelation | zone | median | min–max | CV | n | unit | runs |",
      "| --- | --- | --- | ---: | ---: | ---: | ---: | --- | --- |",
      "| `fsx-eks` | `same` | `us-east-1a` | 47,021 | 15,226–80,979 | 69 % ⚠ | 3 | op/s | same |",
      "| **published: same AZ** |  |  | 37,500 | — | — | — | op/s | [How to run a Multi-AZ stateful application on EKS with AWS FSx for NetApp ONTAP (AWS Containers Blog, 2022-04-27)](https://aws.amazon.com/blogs/containers/how-to-run-a-multi-az-stateful-application-on-eks-with-aws-fsx-for-netapp-ontap/) |",
      "| `fsx-eks` | `cross` | `us-east-1b` | 58,000 | 14,948–69,200 | 60 % ⚠ | 3 | op/s | cross |",
      "| **published: other AZ** |  |  | 33,400 | — | — | — | op/s | [How to run a Multi-AZ stateful application on EKS with AWS FSx for NetApp ONTAP (AWS Containers Blog, 2022-04-27)](https://aws.amazon.com/blogs/containers/how-to-run-a-multi-az-stateful-application-on-eks-with-aws-fsx-for-netapp-ontap/) |",
      "",
      "- published, FSx ONTAP on EKS, same AZ: 37,500 op/s; source: How to run a Multi-AZ stateful application on EKS with AWS FSx for NetApp ONTAP (AWS Containers Blog, 2022-04-27), https://aws.amazon.com/blogs/containers/how-to-run-a-multi-az-stateful-application-on-eks-with-aws-fsx-for-netapp-ontap/ (the fio and ioping results, pod in the file system's AZ and in the other AZ; read 2026-12-01); deployed: FSx for NetApp ONTAP Multi-AZ, EKS with three nodes over two AZs, Trident CSI; beside fsx-eks · same · us-east-1a (storageClass = fsx-ontap-nas, zoneRelation = same); our setup differs: size (ours 64M; published 8G). fsx-eks · same · us-east-1a (median 47,021 op/s) is 25 % above the published figure (37,500); the publication gives one figure and no spread, so this says how far apart they are, not whether they differ.",
      "- published, FSx ONTAP on EKS, other AZ: 33,400 op/s; source: How to run a Multi-AZ stateful application on EKS with AWS FSx for NetApp ONTAP (AWS Containers Blog, 2022-04-27), https://aws.amazon.com/blogs/containers/how-to-run-a-multi-az-stateful-application-on-eks-with-aws-fsx-for-netapp-ontap/ (the fio and ioping results, pod in the file system's AZ and in the other AZ; read 2026-12-01); deployed: FSx for NetApp ONTAP Multi-AZ, EKS with three nodes over two AZs, Trident CSI; beside fsx-eks · cross · us-east-1b (storageClass = fsx-ontap-nas, zoneRelation = cross); our setup differs: size (ours 64M; published 8G). fsx-eks · cross · us-east-1b (median 58,000 op/s) is 74 % above the published figure (33,400); the publication gives one figure and no spread, so this says how far apart they are, not whether they differ.",
      "- ⚠ fsx-eks · same · us-east-1a: its spread (max − min = 140 % of the median) is wider than the difference of cross-zone / same-zone (1.234): another run could reverse it.",
      "- ⚠ fsx-eks · cross · us-east-1b: its spread (max − min = 94 % of the median) is wider than the difference of cross-zone / same-zone (1.234): another run could reverse it.",
      "- Setup of every row: `storageClass = fsx-ontap-nas`, `job = seed`, `toolVersion = fio-3.33`, `bs = 4k`, `direct = 1`, `direction = read`, `filename = /tmp/sbl-fix/seed.dat`, `gtod_reduce = 1`, `iodepth = 64`, `ioengine = libaio`, `runtime = 3`, `rw = randrw`, `rwmixread = 75`, `size = 64M`.",
      "",
      "![fio.read.iops: median per row, min–max whiskers and every repetition](charts/fsx-eks--fio.read.iops.svg)",
      "",
      // The method table's differing rows (lab/report/methods.ts), one a line.
      "### Setup differences from the publication",
      "",
      SETUP_DIFFERENCES_LEAD,
      "",
      ...setupDifferenceLines("fsx-eks").map((d) => `- ${d}`),
      "",
      "## How the numbers are computed",
      "",
      "Each row pools the repetitions of one measurement (samples whose metadata is identical but for run id and repetition): median, min–max, coefficient of variation (CV: sample standard deviation / mean) and n over them; the charts draw every repetition as a point. A ratio divides two rows' medians. With fewer than 8 repetitions a side its interval is the min–max range of every repetition ratio (a spread, not a confidence interval: with 3 values a side a bootstrap resample's median can take only 3 values, so a percentile bootstrap would give the same range under a 95 % label), with the exact Mann–Whitney test of the two rows (at 3 / 3 repetitions the smallest p any data can give is 0.1); from 8 a side it is a 95 % percentile bootstrap (10,000 resamples, seed 1). An interval that includes 1, or a side with fewer than 3 repetitions, is \"no difference shown\"; ⚠ marks a row whose spread (max − min over the median) is wider than the difference it is compared on. Published figures are reference rows beside the rows of their own experiment, storage and side only, each citing its publication; they were not measured here.",
      "",
      "## Samples that could not be compared",
      "",
      "None.",
      "",
      "## Inputs",
      "",
      "- `results/fsx-eks/same/samples.json`: 3 samples",
      "- `results/fsx-eks/cross/samples.json`: 3 samples",
      "",
    ]);
  });

  it("without SVG files, no chart links", () => {
    const md = renderMarkdown(model, { charts: false });
    expect(md).not.toContain("![");
    expect(md).not.toContain("charts/");
  });

  it("table cells: metadata as code, pipes escaped, backticks fenced, numeric columns right-aligned", () => {
    expect(
      markdownTable({
        header: ["key", "value"],
        numeric: [1],
        rows: [
          { kind: "ours", cells: [{ text: "a|b", code: true }, { text: "1,234" }] },
          { kind: "reference", cells: [{ text: "x`y", code: true }, { text: "" }] },
          { kind: "ours", cells: [{ text: "published: m4", strong: true }, { text: "2\n3" }] },
        ],
      }),
    ).toBe(["| key | value |", "| --- | ---: |", "| `a\\|b` | 1,234 |", "| ``x`y`` |  |", "| **published: m4** | 2 3 |"].join("\n"));
  });
});
