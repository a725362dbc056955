/**
 * The steps both failover experiments take with the Job they run (fio's in ./fsx-failover.ts, the
 * writer's in ./mysql-failover.ts): its ConfigMap and Job created with their cleanup registered
 * first, its pod found, the Job read, the Job stopped through its pod's stop annotation, and the
 * run's timeline as a raw file.
 */
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { RawFile } from "../results/files";
import { JOB_NAME_LABEL, type Cluster, type JobState, type PodState } from "./cluster";
import type { ExperimentContext, TimelineEvent } from "./context";
import { STOP_ANNOTATION } from "./manifests";
import type { StepContext } from "./steps";

type JobContext = Pick<ExperimentContext, "cluster" | "cleanup">;

/** Registers the deletion of ConfigMap `ns/name` (cleanup key `configmap`), then creates `configMap`. */
export async function createConfigMapWithCleanup(
  x: JobContext,
  ns: string,
  name: string,
  configMap: IConfigMap,
  timeoutMs: number,
): Promise<void> {
  const { cluster, cleanup } = x;
  cleanup.add({
    key: "configmap",
    leftover: `ConfigMap ${ns}/${name}: kubectl delete configmap -n ${ns} ${name}`,
    timeoutMs,
    run: async () => {
      await cluster.deleteConfigMap(ns, name);
      return `deleted ConfigMap ${ns}/${name}`;
    },
  });
  await cluster.createConfigMap(configMap);
}

/** Registers the deletion of Job `ns/jobName` and its pod (cleanup key `job`), then creates `job`. */
export async function createJobWithCleanup(x: JobContext, ns: string, jobName: string, job: IJob, timeoutMs: number): Promise<void> {
  const { cluster, cleanup } = x;
  cleanup.add({
    key: "job",
    leftover: `Job ${ns}/${jobName} and its pod: kubectl delete job -n ${ns} ${jobName}`,
    timeoutMs,
    run: async () => {
      await cluster.deleteJob(ns, jobName);
      return `deleted Job ${ns}/${jobName} and its pod`;
    },
  });
  await cluster.createJob(job);
}

/** The Job's pod that runs or has run (Running, Succeeded or Failed), else `known`. */
export async function findJobPod(
  cluster: Cluster,
  ns: string,
  jobName: string,
  known: PodState | undefined,
): Promise<PodState | undefined> {
  const pods = await cluster.listPods(ns, `${JOB_NAME_LABEL}=${jobName}`);
  return pods.find((p) => p.phase === "Running" || p.phase === "Succeeded" || p.phase === "Failed") ?? known;
}

/** The Job; throws when it has disappeared. */
export async function getJobOrThrow(cluster: Cluster, ns: string, jobName: string): Promise<JobState> {
  const j = await cluster.getJob(ns, jobName);
  if (j === undefined) throw new Error(`Job ${ns}/${jobName} disappeared`);
  return j;
}

/**
 * Asks the Job's pod to stop (its stop annotation), waits for the Job to finish (`waiting` names
 * the wait) and reads the container's whole log.
 */
export async function stopJob(
  c: StepContext,
  cluster: Cluster,
  j: {
    readonly ns: string;
    readonly jobName: string;
    readonly pod: PodState;
    readonly container: string;
    readonly waiting: string;
    readonly pollMs: number;
  },
): Promise<{ job: NonNullable<JobState["finished"]>; logText: string }> {
  const { ns, jobName, pod, container, waiting, pollMs } = j;
  await cluster.annotatePod(ns, pod.name, { [STOP_ANNOTATION]: "true" });
  const job = await c.waitFor(waiting, async () => (await getJobOrThrow(cluster, ns, jobName)).finished, pollMs);
  const logText = await cluster.podLog(ns, pod.name, container);
  return { job, logText };
}

/** The raw `timeline.json`: the events in time order. */
export function timelineRaw(timeline: readonly TimelineEvent[]): RawFile {
  return {
    name: "timeline.json",
    text: `${JSON.stringify(
      [...timeline].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
      null,
      2,
    )}\n`,
  };
}
