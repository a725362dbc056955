/**
 * The tags every AWS resource of the lab carries (through the AWS provider's `defaultTags`).
 * `lab:expires-at` is the stack's first deploy time plus `lab:ttlHours`: the first deploy time
 * is a `time.Static` resource, created once and kept in state, so the tag does not move on every
 * `pulumi up`; changing `lab:ttlHours` moves it relative to that fixed start.
 */
export const TAG_KEYS = ["lab:project", "lab:stack", "lab:kind", "lab:owner", "lab:expires-at"] as const;

export interface TagInput {
  project: string;
  stack: string;
  kind: string;
  owner: string;
  /** ISO 8601 expiry, see {@link expiresAt}. */
  expiresAt: string;
}

export function labTags(t: TagInput): Record<(typeof TAG_KEYS)[number], string> {
  return {
    "lab:project": t.project,
    "lab:stack": t.stack,
    "lab:kind": t.kind,
    "lab:owner": t.owner,
    "lab:expires-at": t.expiresAt,
  };
}

/** `createdAt` (RFC 3339) plus `ttlHours`, as ISO 8601 in UTC without milliseconds. */
export function expiresAt(createdAt: string, ttlHours: number): string {
  const t = Date.parse(createdAt);
  if (Number.isNaN(t)) throw new RangeError(`not an RFC 3339 time: ${createdAt}`);
  return new Date(t + ttlHours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
