/**
 * The generated parts of the docs pages and where they go: each between a pair of markers,
 *
 *   <!-- BEGIN GENERATED <id>: npm run docs -->
 *   …
 *   <!-- END GENERATED <id> -->
 *
 * `npm run docs` (./main.ts) rewrites them in place; test/lab/docs/pages.test.ts fails when a page
 * differs from what this module renders. Everything outside the markers is written by hand.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { renderCliReference } from "./cli";
import { CLEANUP_REQUESTS } from "../policy/cleanup-requests";
import { renderRequestTable } from "../policy/deploy-requests";
import { EBS_CSI_REQUESTS } from "../policy/ebs-csi-requests";
import { commonRows, configProgram, KIND_DOCS, keyRows, renderKeyTable } from "./keys";
import { METHOD_TABLES, renderMethodTable } from "../report/methods";

/** One generated part: the page it lives in, its marker id, its text. */
export interface GeneratedPart {
  readonly page: string;
  readonly id: string;
  readonly text: string;
}

/** The page of a stack kind, relative to the project root. */
export function kindPage(kind: string): string {
  return `docs/kinds/${kind}.md`;
}

export const COMMON_KEYS_PAGE = "docs/kinds/README.md";
export const CLI_PAGE = "docs/cli.md";
export const SECURITY_PAGE = "docs/security.md";
export const EXPERIMENTS_PAGE = "docs/experiments.md";

/** Every generated part of the docs, rendered from the code. */
export function generatedParts(root: string): GeneratedPart[] {
  const program = configProgram(root);
  return [
    { page: COMMON_KEYS_PAGE, id: "keys common", text: renderKeyTable(commonRows(root, program)) },
    ...KIND_DOCS.map((k) => ({ page: kindPage(k.kind), id: `keys ${k.kind}`, text: renderKeyTable(keyRows(root, k, program)) })),
    { page: CLI_PAGE, id: "cli", text: renderCliReference() },
    { page: SECURITY_PAGE, id: "deploy requests", text: renderRequestTable() },
    { page: SECURITY_PAGE, id: "cleanup requests", text: renderRequestTable(CLEANUP_REQUESTS) },
    { page: SECURITY_PAGE, id: "ebs csi requests", text: renderRequestTable(EBS_CSI_REQUESTS) },
    ...METHOD_TABLES.map((t) => ({ page: EXPERIMENTS_PAGE, id: `method ${t.experiment}`, text: renderMethodTable(t) })),
  ];
}

export function beginMarker(id: string): string {
  return `<!-- BEGIN GENERATED ${id}: npm run docs -->`;
}
export function endMarker(id: string): string {
  return `<!-- END GENERATED ${id} -->`;
}

/** `page` with the part between its markers replaced by `text`; throws when the markers are missing. */
export function withPart(page: string, file: string, id: string, text: string): string {
  const begin = page.indexOf(beginMarker(id));
  const end = page.indexOf(endMarker(id));
  if (begin < 0 || end < begin) throw new Error(`${file} has no '${beginMarker(id)}' … '${endMarker(id)}' markers`);
  return `${page.slice(0, begin)}${beginMarker(id)}\n${text}\n${page.slice(end)}`;
}

/** Every page that has a generated part, as the generator would write it: file → text. */
export function renderedPages(root: string, parts: readonly GeneratedPart[] = generatedParts(root)): Map<string, string> {
  const pages = new Map<string, string>();
  for (const p of parts) {
    const current = pages.get(p.page) ?? fs.readFileSync(path.join(root, p.page), "utf8");
    pages.set(p.page, withPart(current, p.page, p.id, p.text));
  }
  return pages;
}
