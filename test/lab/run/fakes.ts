/**
 * A fake Automation API workspace for the runner: records every call with its time, emits engine
 * events shaped like `@pulumi/pulumi/automation` EngineEvent, honours the AbortSignal the way the
 * real CLI does (the operation ends with an error), and fails where a test injects a failure.
 */
import type { ConfigMap, EngineEvent, OutputMap } from "@pulumi/pulumi/automation";
import type { OpOptions, RunStackHandle, RunWorkspace } from "../../../lab/run/workspace";
import type { RunPlan, RunStackSpec } from "../../../lab/run/runner";
import type { Reporter } from "../../../lab/run/progress";

export interface FakeOptions {
  /** ms each stack's up takes. @default 20 */
  readonly upMs?: Readonly<Record<string, number>>;
  /** Stacks whose up (by stack, the n-th up of it, 1-based: default every) fails. */
  readonly failUp?: Readonly<Record<string, number | "all">>;
  /** Stacks whose destroy fails that many times (Infinity: always). */
  readonly failDestroy?: Readonly<Record<string, number>>;
  /** ms each destroy takes. @default 5 */
  readonly destroyMs?: number;
  /** Resources each up reports (engine events). @default 3 */
  readonly resources?: number;
  /** Called when a destroy starts (e.g. to look at the results on disk). */
  readonly onDestroyStart?: (stack: string) => void;
  /** More outputs of a stack's up (by its scenario name), e.g. what the failover experiments read. */
  readonly outputsOf?: (stack: string, runId: string) => OutputMap;
  /** Called when an up starts. */
  readonly onUpStart?: (stack: string) => void;
  /** Benchmark stacks whose up exports no `results` (Pulumi drops an undefined output). */
  readonly withoutResults?: readonly string[];
}

export const sample = (stack: string, runId: string, value: number) => ({
  metric: "pgbench.tps",
  value,
  unit: "txn/s",
  metadata: { tool: "pgbench", stack, runId, rep: 1 },
});

export class FakeWorkspace implements RunWorkspace {
  readonly calls: string[] = [];
  readonly configs = new Map<string, Record<string, string>>();
  private readonly ups = new Map<string, number>();
  private readonly destroys = new Map<string, number>();
  constructor(readonly opts: FakeOptions = {}) {}

  /** `op stack` of every call, e.g. `up-start organization/storage-bench-lab/u-r1-dev` → short names with {@link short}. */
  short(): string[] {
    return this.calls.map((c) => c.replace(/organization\/storage-bench-lab\/u-r1-/g, ""));
  }

  async createOrSelectStack(name: string): Promise<RunStackHandle> {
    this.calls.push(`select ${name}`);
    const configs = this.configs;
    const calls = this.calls;
    const op = (kind: "up" | "destroy", o: OpOptions) => this.op(kind, name, short, o);
    const short = name.startsWith(ORG) ? name.slice(ORG.length) : (name.split("-").pop() as string);
    return {
      name,
      async setAllConfig(c: ConfigMap) {
        calls.push(`config ${name} ${Object.keys(c).join(",")}`);
        configs.set(name, { ...(configs.get(name) ?? {}), ...Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.value])) });
      },
      up: (o: OpOptions) => op("up", o),
      destroy: (o: OpOptions) => op("destroy", o),
    };
  }

  private async op(kind: "up" | "destroy", name: string, short: string, o: OpOptions): Promise<{ outputs: OutputMap }> {
    const n = (kind === "up" ? this.ups : this.destroys).get(name) ?? 0;
    (kind === "up" ? this.ups : this.destroys).set(name, n + 1);
    this.calls.push(`${kind}-start ${name}`);
    if (kind === "up") this.opts.onUpStart?.(short);
    else this.opts.onDestroyStart?.(short);
    o.onOutput?.(`${kind} of ${name}\n`);
    const resources = this.opts.resources ?? 3;
    for (let i = 0; i < resources; i++) {
      const metadata = { op: kind === "up" ? "create" : "delete", urn: `urn:pulumi:s::p::t::r${i}`, type: "aws:ec2/vpc:Vpc", provider: "" };
      o.onEvent?.({ sequence: 2 * i, timestamp: 0, resourcePreEvent: { metadata } } as EngineEvent);
      o.onEvent?.({ sequence: 2 * i + 1, timestamp: 0, resOutputsEvent: { metadata } } as EngineEvent);
    }
    const ms = kind === "up" ? (this.opts.upMs?.[short] ?? 20) : (this.opts.destroyMs ?? 5);
    await new Promise<void>((resolve, reject) => {
      if (o.signal?.aborted) return reject(new Error(`${kind} of ${name} canceled`));
      const t = setTimeout(resolve, ms);
      o.signal?.addEventListener("abort", () => {
        clearTimeout(t);
        reject(new Error(`${kind} of ${name} canceled (SIGINT)`));
      });
    }).catch((e) => {
      this.calls.push(`${kind}-canceled ${name}`);
      throw e;
    });
    const failUp = this.opts.failUp?.[short];
    if (kind === "up" && (failUp === "all" || failUp === n + 1)) {
      this.calls.push(`up-failed ${name}`);
      throw new Error(`up of ${short} failed: error: creating EC2 Instance: InsufficientInstanceCapacity`);
    }
    if (kind === "destroy" && n < (this.opts.failDestroy?.[short] ?? 0)) {
      this.calls.push(`destroy-failed ${name}`);
      throw new Error(`destroy of ${short} failed: DependencyViolation`);
    }
    this.calls.push(`${kind}-end ${name}`);
    if (kind === "destroy") return { outputs: {} };
    const cfg = this.configs.get(name) ?? {};
    const runId = cfg["lab:runId"];
    const outputs: OutputMap = {
      expiresAt: { value: "2030-01-01T00:00:00Z", secret: false },
      kubeconfig: { value: "apiVersion: v1", secret: true },
    };
    if (cfg["lab:kind"] === "ceph-k0s" && !(this.opts.withoutResults ?? []).includes(short))
      outputs.results = { value: [sample(short, runId, 500)], secret: false };
    return { outputs: { ...outputs, ...this.opts.outputsOf?.(short, runId) } };
  }
}

export const ORG = "organization/storage-bench-lab/u-r1-";

/** One stack of a test run (run id r1): its kind, and its upstreams as `lab:<upstream>Stack` keys. */
export const stack = (name: string, kind: string, ups: string[]): RunStackSpec => ({
  name,
  fqName: `${ORG}${name}`,
  config: { "lab:kind": kind, "lab:runId": "r1", ...Object.fromEntries(ups.map((u) => [`lab:${u}Stack`, `${ORG}${u}`])) },
  upstreams: ups,
  plannedResources: 3,
});

/** network → dev ∥ nitro → compare. */
export function cephPlan(extra: Partial<RunPlan> = {}): RunPlan {
  return {
    scenario: "ceph-nitro",
    runId: "r1",
    stacks: [
      stack("network", "network", []),
      stack("dev", "ceph-k0s", ["network"]),
      stack("nitro", "ceph-k0s", ["network"]),
      stack("compare", "compare", ["dev", "nitro"]),
    ],
    steps: [],
    keep: false,
    workDir: "/project",
    ...extra,
  };
}

/** Collects the reporter's lines. */
export function memoryReporter(): Reporter & { lines: string[]; outputs: string[] } {
  const lines: string[] = [];
  const outputs: string[] = [];
  return { lines, outputs, line: (t) => lines.push(t), output: (s, op, t) => outputs.push(`[${s} ${op}] ${t}`) };
}
