/**
 * Runs a real stack program under Pulumi's mock runtime (preview mode, no engine, no cloud) and
 * records what it would deploy: every resource with its parent, its dependencies and its inputs
 * as the program passed them, and the stack's outputs.
 *
 * Pulumi's MockMonitor hands mocks only (type, name, inputs); parents and dependencies live on the
 * RegisterResource request, so the monitor's registerResource is wrapped to read them there.
 * Stacks are planned one after another in one process: each plan installs fresh mocks.
 *
 * Two modes:
 * - the default plan answers as if every resource existed: new resources report deterministic fake
 *   ids, ARNs, addresses and times (./fakes.ts) and every invoke is answered;
 * - the first preview (`firstPreview`) answers as the engine does in the preview of a new stack
 *   (the preview `pulumi up` runs first):
 *   - a new resource reports only its inputs: every other output (ids, ARNs, generated names,
 *     addresses, `time.Static` times, random values) is unknown. The Node SDK resolves an output the
 *     engine did not return as unknown during a preview and an empty id as unknown
 *     (@pulumi/pulumi runtime/rpc.js `resolveProperties`, runtime/resource.js), and a provider
 *     created in the same update has an unknown id in its reference (pulumi/pulumi
 *     pkg/resource/deploy/providers/registry.go, `Create`: `UnknownID` unless `!req.Preview`);
 *   - an invoke through a provider whose configuration holds an unknown value (anywhere but
 *     `version`) is answered `{}`, known: the engine leaves such a provider unconfigured and its
 *     `Invoke` returns an empty property map (pulumi/pulumi
 *     sdk/go/common/resource/plugin/provider_plugin.go, `Configure` and `Invoke`; pulumi/pulumi#24169).
 *     Other invokes are answered as in the default plan; an invoke whose arguments are unknown is
 *     not made at all (the SDK answers it unknown: runtime/invoke.js `invokeAsync`);
 *   - stack references read the upstream stacks as deployed (their default plans, ./index.ts): a
 *     new stack is created after the stacks it references.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { ConfigError, problem } from "../../core/errors";
import { PlanError } from "./errors";
import { fakeCall, fakeState, FakeContext } from "./fakes";
import { COMPUTED, SECRET } from "./markers";
import { stackReferences } from "./sources";
import { STACK_NAME_RE } from "../../stacks/lib/config/fields";
import { mustBePlain, PLAIN_RULE, PROJECT_NAMESPACE } from "../../stacks/lib/config/common";

/** A stack to plan: its name and its config map as Pulumi would hand it to the program. */
export interface StackSpec {
  readonly name: string;
  /** Where the config came from (a Pulumi.<stack>.yaml path or `scenario <x>`). */
  readonly source: string;
  readonly config: Readonly<Record<string, string>>;
  /** Config keys that were `secure:` values (their values are placeholders). */
  readonly secretKeys: readonly string[];
}

export interface PlannedResource {
  urn: string;
  type: string;
  name: string;
  parent: string | null;
  /** Inputs as the program passed them; secrets as "[secret]", values unknown until deploy as "<computed>". */
  inputs: Record<string, unknown>;
  /** URNs this resource depends on (explicit dependsOn and through its inputs). */
  dependencies: string[];
  custom: boolean;
  /** The provider reference (`<urn>::<id>`) the resource was registered with; not in `--json`. */
  provider: string | null;
  /** The lifecycle options it was registered with (what a change plan needs); not in `--json`. */
  options?: ResourceLifecycleOptions;
  /**
   * For comparing two plans (lab/plan/change), not in `--json`: the inputs with each secret as
   * `[secret sha256:<16 hex>]` of its value, so a changed secret shows as a change.
   */
  comparableInputs?: Record<string, unknown>;
  /** Input property → the URNs its value came from (RegisterResourceRequest.propertyDependencies); not in `--json`. */
  propertyDependencies?: Record<string, string[]>;
}

/** The resource options that decide what a change does to a resource (RegisterResourceRequest's fields). */
export interface ResourceLifecycleOptions {
  /** Input paths whose change replaces the resource (the SDK adds its own, e.g. @pulumi/command's `triggers[*]`). */
  readonly replaceOnChanges: readonly string[];
  /** Delete the old resource before creating its replacement. */
  readonly deleteBeforeReplace: boolean;
  /** Input paths whose changes are ignored (the state's old value is kept). */
  readonly ignoreChanges: readonly string[];
  /** A destroy or replacement leaves the cloud object in place. */
  readonly retainOnDelete: boolean;
}

export interface StackPlan {
  stack: string;
  kind: string;
  /** The config map as read, secrets redacted. */
  config: Record<string, string>;
  resources: PlannedResource[];
  /** Outputs; secrets as "[secret]", unknown-until-deploy as "<computed>". */
  outputs: Record<string, unknown>;
  /** The outputs that are secrets, known or not (an unknown secret shows as "<computed>"): for the policy rules on outputs. */
  secretOutputNames?: string[];
}

/** What a downstream plan's StackReference gets: real values (secrets included) and secret names. */
export interface PlannedOutputs {
  readonly outputs: Record<string, unknown>;
  readonly secretOutputNames: readonly string[];
}

export const PROJECT = PROJECT_NAMESPACE;
export { COMPUTED, SECRET } from "./markers";

export { PlanError } from "./errors";

/** Longest a plan may take; a program that never settles is a bug, reported as such. */
export const PLAN_TIMEOUT_MS = 60_000;

function timeout(stack: string): Promise<never> {
  return new Promise((_, reject) => {
    const t = setTimeout(
      () => reject(new PlanError(stack, new Error(`the plan of stack ${stack} did not settle in ${PLAN_TIMEOUT_MS / 1000} s`))),
      PLAN_TIMEOUT_MS,
    );
    t.unref();
  });
}

/**
 * A serialized property struct (as the monitor gets it) as plain JSON; `secret` says how a secret
 * shows (its value, and whether the value is known).
 */
function plainValue(v: unknown, secret: (value: unknown, known: boolean) => unknown): unknown {
  const again = (x: unknown) => plainValue(x, secret);
  if (v === rpc.unknownValue) return COMPUTED;
  if (Array.isArray(v)) return v.map(again);
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const sig = o[rpc.specialSigKey];
    if (sig === rpc.specialSecretSig) return secret(o.value, true);
    if (sig === rpc.specialResourceSig) return { urn: o.urn, id: o.id === undefined ? undefined : again(o.id) };
    if (sig === rpc.specialOutputValueSig) return o.secret ? secret(o.value, "value" in o) : "value" in o ? again(o.value) : COMPUTED;
    if (sig !== undefined) return `<${String(sig)}>`;
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(o)) out[k] = again(val);
    return out;
  }
  return v;
}

/** Turns a serialized property struct (as the monitor gets it) into plain JSON for the plan; secrets as "[secret]". */
export function displayValue(v: unknown): unknown {
  return plainValue(v, () => SECRET);
}

/** {@link displayValue}, but a secret shows its value (`--show-secrets`); an unknown one is "<computed>". */
export function revealedValue(v: unknown): unknown {
  return plainValue(v, (value, known) => (known ? revealedValue(value) : COMPUTED));
}

/** {@link displayValue}, but a secret shows as a digest of its value (for comparing plans, never printed). */
export function comparableValue(v: unknown): unknown {
  return plainValue(v, (value, known) =>
    known
      ? `[secret sha256:${createHash("sha256")
          .update(JSON.stringify(comparableValue(value)) ?? "")
          .digest("hex")
          .slice(0, 16)}]`
      : COMPUTED,
  );
}

/* The SDK's internal hooks the plan needs (marked @internal, so absent from its .d.ts files). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkState = require("@pulumi/pulumi/runtime/state") as { getStore(): { settings: { monitor: unknown } } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkSettings = require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkDebuggable = require("@pulumi/pulumi/runtime/debuggable") as {
  debuggablePromise: (<T>(p: Promise<T>, ctx: unknown) => Promise<T>) & { labQuiet?: true; labReports?: true };
};

/**
 * Stack traces the plan does not need, and which cost most of its time: the Node SDK formats one
 * for every promise its runtime makes and one (all frames) for every resource, and under `lab` each
 * formatted trace is mapped back through tsx's source maps. Profiled (`node --cpu-prof bin/lab.js
 * plan --all`, 8 stacks, 2 cores), formatting them took about 40 % of the CPU time. The plan skips both:
 * - `debuggablePromise` (@pulumi/pulumi runtime/debuggable.js) stores `new Error().stack` on each
 *   promise for a leak report printed only with PULUMI_DEBUG_PROMISE_LEAKS: the plan captures it
 *   with no frames (`Error.stackTraceLimit` 0 for the call, restored right after) unless that
 *   variable is set. The SDK's modules call it as `debuggable_1.debuggablePromise`, so replacing
 *   the export reaches every call;
 * - `Resource.callsites` (resource.js) formats the whole stack to send the resource's source
 *   position to the engine, which the mock monitor ignores (runtime/mocks.js `registerResource`
 *   reads type, name, inputs, provider, custom and import id only): the plan returns none.
 * Errors the program throws keep their full traces. Returns whether the traces are skipped.
 */
export function skipUnusedStackTraces(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.PULUMI_DEBUG_PROMISE_LEAKS) return false;
  const original = sdkDebuggable.debuggablePromise;
  if (original.labQuiet) return true;
  const quiet = <T>(p: Promise<T>, ctx: unknown): Promise<T> => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return original(p, ctx);
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
  sdkDebuggable.debuggablePromise = Object.assign(quiet, { labQuiet: true as const });
  (pulumi.Resource as unknown as { callsites(): unknown[] }).callsites = () => [];
  return true;
}
skipUnusedStackTraces();

/** Told, while a plan runs (plans run one after another), that a resource failed to register. */
let registrationFailed: ((label: string, e: unknown) => void) | undefined;

/**
 * A resource whose inputs fail (an input Output rejected, e.g. an error thrown in an `apply`) is
 * never sent to the monitor: the SDK's registration promise (labelled `resource:<name>[<type>]`,
 * runtime/resource.js `registerResource`; `…#...` for a component's outputs and for reads) rejects
 * with nobody awaiting it, and the outputs that depend on the resource stay pending. The plan learns
 * of it here, at once and with the resource's name, rather than from Node's `unhandledRejection`
 * event, which does not reach a plan run inside Jest (its sandboxed `process`).
 */
function reportFailedRegistrations(): void {
  const original = sdkDebuggable.debuggablePromise;
  if (original.labReports) return;
  const reporting = <T>(p: Promise<T>, ctx: unknown): Promise<T> => {
    const q = original(p, ctx);
    const onFailure = registrationFailed;
    if (onFailure && typeof ctx === "string" && ctx.startsWith("resource:")) q.catch((e) => onFailure(ctx, e));
    return q;
  };
  sdkDebuggable.debuggablePromise = Object.assign(reporting, { labReports: true as const, labQuiet: original.labQuiet });
}
reportFailedRegistrations();

/** `resource:<name>[<type>]` (or with `#...`), the SDK's label of a registration → `resource <type> '<name>'`. */
export function resourceOfLabel(label: string): string {
  const m = /^resource:(.*)\[([^\]]*)\](#\.\.\.)?$/.exec(label);
  return m ? `resource ${m[2]} '${m[1]}'` : label;
}

/** The rule an upstream stack name breaks when no plan or shipped config has that stack. */
function unresolvedRule(name: string): string {
  const last = name.split("/").pop();
  return `the name of a stack planned before it or shipped as Pulumi.<stack>.yaml (no stack named '${last}')`;
}

function unresolvable(name: string): string {
  const last = name.split("/").pop();
  return `stack reference '${name}' cannot be resolved: no planned stack named '${last}' (plan it first, or ship Pulumi.${last}.yaml)`;
}

type Resolver = (stackName: string) => PlannedOutputs | undefined;

/** How to plan a stack. */
export interface PlanMode {
  /** Answer as the engine does in the first preview of a new stack (see the top of this file). */
  readonly firstPreview?: boolean;
  /**
   * Show the values of secret inputs and outputs (`lab plan --show-secrets`, as `pulumi preview
   * --show-secrets`): a secret config key's value stays "[secret]" (the plan holds a placeholder,
   * never the stack's secret). @default false
   */
  readonly showSecrets?: boolean;
  /** What EC2 offers where, for the offline DescribeInstanceTypeOfferings (./fakes.ts FakeContext.offered). @default every type everywhere */
  readonly offered?: FakeContext["offered"];
}

/** An invoke a first preview answered `{}` because its provider's configuration was unknown. */
export interface EmptyInvoke {
  readonly token: string;
  /** The provider's URN. */
  readonly provider: string;
  /** The provider's config keys that held unknown values. */
  readonly unknownKeys: readonly string[];
}

/** Whether a serialized value (as the monitor gets it) holds an unknown anywhere. */
export function holdsUnknown(v: unknown): boolean {
  if (v === rpc.unknownValue) return true;
  if (Array.isArray(v)) return v.some(holdsUnknown);
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (o[rpc.specialSigKey] === rpc.specialOutputValueSig) return !("value" in o) || holdsUnknown(o.value);
    return Object.values(o).some(holdsUnknown);
  }
  return false;
}

/** The keys of a provider's serialized configuration that hold unknowns; `version` does not configure it. */
export function unknownConfigKeys(inputs: Record<string, unknown>): string[] {
  return Object.keys(inputs)
    .filter((k) => k !== "version" && holdsUnknown(inputs[k]))
    .sort();
}

/** What a failed first preview adds to the program's error: the invokes it answered `{}`. */
export function emptyInvokesNote(empty: readonly EmptyInvoke[]): string | undefined {
  if (empty.length === 0) return undefined;
  const lines = empty.map(
    (e) =>
      `  invoke ${e.token} through provider ${e.provider} answered {}: its configuration holds values unknown at preview (${e.unknownKeys.join(", ")})`,
  );
  return [`first preview: the engine answers invokes through an unconfigured provider with an empty result:`, ...lines].join("\n");
}

interface ResolvedOutput {
  known: boolean;
  secret: boolean;
  value: unknown;
}

// Output's resolution promises are internal to @pulumi/pulumi; this is the one place that reads them.
async function resolveOutput(value: unknown): Promise<ResolvedOutput> {
  const o = pulumi.output(value) as unknown as {
    promise(withUnknowns?: boolean): Promise<unknown>;
    isKnown: Promise<boolean>;
    isSecret: Promise<boolean>;
  };
  const [v, known, secret] = await Promise.all([o.promise(true), o.isKnown, o.isSecret]);
  return { known, secret, value: v };
}

/** Replaces values unknown until deploy (nested ones too) with COMPUTED. */
function showUnknowns(v: unknown): unknown {
  if (pulumi.Output.isInstance(v)) return COMPUTED;
  if (v !== null && typeof v === "object" && (v as object).constructor?.name === "Unknown") return COMPUTED;
  if (Array.isArray(v)) return v.map(showUnknowns);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, showUnknowns(x)]));
  return v;
}

/** What the mocks answer from: the upstream stacks, the mode, and what a first preview does not know. */
interface MockInputs {
  readonly resolve: Resolver;
  readonly firstPreview: boolean;
  readonly ctx: FakeContext;
  /** First preview: provider URN -> its config keys unknown at preview. */
  readonly unconfigured: ReadonlyMap<string, string[]>;
  /** First preview: the invokes answered {} (appended to). */
  readonly emptyInvokes: EmptyInvoke[];
}

/** The plan's mocks: StackReferences from the stacks planned before, the fakes (lab/plan/fakes.ts) for the rest. */
function planMocks({ resolve, firstPreview, ctx, unconfigured, emptyInvokes }: MockInputs): pulumi.runtime.Mocks {
  return {
    newResource(args: pulumi.runtime.MockResourceArgs): { id: string | undefined; state: Record<string, unknown> } {
      if (args.type === "pulumi:pulumi:StackReference") {
        const name = String(args.inputs.name);
        const up = resolve(name);
        if (!up) {
          throw new Error(unresolvable(name));
        }
        return { id: name, state: { name, outputs: up.outputs, secretOutputNames: [...up.secretOutputNames] } };
      }
      // First preview: the inputs only; no id (unknown) and every other output unknown.
      if (firstPreview) return { id: undefined, state: { ...args.inputs } };
      const fake = fakeState(args.type, args.name, args.inputs as Record<string, unknown>, ctx);
      return { id: args.custom === false ? undefined : fake.id, state: { ...args.inputs, ...fake.state } };
    },
    call(args: pulumi.runtime.MockCallArgs): Record<string, unknown> {
      // A provider reference is `<urn>::<id>`; a default provider's is empty (its config is the stack's, known).
      const provider = args.provider ? args.provider.slice(0, args.provider.lastIndexOf("::")) : "";
      const unknownKeys = unconfigured.get(provider);
      if (unknownKeys) {
        emptyInvokes.push({ token: args.token, provider, unknownKeys });
        return {};
      }
      return fakeCall(args.token, args.inputs as Record<string, unknown>, ctx);
    },
  };
}

/** A registered resource as the plan records it, from the SDK's RegisterResourceRequest. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function plannedResource(req: any, urn: string, showSecrets: boolean): PlannedResource {
  const propDeps: string[] = [];
  const byProperty: Record<string, string[]> = {};
  req.getPropertydependenciesMap().forEach((deps: { getUrnsList(): string[] }, key: string) => {
    propDeps.push(...deps.getUrnsList());
    if (deps.getUrnsList().length > 0) byProperty[key] = [...deps.getUrnsList()].sort();
  });
  const object = req.getObject()?.toJavaScript() ?? {};
  return {
    urn,
    type: req.getType(),
    name: req.getName(),
    parent: req.getParent() || null,
    inputs: (showSecrets ? revealedValue(object) : displayValue(object)) as Record<string, unknown>,
    dependencies: [...new Set([...req.getDependenciesList(), ...propDeps])].sort(),
    custom: req.getCustom(),
    provider: req.getProvider() || null,
    options: {
      replaceOnChanges: [...req.getReplaceonchangesList()],
      deleteBeforeReplace: req.getDeletebeforereplace() === true,
      ignoreChanges: [...req.getIgnorechangesList()],
      retainOnDelete: req.getRetainondelete() === true,
    },
    comparableInputs: comparableValue(object) as Record<string, unknown>,
    propertyDependencies: byProperty,
  };
}

/**
 * Plans one stack. `program` is the stack's program (stacks/index.ts `runStack`); `resolve`
 * answers its StackReferences from stacks planned before it.
 */
export async function planStack(
  spec: StackSpec,
  program: (
    raw: Readonly<Record<string, string>>,
    id: { project: string; stack: string },
  ) => Record<string, unknown> | Promise<Record<string, unknown>>,
  resolve: Resolver,
  mode: PlanMode = {},
): Promise<{ plan: StackPlan; planned: PlannedOutputs }> {
  const firstPreview = mode.firstPreview === true;
  // A name that no planned or shipped stack has is the user's to fix: a config error naming the key.
  // It hides no other problem: the program still runs, reading such a stack as one with no outputs,
  // and its config problems are reported with it (those about that key's outputs are dropped). A
  // malformed name is left to the program's name rule (stacks/lib/config/fields.ts `stackName`).
  const missing = stackReferences(spec.config).filter(({ stack }) => STACK_NAME_RE.test(stack) && !resolve(stack));
  // A secure: value of a key that must be plain (stacks/lib/config/common.ts): the program would read
  // the plan's placeholder in its place.
  const notPlain = spec.secretKeys.filter(mustBePlain);
  const known = [
    ...notPlain.map((key) => ({ key, line: problem(key, PLAIN_RULE, { secure: "…" }) })),
    ...missing.map(({ key, stack }) => ({ key, line: problem(key, unresolvedRule(stack), stack) })),
  ];
  const missingNames = new Set(missing.map(({ stack }) => stack));
  // The program's own problems join the ones known before it ran, but for the keys those are about.
  const withMissing = (e: unknown): unknown => {
    if (known.length === 0) return e;
    const cause = e instanceof PlanError ? e.cause : e;
    const about = (line: string) => known.some(({ key }) => line.startsWith(`'${key}' `));
    const own = cause instanceof ConfigError ? cause.problems.filter((l) => !about(l)) : [];
    return new ConfigError([...known.map((k) => k.line), ...own]);
  };
  const resolveOrNone: Resolver = (name) => resolve(name) ?? (missingNames.has(name) ? { outputs: {}, secretOutputNames: [] } : undefined);
  const region = spec.config["aws:region"] ?? "us-east-1";
  const ctx: FakeContext = { region, offered: mode.offered };
  // The first failure anywhere (a mock, a registration, an apply) fails the plan at once: a failed
  // read or registration leaves the outputs that depend on it pending forever.
  let failed = false;
  let failNow: (e: unknown, where?: string) => void = () => undefined;
  // First preview: provider URN -> its config keys unknown at preview; the invokes answered {}.
  const unconfigured = new Map<string, string[]>();
  const emptyInvokes: EmptyInvoke[] = [];
  const planError = (e: unknown, where?: string) => {
    if (e instanceof PlanError) return e;
    const note = [where && `while registering ${where}`, emptyInvokesNote(emptyInvokes)].filter((x) => x).join("\n");
    return new PlanError(spec.name, e, note || undefined);
  };
  const failure = new Promise<never>((_, reject) => {
    failNow = (e: unknown, where?: string) => {
      if (!failed) reject(planError(e, where));
      failed = true;
    };
  });
  failure.catch(() => undefined);
  const deadline = timeout(spec.name);
  deadline.catch(() => undefined);

  await pulumi.runtime.setMocks(
    planMocks({ resolve: resolveOrNone, firstPreview, ctx, unconfigured, emptyInvokes }),
    PROJECT,
    spec.name,
    true,
  );
  pulumi.runtime.setAllConfig({ ...spec.config }, [...spec.secretKeys]);

  const resources: PlannedResource[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const monitor = sdkState.getStore().settings.monitor as any;
  const register = monitor.registerResource.bind(monitor);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  monitor.registerResource = (req: any, callback: (err: unknown, resp: any) => void) =>
    register(req, (err: unknown, resp: { getUrn(): string }) => {
      if (err) failNow(err);
      else {
        // Recorded before the SDK learns the URN, so before any invoke can name this provider.
        if (firstPreview && String(req.getType()).startsWith("pulumi:providers:")) {
          const keys = unknownConfigKeys(req.getObject()?.toJavaScript() ?? {});
          if (keys.length > 0) unconfigured.set(resp.getUrn(), keys);
        }
        resources.push(plannedResource(req, resp.getUrn(), mode.showSecrets === true));
      }
      callback(err, resp);
    });

  const read = monitor.readResource.bind(monitor);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  monitor.readResource = (req: any, callback: (err: unknown, resp: unknown) => void) =>
    read(req, (err: unknown, resp: unknown) => {
      if (err) failNow(err);
      callback(err, resp);
    });

  const onRejection = (reason: unknown) => failNow(reason);
  registrationFailed = (label, e) => failNow(e, resourceOfLabel(label));
  process.on("unhandledRejection", onRejection);
  try {
    let exported: Record<string, unknown>;
    try {
      // A kind that reads upstream stacks awaits and checks them before it registers anything.
      exported = await Promise.race([Promise.resolve(program(spec.config, { project: PROJECT, stack: spec.name })), failure, deadline]);
    } catch (e) {
      throw planError(withMissing(e));
    }
    if (known.length > 0) throw planError(withMissing(undefined));
    const outputs: Record<string, unknown> = {};
    const planned: Record<string, unknown> = {};
    const secretOutputNames: string[] = [];
    for (const [key, value] of Object.entries(exported)) {
      let r: ResolvedOutput;
      try {
        r = await Promise.race([resolveOutput(value), failure, deadline]);
      } catch (e) {
        throw planError(e);
      }
      if (r.secret) secretOutputNames.push(key);
      outputs[key] = !r.known ? COMPUTED : r.secret && mode.showSecrets !== true ? SECRET : showUnknowns(r.value);
      planned[key] = r.known ? r.value : undefined;
    }
    await Promise.race([sdkSettings.waitForRPCs(), failure, deadline]);
    await new Promise((res) => setImmediate(res));
    if (failed) await failure;

    const config: Record<string, string> = {};
    for (const [k, v] of Object.entries(spec.config)) config[k] = spec.secretKeys.includes(k) ? SECRET : v;
    return {
      plan: { stack: spec.name, kind: spec.config["lab:kind"] ?? "", config, resources, outputs, secretOutputNames },
      planned: { outputs: planned, secretOutputNames },
    };
  } finally {
    registrationFailed = undefined;
    // After a failure the program's pending outputs keep rejecting: leave the sink in place then.
    if (!failed) process.off("unhandledRejection", onRejection);
  }
}
