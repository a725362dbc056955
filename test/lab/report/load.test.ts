import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ToolOutputError } from "../../../core/errors";
import { findSampleFiles, loadInputs, readSampleFile, ReportInputError } from "../../../lab/report/load";
import { writeRunResults } from "../../../lab/results/files";
import { parseFixture } from "./samples";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-report-load-"));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const tps = () => parseFixture("pgbench", "pgbench/tpcb-15.txt").slice(0, 1);

describe("findSampleFiles", () => {
  it("every samples.json below the arguments, sorted, each once; hidden directories (a save in progress) skipped", () => {
    const results = path.join(root, "results");
    writeRunResults(results, "nitro", "r1", tps(), []);
    writeRunResults(results, "dev", "r2", tps(), []);
    writeRunResults(results, "dev", "r1", tps(), [{ name: "pgbench-rep1.txt", text: "tps = 1\n" }]);
    fs.mkdirSync(path.join(results, "dev", ".r3.tmp-x"), { recursive: true });
    fs.writeFileSync(path.join(results, "dev", ".r3.tmp-x", "samples.json"), "[");
    fs.mkdirSync(path.join(root, "node_modules", "x"), { recursive: true });
    fs.writeFileSync(path.join(root, "node_modules", "x", "samples.json"), "[]");
    const file = (stack: string, run: string) => path.join(results, stack, run, "samples.json");
    expect(findSampleFiles([root])).toEqual([file("dev", "r1"), file("dev", "r2"), file("nitro", "r1")]);
    expect(findSampleFiles([path.join(results, "nitro"), results, file("dev", "r2")])).toEqual([
      file("nitro", "r1"),
      file("dev", "r1"),
      file("dev", "r2"),
    ]);
  });

  it("names an argument that does not exist, is not a directory, or holds no samples", () => {
    const missing = path.join(root, "nope");
    expect(() => findSampleFiles([missing])).toThrow(new ReportInputError(`${missing}: no such directory`));
    const other = path.join(root, "notes.txt");
    fs.writeFileSync(other, "");
    expect(() => findSampleFiles([other])).toThrow(
      new ReportInputError(`${other}: not a directory (give the directories that hold results/<stack>/<runId>/samples.json)`),
    );
    expect(() => findSampleFiles([root])).toThrow(
      new ReportInputError(`no samples.json below ${root}: \`lab results save\` writes results/<stack>/<runId>/samples.json`),
    );
  });
});

describe("readSampleFile", () => {
  it("in a run directory, fills stack and runId from <stack>/<runId>/ where the samples lack them; the samples' own win", () => {
    const dir = writeRunResults(
      root,
      "dev",
      "r1",
      [...tps(), { ...tps()[0], metadata: { ...tps()[0].metadata, stack: "nitro", runId: "r9" } }],
      [],
    );
    const [filled, own] = readSampleFile(path.join(dir, "samples.json"));
    expect([filled.metadata.stack, filled.metadata.runId]).toEqual(["dev", "r1"]);
    expect([own.metadata.stack, own.metadata.runId]).toEqual(["nitro", "r9"]);
    expect(filled.value).toBe(1644.801001);
  });

  it("outside a run directory (no raw/ beside it), takes the samples as they are", () => {
    const dir = path.join(root, "loose");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "samples.json"), JSON.stringify(tps()));
    expect(readSampleFile(path.join(dir, "samples.json"))).toEqual(tps());
  });

  it.each([
    ["is not JSON (cut short)", "[", "not JSON (Unexpected end of JSON input)"],
    ["is not an array", "{}", "not an array of samples"],
    [
      "holds something that is not a sample",
      JSON.stringify([tps()[0], { metric: "x", value: "1", unit: "s", metadata: { tool: "fio" } }]),
      "element 1 is not a sample (metric, finite value, unit, metadata with tool)",
    ],
  ])("a samples.json that %s is an error naming the file", (_what, text, what) => {
    const dir = path.join(root, "results", "dev", "r1");
    fs.mkdirSync(path.join(dir, "raw"), { recursive: true });
    const file = path.join(dir, "samples.json");
    fs.writeFileSync(file, text);
    expect(() => loadInputs([root])).toThrow(new ToolOutputError(file, what));
    expect(() => loadInputs([root])).toThrow(`${file}: ${what}`);
  });
});
