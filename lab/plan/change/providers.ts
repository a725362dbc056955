/**
 * What a change does to a Kubernetes provider, and through it to every resource it manages, as
 * the engine and pulumi-kubernetes decide it. Pure.
 *
 * - pulumi-kubernetes 4.34 `DiffConfig` (provider/pkg/provider/provider.go): a changed
 *   `clusterIdentifier` replaces the provider ("we change our replacement behavior to trigger
 *   when the identifier has changed"; adding or removing one does not); a `kubeconfig` that is
 *   unknown ("computed") at preview replaces it ("We can't tell for sure if a computed value has
 *   changed, so we make the conservative choice and force a replacement"); a known kubeconfig
 *   replaces it when its active cluster changed. With `clusterIdentifier` set and the same as
 *   before, none of these replaces it ("we ignore replacements when the identifier is unchanged").
 * - The engine (pulumi/pulumi pkg/resource/deploy/step_generator.go `providerChanged`, `diff`):
 *   when the new provider's DiffConfig reports a replacement, every resource it manages is
 *   replaced (ReplaceKeys `provider`).
 *
 * In an offline plan an input is unknown at preview when its value comes from a resource the
 * change touches (updated, replaced, created or of unknown effect): its new outputs are only known
 * once it ran (a Command's stdout after an update, an instance's id after a replacement).
 */
import type { PlannedResource } from "../run";
import type { InputVerdict } from "./rules";

export const KUBERNETES_PROVIDER_TYPE = "pulumi:providers:kubernetes";
export const DIFF_CONFIG_SOURCE =
  "pulumi/pulumi-kubernetes provider/pkg/provider/provider.go DiffConfig, lines 486-513 at 94977969d (v4.32.0+27, the newest read here; " +
  "the SDK pinned is 4.34.2) (clusterIdentifier; a computed kubeconfig forces a replacement)";
export const PROVIDER_REPLACED_SOURCE =
  'pulumi/pulumi pkg/resource/deploy/step_generator.go providerChanged and diff ("If there is a replacement diff, we must also replace this resource": ReplaceKeys provider)';

/** The provider reference `<urn>::<id>` → the provider's URN. */
export function providerUrn(ref: string | null): string | undefined {
  if (!ref) return undefined;
  const at = ref.lastIndexOf("::");
  return at < 0 ? ref : ref.slice(0, at);
}

/**
 * The verdicts of a Kubernetes provider's `kubeconfig` and `clusterIdentifier` (empty when
 * neither changes). `touched(urn)`: the change touches that resource, so what comes from it is
 * unknown at preview; `fresh(urn)`: that resource is replaced or created (its id is new).
 */
export function kubernetesProviderVerdicts(
  old: PlannedResource,
  now: PlannedResource,
  touched: (urn: string) => boolean,
  fresh: (urn: string) => boolean,
  differs: (path: string) => boolean,
  uncertain: (urn: string) => boolean = () => false,
): InputVerdict[] {
  const deps = (p: string) => now.propertyDependencies?.[p] ?? [];
  const had = old.inputs.clusterIdentifier !== undefined;
  const has = now.inputs.clusterIdentifier !== undefined;
  const idFrom = deps("clusterIdentifier").find(fresh);
  const idChanged = had && has && (differs("clusterIdentifier") || idFrom !== undefined);
  if (idChanged) {
    return [
      {
        path: "clusterIdentifier",
        verdict: "replace",
        rule:
          idFrom !== undefined
            ? `replaces the provider: clusterIdentifier changes (its value comes from ${nameOf(idFrom)}, which is replaced)`
            : "replaces the provider: clusterIdentifier changes",
        source: DIFF_CONFIG_SOURCE,
      },
    ];
  }
  // An identifier from a resource of unknown effect may change. Were it unknown at preview, DiffConfig would see
  // it as changed (a computed value differs from a string: pulumi/pulumi sdk/go/common/resource/properties_diff.go)
  // and the preview would show the provider, and every object under it, replaced; the update, with the value
  // known, replaces only if it really changed. Unknown effect, not replace.
  const idMaybe = had && has ? deps("clusterIdentifier").find(uncertain) : undefined;
  if (idMaybe !== undefined) {
    return [
      {
        path: "clusterIdentifier",
        verdict: "unknown",
        rule: `unknown: clusterIdentifier comes from ${nameOf(idMaybe)}, whose change is of unknown effect: replaced with everything in the cluster if that is replaced`,
        source: DIFF_CONFIG_SOURCE,
      },
    ];
  }
  const kubeFrom = deps("kubeconfig").find(touched);
  const kubeChanged = differs("kubeconfig");
  if (kubeFrom === undefined && !kubeChanged) return [];
  const how =
    kubeFrom !== undefined
      ? `kubeconfig is unknown at preview (its value comes from ${nameOf(kubeFrom)}, which the change touches)`
      : "kubeconfig changes";
  if (had && has) {
    return [
      { path: "kubeconfig", verdict: "update", rule: `in place: ${how}, clusterIdentifier is unchanged`, source: DIFF_CONFIG_SOURCE },
    ];
  }
  return kubeFrom !== undefined
    ? [
        {
          path: "kubeconfig",
          verdict: "replace",
          rule: `replaces the provider: ${how}, and no clusterIdentifier`,
          source: DIFF_CONFIG_SOURCE,
        },
      ]
    : [
        {
          path: "kubeconfig",
          verdict: "unknown",
          rule: `unknown: ${how}; the provider is replaced if its active cluster (server, context) changed`,
          source: DIFF_CONFIG_SOURCE,
        },
      ];
}

function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}
