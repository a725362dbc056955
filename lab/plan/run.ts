/**
 * Runs a real stack program under Pulumi's mock runtime (preview mode, no engine, no cloud) and
 * records what it would deploy: every resource with its parent, its dependencies and its inputs
 * as the program passed them, and the stack's outputs.
 *
 * Pulumi's MockMonitor hands mocks only (type, name, inputs); parents and dependencies live on the
 * RegisterResource request, so the monitor's registerResource is wrapped to read them there.
 * Stacks are planned one after another in one process: each plan installs fresh mocks.
 */
import * as pulumi from "@pulumi/pulumi";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { ConfigError } from "../../core/errors";
import { fakeCall, fakeState, FakeContext } from "./fakes";
import { COMPUTED, SECRET } from "./markers";
import { stackReferences } from "./sources";

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
}

export interface StackPlan {
  stack: string;
  kind: string;
  /** The config map as read, secrets redacted. */
  config: Record<string, string>;
  resources: PlannedResource[];
  /** Outputs; secrets as "[secret]", unknown-until-deploy as "<computed>". */
  outputs: Record<string, unknown>;
}

/** What a downstream plan's StackReference gets: real values (secrets included) and secret names. */
export interface PlannedOutputs {
  readonly outputs: Record<string, unknown>;
  readonly secretOutputNames: readonly string[];
}

export const PROJECT = "storage-bench-lab";
export { COMPUTED, SECRET } from "./markers";

/** A program error (config, upstream, program bug) with the stack it came from. */
export class PlanError extends Error {
  constructor(
    readonly stack: string,
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = cause instanceof ConfigError ? "ConfigError" : "PlanError";
  }
}

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

/** Turns a serialized property struct (as the monitor gets it) into plain JSON for the plan. */
export function displayValue(v: unknown): unknown {
  if (v === rpc.unknownValue) return COMPUTED;
  if (Array.isArray(v)) return v.map(displayValue);
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const sig = o[rpc.specialSigKey];
    if (sig === rpc.specialSecretSig) return SECRET;
    if (sig === rpc.specialResourceSig) return { urn: o.urn, id: o.id === undefined ? undefined : displayValue(o.id) };
    if (sig === rpc.specialOutputValueSig) return o.secret ? SECRET : "value" in o ? displayValue(o.value) : COMPUTED;
    if (sig !== undefined) return `<${String(sig)}>`;
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(o)) out[k] = displayValue(val);
    return out;
  }
  return v;
}

/* The SDK's internal hooks the plan needs (marked @internal, so absent from its .d.ts files). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkState = require("@pulumi/pulumi/runtime/state") as { getStore(): { settings: { monitor: unknown } } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkSettings = require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> };

function unresolvable(name: string): string {
  const last = name.split("/").pop();
  return `stack reference '${name}' cannot be resolved: no planned stack named '${last}' (plan it first, or ship Pulumi.${last}.yaml)`;
}

type Resolver = (stackName: string) => PlannedOutputs | undefined;

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

/**
 * Plans one stack. `program` is the stack's program (stacks/index.ts `runStack`); `resolve`
 * answers its StackReferences from stacks planned before it.
 */
export async function planStack(
  spec: StackSpec,
  program: (raw: Readonly<Record<string, string>>, id: { project: string; stack: string }) => Record<string, unknown>,
  resolve: Resolver,
): Promise<{ plan: StackPlan; planned: PlannedOutputs }> {
  // Upstream references are checked before the program runs: a failed StackReference read leaves
  // every Output that depends on it rejecting in the background.
  for (const { stack } of stackReferences(spec.config)) {
    if (!resolve(stack)) throw new PlanError(spec.name, new Error(unresolvable(stack)));
  }
  const region = spec.config["aws:region"] ?? "us-east-1";
  const ctx: FakeContext = { region };
  // The first failure anywhere (a mock, a registration, an apply) fails the plan at once: a failed
  // read or registration leaves the outputs that depend on it pending forever.
  let failed = false;
  let failNow: (e: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => {
    failNow = (e: unknown) => {
      if (!failed) reject(new PlanError(spec.name, e));
      failed = true;
    };
  });
  failure.catch(() => undefined);
  const deadline = timeout(spec.name);
  deadline.catch(() => undefined);

  await pulumi.runtime.setMocks(
    {
      newResource(args: pulumi.runtime.MockResourceArgs): { id: string | undefined; state: Record<string, unknown> } {
        if (args.type === "pulumi:pulumi:StackReference") {
          const name = String(args.inputs.name);
          const up = resolve(name);
          if (!up) {
            throw new Error(unresolvable(name));
          }
          return { id: name, state: { name, outputs: up.outputs, secretOutputNames: [...up.secretOutputNames] } };
        }
        const fake = fakeState(args.type, args.name, args.inputs as Record<string, unknown>, ctx);
        return { id: args.custom === false ? undefined : fake.id, state: { ...args.inputs, ...fake.state } };
      },
      call(args: pulumi.runtime.MockCallArgs): Record<string, unknown> {
        return fakeCall(args.token, args.inputs as Record<string, unknown>, ctx);
      },
    },
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
        const propDeps: string[] = [];
        req.getPropertydependenciesMap().forEach((deps: { getUrnsList(): string[] }) => propDeps.push(...deps.getUrnsList()));
        resources.push({
          urn: resp.getUrn(),
          type: req.getType(),
          name: req.getName(),
          parent: req.getParent() || null,
          inputs: displayValue(req.getObject()?.toJavaScript() ?? {}) as Record<string, unknown>,
          dependencies: [...new Set([...req.getDependenciesList(), ...propDeps])].sort(),
          custom: req.getCustom(),
          provider: req.getProvider() || null,
        });
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
  process.on("unhandledRejection", onRejection);
  try {
    let exported: Record<string, unknown>;
    try {
      exported = program(spec.config, { project: PROJECT, stack: spec.name });
    } catch (e) {
      throw new PlanError(spec.name, e);
    }
    const outputs: Record<string, unknown> = {};
    const planned: Record<string, unknown> = {};
    const secretOutputNames: string[] = [];
    for (const [key, value] of Object.entries(exported)) {
      let r: ResolvedOutput;
      try {
        r = await Promise.race([resolveOutput(value), failure, deadline]);
      } catch (e) {
        throw e instanceof PlanError ? e : new PlanError(spec.name, e);
      }
      if (r.secret) secretOutputNames.push(key);
      outputs[key] = !r.known ? COMPUTED : r.secret ? SECRET : showUnknowns(r.value);
      planned[key] = r.known ? r.value : undefined;
    }
    await Promise.race([sdkSettings.waitForRPCs(), failure, deadline]);
    await new Promise((res) => setImmediate(res));
    if (failed) await failure;

    const config: Record<string, string> = {};
    for (const [k, v] of Object.entries(spec.config)) config[k] = spec.secretKeys.includes(k) ? SECRET : v;
    return {
      plan: { stack: spec.name, kind: spec.config["lab:kind"] ?? "", config, resources, outputs },
      planned: { outputs: planned, secretOutputNames },
    };
  } finally {
    // After a failure the program's pending outputs keep rejecting: leave the sink in place then.
    if (!failed) process.off("unhandledRejection", onRejection);
  }
}
