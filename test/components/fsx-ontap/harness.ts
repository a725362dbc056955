/**
 * A program under Pulumi's mock runtime, recording what the offline plan does not: each resource's
 * inputs as plain values (secrets unwrapped, to parse the secret string), which inputs arrived
 * secret, and the resource options that decide replacement (replaceOnChanges, deleteBeforeReplace,
 * ignoreChanges), retention and timeouts. Resource state comes from the plan's own fakes.
 */
import * as pulumi from "@pulumi/pulumi";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { fakeState } from "../../../lab/plan/fakes";
import { displayValue, SECRET } from "../../../lab/plan/run";

/* The SDK's internal hooks (marked @internal), as lab/plan/run.ts reads them. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkState = require("@pulumi/pulumi/runtime/state") as { getStore(): { settings: { monitor: unknown } } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkSettings = require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> };

/** Mock inputs keep secrets wrapped (`{<sig>: <secret sig>, value}`): unwrap them. */
function unwrap(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unwrap);
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (o[rpc.specialSigKey] === rpc.specialSecretSig) return unwrap(o.value);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, unwrap(x)]));
  }
  return v;
}

export interface Captured {
  readonly type: string;
  readonly name: string;
  readonly urn: string;
  readonly parent: string;
  /** Plain input values (secrets unwrapped). */
  readonly inputs: Record<string, unknown>;
  /** Input names whose value was a secret. */
  readonly secretInputs: string[];
  readonly options: {
    readonly replaceOnChanges: string[];
    readonly deleteBeforeReplace: boolean;
    readonly ignoreChanges: string[];
    readonly retainOnDelete: boolean | undefined;
    readonly protect: boolean | undefined;
    readonly customTimeouts: { create: string; update: string; delete: string } | undefined;
  };
}

export interface Run {
  readonly resources: Captured[];
  readonly outputs: Record<string, { value: unknown; secret: boolean }>;
  /** Resources of one type. */
  ofType(type: string): Captured[];
  /** The one resource with this type and name. */
  one(type: string, name: string): Captured;
}

/** Runs `program` (which may create resources and return outputs) under mocks. */
export async function underMocks(
  program: () => Record<string, unknown> | void,
  opts: { stack?: string; region?: string; stackOutputs?: Record<string, Record<string, unknown>> } = {},
): Promise<Run> {
  const region = opts.region ?? "us-east-1";
  const plain = new Map<string, Record<string, unknown>>();
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        plain.set(`${args.type}::${args.name}`, unwrap(args.inputs) as Record<string, unknown>);
        if (args.type === "pulumi:pulumi:StackReference") {
          const name = String(args.inputs.name);
          const outputs = opts.stackOutputs?.[name];
          if (!outputs) throw new Error(`no outputs for stack reference ${name}`);
          return { id: name, state: { name, outputs, secretOutputNames: [] } };
        }
        const fake = fakeState(args.type, args.name, args.inputs, { region });
        return { id: args.custom === false ? undefined : fake.id, state: { ...args.inputs, ...fake.state } };
      },
      call(args) {
        throw new Error(`unexpected invoke ${args.token}`);
      },
    },
    "storage-bench-lab",
    opts.stack ?? "test",
    true,
  );

  const resources: Omit<Captured, "inputs">[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const monitor = sdkState.getStore().settings.monitor as any;
  const register = monitor.registerResource.bind(monitor);
  const failures: unknown[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  monitor.registerResource = (req: any, callback: (err: unknown, resp: any) => void) =>
    register(req, (err: unknown, resp: { getUrn(): string }) => {
      if (err) failures.push(err);
      else {
        const shown = displayValue(req.getObject()?.toJavaScript() ?? {}) as Record<string, unknown>;
        const timeouts = req.hasCustomtimeouts() ? req.getCustomtimeouts() : undefined;
        resources.push({
          type: req.getType(),
          name: req.getName(),
          urn: resp.getUrn(),
          parent: req.getParent(),
          secretInputs: Object.entries(shown)
            .filter(([, v]) => v === SECRET)
            .map(([k]) => k),
          options: {
            replaceOnChanges: req.getReplaceonchangesList(),
            deleteBeforeReplace: req.getDeletebeforereplace(),
            ignoreChanges: req.getIgnorechangesList(),
            retainOnDelete: req.hasRetainondelete() ? req.getRetainondelete() : undefined,
            protect: req.hasProtect() ? req.getProtect() : undefined,
            customTimeouts: timeouts
              ? { create: timeouts.getCreate(), update: timeouts.getUpdate(), delete: timeouts.getDelete() }
              : undefined,
          },
        });
      }
      callback(err, resp);
    });

  const onRejection = (reason: unknown) => failures.push(reason);
  process.on("unhandledRejection", onRejection);
  try {
    const exported = program() ?? {};
    const outputs: Record<string, { value: unknown; secret: boolean }> = {};
    for (const [key, value] of Object.entries(exported)) {
      const o = pulumi.output(value) as unknown as { promise(): Promise<unknown>; isSecret: Promise<boolean> };
      const [v, secret] = await Promise.all([o.promise(), o.isSecret]);
      outputs[key] = { value: v, secret };
    }
    await sdkSettings.waitForRPCs();
    await new Promise((res) => setImmediate(res));
    if (failures.length > 0) throw failures[0];
    const all: Captured[] = resources.map((r) => ({ ...r, inputs: plain.get(`${r.type}::${r.name}`) ?? {} }));
    return {
      resources: all,
      outputs,
      ofType: (type) => all.filter((r) => r.type === type),
      one: (type, name) => {
        const found = all.filter((r) => r.type === type && r.name === name);
        if (found.length !== 1) throw new Error(`${found.length} resources ${type} ${name}`);
        return found[0];
      },
    };
  } finally {
    process.off("unhandledRejection", onRejection);
  }
}
