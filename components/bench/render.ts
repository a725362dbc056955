/**
 * The Job, ConfigMap and PVC builders of the benchmark layer (pure): from one checked
 * {@link BenchSpec} the PersistentVolumeClaim under test, the ConfigMap with the scripts and fio
 * job files, and one `batch/v1` Job per tool (fio, ioping, pgbench). No Pulumi, no I/O: the
 * component (index.ts) turns the objects into resources, `lab plan` and the tests read them as
 * they are. Defaults and rules are rules.ts', deadlines and sizes sizing.ts'.
 *
 * Every Job: `restartPolicy: Never` and `backoffLimit: 0` (a benchmark that failed must fail, not
 * be silently retried on a warm cache), `activeDeadlineSeconds` from the tool's work ×
 * repetitions + a margin, `ttlSecondsAfterFinished`, requests and limits, required node affinity
 * to the zone (and the `nodeSelector` labels), the restricted Pod Security profile (non-root uid,
 * no privilege escalation, all capabilities dropped, RuntimeDefault seccomp, read-only root file
 * system with an emptyDir /tmp), no service-account token, and labels `app.kubernetes.io/*` +
 * `lab/run-id`.
 */
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { IEnvVar } from "kubernetes-models/v1/EnvVar";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IVolume } from "kubernetes-models/v1/Volume";
import type { IVolumeMount } from "kubernetes-models/v1/VolumeMount";
import { formatArgProblem } from "../../core/errors";
import { PGBENCH_IMAGE_UID, TOOLS_IMAGE_UID } from "./images";
import { renderFioJobFiles } from "./profiles";
import { restrictedContainerSecurityContext, restrictedPodSecurityContext } from "./security";
import { ZONE_LABEL, problems, resolve, type BenchSpec, type BenchTool, type ResolvedBench } from "./rules";
import { COLLECT_SLACK_SECONDS, FIO_CACHE_METADATA, activeDeadlineSeconds } from "./sizing";

/** Where the Jobs mount things. */
export const MOUNTS = { scripts: "/opt/lab", data: "/data", tmp: "/tmp" } as const;
/**
 * Where fio.sh and ioping.sh stamp a finished run on the volume under test (`<tool>-<runId>`), so
 * that a Job created again under the same run id refuses to run (lib.sh `lab_run_refuse_repeat`).
 */
export const RUNS_DIR = `${MOUNTS.data}/.lab-runs`;

/** Label key of the run id. */
export const RUN_ID_LABEL = "lab/run-id";

/** One rendered Job and what collecting it needs. */
export interface RenderedJob {
  readonly tool: BenchTool;
  /** The Job's `metadata.name`. */
  readonly name: string;
  readonly job: IJob;
  /** Repetitions the Job's log must hold. */
  readonly reps: number;
  readonly activeDeadlineSeconds: number;
  /** How long the collecting command waits for the Job: its deadline + {@link COLLECT_SLACK_SECONDS}. */
  readonly waitTimeoutSeconds: number;
  /** Whether the Job mounts the volume under test (its deletion frees the volume). */
  readonly usesVolume: boolean;
  /** Options that shape this tool's numbers, for the samples' metadata. */
  readonly options: Readonly<Record<string, string | number | boolean>>;
}

/** Everything one run deploys. */
export interface BenchManifests {
  readonly settings: ResolvedBench;
  readonly configMap: IConfigMap;
  /** The volume under test; absent when only pgbench runs. */
  readonly pvc?: IPersistentVolumeClaim;
  /** In run order. */
  readonly jobs: readonly RenderedJob[];
}

/** A Job's `metadata.name`: `<name>-<tool>-<runId>`. */
export function jobName(name: string, tool: BenchTool, runId: string): string {
  return `${name}-${tool}-${runId}`;
}

/** Labels of every object of the run; Jobs and their pods add {@link RUN_ID_LABEL}. */
export function benchLabels(name: string, component: string): Record<string, string> {
  return {
    "app.kubernetes.io/name": component,
    "app.kubernetes.io/instance": name,
    "app.kubernetes.io/component": "benchmark",
    "app.kubernetes.io/part-of": "storage-bench-lab",
    "app.kubernetes.io/managed-by": "pulumi",
  };
}

/**
 * The two pgbench command lines pgbench.sh runs (connection options come from libpq's `PG*`
 * variables): `pgbench -i -s <scale>` and `pgbench -c <clients> -j <threads> -T <seconds>`, with the
 * options switched on (`--foreign-keys`; `-P <s>`, `-r`; the published run has `--foreign-keys`
 * and `-r`, the lab's defaults).
 * scripts/pgbench.sh builds the same lines from the Job's environment (a test runs both).
 */
export function pgbenchCommands(p: ResolvedBench["pgbench"]): { init: string; run: string } {
  const init = ["pgbench", "-i", "-s", p.scale, ...(p.foreignKeys ? ["--foreign-keys"] : [])];
  const run = [
    "pgbench",
    "-c",
    p.clients,
    "-j",
    p.threads,
    "-T",
    p.durationSeconds,
    ...(p.progressSeconds > 0 ? ["-P", p.progressSeconds] : []),
    ...(p.perStatementLatencies ? ["-r"] : []),
  ];
  return { init: init.join(" "), run: run.join(" ") };
}

/**
 * Where a tool's script finds its files and directories. A Job: its mounts ({@link JOB_PLACES});
 * `lab bench local`: directories on the machine. Nothing else of a script's environment differs
 * between the two: both take it from {@link scriptEnv}.
 */
export interface ScriptPlaces {
  /** Directory holding the fio job files `fio-<profile>.fio` (`FIO_JOB_DIR`). */
  readonly jobFiles: string;
  /** Directory on the storage under test: fio works in `<data>/fio`, ioping in `<data>/ioping`. */
  readonly data: string;
  /** Where fio.sh and ioping.sh stamp finished runs (`LAB_RUNS_DIR`). */
  readonly runs: string;
  /** Where the scripts stage each repetition's output (`TMPDIR`). */
  readonly tmp: string;
}

/** The places inside a benchmark Job. */
export const JOB_PLACES: ScriptPlaces = { jobFiles: MOUNTS.scripts, data: MOUNTS.data, runs: RUNS_DIR, tmp: MOUNTS.tmp };

const flag = (on: boolean) => (on ? 1 : 0);

/**
 * The environment `scripts/<tool>.sh` runs with, name → value in the Job's order (each variable is
 * documented in the script's header): every setting from the resolved run, every path from
 * `places`. pgbench's password is not among them: a Job reads `PGPASSWORD` from its Secret,
 * `lab bench local` from the `--pg` URL.
 */
export function scriptEnv(tool: BenchTool, s: ResolvedBench, places: ScriptPlaces): Record<string, string> {
  const common = { REPS: s.reps, LAB_RUN_ID: s.runId, TMPDIR: places.tmp };
  const strings = (vars: Record<string, string | number>) => Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)]));
  switch (tool) {
    case "fio":
      return strings({
        FIO_PROFILE: s.fio.profile,
        FIO_JOB_DIR: places.jobFiles,
        FIO_DIR: `${places.data}/fio`,
        FIO_SIZE: s.fio.size,
        FIO_RUNTIME: s.fio.runtimeSeconds,
        FIO_RAMP: s.fio.rampSeconds,
        FIO_KEEP_FILE: 0,
        LAB_RUNS_DIR: places.runs,
        ...common,
      });
    case "ioping":
      return strings({
        IOPING_DIR: `${places.data}/ioping`,
        IOPING_COUNT: s.ioping.count,
        IOPING_INTERVAL: `${s.ioping.intervalMs}ms`,
        IOPING_DIRECT: flag(s.ioping.direct),
        IOPING_FORMAT: "json",
        LAB_RUNS_DIR: places.runs,
        ...common,
      });
    case "pgbench": {
      const p = s.postgres;
      if (p === undefined) throw new Error("pgbench needs a PostgreSQL target");
      return strings({
        PGHOST: p.host,
        PGPORT: p.port,
        PGUSER: p.user,
        PGDATABASE: p.database,
        PGCONNECT_TIMEOUT: 10,
        PGBENCH_SCALE: s.pgbench.scale,
        PGBENCH_CLIENTS: s.pgbench.clients,
        PGBENCH_THREADS: s.pgbench.threads,
        PGBENCH_DURATION: s.pgbench.durationSeconds,
        PGBENCH_FOREIGN_KEYS: flag(s.pgbench.foreignKeys),
        PGBENCH_PER_STATEMENT: flag(s.pgbench.perStatementLatencies),
        PGBENCH_PROGRESS: s.pgbench.progressSeconds,
        PGBENCH_SETTLE: s.pgbench.settleSeconds,
        PGBENCH_INIT: s.pgbench.init,
        PG_READY_TIMEOUT: s.pgbench.readyTimeoutSeconds,
        ...common,
      });
    }
  }
}

/** A Job container's environment: {@link scriptEnv} at the Job's places, pgbench's password from its Secret after `PGDATABASE`. */
function toolEnv(tool: BenchTool, s: ResolvedBench): IEnvVar[] {
  const vars: IEnvVar[] = Object.entries(scriptEnv(tool, s, JOB_PLACES)).map(([name, value]) => ({ name, value }));
  const p = s.postgres;
  if (tool !== "pgbench" || p === undefined) return vars;
  const at = vars.findIndex((v) => v.name === "PGDATABASE") + 1;
  const password: IEnvVar = { name: "PGPASSWORD", valueFrom: { secretKeyRef: { name: p.passwordSecret.name, key: p.passwordSecret.key } } };
  return [...vars.slice(0, at), password, ...vars.slice(at)];
}

/** The options of a tool that shape its numbers, as sample metadata (a Job's {@link RenderedJob.options}; `lab bench local`'s samples too). */
export function toolOptions(tool: BenchTool, s: ResolvedBench): Record<string, string | number | boolean> {
  switch (tool) {
    case "fio":
      return {
        fioProfile: s.fio.profile,
        fioSize: s.fio.size,
        ...(s.fio.profile === "seed" ? {} : { fioRuntimeSeconds: s.fio.runtimeSeconds, fioRampSeconds: s.fio.rampSeconds }),
        ...FIO_CACHE_METADATA,
      };
    case "ioping":
      return { iopingCount: s.ioping.count, iopingIntervalMs: s.ioping.intervalMs, iopingDirect: s.ioping.direct };
    case "pgbench": {
      const p = s.pgbench;
      const commands = pgbenchCommands(p);
      return {
        scale: p.scale,
        clients: p.clients,
        threads: p.threads,
        durationSeconds: p.durationSeconds,
        pgbenchInitCommand: commands.init,
        pgbenchCommand: commands.run,
        pgbenchForeignKeys: p.foreignKeys,
        pgbenchPerStatementLatencies: p.perStatementLatencies,
        pgbenchProgressSeconds: p.progressSeconds,
        pgbenchSettleSeconds: p.settleSeconds,
        // The client's share of the node: the published one is Guaranteed at 2 CPU / 8 Gi.
        pgbenchCpuRequest: s.resources.pgbench.requests.cpu,
        pgbenchCpuLimit: s.resources.pgbench.limits.cpu,
        pgbenchMemoryRequest: s.resources.pgbench.requests.memory,
        pgbenchMemoryLimit: s.resources.pgbench.limits.memory,
      };
    }
  }
}

function renderJob(tool: BenchTool, s: ResolvedBench, configMapName: string, pvcName: string | undefined): RenderedJob {
  const name = jobName(s.name, tool, s.runId);
  const labels = { ...benchLabels(s.name, tool), [RUN_ID_LABEL]: s.runId };
  const usesVolume = tool !== "pgbench";
  const uid = usesVolume ? TOOLS_IMAGE_UID : PGBENCH_IMAGE_UID;
  const image = usesVolume ? s.toolsImage : s.pgbenchImage;
  if (image === undefined) throw new Error(`no image for ${tool}`);
  const volumeMounts: IVolumeMount[] = [
    { name: "scripts", mountPath: MOUNTS.scripts, readOnly: true },
    { name: "tmp", mountPath: MOUNTS.tmp },
  ];
  const volumes: IVolume[] = [
    { name: "scripts", configMap: { name: configMapName, defaultMode: 0o444 } },
    { name: "tmp", emptyDir: { sizeLimit: "256Mi" } },
  ];
  if (usesVolume) {
    if (pvcName === undefined) throw new Error(`${tool} needs the volume under test`);
    volumeMounts.push({ name: "data", mountPath: MOUNTS.data });
    volumes.push({ name: "data", persistentVolumeClaim: { claimName: pvcName } });
  }
  const r = s.resources[tool];
  const container: IContainer = {
    name: tool,
    image,
    imagePullPolicy: "IfNotPresent",
    command: ["/bin/sh", `${MOUNTS.scripts}/${tool}.sh`],
    env: toolEnv(tool, s),
    resources: { requests: { ...r.requests }, limits: { ...r.limits } },
    securityContext: restrictedContainerSecurityContext(),
    volumeMounts,
  };
  const deadline = activeDeadlineSeconds(tool, s);
  const job: IJob = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, namespace: s.namespace, labels },
    spec: {
      backoffLimit: 0,
      completions: 1,
      parallelism: 1,
      activeDeadlineSeconds: deadline,
      ttlSecondsAfterFinished: s.ttlSecondsAfterFinished,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          terminationGracePeriodSeconds: 30,
          securityContext: restrictedPodSecurityContext(uid, usesVolume),
          ...(Object.keys(s.nodeSelector).length > 0 ? { nodeSelector: { ...s.nodeSelector } } : {}),
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE_LABEL, operator: "In", values: [s.zone] }] }],
              },
            },
          },
          containers: [container],
          volumes,
        },
      },
    },
  };
  return {
    tool,
    name,
    job,
    reps: s.reps,
    activeDeadlineSeconds: deadline,
    waitTimeoutSeconds: deadline + COLLECT_SLACK_SECONDS,
    usesVolume,
    options: toolOptions(tool, s),
  };
}

/**
 * Renders the run: PVC (when fio or ioping runs), ConfigMap (`scripts`: the Job scripts by file
 * name, from scripts.ts; plus every fio profile's job file), and the Jobs in run order. `spec`
 * must be valid (rules.ts `problems`, which BenchmarkRun turns into its argument error first);
 * an invalid one is a programming error, thrown with every problem.
 */
export function renderBenchmark(spec: BenchSpec, scripts: Readonly<Record<string, string>>): BenchManifests {
  const found = problems(spec);
  if (found.length > 0) {
    throw new Error(`renderBenchmark: invalid spec (check it with problems() first):\n${found.map((p) => formatArgProblem(p)).join("\n")}`);
  }
  const s = resolve(spec);
  for (const f of ["lib.sh", ...s.tools.map((t) => `${t}.sh`)]) {
    if (typeof scripts[f] !== "string") throw new Error(`renderBenchmark: script ${f} missing`);
  }
  const configMapName = `${s.name}-scripts`;
  const configMap: IConfigMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: configMapName, namespace: s.namespace, labels: benchLabels(s.name, "bench-scripts") },
    data: { ...scripts, ...renderFioJobFiles() },
  };
  const needsVolume = s.tools.includes("fio") || s.tools.includes("ioping");
  const pvcName = needsVolume ? `${s.name}-data` : undefined;
  const pvc: IPersistentVolumeClaim | undefined =
    pvcName === undefined
      ? undefined
      : {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          metadata: { name: pvcName, namespace: s.namespace, labels: benchLabels(s.name, "bench-data") },
          spec: {
            accessModes: ["ReadWriteOnce"],
            volumeMode: "Filesystem",
            storageClassName: s.storageClass,
            resources: { requests: { storage: `${s.pvcSizeGiB}Gi` } },
          },
        };
  const jobs = s.tools.map((t) => renderJob(t, s, configMapName, pvcName));
  return { settings: s, configMap, pvc, jobs };
}
