/**
 * Runs a line of JavaScript as uid/gid 65534 (nobody) in a child process, with the project's tsx to
 * load TypeScript: the kernel, not a fake, answers what that user may read and write. Root only
 * (setpriv needs it); HOME and TMPDIR are a fresh directory nobody owns, removed afterwards.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "./root";

export const runsAsRoot = process.getuid?.() === 0;

export function asNobody(script: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "lab-nobody-home-"));
  fs.chownSync(home, 65534, 65534);
  try {
    return execFileSync(
      "setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", path.join(ROOT, "node_modules/.bin/tsx"), "-e", script],
      { encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: home } },
    );
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
