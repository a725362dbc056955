/**
 * How wide an operator's address range may be (pure): the EKS public endpoint (eks kind) and the
 * bastion's SSH and API rules (ceph-k0s kind) admit `adminCidrs`. In a shared account a /8 or /16
 * opens them to a whole company network or a provider's block; the operators' own addresses are a
 * /32 or a small office range. So a CIDR wider than `adminCidrMinPrefix` (default /24, 256
 * addresses) is refused, naming the key that allows it; the syntactic rule (a network address,
 * /8 to /32, never 0.0.0.0/…) stays each kind's own.
 */
import { argProblem, type ArgProblem } from "../../core/errors";
import { isInt } from "../../core/checks";
import { isIpv4NetworkCidr, parseCidr } from "../network/cidr";

/** The widest prefix accepted by default: /24. */
export const DEFAULT_ADMIN_CIDR_MIN_PREFIX = 24;
/** The widest `adminCidrMinPrefix` may allow: /8, the kinds' syntactic bound. */
export const ADMIN_CIDR_MIN_PREFIX_FLOOR = 8;

export const ADMIN_CIDR_MIN_PREFIX_RULE = `a whole number from ${ADMIN_CIDR_MIN_PREFIX_FLOOR} to 32 (the widest prefix an admin CIDR may have)`;

/**
 * The problems of `minPrefix` itself, or of each CIDR of `cidrs` wider than it (a CIDR that does
 * not parse is left to the kind's own rule).
 */
export function adminCidrWidthProblems(cidrs: unknown, minPrefix: unknown): ArgProblem[] {
  const min = minPrefix ?? DEFAULT_ADMIN_CIDR_MIN_PREFIX;
  if (!isInt(min, ADMIN_CIDR_MIN_PREFIX_FLOOR, 32)) return [argProblem("adminCidrMinPrefix", ADMIN_CIDR_MIN_PREFIX_RULE, minPrefix)];
  if (!Array.isArray(cidrs)) return [];
  const out: ArgProblem[] = [];
  cidrs.forEach((c: unknown, i) => {
    // Only a CIDR the kind's own rule accepts (a network address, /8 to /32, not 0.0.0.0/…): one problem a mistake.
    if (!isIpv4NetworkCidr(c, ADMIN_CIDR_MIN_PREFIX_FLOOR, 32) || c.startsWith("0.0.0.0/")) return;
    if (parseCidr(c)!.prefix >= min) return;
    out.push(
      argProblem(
        `adminCidrs[${i}]`,
        `at most ${2 ** (32 - min)} addresses, a prefix of /${min} or longer (your own address, e.g. a /32; {adminCidrMinPrefix} allows wider, down to /${ADMIN_CIDR_MIN_PREFIX_FLOOR})`,
        c,
      ),
    );
  });
  return out;
}
