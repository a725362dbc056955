/**
 * `lab --version`, `lab -V`, `lab version`: what a bug report needs (as `kubectl version` and
 * `gh --version` print): the lab's version and commit, the Node it runs on, the Pulumi SDK.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The checkout's commit (12 hex digits, `(modified)` when tracked files differ), or why there is none. */
export function commitOf(root: string, git = "git"): string {
  try {
    const run = (args: string[]) =>
      execFileSync(git, ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const sha = run(["rev-parse", "--short=12", "HEAD"]);
    return run(["status", "--porcelain", "--untracked-files=no"]) ? `${sha} (modified)` : sha;
  } catch {
    return "unknown (not a git checkout, or no git)";
  }
}

/** The lines `lab --version` prints. */
export function versionText(root: string, node = process.version): string {
  const version = (file: string) => (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
  return [
    `lab ${version(path.join(root, "package.json"))}`,
    `commit ${commitOf(root)}`,
    `node ${node}`,
    `@pulumi/pulumi ${version(require.resolve("@pulumi/pulumi/package.json", { paths: [root] }))}`,
    "",
  ].join("\n");
}
