/**
 * Live progress of a run: one line per stack and step when its state changes, with the time since
 * the run started, the operation's elapsed time and, for `up`/`destroy`, the resources done out of
 * the total, counted from the engine events (`@pulumi/pulumi/automation` `EngineEvent`: a
 * `resourcePreEvent` when a step starts, a `resOutputsEvent` when it is done, a `resOpFailedEvent`
 * when it failed; the root `pulumi:pulumi:Stack` resource is not counted). The total of an `up` is
 * the offline plan's resource count; of a `destroy`, the resources the run's `up` reached.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { formatElapsed, stamp } from "../../core/elapsed";

/** Where progress goes: the terminal and the run log. */
export interface Reporter {
  /** A progress or report line. */
  line(text: string): void;
  /** Pulumi's own output of one operation (shown with --verbose, always in the run log). */
  output(stack: string, op: string, text: string): void;
}

export type OpState = "started" | "running" | "done" | "failed" | "cancelled" | "retrying";

/** Follows one operation (an up, a destroy, a step) and reports its lines. */
/** The least width of a stack-name column in the run's lines. */
export const STACK_COLUMN = 12;

/** The width of a column of these stack names: the longest, at least {@link STACK_COLUMN} (fsx-eks-cluster is 15). */
export function stackColumn(names: readonly string[]): number {
  return Math.max(STACK_COLUMN, ...names.map((n) => n.length));
}

export class OpProgress {
  private readonly started: number;
  private done = 0;
  private failedOps = 0;
  private lastReport = -Infinity;
  private readonly seen = new Set<string>();

  constructor(
    readonly stack: string,
    readonly op: string,
    private readonly total: number | undefined,
    private readonly runStart: number,
    private readonly clock: () => number,
    private readonly reporter: Reporter,
    /** Least time between two "running" lines of one operation. */
    private readonly intervalMs = 10_000,
    /** The stack column's width: the run's longest stack name, at least {@link STACK_COLUMN}. */
    private readonly stackWidth = STACK_COLUMN,
  ) {
    this.started = clock();
    this.report("started", undefined, this.started);
  }

  /** Resources done so far (distinct URNs with a `resOutputsEvent`). */
  get resourcesDone(): number {
    return this.done;
  }

  onEvent(e: EngineEvent): void {
    const done = e.resOutputsEvent?.metadata;
    const failed = e.resOpFailedEvent?.metadata;
    if (done && done.type !== "pulumi:pulumi:Stack" && !this.seen.has(done.urn)) {
      this.seen.add(done.urn);
      this.done++;
      const now = this.clock();
      if (now - this.lastReport >= this.intervalMs) this.report("running", undefined, now);
    }
    if (failed) this.failedOps++;
  }

  report(state: OpState, detail?: string, now = this.clock()): void {
    this.lastReport = now;
    const counts =
      this.total !== undefined || this.done > 0
        ? `  ${this.done}/${this.total !== undefined ? Math.max(this.total, this.done) : "?"} resources`
        : "";
    const failed = this.failedOps > 0 ? `, ${this.failedOps} failed` : "";
    this.reporter.line(
      `${stamp(now - this.runStart)} ${this.op.padEnd(7)} ${this.stack.padEnd(this.stackWidth)} ${state.padEnd(9)}${counts}${failed}  ${formatElapsed(now - this.started)}${detail ? `  ${detail}` : ""}`,
    );
  }
}

/** The run log: every line with its UTC time, appended (and flushed) as it comes. */
export class RunLog {
  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, "");
  }
  write(text: string): void {
    const t = new Date().toISOString();
    const lines = text.replace(/\n$/, "").split("\n");
    fs.appendFileSync(this.file, lines.map((l) => `${t} ${l}\n`).join(""));
  }
}

/** The terminal and the run log: progress lines to both, Pulumi's output to the log (and the terminal with `verbose`). */
export function consoleReporter(
  log: RunLog | undefined,
  verbose: boolean,
  write: (s: string) => void = (s) => process.stdout.write(s),
): Reporter {
  return {
    line(text) {
      write(`${text}\n`);
      log?.write(text);
    },
    output(stack, op, text) {
      const lines = text
        .replace(/\n$/, "")
        .split("\n")
        .map((l) => `[${stack} ${op}] ${l}`);
      if (verbose) write(`${lines.join("\n")}\n`);
      log?.write(lines.join("\n"));
    },
  };
}
