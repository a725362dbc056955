/**
 * The run's stack graph and its scheduler. Edges come from the `lab:*Stack` config keys (the same
 * reader as the offline plan: lab/plan/sources.ts `upstreamNames`). {@link runDag} starts a node as
 * soon as every node it waits for has succeeded, so independent stacks run in parallel (network →
 * dev ∥ nitro); used forwards for `up` and backwards (a stack waits for its dependents) for `destroy`.
 */
import { upstreamNames } from "../plan/sources";

/** For each stack, the stacks among `names` its config references (its upstreams). */
export function upstreamsAmong(configs: Readonly<Record<string, Readonly<Record<string, string>>>>): Record<string, string[]> {
  const names = Object.keys(configs);
  const out: Record<string, string[]> = {};
  for (const n of names) out[n] = [...new Set(upstreamNames(configs[n]).filter((u) => names.includes(u) && u !== n))];
  return out;
}

/** The stacks among `among` that reference `name` (its dependents). */
export function dependentsOf(name: string, upstreams: Readonly<Record<string, readonly string[]>>, among: readonly string[]): string[] {
  return among.filter((n) => (upstreams[n] ?? []).includes(name));
}

export interface DagResult<T> {
  /** Nodes that succeeded, with their results, in completion order. */
  readonly ok: Map<string, T>;
  /** Nodes that failed, with their errors, in failure order. */
  readonly failed: Map<string, unknown>;
  /** Nodes never started: what they wait for failed or was never started, or {@link DagOptions.shouldStart} said no. */
  readonly notStarted: string[];
}

export interface DagOptions {
  /** Asked before each start; false stops starting nodes (running ones finish). @default always true */
  readonly shouldStart?: () => boolean;
  /** Keep starting nodes whose prerequisites succeeded after another node failed. @default false */
  readonly continueOnFailure?: boolean;
}

/**
 * Runs `run` over `nodes`, a node once every node of `waitsFor(node)` (restricted to `nodes`) has
 * succeeded, as many at once as are ready. After a failure no node starts (unless
 * `continueOnFailure`); the running ones are awaited. Never rejects: failures are in the result.
 */
export async function runDag<T>(
  nodes: readonly string[],
  waitsFor: (node: string) => readonly string[],
  run: (node: string) => Promise<T>,
  opts: DagOptions = {},
): Promise<DagResult<T>> {
  const ok = new Map<string, T>();
  const failed = new Map<string, unknown>();
  const started = new Set<string>();
  const running = new Map<string, Promise<void>>();
  const ready = (n: string) => waitsFor(n).every((w) => !nodes.includes(w) || ok.has(w));
  const mayStart = () => (opts.shouldStart?.() ?? true) && (opts.continueOnFailure || failed.size === 0);
  for (;;) {
    if (mayStart()) {
      for (const n of nodes) {
        if (started.has(n) || !ready(n)) continue;
        started.add(n);
        running.set(
          n,
          (async () => {
            try {
              ok.set(n, await run(n));
            } catch (e) {
              failed.set(n, e);
            } finally {
              running.delete(n);
            }
          })(),
        );
        if (!mayStart()) break;
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  return { ok, failed, notStarted: nodes.filter((n) => !started.has(n)) };
}
