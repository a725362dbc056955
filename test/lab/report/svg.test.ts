/** The charts: their vega-lite specs, and the SVG vega renders from them in Node (no browser). */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { chartOf, isCharted, MARK_NAMES, type Chart } from "../../../lab/report/chart";
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

describe("which tables get a chart", () => {
  const t = (over: Partial<MetricTable>): MetricTable => ({ ...model.experiments[0].tables[0], ...over });

  it("a measured unit with at least two rows, ours or published", () => {
    const tps = model.experiments[0].tables[0];
    expect(isCharted(tps)).toBe(true);
    expect(isCharted(t({ unit: "count" }))).toBe(false);
    expect(isCharted(t({ groups: tps.groups.slice(0, 1), references: [] }))).toBe(false);
    expect(isCharted(t({ groups: tps.groups.slice(0, 1) }))).toBe(true);
  });

  it("one chart per comparison: the non-count tables of the two experiments", () => {
    expect(charts.map((c) => [c.file, c.bars, c.rules])).toEqual([
      ["ceph-nitro--pgbench.tps.svg", 2, 2],
      ["ceph-nitro--pgbench.latency.mean.svg", 2, 2],
      ["fsx-eks--fio.read.iops.svg", 2, 2],
      ["fsx-eks--fio.read.bandwidth.svg", 2, 1],
      ["fsx-eks--fio.write.iops.svg", 2, 2],
      ["fsx-eks--fio.write.bandwidth.svg", 2, 1],
    ]);
  });
});

describe("the vega-lite spec", () => {
  it("bars at the medians, whiskers from min to max, the median as text, the published figures as rules, in display units", () => {
    const bw = chartOf(
      model.experiments[1],
      model.experiments[1].tables.find((x) => x.metric === "fio.read.bandwidth") as MetricTable,
    ) as Chart;
    expect([bw.title, bw.xTitle, bw.yTitle]).toEqual([
      "fio.read.bandwidth (MB/s)",
      "fio.read.bandwidth (MB/s), median of the repetitions",
      "stack · zoneRelation · zone",
    ]);
    const layers = (bw.spec as { layer: { data: { values: unknown[] }; name?: string }[] }).layer;
    expect(layers[0].data.values).toEqual([
      { label: "fsx-eks · same · us-east-1a", median: 192.596594, min: 62.365233, max: 331.690026, n: 3, text: "192.6" },
      { label: "fsx-eks · cross · us-east-1b", median: 238.026752, min: 61.22722, max: 284.164096, n: 3, text: "238.03" },
    ]);
    expect(layers[1].name).toBe(MARK_NAMES.published);
    expect(layers[1].data.values).toEqual([{ label: "published, FSx ONTAP on EKS, same AZ: 154 MB/s", value: 154 }]);
  });
});

describe("rendered SVG", () => {
  const svgs = renderSvgs(charts.map((c) => c.spec));

  it("every chart is a well-formed SVG document", () => {
    expect(svgs).toHaveLength(charts.length);
    for (const svg of svgs) {
      expect(XMLValidator.validate(svg)).toBe(true);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    }
  });

  it("draws a bar and a value per row, a rule per published figure, both axis titles and the legend", () => {
    charts.forEach((c, i) => {
      const doc = parser.parse(svgs[i]) as XmlNode[];
      expect(marks(doc, `${MARK_NAMES.bars}_marks`, "path")).toHaveLength(c.bars);
      expect(marks(doc, `${MARK_NAMES.published}_marks`, "line")).toHaveLength(c.rules);
      expect(marks(doc, "role-axis-title", "text").map(text)).toEqual([c.xTitle, c.yTitle]);
      const table = model.experiments.flatMap((e) => e.tables).find((t) => c.file.endsWith(`--${t.metric}.svg`)) as MetricTable;
      const values = (c.spec as { layer: { data: { values: { text: string }[] } }[] }).layer[0].data.values.map((v) => v.text);
      expect(marks(doc, `${MARK_NAMES.values}_marks`, "text").map(text)).toEqual(values);
      expect(marks(doc, "role-legend-label", "text").map(text)).toEqual(
        table.references.map((r) => expect.stringContaining(`published, ${r.figure.experiment}, ${r.figure.label}: `)),
      );
      expect(marks(doc, "role-title-text", "text").map(text)).toEqual([c.title]);
    });
  });

  it("the value labels are the tables' medians", () => {
    const doc = parser.parse(svgs[0]) as XmlNode[];
    expect(marks(doc, `${MARK_NAMES.values}_marks`, "text").map(text)).toEqual(["666.45", "1,155.6"]);
  });

  it("a spec vega-lite warns about is an error, not a chart; no specs start no process", () => {
    const bad = { data: { values: [{ a: 1 }] }, mark: "bar", encoding: { x: { field: "a", type: "quantitative", aggregate: "nope" } } };
    expect(() => renderSvgs([charts[0].spec, bad as never])).toThrow(
      new ChartRenderError('rendering charts failed: spec 1: Invalid aggregation operator "nope".'),
    );
    expect(renderSvgs([])).toEqual([]);
  });

  it("a table of one workload outside every experiment still charts with the published line's figures", () => {
    const local = buildModel([{ file: "seed.json", samples: parseFixture("fio", "fio/seed-gtod-reduce.json") }]);
    const c = [...chartsOf(local.experiments[0]).values()];
    expect(c.map((x) => [x.file, x.bars, x.rules])).toEqual([
      ["runs--fio.read.iops.svg", 1, 2],
      ["runs--fio.read.bandwidth.svg", 1, 1],
      ["runs--fio.write.iops.svg", 1, 2],
      ["runs--fio.write.bandwidth.svg", 1, 1],
    ]);
    expect(c[0].yTitle).toBe("samples");
    expect(XMLValidator.validate(renderSvgs([c[0].spec])[0])).toBe(true);
  });
});
