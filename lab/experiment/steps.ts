/**
 * How an experiment runs its steps: one progress line per step (`+hh:mm:ss <experiment> [i/n]
 * <step>: done in <elapsed>  <detail>`), a deadline on every step, Ctrl-C, and the cleanup that
 * undoes what the steps did, run on every path.
 *
 * - Every step has a timeout. Waits poll ({@link StepContext.waitFor}) and fail with what they
 *   waited for once the step's deadline has passed; one call that hangs (a network that stops
 *   answering) fails the step a minute after the deadline on the real clock
 *   ({@link ExperimentEnv.timer}, {@link ExperimentEnv.hungCallSlackMs}).
 * - The first Ctrl-C aborts the running step (`interrupts.abort`); the cleanup still runs. A second
 *   one (`stop`) skips what is left of the cleanup, which is then reported as left.
 * - The cleanup is a list of undo actions registered as the steps create or change things (a
 *   cordoned node, a Job, a throughput change); the flow may run one early ({@link Cleanup.runNow},
 *   e.g. the uncordon once mysql-0 is back); whatever is left runs in reverse order at the end, each
 *   under its own timeout, and says what it restored, or why it could not.
 */
import { formatElapsed, stamp } from "../../core/elapsed";

/** The experiment's view of time and the outside. */
export interface ExperimentEnv {
  /** ms since the epoch. */
  readonly clock: () => number;
  /** Resolves after `ms` (on the experiment's clock), or at once when `signal` aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Rejects after `ms` of real time (an upper bound for one call that never answers); never
   * settles when `signal` aborts first.
   */
  readonly timer: (ms: number, signal: AbortSignal) => Promise<never>;
  /** A progress or report line. */
  readonly line: (text: string) => void;
  /**
   * How long after a step's deadline a call that has not answered fails the step (a wait notices
   * its deadline at its next poll, with a better message, and gets this long to do so).
   * @default 60000
   */
  readonly hungCallSlackMs?: number;
  /** `abort`: the first Ctrl-C (stop the steps, clean up); `stop`: the second (stop the cleanup too). */
  readonly interrupts?: { readonly abort: AbortSignal; readonly stop: AbortSignal };
}

/** The real clock and timers. */
export const realTime: Pick<ExperimentEnv, "clock" | "sleep" | "timer"> = {
  clock: Date.now,
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (ms <= 0 || signal?.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
  timer: (ms, signal) =>
    new Promise<never>((_resolve, reject) => {
      const t = setTimeout(() => reject(new StepTimeout(`no answer within ${formatElapsed(ms)}`)), ms);
      signal.addEventListener("abort", () => clearTimeout(t), { once: true });
    }),
};

/** A step ran out of time. */
export class StepTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StepTimeout";
  }
}

/** Ctrl-C stopped the step. */
export class Interrupted extends Error {
  constructor(message = "interrupted (Ctrl-C)") {
    super(message);
    this.name = "Interrupted";
  }
}

/** The experiment ran and its evidence says it failed (a lost row, an I/O error): not a malfunction. */
export class ExperimentFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExperimentFailed";
  }
}

export const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).trim().split("\n")[0];

export interface StepContext {
  /** Aborted by Ctrl-C or when the step's deadline passes. */
  readonly signal: AbortSignal;
  /** ms left before the step's deadline. */
  remainingMs(): number;
  /** Sleeps `ms`, or less when the deadline comes first; throws once interrupted. */
  sleep(ms: number): Promise<void>;
  /**
   * Polls `check` every `intervalMs` until it returns a value other than `undefined`, and returns
   * it; throws {@link StepTimeout} naming `what` (and what `check` last said, from `status`) once
   * the step's deadline has passed, {@link Interrupted} on Ctrl-C. Prints a "still waiting" line
   * every {@link HEARTBEAT_MS}.
   */
  waitFor<T>(what: string, check: () => Promise<T | undefined>, intervalMs: number, status?: () => string | undefined): Promise<T>;
  /** Detail for the step's progress line. */
  note(detail: string): void;
}

/** Time between two "still waiting" lines of a long wait. */
export const HEARTBEAT_MS = 60_000;

/** Runs the steps of one experiment and reports them. */
export class Steps {
  private index = 0;
  private readonly started: number;
  /** The step running now, for the report ("failed at …"). */
  current: string | undefined;

  constructor(
    readonly experiment: string,
    readonly total: number,
    private readonly env: ExperimentEnv,
  ) {
    this.started = env.clock();
  }

  /** Elapsed time of the whole run. */
  elapsedMs(): number {
    return this.env.clock() - this.started;
  }

  private prefix(): string {
    return `${stamp(this.elapsedMs())} ${this.experiment}`;
  }

  /** Runs one step with a deadline `timeoutMs` from now. */
  async run<T>(name: string, timeoutMs: number, fn: (ctx: StepContext) => Promise<T>): Promise<T> {
    const env = this.env;
    const i = ++this.index;
    this.current = name;
    const t0 = env.clock();
    const deadline = t0 + timeoutMs;
    const ctl = new AbortController();
    const abort = env.interrupts?.abort;
    const onAbort = () => ctl.abort();
    abort?.addEventListener("abort", onAbort, { once: true });
    let detail = "";
    let lastBeat = t0;
    let rejectOnAbort: (() => void) | undefined;
    const throwIfStopped = () => {
      if (abort?.aborted) throw new Interrupted();
    };
    const ctx: StepContext = {
      signal: ctl.signal,
      remainingMs: () => deadline - env.clock(),
      sleep: async (ms) => {
        throwIfStopped();
        await env.sleep(Math.max(0, Math.min(ms, deadline - env.clock())), ctl.signal);
        throwIfStopped();
      },
      waitFor: async <U>(
        what: string,
        check: () => Promise<U | undefined>,
        intervalMs: number,
        status?: () => string | undefined,
      ): Promise<U> => {
        for (;;) {
          throwIfStopped();
          const v = await check();
          if (v !== undefined) return v;
          const now = env.clock();
          if (now >= deadline) {
            const s = status?.();
            throw new StepTimeout(`timed out after ${formatElapsed(timeoutMs)} waiting for ${what}${s ? ` (${s})` : ""}`);
          }
          if (now - lastBeat >= HEARTBEAT_MS) {
            lastBeat = now;
            const s = status?.();
            env.line(
              `${this.prefix()} [${i}/${this.total}] ${name}: still waiting for ${what}, ${formatElapsed(now - t0)}${s ? `  ${s}` : ""}`,
            );
          }
          await env.sleep(Math.max(0, Math.min(intervalMs, deadline - now)), ctl.signal);
        }
      },
      note: (d) => {
        detail = d;
      },
    };
    try {
      throwIfStopped();
      const work = fn(ctx);
      const guards: Promise<never>[] = [
        env.timer(Math.max(0, timeoutMs) + (env.hungCallSlackMs ?? 60_000), ctl.signal).catch(() => {
          throw new StepTimeout(`timed out after ${formatElapsed(timeoutMs)}: a call to the cluster or FSx did not answer`);
        }),
      ];
      if (abort) {
        guards.push(
          new Promise<never>((_res, reject) => {
            if (abort.aborted) reject(new Interrupted());
            rejectOnAbort = () => reject(new Interrupted());
            abort.addEventListener("abort", rejectOnAbort, { once: true });
          }),
        );
      }
      // A guard that loses the race must not become an unhandled rejection.
      for (const g of guards) g.catch(() => undefined);
      const value = await Promise.race([work, ...guards]);
      env.line(`${this.prefix()} [${i}/${this.total}] ${name}: done in ${formatElapsed(env.clock() - t0)}${detail ? `  ${detail}` : ""}`);
      return value;
    } catch (e) {
      const state = e instanceof Interrupted ? "interrupted" : "failed";
      env.line(`${this.prefix()} [${i}/${this.total}] ${name}: ${state} after ${formatElapsed(env.clock() - t0)}: ${firstLine(e)}`);
      throw e;
    } finally {
      ctl.abort();
      abort?.removeEventListener("abort", onAbort);
      if (rejectOnAbort) abort?.removeEventListener("abort", rejectOnAbort);
    }
  }
}

/** One undo action. `run` returns what it restored, in words; it throws when it could not. */
export interface UndoAction {
  readonly key: string;
  /** What is left if it never runs, with the command that finishes the job. */
  readonly leftover: string;
  readonly timeoutMs: number;
  readonly run: (signal: AbortSignal) => Promise<string>;
}

/** What the cleanup did. */
export interface CleanupReport {
  /** What was restored or deleted, in order. */
  readonly done: readonly string[];
  /** What is left, with why and how to finish. */
  readonly left: readonly string[];
}

/** The undo actions of one run. */
export class Cleanup {
  private readonly actions: UndoAction[] = [];
  private readonly done: string[] = [];
  private readonly left: string[] = [];
  /** Actions the flow started with {@link runNow} that have not settled (a step that timed out leaves one running). */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly env: ExperimentEnv) {}

  add(action: UndoAction): void {
    if (this.actions.some((a) => a.key === action.key)) throw new Error(`cleanup action ${action.key} registered twice`);
    this.actions.push(action);
  }

  has(key: string): boolean {
    return this.actions.some((a) => a.key === key);
  }

  /**
   * Runs one registered action now (in the flow); once it succeeded it is forgotten and its
   * outcome joins the report. An action that fails stays registered for the final cleanup.
   */
  async runNow(key: string, signal: AbortSignal): Promise<string> {
    const a = this.actions.find((x) => x.key === key);
    if (a === undefined) throw new Error(`no cleanup action ${key}`);
    const p = a.run(signal);
    this.inflight.add(p);
    let what: string;
    try {
      what = await p;
    } finally {
      this.inflight.delete(p);
    }
    const i = this.actions.indexOf(a);
    if (i >= 0) this.actions.splice(i, 1);
    this.done.push(what);
    return what;
  }

  /** Forgets an action whose work the flow did itself. */
  drop(key: string): void {
    const i = this.actions.findIndex((a) => a.key === key);
    if (i >= 0) this.actions.splice(i, 1);
  }

  /** Runs every action left, newest first, each under its own timeout; never throws. */
  async runAll(): Promise<CleanupReport> {
    const stop = this.env.interrupts?.stop;
    if (this.inflight.size > 0) {
      // Let an action the flow started finish first: it may complete what the cleanup would redo.
      const wait = Math.max(...this.actions.map((a) => a.timeoutMs), 0);
      const ctl = new AbortController();
      await Promise.race([Promise.allSettled([...this.inflight]), this.env.timer(wait, ctl.signal).catch(() => undefined)]);
      ctl.abort();
    }
    while (this.actions.length > 0) {
      const a = this.actions.pop()!;
      if (stop?.aborted) {
        this.left.push(`${a.leftover} (cleanup stopped by a second Ctrl-C)`);
        continue;
      }
      const ctl = new AbortController();
      const onStop = () => ctl.abort();
      stop?.addEventListener("abort", onStop, { once: true });
      try {
        const guard = this.env.timer(a.timeoutMs, ctl.signal).catch(() => {
          throw new StepTimeout(`no answer within ${formatElapsed(a.timeoutMs)}`);
        });
        guard.catch(() => undefined);
        const what = await Promise.race([a.run(ctl.signal), guard]);
        this.done.push(what);
        this.env.line(`${" ".repeat(10)}cleanup: ${what}`);
      } catch (e) {
        const why = stop?.aborted ? "cleanup stopped by a second Ctrl-C" : firstLine(e);
        this.left.push(`${a.leftover} (${why})`);
        this.env.line(`${" ".repeat(10)}cleanup: NOT done: ${a.leftover} (${why})`);
      } finally {
        ctl.abort();
        stop?.removeEventListener("abort", onStop);
      }
    }
    return { done: [...this.done], left: [...this.left] };
  }
}
