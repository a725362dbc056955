/**
 * `lab janitor [--run-id ID] [--include-unknown] [--yes]` (lab/janitor): lists the lab's expired
 * stacks (with `--run-id`, every stack of that run) with their age and hourly cost, and those of
 * unknown expiry; destroys them with `--yes`, or after a "yes" at the prompt when run in a terminal.
 * Exit codes: 0 nothing left to do (or nothing confirmed), 1 a stack could not be read, a destroy
 * failed or a stack was kept, 2 no Pulumi CLI, not logged in, or a bad option.
 */
import * as readline from "node:readline/promises";
import { destroyExpired, renderSurvey, shortName, survey, type RetryOptions } from "../janitor/janitor";
import { pulumiError } from "../run/cli-errors";
import { runIdProblems } from "../run/names";
import { TOOL_HINTS, whichOn } from "../run/preflight";
import { listRunWorkDirs, removeRunWorkDir, workRoot, type RunWorkDir } from "../run/workdir";
import { automationWorkspace, JanitorWorkspace } from "../run/workspace";

export interface JanitorCliOptions {
  readonly yes?: boolean;
  /** Only this run's stacks, expired or not (CI cleanup after a cancelled run). */
  readonly runId?: string;
  /** Also destroy the lab stacks of unknown expiry (their first up failed). */
  readonly includeUnknown?: boolean;
}

/** The work directories whose stacks are all gone from the backend (none unreadable): nothing is left to finish there. */
export function staleWorkDirs(dirs: readonly RunWorkDir[], inBackend: ReadonlySet<string>, unread: ReadonlySet<string>): RunWorkDir[] {
  return dirs.filter((d) => d.stacks.every((s) => !inBackend.has(s) && !unread.has(s)));
}

/**
 * The run work directories left on this machine: each with the stacks of its run still in the
 * backend (where their cleanup runs), or said to have none left (`lab janitor --yes` removes it).
 */
export function renderWorkDirs(dirs: readonly RunWorkDir[], inBackend: ReadonlySet<string>, unread: ReadonlySet<string>): string[] {
  if (dirs.length === 0) return [];
  const stale = new Set(staleWorkDirs(dirs, inBackend, unread).map((d) => d.dir));
  return [
    `${dirs.length} run work director${dirs.length === 1 ? "y" : "ies"} on this machine (a run removes its own once none of its stacks is left):`,
    ...dirs.map((d) => {
      if (stale.has(d.dir)) return `  ${d.dir}: no stack of its run is left (lab janitor --yes removes it)`;
      const left = d.stacks.filter((s) => inBackend.has(s) || unread.has(s));
      return `  ${d.dir}: ${left.length} stack(s) of its run remain (${left.join(", ")}): destroy them from there, or with lab janitor`;
    }),
  ];
}

/** Asks on the terminal; false without one (nothing is destroyed unasked). */
export async function askOnTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export async function janitorAction(
  opts: JanitorCliOptions,
  root: string,
  deps: {
    workspace?: JanitorWorkspace;
    now?: Date;
    confirm?: (q: string) => Promise<boolean>;
    write?: (s: string) => void;
    retry?: RetryOptions;
    which?: (cmd: string) => string | undefined;
    /** Where runs' work directories are (lab/run/workdir.ts). @default workRoot() */
    workRoot?: string;
  } = {},
): Promise<number> {
  const write = deps.write ?? ((s: string) => process.stdout.write(s));
  const line = (s: string) => write(`${s}\n`);
  const now = deps.now ?? new Date();
  if (opts.runId !== undefined) {
    const bad = runIdProblems(opts.runId);
    if (bad.length > 0) {
      bad.forEach(line);
      return 2;
    }
  }
  let ws = deps.workspace;
  if (!ws) {
    if (!(deps.which ?? whichOn)("pulumi")) {
      line(`Pulumi CLI: not on the PATH: ${TOOL_HINTS.pulumi}`);
      return 2;
    }
    try {
      ws = await automationWorkspace(root);
    } catch (e) {
      line(`Pulumi CLI: ${pulumiError(e)}`);
      return 2;
    }
  }
  try {
    await ws.whoAmI();
  } catch (e) {
    line(`Pulumi backend: not logged in (pulumi whoami: ${pulumiError(e)}): run pulumi login (s3://<bucket>, --local, or Pulumi Cloud)`);
    return 2;
  }
  const sv = await survey(ws, now, { runId: opts.runId });
  renderSurvey(sv, now, opts.runId).forEach(line);
  const dirs = listRunWorkDirs(deps.workRoot ?? workRoot()).filter((d) => opts.runId === undefined || d.name.endsWith(`-${opts.runId}`));
  const inBackend = new Set([...sv.expired, ...sv.live, ...sv.unknown].map((s) => shortName(s.name)));
  // A stack that could not be read may still exist: its run's directory is kept.
  const unread = new Set(sv.unreadable.map((u) => shortName(u.split(":")[0])));
  const workDirs = () => {
    renderWorkDirs(dirs, inBackend, unread).forEach(line);
    if (opts.yes !== true) return;
    for (const d of staleWorkDirs(dirs, inBackend, unread)) {
      removeRunWorkDir(d.dir);
      line(`removed work directory ${d.dir} (no stack of its run is left)`);
    }
  };
  const due = sv.expired.length + (opts.includeUnknown ? sv.unknown.length : 0);
  const unreadable = sv.unreadable.length > 0;
  const readFailure = () => line(`${sv.unreadable.length} stack(s) could not be read: this is not an all-clear (exit 1)`);
  if (due === 0) {
    workDirs();
    if (unreadable) readFailure();
    return unreadable ? 1 : 0;
  }
  const go = opts.yes === true || (await (deps.confirm ?? askOnTerminal)(`destroy these ${due} stack(s)? [y/N] `));
  if (!go) {
    line("nothing destroyed (run lab janitor --yes to destroy them)");
    renderWorkDirs(dirs, inBackend, unread).forEach(line);
    if (unreadable) readFailure();
    return unreadable ? 1 : 0;
  }
  const out = await destroyExpired(ws, sv, line, { includeUnknown: opts.includeUnknown === true, retry: deps.retry });
  for (const k of out.kept) line(`kept ${k.stack}: ${k.why}`);
  for (const f of out.failed) line(`failed ${f.stack}: ${f.error} (finish with: pulumi destroy --yes --remove --stack ${f.stack})`);
  line(`destroyed ${out.destroyed.length}, failed ${out.failed.length}, kept ${out.kept.length}`);
  for (const d of out.destroyed) inBackend.delete(shortName(d));
  workDirs();
  if (unreadable) readFailure();
  return out.failed.length > 0 || out.kept.length > 0 || unreadable ? 1 : 0;
}
