/**
 * `lab bench local`: the benchmark Jobs' scripts (components/bench/scripts/, the files themselves)
 * run on this machine against a directory, with the environment the Job renderer gives them
 * (components/bench/render.ts `scriptEnv`, here at local places), and their output cut and parsed
 * exactly as a Job's log (collect.ts, core/parsers). It is the dry rehearsal of a cloud run and
 * the local-disk baseline beside FSx and Ceph.
 *
 * Order: options, programs, free space, `--pg` are checked before anything starts (exit 2, nothing
 * created). Then a private work directory `<dir>/.lab-bench` (the fio job files,
 * the data of fio and ioping, the scripts' TMPDIR and, without `--pg`, the throwaway PostgreSQL
 * cluster: pgbench measures the same storage), the tools one after the other, the samples and raw
 * outputs written to `results/local/<name>/<runId>/` (lab/results/files.ts) with the run's manifest, and the report.
 *
 * Whatever happens (a tool fails, Ctrl-C, SIGTERM, SIGHUP) the running script's process group is
 * killed, the throwaway cluster stopped and the work directory removed before the command ends;
 * no partial result is written. Exit status: 0 done; 1 a step failed (cleaned up); 2 a problem found
 * before anything started; 128 + the signal's number when interrupted (130 for Ctrl-C; 141 when the reader
 * of stdout goes away, an EPIPE answered as SIGPIPE would be). A SIGKILL
 * of the lab itself cannot be handled: the work directory (and the server in it) would remain.
 *
 * Each script runs in a process group of its own (`detached`), so that fio's and pgbench's worker
 * processes are killed with it; a Ctrl-C in the terminal reaches the lab, which kills the group.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathProblems } from "../lib/paths";
import { collectSamples, type RawOutput } from "../../components/bench/collect";
import { renderFioJobFiles } from "../../components/bench/profiles";
import { scriptEnv, toolOptions, type ScriptPlaces } from "../../components/bench/render";
import { BENCH_DEFAULTS, resolve, type BenchSpec, type BenchTool, type ResolvedBench } from "../../components/bench/rules";
import { BENCH_SCRIPTS_DIR } from "../../components/bench/scripts";
import { parseToolOutput } from "../../core/parsers";
import type { RunMetadata, Sample } from "../../core/sample";
import { runDir, writeRunResults } from "../results/files";
import { defaultRunId } from "../run/names";
import { gitState, pinnedVersions, type ManifestFile } from "../utilization/manifest";
import { freeBytes, hostMetadata, type HostMetadata } from "./host";
import {
  LOCAL,
  SpaceError,
  checkOptions,
  localProblems,
  localSpec,
  sizeForDisk,
  usesThrowaway,
  type BenchLocalOptions,
  type LocalRequest,
  type LocalServer,
} from "./plan";
import {
  NOBODY,
  findServerBin,
  pgSecretEnv,
  pgServerFacts,
  redactPgUrl,
  runsAsRoot,
  startThrowawayPostgres,
  type PgServerFacts,
  type ThrowawayPostgres,
} from "./postgres";
import { missingPrograms, missingProgramsMessage, neededPrograms } from "./preflight";
import {
  POSTGRES_START_SECONDS,
  SAVE_SECONDS,
  StepProgress,
  renderStepList,
  repetitionOf,
  toolEstimateSeconds,
  toolWhat,
  type Step,
} from "./progress";

/** Exit statuses (see the module comment). */
export const EXIT = { ok: 0, failed: 1, preflight: 2 } as const;
/** 128 + the signal's number, as a shell reports a process killed by it. */
export const SIGNAL_EXIT: Readonly<Record<"SIGINT" | "SIGTERM" | "SIGHUP" | "SIGPIPE", number>> = {
  SIGINT: 130,
  SIGTERM: 143,
  SIGHUP: 129,
  // Not a signal handler: a closed stdout (`lab bench local | head -3`) is an EPIPE write error,
  // answered as the shell's SIGPIPE would be, after the clean-up.
  SIGPIPE: 141,
};
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * The work directory inside `--dir`. Its name is fixed so that the paths the tools print (fio's
 * `filename`, ioping's `target`, both in the samples' metadata) are the same in every run on one
 * directory, as `/data/fio/lab-fio.dat` is in every Job; it doubles as a lock: one run at a time.
 */
export const WORK_DIR = ".lab-bench";
/** Seconds a script gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 5000;

/** What the run reports as it goes (tests use it to find processes and directories). */
export type LocalRunEvent =
  | { readonly type: "workdir"; readonly dir: string }
  | { readonly type: "postgres"; readonly pid: number; readonly dir: string }
  | { readonly type: "script"; readonly tool: BenchTool; readonly pid: number; readonly env: Readonly<Record<string, string>> };

export interface LocalRunOptions extends BenchLocalOptions {
  /** Resolves `--dir` and the results root. @default process.cwd() */
  readonly cwd?: string;
  /** Where `local/<runId>/` goes. @default "<cwd>/results" */
  readonly resultsRoot?: string;
  /** @default `r<yymmdd>-<hhmmss>` of `now` (lab/run/names.ts) */
  readonly runId?: string;
  readonly now?: Date;
  /** Progress and results. @default process.stdout */
  readonly write?: (text: string) => void;
  /** Errors. @default process.stderr */
  readonly writeError?: (text: string) => void;
  /** Writes the report of a run directory and returns what to print (lab/cli/bench.ts passes `lab report`'s runReport). */
  readonly report?: (runDir: string) => Promise<string>;
  readonly onEvent?: (e: LocalRunEvent) => void;
}

export interface LocalRunResult {
  readonly code: number;
  /** `results/local/<name>/<runId>`, once written. */
  readonly runDir?: string;
  readonly samples?: readonly Sample[];
}

/** A step's failure: the message says which step and why. */
class StepFailed extends Error {}
/** A signal arrived. */
class Interrupted extends Error {
  constructor(readonly signal: keyof typeof SIGNAL_EXIT) {
    super(`interrupted by ${signal}`);
  }
}

/** The run's abort state: the signal received, and how to stop what runs now. */
interface Abort {
  signal?: keyof typeof SIGNAL_EXIT;
  stopCurrent?: () => void;
}

const lastLines = (text: string, n: number) => text.trimEnd().split("\n").slice(-n).join("\n");

/** Sends `signal` to the process group `pgid`; a group already gone is fine. */
function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
  }
}

/**
 * Runs `sh <scripts>/<tool>.sh` with `env` in its own process group; resolves with its stdout when
 * it exits 0. Every stderr line that starts a repetition goes to `onRep`. Its group is killed when
 * it ends (stragglers), and on abort (SIGTERM, then SIGKILL after {@link KILL_GRACE_MS}).
 */
function runScript(
  tool: BenchTool,
  env: Record<string, string>,
  cwd: string,
  abort: Abort,
  onRep: (k: number, n: number) => void,
  onPid: (pid: number) => void,
): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("/bin/sh", [path.join(BENCH_SCRIPTS_DIR, `${tool}.sh`)], {
      env,
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    let err = "";
    let partial = "";
    child.stdout.on("data", (b: Buffer) => out.push(b));
    // Decoded as a stream: a chunk may end inside a multi-byte character.
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (b: string) => {
      const text = partial + b;
      err += b;
      const lines = text.split("\n");
      partial = lines.pop() ?? "";
      for (const l of lines) {
        const r = repetitionOf(l, tool);
        if (r) onRep(r.k, r.n);
      }
    });
    let timer: NodeJS.Timeout | undefined;
    abort.stopCurrent = () => {
      if (child.pid === undefined) return;
      killGroup(child.pid, "SIGTERM");
      timer = setTimeout(() => child.pid !== undefined && killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
      timer.unref();
    };
    child.on("error", (e) => reject(new StepFailed(`${tool}.sh could not start: ${e.message}`)));
    child.on("close", (code, signal) => {
      abort.stopCurrent = undefined;
      if (timer) clearTimeout(timer);
      if (child.pid !== undefined) killGroup(child.pid, "SIGKILL");
      if (abort.signal) return reject(new Interrupted(abort.signal));
      if (code === 0) return resolvePromise(Buffer.concat(out).toString("utf8"));
      const how = code === null ? `was killed by ${signal}` : `exited with status ${code}`;
      reject(new StepFailed(`${tool}.sh ${how}; its last lines:\n${lastLines(err, 15)}`));
    });
    if (child.pid !== undefined) onPid(child.pid);
  });
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** The figure a finished tool step shows (median of its repetitions); the report has them all. */
export function headline(tool: BenchTool, samples: readonly Sample[]): string {
  const med = (metric: string, job?: string) => {
    const v = samples.filter((s) => s.metric === metric && (job === undefined || s.metadata.job === job)).map((s) => s.value);
    return v.length > 0 ? median(v) : undefined;
  };
  const n = (v: number) => (v >= 100 ? String(Math.round(v)) : String(Number(v.toFixed(2))));
  switch (tool) {
    case "fio": {
      const job = samples.find((s) => s.metric.startsWith("fio."))?.metadata.job as string | undefined;
      const parts = (["read", "write"] as const)
        .map((d) => [d, med(`fio.${d}.iops`, job)] as const)
        .filter(([, v]) => v !== undefined)
        .map(([d, v]) => `${d} ${n(v as number)} op/s`);
      return `${job ?? "fio"}: ${parts.join(", ")}`;
    }
    case "ioping": {
      const v = med("ioping.latency.mean");
      return v === undefined ? "" : `mean latency ${n(v)} us`;
    }
    case "pgbench": {
      const v = med("pgbench.tps");
      return v === undefined ? "" : `${n(v)} tps`;
    }
  }
}

/** Everything checked before anything starts: the request, the run's spec and what it runs on. */
interface Prepared {
  readonly req: LocalRequest;
  readonly dir: string;
  readonly host: HostMetadata;
  readonly runId: string;
  readonly spec: BenchSpec;
  readonly notes: readonly string[];
  readonly pgFacts?: PgServerFacts;
}

/** The checks of the module comment, in order; a string is the problem to print (exit 2). */
async function prepare(opts: LocalRunOptions, cwd: string, resultsRoot: string): Promise<Prepared | string> {
  const checked = checkOptions(opts);
  if (checked.request === undefined) return checked.problems.join("\n");
  const req = checked.request;
  const dir = path.resolve(cwd, opts.dir ?? ".");
  // --dir holds the test files (and the throwaway cluster): an existing directory this user writes
  // into; the results root is created if need be. Both said at once, before any tool runs.
  const paths = pathProblems([
    { option: "--dir", value: opts.dir ?? ".", kind: "work-dir", base: cwd },
    { option: "results root", value: resultsRoot, kind: "out-dir" },
  ]);
  if (paths.length > 0) return paths.join("\n");

  const asRoot = runsAsRoot();
  const missing = missingPrograms(neededPrograms(req, asRoot), process.env.PATH ?? "", findServerBin());
  if (missing.length > 0) return missingProgramsMessage(missing, asRoot);

  const runId = opts.runId ?? defaultRunId(opts.now ?? new Date());
  const target = runDir(resultsRoot, req.name, runId);
  if (fs.existsSync(target))
    return `${target} exists already: a run's results are written once; wait a second for a new run id, or move it away`;

  const work = path.join(dir, WORK_DIR);
  if (fs.existsSync(work)) return workDirExists(work, dir, asRoot, findServerBin());
  if (usesThrowaway(req) && asRoot) {
    const reach = unreachableByNobody(dir);
    if (reach !== undefined) return reach;
  }

  const host = hostMetadata(dir);
  let sizes;
  try {
    sizes = sizeForDisk(req, { dir, freeBytes: freeBytes(dir), fileSystem: host.fileSystem, device: host.fileSystemDevice });
  } catch (e) {
    if (e instanceof SpaceError) return e.message;
    throw e;
  }

  let server: LocalServer | undefined;
  let pgFacts: PgServerFacts | undefined;
  if (req.pg !== undefined) {
    try {
      pgFacts = await pgServerFacts(req.pg);
    } catch (e) {
      return `cannot reach the --pg server ${redactPgUrl(opts.pg as string)}: ${(e as Error).message}`;
    }
    server = { host: req.pg.host, port: req.pg.port, user: req.pg.user, database: req.pg.database, maxConnections: pgFacts.maxConnections };
  } else if (usesThrowaway(req)) {
    // The throwaway cluster's port is known once it runs; its max_connections is PostgreSQL's default.
    server = {
      host: "127.0.0.1",
      port: BENCH_DEFAULTS.postgresPort,
      user: "postgres",
      database: "postgres",
      maxConnections: BENCH_DEFAULTS.postgresMaxConnections,
    };
  }
  const spec = localSpec(req, sizes, runId, server);
  const found = localProblems(spec);
  if (found.length > 0) return found.join("\n");
  return { req, dir, host, runId, spec, notes: [...(req.quick ? [QUICK_NOTE] : []), ...sizes.notes], pgFacts };
}

/**
 * The message for a work directory left in `--dir`: how to stop a server still running in it.
 * As root the server runs as nobody and pg_ctl refuses root, so the hint runs it as nobody
 * (util-linux runuser(1): `runuser -u USER -- COMMAND`).
 */
export function workDirExists(work: string, dir: string, asRoot: boolean, serverBin: string | undefined): string {
  const pgCtl = serverBin === undefined ? "pg_ctl" : path.join(serverBin, "pg_ctl");
  const stop = `${asRoot ? "runuser -u nobody -- " : ""}${pgCtl} -D ${work}/pg-*/data stop`;
  return `${work} exists: another lab bench local is running on ${dir}, or one was killed (SIGKILL) before it could clean up; if none runs, stop any server in it (${stop}) and remove it`;
}

/**
 * As root, the throwaway PostgreSQL runs as nobody inside `<dir>/.lab-bench`: nobody needs search
 * permission on `dir` and every directory above it. The problem, or undefined when nobody gets
 * through (`test -x` as nobody: search permission on a directory, and on the path to it).
 */
export function unreachableByNobody(dir: string): string | undefined {
  const r = spawnSync("setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "test", "-x", dir]);
  if (r.status === 0) return undefined;
  return `'--dir' must be a directory the throwaway PostgreSQL's user nobody (uid ${NOBODY}: initdb and pg_ctl refuse root) can reach, with search permission for others on it and every directory above it, got ${JSON.stringify(dir)}`;
}

/** The manifest of a local run (core/manifest.ts): the checkout's git state and the pins; no cloud stack. */
export function localManifest(root: string, now: Date, command: string = process.argv.slice(1).join(" ")): ManifestFile {
  return {
    schema: 1,
    manifest: {
      schema: 1,
      git: gitState(root),
      versions: pinnedVersions(),
      region: LOCAL,
      stacks: {},
      command,
      createdAt: now.toISOString(),
    },
    configs: {},
    resources: [],
  };
}

/** The project's checkout, whose git state a local run's manifest records. */
const PROJECT_ROOT = path.resolve(__dirname, "..", "..");

/** The note of every `--quick` run. */
export const QUICK_NOTE = "--quick: a rehearsal with small sizes and short runs, not a measurement";

/** Runs `lab bench local` (see the module comment); never throws for a failed benchmark: the result's code says it. */
export async function runBenchLocal(opts: LocalRunOptions): Promise<LocalRunResult> {
  const cwd = opts.cwd ?? process.cwd();
  const abort: Abort = {};
  // A reader that goes away (`| head -3`) makes the next write to stdout fail with EPIPE, emitted
  // as an 'error' event that would otherwise end the process at once, leaving the work directory
  // and the throwaway server behind: it stops the run like a signal, and nothing more is written.
  let stdoutClosed = false;
  const onStdoutError = (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    stdoutClosed = true;
    if (abort.signal) return;
    abort.signal = "SIGPIPE";
    abort.stopCurrent?.();
  };
  if (opts.write === undefined) process.stdout.on("error", onStdoutError);
  const write = opts.write ?? ((t: string) => void (stdoutClosed || process.stdout.write(t)));
  try {
    return await benchLocal(opts, cwd, abort, write);
  } finally {
    if (opts.write === undefined) process.stdout.off("error", onStdoutError);
  }
}

/** The steps the run announces: the throwaway server, each tool, the save (into `saveTo`). */
function localSteps(planned: ResolvedBench, throwaway: boolean, dir: string, saveTo: string): Step[] {
  return [
    ...(throwaway ? [{ name: "postgres", what: `throwaway PostgreSQL cluster in ${dir}`, estimateSeconds: POSTGRES_START_SECONDS }] : []),
    ...planned.tools.map((t) => ({
      name: t,
      what: toolWhat(t, planned),
      estimateSeconds: toolEstimateSeconds(t, planned),
      reps: planned.reps,
    })),
    { name: "save", what: `${saveTo}/ and the report`, estimateSeconds: SAVE_SECONDS },
  ];
}

/** The scripts' places in the work directory, with the fio job files, as the Job's ConfigMap holds them next to the scripts. */
function scriptPlaces(work: string): ScriptPlaces {
  const places: ScriptPlaces = {
    jobFiles: path.join(work, "jobs"),
    data: path.join(work, "data"),
    runs: path.join(work, "runs"),
    tmp: path.join(work, "tmp"),
  };
  for (const d of [places.jobFiles, places.tmp]) fs.mkdirSync(d);
  for (const [name, text] of Object.entries(renderFioJobFiles())) fs.writeFileSync(path.join(places.jobFiles, name), text);
  return places;
}

/**
 * What a tool's samples say of where they ran: the machine; its file system unless pgbench drove
 * an external server; pgbench's server (the throwaway one or an external one) and its version.
 */
function toolHost(tool: BenchTool, host: HostMetadata, throwaway: boolean, pgServerVersion: string | undefined): RunMetadata {
  const { fileSystem, fileSystemDevice, ...machine } = host;
  if (tool !== "pgbench") return { ...machine, fileSystem, fileSystemDevice };
  if (throwaway) return { ...machine, fileSystem, fileSystemDevice, pgServer: "throwaway", pgServerVersion };
  return { ...machine, pgServer: "external", pgServerVersion };
}

/** What the run prints first: what runs where, the notes, the steps with their estimates. */
function announcement(
  run: string,
  planned: ResolvedBench,
  dir: string,
  host: HostMetadata,
  notes: readonly string[],
  steps: Step[],
): string {
  return [
    `lab bench local ${run}: ${planned.tools.join(", ")} on ${dir} (${host.fileSystem} on ${host.fileSystemDevice}; ${host.cpuModel}, ${host.cpuCores} CPUs, kernel ${host.kernel})`,
    ...notes.map((n) => `note: ${n}`),
    renderStepList(steps),
    "",
  ].join("\n");
}

/** The run's report over `written` (when the caller writes one): its text, or why it failed. */
async function writeReport(
  report: ((runDir: string) => Promise<string>) | undefined,
  written: string,
): Promise<{ reportText: string; reportFailed?: string }> {
  if (!report) return { reportText: "" };
  try {
    return { reportText: await report(written) };
  } catch (e) {
    return { reportText: "", reportFailed: (e as Error).message };
  }
}

async function benchLocal(opts: LocalRunOptions, cwd: string, abort: Abort, write: (t: string) => void): Promise<LocalRunResult> {
  const writeError = opts.writeError ?? ((t: string) => process.stderr.write(t));
  const resultsRoot = path.join(opts.resultsRoot ?? path.join(cwd, "results"), LOCAL);
  const emit = (e: LocalRunEvent) => opts.onEvent?.(e);

  const prepared = await prepare(opts, cwd, resultsRoot);
  if (typeof prepared === "string") {
    writeError(`${prepared}\n`);
    return { code: EXIT.preflight };
  }
  const { req, dir, host, runId, notes, pgFacts } = prepared;
  let spec = prepared.spec;
  const throwaway = usesThrowaway(req);
  const planned = resolve(spec);

  const steps = localSteps(planned, throwaway, dir, path.relative(cwd, runDir(resultsRoot, req.name, runId)));
  write(announcement(`${req.name}/${runId}`, planned, dir, host, notes, steps));

  const onSignal = (signal: keyof typeof SIGNAL_EXIT) => {
    if (abort.signal) return;
    abort.signal = signal;
    writeError(`\n${signal}: stopping and cleaning up\n`);
    abort.stopCurrent?.();
  };
  const handlers = SIGNALS.map((s) => [s, () => onSignal(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  const checkAbort = () => {
    if (abort.signal) throw new Interrupted(abort.signal);
  };

  const progress = new StepProgress(steps, (l) => write(`${l}\n`));
  let work: string | undefined;
  let pg: ThrowawayPostgres | undefined;
  let step = 0;
  try {
    checkAbort();
    fs.mkdirSync(path.join(dir, WORK_DIR), { mode: 0o700 });
    work = path.join(dir, WORK_DIR);
    emit({ type: "workdir", dir: work });
    const places = scriptPlaces(work);

    if (throwaway) {
      progress.begin(step);
      // nobody (the server's user when the lab runs as root) must pass through the work directory.
      if (runsAsRoot()) fs.chmodSync(work, 0o711);
      pg = await startThrowawayPostgres({ parent: work, prefix: "pg-" });
      emit({ type: "postgres", pid: pg.pid, dir: pg.dir });
      checkAbort();
      spec = { ...spec, postgres: { ...(spec.postgres as NonNullable<BenchSpec["postgres"]>), port: pg.port } };
      progress.done(`port ${pg.port}, ${pg.version}`);
      step++;
    }
    const s: ResolvedBench = resolve(spec);
    const base: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    };
    const samples: Sample[] = [];
    const raws: RawOutput[] = [];
    for (const tool of s.tools) {
      progress.begin(step);
      const env = { ...base, ...scriptEnv(tool, s, places), ...(tool === "pgbench" && req.pg ? pgSecretEnv(req.pg) : {}) };
      const stdout = await runScript(
        tool,
        env,
        work,
        abort,
        (k, n) => progress.rep(k, n),
        (pid) => emit({ type: "script", tool, pid, env }),
      );
      const pgVersion = throwaway ? (pg as ThrowawayPostgres).version : pgFacts?.serverVersion;
      const run: RunMetadata = {
        scenario: LOCAL,
        stack: req.name,
        runId,
        ...toolHost(tool, host, throwaway, pgVersion),
        ...toolOptions(tool, s),
      };
      const got = collectSamples(stdout, { tool, reps: s.reps, source: `local/${tool}.sh`, run }, parseToolOutput);
      samples.push(...got.samples);
      raws.push(...got.raws);
      progress.done(headline(tool, got.samples));
      step++;
      checkAbort();
    }

    progress.begin(step);
    checkAbort();
    // Every sample carries the manifest (`manifest.…` metadata) and manifest.json goes beside them, as a stack run's.
    const written = writeRunResults(resultsRoot, req.name, runId, samples, raws, localManifest(PROJECT_ROOT, opts.now ?? new Date()));
    const { reportText, reportFailed } = await writeReport(opts.report, written);
    if (reportFailed !== undefined) {
      progress.failed(`the report: ${reportFailed}`);
      writeError(`results written to ${written}; the report failed: ${reportFailed}\n`);
      return { code: EXIT.failed, runDir: written, samples };
    }
    if (abort.signal) return { code: SIGNAL_EXIT[abort.signal], runDir: written, samples };
    progress.done(`${samples.length} samples, ${raws.length} raw outputs`);
    write(`Results: ${path.relative(cwd, written) || "."} in ${progress.elapsed()}\n${reportText}`);
    return { code: EXIT.ok, runDir: written, samples };
  } catch (e) {
    if (e instanceof Interrupted) {
      progress.failed(e.message);
      return { code: SIGNAL_EXIT[e.signal] };
    }
    if (abort.signal) return { code: SIGNAL_EXIT[abort.signal] };
    progress.failed(e instanceof StepFailed ? (e.message.split("\n")[0] ?? "") : (e as Error).message);
    writeError(`${(e as Error).message}\nNothing was saved: a partial run is never written.\n`);
    return { code: EXIT.failed };
  } finally {
    abort.stopCurrent?.();
    try {
      await pg?.stop();
    } catch (e) {
      writeError(`stopping the throwaway PostgreSQL: ${(e as Error).message}\n`);
    }
    if (work !== undefined) fs.rmSync(work, { recursive: true, force: true });
    for (const [s, h] of handlers) process.off(s, h);
  }
}
