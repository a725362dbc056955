/**
 * A child-process entry for the CLI tests: the real CLI (lab/cli/main.ts `main`) for `lab run` and
 * `lab janitor`, plus `fake-run`: the
 * runner on the fake workspace (./fakes.ts) with the CLI's signal handling (withInterrupts), for the
 * Ctrl-C test. Run with `node --require tsx/cjs harness.ts …`.
 */
import { main as labMain } from "../../../lab/cli/main";
import { withInterrupts } from "../../../lab/cli/run";
import { runScenario } from "../../../lab/run/runner";
import { saveStackOutputs } from "../../../lab/run/results";
import { cephPlan, FakeWorkspace } from "./fakes";

async function fakeRun(resultsRoot: string, upMs: number, destroyMs: number): Promise<number> {
  const ws = new FakeWorkspace({
    upMs: { dev: upMs, nitro: upMs, compare: 20 },
    destroyMs,
    onUpStart: (s) => process.stdout.write(`UP-START ${s}\n`),
  });
  return withInterrupts(async (interrupts) => {
    const out = await runScenario({
      preflight: async () => ({ problems: [], run: { plan: cephPlan(), workspace: ws } }),
      reporter: { line: (t) => process.stdout.write(`${t}\n`), output: () => undefined },
      saveResults: (stack, o) => saveStackOutputs(resultsRoot, stack, o),
      interrupts,
      retryDelayMs: 0,
      progressIntervalMs: 0,
    });
    process.stdout.write(`CALLS ${JSON.stringify(ws.short())}\n`);
    return out.exitCode;
  });
}

async function main(argv: string[]) {
  if (argv[0] === "fake-run") process.exit(await fakeRun(argv[1], Number(argv[2]), Number(argv[3] ?? "5")));
  await labMain(argv);
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
