/**
 * Pure IPv4 CIDR maths for the network layout (no Pulumi imports).
 *
 * Layout of a VPC with prefix /p and n ≤ 3 availability zones:
 * - private subnets: the first n of the VPC's four /(p+2) quarters (big: EKS pods take VPC IPs);
 * - public subnets: the first n of the four /(p+4) sixteenths of the last quarter.
 *
 * 10.0.0.0/16 over 2 AZs → private 10.0.0.0/18, 10.0.64.0/18; public 10.0.192.0/20, 10.0.208.0/20.
 * The smallest VPC, /24, gives /26 private and /28 public subnets (/28 is AWS's smallest subnet).
 */

/** Smallest and largest VPC prefix lengths the layout supports. */
export const VPC_PREFIX_MIN = 16;
export const VPC_PREFIX_MAX = 24;
/** Most availability zones the layout has room for. */
export const MAX_AZS = 3;

export interface Cidr {
  /** Network address as an unsigned 32-bit integer. */
  readonly base: number;
  readonly prefix: number;
}

const CIDR_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** Parses `a.b.c.d/p`; returns undefined for anything that is not a syntactically valid IPv4 CIDR. */
export function parseCidr(text: string): { address: number; prefix: number } | undefined {
  const m = CIDR_RE.exec(text);
  if (!m) return undefined;
  const octets = m.slice(1, 5).map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  const address = ((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3]) >>> 0;
  return { address, prefix };
}

/** Mask of the network bits of a prefix length, as an unsigned 32-bit integer. */
export function prefixMask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** True when the address has no host bits set for its prefix (10.0.0.0/16, not 10.0.0.5/16). */
export function isNetworkAddress(address: number, prefix: number): boolean {
  return (address & ~prefixMask(prefix)) >>> 0 === 0;
}

export function formatIp(address: number): string {
  return [24, 16, 8, 0].map((s) => (address >>> s) & 255).join(".");
}

export function formatCidr(c: Cidr): string {
  return `${formatIp(c.base)}/${c.prefix}`;
}

/** The i-th subnet of `newPrefix` inside `parent` (i from 0). Throws when it does not fit. */
export function subnet(parent: Cidr, newPrefix: number, index: number): Cidr {
  const bits = newPrefix - parent.prefix;
  if (bits < 0 || newPrefix > 32 || index < 0 || index >= 2 ** bits) {
    throw new RangeError(`subnet ${index} of /${newPrefix} does not fit in ${formatCidr(parent)}`);
  }
  const size = 2 ** (32 - newPrefix);
  return { base: (parent.base + index * size) >>> 0, prefix: newPrefix };
}

/** True when `inner` lies wholly inside `outer`. */
export function contains(outer: Cidr, inner: Cidr): boolean {
  return inner.prefix >= outer.prefix && (inner.base & prefixMask(outer.prefix)) >>> 0 === outer.base;
}

/** True when two CIDRs given as text (each a valid `a.b.c.d/n`) share at least one address. */
export function cidrsOverlap(a: string, b: string): boolean {
  const [x, y] = [parseCidr(a), parseCidr(b)];
  if (!x || !y) throw new RangeError(`not an IPv4 CIDR: ${!x ? a : b}`);
  return overlaps({ base: x.address, prefix: x.prefix }, { base: y.address, prefix: y.prefix });
}

/** True when two blocks share at least one address. */
export function overlaps(a: Cidr, b: Cidr): boolean {
  return contains(a, b) || contains(b, a);
}

export interface SubnetLayout {
  /** One CIDR a zone, in zone order. */
  readonly privateCidrs: readonly string[];
  readonly publicCidrs: readonly string[];
}

/**
 * The private and public subnet CIDRs for a VPC over `azCount` zones.
 * The VPC CIDR must already be validated (network address, prefix within bounds).
 */
export function subnetLayout(vpcCidr: string, azCount: number): SubnetLayout {
  const parsed = parseCidr(vpcCidr);
  if (!parsed || !isNetworkAddress(parsed.address, parsed.prefix)) {
    throw new RangeError(`not a network CIDR: ${vpcCidr}`);
  }
  if (parsed.prefix < VPC_PREFIX_MIN || parsed.prefix > VPC_PREFIX_MAX) {
    throw new RangeError(`VPC prefix /${parsed.prefix} is outside /${VPC_PREFIX_MIN}../${VPC_PREFIX_MAX}`);
  }
  if (!Number.isInteger(azCount) || azCount < 1 || azCount > MAX_AZS) {
    throw new RangeError(`azCount ${azCount} is outside 1..${MAX_AZS}`);
  }
  const vpc: Cidr = { base: parsed.address, prefix: parsed.prefix };
  const lastQuarter = subnet(vpc, vpc.prefix + 2, 3);
  const zones = [...Array(azCount).keys()];
  return {
    privateCidrs: zones.map((i) => formatCidr(subnet(vpc, vpc.prefix + 2, i))),
    publicCidrs: zones.map((i) => formatCidr(subnet(lastQuarter, vpc.prefix + 4, i))),
  };
}

/** The rule {@link isIpv4NetworkCidr} checks, as a problem reads it. */
export function ipv4CidrRule(minPrefix: number, maxPrefix: number): string {
  return `an IPv4 network CIDR with a prefix from /${minPrefix} to /${maxPrefix} (e.g. 10.0.0.0/16)`;
}

/** A string that is an IPv4 network address (no host bits) with a prefix in [minPrefix, maxPrefix]. */
export function isIpv4NetworkCidr(v: unknown, minPrefix: number, maxPrefix: number): v is string {
  if (typeof v !== "string") return false;
  const c = parseCidr(v);
  return c !== undefined && c.prefix >= minPrefix && c.prefix <= maxPrefix && isNetworkAddress(c.address, c.prefix);
}
