/**
 * BenchmarkRun under Pulumi's mock runtime: what it would deploy (zone placement, order, parents,
 * provider, triggers) and how it turns the collecting commands' stdout into samples.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type * as BenchModule from "../../../components/bench";
import type { Sample } from "../../../core/sample";
import { collectorStdout } from "./support";

const PG = { host: "pg", user: "postgres", database: "pgbench", passwordSecret: { name: "pg-auth", key: "password" } };
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", name), "utf8");
/** stdout of the collecting command per tool: logs of the real scripts (2 repetitions each). */
const LOGS: Record<string, string> = {
  fio: fixture("fio-seed-job.txt"),
  ioping: fixture("ioping-job.txt"),
  pgbench: fixture("pgbench-job.txt"),
};

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  provider?: string;
}
const registered: Registered[] = [];
const calls: string[] = [];

let bench: typeof BenchModule;
let k8sProvider: pulumi.ProviderResource;

beforeAll(() => {
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
        if (args.type === "command:local:Command") {
          const tool = /-(fio|ioping|pgbench)-collect-[a-z0-9-]+$/.exec(args.name)?.[1] ?? "";
          return { id: `${args.name}-id`, state: { ...args.inputs, stdout: collectorStdout(args.inputs, LOGS[tool] ?? ""), stderr: "" } };
        }
        if (args.type.startsWith("kubernetes:") && args.inputs.metadata) {
          return { id: `${args.name}-id`, state: { ...args.inputs, metadata: { ...args.inputs.metadata, uid: `uid-${args.name}` } } };
        }
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => {
        calls.push(args.token);
        throw new Error(`unexpected invoke ${args.token}`);
      },
    },
    "storage-bench-lab",
    "dev",
    false,
  );
  // Imported only now, after setMocks: a program imported before it never resolves its outputs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  bench = require("../../../components/bench");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const k8s = require("@pulumi/kubernetes") as typeof import("@pulumi/kubernetes");
  k8sProvider = new k8s.Provider("cluster", { kubeconfig: "fake-kubeconfig" });
});

/** The value of an output; rejects when the output does (Output.promise is the SDK's own accessor). */
function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  return (o as unknown as { promise(): Promise<T> }).promise();
}

/** A secret input reaches the mocks wrapped as `{ <sig>: <secret sig>, value }`. */
function unwrapSecret(v: unknown): unknown {
  return v !== null && typeof v === "object" && "4dabf18193072939515e22adb298388d" in v ? (v as unknown as { value: unknown }).value : v;
}

/** Name, parent name and dependsOn names of every child, as the SDK's transformations see them. */
interface Seen {
  type: string;
  name: string;
  parent?: string;
  dependsOn: string[];
  deletedWith?: string;
  ignoreChanges?: string[];
}

async function deploy(name: string, runId: string, extra: Partial<BenchModule.BenchmarkRunArgs> = {}, deletedWith?: pulumi.Resource) {
  const seen: Seen[] = [];
  const nameOf = (r: pulumi.Resource) => (r as unknown as { __name?: string }).__name ?? "?";
  const run = new bench.BenchmarkRun(
    name,
    {
      namespace: "bench",
      runId,
      zone: "us-east-1a",
      storageClass: "fsx-ontap-san",
      toolsImage: "123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-tools:fio-3.33-ioping-1.3",
      reps: 2,
      kubeconfig: pulumi.secret("apiVersion: v1\nkind: Config\n"),
      metadata: { scenario: "fsx-eks", stack: "dev", zoneRelation: "same" },
      ...extra,
    },
    {
      providers: { kubernetes: k8sProvider },
      ...(deletedWith ? { deletedWith } : {}),
      transformations: [
        (a) => {
          const deps = a.opts.dependsOn;
          const list = deps === undefined ? [] : Array.isArray(deps) ? deps : [deps];
          seen.push({
            type: a.type,
            name: a.name,
            parent: a.opts.parent ? nameOf(a.opts.parent) : undefined,
            dependsOn: (list as pulumi.Resource[]).map(nameOf),
            deletedWith: a.opts.deletedWith ? nameOf(a.opts.deletedWith) : undefined,
            ignoreChanges: (a.opts as pulumi.CustomResourceOptions).ignoreChanges,
          });
          return undefined;
        },
      ],
    },
  );
  const [results, raws, jobNames, urn] = await Promise.all([
    valueOf(run.results),
    valueOf(run.rawOutputs),
    valueOf(run.jobNames),
    valueOf(run.urn),
  ]);
  return { run, seen, results, raws, jobNames, urn };
}

const byName = (name: string) => {
  const r = registered.filter((x) => x.name === name);
  expect(r).toHaveLength(1);
  return r[0];
};

describe("BenchmarkRun under mocks", () => {
  let d: Awaited<ReturnType<typeof deploy>>;
  beforeAll(async () => {
    d = await deploy("same-az", "r7");
  });

  it("is a lab:bench:BenchmarkRun whose children are the ConfigMap, the PVC, the collectors' identity, and per tool a Job and its collecting command", () => {
    expect(d.urn).toMatch(/::lab:bench:BenchmarkRun::same-az$/);
    expect(d.seen.map((s) => [s.type, s.name, s.parent])).toEqual([
      ["lab:bench:BenchmarkRun", "same-az", undefined],
      ["kubernetes:core/v1:ConfigMap", "same-az-scripts", "same-az"],
      ["kubernetes:core/v1:PersistentVolumeClaim", "same-az-data", "same-az"],
      ["kubernetes:core/v1:ServiceAccount", "same-az-collect-sa", "same-az"],
      ["kubernetes:rbac.authorization.k8s.io/v1:Role", "same-az-collect-role", "same-az"],
      ["kubernetes:rbac.authorization.k8s.io/v1:RoleBinding", "same-az-collect-binding", "same-az"],
      ["kubernetes:batch/v1:Job", "same-az-fio", "same-az"],
      ["command:local:Command", "same-az-fio-collect-r7", "same-az"],
      ["kubernetes:batch/v1:Job", "same-az-ioping", "same-az"],
      ["command:local:Command", "same-az-ioping-collect-r7", "same-az"],
    ]);
  });

  it("the Kubernetes children use the caller's provider, inherited through the parent", () => {
    for (const n of ["same-az-scripts", "same-az-data", "same-az-fio", "same-az-ioping"]) {
      expect(byName(n).provider).toMatch(/::pulumi:providers:kubernetes::cluster::/);
    }
  });

  it("Jobs are pinned to the zone, named with the run id, and left to the collector to await", () => {
    for (const tool of ["fio", "ioping"]) {
      const job = byName(`same-az-${tool}`).inputs;
      expect(job.metadata.name).toBe(`same-az-${tool}-r7`);
      expect(job.metadata.annotations).toEqual({ "pulumi.com/skipAwait": "true" });
      expect(job.metadata.labels["lab/run-id"]).toBe("r7");
      expect(job.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
        { matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a"] }] },
      ]);
      expect(job.spec.backoffLimit).toBe(0);
    }
  });

  it("runs the tools one after the other: each Job waits for the previous tool's collection", () => {
    const deps = Object.fromEntries(d.seen.map((s) => [s.name, s.dependsOn]));
    expect(deps["same-az-fio"]).toEqual(["same-az-scripts", "same-az-data"]);
    expect(deps["same-az-fio-collect-r7"]).toEqual(["same-az-fio", "same-az-collect-binding"]);
    expect(deps["same-az-ioping"]).toEqual(["same-az-scripts", "same-az-data", "same-az-fio-collect-r7"]);
    expect(deps["same-az-ioping-collect-r7"]).toEqual(["same-az-ioping", "same-az-collect-binding"]);
    expect(deps["same-az-collect-binding"]).toEqual(["same-az-collect-sa", "same-az-collect-role"]);
  });

  it("the collecting command waits for its Job with the kubeconfig in its environment, one per run id", () => {
    const cmd = byName("same-az-fio-collect-r7").inputs;
    expect(cmd.triggers).toEqual(["r7", "same-az-fio-r7", "uid-same-az-fio"]);
    expect(cmd.interpreter).toEqual(["/bin/sh", "-c"]);
    expect(cmd.create).toBe(fs.readFileSync(path.join(__dirname, "../../../components/bench/scripts/collect-job.sh"), "utf8"));
    expect(cmd.update).toBeUndefined();
    expect(cmd.logging).toBe("stderr");
    expect(cmd.addPreviousOutputInEnv).toBe(false);
    expect(cmd.environment["4dabf18193072939515e22adb298388d"]).toBe("1b47061264138c4ac30d75fd1eb44270"); // kept secret
    expect(unwrapSecret(cmd.environment)).toEqual({
      JOB_NAME: "same-az-fio-r7",
      JOB_NAMESPACE: "bench",
      WAIT_TIMEOUT_SECONDS: String(600 + 2 * (1200 + 68 + 10) + 120),
      POLL_SECONDS: "10",
      COLLECTOR_ACCOUNT: "same-az-collect",
      TOKEN_SECONDS: String(600 + 2 * (1200 + 68 + 10) + 120 + 600),
      LAB_KUBECONFIG: "apiVersion: v1\nkind: Config\n",
      // The setup it records for its samples when it runs (collect.ts RUN_METADATA_ENV): the caller's metadata, the run's own keys.
      LAB_RUN_METADATA: JSON.stringify({
        scenario: "fsx-eks",
        stack: "dev",
        zoneRelation: "same",
        runId: "r7",
        zone: "us-east-1a",
        storageClass: "fsx-ontap-san",
        fioProfile: "seed",
        fioSize: "8G",
        fioClientCache: "bypassed",
        fioStorageCache: "not-defeated",
      }),
    });
  });

  it("the collectors read as the run's own ServiceAccount: get on its Jobs by name, pods, events and logs of its namespace", () => {
    expect(byName("same-az-collect-sa").inputs).toEqual({
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: {
        name: "same-az-collect",
        namespace: "bench",
        labels: { "app.kubernetes.io/part-of": "storage-bench-lab", "app.kubernetes.io/managed-by": "pulumi" },
      },
      automountServiceAccountToken: false,
    });
    expect(byName("same-az-collect-role").inputs.rules).toEqual([
      { apiGroups: ["batch"], resources: ["jobs"], verbs: ["get"], resourceNames: ["same-az-fio-r7", "same-az-ioping-r7"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list", "watch"] },
      { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
      { apiGroups: [""], resources: ["events"], verbs: ["list"] },
    ]);
    expect(byName("same-az-collect-binding").inputs.subjects).toEqual([
      { kind: "ServiceAccount", name: "same-az-collect", namespace: "bench" },
    ]);
  });

  it("a collection never re-runs on a change that is not its trigger: every other input's changes are ignored", () => {
    for (const tool of ["fio", "ioping"]) {
      const seen = d.seen.find((x) => x.name === `same-az-${tool}-collect-r7`)!;
      expect(seen.ignoreChanges).toEqual(["create", "interpreter", "environment", "logging", "addPreviousOutputInEnv"]);
      // Every input the component passes, but the triggers, is ignored: a new input cannot slip through.
      const inputs = Object.keys(byName(`same-az-${tool}-collect-r7`).inputs).filter((k) => k !== "triggers");
      expect([...inputs].sort()).toEqual([...(seen.ignoreChanges ?? [])].sort());
    }
    expect(bench.COLLECT_IGNORED_INPUTS).toEqual(["create", "interpreter", "environment", "logging", "addPreviousOutputInEnv"]);
  });

  it("results: every repetition's samples, parsed by core/parsers, with the run's metadata", () => {
    const fio = d.results.filter((s: Sample) => s.metadata.tool === "fio");
    const ioping = d.results.filter((s: Sample) => s.metadata.tool === "ioping");
    expect(fio.length).toBeGreaterThan(0);
    expect(ioping.length).toBeGreaterThan(0);
    expect(fio.length + ioping.length).toBe(d.results.length);
    for (const s of d.results) {
      expect(s.metadata).toMatchObject({
        scenario: "fsx-eks",
        stack: "dev",
        zoneRelation: "same",
        runId: "r7",
        zone: "us-east-1a",
        storageClass: "fsx-ontap-san",
      });
      expect([1, 2]).toContain(s.metadata.rep);
    }
    expect(fio.every((s) => s.metadata.fioProfile === "seed" && s.metadata.fioSize === "8G")).toBe(true);
    expect(ioping.every((s) => s.metadata.iopingCount === 100)).toBe(true);
    expect(fio.map((s) => s.metric)).toEqual(expect.arrayContaining(["fio.read.iops", "fio.write.iops"]));
    expect(d.raws.map((r) => r.name)).toEqual(["fio-rep1.json", "fio-rep2.json", "ioping-rep1.json", "ioping-rep2.json"]);
    expect(d.jobNames).toEqual(["same-az-fio-r7", "same-az-ioping-r7"]);
  });

  it("a new run id renames the Jobs and changes the collectors' triggers", async () => {
    const again = await deploy("again", "r8", { tools: ["ioping"], rawPrefix: "again-" });
    const job = byName("again-ioping").inputs;
    expect(job.metadata.name).toBe("again-ioping-r8");
    expect(byName("again-ioping-collect-r8").inputs.triggers).toEqual(["r8", "again-ioping-r8", "uid-again-ioping"]);
    expect(again.raws.map((r) => r.name)).toEqual(["again-ioping-rep1.json", "again-ioping-rep2.json"]);
    expect(new Set(again.results.map((s) => s.metadata.runId))).toEqual(new Set(["r8"]));
  });

  it("runAfter makes the whole run wait for another run", async () => {
    const other = await deploy("cross-az", "r7", { zone: "us-east-1b", runAfter: [d.run], metadata: { zoneRelation: "cross" } });
    const deps = Object.fromEntries(other.seen.map((s) => [s.name, s.dependsOn]));
    expect(deps["cross-az-scripts"]).toEqual(["same-az"]);
    expect(deps["cross-az-data"]).toEqual(["same-az"]);
    expect(deps["cross-az-fio"]).toEqual(["cross-az-scripts", "cross-az-data", "same-az"]);
    const affinity = byName("cross-az-fio").inputs.spec.template.spec.affinity.nodeAffinity;
    expect(affinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values).toEqual(["us-east-1b"]);
    expect(other.results.every((s) => s.metadata.zone === "us-east-1b" && s.metadata.zoneRelation === "cross")).toBe(true);
  });

  it("rejects bad arguments at construction, all problems at once, naming the arguments", () => {
    const bad = () =>
      new bench.BenchmarkRun("bad", {
        namespace: "bench",
        runId: "r1",
        zone: "us-east-1a",
        storageClass: "gp3",
        toolsImage: "tools:1",
        fioSize: "64G",
        reps: 0,
        ttlSecondsAfterFinished: 0,
        kubeconfig: "k",
      });
    expect(bad).toThrow(
      [
        "invalid arguments of lab:bench:BenchmarkRun 'bad':",
        "'reps' must be an integer from 1 to 20, got 0",
        `'fioSize' must be at most 90% of 'pvcSizeGiB' (57.6 GiB), got "64G"`,
        "'ttlSecondsAfterFinished' must be an integer from 3600 to 31536000 (a finished Job and its log must outlive their collection: 360 of the collector's 10 s polls), got 0",
      ].join("\n"),
    );
    let thrown: unknown;
    try {
      bad();
    } catch (e) {
      thrown = e;
    }
    expect(pulumi.InputPropertiesError.isInstance(thrown)).toBe(true);
  });

  it("storage is deleted before the cluster: the PVC and the Jobs that mount it are not deletedWith it", async () => {
    /** A stand-in for the cluster a stack passes as `deletedWith`. */
    class Cluster extends pulumi.CustomResource {
      constructor(name: string) {
        super("test:index:Cluster", name, {});
      }
    }
    const cluster = new Cluster("the-cluster");
    const all = await deploy("with-pg", "r1", { tools: ["fio", "ioping", "pgbench"], postgres: PG }, cluster);
    expect(Object.fromEntries(all.seen.filter((x) => x.type !== "lab:bench:BenchmarkRun").map((x) => [x.name, x.deletedWith]))).toEqual({
      "with-pg-scripts": "the-cluster",
      "with-pg-data": undefined,
      // The collectors' identity dies with the cluster: it frees nothing.
      "with-pg-collect-sa": "the-cluster",
      "with-pg-collect-role": "the-cluster",
      "with-pg-collect-binding": "the-cluster",
      "with-pg-fio": undefined,
      "with-pg-fio-collect-r1": undefined,
      "with-pg-ioping": undefined,
      "with-pg-ioping-collect-r1": undefined,
      "with-pg-pgbench": "the-cluster",
      "with-pg-pgbench-collect-r1": undefined,
    });
    // They still go before the cluster: through their provider, whose kubeconfig is the cluster's.
    expect(byName("with-pg-data").provider).toMatch(/::pulumi:providers:kubernetes::cluster::/);
    // The samples record the exact pgbench command lines and extra options, and what fio's file defeats.
    const pg = all.results.filter((x) => x.metadata.tool === "pgbench");
    expect(pg.length).toBeGreaterThan(0);
    for (const x of pg) {
      expect(x.metadata).toMatchObject({
        pgbenchInitCommand: "pgbench -i -s 1000 --foreign-keys",
        pgbenchCommand: "pgbench -c 20 -j 2 -T 300 -r",
        pgbenchForeignKeys: true,
        pgbenchPerStatementLatencies: true,
        pgbenchProgressSeconds: 0,
        pgbenchSettleSeconds: 30,
      });
    }
    for (const x of all.results.filter((r) => r.metadata.tool === "fio")) {
      expect(x.metadata).toMatchObject({ fioClientCache: "bypassed", fioStorageCache: "not-defeated" });
    }
  });

  it("makes no invoke", () => {
    expect(calls).toEqual([]);
  });
});

describe("BenchmarkRun with zone and toolsImage as Outputs (values known later)", () => {
  const IMAGE = "registry.example.com/lab/tools:fio-3.33-ioping-1.3";
  const META = { scenario: "fsx-eks", stack: "dev", zoneRelation: "cross" as const };
  /** Every registered input of a run's children, as JSON with the run's name replaced by `<run>`. */
  const childrenOf = (run: string) =>
    registered
      .filter((r) => r.name.startsWith(`${run}-`))
      .map((r) => ({
        type: r.type,
        name: r.name.replace(run, "<run>"),
        inputs: JSON.parse(JSON.stringify(r.inputs).split(run).join("<run>")),
      }));

  let later: Awaited<ReturnType<typeof deploy>>;
  let plain: Awaited<ReturnType<typeof deploy>>;
  beforeAll(async () => {
    later = await deploy("later-az", "r9", {
      zone: pulumi.output("us-east-1c"),
      toolsImage: new Promise<string>((resolve) => setTimeout(() => resolve(IMAGE), 5)),
      metadata: pulumi.output(META),
    });
    plain = await deploy("plain-az", "r9", { zone: "us-east-1c", toolsImage: IMAGE, metadata: META });
  });

  it("creates the same children, with the same arguments, as the same values given plain", () => {
    expect(
      later.seen.map((s) => [s.type, s.name.replace("later-az", "<run>"), s.dependsOn.map((d) => d.replace("later-az", "<run>"))]),
    ).toEqual(plain.seen.map((s) => [s.type, s.name.replace("plain-az", "<run>"), s.dependsOn.map((d) => d.replace("plain-az", "<run>"))]));
    // Registration order follows when each child's inputs resolve: compared by name.
    const byChildName = (l: ReturnType<typeof childrenOf>) => [...l].sort((a, b) => a.name.localeCompare(b.name));
    expect(byChildName(childrenOf("later-az"))).toEqual(byChildName(childrenOf("plain-az")));
    expect(
      childrenOf("later-az")
        .map((c) => c.name)
        .sort(),
    ).toEqual(
      [
        "<run>-scripts",
        "<run>-data",
        "<run>-collect-sa",
        "<run>-collect-role",
        "<run>-collect-binding",
        "<run>-fio",
        "<run>-fio-collect-r9",
        "<run>-ioping",
        "<run>-ioping-collect-r9",
      ].sort(),
    );
  });

  it("the Jobs hold the Outputs' values where the placeholders were rendered; no placeholder reaches the engine", () => {
    for (const tool of ["fio", "ioping"]) {
      const spec = byName(`later-az-${tool}`).inputs.spec.template.spec;
      expect(spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
        { matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1c"] }] },
      ]);
      expect(spec.containers.map((c: { image: string }) => c.image)).toEqual([IMAGE]);
    }
    const sent = JSON.stringify(childrenOf("later-az"));
    expect(sent).not.toContain(bench.LATER_INPUT_PLACEHOLDERS.zone);
    expect(sent).not.toContain(bench.LATER_INPUT_PLACEHOLDERS.toolsImage);
    expect(bench.LATER_INPUT_PLACEHOLDERS).toEqual({
      zone: "lab-zone-known-later",
      toolsImage: "known-later.invalid/storage-bench-lab/tools:known-later",
    });
  });

  it("the samples carry the resolved zone and the Output metadata", () => {
    expect(later.results.length).toBe(plain.results.length);
    expect(later.results.length).toBeGreaterThan(0);
    expect(
      new Set(later.results.map((s) => [s.metadata.zone, s.metadata.zoneRelation, s.metadata.runId, s.metadata.scenario].join(" "))),
    ).toEqual(new Set(["us-east-1c cross r9 fsx-eks"]));
    expect(later.results).toEqual(plain.results);
    expect(later.jobNames).toEqual(["later-az-fio-r9", "later-az-ioping-r9"]);
  });

  it("every other argument is still checked at construction when zone and toolsImage are Outputs (theirs wait for their values)", () => {
    let thrown: unknown;
    try {
      new bench.BenchmarkRun("early", {
        namespace: "bench",
        runId: "r1",
        zone: pulumi.output("Not A Zone!"),
        storageClass: "gp3",
        toolsImage: pulumi.output("tools:latest"),
        reps: 0,
        kubeconfig: "k",
      });
    } catch (e) {
      thrown = e;
    }
    expect(pulumi.InputPropertiesError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toBe(
      ["invalid arguments of lab:bench:BenchmarkRun 'early':", "'reps' must be an integer from 1 to 20, got 0"].join("\n"),
    );
  });

  it("withLaterInputs swaps placeholders anywhere in the rendered objects, inside other text too, one Output per use", async () => {
    const P = bench.LATER_INPUT_PLACEHOLDERS;
    const made: string[] = [];
    const maker = (placeholder: string, value: string) => () => {
      made.push(placeholder);
      return pulumi.output(value);
    };
    const later = new Map([
      [P.zone as string, maker(P.zone, "us-east-1c")],
      [P.toolsImage as string, maker(P.toolsImage, IMAGE)],
    ]);
    const out = bench.withLaterInputs({ a: [P.zone, `zone=${P.zone};image=${P.toolsImage}.`, "plain"], n: 3, b: true, z: null }, later) as {
      a: [pulumi.Output<string>, pulumi.Output<string>, string];
      n: number;
      b: boolean;
      z: null;
    };
    expect(await valueOf(out.a[0])).toBe("us-east-1c");
    expect(await valueOf(out.a[1])).toBe(`zone=us-east-1c;image=${IMAGE}.`);
    expect([out.a[2], out.n, out.b, out.z]).toEqual(["plain", 3, true, null]);
    expect(made).toEqual([P.zone, P.zone, P.toolsImage]);
    expect(() => bench.withLaterInputs({ [`x-${P.zone}`]: 1 }, later)).toThrow(
      `withLaterInputs: placeholder "${P.zone}" in the key "x-${P.zone}"`,
    );
  });
});

// Planned by lab/plan's planStack, which installs its own mocks (so these come after the tests above,
// once their registrations are done) and names the resource whose registration failed.
const PLANNED_IMAGE = "registry.example.com/lab/tools:fio-3.33-ioping-1.3";
let lab: typeof import("../../../lab/plan/run");

/** Plans one run, `args()` made in the program; its plan, or the plan's error. */
async function planRun(name: string, args: () => Partial<BenchModule.BenchmarkRunArgs>, firstPreview = false) {
  if (lab === undefined) {
    // The tests above are done with their mocks only once their outputs are registered.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    await (require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> }).waitForRPCs();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    lab = require("../../../lab/plan/run");
  }
  const program = () => {
    const run = new bench.BenchmarkRun(name, {
      namespace: "bench",
      runId: "r1",
      zone: "us-east-1a",
      storageClass: "gp3",
      toolsImage: PLANNED_IMAGE,
      kubeconfig: "k",
      ...args(),
    });
    return { jobNames: run.jobNames };
  };
  const spec = { name: "bench", source: "test", config: {}, secretKeys: [] };
  return lab
    .planStack(spec, program, () => undefined, { firstPreview })
    .then(
      (r) => ({ plan: r.plan, error: undefined }),
      (e: unknown) => ({ plan: undefined, error: e as InstanceType<typeof lab.PlanError> }),
    );
}

test("an image unknown in a first preview (built in the same update): every resource planned, the Jobs' image unknown, their zone known, no placeholder", async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const command = require("@pulumi/command") as typeof import("@pulumi/command");
  // A reference only the update knows, as a built image's: a new resource's output.
  const built = () => new command.local.Command("build-image", { create: "true" }).stdout;
  const { plan: p, error } = await planRun("first", () => ({ toolsImage: built() }), true);
  expect(error).toBeUndefined();
  expect(p!.resources.filter((r) => r.parent?.endsWith("::first")).map((r) => [r.type, r.name])).toEqual([
    ["kubernetes:core/v1:ServiceAccount", "first-collect-sa"],
    ["kubernetes:core/v1:ConfigMap", "first-scripts"],
    ["kubernetes:core/v1:PersistentVolumeClaim", "first-data"],
    ["kubernetes:rbac.authorization.k8s.io/v1:Role", "first-collect-role"],
    ["kubernetes:rbac.authorization.k8s.io/v1:RoleBinding", "first-collect-binding"],
    ["kubernetes:batch/v1:Job", "first-fio"],
    ["command:local:Command", "first-fio-collect-r1"],
    ["kubernetes:batch/v1:Job", "first-ioping"],
    ["command:local:Command", "first-ioping-collect-r1"],
  ]);
  for (const tool of ["fio", "ioping"]) {
    const job = p!.resources.find((r) => r.name === `first-${tool}`)!.inputs as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(job.spec.template.spec.containers[0].image).toBe("<computed>");
    expect(job.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a"] }] },
    ]);
  }
  const sent = JSON.stringify(p!.resources.map((r) => r.inputs));
  expect(sent).not.toContain(bench.LATER_INPUT_PLACEHOLDERS.zone);
  expect(sent).not.toContain(bench.LATER_INPUT_PLACEHOLDERS.toolsImage);
});

// Last in the file: a failed plan leaves the failed program's pending outputs rejecting.
test("a bad zone or image Output fails the update once it resolves (the first Job's registration), with the message the same value gets at construction", async () => {
  const zoneReason = `'zone' must be an availability zone name (e.g. "us-east-1a"), got "Not A Zone!"`;
  const zone = await planRun("bad-zone", () => ({ zone: pulumi.output("Not A Zone!") }));
  expect(zone.error?.message).toBe(
    [
      `error serializing property "spec": invalid arguments of lab:bench:BenchmarkRun 'bad-zone':`,
      zoneReason,
      "while registering resource kubernetes:batch/v1:Job 'bad-zone-fio'",
    ].join("\n"),
  );
  expect(pulumi.InputPropertiesError.isInstance(zone.error?.cause)).toBe(true);
  expect((zone.error?.cause as pulumi.InputPropertiesError).errors).toEqual([{ propertyPath: "zone", reason: zoneReason }]);

  const imageReason = `'toolsImage' must be an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest, got "tools:latest"`;
  const plain = await planRun("bad-image", () => ({ toolsImage: "tools:latest" }));
  expect(plain.error?.message).toBe(`invalid arguments of lab:bench:BenchmarkRun 'bad-image':\n${imageReason}`);
  const image = await planRun("bad-image", () => ({ toolsImage: pulumi.output("tools:latest") }));
  expect(image.error?.message).toBe(
    `error serializing property "spec": ${plain.error?.message}\nwhile registering resource kubernetes:batch/v1:Job 'bad-image-fio'`,
  );
  expect(pulumi.InputPropertiesError.isInstance(image.error?.cause)).toBe(true);
  expect((image.error?.cause as pulumi.InputPropertiesError).errors).toEqual([{ propertyPath: "toolsImage", reason: imageReason }]);
});
