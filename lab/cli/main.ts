/**
 * The `lab` CLI (bin/lab.js). Nothing imports this module; it imports every layer below it.
 * Exit codes: 0 ok, 1 failure (bad tool output, program error), 2 bad config or usage.
 */
import { Command, CommanderError } from "commander";
import * as path from "node:path";
import { ConfigError } from "../../core/errors";
import { PlanError } from "../plan/run";
import { runParse } from "./parse";
import { runPlan, UsageError } from "./plan";
import { saveStackResults } from "./results";

const ROOT = path.resolve(__dirname, "..", "..");

function fail(e: unknown): never {
  const configLike = e instanceof ConfigError || e instanceof UsageError || (e instanceof PlanError && e.cause instanceof ConfigError);
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(`${e instanceof PlanError ? `stack ${e.stack}: ` : ""}${message}\n`);
  process.exit(configLike ? 2 : 1);
}

export async function main(argv: readonly string[]): Promise<void> {
  const program = new Command("lab")
    .description("storage-bench-lab: stand up, benchmark, compare and tear down AWS storage experiments")
    .exitOverride()
    .showHelpAfterError();

  program
    .command("plan")
    .description("plan stacks offline under Pulumi's mock runtime: no cloud, no Pulumi CLI")
    .option("--stack <name>", "plan the stack whose config is Pulumi.<name>.yaml")
    .option("--config <file>", "plan any stack config file")
    .option("--scenario <name>", "plan a scenario's stacks")
    .option("--all", "plan every shipped stack and scenario")
    .option("--json", "print {stack, kind, config, resources, outputs} (an array for several stacks)")
    .option("--graph", "print a Mermaid diagram of the stack graph and resource dependencies")
    .option("--policy", "check the planned resources against the lab's policy rules (lab/policy); exit 1 on a mandatory violation")
    .action(async (opts) => {
      const out = await runPlan(opts, ROOT);
      process.stdout.write(`${out.text}\n`);
      for (const v of out.violations) process.stderr.write(`${v}\n`);
      if (out.mandatoryViolation) process.exit(1);
    });

  program
    .command("parse")
    .description("normalise one raw tool output into samples (JSON on stdout)")
    .argument("<tool>", "fio | ioping | pgbench | omb")
    .argument("<file>", "the tool's output")
    .action(async (tool: string, file: string) => {
      process.stdout.write(`${runParse(tool, file)}\n`);
    });

  const results = program.command("results").description("benchmark results on disk");
  results
    .command("save")
    .description("write a deployed stack's results to results/<stack>/<runId>/ (do it before pulumi destroy)")
    .requiredOption("--stack <name>", "the stack (as `pulumi stack ls` names it)")
    .option("--dir <dir>", "results root", "results")
    .action(async (opts: { stack: string; dir: string }) => {
      process.stdout.write(`${saveStackResults(opts, process.cwd())}\n`);
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    fail(e);
  }
}
