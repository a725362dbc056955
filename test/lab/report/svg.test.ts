/** The charts: their vega-lite specs, and the SVG vega renders from them in Node (no browser). */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { chartOf, isCharted, MARK_NAMES, PAGE_WIDTH, ROW_COLORS, type Chart } from "../../../lab/report/chart";
import { chartsOf } from "../../../lab/report/layout";
import { buildModel, type MetricTable } from "../../../lab/report/model";
import { ChartRenderError, renderSvgs } from "../../../lab/report/svg";
import { cephSet, fsxSet, parseFixture } from "./samples";

type XmlNode = { [tag: string]: XmlNode[] } & { ":@"?: Record<string, string>; "#text"?: string };

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", preserveOrder: true, trimValues: false });

function tagOf(n: XmlNode): string {
  return Object.keys(n).find((k) => k !== ":@") as string;
}

/** Every element below `nodes` (depth first) for which `pred` holds. */
function findAll(nodes: XmlNode[], pred: (tag: string, attrs: Record<string, string>) => boolean): XmlNode[] {
  const out: XmlNode[] = [];
  for (const n of nodes) {
    const tag = tagOf(n);
    if (tag === "#text") continue;
    if (pred(tag, n[":@"] ?? {})) out.push(n);
    out.push(...findAll(n[tag], pred));
  }
  return out;
}

const text = (n: XmlNode): string => n[tagOf(n)].map((c) => (tagOf(c) === "#text" ? String(c["#text"]) : text(c))).join("");

/** Elements `child` inside the group with class `cls`. */
function marks(doc: XmlNode[], cls: string, child: string): XmlNode[] {
  const groups = findAll(doc, (tag, a) => tag === "g" && (a.class ?? "").split(" ").includes(cls));
  return groups.flatMap((g) => g.g.filter((c) => tagOf(c) === child));
}

const model = buildModel([...cephSet(), ...fsxSet()], { scenarioTitles: { "ceph-nitro": "ceph-nitro: Ceph on Nitro" } });
const charts: Chart[] = model.experiments.flatMap((e) => [...chartsOf(e).values()]);

const bandsOf = (c: Chart) => (c.spec as { data?: { values: { band: string; color: string }[] } }).data?.values ?? [];

describe("which tables get a chart", () => {
  const t = (over: Partial<MetricTable>): MetricTable => ({ ...model.experiments[0].tables[0], ...over });

  it("a measured unit with at least two rows, ours or published", () => {
    const tps = model.experiments[0].tables[0];
    expect(isCharted(tps)).toBe(true);
    expect(isCharted(t({ unit: "count" }))).toBe(false);
    expect(isCharted(t({ groups: tps.groups.slice(0, 1), references: [] }))).toBe(false);
  });

  it("a ratio chart per experiment, then one chart per non-count table: a band and a dot per repetition for every row, a diamond per published figure", () => {
    expect(charts.map((c) => [c.file, c.bars, c.rules, c.points])).toEqual([
      // The six published Ceph runs' figures: a diamond beside each side, and the published ratio of both ratios.
      ["ceph-nitro--ratios.svg", 2, 2, undefined],
      ["ceph-nitro--pgbench.tps.svg", 2, 2, 5],
      ["ceph-nitro--pgbench.latency.mean.svg", 2, 2, 5],
      ["fsx-eks--ratios.svg", 4, 2, undefined],
      ["fsx-eks--fio.read.iops.svg", 2, 2, 6],
      ["fsx-eks--fio.read.bandwidth.svg", 2, 1, 6],
      // Two of the three fixtures a side have writes.
      ["fsx-eks--fio.write.iops.svg", 2, 2, 4],
      ["fsx-eks--fio.write.bandwidth.svg", 2, 1, 4],
    ]);
  });
});

describe("the vega-lite spec", () => {
  const fsx = model.experiments[1];
  const bw = chartOf(fsx, fsx.tables.find((x) => x.metric === "fio.read.bandwidth") as MetricTable) as Chart;

  // CVs: python3 statistics.stdev / mean of 192.596594, 331.690026, 62.365233 = 0.6888; of 238.026752, 61.22722, 284.164096 = 0.6051.
  it("bands in the table's order, each published figure under its own row and in its colour; numbers in the band labels, in display units", () => {
    expect([bw.title, bw.xTitle, bw.yTitle]).toEqual([
      "fio.read.bandwidth (MB/s)",
      "fio.read.bandwidth (MB/s)",
      "stack · zoneRelation · zone",
    ]);
    expect(bandsOf(bw)).toEqual([
      { band: "fsx-eks · same · us-east-1a: 192.6, CV 69 %, n 3", color: ROW_COLORS[0] },
      { band: "published, same AZ: 154", color: ROW_COLORS[0] },
      { band: "fsx-eks · cross · us-east-1b: 238.03, CV 61 %, n 3", color: ROW_COLORS[1] },
    ]);
    const layers = (bw.spec as { layer: { data?: { values: Record<string, unknown>[] }; name?: string }[] }).layer;
    const published = layers.find((l) => l.name === MARK_NAMES.published);
    expect(published?.data?.values).toEqual([
      {
        band: "published, same AZ: 154",
        color: ROW_COLORS[0],
        value: 154,
        source: "https://aws.amazon.com/blogs/containers/how-to-run-a-multi-az-stateful-application-on-eks-with-aws-fsx-for-netapp-ontap/",
      },
    ]);
    const points = layers.find((l) => l.name === MARK_NAMES.points);
    expect(points?.data?.values.map((v) => [v.band, v.value])).toEqual([
      ["fsx-eks · same · us-east-1a: 192.6, CV 69 %, n 3", 192.596594],
      ["fsx-eks · same · us-east-1a: 192.6, CV 69 %, n 3", 331.690026],
      ["fsx-eks · same · us-east-1a: 192.6, CV 69 %, n 3", 62.365233],
      ["fsx-eks · cross · us-east-1b: 238.03, CV 61 %, n 3", 238.026752],
      ["fsx-eks · cross · us-east-1b: 238.03, CV 61 %, n 3", 61.22722],
      ["fsx-eks · cross · us-east-1b: 238.03, CV 61 %, n 3", 284.164096],
    ]);
  });

  it("the ratio chart: a band per ratio saying what it shows, the published ratio in the ratio's band", () => {
    const c = chartsOf(fsx).get(fsx) as Chart;
    expect(bandsOf(c)).toEqual([]);
    const layers = (c.spec as { layer: { data?: { values: Record<string, unknown>[] }; name?: string; layer?: { name?: string }[] }[] })
      .layer;
    expect(layers[1].data?.values.map((v) => v.band)).toEqual([
      "cross-zone / same-zone, fio.read.iops: 1.234 (0.1846–4.545), no difference shown",
      "cross-zone / same-zone, fio.read.bandwidth: 1.236 (0.1846–4.556), no difference shown",
      // Two repetitions a side: no difference shown even where every repetition ratio is above 1.
      "cross-zone / same-zone, fio.write.iops: 1.264 (1.17–1.367), no difference shown",
      "cross-zone / same-zone, fio.write.bandwidth: 1.296 (0.04284–37.49), no difference shown",
    ]);
    expect(layers.find((l) => l.name === MARK_NAMES.publishedRatios)?.data?.values.map((v) => v.published)).toEqual([
      33_400 / 37_500,
      11_100 / 12_500,
    ]);
  });
});

describe("rendered SVG", () => {
  const svgs = renderSvgs(charts.map((c) => c.spec));

  it("every chart is a well-formed SVG document as wide as the report page", () => {
    expect(svgs).toHaveLength(charts.length);
    for (const svg of svgs) {
      expect(XMLValidator.validate(svg)).toBe(true);
      expect(
        svg.startsWith(
          `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" class="marks" width="${PAGE_WIDTH}"`,
        ),
      ).toBe(true);
    }
  });

  it("draws a bar and a whisker per row, a dot per repetition, a diamond per published figure, the band labels, no text inside the plot", () => {
    charts.forEach((c, i) => {
      const doc = parser.parse(svgs[i]) as XmlNode[];
      const isRatio = c.file.endsWith("--ratios.svg");
      if (!isRatio) {
        expect(marks(doc, `${MARK_NAMES.bars}_marks`, "path")).toHaveLength(c.bars);
        expect(marks(doc, `${MARK_NAMES.whiskers}_marks`, "line")).toHaveLength(c.bars);
        expect(marks(doc, `${MARK_NAMES.points}_marks`, "path")).toHaveLength(c.points as number);
        expect(marks(doc, `${MARK_NAMES.published}_marks`, "path")).toHaveLength(c.rules);
        expect(
          marks(doc, "role-axis-label", "text")
            .map(text)
            .filter((t) => !/^[0-9,.]+$/.test(t)),
        ).toEqual(bandsOf(c).map((b) => b.band));
      } else {
        expect(marks(doc, `${MARK_NAMES.ratios}_marks`, "path")).toHaveLength(c.bars);
        expect(marks(doc, `${MARK_NAMES.intervals}_marks`, "line")).toHaveLength(c.bars);
        expect(marks(doc, `${MARK_NAMES.one}_marks`, "line")).toHaveLength(1);
        expect(marks(doc, `${MARK_NAMES.publishedRatios}_marks`, "path")).toHaveLength(c.rules);
        // every band label whole, as the spec gives it (vega measures text without a canvas by an
        // estimate, 0.8 × font size a character, and cuts a label longer than labelLimit with "…")
        const bands = ((c.spec as { layer: { data?: { values: { band?: string }[] } }[] }).layer[1].data?.values ?? []).map((v) => v.band);
        expect(
          marks(doc, "role-axis-label", "text")
            .map(text)
            .filter((t) => t !== "" && !/^[0-9,.]+$/.test(t)), // the log axis' ticks: numbers, or blank
        ).toEqual(bands);
      }
      expect(svgs[i]).not.toContain("…");
      expect(marks(doc, "role-axis-title", "text").map(text)).toEqual([c.xTitle, c.yTitle]);
      expect(marks(doc, "role-title-text", "text").map(text)).toEqual([c.title]);
      // Every text is an axis label or title, or the chart's title and subtitle: none among the marks.
      expect(
        findAll(doc, (tag, a) => tag === "g" && (a.class ?? "").includes("role-mark")).flatMap((g) =>
          findAll(g.g, (tag) => tag === "text"),
        ),
      ).toEqual([]);
    });
  });

  it("a spec vega-lite warns about is an error, not a chart; no specs start no process", () => {
    const bad = { data: { values: [{ a: 1 }] }, mark: "bar", encoding: { x: { field: "a", type: "quantitative", aggregate: "nope" } } };
    expect(() => renderSvgs([charts[1].spec, bad as never])).toThrow(
      new ChartRenderError('rendering charts failed: spec 1: Invalid aggregation operator "nope".'),
    );
    expect(renderSvgs([])).toEqual([]);
  });

  it("a run outside every experiment gets no published figure: its single-row tables are not charted", () => {
    const local = buildModel([{ file: "seed.json", samples: parseFixture("fio", "fio/seed-gtod-reduce.json") }]);
    expect(local.experiments[0].tables.every((t) => t.references.length === 0)).toBe(true);
    expect([...chartsOf(local.experiments[0]).values()]).toEqual([]);
  });
});
