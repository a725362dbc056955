/**
 * Values known only later (an upstream stack's output, a freshly built image) in manifests that are
 * rendered and checked now (pure renderers take plain strings): the renderer gets a placeholder,
 * then {@link withLaterInput} puts the Input where the placeholder is. The structure stays plain, so
 * a preview and the policy rules see every field but that value.
 */
import type * as pulumi from "@pulumi/pulumi";

/** `value` with every string equal to `placeholder` replaced by `input` (objects and arrays walked). */
export function withLaterInput<T>(value: T, placeholder: string, input: pulumi.Input<string>): T {
  const walk = (v: unknown): unknown => {
    if (v === placeholder) return input;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
