/**
 * The benchmark tools image's rules and defaults, in one place (pure): its ECR repository, the
 * repository's lifecycle policy, the image tag, and how to tell whether this machine can build it.
 *
 * Sources:
 * - ECR repository names: 2–256 characters, lowercase letters, digits and `._-/` in path components
 *   (ECR API CreateRepository `repositoryName`: {@link REPOSITORY_NAME_RE} is its pattern).
 * - Lifecycle policy (Amazon ECR User Guide, "Lifecycle policy properties"): rules `rulePriority`,
 *   `selection.tagStatus` (`tagged`, `untagged`, `any`), `countType` `sinceImagePushed` (with
 *   `countUnit: days`) or `imageCountMoreThan`, `action.type: expire`; "A rule with a tagStatus
 *   value of any must have the highest value for rulePriority and be evaluated last."
 * - Docker: @pulumi/docker-build builds with its embedded Docker client against the Docker daemon
 *   the environment names (`DOCKER_HOST`, the current `docker context`, else the default socket
 *   `/var/run/docker.sock`; Docker Desktop's per-user socket `~/.docker/run/docker.sock`).
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt, isText } from "../../core/checks";
import { withDefaults } from "../lib/defaults";
import { TOOLS_IMAGE_TAG } from "../bench/images";

export const REPOSITORY_NAME_RE = /^(?:[a-z0-9]+(?:[._-][a-z0-9]+)*\/)*[a-z0-9]+(?:[._-][a-z0-9]+)*$/;

/** The plain arguments of the ToolsImage component. */
export interface ToolsImageSpec {
  /** ECR repository name (2–256 characters, lowercase). */
  readonly repositoryName: string;
  /** Images kept in the repository (older ones expire). @default 5 */
  readonly keepImages?: number;
  /** Days an untagged image is kept. @default 1 */
  readonly untaggedExpiryDays?: number;
}

export const TOOLS_IMAGE_DEFAULTS = { keepImages: 5, untaggedExpiryDays: 1 } as const;

/**
 * The build context, relative to the project root: components/bench/image (its Dockerfile is the
 * image's one definition). Relative on purpose: @pulumi/docker-build diffs `context.location` and
 * `dockerfile.location` as given (provider/internal/image.go `Diff`: `olds.Context.Location !=
 * news.Context.Location`, pulumi/pulumi-docker-build v0.0.22), so an absolute path would differ per
 * checkout and rebuild the image. The provider resolves a relative path against its own working
 * directory (context.go `validate`: `filepath.Abs(c.Location)`; dockerfile.go likewise), and the
 * Pulumi engine starts the program and its provider plugins in the directory of the project's `main`
 * (pulumi/pulumi pkg/engine/project.go `getPwdMain`: "So that any relative paths inside of the
 * program are correct, we still need to pass the pwd of the main program's parent directory"):
 * `main: index.ts`, the project root, for `pulumi up` and for `lab run` (a LocalWorkspace on the
 * project directory, lab/run/workspace.ts).
 */
export const TOOLS_IMAGE_CONTEXT = "components/bench/image";
/** The Dockerfile, relative to the project root. */
export const TOOLS_IMAGE_DOCKERFILE = `${TOOLS_IMAGE_CONTEXT}/Dockerfile`;
/** The project root on this machine: where the relative locations above are read from by the program itself. */
export const PROJECT_ROOT = path.resolve(__dirname, "..", "..");
/** The nodes' platform (AL2023_x86_64_STANDARD). */
export const TOOLS_IMAGE_PLATFORM = "linux/amd64";

export function resolve(spec: ToolsImageSpec): Required<ToolsImageSpec> {
  return withDefaults(spec, TOOLS_IMAGE_DEFAULTS);
}

/** Every problem of `spec`, in argument order. */
export function problems(spec: ToolsImageSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  if (!isText(spec.repositoryName, REPOSITORY_NAME_RE) || spec.repositoryName.length < 2 || spec.repositoryName.length > 256)
    out.push(
      argProblem(
        "repositoryName",
        "an ECR repository name of 2 to 256 lowercase letters, digits and . _ - / (e.g. storage-bench-lab/tools)",
        spec.repositoryName,
      ),
    );
  if (spec.keepImages !== undefined && !isInt(spec.keepImages, 1, 1000))
    out.push(argProblem("keepImages", "an integer from 1 to 1000", spec.keepImages));
  if (spec.untaggedExpiryDays !== undefined && !isInt(spec.untaggedExpiryDays, 1, 365))
    out.push(argProblem("untaggedExpiryDays", "an integer from 1 to 365 (days)", spec.untaggedExpiryDays));
  return out;
}

/** The repository's lifecycle policy: untagged images expire after `untaggedExpiryDays`, and only the newest `keepImages` stay. */
export function lifecyclePolicy(r: Required<ToolsImageSpec>): object {
  return {
    rules: [
      {
        rulePriority: 1,
        description: `Expire untagged images after ${r.untaggedExpiryDays} day(s)`,
        selection: { tagStatus: "untagged", countType: "sinceImagePushed", countUnit: "days", countNumber: r.untaggedExpiryDays },
        action: { type: "expire" },
      },
      {
        rulePriority: 2,
        description: `Keep the ${r.keepImages} newest images`,
        selection: { tagStatus: "any", countType: "imageCountMoreThan", countNumber: r.keepImages },
        action: { type: "expire" },
      },
    ],
  };
}

/** One file of a build context: its path relative to the context (`/`-separated), permission bits, content. */
export interface ContextFile {
  readonly path: string;
  readonly mode: number;
  readonly content: Buffer | string;
}

/**
 * The SHA-256 (hex) of what a build of the context depends on: every file's relative path,
 * permission bits and content (sorted by path), and the target platform. These are the inputs
 * @pulumi/docker-build's `contextHash` covers (context.go `hashBuildContext`: each file's content,
 * relative name and mode; the Dockerfile's content), plus the platform: whatever makes the provider
 * rebuild also changes this digest, so no rebuild ever pushes a tag that exists already.
 */
export function contextDigest(files: readonly ContextFile[], platform: string): string {
  const h = createHash("sha256");
  h.update(`platform ${platform}\n`);
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const content = typeof f.content === "string" ? Buffer.from(f.content) : f.content;
    h.update(`file ${f.path} ${(f.mode & 0o7777).toString(8)} ${content.length}\n`);
    h.update(content);
  }
  return h.digest("hex");
}

/**
 * The image tag: the Dockerfile's suggested tag (tool versions) and the first 12 hex digits of the
 * build context's digest ({@link contextDigest}), so that a tag names one content: an edited
 * context pushes a new tag into the immutable repository, and an unchanged one builds nothing.
 */
export function imageTag(files: readonly ContextFile[], platform: string = TOOLS_IMAGE_PLATFORM): string {
  return `${TOOLS_IMAGE_TAG}-${contextDigest(files, platform).slice(0, 12)}`;
}

/** What {@link dockerDaemon} looks at; the stack passes the real environment and file system. */
export interface DockerProbe {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  exists(file: string): boolean;
  readFile(file: string): string | undefined;
}

/** Where a Docker daemon is reachable from this machine, in words; undefined when none is. */
export function dockerDaemon(p: DockerProbe): string | undefined {
  const host = p.env.DOCKER_HOST;
  if (host !== undefined && host !== "") return `DOCKER_HOST=${host}`;
  const configFile = path.join(p.env.DOCKER_CONFIG || path.join(p.homeDir, ".docker"), "config.json");
  const config = p.readFile(configFile);
  if (config !== undefined) {
    try {
      const context = (JSON.parse(config) as { currentContext?: unknown }).currentContext;
      if (typeof context === "string" && context !== "" && context !== "default") return `docker context ${context}`;
    } catch {
      // A malformed config.json is Docker's to report; look for a socket instead.
    }
  }
  for (const socket of ["/var/run/docker.sock", path.join(p.homeDir, ".docker", "run", "docker.sock")]) {
    if (p.exists(socket)) return `unix://${socket}`;
  }
  return undefined;
}

/** The rule `lab:toolsImage` breaks when it is unset and no Docker daemon can build the image. */
export const NO_DOCKER_RULE =
  "a pinned image with fio and ioping when this machine has no Docker daemon to build one (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): start Docker, or build components/bench/image/Dockerfile elsewhere, push it and set lab:toolsImage to its reference";
