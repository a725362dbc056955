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
});
