/**
 * Filling a component's defaults, for its pure rules module (no Pulumi import here, unlike
 * ./args.ts, whose error is Pulumi's).
 */

/** `spec` with every key of `defaults` that `spec` leaves undefined taken from `defaults`. */
export type WithDefaults<S, D> = Omit<S, keyof D> & {
  readonly [K in keyof D]-?: K extends keyof S ? Exclude<S[K], undefined> | D[K] : D[K];
};

/**
 * A component's `resolve` when it only fills defaults: `spec`'s own fields, and for each field of
 * the `<NAME>_DEFAULTS` table `spec.field ?? defaults.field`. Pure; a resolve that computes derived
 * values writes them itself.
 */
export function withDefaults<S extends object, D extends object>(spec: S, defaults: D): WithDefaults<S, D> {
  const given = spec as Record<string, unknown>;
  const out: Record<string, unknown> = { ...given };
  for (const [key, value] of Object.entries(defaults)) out[key] = given[key] ?? value;
  return out as WithDefaults<S, D>;
}
