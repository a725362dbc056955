/**
 * Every internal link of README.md, CONTRIBUTING.md and docs/**\/*.md resolves: the file exists
 * and a `#anchor` is a heading of the target, slugged as GitHub does (github-slugger, the slugger
 * GitHub's own renderer is mirrored by: duplicates get -1, -2…). Every repository path written in
 * backticks (`lab/run/durations.ts`, `components/bench/`) exists.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import GithubSlugger from "github-slugger";
import { markdownPages, ROOT } from "../helpers/root";

/** The page without fenced code blocks (links and headings there are not Markdown). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The anchors of a page's headings, in order, as GitHub makes them. */
export function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    // GitHub slugs the heading's text: inline code keeps its content, links their text
    const textOnly = m[1].replace(/`([^`]*)`/g, "$1").replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
    anchors.add(slugger.slug(textOnly));
  }
  return anchors;
}

/** Links to files of this repository: `[text](target)` and `![alt](target)` outside code. */
function internalLinks(text: string): string[] {
  const noCode = prose(text).replace(/`[^`\n]*`/g, "");
  return [...noCode.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** The top-level folders of the repository: a backticked path starting with one is a repository path. */
const TOP_DIRS = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !["node_modules", "results", "report", ".git"].includes(e.name))
  .map((e) => e.name);

/** Backticked repository paths: a top-level folder, then path segments, no placeholder or glob. */
function repoPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1].replace(/:\d+(-\d+)?$/, ""))
    .filter((p) => /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_./-]*$/.test(p) && TOP_DIRS.includes(p.split("/")[0]));
}

describe("links and paths in the docs", () => {
  const pages = markdownPages();

  test("the slugger is GitHub's: code, punctuation and duplicates", () => {
    expect([
      ...anchorsOf("# `lab run`: one command\n## Keys every kind has\n## Keys every kind has\n## `lab:retainOnDelete` (fsx-ontap)"),
    ]).toEqual(["lab-run-one-command", "keys-every-kind-has", "keys-every-kind-has-1", "labretainondelete-fsx-ontap"]);
  });

  test("the checks see the links and paths (README links into docs/, CONTRIBUTING names source files)", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(internalLinks(readme).filter((l) => l.startsWith("docs/")).length).toBeGreaterThan(10);
    expect(internalLinks(readme)).toContain("docs/cli.md#lab-run");
    expect(repoPaths(fs.readFileSync(path.join(ROOT, "CONTRIBUTING.md"), "utf8"))).toContain("stacks/lib/config/load.ts");
  });

  test.each(pages)("%s: every internal link resolves, anchors included", (page) => {
    const text = fs.readFileSync(path.join(ROOT, page), "utf8");
    const broken: string[] = [];
    for (const link of internalLinks(text)) {
      const [file, anchor] = link.split("#", 2);
      const target = file === "" ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURI(file));
      if (!fs.existsSync(target)) {
        broken.push(`${link}: no file ${path.relative(ROOT, target)}`);
        continue;
      }
      if (anchor === undefined) continue;
      const targetText = fs.statSync(target).isDirectory() ? "" : fs.readFileSync(target, "utf8");
      if (!anchorsOf(targetText).has(anchor)) broken.push(`${link}: no heading #${anchor} in ${path.relative(ROOT, target)}`);
    }
    expect(broken).toEqual([]);
  });

  test.each(pages)("%s: every backticked repository path exists", (page) => {
    const text = fs.readFileSync(path.join(ROOT, page), "utf8");
    expect(repoPaths(text).filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });
});
