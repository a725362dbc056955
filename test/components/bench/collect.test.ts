import * as fs from "fs";
import * as path from "path";
import { ToolOutputError } from "../../../core/errors";
import { parseToolOutput } from "../../../core/parsers";
import type { Sample } from "../../../core/sample";
import {
  beginMarker,
  collectSamples,
  cutResultBlocks,
  endMarker,
  expectReps,
  markerMetadata,
  rawOutputName,
  recordedRunMetadata,
  runMetadataEnv,
  type ParseToolOutput,
} from "../../../components/bench/collect";

/** Logs of the real scripts running the real tools (fio 3.33, ioping 1.3, pgbench 15), stdout and stderr merged as in `kubectl logs`. */
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", name), "utf8");

const LOG = [
  "2026-01-01T00:00:00Z [lab] fio 3.33: profile seed, 2 repetition(s)",
  beginMarker("fio", 1, { profile: "seed", version: "3.33" }),
  "{",
  '  "a": 1',
  "}",
  endMarker("fio", 1),
  "fio: some warning on stderr",
  beginMarker("fio", 2, { profile: "seed", version: "3.33" }),
  "{}",
  endMarker("fio", 2),
  "2026-01-01T00:00:09Z [lab] fio done",
  "",
].join("\n");

/** Throws the ToolOutputError of `fn`, or fails. */
function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolOutputError);
    return (e as Error).message;
  }
  throw new Error("no error");
}

describe("cutResultBlocks", () => {
  it("cuts the raw output of every repetition, markers and surrounding noise excluded", () => {
    expect(cutResultBlocks(LOG, "job/b-fio-r1")).toEqual([
      { tool: "fio", rep: 1, attrs: { tool: "fio", rep: "1", profile: "seed", version: "3.33" }, text: '{\n  "a": 1\n}\n', line: 2 },
      { tool: "fio", rep: 2, attrs: { tool: "fio", rep: "2", profile: "seed", version: "3.33" }, text: "{}\n", line: 8 },
    ]);
  });

  it("prints the markers exactly as lib.sh does", () => {
    expect(beginMarker("ioping", 3, { format: "json", version: "1.3" })).toBe(
      "=== LAB-RESULT-BEGIN tool=ioping rep=3 format=json version=1.3 ===",
    );
    expect(endMarker("ioping", 3)).toBe("=== LAB-RESULT-END tool=ioping rep=3 ===");
    const lib = fs.readFileSync(path.join(__dirname, "../../../components/bench/scripts/lib.sh"), "utf8");
    expect(lib).toContain("printf '=== LAB-RESULT-BEGIN tool=%s rep=%s%s ===\\n'");
    expect(lib).toContain("printf '=== LAB-RESULT-END tool=%s rep=%s ===\\n'");
  });

  it("keeps an empty block empty and tolerates CRLF marker lines", () => {
    expect(cutResultBlocks(`${beginMarker("fio", 1)}\r\n${endMarker("fio", 1)}\r\n`, "x")).toEqual([
      { tool: "fio", rep: 1, attrs: { tool: "fio", rep: "1" }, text: "", line: 1 },
    ]);
    expect(cutResultBlocks("no markers at all\n", "x")).toEqual([]);
  });

  it.each([
    ["a truncated log", `${beginMarker("fio", 1)}\n{"partial": `, "job/j: truncated: tool=fio rep=1 (line 1) has no end marker"],
    ["an END without BEGIN", `${endMarker("fio", 1)}\n`, "job/j: line 1: end of tool=fio rep=1 without a beginning"],
    [
      "nested blocks",
      `${beginMarker("fio", 1)}\n${beginMarker("fio", 2)}\n`,
      "job/j: line 2: tool=fio rep=2 begins before tool=fio rep=1 (line 1) ended",
    ],
    [
      "a mismatched END",
      `${beginMarker("fio", 1)}\n${endMarker("fio", 2)}\n`,
      "job/j: line 2: end of tool=fio rep=2 while tool=fio rep=1 (line 1) is open",
    ],
    [
      "a malformed marker",
      "=== LAB-RESULT-BEGIN tool=fio rep=1\n",
      "job/j: line 1: malformed result marker: === LAB-RESULT-BEGIN tool=fio rep=1",
    ],
    [
      "a marker without rep",
      "=== LAB-RESULT-BEGIN tool=fio ===\n",
      "job/j: line 1: result marker without tool=<name> rep=<n>: === LAB-RESULT-BEGIN tool=fio ===",
    ],
    [
      "rep 0",
      "=== LAB-RESULT-BEGIN tool=fio rep=0 ===\n",
      "job/j: line 1: result marker without tool=<name> rep=<n>: === LAB-RESULT-BEGIN tool=fio rep=0 ===",
    ],
  ])("rejects %s", (_what, log, message) => {
    expect(errorOf(() => cutResultBlocks(log, "job/j"))).toBe(message);
  });
});

describe("expectReps", () => {
  const blocks = cutResultBlocks(LOG, "job/j");

  it("returns repetitions 1..reps in order", () => {
    expect(expectReps([...blocks].reverse(), "fio", 2, "job/j").map((b) => b.rep)).toEqual([1, 2]);
  });

  it.each([
    [3, "fio", "job/j: missing fio repetition(s) 3 of 3"],
    [1, "fio", "job/j: line 8: repetition 2 of fio, expected 1"],
    [2, "ioping", "job/j: line 2: output of tool=fio, expected only ioping"],
  ] as const)("reps %d of %s: %s", (reps, tool, message) => {
    expect(errorOf(() => expectReps(blocks, tool, reps, "job/j"))).toBe(message);
  });

  it("rejects a repetition printed twice", () => {
    expect(errorOf(() => expectReps([blocks[0], blocks[0]], "fio", 2, "job/j"))).toBe("job/j: line 2: repetition 1 of fio appears twice");
  });
});

describe("raw names and marker metadata", () => {
  it("names raw outputs by tool, repetition and format", () => {
    const b = (tool: string, attrs: Record<string, string> = {}) => ({ tool, rep: 2, attrs, text: "", line: 1 });
    expect(rawOutputName(b("fio"))).toBe("fio-rep2.json");
    expect(rawOutputName(b("ioping", { format: "json" }))).toBe("ioping-rep2.json");
    expect(rawOutputName(b("ioping", { format: "text" }))).toBe("ioping-rep2.txt");
    expect(rawOutputName(b("pgbench"), "nitro-")).toBe("nitro-pgbench-rep2.txt");
  });

  it("turns marker attributes into metadata", () => {
    expect(
      markerMetadata({
        tool: "pgbench",
        rep: "1",
        scale: "1000",
        clients: "20",
        threads: "2",
        duration: "300",
        init: "reused",
        version: "17.6",
      }),
    ).toEqual({
      scale: 1000,
      clients: 20,
      threads: 2,
      durationSeconds: 300,
      pgbenchInitialisation: "reused",
      toolVersion: "17.6",
    });
    expect(markerMetadata({ tool: "fio", rep: "1", profile: "seed", version: "3" })).toEqual({ fioProfile: "seed", toolVersion: "3" });
  });
});

describe("collectSamples", () => {
  const fake: ParseToolOutput = (tool, text, file): Sample[] => [
    { metric: `${tool}.chars`, value: text.length, unit: "count", metadata: { tool, file, zone: "from-parser" } },
  ];

  it("parses each repetition and merges run metadata, marker attributes and rep; the parser's keys win", () => {
    const r = collectSamples(
      LOG,
      { tool: "fio", reps: 2, source: "job/b-fio-r1", run: { runId: "r1", zone: "us-east-1a", stack: "dev" } },
      fake,
    );
    expect(r.raws).toEqual([
      { name: "fio-rep1.json", text: '{\n  "a": 1\n}\n' },
      { name: "fio-rep2.json", text: "{}\n" },
    ]);
    expect(r.samples).toEqual([
      {
        metric: "fio.chars",
        value: 13,
        unit: "count",
        metadata: {
          runId: "r1",
          zone: "from-parser",
          stack: "dev",
          fioProfile: "seed",
          toolVersion: "3.33",
          rep: 1,
          tool: "fio",
          file: "job/b-fio-r1/fio-rep1.json",
        },
      },
      {
        metric: "fio.chars",
        value: 3,
        unit: "count",
        metadata: {
          runId: "r1",
          zone: "from-parser",
          stack: "dev",
          fioProfile: "seed",
          toolVersion: "3.33",
          rep: 2,
          tool: "fio",
          file: "job/b-fio-r1/fio-rep2.json",
        },
      },
    ]);
  });

  it("fails whole when a repetition is missing: never a partial result", () => {
    expect(errorOf(() => collectSamples(LOG, { tool: "fio", reps: 3, source: "job/j", run: {} }, fake))).toBe(
      "job/j: missing fio repetition(s) 3 of 3",
    );
  });

  it.each([
    ["fio-seed-job.txt", "fio", 2],
    ["fio-latency-job.txt", "fio", 1],
    ["ioping-job.txt", "ioping", 2],
    ["pgbench-job.txt", "pgbench", 2],
  ] as const)("real log %s: %s samples through core/parsers for every repetition", (file, tool, reps) => {
    const r = collectSamples(
      fixture(file),
      { tool, reps, source: `job/${tool}`, run: { runId: "r1", zone: "us-east-1a" } },
      parseToolOutput,
    );
    expect(r.raws.map((x) => x.name)).toEqual(
      Array.from({ length: reps }, (_, i) => `${tool}-rep${i + 1}.${tool === "pgbench" ? "txt" : "json"}`),
    );
    expect(r.samples.length).toBeGreaterThan(0);
    for (const s of r.samples) {
      expect(s.metadata).toMatchObject({ tool, runId: "r1", zone: "us-east-1a" });
      expect(Number.isFinite(s.value)).toBe(true);
    }
    expect(new Set(r.samples.map((s) => s.metadata.rep))).toEqual(new Set(Array.from({ length: reps }, (_, i) => i + 1)));
    if (tool === "fio") for (const raw of r.raws) expect(() => JSON.parse(raw.text)).not.toThrow();
  });

  it("real fio seed log: read and write IOPS per repetition, no fake latency under gtod_reduce", () => {
    const r = collectSamples(fixture("fio-seed-job.txt"), { tool: "fio", reps: 2, source: "job/fio", run: {} }, parseToolOutput);
    const metrics = r.samples.filter((s) => s.metadata.rep === 1).map((s) => s.metric);
    expect(metrics).toEqual(expect.arrayContaining(["fio.read.iops", "fio.write.iops", "fio.read.bandwidth", "fio.write.bandwidth"]));
    expect(metrics.some((m) => m.includes("clat"))).toBe(false);
    expect(r.samples.every((s) => s.metadata.fioProfile === "seed")).toBe(true);
  });
});

describe("run metadata recorded by the collector (issue 40 item 1)", () => {
  const fake: ParseToolOutput = (tool, text, file) => [{ metric: "m", value: text.length, unit: "B", metadata: { tool, file } as never }];
  const recorded = runMetadataEnv({
    instanceType: "m5.xlarge",
    hypervisor: "nitro",
    runId: "r1",
    workers: 3,
    wireguard: true,
    zone: undefined,
  });
  const withLine = `=== LAB-RUN-METADATA ${recorded} ===\n${LOG}`;

  it("the environment value is the defined keys as one line of JSON", () => {
    expect(recorded).toBe('{"instanceType":"m5.xlarge","hypervisor":"nitro","runId":"r1","workers":3,"wireguard":true}');
  });

  it("the samples take the recorded setup, not the metadata the caller passes now", () => {
    const { samples } = collectSamples(
      withLine,
      { tool: "fio", reps: 2, source: "job/b-fio-r1", run: { instanceType: "m6i.xlarge", stack: "later" }, recordedRun: true },
      fake,
    );
    expect(
      samples.map((s) => [s.metadata.instanceType, s.metadata.hypervisor, s.metadata.workers, s.metadata.wireguard, s.metadata.stack]),
    ).toEqual([
      ["m5.xlarge", "nitro", 3, true, undefined],
      ["m5.xlarge", "nitro", 3, true, undefined],
    ]);
  });

  it("a collector's log without the line (a collector of an earlier lab): the caller's metadata, marked setupRecorded: false", () => {
    const { samples } = collectSamples(
      LOG,
      { tool: "fio", reps: 2, source: "job/b-fio-r1", run: { instanceType: "m6i.xlarge" }, recordedRun: true },
      fake,
    );
    expect(samples.map((s) => [s.metadata.instanceType, s.metadata.setupRecorded])).toEqual([
      ["m6i.xlarge", false],
      ["m6i.xlarge", false],
    ]);
  });

  it("without recordedRun (a local run) the line is not needed and the caller's metadata is used", () => {
    const { samples } = collectSamples(LOG, { tool: "fio", reps: 2, source: "local/fio.sh", run: { instanceType: "local" } }, fake);
    expect(samples.map((s) => s.metadata.instanceType)).toEqual(["local", "local"]);
  });

  it.each([
    ["=== LAB-RUN-METADATA {} ===\n=== LAB-RUN-METADATA {} ===\n", "line 2: a second run metadata line (the first is line 1)"],
    [
      "=== LAB-RUN-METADATA {nope} ===\n",
      "line 1: run metadata is not JSON (Expected property name or '}' in JSON at position 1 (line 1 column 2)): {nope}",
    ],
    ['=== LAB-RUN-METADATA ["a"] ===\n', 'line 1: run metadata must be a JSON object, got ["a"]'],
    [
      '=== LAB-RUN-METADATA {"a":{"b":1},"c":null} ===\n',
      'line 1: run metadata values must be strings, numbers or booleans, got a={"b":1}, c=null',
    ],
    ["=== LAB-RUN-METADATA\n", "line 1: malformed run metadata line: === LAB-RUN-METADATA"],
  ])("malformed: %j → %s", (log, why) => {
    expect(errorOf(() => recordedRunMetadata(log, "job/x"))).toBe(`job/x: ${why}`);
  });

  it("a log without the line has none", () => {
    expect(recordedRunMetadata(LOG, "job/x")).toBeUndefined();
  });
});
