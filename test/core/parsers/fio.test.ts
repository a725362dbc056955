/**
 * fio parser against real fio 3.33 outputs (test/fixtures/fio, commands in test/fixtures/README.md).
 * Every expected figure was read by hand from the raw fixture; the JSON path is in the comment.
 */
import { parseFio } from "../../../core/parsers/fio";
import { expectToolOutputError, fixture, summary } from "./helpers";

describe("parseFio: JSON", () => {
  test("seed line (randrw 75/25, qd64, gtod_reduce=1): IOPS and bandwidth per direction, no latency sample at all", () => {
    const samples = parseFio(fixture("fio", "seed-gtod-reduce.json"), "seed-gtod-reduce.json");
    expect(summary(samples)).toEqual([
      "fio.read.iops 47020.652898 op/s", // jobs[0].read.iops
      "fio.read.bandwidth 192596594 B/s", // jobs[0].read.bw_bytes
      "fio.write.iops 15635.576282 op/s", // jobs[0].write.iops
      "fio.write.bandwidth 64043320 B/s", // jobs[0].write.bw_bytes
      "fio.error 0 count", // jobs[0].error = 0
    ]);
    // clat_ns is { min: 0, max: 0, mean: 0, N: 0 } under gtod_reduce: no fake 0 latency.
    expect(samples.some((s) => s.metric.includes("clat"))).toBe(false);
    expect(samples[0].metadata).toEqual({
      tool: "fio",
      toolVersion: "fio-3.33",
      job: "seed",
      jobIndex: 0,
      direction: "read",
      filename: "/tmp/sbl-fix/seed.dat",
      size: "64M",
      rw: "randrw",
      rwmixread: 75,
      bs: "4k",
      iodepth: 64,
      ioengine: "libaio",
      direct: 1,
      gtod_reduce: 1,
      runtime: 3,
    });
    expect(samples[4].metadata).toEqual({ ...samples[0].metadata, direction: undefined, errno: 0 });
    expect("direction" in samples[4].metadata).toBe(false);
  });

  test("latency profile (4k qd1 randread): clat mean and percentiles converted from ns to us", () => {
    const samples = parseFio(fixture("fio", "latency-qd1-randread.json"), "latency-qd1-randread.json");
    expect(samples.map((s) => [s.metric, s.value, s.unit])).toEqual([
      ["fio.read.iops", 15225.887056, "op/s"],
      ["fio.read.bandwidth", 62365233, "B/s"],
      ["fio.read.clat.mean", 28922.940854 / 1000, "us"], // clat_ns.mean 28922.940854 ns
      ["fio.read.clat.p50", 26.752, "us"], // clat_ns.percentile["50.000000"] 26752 ns
      ["fio.read.clat.p99", 74.24, "us"], // ["99.000000"] 74240 ns
      ["fio.read.clat.p99.9", 116.224, "us"], // ["99.900000"] 116224 ns
      ["fio.error", 0, "count"],
    ]);
    expect(samples[2].metadata).toMatchObject({ job: "latency", rw: "randread", iodepth: 1, bs: "4k", direct: 1, direction: "read" });
  });

  test("two stonewalled jobs in json+: per-job samples, global options overlaid by job options, bins ignored", () => {
    const samples = parseFio(fixture("fio", "suite-stonewall.jsonplus.json"), "suite-stonewall.jsonplus.json");
    expect(summary(samples)).toEqual([
      "fio.read.iops 80979.010495 op/s",
      "fio.read.bandwidth 331690026 B/s",
      `fio.read.clat.mean ${188281.636143 / 1000} us`,
      "fio.read.clat.p50 168.96 us", // 168960 ns
      "fio.read.clat.p99 309.248 us", // 309248 ns
      "fio.read.clat.p99.9 505.856 us", // 505856 ns
      "fio.error 0 count",
      "fio.write.iops 14117.441279 op/s",
      "fio.write.bandwidth 1850401263 B/s",
      `fio.write.clat.mean ${553865.135615 / 1000} us`,
      "fio.write.clat.p50 552.96 us",
      "fio.write.clat.p99 774.144 us",
      "fio.write.clat.p99.9 1417.216 us",
      "fio.error 0 count",
    ]);
    expect(samples[0].metadata).toEqual({
      tool: "fio",
      toolVersion: "fio-3.33",
      job: "iops-randread",
      jobIndex: 0,
      direction: "read",
      // "global options"
      ioengine: "libaio",
      direct: 1,
      size: "64M",
      runtime: 2,
      time_based: 1,
      filename: "/tmp/sbl-fix/suite.dat",
      // "job options"
      rw: "randread",
      bs: "4k",
      iodepth: 16,
    });
    expect(samples[7].metadata).toMatchObject({
      job: "bandwidth-write",
      jobIndex: 1,
      rw: "write",
      bs: "128k",
      iodepth: 8,
      ioengine: "libaio",
    });
  });

  test("a note fio prints before the JSON (psync with iodepth 4) is skipped", () => {
    const text = fixture("fio", "psync-note-noise.json");
    expect(text.split("\n")[0]).toBe("note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1");
    const samples = parseFio(text, "psync-note-noise.json");
    expect(summary(samples)).toEqual([
      "fio.read.iops 14948.051948 op/s",
      "fio.read.bandwidth 61227220 B/s",
      `fio.read.clat.mean ${66311.887723 / 1000} us`,
      "fio.read.clat.p50 61.696 us",
      "fio.read.clat.p99 122.368 us",
      "fio.read.clat.p99.9 242.688 us",
      "fio.error 0 count",
    ]);
    expect(samples[0].metadata).toMatchObject({ ioengine: "psync", iodepth: 4 });
  });

  test("ENOSPC mid-run: no performance sample (8500 IOPS until the disk filled is not a figure), fio.error counts 1 error, errno 28 is metadata", () => {
    const text = fixture("fio", "enospc.json");
    expect(text.split("\n")[0]).toBe("fio: pid=4830, err=28/file:io_u.c:1876, func=io_u error, error=No space left on device");
    expect(text).toMatch(/"iops" : 8500\.0+,/); // what fio measured before the error
    const samples = parseFio(text, "enospc.json");
    expect(summary(samples)).toEqual([
      "fio.error 1 count", // "error" : 28 is an errno, one error
    ]);
    expect(samples[0].metadata).toMatchObject({ job: "enospc", errno: 28 });
    // the same document without the error: its figures are samples
    const ok = text.replace(/"error" : 28,/, '"error" : 0,');
    expect(summary(parseFio(ok, "ok.json"))).toEqual([
      "fio.write.iops 8500 op/s",
      "fio.write.bandwidth 524288000 B/s",
      "fio.write.clat.mean 28.62925 us", // 28629.25 ns
      "fio.write.clat.p50 20.096 us",
      "fio.write.clat.p99 154.624 us",
      "fio.write.clat.p99.9 154.624 us",
      "fio.error 0 count",
    ]);
  });

  test("continue_on_error: fio.error is fio's own count (total_err)", () => {
    const samples = parseFio(fixture("fio", "enospc-continue-on-error.json"), "enospc-continue-on-error.json");
    const error = samples.find((s) => s.metric === "fio.error");
    expect(error).toEqual({
      metric: "fio.error",
      value: 1, // "total_err" : 1
      unit: "count",
      metadata: expect.objectContaining({ errno: 28, continue_on_error: "all" }),
    });
  });

  test("continue_on_error with several errors: fio.error is total_err (4), not the one-error fallback", () => {
    // verify_only over a file with 4 corrupted 4 KiB blocks: "error" : 84 (EILSEQ), "total_err" : 4.
    const text = fixture("fio", "verify-continue-on-error.json");
    const samples = parseFio(text, "verify-continue-on-error.json");
    const errors = samples.filter((s) => s.metric === "fio.error");
    expect(errors).toEqual([
      {
        metric: "fio.error",
        value: 4,
        unit: "count",
        metadata: expect.objectContaining({ job: "verify-continue", errno: 84, continue_on_error: "verify" }),
      },
    ]);
    // without total_err (no continue_on_error), a non-zero errno is one error
    const withoutCount = text.replace(/"total_err" : 4,\s*"first_error" : 84/, '"first_error" : 84');
    expect(withoutCount).not.toBe(text);
    expect(parseFio(withoutCount, "x.json").find((s) => s.metric === "fio.error")?.value).toBe(1);
  });

  test("a job that failed before any I/O yields only its fio.error", () => {
    const samples = parseFio(fixture("fio", "error-no-io.json"), "error-no-io.json");
    expect(summary(samples)).toEqual(["fio.error 1 count"]);
    expect(samples[0].metadata).toMatchObject({ job: "write-readonly", errno: 1 });
  });

  test("clat measured without percentiles: the mean only; a percentile list without 99.9: no p99.9", () => {
    const doc = JSON.parse(fixture("fio", "latency-qd1-randread.json"));
    delete doc.jobs[0].read.clat_ns.percentile;
    expect(summary(parseFio(JSON.stringify(doc), "x.json")).filter((s) => s.includes("clat"))).toEqual([
      `fio.read.clat.mean ${28922.940854 / 1000} us`,
    ]);
    doc.jobs[0].read.clat_ns.percentile = { "50.000000": 26752, "99.000000": 74240 };
    expect(summary(parseFio(JSON.stringify(doc), "x.json")).filter((s) => s.includes("clat"))).toEqual([
      `fio.read.clat.mean ${28922.940854 / 1000} us`,
      "fio.read.clat.p50 26.752 us",
      "fio.read.clat.p99 74.24 us",
    ]);
  });
});

describe("parseFio: normal text output (IOPS and bandwidth only)", () => {
  test("seed line: IOPS=58.0k, BW=227MiB/s and IOPS=19.3k, BW=75.6MiB/s converted exactly", () => {
    const samples = parseFio(fixture("fio", "seed-gtod-reduce.txt"), "seed-gtod-reduce.txt");
    expect(summary(samples)).toEqual([
      "fio.read.iops 58000 op/s", // 58.0k
      "fio.read.bandwidth 238026752 B/s", // 227 × 2^20
      "fio.write.iops 19300 op/s", // 19.3k
      "fio.write.bandwidth 79272345.6 B/s", // 75.6 × 2^20
      "fio.error 0 count", // err= 0
    ]);
    expect(samples[0].metadata).toEqual({
      tool: "fio",
      toolVersion: "fio-3.33",
      job: "seed",
      jobIndex: 0,
      direction: "read",
      rw: "randrw",
      bs: "4096B",
      ioengine: "libaio",
      iodepth: 64,
    });
  });

  test("two groups with latency lines: only IOPS and bandwidth are read", () => {
    const samples = parseFio(fixture("fio", "suite-stonewall.txt"), "suite-stonewall.txt");
    expect(summary(samples)).toEqual([
      "fio.read.iops 69200 op/s", // IOPS=69.2k
      "fio.read.bandwidth 284164096 B/s", // BW=271MiB/s
      "fio.error 0 count",
      "fio.write.iops 18300 op/s", // IOPS=18.3k
      "fio.write.bandwidth 2401239040 B/s", // BW=2290MiB/s
      "fio.error 0 count",
    ]);
    expect(samples[3].metadata).toMatchObject({ job: "bandwidth-write", jobIndex: 1, bs: "128KiB", iodepth: 8, rw: "write" });
  });

  test("ENOSPC with continue_on_error: err=28 (...) and 'errors : total=1'", () => {
    const samples = parseFio(fixture("fio", "enospc-continue-on-error.txt"), "enospc-continue-on-error.txt");
    // IOPS=8500, BW=500MiB/s on the job's lines: no sample of a job with an error
    expect(summary(samples)).toEqual([
      "fio.error 1 count", // errors : total=1, first_error=28
    ]);
    expect(samples[0].metadata).toMatchObject({ errno: 28, rw: "write" });
  });

  test("several errors with continue_on_error: 'errors : total=4' is the count, err=84 the errno", () => {
    const text = fixture("fio", "verify-continue-on-error.txt");
    const samples = parseFio(text, "verify-continue-on-error.txt");
    expect(samples.filter((s) => s.metric === "fio.error").map((s) => [s.value, s.metadata.errno])).toEqual([[4, 84]]);
    // the job line alone (no errors line): one error
    const jobLineOnly = text.replace(/^\s+errors\s+: total=4.*\n/m, "");
    expect(jobLineOnly).not.toBe(text);
    expect(parseFio(jobLineOnly, "x.txt").find((s) => s.metric === "fio.error")?.value).toBe(1);
    // err=0 on the job line and no errors line: none
    const clean = jobLineOnly.replace("err=84 ()", "err= 0");
    expect(parseFio(clean, "x.txt").find((s) => s.metric === "fio.error")?.value).toBe(0);
  });

  test("groupid and jobs of two digits on the result line", () => {
    const text = fixture("fio", "seed-gtod-reduce.txt").replace(/\(groupid=0, jobs=1\)/, "(groupid=12, jobs=16)");
    expect(text).toContain("(groupid=12, jobs=16)");
    expect(summary(parseFio(text, "x.txt"))).toEqual(summary(parseFio(fixture("fio", "seed-gtod-reduce.txt"), "x.txt")));
  });

  test.each([
    ["BW=238MB/s (227MiB/s)", 238e6], // kb_base=1000 prints SI first
    ["BW=1816Mibit/s (1904Mbit/s)", (1816 * 2 ** 20) / 8], // unit_base=8
    ["BW=950KiB/s (973kB/s)", 950 * 1024],
    ["BW=1.50GiB/s (1611MB/s)", 1.5 * 2 ** 30],
    ["BW=512B/s (512B/s)", 512],
  ])("bandwidth %s → %d B/s", (bw, expected) => {
    const text = fixture("fio", "seed-gtod-reduce.txt").replace("BW=227MiB/s (238MB/s)", bw);
    expect(parseFio(text, "x.txt")[1].value).toBe(expected);
  });

  test.each([
    ["IOPS=943", 943],
    ["IOPS=1234k", 1234000],
    ["IOPS=2.5M", 2500000],
  ])("%s", (iops, expected) => {
    const text = fixture("fio", "seed-gtod-reduce.txt").replace("IOPS=58.0k", iops);
    expect(parseFio(text, "x.txt")[0].value).toBe(expected);
  });
});

describe("parseFio: figures of the normal output that are not fio's are errors, never a number", () => {
  // The job's IOPS/BW line is `  read: IOPS=58.0k, BW=227MiB/s (238MB/s)(…)`: anything around the figure is not read as it.
  test.each([
    ["IOPS=58.0kx", "IOPS=58.0kx"],
    ["IOPS=x58.0k", "IOPS=x58.0k"],
    ["IOPS=58.k", "IOPS=58.k"],
  ])("%s", (iops, shown) => {
    const text = fixture("fio", "seed-gtod-reduce.txt").replace("IOPS=58.0k", iops);
    expect(text).toContain(iops);
    expectToolOutputError(
      () => parseFio(text, "x.txt"),
      "x.txt",
      new RegExp(`cannot read ${shown.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
    );
  });
  test.each([["BW=227MiB/sx"], ["BW=x227MiB/s"], ["BW=227.MiB/s"], ["BW=227Xi/s"]])("%s", (bw) => {
    const text = fixture("fio", "seed-gtod-reduce.txt").replace("BW=227MiB/s", bw);
    expect(text).toContain(bw);
    expectToolOutputError(() => parseFio(text, "x.txt"), "x.txt", new RegExp(`cannot read ${bw.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  });
});

describe("parseFio: an error is never dropped or zeroed", () => {
  // fio-3.33, continue_on_error=read on a write job that hits ENOSPC: fio continues past read
  // errors only, so the write error stops the job and its count of errors continued past is 0.
  test("JSON: error 28 with total_err 0 (continue_on_error of another class) is 1 error, not 0", () => {
    const text = fixture("fio", "enospc-continue-on-read.json");
    expect(text).toMatch(/"error" : 28,/);
    expect(text).toMatch(/"total_err" : 0,/);
    const samples = parseFio(text, "enospc-continue-on-read.json");
    expect(samples.filter((s) => s.metric === "fio.error").map((s) => [s.value, s.metadata.errno, s.metadata.continue_on_error])).toEqual([
      [1, 28, "read"],
    ]);
    expect(samples.map((s) => s.metric)).toEqual(["fio.error"]);
  });

  test("text: err=28 on the job line with 'errors : total=0' is 1 error, not 0", () => {
    const text = fixture("fio", "enospc-continue-on-read.txt");
    expect(text).toContain("errors    : total=0, first_error=0/<Success>");
    expect(text).toContain(
      "enospc-coe-read: (groupid=0, jobs=1): err=28 (file:io_u.c:1876, func=io_u error, error=No space left on device): pid=",
    );
    const samples = parseFio(text, "enospc-continue-on-read.txt");
    expect(summary(samples)).toEqual([
      "fio.error 1 count", // err=28 (IOPS=17.0k, BW=1000MiB/s before it: not samples)
    ]);
    expect(samples[0].metadata).toMatchObject({ job: "enospc-coe-read", errno: 28, rw: "write" });
    // the job line without the error: the figures are samples
    const clean = text.replace(/err=28 \([^)]*\)/, "err= 0");
    expect(summary(parseFio(clean, "x.txt"))).toEqual([
      "fio.write.iops 17000 op/s",
      "fio.write.bandwidth 1048576000 B/s",
      "fio.error 0 count",
    ]);
    expect(parseFio(clean, "x.txt")[0].metadata).toMatchObject({ bs: "64.0KiB" });
  });

  test("a count above 1 is kept whatever the errno; no errno and a count of 0 is 0", () => {
    const text = fixture("fio", "enospc-continue-on-read.txt");
    const counted = text.replace(
      "errors    : total=0, first_error=0/<Success>",
      "errors    : total=7, first_error=28/<No space left on device>",
    );
    expect(parseFio(counted, "x.txt").find((s) => s.metric === "fio.error")?.value).toBe(7);
    const clean = text.replace(/err=28 \([^)]*\)/, "err= 0");
    expect(clean).not.toBe(text);
    expect(parseFio(clean, "x.txt").find((s) => s.metric === "fio.error")?.value).toBe(0);
    const json = fixture("fio", "enospc-continue-on-read.json");
    const cleanJson = json.replace('"error" : 28,', '"error" : 0,');
    expect(cleanJson).not.toBe(json);
    expect(parseFio(cleanJson, "x.json").find((s) => s.metric === "fio.error")?.value).toBe(0);
    const countedJson = json.replace('"total_err" : 0,', '"total_err" : 3,');
    expect(parseFio(countedJson, "x.json").find((s) => s.metric === "fio.error")?.value).toBe(3);
  });
});

describe("parseFio: text of twelve groups (groupid and jobs of two digits), IOPS without a prefix, a missing header", () => {
  // fio-3.33: groups-twelve.fio, eleven one-job groups j0..j10 and a group of 10 jobs with group_reporting.
  const text = fixture("fio", "groups-twelve.txt");
  test("every group's result is read, groupid=10 and 11 and jobs=10 included", () => {
    expect(text).toContain("j10: (groupid=10, jobs=1): err= 0: pid=");
    expect(text).toContain("many: (groupid=11, jobs=10): err= 0: pid=");
    const samples = parseFio(text, "groups-twelve.txt");
    expect(samples.filter((s) => s.metric.endsWith(".iops")).map((s) => `${s.metadata.job} ${s.metric} ${s.value}`)).toEqual([
      "j0 fio.read.iops 2285", // IOPS=2285
      "j1 fio.read.iops 16000",
      "j2 fio.read.iops 16000",
      "j3 fio.read.iops 16000",
      "j4 fio.read.iops 16000",
      "j5 fio.read.iops 16000",
      "j6 fio.read.iops 5333", // IOPS=5333
      "j7 fio.read.iops 16000",
      "j8 fio.read.iops 2000", // IOPS=2000
      "j9 fio.read.iops 4000", // IOPS=4000
      "j10 fio.read.iops 2666", // IOPS=2666
      "many fio.write.iops 160000", // IOPS=160k
    ]);
    expect(samples.filter((s) => s.metric.endsWith(".bandwidth")).map((s) => s.value)).toEqual([
      9143 * 1024, // BW=9143KiB/s
      62.5 * 2 ** 20,
      62.5 * 2 ** 20,
      62.5 * 2 ** 20,
      62.5 * 2 ** 20,
      62.5 * 2 ** 20,
      20.8 * 2 ** 20,
      62.5 * 2 ** 20,
      8000 * 1024,
      15.6 * 2 ** 20,
      10.4 * 2 ** 20,
      625 * 2 ** 20,
    ]);
    expect(samples.filter((s) => s.metric === "fio.error").map((s) => s.value)).toEqual(Array(12).fill(0));
    const many = samples.find((s) => s.metadata.job === "many");
    expect(many?.metadata).toEqual({
      tool: "fio",
      toolVersion: "fio-3.33",
      job: "many",
      jobIndex: 11,
      direction: "write",
      rw: "write",
      ioengine: "psync",
      iodepth: 1,
      bs: "4096B",
    });
  });

  test("a result without its job header line: the figures, without rw, bs, ioengine, iodepth", () => {
    const noHeader = text.replace(/^j10: \(g=10\).*\n/m, "");
    expect(noHeader).not.toBe(text);
    const j10 = parseFio(noHeader, "x.txt").filter((s) => s.metadata.job === "j10");
    expect(j10.map((s) => [s.metric, s.value, s.metadata])).toEqual([
      ["fio.read.iops", 2666, { tool: "fio", toolVersion: "fio-3.33", job: "j10", jobIndex: 10, direction: "read" }],
      ["fio.read.bandwidth", 10.4 * 2 ** 20, { tool: "fio", toolVersion: "fio-3.33", job: "j10", jobIndex: 10, direction: "read" }],
      ["fio.error", 0, { tool: "fio", toolVersion: "fio-3.33", job: "j10", jobIndex: 10, errno: 0 }],
    ]);
  });
});

describe("parseFio: errors name the file and what is missing", () => {
  test("empty file", () => {
    expectToolOutputError(
      () => parseFio("", "empty.json"),
      "empty.json",
      "is empty; expected fio output (--output-format=json, json+ or normal)",
    );
    expectToolOutputError(
      () => parseFio(" \n\n", "blank.json"),
      "blank.json",
      "is empty; expected fio output (--output-format=json, json+ or normal)",
    );
  });

  test("JSON cut in the middle", () => {
    const text = fixture("fio", "seed-gtod-reduce.json");
    expectToolOutputError(
      () => parseFio(text.slice(0, text.length / 2), "cut.json"),
      "cut.json",
      "fio JSON is truncated: the object opened on line 1 is never closed",
    );
    const noisy = fixture("fio", "psync-note-noise.json");
    expectToolOutputError(
      () => parseFio(noisy.slice(0, 2000), "cut-noisy.json"),
      "cut-noisy.json",
      "fio JSON is truncated: the object opened on line 2 is never closed",
    );
  });

  test("two JSON documents in one file (two runs) are refused, not half-read", () => {
    const text = fixture("fio", "psync-note-noise.json");
    expectToolOutputError(
      () => parseFio(text + text, "two.json"),
      "two.json",
      "holds more than one fio JSON document (another starts on line 274); give one run a file",
    );
  });

  test("malformed JSON", () => {
    const text = fixture("fio", "seed-gtod-reduce.json").replace('"iops" : 47020.652898,', '"iops" : 47020.652898 oops,');
    expectToolOutputError(() => parseFio(text, "bad.json"), "bad.json", /^fio JSON is malformed: /);
  });

  test("another tool's file", () => {
    expectToolOutputError(
      () => parseFio(fixture("omb", "kafka-throughput-1kb.json"), "omb.json"),
      "omb.json",
      'not fio JSON output: missing "fio version", "jobs"',
    );
    const notText = "not fio output: no JSON object and no '<job>: (groupid=N, jobs=N): err=N: pid=N' result line of fio's normal output";
    expectToolOutputError(() => parseFio(fixture("pgbench", "tpcb-15.txt"), "pgbench.txt"), "pgbench.txt", notText);
    expectToolOutputError(() => parseFio(fixture("ioping", "ioping-J.json"), "ioping.json"), "ioping.json", notText);
    expectToolOutputError(() => parseFio(fixture("ioping", "ioping.txt"), "ioping.txt"), "ioping.txt", notText);
  });

  test("missing or mistyped fields name the job and the field path", () => {
    const doc = JSON.parse(fixture("fio", "seed-gtod-reduce.json"));
    delete doc.jobs[0].read.bw_bytes;
    expectToolOutputError(() => parseFio(JSON.stringify(doc), "a.json"), "a.json", 'jobs[0] ("seed"): "read.bw_bytes" is missing');

    const typed = JSON.parse(fixture("fio", "seed-gtod-reduce.json"));
    typed.jobs[0].write.iops = "fast";
    expectToolOutputError(
      () => parseFio(JSON.stringify(typed), "b.json"),
      "b.json",
      'jobs[0] ("seed"): "write.iops" must be a number, got "fast"',
    );

    const noClat = JSON.parse(fixture("fio", "latency-qd1-randread.json"));
    delete noClat.jobs[0].read.clat_ns;
    expectToolOutputError(() => parseFio(JSON.stringify(noClat), "c.json"), "c.json", 'jobs[0] ("latency"): "read.clat_ns" is missing');

    const noWrite = JSON.parse(fixture("fio", "latency-qd1-randread.json"));
    delete noWrite.jobs[0].write;
    expectToolOutputError(() => parseFio(JSON.stringify(noWrite), "d.json"), "d.json", 'jobs[0] ("latency"): "write" is missing');

    const noName = JSON.parse(fixture("fio", "latency-qd1-randread.json"));
    delete noName.jobs[0].jobname;
    expectToolOutputError(() => parseFio(JSON.stringify(noName), "e.json"), "e.json", 'jobs[0]: "jobname" is missing');

    const noJobs = JSON.parse(fixture("fio", "latency-qd1-randread.json"));
    noJobs.jobs = [];
    expectToolOutputError(() => parseFio(JSON.stringify(noJobs), "f.json"), "f.json", 'fio JSON has no jobs ("jobs" is empty)');
  });

  test("text output cut before fio's run status summary", () => {
    const text = fixture("fio", "seed-gtod-reduce.txt");
    expectToolOutputError(
      () => parseFio(text.slice(0, text.indexOf("Run status group")), "cut.txt"),
      "cut.txt",
      "fio text output is truncated: no 'Run status group N (all jobs):' summary after the job results",
    );
  });

  test("unified_rw_reporting text output is refused, not half-read", () => {
    const text = fixture("fio", "seed-gtod-reduce.txt").replace("  read: IOPS=", "  mixed: IOPS=");
    expectToolOutputError(
      () => parseFio(text, "mixed.txt"),
      "mixed.txt",
      'line 6: unified_rw_reporting ("mixed:") output is not supported; rerun fio without it',
    );
  });
});

describe("parseFio: edges a mutation test found untested", () => {
  const seed = () => JSON.parse(fixture("fio", "seed-gtod-reduce.json")) as { [k: string]: unknown; jobs: Record<string, unknown>[] };
  const twelve = fixture("fio", "groups-twelve.txt");

  test("JSON of the wrong shape: the version, the jobs list, a job, a job name", () => {
    const d1 = { ...seed(), "fio version": 3 };
    expectToolOutputError(() => parseFio(JSON.stringify(d1), "a.json"), "a.json", '"fio version" must be a string, got 3');
    const d2 = { ...seed(), jobs: {} };
    expectToolOutputError(() => parseFio(JSON.stringify(d2), "b.json"), "b.json", '"jobs" must be an array, got {}');
    const d3 = { ...seed(), jobs: [1] };
    expectToolOutputError(() => parseFio(JSON.stringify(d3), "c.json"), "c.json", "jobs[0] must be an object, got 1");
    const d4 = seed();
    d4.jobs[0].jobname = 5;
    expectToolOutputError(() => parseFio(JSON.stringify(d4), "d.json"), "d.json", 'jobs[0]: "jobname" must be a string, got 5');
  });

  test("a direction did I/O when either its bytes or its request count is above 0", () => {
    const bytesOnly = seed();
    (bytesOnly.jobs[0].read as Record<string, unknown>).total_ios = 0;
    expect(parseFio(JSON.stringify(bytesOnly), "x.json").some((s) => s.metric === "fio.read.iops")).toBe(true);
    const countOnly = seed();
    (countOnly.jobs[0].read as Record<string, unknown>).io_bytes = 0;
    expect(parseFio(JSON.stringify(countOnly), "x.json").some((s) => s.metric === "fio.read.iops")).toBe(true);
  });

  test("JSON options that are numbers or booleans are kept as they are; others (objects) are left out", () => {
    const d = seed();
    d.jobs[0]["job options"] = { name: "seed", iodepth: 4, direct: true, odd: { a: 1 }, bs: "4k" };
    const meta = parseFio(JSON.stringify(d), "x.json")[0].metadata;
    expect([meta.iodepth, meta.direct, "odd" in meta, meta.bs, "name" in meta]).toEqual([4, true, false, "4k", false]);
  });

  test("text: the first header of a job name wins; a block size range; IOPS with two decimals; no version line, no toolVersion", () => {
    const dup = twelve.replace(/^(j0: \(g=0\): )rw=read(.*)$/m, "$1rw=read$2\n$1rw=randwrite$2");
    expect(dup).toContain("j0: (g=0): rw=randwrite");
    expect(parseFio(dup, "x.txt")[0].metadata.rw).toBe("read");
    const range = twelve.replace("j0: (g=0): rw=read, bs=(R) 4096B-4096B", "j0: (g=0): rw=read, bs=(R) 4096B-8192B");
    expect(parseFio(range, "x.txt")[0].metadata.bs).toBe("4096B-8192B");
    const decimals = twelve.replace("read: IOPS=2285,", "read: IOPS=1.25k,");
    expect(parseFio(decimals, "x.txt")[0].value).toBe(1250);
    const noVersion = twelve.replace(/^fio-3\.33\n/m, "");
    expect(noVersion).not.toBe(twelve);
    expect(parseFio(noVersion, "x.txt").some((s) => "toolVersion" in s.metadata)).toBe(false);
  });

  test("text: a trim line is not read; direction lines outside a job's block are ignored", () => {
    const trim = twelve.replace(/^( {2}read: IOPS=2285.*)$/m, "$1\n  trim: IOPS=5, BW=20.0KiB/s (20.5kB/s)(64.0KiB/7msec)");
    expect(trim).not.toBe(twelve);
    expect(
      parseFio(trim, "x.txt")
        .filter((s) => s.metadata.job === "j0")
        .map((s) => s.metric),
    ).toEqual(["fio.read.iops", "fio.read.bandwidth", "fio.error"]);
    const outside = `${twelve}\n  read: IOPS=5, BW=20.0KiB/s (20.5kB/s)(64.0KiB/7msec)\n     errors    : total=3, first_error=5/<x>\n`;
    expect(summary(parseFio(outside, "x.txt"))).toEqual(summary(parseFio(twelve, "x.txt")));
  });
});
