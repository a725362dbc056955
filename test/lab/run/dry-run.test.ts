/** `lab run <scenario> --dry-run`: offline schedule, parallelism, critical path and cost. */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { BENCH_ESTIMATES, benchmarkSeconds, estimateStack, experimentSeconds, PHASES } from "../../../lab/run/durations";
import { renderSchedule, schedule, totalLine, type Schedule } from "../../../lab/run/schedule";
import type { PlannedResource, StackPlan } from "../../../lab/plan/run";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const lab = (...args: string[]) =>
  spawnSync(process.execPath, ["--require", "tsx/cjs", path.join(__dirname, "harness.ts"), ...args], { cwd: ROOT, encoding: "utf8" });

const res = (type: string, inputs: Record<string, unknown> = {}): PlannedResource => ({
  urn: `urn:${type}`,
  type,
  name: type,
  parent: null,
  inputs,
  dependencies: [],
  custom: true,
  provider: null,
});
const job = (env: Record<string, string>) =>
  res("kubernetes:batch/v1:Job", {
    spec: { template: { spec: { containers: [{ env: Object.entries(env).map(([name, value]) => ({ name, value })) }] } } },
  });
const plan = (stack: string, resources: PlannedResource[]): StackPlan => ({
  stack,
  kind: "x",
  config: { "aws:region": "us-east-1" },
  resources,
  outputs: {},
});

describe("durations", () => {
  test("each benchmark's own duration from its Job: profile, repetitions, durations and the bench overheads", () => {
    // pgbench: scale × 0.6 s init + reps × (duration + 120 s)
    expect(benchmarkSeconds(job({ PGBENCH_DURATION: "300", PGBENCH_SCALE: "1000", PGBENCH_INIT: "auto", REPS: "3" }))).toEqual({
      tool: "pgbench",
      seconds: 1000 * BENCH_ESTIMATES.pgbenchInitSecondsPerScale + 3 * (300 + 120),
    });
    // fio suite: 6 jobs × (ramp 10 + runtime 60) + layout 60 + 10, per repetition
    expect(benchmarkSeconds(job({ FIO_PROFILE: "suite", FIO_RUNTIME: "60", FIO_RAMP: "10", REPS: "2" }))).toEqual({
      tool: "fio suite",
      seconds: 2 * (6 * 70 + 60 + 10),
    });
    // fio seed: the table's repetition + layout 60 + 10
    expect(benchmarkSeconds(job({ FIO_PROFILE: "seed", REPS: "3" }))).toEqual({ tool: "fio seed", seconds: 3 * (90 + 60 + 10) });
    // ioping: count × interval + 30 s
    expect(benchmarkSeconds(job({ IOPING_COUNT: "100", IOPING_INTERVAL: "1000ms", REPS: "3" }))).toEqual({
      tool: "ioping",
      seconds: 3 * (100 + 30),
    });
    expect(benchmarkSeconds(job({ SOMETHING: "else" }))).toBeUndefined();
  });

  test("an OMB cell: its workload's testDurationMinutes from the ConfigMap it mounts, OMB's 1 min warm-up and the cell's overhead, per repetition", () => {
    const cm = res("kubernetes:core/v1:ConfigMap", { data: { "workload.yaml": "name: x\ntopics: 4\ntestDurationMinutes: 5\n" } });
    const cell = job({ DRIVER_FILE: "/config/driver-kafka-sync-rf3.yaml", WORKLOAD_FILE: "/config/workload.yaml", REPS: "2" });
    expect(benchmarkSeconds(cell, [cm, cell])).toEqual({ tool: "omb kafka-sync-rf3", seconds: 2 * ((1 + 5) * 60 + 120) });
    // no workload file in the plan: no figure made up
    expect(benchmarkSeconds(cell, [cell])).toBeUndefined();
  });

  test("kafka: Strimzi, the Kafka cluster, the NFS directory Job and the OMB workers in a row; the OMB image beside them", () => {
    const e = estimateStack(
      plan("kafka", [
        res("lab:strimzi:StrimziOperator"),
        res("lab:kafka:KafkaCluster"),
        res("lab:omb:OmbImage"),
        res("lab:omb:OmbBenchmark"),
        job({ VOLUME_MOUNTS: "/volumes/0", BROKER_DIRS: "kafka-brokers-0", OWNER: "1001:0" }),
      ]),
    );
    expect(e.unknown).toEqual([]);
    // engine 1 + max(image 12, strimzi 2 + nfs 1 + kafka 6 + workers 2 = 11)
    expect(e.upSeconds).toBe((1 + 12) * 60);
    expect(e.parts).toEqual([
      "Pulumi engine 1m",
      "OMB image build (Maven, upstream's docker/Dockerfile.build) and push 12m",
      "Strimzi operator ready 2m",
      "NFS directory Job (a broker directory on each volume) 1m",
      "Kafka cluster Ready (KRaft controllers, then brokers on NFS) 6m",
      "OMB workers ready 2m",
    ]);
    expect(e.parallel).toMatch(
      /^OMB image build .* ∥ Strimzi operator ready, NFS directory Job .*, Kafka cluster Ready .*, OMB workers ready: an image needs only its ECR repository/,
    );
    expect([e.besideSeconds, e.restSeconds]).toEqual([12 * 60, 11 * 60]);
  });

  test("eks with lab:images: the images beside the control plane, the node groups and Trident; no benchmark Jobs to wait for them", () => {
    const e = estimateStack(
      plan("eks", [res("lab:eks:EksCluster"), res("lab:trident:TridentOperator"), res("lab:image:ToolsImage"), res("lab:omb:OmbImage")]),
    );
    expect(e.unknown).toEqual([]);
    // engine 1 + max(images 5 + 12, control plane 12 + node groups 4 + Trident 4)
    expect(e.upSeconds).toBe((1 + 20) * 60);
    // every phase is destroyed: 1 + 8 + 4 + 1 + 1 + 1
    expect(e.destroySeconds).toBe(16 * 60);
    expect(e.parallel).toBe(
      "tools image build and push, OMB image build (Maven, upstream's docker/Dockerfile.build) and push ∥ EKS control plane, EKS managed node groups (in parallel), Trident operator and FSx backend: an image needs only its ECR repository and the local Docker daemon (no cluster, no file system), so Pulumi builds it while the rest is created",
    );
    expect([e.besideSeconds, e.restSeconds]).toEqual([17 * 60, 20 * 60]);
  });

  test("the failover experiments' durations: their own fixed times plus estimates", () => {
    // 60 + 20 + 180 + 120 s; 120 + 120 + 900 + 60 + 900 + 60 s
    expect([experimentSeconds("mysql-failover"), experimentSeconds("fsx-failover")]).toEqual([380, 2160]);
  });

  test("phases found by resource type: FSx ONTAP Multi-AZ, EKS control plane and node groups", () => {
    const e = estimateStack(plan("fsx", [res("aws:fsx/ontapFileSystem:OntapFileSystem", { deploymentType: "MULTI_AZ_1" })]));
    expect(e.upSeconds).toBe((PHASES.engine.upMinutes + PHASES.fsxOntapMultiAz.upMinutes) * 60);
    expect(e.parts).toEqual(["Pulumi engine 1m", "FSx for ONTAP Multi-AZ file system 40m"]);
    const k = estimateStack(
      plan("eks", [
        res("aws:eks/cluster:Cluster"),
        res("aws:eks/nodeGroup:NodeGroup"),
        res("aws:eks/nodeGroup:NodeGroup"),
        res("lab:trident:Trident"),
      ]),
    );
    expect(k.upSeconds).toBe((1 + 12 + 4) * 60);
    expect(k.destroySeconds).toBe((1 + 8 + 4) * 60);
    expect(k.unknown).toEqual(["lab:trident:Trident"]);
  });
});

describe("schedule", () => {
  // The fsx-eks shape: network → fsx-ontap ∥ eks → fsx-eks (with a fio benchmark).
  const plans = new Map<string, StackPlan>([
    ["network", plan("network", [res("aws:ec2/natGateway:NatGateway")])],
    ["fsx-ontap", plan("fsx-ontap", [res("aws:fsx/ontapFileSystem:OntapFileSystem", { deploymentType: "MULTI_AZ_1" })])],
    ["eks", plan("eks", [res("aws:eks/cluster:Cluster"), res("aws:eks/nodeGroup:NodeGroup")])],
    ["fsx-eks", plan("fsx-eks", [job({ FIO_PROFILE: "seed", REPS: "3" })])],
  ]);
  const ups = { network: [], "fsx-ontap": ["network"], eks: ["network"], "fsx-eks": ["fsx-ontap", "eks"] };
  const order = ["network", "fsx-ontap", "eks", "fsx-eks"];

  test("independent stacks in parallel; the critical path is the longest chain, not the sum", () => {
    const sch = schedule(order, ups, [], plans);
    const at = (op: string, s: string) => sch.slots.find((x) => x.op === op && x.stack === s)!;
    expect([at("up", "fsx-ontap").start, at("up", "eks").start]).toEqual([4 * 60, 4 * 60]);
    expect(at("up", "fsx-eks").start).toBe(at("up", "fsx-ontap").end); // FSx (41 min) outlasts EKS (17 min)
    expect(sch.critical.map((s) => `${s.op} ${s.stack}`)).toEqual([
      "up network",
      "up fsx-ontap",
      "up fsx-eks",
      "destroy fsx-eks",
      "destroy fsx-ontap",
      "destroy network",
    ]);
    // 4 + 41 + (1 + 8) + 1 + 16 + 3 minutes; all slots together: 4 + 41 + 17 + 9 + 1 + 13 + 16 + 3 = 104
    expect(sch.total).toBe((4 + 41 + 9 + 1 + 16 + 3) * 60);
    expect(sch.sum).toBeGreaterThan(sch.total);
    const text = renderSchedule("fsx-eks", "r1", sch, ups);
    expect(text).toContain("in parallel: fsx-ontap ∥ eks (after network: none of them reads another, so all start once network is up)");
    expect(text).toContain(
      "critical path (the longest chain): up network 4m → up fsx-ontap 41m → up fsx-eks 9m → destroy fsx-eks 1m → destroy fsx-ontap 16m → destroy network 3m = 74 min (the stacks' times add up to 104 min)",
    );
  });

  test("images built in the eks stack: beside its cluster, and off the critical path, which runs through the file system", () => {
    const withImage = new Map(plans);
    withImage.set("eks", plan("eks", [res("aws:eks/cluster:Cluster"), res("aws:eks/nodeGroup:NodeGroup"), res("lab:image:ToolsImage")]));
    const sch = schedule(order, ups, [], withImage);
    const text = renderSchedule("fsx-eks", "r1", sch, ups);
    expect(text.filter((l) => l.startsWith("in parallel within "))).toEqual([
      "in parallel within eks: tools image build and push ∥ EKS control plane, EKS managed node groups (in parallel): an image needs only its ECR repository and the local Docker daemon (no cluster, no file system), so Pulumi builds it while the rest is created; off the critical path: eks is up at 21; fsx-eks, which reads it, starts at 45, when fsx-ontap is up",
    ]);
    // the same wall time as without the image: 74 min
    expect(sch.total).toBe(74 * 60);
  });

  test("a stack on the critical path: its images are on it when they outlast the rest of the stack, off it otherwise", () => {
    const line = (resources: PlannedResource[]) => {
      const p2 = new Map([
        ["network", plan("network", [res("aws:ec2/natGateway:NatGateway")])],
        ["app", plan("app", resources)],
      ]);
      const u = { network: [], app: ["network"] };
      return renderSchedule("x", "r1", schedule(["network", "app"], u, [], p2), u).find((l) => l.startsWith("in parallel within "));
    };
    expect(line([res("lab:omb:OmbImage"), res("lab:strimzi:StrimziOperator")])).toBe(
      "in parallel within app: OMB image build (Maven, upstream's docker/Dockerfile.build) and push ∥ Strimzi operator ready: an image needs only its ECR repository and the local Docker daemon (no cluster, no file system), so Pulumi builds it while the rest is created; on the critical path: the images (12m) outlast the rest of app (2m)",
    );
    expect(
      line([
        res("lab:image:ToolsImage"),
        res("lab:trident:TridentOperator"),
        res("lab:mysql:MySql"),
        job({ FIO_PROFILE: "seed", REPS: "1" }),
      ]),
    ).toBe(
      "in parallel within app: tools image build and push ∥ Trident operator and FSx backend, MySQL StatefulSet ready: an image needs only its ECR repository and the local Docker daemon (no cluster, no file system), so Pulumi builds it while the rest is created; the benchmark Jobs wait for both; off the critical path: the rest of app (9m) outlasts the images (5m)",
    );
  });

  test("a rerun step repeats the benchmarks after the ups; each stack lives until its destroy ends", () => {
    const sch = schedule(order, ups, [{ kind: "rerun", stacks: ["fsx-eks"], times: 2 }], plans);
    const reruns = sch.slots.filter((s) => s.op === "rerun");
    expect(reruns.map((s) => [s.stack, s.note, s.end - s.start])).toEqual([
      ["fsx-eks", "run 2", 3 * 160 + 60],
      ["fsx-eks", "run 3", 3 * 160 + 60],
    ]);
    const upNet = sch.slots.find((s) => s.op === "up" && s.stack === "network")!;
    const destroyNet = sch.slots.find((s) => s.op === "destroy" && s.stack === "network")!;
    expect(sch.costs.find((c) => c.stack === "network")!.hours).toBe((destroyNet.end - upNet.start) / 3600);
  });
});

describe("the total", () => {
  const sch = (unpriced: number, unknown: string[]): Schedule => ({
    slots: [],
    total: 3600,
    critical: [],
    sum: 3600,
    costs: [{ stack: "a", usdPerHour: 2, hours: 1, usd: 2, unpriced }],
    estimates: new Map([["a", { upSeconds: 0, destroySeconds: 0, benchSeconds: 0, parts: [], unknown }]]),
  });
  test("≈ when every part is priced and timed; 'at least' on the same line, saying what is missing, otherwise", () => {
    expect(totalLine(sch(0, []))).toBe("  total ≈ $2.00 for 60 min; not estimated: data transfer, requests, usage-billed storage");
    expect(totalLine(sch(2, []))).toBe(
      "  total at least $2.00 for 60 min (2 part(s) not priced); not estimated: data transfer, requests, usage-billed storage",
    );
    expect(totalLine(sch(0, ["lab:x:Y"]))).toBe(
      "  total at least $2.00 for at least 60 min (no duration for lab:x:Y (counted as 0)); not estimated: data transfer, requests, usage-billed storage",
    );
  });
});

describe("lab run --dry-run (CLI)", () => {
  test("fsx-eks: both failover experiments after the benchmarks, on the critical path and in the cost; --skip-experiments leaves them out", () => {
    const r = lab("run", "fsx-eks", "--dry-run", "--run-id", "r1");
    expect([r.status, r.stderr]).toEqual([0, ""]);
    const lines = r.stdout.trimEnd().split("\n");
    const exp = lines.filter((l) => l.startsWith("  experiment "));
    expect(exp).toEqual([
      expect.stringMatching(
        /^ {2}experiment fsx-eks +\d+ → +\d+ {2}\(mysql-failover: writer Job started 1m, baseline writes 0m, mysql-0 moved to the other zone and Ready 3m, rows verified, cleanup 2m\)$/,
      ),
      expect.stringMatching(
        /^ {2}experiment fsx-eks +\d+ → +\d+ {2}\(fsx-failover: .*throughput change \(failover and failback\) 15m, .*throughput restored 15m, cleanup 1m\)$/,
      ),
    ]);
    const crit = lines.find((l) => l.startsWith("critical path")) as string;
    expect(crit).toMatch(/→ up fsx-eks \d+m → mysql-failover fsx-eks 6m → fsx-failover fsx-eks 36m → destroy fsx-eks /);
    // The tools image is built in fsx-eks-cluster, beside the cluster and the file system: off the critical path.
    expect(lines.find((l) => l.startsWith("  up      fsx-eks-cluster "))).toBe(
      "  up      fsx-eks-cluster    4 →   25  ∥ fsx-eks-ontap  (Pulumi engine 1m, EKS control plane 12m, EKS managed node groups (in parallel) 4m, tools image build and push 5m, Trident operator and FSx backend 4m)",
    );
    expect(lines.find((l) => l.startsWith("  up      fsx-eks "))).toMatch(
      /^ {2}up {6}fsx-eks +45 → +126 {2}\(Pulumi engine 1m, MySQL StatefulSet ready 5m, fio seed 8m, /,
    );
    expect(lines.filter((l) => l.startsWith("in parallel"))).toEqual([
      "in parallel: fsx-eks-ontap ∥ fsx-eks-cluster (after network: none of them reads another, so all start once network is up)",
      "in parallel within fsx-eks-cluster: tools image build and push ∥ EKS control plane, EKS managed node groups (in parallel), Trident operator and FSx backend: an image needs only its ECR repository and the local Docker daemon (no cluster, no file system), so Pulumi builds it while the rest is created; off the critical path: fsx-eks-cluster is up at 25; fsx-eks, which reads it, starts at 45, when fsx-eks-ontap is up",
    ]);
    expect(crit).toBe(
      "critical path (the longest chain): up network 4m → up fsx-eks-ontap 41m → up fsx-eks 81m → mysql-failover fsx-eks 6m → fsx-failover fsx-eks 36m → destroy fsx-eks 2m → destroy fsx-eks-ontap 16m → destroy network 3m = 189 min (the stacks' times add up to 225 min)",
    );
    expect(lines.slice(lines.indexOf(crit) + 1)).toEqual([
      "cost of the whole run (estimated hourly cost × the stack's lifetime in this schedule, us-east-1 list prices, lab/cost):",
      "  network         $0.1014/h × 3.16 h = $0.32",
      "  fsx-eks-ontap   $1.1942/h × 3.04 h = $3.63",
      "  fsx-eks-cluster $0.6952/h × 3.02 h = $2.10",
      "  fsx-eks         $0.0140/h × 2.09 h = $0.03",
      "  total ≈ $6.08 for 189 min; not estimated: data transfer, requests, usage-billed storage",
      "what the real run needs (its preflight checks them all before anything is created):",
      "  --admin-cidr <your address>/32 or --admin-cidr auto: fsx-eks-cluster holds a documentation placeholder (RFC 5737), which the run refuses",
      "  the Pulumi CLI 3.58.0 or newer, logged in; the AWS CLI with credentials for the account",
      "  kubectl on the PATH: fsx-eks-cluster, fsx-eks",
      "  a running Docker daemon: fsx-eks-cluster builds images on this machine",
    ]);
    const total = (out: string) => Number(/(\d+) min/.exec(out.split("\n").find((l) => l.startsWith("  total")) as string)![1]);
    const skipped = lab("run", "fsx-eks", "--dry-run", "--run-id", "r1", "--skip-experiments");
    expect(skipped.stdout).not.toContain("experiment ");
    expect(total(r.stdout) - total(skipped.stdout)).toBe(42); // 6 + 36 min
  });

  test("kafka-fsx: no part without a duration; four OMB cells of 8 min; the total says 'at least' while a part is unpriced", () => {
    const r = lab("run", "kafka-fsx", "--dry-run", "--run-id", "r1");
    expect([r.status, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).not.toContain("no duration");
    expect(r.stdout).not.toContain("counted as 0");
    const up = r.stdout.split("\n").find((l) => l.startsWith("  up      kafka ")) as string;
    for (const cell of ["kafka-sync-rf1", "kafka-sync-rf3", "kafka-throughput-rf1", "kafka-throughput-rf3"])
      expect(up).toContain(`omb ${cell} 8m`);
    expect(up).toMatch(
      /^ {2}up {6}kafka +45 → +89 {2}\(Pulumi engine 1m, Strimzi operator ready 2m, NFS directory Job \(a broker directory on each volume\) 1m, Kafka cluster Ready/,
    );
    // The OMB image is built in kafka-cluster, beside the cluster and the file system: off the critical path.
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.find((l) => l.startsWith("  up      kafka-cluster "))).toBe(
      "  up      kafka-cluster    4 →   21  ∥ kafka-ontap  (Pulumi engine 1m, EKS control plane 12m, EKS managed node groups (in parallel) 4m, OMB image build (Maven, upstream's docker/Dockerfile.build) and push 12m)",
    );
    expect(lines.filter((l) => l.startsWith("in parallel"))).toEqual([
      "in parallel: kafka-ontap ∥ kafka-cluster (after network: none of them reads another, so all start once network is up)",
      "in parallel within kafka-cluster: OMB image build (Maven, upstream's docker/Dockerfile.build) and push ∥ EKS control plane, EKS managed node groups (in parallel): an image needs only its ECR repository and the local Docker daemon (no cluster, no file system), so Pulumi builds it while the rest is created; off the critical path: kafka-cluster is up at 21; kafka, which reads it, starts at 45, when kafka-ontap is up",
    ]);
    expect(lines.find((l) => l.startsWith("critical path"))).toBe(
      "critical path (the longest chain): up network 4m → up kafka-ontap 41m → up kafka 44m → destroy kafka 5m → destroy kafka-ontap 16m → destroy network 3m = 113 min (the stacks' times add up to 144 min)",
    );
    expect(lines.slice(-11, -5)).toEqual([
      "cost of the whole run (estimated hourly cost × the stack's lifetime in this schedule, us-east-1 list prices, lab/cost):",
      "  network       $0.1014/h × 1.88 h = $0.19",
      "  kafka-ontap   $11.8568/h × 1.77 h = $20.95",
      "  kafka-cluster $4.8855/h × 1.73 h = $8.47",
      "  kafka         $0.0000/h × 0.82 h = $0.00",
      "  total ≈ $29.61 for 113 min; not estimated: data transfer, requests, usage-billed storage",
    ]);
    const total = r.stdout.split("\n").find((l) => l.startsWith("  total")) as string;
    expect(total).toMatch(/^ {2}total (≈|at least) \$\d+\.\d\d for \d+ min/);
    // "at least" exactly when a stack's line says a part is not priced (lab/cost prices FSx SSD IOPS elsewhere)
    const costs = r.stdout.split("\n").filter((l) => /^ {2}\S+ +\$\d+\.\d{4}\/h/.test(l));
    expect(costs).toHaveLength(4);
    expect(/^ {2}total at least /.test(total)).toBe(costs.some((l) => l.includes("not priced")));
  });

  test("ceph-nitro: dev and nitro in parallel after network, the critical path and the cost; offline", () => {
    const r = lab("run", "ceph-nitro", "--dry-run", "--run-id", "r1");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "lab run ceph-nitro --dry-run (run id r1): offline, nothing is created; times are estimates (lab/run/durations.ts)",
    );
    expect(lines).toContain("in parallel: dev ∥ nitro (after network: none of them reads another, so all start once network is up)");
    expect(lines.find((l) => l.startsWith("  up      dev "))).toMatch(
      /^ {2}up {6}dev {10}\s+4 → {3}\d+ {2}∥ nitro {2}\(Pulumi engine 1m, k0s: EC2 nodes, cloud-init, k0sctl apply 10m, Rook operator, Ceph to HEALTH_OK 10m, Postgres ready 3m, pgbench 31m\)$/,
    );
    expect(lines.find((l) => l.startsWith("  up      nitro "))).toMatch(/ {2}∥ dev {2}/);
    expect(lines.find((l) => l.startsWith("critical path"))).toBe(
      "critical path (the longest chain): up network 4m → up dev 55m → up compare 1m → destroy compare 1m → destroy dev 6m → destroy network 3m = 70 min (the stacks' times add up to 131 min)",
    );
    expect(lines.find((l) => l.startsWith("  total"))).toMatch(
      /^ {2}total ≈ \$\d+\.\d\d for 70 min; not estimated: data transfer, requests, usage-billed storage$/,
    );
    expect(lines.filter((l) => /^ {2}(network|dev|nitro|compare) +\$\d+\.\d{4}\/h × \d+\.\d\d h = \$\d+\.\d\d/.test(l))).toHaveLength(4);
  });

  test("a config error given with --set is reported with every other problem, exit 2; a bad --run-id once, under its option (the stacks planned with the default id)", () => {
    const r = lab("run", "ceph-nitro", "--dry-run", "--run-id", "R1", "--set", "dev.lab:pgbenchThreads=50", "--set", "oops");
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    const rule = "a run id of 1–20 lowercase letters, digits or '-', starting with a letter or digit (e.g. r2)";
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      `'--run-id' must be ${rule}, got "R1"`,
      "'--set' must be <stack>.<key>=<value> (e.g. dev.lab:reps=5, or *.lab:owner=alice for every stack), got \"oops\"",
      "stack dev: 'lab:pgbenchThreads' must be at most 'lab:pgbenchClients' (20), got 50",
      "stack compare: not planned further: its upstream dev has problems",
    ]);
  });

  test('lab run ceph-nitro --run-id "A B": the rule once', () => {
    const r = lab("run", "ceph-nitro", "--dry-run", "--run-id", "A B");
    expect([r.status, r.stderr]).toEqual([
      2,
      `'--run-id' must be a run id of 1–20 lowercase letters, digits or '-', starting with a letter or digit (e.g. r2), got "A B"\n`,
    ]);
  });

  test("a bad --admin-cidr: one line naming the option, not each stack's lab:adminCidrs[0]", () => {
    const r = lab("run", "ceph-nitro", "--dry-run", "--admin-cidr", "1.2.3.4/33");
    expect([r.status, r.stderr]).toEqual([
      2,
      `'--admin-cidr' must be an IPv4 CIDR of your own address (e.g. 203.0.113.7/32 is a documentation example: use yours), or auto, got "1.2.3.4/33"\n`,
    ]);
  });

  test("a bad --secrets-provider: one line naming the option, before anything else", () => {
    const r = lab("run", "ceph-nitro", "--dry-run", "--secrets-provider", "awskms://");
    expect([r.status, r.stderr]).toEqual([
      2,
      `'--secrets-provider' must be awskms://<key id or alias/<name>>?region=<region>, awskms:///<key ARN> (three slashes), passphrase or default (e.g. awskms://alias/lab-secrets?region=us-east-1), got "awskms://"\n`,
    ]);
    expect(lab("run", "ceph-nitro", "--dry-run", "--secrets-provider", "awskms://alias/lab?region=us-east-1").status).toBe(0);
  });

  test("--admin-cidr wider than a /24: one line naming the option and what allows it; --allow-wide-admin accepts it", () => {
    const r = lab("run", "ceph-nitro", "--dry-run", "--admin-cidr", "10.20.0.0/16");
    expect([r.status, r.stderr]).toEqual([
      2,
      `'--admin-cidr' must be at most 256 addresses, a prefix of /24 or longer (your own address, e.g. a /32; --allow-wide-admin allows wider, down to /8), got "10.20.0.0/16"\n`,
    ]);
    const wide = lab("run", "ceph-nitro", "--dry-run", "--admin-cidr", "10.20.0.0/16", "--allow-wide-admin");
    expect([wide.status, wide.stderr]).toEqual([0, ""]);
    expect(wide.stdout).toContain("  admin address: 10.20.0.0/16 (--admin-cidr) for dev, nitro");
  });

  test("--admin-cidr with a bare address: taken as /32; the dry run names what the real run needs, and --keep what stays billing", () => {
    const r = lab("run", "fsx-eks", "--dry-run", "--keep", "--admin-cidr", "1.2.3.4");
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    const keep = lines.find((l) => l.startsWith("--keep: "));
    expect(keep).toMatch(
      /^--keep: after a successful run the stacks stay and go on billing: \$\d+\.\d{4}\/h \(\$\d+\.\d\d a day\) for network, fsx-eks-ontap, fsx-eks-cluster, fsx-eks, until pulumi destroy or lab janitor \(past lab:ttlHours\)$/,
    );
    expect(lines.slice(lines.indexOf("what the real run needs (its preflight checks them all before anything is created):"))).toEqual([
      "what the real run needs (its preflight checks them all before anything is created):",
      "  admin address: 1.2.3.4/32 (--admin-cidr) for fsx-eks-cluster",
      "  the Pulumi CLI 3.58.0 or newer, logged in; the AWS CLI with credentials for the account",
      "  kubectl on the PATH: fsx-eks-cluster, fsx-eks",
      "  a running Docker daemon: fsx-eks-cluster builds images on this machine",
    ]);
    const plain = lab("run", "ceph-nitro", "--dry-run");
    expect(plain.stdout).not.toContain("--keep:");
    expect(plain.stdout.trimEnd().split("\n").slice(-5)).toEqual([
      "what the real run needs (its preflight checks them all before anything is created):",
      "  --admin-cidr <your address>/32 or --admin-cidr auto: dev, nitro hold a documentation placeholder (RFC 5737), which the run refuses",
      "  the Pulumi CLI 3.58.0 or newer, logged in; the AWS CLI with credentials for the account",
      "  kubectl on the PATH: dev, nitro",
      "  k0sctl on the PATH: dev, nitro",
    ]);
  });

  test("an unknown scenario lists the scenarios; exit 2", () => {
    const r = lab("run", "nope", "--dry-run");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^'scenario' must be one of ([a-z0-9-]+, )*ceph-nitro(, [a-z0-9-]+)*, got "nope"\n$/);
  });
});
