import { markdownTable, renderMarkdown } from "../../../lab/report/markdown";
import { buildModel } from "../../../lab/report/model";
import { cephSet } from "./samples";

describe("report.md", () => {
  // pgbench.tps of the Ceph set: dev 1644.801001, 479.4364, 666.454009 txn/s; nitro 1644.801001, 666.454009.
  const model = buildModel(
    cephSet().map((f) => ({ ...f, samples: f.samples.filter((s) => s.metric === "pgbench.tps") })),
    { scenarioTitles: { "ceph-nitro": "ceph-nitro: Ceph on Nitro" } },
  );

  it("the whole document: method, summary, ratios, the table with its published rows and notes, the chart, incomparables, inputs", () => {
    // Medians 666.454009 and 1155.627505 at five significant digits; ratio 1155.627505 / 666.454009 = 1.73399…,
    // its min-max range 666.454009 / 1644.801001 = 0.40519… to 1644.801001 / 479.4364 = 3.43070…; published 537.24 / 374.95 = 1.43283….
    expect(renderMarkdown(model, { charts: true }).split("\n")).toEqual([
      "# Benchmark report",
      "",
      'Each row pools the repetitions of one measurement (samples whose metadata is identical but for run id and repetition): median, min–max and n over them. A ratio divides two rows\' medians; its interval is a 95 % percentile bootstrap over the repetitions (10,000 resamples, seed 1) when both rows have at least 3 repetitions, and otherwise the min–max range of the ratio (marked "min–max only"). Published figures are reference rows, named with their source; they were not measured here.',
      "",
      "## Summary",
      "",
      "- 5 samples from 2 files (2 runs of 2 stacks): 1 experiment, 1 metric table, 2 rows.",
      "- 1 ratio; headline: Nitro / Xen pgbench.tps 1.734 (0.4052–3.431, min–max only: n < 3; published 1.433).",
      "- 2 published figures beside ours; nothing left incomparable.",
      "",
      "## ceph-nitro: Ceph on Nitro",
      "",
      "### Ratios",
      "",
      "| ratio | metric | ours | interval | n | published | rows (numerator / denominator) |",
      "| --- | --- | ---: | ---: | ---: | ---: | --- |",
      "| **Nitro / Xen** | `pgbench.tps` | 1.734 | 0.4052–3.431 (min–max only: n < 3) | 2 / 3 | 1.433 | nitro · m5.xlarge · nitro / dev · m4.xlarge · xen |",
      "",
      "### `pgbench.tps` (txn/s)",
      "",
      "| stack | instanceType | hypervisor | median | min–max | n | unit | runs |",
      "| --- | --- | --- | ---: | ---: | ---: | --- | --- |",
      "| `dev` | `m4.xlarge` | `xen` | 666.45 | 479.44–1,644.8 | 3 | txn/s | r1 |",
      "| `nitro` | `m5.xlarge` | `nitro` | 1,155.6 | 666.45–1,644.8 | 2 | txn/s | r1 |",
      "| **published: m4.xlarge (Xen)** |  |  | 374.95 | — | — | txn/s | README.md |",
      "| **published: m5.xlarge (Nitro)** |  |  | 537.24 | — | — | txn/s | README.md |",
      "",
      "- published, Ceph on Nitro, m4.xlarge (Xen): 374.95 txn/s; source: README.md (experiments table, published headline); deployed: 1 controller + 3 workers, k0s, Rook-Ceph RBD (3 replicas), Postgres on Ceph; beside rows with instanceType = m4.xlarge, hypervisor = xen; our setup differs: scale (ours 2; published 1000), clients (ours 4; published 20), durationSeconds (ours 5; published 300).",
      "- published, Ceph on Nitro, m5.xlarge (Nitro): 537.24 txn/s; source: README.md (experiments table, published headline); deployed: 1 controller + 3 workers, k0s, Rook-Ceph RBD (3 replicas), Postgres on Ceph; beside rows with instanceType = m5.xlarge, hypervisor = nitro; our setup differs: scale (ours 2; published 1000), clients (ours 4; published 20), durationSeconds (ours 5; published 300).",
      "- Setup of every row: `toolVersion = pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)`, `clients = 4`, `durationSeconds = 5`, `maxTries = 1`, `queryMode = simple`, `scale = 2`, `threads = 2`, `tpsMeasure = without initial connection time`, `transactionType = <builtin: TPC-B (sort of)>`.",
      "",
      "![pgbench.tps: median per row with min–max whiskers](charts/ceph-nitro--pgbench.tps.svg)",
      "",
      "## Samples that could not be compared",
      "",
      "None.",
      "",
      "## Inputs",
      "",
      "- `results/dev/r1/samples.json`: 3 samples",
      "- `results/nitro/r1/samples.json`: 2 samples",
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
