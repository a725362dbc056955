/**
 * `lab:bench:BenchmarkRun`: runs fio, ioping and/or pgbench as Kubernetes Jobs against a
 * StorageClass (or a Postgres server) in one availability zone, and returns their results as
 * samples.
 *
 * How it works:
 *
 * 1. **Check and render** (rules.ts, render.ts, pure): the constructor reports every bad argument
 *    at once (Pulumi's `InputPropertiesError`, components/lib/args.ts), resolves the defaults and
 *    renders a ConfigMap with the scripts and fio job files, the volume under test (a
 *    ReadWriteOnce PVC on `storageClass`) and one Job per tool, named `<name>-<tool>-<runId>`.
 * 2. **Deploy**: the objects become `@pulumi/kubernetes` resources, children of this component,
 *    so the Kubernetes provider passed in this component's `opts` (`providers`) reaches them. Jobs
 *    carry `pulumi.com/skipAwait` because step 3 does the waiting (the provider's own Job await
 *    gives up after 10 minutes and reports a failure without the benchmark's log).
 * 3. **Collect**: per Job a `@pulumi/command` `local.Command`, `<name>-<tool>-collect-<runId>`,
 *    runs scripts/collect-job.sh on the deploying machine (kubectl required): it writes the
 *    kubeconfig (a secret input) to a private temporary file, uses it for one request, a token of
 *    the run's own ServiceAccount `<name>-collect` (access.ts: get on these Jobs, list/watch pods,
 *    list events, get pods/log in the namespace; collector-access.ts), and with that token polls the Job every
 *    {@link COLLECT_POLL_SECONDS} s until it is Complete (then prints `kubectl logs job/<name>`),
 *    Failed or past its deadline (then prints the Job's description and log on stderr and exits 1,
 *    failing the update with the reason), or gone (NotFound: it says so and exits 1 at once).
 * 4. **Parse**: the command's stdout is cut at the LAB-RESULT markers (collect.ts), each
 *    repetition is parsed by core/parsers' `parseToolOutput` and merged with the run metadata →
 *    {@link BenchmarkRun.results}. That metadata is the one the collector recorded when it ran
 *    (its `LAB_RUN_METADATA`, printed before the Job's log: collect.ts `RUN_METADATA_ENV`), never
 *    the config of a later update: after a change of, say, `lab:instanceType` that re-runs nothing,
 *    the samples still say the type they were measured on (`lab plan --change` lists them). A truncated or malformed log fails the update; it never yields
 *    a partial result. {@link BenchmarkRun.rawOutputs} keeps the raw outputs for
 *    lab/results/files.ts. No resource is created inside an `apply`.
 *
 * A collection happens once per run. `local.Command` re-runs `create` on any change of an input
 * that is not a trigger when it has no `update` ("If an update command isn't provided, then create
 * will also be run when the resource's inputs are modified", @pulumi/command 1.2.1
 * local/command.d.ts), and after `ttlSecondsAfterFinished` the Job is gone, so re-running would
 * fail. An `update` cannot re-print the stored result either: the provider hands it over in the
 * environment (`PULUMI_COMMAND_STDOUT`, pulumi/pulumi-command provider/pkg/provider/local/commandOutputs.go),
 * and Linux refuses to start a process with one environment string above 128 KiB (`MAX_ARG_STRLEN`,
 * execve(2)), which a Job's log exceeds. So the collector ignores changes to every input but its
 * `triggers` (`ignoreChanges`: "Pulumi ignores a property by using the old value from the state",
 * https://www.pulumi.com/docs/iac/concepts/options/ignorechanges/), and its name carries the run
 * id, so a new run id is a new collector created with the current script, kubeconfig and timeout
 * (never the old ones an ignored property would keep across a replacement).
 *
 * Re-running: changing the run id re-creates the Jobs (new names) and collects them; re-running a
 * benchmark without touching the infrastructure is one config change. A finished Job is deleted by
 * Kubernetes after `ttlSecondsAfterFinished` (default one day); a `pulumi refresh` after that drops
 * it from the state, and the next `pulumi up` creates it again under the same run id. Its script
 * then refuses to run (exit 4: the run id is stamped done on the volume under test, or in the
 * database for pgbench), the Job fails, and the collector (whose trigger, the Job's uid, changed)
 * fails the update with that message: a run id never runs twice, its results are never replaced
 * silently. Change the run id to run again; also after re-creating the cluster, since a run's
 * collectors keep the kubeconfig they were created with (an ignored input keeps its old value
 * across a replacement).
 *
 * Deletion: objects that die with the cluster (ConfigMap, the pgbench Job) take the caller's
 * `deletedWith`; the volume under test and the Jobs that mount it do not: deleting a PVC frees
 * cloud storage (an EBS volume, a FlexVol on FSx for ONTAP, which must be gone before FSx deletes
 * its SVM), so Pulumi deletes them one by one before the cluster (they depend on it through the
 * Kubernetes provider), the Jobs first, then the PVC. The provider deletes "using foreground
 * cascading delete by default" and waits for the object's Deleted event (unless it skips the
 * await, as the Jobs do): pulumi/pulumi-kubernetes provider/pkg/await/await.go, `Deletion`. So
 * the Jobs' pods go, the claim is released, and the PVC is gone before the cluster is deleted.
 * The PersistentVolume behind it is then deleted by the CSI driver (reclaim policy `Delete`).
 *
 * Tools run one after the other: each Job depends on the previous Job's collecting command, so
 * fio, ioping and pgbench never share the storage at the same time. Pass another run in
 * `runAfter` to serialise two runs on the same storage (e.g. same-AZ, then cross-AZ).
 *
 * Values known later: `zone` and `toolsImage` may be Outputs (or promises), e.g. an upstream
 * stack's zone or the reference of an image built in the same update. The rules and the renderers
 * stay plain (rules.ts, render.ts): the component renders with the
 * {@link LATER_INPUT_PLACEHOLDERS} in their place (valid values, so every other argument is
 * checked at construction as usual) and swaps each placeholder for its Output in the resources'
 * arguments (Pulumi accepts Inputs nested anywhere in them; a string holding a placeholder among
 * other text would become the concatenation). The Output swapped in is checked: when the value
 * resolves, the run is checked again with it in place of its placeholder, by the same `problems`
 * and `throwIfInvalid`. A bad value rejects the arguments that hold it, so the Jobs are never
 * registered and the update (or a preview where the value is known) fails with the message the
 * same value gets at construction, behind the SDK's `error serializing property "spec": `. (Each
 * use gets its own check, so its own error: the SDK prefixes an error's message in place.)
 * The samples then never resolve (their collectors wait for the Jobs); otherwise their `zone` is
 * the resolved value. Each Output is checked on its own, so a known zone shows while the image is
 * still unknown (the first preview of an image built in the same update); with a zone and an
 * image both bad, the update reports one of them. An unknown value stays unknown in the
 * Jobs: a placeholder never reaches the engine. `metadata` may be an Output too (only the samples
 * wait for it).
 */
import * as command from "@pulumi/command";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { parseToolOutput } from "../../core/parsers";
import type { RunMetadata, Sample } from "../../core/sample";
import { collectorAccountName, collectorGrant } from "./access";
import { collectSamples, runMetadataEnv, RUN_METADATA_ENV, type RawOutput } from "./collect";
import { createCollectorAccess } from "./collector-access";
import { renderBenchmark } from "./render";
import { problems, type BenchSpec } from "./rules";
import { readCollectScript, readJobScripts } from "./scripts";
import { COLLECT_POLL_SECONDS } from "./sizing";
import { throwIfInvalid } from "../lib/args";
import { childOptions } from "../lib/child";

export type { BenchSpec, BenchTool, ContainerResources, PostgresTarget, PgbenchInit } from "./rules";
export type { FioProfile } from "./profiles";
export type { RawOutput } from "./collect";

/** The component's type token. */
export const BENCHMARK_RUN_TYPE = "lab:bench:BenchmarkRun";

/**
 * Arguments of {@link BenchmarkRun}: every field of {@link BenchSpec} (documented in rules.ts,
 * with its default and unit) except `name`, which is the component's name, plus what the
 * collection needs. The spec fields are plain values on purpose: the manifests are rendered and
 * checked when the component is constructed, so `lab plan` shows them and errors come all at once.
 * `zone` and `toolsImage` may also be Outputs: they are checked when they resolve (see "Values
 * known later" in the module comment).
 */
export interface BenchmarkRunArgs extends Omit<BenchSpec, "name" | "zone" | "toolsImage"> {
  /** {@link BenchSpec.zone}; an Output is checked by the same rule once it resolves. */
  readonly zone: pulumi.Input<string>;
  /** {@link BenchSpec.toolsImage}; an Output is checked by the same rule once it resolves. */
  readonly toolsImage?: pulumi.Input<string>;
  /** Kubeconfig of the cluster (content, kept secret), for the collecting `kubectl`. */
  readonly kubeconfig: pulumi.Input<string>;
  /**
   * Metadata every sample carries: scenario, stack, instanceType, hypervisor, zoneRelation, and
   * `storageClass` for pgbench (the Postgres volume's). `runId`, `zone`, `rep`, the tool's
   * options and, for fio/ioping, `storageClass` are added by the component. May be an Output
   * (e.g. an upstream stack's instance type): only the samples wait for it.
   * @default {}
   */
  readonly metadata?: pulumi.Input<RunMetadata>;
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
 * The collector's inputs whose changes are ignored: all of them but `triggers` (see the module
 * comment). A test checks that this covers every input the component passes.
 */
export const COLLECT_IGNORED_INPUTS = ["create", "interpreter", "environment", "logging", "addPreviousOutputInEnv"] as const;

/**
 * The rendered objects as provider arguments. They are the same Kubernetes shapes; the
 * kubernetes-models types only differ in allowing numeric quantities (the renderers write strings)
 * and a `status` (never rendered).
 */
function asArgs<A>(rendered: object): A {
  return rendered as unknown as A;
}

/**
 * What the run is rendered with in place of a `zone` or `toolsImage` given as an Output (see
 * "Values known later" in the module comment): valid values, so the rules pass them and check
 * every other argument; never a real zone or registry (`.invalid` is a reserved top-level domain,
 * RFC 2606), and never sent to the engine: {@link withLaterInputs} swaps them for the Outputs.
 */
export const LATER_INPUT_PLACEHOLDERS = {
  zone: "lab-zone-known-later",
  toolsImage: "known-later.invalid/storage-bench-lab/tools:known-later",
} as const;
type LaterArg = keyof typeof LATER_INPUT_PLACEHOLDERS;
const LATER_ARGS = Object.keys(LATER_INPUT_PLACEHOLDERS) as LaterArg[];

/** An Input that is not a plain value yet: an Output or a promise. */
function isLater(v: unknown): boolean {
  return pulumi.Output.isInstance(v) || v instanceof Promise;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `value` (rendered objects) with every placeholder of `later` (placeholder → a maker of its
 * Output, called once per occurrence) swapped for its Output: a string that is a placeholder
 * becomes the Output, a string holding one among other text the Outputs' concatenation; arrays and
 * objects are walked, other values kept. A placeholder in an object key (which cannot be an
 * Output) is a programming error.
 */
export function withLaterInputs(value: unknown, later: ReadonlyMap<string, () => pulumi.Output<string>>): unknown {
  if (typeof value === "string") {
    const exact = later.get(value);
    if (exact !== undefined) return exact();
    const found = [...later.keys()].filter((p) => value.includes(p));
    if (found.length === 0) return value;
    const parts = value.split(new RegExp(`(${found.map(escapeRegExp).join("|")})`)).filter((p) => p !== "");
    return pulumi.concat(...parts.map((p) => later.get(p)?.() ?? p));
  }
  if (Array.isArray(value)) return value.map((v) => withLaterInputs(v, later));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const inKey = [...later.keys()].find((p) => k.includes(p));
        if (inKey !== undefined) throw new Error(`withLaterInputs: placeholder ${JSON.stringify(inKey)} in the key ${JSON.stringify(k)}`);
        return [k, withLaterInputs(v, later)];
      }),
    );
  }
  return value;
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
    super(BENCHMARK_RUN_TYPE, name, {}, opts);
    const { kubeconfig, metadata, runAfter, rawPrefix, zone, toolsImage, ...rest } = args;
    // Values known later are rendered and checked as their placeholders now, and checked when they resolve.
    const given: Record<LaterArg, unknown> = { zone, toolsImage };
    const laterArgs = LATER_ARGS.filter((k) => isLater(given[k]));
    const now = (k: LaterArg) => (laterArgs.includes(k) ? LATER_INPUT_PLACEHOLDERS[k] : given[k]);
    const spec: BenchSpec = { ...rest, name, zone: now("zone") as string, toolsImage: now("toolsImage") as string | undefined };
    throwIfInvalid(BENCHMARK_RUN_TYPE, name, problems(spec));
    // Each value checked on its own (a known zone shows while the image is unknown), and afresh where
    // it is used: each argument it fails gets its own error (the SDK prefixes an error's message in place).
    const checks = new Map(
      laterArgs.map((k) => [
        LATER_INPUT_PLACEHOLDERS[k] as string,
        () =>
          pulumi.output(given[k] as pulumi.Input<string>).apply((value) => {
            throwIfInvalid(BENCHMARK_RUN_TYPE, name, problems({ ...spec, [k]: value }));
            return value;
          }),
      ]),
    );
    const withInputs = (rendered: object): object => (checks.size === 0 ? rendered : (withLaterInputs(rendered, checks) as object));
    const m = renderBenchmark(spec, readJobScripts());
    const s = m.settings;
    // The samples' zone: the value as resolved (a bad one fails the Jobs, whose collectors the samples wait for).
    const zoneOf: pulumi.Output<string> = laterArgs.includes("zone") ? pulumi.output(zone) : pulumi.output(s.zone);
    const collectScript = readCollectScript();
    // Objects that die with the cluster go with it (deletedWith is not inherited) ...
    const diesWithCluster = childOptions(this, opts);
    // ... storage does not: it is deleted before the cluster (see the module comment).
    const freesStorage: pulumi.CustomResourceOptions = { parent: this };

    // Everything waits for `runAfter` (the namespace's owner, the StorageClass, the server, an earlier run).
    const after: pulumi.Resource[] = [...(runAfter ?? [])];
    const configMap = new k8s.core.v1.ConfigMap(`${name}-scripts`, asArgs<k8s.core.v1.ConfigMapArgs>(withInputs(m.configMap)), {
      ...diesWithCluster,
      dependsOn: after,
    });
    const pvc = m.pvc
      ? new k8s.core.v1.PersistentVolumeClaim(`${name}-data`, asArgs<k8s.core.v1.PersistentVolumeClaimArgs>(withInputs(m.pvc)), {
          ...freesStorage,
          dependsOn: after,
        })
      : undefined;

    // The collectors' own identity: get on these Jobs, their pods, events and logs (access.ts).
    const access = createCollectorAccess(
      name,
      collectorGrant(
        collectorAccountName(name),
        s.namespace,
        m.jobs.map((rj) => rj.name),
      ),
      diesWithCluster,
      after,
    );

    let previous: pulumi.Resource[] = after;
    const collected: pulumi.Output<{ samples: Sample[]; raws: RawOutput[] }>[] = [];
    for (const rj of m.jobs) {
      const job = new k8s.batch.v1.Job(
        `${name}-${rj.tool}`,
        asArgs<k8s.batch.v1.JobArgs>(withInputs({ ...rj.job, metadata: { ...rj.job.metadata, annotations: { ...SKIP_AWAIT } } })),
        {
          ...(rj.usesVolume ? freesStorage : diesWithCluster),
          dependsOn: [configMap, ...(pvc ? [pvc] : []), ...previous],
          deleteBeforeReplace: true,
        },
      );
      const runOf = (meta: RunMetadata, resolvedZone: string): RunMetadata => ({
        ...meta,
        runId: s.runId,
        zone: resolvedZone,
        ...(rj.tool === "pgbench" ? {} : { storageClass: s.storageClass }),
        ...rj.options,
      });
      // The setup the Job runs on, recorded by the collector when it runs (collect.ts RUN_METADATA_ENV).
      const setup = pulumi
        .all([pulumi.output(metadata ?? {}), zoneOf])
        .apply(([meta, resolvedZone]) => runOf(meta as RunMetadata, resolvedZone));
      const collect = new command.local.Command(
        `${name}-${rj.tool}-collect-${s.runId}`,
        {
          create: collectScript,
          interpreter: ["/bin/sh", "-c"],
          environment: {
            JOB_NAME: rj.name,
            JOB_NAMESPACE: s.namespace,
            WAIT_TIMEOUT_SECONDS: String(rj.waitTimeoutSeconds),
            POLL_SECONDS: String(COLLECT_POLL_SECONDS),
            // The admin kubeconfig asks for the collector's token only; every read uses the token.
            ...access.environment(rj.waitTimeoutSeconds),
            LAB_KUBECONFIG: pulumi.secret(kubeconfig),
            [RUN_METADATA_ENV]: setup.apply(runMetadataEnv),
          },
          // A Job created again (new uid) under this run id is collected again: its refusal fails the update.
          triggers: [s.runId, rj.name, job.metadata.uid],
          // stdout (the raw results) becomes an output; stderr carries the progress worth seeing.
          logging: "stderr",
          // Never hand a stored log back through the environment (the 128 KiB limit above).
          addPreviousOutputInEnv: false,
        },
        { parent: this, dependsOn: [job, access.ready], ignoreChanges: [...COLLECT_IGNORED_INPUTS] },
      );
      previous = [collect];

      collected.push(
        // The log holds no secret (the kubeconfig only reaches the command's environment).
        // The samples carry the metadata the collector recorded when the Job ran, not today's config.
        pulumi.all([pulumi.unsecret(collect.stdout), setup]).apply(([stdout, current]) =>
          // No stdout only under the mock runtime (`lab plan`, tests): nothing was collected.
          stdout === undefined
            ? { samples: [], raws: [] }
            : collectSamples(
                stdout,
                {
                  tool: rj.tool,
                  reps: rj.reps,
                  source: `job/${rj.name}`,
                  run: current as RunMetadata,
                  recordedRun: true,
                  rawPrefix,
                },
                parseToolOutput,
              ),
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
