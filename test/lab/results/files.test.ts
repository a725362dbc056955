import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ToolOutputError } from "../../../core/errors";
import { RunExistsError, readRunResults, runDir, writeRunResults } from "../../../lab/results/files";
import type { Sample } from "../../../core/sample";

const SAMPLES: Sample[] = [
  { metric: "fio.read.iops", value: 37500, unit: "op/s", metadata: { tool: "fio", runId: "r1", rep: 1, zone: "us-east-1a" } },
  { metric: "pgbench.tps", value: 537.24, unit: "txn/s", metadata: { tool: "pgbench", hypervisor: "nitro", direct: true } },
];
const RAWS = [
  { name: "fio-rep1.json", text: '{"fio version": "fio-3.33"}\n' },
  { name: "pgbench-rep1.txt", text: "tps = 537.24 (without initial connection time)\n" },
];

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-results-"));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("writeRunResults / readRunResults", () => {
  it("writes results/<stack>/<runId>/samples.json and raw/<name>, and reads them back", () => {
    const dir = writeRunResults(root, "dev", "r1", SAMPLES, RAWS);
    expect(dir).toBe(path.join(root, "dev", "r1"));
    expect(fs.readdirSync(dir).sort()).toEqual(["raw", "samples.json"]);
    expect(fs.readdirSync(path.join(dir, "raw")).sort()).toEqual(["fio-rep1.json", "pgbench-rep1.txt"]);
    expect(fs.readFileSync(path.join(dir, "samples.json"), "utf8")).toBe(`${JSON.stringify(SAMPLES, null, 2)}\n`);
    expect(fs.readFileSync(path.join(dir, "raw", "fio-rep1.json"), "utf8")).toBe(RAWS[0].text);
    expect(readRunResults(dir)).toEqual({ samples: SAMPLES, raws: RAWS });
  });

  it("leaves no temporary directory behind", () => {
    writeRunResults(root, "dev", "r1", SAMPLES, RAWS);
    writeRunResults(root, "dev", "r2", [], []);
    expect(fs.readdirSync(path.join(root, "dev")).sort()).toEqual(["r1", "r2"]);
    expect(readRunResults(path.join(root, "dev", "r2"))).toEqual({ samples: [], raws: [] });
  });

  it("refuses to overwrite an existing run, and keeps it intact", () => {
    writeRunResults(root, "dev", "r1", SAMPLES, RAWS);
    const again = () => writeRunResults(root, "dev", "r1", [], [{ name: "other.txt", text: "x" }]);
    expect(again).toThrow(RunExistsError);
    expect(again).toThrow(
      `${path.join(root, "dev", "r1")} already exists: a run's results are written once; set a new lab:runId, or move the old directory away`,
    );
    expect(readRunResults(path.join(root, "dev", "r1"))).toEqual({ samples: SAMPLES, raws: RAWS });
    expect(fs.readdirSync(path.join(root, "dev"))).toEqual(["r1"]);
  });

  it("refuses a run directory that exists without samples too", () => {
    fs.mkdirSync(path.join(root, "nitro", "r1"), { recursive: true });
    expect(() => writeRunResults(root, "nitro", "r1", SAMPLES, [])).toThrow(RunExistsError);
  });

  it("cleans its temporary directory when writing fails", () => {
    expect(() => writeRunResults(root, "dev", "r1", SAMPLES, [{ name: "a.txt", text: "1" }, { name: "a.txt", text: "2" }])).toThrow(
      'raw output name "a.txt" given twice',
    );
    expect(fs.existsSync(path.join(root, "dev"))).toBe(false);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => writeRunResults(root, "dev", "r1", [circular as unknown as Sample], [])).toThrow(/circular/i);
    expect(fs.readdirSync(path.join(root, "dev"))).toEqual([]);
  });

  it.each([
    ["stack", () => runDir("/r", "../etc", "r1"), 'stack must be one path segment of letters, digits, \'_\', \'.\', \'-\' (not starting with \'.\' or \'-\'), got "../etc"'],
    ["stack with a slash", () => runDir("/r", "org/dev", "r1"), /stack must be one path segment/],
    ["run id", () => runDir("/r", "dev", ""), /runId must be one path segment/],
    ["raw name", () => writeRunResults("/nonexistent", "dev", "r1", [], [{ name: "raw/../x", text: "" }]), /raw output name must be one path segment/],
  ])("rejects an unsafe %s", (_what, fn, message) => {
    expect(fn).toThrow(message);
  });

  it("reading names the file and what is wrong", () => {
    const dir = path.join(root, "dev", "bad");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "samples.json");
    expect(() => readRunResults(dir)).toThrow(new ToolOutputError(file, "missing: not a run directory"));
    fs.writeFileSync(file, "[{");
    expect(() => readRunResults(dir)).toThrow(/samples\.json: not JSON/);
    fs.writeFileSync(file, "{}");
    expect(() => readRunResults(dir)).toThrow(new ToolOutputError(file, "not an array of samples"));
    fs.writeFileSync(file, JSON.stringify([SAMPLES[0], { metric: "x", value: "1", unit: "s", metadata: { tool: "fio" } }]));
    expect(() => readRunResults(dir)).toThrow(new ToolOutputError(file, "element 1 is not a sample (metric, finite value, unit, metadata with tool)"));
  });
});
