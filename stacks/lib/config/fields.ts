/**
 * zod field builders whose every check carries the rule a user reads in
 * `'<key>' must be <rule>, got <value>`. Keep rules short, concrete and with an example.
 *
 * A kind's own keys use them bare, as *types* (`int()`, `text()`, `list(text())`): their ranges,
 * formats and defaults are the component's rules (components/<name>/rules.ts). Only the keys every
 * kind has (common.ts), which no component owns, carry rules here.
 */
import { z } from "zod";
import { isNetworkAddress, parseCidr } from "../../../components/network/cidr";

/** A string matching `re`; `rule` is what the user reads. Bare: any non-empty string. */
export function text(rule = "a non-empty string", re?: RegExp) {
  const s = z.string({ error: rule }).min(1, { error: rule });
  return re ? s.regex(re, { error: rule }) : s;
}

/** An integer in [min, max]. Bare: any whole number. */
export function int(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER, rule = bareOr(min, max)) {
  return z.number({ error: rule }).int({ error: rule }).min(min, { error: rule }).max(max, { error: rule });
}

function bareOr(min: number, max: number): string {
  return min === Number.MIN_SAFE_INTEGER && max === Number.MAX_SAFE_INTEGER ? "a whole number" : `an integer from ${min} to ${max}`;
}

/** A JSON list of `item`s (any length: the component's rules bound it). */
export function list<T extends z.ZodType>(item: T, rule = 'a list (JSON, e.g. ["a","b"])') {
  return z.array(item, { error: rule });
}

/** One of a closed set of the service's own strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T, rule = `one of ${values.join(", ")}`) {
  return z.enum(values, { error: rule });
}

export function bool(rule = "true or false") {
  return z.boolean({ error: rule });
}

/** An IPv4 CIDR block that is a network address, with a prefix in [minPrefix, maxPrefix]. */
export function ipv4Cidr(minPrefix: number, maxPrefix: number) {
  const rule = `an IPv4 network CIDR with a prefix from /${minPrefix} to /${maxPrefix} (e.g. 10.0.0.0/16)`;
  return z.string({ error: rule }).refine(
    (s) => {
      const c = parseCidr(s);
      return c !== undefined && c.prefix >= minPrefix && c.prefix <= maxPrefix && isNetworkAddress(c.address, c.prefix);
    },
    { error: rule },
  );
}

/** AWS region names such as us-east-1, eu-central-2, us-gov-west-1. */
export const AWS_REGION_RE = /^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$/;
/**
 * Pulumi stack names as written in config: `stack`, `org/stack` or `org/project/stack`, each part
 * of letters, digits, `_`, `.` or `-` and at most 100 characters ("stack names are limited to 100
 * characters and may only contain alphanumeric, hyphens, underscores, or periods", "project names
 * must be less than 100 characters": pulumi/pulumi pkg/backend/diy/store.go ParseReference).
 */
export const STACK_NAME_RE = /^([A-Za-z0-9_.-]{1,100}\/){0,2}[A-Za-z0-9_.-]{1,100}$/;

/** A reference to an upstream stack (read with StackReference). */
export function stackName(what: string) {
  return text(`the name of the ${what} stack (org/storage-bench-lab/<stack>, each part at most 100 characters)`, STACK_NAME_RE);
}
