/** The project root and the steering repo's shared/ folder beside it, for tests that read files. */
import * as fs from "node:fs";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
export const SHARED = path.resolve(ROOT, "..", "shared");

/** README.md, CONTRIBUTING.md and every page under docs/ (Markdown), as paths from the root. */
export function markdownPages(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const p = `${dir}/${e.name}`;
      return e.isDirectory() ? walk(p) : e.name.endsWith(".md") ? [p] : [];
    });
  return ["README.md", "CONTRIBUTING.md", ...walk("docs")];
}
