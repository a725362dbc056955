/**
 * The one rule for container image references: pinned by a tag other than `latest`, or by a
 * digest of a registered algorithm. The benchmark Jobs' arguments (components/bench) and the
 * policy rule `k8s-image-pinned` (lab/policy/kubernetes.ts) both apply it. Pure.
 *
 * - **Reference grammar**: distribution/reference (the parser of Docker, containerd and the
 *   kubelet), `reference.go` and `regexp.go`, v0.6.0:
 *   `reference := name [":" tag] ["@" digest]`, `name := [domain "/"] remote-name`, path
 *   components of lowercase letters and digits joined by `.`, `_`, `__` or dashes, a domain of
 *   `host[:port]` (DNS-like components, any case, or a bracketed IPv6 address), a repository path
 *   of at most 255 characters, `tag := [\w][\w.-]{0,127}`.
 * - **Digests**: OCI image spec v1.1.1, descriptor.md, "Registered algorithms": `sha256` (encoded
 *   portion `[a-f0-9]{64}`) and `sha512` (`[a-f0-9]{128}`), lowercase hex only ("`[A-F]` MUST NOT
 *   be used"). Either one names the content exactly, so either pins the image. Other algorithms
 *   the grammar allows are not accepted: a digest the spec does not register cannot be checked by
 *   every registry and runtime. (`blake3` is registered on the spec's main branch after v1.1.1;
 *   no release has it yet.)
 * - A reference with both a tag and a digest is pulled by its digest; the tag must still not be
 *   `latest`, which would tell a reader the opposite of what runs.
 */

/** Digest algorithms the OCI image spec registers, with the encoded portion each requires. */
export const REGISTERED_DIGESTS: Readonly<Record<string, RegExp>> = {
  sha256: /^[a-f0-9]{64}$/,
  sha512: /^[a-f0-9]{128}$/,
};

/** What {@link isPinnedImage} accepts, as a problem's rule (`'<key>' must be <rule>, got <value>`). */
export const PINNED_IMAGE_RULE = 'an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest';

const PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const NAME = new RegExp(`^(?:(${DOMAIN})/)?(${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)$`);
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
/** Most characters of a repository path (the name without its domain). */
export const MAX_REPOSITORY_PATH = 255;

/** A reference split at its digest (`@`) and its tag (the last `:` after the last `/`). */
export function imageRefParts(ref: string): { name: string; tag?: string; digest?: string } {
  const at = ref.indexOf("@");
  const digest = at >= 0 ? ref.slice(at + 1) : undefined;
  const rest = at >= 0 ? ref.slice(0, at) : ref;
  const slash = rest.lastIndexOf("/");
  const colon = rest.lastIndexOf(":");
  // A colon before the last slash belongs to a registry port (`registry:5000/img`), not a tag.
  if (colon > slash) return { name: rest.slice(0, colon), tag: rest.slice(colon + 1), digest };
  return { name: rest, digest };
}

/** True when `digest` is `<algorithm>:<encoded>` of a registered algorithm, encoded as it requires. */
export function isRegisteredDigest(digest: string): boolean {
  const colon = digest.indexOf(":");
  if (colon < 0) return false;
  const algorithm = digest.slice(0, colon);
  return Object.prototype.hasOwnProperty.call(REGISTERED_DIGESTS, algorithm) && REGISTERED_DIGESTS[algorithm].test(digest.slice(colon + 1));
}

/**
 * Why `ref` is not a pinned image reference, or `undefined` when it is. The reasons complete the
 * sentence `image "<ref>" <reason>`.
 */
export function unpinnedImage(ref: string): string | undefined {
  const { name, tag, digest } = imageRefParts(ref);
  const m = NAME.exec(name);
  if (m === null || m[2].length > MAX_REPOSITORY_PATH)
    return `is not a valid image reference: want [registry[:port]/]path, the path of lowercase letters and digits joined by ".", "_" or "-", at most ${MAX_REPOSITORY_PATH} characters`;
  if (digest !== undefined && !isRegisteredDigest(digest))
    return "has a malformed digest (want sha256:<64 hex digits> or sha512:<128 hex digits>, lowercase)";
  if (tag === "latest")
    return digest === undefined
      ? "uses the tag latest: pin a version tag or a digest"
      : "uses the tag latest beside its digest: drop the tag or name a version";
  if (tag === undefined) return digest === undefined ? "has no tag (Kubernetes pulls latest): pin a version tag or a digest" : undefined;
  if (tag === "" && digest === undefined) return "has no tag (Kubernetes pulls latest): pin a version tag or a digest";
  if (!TAG.test(tag)) return "has a malformed tag (want 1 to 128 letters, digits, '_', '.' or '-', not starting with '.' or '-')";
  return undefined;
}

/** True when `ref` names an image by a registered digest, or by an explicit tag that is not `latest`. */
export function isPinnedImage(ref: unknown): ref is string {
  return typeof ref === "string" && unpinnedImage(ref) === undefined;
}
