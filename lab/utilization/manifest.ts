/**
 * Takes a run's manifest (core/manifest.ts) from where the facts are: the project's git checkout,
 * components/versions.ts, and each stack's config and state through the Pulumi CLI (`pulumi config
 * --json`, `pulumi stack export`) or any {@link StackSource}. The stack's upstream stacks (its
 * `lab:*Stack` keys, recursively) are part of it: an FSx benchmark ran on the fsx-ontap stack's
 * file system and the eks stack's nodes.
 *
 * The manifest is taken when a run's results are saved (lab/results/files.ts writes it into the
 * run directory and into every sample), from the checkout and the state as they are then: save
 * from the checkout you deployed from, before anything else changes.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pinned from "../../components/versions";
import { hashConfig, hashedConfig, sha256, type ConfigEntry, type Manifest, type StackFacts } from "../../core/manifest";
import { MANIFEST_FILE } from "../results/files";
import { readJsonIfPresent } from "./json-file";
import {
  clusterTargets,
  infraFacts,
  nodeGroupsMonitored,
  resourcesOf,
  utilTargets,
  type StackExport,
  type StateResource,
  type UtilTarget,
} from "./state";

/** Where a stack's config and state come from. */
export interface StackSource {
  /** `pulumi config --json --stack <stack>`: key → {value, secret}. */
  config(stack: string): Readonly<Record<string, ConfigEntry>>;
  /** `pulumi stack export --stack <stack>`. */
  exportStack(stack: string): StackExport;
  /**
   * The Kubernetes objects of the cluster a stack exports the kubeconfig of (an `eks` stack):
   * `kubectl get persistentvolumes,storageclasses,volumeattachments,nodes -o json`, for the
   * volumes PVCs created and the nodes' own instances (lab/utilization/state.ts `clusterTargets`).
   * Absent: not asked.
   */
  clusterObjects?(stack: string): unknown;
}

/** manifest.json of a run directory: the manifest, the configs it hashed, the resources to sample. */
export interface ManifestFile {
  readonly schema: 1;
  readonly manifest: Manifest;
  /** Per stack, what its config hash covers (core/manifest.ts hashedConfig): says what differs when two hashes do. */
  readonly configs: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** What CloudWatch reports on, with the configured limits (lab/utilization/state.ts). */
  readonly resources: readonly UtilTarget[];
  /** Set when the results are what a failed run had completed (lab/run/partial.ts): why, and which collectors. */
  readonly partial?: { readonly reason: string; readonly collectors: readonly string[] };
  /** What could not be found out while taking it (a cluster that could not be listed); absent when nothing. */
  readonly notes?: readonly string[];
}

/** The file's name in a run directory (lab/results/files.ts owns the run directory's names). */
export { MANIFEST_FILE };

function run(cmd: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(cmd, [...args], {
      cwd,
      env: process.env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (e) {
    const err = e as { code?: string; stderr?: string; message: string };
    if (err.code === "ENOENT") throw new Error(`${cmd} is not on the PATH`);
    throw new Error(`${cmd} ${args.join(" ")} failed: ${(err.stderr ?? err.message).trim()}`);
  }
}

/** The kinds `clusterObjects` lists, as kubectl names them. */
export const CLUSTER_KINDS = "persistentvolumes,storageclasses.storage.k8s.io,volumeattachments.storage.k8s.io,nodes";

/**
 * A {@link StackSource} over the Pulumi CLI, run in `cwd` (the project directory); a stack's
 * cluster through `kubectl` with the stack's `kubeconfig` output (written to a private temporary
 * file, removed after the call).
 */
export function pulumiCliSource(cwd: string, pulumi = "pulumi", kubectl = "kubectl"): StackSource {
  const json = (args: string[]) => {
    const text = run(pulumi, args, cwd);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`${pulumi} ${args.join(" ")} did not print JSON`);
    }
  };
  return {
    config: (stack) => json(["config", "--json", "--stack", stack]) as Record<string, ConfigEntry>,
    exportStack: (stack) => json(["stack", "export", "--stack", stack]) as StackExport,
    clusterObjects: (stack) => {
      const value = json(["stack", "output", "kubeconfig", "--show-secrets", "--json", "--stack", stack]);
      const text = typeof value === "string" ? value : JSON.stringify(value);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-kubeconfig-"));
      try {
        const file = path.join(dir, "config");
        fs.writeFileSync(file, text, { mode: 0o600 });
        let out: string;
        try {
          out = run(kubectl, ["--kubeconfig", file, "get", CLUSTER_KINDS, "-o", "json"], cwd);
        } catch (e) {
          // The temporary file's name says nothing to a reader: named for what it holds.
          throw new Error((e as Error).message.split(file).join("<kubeconfig>"));
        }
        try {
          return JSON.parse(out) as unknown;
        } catch {
          throw new Error(`${kubectl} get ${CLUSTER_KINDS} -o json did not print JSON`);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The checkout's commit, whether it has changes, and a hash of them (tracked diff and untracked files). */
export function gitState(root: string, git = "git"): Manifest["git"] {
  let commit: string;
  let status: string;
  try {
    commit = run(git, ["rev-parse", "HEAD"], root).trim();
    status = run(git, ["status", "--porcelain=v1", "--untracked-files=all"], root);
  } catch {
    // Results are never lost for want of git: an unknown checkout is recorded as such.
    return { commit: "unknown", dirty: true };
  }
  if (status.trim() === "") return { commit, dirty: false };
  const diff = run(git, ["diff", "HEAD", "--binary"], root);
  const untracked = run(git, ["ls-files", "--others", "--exclude-standard", "-z"], root)
    .split("\0")
    .filter((f) => f !== "")
    .sort();
  const h = [
    status,
    diff,
    ...untracked.map(
      (f) => `${f}\0${sha256(fs.existsSync(path.join(root, f)) ? fs.readFileSync(path.join(root, f)).toString("latin1") : "")}`,
    ),
  ].join("\n");
  return { commit, dirty: true, diffHash: sha256(h) };
}

/** Every pin of components/versions.ts (or `mod`), flattened: `ROOK_CHART.version` → `v1.20.6`. */
export function pinnedVersions(mod: Readonly<Record<string, unknown>> = pinned): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (prefix: string, v: unknown) => {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[prefix] = String(v);
    else if (typeof v === "object" && v !== null) for (const [k, x] of Object.entries(v)) walk(`${prefix}.${k}`, x);
  };
  for (const [k, v] of Object.entries(mod)) walk(k, v);
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k]]),
  );
}

/** The last segment of `org/project/stack`. */
export function shortName(stack: string): string {
  return stack.split("/").pop() as string;
}

const REFERENCE = /^lab:[A-Za-z0-9]+Stack$/;

export interface TakeOptions {
  /** The project directory (the git checkout). */
  readonly root: string;
  /** The command line that produced the results. @default process.argv after the node binary */
  readonly command?: string;
  readonly now?: Date;
  /** A stack's name in the manifest. @default its last segment ({@link shortName}) */
  readonly nameOf?: (stack: string) => string;
  /** Overrides {@link gitState} (tests). */
  readonly git?: Manifest["git"];
}

/** Quotes one argument for a POSIX shell when it needs it. */
function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/**
 * The manifest of `stack` (as the Pulumi CLI names it) and of every stack it reads, with the
 * configs hashed and the resources CloudWatch can report on. Throws when a stack's config or
 * export cannot be read.
 */
export function takeManifest(stack: string, source: StackSource, opts: TakeOptions): ManifestFile {
  const nameOf = opts.nameOf ?? shortName;
  const order: string[] = [];
  const configs = new Map<string, Readonly<Record<string, ConfigEntry>>>();
  const exports = new Map<string, readonly StateResource[]>();
  const visit = (s: string) => {
    if (configs.has(s)) return;
    const cfg = source.config(s);
    configs.set(s, cfg);
    exports.set(s, resourcesOf(s, source.exportStack(s)));
    order.push(s);
    for (const [k, e] of Object.entries(cfg)) if (REFERENCE.test(k) && typeof e.value === "string" && e.value !== "") visit(e.value);
  };
  visit(stack);
  const all = [...exports.values()].flat();
  const stacks: Record<string, StackFacts> = {};
  const hashed: Record<string, Record<string, string>> = {};
  const resources: UtilTarget[] = [];
  const notes: string[] = [];
  for (const s of order) {
    const cfg = configs.get(s)!;
    const own = exports.get(s)!;
    const f = infraFacts(own, all);
    const kind = cfg["lab:kind"]?.value;
    stacks[nameOf(s)] = {
      ...(kind === undefined ? {} : { kind }),
      configHash: hashConfig(cfg),
      azs: f.azs,
      azIds: f.azIds,
      amiIds: f.amiIds,
      instanceTypes: f.instanceTypes,
      images: f.images,
    };
    hashed[nameOf(s)] = hashedConfig(cfg);
    resources.push(...utilTargets(own));
    if (kind === "eks" && source.clusterObjects !== undefined) {
      try {
        const c = clusterTargets(source.clusterObjects(s), nodeGroupsMonitored(own));
        resources.push(...c.targets);
        notes.push(...c.notes.map((n) => `stack ${nameOf(s)}: ${n}`));
      } catch (e) {
        notes.push(
          `stack ${nameOf(s)}: the cluster's volumes and nodes could not be listed (${e instanceof Error ? e.message : String(e)}): gp3 volumes created by PVCs and the nodes' own CPU are not sampled`,
        );
      }
    }
  }
  const manifest: Manifest = {
    schema: 1,
    git: opts.git ?? gitState(opts.root),
    versions: pinnedVersions(),
    region: configs.get(stack)?.["aws:region"]?.value ?? "",
    stacks,
    command: opts.command ?? process.argv.slice(1).map(shellWord).join(" "),
    createdAt: (opts.now ?? new Date()).toISOString(),
  };
  return { schema: 1, manifest, configs: hashed, resources, ...(notes.length === 0 ? {} : { notes }) };
}

/** Reads a run directory's manifest.json; undefined when there is none. */
export function readManifestFile(dir: string): ManifestFile | undefined {
  const file = path.join(dir, MANIFEST_FILE);
  const data = readJsonIfPresent(file);
  if (data === undefined) return undefined;
  const m = data as Partial<ManifestFile>;
  if (m?.schema !== 1 || typeof m.manifest !== "object" || typeof m.configs !== "object" || !Array.isArray(m.resources)) {
    throw new Error(`${file}: not a manifest file (schema 1 with manifest, configs, resources)`);
  }
  return m as ManifestFile;
}
