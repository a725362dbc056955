/**
 * `lab janitor [--run-id ID] [--include-unknown] [--yes]` (lab/janitor): lists the lab's expired
 * stacks (with `--run-id`, every stack of that run) with their age and hourly cost, and those of
 * unknown expiry; destroys them with `--yes`, or after a "yes" at the prompt when run in a terminal.
 * Exit codes: 0 nothing left to do (or nothing confirmed), 1 a stack could not be read, a destroy
 * failed or a stack was kept, 2 no Pulumi CLI, not logged in, or a bad option.
 */
import * as readline from "node:readline/promises";
import { destroyExpired, renderSurvey, survey, type RetryOptions } from "../janitor/janitor";
import { pulumiError } from "../run/cli-errors";
import { runIdProblems } from "../run/names";
import { TOOL_HINTS, whichOn } from "../run/preflight";
import { automationWorkspace, JanitorWorkspace } from "../run/workspace";

export interface JanitorCliOptions {
  readonly yes?: boolean;
  /** Only this run's stacks, expired or not (CI cleanup after a cancelled run). */
  readonly runId?: string;
  /** Also destroy the lab stacks of unknown expiry (their first up failed). */
  readonly includeUnknown?: boolean;
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
  const due = sv.expired.length + (opts.includeUnknown ? sv.unknown.length : 0);
  const unreadable = sv.unreadable.length > 0;
  const readFailure = () => line(`${sv.unreadable.length} stack(s) could not be read: this is not an all-clear (exit 1)`);
  if (due === 0) {
    if (unreadable) readFailure();
    return unreadable ? 1 : 0;
  }
  const go = opts.yes === true || (await (deps.confirm ?? askOnTerminal)(`destroy these ${due} stack(s)? [y/N] `));
  if (!go) {
    line("nothing destroyed (run lab janitor --yes to destroy them)");
    if (unreadable) readFailure();
    return unreadable ? 1 : 0;
  }
  const out = await destroyExpired(ws, sv, line, { includeUnknown: opts.includeUnknown === true, retry: deps.retry });
  for (const k of out.kept) line(`kept ${k.stack}: ${k.why}`);
  for (const f of out.failed) line(`failed ${f.stack}: ${f.error} (finish with: pulumi destroy --yes --remove --stack ${f.stack})`);
  line(`destroyed ${out.destroyed.length}, failed ${out.failed.length}, kept ${out.kept.length}`);
  if (unreadable) readFailure();
  return out.failed.length > 0 || out.kept.length > 0 || unreadable ? 1 : 0;
}
