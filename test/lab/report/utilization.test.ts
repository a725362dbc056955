/**
 * `lab report` with manifests and utilization (lab/report/utilization.ts through lab/report): runs with
 * different manifests refused unless forced, the manifest section, the limit line of every
 * repetition under each table, a utilization chart per comparison (rendered by the real vega), and
 * the files read beside samples.json.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { manifestMetadata, type Manifest } from "../../../core/manifest";
import type { MetadataValue, Sample } from "../../../core/sample";
import { chartsOf } from "../../../lab/report/layout";
import { loadInputs } from "../../../lab/report/load";
import { renderHtml } from "../../../lab/report/html";
import { renderMarkdown } from "../../../lab/report/markdown";
import { buildModel, type InputFile } from "../../../lab/report/model";
import { renderSvgs } from "../../../lab/report/svg";
import { writeRunResults } from "../../../lab/results/files";
import { UTILIZATION_FILE } from "../../../lab/utilization/files";
import type { ManifestFile } from "../../../lab/utilization/manifest";
import { ManifestMismatchError, manifestReport, utilChart } from "../../../lab/report/utilization";

const BOOT = { resamples: 200, seed: 1 };

const base: Manifest = {
  schema: 1,
  git: { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false },
  versions: { K0S_VERSION: "v1.36.3+k0s.2", CEPH_IMAGE: "quay.io/ceph/ceph:v20.2.4" },
  region: "us-east-1",
  stacks: {
    network: { kind: "network", configHash: "b".repeat(64), azs: [], azIds: ["use1-az6"], amiIds: [], instanceTypes: [], images: [] },
  },
  command: "lab run ceph-nitro",
  createdAt: "2026-01-15T12:00:00.000Z",
};
const stackFacts = (instanceType: string, configHash = "a".repeat(64)) => ({
  kind: "ceph-k0s",
  configHash,
  azs: ["us-east-1a"],
  azIds: ["use1-az6"],
  amiIds: ["ami-0abc"],
  instanceTypes: [instanceType],
  images: ["docker.io/library/postgres:17.11-bookworm"],
});
const manifestOf = (stack: string, instanceType: string, over: Partial<Manifest> = {}, configHash?: string): Manifest => ({
  ...base,
  stacks: { ...base.stacks, [stack]: stackFacts(instanceType, configHash) },
  ...over,
});

/** pgbench repetitions of one run, each with its window; and the node sampler's CPU and a gp3 volume's IOPS in those windows. */
function run(
  stack: string,
  runId: string,
  hypervisor: string,
  instanceType: string,
  tps: number[],
  iops: number[],
  m?: Manifest,
): Sample[] {
  const out: Sample[] = [];
  tps.forEach((v, i) => {
    const md: Record<string, MetadataValue> = {
      scenario: "ceph-nitro",
      stack,
      runId,
      hypervisor,
      instanceType,
      clients: 20,
      rep: i + 1,
      repStart: `2026-01-15T1${i}:00:00Z`,
      repEnd: `2026-01-15T1${i}:05:00Z`,
      ...(m === undefined ? {} : manifestMetadata(m)),
    };
    out.push({ metric: "pgbench.tps", value: v, unit: "txn/s", metadata: { tool: "pgbench", ...md } });
    out.push({
      metric: "util.node.cpuBusy",
      value: 30 + i,
      unit: "%",
      metadata: { tool: "pgbench", ...md, utilSource: "node-sampler", resource: "node", max: 50, limit: 100, limitLabel: "node CPU busy" },
    });
    out.push({
      metric: "util.osd-2.iops",
      value: iops[i],
      unit: "op/s",
      metadata: { tool: "pgbench", ...md, utilSource: "cloudwatch", resource: "osd-2", max: 3000, limit: 3000, limitLabel: "gp3 IOPS" },
    });
  });
  return out;
}

const dev = () => run("dev", "r1", "xen", "m4.xlarge", [374.9, 371.2, 380.0], [2980, 2950, 2990], manifestOf("dev", "m4.xlarge"));
const nitro = (m: Manifest = manifestOf("nitro", "m5.xlarge")) =>
  run("nitro", "r1", "nitro", "m5.xlarge", [537.2, 540.1, 530.4], [1500, 1450, 1600], m);
const inputs = (n = nitro()): InputFile[] => [
  { file: "results/dev/r1/samples.json", samples: dev() },
  { file: "results/nitro/r1/samples.json", samples: n },
];

describe("manifests: shown, compared, refused", () => {
  it("dev beside nitro from the same code, pins and network: side by side; each manifest shown once with its runs", () => {
    const model = buildModel(inputs(), { bootstrap: BOOT });
    expect(model.manifests?.mismatches).toEqual([]);
    expect(model.manifests?.forced).toBe(false);
    // The windows and the manifest do not split rows: one row per stack, three repetitions each, and the Nitro / Xen ratio.
    const tps = model.experiments[0].tables.find((t) => t.metric === "pgbench.tps")!;
    expect(tps.groups.map((g) => [g.label, g.values.length])).toEqual([
      ["dev · m4.xlarge · xen", 3],
      ["nitro · m5.xlarge · nitro", 3],
    ]);
    expect(model.experiments[0].ratios.map((r) => r.comparison.id)).toEqual(["hypervisor"]);
    // Utilization samples make no table of their own.
    expect(model.experiments[0].tables.map((t) => t.metric)).toEqual(["pgbench.tps"]);
    const lines = manifestReport(model.manifests)!;
    expect(lines[0]).toMatch(/^Manifest [0-9a-f]{12}: dev\/r1$/);
    expect(lines).toContain("  git 0123456789ab; region us-east-1");
    expect(lines).toContain(
      "  stack dev (ceph-k0s): config aaaaaaaaaaaa; instance types m4.xlarge; AMIs ami-0abc; zones us-east-1a (ids use1-az6); images docker.io/library/postgres:17.11-bookworm",
    );
    expect(lines).toContain("  pins: CEPH_IMAGE quay.io/ceph/ceph:v20.2.4, K0S_VERSION v1.36.3+k0s.2");
    expect(lines).toContain("  command: lab run ceph-nitro");
    expect(lines.filter((l) => l.startsWith("Manifest "))).toHaveLength(2);
  });

  it("refuses runs whose manifests differ, naming every difference, unless forced; then the report lists them", () => {
    const other = manifestOf("nitro", "m5.xlarge", {
      git: { commit: "fedcba9876543210fedcba9876543210fedcba98", dirty: true, diffHash: "d".repeat(64) },
      versions: { K0S_VERSION: "v1.36.4+k0s.0", CEPH_IMAGE: "quay.io/ceph/ceph:v20.2.4" },
      stacks: { network: { ...base.stacks.network, configHash: "e".repeat(64) }, nitro: stackFacts("m5.xlarge") },
    });
    const expected = [
      "refusing to put runs with different manifests side by side (lab report --force puts them together and lists the differences):",
      "  nitro/r1 differs from dev/r1 (experiment ceph-nitro): git.commit fedcba987654 vs 0123456789ab; git.dirty true vs false; git.diffHash dddddddddddd vs (none); versions.K0S_VERSION v1.36.4+k0s.0 vs v1.36.3+k0s.2; stacks.network.configHash eeeeeeeeeeee vs bbbbbbbbbbbb",
    ].join("\n");
    expect(() => buildModel(inputs(nitro(other)), { bootstrap: BOOT })).toThrow(ManifestMismatchError);
    expect(() => buildModel(inputs(nitro(other)), { bootstrap: BOOT })).toThrow(expected);
    const model = buildModel(inputs(nitro(other)), { bootstrap: BOOT, force: true });
    expect(model.manifests?.forced).toBe(true);
    expect(model.experiments[0].ratios).toHaveLength(1);
    const md = renderMarkdown(model, { charts: false });
    expect(md).toContain("## Manifests");
    expect(md).toContain("Different manifests side by side (lab report --force):");
    expect(md).toContain("  nitro/r1 vs dev/r1: git.commit fedcba987654 vs 0123456789ab; git.dirty true vs false;");
  });

  it("a stack's config that changed between two of its runs: the keys that differ, from manifest.json", () => {
    const r2 = manifestOf("dev", "m4.xlarge", {}, "f".repeat(64));
    const files: InputFile[] = [
      {
        file: "results/dev/r1/samples.json",
        samples: dev(),
        manifestFile: {
          schema: 1,
          manifest: manifestOf("dev", "m4.xlarge"),
          configs: { dev: { "lab:osdVolumeIops": "3000", "lab:reps": "3" } },
          resources: [],
        },
      },
      {
        file: "results/dev/r2/samples.json",
        samples: run("dev", "r2", "xen", "m4.xlarge", [400, 401, 402], [1, 2, 3], r2),
        manifestFile: { schema: 1, manifest: r2, configs: { dev: { "lab:osdVolumeIops": "6000", "lab:reps": "3" } }, resources: [] },
      },
    ];
    expect(() => buildModel(files, { bootstrap: BOOT })).toThrow(
      "  dev/r2 differs from dev/r1 (experiment ceph-nitro): stacks.dev.configHash ffffffffffff vs aaaaaaaaaaaa (lab:osdVolumeIops: 6000 vs 3000)",
    );
  });

  it("runs without a manifest are shown as such and not compared; no manifest at all: no section, as before", () => {
    const bare = run("nitro", "r1", "nitro", "m5.xlarge", [537.2, 540.1, 530.4], [1, 1, 1]);
    const model = buildModel(inputs(bare), { bootstrap: BOOT });
    expect(model.manifests?.mismatches).toEqual([]);
    expect(manifestReport(model.manifests)).toContain("No manifest recorded (saved without one, not compared): nitro/r1");
    const none = buildModel([{ file: "x/samples.json", samples: bare }], { bootstrap: BOOT });
    expect(manifestReport(none.manifests)).toBeUndefined();
    expect(renderMarkdown(none, { charts: false })).not.toContain("## Manifests");
  });
});

/** The mean over repetitions of each repetition's share of a 3000 IOPS limit, as the chart takes it. */
const meanShare = (iops: number[]) => iops.map((v) => (100 * v) / 3000).reduce((a, b) => a + b, 0) / iops.length;

describe("limit lines and utilization charts", () => {
  it("under each table, every row's repetitions with their limit lines", () => {
    const model = buildModel(inputs(), { bootstrap: BOOT });
    const md = renderMarkdown(model, { charts: false });
    expect(md).toContain(
      "- Limit, dev · m4.xlarge · xen: dev/r1 rep 1: gp3 IOPS 2980/3000 (99 %) on osd-2; dev/r1 rep 2: gp3 IOPS 2950/3000 (98 %) on osd-2; dev/r1 rep 3: gp3 IOPS 2990/3000 (100 %) on osd-2",
    );
    expect(md).toContain(
      "- Limit, nitro · m5.xlarge · nitro: nitro/r1 rep 1: no resource at ≥ 70 % of its limit (a heuristic threshold): likely client-bound (highest: gp3 IOPS 1500/3000 (50 %) on osd-2); nitro/r1 rep 2: no resource at ≥ 70 % of its limit (a heuristic threshold): likely client-bound (highest: gp3 IOPS 1450/3000 (48 %) on osd-2); nitro/r1 rep 3: no resource at ≥ 70 % of its limit (a heuristic threshold): likely client-bound (highest: gp3 IOPS 1600/3000 (53 %) on osd-2)",
    );
    expect(md).toContain(
      "- Limit line: the sampled resource closest to its configured limit; at ≥ 70 % it is named as the bound (a heuristic threshold, not a measured saturation point).",
    );
    const html = renderHtml(model, new Map());
    expect(html).toContain('<li class="limit">Limit, dev · m4.xlarge · xen: dev/r1 rep 1: gp3 IOPS 2980/3000 (99 %) on osd-2;');
  });

  it("a utilization chart per comparison: each side's share of each limit, rendered by vega without a warning", () => {
    const model = buildModel(inputs(), { bootstrap: BOOT });
    const e = model.experiments[0];
    expect(e.utilization).toEqual([
      {
        id: "hypervisor-1",
        title: "Nitro / Xen: utilization, nitro · m5.xlarge · nitro vs dev · m4.xlarge · xen",
        sides: ["nitro · m5.xlarge · nitro", "dev · m4.xlarge · xen"],
        bars: [
          { side: "dev · m4.xlarge · xen", item: "osd-2 · gp3 IOPS", meanPercent: meanShare([2980, 2950, 2990]), maxPercent: 100 },
          { side: "nitro · m5.xlarge · nitro", item: "osd-2 · gp3 IOPS", meanPercent: meanShare([1500, 1450, 1600]), maxPercent: 100 },
          { side: "dev · m4.xlarge · xen", item: "node · node CPU busy", meanPercent: 31, maxPercent: 50 },
          { side: "nitro · m5.xlarge · nitro", item: "node · node CPU busy", meanPercent: 31, maxPercent: 50 },
        ],
      },
    ]);
    const charts = chartsOf(e);
    const chart = charts.get(e.utilization![0])!;
    expect(chart.file).toBe("ceph-nitro--util-hypervisor-1.svg");
    expect(utilChart(e.id, e.utilization![0])).toEqual(chart);
    const [svg] = renderSvgs([chart.spec]);
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain("util_bars_marks");
    expect(svg).toContain("util_threshold_marks");
    expect(svg).toContain("osd-2 · gp3 IOPS");
    const md = renderMarkdown(model, { charts: true });
    expect(md).toContain(`![${e.utilization![0].title}](charts/ceph-nitro--util-hypervisor-1.svg)`);
    expect(renderHtml(model, new Map([[chart.file, svg]]))).toContain(
      '<figure class="chart util" data-chart="ceph-nitro--util-hypervisor-1.svg">',
    );
  });

  it("no utilization sampled: no limit notes, no utilization chart (reports of older runs are unchanged)", () => {
    const strip = (s: Sample[]) => s.filter((x) => !x.metric.startsWith("util."));
    const model = buildModel(
      [
        { file: "a/samples.json", samples: strip(dev()) },
        { file: "b/samples.json", samples: strip(nitro()) },
      ],
      { bootstrap: BOOT },
    );
    expect(model.experiments[0].utilization).toEqual([]);
    expect(renderMarkdown(model, { charts: true })).not.toContain("Limit, ");
  });
});

describe("loadInputs reads utilization.json and manifest.json beside samples.json", () => {
  it("with stack and run id from the directory, as for samples.json", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "report-util-"));
    try {
      const m = manifestOf("dev", "m4.xlarge");
      const file: ManifestFile = { schema: 1, manifest: m, configs: { dev: {} }, resources: [] };
      const samples = dev().filter((s) => !s.metric.startsWith("util."));
      const dir = writeRunResults(root, "dev", "r1", samples, [], file);
      const util = dev()
        .filter((s) => s.metric === "util.osd-2.iops")
        .map((s) => {
          const { stack: _stack, runId: _runId, ...md } = s.metadata;
          return { ...s, metadata: md as Sample["metadata"] };
        });
      fs.writeFileSync(
        path.join(dir, UTILIZATION_FILE),
        JSON.stringify({ schema: 1, createdAt: "2026-01-16T00:00:00.000Z", samples: util, notes: [], cloudwatch: null }),
      );
      const [input] = loadInputs([root]);
      expect(input.manifestFile).toEqual(JSON.parse(JSON.stringify(file)));
      expect(input.utilization?.map((s) => [s.metadata.stack, s.metadata.runId, s.value])).toEqual([
        ["dev", "r1", 2980],
        ["dev", "r1", 2950],
        ["dev", "r1", 2990],
      ]);
      const model = buildModel([input], { bootstrap: BOOT });
      expect(model.experiments[0].limits?.[0].rows[0].reps.map((r) => r.verdict?.line)).toEqual([
        "gp3 IOPS 2980/3000 (99 %) on osd-2",
        "gp3 IOPS 2950/3000 (98 %) on osd-2",
        "gp3 IOPS 2990/3000 (100 %) on osd-2",
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("lab report (lab/cli/report.ts runReport) on run directories", () => {
  it("refuses runs saved with different manifests, before writing anything", async () => {
    const { runReport } = await import("../../../lab/cli/report");
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "report-refuse-"));
    try {
      const file = (m: Manifest): ManifestFile => ({ schema: 1, manifest: m, configs: {}, resources: [] });
      const other = manifestOf("nitro", "m5.xlarge", { region: "eu-west-1" });
      const strip = (s: Sample[]) =>
        s.map((x) => ({
          ...x,
          metadata: Object.fromEntries(Object.entries(x.metadata).filter(([k]) => !k.startsWith("manifest."))) as Sample["metadata"],
        }));
      writeRunResults(path.join(root, "results"), "dev", "r1", strip(dev()), [], file(manifestOf("dev", "m4.xlarge")));
      writeRunResults(path.join(root, "results"), "nitro", "r1", strip(nitro()), [], file(other));
      await expect(runReport({ dirs: ["results"], cwd: root, out: "report", format: "md", bootstrap: BOOT })).rejects.toThrow(
        "  nitro/r1 differs from dev/r1 (experiment ceph-nitro): region eu-west-1 vs us-east-1",
      );
      expect(fs.existsSync(path.join(root, "report"))).toBe(false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
