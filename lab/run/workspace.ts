/**
 * What the runner and the janitor need from Pulumi's Automation API (`@pulumi/pulumi/automation`),
 * as narrow interfaces that the real `Stack` and `LocalWorkspace` satisfy (checked at compile time
 * below) and that the tests fake.
 *
 * Facts about the Automation API 3.248 this relies on (node_modules/@pulumi/pulumi/automation):
 * - `LocalWorkspace.create({ workDir })` runs the Pulumi CLI in `workDir` (the project directory,
 *   where Pulumi.yaml is); creating it runs `pulumi version` and fails without the CLI
 *   (localWorkspace.js constructor → `PulumiCommand.get`).
 * - `Stack.createOrSelect(name, ws)` runs `pulumi stack select --stack <name>` and on
 *   `StackNotFoundError` `pulumi stack init <name>` (stack.js constructor, mode "createOrSelect").
 * - `stack.setAllConfig(map)` runs `pulumi config set-all --plaintext k=v …`, written to
 *   `Pulumi.<stack>.yaml` in the work dir (localWorkspace.js `setAllConfig`).
 * - `up`/`destroy` take `onOutput` (the CLI's stdout), `onEvent` (engine events) and `signal`
 *   (an AbortSignal: on abort the CLI process gets SIGINT, cmd.js `exec`: `proc.kill("SIGINT")`);
 *   `destroy({ remove: true })` also runs `pulumi stack rm --yes <stack>` (stack.js `destroy`).
 * - `stack select` and `stack init` rewrite the workspace's state file (~/.pulumi/workspaces/…):
 *   they "cannot be run in parallel" on one workspace (pulumi/pulumi#8186, open; corrupted JSON in
 *   #6287). {@link automationWorkspace} runs them, and `config set-all`, one at a time; only `up`
 *   and `destroy` (which take `--stack`) run in parallel.
 * - The Pulumi CLI cancels gracefully on its first SIGINT and terminates on the second
 *   (pulumi/pulumi pkg/backend/cancellation.go `NewScope`: "^C received; cancelling. If you would
 *   like to terminate immediately, press ^C again.").
 */
import { LocalWorkspace, OutputMap, PulumiCommand, Stack } from "@pulumi/pulumi/automation";
import type { ConfigMap, Deployment, DestroyOptions, StackSummary, UpOptions, WhoAmIResult } from "@pulumi/pulumi/automation";

/** Options the runner passes to `up` and `destroy`. */
export type OpOptions = Pick<UpOptions, "onOutput" | "onError" | "onEvent" | "signal" | "color">;

/** Options of `up` only: the CrossGuard packs it enforces (`--policy-pack`, stack.js `up`). */
export type UpOpOptions = OpOptions & Pick<UpOptions, "policyPacks">;

/** One Pulumi stack, as the runner drives it. */
export interface RunStackHandle {
  readonly name: string;
  setAllConfig(config: ConfigMap): Promise<void>;
  up(opts: UpOpOptions): Promise<{ outputs: OutputMap }>;
  destroy(opts: OpOptions & Pick<DestroyOptions, "remove">): Promise<unknown>;
}

/** Where the runner gets its stacks. */
export interface RunWorkspace {
  createOrSelectStack(name: string): Promise<RunStackHandle>;
}

/** What the janitor reads and destroys. */
export interface JanitorWorkspace {
  whoAmI(): Promise<WhoAmIResult>;
  listStacks(): Promise<StackSummary[]>;
  stackOutputs(stack: string): Promise<OutputMap>;
  exportStack(stack: string): Promise<Deployment>;
  destroyStack(stack: string, opts: OpOptions): Promise<void>;
}

/** What preflight asks the backend. */
export interface BackendWorkspace {
  whoAmI(): Promise<WhoAmIResult>;
  listStacks(): Promise<StackSummary[]>;
}

// Compile-time proof that the real Automation API objects fit these interfaces.
type Fits<T, U extends T> = U;
export type _StackFits = Fits<RunStackHandle, Stack>;
export type _WorkspaceFits = Fits<BackendWorkspace, LocalWorkspace>;

/** The Pulumi CLI the runner uses, and its version (`pulumi version`, through the Automation API). */
export async function pulumiCli(): Promise<PulumiCommand> {
  return PulumiCommand.get();
}

/** Runs the functions given to it one at a time, in call order (a rejected one does not stop the next). */
export function oneAtATime(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * A LocalWorkspace on `workDir` (where its Pulumi.yaml is: the run's own directory for `lab run`,
 * lab/run/workdir.ts; the project for the janitor), as the runner's, the janitor's and preflight's
 * workspace. Stack selection, creation and configuration go one at a time (see the file comment).
 */
export async function automationWorkspace(
  workDir: string,
  pulumiCommand?: PulumiCommand,
  opts: { readonly secretsProvider?: string } = {},
): Promise<RunWorkspace & JanitorWorkspace & BackendWorkspace> {
  // `secretsProvider`: the stacks this workspace creates encrypt their secrets with it (`pulumi stack init
  // --secrets-provider`, @pulumi/pulumi automation/localWorkspace.js createStack); stacks that exist keep theirs.
  const ws = await LocalWorkspace.create({
    workDir,
    ...(pulumiCommand ? { pulumiCommand } : {}),
    ...(opts.secretsProvider !== undefined ? { secretsProvider: opts.secretsProvider } : {}),
  });
  const serial = oneAtATime();
  return {
    createOrSelectStack: async (name) => {
      const stack = await serial(() => Stack.createOrSelect(name, ws));
      return {
        name: stack.name,
        setAllConfig: (config) => serial(() => stack.setAllConfig(config)),
        up: (opts) => stack.up(opts),
        destroy: (opts) => stack.destroy(opts),
      };
    },
    whoAmI: () => ws.whoAmI(),
    listStacks: () => ws.listStacks(),
    stackOutputs: (stack) => ws.stackOutputs(stack),
    exportStack: (stack) => ws.exportStack(stack),
    destroyStack: async (stack, opts) => {
      const s = await serial(() => Stack.select(stack, ws));
      await s.destroy({ ...opts, remove: true });
    },
  };
}
