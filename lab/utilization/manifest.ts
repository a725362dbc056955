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
import { z } from "zod";
import { MIN_TOKEN_SECONDS } from "../../components/bench/access";
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
   * The Kubernetes objects of the cluster a stack exports the kubeconfig of (an `eks` stack): its
   * PersistentVolumes, StorageClasses, VolumeAttachments and nodes as one `List`, for the volumes
   * PVCs created and the nodes' own instances (lab/utilization/state.ts `clusterTargets`), read as
   * the stack's `utilizationAccess` ServiceAccount ({@link pulumiCliSource}). Absent: not asked.
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

/**
 * The reads of the cluster the manifest makes, all of them: one LIST of each, by its REST path
 * (`kubectl get --raw <path>`: no discovery, the request is exactly this one), and the apiVersion
 * and kind of its items (the API server leaves them out of a list's items). The eks stack's
 * `utilizationAccess` ServiceAccount may make these and nothing else
 * (stacks/eks/utilization-access.ts; test/lab/utilization/access.test.ts reads them from here).
 */
export const CLUSTER_LISTS = [
  { path: "/api/v1/persistentvolumes", apiVersion: "v1", kind: "PersistentVolume" },
  { path: "/apis/storage.k8s.io/v1/storageclasses", apiVersion: "storage.k8s.io/v1", kind: "StorageClass" },
  { path: "/apis/storage.k8s.io/v1/volumeattachments", apiVersion: "storage.k8s.io/v1", kind: "VolumeAttachment" },
  { path: "/api/v1/nodes", apiVersion: "v1", kind: "Node" },
] as const;

/** The eks stack's output naming the ServiceAccount the manifest reads the cluster as. */
export const ACCESS_OUTPUT = "utilizationAccess";

/** Its shape (stacks/eks/outputs.ts `eksOutputs.utilizationAccess`, checked equal by test/lab/utilization/access.test.ts). */
export const accessOutputSchema = z.object({ namespace: z.string().min(1), serviceAccount: z.string().min(1) });

/**
 * The token's lifetime: the shortest the API server issues (components/bench/access.ts
 * `MIN_TOKEN_SECONDS`); the four reads take seconds.
 */
export const ACCESS_TOKEN_SECONDS = MIN_TOKEN_SECONDS;

/** The kubeconfig user of the reads. */
const READER = "lab-utilization";

/** The TokenRequest path of a ServiceAccount (authentication.k8s.io/v1, a subresource of serviceaccounts). */
export const tokenRequestPath = (namespace: string, serviceAccount: string) =>
  `/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token`;

/**
 * The cluster of an eks stack's `outputs` (`pulumi stack output --json --show-secrets`), listed as its
 * `utilizationAccess` ServiceAccount with `kubectl` run in `cwd`:
 * 1. the admin kubeconfig (the `kubeconfig` output) goes to a private temporary file, and kubectl
 *    reads the current context's cluster from it (`config view --minify --raw --flatten`: local);
 * 2. one request as admin, the TokenRequest for the ServiceAccount (`create --raw`, a POST of a
 *    `TokenRequest` with `expirationSeconds` {@link ACCESS_TOKEN_SECONDS});
 * 3. the {@link CLUSTER_LISTS} reads with that token, through a kubeconfig of the same cluster
 *    and a token user, in the same private directory (never `--token` on a command line, which
 *    other users of the machine can read in the process list), removed after the calls.
 * kubectl sends credentials over TLS only (k8s.io/client-go tools/clientcmd client_config.go reads
 * the user's credentials only when the server's transport is TLS): a cluster is reached by https.
 *
 * A stack without the output (an eks stack deployed before it existed) is refused, not read as
 * admin: the error says to update the stack.
 */
export function listClusterAsReader(outputs: Readonly<Record<string, unknown>>, kubectl: string, cwd: string): unknown {
  const raw = outputs[ACCESS_OUTPUT];
  if (raw === undefined)
    throw new Error(
      `the stack has no ${ACCESS_OUTPUT} output (an eks stack deployed before it existed: \`pulumi up\` it to create the ServiceAccount); the cluster is not read with its admin kubeconfig`,
    );
  const access = accessOutputSchema.safeParse(raw);
  if (!access.success)
    throw new Error(`the stack's ${ACCESS_OUTPUT} output must be {namespace, serviceAccount}, got ${JSON.stringify(raw)}`);
  const { namespace, serviceAccount } = access.data;
  const account = `ServiceAccount ${namespace}/${serviceAccount}`;
  const kubeconfig = outputs.kubeconfig;
  if (kubeconfig === undefined || kubeconfig === "") throw new Error("the stack has no kubeconfig output");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-kubeconfig-"));
  const admin = path.join(dir, "config");
  const reader = path.join(dir, "reader");
  const body = path.join(dir, "token-request.json");
  // The temporary files' names say nothing to a reader: named for what they hold.
  const named = (e: unknown) =>
    new Error(
      (e as Error).message.split(admin).join("<kubeconfig>").split(reader).join("<token kubeconfig>").split(body).join("<token request>"),
    );
  const kube = (file: string, args: readonly string[], what: string): unknown => {
    let out: string;
    try {
      out = run(kubectl, ["--kubeconfig", file, ...args], cwd);
    } catch (e) {
      throw named(e);
    }
    try {
      return JSON.parse(out) as unknown;
    } catch {
      throw new Error(`${kubectl} ${what} did not print JSON`);
    }
  };
  try {
    fs.writeFileSync(admin, typeof kubeconfig === "string" ? kubeconfig : JSON.stringify(kubeconfig), { mode: 0o600 });
    const view = kube(admin, ["config", "view", "--minify", "--raw", "--flatten", "-o", "json"], "config view") as {
      clusters?: Array<{ cluster?: unknown }>;
    };
    const cluster = view.clusters?.[0]?.cluster;
    if (cluster === undefined) throw new Error("the stack's kubeconfig has no current cluster");
    fs.writeFileSync(
      body,
      JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: ACCESS_TOKEN_SECONDS } }),
      { mode: 0o600 },
    );
    let answer: { status?: { token?: unknown } };
    try {
      answer = kube(admin, ["create", "--raw", tokenRequestPath(namespace, serviceAccount), "-f", body], "create --raw") as typeof answer;
    } catch (e) {
      throw new Error(`cannot get a token of ${account} (the stack's ${ACCESS_OUTPUT}): ${(e as Error).message}`);
    }
    const token = answer.status?.token;
    if (typeof token !== "string" || token === "") throw new Error(`the TokenRequest of ${account} answered no token`);
    fs.writeFileSync(
      reader,
      JSON.stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "cluster", cluster }],
        users: [{ name: READER, user: { token } }],
        contexts: [{ name: READER, context: { cluster: "cluster", user: READER } }],
        "current-context": READER,
      }),
      { mode: 0o600 },
    );
    const items = CLUSTER_LISTS.flatMap((l) => {
      const list = kube(reader, ["get", "--raw", l.path], `get --raw ${l.path}`) as { items?: unknown };
      if (!Array.isArray(list.items)) throw new Error(`${kubectl} get --raw ${l.path} printed no list`);
      return list.items.map((i) => ({ apiVersion: l.apiVersion, kind: l.kind, ...(i as object) }));
    });
    return { apiVersion: "v1", kind: "List", items };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A {@link StackSource} over the Pulumi CLI, run in `cwd` (the project directory); a stack's
 * cluster through `kubectl` as the stack's `utilizationAccess` ServiceAccount
 * ({@link listClusterAsReader}).
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
    clusterObjects: (stack) =>
      listClusterAsReader(json(["stack", "output", "--json", "--show-secrets", "--stack", stack]) as Record<string, unknown>, kubectl, cwd),
  };
}

/**
 * One untracked path's part of the changes' hash, by what `lstat` says it is, never following a
 * link and never opening anything but a regular file: a file by its content; a symbolic link by
 * its target (a `results` link to a bigger disk, a linked `node_modules`: the link is what the
 * checkout holds, not what it points at); a FIFO, socket, device or directory by its kind alone (a
 * FIFO's read would block until a writer comes). A path that cannot be read is hashed by its kind
 * and size and named in `unhashed`, with the system's reason.
 */
function untrackedEntry(root: string, f: string): { entry: string; unhashed?: string } {
  const p = path.join(root, f);
  const why = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch (e) {
    // listed by git, gone before it was read (a file written and removed while the run saved)
    return { entry: `${f}\0missing`, unhashed: `${f}: ${why(e)}` };
  }
  if (st.isSymbolicLink()) {
    try {
      return { entry: `${f}\0symlink\0${fs.readlinkSync(p)}` };
    } catch (e) {
      return { entry: `${f}\0symlink`, unhashed: `${f}: ${why(e)}` };
    }
  }
  if (!st.isFile()) {
    const kind = st.isFIFO() ? "fifo" : st.isSocket() ? "socket" : st.isDirectory() ? "directory" : "device";
    return { entry: `${f}\0${kind}` };
  }
  try {
    return { entry: `${f}\0file\0${sha256(fs.readFileSync(p).toString("latin1"))}` };
  } catch (e) {
    return { entry: `${f}\0file\0${st.size}`, unhashed: `${f}: ${why(e)}` };
  }
}

/**
 * The checkout's commit, whether it has changes, and a hash of them (tracked diff and untracked
 * files). Never throws: results are saved whatever the checkout holds. What the hash could not
 * cover (git missing or failing, a path it could not read) is listed in `unhashed`, each with why;
 * without git the commit is `unknown` and the tree counted dirty.
 */
export function gitState(root: string, git = "git"): Manifest["git"] {
  const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
  let commit: string;
  let status: string;
  try {
    commit = run(git, ["rev-parse", "HEAD"], root).trim();
    status = run(git, ["status", "--porcelain=v1", "--untracked-files=all"], root);
  } catch (e) {
    // Results are never lost for want of git: an unknown checkout is recorded as such.
    return { commit: "unknown", dirty: true, unhashed: [`git: ${message(e)}`] };
  }
  if (status.trim() === "") return { commit, dirty: false };
  const unhashed: string[] = [];
  const attempt = (what: string, f: () => string): string => {
    try {
      return f();
    } catch (e) {
      unhashed.push(`${what}: ${message(e)}`);
      return "";
    }
  };
  const diff = attempt("tracked changes", () => run(git, ["diff", "HEAD", "--binary"], root));
  const untracked = attempt("untracked files", () => run(git, ["ls-files", "--others", "--exclude-standard", "-z"], root))
    .split("\0")
    .filter((f) => f !== "")
    .sort();
  const entries = untracked.map((f) => {
    const e = untrackedEntry(root, f);
    if (e.unhashed !== undefined) unhashed.push(e.unhashed);
    return e.entry;
  });
  const diffHash = sha256([status, diff, ...entries].join("\n"));
  return { commit, dirty: true, diffHash, ...(unhashed.length > 0 ? { unhashed } : {}) };
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
