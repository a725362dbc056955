/**
 * Renders vega-lite specs to SVG text in Node, no browser: vega-lite compiles each spec and vega
 * renders it headless (`renderer: "none"`, `view.toSVG()`), in one child Node process running
 * svg-worker.mjs (that file says why vega cannot be loaded in this process).
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import type { TopLevelSpec } from "vega-lite/build/index";

/** The script that imports vega and vega-lite natively. */
export const SVG_WORKER = path.join(__dirname, "svg-worker.mjs");

/** Charts that vega-lite or vega could not render. */
export class ChartRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChartRenderError";
  }
}

/**
 * The SVG of each spec, in order (no process is started for none).
 *
 * @throws ChartRenderError with vega's message when a spec does not render.
 */
export function renderSvgs(specs: readonly TopLevelSpec[]): string[] {
  if (specs.length === 0) return [];
  const r = spawnSync(process.execPath, [SVG_WORKER], {
    input: JSON.stringify(specs),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error !== undefined) throw new ChartRenderError(`rendering charts: ${r.error.message}`);
  if (r.status !== 0) throw new ChartRenderError(`rendering charts failed: ${r.stderr.trim() || `exit status ${r.status}`}`);
  const svgs = JSON.parse(r.stdout) as unknown;
  if (!Array.isArray(svgs) || svgs.length !== specs.length || svgs.some((s) => typeof s !== "string")) {
    throw new ChartRenderError(`rendering charts: expected ${specs.length} SVG documents from ${SVG_WORKER}`);
  }
  return svgs as string[];
}
