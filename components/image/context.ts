/**
 * Reads a local build context for components/image/rules.ts `contextDigest`: every regular file
 * under the directory (symlinks followed, as @pulumi/docker-build's `hashBuildContext` hashes what a
 * link points to), with its path relative to the directory and its permission bits. No
 * `.dockerignore` is applied: the files read are a superset of those the provider hashes, so the
 * tag changes whenever the provider's `contextHash` does (and maybe more often, which only costs a
 * build).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ContextFile } from "./rules";

export function readContextFiles(dir: string): ContextFile[] {
  const out: ContextFile[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const relPath = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const full = path.join(dir, relPath);
      const st = fs.statSync(full);
      // The provider hashes the walk's Lstat mode, the file type included (docker-build context.go
      // hashPath): a link and a regular file of the same content must not share a tag.
      const type = fs.lstatSync(full).isSymbolicLink() ? 0o120000 : 0;
      if (st.isDirectory()) walk(relPath);
      else if (st.isFile()) out.push({ path: relPath, mode: type | (st.mode & 0o7777), content: fs.readFileSync(full) });
    }
  };
  walk("");
  return out;
}
