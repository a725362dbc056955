/** The Job, ConfigMap and PVC builders (components/bench/render.ts), validated against the Kubernetes schemas. */
import { Job } from "kubernetes-models/batch/v1/Job";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { renderFioJobFiles } from "../../../components/bench/profiles";
import { pgbenchCommands, renderBenchmark } from "../../../components/bench/render";
import { resolve, type BenchSpec } from "../../../components/bench/rules";
import { activeDeadlineSeconds } from "../../../components/bench/sizing";
import { readJobScripts } from "../../../components/bench/scripts";
import { restrictedViolations } from "../../helpers/podSecurity";
import { ALL, BASE, PG, TOOLS_IMAGE } from "./support";

const SCRIPTS = readJobScripts();
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
      { name: "LAB_RUNS_DIR", value: "/data/.lab-runs" },
      { name: "REPS", value: "3" },
      { name: "LAB_RUN_ID", value: "r1" },
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
      { name: "LAB_RUNS_DIR", value: "/data/.lab-runs" },
      { name: "REPS", value: "3" },
      { name: "LAB_RUN_ID", value: "r1" },
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
      { name: "PGBENCH_FOREIGN_KEYS", value: "1" },
      { name: "PGBENCH_PER_STATEMENT", value: "1" },
      { name: "PGBENCH_PROGRESS", value: "0" },
      { name: "PGBENCH_SETTLE", value: "30" },
      { name: "PGBENCH_INIT", value: "auto" },
      { name: "PG_READY_TIMEOUT", value: "300" },
      { name: "REPS", value: "3" },
      { name: "LAB_RUN_ID", value: "r1" },
      { name: "TMPDIR", value: "/tmp" },
    ]);
  });

  it("pgbench's extra options reach its environment only when switched on", () => {
    const env = podOf(
      { ...ALL, pgbenchForeignKeys: true, pgbenchPerStatementLatencies: true, pgbenchProgressSeconds: 10, pgbenchSettleSeconds: 5 },
      "pgbench",
    ).containers[0].env!.filter((e) =>
      ["PGBENCH_FOREIGN_KEYS", "PGBENCH_PER_STATEMENT", "PGBENCH_PROGRESS", "PGBENCH_SETTLE"].includes(e.name),
    );
    expect(env).toEqual([
      { name: "PGBENCH_FOREIGN_KEYS", value: "1" },
      { name: "PGBENCH_PER_STATEMENT", value: "1" },
      { name: "PGBENCH_PROGRESS", value: "10" },
      { name: "PGBENCH_SETTLE", value: "5" },
    ]);
  });

  it("nodeSelector pins every Job to the same node labels, beside the zone", () => {
    for (const tool of ["fio", "ioping", "pgbench"]) {
      expect(podOf({ ...ALL, nodeSelector: { "storage-bench-lab/worker": "2" } }, tool).nodeSelector).toEqual({
        "storage-bench-lab/worker": "2",
      });
      expect(podOf(ALL, tool).nodeSelector).toBeUndefined();
    }
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
      "sampler.sh",
      "fio-seed.fio",
      "fio-latency.fio",
      "fio-suite.fio",
    ]);
    expect(m.configMap.data).toEqual({ ...SCRIPTS, ...renderFioJobFiles() });
    expect(m.configMap.metadata?.name).toBe("same-az-scripts");
  });
});

describe("pgbench: the published command lines, and what the samples record", () => {
  it("by default the published `pgbench -i -s 1000 --foreign-keys` and `pgbench -c 20 -j 2 -T 300 -r` (k8s/base/pgbench.job.yaml)", () => {
    expect(pgbenchCommands(resolve(ALL).pgbench)).toEqual({
      init: "pgbench -i -s 1000 --foreign-keys",
      run: "pgbench -c 20 -j 2 -T 300 -r",
    });
  });

  it("each option appears only when switched on", () => {
    const p = resolve({ ...ALL, pgbenchProgressSeconds: 60 }).pgbench;
    expect(pgbenchCommands(p)).toEqual({ init: "pgbench -i -s 1000 --foreign-keys", run: "pgbench -c 20 -j 2 -T 300 -P 60 -r" });
    const off = resolve({ ...ALL, pgbenchForeignKeys: false, pgbenchPerStatementLatencies: false }).pgbench;
    expect(pgbenchCommands(off)).toEqual({ init: "pgbench -i -s 1000", run: "pgbench -c 20 -j 2 -T 300" });
  });

  it("every option that shapes the numbers is in the samples' metadata", () => {
    const jobs = renderBenchmark(ALL, SCRIPTS).jobs;
    expect(Object.fromEntries(jobs.map((j) => [j.tool, j.options]))).toEqual({
      fio: { fioProfile: "seed", fioSize: "8G", fioClientCache: "bypassed", fioStorageCache: "not-defeated" },
      ioping: { iopingCount: 100, iopingIntervalMs: 1000, iopingDirect: false },
      pgbench: {
        scale: 1000,
        clients: 20,
        threads: 2,
        durationSeconds: 300,
        pgbenchInitCommand: "pgbench -i -s 1000 --foreign-keys",
        pgbenchCommand: "pgbench -c 20 -j 2 -T 300 -r",
        pgbenchForeignKeys: true,
        pgbenchPerStatementLatencies: true,
        pgbenchProgressSeconds: 0,
        pgbenchSettleSeconds: 30,
        pgbenchCpuRequest: "2",
        pgbenchCpuLimit: "2",
        pgbenchMemoryRequest: "8Gi",
        pgbenchMemoryLimit: "8Gi",
      },
    });
    expect(renderBenchmark({ ...BASE, fioProfile: "suite", tools: ["fio"] }, SCRIPTS).jobs[0].options).toEqual({
      fioProfile: "suite",
      fioSize: "12G",
      fioRuntimeSeconds: 60,
      fioRampSeconds: 10,
      fioClientCache: "bypassed",
      fioStorageCache: "not-defeated",
    });
  });
});

describe("renderBenchmark: deadlines and what mounts the volume", () => {
  it("each Job's deadline is activeDeadlineSeconds() of the resolved settings; the collector waits 120 s more", () => {
    const s = resolve(ALL);
    for (const j of renderBenchmark(ALL, SCRIPTS).jobs) {
      expect(j.activeDeadlineSeconds).toBe(activeDeadlineSeconds(j.tool, s));
      expect(j.job.spec!.activeDeadlineSeconds).toBe(j.activeDeadlineSeconds);
      expect(j.waitTimeoutSeconds).toBe(j.activeDeadlineSeconds + 120);
    }
  });

  it("fio and ioping mount the volume under test, pgbench does not", () => {
    expect(renderBenchmark(ALL, SCRIPTS).jobs.map((j) => [j.tool, j.usesVolume])).toEqual([
      ["fio", true],
      ["ioping", true],
      ["pgbench", false],
    ]);
  });

  it("an invalid spec is a programming error naming every problem (BenchmarkRun checks first)", () => {
    expect(() => renderBenchmark({ ...BASE, reps: 0, fioSize: "64G" }, SCRIPTS)).toThrow(
      [
        "renderBenchmark: invalid spec (check it with problems() first):",
        "'reps' must be an integer from 1 to 20, got 0",
        `'fioSize' must be at most 90% of 'pvcSizeGiB' (57.6 GiB), got "64G"`,
      ].join("\n"),
    );
    expect(() => renderBenchmark(BASE, { "lib.sh": "" })).toThrow("renderBenchmark: script fio.sh missing");
  });
});
