/**
 * The container images of the benchmark Jobs, and the rule every image reference obeys (pinned by
 * a tag other than `latest`, or by a digest; its one home is core/images.ts, re-exported here). Pure.
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

/** The pinned-image rule is the lab's one rule for image references (core/images.ts). */
export { PINNED_IMAGE_RULE, imageRefParts, isPinnedImage } from "../../core/images";
