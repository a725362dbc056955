/**
 * Input paths: where two plans of one resource differ, and whether a rule's path covers a change.
 * Pure.
 *
 * A path is written the way Pulumi's `replaceOnChanges` and `ignoreChanges` write them
 * (`spec.template.spec.containers[0].image`, `triggers[*]`): property names joined by `.`, list
 * indexes in brackets, `[*]` any index.
 */
import { isDeepStrictEqual } from "node:util";

/** `a.b[0].c` → `["a", "b", "0", "c"]`; `[*]` → `"*"`. A leading `.` (pulumi-kubernetes' `.spec`) is dropped. */
export function segments(path: string): string[] {
  return path
    .replace(/^\./, "")
    .replace(/\[(\*|\d+)\]/g, ".$1")
    .split(".")
    .filter((s) => s !== "");
}

/** Joins segments back: numeric ones as `[n]`. */
export function joinPath(segs: readonly string[]): string {
  return segs.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc === "" ? s : `${acc}.${s}`), "");
}

/**
 * Whether a rule's path covers a changed path: one is a prefix of the other, segment by segment,
 * `*` matching any. A change under a rule's path (`spec.template.spec.containers[0].image` under
 * `spec.template`) is covered, and so is a change of a whole parent (`spec` set or removed covers
 * `spec.selector`).
 */
export function covers(rule: string, changed: string): boolean {
  const r = segments(rule);
  const c = segments(changed);
  const n = Math.min(r.length, c.length);
  for (let i = 0; i < n; i++) if (r[i] !== "*" && r[i] !== c[i]) return false;
  return true;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The paths where `before` and `after` differ, as deep as both sides have the same shape: objects
 * key by key, lists of the same length index by index; anything else that differs is one path.
 */
export function changedPaths(before: unknown, after: unknown, prefix: string[] = []): string[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => changedPaths(before[k], after[k], [...prefix, k]));
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((b, i) => changedPaths(b, after[i], [...prefix, String(i)]));
  }
  return [joinPath(prefix)];
}
