/**
 * `lab:omb:OmbBenchmark`: the OpenMessaging Benchmark against a Kafka cluster: workers (StatefulSet
 * + headless Service on the client nodes), then the matrix driver files × replication factors, one
 * driver Job per cell, cells strictly one after the other, each cell's results collected and parsed.
 *
 * Collection is BenchmarkRun's (components/bench): a `local.Command` per Job runs
 * components/bench/scripts/collect-job.sh (waits for the Job, prints its log; kubectl on the deploying
 * machine), the log is cut at its LAB-RESULT markers (tool `omb`, scripts/driver.sh) and each
 * repetition goes through core/parsers/omb.ts (`parseToolOutput("omb", …)`) into samples, with the
 * run's and the cell's metadata: `driverConfig`, `replicationFactor`, `ombWorkload`, `ombPayload`
 * (what its messages hold: files.ts workloadPayload), `testDurationMinutes`, `ombWorkers`, `runId`, `rep`, and what the stack passes (`metadata`: broker
 * and client instance types, the FSx throughput capacity, …). The same rules as there: the collector
 * ignores changes to everything but its triggers (run id, Job name, Job uid); a new run id is a new
 * matrix (new Jobs, new collectors); a truncated log fails the update, never a partial result.
 *
 * Order: the first Job waits for `runAfter` (the Kafka cluster, awaited Ready), the workers and the
 * ConfigMap; every next Job for the previous cell's collector, so two cells never share the
 * brokers. No resource is created inside an `apply`: a later image (a freshly built one) is put into
 * the rendered manifests by a placeholder (../kafka/later.ts).
 */
import * as command from "@pulumi/command";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseToolOutput } from "../../core/parsers";
import type { RunMetadata, Sample } from "../../core/sample";
import { COLLECT_IGNORED_INPUTS, SKIP_AWAIT } from "../bench";
import { collectorAccountName, collectorGrant } from "../bench/access";
import { createCollectorAccess } from "../bench/collector-access";
import { collectSamples, runMetadataEnv, RUN_METADATA_ENV, type RawOutput } from "../bench/collect";
import { readCollectScript } from "../bench/scripts";
import { COLLECT_POLL_SECONDS } from "../bench/sizing";
import { withLaterInput } from "../kafka/later";
import { throwIfInvalid } from "../lib/args";
import { childOptions } from "../lib/child";
import { podSecurityNamespaceManifest } from "../strimzi/manifests";
import {
  configMapManifest,
  driverJobManifest,
  driverJobName,
  workerServiceManifest,
  workerStatefulSetManifest,
  workerUrls,
} from "./manifests";
import { workloadPayload } from "./files";
import { driverDeadlineSeconds, MatrixCell, ombImageProblems, OmbSpec, problems, resolve } from "./rules";
import { KafkaPeer, ombNetworkPolicies } from "./network";

/** The script every driver Job runs (its one home). */
export const DRIVER_SCRIPT = path.join(__dirname, "scripts", "driver.sh");

/** Extra time the collector waits beyond a Job's deadline (scheduling, image pulls), s. */
export const COLLECT_MARGIN_SECONDS = 600;

/** What stands for an image known later (never sent: `.invalid` is reserved, RFC 2606). */
export const IMAGE_PLACEHOLDER = "known-later.invalid/storage-bench-lab/omb:known-later";
/** What stands for the clients' zone until it is known (never sent). */
export const ZONE_PLACEHOLDER = "zone-known-later";

export interface OmbBenchmarkArgs extends OmbSpec {
  /** The OMB image: pinned (a tag other than latest, or a digest); an Output is checked when it resolves. */
  readonly image: pulumi.Input<string>;
  /** Kubeconfig of the cluster (content, kept secret), for the collecting kubectl. */
  readonly kubeconfig: pulumi.Input<string>;
  /** Metadata every sample carries (scenario, stack, instance types, FSx throughput…). @default {} */
  readonly metadata?: pulumi.Input<RunMetadata>;
  /** What the first driver Job waits for (the Kafka cluster). @default [] */
  readonly runAfter?: readonly pulumi.Resource[];
  /** The Kafka cluster benchmarked: the OMB pods' only egress besides DNS (network.ts). */
  readonly kafka: KafkaPeer;
  /** The one zone the workers and drivers run in (a required node affinity on `topology.kubernetes.io/zone`). @default none: wherever {clientNodeGroup}'s nodes are */
  readonly zone?: pulumi.Input<string>;
}

/** One cell as exported. */
export interface CellOutput extends MatrixCell {
  readonly jobName: string;
}

export class OmbBenchmark extends pulumi.ComponentResource {
  /** Every sample of every cell, in matrix order. */
  readonly results: pulumi.Output<Sample[]>;
  /** Every repetition's result JSON (`<cell>-omb-rep<n>.json`). */
  readonly rawOutputs: pulumi.Output<RawOutput[]>;
  /** The cells in run order, with their Jobs. */
  readonly cells: pulumi.Output<CellOutput[]>;
  /** The `--workers` list every driver gets. */
  readonly workerUrls: pulumi.Output<string[]>;

  constructor(name: string, args: OmbBenchmarkArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:omb:OmbBenchmark", name, {}, opts);
    const later = pulumi.Output.isInstance(args.image) || args.image instanceof Promise;
    throwIfInvalid("lab:omb:OmbBenchmark", name, [...problems(args), ...(later ? [] : ombImageProblems(args.image, "image"))]);
    const r = resolve(args);
    const child = childOptions(this, opts);
    const image: pulumi.Input<string> = later
      ? pulumi.output(args.image).apply((i) => {
          throwIfInvalid("lab:omb:OmbBenchmark", name, ombImageProblems(i, "image"));
          return i;
        })
      : args.image;
    const imageNow = later ? IMAGE_PLACEHOLDER : (args.image as string);
    const zoneNow = args.zone === undefined ? undefined : ZONE_PLACEHOLDER;
    const withImage = <T>(m: T): T => {
      const z = args.zone === undefined ? m : withLaterInput(m, ZONE_PLACEHOLDER, args.zone);
      return later ? withLaterInput(z, IMAGE_PLACEHOLDER, image) : z;
    };

    const ns = new k8s.core.v1.Namespace(
      `${name}-ns`,
      podSecurityNamespaceManifest(r.namespace, "restricted") as k8s.core.v1.NamespaceArgs,
      child,
    );
    const inNs = { ...child, dependsOn: [ns] };
    const policies = ombNetworkPolicies(r.namespace, args.kafka).map(
      (p) => new k8s.networking.v1.NetworkPolicy(`${name}-policy-${p.metadata?.name}`, p as k8s.networking.v1.NetworkPolicyArgs, inNs),
    );
    const service = new k8s.core.v1.Service(`${name}-workers-svc`, workerServiceManifest(r) as k8s.core.v1.ServiceArgs, inNs);
    const config = new k8s.core.v1.ConfigMap(
      `${name}-config`,
      configMapManifest(r, fs.readFileSync(DRIVER_SCRIPT, "utf8")) as k8s.core.v1.ConfigMapArgs,
      inNs,
    );
    const workers = new k8s.apps.v1.StatefulSet(
      `${name}-workers`,
      withImage(workerStatefulSetManifest(r, imageNow, zoneNow)) as unknown as k8s.apps.v1.StatefulSetArgs,
      { ...inNs, dependsOn: [ns, service, config, ...policies] },
    );

    const collectScript = readCollectScript();
    const waitSeconds = driverDeadlineSeconds(r) + COLLECT_MARGIN_SECONDS;
    // The driver collectors' own identity (components/bench/access.ts): reads of these Jobs, their pods, events and logs.
    const access = createCollectorAccess(
      name,
      collectorGrant(
        collectorAccountName(name),
        r.namespace,
        r.cells.map((cell) => driverJobName(cell, r.runId)),
      ),
      child,
      [ns],
    );
    let previous: pulumi.Resource[] = [...(args.runAfter ?? [])];
    const collected: pulumi.Output<{ samples: Sample[]; raws: RawOutput[] }>[] = [];
    for (const cell of r.cells) {
      const jobName = driverJobName(cell, r.runId);
      const manifest = withImage(driverJobManifest(r, cell, imageNow, zoneNow));
      const job = new k8s.batch.v1.Job(
        `${name}-${cell.name}`,
        { ...manifest, metadata: { ...manifest.metadata, annotations: { ...SKIP_AWAIT } } } as unknown as k8s.batch.v1.JobArgs,
        { ...child, dependsOn: [config, workers, ...previous], deleteBeforeReplace: true },
      );
      const cellMetadata: RunMetadata = {
        runId: r.runId,
        driverConfig: cell.driver,
        replicationFactor: cell.replicationFactor,
        ombWorkload: r.workload,
        ombPayload: workloadPayload(r.workload),
        testDurationMinutes: r.testDurationMinutes,
        ombWorkers: r.workers,
      };
      // The setup the cell runs on, recorded by the collector when it runs (bench/collect.ts RUN_METADATA_ENV).
      const setup = pulumi.output(args.metadata ?? {}).apply((given): RunMetadata => ({ ...(given as RunMetadata), ...cellMetadata }));
      const collect = new command.local.Command(
        `${name}-${cell.name}-collect-${r.runId}`,
        {
          create: collectScript,
          interpreter: ["/bin/sh", "-c"],
          environment: {
            JOB_NAME: jobName,
            JOB_NAMESPACE: r.namespace,
            WAIT_TIMEOUT_SECONDS: String(waitSeconds),
            POLL_SECONDS: String(COLLECT_POLL_SECONDS),
            ...access.environment(waitSeconds),
            LAB_KUBECONFIG: pulumi.secret(args.kubeconfig),
            [RUN_METADATA_ENV]: setup.apply(runMetadataEnv),
          },
          // A Job created again (new uid) under this run id is collected again.
          triggers: [r.runId, jobName, job.metadata.uid],
          logging: "stderr",
          addPreviousOutputInEnv: false,
        },
        { parent: this, dependsOn: [job, access.ready], ignoreChanges: [...COLLECT_IGNORED_INPUTS] },
      );
      previous = [collect];
      collected.push(
        // The log holds no secret (the kubeconfig only reaches the command's environment).
        // The samples carry the metadata the collector recorded when the cell ran, not today's config.
        pulumi.all([pulumi.unsecret(collect.stdout), setup]).apply(([stdout, current]) =>
          // No stdout only under the mock runtime (`lab plan`, tests): nothing was collected.
          stdout === undefined
            ? { samples: [], raws: [] }
            : collectSamples(
                stdout,
                {
                  tool: "omb",
                  reps: r.reps,
                  source: `job/${jobName}`,
                  run: current as RunMetadata,
                  recordedRun: true,
                  rawPrefix: `${cell.name}-`,
                },
                parseToolOutput,
              ),
        ),
      );
    }

    this.results = pulumi.all(collected).apply((list) => list.flatMap((c) => c.samples));
    this.rawOutputs = pulumi.all(collected).apply((list) => list.flatMap((c) => c.raws));
    this.cells = pulumi.output(r.cells.map((c) => ({ ...c, jobName: driverJobName(c, r.runId) })));
    this.workerUrls = pulumi.output(workerUrls(r));
    this.registerOutputs({ results: this.results, rawOutputs: this.rawOutputs, cells: this.cells, workerUrls: this.workerUrls });
  }
}
