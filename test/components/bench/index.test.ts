/**
 * BenchmarkRun under Pulumi's mock runtime: what it would deploy (zone placement, order, parents,
 * provider, triggers) and how it turns the collecting commands' stdout into samples.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type * as BenchModule from "../../../components/bench";
import { ConfigError } from "../../../core/errors";
import type { Sample } from "../../../core/sample";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", name), "utf8");
/** stdout of the collecting command per tool: logs of the real scripts (2 repetitions each). */
const LOGS: Record<string, string> = {
  fio: fixture("fio-seed-job.txt"),
  ioping: fixture("ioping-job.txt"),
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
          const tool = /-(fio|ioping)-collect$/.exec(args.name)?.[1] ?? "";
          return { id: `${args.name}-id`, state: { ...args.inputs, stdout: LOGS[tool] ?? "", stderr: "" } };
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
  // Imported only now, after setMocks (DESIGN.md "Facts about Pulumi's mock runtime").
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
}

async function deploy(name: string, runId: string, extra: Partial<BenchModule.BenchmarkRunArgs> = {}) {
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
      transformations: [
        (a) => {
          const deps = a.opts.dependsOn;
          const list = deps === undefined ? [] : Array.isArray(deps) ? deps : [deps];
          seen.push({
            type: a.type,
            name: a.name,
            parent: a.opts.parent ? nameOf(a.opts.parent) : undefined,
            dependsOn: (list as pulumi.Resource[]).map(nameOf),
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

  it("is a lab:bench:BenchmarkRun whose children are the ConfigMap, the PVC, and per tool a Job and its collecting command", () => {
    expect(d.urn).toMatch(/::lab:bench:BenchmarkRun::same-az$/);
    expect(d.seen.map((s) => [s.type, s.name, s.parent])).toEqual([
      ["lab:bench:BenchmarkRun", "same-az", undefined],
      ["kubernetes:core/v1:ConfigMap", "same-az-scripts", "same-az"],
      ["kubernetes:core/v1:PersistentVolumeClaim", "same-az-data", "same-az"],
      ["kubernetes:batch/v1:Job", "same-az-fio", "same-az"],
      ["command:local:Command", "same-az-fio-collect", "same-az"],
      ["kubernetes:batch/v1:Job", "same-az-ioping", "same-az"],
      ["command:local:Command", "same-az-ioping-collect", "same-az"],
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
    expect(deps["same-az-fio-collect"]).toEqual(["same-az-fio"]);
    expect(deps["same-az-ioping"]).toEqual(["same-az-scripts", "same-az-data", "same-az-fio-collect"]);
    expect(deps["same-az-ioping-collect"]).toEqual(["same-az-ioping"]);
  });

  it("the collecting command waits for its Job with the kubeconfig in its environment and re-runs with the run id", () => {
    const cmd = byName("same-az-fio-collect").inputs;
    expect(cmd.triggers).toEqual(["r7", "same-az-fio-r7", "uid-same-az-fio"]);
    expect(cmd.interpreter).toEqual(["/bin/sh", "-c"]);
    expect(cmd.create).toBe(fs.readFileSync(path.join(__dirname, "../../../components/bench/scripts/collect-job.sh"), "utf8"));
    expect(cmd.logging).toBe("stderr");
    expect(cmd.environment["4dabf18193072939515e22adb298388d"]).toBe("1b47061264138c4ac30d75fd1eb44270"); // kept secret
    expect(unwrapSecret(cmd.environment)).toEqual({
      JOB_NAME: "same-az-fio-r7",
      JOB_NAMESPACE: "bench",
      WAIT_TIMEOUT_SECONDS: String(600 + 2 * (1200 + 68 + 10) + 120),
      LAB_KUBECONFIG: "apiVersion: v1\nkind: Config\n",
    });
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
    expect(byName("again-ioping-collect").inputs.triggers).toEqual(["r8", "again-ioping-r8", "uid-again-ioping"]);
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

  it("rejects bad arguments at construction, all problems at once, naming the config keys", () => {
    expect(
      () =>
        new bench.BenchmarkRun("bad", {
          namespace: "bench",
          runId: "r1",
          zone: "us-east-1a",
          storageClass: "gp3",
          toolsImage: "tools:1",
          fioSize: "64G",
          reps: 0,
          kubeconfig: "k",
        }),
    ).toThrow(
      new ConfigError([
        `'lab:reps' must be an integer from 1 to 100, got 0`,
        `'lab:fioSize' must be at most 90% of the PVC (57.6 GiB), got "64G"`,
      ]),
    );
  });

  it("makes no invoke", () => {
    expect(calls).toEqual([]);
  });
});
