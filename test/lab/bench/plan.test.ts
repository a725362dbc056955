/** lab/bench/plan.ts: the options checked with rules.ts' own rules, the sizes for the free disk, the one BenchSpec. */
import { resolve } from "../../../components/bench/rules";
import { checkOptions, localProblems, localSpec, sizeForDisk, SpaceError, type LocalRequest } from "../../../lab/bench/plan";

const GiB = 2 ** 30;
const MiB = 2 ** 20;
const disk = (freeBytes: number) => ({ dir: "/data", freeBytes, fileSystem: "ext4", device: "/dev/vda" });
const request = (o: Parameters<typeof checkOptions>[0]): LocalRequest => {
  const r = checkOptions(o);
  if (r.request === undefined) throw new Error(r.problems.join("\n"));
  return r.request;
};
const where = (free: string) => `${free} free on /dev/vda (ext4) at /data, of which lab bench local fills at most half`;

describe("checkOptions", () => {
  it("defaults: every tool, profile seed, 3 repetitions (1 with --quick), a throwaway server", () => {
    expect(checkOptions({})).toEqual({
      request: { tools: ["fio", "ioping", "pgbench"], profile: "seed", quick: false, reps: 3, pg: undefined, name: "local" },
      problems: [],
    });
    expect(checkOptions({ quick: true }).request).toEqual({
      tools: ["fio", "ioping", "pgbench"],
      profile: "seed",
      quick: true,
      reps: 1,
      pg: undefined,
      name: "local",
    });
  });

  it("tools in run order whatever order they are typed in; --reps as typed; --pg parsed", () => {
    expect(
      checkOptions({
        tools: " pgbench , fio",
        reps: "5",
        profile: "suite",
        pg: "postgresql://bob:s%40cret@db.example:5433/bench",
        name: "ext4-nvme0",
      }).request,
    ).toEqual({
      tools: ["fio", "pgbench"],
      profile: "suite",
      quick: false,
      reps: 5,
      pg: { host: "db.example", port: 5433, user: "bob", database: "bench", password: "s@cret" },
      name: "ext4-nvme0",
    });
  });

  it("--name: one path segment a stack name can be", () => {
    const rule = "1-40 lowercase letters, digits or '-', starting and ending with a letter or digit";
    for (const ok of ["ext4", "t", "tmpfs-2", "a".repeat(40)]) expect(checkOptions({ name: ok }).problems).toEqual([]);
    for (const bad of ["", "Ext4", "-x", "x-", "a/b", "..", "a".repeat(41)])
      expect(checkOptions({ name: bad }).problems).toEqual([`'--name' must be ${rule}, got ${JSON.stringify(bad)}`]);
  });

  it("every problem at once, named by its flag, with rules.ts' rules; a password never shown", () => {
    expect(checkOptions({ tools: "fio,bogus", reps: "0", profile: "fast", pg: "http://bob:secret@x/db" }).problems).toEqual([
      `'--tools' must be a non-empty list of distinct tools among fio, ioping, pgbench, got "fio,bogus"`,
      "'--reps' must be an integer from 1 to 20, got 0",
      `'--profile' must be one of seed, latency, suite, got "fast"`,
      `'--pg' must be a PostgreSQL URL postgresql://[user[:password]@]host[:port]/database[?sslmode=…] (or ?host=<socket directory>), got "http://bob:secret@x/db"`,
      `'--pg' must be given only when --tools includes pgbench, got "http://bob:secret@x/db"`,
    ]);
    expect(checkOptions({ reps: "x", tools: "fio,fio", pg: "postgresql://bob:secret@x/db?sslmode=bogus" }).problems).toEqual([
      `'--tools' must be a non-empty list of distinct tools among fio, ioping, pgbench, got "fio,fio"`,
      `'--reps' must be an integer from 1 to 20, got "x"`,
      `'--pg' must be a PostgreSQL URL postgresql://[user[:password]@]host[:port]/database[?sslmode=…] (or ?host=<socket directory>), sslmode one of disable, allow, prefer, require, verify-ca, verify-full, got "postgresql://bob:***@x/db?sslmode=bogus"`,
      `'--pg' must be given only when --tools includes pgbench, got "postgresql://bob:***@x/db?sslmode=bogus"`,
    ]);
    expect(checkOptions({ reps: 21 }).problems).toEqual(["'--reps' must be an integer from 1 to 20, got 21"]);
  });
});

describe("sizeForDisk", () => {
  it("--quick's sizes, and the published ones when half the free space holds them", () => {
    expect(sizeForDisk(request({ quick: true }), disk(100 * GiB))).toEqual({ fioSize: "64M", pgbenchScale: 1, notes: [] });
    expect(sizeForDisk(request({}), disk(100 * GiB))).toEqual({ fioSize: "8G", pgbenchScale: 1000, notes: [] });
    expect(sizeForDisk(request({ profile: "latency", tools: "fio" }), disk(100 * GiB))).toEqual({
      fioSize: "12G",
      pgbenchScale: 1000,
      notes: [],
    });
  });

  it("scales the fio file and the pgbench scale to half the free space, the cluster's 64 MiB aside, and says so", () => {
    // (5 GiB - 64 MiB): a 4G file; 70% of it for 16 MB a scale unit: scale 231.
    expect(sizeForDisk(request({}), disk(10 * GiB))).toEqual({
      fioSize: "4G",
      pgbenchScale: 231,
      notes: [`fio file 8G → 4G: ${where("10 GiB")}`, `pgbench scale 1000 → 231: ${where("10 GiB")}`],
    });
    // Without pgbench nothing is kept for a cluster: 5G; the suite file then holds 25 s of 214 MB/s.
    expect(sizeForDisk(request({ profile: "suite", tools: "fio" }), disk(10 * GiB))).toEqual({
      fioSize: "5G",
      expectedBandwidthMBps: 214,
      pgbenchScale: 1000,
      notes: [
        `fio file 12G → 5G: ${where("10 GiB")}`,
        "suite: the 5G file holds 25 s of 214 MB/s, not of 512: a faster disk passes over it more often in the sequential jobs",
      ],
    });
  });

  it("with --pg the tables are the server's: no room kept for a cluster, the scale stays, the note says the server's disk is unchecked", () => {
    expect(sizeForDisk(request({ pg: "postgresql://u@h/db" }), disk(10 * GiB))).toEqual({
      fioSize: "5G",
      pgbenchScale: 1000,
      notes: [
        `fio file 8G → 5G: ${where("10 GiB")}`,
        "pgbench scale 1000: its tables (14.9 GiB) go to the --pg server, whose disk is not checked",
      ],
    });
  });

  it("too little space is an error naming every shortfall, before anything starts", () => {
    const fail = (o: Parameters<typeof checkOptions>[0], free: number) => {
      try {
        sizeForDisk(request(o), disk(free));
      } catch (e) {
        expect(e).toBeInstanceOf(SpaceError);
        return (e as Error).message;
      }
      throw new Error("no SpaceError");
    };
    expect(fail({}, 2 * GiB)).toBe(
      `too little free space for lab bench local: ${where("2 GiB")}; the 1G fio file and 64 MiB for the throwaway PostgreSQL cluster need 2.1 GiB free. Free some space or pick another --dir, or run --quick.`,
    );
    expect(fail({ quick: true }, 200 * MiB)).toBe(
      `too little free space for lab bench local --quick: ${where("200 MiB")}; the 64M fio file and 64 MiB for the throwaway PostgreSQL cluster need 256 MiB free. Free some space or pick another --dir.`,
    );
    expect(fail({ quick: true }, 100 * MiB)).toBe(
      `too little free space for lab bench local --quick: ${where("100 MiB")}; the 64M fio file and 64 MiB for the throwaway PostgreSQL cluster need 256 MiB free; pgbench scale 1 (15.3 MiB of tables, at most 70% of the room they get) and 64 MiB for the throwaway PostgreSQL cluster need 171.6 MiB free. Free some space or pick another --dir.`,
    );
  });
});

describe("localSpec and localProblems", () => {
  const server = { host: "127.0.0.1", port: 5432, user: "postgres", database: "postgres", maxConnections: 100 };

  it("--quick: the rules' defaults replaced by the quick durations; valid but for the Job-only arguments", () => {
    const req = request({ quick: true });
    const spec = localSpec(req, sizeForDisk(req, disk(100 * GiB)), "r1", server);
    expect(localProblems(spec)).toEqual([]);
    const s = resolve(spec);
    expect([s.reps, s.fio.size, s.fio.runtimeSeconds, s.fio.rampSeconds, s.ioping.count, s.ioping.intervalMs]).toEqual([
      1,
      "64M",
      2,
      1,
      20,
      50,
    ]);
    expect(s.pgbench).toEqual({
      scale: 1,
      clients: 4,
      threads: 2,
      durationSeconds: 3,
      // The published method (--foreign-keys, -r) in a rehearsal too.
      foreignKeys: true,
      perStatementLatencies: true,
      progressSeconds: 0,
      settleSeconds: 1,
      init: "auto",
      readyTimeoutSeconds: 300,
      initTimeoutSeconds: 3600,
    });
  });

  it("a full run: the published settings (rules.ts' BENCH_DEFAULTS)", () => {
    const req = request({});
    const s = resolve(localSpec(req, sizeForDisk(req, disk(100 * GiB)), "r1", server));
    expect([s.reps, s.fio.size, s.ioping.count, s.ioping.intervalMs]).toEqual([3, "8G", 100, 1000]);
    expect([s.pgbench.scale, s.pgbench.clients, s.pgbench.threads, s.pgbench.durationSeconds, s.pgbench.settleSeconds]).toEqual([
      1000, 20, 2, 300, 30,
    ]);
  });

  it("a --pg server too small for the clients is a problem of --pg", () => {
    const req = request({ pg: "postgresql://u@h/db" });
    const spec = localSpec(req, sizeForDisk(req, disk(100 * GiB)), "r1", { ...server, maxConnections: 25 });
    expect(localProblems(spec)).toEqual([
      `'--pg' must be a server with max_connections of at least 30 for 20 pgbench clients (10 kept free), got "max_connections 25"`,
    ]);
  });
});
