/**
 * report.html: the same content as report.md on one self-contained page, with the charts inline
 * as SVG. No script, no external font, style sheet or image: a Content-Security-Policy of
 * `default-src 'none'` (inline styles only) makes the browser refuse any fetch the page might
 * attempt. Printable: tables and charts are kept whole across pages. Pure.
 */
import { displayUnit } from "./format";
import {
  chartsOf,
  incomparableLayout,
  methodText,
  setupDifferenceLines,
  SETUP_DIFFERENCES_LEAD,
  answerLines,
  metricTableLayout,
  ratioTableLayout,
  referenceNote,
  unmatchedNote,
  sharedSetup,
  spreadNotes,
  summaryLines,
  type Cell,
  type TableLayout,
} from "./layout";
import type { ReportModel } from "./model";
import { limitNotes, manifestReport } from "./utilization";

/** Text with `& < > " '` escaped, for element content and attribute values. */
export function escapeHtml(t: string): string {
  return t.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

function cellHtml(c: Cell, tag: "td" | "th", numeric: boolean): string {
  const inner = c.code
    ? `<code>${escapeHtml(c.text)}</code>`
    : c.strong
      ? `<strong>${escapeHtml(c.text)}</strong>`
      : c.href !== undefined
        ? `<a href="${escapeHtml(c.href)}">${escapeHtml(c.text)}</a>`
        : escapeHtml(c.text);
  return `<${tag}${numeric ? ' class="num"' : ""}>${inner}</${tag}>`;
}

/** An HTML table (in a horizontally scrolling box on screen); reference rows carry `class="reference"`. */
export function htmlTable(t: TableLayout, className: string): string {
  const head = `<thead><tr>${t.header.map((h, i) => `<th${t.numeric.includes(i) ? ' class="num"' : ""}>${escapeHtml(h)}</th>`).join("")}</tr></thead>`;
  const body = t.rows
    .map((r) => `<tr class="${r.kind}">${r.cells.map((c, i) => cellHtml(c, i === 0 ? "th" : "td", t.numeric.includes(i))).join("")}</tr>`)
    .join("\n");
  return `<div class="scroll"><table class="${className}">${head}<tbody>\n${body}\n</tbody></table></div>`;
}

const STYLE = `
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111827; margin: 0; background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 26px; margin: 0 0 12px; }
h2 { font-size: 21px; margin: 36px 0 12px; padding-bottom: 4px; border-bottom: 2px solid #d1d5db; }
h3 { font-size: 16px; margin: 24px 0 8px; }
p.method { color: #374151; line-height: 1.45; max-width: 80ch; }
div.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #d1d5db; padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { background: #f3f4f6; }
tbody th { font-weight: normal; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.reference { background: #fef2f2; font-style: italic; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
ul.notes { font-size: 13px; color: #374151; margin: 6px 0; padding-left: 20px; }
figure.chart { margin: 12px 0 20px; }
figure.chart svg { max-width: 100%; height: auto; display: block; }
pre.manifest { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; white-space: pre-wrap; background: #f9fafb; padding: 8px; }
@page { margin: 14mm; }
@media print {
  main { max-width: none; padding: 0; }
  div.scroll { overflow: visible; }
  h2, h3 { break-after: avoid; }
  table, figure, ul.notes { break-inside: avoid; }
  tr.reference { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

/** The whole report.html; `svgs` holds the SVG of each chart by its file name. */
export function renderHtml(model: ReportModel, svgs: ReadonlyMap<string, string>): string {
  const out: string[] = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>Benchmark report</title>",
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    "<main>",
    "<h1>Benchmark report</h1>",
    '<section class="answer"><h2>Answer</h2><ul>',
    ...answerLines(model).map((l) => `<li>${escapeHtml(l)}</li>`),
    "</ul></section>",
    '<section class="summary"><h2>Summary</h2><ul>',
    ...summaryLines(model).map((l) => `<li>${escapeHtml(l)}</li>`),
    "</ul></section>",
  ];
  const manifests = manifestReport(model.manifests);
  if (manifests !== undefined) {
    out.push(
      '<section class="manifests"><h2>Manifests</h2>',
      `<pre class="manifest">${escapeHtml(manifests.join("\n"))}</pre>`,
      "</section>",
    );
  }
  for (const e of model.experiments) {
    out.push(`<section class="experiment" data-experiment="${escapeHtml(e.id)}">`, `<h2>${escapeHtml(e.title)}</h2>`);
    const charts = chartsOf(e);
    if (e.ratios.length > 0) {
      out.push("<h3>Ratios</h3>", htmlTable(ratioTableLayout(e.ratios), "ratios"));
      const chart = charts.get(e);
      const svg = chart === undefined ? undefined : svgs.get(chart.file);
      if (chart !== undefined && svg !== undefined)
        out.push(`<figure class="chart ratios" data-chart="${escapeHtml(chart.file)}">`, svg, "</figure>");
    }
    for (const u of e.utilization ?? []) {
      const chart = charts.get(u);
      const svg = chart === undefined ? undefined : svgs.get(chart.file);
      if (chart !== undefined && svg !== undefined)
        out.push(`<figure class="chart util" data-chart="${escapeHtml(chart.file)}">`, svg, "</figure>");
    }
    for (const t of e.tables) {
      out.push(
        `<section class="metric" data-metric="${escapeHtml(t.metric)}">`,
        `<h3><code>${escapeHtml(t.metric)}</code> (${escapeHtml(displayUnit(t.unit))})</h3>`,
        htmlTable(metricTableLayout(t, e.ratios), "metric"),
      );
      const notes = [
        ...t.references.map((_, i) => referenceNote(t, i)),
        ...t.unmatched.map((_, i) => unmatchedNote(t, i)),
        ...spreadNotes(t, e.ratios),
      ];
      const shared = sharedSetup(t);
      const items = notes.map((n) => `<li>${escapeHtml(n)}</li>`);
      if (shared.length > 0) items.push(`<li>Setup of every row: ${shared.map((s) => `<code>${escapeHtml(s)}</code>`).join(", ")}.</li>`);
      const limits = e.limits?.find((l) => l.table === t);
      for (const l of limits === undefined ? [] : limitNotes(limits)) items.push(`<li class="limit">${escapeHtml(l)}</li>`);
      if (items.length > 0) out.push(`<ul class="notes">${items.join("")}</ul>`);
      const chart = charts.get(t);
      const svg = chart === undefined ? undefined : svgs.get(chart.file);
      if (chart !== undefined && svg !== undefined) {
        // The chart carries its own title and legend: no caption repeating them.
        out.push(`<figure class="chart" data-chart="${escapeHtml(chart.file)}">`, svg, "</figure>");
      }
      out.push("</section>");
    }
    const differences = setupDifferenceLines(e.id);
    if (differences.length > 0)
      out.push(
        `<details class="setup-differences"><summary>Setup differences from the publication</summary><p>${escapeHtml(SETUP_DIFFERENCES_LEAD)}</p><ul>${differences.map((d) => `<li>${escapeHtml(d)}</li>`).join("")}</ul></details>`,
      );
    out.push("</section>");
  }
  // the statistics explanation, folded after the tables: the answer and the numbers come first
  out.push(`<details class="method"><summary>How the numbers are computed</summary><p>${escapeHtml(methodText(model))}</p></details>`);
  out.push('<section class="incomparable"><h2>Samples that could not be compared</h2>');
  out.push(model.incomparable.length === 0 ? "<p>None.</p>" : htmlTable(incomparableLayout(model), "incomparable"));
  out.push("</section>", '<section class="inputs"><h2>Inputs</h2><ul>');
  for (const i of model.inputs) out.push(`<li><code>${escapeHtml(i.file)}</code>: ${i.samples} sample${i.samples === 1 ? "" : "s"}</li>`);
  out.push("</ul></section>", "</main>", "</body>", "</html>", "");
  return out.join("\n");
}
