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
import { chartsOf } from "../../../lab/report/layout";
import { escapeHtml } from "../../../lab/report/html";
import { formatRange, formatSampleValue } from "../../../lab/report/format";
import { cephSet, fsxSet, repetitions, writeInputs } from "./samples";

const CHROMIUM = "/usr/bin/chromium";

/**
 * The browser globals the page.evaluate callbacks use, declared here because the project compiles
 * without the DOM library (those callbacks run in Chromium, where these are the real ones).
 */
interface BrowserElement {
  readonly textContent: string | null;
  readonly nodeName: string;
  readonly children: Iterable<BrowserElement>;
  readonly documentElement: BrowserElement;
  getAttribute(name: string): string | null;
  querySelector(selector: string): BrowserElement | null;
  querySelectorAll(selector: string): Iterable<BrowserElement> & { readonly length: number };
  getElementsByTagName(name: string): { readonly length: number };
  getBoundingClientRect(): { readonly width: number; readonly height: number };
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
    // The Ceph and FSx sets, plus a run without hypervisor: an incomparable row on the page.
    const old = repetitions("pgbench", "pgbench/tpcb-15.txt", ["pgbench/tpcb-15.txt"], {
      scenario: "ceph-nitro",
      stack: "old",
      runId: "r0",
    });
    writeInputs(work, [...cephSet(), ...fsxSet(), { file: "results/old/r0/samples.json", samples: old }]);
    report = await runReport({ dirs: ["results"], out: "report", cwd: work });
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

  it("refers to nothing outside itself: no src or href, no script, a CSP that forbids fetches", async () => {
    const found = await page.evaluate(() => ({
      refs: document.querySelectorAll("[src], [href], [*|href]").length,
      scripts: document.querySelectorAll("script").length,
      csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content"),
    }));
    expect(found).toEqual({ refs: 0, scripts: 0, csp: "default-src 'none'; style-src 'unsafe-inline'" });
  });

  it("every chart is on the page with its bars, published rules and axis titles, and the bars are drawn", async () => {
    const charts = report.model.experiments.flatMap((e) => [...chartsOf(e).values()]);
    expect(charts).toHaveLength(6);
    for (const c of charts) {
      const seen = await page.evaluate((file: string) => {
        const svg = document.querySelector(`figure[data-chart="${file}"] svg`);
        if (svg === null) return undefined;
        const bars = [...svg.querySelectorAll("g.bars_marks path")];
        return {
          bars: bars.length,
          drawn: bars.filter((b) => b.getBoundingClientRect().width > 0 && b.getBoundingClientRect().height > 0).length,
          rules: svg.querySelectorAll("g.published_marks line").length,
          axisTitles: [...svg.querySelectorAll("g.role-axis-title text")].map((t) => t.textContent),
          width: svg.getBoundingClientRect().width,
        };
      }, c.file);
      expect(seen).toEqual({ bars: c.bars, drawn: c.bars, rules: c.rules, axisTitles: [c.xTitle, c.yTitle], width: expect.any(Number) });
      expect(seen?.width).toBeGreaterThan(300);
    }
  });

  it("the tables show the numbers as computed", async () => {
    const cells = (experiment: string, metric: string) =>
      page.evaluate(
        (e: string, m: string) =>
          [...document.querySelectorAll(`section[data-experiment="${e}"] section[data-metric="${m}"] table.metric tbody tr`)].map((tr) =>
            [...tr.children].map((td) => td.textContent),
          ),
        experiment,
        metric,
      );
    expect(await cells("ceph-nitro", "pgbench.tps")).toEqual([
      ["dev", "m4.xlarge", "xen", "666.45", "479.44–1,644.8", "3", "txn/s", "r1"],
      ["nitro", "m5.xlarge", "nitro", "1,155.6", "666.45–1,644.8", "2", "txn/s", "r1"],
      ["old", "—", "—", "1,644.8", "1,644.8–1,644.8", "1", "txn/s", "r0"],
      ["published: m4.xlarge (Xen)", "", "", "374.95", "—", "—", "txn/s", "README.md"],
      ["published: m5.xlarge (Nitro)", "", "", "537.24", "—", "—", "txn/s", "README.md"],
    ]);
    // Every table, against the model's numbers.
    for (const e of report.model.experiments) {
      for (const t of e.tables) {
        const got = await cells(e.id, t.metric);
        const n = t.columns.length;
        expect(got.slice(0, t.groups.length).map((r) => r.slice(n, n + 3))).toEqual(
          t.groups.map((g) => [
            formatSampleValue(g.summary.median, t.unit),
            formatRange(formatSampleValue(g.summary.min, t.unit), formatSampleValue(g.summary.max, t.unit)),
            String(g.summary.n),
          ]),
        );
      }
    }
    const ratios = await page.evaluate(() =>
      [...document.querySelectorAll('section[data-experiment="ceph-nitro"] table.ratios tbody tr')].map((tr) =>
        [...tr.children].map((td) => td.textContent),
      ),
    );
    expect(ratios[0]).toEqual([
      "Nitro / Xen",
      "pgbench.tps",
      "1.734",
      "0.4052–3.431 (min–max only: n < 3)",
      "2 / 3",
      "1.433",
      "nitro · m5.xlarge · nitro / dev · m4.xlarge · xen",
    ]);
    const incomparable = await page.evaluate(() =>
      [...document.querySelectorAll("table.incomparable tbody tr")].map((tr) => [...tr.children].map((td) => td.textContent)),
    );
    expect(incomparable[0]).toEqual([
      "ceph-nitro",
      "pgbench.tps",
      "old · — · —",
      "1",
      "results/old/r0/samples.json",
      "Nitro / Xen: no 'hypervisor' in its metadata, so it cannot take a side",
    ]);
  });

  it("every SVG file parses as XML in Chromium and renders as an image", async () => {
    const other = await browser.newPage();
    const files = fs.readdirSync(path.join(report.outDir, "charts")).sort();
    expect(files).toHaveLength(6);
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
