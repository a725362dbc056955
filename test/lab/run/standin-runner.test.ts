/**
 * The runner on the real Automation API (`@pulumi/pulumi/automation`, through lab/run/workspace.ts
 * `automationWorkspace`) against the stand-in Pulumi CLI (./standin.ts): the CLI's own error
 * lines, the run's own work directory, stack selection one at a time, the policy pack on `up`,
 * Ctrl-C.
 */
import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as path from "node:path";
import { EXIT, RunEnv, runScenario } from "../../../lab/run/runner";
import { saveStackOutputs } from "../../../lab/run/results";
import { createRunWorkDir } from "../../../lab/run/workdir";
import { automationWorkspace } from "../../../lab/run/workspace";
import { cephPlan, memoryReporter } from "./fakes";
import { Standin, standin, tps, workspaceWrites } from "./standin";

let s: Standin | undefined;
afterEach(() => s?.restore());

const SSH = "command:remote:Command (dev-k0sctl-apply):\n    error: ssh: handshake failed: dial tcp 10.0.1.12:22: i/o timeout";
const OK = { dev: { outputs: { results: [tps(374.95)] } }, nitro: { outputs: { results: [tps(537.24)] } } };

async function run(
  world: Record<string, unknown>,
  env: Partial<RunEnv> = {},
  standinEnv: Record<string, string | undefined> = {},
  keep = false,
  secretsProvider?: string,
) {
  const { selectMs, ...stacks } = world;
  s = standin({ stacks, ...(selectMs === undefined ? {} : { selectMs }) }, standinEnv);
  const workDir = createRunWorkDir(s.project, "ceph-nitro", "r1", s.workRoot);
  const ws = await automationWorkspace(workDir, undefined, { secretsProvider });
  const rep = memoryReporter();
  const resultsRoot = path.join(s.dir, "results");
  const plan = cephPlan({ workDir, keep, policyPacks: ["/project/lab/policy/pack"] });
  const out = await runScenario({
    preflight: async () => ({ problems: [], run: { plan, workspace: ws } }),
    reporter: rep,
    saveResults: (stack, o) => saveStackOutputs(resultsRoot, stack, o),
    retryDelayMs: 0,
    progressIntervalMs: 0,
    ...env,
  });
  return { out, rep, workDir, resultsRoot, st: s };
}

describe("lab run on the Automation API against the stand-in Pulumi CLI", () => {
  test("success: results saved, every stack destroyed; no file in the project; stack select/init never overlap; the policy pack on every up", async () => {
    const r = await run({ dev: { ...OK.dev, upMs: 1500 }, nitro: { ...OK.nitro, upMs: 1500 }, selectMs: 80 });
    expect(r.out.status).toBe("succeeded");
    expect(r.out.exitCode).toBe(EXIT.ok);
    expect(r.out.saved).toEqual([path.join(r.resultsRoot, "dev", "r1"), path.join(r.resultsRoot, "nitro", "r1")]);
    expect(JSON.parse(fs.readFileSync(path.join(r.resultsRoot, "nitro", "r1", "samples.json"), "utf8"))[0].value).toBe(537.24);
    // item 2: the project holds its Pulumi.yaml only
    expect(fs.readdirSync(r.st.project)).toEqual(["Pulumi.yaml"]);
    // item 3: dev and nitro are set up one at a time (each select/init takes 80 ms in the stand-in)
    expect(r.st.overlaps()).toEqual([]);
    const writes = workspaceWrites(r.st.trace());
    expect(writes.map((w) => w[2])).toEqual(
      expect.arrayContaining([
        "stack select organization/storage-bench-lab/u-r1-dev",
        "stack init organization/storage-bench-lab/u-r1-nitro",
      ]),
    );
    for (let i = 1; i < writes.length; i++) expect(writes[i][0]).toBeGreaterThanOrEqual(writes[i - 1][1]);
    // ... while the ups of dev and nitro still overlap
    const ups = r.st.trace().filter((t) => t.cmd === "up");
    const span = (st: string) => ups.filter((t) => t.stack.endsWith(st)).map((t) => t.ms);
    expect(span("-dev")[0]).toBeLessThan(span("-nitro")[1]);
    expect(span("-nitro")[0]).toBeLessThan(span("-dev")[1]);
    // item 7: every up enforced the pack
    expect(r.st.policyLog().sort()).toEqual(
      ["u-r1-compare", "u-r1-dev", "u-r1-network", "u-r1-nitro"].map((n) => `${n} /project/lab/policy/pack`),
    );
  });

  test("--keep: the stacks' Pulumi.<stack>.yaml are in the run's work directory, none in the project", async () => {
    const r = await run(OK, {}, {}, true);
    expect(r.out.status).toBe("kept");
    expect(fs.readdirSync(r.st.project)).toEqual(["Pulumi.yaml"]);
    expect(fs.readdirSync(r.workDir).sort()).toEqual([
      "Pulumi.u-r1-compare.yaml",
      "Pulumi.u-r1-dev.yaml",
      "Pulumi.u-r1-network.yaml",
      "Pulumi.u-r1-nitro.yaml",
      "Pulumi.yaml",
      "program",
    ]);
    expect(fs.readFileSync(path.join(r.workDir, "Pulumi.u-r1-dev.yaml"), "utf8")).toContain('  lab:kind: "ceph-k0s"');
    expect(r.out.report).toContain(`finish with, in ${r.workDir}:`);
  });

  test("a resource error: the CLI's diagnostics in the failure and the report, not 'code: -2'; stderr streamed to the log", async () => {
    const r = await run({ ...OK, dev: { failUp: { stdout: SSH, stderr: "error: update failed" } } });
    expect(r.out.status).toBe("failed");
    expect(r.out.stage).toBe("up dev");
    expect(r.out.error).toBe("command:remote:Command (dev-k0sctl-apply): error: ssh: handshake failed: dial tcp 10.0.1.12:22: i/o timeout");
    expect(r.out.report[0]).toBe(
      "== run ceph-nitro r1: failed at up dev: command:remote:Command (dev-k0sctl-apply): error: ssh: handshake failed: dial tcp 10.0.1.12:22: i/o timeout",
    );
    expect(r.rep.lines.join("\n")).not.toContain("code: -2");
    expect(r.rep.outputs).toContain("[dev up] error: update failed\n");
    expect([...r.out.destroyed].sort()).toEqual(["dev", "network", "nitro"]);
  });

  test("a missing passphrase on a self-managed backend: the CLI's error line from stack init", async () => {
    const r = await run(OK, {}, { PULUMI_CONFIG_PASSPHRASE: undefined });
    expect(r.out.stage).toBe("up network");
    expect(r.out.error).toBe(
      'error: constructing secrets manager of type "passphrase": passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables',
    );
    expect(r.out.created).toEqual([]);
  });

  test("--secrets-provider awskms://…: every stack is created with it (pulumi stack init --secrets-provider), and no passphrase is asked", async () => {
    const kms = "awskms://alias/lab-secrets?region=us-east-1";
    const r = await run(OK, {}, { PULUMI_CONFIG_PASSPHRASE: undefined }, true, kms);
    expect(r.out.status).toBe("kept");
    const providers = fs
      .readdirSync(path.join(r.st.state, "stacks"))
      .map((f) => JSON.parse(fs.readFileSync(path.join(r.st.state, "stacks", f), "utf8")) as { name: string; secretsProvider?: string })
      .map((st) => [st.name.split("/").pop(), st.secretsProvider]);
    expect(providers.sort()).toEqual([
      ["u-r1-compare", kms],
      ["u-r1-dev", kms],
      ["u-r1-network", kms],
      ["u-r1-nitro", kms],
    ]);
  });

  test("partial results: the stack whose up failed has what its completed collectors returned saved before the destroy", async () => {
    const pgbench = fs.readFileSync(path.resolve(__dirname, "..", "..", "fixtures", "pgbench", "tpcb-15.txt"), "utf8");
    const log = `progress\n=== LAB-RESULT-BEGIN tool=pgbench rep=1 version=15.18 scale=2 ===\n${pgbench}=== LAB-RESULT-END tool=pgbench rep=1 ===\n`;
    const collector = {
      urn: "urn:pulumi:u-r1-dev::storage-bench-lab::command:local:Command::dev-pgbench-collect-$runId",
      type: "command:local:Command",
      custom: true,
      outputs: { stdout: log },
    };
    let seenAtDestroy: string[] = [];
    const r = await run(
      {
        ...OK,
        dev: {
          failUp: { stdout: "kubernetes:batch/v1:Job (dev-fio):\n    error: Job failed: BackoffLimitExceeded" },
          stateResources: [collector],
        },
      },
      {
        savePartial: async (stack, fq, runId) => {
          const { savePartialResults } = await import("../../../lab/run/partial");
          const ws = await automationWorkspace(createRunWorkDir(s!.project, "ceph-nitro", "r1", s!.workRoot));
          const dir = savePartialResults(await ws.exportStack(fq), path.join(s!.dir, "results"), stack, runId);
          seenAtDestroy = s!
            .trace()
            .filter((t) => t.cmd === "destroy")
            .map((t) => t.stack);
          return dir;
        },
      },
    );
    expect(r.out.stage).toBe("up dev");
    expect(seenAtDestroy).toEqual([]);
    const dir = path.join(r.resultsRoot, "dev", "r1");
    expect(r.out.saved).toContain(dir);
    const samples = JSON.parse(fs.readFileSync(path.join(dir, "samples.json"), "utf8"));
    const t = samples.find((x: { metric: string }) => x.metric === "pgbench.tps");
    expect(t.value).toBe(1644.801001);
    expect(t.metadata).toMatchObject({ partial: true, collector: "dev-pgbench-collect-r1", stack: "dev", runId: "r1", rep: 1, scale: 2 });
    expect(fs.readdirSync(path.join(dir, "raw"))).toEqual(["dev-pgbench-rep1.txt"]);
    expect(r.rep.lines).toContain(`          results dev          PARTIAL (its up failed): what completed saved to ${dir}`);
  });

  test("Ctrl-C: SIGINT reaches the CLI, which cancels; the wait is explained; a second Ctrl-C names pulumi cancel, refresh --clear-pending-creates and lab janitor", async () => {
    const interrupts = new EventEmitter();
    let sent = false;
    const r = await run(
      { ...OK, dev: { upMs: 4000, resources: 4 }, nitro: { upMs: 4000, resources: 4 }, network: { destroyMs: 4000, resources: 4 } },
      {
        interrupts,
        reporter: {
          ...memoryReporter(),
          line: (t) => {
            lines.push(t);
            if (!sent && /up +dev +running/.test(t)) {
              sent = true;
              interrupts.emit("cancel");
            }
            if (/destroy network +started/.test(t)) interrupts.emit("stop");
          },
          output: (st, op, t) => outputs.push(`[${st} ${op}] ${t}`),
        },
      },
    );
    expect(lines).toContain(
      "  (a cancelled operation first waits for the cloud operations already running: an FSx file system create can take 40 minutes)",
    );
    expect(outputs.join("")).toContain("^C received; cancelling. If you would like to terminate immediately, press ^C again.");
    expect(r.out.status).toBe("stopped");
    // the stopped destroy is not awaited by the runner: let its CLI process finish before the next test
    for (
      let i = 0;
      i < 150 && r.st.trace().filter((t) => t.phase === "start").length > r.st.trace().filter((t) => t.phase === "end").length;
      i++
    )
      await new Promise((res) => setTimeout(res, 100));
    expect(r.out.report).toEqual(
      expect.arrayContaining([
        "  pulumi cancel --yes --stack <stack> (Pulumi Cloud backend) releases the lock; pulumi refresh --clear-pending-creates --yes --stack <stack> clears the pending creates",
        "  (they are resources that may exist in AWS without being in the state: look for them by their lab:stack tag); lab janitor lists every lab stack left over",
      ]),
    );
  });
});

const lines: string[] = [];
const outputs: string[] = [];
