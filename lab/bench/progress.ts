/**
 * Progress of `lab bench local`: the step list up front with each step's estimate, then one line
 * whenever a step starts, reaches a repetition (the scripts log `<tool> repetition <k>/<n>` on
 * stderr) or ends, with the time since the start, the step's elapsed time and an ETA.
 *
 * Estimates come from the profile's durations: fio's time-based profiles run `jobs × (ramp +
 * runtime)` a repetition (profiles.ts), the seed profile `fioSeedRepSeconds` for 8 GiB, scaled to
 * the file (lab/run/durations.ts BENCH_ESTIMATES), plus laying out the file at the expected
 * bandwidth; ioping `count × interval`; pgbench its initialisation (`pgbenchInitSecondsPerScale`),
 * settle time and `reps × duration`. Once a step has timed a repetition, its ETA uses the measured
 * time instead.
 */
import { FIO_PROFILE_DEFINITIONS, SEED_FIO_SIZE } from "../../components/bench/profiles";
import type { BenchTool, ResolvedBench } from "../../components/bench/rules";
import { fioSizeBytes } from "../../components/bench/sizing";
import { BENCH_ESTIMATES } from "../run/durations";
import { formatElapsed } from "../../core/elapsed";

/** Seconds to initdb and start a throwaway cluster (about 1 s measured; slower disks take longer). */
export const POSTGRES_START_SECONDS = 3;
/** Seconds to write the results and the report. */
export const SAVE_SECONDS = 3;

/** One step of the list. */
export interface Step {
  readonly name: string;
  /** What it does, one line. */
  readonly what: string;
  readonly estimateSeconds: number;
  /** Repetitions the step's script runs (none for postgres and save). */
  readonly reps?: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A tool step's estimate, seconds (see the module comment). */
export function toolEstimateSeconds(tool: BenchTool, s: ResolvedBench): number {
  switch (tool) {
    case "fio": {
      const def = FIO_PROFILE_DEFINITIONS[s.fio.profile];
      const perRep = def.timeBased
        ? def.jobs.length * (s.fio.rampSeconds + s.fio.runtimeSeconds)
        : (BENCH_ESTIMATES.fioSeedRepSeconds * s.fio.sizeBytes) / (fioSizeBytes(SEED_FIO_SIZE) as number);
      return s.fio.sizeBytes / (s.fio.expectedBandwidthMBps * 1e6) + s.reps * perRep;
    }
    case "ioping":
      return (s.reps * s.ioping.count * s.ioping.intervalMs) / 1000;
    case "pgbench":
      return s.pgbench.scale * BENCH_ESTIMATES.pgbenchInitSecondsPerScale + s.pgbench.settleSeconds + s.reps * s.pgbench.durationSeconds;
  }
}

/** What a tool step does, one line. */
export function toolWhat(tool: BenchTool, s: ResolvedBench): string {
  const reps = plural(s.reps, "repetition");
  switch (tool) {
    case "fio": {
      const def = FIO_PROFILE_DEFINITIONS[s.fio.profile];
      const timing = def.timeBased ? `, ${plural(def.jobs.length, "job")} of ${s.fio.rampSeconds} s + ${s.fio.runtimeSeconds} s` : "";
      return `profile ${s.fio.profile}, file ${s.fio.size}${timing}, ${reps}`;
    }
    case "ioping":
      return `${s.ioping.count} requests ${s.ioping.intervalMs} ms apart, ${reps}`;
    case "pgbench": {
      const p = s.pgbench;
      return `scale ${p.scale}, ${p.clients} clients, ${p.threads} threads, ${p.durationSeconds} s, ${reps}`;
    }
  }
}

/** The step list as printed before the run: `Steps (about 1m05s):` then one numbered line each. */
export function renderStepList(steps: readonly Step[]): string {
  const total = steps.reduce((n, s) => n + s.estimateSeconds, 0);
  const width = Math.max(...steps.map((s) => s.name.length));
  const whatWidth = Math.max(...steps.map((s) => s.what.length));
  return [
    `Steps (about ${formatElapsed(total * 1000)}):`,
    ...steps.map((s, i) => `  ${i + 1}. ${s.name.padEnd(width)}  ${s.what.padEnd(whatWidth)}  ~${formatElapsed(s.estimateSeconds * 1000)}`),
  ].join("\n");
}

/** Follows the steps and writes a line for each event. */
export class StepProgress {
  private readonly start: number;
  private current = -1;
  private stepStart = 0;
  private firstRepStart: number | undefined;
  private repStart = 0;
  private repsStarted = 0;

  constructor(
    private readonly steps: readonly Step[],
    private readonly write: (line: string) => void,
    private readonly clock: () => number = Date.now,
  ) {
    this.start = clock();
  }

  /** Seconds left: the current step's (measured per repetition once one finished, else its estimate) and the later steps' estimates. */
  etaSeconds(now = this.clock()): number {
    const later = this.steps.slice(this.current + 1).reduce((n, s) => n + s.estimateSeconds, 0);
    if (this.current < 0) return later;
    const step = this.steps[this.current];
    let left = Math.max(0, step.estimateSeconds - (now - this.stepStart) / 1000);
    if (step.reps !== undefined && this.firstRepStart !== undefined && this.repsStarted >= 2) {
      const perRep = (this.repStart - this.firstRepStart) / 1000 / (this.repsStarted - 1);
      left = Math.max(0, perRep * (step.reps - this.repsStarted + 1) - (now - this.repStart) / 1000);
    }
    return left + later;
  }

  private line(text: string, now: number): void {
    const i = this.current;
    const name = i < 0 ? "setup" : `${i + 1}/${this.steps.length} ${this.steps[i].name}`;
    const head = `[+${formatElapsed(now - this.start)}] ${name}`;
    this.write(`${head} ${text}`);
  }

  /** Step `i` starts. */
  begin(i: number): void {
    const now = this.clock();
    this.current = i;
    this.stepStart = now;
    this.firstRepStart = undefined;
    this.repsStarted = 0;
    this.line(`started · ETA ${formatElapsed(this.etaSeconds(now) * 1000)}`, now);
  }

  /** The current step's script started repetition `k` of `n`. */
  rep(k: number, n: number): void {
    const now = this.clock();
    if (this.firstRepStart === undefined) this.firstRepStart = now;
    this.repStart = now;
    this.repsStarted = k;
    this.line(`repetition ${k}/${n} · ${formatElapsed(now - this.stepStart)} · ETA ${formatElapsed(this.etaSeconds(now) * 1000)}`, now);
  }

  /** The current step ended well; `detail` is added (e.g. a headline figure). */
  done(detail = ""): void {
    const now = this.clock();
    const later = this.steps.slice(this.current + 1).reduce((n, s) => n + s.estimateSeconds, 0);
    const eta = this.current + 1 < this.steps.length ? ` · ETA ${formatElapsed(later * 1000)}` : "";
    this.line(`done in ${formatElapsed(now - this.stepStart)}${detail ? ` · ${detail}` : ""}${eta}`, now);
  }

  /** The current step failed. */
  failed(reason: string): void {
    const now = this.clock();
    this.line(`failed after ${formatElapsed(now - (this.current < 0 ? this.start : this.stepStart))}: ${reason}`, now);
  }

  /** Total time so far, formatted. */
  elapsed(): string {
    return formatElapsed(this.clock() - this.start);
  }
}

/** The `<tool> repetition <k>/<n>` line of a script's log (lib.sh `lab_log`), or undefined. */
export function repetitionOf(line: string, tool: string): { k: number; n: number } | undefined {
  const m = new RegExp(`\\[lab\\] ${tool} repetition ([0-9]+)/([0-9]+)$`).exec(line);
  return m ? { k: Number(m[1]), n: Number(m[2]) } : undefined;
}
