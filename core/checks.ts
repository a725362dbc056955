/**
 * Small checks every rules module uses, on values of unknown type (a component's arguments can
 * come from untyped JavaScript or decoded config, so a rule checks the type as well as the range).
 */

/** A whole number in [min, max]. */
export function isInt(v: unknown, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
}

/** A string matching `re` (any non-empty string without `re`). */
export function isText(v: unknown, re?: RegExp): v is string {
  return typeof v === "string" && v.length > 0 && (re === undefined || re.test(v));
}

/** One of a closed set of strings. */
export function isOneOf<const T extends readonly string[]>(v: unknown, values: T): v is T[number] {
  return typeof v === "string" && (values as readonly string[]).includes(v);
}

/** A list whose every item passes `item`. */
export function isListOf<T>(v: unknown, item: (x: unknown) => x is T): v is T[] {
  return Array.isArray(v) && v.every(item);
}
