/**
 * The node sampler (components/bench/scripts/sampler.sh): its arithmetic on fixed snapshots, then
 * the real thing on this machine beside a real fio run, through lib.sh as the Jobs run it, and its
 * share of the container log. shellcheck runs in test/components/bench/scripts.test.ts (every
 * script of the directory).
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { collectSamples } from "../../../../components/bench/collect";
import { renderFioJobFiles } from "../../../../components/bench/profiles";
import { BENCH_SCRIPTS_DIR } from "../../../../components/bench/scripts";
import { CRI_LINE_PREFIX_BYTES, IOPING_LOG_BYTES_PER_REP, IOPING_LOG_BYTES_PER_REQUEST } from "../../../../components/bench/sizing";
import { parseToolOutput } from "../../../../core/parsers";
import { cutUtilBlocks, parseSamplerSummary, SAMPLER_LOG_BYTES_PER_REP, CPU_FIELDS } from "../../../../core/parsers/sampler";
import { runScript } from "../support";

const SAMPLER = path.join(BENCH_SCRIPTS_DIR, "sampler.sh");
const FIXTURES = path.join(__dirname, "../../../fixtures/sampler");
const criBytes = (log: string) =>
  log
    .split("\n")
    .filter((l, i, all) => i < all.length - 1 || l !== "")
    .reduce((n, l) => n + CRI_LINE_PREFIX_BYTES + Buffer.byteLength(l) + 1, 0);

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sampler-"));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const summarize = (snapshots: string) => spawnSync("/bin/sh", [SAMPLER, "summarize"], { input: snapshots, encoding: "utf8" });

describe("sampler.sh summarize: the arithmetic on fixed snapshots", () => {
  it("means over the window from its first and last snapshot, maxima of the intervals, idle disks left out", () => {
    const r = summarize(fs.readFileSync(path.join(FIXTURES, "snapshots.txt"), "utf8"));
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(fs.readFileSync(path.join(FIXTURES, "summary.txt"), "utf8"));
    // By hand: interval 1 user 60/200 ticks = 30 %, interval 2 20/200 = 10 %, window 80/400 = 20 %;
    // vda reads 500 then 100 a second, 600 in 2 s = 300/s; weighted ms 2000 then 500 = queue 2.0 and 0.5, 1.25 over the window.
    expect(r.stdout).toContain("cpu user=20.00/30.00 ");
    expect(r.stdout).toContain("disk name=vda readOps=300.00/500.00 ");
    expect(r.stdout).toContain("queueDepth=1.25/2.00 busy=40.00/50.00");
  });

  it("drops an interval in which a counter went down (iowait per proc.rst, a wrapped diskstats field 10 per iostats.rst), says so, and means over the rest", () => {
    const r = summarize(fs.readFileSync(path.join(FIXTURES, "snapshots-glitch.txt"), "utf8"));
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(fs.readFileSync(path.join(FIXTURES, "summary-glitch.txt"), "utf8"));
    // By hand: intervals 1, 2 and 5 are kept (3 s, 600 ticks); interval 3's iowait goes 20 → 15,
    // interval 4's vda field 10 goes 4294967000 → 200. user (60+20+20)/600 = 16.67 %;
    // vda reads (500+100+100)/3 s = 233.33/s, weighted ms (2000+500+500)/3000 = queue 1.00.
    expect(r.stdout.split("\n")[0]).toBe(
      "window seconds=5.00 measured=3.00 snapshots=6 interval=1 cpus=2 disks=1 omitted=0 dropped=2 why=cpu,disk",
    );
    expect(r.stdout).toContain("cpu user=16.67/30.00 ");
    expect(r.stdout).toContain("disk name=vda readOps=233.33/500.00 ");
    expect(r.stdout).toContain("queueDepth=1.00/2.00 busy=36.67/50.00");
  });

  it("a window whose every interval was dropped is the window line alone, saying so", () => {
    const snaps = ["N 1", "T 1.00", "C 10 0 0 10 5 0 0 0", "E", "T 2.00", "C 20 0 0 20 4 0 0 0", "E"].join("\n") + "\n";
    expect(summarize(snaps).stdout).toBe(
      "window seconds=1.00 measured=0.00 snapshots=2 interval=1 cpus=1 disks=0 omitted=0 dropped=1 why=cpu\n",
    );
  });

  it("reads each NFS mount of /proc/self/mountstats (kernel format) and sums it up: operations, server bytes, RTT and execute time per operation", () => {
    // A fake /proc: two snapshots 1 s apart, the NFS counters from test/fixtures/sampler/proc
    // (written in the format fs/nfs/super.c and net/sunrpc/stats.c print; see the README there).
    const proc = path.join(tmp, "proc");
    fs.mkdirSync(proc);
    const snap = (uptime: string, cpu: string, mountstats: string) => {
      fs.writeFileSync(path.join(proc, "uptime"), `${uptime} 1000.00\n`);
      fs.writeFileSync(path.join(proc, "stat"), `cpu  ${cpu} 0 0\ncpu0 ${cpu} 0 0\n`);
      fs.writeFileSync(path.join(proc, "diskstats"), " 259 0 nvme0n1 10 0 80 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n");
      const r = spawnSync("/bin/sh", [SAMPLER, "snapshot"], {
        encoding: "utf8",
        env: {
          ...process.env,
          LAB_PROC: proc,
          LAB_SYS_BLOCK: path.join(tmp, "none"),
          LAB_MOUNTSTATS: path.join(FIXTURES, "proc", mountstats),
        },
      });
      expect(r.stderr).toBe("");
      return r.stdout;
    };
    const first = snap("10.00", "100 0 50 800 10 0 5 5", "mountstats.1");
    expect(first.split("\n").filter((l) => l.startsWith("M "))).toEqual([
      "M /data 100000 50000 60000 40000 40000 48000 409600000 163840000",
      "M /mnt/idle 0 0 0 0 0 0 0 0",
    ]);
    const second = snap("11.00", "160 0 70 900 20 0 10 10", "mountstats.2");
    const r = summarize(`N 1\n${first}${second}`);
    // 3000 READs of 4 KiB (RTT 1500 ms over them: 0.5 ms each, execute 0.6 ms) and 1000 WRITEs
    // (1.0 and 1.2 ms) in the second; the idle mount did nothing and is left out.
    expect(r.stdout).toBe(
      [
        "window seconds=1.00 measured=1.00 snapshots=2 interval=1 cpus=1 disks=0 omitted=0 dropped=0 nfs=1",
        "cpu user=30.00/30.00 nice=0.00/0.00 system=10.00/10.00 idle=50.00/50.00 iowait=5.00/5.00 irq=0.00/0.00 softirq=2.50/2.50 steal=2.50/2.50 busy=45.00/45.00",
        "nfs mount=/data readOps=3000.00/3000.00 writeOps=1000.00/1000.00 readBytes=12288000/12288000 writeBytes=4096000/4096000 readRtt=0.50/0.50 writeRtt=1.00/1.00 readExe=0.60/0.60 writeExe=1.20/1.20",
        "",
      ].join("\n"),
    );
    fs.writeFileSync(path.join(tmp, "nfs-summary.txt"), r.stdout);
    expect(parseSamplerSummary(r.stdout, "nfs").nfs).toEqual([
      {
        mount: "/data",
        figures: {
          readOps: { mean: 3000, max: 3000 },
          writeOps: { mean: 1000, max: 1000 },
          readBytes: { mean: 12288000, max: 12288000 },
          writeBytes: { mean: 4096000, max: 4096000 },
          readRtt: { mean: 0.5, max: 0.5 },
          writeRtt: { mean: 1, max: 1 },
          readExe: { mean: 0.6, max: 0.6 },
          writeExe: { mean: 1.2, max: 1.2 },
        },
      },
    ]);
    // An NFS counter that goes down (a remount) drops the interval like a disk's.
    const back = snap("12.00", "220 0 90 1000 30 0 15 15", "mountstats.1");
    expect(summarize(`N 1\n${first}${second}${back}`).stdout.split("\n")[0]).toBe(
      "window seconds=2.00 measured=1.00 snapshots=3 interval=1 cpus=1 disks=0 omitted=0 dropped=1 why=disk nfs=1",
    );
  });

  it("shows the 4 disks with the most operations and counts the others", () => {
    const disk = (name: string, ops: number) => `D ${name} ${ops} 0 ${ops * 8} 0 0 0 0 0 0 ${ops} ${ops}`;
    const names = ["sda", "sdb", "sdc", "sdd", "sde", "sdf"];
    const snap = (t: number, k: number) => [
      `T ${t}.00`,
      `C ${k * 100} 0 0 ${k * 100} 0 0 0 0 0 0`,
      ...names.map((n, i) => disk(n, k * (i + 1) * 10)),
      "E",
    ];
    const r = summarize(["N 4", ...snap(1, 1), ...snap(2, 2)].join("\n") + "\n");
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toBe("window seconds=1.00 measured=1.00 snapshots=2 interval=1 cpus=4 disks=4 omitted=2 dropped=0");
    expect(lines.slice(2).map((l) => l.split(" ")[1])).toEqual(["name=sdf", "name=sde", "name=sdd", "name=sdc"]);
  });

  it("a window without two snapshots, or without time between them, is the window line alone", () => {
    expect(summarize("N 2\nT 5.00\nC 1 0 0 1 0 0 0 0\nE\n").stdout).toBe(
      "window seconds=0.00 measured=0.00 snapshots=1 interval=1 cpus=2 disks=0 omitted=0 dropped=0\n",
    );
    expect(summarize("N 2\nT 5.00\nC 1 0 0 1 0 0 0 0\nE\nT 5.00\nC 2 0 0 2 0 0 0 0\nE\n").stdout).toBe(
      "window seconds=0.00 measured=0.00 snapshots=2 interval=1 cpus=2 disks=0 omitted=0 dropped=0\n",
    );
  });

  it("refuses a usage it does not know and an interval that is not a positive number", () => {
    expect(spawnSync("/bin/sh", [SAMPLER], { encoding: "utf8" })).toMatchObject({
      status: 2,
      stderr: "usage: sh sampler.sh run OUT STOP PARENT | sh sampler.sh summarize | sh sampler.sh snapshot\n",
    });
    const r = spawnSync("/bin/sh", [SAMPLER, "run", path.join(tmp, "o"), path.join(tmp, "s"), "1"], {
      encoding: "utf8",
      env: { ...process.env, LAB_SAMPLER_INTERVAL: "0" },
    });
    expect(r).toMatchObject({ status: 2, stderr: "LAB_SAMPLER_INTERVAL must be a positive number of seconds, got '0'\n" });
  });

  it("its summary stays within SAMPLER_LOG_BYTES_PER_REP of container log at its widest (4 disks, long names, absurd rates)", () => {
    const big = 10 ** 12;
    const names = ["nvme10n1p1abcdef", "nvme11n1p1abcdef", "nvme12n1p1abcdef", "nvme13n1p1abcdef", "nvme14n1p1abcdef"];
    const snap = (t: number, k: number) => [
      `T ${t}.00`,
      `C ${k * 100} 0 0 ${k * 100} 0 0 0 0 0 0`,
      ...names.map((n) => `D ${n} ${k * 9e7} 0 ${k * big} 0 ${k * 9e7} 0 ${k * big} 0 0 ${k * 1000} ${k * 1e8}`),
      "E",
    ];
    const summary = summarize(["N 192", ...snap(100, 1), ...snap(101, 2)].join("\n") + "\n").stdout;
    expect(summary.split("\n")[0]).toBe("window seconds=1.00 measured=1.00 snapshots=2 interval=1 cpus=192 disks=4 omitted=1 dropped=0");
    // The widest window line also says why intervals were dropped (cpu,disk): 13 bytes more.
    const block = `=== LAB-UTIL-BEGIN tool=pgbench rep=20 ===\n${summary.replace("dropped=0", "dropped=0 why=cpu,disk")}=== LAB-UTIL-END tool=pgbench rep=20 ===\n`;
    expect(criBytes(block)).toBe(1571);
    expect(criBytes(block)).toBeLessThanOrEqual(SAMPLER_LOG_BYTES_PER_REP);
    expect(parseSamplerSummary(summary, "widest").disks).toHaveLength(4);
    // With NFS mounts: 2 at most, then 3 lines of mounts and disks together, as wide as they come.
    const mounts = ["/var/lib/kafka/data-0-abcdef", "/var/lib/kafka/data-1-abcdef", "/var/lib/kafka/data-2-abcdef"];
    const nfsSnap = (t: number, k: number) => [
      ...snap(t, k).slice(0, -1),
      ...mounts.map((m) => `M ${m} ${k * 9e7} ${k * 9e11} ${k * 9e11} ${k * 9e7} ${k * 9e11} ${k * 9e11} ${k * big} ${k * big}`),
      "E",
    ];
    const withNfs = summarize(["N 192", ...nfsSnap(100, 1), ...nfsSnap(101, 2)].join("\n") + "\n").stdout;
    expect(withNfs.split("\n")[0]).toBe(
      "window seconds=1.00 measured=1.00 snapshots=2 interval=1 cpus=192 disks=1 omitted=4 dropped=0 nfs=2",
    );
    const nfsBlock = `=== LAB-UTIL-BEGIN tool=pgbench rep=20 ===\n${withNfs.replace("dropped=0", "dropped=0 why=cpu,disk")}=== LAB-UTIL-END tool=pgbench rep=20 ===\n`;
    expect(criBytes(nfsBlock)).toBe(1430);
    expect(criBytes(nfsBlock)).toBeLessThanOrEqual(SAMPLER_LOG_BYTES_PER_REP);
    expect(parseSamplerSummary(withNfs, "widest").nfs).toHaveLength(2);
  });
});

/** The device (major:minor) a directory lives on, as /proc/diskstats names it, or undefined (tmpfs, overlay). */
function diskOf(dir: string): string | undefined {
  const r = spawnSync("stat", ["-c", "%Hd:%Ld", dir], { encoding: "utf8" });
  const id = r.stdout.trim();
  const line = fs
    .readFileSync("/proc/diskstats", "utf8")
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find((f) => `${f[0]}:${f[1]}` === id);
  return line?.[2];
}

describe("sampler.sh run, for real on this machine beside a local fio run", () => {
  it("records the node's CPU (adding up to 100 %) and the disk fio worked on (non-zero operations), stopped at once by lib.sh's signal", async () => {
    // A background sampler, as lib.sh starts it, and fio on a file of this machine's disk.
    const dir = fs.mkdtempSync(path.join(os.homedir() === "/" ? "/var/tmp" : os.tmpdir(), "sampler-fio-"));
    try {
      const out = path.join(tmp, "util.txt");
      const stop = `${out}.stop`;
      const sampler = spawn("/bin/sh", [SAMPLER, "run", out, stop, String(process.pid)], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      sampler.stderr.on("data", (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => sampler.on("exit", (code) => resolve(code)));
      const fio = spawnSync(
        "fio",
        [
          "--name=sampled",
          `--filename=${path.join(dir, "f")}`,
          "--size=32M",
          "--rw=randrw",
          "--bs=4k",
          "--direct=1",
          "--ioengine=libaio",
          "--iodepth=16",
          "--time_based",
          "--runtime=3",
          "--output-format=terse",
        ],
        { encoding: "utf8" },
      );
      expect(fio.status).toBe(0);
      const stopAt = Date.now();
      fs.writeFileSync(stop, "");
      sampler.kill("SIGUSR1");
      expect(await exited).toBe(0);
      expect(Date.now() - stopAt).toBeLessThan(900); // the signal cut the one-second sleep short
      expect(stderr).toBe("");
      expect(fs.existsSync(`${out}.snapshots`)).toBe(false);

      const s = parseSamplerSummary(fs.readFileSync(out, "utf8"), out);
      expect(s.cpus).toBe(os.cpus().length);
      expect(s.snapshots).toBeGreaterThanOrEqual(4);
      expect(s.windowSeconds).toBeGreaterThanOrEqual(3);
      expect(s.windowSeconds).toBeLessThan(10);
      const cpu = s.cpu!;
      // The eight /proc/stat fields share all of the CPU time: printed to 2 decimals, they add up to 100 ± 0.04.
      const sum = CPU_FIELDS.filter((f) => f !== "busy").reduce((n, f) => n + cpu[f].mean, 0);
      expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.04);
      expect(Math.abs(cpu.busy.mean - (100 - cpu.idle.mean - cpu.iowait.mean))).toBeLessThanOrEqual(0.02);
      for (const f of CPU_FIELDS) {
        expect(cpu[f].mean).toBeGreaterThanOrEqual(0);
        expect(cpu[f].max).toBeGreaterThanOrEqual(cpu[f].mean - 0.01);
        expect(cpu[f].max).toBeLessThanOrEqual(100);
      }
      // fio's disk did work: reads and writes, in operations and bytes (4 KiB each, so bytes/ops ≈ 4096).
      const device = diskOf(dir);
      const busy = device === undefined ? s.disks[0] : s.disks.find((d) => d.name === device);
      expect(busy).toBeDefined();
      const f = busy!.figures;
      expect(f.readOps.mean).toBeGreaterThan(0);
      expect(f.writeOps.mean).toBeGreaterThan(0);
      expect(f.readBytes.mean).toBeGreaterThan(0);
      expect(f.writeBytes.mean).toBeGreaterThan(0);
      expect(f.readOps.max).toBeGreaterThanOrEqual(f.readOps.mean);
      expect(f.queueDepth.mean).toBeGreaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes nothing when its parent goes away first (a failed benchmark)", async () => {
    const out = path.join(tmp, "util.txt");
    const parent = spawn("/bin/sh", ["-c", "sleep 1"]);
    const sampler = spawn("/bin/sh", [SAMPLER, "run", out, `${out}.stop`, String(parent.pid)], {
      stdio: "ignore",
      env: { ...process.env, LAB_SAMPLER_INTERVAL: "0.2" },
    });
    const code = await new Promise<number | null>((resolve) => sampler.on("exit", (c) => resolve(c)));
    expect(code).toBe(0);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});

describe("fio.sh with the sampler (lib.sh), collected as a Job's log is", () => {
  it("each repetition's window in its result marker, its summary after it, utilization samples with the repetition's metadata", () => {
    for (const [name, text] of Object.entries(renderFioJobFiles())) fs.writeFileSync(path.join(tmp, name), text);
    const r = runScript(
      path.join(BENCH_SCRIPTS_DIR, "fio.sh"),
      { FIO_PROFILE: "seed", FIO_JOB_DIR: tmp, FIO_DIR: path.join(tmp, "d"), FIO_SIZE: "16M", REPS: "2" },
      tmp,
    );
    expect(r.status).toBe(0);
    expect(cutUtilBlocks(r.stdout, "fio.sh").map((b) => [b.tool, b.rep])).toEqual([
      ["fio", 1],
      ["fio", 2],
    ]);
    const { samples, raws } = collectSamples(
      r.stdout,
      { tool: "fio", reps: 2, source: "job/b-fio-r1", run: { stack: "dev", runId: "r1" } },
      parseToolOutput,
    );
    expect(raws.map((x) => x.name)).toEqual(["fio-rep1.json", "fio-rep2.json", "fio-rep1.util.txt", "fio-rep2.util.txt"]);
    const iops = samples.find((s) => s.metric === "fio.read.iops" && s.metadata.rep === 2)!;
    const busy = samples.find((s) => s.metric === "util.node.cpuBusy" && s.metadata.rep === 2)!;
    expect(iops.metadata.repStart).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    for (const k of ["stack", "runId", "rep", "repStart", "repEnd", "fioProfile"]) expect(busy.metadata[k]).toBe(iops.metadata[k]);
    expect(busy.metadata).toMatchObject({ tool: "fio", utilSource: "node-sampler", limit: 100, limitLabel: "node CPU busy (node-wide)" });
    // With LAB_SAMPLER=off the markers keep their times and no summary follows.
    const off = runScript(
      path.join(BENCH_SCRIPTS_DIR, "fio.sh"),
      { FIO_PROFILE: "seed", FIO_JOB_DIR: tmp, FIO_DIR: path.join(tmp, "d"), FIO_SIZE: "1M", REPS: "1", LAB_SAMPLER: "off" },
      tmp,
    );
    expect(off.status).toBe(0);
    expect(off.stdout).toMatch(/^=== LAB-RESULT-BEGIN tool=fio rep=1 profile=seed version=\S+ start=\S+Z end=\S+Z ===$/m);
    expect(off.stdout).not.toContain("LAB-UTIL");
  });

  it("an ioping repetition's log stays within sizing.ts's per-repetition bound with the sampler's summary in it", () => {
    const dir = path.join(tmp, "x".repeat(60), "ioping");
    const log = (count: number, sampler: "on" | "off") => {
      const r = runScript(
        path.join(BENCH_SCRIPTS_DIR, "ioping.sh"),
        { IOPING_DIR: dir, IOPING_COUNT: String(count), IOPING_INTERVAL: "0", REPS: "1", LAB_SAMPLER: sampler },
        tmp,
      );
      expect(r.status).toBe(0);
      return `${r.stderr}${r.stdout}`;
    };
    const small = criBytes(log(20, "off"));
    const perRequest = (criBytes(log(120, "off")) - small) / 100;
    expect(perRequest).toBeLessThanOrEqual(IOPING_LOG_BYTES_PER_REQUEST);
    // What a repetition adds beyond its requests, plus the sampler's widest summary, fits the bound.
    expect(small - 20 * perRequest + SAMPLER_LOG_BYTES_PER_REP).toBeLessThanOrEqual(IOPING_LOG_BYTES_PER_REP);
    // And the real summary is within its own bound.
    const withSampler = log(20, "on");
    const [block] = cutUtilBlocks(withSampler, "ioping.sh");
    expect(criBytes(`=== LAB-UTIL-BEGIN tool=ioping rep=1 ===\n${block.text}=== LAB-UTIL-END tool=ioping rep=1 ===\n`)).toBeLessThanOrEqual(
      SAMPLER_LOG_BYTES_PER_REP,
    );
  });
});
