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
 * - The Pulumi CLI cancels gracefully on its first SIGINT and terminates on the second
 *   (pulumi/pulumi pkg/backend/cancellation.go `NewScope`: "^C received; cancelling. If you would
 *   like to terminate immediately, press ^C again.").
 */
import { LocalWorkspace, OutputMap, PulumiCommand, Stack } from "@pulumi/pulumi/automation";
import type { ConfigMap, Deployment, DestroyOptions, StackSummary, UpOptions, WhoAmIResult } from "@pulumi/pulumi/automation";

/** Options the runner passes to `up` and `destroy`. */
export type OpOptions = Pick<UpOptions, "onOutput" | "onEvent" | "signal" | "color">;

/** One Pulumi stack, as the runner drives it. */
export interface RunStackHandle {
  readonly name: string;
  setAllConfig(config: ConfigMap): Promise<void>;
  up(opts: OpOptions): Promise<{ outputs: OutputMap }>;
  destroy(opts: OpOptions & Pick<DestroyOptions, "remove">): Promise<unknown>;
}

/** Where the runner gets its stacks. */
export interface RunWorkspace {
  createOrSelectStack(name: string): Promise<RunStackHandle>;
}

/** What the janitor reads and destroys. */
export interface JanitorWorkspace {
  listStacks(): Promise<StackSummary[]>;
  stackOutputs(stack: string): Promise<OutputMap>;
  exportStack(stack: string): Promise<Deployment>;
  getAllConfig(stack: string): Promise<ConfigMap>;
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

/** A LocalWorkspace on the project directory, as the runner's, the janitor's and preflight's workspace. */
export async function automationWorkspace(
  workDir: string,
  pulumiCommand?: PulumiCommand,
): Promise<RunWorkspace & JanitorWorkspace & BackendWorkspace> {
  const ws = await LocalWorkspace.create({ workDir, ...(pulumiCommand ? { pulumiCommand } : {}) });
  return {
    createOrSelectStack: (name) => Stack.createOrSelect(name, ws),
    whoAmI: () => ws.whoAmI(),
    listStacks: () => ws.listStacks(),
    stackOutputs: (stack) => ws.stackOutputs(stack),
    exportStack: (stack) => ws.exportStack(stack),
    getAllConfig: (stack) => ws.getAllConfig(stack),
    destroyStack: async (stack, opts) => {
      const s = await Stack.select(stack, ws);
      await s.destroy({ ...opts, remove: true });
    },
  };
}
