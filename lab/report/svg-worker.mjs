// Renders vega-lite specs to SVG in Node, no browser: compiled by vega-lite, rendered headless by
// vega (`new View(parse(spec), { renderer: "none" })`, then `view.toSVG()`).
//
// Why a child process (run by lab/report/svg.ts): vega 6 is published as ES modules only and its
// module graph has a top-level await (vega-canvas probes for the optional `canvas` package), so
// it cannot be require()d; the lab's CommonJS code and Jest (no --experimental-vm-modules) cannot
// import() it in process either. Plain Node imports it natively here.
//
// Input on stdin: a JSON array of vega-lite specs. Output on stdout: a JSON array of SVG strings,
// in the same order. A spec vega-lite or vega rejects, or warns about, ends the process with
// status 1 and `spec <index>: <messages>` on stderr.
import { Buffer } from "node:buffer";
import process from "node:process";
import { compile } from "vega-lite";
import { parse, View } from "vega";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** A vega / vega-lite logger that keeps warnings and errors: a chart that renders with one is a bug, not a chart. */
function strictLogger(problems) {
  const keep = (...args) => {
    problems.push(args.map(String).join(" "));
    return logger;
  };
  const logger = {
    level: (l) => (l === undefined ? 2 : logger),
    error: keep,
    warn: keep,
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

const specs = JSON.parse(await readStdin());
const svgs = [];
for (let i = 0; i < specs.length; i++) {
  const problems = [];
  try {
    const logger = strictLogger(problems);
    const view = new View(parse(compile(specs[i], { logger }).spec), { renderer: "none", logger });
    svgs.push(await view.toSVG());
    view.finalize();
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
  }
  if (problems.length > 0) {
    process.stderr.write(`spec ${i}: ${problems.join("; ")}\n`);
    process.exit(1);
  }
}
process.stdout.write(JSON.stringify(svgs));
