/**
 * The layers, top to bottom: the `lab` tool → scenarios → stacks → components → core (engine-free
 * library). A module may import its own layer and the layers below it, never one above: this test
 * reads every relative import of every source file and fails on an upward one, naming both files.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "../helpers/root";

/** Top-level folders (and the Pulumi entry point) by rank: higher may import lower. */
export const LAYERS: Readonly<Record<string, number>> = { core: 0, components: 1, stacks: 2, scenarios: 3, lab: 4, "index.ts": 5 };

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sourceFiles(p);
    return e.name.endsWith(".ts") ? [p] : [];
  });
}

/** Relative import specifiers of a TypeScript source (static imports, re-exports, import() and require()). */
export function relativeImports(source: string): string[] {
  const re = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']*)["']/gm;
  return [...source.matchAll(re)].map((m) => m[1]);
}

function layerOf(root: string, file: string): string | undefined {
  const top = path.relative(root, file).split(path.sep)[0];
  return top in LAYERS ? top : undefined;
}

/** Every import that runs upward, as "<from> imports <to> (<layer> above <layer>)". */
export function upwardImports(root = ROOT): string[] {
  const files = [
    path.join(root, "index.ts"),
    ...["core", "components", "stacks", "scenarios", "lab"].flatMap((d) => sourceFiles(path.join(root, d))),
  ];
  const found: string[] = [];
  for (const file of files) {
    const from = layerOf(root, file);
    if (from === undefined) continue;
    for (const spec of relativeImports(fs.readFileSync(file, "utf8"))) {
      const to = layerOf(root, path.resolve(path.dirname(file), spec));
      if (to === undefined) {
        found.push(`${path.relative(root, file)} imports ${spec}, outside the layered folders`);
      } else if (LAYERS[to] > LAYERS[from]) {
        found.push(`${path.relative(root, file)} imports ${spec} (${to} is above ${from})`);
      }
    }
  }
  return found;
}

/**
 * The folders of lab/ (a file directly in lab/ is its own node) and, per folder it imports, the
 * first import that does ("lab/x/a.ts imports ../y/b").
 */
export function labFolderImports(root = ROOT): Map<string, Map<string, string>> {
  const lab = path.join(root, "lab");
  const nodeOf = (file: string): string => {
    const parts = path.relative(lab, file).split(path.sep);
    return `lab/${parts[0]}`;
  };
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(lab).sort()) {
    const from = nodeOf(file);
    for (const spec of relativeImports(fs.readFileSync(file, "utf8"))) {
      const target = path.resolve(path.dirname(file), spec);
      if (path.relative(lab, target).startsWith("..")) continue;
      const to = nodeOf(target.endsWith(".ts") ? target : `${target}.ts`);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${path.relative(root, file)} imports ${spec}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/**
 * Every cycle between folders of lab/, one per group of folders that reach each other (the
 * shortest through the first of them by name), as "lab/a → lab/b → lab/a (<first import of each
 * step>)"; two folders that import each other are "lab/a ⇄ lab/b (…)".
 */
export function labFolderCycles(root = ROOT): string[] {
  const graph = labFolderImports(root);
  const next = (n: string) => [...(graph.get(n)?.keys() ?? [])].sort();
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    const todo = [from];
    while (todo.length > 0) {
      for (const m of next(todo.pop()!)) {
        if (seen.has(m)) continue;
        seen.add(m);
        todo.push(m);
      }
    }
    return seen;
  };
  const done = new Set<string>();
  const found: string[] = [];
  for (const start of [...graph.keys()].sort()) {
    if (done.has(start) || !reach(start).has(start)) continue;
    // The shortest way back to `start` (breadth first).
    const back = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0 && !back.has(start)) {
      const n = queue.shift()!;
      for (const m of next(n)) {
        if (back.has(m)) continue;
        back.set(m, n);
        queue.push(m);
      }
    }
    const cycle = [start];
    for (let n = back.get(start)!; n !== start; n = back.get(n)!) cycle.unshift(n);
    cycle.unshift(start);
    const steps = cycle.slice(1).map((to, i) => graph.get(cycle[i])!.get(to)!);
    const names = cycle.length === 3 ? `${cycle[0]} ⇄ ${cycle[1]}` : cycle.join(" → ");
    found.push(`${names} (${steps.join("; ")})`);
    // The other folders of the same group are reported by this cycle.
    for (const n of reach(start)) if (reach(n).has(start)) done.add(n);
  }
  return found;
}

/** Package imports of core/ that would tie the engine-free library to the Pulumi engine or a provider. */
export function enginePackagesInCore(root = ROOT): string[] {
  const re = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["'](@pulumi[^"']*|@pulumiverse[^"']*)["']/gm;
  return sourceFiles(path.join(root, "core")).flatMap((file) =>
    [...fs.readFileSync(file, "utf8").matchAll(re)].map((m) => `${path.relative(root, file)} imports ${m[1]}`),
  );
}

describe("layers", () => {
  it("core/ is engine-free: no Pulumi package", () => {
    expect(enginePackagesInCore()).toEqual([]);
  });

  it("no module imports a layer above its own", () => {
    expect(upwardImports()).toEqual([]);
  });

  it("no two folders of lab/ import each other, directly or round a longer cycle", () => {
    expect(labFolderCycles()).toEqual([]);
  });

  it("finds every kind of relative import", () => {
    const src = [
      'import { a } from "../core/errors";',
      'export { b } from "./b";',
      'import "../side-effect";',
      'const c = await import("../../lab/cli");',
      'const d = require("../stacks");',
      'import x from "zod";',
    ].join("\n");
    expect(relativeImports(src)).toEqual(["../core/errors", "./b", "../side-effect", "../../lab/cli", "../stacks"]);
  });

  it("reports an upward import with both files", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "layers-"));
    for (const d of ["core", "components", "stacks", "scenarios", "lab"]) fs.mkdirSync(path.join(tmp, d));
    fs.writeFileSync(path.join(tmp, "index.ts"), 'import "./stacks/x";\n');
    fs.writeFileSync(path.join(tmp, "stacks", "x.ts"), 'import { y } from "../components/y";\n');
    fs.writeFileSync(path.join(tmp, "components", "y.ts"), 'import { run } from "../lab/cli/run";\nexport const y = 1;\n');
    expect(upwardImports(tmp)).toEqual(["components/y.ts imports ../lab/cli/run (lab is above components)"]);
    fs.writeFileSync(path.join(tmp, "core", "z.ts"), 'import * as pulumi from "@pulumi/pulumi";\n');
    expect(enginePackagesInCore(tmp)).toEqual(["core/z.ts imports @pulumi/pulumi"]);
  });

  it("reports a cycle between folders of lab/ naming both, with an import each way", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-cycles-"));
    for (const d of ["report", "utilization", "cli", "results"]) fs.mkdirSync(path.join(tmp, "lab", d), { recursive: true });
    const write = (file: string, text: string) => fs.writeFileSync(path.join(tmp, "lab", file), text);
    write("report/model.ts", 'import { x } from "../utilization/report";\nimport { r } from "../results/files";\n');
    write("utilization/report.ts", 'import type { M } from "../report/model";\nexport const x = 1;\n');
    write("results/files.ts", "export const r = 1;\n");
    expect(labFolderCycles(tmp)).toEqual([
      "lab/report ⇄ lab/utilization (lab/report/model.ts imports ../utilization/report; lab/utilization/report.ts imports ../report/model)",
    ]);
    write("results/files.ts", 'import { c } from "../cli/main";\nexport const r = 1;\n');
    write("cli/main.ts", 'import { x } from "../report/model";\nexport const c = 1;\n');
    expect(labFolderCycles(tmp)).toEqual([
      "lab/cli → lab/report → lab/results → lab/cli (lab/cli/main.ts imports ../report/model; lab/report/model.ts imports ../results/files; lab/results/files.ts imports ../cli/main)",
    ]);
  });
});
