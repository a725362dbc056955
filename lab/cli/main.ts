/**
 * The `lab` CLI (bin/lab.js). Nothing imports this module; it imports every layer below it.
 * Exit codes: 0 ok, 1 failure (bad tool output, program error), 2 bad config or usage.
 *
 * A command's modules load only when that command runs: this module imports nothing that loads the
 * Pulumi SDK or a provider SDK, so `lab --help` and `lab parse` start in a fraction of `lab plan`'s
 * time (test/lab/cli/lazy.test.ts checks which modules each command loads).
 */
import { Command, CommanderError } from "commander";
import * as path from "node:path";
import { isConfigError, PlanError, programTrace } from "../plan/errors";
import { UsageError } from "./errors";
import { LAB_PROJECT, renderPermissionsBoundary } from "../policy/deploy-policy";

const ROOT = path.resolve(__dirname, "..", "..");

// `require`, not `import()`: bin/lab.js runs these sources through tsx's CommonJS hook, and esbuild
// leaves an `import()` to Node's ESM loader, which that hook does not cover.
/* eslint-disable @typescript-eslint/no-require-imports */
const commands = {
  plan: () => require("./plan") as typeof import("./plan"),
  planChange: () => require("./plan-change") as typeof import("./plan-change"),
  parse: () => require("./parse") as typeof import("./parse"),
  results: () => require("./results") as typeof import("./results"),
  report: () => require("./report") as typeof import("./report"),
  run: () => require("./run") as typeof import("./run"),
  janitor: () => require("./janitor") as typeof import("./janitor"),
  util: () => require("./utilization") as typeof import("./utilization"),
  bench: () => require("./bench") as typeof import("./bench"),
  version: () => require("./version") as typeof import("./version"),
  experiment: () => require("./experiment") as typeof import("./experiment"),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * What `lab` prints on stderr for an error, and its exit status: 2 with the message only for a
 * usage or config error; 1 otherwise, and a failed plan's program error keeps its stack trace
 * under the message (`stack <name>: <message>`, then the `    at …` frames).
 */
export function failure(e: unknown): { text: string; status: 1 | 2 } {
  const configLike = e instanceof UsageError || isConfigError(e);
  const message = e instanceof Error ? e.message : String(e);
  const trace = e instanceof PlanError && !configLike ? programTrace(e) : "";
  return {
    text: `${e instanceof PlanError ? `stack ${e.stack}: ` : ""}${message}\n${trace ? `${trace}\n` : ""}`,
    status: configLike ? 2 : 1,
  };
}

function fail(e: unknown): never {
  const { text, status } = failure(e);
  process.stderr.write(text);
  process.exit(status);
}

/**
 * The `lab` program: every command with its options and help (docs/cli.md is rendered from it by
 * `npm run docs`, lab/docs/). Parsing it runs the chosen command.
 */
export function cliProgram(): Command {
  const program = new Command("lab")
    .description("storage-bench-lab: stand up, benchmark, compare and tear down AWS storage experiments")
    .exitOverride()
    .showHelpAfterError()
    .option("-V, --version", "print the lab's version and commit, the Node it runs on and the Pulumi SDK");
  program.on("option:version", () => {
    process.stdout.write(commands.version().versionText(ROOT));
    throw new CommanderError(0, "lab.version", "");
  });
  program
    .command("version")
    .description("print the lab's version and commit, the Node it runs on and the Pulumi SDK (as --version)")
    .action(() => {
      process.stdout.write(commands.version().versionText(ROOT));
    });
  definePlanCommand(program);
  defineParseCommand(program);
  defineResultsCommand(program);
  defineReportCommand(program);
  defineBenchCommand(program);
  defineExperimentCommand(program);
  defineUtilCommand(program);
  defineRunCommand(program);
  defineJanitorCommand(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  const program = cliProgram();
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    fail(e);
  }
}

/** `lab plan`: stacks planned offline, their policy, a change to a deployed stack, the generated docs. */
function definePlanCommand(program: Command): void {
  program
    .command("plan")
    .description("plan stacks offline under Pulumi's mock runtime: no cloud, no Pulumi CLI")
    .option("--stack <name>", "plan the stack whose config is Pulumi.<name>.yaml")
    .option("--config <file>", "plan any stack config file")
    .option("--scenario <name>", "plan a scenario's stacks")
    .option("--all", "plan every shipped stack and scenario")
    .option("--json", "print {stack, kind, config, resources, outputs} (an array for several stacks)")
    .option("--graph", "print a Mermaid diagram of the stack graph and resource dependencies")
    .option("--show-secrets", "print the values of secret inputs and outputs (as pulumi preview --show-secrets), with a warning on stderr")
    .option("--policy", "check the planned resources against the lab's policy rules (lab/policy); exit 1 on a mandatory violation")
    .option(
      "--first-preview",
      "plan as the first `pulumi preview` of new stacks: outputs of new resources unknown, invokes through a provider with unknown config answered {}",
    )
    .option(
      "--change <KEY=VALUE...>",
      "with --stack: plan a config change of the deployed stack (updated, replaced and why, created, deleted)",
    )
    .option("--change-config <file>", "with --stack: plan the change to this whole new config file")
    .option("--allow-replace", "with --change: accept changes that replace or delete what holds data")
    .option("--change-table", "print docs/changing-a-live-stack.md: every key of every kind changed on a shipped stack")
    .option("--deploy-policy", "print docs/deploy-policy.json: the IAM policy that deploys the shipped stacks, from their resource types")
    .option(
      "--cleanup-policy",
      "print docs/cleanup-policy.json: the IAM policy of the cleanup identity (lab janitor): the deploy policy's reads and teardowns only",
    )
    .option("--boundary-policy", "print docs/permissions-boundary.json: the sample permissions boundary of the lab's roles")
    .option(
      "--permissions-boundary <arn>",
      "with --deploy-policy or --cleanup-policy: the boundary every lab role must carry (your lab:permissionsBoundaryArn; 'none': no boundary required, roles can be given any power)",
    )
    .action(async (opts) => {
      if (opts.boundaryPolicy) {
        process.stdout.write(renderPermissionsBoundary(LAB_PROJECT));
        return;
      }
      if (opts.deployPolicy || opts.cleanupPolicy) {
        const b = opts.permissionsBoundary as string | undefined;
        const boundary = b === undefined ? undefined : b === "none" ? null : b;
        const plan = commands.plan();
        process.stdout.write(await (opts.deployPolicy ? plan.runDeployPolicy(ROOT, boundary) : plan.runCleanupPolicy(ROOT, boundary)));
        return;
      }
      if (opts.changeTable) {
        process.stdout.write(await commands.planChange().runChangeTable(ROOT));
        return;
      }
      if (opts.change !== undefined || opts.changeConfig !== undefined) {
        const changed = await commands.planChange().runPlanChange(opts, ROOT);
        process.stdout.write(`${changed.text}\n`);
        if (changed.refused) process.exit(1);
        return;
      }
      const plan = commands.plan();
      if (opts.showSecrets) process.stderr.write(`${plan.SHOW_SECRETS_WARNING}\n`);
      const out = await plan.runPlan(opts, ROOT);
      process.stdout.write(`${out.text}\n`);
      for (const v of out.violations) process.stderr.write(`${v}\n`);
      if (out.mandatoryViolation) process.exit(1);
    });
}

/** `lab parse`: one raw tool output as samples. */
function defineParseCommand(program: Command): void {
  program
    .command("parse")
    .description("normalise one raw tool output into samples (JSON on stdout)")
    .argument("<tool>", "fio | ioping | pgbench | omb")
    .argument("<file>", "the tool's output")
    .action(async (tool: string, file: string) => {
      process.stdout.write(`${commands.parse().runParse(tool, file)}\n`);
    });
}

/** `lab results save`: a deployed stack's results on disk. */
function defineResultsCommand(program: Command): void {
  const results = program.command("results").description("benchmark results on disk");
  results
    .command("save")
    .description("write a deployed stack's results to results/<stack>/<runId>/ (do it before pulumi destroy)")
    .requiredOption("--stack <name>", "the stack (as `pulumi stack ls` names it)")
    .option("--dir <dir>", "results root", "results")
    .action(async (opts: { stack: string; dir: string }) => {
      process.stdout.write(`${commands.results().saveStackResults(opts, process.cwd())}\n`);
    });
}

/** `lab report`: saved runs compared. */
function defineReportCommand(program: Command): void {
  program
    .command("report")
    .description("compare saved runs: report.md, SVG charts and a self-contained report.html, with the published figures beside ours")
    .argument("<dir...>", "directories searched for results/<stack>/<runId>/samples.json")
    .option("--out <dir>", "output directory (under the ignored results/ by default: git status stays clean)", "results/report")
    .option("--format <list>", "comma-separated formats: md, html, svg", "md,html,svg")
    .option(
      "--baseline <name>",
      "also divide the rows of every other stack or named local run of the same setup by this one's like-for-like rows",
    )
    .option("--force", "put runs with different manifests side by side (their differences are listed)")
    .action(async (dirs: string[], opts: { out: string; format: string; baseline?: string; force?: boolean }) => {
      const r = await commands
        .report()
        .runReport({ dirs, out: opts.out, format: opts.format, baseline: opts.baseline, force: opts.force === true });
      process.stdout.write(r.text);
    });
}

/** `lab bench local`: the benchmark scripts on this machine. */
function defineBenchCommand(program: Command): void {
  const bench = program.command("bench").description("benchmarks outside a cluster");
  bench
    .command("local")
    .description(
      "run the benchmark Jobs' scripts (fio, ioping, pgbench) on this machine: a rehearsal and the local-disk baseline, saved to results/local/<name>/<runId>/ with its report",
    )
    .option("--dir <dir>", "directory on the storage to test (default: the current directory)")
    .option("--profile <profile>", "fio profile: seed, latency or suite (default seed)")
    .option("--tools <list>", "comma-separated tools (default fio,ioping,pgbench)")
    .option("--quick", "small sizes and short runs: a rehearsal, not a measurement")
    .option("--reps <n>", "repetitions of every tool, 1-20 (default 3; 1 with --quick)")
    .option(
      "--name <name>",
      "name of the run: its samples' stack, results in results/local/<name>/<runId>/, what lab report --baseline names (default local)",
    )
    .option(
      "--pg <url>",
      "PostgreSQL server for pgbench, postgresql://user[:password]@host[:port]/database (default: a throwaway cluster in --dir)",
    )
    .action(async (opts: import("../bench/plan").BenchLocalOptions) => {
      process.exit(await commands.bench().benchLocalAction(opts));
    });
}

/** `lab experiment`: declared by lab/cli/experiment.ts (which loads its experiment modules only when the command runs). */
function defineExperimentCommand(program: Command): void {
  commands.experiment().defineExperimentCommand(program, ROOT);
}

/** `lab util`: utilization of saved runs (lab/cli/utilization.ts). */
function defineUtilCommand(program: Command): void {
  program
    .command("util")
    .description("utilization of saved runs: CloudWatch metrics for each repetition's window and the limit line (writes utilization.json)")
    .argument("<dirs...>", "run directories (results/<stack>/<runId>)")
    .option("--no-cloudwatch", "derive the limit lines from the node sampler alone (no AWS call)")
    .option("--replace", "write utilization.json again")
    .action(async (dirs: string[], opts: { cloudwatch: boolean; replace?: boolean }) => {
      process.stdout.write(await commands.util().runUtil({ dirs, cloudwatch: opts.cloudwatch, replace: opts.replace === true }));
    });
}

/** `lab run`: a scenario end to end on AWS. */
function defineRunCommand(program: Command): void {
  program
    .command("run")
    .description("run a scenario on AWS: up its stacks (independent ones in parallel), run its steps, save results, destroy everything")
    .argument("<scenario>", "a scenario of scenarios/index.ts (e.g. ceph-nitro)")
    .option("--dry-run", "print the schedule, the critical path and the cost offline; create nothing")
    .option("--keep", "keep the stacks after a successful run (they are destroyed after a failure anyway)")
    .option(
      "--set <stack.key=value>",
      "config for one stack (or * for every stack whose kind has the key), e.g. dev.lab:reps=5; a key without a namespace is a lab: key; not lab:runId (use --run-id); repeatable",
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option(
      "--admin-cidr <cidr|auto>",
      "lab:adminCidrs of every stack whose kind has it (eks, ceph-k0s): your address range as a CIDR (a.b.c.d/32; an RFC 5737 documentation range is refused), or auto for this machine's public address as a /32 (https://checkip.amazonaws.com; LAB_CHECKIP_URL overrides it)",
    )
    .option(
      "--allow-wide-admin",
      "accept admin CIDRs wider than a /24 (lab:adminCidrMinPrefix 8 on every stack whose kind has it): a shared account's guard, off only on purpose",
    )
    .option(
      "--cleanup-role-arn <arn>",
      "the cleanup identity's role (lab janitor; docs/ci.md): added to lab:adminRoleArns of every stack whose kind has it (eks), so it can delete the clusters' Kubernetes objects",
    )
    .option(
      "--secrets-provider <provider>",
      "how the stacks the run creates encrypt their secrets (pulumi stack init --secrets-provider): awskms://<key id or alias/<name>>?region=<region> or awskms:///<key ARN>, passphrase, or default (the backend's: Pulumi Cloud's own, a self-managed backend's passphrase)",
    )
    .option("--run-id <id>", "the run's lab:runId (default r<yymmdd>-<hhmmss>, UTC)")
    .option("--org <org>", "organization of the run's stacks on Pulumi Cloud (default: your user; self-managed backends use organization)")
    .option("--verbose", "print Pulumi's full output (always in the run log)")
    .option("--skip-experiments", "leave out the scenario's failover experiments (fsx-eks: mysql-failover, fsx-failover)")
    .addHelpText("after", runHelpText)
    .action(async (scenario: string, opts) => {
      process.exit(await commands.run().runAction(scenario, opts, ROOT));
    });
}

/** What `lab run --help` ends with: the scenarios (scenarios/index.ts) and two examples. */
export function runHelpText(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SCENARIOS } = require("../../scenarios/index") as typeof import("../../scenarios/index");
  const width = Math.max(...SCENARIOS.map((s) => s.name.length));
  return [
    "",
    "Scenarios:",
    ...SCENARIOS.map((s) => `  ${s.name.padEnd(width)}  ${s.description.split(":")[0]} (stacks ${s.stacks.map((x) => x.name).join(", ")})`),
    "",
    "Examples:",
    "  lab run ceph-nitro --dry-run                # offline: the schedule, the critical path, the cost, what the real run needs",
    "  lab run ceph-nitro --admin-cidr auto        # on AWS: up, benchmark, save, report, destroy",
  ].join("\n");
}

/** `lab janitor`: expired stacks listed and destroyed. */
function defineJanitorCommand(program: Command): void {
  program
    .command("janitor")
    .description(
      "list the lab's stacks past their expiresAt output (age, hourly cost) and those of unknown expiry, and the run work directories left on this machine; destroy them on confirmation, dependents first (with --yes, also remove the work directories none of whose stacks is left); exit 1 when a stack could not be read",
    )
    .option("--yes", "destroy them without asking")
    .option("--run-id <id>", "only the stacks of this run (expired or not): what a CI cleanup after a cancelled run needs")
    .option("--include-unknown", "also destroy the lab stacks of unknown expiry (no expiresAt: their first up failed)")
    .action(async (opts: { yes?: boolean; runId?: string; includeUnknown?: boolean }) => {
      process.exit(await commands.janitor().janitorAction(opts, ROOT));
    });
}
