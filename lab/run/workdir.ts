/**
 * A run's own Pulumi work directory, so that a run writes nothing into the project (the tracked
 * tree): `config set-all` writes `Pulumi.<stack>.yaml` in the workspace's work directory
 * (@pulumi/pulumi automation/localWorkspace.js `setAllConfig`), next to its `Pulumi.yaml`.
 *
 * The directory holds a `Pulumi.yaml` (the project's, `main` rewritten) and `program`, a symbolic
 * link to the project directory. The CLI requires `main` to be a relative path below the
 * Pulumi.yaml ("project 'main' must be a relative path" / "must be a subfolder", pulumi/pulumi
 * pkg/engine/project.go `GetPwdMain`), which `program/<main>` is; it runs the program with its
 * working directory at `main`'s directory (the same function), i.e. the project through the link,
 * so the program's relative paths and its `tsconfig.json` (resolved against that directory,
 * @pulumi/pulumi cmd/run/run.js) are the project's. Node resolves the program's modules from their
 * real path, the project's node_modules.
 *
 * The directory lies outside the project (`~/.storage-bench-lab/runs/<scenario>-<runId>/`, or under
 * `LAB_WORK_ROOT`): a link back to the project inside the project would be a cycle for every tool
 * that walks the tree.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse, stringify } from "yaml";

/** Where run work directories live: `$LAB_WORK_ROOT`, or `~/.storage-bench-lab/runs`. */
export function workRoot(env: Readonly<Record<string, string | undefined>> = process.env, home = os.homedir()): string {
  return env.LAB_WORK_ROOT && env.LAB_WORK_ROOT !== "" ? path.resolve(env.LAB_WORK_ROOT) : path.join(home, ".storage-bench-lab", "runs");
}

/** The name of the link to the project inside a run's work directory. */
export const PROGRAM_LINK = "program";

/** The work directory's Pulumi.yaml: the project's settings with `main` under the link. */
export function runProjectFile(projectYaml: string): string {
  const doc = parse(projectYaml) as Record<string, unknown> | null;
  if (!doc || typeof doc !== "object" || typeof doc.name !== "string") throw new Error("Pulumi.yaml: no project name");
  const main = typeof doc.main === "string" && doc.main !== "" ? doc.main : ".";
  if (path.isAbsolute(main)) throw new Error(`Pulumi.yaml: 'main' must be a relative path, got ${main}`);
  return stringify({ ...doc, main: path.posix.join(PROGRAM_LINK, main.split(path.sep).join("/")) });
}

/**
 * Creates (or reuses) `<root>/<scenario>-<runId>/` for the project at `projectDir`; returns it.
 * Throws when a file other than the expected link is in the way.
 */
export function createRunWorkDir(projectDir: string, scenario: string, runId: string, root = workRoot()): string {
  const dir = path.join(root, `${scenario}-${runId}`);
  fs.mkdirSync(dir, { recursive: true });
  const link = path.join(dir, PROGRAM_LINK);
  const target = path.resolve(projectDir);
  if (fs.existsSync(link) || isLink(link)) {
    if (!isLink(link) || path.resolve(dir, fs.readlinkSync(link)) !== target)
      throw new Error(`${link} exists and is not a link to ${target}: remove it, or pick another --run-id`);
  } else fs.symlinkSync(target, link, "dir");
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), runProjectFile(fs.readFileSync(path.join(target, "Pulumi.yaml"), "utf8")));
  return dir;
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Removes a run's work directory once none of its stacks is left (all destroyed, or none created):
 * the link to the project is unlinked first, never followed, then the directory (its Pulumi.yaml
 * and the stacks' Pulumi.<stack>.yaml) goes. A run that keeps stacks (`--keep`, or a destroy that
 * failed) keeps it: the commands that finish its cleanup run there.
 */
export function removeRunWorkDir(dir: string): void {
  const link = path.join(dir, PROGRAM_LINK);
  if (isLink(link)) fs.unlinkSync(link);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A run's work directory as found on this machine. */
export interface RunWorkDir {
  readonly dir: string;
  /** `<scenario>-<runId>`. */
  readonly name: string;
  /** The stacks whose `Pulumi.<stack>.yaml` it holds (the stack name's last segment, as the Pulumi CLI names the file). */
  readonly stacks: readonly string[];
}

const STACK_FILE = /^Pulumi\.(.+)\.ya?ml$/;

/**
 * The run work directories under `root` (those holding the project link or a Pulumi.yaml), by name;
 * none when `root` does not exist. Other entries are not the lab's and are left out.
 */
export function listRunWorkDirs(root = workRoot()): RunWorkDir[] {
  let names: string[];
  try {
    names = fs.readdirSync(root).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const out: RunWorkDir[] = [];
  for (const name of names) {
    const dir = path.join(root, name);
    let entries: string[];
    try {
      if (!fs.lstatSync(dir).isDirectory()) continue;
      entries = fs.readdirSync(dir);
    } catch {
      continue;
    }
    if (!entries.includes(PROGRAM_LINK) && !entries.includes("Pulumi.yaml")) continue;
    const stacks = entries.flatMap((f) => {
      const m = STACK_FILE.exec(f);
      return m ? [m[1]] : [];
    });
    out.push({ dir, name, stacks: stacks.sort() });
  }
  return out;
}
