/**
 * report.html in a real browser: Debian's headless Chromium (`apt-get install chromium`,
 * /usr/bin/chromium) driven by puppeteer-core, which downloads no browser. The page is the one
 * `lab report` writes from the fixture-built sample sets.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { runReport, type ReportCliResult } from "../../../lab/cli/report";
import { chartsOf, metricTableLayout } from "../../../lab/report/layout";
import { escapeHtml } from "../../../lab/report/html";
import { PAGE_WIDTH } from "../../../lab/report/chart";
import { formatRange, formatSampleValue } from "../../../lab/report/format";
import { PUBLISHED_FIGURES } from "../../../lab/report/published";
import { cephSet, fsxSet, gp3Set, kafkaSet, localSet, repetitions, writeInputs } from "./samples";

const CHROMIUM = "/usr/bin/chromium";

/**
 * The browser globals the page.evaluate callbacks use, declared here because the project compiles
 * without the DOM library (those callbacks run in Chromium, where these are the real ones).
 */
interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}
interface BrowserElement {
  readonly textContent: string | null;
  readonly className: string | { baseVal: string };
  readonly parentElement: BrowserElement | null;
  readonly previousElementSibling: BrowserElement | null;
  closest(selector: string): BrowserElement | null;
  readonly nodeName: string;
  readonly children: Iterable<BrowserElement>;
  readonly documentElement: BrowserElement;
  getAttribute(name: string): string | null;
  querySelector(selector: string): BrowserElement | null;
  querySelectorAll(selector: string): Iterable<BrowserElement> & { readonly length: number };
  getElementsByTagName(name: string): { readonly length: number };
  getBoundingClientRect(): Rect;
}
declare const document: BrowserElement;
declare const DOMParser: new () => { parseFromString(text: string, type: string): BrowserElement };
declare const Image: new () => { src: string; decode(): Promise<void>; readonly naturalWidth: number; readonly naturalHeight: number };
declare function getComputedStyle(e: BrowserElement | null): { readonly breakInside: string };

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<builtin: TPC-B (sort of)> & "q" 'a'`)).toBe("&lt;builtin: TPC-B (sort of)&gt; &amp; &quot;q&quot; &#39;a&#39;");
  });
});

describe("report.html in headless Chromium", () => {
  let work: string;
  let report: ReportCliResult;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const failed: string[] = [];
  const requested: string[] = [];
  let htmlUrl: string;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: apt-get install chromium (Debian's package; puppeteer-core downloads no browser)`);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "lab-report-html-"));
    // Every experiment's fixtures (Ceph, FSx with its gp3 baseline row, Kafka, two named local runs), plus a run
    // without hypervisor: an incomparable row on the page.
    const old = repetitions("pgbench", "pgbench/tpcb-15.txt", ["pgbench/tpcb-15.txt"], {
      scenario: "ceph-nitro",
      stack: "old",
      runId: "r0",
    });
    writeInputs(work, [
      ...cephSet(),
      ...fsxSet(),
      ...gp3Set(),
      ...kafkaSet(),
      ...localSet(),
      { file: "results/old/r0/samples.json", samples: old },
    ]);
    report = await runReport({ dirs: ["results"], out: "report", cwd: work, baseline: "ext4" });
    htmlUrl = `file://${path.join(report.outDir, "report.html")}`;
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      userDataDir: fs.mkdtempSync(path.join(os.tmpdir(), "lab-report-chromium-")),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    page = await browser.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    page.on("requestfailed", (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on("request", (r) => requested.push(r.url()));
    await page.setViewport({ width: 1100, height: 900 });
    await page.goto(htmlUrl, { waitUntil: "load" });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("loads with no console error, no failed request and no request but the page itself", () => {
    expect(consoleErrors).toEqual([]);
    expect(failed).toEqual([]);
    expect(requested).toEqual([htmlUrl]);
  });

  it("fetches nothing: no src, no script, a CSP that forbids fetches; the only links are the publications cited", async () => {
    const found = await page.evaluate(() => ({
      src: document.querySelectorAll("[src]").length,
      scripts: document.querySelectorAll("script").length,
      csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content"),
      hrefs: [...document.querySelectorAll("[href], [*|href]")].map((a) => a.getAttribute("href")),
    }));
    expect({ ...found, hrefs: [...new Set(found.hrefs)].sort() }).toEqual({
      src: 0,
      scripts: 0,
      csp: "default-src 'none'; style-src 'unsafe-inline'",
      // Every publication a shown figure cites: the Kafka fixtures are 1 KiB, 1-topic runs, so NetApp's figures are only named.
      hrefs: [...new Set(PUBLISHED_FIGURES.filter((f) => f.scenario !== "kafka-fsx").map((f) => f.source.url))].sort(),
    });
    const body = await page.evaluate(() => document.querySelector("body")?.textContent ?? "");
    expect(body).toContain("is not shown: our setup differs: messageSize (ours 1024; published 32768)");
  });

  /** Every metric table on the page: its experiment, metric, and rows as [kind, cells]. */
  const pageTables = () =>
    page.evaluate(() =>
      [...document.querySelectorAll("section.metric")].map((sec) => ({
        experiment: sec.closest("section.experiment")?.getAttribute("data-experiment"),
        metric: sec.getAttribute("data-metric"),
        rows: [...sec.querySelectorAll("table.metric tbody tr")].map((tr) => ({
          kind: tr.getAttribute("class"),
          cells: [...tr.children].map((td) => td.textContent),
          links: [...tr.querySelectorAll("a")].map((a) => a.getAttribute("href")),
        })),
      })),
    );

  it("a published row only right under a row of its own experiment, storage and side, citing its publication by URL", async () => {
    const tables = await pageTables();
    const byScenario = new Map(PUBLISHED_FIGURES.map((f) => [f.label, f]));
    let references = 0;
    for (const t of tables) {
      t.rows.forEach((r, i) => {
        if (r.kind !== "reference") return;
        references++;
        const f = byScenario.get((r.cells[0] ?? "").replace(/^published: /, ""));
        expect([t.experiment, f?.scenario]).toEqual([f?.scenario, t.experiment]);
        expect(r.links).toEqual([f?.source.url]);
        // The row above is ours (or another figure of the same row): the model's group there has the figure's storage and side.
        let k = i - 1;
        while (t.rows[k].kind === "reference") k--;
        const group = t.rows.slice(0, k + 1).filter((x) => x.kind === "ours").length - 1;
        const table = report.model.experiments.find((e) => e.id === t.experiment)?.tables.find((x) => x.metric === t.metric);
        const metadata = table?.groups[group].metadata ?? {};
        for (const [key, v] of Object.entries({ ...f?.storage, ...f?.side }))
          expect([key, String(metadata[key])]).toEqual([key, String(v)]);
      });
    }
    // 8 FSx figures and the Ceph TPS and mean latency of each side (the fixtures' rows carry TPC-B and both sides);
    // no Kafka figure: the fixtures' workload is not NetApp's.
    expect(references).toBe(10);
    // None beside the local runs, the gp3 row, or the Ceph row of no published side (stack old).
    for (const t of tables.filter((x) => x.experiment === "local"))
      expect([t.metric, t.rows.filter((r) => r.kind === "reference")]).toEqual([t.metric, []]);
    const iops = tables.find((t) => t.experiment === "fsx-eks" && t.metric === "fio.read.iops");
    expect(iops?.rows.map((r) => [r.kind, r.cells[0], r.cells[1]])).toEqual([
      // Same zone first (gp3 read first: results/fsx-eks/gp3 sorts before .../same), each figure under its own NAS row.
      ["ours", "fsx-eks", "gp3"],
      ["ours", "fsx-eks", "fsx-ontap-nas"],
      ["reference", "published: same AZ", ""],
      ["ours", "fsx-eks", "fsx-ontap-nas"],
      ["reference", "published: other AZ", ""],
    ]);
  });

  it("the tables show the numbers as computed, with the CV and the spread flag", async () => {
    const tables = await pageTables();
    for (const e of report.model.experiments) {
      for (const t of e.tables) {
        const got = tables.find((x) => x.experiment === e.id && x.metric === t.metric);
        expect(got?.rows.map((r) => r.cells)).toEqual(metricTableLayout(t, e.ratios).rows.map((r) => r.cells.map((c) => c.text)));
        const n = Math.max(t.columns.length, 1);
        expect(got?.rows.filter((r) => r.kind === "ours").map((r) => r.cells.slice(n, n + 2))).toEqual(
          t.groups.map((g) => [
            formatSampleValue(g.summary.median, t.unit),
            formatRange(formatSampleValue(g.summary.min, t.unit), formatSampleValue(g.summary.max, t.unit)),
          ]),
        );
      }
    }
    const tps = tables.find((t) => t.experiment === "ceph-nitro" && t.metric === "pgbench.tps");
    expect(tps?.rows.map((r) => r.cells)).toEqual([
      // CVs: python3 statistics.stdev / mean = 0.6728 and 0.5986.
      ["dev", "m4.xlarge", "xen", "666.45", "479.44–1,644.8", "67 % ⚠", "3", "txn/s", "r1"],
      [
        "published: m4.xlarge (Xen)",
        "",
        "",
        "374.95",
        "—",
        "—",
        "—",
        "txn/s",
        'koor-tech/experiment-ceph-on-nitro, the six raw pgbench outputs behind "Faster Ceph on Nitro"',
      ],
      ["nitro", "m5.xlarge", "nitro", "1,155.6", "666.45–1,644.8", "60 % ⚠", "2", "txn/s", "r1"],
      [
        "published: m5.xlarge (Nitro)",
        "",
        "",
        "537.24",
        "—",
        "—",
        "—",
        "txn/s",
        'koor-tech/experiment-ceph-on-nitro, the six raw pgbench outputs behind "Faster Ceph on Nitro"',
      ],
      ["old", "—", "—", "1,644.8", "1,644.8–1,644.8", "—", "1", "txn/s", "r0"],
    ]);
  });

  it("an interval that includes 1 (or fewer than 3 repetitions a side) is labelled: no difference shown", async () => {
    const rows = await page.evaluate(() =>
      [...document.querySelectorAll("section.experiment")].flatMap((sec) =>
        [...sec.querySelectorAll("table.ratios tbody tr")].map((tr) => [
          sec.getAttribute("data-experiment"),
          ...[...tr.children].map((td) => td.textContent),
        ]),
      ),
    );
    const ratios = report.model.experiments.flatMap((e) => e.ratios.map((r) => [e.id, r] as const));
    expect(rows).toHaveLength(ratios.length);
    rows.forEach((row, i) => {
      const [, r] = ratios[i];
      const includes1 = r.estimate.low <= 1 && r.estimate.high >= 1;
      if (includes1) expect(r.noDifference).toBe(true);
      expect([row[2], (row[6] ?? "").startsWith("no difference shown")]).toEqual([r.metric, r.noDifference]);
    });
    expect(ratios.filter(([, r]) => r.estimate.low <= 1 && r.estimate.high >= 1).length).toBeGreaterThan(5);
    // The local runs: tmpfs / ext4 against the --baseline, with three repetitions a side.
    expect(rows.filter((r) => r[0] === "local").map((r) => [r[1], r[2], r[5]])).toEqual(
      ["ioping.iops", "ioping.latency.min", "ioping.latency.mean", "ioping.latency.max", "ioping.latency.mdev"].map((m) => [
        "tmpfs / ext4",
        m,
        "3 / 3",
      ]),
    );
    const summary = await page.evaluate(() => [...document.querySelectorAll("section.summary li")].map((li) => li.textContent));
    expect(summary[1]).toContain(
      "headline: Nitro / Xen pgbench.tps: no difference shown (1.734, 0.4052–3.431, min–max of the 2 × 3 repetition ratios",
    );
  });

  it("every chart: a dot per repetition, as wide as the page, and no text overlapping another mark or text (bounding boxes)", async () => {
    const charts = report.model.experiments.flatMap((e) => [...chartsOf(e).values()]);
    expect(charts.map((c) => c.file)).toEqual([
      "ceph-nitro--ratios.svg",
      "ceph-nitro--pgbench.tps.svg",
      "ceph-nitro--pgbench.latency.mean.svg",
      "fsx-eks--ratios.svg",
      "fsx-eks--fio.read.iops.svg",
      "fsx-eks--fio.read.bandwidth.svg",
      "fsx-eks--fio.write.iops.svg",
      "fsx-eks--fio.write.bandwidth.svg",
      "kafka-fsx--ratios.svg",
      "kafka-fsx--omb.publish.rate.svg",
      "kafka-fsx--omb.consume.rate.svg",
      "kafka-fsx--omb.throughput.svg",
      "kafka-fsx--omb.publish.latency.p99.svg",
      "kafka-fsx--omb.e2e.latency.p99.svg",
      "local--ratios.svg",
      "local--ioping.iops.svg",
      "local--ioping.latency.min.svg",
      "local--ioping.latency.mean.svg",
      "local--ioping.latency.max.svg",
      "local--ioping.latency.mdev.svg",
    ]);
    for (const c of charts) {
      const seen = await page.evaluate((file: string) => {
        const svg = document.querySelector(`figure[data-chart="${file}"] svg`);
        if (svg === null) return undefined;
        const box = (e: BrowserElement) => {
          const r = e.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        };
        const cls = (e: BrowserElement) => (typeof e.className === "string" ? e.className : e.className.baseVal);
        // Mark items: the paths, lines and rects inside the marks' groups (not the frame or the axes' own lines).
        const items = [...svg.querySelectorAll("g.role-mark > path, g.role-mark > line, g.role-mark > rect")].map((e) => ({
          mark: cls(e.parentElement as BrowserElement),
          ...box(e),
        }));
        const texts = [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent, ...box(t) }));
        return {
          width: box(svg).width,
          points: svg.querySelectorAll("g.points_marks path").length,
          ratios: svg.querySelectorAll("g.ratios_marks path").length,
          items,
          texts: texts.filter((t) => t.width > 0),
        };
      }, c.file);
      if (seen === undefined) throw new Error(`${c.file} is not on the page`);
      expect(seen.width).toBe(PAGE_WIDTH);
      if (c.file.endsWith("--ratios.svg")) expect(seen.ratios).toBe(c.bars);
      else expect(seen.points).toBe(c.points);
      const overlap = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      const clashes: string[] = [];
      for (const t of seen.texts) {
        for (const m of seen.items) if (overlap(t, m)) clashes.push(`${c.file}: "${t.text}" over ${m.mark}`);
        for (const u of seen.texts) if (u !== t && overlap(t, u)) clashes.push(`${c.file}: "${t.text}" over "${u.text}"`);
      }
      expect(clashes).toEqual([]);
    }
  });

  it("every SVG file parses as XML in Chromium and renders as an image", async () => {
    const other = await browser.newPage();
    const files = fs.readdirSync(path.join(report.outDir, "charts")).sort();
    expect(files).toHaveLength(20);
    for (const f of files) {
      const svg = fs.readFileSync(path.join(report.outDir, "charts", f), "utf8");
      const r = await other.evaluate(async (text: string) => {
        const doc = new DOMParser().parseFromString(text, "image/svg+xml");
        const img = new Image();
        img.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(text)))}`;
        await img.decode();
        return {
          errors: doc.getElementsByTagName("parsererror").length,
          root: doc.documentElement.nodeName,
          width: img.naturalWidth,
          height: img.naturalHeight,
        };
      }, svg);
      expect([f, r.errors, r.root]).toEqual([f, 0, "svg"]);
      expect(r.width).toBeGreaterThan(300);
      expect(r.height).toBeGreaterThan(100);
    }
    await other.close();
  });

  it("prints: tables and charts kept whole, a PDF comes out", async () => {
    await page.emulateMediaType("print");
    const style = await page.evaluate(() => ({
      figure: getComputedStyle(document.querySelector("figure.chart")).breakInside,
      table: getComputedStyle(document.querySelector("table.metric")).breakInside,
    }));
    expect(style).toEqual({ figure: "avoid", table: "avoid" });
    const pdf = await page.pdf({ format: "A4" });
    expect(Buffer.from(pdf).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await page.emulateMediaType("screen");
  });

  it("writes a screenshot for a person to look at", async () => {
    const file = process.env.LAB_REPORT_SCREENSHOT ?? path.join(report.outDir, "report.png");
    await page.screenshot({ path: file as `${string}.png`, fullPage: true });
    const png = fs.readFileSync(file);
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    // The page is as wide as the viewport: nothing overflows sideways.
    expect(png.readUInt32BE(16)).toBe(1100);
  });
});
