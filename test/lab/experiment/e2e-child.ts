/**
 * The end-to-end test's child process (run with Node's tsx hook, as bin/lab.js runs the CLI: Jest
 * cannot load @kubernetes/client-node, an ES module). It runs `lab experiment` through its own
 * function, lab/cli/experiment.ts `experimentAction`, with nothing faked inside the lab:
 * - the stack's outputs come from a `pulumi` executable on disk that prints them
 *   (`pulumi stack output --json --show-secrets --stack …`),
 * - the cluster is a Kubernetes API server over HTTP (./apiserver.ts) that the real
 *   @kubernetes/client-node talks to with the kubeconfig from those outputs,
 * - FSx is an HTTP endpoint (./fsx-http.ts) that the real AWS SDK reaches through
 *   `AWS_ENDPOINT_URL_FSX` with static credentials from the environment,
 * on a simulated world that runs on the real clock with short delays.
 *
 * argv: <experiment> <scenario: pass | lost | fio-error> <work dir> [step]. With `step`, the
 * experiment runs as `lab run` runs it, a step of a run (lab/run/experiments.ts
 * `experimentStepRunner` with its default cluster and FSx clients), on the outputs an `up` returned;
 * its exit code is 0 when the step is ok, 1 otherwise, and its error goes to stderr. Prints one line
 * `E2E-RESULT <json>`: the exit code, stdout, stderr, the API requests, the FSx operations, what
 * the world holds afterwards and the `pulumi` arguments.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { experimentAction } from "../../../lab/cli/experiment";
import { realTime } from "../../../lab/experiment/steps";
import { experimentStepRunner } from "../../../lab/run/experiments";
import { ROOT } from "../../helpers/root";
import { kubeconfigFor, serveKubernetes } from "./apiserver";
import { serveFsx } from "./fsx-http";
import { DEFAULT_WORLD, World } from "./sim";
import { OUTPUTS } from "./support";

async function main(): Promise<void> {
  const [experiment, scenario, work, mode] = process.argv.slice(2);
  const world = new World({
    ...DEFAULT_WORLD,
    podStartMs: 200,
    annotationDelayMs: 200,
    mysqlTerminateMs: 200,
    mysqlScheduleMs: 100,
    mysqlReadyMs: 500,
    loseOnDelete: scenario === "lost" ? 2 : 0,
    ...(scenario === "fio-error" ? { fioVerifyFailsAfterMs: 1_200 } : {}),
    fsx: { ...DEFAULT_WORLD.fsx, pendingMs: 300, inProgressMs: 1_500, failoverAfterMs: 300, failbackAfterMs: 900, stallMs: 1_000 },
  });
  const now = () => Date.now();
  const api = await serveKubernetes(world, now);
  const fsx = await serveFsx(world, now);
  const outputs = { ...OUTPUTS, kubeconfig: kubeconfigFor(api.url), results: [], expiresAt: "2026-01-15T18:00:00Z" };
  fs.writeFileSync(path.join(work, "outputs.json"), JSON.stringify(outputs));
  const pulumi = path.join(work, "pulumi");
  fs.writeFileSync(pulumi, `#!/bin/sh\nprintf '%s\\n' "$*" >> "${work}/pulumi-args"\ncat "${work}/outputs.json"\n`, { mode: 0o755 });
  process.env.AWS_ENDPOINT_URL_FSX = fsx.endpoint;
  process.env.AWS_ACCESS_KEY_ID = "AKIDEXAMPLE";
  process.env.AWS_SECRET_ACCESS_KEY = "secret";
  let out = "";
  let err = "";
  const timings = {
    mysql: { writerIntervalMs: 50, baselineMs: 1_000, minBaselineAcks: 5, pollMs: 100 },
    fsx: { beforeMs: 500, afterMs: 500, pollMs: 100, fsxPollMs: 200 },
  };
  const asStep = async (): Promise<number> => {
    const run = experimentStepRunner({
      resultsRoot: path.join(work, "results"),
      env: { ...realTime, line: (t) => (out += `${t}\n`) },
      mysql: timings.mysql,
      fsxOptions: timings.fsx,
    });
    const never = new AbortController().signal;
    const r = await run(
      { kind: experiment as "mysql-failover" | "fsx-failover", stack: "fsx-eks" },
      {
        fqName: "organization/storage-bench-lab/u-r1-fsx-eks",
        runId: "r1",
        outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { value: v, secret: k === "kubeconfig" }])),
        abort: never,
        stop: never,
      },
    );
    if (r.error !== undefined) err += `${r.error}\n`;
    return r.ok ? 0 : 1;
  };
  const code = mode === "step" ? await asStep() : await experimentAction(
    experiment,
    {
      stack: "organization/storage-bench-lab/fsx-eks",
      runId: "r1",
      results: "results",
      pulumi,
      timings,
    },
    ROOT,
    work,
    new Date(),
    { out: (s) => (out += s), err: (s) => (err += s) },
  );
  await api.close();
  await fsx.close();
  const result = {
    code,
    out,
    err,
    requests: api.requests,
    tokens: api.tokens,
    fsx: fsx.operations,
    leftovers: world.leftovers(),
    lost: world.lost,
    pulumiArgs: fs.existsSync(path.join(work, "pulumi-args")) ? fs.readFileSync(path.join(work, "pulumi-args"), "utf8") : "",
  };
  process.stdout.write(`E2E-RESULT ${JSON.stringify(result)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(99);
});
