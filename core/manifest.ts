/**
 * A run's manifest: what a result was produced with, so it can be reproduced and so runs made
 * with different code, pins or infrastructure are never compared unawares (README "Manifest").
 * Pure: lab/utilization/manifest.ts gathers the facts (git, the stacks' config and state, the pins);
 * this module hashes, flattens, reads back and compares them.
 *
 * A manifest holds the project's git commit and whether the tree was dirty (then a hash of the
 * changes), every pinned version (components/versions.ts), the region, and per stack (the run's
 * stack and every stack it reads) a hash of its effective config, its kind, zone names and ids,
 * AMI ids, instance types and container images; plus the command line that produced it and when.
 *
 * Flattened into sample metadata under `manifest.` (e.g. `manifest.git.commit`,
 * `manifest.stacks.dev.configHash`, lists joined with ","), it travels with every sample; a run
 * directory also keeps it whole in manifest.json (lab/results/files.ts). Two manifests are
 * compared on what shapes a number — git, pins, region, and each stack both name — never on the
 * command line or the time ({@link manifestDifferences}).
 */
import { createHash } from "node:crypto";
import type { MetadataValue } from "./sample";

/** What one stack contributed to a run. */
export interface StackFacts {
  /** `lab:kind`. */
  readonly kind?: string;
  /** sha256 (hex) of the stack's effective config ({@link hashConfig}). */
  readonly configHash: string;
  readonly azs: readonly string[];
  readonly azIds: readonly string[];
  readonly amiIds: readonly string[];
  readonly instanceTypes: readonly string[];
  /** Container images of its benchmark Jobs and images it built (tools image digest). */
  readonly images: readonly string[];
}

export interface Manifest {
  readonly schema: 1;
  /**
   * The checkout: its commit (`unknown` without git), whether it had changes, a hash of them, and
   * what that hash does not cover, each as `<path or part>: <why>` (absent when it covers all).
   */
  readonly git: { readonly commit: string; readonly dirty: boolean; readonly diffHash?: string; readonly unhashed?: readonly string[] };
  /** Every pin of components/versions.ts, flattened (`ROOK_CHART.version` → `v1.20.6`). */
  readonly versions: Readonly<Record<string, string>>;
  readonly region: string;
  /** By the stack's short name (the last segment of `org/project/stack`). */
  readonly stacks: Readonly<Record<string, StackFacts>>;
  /** The command line that produced the results. */
  readonly command: string;
  /** When the manifest was taken (ISO 8601, UTC). */
  readonly createdAt: string;
}

/** Prefix of the manifest's keys in sample metadata. */
export const MANIFEST_PREFIX = "manifest.";

export function isManifestKey(key: string): boolean {
  return key.startsWith(MANIFEST_PREFIX);
}

/** JSON with object keys sorted at every level: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Config keys left out of a stack's config hash, because they name or reach the run, not what it
 * measures: the run id, the owner and the time to live (bookkeeping), the admin CIDRs and SSH key
 * (who may log in), and the `lab:*Stack` references (they name the upstream stacks, whose own
 * configs the manifest hashes under their names; a `lab run` rewrites them per run).
 */
export const CONFIG_KEYS_NOT_HASHED: readonly string[] = ["lab:runId", "lab:owner", "lab:ttlHours", "lab:adminCidrs", "lab:sshPublicKey"];
const STACK_REFERENCE_KEY = /^lab:[A-Za-z0-9]+Stack$/;

/** A config value as `pulumi config --json` gives it (secret values may be absent). */
export interface ConfigEntry {
  readonly value?: string;
  readonly secret?: boolean;
}

/** What a config hash covers: every key but the ones above, secret values as "[secret]". */
export function hashedConfig(config: Readonly<Record<string, ConfigEntry | string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(config).sort()) {
    if (CONFIG_KEYS_NOT_HASHED.includes(key) || STACK_REFERENCE_KEY.test(key)) continue;
    const e = config[key];
    out[key] = typeof e === "string" ? e : e.secret ? "[secret]" : (e.value ?? "");
  }
  return out;
}

/** sha256 of {@link hashedConfig}, canonical JSON. */
export function hashConfig(config: Readonly<Record<string, ConfigEntry | string>>): string {
  return sha256(canonicalJson(hashedConfig(config)));
}

/** What two manifests are compared on: everything but the command line and the time. */
export function comparablePart(m: Manifest): Pick<Manifest, "git" | "versions" | "region" | "stacks"> {
  return { git: m.git, versions: m.versions, region: m.region, stacks: m.stacks };
}

/** A short id of the manifest's comparable part: the first 12 hex digits of its sha256. */
export function manifestId(m: Manifest): string {
  return sha256(canonicalJson(comparablePart(m))).slice(0, 12);
}

const LIST_FIELDS = ["azs", "azIds", "amiIds", "instanceTypes", "images"] as const;

/** The manifest as flat sample metadata (`manifest.…` keys; lists joined with ","). */
export function manifestMetadata(m: Manifest): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {
    [`${MANIFEST_PREFIX}id`]: manifestId(m),
    [`${MANIFEST_PREFIX}git.commit`]: m.git.commit,
    [`${MANIFEST_PREFIX}git.dirty`]: m.git.dirty,
    ...(m.git.diffHash === undefined ? {} : { [`${MANIFEST_PREFIX}git.diffHash`]: m.git.diffHash }),
    ...(m.git.unhashed === undefined ? {} : { [`${MANIFEST_PREFIX}git.unhashed`]: JSON.stringify(m.git.unhashed) }),
    [`${MANIFEST_PREFIX}region`]: m.region,
    [`${MANIFEST_PREFIX}command`]: m.command,
    [`${MANIFEST_PREFIX}createdAt`]: m.createdAt,
  };
  for (const k of Object.keys(m.versions).sort()) out[`${MANIFEST_PREFIX}versions.${k}`] = m.versions[k];
  for (const s of Object.keys(m.stacks).sort()) {
    const f = m.stacks[s];
    const p = `${MANIFEST_PREFIX}stacks.${s}.`;
    if (f.kind !== undefined) out[`${p}kind`] = f.kind;
    out[`${p}configHash`] = f.configHash;
    for (const l of LIST_FIELDS) out[`${p}${l}`] = f[l].join(",");
  }
  return out;
}

/** `git.unhashed` as flattened by {@link manifestMetadata} (a JSON list: a path may hold a comma). */
function unhashedOf(v: MetadataValue | undefined): string[] | undefined {
  if (typeof v !== "string") return undefined;
  let list: unknown;
  try {
    list = JSON.parse(v);
  } catch {
    return [v];
  }
  return Array.isArray(list) ? list.map(String) : [v];
}

/** The manifest flattened into `metadata` by {@link manifestMetadata}, or undefined when it carries none. */
export function manifestFromMetadata(metadata: Readonly<Record<string, MetadataValue>>): Manifest | undefined {
  const get = (k: string) => metadata[`${MANIFEST_PREFIX}${k}`];
  const commit = get("git.commit");
  if (typeof commit !== "string") return undefined;
  const versions: Record<string, string> = {};
  const stacks: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (key.startsWith(`${MANIFEST_PREFIX}versions.`)) versions[key.slice(`${MANIFEST_PREFIX}versions.`.length)] = String(value);
    const m = /^manifest\.stacks\.([^.]+)\.([A-Za-z]+)$/.exec(key);
    if (m) {
      const [, stack, field] = m;
      stacks[stack] ??= {};
      stacks[stack][field] = (LIST_FIELDS as readonly string[]).includes(field)
        ? String(value) === ""
          ? []
          : String(value).split(",")
        : String(value);
    }
  }
  const diffHash = get("git.diffHash");
  const unhashed = unhashedOf(get("git.unhashed"));
  return {
    schema: 1,
    git: {
      commit,
      dirty: get("git.dirty") === true,
      ...(typeof diffHash === "string" ? { diffHash } : {}),
      ...(unhashed === undefined ? {} : { unhashed }),
    },
    versions,
    region: String(get("region") ?? ""),
    stacks: Object.fromEntries(
      Object.entries(stacks).map(([s, f]) => [
        s,
        {
          ...(f.kind === undefined ? {} : { kind: f.kind as string }),
          configHash: String(f.configHash ?? ""),
          ...Object.fromEntries(LIST_FIELDS.map((l) => [l, (f[l] as string[] | undefined) ?? []])),
        } as StackFacts,
      ]),
    ),
    command: String(get("command") ?? ""),
    createdAt: String(get("createdAt") ?? ""),
  };
}

/** One field on which two manifests differ. */
export interface ManifestDifference {
  /** Dotted path: `git.commit`, `versions.K0S_VERSION`, `stacks.dev.configHash`, … */
  readonly field: string;
  readonly a: string;
  readonly b: string;
}

const show = (v: unknown): string => (v === undefined ? "(none)" : Array.isArray(v) ? v.join(",") || "(none)" : String(v));

/**
 * Where `a` and `b` differ, in a stable order: git, versions (by name), region, then each stack
 * both manifests name (a stack only one names is another stack of the comparison, not a change).
 * The command line and the time are not compared.
 */
export function manifestDifferences(a: Manifest, b: Manifest): ManifestDifference[] {
  const out: ManifestDifference[] = [];
  const cmp = (field: string, x: unknown, y: unknown) => {
    if (canonicalJson(x ?? null) !== canonicalJson(y ?? null)) out.push({ field, a: show(x), b: show(y) });
  };
  cmp("git.commit", a.git.commit, b.git.commit);
  cmp("git.dirty", a.git.dirty, b.git.dirty);
  cmp("git.diffHash", a.git.diffHash, b.git.diffHash);
  cmp("git.unhashed", a.git.unhashed, b.git.unhashed);
  for (const k of [...new Set([...Object.keys(a.versions), ...Object.keys(b.versions)])].sort())
    cmp(`versions.${k}`, a.versions[k], b.versions[k]);
  cmp("region", a.region, b.region);
  for (const s of Object.keys(a.stacks).sort()) {
    const y = b.stacks[s];
    if (y === undefined) continue;
    const x = a.stacks[s];
    cmp(`stacks.${s}.kind`, x.kind, y.kind);
    cmp(`stacks.${s}.configHash`, x.configHash, y.configHash);
    for (const l of LIST_FIELDS) cmp(`stacks.${s}.${l}`, x[l], y[l]);
  }
  return out;
}

/** The keys whose values differ between two hashed configs ({@link hashedConfig}): `key: a vs b`. */
export function configDifferences(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .filter((k) => a[k] !== b[k])
    .map((k) => `${k}: ${a[k] === undefined ? "(unset)" : a[k]} vs ${b[k] === undefined ? "(unset)" : b[k]}`);
}
