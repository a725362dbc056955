/**
 * report.md: per experiment its ratios, then a table per metric (our rows, then the published
 * reference rows) with the notes and settings that shaped the numbers and the chart, then the
 * samples that could not be compared and the files read. GitHub-flavoured Markdown. Pure.
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

/** Inline code that survives any backticks in the text, with `|` escaped for table cells. */
function codeSpan(t: string): string {
  const fence = t.includes("`") ? "``" : "`";
  const pad = t.startsWith("`") || t.endsWith("`") ? " " : "";
  return `${fence}${pad}${t}${pad}${fence}`;
}

function cellText(c: Cell): string {
  if (c.text === "") return "";
  const t = c.code ? codeSpan(c.text) : c.strong ? `**${c.text}**` : c.href !== undefined ? `[${c.text}](${c.href})` : c.text;
  return t.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** A GitHub-flavoured Markdown table; numeric columns right-aligned. */
export function markdownTable(t: TableLayout): string {
  const align = t.header.map((_, i) => (t.numeric.includes(i) ? "---:" : "---"));
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(t.header), line(align), ...t.rows.map((r) => line(r.cells.map(cellText)))].join("\n");
}

export interface MarkdownOptions {
  /** Link the charts (`charts/<file>.svg`); false when SVG files are not written. */
  readonly charts: boolean;
}

/** The whole report.md. */
export function renderMarkdown(model: ReportModel, options: MarkdownOptions): string {
  const out: string[] = [
    "# Benchmark report",
    "",
    "## Answer",
    "",
    ...answerLines(model).map((l) => `- ${l}`),
    "",
    "## Summary",
    "",
    ...summaryLines(model).map((l) => `- ${l}`),
    "",
  ];
  const manifests = manifestReport(model.manifests);
  if (manifests !== undefined) out.push("## Manifests", "", "```text", ...manifests, "```", "");
  for (const e of model.experiments) {
    out.push(`## ${e.title}`, "");
    const charts = chartsOf(e);
    if (e.ratios.length > 0) {
      out.push("### Ratios", "", markdownTable(ratioTableLayout(e.ratios)), "");
      const chart = charts.get(e);
      if (chart !== undefined && options.charts)
        out.push(`![${e.title}: each ratio with its interval and the published ratio](charts/${chart.file})`, "");
    }
    for (const u of e.utilization ?? []) {
      const chart = charts.get(u);
      if (chart !== undefined && options.charts) out.push(`![${u.title}](charts/${chart.file})`, "");
    }
    for (const t of e.tables) {
      out.push(`### ${codeSpan(t.metric)} (${displayUnit(t.unit)})`, "", markdownTable(metricTableLayout(t, e.ratios)), "");
      const notes = [
        ...t.references.map((_, i) => referenceNote(t, i)),
        ...t.unmatched.map((_, i) => unmatchedNote(t, i)),
        ...spreadNotes(t, e.ratios),
      ];
      notes.forEach((n) => out.push(`- ${n}`));
      const shared = sharedSetup(t);
      if (shared.length > 0) out.push(`- Setup of every row: ${shared.map(codeSpan).join(", ")}.`);
      if (notes.length > 0 || shared.length > 0) out.push("");
      const limits = e.limits?.find((l) => l.table === t);
      const lines = limits === undefined ? [] : limitNotes(limits);
      if (lines.length > 0) out.push(...lines.map((l) => `- ${l}`), "");
      const chart = charts.get(t);
      if (chart !== undefined && options.charts)
        out.push(`![${t.metric}: median per row, min–max whiskers and every repetition](charts/${chart.file})`, "");
    }
    const differences = setupDifferenceLines(e.id);
    if (differences.length > 0)
      out.push("### Setup differences from the publication", "", SETUP_DIFFERENCES_LEAD, "", ...differences.map((d) => `- ${d}`), "");
  }
  out.push("## How the numbers are computed", "", methodText(model), "");
  out.push("## Samples that could not be compared", "");
  if (model.incomparable.length === 0) out.push("None.", "");
  else out.push(markdownTable(incomparableLayout(model)), "");
  out.push("## Inputs", "", ...model.inputs.map((i) => `- ${codeSpan(i.file)}: ${i.samples} sample${i.samples === 1 ? "" : "s"}`), "");
  return out.join("\n");
}
