/** parseToolOutput dispatch and `lab parse` (runParse) over the real fixtures. */
import * as path from "node:path";
import { runParse } from "../../../lab/cli/parse";
import { ConfigError } from "../../../core/errors";
import { parseFio, parseIoping, parseOmb, parsePgbench, parseToolOutput, TOOLS } from "../../../core/parsers";
import { expectToolOutputError, FIXTURES, fixture } from "./helpers";

describe("parseToolOutput", () => {
  test("TOOLS lists the four tools of DESIGN.md", () => {
    expect(TOOLS).toEqual(["fio", "ioping", "pgbench", "omb"]);
  });

  test.each([
    ["fio", "latency-qd1-randread.json", parseFio],
    ["ioping", "ioping-J.json", parseIoping],
    ["pgbench", "tpcb-15.txt", parsePgbench],
    ["omb", "kafka-throughput-1kb.json", parseOmb],
  ] as const)("%s goes to its parser", (tool, name, parser) => {
    const text = fixture(tool, name);
    expect(parseToolOutput(tool, text, name)).toEqual(parser(text, name));
  });

  test("every sample's metadata names its tool", () => {
    for (const [tool, name] of [
      ["fio", "suite-stonewall.txt"],
      ["ioping", "ioping.txt"],
      ["pgbench", "pre14-tpcb-constructed.txt"],
      ["omb", "kafka-sync-1kb-legacy.json"],
    ] as const) {
      const samples = parseToolOutput(tool, fixture(tool, name), name);
      expect(samples.length).toBeGreaterThan(0);
      for (const s of samples) expect(s.metadata.tool).toBe(tool);
    }
  });
});

describe("runParse (lab parse)", () => {
  test("returns the samples as JSON text", () => {
    const file = path.join(FIXTURES, "pgbench", "tpcb-15.txt");
    const out = runParse("pgbench", file);
    expect(JSON.parse(out)).toEqual(parsePgbench(fixture("pgbench", "tpcb-15.txt"), file));
    expect(out.startsWith('[\n  {\n    "metric": "pgbench.tps",')).toBe(true);
  });

  test("an unknown tool is a usage error listing the valid ones", () => {
    const run = (): string => runParse("sysbench", "whatever.txt");
    expect(run).toThrow(ConfigError);
    expect(run).toThrow("'tool' must be one of fio, ioping, pgbench, omb, got \"sysbench\"");
  });

  test("a file that cannot be read is a usage error naming it (exit 2), not a malformed output", () => {
    const missing = path.join(FIXTURES, "fio", "no-such-file.json");
    expect(() => runParse("fio", missing)).toThrow(ConfigError);
    expect(() => runParse("fio", missing)).toThrow(
      `'file' must be a readable file (no such file or directory), got ${JSON.stringify(missing)}`,
    );
    expect(() => runParse("fio", FIXTURES)).toThrow(
      `'file' must be a readable file (it is a directory), got ${JSON.stringify(FIXTURES)}`,
    );
  });

  test("parse errors carry the path as given", () => {
    const file = path.join(FIXTURES, "omb", "kafka-throughput-1kb.json");
    expectToolOutputError(() => runParse("fio", file), file, 'not fio JSON output: missing "fio version", "jobs"');
  });
});
