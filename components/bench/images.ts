/**
 * The container images of the benchmark Jobs, and the rule every image reference obeys: pinned by
 * a tag other than `latest`, or by a digest. Pure.
 *
 * - **tools (fio, ioping): no public default.** No maintained public image ships both fio and
 *   ioping: the ones found are unmaintained (Alpine 3.11, fio 3.16) or install the tools with
 *   `apk`/`apt` when the container starts, which needs network egress and root on the benchmark
 *   node. The project builds its own from `components/bench/image/Dockerfile` (Debian 12 slim,
 *   fio 3.33-3 and ioping 1.3-1 from Debian, uid 65532) and the stack passes its pushed reference
 *   (tag or digest) as `toolsImage`.
 * - **pgbench: the official `postgres` image**, which ships pgbench, psql and pg_isready and runs
 *   as the `postgres` user (uid 999). Major 17, the lab's Postgres server version.
 */
import { POSTGRES_IMAGE } from "../versions";

/** The pgbench client image: the lab's PostgreSQL server image (official, 17 on Debian 12), so client and server are one release. */
export const DEFAULT_PGBENCH_IMAGE = POSTGRES_IMAGE;

/** The non-root user of the tools image built from `components/bench/image/Dockerfile`. */
export const TOOLS_IMAGE_UID = 65532;
/** The `postgres` user of the official postgres image. */
export const PGBENCH_IMAGE_UID = 999;

/** The tag the project's Dockerfile suggests for the tools image (the registry is the user's). */
export const TOOLS_IMAGE_TAG = "fio-3.33-ioping-1.3";

/** What {@link isPinnedImage} accepts, as a problem's rule. */
export const PINNED_IMAGE_RULE = 'an image reference pinned by a tag other than "latest" or by a @sha256 digest';

const DIGEST = /@sha256:[0-9a-f]{64}$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const NAME = /^[a-z0-9]([a-z0-9._/:-]*[a-z0-9])?$/;

/** The tag of an image reference (`undefined` without one), and its digest. */
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

/** True when `ref` names an image by a digest, or by an explicit tag that is not `latest`. */
export function isPinnedImage(ref: unknown): ref is string {
  if (typeof ref !== "string" || ref.length === 0 || /\s/.test(ref)) return false;
  const { name, tag, digest } = imageRefParts(ref);
  if (!NAME.test(name)) return false;
  if (tag !== undefined && (!TAG.test(tag) || tag === "latest")) return false;
  if (digest !== undefined) return DIGEST.test(`@${digest}`);
  return tag !== undefined;
}
