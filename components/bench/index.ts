/**
 * `lab:bench:BenchmarkRun`: runs fio, ioping and/or pgbench as Kubernetes Jobs against a
 * StorageClass (or a Postgres server) in one availability zone, and returns their results as
 * samples.
 *
 * How it works:
 *
 * 1. **Render** (render.ts, pure): the constructor resolves defaults, validates every argument
 *    (all problems in one ConfigError naming the config keys) and renders a ConfigMap with the
 *    scripts and fio job files (the same files `lab bench local` runs), the volume under test (a
 *    ReadWriteOnce PVC on `storageClass`) and one Job per tool, named `<name>-<tool>-<runId>`.
 * 2. **Deploy**: the objects become `@pulumi/kubernetes` resources, children of this component,
 *    so the Kubernetes provider passed in this component's `opts` (`providers`) reaches them. Jobs
 *    carry `pulumi.com/skipAwait` because step 3 does the waiting (the provider's own Job await
 *    gives up after 10 minutes and reports a failure without the benchmark's log).
 * 3. **Collect**: per Job a `@pulumi/command` `local.Command` runs scripts/collect-job.sh on the
 *    deploying machine (kubectl required): it writes the kubeconfig (a secret input) to a private
 *    temporary file, polls the Job until it is Complete (then prints `kubectl logs job/<name>`) or
 *    Failed or past its deadline (then prints the Job's description and log on stderr and exits
 *    1, failing the update with the reason). Its `triggers` hold the run id, the Job name and the
 *    Job's uid, so changing `lab:runId` re-creates the Jobs (new names) and re-collects: re-running
 *    a benchmark without touching the infrastructure is one config change.
 * 4. **Parse**: the command's stdout is cut at the LAB-RESULT markers (collect.ts), each
 *    repetition is parsed by core/parsers' `parseToolOutput` and merged with the run metadata →
 *    {@link BenchmarkRun.results}. A truncated or malformed log fails the update; it never yields
 *    a partial result. {@link BenchmarkRun.rawOutputs} keeps the raw outputs for
 *    lab/results/files.ts. No resource is created inside an `apply`.
 *
 * Tools run one after the other: each Job depends on the previous Job's collecting command, so
 * fio, ioping and pgbench never share the storage at the same time. Pass another run in
 * `runAfter` to serialise two runs on the same storage (e.g. same-AZ, then cross-AZ).
 *
 * Caveat: a finished Job is deleted by Kubernetes after `ttlSecondsAfterFinished` (default one
 * day). A `pulumi refresh` after that drops it from the state, and the next `pulumi up` would run
 * it again without collecting; change `lab:runId` to re-run on purpose.
 */
import * as command from "@pulumi/command";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { parseToolOutput } from "../../core/parsers";
import type { RunMetadata, Sample } from "../../core/sample";
import { collectSamples, type RawOutput } from "./collect";
import { renderBenchmark, type BenchSpec } from "./render";
import { readCollectScript, readJobScripts } from "./scripts";
import { childOptions } from "../lib/child";

export type { BenchSpec, BenchTool, ContainerResources, PostgresTarget, PgbenchInit } from "./render";
export type { FioProfile } from "./profiles";
export type { RawOutput } from "./collect";

/**
 * Arguments of {@link BenchmarkRun}: every field of {@link BenchSpec} (documented there, with its
 * default and unit) except `name`, which is the component's name, plus what the collection needs.
 * The spec fields are plain values on purpose: the manifests are rendered and checked when the
 * component is constructed, so `lab plan` shows them and errors come all at once.
 */
export interface BenchmarkRunArgs extends Omit<BenchSpec, "name"> {
  /** Kubeconfig of the cluster (content, kept secret), for the collecting `kubectl`. */
  readonly kubeconfig: pulumi.Input<string>;
  /**
   * Metadata every sample carries: scenario, stack, instanceType, hypervisor, zoneRelation, and
   * `storageClass` for pgbench (the Postgres volume's). `runId`, `zone`, `rep`, the tool's
   * options and, for fio/ioping, `storageClass` are added by the component.
   * @default {}
   */
  readonly metadata?: RunMetadata;
  /**
   * Resources that must exist (or, for commands and other runs, have finished) before this run
   * creates anything: the namespace, the StorageClass, the Postgres StatefulSet, another
   * BenchmarkRun on the same storage.
   * @default []
   */
  readonly runAfter?: readonly pulumi.Resource[];
  /** Prefix of the raw output names, to tell runs apart in one results directory (e.g. "same-az-"). @default "" */
  readonly rawPrefix?: string;
}

/** Annotation that makes the Kubernetes provider create a Job without waiting for it to finish. */
export const SKIP_AWAIT = { "pulumi.com/skipAwait": "true" } as const;

/**
 * The rendered objects as provider arguments. They are the same Kubernetes shapes; the
 * kubernetes-models types only differ in allowing numeric quantities (the renderers write strings)
 * and a `status` (never rendered).
 */
function asArgs<A>(rendered: object): A {
  return rendered as unknown as A;
}

/** Runs the benchmark Jobs of one run and collects their samples. */
export class BenchmarkRun extends pulumi.ComponentResource {
  /** Every sample of every tool and repetition, run metadata included. */
  readonly results: pulumi.Output<Sample[]>;
  /** Every repetition's raw output (`fio-rep1.json`, …), for `results/<stack>/<runId>/raw/`. */
  readonly rawOutputs: pulumi.Output<RawOutput[]>;
  /** Names of the Jobs, in run order. */
  readonly jobNames: pulumi.Output<string[]>;
  /** Name of the volume under test (empty when only pgbench runs). */
  readonly pvcName: pulumi.Output<string>;

  constructor(name: string, args: BenchmarkRunArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:bench:BenchmarkRun", name, {}, opts);
    const { kubeconfig, metadata, runAfter, rawPrefix, ...spec } = args;
    const m = renderBenchmark({ ...spec, name }, readJobScripts());
    const s = m.settings;
    const collectScript = readCollectScript();
    // Objects inside a cluster that is being destroyed go with it (deletedWith is not inherited).
    const child = childOptions(this, opts);

    // Everything waits for `runAfter` (the namespace's owner, the StorageClass, the server, an earlier run).
    const after: pulumi.Resource[] = [...(runAfter ?? [])];
    const configMap = new k8s.core.v1.ConfigMap(`${name}-scripts`, asArgs<k8s.core.v1.ConfigMapArgs>(m.configMap), {
      ...child,
      dependsOn: after,
    });
    const pvc = m.pvc
      ? new k8s.core.v1.PersistentVolumeClaim(`${name}-data`, asArgs<k8s.core.v1.PersistentVolumeClaimArgs>(m.pvc), {
          ...child,
          dependsOn: after,
        })
      : undefined;

    let previous: pulumi.Resource[] = after;
    const collected: pulumi.Output<{ samples: Sample[]; raws: RawOutput[] }>[] = [];
    for (const rj of m.jobs) {
      const job = new k8s.batch.v1.Job(
        `${name}-${rj.tool}`,
        asArgs<k8s.batch.v1.JobArgs>({ ...rj.job, metadata: { ...rj.job.metadata, annotations: { ...SKIP_AWAIT } } }),
        { ...child, dependsOn: [configMap, ...(pvc ? [pvc] : []), ...previous], deleteBeforeReplace: true },
      );
      const collect = new command.local.Command(
        `${name}-${rj.tool}-collect`,
        {
          create: collectScript,
          interpreter: ["/bin/sh", "-c"],
          environment: {
            JOB_NAME: rj.name,
            JOB_NAMESPACE: s.namespace,
            WAIT_TIMEOUT_SECONDS: String(rj.waitTimeoutSeconds),
            LAB_KUBECONFIG: pulumi.secret(kubeconfig),
          },
          triggers: [s.runId, rj.name, job.metadata.uid],
          // stdout (the raw results) becomes an output; stderr carries the progress worth seeing.
          logging: "stderr",
        },
        { parent: this, dependsOn: [job] },
      );
      previous = [collect];

      const run: RunMetadata = {
        ...metadata,
        runId: s.runId,
        zone: s.zone,
        ...(rj.tool === "pgbench" ? {} : { storageClass: s.storageClass }),
        ...rj.options,
      };
      collected.push(
        // The log holds no secret (the kubeconfig only reaches the command's environment).
        pulumi.unsecret(collect.stdout).apply((stdout) =>
          // No stdout only under the mock runtime (`lab plan`, tests): nothing was collected.
          stdout === undefined
            ? { samples: [], raws: [] }
            : collectSamples(stdout, { tool: rj.tool, reps: rj.reps, source: `job/${rj.name}`, run, rawPrefix }, parseToolOutput),
        ),
      );
    }

    this.results = pulumi.all(collected).apply((list) => list.flatMap((c) => c.samples));
    this.rawOutputs = pulumi.all(collected).apply((list) => list.flatMap((c) => c.raws));
    this.jobNames = pulumi.output(m.jobs.map((j) => j.name));
    this.pvcName = pulumi.output(m.pvc?.metadata?.name ?? "");
    this.registerOutputs({ results: this.results, rawOutputs: this.rawOutputs, jobNames: this.jobNames, pvcName: this.pvcName });
  }
}
