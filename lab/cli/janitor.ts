/**
 * `lab janitor [--yes]` (lab/janitor): lists the lab's expired stacks with their age and hourly
 * cost; destroys them with `--yes`, or after a "yes" at the prompt when run in a terminal.
 * Exit codes: 0 nothing left to do (or nothing confirmed), 1 a destroy failed or a stack was kept.
 */
import * as readline from "node:readline/promises";
import { destroyExpired, renderSurvey, survey } from "../janitor/janitor";
import { automationWorkspace, JanitorWorkspace } from "../run/workspace";

export interface JanitorCliOptions {
  readonly yes?: boolean;
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
  deps: { workspace?: JanitorWorkspace; now?: Date; confirm?: (q: string) => Promise<boolean>; write?: (s: string) => void } = {},
): Promise<number> {
  const write = deps.write ?? ((s: string) => process.stdout.write(s));
  const line = (s: string) => write(`${s}\n`);
  const now = deps.now ?? new Date();
  const ws = deps.workspace ?? (await automationWorkspace(root));
  const sv = await survey(ws, now);
  renderSurvey(sv, now).forEach(line);
  if (sv.expired.length === 0) return 0;
  const go = opts.yes === true || (await (deps.confirm ?? askOnTerminal)(`destroy these ${sv.expired.length} stack(s)? [y/N] `));
  if (!go) {
    line("nothing destroyed (run lab janitor --yes to destroy them)");
    return 0;
  }
  const out = await destroyExpired(ws, sv, line);
  for (const k of out.kept) line(`kept ${k.stack}: ${k.why}`);
  for (const f of out.failed) line(`failed ${f.stack}: ${f.error} (finish with: pulumi destroy --yes --remove --stack ${f.stack})`);
  line(`destroyed ${out.destroyed.length}, failed ${out.failed.length}, kept ${out.kept.length}`);
  return out.failed.length > 0 || out.kept.length > 0 ? 1 : 0;
}
