/**
 * ioping parser against real ioping 1.3 outputs (test/fixtures/ioping, commands in
 * test/fixtures/README.md). Expected figures were read by hand from the raw fixtures.
 */
import { parseIoping } from "../../../core/parsers/ioping";
import { expectToolOutputError, fixture, summary } from "./helpers";

const META = { tool: "ioping", target: "iop", fstype: "ext4", device: "/dev/vda", operation: "read" };

describe("parseIoping: -J JSON", () => {
  test("ioping's own statistics (last element), ns → us, warm-up request excluded", () => {
    const text = fixture("ioping", "ioping-J.json");
    const samples = parseIoping(text, "ioping-J.json");
    expect(summary(samples)).toEqual([
      "ioping.requests 5 count", // stat.count
      "ioping.iops 2477.420787 op/s", // stat.iops
      "ioping.latency.min 304.379 us", // stat.min 304379 ns
      "ioping.latency.mean 403.646 us", // stat.avg 403646 ns
      "ioping.latency.max 646.55 us", // stat.max 646550 ns
      "ioping.latency.mdev 123.988 us", // stat.mdev 123988 ns
    ]);
    for (const s of samples) expect(s.metadata).toEqual({ ...META, requestSizeBytes: 4096, generatedRequests: 6 });

    // Cross-check by hand against the per-request objects: request 1 (215661 ns) is the warm-up,
    // "ignored": true; the other five are ioping's statistics.
    const doc = JSON.parse(text) as { io?: { time: number; ignored: boolean } }[];
    const valid = doc.filter((x) => x.io !== undefined && !x.io.ignored).map((x) => x.io?.time as number);
    expect(valid).toEqual([380303, 332823, 354173, 646550, 304379]);
    expect(doc[0].io).toMatchObject({ time: 215661, ignored: true });
    expect(Math.min(...valid)).toBe(304379);
    expect(Math.max(...valid)).toBe(646550);
    expect(Math.round(valid.reduce((a, b) => a + b, 0) / valid.length)).toBe(403646);
  });

  test("with periodic statistics (-p 3), the whole run's statistics are the last element", () => {
    const samples = parseIoping(fixture("ioping", "ioping-periodic-J.json"), "ioping-periodic-J.json");
    expect(summary(samples)).toEqual([
      "ioping.requests 6 count",
      "ioping.iops 1699.947868 op/s",
      "ioping.latency.min 243.864 us",
      "ioping.latency.mean 588.253 us",
      "ioping.latency.max 1856.42 us",
      "ioping.latency.mdev 578.404 us",
    ]);
    expect(samples[0].metadata.generatedRequests).toBe(7);
  });

  test("no valid request: ioping.requests 0 and no zero latency or IOPS", () => {
    const doc = JSON.parse(fixture("ioping", "ioping-J.json"));
    doc[doc.length - 1].stat = { count: 0, size: 0, time: 0, iops: 0, bps: 0, min: 0, avg: 0, max: 0, mdev: 0 };
    expect(summary(parseIoping(JSON.stringify(doc), "zero.json"))).toEqual(["ioping.requests 0 count"]);
  });
});

describe("parseIoping: text summary", () => {
  test("'--- ... ioping statistics ---' block, ioping's rounded figures", () => {
    const samples = parseIoping(fixture("ioping", "ioping.txt"), "ioping.txt");
    expect(summary(samples)).toEqual([
      "ioping.requests 5 count", // "5 requests completed"
      "ioping.iops 3530 op/s", // "3.53 k iops"
      "ioping.latency.min 266.6 us",
      "ioping.latency.mean 283.1 us",
      "ioping.latency.max 301.5 us",
      "ioping.latency.mdev 12.1 us",
    ]);
    // By hand: requests 2..6 took 288.7, 274.1, 284.6, 266.6, 301.5 us (request 1 is "(warmup)").
    expect((288.7 + 274.1 + 284.6 + 266.6 + 301.5) / 5).toBeCloseTo(283.1, 10);
    for (const s of samples) expect(s.metadata).toEqual({ ...META, generatedRequests: 6 });
  });

  test("quiet run of 1201 requests: 'k' counts, ms latencies", () => {
    const samples = parseIoping(fixture("ioping", "ioping-quiet-1201.txt"), "ioping-quiet-1201.txt");
    expect(summary(samples)).toEqual([
      "ioping.requests 1200 count", // "1.20 k requests completed"
      "ioping.iops 3040 op/s", // "3.04 k iops"
      "ioping.latency.min 38.6 us",
      "ioping.latency.mean 329.1 us",
      "ioping.latency.max 136700 us", // 136.7 ms
      "ioping.latency.mdev 4260 us", // 4.26 ms
    ]);
    expect(samples[0].metadata.generatedRequests).toBe(1200); // "generated 1.20 k requests"
  });

  test("IOPS without a k or M prefix (32 MiB requests: '31 iops') is that number, never NaN", () => {
    const text = fixture("ioping", "ioping-32m.txt");
    expect(text).toContain("3 requests completed in 95.7 ms, 96 MiB read, 31 iops, 1002.7 MiB/s");
    const samples = parseIoping(text, "ioping-32m.txt");
    expect(summary(samples)).toEqual([
      "ioping.requests 3 count",
      "ioping.iops 31 op/s", // "31 iops"
      "ioping.latency.min 27600 us", // 27.6 ms
      "ioping.latency.mean 31900 us",
      "ioping.latency.max 34600 us",
      "ioping.latency.mdev 3070 us", // 3.07 ms
    ]);
    for (const s of samples) expect(s.metadata).toStrictEqual({ ...META, generatedRequests: 4 });
  });

  test("too fast/too slow counts before 'generated', writes, and ns latencies", () => {
    const text = [
      "",
      "--- /mnt/x (xfs /dev/nvme1n1 100 GiB) ioping statistics ---",
      "9 requests completed in 8.10 us, 36 KiB written, 1.11 M iops, 4.24 GiB/s",
      "1 too slow, generated 11 requests in 10.0 s, 44 KiB, 1 iops, 4.40 KiB/s",
      "min/avg/max/mdev = 850 ns / 900 ns / 1.05 us / 60 ns",
    ].join("\n");
    const samples = parseIoping(text, "w.txt");
    expect(summary(samples)).toEqual([
      "ioping.requests 9 count",
      "ioping.iops 1110000 op/s",
      "ioping.latency.min 0.85 us",
      "ioping.latency.mean 0.9 us",
      "ioping.latency.max 1.05 us",
      "ioping.latency.mdev 0.06 us",
    ]);
    expect(samples[0].metadata).toEqual({
      tool: "ioping",
      target: "/mnt/x",
      fstype: "xfs",
      device: "/dev/nvme1n1",
      operation: "write",
      generatedRequests: 11,
    });
  });

  test("no valid request: ioping.requests 0 only", () => {
    const text = [
      "--- iop (ext4 /dev/vda 252.0 GiB) ioping statistics ---",
      "0 requests completed in 0 ns, 0 B read, 0 iops, 0 B/s",
      "generated 1 requests in 0 ns, 4 KiB, 0 iops, 0 B/s",
      "min/avg/max/mdev = 0 ns / 0 ns / 0 ns / 0 ns",
    ].join("\n");
    expect(summary(parseIoping(text, "zero.txt"))).toEqual(["ioping.requests 0 count"]);
  });
});

describe("parseIoping: -B raw statistics", () => {
  test("one line of ten numbers (ioping 1.3 man page, RAW STATISTICS): count, iops, latencies ns → us, total requests", () => {
    const text = fixture("ioping", "batch.txt");
    expect(text).toBe("9 591869 15206 62284053 48114 65763 95306 14773 10 805433\n");
    expect(summary(parseIoping(text, "batch.txt"))).toEqual([
      "ioping.requests 9 count",
      "ioping.iops 15206 op/s",
      "ioping.latency.min 48.114 us",
      "ioping.latency.mean 65.763 us",
      "ioping.latency.max 95.306 us",
      "ioping.latency.mdev 14.773 us",
    ]);
    expect(parseIoping(text, "batch.txt")[0].metadata).toEqual({ tool: "ioping", generatedRequests: 10 });
  });

  test("with -p: the periodic lines, then the whole run's (the last)", () => {
    const text = fixture("ioping", "batch-print-count.txt");
    expect(text.trim().split("\n")).toHaveLength(3);
    const samples = parseIoping(text, "batch-print-count.txt");
    expect(summary(samples).slice(0, 3)).toEqual(["ioping.requests 10 count", "ioping.iops 26212 op/s", "ioping.latency.min 33.567 us"]);
    expect(samples[0].metadata.generatedRequests).toBe(11);
  });

  test("no valid request: the count alone; a line of nine numbers is not raw statistics", () => {
    expect(summary(parseIoping("0 0 0 0 0 0 0 0 1 52000\n", "none.txt"))).toEqual(["ioping.requests 0 count"]);
    expectToolOutputError(
      () => parseIoping("9 591869 15206 62284053 48114 65763 95306 14773 10\n", "short.txt"),
      "short.txt",
      "not ioping output: no '--- <target> (<fs> <device> <size>) ioping statistics ---' summary",
    );
  });
});

describe("parseIoping: errors name the file and what is missing", () => {
  test("empty file", () => {
    expectToolOutputError(
      () => parseIoping("", "empty.txt"),
      "empty.txt",
      "is empty; expected ioping output (ioping -J, its text summary, or -B's raw statistics)",
    );
  });

  test("JSON that is not ioping -J's array of request and statistics objects", () => {
    const NOT_IOPING = 'not ioping -J output: expected an array of request ("io") and statistics ("stat") objects';
    const doc = JSON.parse(fixture("ioping", "ioping-J.json")) as unknown[];
    for (const [name, bad] of [
      ["an empty array", []],
      ["an array with a stranger", [...doc.slice(0, -1), { other: 1 }, doc[doc.length - 1]]],
      ["an array with a number", [1, ...doc]],
    ] as const)
      expectToolOutputError(() => parseIoping(JSON.stringify(bad), `${name}.json`), `${name}.json`, NOT_IOPING);
    expectToolOutputError(
      () => parseIoping(JSON.stringify({ stat: {} }), "object.json"),
      "object.json",
      "not ioping output: it holds a JSON object, and ioping -J prints a JSON array",
    );
    // requests only: the run did not finish
    expectToolOutputError(
      () => parseIoping(JSON.stringify(doc.slice(0, -1)), "unfinished.json"),
      "unfinished.json",
      'ioping JSON has no final statistics object ("stat"): the run did not finish',
    );
    // statistics only (no request object): no operation, the size from the statistics
    const statsOnly = parseIoping(JSON.stringify([doc[doc.length - 1]]), "stats.json");
    expect(statsOnly[0].metadata).toEqual({
      tool: "ioping",
      target: "iop",
      fstype: "ext4",
      device: "/dev/vda",
      requestSizeBytes: 4096,
      generatedRequests: 6,
    });
  });

  test("JSON cut in the middle", () => {
    const text = fixture("ioping", "ioping-J.json");
    expectToolOutputError(
      () => parseIoping(text.slice(0, 1500), "cut.json"),
      "cut.json",
      "ioping JSON is truncated: the array opened on line 1 is never closed",
    );
  });

  test("JSON without the final statistics (a run that did not finish)", () => {
    const doc = JSON.parse(fixture("ioping", "ioping-J.json"));
    expectToolOutputError(
      () => parseIoping(JSON.stringify(doc.slice(0, 6)), "unfinished.json"),
      "unfinished.json",
      'ioping JSON has no final statistics object ("stat"): the run did not finish',
    );
  });

  test("two runs in one file", () => {
    const text = fixture("ioping", "ioping-J.json");
    expectToolOutputError(
      () => parseIoping(text + text, "two.json"),
      "two.json",
      "holds more than one ioping JSON document (another starts on line 125); give one run a file",
    );
  });

  test("a missing statistics field", () => {
    const doc = JSON.parse(fixture("ioping", "ioping-J.json"));
    delete doc[6].stat.avg;
    expectToolOutputError(() => parseIoping(JSON.stringify(doc), "noavg.json"), "noavg.json", 'element 6: "stat.avg" is missing');
  });

  test("text summary cut short", () => {
    const text = fixture("ioping", "ioping.txt").replace(/min\/avg\/max\/mdev.*\n?$/, "");
    expectToolOutputError(
      () => parseIoping(text, "cut.txt"),
      "cut.txt",
      "ioping summary is truncated: missing 'min/avg/max/mdev = ...' line",
    );
    const header = "--- iop (ext4 /dev/vda 252.0 GiB) ioping statistics ---\n";
    expectToolOutputError(
      () => parseIoping(header, "header-only.txt"),
      "header-only.txt",
      "ioping summary is truncated: missing '<n> requests completed in ...' line, 'generated <n> requests in ...' line, 'min/avg/max/mdev = ...' line",
    );
  });

  test("another tool's file", () => {
    expectToolOutputError(
      () => parseIoping(fixture("fio", "seed-gtod-reduce.json"), "fio.json"),
      "fio.json",
      "not ioping output: it holds a JSON object, and ioping -J prints a JSON array",
    );
    expectToolOutputError(
      () => parseIoping(fixture("omb", "kafka-throughput-1kb.json"), "omb.json"),
      "omb.json",
      "not ioping output: it holds a JSON object, and ioping -J prints a JSON array",
    );
    expectToolOutputError(
      () => parseIoping(fixture("pgbench", "tpcb-15.txt"), "pgbench.txt"),
      "pgbench.txt",
      "not ioping output: no '--- <target> (<fs> <device> <size>) ioping statistics ---' summary",
    );
    expectToolOutputError(
      () => parseIoping("[1, 2, 3]\n", "array.json"),
      "array.json",
      'not ioping -J output: expected an array of request ("io") and statistics ("stat") objects',
    );
  });
});

describe("parseIoping: edges a mutation test found untested", () => {
  const text = fixture("ioping", "ioping.txt");
  test("one summary line missing is named alone", () => {
    const drop = (re: RegExp) => {
      const cut = text.replace(re, "");
      expect(cut).not.toBe(text);
      return cut;
    };
    expectToolOutputError(
      () => parseIoping(drop(/^\d+ requests completed.*\n/m), "a.txt"),
      "a.txt",
      "ioping summary is truncated: missing '<n> requests completed in ...' line",
    );
    expectToolOutputError(
      () => parseIoping(drop(/^generated .*\n/m), "b.txt"),
      "b.txt",
      "ioping summary is truncated: missing 'generated <n> requests in ...' line",
    );
  });

  test("a completed line that says neither read nor written: no operation; nanoseconds with a decimal", () => {
    const t = text
      .replace(/(requests completed in [^,]+, [^,]+?) read,/, "$1,")
      .replace(/^min\/avg\/max\/mdev = .*$/m, "min/avg/max/mdev = 1.1 ns / 2.2 us / 3.3 ms / 4.4 s");
    expect(t).not.toBe(text);
    const samples = parseIoping(t, "x.txt");
    expect("operation" in samples[0].metadata).toBe(false);
    expect(samples.slice(2).map((s) => s.value)).toEqual([0.0011, 2.2, 3300, 4400000]);
  });

  test("JSON: no valid request means no request size (never a 0/0); a first request whose io is not an object is named", () => {
    const doc = JSON.parse(fixture("ioping", "ioping-J.json"));
    doc[doc.length - 1].stat = { count: 0, size: 0, time: 0, iops: 0, bps: 0, min: 0, avg: 0, max: 0, mdev: 0 };
    expect("requestSizeBytes" in parseIoping(JSON.stringify(doc), "zero.json")[0].metadata).toBe(false);
    const bad = JSON.parse(fixture("ioping", "ioping-J.json"));
    bad[0].io = 5;
    expectToolOutputError(() => parseIoping(JSON.stringify(bad), "io.json"), "io.json", 'element 0: "io" must be an object, got 5');
  });
});
