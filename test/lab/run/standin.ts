/**
 * The stand-in Pulumi CLI (test/fixtures/standins/bin/pulumi, with `aws`, `kubectl`, `k0sctl`) put
 * first on the PATH for the real `@pulumi/pulumi/automation` module: a backend directory, a world
 * (what each stack's `up` does), a project directory, and the run work root, per test.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const STANDIN_BIN = path.resolve(__dirname, "..", "..", "fixtures", "standins", "bin");

export interface TraceEntry {
  readonly phase: "start" | "end";
  readonly ms: number;
  readonly cmd: string;
  readonly stack: string;
}

export interface Standin {
  readonly dir: string;
  readonly state: string;
  /** A project directory: Pulumi.yaml as the lab's, and nothing else. */
  readonly project: string;
  /** LAB_WORK_ROOT: where runs' work directories go. */
  readonly workRoot: string;
  /** Every CLI command, in order. */
  trace(): TraceEntry[];
  /** `stack select`/`stack init` that found another one running (the stand-in fails them). */
  overlaps(): string[];
  /** Packs passed to `up --policy-pack`, as `<stack> <dir>`. */
  policyLog(): string[];
  /** Restores the environment. */
  restore(): void;
  /** Writes a stack's state directly (janitor tests). */
  writeStack(name: string, state: Record<string, unknown>): void;
}

export function standin(world: Record<string, unknown> = {}, env: Record<string, string | undefined> = {}): Standin {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-standin-"));
  const state = path.join(dir, "backend");
  const project = path.join(dir, "project");
  const workRoot = path.join(dir, "work");
  fs.mkdirSync(path.join(state, "stacks"), { recursive: true });
  fs.mkdirSync(project);
  fs.copyFileSync(path.resolve(__dirname, "..", "..", "..", "Pulumi.yaml"), path.join(project, "Pulumi.yaml"));
  fs.writeFileSync(path.join(dir, "world.json"), JSON.stringify(world));
  const saved = { ...process.env };
  const set: Record<string, string | undefined> = {
    PATH: `${STANDIN_BIN}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_STANDIN_STATE: state,
    PULUMI_STANDIN_WORLD: path.join(dir, "world.json"),
    PULUMI_CONFIG_PASSPHRASE: "test-passphrase",
    PULUMI_CONFIG_PASSPHRASE_FILE: undefined,
    LAB_WORK_ROOT: workRoot,
    ...env,
  };
  for (const [k, v] of Object.entries(set)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const lines = (f: string) =>
    fs.existsSync(f)
      ? fs
          .readFileSync(f, "utf8")
          .split("\n")
          .filter((l) => l !== "")
      : [];
  return {
    dir,
    state,
    project,
    workRoot,
    trace: () =>
      lines(path.join(state, "trace.log")).map((l) => {
        const [phase, ms, ...rest] = l.split(" ");
        const stack = rest.pop() as string;
        return { phase: phase as "start" | "end", ms: Number(ms), cmd: rest.join(" "), stack };
      }),
    overlaps: () => lines(path.join(state, "overlaps.log")),
    policyLog: () => lines(path.join(state, "policy.log")),
    restore: () => {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    },
    writeStack: (name, st) =>
      fs.writeFileSync(path.join(state, "stacks", `${name.split("/").pop()}.json`), JSON.stringify({ name, ...st })),
  };
}

/** Intervals of `stack select`/`stack init` from the trace, each [start, end, what]. */
export function workspaceWrites(trace: readonly TraceEntry[]): Array<[number, number, string]> {
  const open = new Map<string, number>();
  const out: Array<[number, number, string]> = [];
  for (const t of trace) {
    if (t.cmd !== "stack select" && t.cmd !== "stack init") continue;
    const key = `${t.cmd} ${t.stack}`;
    if (t.phase === "start") open.set(key, t.ms);
    else {
      out.push([open.get(key) as number, t.ms, key]);
      open.delete(key);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** A sample as the world's outputs give it (`$runId` is the stack's lab:runId). */
export const tps = (value: number) => ({ metric: "pgbench.tps", value, unit: "txn/s", metadata: { tool: "pgbench", runId: "$runId" } });

/**
 * For every test of the calling file (call it at the top level): what the test writes to
 * process.stdout is captured instead of printed (`printed()`), and the stand-in it starts with
 * `start` is restored (the environment) and removed (its directory) afterwards.
 */
export function standinPerTest(): {
  /** What the current test wrote to process.stdout. */
  printed(): string;
  /** A stand-in for the current test (../run/standin.ts `standin`). */
  start(world?: Record<string, unknown>, env?: Record<string, string | undefined>): Standin;
} {
  let out = "";
  let spy: jest.SpyInstance | undefined;
  let current: Standin | undefined;
  beforeEach(() => {
    out = "";
    spy = jest.spyOn(process.stdout, "write").mockImplementation((c: string | Uint8Array) => {
      out += String(c);
      return true;
    });
  });
  afterEach(() => {
    spy?.mockRestore();
    spy = undefined;
    current?.restore();
    if (current) fs.rmSync(current.dir, { recursive: true, force: true });
    current = undefined;
  });
  return {
    printed: () => out,
    start: (world = {}, env = {}) => (current = standin(world, env)),
  };
}
