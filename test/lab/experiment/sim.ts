/**
 * A simulated EKS cluster with FSx for ONTAP behind it, for the failover experiments' tests: the
 * Kubernetes objects the experiments touch (nodes with zones, the MySQL StatefulSet's mysql-0 and
 * its claim, Jobs and their pods, claims, ConfigMaps, StorageClasses), the controllers' reactions
 * that matter (a Job gets a pod that starts, a deleted mysql-0 comes back where the scheduler can
 * put it, a claim binds when its pod starts), the two programs the Jobs run (the MySQL writer and
 * fio, producing the same log records as the real scripts, from the simulated database and the
 * file system's failovers), and the FSx API (a throughput update goes PENDING → IN_PROGRESS →
 * COMPLETED, failing over and back on the way).
 *
 * Time is simulated: the experiment's clock is {@link World.t}, its `sleep` advances it, and every
 * API call first plays the events due. Every call is recorded ({@link World.calls}); one can be
 * made to fail ({@link World.failAt}) and a callback can act on any ({@link World.onCall}, e.g.
 * Ctrl-C at a given point).
 *
 * {@link SimCluster} and {@link SimFsx} are the experiments' `Cluster` and `FsxApi` on it; the
 * end-to-end test serves the same world over HTTP (./apiserver.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IJob } from "kubernetes-models/batch/v1/Job";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import {
  claimState,
  ClaimState,
  Cluster,
  jobState,
  JobState,
  JOB_NAME_LABEL,
  nodeState,
  NodeState,
  podState,
  PodState,
} from "../../../lab/experiment/cluster";
import type { ActionView, FileSystemView, FsxApi } from "../../../lab/experiment/fsx";
import type { ExperimentEnv } from "../../../lab/experiment/steps";
import { beginMarker, endMarker } from "../../../components/bench/collect";

export const FIXTURES = path.join(__dirname, "fixtures");
export const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
export const RUN_ID = "r1";
export const FS_ID = "fs-0123456789abcdef0";
export const SOURCE_HOST = "mysql-0.mysql.mysql.svc.cluster.local";
export const CONNECT_ERROR = `ERROR 2003 (HY000): Can't connect to MySQL server on '${SOURCE_HOST}:3306' (111)`;

export interface WorldOptions {
  readonly nodes: ReadonlyArray<{ readonly name: string; readonly zone: string; readonly unschedulable?: boolean }>;
  /** A Job's pod runs this long after the Job is created. */
  readonly podStartMs: number;
  /** The kubelet's rewrite of the downward API annotations file comes this long after the annotation. */
  readonly annotationDelayMs: number;
  /** The deleted mysql-0 is gone after this long, and its successor is created. */
  readonly mysqlTerminateMs: number;
  /** The successor is scheduled this long after it is created... */
  readonly mysqlScheduleMs: number;
  /** ...and Ready this long after that. */
  readonly mysqlReadyMs: number;
  /** Where the scheduler puts the successor: a schedulable node (first by name), the zone it left whatever the cordons, or nowhere. */
  readonly placement: "schedulable" | "old-zone" | "nowhere";
  /** Acknowledged ids the table loses when mysql-0 is deleted (the newest ones). */
  readonly loseOnDelete: number;
  /**
   * Replicas (by pod name) whose I/O thread gave up reconnecting while mysql-0 was away: they stay
   * at the rows they held when it was deleted, `Replica_IO_Running: No` with the connection error.
   * The others replicate everything.
   */
  readonly replicasGivingUp?: readonly string[];
  /** fio: write IOPS of a second with no stall. */
  readonly fioIops: number;
  /** fio ends on its own this long after it started, with the verify-failure fixture. */
  readonly fioVerifyFailsAfterMs?: number;
  readonly fsx: {
    readonly deploymentType: string;
    readonly throughputMBps: number;
    /** PENDING → IN_PROGRESS. */
    readonly pendingMs: number;
    /** IN_PROGRESS → COMPLETED. */
    readonly inProgressMs: number;
    /** Failover and failback, after IN_PROGRESS began. */
    readonly failoverAfterMs: number;
    readonly failbackAfterMs: number;
    /** How long writes stall at a failover and at a failback. */
    readonly stallMs: number;
    /** An update ends FAILED with this message. */
    readonly failUpdate?: string;
  };
}

export const DEFAULT_WORLD: WorldOptions = {
  nodes: [
    { name: "ip-10-0-1-10.ec2.internal", zone: "us-east-1a" },
    { name: "ip-10-0-1-20.ec2.internal", zone: "us-east-1a" },
    { name: "ip-10-0-2-10.ec2.internal", zone: "us-east-1b" },
  ],
  podStartMs: 3_000,
  annotationDelayMs: 4_000,
  mysqlTerminateMs: 5_000,
  mysqlScheduleMs: 1_000,
  mysqlReadyMs: 24_000,
  placement: "schedulable",
  loseOnDelete: 0,
  fioIops: 12_000,
  fsx: {
    deploymentType: "MULTI_AZ_1",
    throughputMBps: 512,
    pendingMs: 30_000,
    inProgressMs: 300_000,
    failoverAfterMs: 60_000,
    failbackAfterMs: 240_000,
    stallMs: 3_000,
  },
};

interface SimPod {
  readonly ns: string;
  readonly name: string;
  readonly uid: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  /** When each annotation was set. */
  readonly annotatedAt: Map<string, number>;
  nodeName?: string;
  phase: string;
  ready: boolean;
  readySince?: number;
  readonly claims: Record<string, string>;
  deleting: boolean;
  readonly log: string[];
  readonly container: string;
  terminated?: { exitCode: number; reason: string };
}

interface SimClaim {
  readonly manifest?: IPersistentVolumeClaim;
  readonly name: string;
  readonly uid: string;
  phase: string;
  volumeName?: string;
  readonly storageClassName?: string;
}

interface SimJob {
  readonly manifest: IJob;
  readonly podName: string;
  finished?: { type: "Complete" | "Failed"; reason?: string; message?: string };
}

export interface SimAction {
  readonly requestTime: number;
  readonly target: number;
  status: string;
  failure?: string;
}

const key = (ns: string, name: string) => `${ns}/${name}`;
const envOf = (job: IJob) =>
  Object.fromEntries((job.spec!.template.spec!.containers[0].env ?? []).map((e) => [e.name, e.value ?? ""])) as Record<string, string>;

/** The fixtures as fio would print them at `endMs` after a run that started at `startMs`. */
function fioJson(fixture: string, startMs: number, endMs: number): string {
  const doc = JSON.parse(fs.readFileSync(path.join(FIXTURES, fixture), "utf8"));
  doc.timestamp = Math.floor(endMs / 1000);
  doc.timestamp_ms = endMs;
  doc.jobs[0].job_runtime = endMs - startMs;
  return JSON.stringify(doc, null, 2);
}

export class World {
  t: number;
  readonly calls: string[] = [];
  /** The call with this index (0-based over every call) throws {@link failError}. */
  failAt: number | undefined;
  failError = "connection reset by peer (injected)";
  onCall: ((call: string, index: number) => void) | undefined;

  readonly nodes = new Map<string, { name: string; zone: string; unschedulable: boolean; ready: boolean }>();
  readonly pods = new Map<string, SimPod>();
  readonly claims = new Map<string, SimClaim>();
  readonly configMaps = new Map<string, IConfigMap>();
  readonly jobs = new Map<string, SimJob>();
  readonly storageClasses = new Map<string, string>([
    ["fsx-ontap-nas", "csi.trident.netapp.io"],
    ["gp3", "ebs.csi.aws.com"],
  ]);
  /** The writer's table: committed ids. */
  readonly db = new Set<number>();
  /** Ids the table lost. */
  readonly lost: number[] = [];
  /** The highest id the source held when mysql-0 was deleted (what a replica that gave up holds). */
  maxAtDelete = 0;
  readonly fsx: { throughput: number; lifecycle: string; actions: SimAction[]; tokens: Map<string, number> };
  /** When writes stall: [from, to) ms. */
  readonly stalls: Array<{ from: number; to: number }> = [];
  private readonly queue: Array<{ at: number; seq: number; fn: () => void }> = [];
  private seq = 0;
  private uids = 0;

  constructor(readonly o: WorldOptions = DEFAULT_WORLD) {
    this.t = T0;
    for (const n of o.nodes) this.nodes.set(n.name, { name: n.name, zone: n.zone, unschedulable: n.unschedulable === true, ready: true });
    this.fsx = { throughput: o.fsx.throughputMBps, lifecycle: "AVAILABLE", actions: [], tokens: new Map() };
    // mysql-0 on the first node, its claim bound.
    this.claims.set(key("mysql", "data-mysql-0"), {
      name: "data-mysql-0",
      uid: "claim-uid-mysql-0",
      phase: "Bound",
      volumeName: "pvc-6f1c2d3e",
      storageClassName: "fsx-ontap-nas",
    });
    this.addMysql0(o.nodes[0].name, true);
  }

  uid(): string {
    return `uid-${++this.uids}`;
  }

  /** Plays every event due by `now`. */
  advance(now: number): void {
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.queue[0];
      if (next === undefined || next.at > now) break;
      this.queue.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = Math.max(this.t, now);
  }

  at(ms: number, fn: () => void): void {
    this.queue.push({ at: ms, seq: this.seq++, fn });
  }

  /** Records a call; throws the injected failure at its index. */
  call(what: string): void {
    const i = this.calls.length;
    this.calls.push(what);
    this.onCall?.(what, i);
    if (this.failAt === i) throw new Error(`${this.failError} [${what}]`);
  }

  // ---- MySQL

  private addMysql0(nodeName: string | undefined, ready: boolean): SimPod {
    const pod: SimPod = {
      ns: "mysql",
      name: "mysql-0",
      uid: this.uid(),
      labels: { "app.kubernetes.io/name": "mysql" },
      annotations: {},
      annotatedAt: new Map(),
      ...(nodeName ? { nodeName } : {}),
      phase: nodeName && ready ? "Running" : "Pending",
      ready,
      ...(ready ? { readySince: this.t } : {}),
      claims: { data: "data-mysql-0" },
      deleting: false,
      log: [],
      container: "mysql",
    };
    this.pods.set(key("mysql", "mysql-0"), pod);
    return pod;
  }

  sourceUp(): boolean {
    const p = this.pods.get(key("mysql", "mysql-0"));
    return p !== undefined && p.ready && !p.deleting;
  }

  private deleteMysql0(pod: SimPod): void {
    const oldZone = this.nodes.get(pod.nodeName!)!.zone;
    pod.deleting = true;
    pod.ready = false;
    const acked = [...this.db].sort((a, b) => a - b);
    this.maxAtDelete = acked.length > 0 ? acked[acked.length - 1] : 0;
    for (const id of acked.slice(acked.length - this.o.loseOnDelete)) {
      this.db.delete(id);
      this.lost.push(id);
    }
    this.at(this.t + this.o.mysqlTerminateMs, () => {
      this.pods.delete(key("mysql", "mysql-0"));
      const next = this.addMysql0(undefined, false);
      this.at(this.t + this.o.mysqlScheduleMs, () => {
        if (this.pods.get(key("mysql", "mysql-0")) !== next) return;
        const nodes = [...this.nodes.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
        const target =
          this.o.placement === "old-zone"
            ? nodes.find((n) => n.zone === oldZone)
            : this.o.placement === "nowhere"
              ? undefined
              : nodes.find((n) => !n.unschedulable && n.ready);
        if (target === undefined) return;
        next.nodeName = target.name;
        this.at(this.t + this.o.mysqlReadyMs, () => {
          if (this.pods.get(key("mysql", "mysql-0")) !== next) return;
          next.phase = "Running";
          next.ready = true;
          next.readySince = this.t;
        });
      });
    });
  }

  // ---- Jobs and their programs

  private startJob(job: IJob): void {
    const ns = job.metadata!.namespace!;
    const name = job.metadata!.name!;
    const podName = `${name}-x7k2q`;
    const container = job.spec!.template.spec!.containers[0].name;
    const claims: Record<string, string> = {};
    for (const v of job.spec!.template.spec!.volumes ?? []) if (v.persistentVolumeClaim) claims[v.name] = v.persistentVolumeClaim.claimName;
    const pod: SimPod = {
      ns,
      name: podName,
      uid: this.uid(),
      labels: { [JOB_NAME_LABEL]: name, ...(job.spec!.template.metadata?.labels ?? {}) },
      annotations: {},
      annotatedAt: new Map(),
      phase: "Pending",
      ready: false,
      claims,
      deleting: false,
      log: [],
      container,
    };
    this.pods.set(key(ns, podName), pod);
    this.jobs.set(key(ns, name), { manifest: job, podName });
    this.at(this.t + this.o.podStartMs, () => {
      if (this.pods.get(key(ns, podName)) !== pod) return;
      pod.nodeName = container === "fio" ? this.o.nodes[0].name : this.o.nodes[this.o.nodes.length - 1].name;
      pod.phase = "Running";
      pod.ready = true;
      for (const c of Object.values(claims)) {
        const claim = this.claims.get(key(ns, c));
        if (claim && claim.phase === "Pending") {
          claim.phase = "Bound";
          claim.volumeName = "pvc-9a8b7c6d";
        }
      }
      if (container === "writer") this.runWriter(job, pod);
      else this.runFio(job, pod);
    });
  }

  /** The annotation `lab/stop` is "true" in the pod's annotations file (set, and the kubelet caught up). */
  private stopSeen(pod: SimPod): boolean {
    const at = pod.annotatedAt.get("lab/stop");
    return pod.annotations["lab/stop"] === "true" && at !== undefined && this.t >= at + this.o.annotationDelayMs;
  }

  private finish(ns: string, job: string, pod: SimPod, exitCode: number): void {
    pod.phase = exitCode === 0 ? "Succeeded" : "Failed";
    pod.ready = false;
    pod.terminated = { exitCode, reason: exitCode === 0 ? "Completed" : "Error" };
    const j = this.jobs.get(key(ns, job));
    if (j)
      j.finished =
        exitCode === 0
          ? { type: "Complete" }
          : { type: "Failed", reason: "BackoffLimitExceeded", message: "Job has reached the specified backoff limit" };
  }

  private runWriter(job: IJob, pod: SimPod): void {
    const env = envOf(job);
    const interval = Number(env.LAB_INTERVAL_MS);
    const name = job.metadata!.name!;
    pod.log.push(`writer start run=${env.LAB_RUN_ID} host=${env.LAB_MYSQL_HOST} interval_ms=${interval}`);
    let id = 0;
    const tick = () => {
      if (this.pods.get(key(pod.ns, pod.name)) !== pod) return; // deleted
      if (this.stopSeen(pod)) {
        pod.log.push(`writer stop requested ${this.t}`, "present-begin");
        const ids = [...this.db].sort((a, b) => a - b);
        for (const i of ids) pod.log.push(String(i));
        pod.log.push(`present-end count=${ids.length}`);
        for (const host of (env.LAB_REPLICA_HOSTS ?? "").split(" ").filter((h) => h !== "")) pod.log.push(...this.replicaReport(host, ids));
        pod.log.push("writer done");
        this.finish(pod.ns, name, pod, 0);
        return;
      }
      id++;
      if (this.sourceUp()) {
        this.db.add(id);
        pod.log.push(`ack ${id} ${this.t}`);
      } else pod.log.push(`err ${id} ${this.t} ${CONNECT_ERROR}`);
      this.at(this.t + interval, tick);
    };
    this.at(this.t + interval, tick);
  }

  /** The writer's records of one replica, as mysql-writer.sh prints them from MySQL 8.4's SHOW REPLICA STATUS. */
  private replicaReport(host: string, ids: readonly number[]): string[] {
    const gaveUp = (this.o.replicasGivingUp ?? []).includes(host.split(".")[0]);
    const max = gaveUp ? this.maxAtDelete : ids.length > 0 ? ids[ids.length - 1] : 0;
    const ioError = gaveUp
      ? `error connecting to source 'root@${SOURCE_HOST}:3306' - retry-time: 10 retries: 8640 message: Unknown MySQL server host '${SOURCE_HOST}' (-2)`
      : "";
    const status: Array<[string, string]> = [
      ["Replica_IO_State", gaveUp ? "" : "Waiting for source to send event"],
      ["Source_Host", SOURCE_HOST],
      ["Source_User", "root"],
      ["Source_Port", "3306"],
      ["Connect_Retry", "10"],
      ["Replica_IO_Running", gaveUp ? "No" : "Yes"],
      ["Replica_SQL_Running", "Yes"],
      ["Last_Errno", "0"],
      ["Last_Error", ""],
      ["Last_IO_Errno", gaveUp ? "2005" : "0"],
      ["Last_IO_Error", ioError],
      ["Last_SQL_Errno", "0"],
      ["Last_SQL_Error", ""],
      ["Source_Retry_Count", "8640"],
    ];
    return [`replica-begin ${host}`, `replica-max ${max}`, ...status.map(([k, v]) => `replica-status ${k}: ${v}`), `replica-end ${host}`];
  }

  private runFio(job: IJob, pod: SimPod): void {
    const start = this.t;
    const name = job.metadata!.name!;
    pod.log.push(`fio-start ${start} version=3.33`);
    const emit = (fixture: string, end: number) => {
      pod.log.push(beginMarker("fio", 1, { version: "3.33" }), ...fioJson(fixture, start, end).split("\n"), endMarker("fio", 1));
      pod.log.push(beginMarker("fio-iops", 1), ...this.iopsLog(start, end), endMarker("fio-iops", 1));
    };
    if (this.o.fioVerifyFailsAfterMs !== undefined) {
      this.at(start + this.o.fioVerifyFailsAfterMs, () => {
        if (this.pods.get(key(pod.ns, pod.name)) !== pod) return;
        pod.log.push(...fs.readFileSync(path.join(FIXTURES, "failover-fio-verify-failed.stderr"), "utf8").trimEnd().split("\n"));
        emit("failover-fio-verify-failed.json", this.t);
        pod.log.push("fio-exit 1");
        this.finish(pod.ns, name, pod, 1);
      });
    }
    const poll = () => {
      if (this.pods.get(key(pod.ns, pod.name)) !== pod || pod.terminated) return;
      if (this.stopSeen(pod)) {
        pod.log.push(`fio-stop ${this.t}`);
        emit("failover-fio-ok.json", this.t);
        pod.log.push("fio-exit 0");
        this.finish(pod.ns, name, pod, 0);
        return;
      }
      this.at(this.t + 1000, poll);
    };
    this.at(start + 1000, poll);
  }

  /** fio's IOPS log of a run from `start` to `end`: one line a second but for seconds that overlap a stall. */
  iopsLog(start: number, end: number): string[] {
    const lines: string[] = [];
    for (let s = 1; start + s * 1000 <= end; s++) {
      const from = start + (s - 1) * 1000;
      const to = start + s * 1000;
      if (this.stalls.some((w) => w.from < to && w.to > from)) continue;
      lines.push(`${s * 1000}, ${this.o.fioIops}, 1, 0, 0`);
    }
    return lines;
  }

  // ---- FSx

  fsxView(): FileSystemView {
    const actions: ActionView[] = this.fsx.actions.map((a) => ({
      type: "FILE_SYSTEM_UPDATE",
      status: a.status,
      requestTime: a.requestTime,
      targetThroughputMBps: a.target,
      ...(a.failure ? { failure: a.failure } : {}),
    }));
    return {
      id: FS_ID,
      type: "ONTAP",
      lifecycle: this.fsx.lifecycle,
      deploymentType: this.o.fsx.deploymentType,
      throughputCapacityMBps: this.fsx.throughput,
      actions,
    };
  }

  fsxUpdate(target: number, token: string): void {
    if (this.fsx.tokens.get(token) === target) return; // idempotent retry
    if (this.fsx.actions.some((a) => !["COMPLETED", "FAILED", "CANCELLED"].includes(a.status))) {
      throw new Error("BadRequest: Unable to perform the update: an update is already in progress");
    }
    this.fsx.tokens.set(token, target);
    const a: SimAction = { requestTime: this.t, target, status: "PENDING" };
    this.fsx.actions.push(a);
    const o = this.o.fsx;
    this.at(this.t + o.pendingMs, () => {
      a.status = "IN_PROGRESS";
      this.fsx.lifecycle = "UPDATING";
      const began = this.t;
      for (const after of [o.failoverAfterMs, o.failbackAfterMs]) this.stalls.push({ from: began + after, to: began + after + o.stallMs });
      this.at(began + o.inProgressMs, () => {
        this.fsx.lifecycle = "AVAILABLE";
        if (o.failUpdate !== undefined) {
          a.status = "FAILED";
          a.failure = o.failUpdate;
          return;
        }
        a.status = "COMPLETED";
        this.fsx.throughput = target;
      });
    });
  }

  // ---- what a test checks afterwards

  /** What the run left in the cluster and the file system. */
  leftovers(): {
    cordoned: string[];
    jobs: string[];
    configMaps: string[];
    claims: string[];
    pods: string[];
    throughput: number;
    pendingUpdates: number;
  } {
    return {
      cordoned: [...this.nodes.values()].filter((n) => n.unschedulable).map((n) => n.name),
      jobs: [...this.jobs.keys()],
      configMaps: [...this.configMaps.keys()],
      claims: [...this.claims.keys()].filter((k) => k !== "mysql/data-mysql-0"),
      pods: [...this.pods.keys()].filter((k) => !k.startsWith("mysql/mysql-")),
      throughput: this.fsx.throughput,
      pendingUpdates: this.fsx.actions.filter((a) => !["COMPLETED", "FAILED", "CANCELLED"].includes(a.status)).length,
    };
  }

  // ---- Kubernetes-shaped objects (what the API server would serve)

  podObject(p: SimPod) {
    return {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: p.name,
        namespace: p.ns,
        uid: p.uid,
        labels: p.labels,
        annotations: p.annotations,
        ...(p.deleting ? { deletionTimestamp: new Date(this.t).toISOString() } : {}),
      },
      spec: {
        ...(p.nodeName ? { nodeName: p.nodeName } : {}),
        containers: [{ name: p.container, image: "example.invalid/x:1" }],
        volumes: Object.entries(p.claims).map(([name, claimName]) => ({ name, persistentVolumeClaim: { claimName } })),
      },
      status: {
        phase: p.phase,
        conditions: [
          {
            type: "Ready",
            status: p.ready ? "True" : "False",
            ...(p.readySince !== undefined ? { lastTransitionTime: new Date(p.readySince).toISOString() } : {}),
          },
        ],
        ...(p.terminated ? { containerStatuses: [{ name: p.container, state: { terminated: p.terminated } }] } : {}),
      },
    };
  }

  nodeObject(n: { name: string; zone: string; unschedulable: boolean; ready: boolean }) {
    return {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: n.name, labels: { "topology.kubernetes.io/zone": n.zone } },
      spec: n.unschedulable ? { unschedulable: true } : {},
      status: { conditions: [{ type: "Ready", status: n.ready ? "True" : "False" }] },
    };
  }

  claimObject(ns: string, c: SimClaim) {
    return {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: c.name, namespace: ns, uid: c.uid },
      spec: {
        ...(c.volumeName ? { volumeName: c.volumeName } : {}),
        ...(c.storageClassName ? { storageClassName: c.storageClassName } : {}),
      },
      status: { phase: c.phase },
    };
  }

  jobObject(j: SimJob) {
    const pod = this.pods.get(key(j.manifest.metadata!.namespace!, j.podName));
    return {
      ...j.manifest,
      status: {
        active: j.finished === undefined && pod !== undefined ? 1 : 0,
        succeeded: j.finished?.type === "Complete" ? 1 : 0,
        failed: j.finished?.type === "Failed" ? 1 : 0,
        ...(j.finished
          ? { conditions: [{ type: j.finished.type, status: "True", reason: j.finished.reason, message: j.finished.message }] }
          : {}),
      },
    };
  }

  // ---- the operations, shared by SimCluster and the HTTP API server

  getPod(ns: string, name: string) {
    const p = this.pods.get(key(ns, name));
    return p && this.podObject(p);
  }
  listPods(ns: string, selector: string) {
    const want = Object.fromEntries(selector.split(",").map((kv) => kv.split("=")));
    return [...this.pods.values()]
      .filter((p) => p.ns === ns && Object.entries(want).every(([k, v]) => p.labels[k] === v))
      .map((p) => this.podObject(p));
  }
  deletePod(ns: string, name: string): boolean {
    const p = this.pods.get(key(ns, name));
    if (!p) return false;
    if (ns === "mysql" && name === "mysql-0") this.deleteMysql0(p);
    else this.pods.delete(key(ns, name));
    return true;
  }
  annotatePod(ns: string, name: string, annotations: Record<string, string>): boolean {
    const p = this.pods.get(key(ns, name));
    if (!p) return false;
    for (const [k, v] of Object.entries(annotations)) {
      p.annotations[k] = v;
      p.annotatedAt.set(k, this.t);
    }
    return true;
  }
  setUnschedulable(name: string, value: boolean): boolean {
    const n = this.nodes.get(name);
    if (!n) return false;
    n.unschedulable = value;
    return true;
  }
  createClaim(c: IPersistentVolumeClaim): boolean {
    const k = key(c.metadata!.namespace!, c.metadata!.name!);
    if (this.claims.has(k)) return false;
    this.claims.set(k, {
      manifest: c,
      name: c.metadata!.name!,
      uid: this.uid(),
      phase: "Pending",
      storageClassName: c.spec?.storageClassName,
    });
    return true;
  }
  createConfigMap(c: IConfigMap): boolean {
    const k = key(c.metadata!.namespace!, c.metadata!.name!);
    if (this.configMaps.has(k)) return false;
    this.configMaps.set(k, c);
    return true;
  }
  createJob(j: IJob): boolean {
    const k = key(j.metadata!.namespace!, j.metadata!.name!);
    if (this.jobs.has(k)) return false;
    this.startJob(j);
    return true;
  }
  deleteJob(ns: string, name: string): boolean {
    const j = this.jobs.get(key(ns, name));
    if (!j) return false;
    this.jobs.delete(key(ns, name));
    this.pods.delete(key(ns, j.podName));
    return true;
  }
  podLog(ns: string, name: string): string | undefined {
    const p = this.pods.get(key(ns, name));
    if (!p) return undefined;
    return p.log.length > 0 ? `${p.log.join("\n")}\n` : "";
  }
}

/** The experiments' Cluster on a {@link World}. */
export class SimCluster implements Cluster {
  constructor(
    private readonly w: World,
    private readonly now: () => number,
  ) {}
  private op(what: string): void {
    this.w.advance(this.now());
    this.w.call(what);
  }
  async getStatefulSet(ns: string, name: string) {
    this.op(`getStatefulSet ${ns}/${name}`);
    return ns === "mysql" && name === "mysql" ? { name, replicas: 3, readyReplicas: 3 } : undefined;
  }
  async getPod(ns: string, name: string): Promise<PodState | undefined> {
    this.op(`getPod ${ns}/${name}`);
    const p = this.w.getPod(ns, name);
    return p && podState(p);
  }
  async listPods(ns: string, selector: string): Promise<PodState[]> {
    this.op(`listPods ${ns} ${selector}`);
    return this.w.listPods(ns, selector).map(podState);
  }
  async deletePod(ns: string, name: string) {
    this.op(`deletePod ${ns}/${name}`);
    this.w.deletePod(ns, name);
  }
  async annotatePod(ns: string, name: string, annotations: Readonly<Record<string, string>>) {
    this.op(`annotatePod ${ns}/${name} ${JSON.stringify(annotations)}`);
    if (!this.w.annotatePod(ns, name, { ...annotations })) throw new Error(`pods "${name}" not found`);
  }
  async getNode(name: string): Promise<NodeState | undefined> {
    this.op(`getNode ${name}`);
    const n = this.w.nodes.get(name);
    return n && nodeState(this.w.nodeObject(n));
  }
  async listNodes(): Promise<NodeState[]> {
    this.op("listNodes");
    return [...this.w.nodes.values()].map((n) => nodeState(this.w.nodeObject(n)));
  }
  async setUnschedulable(name: string, value: boolean) {
    this.op(`setUnschedulable ${name} ${value}`);
    if (!this.w.setUnschedulable(name, value)) throw new Error(`nodes "${name}" not found`);
  }
  async getClaim(ns: string, name: string): Promise<ClaimState | undefined> {
    this.op(`getClaim ${ns}/${name}`);
    const c = this.w.claims.get(key(ns, name));
    return c && claimState(this.w.claimObject(ns, c));
  }
  async createClaim(c: IPersistentVolumeClaim) {
    this.op(`createClaim ${c.metadata!.namespace}/${c.metadata!.name}`);
    if (!this.w.createClaim(c)) throw new Error(`persistentvolumeclaims "${c.metadata!.name}" already exists`);
  }
  async deleteClaim(ns: string, name: string) {
    this.op(`deleteClaim ${ns}/${name}`);
    this.w.claims.delete(key(ns, name));
  }
  async getStorageClassProvisioner(name: string) {
    this.op(`getStorageClass ${name}`);
    return this.w.storageClasses.get(name);
  }
  async createConfigMap(c: IConfigMap) {
    this.op(`createConfigMap ${c.metadata!.namespace}/${c.metadata!.name}`);
    if (!this.w.createConfigMap(c)) throw new Error(`configmaps "${c.metadata!.name}" already exists`);
  }
  async deleteConfigMap(ns: string, name: string) {
    this.op(`deleteConfigMap ${ns}/${name}`);
    this.w.configMaps.delete(key(ns, name));
  }
  async createJob(j: IJob) {
    this.op(`createJob ${j.metadata!.namespace}/${j.metadata!.name}`);
    if (!this.w.createJob(j)) throw new Error(`jobs.batch "${j.metadata!.name}" already exists`);
  }
  async getJob(ns: string, name: string): Promise<JobState | undefined> {
    this.op(`getJob ${ns}/${name}`);
    const j = this.w.jobs.get(key(ns, name));
    return j && jobState(this.w.jobObject(j));
  }
  async deleteJob(ns: string, name: string) {
    this.op(`deleteJob ${ns}/${name}`);
    this.w.deleteJob(ns, name);
  }
  async podLog(ns: string, pod: string, container: string) {
    this.op(`podLog ${ns}/${pod} ${container}`);
    const log = this.w.podLog(ns, pod);
    if (log === undefined) throw new Error(`pods "${pod}" not found`);
    return log;
  }
}

/** The experiments' FsxApi on a {@link World}. */
export class SimFsx implements FsxApi {
  constructor(
    private readonly w: World,
    private readonly now: () => number,
  ) {}
  async describe(id: string) {
    this.w.advance(this.now());
    this.w.call(`describe ${id}`);
    if (id !== FS_ID) throw new Error(`FileSystemNotFound: ${id}`);
    return this.w.fsxView();
  }
  async updateThroughput(id: string, mbps: number, token: string) {
    this.w.advance(this.now());
    this.w.call(`updateThroughput ${id} ${mbps} ${token}`);
    this.w.fsxUpdate(mbps, token);
  }
}

/** The experiment's env on the world's clock: `sleep` moves time; the real-time guard never fires. */
export function simEnv(w: World, interrupts?: ExperimentEnv["interrupts"]): ExperimentEnv & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    clock: () => w.t,
    sleep: async (ms, signal) => {
      await Promise.resolve();
      if (signal?.aborted) return;
      w.advance(w.t + Math.max(0, ms));
    },
    timer: () => new Promise<never>(() => undefined),
    line: (s) => lines.push(s),
    ...(interrupts ? { interrupts } : {}),
  };
}
