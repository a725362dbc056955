/**
 * The FSx for ONTAP AZ failover under a running write (the published walkthrough's §10, made
 * rigorous): fio writes with crc32c verification to a Trident volume of the file system while the
 * file system's throughput capacity is changed (FSx fails over to the standby file server in the
 * other zone and back) and then changed back (a second failover and failback, and the stack has no
 * drift); fio must finish with no I/O error and no verify failure.
 *
 * The lever is the FSx API (./fsx.ts says why, not the fsx-ontap stack's config and a `pulumi up`).
 * FSx does not report when the failover and the failback happen: the experiment records the
 * updates' `AdministrativeActions` (request, each status change, completion; this machine's clock,
 * to within the polling interval) and the I/O stalls fio saw (seconds without a completed write,
 * the pod's clock): the stalls during an update are its failover and failback as a client sees them.
 *
 * Samples (tool `failover`, plus fio's own `fio.*` samples of the run): `failover.io.errors`
 * (count: fio's errors, must be 0), `failover.io.gap` (s: the longest run of seconds without a
 * completed write), `failover.io.iops` (op/s, one per second of the run, with `second`, `at` and
 * `phase`: before, change, restore or after, aligned on the two clocks), `failover.update.duration`
 * (s, request to COMPLETED, `action` change or restore).
 */
import { parseFio } from "../../core/parsers/fio";
import { withRunMetadata } from "../../core/sample";
import type { Sample } from "../../core/sample";
import { STORAGE_CLASS_NAMES, TRIDENT_PROVISIONER } from "../../components/trident/rules";
import { BENCH_NAMESPACE } from "../../stacks/fsx-eks/config";
import { formatElapsed } from "../../core/elapsed";
import type { PodState } from "./cluster";
import { ExperimentContext, Evidence, failoverSample, FSX_EKS_SCENARIO, iso, seconds, TimelineEvent } from "./context";
import { iopsTimeline, parseFioJobLog, type FioJobLog } from "./fio-log";
import { FsxApi, FileSystemView, leverTarget, pendingThroughputAction, throughputAction } from "./fsx";
import { createConfigMapWithCleanup, createJobWithCleanup, findJobPod, getJobOrThrow, stopJob, timelineRaw } from "./job";
import { FIO_CONTAINER, fioJobName, fioManifests, fioObjectsName } from "./manifests";

export interface FsxFailoverOptions {
  /** The fio volume, GiB. */
  readonly volumeGiB: number;
  /** The file fio writes, fio syntax. */
  readonly fileSize: string;
  /** fio writes this long before the change (laying out the file included). */
  readonly beforeMs: number;
  /** fio writes this long after the restore has completed. */
  readonly afterMs: number;
  /** Polling interval of the cluster. */
  readonly pollMs: number;
  /** Polling interval of DescribeFileSystems. */
  readonly fsxPollMs: number;
  /** Deadline of a step that makes a few API calls. */
  readonly apiStepTimeoutMs: number;
  /** From creating the fio Job to fio running (the volume's provisioning, the image pull). */
  readonly fioStartTimeoutMs: number;
  /** From a throughput update's request to COMPLETED. */
  readonly updateTimeoutMs: number;
  /** From the stop annotation to fio's end. */
  readonly stopTimeoutMs: number;
  /** Deadline of one cleanup action but the throughput restore, which gets `updateTimeoutMs` twice (a running update, then the restore). */
  readonly cleanupTimeoutMs: number;
}

export const FSX_FAILOVER_DEFAULTS: FsxFailoverOptions = {
  volumeGiB: 100,
  fileSize: "4G",
  beforeMs: 120_000,
  afterMs: 60_000,
  pollMs: 2_000,
  fsxPollMs: 15_000,
  apiStepTimeoutMs: 120_000,
  fioStartTimeoutMs: 600_000,
  updateTimeoutMs: 3_600_000,
  stopTimeoutMs: 300_000,
  cleanupTimeoutMs: 120_000,
};

/** The steps of a run (one fewer when fio ends on its own: "collect fio's results" replaces the rest). */
export const FSX_FAILOVER_STEPS = 9;

/** fio ended before the experiment stopped it; its log holds why. */
export class FioEndedEarly extends Error {
  constructor(
    message: string,
    readonly log: FioJobLog,
  ) {
    super(message);
    this.name = "FioEndedEarly";
  }
}

/** fio's runtime: long enough for every step after its start, so the experiment, not the runtime, ends it. */
export function fioMaxRuntimeSeconds(o: FsxFailoverOptions): number {
  return Math.ceil((o.beforeMs + 2 * o.updateTimeoutMs + o.afterMs + 5 * o.apiStepTimeoutMs + o.stopTimeoutMs) / 1000);
}

/** One throughput update as the watch saw it. */
export interface UpdateWatch {
  readonly action: "change" | "restore";
  readonly fromMBps: number;
  readonly toMBps: number;
  /** When the request was sent (this machine's clock). */
  readonly requestedAt: number;
  /** FSx's RequestTime of the action, when it listed one. */
  readonly fsxRequestTime?: number;
  readonly completedAt: number;
  /** Each status the action was seen in, with when it was first seen. */
  readonly statuses: ReadonlyArray<{ readonly status: string; readonly at: number }>;
}

/**
 * The method: each step below is a function of its own, with its timeout and the clean-up it
 * registers beside it. Steps 3–8 run while fio writes; fio ending on its own (an I/O error, a
 * verify failure) ends them, and its results are collected and judged all the same.
 */
export async function fsxFailover(x: ExperimentContext, options: Partial<FsxFailoverOptions> = {}): Promise<Evidence> {
  const r = new FsxRun(x, { ...FSX_FAILOVER_DEFAULTS, ...options });
  r.fs0 = await checkTheFileSystemAndTheCluster(r);
  const fio = await startFio(r);
  let fioLog: FioJobLog;
  try {
    await writeBeforeTheChange(r);
    await changeTheThroughput(r);
    await waitForTheChange(r);
    await restoreTheThroughput(r);
    await writeAfterTheRestore(r);
    fioLog = await stopFio(r);
  } catch (e) {
    if (!(e instanceof FioEndedEarly)) throw e;
    r.endedEarly = e;
    r.endedStep = x.steps.current ?? "";
    fioLog = await collectFiosResults(r, e);
  }
  return checkTheIo(r, fio, fioLog);
}

/** The file system as step 1 found it, and the lever. */
interface FsxBefore {
  readonly view: FileSystemView;
  readonly original: number;
  readonly lever: number;
  readonly deploymentType: string;
}

/** Where fio runs. */
interface FioStarted {
  readonly node: string;
  readonly zone: string;
  readonly volume: string;
}

/** One run's names and what its steps saw: fio's pod and log, the throughput updates, the timeline. */
class FsxRun {
  readonly fsx: FsxApi;
  readonly fsId: string;
  readonly ns = BENCH_NAMESPACE;
  readonly storageClass = STORAGE_CLASS_NAMES.nas;
  readonly jobName: string;
  readonly objects: string;
  readonly timeline: TimelineEvent[] = [];
  /** Set by step 1. */
  fs0!: FsxBefore;
  fioPod: PodState | undefined;
  fioLogText = "";
  /** The restore the cleanup's throughput action watched last. */
  lastRestore: UpdateWatch | undefined;
  restoreRequestedAt: number | undefined;
  /** What the restore runs at each poll (step 6: whether fio still runs). */
  restorePoll: (() => Promise<void>) | undefined;
  /** 0 until the change is requested. */
  changeRequestedAt = 0;
  change: UpdateWatch | undefined;
  restored: UpdateWatch | undefined;
  endedEarly: FioEndedEarly | undefined;
  endedStep = "";

  constructor(
    readonly x: ExperimentContext,
    readonly o: FsxFailoverOptions,
  ) {
    if (x.fsx === undefined) throw new Error("fsx-failover needs the FSx API");
    this.fsx = x.fsx;
    this.fsId = x.outputs.fileSystemId;
    this.jobName = fioJobName(x.runId);
    this.objects = fioObjectsName(x.runId);
  }

  /** An event on this machine's clock. */
  event(what: string, at = this.x.env.clock()): void {
    this.timeline.push({ at: iso(at), clock: "operator", what });
  }

  /** fio's log so far ("" before its pod runs). */
  async readFio(): Promise<string> {
    this.fioPod = await findJobPod(this.x.cluster, this.ns, this.jobName, this.fioPod);
    if (this.fioPod === undefined) return "";
    this.fioLogText = await this.x.cluster.podLog(this.ns, this.fioPod.name, FIO_CONTAINER);
    return this.fioLogText;
  }

  /** Throws {@link FioEndedEarly} once fio's Job has finished. */
  async failIfFioEnded(): Promise<void> {
    const j = await getJobOrThrow(this.x.cluster, this.ns, this.jobName);
    if (j.finished !== undefined) {
      await this.readFio();
      const log = parseFioJobLog(this.fioLogText, `job/${this.jobName}`);
      const why = [...log.verifyFailures, ...log.ioErrors][0] ?? this.fioLogText.trim().split("\n").slice(-3).join(" | ");
      throw new FioEndedEarly(
        `fio stopped before it was asked to (Job ${j.finished.type}${j.finished.reason ? `: ${j.finished.reason}` : ""}): ${why}`,
        log,
      );
    }
  }

  /** Watches a throughput update until COMPLETED (the flow's and the cleanup's restore's watch). */
  async watch(
    action: UpdateWatch["action"],
    fromMBps: number,
    toMBps: number,
    requestedAt: number,
    signal: AbortSignal,
    deadline: number,
    onPoll?: () => Promise<void>,
  ): Promise<UpdateWatch> {
    const { fsx, fsId } = this;
    const env = this.x.env;
    const statuses: Array<{ status: string; at: number }> = [];
    let fsxRequestTime: number | undefined;
    for (;;) {
      if (signal.aborted) throw new Error(`stopped waiting for the update to ${toMBps} MB/s`);
      const view: FileSystemView = await fsx.describe(fsId);
      const now = env.clock();
      const a = throughputAction(view, toMBps, requestedAt);
      if (a !== undefined) {
        fsxRequestTime ??= a.requestTime;
        if (statuses[statuses.length - 1]?.status !== a.status) {
          statuses.push({ status: a.status, at: now });
          this.event(`throughput update ${fromMBps} → ${toMBps} MB/s: ${a.status}`, now);
        }
        if (a.status === "FAILED" || a.status === "CANCELLED") {
          throw new Error(`the throughput update ${fromMBps} → ${toMBps} MB/s ${a.status}${a.failure ? `: ${a.failure}` : ""}`);
        }
        if (a.status === "COMPLETED" && view.throughputCapacityMBps === toMBps) {
          return {
            action,
            fromMBps,
            toMBps,
            requestedAt,
            ...(fsxRequestTime !== undefined ? { fsxRequestTime } : {}),
            completedAt: now,
            statuses,
          };
        }
      }
      if (onPoll) await onPoll();
      if (now >= deadline) {
        const last = statuses[statuses.length - 1];
        throw new Error(
          `the throughput update ${fromMBps} → ${toMBps} MB/s did not complete within ${formatElapsed(deadline - requestedAt)} (${last ? `last seen ${last.status}` : "FSx lists no such update"})`,
        );
      }
      await env.sleep(Math.min(this.o.fsxPollMs, deadline - now), signal);
    }
  }

  /** Brings the throughput back to the original: waits for a running update, then requests the original and waits. */
  async restore(signal: AbortSignal, deadline: number, onPoll?: () => Promise<void>): Promise<{ message: string; watch?: UpdateWatch }> {
    const { fsx, fsId, fs0 } = this;
    let view = await fsx.describe(fsId);
    const pending = pendingThroughputAction(view);
    if (pending?.targetThroughputMBps !== undefined && pending.targetThroughputMBps !== fs0.original) {
      await this.watch("change", fs0.original, pending.targetThroughputMBps, pending.requestTime ?? 0, signal, deadline, onPoll).catch(
        () => undefined,
      );
      view = await fsx.describe(fsId);
    }
    const now = view.throughputCapacityMBps;
    const restoring = pendingThroughputAction(view);
    if (now === fs0.original && restoring === undefined) {
      return { message: `throughput capacity of ${fsId} is ${fs0.original} MB/s, as before the run` };
    }
    const from = now ?? fs0.lever;
    const requestedAt = this.x.env.clock();
    if (restoring?.targetThroughputMBps !== fs0.original) {
      this.restoreRequestedAt ??= requestedAt;
      await fsx.updateThroughput(fsId, fs0.original, `lab-${this.x.runId}-restore`);
      this.event(`throughput update ${from} → ${fs0.original} MB/s requested (restore)`, requestedAt);
    }
    const w = await this.watch("restore", from, fs0.original, restoring?.requestTime ?? requestedAt, signal, deadline, onPoll);
    return { message: `restored the throughput capacity of ${fsId} to ${fs0.original} MB/s (from ${from} MB/s)`, watch: w };
  }

  /**
   * The phase of a moment (both clocks taken as one: EKS nodes keep time with the Amazon Time
   * Sync Service; keep this machine's clock synchronised too). An update that did not complete
   * (fio ended during it) lasts until the end.
   */
  phaseAt(t: number): string {
    const { changeRequestedAt, change, restored } = this;
    if (changeRequestedAt === 0 || t < changeRequestedAt) return "before";
    if (change === undefined || t <= change.completedAt) return "change";
    if (restored === undefined) return t < (this.restoreRequestedAt ?? Infinity) ? "between" : "restore";
    return t < restored.requestedAt ? "between" : t <= restored.completedAt ? "restore" : "after";
  }
}

/** 1. The file system (ONTAP, AVAILABLE, no update running) and the cluster (Trident's StorageClass, a new run id). */
function checkTheFileSystemAndTheCluster(r: FsxRun): Promise<FsxBefore> {
  const { x, fsx, fsId, ns, storageClass, jobName, objects } = r;
  const { cluster, runId } = x;
  return x.steps.run("check the file system and the cluster", r.o.apiStepTimeoutMs, async (c) => {
    const view = await fsx.describe(fsId);
    if (view.type !== undefined && view.type !== "ONTAP") throw new Error(`${fsId} is an ${view.type} file system, not ONTAP`);
    if (view.lifecycle !== "AVAILABLE") throw new Error(`${fsId} is ${view.lifecycle ?? "in no known state"}, not AVAILABLE`);
    const pending = pendingThroughputAction(view);
    if (pending)
      throw new Error(
        `${fsId} has a throughput update to ${pending.targetThroughputMBps} MB/s ${pending.status}: wait until it has completed`,
      );
    if (view.throughputCapacityMBps === undefined || view.deploymentType === undefined)
      throw new Error(`${fsId}: DescribeFileSystems reports no throughput capacity or deployment type`);
    const original = view.throughputCapacityMBps;
    const lever = leverTarget(view.deploymentType, original);
    if (!x.outputs.storageClasses.includes(storageClass)) {
      throw new Error(`the stack's storageClasses (${x.outputs.storageClasses.join(", ")}) do not include ${storageClass}`);
    }
    const provisioner = await cluster.getStorageClassProvisioner(storageClass);
    if (provisioner !== TRIDENT_PROVISIONER)
      throw new Error(
        `StorageClass ${storageClass} ${provisioner === undefined ? "not found" : `has provisioner ${provisioner}, not ${TRIDENT_PROVISIONER}`}`,
      );
    if ((await cluster.getJob(ns, jobName)) !== undefined)
      throw new Error(`Job ${ns}/${jobName} exists: run id ${runId} has run in this cluster before; give a new --run-id`);
    if ((await cluster.getClaim(ns, objects)) !== undefined)
      throw new Error(`claim ${ns}/${objects} exists: run id ${runId} has run in this cluster before; give a new --run-id`);
    c.note(`${fsId} ${view.deploymentType} at ${original} MB/s; the lever: ${original} → ${lever} → ${original} MB/s`);
    return { view, original, lever, deploymentType: view.deploymentType };
  });
}

/** 2. fio on a new Trident volume (clean-up: its ConfigMap, claim and Job), until it writes. */
function startFio(r: FsxRun): Promise<FioStarted> {
  const { x, o, ns, storageClass, jobName, objects } = r;
  const { cluster, cleanup } = x;
  const manifests = fioManifests(
    {
      namespace: ns,
      runId: x.runId,
      image: x.outputs.toolsImage,
      storageClass,
      volumeGiB: o.volumeGiB,
      fileSize: o.fileSize,
      maxRuntimeSeconds: fioMaxRuntimeSeconds(o),
    },
    x.scripts,
  );
  return x.steps.run("start fio", o.fioStartTimeoutMs, async (c) => {
    await createConfigMapWithCleanup(x, ns, objects, manifests.configMap, o.cleanupTimeoutMs);
    cleanup.add({
      key: "claim",
      leftover: `claim ${ns}/${objects} (its FSx volume): kubectl delete pvc -n ${ns} ${objects}`,
      timeoutMs: o.cleanupTimeoutMs,
      run: async () => {
        await cluster.deleteClaim(ns, objects);
        return `deleted claim ${ns}/${objects} (Trident deletes its volume)`;
      },
    });
    await cluster.createClaim(manifests.claim);
    await createJobWithCleanup(x, ns, jobName, manifests.job, o.cleanupTimeoutMs);
    let status = "no running pod yet";
    const start = await c.waitFor(
      "fio to start writing",
      async () => {
        const log = parseFioJobLog(await r.readFio(), `job/${jobName}`);
        if (log.start !== undefined) return log.start;
        if (r.fioPod !== undefined) status = `pod ${r.fioPod.name} ${r.fioPod.phase ?? ""}`.trim();
        await r.failIfFioEnded();
        return undefined;
      },
      o.pollMs,
      () => status,
    );
    const fioPod = r.fioPod;
    const claim = await cluster.getClaim(ns, objects);
    const zone = fioPod?.nodeName ? (await cluster.getNode(fioPod.nodeName))?.zone : undefined;
    r.event(`fio started on ${fioPod?.nodeName ?? "?"}`);
    r.timeline.push({ at: iso(start.atMs), clock: "fio", what: `fio ${start.version} started (laying out the file first)` });
    c.note(`pod ${fioPod?.name} on ${fioPod?.nodeName} (${zone ?? "?"}), volume ${claim?.volumeName ?? "?"}, fio ${start.version}`);
    return { node: fioPod?.nodeName ?? "", zone: zone ?? "", volume: claim?.volumeName ?? "" };
  });
}

/** 3 and 7: fio writes for `ms`, and still runs. */
function writeFor(r: FsxRun, step: string, ms: number): Promise<void> {
  return r.x.steps.run(step, ms + r.o.apiStepTimeoutMs, async (c) => {
    await c.sleep(ms);
    await r.failIfFioEnded();
    c.note(`fio wrote for ${formatElapsed(ms)}`);
  });
}

/** 3. Writes before the change. */
const writeBeforeTheChange = (r: FsxRun) => writeFor(r, "write before the change", r.o.beforeMs);

/** 4. The lever: request the other throughput (clean-up: restore the original, waiting out a running update first). */
async function changeTheThroughput(r: FsxRun): Promise<void> {
  const { x, o, fsx, fsId, fs0 } = r;
  const env = x.env;
  r.changeRequestedAt = await x.steps.run(`change the throughput ${fs0.original} → ${fs0.lever} MB/s`, o.apiStepTimeoutMs, async (c) => {
    x.cleanup.add({
      key: "throughput",
      leftover: `${fsId} may not be at ${fs0.original} MB/s: aws fsx update-file-system --file-system-id ${fsId} --ontap-configuration ThroughputCapacity=${fs0.original}`,
      timeoutMs: 2 * o.updateTimeoutMs,
      run: async (signal) => {
        const restored = await r.restore(signal, env.clock() + 2 * o.updateTimeoutMs, r.restorePoll);
        r.lastRestore = restored.watch;
        return restored.message;
      },
    });
    const at = env.clock();
    await fsx.updateThroughput(fsId, fs0.lever, `lab-${x.runId}-lever`);
    r.event(`throughput update ${fs0.original} → ${fs0.lever} MB/s requested`, at);
    c.note(`UpdateFileSystem ThroughputCapacity=${fs0.lever}`);
    return at;
  });
}

/** The statuses of an update, with when each was first seen after the request. */
const statusLine = (w: UpdateWatch): string =>
  `${w.statuses.map((s) => `${s.status} +${formatElapsed(s.at - w.requestedAt)}`).join(" → ")}`;

/** 5. Wait for the change (a failover and failback), while fio writes. */
async function waitForTheChange(r: FsxRun): Promise<void> {
  const { o, fs0 } = r;
  r.change = await r.x.steps.run("wait for the change", o.updateTimeoutMs, async (c) => {
    const w = await r.watch("change", fs0.original, fs0.lever, r.changeRequestedAt, c.signal, r.changeRequestedAt + o.updateTimeoutMs, () =>
      r.failIfFioEnded(),
    );
    c.note(statusLine(w));
    return w;
  });
}

/** 6. The restore (a second failover and failback; the stack has no drift after it): step 4's clean-up, run now while fio writes. */
async function restoreTheThroughput(r: FsxRun): Promise<void> {
  const { x, o, fs0, fsId } = r;
  r.restored = await x.steps.run(
    `restore the throughput ${fs0.lever} → ${fs0.original} MB/s`,
    o.updateTimeoutMs + o.apiStepTimeoutMs,
    async (c) => {
      r.restorePoll = () => r.failIfFioEnded();
      try {
        await x.cleanup.runNow("throughput", c.signal);
      } finally {
        r.restorePoll = undefined;
      }
      const w = r.lastRestore;
      if (w === undefined) throw new Error(`the restore found ${fsId} at ${fs0.original} MB/s already: the change did not take effect`);
      c.note(statusLine(w));
      return w;
    },
  );
}

/** 7. Writes after the failback. */
const writeAfterTheRestore = (r: FsxRun) => writeFor(r, "write after the restore", r.o.afterMs);

/** 8. Stop fio; it prints its JSON results. */
function stopFio(r: FsxRun): Promise<FioJobLog> {
  const { x, o, ns, jobName } = r;
  return x.steps.run("stop fio", o.stopTimeoutMs, async (c) => {
    if (r.fioPod === undefined) throw new Error("fio's pod is unknown");
    const stopped = await stopJob(c, x.cluster, {
      ns,
      jobName,
      pod: r.fioPod,
      container: FIO_CONTAINER,
      waiting: "fio to stop and print its results",
      pollMs: o.pollMs,
    });
    const job = stopped.job;
    r.fioLogText = stopped.logText;
    const log = parseFioJobLog(r.fioLogText, `job/${jobName}`);
    if (log.json === undefined)
      throw new Error(
        `fio ended without its JSON results (Job ${job.type}${job.reason ? `: ${job.reason}` : ""}, fio exit ${log.exitStatus ?? "?"})`,
      );
    if (log.stopAtMs !== undefined) r.timeline.push({ at: iso(log.stopAtMs), clock: "fio", what: "stop requested" });
    c.note(`Job ${job.type}, fio exit ${log.exitStatus ?? "?"}`);
    return log;
  });
}

/** In place of 3–8 when fio ended on its own: its results as it left them. */
function collectFiosResults(r: FsxRun, early: FioEndedEarly): Promise<FioJobLog> {
  return r.x.steps.run("collect fio's results", r.o.apiStepTimeoutMs, async (c) => {
    if (early.log.json === undefined) throw new Error(`${early.message}; and it printed no JSON results`);
    c.note(`fio exit ${early.log.exitStatus ?? "?"}`);
    return early.log;
  });
}

/** 9. The verdict: no I/O error, no verify failure; the samples. */
function checkTheIo(r: FsxRun, fioStarted: FioStarted, fioLog: FioJobLog): Promise<Evidence> {
  const { x, o, fs0, fsId, storageClass, jobName, timeline, endedEarly, endedStep } = r;
  return x.steps.run("check the I/O", o.apiStepTimeoutMs, async (c) => {
    const source = `job/${jobName}`;
    const runMeta = {
      scenario: FSX_EKS_SCENARIO,
      stack: x.stack,
      runId: x.runId,
      experiment: x.experiment,
      storageClass,
      fileSystemId: fsId,
      zone: fioStarted.zone,
    };
    const fioSamples: Sample[] = withRunMetadata(parseFio(fioLog.json!, `${source} (fio JSON)`), runMeta);
    const doc = JSON.parse(fioLog.json!) as { timestamp_ms?: number; jobs: Array<{ job_runtime?: number }> };
    const runMs = doc.jobs[0]?.job_runtime ?? 0;
    const fioStartWall = (doc.timestamp_ms ?? 0) - runMs;
    const tl = iopsTimeline(fioLog.iopsLog ?? "", runMs, `${source} (IOPS log)`);
    const ioErrors = fioSamples.filter((s) => s.metric === "fio.error").reduce((n, s) => n + s.value, 0);
    const meta = {
      fileSystemId: fsId,
      deploymentType: fs0.deploymentType,
      throughputMBps: fs0.original,
      leverMBps: fs0.lever,
      storageClass,
      persistentVolume: fioStarted.volume,
      node: fioStarted.node,
      zone: fioStarted.zone,
      fioSize: o.fileSize,
    };
    for (const s of tl.stalls) {
      const from = fioStartWall + (s.from - 1) * 1000;
      timeline.push({
        at: iso(from),
        clock: "fio",
        what: `no write completed for ${s.seconds}s (seconds ${s.from}–${s.to} of the run, during ${r.phaseAt(from)})`,
      });
    }
    const longest = tl.stalls.find((s) => s.seconds === tl.gapSeconds);
    const samples: Sample[] = [
      failoverSample(x, "failover.io.errors", ioErrors, "count", {
        ...meta,
        verifyFailures: fioLog.verifyFailures.length,
        ioErrorLines: fioLog.ioErrors.length,
        fioExit: fioLog.exitStatus ?? -1,
      }),
      failoverSample(x, "failover.io.gap", tl.gapSeconds, "s", {
        ...meta,
        stalls: tl.stalls.length,
        ...(longest ? { fromSecond: longest.from, toSecond: longest.to, phase: r.phaseAt(fioStartWall + (longest.from - 1) * 1000) } : {}),
      }),
      ...[r.change, r.restored]
        .flatMap((w) => (w === undefined ? [] : [w]))
        .map((w) =>
          failoverSample(x, "failover.update.duration", seconds(w.completedAt - w.requestedAt), "s", {
            ...meta,
            action: w.action,
            fromMBps: w.fromMBps,
            toMBps: w.toMBps,
            requestedAt: iso(w.requestedAt),
            completedAt: iso(w.completedAt),
            statuses: w.statuses.map((s) => s.status).join(">"),
            fsxPollMs: o.fsxPollMs,
          }),
        ),
      ...tl.seconds.map((p) => {
        const at = fioStartWall + p.second * 1000;
        return failoverSample(x, "failover.io.iops", p.iops, "op/s", { ...meta, second: p.second, at: iso(at), phase: r.phaseAt(at) });
      }),
      ...fioSamples,
    ];
    const raws = [
      { name: "fio-job.log", text: r.fioLogText },
      { name: "fio.json", text: fioLog.json! },
      { name: "fio-iops.log", text: fioLog.iopsLog ?? "" },
      timelineRaw(timeline),
    ];
    const problems = [
      ...(ioErrors > 0
        ? [
            `fio reported ${ioErrors} error(s) (errno ${fioSamples
              .filter((s) => s.metric === "fio.error" && s.value > 0)
              .map((s) => s.metadata.errno)
              .join(", ")})`,
          ]
        : []),
      ...fioLog.verifyFailures.map((l) => `verify failed: ${l}`),
      ...fioLog.ioErrors,
      ...(fioLog.exitStatus !== undefined && fioLog.exitStatus !== 0 ? [`fio exited with status ${fioLog.exitStatus}`] : []),
    ];
    if (endedEarly !== undefined && problems.length === 0) problems.push(endedEarly.message);
    if (problems.length > 0) {
      c.note(`${problems.length} problem(s)`);
      return {
        samples,
        raws,
        failure: `data written during the failover was not written or read back intact${endedEarly ? ` (fio ended during "${endedStep}")` : ""}: ${problems.join("; ")}`,
      };
    }
    c.note(`no I/O error, no verify failure; longest stall ${tl.gapSeconds}s, ${tl.stalls.length} stall(s)`);
    return { samples, raws };
  });
}
