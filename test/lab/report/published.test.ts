/** docs/report.md's table of published figures against lab/report/published.ts: no drift. */
import * as fs from "node:fs";
import * as path from "node:path";
import { PUBLISHED_FIGURES, UNSOURCED_FIGURES } from "../../../lab/report/published";
import { ROOT } from "../../helpers/root";

const doc = fs.readFileSync(path.join(ROOT, "docs", "report.md"), "utf8");

it("docs/report.md links every publication cited, with the date read, and names the figures kept aside", () => {
  for (const url of new Set(PUBLISHED_FIGURES.map((f) => f.source.url))) expect([url, doc.includes(`](${url})`)]).toEqual([url, true]);
  for (const read of new Set(PUBLISHED_FIGURES.map((f) => f.source.read))) expect(doc).toContain(`read ${read}`);
  for (const f of UNSOURCED_FIGURES) expect(doc).toContain(String(f.value));
  expect(doc).toContain("UNSOURCED_FIGURES");
  // Every figure's value as the table writes it (thousands as K, bandwidth in MB/s, ioping in µs or ms).
  for (const s of ["37.5K", "12.5K", "33.4K", "11.1K", "154 / 51.3 MB/s", "483.8 µs", "1.03 ms", "~3218", "~3679", "~1252", "~1218"])
    expect(doc).toContain(s);
});
