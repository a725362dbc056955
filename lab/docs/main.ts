/**
 * `npm run docs`: writes the generated parts of the docs pages (./pages.ts) from the code: the
 * config-key tables of docs/kinds/ and the CLI reference docs/cli.md. Prints the pages it changed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { renderedPages } from "./pages";

const ROOT = path.resolve(__dirname, "..", "..");

function main(): void {
  for (const [page, text] of renderedPages(ROOT)) {
    const file = path.join(ROOT, page);
    if (fs.readFileSync(file, "utf8") === text) continue;
    fs.writeFileSync(file, text);
    process.stdout.write(`wrote ${page}\n`);
  }
}

main();
