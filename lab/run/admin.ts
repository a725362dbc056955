/**
 * The administrator address of a run (`--admin-cidr CIDR|auto`) and the refusal of placeholder
 * addresses, plus which stack kinds have a config key (so `--admin-cidr` and `--set '*.key=v'`
 * apply only where the key exists).
 *
 * - The shipped configs carry `lab:adminCidrs: [198.51.100.7/32]`, an address of TEST-NET-2:
 *   192.0.2.0/24, 198.51.100.0/24 and 203.0.113.0/24 are "provided for use in documentation" and
 *   never routed on the Internet (RFC 5737 §3), so a bastion or an EKS public endpoint opened to one
 *   is closed to the user.
 * - `auto` asks https://checkip.amazonaws.com, which answers the caller's public IPv4 address as
 *   one line of text (the address the AWS documentation uses to find "your public IP address",
 *   e.g. the EC2 user guide's "Add rules for your IP address").
 */
import { ADMIN_CIDR_MIN_PREFIX_FLOOR } from "../../components/lib/admin-cidrs";
import { problem } from "../../core/errors";
import { cephK0sSchema } from "../../stacks/ceph-k0s/config";
import { compareSchema } from "../../stacks/compare/config";
import { eksSchema } from "../../stacks/eks/config";
import { fsxEksSchema } from "../../stacks/fsx-eks/config";
import { fsxOntapSchema } from "../../stacks/fsx-ontap/config";
import { kafkaSchema } from "../../stacks/kafka/config";
import { userKey } from "../../stacks/lib/config/load";
import { networkSchema } from "../../stacks/network/config";

/** The config key of the administrator ranges. */
export const ADMIN_KEY = "lab:adminCidrs";
/** RFC 5737 §3: the IPv4 blocks for documentation. */
export const DOCUMENTATION_RANGES = ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"] as const;
/** Where `--admin-cidr auto` looks up the caller's public address. */
export const CHECKIP_URL = "https://checkip.amazonaws.com";

const SCHEMAS: Readonly<Record<string, (raw: Readonly<Record<string, string>>) => { shape: object }>> = {
  network: () => networkSchema,
  "fsx-ontap": () => fsxOntapSchema,
  eks: () => eksSchema,
  "fsx-eks": () => fsxEksSchema,
  kafka: () => kafkaSchema,
  "ceph-k0s": () => cephK0sSchema,
  compare: (raw) => compareSchema(raw),
};

/**
 * Whether a stack of `kind` reads `key`: a `lab:` key when the kind's config schema has its field;
 * keys of other namespaces (`aws:region`, provider settings) apply to every stack. An unknown kind
 * has every key (its own config check reports it).
 */
export function kindHasKey(kind: string, key: string, raw: Readonly<Record<string, string>> = {}): boolean {
  const schema = SCHEMAS[kind];
  if (!schema) return true;
  const keys = Object.keys(schema(raw).shape).map(userKey);
  return keys.includes(key) || !key.startsWith("lab:");
}

function ipv4(s: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p, i) => p > 255 || (m[i + 1].length > 1 && m[i + 1].startsWith("0")))) return undefined;
  return parts.reduce((n, p) => n * 256 + p, 0);
}

/** `a.b.c.d/n` as [first address, prefix], or undefined when it is not an IPv4 CIDR. */
export function parseCidr(s: string): [number, number] | undefined {
  const m = /^([^/]+)\/(\d{1,2})$/.exec(s);
  const ip = m ? ipv4(m[1]) : undefined;
  if (!m || ip === undefined || Number(m[2]) > 32) return undefined;
  return [ip, Number(m[2])];
}

/** The documentation range `cidr` lies in, if any. */
export function documentationRange(cidr: string): string | undefined {
  const c = parseCidr(cidr);
  if (!c) return undefined;
  return DOCUMENTATION_RANGES.find((r) => {
    const [base, bits] = parseCidr(r) as [number, number];
    const size = 2 ** (32 - bits);
    return c[1] >= bits && Math.floor(c[0] / size) === Math.floor(base / size);
  });
}

/** Problems of a `--admin-cidr` value other than `auto`. */
export function adminCidrOptionProblems(value: string): string[] {
  const rule = "an IPv4 CIDR of your own address (e.g. 203.0.113.7/32 is a documentation example: use yours), or auto";
  if (!parseCidr(value)) return [problem("--admin-cidr", rule, value)];
  const doc = documentationRange(value);
  if (doc) return [problem("--admin-cidr", `not in the documentation range ${doc} (RFC 5737): your own address, or auto`, value)];
  return [];
}

/** The stack's `lab:adminCidrs`, as the flat config holds it (a JSON list). */
function adminCidrsOf(config: Readonly<Record<string, string>>): string[] | undefined {
  const v = config[ADMIN_KEY];
  if (v === undefined) return undefined;
  try {
    const list = JSON.parse(v) as unknown;
    return Array.isArray(list) ? list.map(String) : [String(list)];
  } catch {
    return [v];
  }
}

/** A problem per stack whose `lab:adminCidrs` holds a documentation (placeholder) address. */
export function placeholderProblems(specs: ReadonlyArray<{ name: string; config: Readonly<Record<string, string>> }>): string[] {
  const out: string[] = [];
  for (const s of specs) {
    const bad = (adminCidrsOf(s.config) ?? []).filter((c) => documentationRange(c) !== undefined);
    if (bad.length === 0) continue;
    out.push(
      `stack ${s.name}: ${problem(
        ADMIN_KEY,
        `your own address ranges, not the documentation range ${documentationRange(bad[0])} (RFC 5737: a placeholder nobody connects from, so the cluster would be closed to you)`,
        bad.join(", "),
      )}: run with --admin-cidr <your address>/32, or --admin-cidr auto`,
    );
  }
  return out;
}

/** `config` with `lab:adminCidrs` set to `[cidr]` when its kind has the key. */
export function withAdminCidr(config: Readonly<Record<string, string>>, cidr: string): Record<string, string> {
  const kind = config["lab:kind"] ?? "";
  return kindHasKey(kind, ADMIN_KEY, config) ? { ...config, [ADMIN_KEY]: JSON.stringify([cidr]) } : { ...config };
}

/** The key `--cleanup-role-arn` adds to: the EKS clusters' admin access entries (components/eks). */
export const ADMIN_ROLES_KEY = "lab:adminRoleArns";

/**
 * `config` with `arn` among its `lab:adminRoleArns` when its kind has the key (`--cleanup-role-arn`:
 * the cleanup identity deletes the cluster's Kubernetes objects through its API), else as it is;
 * a value already given keeps its roles, and the ARN is not added twice.
 */
export function withCleanupRole(config: Readonly<Record<string, string>>, arn: string): Record<string, string> {
  const kind = config["lab:kind"] ?? "";
  if (!kindHasKey(kind, ADMIN_ROLES_KEY, config)) return { ...config };
  const given = config[ADMIN_ROLES_KEY];
  let roles: unknown = [];
  try {
    roles = given === undefined ? [] : JSON.parse(given);
  } catch {
    // Not a list: the stack's own rule names the key and its value, and the run refuses it.
    return { ...config };
  }
  if (!Array.isArray(roles)) return { ...config };
  return { ...config, [ADMIN_ROLES_KEY]: JSON.stringify(roles.includes(arn) ? roles : [...roles, arn]) };
}

/** The key `--allow-wide-admin` sets, and to what: admin CIDRs as wide as a /8. */
export const ADMIN_MIN_PREFIX_KEY = "lab:adminCidrMinPrefix";

/** `config` with `lab:adminCidrMinPrefix` 8 when its kind has the key (`--allow-wide-admin`), else as it is. */
export function withWideAdmin(config: Readonly<Record<string, string>>): Record<string, string> {
  const kind = config["lab:kind"] ?? "";
  return kindHasKey(kind, ADMIN_MIN_PREFIX_KEY, config)
    ? { ...config, [ADMIN_MIN_PREFIX_KEY]: String(ADMIN_CIDR_MIN_PREFIX_FLOOR) }
    : { ...config };
}

/**
 * The caller's public address as a /32, from `url` (checkip's one line, an IPv4 address); rejects
 * with a one-line reason when the service cannot be reached or answers anything else.
 */
export async function publicAddressCidr(url = process.env.LAB_CHECKIP_URL || CHECKIP_URL, timeoutMs = 10_000): Promise<string> {
  let body: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = await res.text();
  } catch (e) {
    throw new Error(
      `--admin-cidr auto: ${url} did not answer (${typeof (e as { message?: unknown })?.message === "string" ? (e as Error).message : String(e)}): give --admin-cidr <your address>/32`,
    );
  }
  const ip = body.trim();
  if (ipv4(ip) === undefined)
    throw new Error(
      `--admin-cidr auto: ${url} answered ${JSON.stringify(body.slice(0, 60))}, not an IPv4 address: give --admin-cidr <your address>/32`,
    );
  return `${ip}/32`;
}
