import { Job } from "kubernetes-models/batch/v1/Job";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { ConfigError } from "../../../core/errors";
import { renderFioJobFiles } from "../../../components/bench/profiles";
import {
  activeDeadlineSeconds,
  defaultFioSize,
  fioSizeBytes,
  renderBenchmark,
  resolveBench,
  type BenchSpec,
  type PostgresTarget,
} from "../../../components/bench/render";
import { readJobScripts } from "../../../components/bench/scripts";
import { restrictedViolations } from "../../helpers/podSecurity";
import { problemsOf as configProblems } from "../../helpers/config";

const SCRIPTS = readJobScripts();
const TOOLS_IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-tools:fio-3.33-ioping-1.3";
const PG: PostgresTarget = {
  host: "pg-rw.db.svc.cluster.local",
  user: "bench",
  database: "bench",
  passwordSecret: { name: "pg-auth", key: "password" },
};
const BASE: BenchSpec = {
  name: "same-az",
  namespace: "bench",
  runId: "r1",
  zone: "us-east-1a",
  storageClass: "fsx-ontap-san",
  toolsImage: TOOLS_IMAGE,
};
const ALL: BenchSpec = { ...BASE, tools: ["fio", "ioping", "pgbench"], postgres: PG };

/** The problems of `spec`, in order (none: []). */
function problemsOf(spec: BenchSpec): readonly string[] {
  return configProblems(() => renderBenchmark(spec, SCRIPTS), true);
}

const podOf = (spec: BenchSpec, tool: string): IPodSpec => {
  const j = renderBenchmark(spec, SCRIPTS).jobs.find((x) => x.tool === tool);
  if (!j?.job.spec?.template.spec) throw new Error(`no ${tool} job`);
  return j.job.spec.template.spec;
};

describe("renderBenchmark: Kubernetes schemas (kubernetes-models)", () => {
  const m = renderBenchmark(ALL, SCRIPTS);

  it("every rendered object validates against its OpenAPI schema", () => {
    expect(() => new ConfigMap(m.configMap).validate()).not.toThrow();
    expect(m.pvc).toBeDefined();
    expect(() => new PersistentVolumeClaim(m.pvc).validate()).not.toThrow();
    expect(m.jobs.map((j) => j.tool)).toEqual(["fio", "ioping", "pgbench"]);
    for (const j of m.jobs) expect(() => new Job(j.job).validate()).not.toThrow();
  });

  it("the schema check can fail: broken objects are rejected", () => {
    const job = structuredClone(m.jobs[0].job) as unknown as {
      spec: { backoffLimit: unknown; template: { spec: { containers: unknown[] } } };
    };
    job.spec.backoffLimit = "0";
    expect(() => new Job(job as never).validate()).toThrow(/backoffLimit must be integer/);
    const noName = structuredClone(m.jobs[0].job) as unknown as {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    delete noName.spec.template.spec.containers[0].name;
    expect(() => new Job(noName as never).validate()).toThrow(/containers\/0 must have required property name/);
    const pvc = { ...m.pvc, spec: { ...m.pvc?.spec, accessModes: "ReadWriteOnce" } };
    expect(() => new PersistentVolumeClaim(pvc as never).validate()).toThrow(/accessModes must be array/);
  });
});

describe("renderBenchmark: Jobs", () => {
  const m = renderBenchmark(ALL, SCRIPTS);

  it("satisfy the restricted Pod Security Standard", () => {
    for (const j of m.jobs) expect(restrictedViolations(j.job.spec!.template.spec!)).toEqual([]);
  });

  it("use only pinned images: an explicit tag or digest, never latest", () => {
    const images = m.jobs.flatMap((j) => j.job.spec!.template.spec!.containers.map((c) => c.image));
    expect(images).toEqual([TOOLS_IMAGE, TOOLS_IMAGE, "docker.io/library/postgres:17.11-bookworm"]);
    for (const image of images) {
      expect(image).toMatch(/(:[A-Za-z0-9_][A-Za-z0-9_.-]*|@sha256:[0-9a-f]{64})$/);
      expect(image).not.toMatch(/:latest(@|$)/);
    }
  });

  it("never retry, have a deadline, a TTL, one pod, Never restart, no service-account token", () => {
    for (const j of m.jobs) {
      const spec = j.job.spec!;
      expect(spec).toMatchObject({ backoffLimit: 0, completions: 1, parallelism: 1, ttlSecondsAfterFinished: 86400 });
      expect(spec.activeDeadlineSeconds).toBe(j.activeDeadlineSeconds);
      expect(spec.template.spec).toMatchObject({ restartPolicy: "Never", automountServiceAccountToken: false, enableServiceLinks: false });
      expect(j.waitTimeoutSeconds).toBe(j.activeDeadlineSeconds + 120);
    }
  });

  it("are pinned to the zone by a required node affinity", () => {
    for (const j of m.jobs) {
      expect(j.job.spec!.template.spec!.affinity).toEqual({
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a"] }] }],
          },
        },
      });
    }
  });

  it("are named <name>-<tool>-<runId> and labelled app.kubernetes.io/* and lab/run-id", () => {
    expect(m.jobs.map((j) => j.name)).toEqual(["same-az-fio-r1", "same-az-ioping-r1", "same-az-pgbench-r1"]);
    const fio = m.jobs[0].job;
    const labels = {
      "app.kubernetes.io/name": "fio",
      "app.kubernetes.io/instance": "same-az",
      "app.kubernetes.io/component": "benchmark",
      "app.kubernetes.io/part-of": "storage-bench-lab",
      "app.kubernetes.io/managed-by": "pulumi",
      "lab/run-id": "r1",
    };
    expect(fio.metadata).toEqual({ name: "same-az-fio-r1", namespace: "bench", labels });
    expect(fio.spec!.template.metadata).toEqual({ labels });
  });

  it("fio: the tools image as uid 65532, fsGroup for the volume, requests and limits, its environment", () => {
    const pod = podOf(ALL, "fio");
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      fsGroup: 65532,
      fsGroupChangePolicy: "OnRootMismatch",
      seccompProfile: { type: "RuntimeDefault" },
    });
    const c = pod.containers[0];
    expect(c.command).toEqual(["/bin/sh", "/opt/lab/fio.sh"]);
    expect(c.resources).toEqual({ requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "2Gi" } });
    expect(c.env).toEqual([
      { name: "FIO_PROFILE", value: "seed" },
      { name: "FIO_JOB_DIR", value: "/opt/lab" },
      { name: "FIO_DIR", value: "/data/fio" },
      { name: "FIO_SIZE", value: "8G" },
      { name: "FIO_RUNTIME", value: "60" },
      { name: "FIO_RAMP", value: "10" },
      { name: "FIO_KEEP_FILE", value: "0" },
      { name: "REPS", value: "3" },
      { name: "TMPDIR", value: "/tmp" },
    ]);
    expect(c.volumeMounts).toEqual([
      { name: "scripts", mountPath: "/opt/lab", readOnly: true },
      { name: "tmp", mountPath: "/tmp" },
      { name: "data", mountPath: "/data" },
    ]);
    expect(pod.volumes).toEqual([
      { name: "scripts", configMap: { name: "same-az-scripts", defaultMode: 0o444 } },
      { name: "tmp", emptyDir: { sizeLimit: "256Mi" } },
      { name: "data", persistentVolumeClaim: { claimName: "same-az-data" } },
    ]);
  });

  it("ioping: JSON output, interval in ms, the same volume", () => {
    const c = podOf({ ...BASE, iopingIntervalMs: 200, iopingCount: 50, iopingDirect: true }, "ioping").containers[0];
    expect(c.env).toEqual([
      { name: "IOPING_DIR", value: "/data/ioping" },
      { name: "IOPING_COUNT", value: "50" },
      { name: "IOPING_INTERVAL", value: "200ms" },
      { name: "IOPING_DIRECT", value: "1" },
      { name: "IOPING_FORMAT", value: "json" },
      { name: "REPS", value: "3" },
      { name: "TMPDIR", value: "/tmp" },
    ]);
  });

  it("pgbench: postgres image as uid 999, password from the Secret, no volume under test", () => {
    const pod = podOf(ALL, "pgbench");
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 999,
      runAsGroup: 999,
      seccompProfile: { type: "RuntimeDefault" },
    });
    expect(pod.volumes?.map((v) => v.name)).toEqual(["scripts", "tmp"]);
    expect(pod.containers[0].env).toEqual([
      { name: "PGHOST", value: "pg-rw.db.svc.cluster.local" },
      { name: "PGPORT", value: "5432" },
      { name: "PGUSER", value: "bench" },
      { name: "PGDATABASE", value: "bench" },
      { name: "PGPASSWORD", valueFrom: { secretKeyRef: { name: "pg-auth", key: "password" } } },
      { name: "PGCONNECT_TIMEOUT", value: "10" },
      { name: "PGBENCH_SCALE", value: "1000" },
      { name: "PGBENCH_CLIENTS", value: "20" },
      { name: "PGBENCH_THREADS", value: "2" },
      { name: "PGBENCH_DURATION", value: "300" },
      { name: "PGBENCH_PROGRESS", value: "60" },
      { name: "PGBENCH_PER_STATEMENT", value: "1" },
      { name: "PGBENCH_INIT", value: "auto" },
      { name: "PG_READY_TIMEOUT", value: "300" },
      { name: "REPS", value: "3" },
      { name: "TMPDIR", value: "/tmp" },
    ]);
  });

  it("pgbench alone needs no StorageClass, no tools image and no PVC", () => {
    const only = renderBenchmark(
      { name: "ceph", namespace: "bench", runId: "r1", zone: "us-east-1b", tools: ["pgbench"], postgres: PG },
      SCRIPTS,
    );
    expect(only.pvc).toBeUndefined();
    expect(only.jobs.map((j) => j.name)).toEqual(["ceph-pgbench-r1"]);
  });

  it("runs the tools in the fixed order fio, ioping, pgbench whatever order they are given in", () => {
    const m2 = renderBenchmark({ ...ALL, tools: ["pgbench", "ioping", "fio"] }, SCRIPTS);
    expect(m2.jobs.map((j) => j.tool)).toEqual(["fio", "ioping", "pgbench"]);
  });
});

describe("renderBenchmark: PVC and ConfigMap", () => {
  const m = renderBenchmark(BASE, SCRIPTS);

  it("a ReadWriteOnce PVC of pvcSizeGiB on the StorageClass", () => {
    expect(m.pvc).toEqual({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: {
        name: "same-az-data",
        namespace: "bench",
        labels: {
          "app.kubernetes.io/name": "bench-data",
          "app.kubernetes.io/instance": "same-az",
          "app.kubernetes.io/component": "benchmark",
          "app.kubernetes.io/part-of": "storage-bench-lab",
          "app.kubernetes.io/managed-by": "pulumi",
        },
      },
      spec: {
        accessModes: ["ReadWriteOnce"],
        volumeMode: "Filesystem",
        storageClassName: "fsx-ontap-san",
        resources: { requests: { storage: "64Gi" } },
      },
    });
  });

  it("the ConfigMap holds the scripts and every fio job file, verbatim", () => {
    expect(Object.keys(m.configMap.data ?? {})).toEqual([
      "lib.sh",
      "fio.sh",
      "ioping.sh",
      "pgbench.sh",
      "fio-seed.fio",
      "fio-latency.fio",
      "fio-suite.fio",
    ]);
    expect(m.configMap.data).toEqual({ ...SCRIPTS, ...renderFioJobFiles() });
    expect(m.configMap.metadata?.name).toBe("same-az-scripts");
  });
});

describe("activeDeadlineSeconds", () => {
  const deadline = (spec: BenchSpec, tool: "fio" | "ioping" | "pgbench") =>
    renderBenchmark(spec, SCRIPTS).jobs.find((j) => j.tool === tool)!.job.spec!.activeDeadlineSeconds;

  it.each([
    // 600 margin + 3 × (1200 seed bound + ceil(4 × 8 GiB / 512 MB/s) = 68 layout + 10)
    ["seed, defaults", 4434, BASE],
    // 600 + 3 × (6 × (10 + 60) + ceil(4 × 12 GiB / 512 MB/s) = 101 + 10)
    ["suite, defaults (12G)", 2193, { ...BASE, fioProfile: "suite" }],
    // 600 + 5 × (2 × (5 + 30) + ceil(4 × 3 GiB / 125 MB/s) = 104 + 10)
    [
      "latency, 5 reps, 125 MB/s (3G)",
      1520,
      { ...BASE, fioProfile: "latency", reps: 5, fioRuntimeSeconds: 30, fioRampSeconds: 5, expectedBandwidthMBps: 125 },
    ],
    // 0 margin + 1 × (60 seed bound + ceil(4 × 16 MiB / 512 MB/s) = 1 layout + 10)
    ["seed, tiny", 71, { ...BASE, fioSize: "16M", reps: 1, deadlineMarginSeconds: 0, fioSeedRepSeconds: 60 }],
  ] as const)("fio %s: %d s", (_label, seconds, spec) => {
    expect(deadline(spec as BenchSpec, "fio")).toBe(seconds);
  });

  it("ioping: margin + reps × (ceil(count × interval) + 30)", () => {
    expect(deadline(BASE, "ioping")).toBe(600 + 3 * (100 + 30));
    expect(deadline({ ...BASE, iopingCount: 25, iopingIntervalMs: 100, reps: 2 }, "ioping")).toBe(600 + 2 * (3 + 30));
  });

  it("pgbench: margin + ready + init + reps × (duration + 120)", () => {
    expect(deadline(ALL, "pgbench")).toBe(600 + 300 + 3600 + 3 * (300 + 120));
    expect(deadline({ ...ALL, pgbenchDurationSeconds: 60, reps: 1, pgbenchInitTimeoutSeconds: 600 }, "pgbench")).toBe(
      600 + 300 + 600 + 180,
    );
  });

  it("agrees with activeDeadlineSeconds() on the resolved settings", () => {
    const { resolved } = resolveBench(ALL);
    const m = renderBenchmark(ALL, SCRIPTS);
    for (const j of m.jobs) expect(j.activeDeadlineSeconds).toBe(activeDeadlineSeconds(j.tool, resolved));
  });
});

describe("fio sizes", () => {
  it.each([
    ["8G", 8 * 2 ** 30],
    ["16M", 16 * 2 ** 20],
    ["512K", 512 * 1024],
    ["1T", 2 ** 40],
    ["8g", undefined],
    ["8GiB", undefined],
    ["0G", undefined],
    ["1.5G", undefined],
  ])("%s = %s bytes", (size, bytes) => {
    expect(fioSizeBytes(size)).toBe(bytes);
  });

  it("defaults: the published 8G for seed, 25 s of bandwidth rounded up to GiB otherwise", () => {
    expect(defaultFioSize("seed", 512)).toBe("8G");
    expect(defaultFioSize("suite", 512)).toBe("12G"); // 12.8 GB = 11.92 GiB
    expect(defaultFioSize("latency", 125)).toBe("3G"); // 3.125 GB = 2.91 GiB
    expect(defaultFioSize("suite", 4096)).toBe("96G"); // 102.4 GB = 95.37 GiB
  });
});

describe("validation: exact messages, all at once", () => {
  it("the fio file must fit in 90% of the PVC", () => {
    expect(problemsOf({ ...BASE, fioSize: "64G" })).toEqual([`'lab:fioSize' must be at most 90% of the PVC (57.6 GiB), got "64G"`]);
    expect(problemsOf({ ...BASE, fioSize: "57G" })).toEqual([]);
    expect(problemsOf({ ...BASE, fioSize: "58G" })).toEqual([`'lab:fioSize' must be at most 90% of the PVC (57.6 GiB), got "58G"`]);
    expect(problemsOf({ ...BASE, fioSize: "10G", pvcSizeGiB: 10 })).toEqual([
      `'lab:fioSize' must be at most 90% of the PVC (9 GiB), got "10G"`,
    ]);
  });

  it("a defaulted fio file that does not fit names the PVC size", () => {
    expect(problemsOf({ ...BASE, fioProfile: "suite", pvcSizeGiB: 10 })).toEqual([
      `'lab:pvcSizeGiB' must be at least 14 so that the fio file (12G) fills at most 90% of it, got 10`,
    ]);
  });

  it("suite's file holds at least 25 s of the expected bandwidth", () => {
    expect(problemsOf({ ...BASE, fioProfile: "suite", fioSize: "8G" })).toEqual([
      `'lab:fioSize' must be at least 25 s of 'lab:expectedBandwidthMBps' for profile "suite" (25 s × 512 MB/s = 12.8 GB), got "8G"`,
    ]);
    expect(problemsOf({ ...BASE, fioProfile: "latency", fioSize: "8G" })).toEqual([]);
  });

  it("names the config keys the caller maps", () => {
    expect(problemsOf({ ...BASE, fioSize: "64G", reps: 0, keys: { fioSize: "bench:fioSize", reps: "bench:reps" } })).toEqual([
      `'bench:reps' must be an integer from 1 to 100, got 0`,
      `'bench:fioSize' must be at most 90% of the PVC (57.6 GiB), got "64G"`,
    ]);
  });

  it("reports every problem together", () => {
    expect(
      problemsOf({
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
      `'lab:name' must be a DNS-1123 label (lower-case letters, digits, '-'), got "Same_AZ"`,
      `'lab:zone' must be an availability zone name (e.g. "us-east-1a"), got ""`,
      `'lab:tools' must be a non-empty list of distinct tools among fio, ioping, pgbench, got ["fio","fio"]`,
      `'lab:runId' must be a DNS-1123 label (lower-case letters, digits, '-'; e.g. "r1" or "2026-01-15"), got "Run 1"`,
      `'lab:reps' must be an integer from 1 to 100, got 0`,
      `'lab:fioProfile' must be one of seed, latency, suite, got "fast"`,
      `'lab:expectedBandwidthMBps' must be a number of MB/s above 0 and at most 100000, got -1`,
      `'lab:fioSize' must be a whole number with a unit K, M, G or T (fio, binary units; e.g. "8G"), got "8GiB"`,
      `'lab:iopingCount' must be an integer from 2 to 100000, got 1`,
      `'lab:ttlSecondsAfterFinished' must be an integer from 0 to 31536000, got 1.5`,
    ]);
  });

  it("fio and ioping need a StorageClass and a pinned tools image", () => {
    expect(problemsOf({ name: "a", namespace: "b", runId: "r1", zone: "us-east-1a" })).toEqual([
      `'lab:storageClass' must be the name of a StorageClass, got nothing`,
      `'lab:toolsImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 digest of an image with fio and ioping (build components/bench/image/Dockerfile), got nothing`,
    ]);
    expect(problemsOf({ ...BASE, toolsImage: "storage-bench-tools" })).toEqual([
      `'lab:toolsImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 digest, got "storage-bench-tools"`,
    ]);
  });

  it("the run id must leave the longest Job name within 63 characters", () => {
    const name = "a-rather-long-benchmark-name"; // 28 + "-pgbench-" (9) → 26 left
    expect(problemsOf({ ...ALL, name, runId: "r".repeat(26) })).toEqual([]);
    expect(problemsOf({ ...ALL, name, runId: "r".repeat(27) })).toEqual([
      `'lab:runId' must be at most 26 characters (Job "a-rather-long-benchmark-name-pgbench-<runId>" must fit in 63), got "${"r".repeat(27)}"`,
    ]);
  });

  it("pgbench needs its server, and at most as many threads as clients", () => {
    expect(problemsOf({ ...BASE, tools: ["pgbench"] })).toEqual([
      `'lab:postgres' must be the PostgreSQL server pgbench drives (host, user, database, passwordSecret), got nothing`,
    ]);
    expect(problemsOf({ ...ALL, postgres: { ...PG, host: "", port: 70000, passwordSecret: { name: "Bad_Name", key: "" } } })).toEqual([
      `'lab:postgres.host' must be a host name or address, got ""`,
      `'lab:postgres.port' must be an integer from 1 to 65535, got 70000`,
      `'lab:postgres.passwordSecret.name' must be the name of a Secret, got "Bad_Name"`,
      `'lab:postgres.passwordSecret.key' must be a key of that Secret, got ""`,
    ]);
    expect(problemsOf({ ...ALL, pgbenchThreads: 4, pgbenchClients: 2 })).toEqual([
      `'lab:pgbenchThreads' must be at most 'lab:pgbenchClients' (2), got 4`,
    ]);
    expect(problemsOf({ ...ALL, pgbenchClients: 1 })).toEqual([`'lab:pgbenchClients' must be at least 'lab:pgbenchThreads' (2), got 1`]);
  });

  it("resources must be Kubernetes quantities", () => {
    expect(
      problemsOf({ ...BASE, resources: { fio: { requests: { cpu: "1 core", memory: "1Gi" }, limits: { cpu: "2", memory: "lots" } } } }),
    ).toEqual([
      `'lab:resources.fio.requests.cpu' must be a Kubernetes quantity (e.g. "500m", "2", "1Gi"), got "1 core"`,
      `'lab:resources.fio.limits.memory' must be a Kubernetes quantity (e.g. "500m", "2", "1Gi"), got "lots"`,
    ]);
  });

  it("throws one ConfigError whose message lists every problem", () => {
    expect(() => renderBenchmark({ ...BASE, reps: 0, fioSize: "64G" }, SCRIPTS)).toThrow(
      new ConfigError([
        `'lab:reps' must be an integer from 1 to 100, got 0`,
        `'lab:fioSize' must be at most 90% of the PVC (57.6 GiB), got "64G"`,
      ]),
    );
  });
});
