/** BenchmarkRun's rules and defaults (components/bench/rules.ts): exact messages, every problem at once, named by argument. */
import * as pulumi from "@pulumi/pulumi";
import { formatArgProblem } from "../../../core/errors";
import { throwIfInvalid } from "../../../components/lib/args";
import { DEFAULT_PGBENCH_IMAGE } from "../../../components/bench/images";
import {
  BENCH_DEFAULTS,
  DEFAULT_RESOURCES,
  PGBENCH_BYTES_PER_SCALE,
  PG_VOLUME_SHARE,
  REPS_MAX,
  problems,
  resolve,
  type BenchSpec,
} from "../../../components/bench/rules";
import { ALL, BASE, PG, TOOLS_IMAGE } from "./support";

const PGBENCH: BenchSpec = { name: "pgbench", namespace: "bench", runId: "r1", zone: "us-east-1a", tools: ["pgbench"], postgres: PG };

const lines = (spec: BenchSpec) => problems(spec).map((p) => formatArgProblem(p));

describe("defaults, in one table", () => {
  test("the published pgbench run: -i --foreign-keys -s 1000, -r -c 20 -j 2 -T 300, a Guaranteed 2 CPU / 8 Gi client; 3 repetitions", () => {
    expect(BENCH_DEFAULTS).toMatchObject({
      pgbenchScale: 1000,
      pgbenchClients: 20,
      pgbenchThreads: 2,
      pgbenchDurationSeconds: 300,
      pgbenchForeignKeys: true,
      pgbenchPerStatementLatencies: true,
      pgbenchProgressSeconds: 0,
      pgbenchSettleSeconds: 30,
      reps: 3,
    });
    expect(DEFAULT_RESOURCES.pgbench).toEqual({ requests: { cpu: "2", memory: "8Gi" }, limits: { cpu: "2", memory: "8Gi" } });
  });

  test("resolve applies every default and derives the fio sizes", () => {
    expect(resolve(ALL)).toEqual({
      name: "same-az",
      namespace: "bench",
      runId: "r1",
      zone: "us-east-1a",
      nodeSelector: {},
      tools: ["fio", "ioping", "pgbench"],
      storageClass: "fsx-ontap-san",
      pvcSizeGiB: 64,
      reps: 3,
      fio: {
        profile: "seed",
        size: "8G",
        sizeBytes: 8 * 2 ** 30,
        runtimeSeconds: 60,
        rampSeconds: 10,
        expectedBandwidthMBps: 512,
        seedRepSeconds: 1200,
        layoutSeconds: 68, // ceil(4 × 8 GiB / 512 MB/s)
      },
      ioping: { count: 100, intervalMs: 1000, direct: false },
      pgbench: {
        scale: 1000,
        clients: 20,
        threads: 2,
        durationSeconds: 300,
        foreignKeys: true,
        perStatementLatencies: true,
        progressSeconds: 0,
        settleSeconds: 30,
        init: "auto",
        readyTimeoutSeconds: 300,
        initTimeoutSeconds: 3600,
      },
      postgres: { ...PG, port: 5432, maxConnections: 100 },
      toolsImage: TOOLS_IMAGE,
      pgbenchImage: DEFAULT_PGBENCH_IMAGE,
      resources: DEFAULT_RESOURCES,
      deadlineMarginSeconds: 600,
      ttlSecondsAfterFinished: 86400,
    });
  });

  test("tools run in the fixed order fio, ioping, pgbench; suite's file is 25 s of bandwidth", () => {
    expect(resolve({ ...ALL, tools: ["pgbench", "ioping", "fio"] }).tools).toEqual(["fio", "ioping", "pgbench"]);
    // 25 s × 125 MB/s = 3.125 GB = 2.91 GiB → 3G; layout ceil(4 × 3 GiB / 125 MB/s) = 104 s
    expect(resolve({ ...BASE, fioProfile: "suite", expectedBandwidthMBps: 125 }).fio).toMatchObject({ size: "3G", layoutSeconds: 104 });
  });

  test("valid specs have no problem", () => {
    expect(problems(ALL)).toEqual([]);
    expect(problems(PGBENCH)).toEqual([]);
    expect(
      problems({ ...BASE, nodeSelector: { "storage-bench-lab/worker": "2", "node.kubernetes.io/instance-type": "m5.xlarge", empty: "" } }),
    ).toEqual([]);
  });
});

describe("every problem at once, named by argument, other arguments referenced by name", () => {
  test("names, zone, tools, run id, repetitions, fio, ioping, ttl", () => {
    expect(
      lines({
        name: "Same_AZ",
        namespace: "bench",
        runId: "Run 1",
        zone: "",
        tools: ["fio", "fio"],
        toolsImage: "tools:latest",
        reps: 0,
        fioProfile: "fast" as never,
        fioSize: "8GiB",
        expectedBandwidthMBps: -1,
        iopingCount: 1,
        ttlSecondsAfterFinished: 1.5,
      }),
    ).toEqual([
      `'name' must be an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit, got "Same_AZ"`,
      `'zone' must be an availability zone name (e.g. "us-east-1a"), got ""`,
      `'tools' must be a non-empty list of distinct tools among fio, ioping, pgbench, got ["fio","fio"]`,
      `'runId' must be an RFC 1123 label: at most 63 lowercase letters, digits or '-', starting and ending with a letter or digit (e.g. "r1" or "2026-01-15"), got "Run 1"`,
      `'reps' must be an integer from 1 to 20, got 0`,
      `'fioProfile' must be one of seed, latency, suite, got "fast"`,
      `'expectedBandwidthMBps' must be a number of MB/s above 0 and at most 100000, got -1`,
      `'fioSize' must be a whole number with a unit K, M, G or T (fio, binary units; e.g. "8G"), got "8GiB"`,
      `'iopingCount' must be an integer from 2 to 2618, got 1`,
      `'ttlSecondsAfterFinished' must be an integer from 3600 to 31536000 (a finished Job and its log must outlive their collection: 360 of the collector's 10 s polls), got 1.5`,
    ]);
  });

  test("repetitions: one bound, 1–20, for every tool", () => {
    expect(REPS_MAX).toBe(20);
    expect(problems({ ...ALL, reps: 20 })).toEqual([]);
    expect(lines({ ...ALL, reps: 21 })).toEqual([`'reps' must be an integer from 1 to 20, got 21`]);
    expect(lines({ ...PGBENCH, reps: 2.5 })).toEqual([`'reps' must be an integer from 1 to 20, got 2.5`]);
  });

  test("the fio file fits in 90% of the PVC", () => {
    expect(lines({ ...BASE, fioSize: "64G" })).toEqual([`'fioSize' must be at most 90% of 'pvcSizeGiB' (57.6 GiB), got "64G"`]);
    expect(problems({ ...BASE, fioSize: "57G" })).toEqual([]);
    expect(lines({ ...BASE, fioSize: "10G", pvcSizeGiB: 10 })).toEqual([
      `'fioSize' must be at most 90% of 'pvcSizeGiB' (9 GiB), got "10G"`,
    ]);
    expect(lines({ ...BASE, fioProfile: "suite", pvcSizeGiB: 10 })).toEqual([
      `'pvcSizeGiB' must be at least 14 so that the fio file (12G) fills at most 90% of it, got 10`,
    ]);
  });

  test("suite's file holds at least 25 s of the expected bandwidth", () => {
    expect(lines({ ...BASE, fioProfile: "suite", fioSize: "8G" })).toEqual([
      `'fioSize' must be at least 25 s of 'expectedBandwidthMBps' for profile "suite" (25 s × 512 MB/s = 12.8 GB), got "8G"`,
    ]);
    expect(problems({ ...BASE, fioProfile: "latency", fioSize: "8G" })).toEqual([]);
  });

  test("fio and ioping need a StorageClass and a pinned tools image", () => {
    expect(lines({ name: "a", namespace: "b", runId: "r1", zone: "us-east-1a" })).toEqual([
      `'storageClass' must be the name of a StorageClass, got nothing`,
      `'toolsImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest of an image with fio and ioping (build components/bench/image/Dockerfile), got nothing`,
    ]);
    expect(lines({ ...BASE, toolsImage: "storage-bench-tools" })).toEqual([
      `'toolsImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest, got "storage-bench-tools"`,
    ]);
  });

  test("the run id leaves the longest Job name within 63 characters", () => {
    const name = "a-rather-long-benchmark-name"; // 28 + "-pgbench-" (9) → 26 left
    expect(problems({ ...ALL, name, runId: "r".repeat(26) })).toEqual([]);
    expect(lines({ ...ALL, name, runId: "r".repeat(27) })).toEqual([
      `'runId' must be at most 26 characters (Job "a-rather-long-benchmark-name-pgbench-<runId>" must fit in 63), got "${"r".repeat(27)}"`,
    ]);
  });

  test("nodeSelector: Kubernetes label keys and values, never the zone label", () => {
    expect(
      lines({
        ...BASE,
        nodeSelector: {
          "storage-bench-lab/worker": "2",
          "Bad Key": "x",
          "/worker": "1",
          "topology.kubernetes.io/zone": "us-east-1b",
          tier: "-edge",
          long: "v".repeat(64),
        },
      }),
    ).toEqual([
      `'nodeSelector' must be keyed by Kubernetes label keys ([<DNS subdomain>/]<name>, the name 1–63 letters, digits, '-', '_' or '.' between a letter or digit at each end), got "Bad Key"`,
      `'nodeSelector' must be keyed by Kubernetes label keys ([<DNS subdomain>/]<name>, the name 1–63 letters, digits, '-', '_' or '.' between a letter or digit at each end), got "/worker"`,
      `'nodeSelector' must be free of topology.kubernetes.io/zone (the Jobs' zone is 'zone'), got "topology.kubernetes.io/zone"`,
      `'nodeSelector["tier"]' must be a Kubernetes label value (at most 63 letters, digits, '-', '_' or '.' between a letter or digit at each end, or empty), got "-edge"`,
      `'nodeSelector["long"]' must be a Kubernetes label value (at most 63 letters, digits, '-', '_' or '.' between a letter or digit at each end, or empty), got "${"v".repeat(64)}"`,
    ]);
    expect(lines({ ...BASE, nodeSelector: ["worker=2"] as never })).toEqual([
      `'nodeSelector' must be an object of Kubernetes node labels (e.g. {"storage-bench-lab/worker":"2"}), got ["worker=2"]`,
    ]);
  });

  test("resources are Kubernetes CPU and memory quantities", () => {
    expect(
      lines({ ...BASE, resources: { fio: { requests: { cpu: "1 core", memory: "1Gi" }, limits: { cpu: "2Gi", memory: "lots" } } } }),
    ).toEqual([
      `'resources.fio.requests.cpu' must be a Kubernetes CPU quantity (e.g. "1" or "500m"), got "1 core"`,
      `'resources.fio.limits.cpu' must be a Kubernetes CPU quantity (e.g. "1" or "500m"), got "2Gi"`,
      `'resources.fio.limits.memory' must be a Kubernetes memory quantity (e.g. "4Gi"), got "lots"`,
    ]);
    expect(lines({ ...BASE, resources: { fast: DEFAULT_RESOURCES.fio } as never })).toEqual([
      `'resources' must be requests and limits per tool among fio, ioping, pgbench, got {"fast":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"2","memory":"2Gi"}}}`,
    ]);
  });
});

describe("ioping: its JSON output must fit in the container log kubectl logs reads", () => {
  test("the count bound depends on the repetitions: 2618 at 3, 7860 at 1, 389 at 20", () => {
    expect(problems({ ...BASE, tools: ["ioping"], iopingCount: 2618 })).toEqual([]);
    expect(lines({ ...BASE, tools: ["ioping"], iopingCount: 2619 })).toEqual([
      `'iopingCount' must be at most 2618 so that 'reps' 3 repetitions of ioping's JSON (up to 1200 bytes a request) fit in the kubelet's default 10 MiB container log (containerLogMaxSize), which kubectl logs reads, got 2619`,
    ]);
    expect(problems({ ...BASE, tools: ["ioping"], reps: 1, iopingCount: 7860 })).toEqual([]);
    expect(lines({ ...BASE, tools: ["ioping"], reps: 1, iopingCount: 7861 })).toEqual([
      `'iopingCount' must be at most 7860 so that 'reps' 1 repetitions of ioping's JSON (up to 1200 bytes a request) fit in the kubelet's default 10 MiB container log (containerLogMaxSize), which kubectl logs reads, got 7861`,
    ]);
    expect(lines({ ...BASE, tools: ["ioping"], reps: 20, iopingCount: 390 })[0]).toMatch(/^'iopingCount' must be at most 389 /);
    // The old bound, 100 000 a repetition, is refused.
    expect(lines({ ...BASE, tools: ["ioping"], iopingCount: 100000 })[0]).toMatch(/^'iopingCount' must be at most 2618 /);
  });

  test("ioping's count is not bounded when ioping does not run", () => {
    expect(problems({ ...BASE, tools: ["fio"], iopingCount: 100000 })).toEqual([]);
  });
});

describe("pgbench: one home for its rules", () => {
  test("needs its server", () => {
    expect(lines({ ...BASE, tools: ["pgbench"] })).toEqual([
      `'postgres' must be the PostgreSQL server pgbench drives (host, user, database, passwordSecret), got nothing`,
    ]);
    expect(lines({ ...ALL, postgres: { ...PG, host: "", port: 70000, passwordSecret: { name: "Bad_Name", key: "" } } })).toEqual([
      `'postgres.host' must be a host name or address, got ""`,
      `'postgres.port' must be an integer from 1 to 65535, got 70000`,
      `'postgres.passwordSecret.name' must be the name of a Secret, got "Bad_Name"`,
      `'postgres.passwordSecret.key' must be a key of that Secret, got ""`,
    ]);
  });

  test("threads at most the clients, checked once, naming what the user typed", () => {
    expect(lines({ ...PGBENCH, pgbenchThreads: 4, pgbenchClients: 2 })).toEqual([
      `'pgbenchThreads' must be at most 'pgbenchClients' (2), got 4`,
    ]);
    expect(lines({ ...PGBENCH, pgbenchClients: 1 })).toEqual([`'pgbenchClients' must be at least 'pgbenchThreads' (2), got 1`]);
    // A bad type is one problem, not two.
    expect(lines({ ...PGBENCH, pgbenchThreads: "4" as never, pgbenchClients: 2 })).toEqual([
      `'pgbenchThreads' must be an integer from 1 to 1024, got "4"`,
    ]);
  });

  test("clients leave 10 of the server's max_connections free (default 100)", () => {
    expect(problems({ ...PGBENCH, pgbenchClients: 90 })).toEqual([]);
    expect(lines({ ...PGBENCH, pgbenchClients: 91 })).toEqual([
      `'pgbenchClients' must be at most 90 (the server's max_connections 100, less 10 kept free), got 91`,
    ]);
    expect(lines({ ...PGBENCH, postgres: { ...PG, maxConnections: 200 }, pgbenchClients: 191 })).toEqual([
      `'pgbenchClients' must be at most 190 (the server's max_connections 200, less 10 kept free), got 191`,
    ]);
  });

  test("the tables fit in 70% of the server's volume, 16 MB a scale unit", () => {
    expect([PGBENCH_BYTES_PER_SCALE, PG_VOLUME_SHARE]).toEqual([16e6, 0.7]);
    // floor(0.7 × 64 GiB / 16 MB) = floor(3006.4)
    const pg64 = { ...PG, volumeGiB: 64 };
    expect(problems({ ...PGBENCH, postgres: pg64, pgbenchScale: 3006 })).toEqual([]);
    expect(lines({ ...PGBENCH, postgres: pg64, pgbenchScale: 3007 })).toEqual([
      `'pgbenchScale' must be at most 3006 so that the pgbench tables (16 MB a scale unit) fill at most 70% of the server's 64 GiB volume, got 3007`,
    ]);
    // The default scale 1000 (16 GB) needs 16 GB / 0.7 = 21.3 GiB: 22 GiB holds it, 21 does not.
    expect(problems({ ...PGBENCH, postgres: { ...PG, volumeGiB: 22 } })).toEqual([]);
    expect(lines({ ...PGBENCH, postgres: { ...PG, volumeGiB: 21 } })).toEqual([
      `'pgbenchScale' must be at most 986 so that the pgbench tables (16 MB a scale unit) fill at most 70% of the server's 21 GiB volume, got 1000`,
    ]);
    expect(problems({ ...PGBENCH, pgbenchScale: 100000 })).toEqual([]); // no volume given: not checked
  });

  test("extra options are booleans or whole seconds, and progress lines must fit in the log", () => {
    expect(
      lines({
        ...PGBENCH,
        pgbenchForeignKeys: "yes" as never,
        pgbenchPerStatementLatencies: 1 as never,
        pgbenchSettleSeconds: -1,
        pgbenchInit: "sometimes" as never,
      }),
    ).toEqual([
      `'pgbenchForeignKeys' must be true or false, got "yes"`,
      `'pgbenchPerStatementLatencies' must be true or false, got 1`,
      `'pgbenchSettleSeconds' must be an integer from 0 to 3600, got -1`,
      `'pgbenchInit' must be one of auto, always, never, got "sometimes"`,
    ]);
    expect(problems({ ...PGBENCH, pgbenchProgressSeconds: 1 })).toEqual([]); // 3 × 300 lines
    // 20 × 86400 s at one line a second: 1 728 000 lines × 160 bytes; at least 30 s apart fit.
    expect(lines({ ...PGBENCH, reps: 20, pgbenchDurationSeconds: 86400, pgbenchProgressSeconds: 29 })).toEqual([
      `'pgbenchProgressSeconds' must be 0 (none) or at least 30 so that 'reps' 20 repetitions of 'pgbenchDurationSeconds' 86400 s of progress lines (up to 160 bytes each) fit in the kubelet's default 10 MiB container log (containerLogMaxSize), got 29`,
    ]);
    expect(problems({ ...PGBENCH, reps: 20, pgbenchDurationSeconds: 86400, pgbenchProgressSeconds: 30 })).toEqual([]);
  });
});

describe("throwIfInvalid over these rules: the component's one argument error", () => {
  test("Pulumi's InputPropertiesError with every problem and its property path", () => {
    const run = () => throwIfInvalid("lab:bench:BenchmarkRun", "bad", problems({ ...BASE, reps: 0, fioSize: "64G" }));
    expect(run).toThrow(
      [
        "invalid arguments of lab:bench:BenchmarkRun 'bad':",
        "'reps' must be an integer from 1 to 20, got 0",
        `'fioSize' must be at most 90% of 'pvcSizeGiB' (57.6 GiB), got "64G"`,
      ].join("\n"),
    );
    try {
      run();
    } catch (e) {
      expect(pulumi.InputPropertiesError.isInstance(e)).toBe(true);
      expect((e as pulumi.InputPropertiesError).errors.map((x) => x.propertyPath)).toEqual(["reps", "fioSize"]);
    }
    expect.assertions(3);
  });
});
