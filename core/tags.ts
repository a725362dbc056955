/**
 * The lab's tags and its stack expiry.
 *
 * Tags: every AWS resource of a stack carries {@link TAG_KEYS} through the stack's AWS provider
 * (`defaultTags`, stacks/lib/context.ts). Their values come from config and the stack's name, so
 * they are known before any update: the provider's configuration must be, or the engine leaves the
 * provider unconfigured during the preview and answers its invokes with an empty result (pulumi/pulumi
 * sdk/go/common/resource/plugin/provider_plugin.go, `Configure`: "If any are unknown, do not configure
 * the underlying plugin"; `Invoke`: "If the provider is not fully configured, return an empty property
 * map"; pulumi/pulumi#24169).
 *
 * Expiry: the stack output `expiresAt` ({@link EXPIRES_AT_OUTPUT}), which `lab janitor` reads, is
 * the stack's first deploy time plus `lab:ttlHours`. The first deploy time is a `time.Static`
 * resource, created once and kept in state, so the expiry does not move on later `pulumi up`s;
 * changing `lab:ttlHours` moves it relative to that fixed start. It is not a tag: a `time.Static`
 * created in the same update is unknown during that update's preview (hashicorp/terraform-provider-time
 * internal/provider/resource_time_static.go: `Create` takes `clock.Now()`, `ModifyPlan` can plan the time
 * only when `rfc3339` is set in configuration), and a tag through `defaultTags` would make the
 * provider's configuration unknown with it.
 */
export const TAG_KEYS = ["lab:project", "lab:stack", "lab:kind", "lab:owner"] as const;

export type TagKey = (typeof TAG_KEYS)[number];

/** The stack output that holds the stack's expiry (ISO 8601, see {@link expiresAt}); every kind exports it. */
export const EXPIRES_AT_OUTPUT = "expiresAt";

export interface TagInput {
  project: string;
  stack: string;
  kind: string;
  owner: string;
}

export function labTags(t: TagInput): Record<TagKey, string> {
  return {
    "lab:project": t.project,
    "lab:stack": t.stack,
    "lab:kind": t.kind,
    "lab:owner": t.owner,
  };
}

/** `createdAt` (RFC 3339) plus `ttlHours`, as ISO 8601 in UTC without milliseconds. */
export function expiresAt(createdAt: string, ttlHours: number): string {
  const t = Date.parse(createdAt);
  if (Number.isNaN(t)) throw new RangeError(`not an RFC 3339 time: ${createdAt}`);
  return new Date(t + ttlHours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
