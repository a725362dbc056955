/**
 * Preflight of `lab run`: every problem at once, one line each saying how to fix it, before
 * anything is created. Offline first (./prepare.ts: the scenario, the options, every stack's config
 * through the offline plan, the results directories; then the tools on this machine); the checks that
 * reach a backend or AWS run only when all of those passed, so a config error costs no cloud call.
 *
 * External behaviours relied on:
 * - the Pulumi CLI's version through the Automation API: `PulumiCommand.get()` runs `pulumi version`
 *   and rejects a CLI of another major version ("Major version mismatch…", automation/cmd.js
 *   `parseAndValidatePulumiVersion`); the lab needs at least {@link MIN_PULUMI_CLI}, whose
 *   `pulumi whoami --json` carries the backend URL ("3.58 added the --json flag", automation/
 *   localWorkspace.js `whoAmI`);
 * - a logged-in backend: `pulumi whoami` fails without one (`LocalWorkspace.whoAmI`);
 * - AWS credentials: `aws sts get-caller-identity --output json` prints `{UserId, Account, Arn}`
 *   (AWS CLI reference, sts get-caller-identity; the STS GetCallerIdentity action needs no
 *   permission), and fails without credentials;
 * - stacks taken already: `pulumi stack ls --json` (`LocalWorkspace.listStacks`);
 * - a self-managed backend (s3://, file://…) encrypts a new stack's secrets with a passphrase, read
 *   from PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE; without either, `pulumi stack
 *   init` fails non-interactively ("passphrase must be set with PULUMI_CONFIG_PASSPHRASE or
 *   PULUMI_CONFIG_PASSPHRASE_FILE environment variables", pulumi/pulumi pkg/secrets/passphrase);
 * - a Docker daemon for the stacks that build an image (the eks stacks with `lab:images`), as the
 *   stacks themselves look for one (components/image/rules.ts `dockerDaemon`): checked here so that
 *   the build does not fail while the file system is being created.
 */
import { problem } from "../../core/errors";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { WhoAmIResult } from "@pulumi/pulumi/automation";
import { dockerDaemon, type DockerProbe } from "../../components/image/rules";
import { LOCAL_DOCKER_PROBE } from "../../components/image/docker";
import { pulumiError } from "./cli-errors";
import { BackendWorkspace, pulumiCli } from "./workspace";
import { DIY_ORGANIZATION, fullyQualified, MAX_STACK_NAME, rewriteReferences, runStackName } from "./names";
import type { OfflinePrep } from "./prepare";
import type { RunPlan } from "./runner";

/** The oldest Pulumi CLI the runner accepts (see the file comment). */
export const MIN_PULUMI_CLI = "3.58.0";

export type Tool = "kubectl" | "k0sctl" | "docker";

/** What each stack kind needs on the operator's machine besides Pulumi and AWS credentials. */
export const KIND_TOOLS: Readonly<Record<string, readonly Tool[]>> = {
  network: [],
  "fsx-ontap": [],
  // k0sctl installs k0s from this machine; kubectl waits for the benchmark Jobs (components/bench).
  "ceph-k0s": ["kubectl", "k0sctl"],
  eks: ["kubectl"],
  "fsx-eks": ["kubectl"],
  kafka: ["kubectl"],
  compare: [],
};

/** How to get each tool. */
export const TOOL_HINTS: Readonly<Record<Tool | "pulumi" | "aws", string>> = {
  pulumi: "install it: https://www.pulumi.com/docs/install/ (curl -fsSL https://get.pulumi.com | sh)",
  aws: "install the AWS CLI (https://aws.amazon.com/cli/): it runs the STS GetCallerIdentity check",
  kubectl: "install it: https://kubernetes.io/docs/tasks/tools/",
  k0sctl: "install it: https://github.com/k0sproject/k0sctl/releases (a single binary on the PATH)",
  docker: "install Docker Engine: https://docs.docker.com/engine/install/",
};

export interface ExecResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** How preflight looks at this machine (faked in tests). */
export interface ToolEnv {
  which(cmd: string): string | undefined;
  exec(cmd: string, args: readonly string[]): Promise<ExecResult>;
  /** The Pulumi CLI's version as the Automation API reads it; rejects like `PulumiCommand.get()`. */
  pulumiVersion(): Promise<string>;
}

/** An executable named `cmd` on `pathVar` (the PATH). */
export function whichOn(cmd: string, pathVar = process.env.PATH ?? ""): string | undefined {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const f = path.join(dir, cmd);
    try {
      fs.accessSync(f, fs.constants.X_OK);
      if (fs.statSync(f).isFile()) return f;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function execCommand(cmd: string, args: readonly string[]): Promise<ExecResult> {
  return new Promise((resolve) => {
    execFile(cmd, [...args], { encoding: "utf8", timeout: 60_000, env: process.env }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code as number) : 1) : 0;
      resolve({ code, stdout, stderr: stderr || (err && !stdout ? err.message : "") });
    });
  });
}

/** The real machine: PATH lookup, child processes, and the Automation API's `PulumiCommand.get()`. */
export const localToolEnv: ToolEnv = {
  which: (cmd) => whichOn(cmd),
  exec: execCommand,
  pulumiVersion: async () => {
    const cmd = await pulumiCli();
    return cmd.version?.toString() ?? "unknown";
  },
};

const firstLine = (s: string) => s.trim().split("\n")[0];

function olderThan(version: string, min: string): boolean {
  const parse = (v: string) => (/^v?(\d+)\.(\d+)\.(\d+)/.exec(v) ?? []).slice(1, 4).map(Number);
  const [a, b] = [parse(version), parse(min)];
  if (a.length < 3) return false;
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** Whether a planned stack builds a container image on this machine (@pulumi/docker-build talks to the local Docker daemon). */
export function buildsImage(resourceTypes: readonly string[]): boolean {
  return resourceTypes.some((t) => t.startsWith("docker-build:"));
}

/**
 * The tools on this machine: the Pulumi CLI and its version, the AWS CLI, each kind's tools, and
 * Docker for a stack whose plan builds an image (`needsDocker`).
 */
export async function toolProblems(
  stacks: ReadonlyArray<{ name: string; kind: string; needsDocker?: boolean }>,
  env: ToolEnv,
  table = KIND_TOOLS,
): Promise<string[]> {
  const out: string[] = [];
  if (!env.which("pulumi")) out.push(`Pulumi CLI: not on the PATH: ${TOOL_HINTS.pulumi}`);
  else {
    try {
      const v = await env.pulumiVersion();
      if (olderThan(v, MIN_PULUMI_CLI))
        out.push(
          `Pulumi CLI: ${v} is older than ${MIN_PULUMI_CLI}, the oldest the lab supports: upgrade it (https://www.pulumi.com/docs/install/)`,
        );
    } catch (e) {
      out.push(`Pulumi CLI: ${pulumiError(e)}`);
    }
  }
  if (!env.which("aws")) out.push(`AWS CLI: not on the PATH: ${TOOL_HINTS.aws}`);
  const needs = new Map<Tool, string[]>();
  for (const s of stacks)
    for (const t of [...(table[s.kind] ?? []), ...(s.needsDocker ? (["docker"] as const) : [])])
      needs.set(t, [...(needs.get(t) ?? []), `${s.name} (${s.kind})`]);
  for (const [tool, who] of needs)
    if (!env.which(tool)) out.push(`${tool}: not on the PATH, needed by ${who.join(", ")}: ${TOOL_HINTS[tool]}`);
  return out;
}

/**
 * The Docker daemon the image builds need: one problem naming the stacks when `dockerDaemon` finds
 * none (components/image/rules.ts, the probe the stacks run before building).
 */
export async function dockerProblems(
  stacks: ReadonlyArray<{ name: string; kind: string; needsDocker?: boolean }>,
  probe: DockerProbe = LOCAL_DOCKER_PROBE,
): Promise<string[]> {
  const who = stacks.filter((s) => s.needsDocker).map((s) => `${s.name} (${s.kind})`);
  if (who.length === 0) return [];
  // The daemon answers the Engine API and can build the images' platform (linux/amd64), natively or
  // under emulation: the components' own check.
  const daemon = await dockerDaemon(probe);
  if (daemon.ok) return [];
  return [
    `Docker, needed by ${who.join(", ")} to build the images of lab:images (or give them instead: lab:toolsImage, lab:ombImage): ${daemon.problem}`,
  ];
}

/** The passphrase a self-managed backend needs for the run's new stacks, when it is missing. */
export function passphraseProblem(
  who: WhoAmIResult,
  env: Readonly<Record<string, string | undefined>> = process.env,
  secretsProvider?: string,
): string | undefined {
  // A KMS key encrypts the new stacks' secrets instead (lab run --secrets-provider): no passphrase is asked.
  if (secretsProvider !== undefined && secretsProvider.startsWith("awskms://")) return undefined;
  // `passphrase` asked for by name needs it on any backend, Pulumi Cloud too (`pulumi stack init --secrets-provider passphrase`).
  if (secretsProvider === "passphrase" && env.PULUMI_CONFIG_PASSPHRASE === undefined && (env.PULUMI_CONFIG_PASSPHRASE_FILE ?? "") === "")
    return "Pulumi backend: --secrets-provider passphrase encrypts the new stacks' secrets with a passphrase: set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE";
  if (!isDiyBackend(who.url)) return undefined;
  if (env.PULUMI_CONFIG_PASSPHRASE !== undefined || (env.PULUMI_CONFIG_PASSPHRASE_FILE ?? "") !== "") return undefined;
  return `Pulumi backend: ${who.url} is self-managed: its stacks' secrets are encrypted with a passphrase: set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE`;
}

/** STS GetCallerIdentity through the AWS CLI: the account, or the problem. */
export async function awsIdentity(env: ToolEnv, region: string): Promise<{ account?: string; arn?: string; problem?: string }> {
  const r = await env.exec("aws", ["sts", "get-caller-identity", "--output", "json", "--region", region]);
  if (r.code !== 0)
    return {
      problem: `AWS credentials: aws sts get-caller-identity failed: ${firstLine(r.stderr || r.stdout)}: configure them (aws configure sso, AWS_PROFILE, or OIDC in CI)`,
    };
  try {
    const doc = JSON.parse(r.stdout) as { Account?: string; Arn?: string };
    if (typeof doc.Account !== "string") throw new Error("no Account");
    return { account: doc.Account, arn: doc.Arn };
  } catch {
    return { problem: `AWS credentials: aws sts get-caller-identity printed no identity: ${firstLine(r.stdout)}` };
  }
}

/** Self-managed backends' URLs (s3://, gs://, azblob://, file://): their organization is always `organization`. */
export function isDiyBackend(url: string | undefined): boolean {
  return url !== undefined && /^(s3|gs|azblob|file):\/\//.test(url);
}

/** The organization of the run's stacks. */
export function runOrganization(who: WhoAmIResult, org?: string): string {
  if (isDiyBackend(who.url)) return DIY_ORGANIZATION;
  return org ?? who.user;
}

/** The backend: logged in, and none of the run's stacks taken. Returns the run plan when there is no problem. */
export async function backendChecks(
  ws: BackendWorkspace,
  prep: OfflinePrep,
  opts: {
    keep: boolean;
    org?: string;
    workDir: string;
    scenario: string;
    policyPacks?: readonly string[];
    env?: Readonly<Record<string, string | undefined>>;
    /** `lab run --secrets-provider`: the new stacks' secrets provider. */
    secretsProvider?: string;
  },
): Promise<{ problems: string[]; plan?: RunPlan; who?: WhoAmIResult }> {
  let who: WhoAmIResult;
  try {
    who = await ws.whoAmI();
  } catch (e) {
    return {
      problems: [
        `Pulumi backend: not logged in (pulumi whoami: ${pulumiError(e)}): run pulumi login (s3://<bucket>, --local, or Pulumi Cloud)`,
      ],
    };
  }
  const org = runOrganization(who, opts.org);
  const names = new Map(prep.specs.map((s) => [s.name, runStackName(who.user, prep.runId, s.name)]));
  const problems: string[] = [];
  const passphrase = passphraseProblem(who, opts.env, opts.secretsProvider);
  if (passphrase) problems.push(passphrase);
  for (const [s, n] of names)
    if (n.length > MAX_STACK_NAME)
      problems.push(`stack ${s}: the run's stack name ${n} is longer than ${MAX_STACK_NAME} characters: pick a shorter --run-id`);
  const existing = new Set((await ws.listStacks()).map((s) => s.name.split("/").pop() as string));
  for (const [s, n] of names)
    if (existing.has(n))
      problems.push(
        `stack ${s}: ${n} exists already (another run with this --run-id?): pick another --run-id, or destroy it (pulumi destroy --remove --stack ${n})`,
      );
  if (problems.length > 0) return { problems, who };
  const fq = (s: string) => fullyQualified(org, names.get(s) as string);
  const scenarioNames = prep.specs.map((s) => s.name);
  const plan: RunPlan = {
    scenario: opts.scenario,
    runId: prep.runId,
    stacks: prep.specs.map((s) => ({
      name: s.name,
      fqName: fq(s.name),
      config: rewriteReferences(s.config, scenarioNames, fq),
      upstreams: prep.upstreams[s.name] ?? [],
      plannedResources: prep.plans.get(s.name)?.resources.length,
    })),
    steps: prep.scenario?.steps ?? [],
    keep: opts.keep,
    workDir: opts.workDir,
    ...(opts.policyPacks?.length ? { policyPacks: opts.policyPacks } : {}),
  };
  return { problems: [], plan, who };
}

/** The query parameters an awskms:// provider takes (Pulumi docs, "Secrets handling"): region, awssdk, profile, context_<k>. */
const AWSKMS_QUERY = /^(region=[a-z]{2}(-[a-z]+)+-\d|awssdk=v[12]|profile=[A-Za-z0-9_.-]+|context_[A-Za-z0-9_-]+=[^&]*)$/;
/** The key as awskms:// names it: a key id (or a multi-Region `mrk-` one), `alias/<name>`, or `/<key ARN>` (three slashes in all). */
const AWSKMS_KEY =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|mrk-[0-9a-fA-F]{32}|alias\/[A-Za-z0-9/_-]+|\/arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:(key|alias)\/[A-Za-z0-9/_-]+)$/;

/**
 * `--secrets-provider`: `passphrase`, `default` (the backend's own), or a KMS key as the Pulumi CLI
 * takes it (Pulumi docs, "Secrets handling", https://www.pulumi.com/docs/iac/concepts/secrets/):
 * `awskms://<key id>?region=<r>`, `awskms://alias/<name>?region=<r>`, or a key ARN after three
 * slashes, `awskms:///arn:aws:kms:<r>:<account>:key/<id>` (with two the CLI reads `arn` as a host
 * and fails: pulumi/pulumi#5074), with `&`-separated `region`, `awssdk`, `profile` and `context_<k>`.
 */
export function secretsProviderProblems(value: string | undefined): string[] {
  if (value === undefined || value === "passphrase" || value === "default") return [];
  const rule =
    "awskms://<key id or alias/<name>>?region=<region>, awskms:///<key ARN> (three slashes), passphrase or default (e.g. awskms://alias/lab-secrets?region=us-east-1)";
  const m = /^awskms:\/\/([^?]*)(?:\?(.*))?$/.exec(value);
  if (m && m[1].startsWith("arn:"))
    return [problem("--secrets-provider", `${rule}: a key ARN takes three slashes (awskms:///arn:…)`, value)];
  if (!m || !AWSKMS_KEY.test(m[1]) || (m[2] !== undefined && !m[2].split("&").every((q) => AWSKMS_QUERY.test(q))))
    return [problem("--secrets-provider", rule, value)];
  return [];
}
