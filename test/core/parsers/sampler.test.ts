import * as fs from "node:fs";
import * as path from "node:path";
import { ToolOutputError } from "../../../core/errors";
import { cutUtilBlocks, nfsResource, nodeDiskResource, parseSamplerSummary, samplerSamples } from "../../../core/parsers/sampler";

/** A summary components/bench/scripts/sampler.sh printed (test/fixtures/sampler/README.md). */
const SUMMARY = fs.readFileSync(path.join(__dirname, "../../fixtures/sampler/summary.txt"), "utf8");
/** Its summary of snapshots with a decreasing iowait and a wrapped diskstats field 10. */
const GLITCH = fs.readFileSync(path.join(__dirname, "../../fixtures/sampler/summary-glitch.txt"), "utf8");

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolOutputError);
    return (e as Error).message;
  }
  throw new Error("no error");
}

describe("cutUtilBlocks", () => {
  it("cuts each summary between its markers, ignoring result blocks and noise around it", () => {
    const log = [
      "2026-01-15T10:00:00Z [lab] fio repetition 1/1",
      "=== LAB-RESULT-BEGIN tool=fio rep=1 profile=seed version=3.33 start=2026-01-15T10:00:00Z end=2026-01-15T10:01:00Z ===",
      "{}",
      "=== LAB-RESULT-END tool=fio rep=1 ===",
      "=== LAB-UTIL-BEGIN tool=fio rep=1 ===",
      ...SUMMARY.trimEnd().split("\n"),
      "=== LAB-UTIL-END tool=fio rep=1 ===",
      "2026-01-15T10:01:01Z [lab] fio done: 1 repetition(s)",
      "",
    ].join("\n");
    expect(cutUtilBlocks(log, "job/b-fio-r1")).toEqual([{ tool: "fio", rep: 1, text: SUMMARY, line: 5 }]);
    expect(cutUtilBlocks("no markers\n", "x")).toEqual([]);
  });

  it.each([
    [
      "a truncated summary",
      "=== LAB-UTIL-BEGIN tool=fio rep=1 ===\nwindow",
      "job/j: truncated: utilization of tool=fio rep=1 (line 1) has no end marker",
    ],
    [
      "an end without its beginning",
      "=== LAB-UTIL-END tool=fio rep=2 ===\n",
      "job/j: line 1: end of utilization tool=fio rep=2 without its beginning",
    ],
    [
      "nested summaries",
      "=== LAB-UTIL-BEGIN tool=fio rep=1 ===\n=== LAB-UTIL-BEGIN tool=fio rep=2 ===\n",
      "job/j: line 2: utilization of tool=fio rep=2 begins before tool=fio rep=1 (line 1) ended",
    ],
    [
      "a malformed marker",
      "=== LAB-UTIL-BEGIN tool=fio ===\n",
      "job/j: line 1: malformed utilization marker: === LAB-UTIL-BEGIN tool=fio ===",
    ],
  ])("refuses %s", (_what, log, expected) => {
    expect(message(() => cutUtilBlocks(log, "job/j"))).toBe(expected);
  });
});

describe("parseSamplerSummary", () => {
  it("reads the window, the CPU figures and each disk's, mean and max", () => {
    const s = parseSamplerSummary(SUMMARY, "f");
    expect(s).toEqual({
      windowSeconds: 2,
      measuredSeconds: 2,
      droppedIntervals: 0,
      droppedReasons: [],
      snapshots: 3,
      intervalSeconds: 1,
      cpus: 2,
      omittedDisks: 0,
      cpu: {
        user: { mean: 20, max: 30 },
        nice: { mean: 0, max: 0 },
        system: { mean: 7.5, max: 10 },
        idle: { mean: 60, max: 70 },
        iowait: { mean: 2.5, max: 5 },
        irq: { mean: 0, max: 0 },
        softirq: { mean: 3.75, max: 5 },
        steal: { mean: 6.25, max: 10 },
        busy: { mean: 37.5, max: 45 },
      },
      disks: [
        {
          name: "vda",
          figures: {
            readOps: { mean: 300, max: 500 },
            writeOps: { mean: 150, max: 200 },
            readBytes: { mean: 1228800, max: 2048000 },
            writeBytes: { mean: 716800, max: 1024000 },
            queueDepth: { mean: 1.25, max: 2 },
            busy: { mean: 40, max: 50 },
          },
        },
      ],
      nfs: [],
    });
  });

  it("a summary of a sampler that predates dropped intervals reads as covering its whole window", () => {
    const old = SUMMARY.replace(" measured=2.00", "").replace(" dropped=0", "");
    expect(old.split("\n")[0]).toBe("window seconds=2.00 snapshots=3 interval=1 cpus=2 disks=1 omitted=0");
    expect(parseSamplerSummary(old, "f")).toEqual(parseSamplerSummary(SUMMARY, "f"));
  });

  it("reads the dropped intervals and why; a window whose every interval was dropped has no figures", () => {
    expect(parseSamplerSummary(GLITCH, "f")).toMatchObject({
      windowSeconds: 5,
      measuredSeconds: 3,
      droppedIntervals: 2,
      droppedReasons: ["cpu", "disk"],
      cpu: { iowait: { mean: 2.5, max: 5 }, busy: { mean: 31.67, max: 45 } },
    });
    expect(
      parseSamplerSummary("window seconds=1.00 measured=0.00 snapshots=2 interval=1 cpus=2 disks=0 omitted=0 dropped=1 why=cpu\n", "f"),
    ).toEqual({
      windowSeconds: 1,
      measuredSeconds: 0,
      droppedIntervals: 1,
      droppedReasons: ["cpu"],
      snapshots: 2,
      intervalSeconds: 1,
      cpus: 2,
      omittedDisks: 0,
      disks: [],
      nfs: [],
    });
  });

  it("a window of fewer than two snapshots has no figures", () => {
    expect(parseSamplerSummary("window seconds=0.00 snapshots=1 interval=1 cpus=4 disks=0 omitted=0\n", "f")).toEqual({
      windowSeconds: 0,
      measuredSeconds: 0,
      droppedIntervals: 0,
      droppedReasons: [],
      snapshots: 1,
      intervalSeconds: 1,
      cpus: 4,
      omittedDisks: 0,
      disks: [],
      nfs: [],
    });
  });

  it.each([
    ["no window line", "cpu user=1/1\n", "f: is not a node sampler summary: no 'window' line first"],
    ["a bad number", SUMMARY.replace("cpus=2", "cpus=two"), `f: line 1: 'cpus' must be a number, got "two"`],
    ["a bad pair", SUMMARY.replace("steal=6.25/10.00", "steal=6.25"), `f: line 2: 'steal' must be <mean>/<max>, got "6.25"`],
    ["a missing figure", SUMMARY.replace(" busy=40.00/50.00", ""), "f: line 3: 'busy' must be <mean>/<max>, got nothing"],
    ["a missing disk", SUMMARY.replace("disks=1", "disks=2"), "f: the window line announces 2 disk(s), 1 follow (truncated?)"],
    [
      "a negative mean (a counter that went down, from a sampler that did not drop it)",
      SUMMARY.replace("iowait=2.50/5.00", "iowait=-2.50/5.00"),
      `f: line 2: 'iowait' must be <mean>/<max>, got "-2.50/5.00"`,
    ],
    [
      "dropped intervals without why",
      SUMMARY.replace("dropped=0", "dropped=1"),
      `f: line 1: 'why' must name cpu and/or disk when intervals were dropped, got "nothing"`,
    ],
    [
      "an unknown reason",
      SUMMARY.replace("dropped=0", "dropped=1 why=cpu,net"),
      `f: line 1: 'why' must name cpu and/or disk when intervals were dropped, got "cpu,net"`,
    ],
    ["no cpu line", "window seconds=1.00 snapshots=2 interval=1 cpus=1 disks=0 omitted=0\n", "f: line 2: expected the 'cpu' line"],
  ])("refuses %s", (_what, text, expected) => {
    expect(message(() => parseSamplerSummary(text, "f"))).toBe(expected);
  });
});

describe("samplerSamples", () => {
  const md = { tool: "fio" as const, stack: "dev", runId: "r1", rep: 1, repStart: "2026-01-15T10:00:00Z", repEnd: "2026-01-15T10:01:00Z" };

  it("util.node.<cpu figure> (%) and util.node-<disk>.<figure>; only the node's CPU busy has a limit", () => {
    const samples = samplerSamples(parseSamplerSummary(SUMMARY, "f"), md);
    expect(samples.map((s) => [s.metric, s.value, s.unit, s.metadata.max, s.metadata.limit ?? null])).toEqual([
      ["util.node.cpuUser", 20, "%", 30, null],
      ["util.node.cpuNice", 0, "%", 0, null],
      ["util.node.cpuSystem", 7.5, "%", 10, null],
      ["util.node.cpuIdle", 60, "%", 70, null],
      ["util.node.cpuIowait", 2.5, "%", 5, null],
      ["util.node.cpuIrq", 0, "%", 0, null],
      ["util.node.cpuSoftirq", 3.75, "%", 5, null],
      ["util.node.cpuSteal", 6.25, "%", 10, null],
      ["util.node.cpuBusy", 37.5, "%", 45, 100],
      ["util.node-vda.readOps", 300, "op/s", 500, null],
      ["util.node-vda.writeOps", 150, "op/s", 200, null],
      ["util.node-vda.readBytes", 1228800, "B/s", 2048000, null],
      ["util.node-vda.writeBytes", 716800, "B/s", 1024000, null],
      ["util.node-vda.queueDepth", 1.25, "count", 2, null],
      ["util.node-vda.busy", 40, "%", 50, null],
    ]);
    expect(samples[8].metadata).toEqual({
      ...md,
      utilSource: "node-sampler",
      windowSeconds: 2,
      measuredSeconds: 2,
      snapshots: 3,
      intervalSeconds: 1,
      resource: "node",
      cpus: 2,
      cpuScope: "node",
      max: 45,
      limit: 100,
      limitLabel: "node CPU busy (node-wide)",
    });
    expect(samples[9].metadata).toMatchObject({ resource: "node-vda", device: "vda", utilSource: "node-sampler" });
  });

  it("an NFS mount's figures: util.nfs-<mount>.<readOps|…|writeExecute>, no limit of its own (FSx's are CloudWatch's)", () => {
    const text = [
      "window seconds=1.00 measured=1.00 snapshots=2 interval=1 cpus=1 disks=0 omitted=0 dropped=0 nfs=1",
      "cpu user=30.00/30.00 nice=0.00/0.00 system=10.00/10.00 idle=50.00/50.00 iowait=5.00/5.00 irq=0.00/0.00 softirq=2.50/2.50 steal=2.50/2.50 busy=45.00/45.00",
      "nfs mount=/var/lib/kafka readOps=3000.00/3000.00 writeOps=1000.00/1000.00 readBytes=12288000/12288000 writeBytes=4096000/4096000 readRtt=0.50/0.50 writeRtt=1.00/1.00 readExe=0.60/0.60 writeExe=1.20/1.20",
      "",
    ].join("\n");
    const nfs = samplerSamples(parseSamplerSummary(text, "f"), md).filter((x) => x.metric.startsWith("util.nfs"));
    expect(nfs.map((x) => [x.metric, x.value, x.unit, x.metadata.limit ?? null])).toEqual([
      ["util.nfs-var-lib-kafka.readOps", 3000, "op/s", null],
      ["util.nfs-var-lib-kafka.writeOps", 1000, "op/s", null],
      ["util.nfs-var-lib-kafka.readBytes", 12288000, "B/s", null],
      ["util.nfs-var-lib-kafka.writeBytes", 4096000, "B/s", null],
      ["util.nfs-var-lib-kafka.readRtt", 0.5, "ms", null],
      ["util.nfs-var-lib-kafka.writeRtt", 1, "ms", null],
      ["util.nfs-var-lib-kafka.readExecute", 0.6, "ms", null],
      ["util.nfs-var-lib-kafka.writeExecute", 1.2, "ms", null],
    ]);
    expect(nfs[0].metadata).toMatchObject({ resource: "nfs-var-lib-kafka", mount: "/var/lib/kafka", utilSource: "node-sampler" });
    expect(message(() => parseSamplerSummary(text.replace(" nfs=1", " nfs=2"), "f"))).toBe(
      "f: the window line announces 2 NFS mount(s), 1 follow (truncated?)",
    );
  });

  it("none for a window without figures; a device name's dots become dashes in the resource", () => {
    expect(samplerSamples(parseSamplerSummary("window seconds=0.00 snapshots=1 interval=1 cpus=4 disks=0 omitted=0\n", "f"), md)).toEqual(
      [],
    );
    expect(
      samplerSamples(
        parseSamplerSummary("window seconds=1.00 measured=0.00 snapshots=2 interval=1 cpus=2 disks=0 omitted=0 dropped=1 why=disk\n", "f"),
        md,
      ),
    ).toEqual([
      {
        metric: "util.node.dropped",
        value: 1,
        unit: "count",
        metadata: {
          ...md,
          utilSource: "node-sampler",
          resource: "node",
          utilNote:
            "node sampler: 1 interval(s) dropped because a /proc/diskstats counter went down (fields wrap, Documentation/admin-guide/iostats.rst); the figures cover 0 s of the 1 s window",
        },
      },
    ]);
    expect(nodeDiskResource("dm-0")).toBe("node-dm-0");
    expect(nodeDiskResource("md.1")).toBe("node-md-1");
  });
});

describe("edges a mutation test found untested", () => {
  const BEGIN = "=== LAB-UTIL-BEGIN tool=fio rep=1 ===";
  const END = "=== LAB-UTIL-END tool=fio rep=1 ===";

  it("cutUtilBlocks: CRLF lines, a log without a final newline, a blank line inside a block, an empty log", () => {
    expect(cutUtilBlocks(`${BEGIN}\r\nwindow a\r\n\r\nx\r\n${END}\r\n`, "j")).toEqual([
      { tool: "fio", rep: 1, line: 1, text: "window a\n\nx\n" },
    ]);
    expect(cutUtilBlocks(`noise\n${BEGIN}\nwindow a\n${END}`, "j")).toEqual([{ tool: "fio", rep: 1, line: 2, text: "window a\n" }]);
    expect(cutUtilBlocks(`${BEGIN}\nwindow a\n${END}\n\n`, "j")).toEqual([{ tool: "fio", rep: 1, line: 1, text: "window a\n" }]);
    expect(cutUtilBlocks("", "j")).toEqual([]);
    // a \r in the middle of a line is kept; only a line's final \r is CRLF's
    expect(cutUtilBlocks(`${BEGIN}\na\rb\n${END}\n`, "j")[0].text).toBe("a\rb\n");
  });

  it("cutUtilBlocks: an end for another tool or repetition than the open one", () => {
    expect(message(() => cutUtilBlocks(`${BEGIN}\n=== LAB-UTIL-END tool=ioping rep=1 ===\n`, "j"))).toBe(
      "j: line 2: end of utilization tool=ioping rep=1 without its beginning",
    );
    expect(message(() => cutUtilBlocks(`${BEGIN}\n=== LAB-UTIL-END tool=fio rep=2 ===\n`, "j"))).toBe(
      "j: line 2: end of utilization tool=fio rep=2 without its beginning",
    );
  });

  it.each([
    ["a key without a value's '='", SUMMARY.replace("cpus=2", "cpus"), `f: line 1: expected key=value, got "cpus"`],
    ["a key that is empty", SUMMARY.replace("cpus=2", "=2"), `f: line 1: expected key=value, got "=2"`],
    [
      "figures after a window without measured intervals",
      "window seconds=0.00 snapshots=1 interval=1 cpus=4 disks=0 omitted=0\ncpu user=1/1\n",
      `f: line 2: a window without measured intervals has no figures, got "cpu user=1/1"`,
    ],
    ["a zero window with snapshots", "window seconds=0.00 snapshots=3 interval=1 cpus=4 disks=0 omitted=0\n", null],
    [
      "a line that is neither disk nor nfs after the cpu line",
      SUMMARY.replace("disk name=vda", "dsk name=vda"),
      `f: line 3: expected a 'disk' line, got "dsk name=vda readOps=300.00/500.00 writeOps=150.00/200.00 readBytes=1228800/2048000 writeBytes=716800/1024000 queueDepth=1.25/2.00 busy=40.00/50.00"`,
    ],
    ["a disk without a name", SUMMARY.replace("name=vda ", ""), "f: line 3: a disk line needs name=<device>"],
    ["a disk name with a space-less slash", SUMMARY.replace("name=vda", "name=dev/vda"), "f: line 3: a disk line needs name=<device>"],
    ["a disk name starting with a dot", SUMMARY.replace("name=vda", "name=.vda"), "f: line 3: a disk line needs name=<device>"],
    ["a disk name ending with a slash", SUMMARY.replace("name=vda", "name=vda/"), "f: line 3: a disk line needs name=<device>"],
    [
      "a dropped reason without dropped intervals",
      SUMMARY.replace("dropped=0", "dropped=0 why=cpu"),
      `f: line 1: 'why' must name cpu and/or disk when intervals were dropped, got "cpu"`,
    ],
    [
      "a cpu line that is not one",
      "window seconds=1.00 snapshots=2 interval=1 cpus=1 disks=0 omitted=0\ncpux user=1/1\n",
      "f: line 2: expected the 'cpu' line",
    ],
  ])("refuses %s", (_what, text, expected) => {
    if (expected === null) expect(parseSamplerSummary(text, "f")).toMatchObject({ windowSeconds: 0, disks: [], nfs: [] });
    else expect(message(() => parseSamplerSummary(text, "f"))).toBe(expected);
  });

  it("an empty summary, a missing number, a window and cpu line alone (no disk)", () => {
    expect(message(() => parseSamplerSummary("", "f"))).toBe("f: is not a node sampler summary: no 'window' line first");
    expect(message(() => parseSamplerSummary(SUMMARY.replace(" cpus=2", ""), "f"))).toBe("f: line 1: 'cpus' must be a number, got nothing");
    const cpuOnly = ["window seconds=1.00 snapshots=2 interval=1 cpus=1 disks=0 omitted=0", SUMMARY.split("\n")[1]].join("\n");
    expect(parseSamplerSummary(cpuOnly, "f")).toMatchObject({ disks: [], nfs: [], cpu: { busy: { mean: 37.5, max: 45 } } });
  });

  it("each of: fewer than 2 snapshots, a window of 0 s, 0 s measured, alone means no figures", () => {
    for (const head of [
      "window seconds=1.00 measured=1.00 snapshots=1 interval=1 cpus=1 disks=0 omitted=0",
      "window seconds=0.00 measured=1.00 snapshots=3 interval=1 cpus=1 disks=0 omitted=0",
      "window seconds=1.00 measured=0.00 snapshots=3 interval=1 cpus=1 disks=0 omitted=0 dropped=2 why=cpu",
    ])
      expect(parseSamplerSummary(`${head}\n`, "f")).toMatchObject({ disks: [], nfs: [] });
  });

  it("device names the sampler prints: letters, digits, '_', '-', '.', ':' after the first", () => {
    for (const name of ["nvme1n1", "dm-0", "md_1", "sda.1", "xvd:a", "_x", "-x"])
      expect(parseSamplerSummary(SUMMARY.replace("name=vda", `name=${name}`), "f").disks[0].name).toBe(name);
  });

  const NFS_HEAD = "window seconds=1.00 measured=1.00 snapshots=2 interval=1 cpus=1 disks=1 omitted=0 dropped=0 nfs=2";
  const CPU =
    "cpu user=30.00/30.00 nice=0.00/0.00 system=10.00/10.00 idle=50.00/50.00 iowait=5.00/5.00 irq=0.00/0.00 softirq=2.50/2.50 steal=2.50/2.50 busy=45.00/45.00";
  const DISK = "disk name=vda readOps=1/1 writeOps=1/1 readBytes=1/1 writeBytes=1/1 queueDepth=1/1 busy=1/1";
  const nfsLine = (mount: string) =>
    `nfs mount=${mount} readOps=1/1 writeOps=1/1 readBytes=1/1 writeBytes=1/1 readRtt=1/1 writeRtt=1/1 readExe=1/1 writeExe=1/1`;

  it("disks then NFS mounts: line numbers count the disks; every line after the first nfs must be one", () => {
    const ok = parseSamplerSummary([NFS_HEAD, CPU, DISK, nfsLine("/a"), nfsLine("/b/")].join("\n"), "f");
    expect([ok.disks.map((d) => d.name), ok.nfs.map((n) => n.mount)]).toEqual([["vda"], ["/a", "/b/"]]);
    expect(message(() => parseSamplerSummary([NFS_HEAD, CPU, DISK, nfsLine("/a"), DISK].join("\n"), "f"))).toBe(
      `f: line 5: expected an 'nfs' line, got ${JSON.stringify(DISK)}`,
    );
    expect(message(() => parseSamplerSummary([NFS_HEAD, CPU, DISK, nfsLine("/a"), nfsLine("rel")].join("\n"), "f"))).toBe(
      "f: line 5: an nfs line needs mount=<directory>",
    );
    expect(
      message(() => parseSamplerSummary([NFS_HEAD, CPU, DISK, nfsLine("/a"), nfsLine("/b").replace("mount=/b ", "")].join("\n"), "f")),
    ).toBe("f: line 5: an nfs line needs mount=<directory>");
    expect(
      message(() =>
        parseSamplerSummary([NFS_HEAD, CPU, DISK, nfsLine("/a"), nfsLine("/b").replace("readRtt=1/1", "readRtt=x")].join("\n"), "f"),
      ),
    ).toBe(`f: line 5: 'readRtt' must be <mean>/<max>, got "x"`);
  });

  it("nfsResource: every other character a dash, trailing dashes dropped", () => {
    expect([nfsResource("/data"), nfsResource("/var/lib/kafka/"), nfsResource("/a.b//"), nfsResource("/x_y-z")]).toEqual([
      "nfs-data",
      "nfs-var-lib-kafka",
      "nfs-a-b",
      "nfs-x_y-z",
    ]);
  });
});
