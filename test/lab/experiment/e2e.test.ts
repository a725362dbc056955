/**
 * `lab experiment` end to end, nothing of the lab faked: the CLI's function reads the stack's
 * outputs with a `pulumi` executable, talks to a Kubernetes API server over HTTP with the real
 * @kubernetes/client-node and to an FSx endpoint with the real AWS SDK (./e2e-child.ts says how,
 * and why in a child process). The simulated world behind both runs on the real clock.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { readRunResults } from "../../../lab/results/files";
import { fioManifests, writerManifests } from "../../../lab/experiment/manifests";
import { fioMaxRuntimeSeconds, FSX_FAILOVER_DEFAULTS } from "../../../lab/experiment/fsx-failover";
import { MYSQL_FAILOVER_DEFAULTS, writerMaxSeconds } from "../../../lab/experiment/mysql-failover";
import { readExperimentScripts } from "../../../lab/experiment/scripts";
import { ROOT } from "../../helpers/root";
import type { ApiRequest } from "./apiserver";
import { FS_ID } from "./sim";
import { removeTmpDirs, tmpDir, TOOLS_IMAGE } from "./support";

interface ChildResult {
  code: number;
  out: string;
  err: string;
  requests: ApiRequest[];
  tokens: Array<{ user: string; expirationSeconds: unknown }>;
  fsx: string[];
  leftovers: {
    cordoned: string[];
    jobs: string[];
    configMaps: string[];
    claims: string[];
    pods: string[];
    throughput: number;
    pendingUpdates: number;
  };
  lost: number[];
  pulumiArgs: string;
}

function runChild(experiment: string, scenario: string, work: string, mode?: "step"): ChildResult {
  const args = [path.join(__dirname, "e2e-child.ts"), experiment, scenario, work, ...(mode ? [mode] : [])];
  const r = spawnSync(process.execPath, ["-r", "tsx/cjs", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  const line = r.stdout.split("\n").find((l) => l.startsWith("E2E-RESULT "));
  if (line === undefined) throw new Error(`the child printed no result (status ${r.status}): ${r.stderr}`);
  return JSON.parse(line.slice("E2E-RESULT ".length)) as ChildResult;
}

const CLEAN = { cordoned: [], jobs: [], configMaps: [], claims: [], pods: [], throughput: 512, pendingUpdates: 0 };
const scripts = readExperimentScripts();
const work = () => tmpDir("lab-e2e-");
afterAll(removeTmpDirs);
const requestsOf = (r: ChildResult, method: string, prefix: string) =>
  r.requests.filter((q) => q.method === method && q.path.startsWith(prefix));

/**
 * The run's identities: the admin kubeconfig made exactly one request, the TokenRequest of the
 * experiment's ServiceAccount (one hour), and every other request went out with that token and
 * was allowed by its grant (the API server enforces stacks/fsx-eks/experiment-access.ts).
 */
function expectNarrowIdentity(r: ChildResult, namespace: string, serviceAccount: string): void {
  const user = `system:serviceaccount:${namespace}:${serviceAccount}`;
  expect(r.requests.filter((q) => q.user === "admin").map((q) => `${q.method} ${q.path}`)).toEqual([
    `POST /api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token`,
  ]);
  expect(r.tokens).toEqual([{ user, expirationSeconds: 3600 }]);
  expect(r.requests.filter((q) => q.denied !== undefined).map((q) => q.denied)).toEqual([]);
  expect(r.requests.filter((q) => q.user !== "admin").every((q) => q.user === user)).toBe(true);
  expect(r.requests.length).toBeGreaterThan(10);
}

describe("lab experiment mysql-failover against an API server, with client-node", () => {
  let dir: string;
  let r: ChildResult;
  beforeAll(() => {
    dir = work();
    r = runChild("mysql-failover", "pass", dir);
  }, 120_000);

  test("passes and prints its report; the outputs came from `pulumi stack output --json --show-secrets`", () => {
    expect([r.code, r.err]).toEqual([0, ""]);
    const report = r.out.trimEnd().split("\n").slice(-4);
    expect(report[0]).toMatch(/^== mysql-failover r1 on organization\/storage-bench-lab\/fsx-eks: passed \(\d+s\)$/);
    expect(report.slice(1)).toEqual([
      `results: ${path.join(dir, "results", "fsx-eks", "mysql-failover-r1")}`,
      "cleanup: uncordoned node ip-10-0-1-10.ec2.internal; uncordoned node ip-10-0-1-20.ec2.internal; deleted Job mysql/mysql-failover-writer-r1 and its pod; deleted ConfigMap mysql/mysql-failover-r1",
      "left: nothing",
    ]);
    expect(r.pulumiArgs).toBe("stack output --json --show-secrets --stack organization/storage-bench-lab/fsx-eks\n");
    expect(r.leftovers).toEqual(CLEAN);
  });

  test("as its own ServiceAccount: the admin kubeconfig only requested its token; RBAC allowed every call", () => {
    expectNarrowIdentity(r, "mysql", "lab-mysql-failover");
  });

  test("the requests client-node sent: the rendered Job, merge patches for cordon, uncordon and the stop, a Background delete", () => {
    const [job] = requestsOf(r, "POST", "/apis/batch/v1/namespaces/mysql/jobs");
    const expected = writerManifests(
      {
        namespace: "mysql",
        runId: "r1",
        host: "mysql-0.mysql.mysql.svc.cluster.local",
        passwordSecret: { name: "mysql-writer", key: "password" },
        intervalMs: 50,
        maxSeconds: writerMaxSeconds({
          ...MYSQL_FAILOVER_DEFAULTS,
          writerIntervalMs: 50,
          baselineMs: 1_000,
          minBaselineAcks: 5,
          pollMs: 100,
        }),
        readbackSeconds: 300,
        replicaHosts: ["mysql-1.mysql.mysql.svc.cluster.local", "mysql-2.mysql.mysql.svc.cluster.local"],
        replicaWaitSeconds: 60,
      },
      scripts,
    );
    expect(job.body).toEqual(expected.job);
    expect(requestsOf(r, "POST", "/api/v1/namespaces/mysql/configmaps")[0].body).toEqual(expected.configMap);
    expect(requestsOf(r, "PATCH", "/api/v1/nodes/").map((q) => [q.path, q.contentType, q.body])).toEqual([
      ["/api/v1/nodes/ip-10-0-1-10.ec2.internal", "application/merge-patch+json", { spec: { unschedulable: true } }],
      ["/api/v1/nodes/ip-10-0-1-20.ec2.internal", "application/merge-patch+json", { spec: { unschedulable: true } }],
      ["/api/v1/nodes/ip-10-0-1-10.ec2.internal", "application/merge-patch+json", { spec: { unschedulable: false } }],
      ["/api/v1/nodes/ip-10-0-1-20.ec2.internal", "application/merge-patch+json", { spec: { unschedulable: false } }],
    ]);
    expect(requestsOf(r, "PATCH", "/api/v1/namespaces/mysql/pods/").map((q) => [q.path, q.contentType, q.body])).toEqual([
      [
        "/api/v1/namespaces/mysql/pods/mysql-failover-writer-r1-x7k2q",
        "application/merge-patch+json",
        { metadata: { annotations: { "lab/stop": "true" } } },
      ],
    ]);
    expect(requestsOf(r, "DELETE", "/").map((q) => q.path)).toEqual([
      "/api/v1/namespaces/mysql/pods/mysql-0",
      "/apis/batch/v1/namespaces/mysql/jobs/mysql-failover-writer-r1?propagationPolicy=Background",
      "/api/v1/namespaces/mysql/configmaps/mysql-failover-r1",
    ]);
    expect(
      requestsOf(r, "GET", "/api/v1/namespaces/mysql/pods?").every(
        (q) => q.path === "/api/v1/namespaces/mysql/pods?labelSelector=batch.kubernetes.io%2Fjob-name%3Dmysql-failover-writer-r1",
      ),
    ).toBe(true);
  });

  test("the samples on disk; a second run under the same run id is refused (exit 2) before anything is touched", () => {
    const saved = readRunResults(path.join(dir, "results", "fsx-eks", "mysql-failover-r1"));
    expect(saved.samples.map((s) => s.metric)).toEqual([
      "failover.rows.before",
      "failover.rows.after",
      "failover.rows.lost",
      "failover.recovery",
      "failover.outage",
      "failover.writes.failed",
      "failover.replicas.replicating",
    ]);
    expect(saved.samples.find((s) => s.metric === "failover.rows.lost")!.value).toBe(0);
    const again = runChild("mysql-failover", "pass", dir);
    expect([again.code, again.out, again.requests]).toEqual([2, "", []]);
    expect(again.err).toBe(
      `${path.join(dir, "results", "fsx-eks", "mysql-failover-r1")} already exists: mysql-failover has run under run id r1; give a new --run-id (results are written once)\n`,
    );
  });
});

test("lab experiment mysql-failover: lost acknowledged rows fail it (exit 1), naming them", () => {
  const r = runChild("mysql-failover", "lost", work());
  expect(r.code).toBe(1);
  expect(r.lost.length).toBe(2);
  expect(r.out).toContain(
    `FAILED at "verify the rows and the replicas": 2 acknowledged row(s) lost: id(s) ${r.lost.join(", ")} of run r1 were committed (the writer's INSERT succeeded) and are not in lab_failover.writes after mysql-0 moved from us-east-1a to us-east-1b`,
  );
  expect(r.leftovers).toEqual(CLEAN);
}, 120_000);

describe("lab experiment fsx-failover against the API server and an FSx endpoint, with client-node and the AWS SDK", () => {
  test("passes: the lever and the restore through UpdateFileSystem, fio's objects created and deleted, the throughput back at 512", () => {
    const dir = work();
    const r = runChild("fsx-failover", "pass", dir);
    expect(r.code).toBe(0);
    expectNarrowIdentity(r, "bench", "lab-fsx-failover");
    expect(r.out.trimEnd().split("\n").slice(-2)).toEqual([
      `cleanup: restored the throughput capacity of ${FS_ID} to 512 MB/s (from 1024 MB/s); deleted Job bench/fsx-failover-fio-r1 and its pod; deleted claim bench/fsx-failover-r1 (Trident deletes its volume); deleted ConfigMap bench/fsx-failover-r1`,
      "left: nothing",
    ]);
    expect(r.fsx.filter((o) => o.startsWith("UpdateFileSystem"))).toEqual([
      `UpdateFileSystem {"FileSystemId":"${FS_ID}","ClientRequestToken":"lab-r1-lever","OntapConfiguration":{"ThroughputCapacity":1024}}`,
      `UpdateFileSystem {"FileSystemId":"${FS_ID}","ClientRequestToken":"lab-r1-restore","OntapConfiguration":{"ThroughputCapacity":512}}`,
    ]);
    const expected = fioManifests(
      {
        namespace: "bench",
        runId: "r1",
        image: TOOLS_IMAGE,
        storageClass: "fsx-ontap-nas",
        volumeGiB: 100,
        fileSize: "4G",
        maxRuntimeSeconds: fioMaxRuntimeSeconds({ ...FSX_FAILOVER_DEFAULTS, beforeMs: 500, afterMs: 500, pollMs: 100, fsxPollMs: 200 }),
      },
      scripts,
    );
    expect(requestsOf(r, "POST", "/").map((q) => [q.path, q.body])).toEqual([
      ["/api/v1/namespaces/bench/serviceaccounts/lab-fsx-failover/token", { spec: { audiences: [], expirationSeconds: 3600 } }],
      ["/api/v1/namespaces/bench/configmaps", expected.configMap],
      ["/api/v1/namespaces/bench/persistentvolumeclaims", expected.claim],
      ["/apis/batch/v1/namespaces/bench/jobs", expected.job],
    ]);
    expect(r.leftovers).toEqual(CLEAN);
    const saved = readRunResults(path.join(dir, "results", "fsx-eks", "fsx-failover-r1"));
    expect(saved.samples.find((s) => s.metric === "failover.io.errors")!.value).toBe(0);
    expect(saved.samples.filter((s) => s.metric === "failover.update.duration").map((s) => s.metadata.action)).toEqual([
      "change",
      "restore",
    ]);
  }, 120_000);

  test("fio's verify failure fails it (exit 1), naming the block; the throughput is restored all the same", () => {
    const r = runChild("fsx-failover", "fio-error", work());
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "verify failed: verify: bad magic header eec5, wanted acca at file /tmp/fcap/data offset 11485184, length 4096 (requested block: offset=11485184, length=4096); fio exited with status 1",
    );
    expect(r.out).toContain(`cleanup: restored the throughput capacity of ${FS_ID} to 512 MB/s (from 1024 MB/s)`);
    expect(r.leftovers).toEqual(CLEAN);
  }, 120_000);
});

describe("as a step of lab run (lab/run/experiments.ts), with its default clients: client-node and the AWS SDK, loaded when the step runs", () => {
  test("mysql-failover then fsx-failover pass on the outputs an up returned; results beside the stack's benchmarks", () => {
    const dir = work();
    const m = runChild("mysql-failover", "pass", dir, "step");
    expect([m.code, m.err]).toEqual([0, ""]);
    expectNarrowIdentity(m, "mysql", "lab-mysql-failover");
    expect(m.out).toMatch(/^== mysql-failover r1 on fsx-eks: passed \(\d+s\)$/m);
    expect(m.pulumiArgs).toBe(""); // the outputs came from the run, not from `pulumi stack output`
    expect(m.leftovers).toEqual(CLEAN);
    const f = runChild("fsx-failover", "pass", dir, "step");
    expect([f.code, f.err]).toEqual([0, ""]);
    expect(f.fsx.filter((o) => o.startsWith("UpdateFileSystem")).length).toBe(2);
    expect(f.leftovers).toEqual(CLEAN);
    for (const e of ["mysql-failover", "fsx-failover"])
      expect(readRunResults(path.join(dir, "results", "fsx-eks", `${e}-r1`)).samples.length).toBeGreaterThan(0);
  }, 240_000);

  test("lost rows fail the step with the experiment's own words", () => {
    const r = runChild("mysql-failover", "lost", work(), "step");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^mysql-failover failed: 2 acknowledged row\(s\) lost: id\(s\) \d+, \d+ of run r1 were committed/);
    expect(r.leftovers).toEqual(CLEAN);
  }, 120_000);
});
