/**
 * The node sampler's output (components/bench/scripts/sampler.sh, run by lib.sh beside every
 * benchmark repetition): its summary blocks cut from a Job's log, and each summary turned into
 * utilization samples (core/utilization.ts). Pure.
 *
 * In a log, a summary follows its repetition's result block, between its own markers:
 *
 * ```text
 * === LAB-UTIL-BEGIN tool=fio rep=1 ===
 * window seconds=63.02 snapshots=64 interval=1 cpus=4 disks=2 omitted=0
 * cpu user=12.50/40.00 nice=0.00/0.00 system=… idle=… iowait=… irq=… softirq=… steal=… busy=…
 * disk name=nvme1n1 readOps=…/… writeOps=…/… readBytes=…/… writeBytes=…/… queueDepth=…/… busy=…/…
 * === LAB-UTIL-END tool=fio rep=1 ===
 * ```
 *
 * Each value is `mean/max`: the mean over the window, the highest one-interval value. The CPU
 * figures are percentages of all the node's CPUs (the eight add up to 100), busy = 100 − idle −
 * iowait; the disks are the node's whole disks that did I/O in the window (sampler.sh says which
 * and how each figure is computed).
 */
import { ToolOutputError } from "../errors";
import type { MetadataValue, Sample } from "../sample";
import { utilMetric } from "../utilization";

/**
 * The most bytes one summary block adds to the kubelet's container log (every line with its CRI
 * prefix, components/bench/sizing.ts CRI_LINE_PREFIX_BYTES): the two markers, the window and cpu
 * lines and at most 4 disk lines with 16-character device names, 90 million operations and 512 TB
 * a second come to 1534 bytes (a test prints them). It comes out of the room sizing.ts leaves per
 * repetition: an ioping repetition's overhead beyond its requests is bounded by
 * IOPING_LOG_BYTES_PER_REP (4096), of which the stat record, the result markers (with the window's
 * times) and the log lines take about 2370 (a test runs the real script and checks both together).
 * At the most repetitions (20) all summaries take 32 KiB of the 1 MiB the log budget leaves free.
 */
export const SAMPLER_LOG_BYTES_PER_REP = 1600;

/** The resource name of the node's CPU; a disk is `node-<device>`. */
export const NODE_RESOURCE = "node";

/** One summary block cut from a log. */
export interface UtilBlock {
  readonly tool: string;
  readonly rep: number;
  /** The lines between the markers, each ending in "\n". */
  readonly text: string;
  /** 1-based line of the BEGIN marker. */
  readonly line: number;
}

const UTIL_MARKER = /^=== LAB-UTIL-(BEGIN|END) tool=([A-Za-z][A-Za-z0-9_-]*) rep=([1-9][0-9]*) ===$/;

/**
 * Every summary block of `log`, in log order. Lines outside them are ignored. A malformed,
 * nested, unmatched or unterminated util marker is an error naming `source` and the line.
 */
export function cutUtilBlocks(log: string, source: string): UtilBlock[] {
  // A final newline leaves an empty last piece: outside a block it is ignored like any other line,
  // inside an unterminated one the block is refused anyway.
  const lines = log.split("\n");
  const blocks: UtilBlock[] = [];
  let open: { tool: string; rep: number; line: number; body: string[] } | undefined;
  lines.forEach((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!line.startsWith("=== LAB-UTIL-")) {
      if (open) open.body.push(line);
      return;
    }
    const m = UTIL_MARKER.exec(line);
    if (!m) throw new ToolOutputError(source, `line ${i + 1}: malformed utilization marker: ${line}`);
    const [, kind, tool, repText] = m;
    const rep = Number(repText);
    if (kind === "BEGIN") {
      if (open)
        throw new ToolOutputError(
          source,
          `line ${i + 1}: utilization of tool=${tool} rep=${rep} begins before tool=${open.tool} rep=${open.rep} (line ${open.line}) ended`,
        );
      open = { tool, rep, line: i + 1, body: [] };
      return;
    }
    if (!open || open.tool !== tool || open.rep !== rep) {
      throw new ToolOutputError(source, `line ${i + 1}: end of utilization tool=${tool} rep=${rep} without its beginning`);
    }
    blocks.push({ tool, rep, line: open.line, text: open.body.map((l) => `${l}\n`).join("") });
    open = undefined;
  });
  if (open)
    throw new ToolOutputError(source, `truncated: utilization of tool=${open.tool} rep=${open.rep} (line ${open.line}) has no end marker`);
  return blocks;
}

/** A `mean/max` pair. */
export interface MeanMax {
  readonly mean: number;
  readonly max: number;
}

/** The CPU figures of a summary, percent of all CPUs. */
export const CPU_FIELDS = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "busy"] as const;
export type CpuField = (typeof CPU_FIELDS)[number];

/** The figures of one disk. */
export const DISK_FIELDS = ["readOps", "writeOps", "readBytes", "writeBytes", "queueDepth", "busy"] as const;
export type DiskField = (typeof DISK_FIELDS)[number];

/** Why the sampler dropped intervals: a CPU counter or a disk counter went down in them. */
export type DroppedReason = "cpu" | "disk";

/** The figures of one NFS mount (/proc/self/mountstats): per second, and per operation in ms. */
export const NFS_FIELDS = ["readOps", "writeOps", "readBytes", "writeBytes", "readRtt", "writeRtt", "readExe", "writeExe"] as const;
export type NfsField = (typeof NFS_FIELDS)[number];

/** One summary, read. */
export interface SamplerSummary {
  readonly windowSeconds: number;
  /**
   * The seconds of the intervals the figures cover: the window less the dropped intervals (a
   * summary written before the sampler dropped any says nothing, and covers the whole window).
   */
  readonly measuredSeconds: number;
  /** Intervals left out because a counter went down in them (0 in summaries that do not say). */
  readonly droppedIntervals: number;
  readonly droppedReasons: readonly DroppedReason[];
  readonly snapshots: number;
  readonly intervalSeconds: number;
  readonly cpus: number;
  /** Disks that did I/O but were left out (only the 4 busiest are shown). */
  readonly omittedDisks: number;
  /** Absent when the window had fewer than two snapshots. */
  readonly cpu?: Readonly<Record<CpuField, MeanMax>>;
  readonly disks: readonly { readonly name: string; readonly figures: Readonly<Record<DiskField, MeanMax>> }[];
  /** The NFS mounts that did I/O (at most 2; none in summaries of a sampler that did not read them). */
  readonly nfs: readonly { readonly mount: string; readonly figures: Readonly<Record<NfsField, MeanMax>> }[];
}

const NUMBER = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function keyValues(line: string, file: string, lineNo: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const kv of line.split(" ").slice(1)) {
    const eq = kv.indexOf("=");
    if (eq <= 0) throw new ToolOutputError(file, `line ${lineNo}: expected key=value, got ${JSON.stringify(kv)}`);
    out.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  return out;
}

function num(kv: Map<string, string>, key: string, file: string, lineNo: number): number {
  const v = kv.get(key);
  if (v === undefined || !NUMBER.test(v))
    throw new ToolOutputError(file, `line ${lineNo}: '${key}' must be a number, got ${v === undefined ? "nothing" : JSON.stringify(v)}`);
  return Number(v);
}

function meanMax(kv: Map<string, string>, key: string, file: string, lineNo: number): MeanMax {
  const v = kv.get(key);
  const parts = v?.split("/") ?? [];
  if (parts.length !== 2 || !parts.every((p) => NUMBER.test(p))) {
    throw new ToolOutputError(
      file,
      `line ${lineNo}: '${key}' must be <mean>/<max>, got ${v === undefined ? "nothing" : JSON.stringify(v)}`,
    );
  }
  return { mean: Number(parts[0]), max: Number(parts[1]) };
}

/** Reads one summary (a block's text); `file` names it in errors. */
export function parseSamplerSummary(text: string, file: string): SamplerSummary {
  const lines = text.split("\n").filter((l) => l !== "");
  if (lines.length === 0 || !lines[0].startsWith("window "))
    throw new ToolOutputError(file, "is not a node sampler summary: no 'window' line first");
  const w = keyValues(lines[0], file, 1);
  const windowSeconds = num(w, "seconds", file, 1);
  const snapshots = num(w, "snapshots", file, 1);
  const intervalSeconds = num(w, "interval", file, 1);
  const cpus = num(w, "cpus", file, 1);
  const shown = num(w, "disks", file, 1);
  const omittedDisks = num(w, "omitted", file, 1);
  const measuredSeconds = w.has("measured") ? num(w, "measured", file, 1) : windowSeconds;
  const droppedIntervals = w.has("dropped") ? num(w, "dropped", file, 1) : 0;
  const why = w.get("why");
  const droppedReasons = why === undefined ? [] : why.split(",");
  if (!droppedReasons.every((r): r is DroppedReason => r === "cpu" || r === "disk") || droppedIntervals > 0 !== (why !== undefined))
    throw new ToolOutputError(
      file,
      `line 1: 'why' must name cpu and/or disk when intervals were dropped, got ${JSON.stringify(why ?? "nothing")}`,
    );
  const nfsShown = w.has("nfs") ? num(w, "nfs", file, 1) : 0;
  const head = { windowSeconds, measuredSeconds, droppedIntervals, droppedReasons, snapshots, intervalSeconds, cpus, omittedDisks };
  if (snapshots < 2 || windowSeconds === 0 || measuredSeconds === 0) {
    if (lines.length > 1)
      throw new ToolOutputError(file, `line 2: a window without measured intervals has no figures, got ${JSON.stringify(lines[1])}`);
    return { ...head, disks: [], nfs: [] };
  }
  if (lines.length < 2 || !lines[1].startsWith("cpu ")) throw new ToolOutputError(file, "line 2: expected the 'cpu' line");
  const c = keyValues(lines[1], file, 2);
  const cpu = Object.fromEntries(CPU_FIELDS.map((f) => [f, meanMax(c, f, file, 2)])) as Record<CpuField, MeanMax>;
  const deviceLines = lines.slice(2);
  const firstNfs = deviceLines.findIndex((l) => l.startsWith("nfs "));
  const diskLines = firstNfs < 0 ? deviceLines : deviceLines.slice(0, firstNfs);
  const nfsLines = firstNfs < 0 ? [] : deviceLines.slice(firstNfs);
  const nfs = nfsLines.map((l, i) => {
    const lineNo = 3 + diskLines.length + i;
    if (!l.startsWith("nfs ")) throw new ToolOutputError(file, `line ${lineNo}: expected an 'nfs' line, got ${JSON.stringify(l)}`);
    const d = keyValues(l, file, lineNo);
    const mount = d.get("mount");
    if (mount === undefined || !mount.startsWith("/"))
      throw new ToolOutputError(file, `line ${lineNo}: an nfs line needs mount=<directory>`);
    return { mount, figures: Object.fromEntries(NFS_FIELDS.map((f) => [f, meanMax(d, f, file, lineNo)])) as Record<NfsField, MeanMax> };
  });
  if (nfs.length !== nfsShown)
    throw new ToolOutputError(file, `the window line announces ${nfsShown} NFS mount(s), ${nfs.length} follow (truncated?)`);
  const disks = diskLines.map((l, i) => {
    const lineNo = i + 3;
    if (!l.startsWith("disk ")) throw new ToolOutputError(file, `line ${lineNo}: expected a 'disk' line, got ${JSON.stringify(l)}`);
    const d = keyValues(l, file, lineNo);
    const name = d.get("name");
    if (name === undefined || !/^[A-Za-z0-9_-][A-Za-z0-9_.:-]*$/.test(name))
      throw new ToolOutputError(file, `line ${lineNo}: a disk line needs name=<device>`);
    return { name, figures: Object.fromEntries(DISK_FIELDS.map((f) => [f, meanMax(d, f, file, lineNo)])) as Record<DiskField, MeanMax> };
  });
  if (disks.length !== shown)
    throw new ToolOutputError(file, `the window line announces ${shown} disk(s), ${disks.length} follow (truncated?)`);
  return { ...head, cpu, disks, nfs };
}

/** Metric names and units of the CPU figures. */
const CPU_METRICS: Readonly<Record<CpuField, string>> = {
  user: "cpuUser",
  nice: "cpuNice",
  system: "cpuSystem",
  idle: "cpuIdle",
  iowait: "cpuIowait",
  irq: "cpuIrq",
  softirq: "cpuSoftirq",
  steal: "cpuSteal",
  busy: "cpuBusy",
};
/** What disks and NFS mounts both count: operations and bytes per second. */
const IO_METRICS = {
  readOps: { metric: "readOps", unit: "op/s" },
  writeOps: { metric: "writeOps", unit: "op/s" },
  readBytes: { metric: "readBytes", unit: "B/s" },
  writeBytes: { metric: "writeBytes", unit: "B/s" },
} as const;
const DISK_METRICS: Readonly<Record<DiskField, { metric: string; unit: string }>> = {
  ...IO_METRICS,
  queueDepth: { metric: "queueDepth", unit: "count" },
  busy: { metric: "busy", unit: "%" },
};

const NFS_METRICS: Readonly<Record<NfsField, { metric: string; unit: string }>> = {
  ...IO_METRICS,
  readRtt: { metric: "readRtt", unit: "ms" },
  writeRtt: { metric: "writeRtt", unit: "ms" },
  readExe: { metric: "readExecute", unit: "ms" },
  writeExe: { metric: "writeExecute", unit: "ms" },
};

/** An NFS mount's resource name: `nfs-<mount point>` (`/data` → `nfs-data`; characters other than letters, digits, `_` and `-` become `-`). */
export function nfsResource(mount: string): string {
  return `nfs${mount.replace(/[^A-Za-z0-9_-]/g, "-").replace(/-+$/, "")}`;
}

/** A disk's resource name: `node-<device>` (dots, which metric names cannot hold, become '-'). */
export function nodeDiskResource(device: string): string {
  return `${NODE_RESOURCE}-${device.replace(/\./g, "-")}`;
}

/** The metric of a sampler note: intervals dropped (count), or a summary that could not be read (1). */
export const SAMPLER_DROPPED_METRIC = "dropped";
export const SAMPLER_UNREADABLE_METRIC = "unreadable";

const REASON_TEXT: Readonly<Record<DroppedReason, string>> = {
  cpu: "a /proc/stat CPU counter went down (iowait will decrease in certain conditions, Documentation/filesystems/proc.rst)",
  disk: "a /proc/diskstats counter went down (fields wrap, Documentation/admin-guide/iostats.rst)",
};

/** What a summary's dropped intervals are, in words, or undefined when none was dropped. */
export function droppedNote(
  summary: Pick<SamplerSummary, "droppedIntervals" | "droppedReasons" | "measuredSeconds" | "windowSeconds">,
): string | undefined {
  if (summary.droppedIntervals === 0) return undefined;
  return (
    `node sampler: ${summary.droppedIntervals} interval(s) dropped because ${summary.droppedReasons.map((r) => REASON_TEXT[r]).join(" and ")}; ` +
    `the figures cover ${summary.measuredSeconds} s of the ${summary.windowSeconds} s window`
  );
}

/**
 * A note as a sample (`util.node.dropped` or `util.node.unreadable`, no limit), so that it travels
 * with the repetition's samples into samples.json and `lab util` prints it beside the limit line.
 */
export function samplerNoteSample(
  metric: typeof SAMPLER_DROPPED_METRIC | typeof SAMPLER_UNREADABLE_METRIC,
  value: number,
  note: string,
  metadata: Readonly<Record<string, MetadataValue>> & { tool: Sample["metadata"]["tool"] },
): Sample {
  return {
    metric: utilMetric(NODE_RESOURCE, metric),
    value,
    unit: "count",
    metadata: { ...metadata, utilSource: "node-sampler", resource: NODE_RESOURCE, utilNote: note },
  };
}

/**
 * The utilization samples of one summary, with `metadata` (the repetition's) added: per CPU figure
 * `util.node.<cpuUser|…|cpuBusy>` (%), per disk `util.node-<device>.<readOps|…|busy>`. Only the
 * node's CPU has a limit: busy 100 % ("node CPU busy", node-wide: a pod capped below the node's
 * CPUs is not judged by it); a disk's busy time is no limit (a device serving I/Os in parallel is
 * 100 % busy long before it is saturated) and its configured limits are CloudWatch's side
 * (lab/utilization/cloudwatch.ts). Every sample records the window's length, the seconds measured,
 * snapshots and interval; a window without figures gives none. Dropped intervals (a counter that
 * went down) are left out of every figure, recorded on each sample and said by one
 * `util.node.dropped` sample ({@link droppedNote}), figures or not.
 */
export function samplerSamples(
  summary: SamplerSummary,
  metadata: Readonly<Record<string, MetadataValue>> & { tool: Sample["metadata"]["tool"] },
): Sample[] {
  const note = droppedNote(summary);
  const out: Sample[] = note === undefined ? [] : [samplerNoteSample(SAMPLER_DROPPED_METRIC, summary.droppedIntervals, note, metadata)];
  if (summary.cpu === undefined) return out;
  const common = {
    ...metadata,
    utilSource: "node-sampler",
    windowSeconds: summary.windowSeconds,
    measuredSeconds: summary.measuredSeconds,
    snapshots: summary.snapshots,
    intervalSeconds: summary.intervalSeconds,
    ...(summary.droppedIntervals === 0
      ? {}
      : { droppedIntervals: summary.droppedIntervals, droppedReasons: summary.droppedReasons.join(",") }),
  };
  for (const f of CPU_FIELDS) {
    const v = summary.cpu[f];
    out.push({
      metric: utilMetric(NODE_RESOURCE, CPU_METRICS[f]),
      value: v.mean,
      unit: "%",
      metadata: {
        ...common,
        resource: NODE_RESOURCE,
        cpus: summary.cpus,
        cpuScope: "node",
        max: v.max,
        ...(f === "busy" ? { limit: 100, limitLabel: "node CPU busy (node-wide)" } : {}),
      },
    });
  }
  /** One device's figures (a disk's, an NFS mount's) as samples of `resource`. */
  const device = <F extends string>(
    resource: string,
    fields: readonly F[],
    figures: Readonly<Record<F, MeanMax>>,
    metrics: Readonly<Record<F, { metric: string; unit: string }>>,
    extra: Readonly<Record<string, MetadataValue>>,
  ) => {
    for (const f of fields)
      out.push({
        metric: utilMetric(resource, metrics[f].metric),
        value: figures[f].mean,
        unit: metrics[f].unit,
        metadata: { ...common, resource, ...extra, max: figures[f].max },
      });
  };
  for (const m of summary.nfs) device(nfsResource(m.mount), NFS_FIELDS, m.figures, NFS_METRICS, { mount: m.mount });
  for (const d of summary.disks) device(nodeDiskResource(d.name), DISK_FIELDS, d.figures, DISK_METRICS, { device: d.name });
  return out;
}
