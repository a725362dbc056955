/**
 * The MySQL pod failover across zones (the published walkthrough's §8, made rigorous): a writer
 * keeps inserting rows with unique ids into the source `mysql-0` and records which commits were
 * acknowledged; the nodes of mysql-0's zone are cordoned and mysql-0 is deleted; it must come back
 * Ready on a node of another zone (its zone label changed), on the same PersistentVolumeClaim bound
 * to the same PersistentVolume; the writer must get a write acknowledged again; once stopped, the
 * writer reads every id of its run back from the source, and every acknowledged id must be there;
 * and every replica (`mysql-1` … `mysql-<n-1>`) must still replicate: its I/O and SQL threads
 * running, no replication error, holding the writer's last acknowledged id (the writer polls each
 * one for up to `replicaWaitSeconds`, lab/experiment/scripts/mysql-writer.sh). A replica whose I/O
 * thread gave up reconnecting while the source moved fails the experiment, even with every row there.
 *
 * Why every node of the zone is cordoned, not only mysql-0's: with a second node in the zone the
 * scheduler may put mysql-0 back in the zone it left (the StatefulSet's spread over zones is soft,
 * components/mysql/manifests.ts), and the experiment is about changing zones. Only nodes that were
 * schedulable are cordoned, and exactly those are uncordoned: as soon as mysql-0 is back, and in
 * any case by the cleanup.
 *
 * Samples (tool `failover`): `failover.rows.before` (rows acknowledged when mysql-0 was deleted),
 * `failover.rows.after` (rows of the run the table holds after the failover), `failover.rows.lost`
 * (acknowledged ids missing: must be 0), `failover.recovery` (s, from the delete until mysql-0 was
 * Ready in the other zone and a write started after that was acknowledged, on this machine's clock,
 * to within the polling interval; `readySeconds` is the Ready part), `failover.outage` (s, the
 * writer's longest time without an acknowledged write, on the writer's clock) and
 * `failover.writes.failed` (count), `failover.replicas.replicating` (count, of `replicas`). Metadata: zones and nodes from → to, storage class, claim and
 * PersistentVolume, the cordoned nodes, the writer's interval.
 */
import { formatElapsed } from "../../core/elapsed";
import { ZONE_LABEL, type PodState } from "./cluster";
import { ExperimentContext, Evidence, failoverSample, iso, seconds, TimelineEvent } from "./context";
import { createConfigMapWithCleanup, createJobWithCleanup, findJobPod, getJobOrThrow, stopJob, timelineRaw } from "./job";
import { WRITER_CONTAINER, writerConfigMapName, writerJobName, writerManifests } from "./manifests";
import {
  ackedIds,
  lastAckedId,
  lastId,
  listIds,
  longestOutage,
  lostIds,
  parseWriterLog,
  replicationProblems,
  WriterLog,
} from "./writer-log";

export interface MysqlFailoverOptions {
  /** Pause between two inserts of the writer. */
  readonly writerIntervalMs: number;
  /** How long the writer writes before the failover. */
  readonly baselineMs: number;
  /** Acknowledged writes needed before the failover. */
  readonly minBaselineAcks: number;
  /** Polling interval of every wait. */
  readonly pollMs: number;
  /** Deadline of a step that makes a few API calls. */
  readonly apiStepTimeoutMs: number;
  /** From creating the writer to its first acknowledged write (image pull, table setup). */
  readonly writerStartTimeoutMs: number;
  /** From the delete to mysql-0 Ready in another zone (scheduling, NFS mount, InnoDB recovery, readiness). */
  readonly readyTimeoutMs: number;
  /** From Ready to an acknowledged write. */
  readonly firstWriteTimeoutMs: number;
  /** From the stop annotation to the writer's end (the kubelet's update of the annotations file, the read-back), plus `replicaWaitSeconds` a replica. */
  readonly stopTimeoutMs: number;
  /** How long the writer retries its final read. */
  readonly readbackSeconds: number;
  /** How long the writer waits for one replica to catch up and run both threads. */
  readonly replicaWaitSeconds: number;
  /** Deadline of one cleanup action. */
  readonly cleanupTimeoutMs: number;
}

export const MYSQL_FAILOVER_DEFAULTS: MysqlFailoverOptions = {
  writerIntervalMs: 200,
  baselineMs: 20_000,
  minBaselineAcks: 10,
  pollMs: 1_000,
  apiStepTimeoutMs: 120_000,
  writerStartTimeoutMs: 300_000,
  readyTimeoutMs: 600_000,
  firstWriteTimeoutMs: 300_000,
  stopTimeoutMs: 300_000,
  readbackSeconds: 300,
  replicaWaitSeconds: 60,
  cleanupTimeoutMs: 120_000,
};

/** The steps, in order (the progress lines count them). */
export const MYSQL_FAILOVER_STEPS = 11;

/** The writer stops by itself after every step's bound after its start has passed. */
export function writerMaxSeconds(o: MysqlFailoverOptions): number {
  const ms = o.baselineMs + 5 * o.apiStepTimeoutMs + o.readyTimeoutMs + o.firstWriteTimeoutMs + o.stopTimeoutMs;
  return Math.ceil(ms / 1000);
}

/**
 * The replicas' addresses: the source's (`<statefulSet>-0.<service>…`, a pod of the StatefulSet's
 * headless service) with the ordinal 1 … replicas - 1.
 */
export function replicaHosts(sourceHost: string, statefulSet: string, replicas: number): string[] {
  const prefix = `${statefulSet}-0.`;
  if (!sourceHost.startsWith(prefix))
    throw new Error(`the source's address ${sourceHost} does not start with ${prefix}: the replicas' addresses cannot be derived from it`);
  const rest = sourceHost.slice(prefix.length);
  return Array.from({ length: Math.max(0, replicas - 1) }, (_v, i) => `${statefulSet}-${i + 1}.${rest}`);
}

/**
 * The method: each step below is a function of its own, with its timeout and the clean-up it
 * registers beside it.
 */
export async function mysqlFailover(x: ExperimentContext, options: Partial<MysqlFailoverOptions> = {}): Promise<Evidence> {
  const r = new MysqlRun(x, { ...MYSQL_FAILOVER_DEFAULTS, ...options });
  const before = await checkTheCluster(r);
  await startTheWriter(r, before);
  await writeBeforeTheFailover(r);
  await cordonTheZone(r, before);
  const deleted = await deleteTheSource(r, before);
  const after = await waitForTheSourceInAnotherZone(r, before, deleted);
  await checkTheVolume(r, before, after);
  const firstWrite = await writeAfterTheFailover(r, deleted);
  await uncordonTheZone(r, before);
  const final = await stopTheWriter(r, before);
  return verifyTheRowsAndTheReplicas(r, { before, deleted, after, firstWrite, final });
}

/** One run's names, timeline and writer (its pod and last log). */
class MysqlRun {
  readonly m: ExperimentContext["outputs"]["mysql"];
  readonly ns: string;
  readonly podName: string;
  readonly jobName: string;
  readonly source: string;
  readonly timeline: TimelineEvent[] = [];
  writerPod: PodState | undefined;
  lastLogText = "";

  constructor(
    readonly x: ExperimentContext,
    readonly o: MysqlFailoverOptions,
  ) {
    this.m = x.outputs.mysql;
    this.ns = this.m.namespace;
    this.podName = `${this.m.statefulSetName}-0`;
    this.jobName = writerJobName(x.runId);
    this.source = `job/${this.jobName}`;
  }

  /** An event on this machine's clock. */
  event(what: string, at = this.x.env.clock()): void {
    this.timeline.push({ at: iso(at), clock: "operator", what });
  }

  /** The writer's log so far; throws when the writer reported an error. */
  async readWriter(): Promise<WriterLog> {
    const { cluster } = this.x;
    this.writerPod = await findJobPod(cluster, this.ns, this.jobName, this.writerPod);
    if (this.writerPod === undefined) return parseWriterLog("", this.source);
    this.lastLogText = await cluster.podLog(this.ns, this.writerPod.name, WRITER_CONTAINER);
    const log = parseWriterLog(this.lastLogText, this.source);
    if (log.error !== undefined) throw new Error(`the writer failed: ${log.error}`);
    return log;
  }

  async failIfWriterEnded(): Promise<void> {
    const j = await getJobOrThrow(this.x.cluster, this.ns, this.jobName);
    if (j.finished !== undefined) {
      throw new Error(
        `the writer ended early (Job ${j.finished.type}${j.finished.reason ? `: ${j.finished.reason}` : ""}); its log ends: ${this.lastLogText.trim().split("\n").slice(-3).join(" | ")}`,
      );
    }
  }
}

type Before = Awaited<ReturnType<typeof checkTheCluster>>;
type Deleted = Awaited<ReturnType<typeof deleteTheSource>>;
type After = Awaited<ReturnType<typeof waitForTheSourceInAnotherZone>>;

/** 1. What there is: mysql-0, its node, zone, claim and volume; somewhere else to go. */
function checkTheCluster(r: MysqlRun) {
  const { x, o, ns, podName, m, jobName } = r;
  const { cluster, runId } = x;
  return x.steps.run("check the cluster", o.apiStepTimeoutMs, async (c) => {
    const sts = await cluster.getStatefulSet(ns, m.statefulSetName);
    if (sts === undefined) throw new Error(`StatefulSet ${ns}/${m.statefulSetName} not found`);
    const pod = await cluster.getPod(ns, podName);
    if (pod === undefined) throw new Error(`pod ${ns}/${podName} not found`);
    if (!pod.ready || pod.nodeName === undefined || pod.deleting)
      throw new Error(`${podName} is not Ready: the failover starts from a running source`);
    const node = await cluster.getNode(pod.nodeName);
    if (node?.zone === undefined) throw new Error(`node ${pod.nodeName} of ${podName} has no ${ZONE_LABEL} label`);
    const zone = node.zone;
    const volumes = Object.entries(pod.claims);
    if (volumes.length !== 1) throw new Error(`${podName} mounts ${volumes.length} PersistentVolumeClaims, expected its one data volume`);
    const [volume, claimName] = volumes[0];
    const claim = await cluster.getClaim(ns, claimName);
    if (claim?.phase !== "Bound" || claim.volumeName === undefined) throw new Error(`claim ${ns}/${claimName} of ${podName} is not Bound`);
    const nodes = await cluster.listNodes();
    const toCordon = nodes.filter((n) => n.zone === zone && !n.unschedulable).map((n) => n.name);
    const elsewhere = nodes.filter((n) => n.zone !== undefined && n.zone !== zone && !n.unschedulable && n.ready);
    if (elsewhere.length === 0) {
      throw new Error(
        `no schedulable Ready node outside ${zone} (${nodes.map((n) => `${n.name}: ${n.zone ?? "no zone"}${n.unschedulable ? ", cordoned" : ""}${n.ready ? "" : ", not Ready"}`).join("; ")}): ${podName} would have nowhere to go`,
      );
    }
    if ((await cluster.getJob(ns, jobName)) !== undefined) {
      throw new Error(`Job ${ns}/${jobName} exists: run id ${runId} has run in this cluster before; give a new --run-id`);
    }
    const replicas = replicaHosts(m.sourceHost, m.statefulSetName, sts.replicas);
    c.note(
      `${podName} on ${pod.nodeName} (${zone}), claim ${claimName} → ${claim.volumeName}; ${elsewhere.length} node(s) ready outside ${zone}; ${replicas.length} replica(s)`,
    );
    return { pod, zone, volume, claim, toCordon, replicas };
  });
}

/** 2. The writer (clean-up: its ConfigMap and Job), until its first acknowledged write. */
function startTheWriter(r: MysqlRun, before: Before): Promise<void> {
  const { x, o, ns, m, jobName } = r;
  const runId = x.runId;
  const manifests = writerManifests(
    {
      namespace: ns,
      runId,
      host: m.sourceHost,
      passwordSecret: m.writerPasswordSecretRef,
      intervalMs: o.writerIntervalMs,
      maxSeconds: writerMaxSeconds(o),
      readbackSeconds: o.readbackSeconds,
      replicaHosts: before.replicas,
      replicaWaitSeconds: o.replicaWaitSeconds,
    },
    x.scripts,
  );
  return x.steps.run("start the writer", o.writerStartTimeoutMs, async (c) => {
    const cm = writerConfigMapName(runId);
    await createConfigMapWithCleanup(x, ns, cm, manifests.configMap, o.cleanupTimeoutMs);
    await createJobWithCleanup(x, ns, jobName, manifests.job, o.cleanupTimeoutMs);
    let status = "no pod yet";
    await c.waitFor(
      "the writer's first acknowledged write",
      async () => {
        const log = await r.readWriter();
        status = r.writerPod === undefined ? "no running pod yet" : `${ackedIds(log).length} acknowledged`;
        if (ackedIds(log).length > 0) return log;
        await r.failIfWriterEnded();
        return undefined;
      },
      o.pollMs,
      () => status,
    );
    c.note(`Job ${ns}/${jobName}, pod ${r.writerPod?.name} on ${r.writerPod?.nodeName}`);
  });
}

/** 3. Writes before the failover: at least `minBaselineAcks` acknowledged, none failed. */
function writeBeforeTheFailover(r: MysqlRun): Promise<void> {
  const o = r.o;
  return r.x.steps.run("write before the failover", o.baselineMs + o.apiStepTimeoutMs, async (c) => {
    await c.sleep(o.baselineMs);
    const log = await r.readWriter();
    const failed = log.writes.find((w) => !w.ok);
    if (failed) throw new Error(`the writer failed before the failover: id ${failed.id}: ${failed.message}`);
    const acked = ackedIds(log).length;
    if (acked < o.minBaselineAcks)
      throw new Error(`only ${acked} write(s) acknowledged in ${formatElapsed(o.baselineMs)}, fewer than ${o.minBaselineAcks}`);
    c.note(`${acked} writes acknowledged`);
  });
}

/** 4. Cordon the zone's schedulable nodes (clean-up: uncordon each). */
function cordonTheZone(r: MysqlRun, before: Before): Promise<void> {
  const { x, o } = r;
  const { cluster, cleanup } = x;
  return x.steps.run(`cordon ${before.zone}`, o.apiStepTimeoutMs, async (c) => {
    for (const n of before.toCordon) {
      cleanup.add({
        key: `uncordon:${n}`,
        leftover: `node ${n} is cordoned: kubectl uncordon ${n}`,
        timeoutMs: o.cleanupTimeoutMs,
        run: async () => {
          await cluster.setUnschedulable(n, false);
          return `uncordoned node ${n}`;
        },
      });
      await cluster.setUnschedulable(n, true);
      r.event(`cordoned ${n} (${before.zone})`);
    }
    c.note(`cordoned ${before.toCordon.join(", ")}`);
  });
}

/** 5. Delete mysql-0. */
function deleteTheSource(r: MysqlRun, before: Before) {
  const { x, o, ns, podName } = r;
  return x.steps.run(`delete ${podName}`, o.apiStepTimeoutMs, async (c) => {
    const rowsBefore = ackedIds(await r.readWriter()).length;
    await x.cluster.deletePod(ns, podName);
    const at = x.env.clock();
    r.event(`deleted ${podName} (uid ${before.pod.uid}) on ${before.pod.nodeName}`, at);
    c.note(`${rowsBefore} rows acknowledged before the delete`);
    return { at, rowsBefore };
  });
}

/** 6. mysql-0 Ready on a node of another zone. */
function waitForTheSourceInAnotherZone(r: MysqlRun, before: Before, deleted: Deleted) {
  const { x, o, ns, podName } = r;
  const { cluster, env } = x;
  return x.steps.run(`wait for ${podName} in another zone`, o.readyTimeoutMs, async (c) => {
    let status = "the old pod is still there";
    const zones = new Map<string, string | undefined>();
    const found = await c.waitFor(
      `${podName} Ready on a node outside ${before.zone}`,
      async () => {
        const p = await cluster.getPod(ns, podName);
        if (p === undefined || p.uid === before.pod.uid) {
          status = p === undefined ? "no pod" : "the old pod is still terminating";
          return undefined;
        }
        if (p.nodeName === undefined) {
          status = "the new pod is not scheduled yet";
          return undefined;
        }
        if (!zones.has(p.nodeName)) zones.set(p.nodeName, (await cluster.getNode(p.nodeName))?.zone);
        const zone = zones.get(p.nodeName);
        if (zone === before.zone) {
          throw new Error(`${podName} came back on ${p.nodeName} in ${before.zone}, the zone it left: its zone did not change`);
        }
        if (zone === undefined) throw new Error(`node ${p.nodeName} of the new ${podName} has no zone label`);
        if (!p.ready) {
          status = `the new pod is on ${p.nodeName} (${zone}), not Ready yet`;
          return undefined;
        }
        return { pod: p, zone, readyAt: env.clock() };
      },
      o.pollMs,
      () => status,
    );
    r.event(`${podName} (uid ${found.pod.uid}) Ready on ${found.pod.nodeName} (${found.zone})`, found.readyAt);
    c.note(`on ${found.pod.nodeName} (${found.zone}), Ready ${formatElapsed(found.readyAt - deleted.at)} after the delete`);
    return found;
  });
}

/** 7. The same claim, bound to the same volume. */
function checkTheVolume(r: MysqlRun, before: Before, after: After): Promise<void> {
  const { x, o, ns, podName } = r;
  return x.steps.run("check the volume", o.apiStepTimeoutMs, async (c) => {
    const claimName = after.pod.claims[before.volume];
    if (claimName !== before.claim.name) {
      throw new Error(
        `the new ${podName} mounts ${claimName === undefined ? "no claim" : `claim ${claimName}`} as ${before.volume}, not ${before.claim.name}`,
      );
    }
    const claim = await x.cluster.getClaim(ns, claimName);
    if (claim === undefined) throw new Error(`claim ${ns}/${claimName} is gone`);
    if (claim.uid !== before.claim.uid)
      throw new Error(`claim ${ns}/${claimName} was re-created (uid ${before.claim.uid} → ${claim.uid}): not the same volume`);
    if (claim.volumeName !== before.claim.volumeName) {
      throw new Error(`claim ${ns}/${claimName} is bound to ${claim.volumeName ?? "nothing"}, it was bound to ${before.claim.volumeName}`);
    }
    c.note(`claim ${claimName} still bound to ${claim.volumeName}`);
  });
}

/** 8. A write started after mysql-0 is back, acknowledged. */
function writeAfterTheFailover(r: MysqlRun, deleted: Deleted) {
  const { x, o, podName } = r;
  return x.steps.run("write after the failover", o.firstWriteTimeoutMs, async (c) => {
    const idAtReady = lastId(await r.readWriter());
    let status = "";
    const w = await c.waitFor(
      `a write started after ${podName} became Ready to be acknowledged`,
      async () => {
        const log = await r.readWriter();
        const ack = log.writes.find((w) => w.ok && w.id > idAtReady);
        const last = log.writes[log.writes.length - 1];
        status = last === undefined ? "" : `last write: id ${last.id} ${last.ok ? "acknowledged" : `failed: ${last.message}`}`;
        if (ack !== undefined) return { id: ack.id, at: x.env.clock() };
        await r.failIfWriterEnded();
        return undefined;
      },
      o.pollMs,
      () => status,
    );
    r.event(`write ${w.id} acknowledged after the failover`, w.at);
    c.note(`id ${w.id}, ${formatElapsed(w.at - deleted.at)} after the delete`);
    return w;
  });
}

/** 9. Uncordon: step 4's clean-up, run now. */
function uncordonTheZone(r: MysqlRun, before: Before): Promise<void> {
  const x = r.x;
  return x.steps.run(`uncordon ${before.zone}`, r.o.apiStepTimeoutMs, async (c) => {
    const done: string[] = [];
    for (const n of before.toCordon) {
      await x.cleanup.runNow(`uncordon:${n}`, c.signal);
      done.push(n);
      r.event(`uncordoned ${n}`);
    }
    c.note(`uncordoned ${done.join(", ")}`);
  });
}

/** 10. Stop the writer; it lists the table's ids (and checks the replicas: up to `replicaWaitSeconds` each). */
function stopTheWriter(r: MysqlRun, before: Before): Promise<WriterLog> {
  const { x, o, ns, jobName } = r;
  const stopMs = o.stopTimeoutMs + before.replicas.length * o.replicaWaitSeconds * 1000;
  return x.steps.run("stop the writer", stopMs, async (c) => {
    if (r.writerPod === undefined) throw new Error("the writer's pod is unknown");
    const stopped = await stopJob(c, x.cluster, {
      ns,
      jobName,
      pod: r.writerPod,
      container: WRITER_CONTAINER,
      waiting: "the writer to stop and list the table's rows",
      pollMs: o.pollMs,
    });
    const job = stopped.job;
    r.lastLogText = stopped.logText;
    const log = parseWriterLog(r.lastLogText, r.source);
    if (log.present === undefined) {
      throw new Error(
        `the writer ended without listing the table's rows (Job ${job.type}${job.reason ? `: ${job.reason}` : ""})${log.error ? `: ${log.error}` : ""}`,
      );
    }
    c.note(`${log.writes.length} writes, ${log.present.length} rows of run ${x.runId} in the table`);
    return log;
  });
}

/** What the steps saw, for the verdict. */
interface MysqlSeen {
  readonly before: Before;
  readonly deleted: Deleted;
  readonly after: After;
  readonly firstWrite: { readonly id: number; readonly at: number };
  readonly final: WriterLog;
}

/** 11. Verify: every acknowledged row there, every replica replicating; the samples. */
function verifyTheRowsAndTheReplicas(r: MysqlRun, seen: MysqlSeen): Promise<Evidence> {
  const { x, o, podName } = r;
  const { before, deleted, after, firstWrite, final } = seen;
  return x.steps.run("verify the rows and the replicas", o.apiStepTimeoutMs, async (c) => {
    const lost = lostIds(final);
    const replication = replicationProblems(final, before.replicas, lastAckedId(final));
    const acked = ackedIds(final);
    const outage = longestOutage(final);
    const failedWrites = final.writes.filter((w) => !w.ok).length;
    if (outage) {
      r.timeline.push({ at: iso(outage.fromMs), clock: "writer", what: "last acknowledged write before the outage" });
      r.timeline.push({
        at: iso(outage.toMs),
        clock: "writer",
        what: `first acknowledged write after the outage (${outage.failedWrites} failed in between)`,
      });
    }
    const meta = {
      zoneFrom: before.zone,
      zoneTo: after.zone,
      nodeFrom: before.pod.nodeName ?? "",
      nodeTo: after.pod.nodeName ?? "",
      storageClass: x.outputs.mysql.storageClass,
      claim: before.claim.name,
      persistentVolume: before.claim.volumeName ?? "",
      cordoned: before.toCordon.join(","),
      writerIntervalMs: o.writerIntervalMs,
    };
    const samples = [
      failoverSample(x, "failover.rows.before", deleted.rowsBefore, "count", { ...meta, measuredAt: "delete" }),
      failoverSample(x, "failover.rows.after", final.present!.length, "count", meta),
      failoverSample(x, "failover.rows.lost", lost.length, "count", { ...meta, acknowledged: acked.length }),
      failoverSample(x, "failover.recovery", seconds(firstWrite.at - deleted.at), "s", {
        ...meta,
        readySeconds: seconds(after.readyAt - deleted.at),
        pollMs: o.pollMs,
        clock: "operator",
      }),
      ...(outage ? [failoverSample(x, "failover.outage", seconds(outage.toMs - outage.fromMs), "s", { ...meta, clock: "writer" })] : []),
      failoverSample(x, "failover.writes.failed", failedWrites, "count", meta),
      failoverSample(x, "failover.replicas.replicating", before.replicas.length - replication.length, "count", {
        ...meta,
        replicas: before.replicas.length,
      }),
    ];
    const raws = [{ name: "writer.log", text: r.lastLogText }, timelineRaw(r.timeline)];
    const failures: string[] = [];
    const notes: string[] = [];
    if (lost.length > 0) {
      notes.push(`${lost.length} of ${acked.length} acknowledged rows lost`);
      failures.push(
        `${lost.length} acknowledged row(s) lost: id(s) ${listIds(lost)} of run ${x.runId} were committed (the writer's INSERT succeeded) and are not in lab_failover.writes after ${podName} moved from ${before.zone} to ${after.zone}`,
      );
    } else notes.push(`all ${acked.length} acknowledged rows present, ${final.present!.length} rows in the table`);
    if (replication.length > 0) {
      notes.push(`${replication.length} of ${before.replicas.length} replica(s) not replicating`);
      failures.push(`replication broken after ${podName} moved from ${before.zone} to ${after.zone}: ${replication.join("; ")}`);
    } else if (before.replicas.length > 0)
      notes.push(`${before.replicas.length} replica(s) replicating, caught up with id ${lastAckedId(final)}`);
    c.note(notes.join("; "));
    return failures.length > 0 ? { samples, raws, failure: failures.join("; and ") } : { samples, raws };
  });
}
