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
import { isInt, isOneOf, isText } from "../../core/checks";
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
    h.update(`file ${f.path} ${(f.mode & 0o127777).toString(8)} ${content.length}\n`);
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

/** What {@link dockerDaemon} looks at; the stacks and `lab run` pass this machine (components/image/docker.ts). */
export interface DockerProbe {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  /** This machine as Node names it: `process.platform` (linux, darwin, win32) and `process.arch` (x64, arm64). */
  readonly os: string;
  readonly arch: string;
  exists(file: string): boolean;
  readFile(file: string): string | undefined;
  /**
   * GET `path` from the Docker Engine API at `host` (`unix:///…` or `tcp://host:port`, plain HTTP);
   * rejects with the socket's error (ENOENT, ECONNREFUSED, EACCES, a timeout) when nothing answers.
   */
  get(host: string, path: string): Promise<{ status: number; body: string }>;
}

/** Where a Docker daemon would be reached from this machine, the way the Docker client picks it. */
export interface DockerEndpoint {
  /** `unix:///var/run/docker.sock`, `tcp://10.0.0.5:2376`, `ssh://…` */
  readonly host: string;
  /** How it was chosen: `DOCKER_HOST`, `docker context <name>`, or `default socket`. */
  readonly via: string;
}

/**
 * The endpoint the Docker client (and @pulumi/docker-build's embedded client) would use: `DOCKER_HOST`,
 * else the context `DOCKER_CONTEXT` names, else the current context of `$DOCKER_CONFIG/config.json`
 * (docker docs, "Docker contexts": the variable overrides `docker context use`; its endpoint from
 * `contexts/meta/<sha256 of the name>/meta.json`, docker/cli `cli/context/store`), else the first
 * default socket that exists (`/var/run/docker.sock`, Docker Desktop's `~/.docker/run/docker.sock`).
 * Undefined when there is none.
 */
export function dockerEndpoint(p: DockerProbe): DockerEndpoint | undefined {
  const host = p.env.DOCKER_HOST;
  if (host !== undefined && host !== "") return { host, via: "DOCKER_HOST" };
  const dir = p.env.DOCKER_CONFIG || path.join(p.homeDir, ".docker");
  const config = p.readFile(path.join(dir, "config.json"));
  let context: unknown = p.env.DOCKER_CONTEXT || undefined;
  if (context === undefined && config !== undefined) {
    try {
      context = (JSON.parse(config) as { currentContext?: unknown }).currentContext;
    } catch {
      // A malformed config.json is Docker's to report; look for a socket instead.
    }
  }
  if (typeof context === "string" && context !== "" && context !== "default") {
    const metaFile = path.join(dir, "contexts", "meta", createHash("sha256").update(context).digest("hex"), "meta.json");
    let contextHost: unknown;
    try {
      contextHost = (JSON.parse(p.readFile(metaFile) ?? "{}") as { Endpoints?: { docker?: { Host?: unknown } } }).Endpoints?.docker?.Host;
    } catch {
      contextHost = undefined;
    }
    return {
      host: typeof contextHost === "string" && contextHost !== "" ? contextHost : `(context ${context}: no endpoint in ${metaFile})`,
      via: `docker context ${context}`,
    };
  }
  for (const socket of ["/var/run/docker.sock", path.join(p.homeDir, ".docker", "run", "docker.sock")]) {
    if (p.exists(socket)) return { host: `unix://${socket}`, via: "default socket" };
  }
  return undefined;
}

/** What {@link dockerDaemon} found: a daemon that answers and can build the platform, or why not and what to do. */
export type DockerCheck =
  | { readonly ok: true; readonly endpoint: DockerEndpoint; readonly daemonPlatform: string; readonly note?: string }
  | { readonly ok: false; readonly endpoint?: DockerEndpoint; readonly problem: string };

/** An error's message (Node's socket errors may come from another realm than this module's `Error`). */
function messageOf(e: unknown): string {
  const m = (e as { message?: unknown } | undefined)?.message;
  return typeof m === "string" ? m : String(e);
}

/** Engine API architectures (Go's GOARCH, `GET /version` `Arch`) → the binfmt_misc handler names that run them. */
const BINFMT_HANDLERS: Readonly<Record<string, readonly string[]>> = {
  amd64: ["qemu-x86_64", "rosetta"],
  arm64: ["qemu-aarch64"],
};

/** Node's `process.arch` → Go's GOARCH. */
const GOARCH: Readonly<Record<string, string>> = {
  x64: "amd64",
  arm64: "arm64",
  arm: "arm",
  ia32: "386",
  s390x: "s390x",
  ppc64: "ppc64le",
};

/** How to get a Docker daemon, or to do without one (the eks stack builds the images its `lab:images` lists). */
export const INSTALL_DOCKER =
  "install and start Docker Engine (https://docs.docker.com/engine/install/), or build the image elsewhere, push it, remove it from the eks stack's lab:images and set its reference as lab:toolsImage (fsx-eks) or lab:ombImage (kafka)";

/** What to do instead of building on a daemon that cannot build the platform. */
const GIVE_IMAGE = "or give the image instead (lab:toolsImage of fsx-eks, lab:ombImage of kafka) and remove it from lab:images";

/**
 * Whether this machine can build the lab's images: a Docker daemon is reachable
 * ({@link dockerEndpoint}), answers the Engine API (`GET /_ping` → 200 `OK`; `GET /version` →
 * its `Os`/`Arch`, Docker Engine API reference), and can build `platform`. A daemon of another
 * architecture builds it only under emulation: Docker Desktop ships it (`GET /info`
 * `OperatingSystem` "Docker Desktop"); a Linux daemon on this machine needs a binfmt_misc handler
 * for the target (QEMU's `qemu-x86_64`, or Rosetta's, registered and `enabled` in
 * /proc/sys/fs/binfmt_misc: the kernel's binfmt-misc documentation; Docker's multi-platform build
 * docs install them with `docker run --privileged --rm tonistiigi/binfmt --install amd64`); a remote
 * daemon's host cannot be looked at from here (noted, not refused). Every failure says what to do.
 */
export async function dockerDaemon(p: DockerProbe, platform: string = TOOLS_IMAGE_PLATFORM): Promise<DockerCheck> {
  const endpoint = dockerEndpoint(p);
  if (endpoint === undefined)
    return {
      ok: false,
      problem: `no Docker daemon on this machine (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): ${INSTALL_DOCKER}`,
    };
  const { host, via } = endpoint;
  const where = `the Docker daemon at ${host} (${via})`;
  if (host.startsWith("(context "))
    return {
      ok: false,
      endpoint,
      problem: `${via} has no Docker endpoint ${host.slice(host.indexOf(": no endpoint ") + 14, -1)}: select another one (docker context use default), or ${INSTALL_DOCKER}`,
    };
  if (!/^(unix|tcp):\/\//.test(host))
    return {
      ok: true,
      endpoint,
      daemonPlatform: "unknown",
      note: `${where} was not probed (only unix:// and plain tcp:// endpoints are); the build will tell`,
    };
  if (host.startsWith("tcp://") && p.env.DOCKER_TLS_VERIFY)
    return { ok: true, endpoint, daemonPlatform: "unknown", note: `${where} uses TLS and was not probed; the build will tell` };
  const fail = (problem: string): DockerCheck => ({ ok: false, endpoint, problem });
  let ping: { status: number; body: string };
  try {
    ping = await p.get(host, "/_ping");
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why = messageOf(e);
    if (code === "EACCES")
      return fail(
        `${where} refuses this user (${why}): add the user to the docker group (sudo usermod -aG docker "$USER", then log in again), or ${INSTALL_DOCKER}`,
      );
    return fail(`${where} does not answer (${why}): start it (e.g. sudo systemctl start docker), or ${INSTALL_DOCKER}`);
  }
  if (ping.status !== 200 || ping.body.trim() !== "OK")
    return fail(
      `${where} answered GET /_ping with ${ping.status} ${JSON.stringify(ping.body.slice(0, 200))}, not 200 "OK": ${INSTALL_DOCKER}`,
    );
  let version: { Os?: unknown; Arch?: unknown };
  let info: { OperatingSystem?: unknown } = {};
  try {
    const v = await p.get(host, "/version");
    if (v.status !== 200) throw new Error(`status ${v.status}`);
    version = JSON.parse(v.body) as typeof version;
    const i = await p.get(host, "/info");
    if (i.status === 200) info = JSON.parse(i.body) as typeof info;
  } catch (e) {
    return fail(`${where} answered /_ping but not GET /version (${messageOf(e)}): ${INSTALL_DOCKER}`);
  }
  if (typeof version.Os !== "string" || typeof version.Arch !== "string")
    return fail(`${where} reported no Os and Arch in GET /version: ${INSTALL_DOCKER}`);
  const daemonPlatform = `${version.Os}/${version.Arch}`;
  if (daemonPlatform === platform) return { ok: true, endpoint, daemonPlatform };
  const [targetOs, targetArch] = platform.split("/");
  if (version.Os !== targetOs)
    return fail(`${where} runs ${daemonPlatform} and cannot build ${platform}: use a Linux daemon, ${GIVE_IMAGE}`);
  if (typeof info.OperatingSystem === "string" && info.OperatingSystem.includes("Docker Desktop"))
    return { ok: true, endpoint, daemonPlatform, note: `${info.OperatingSystem} builds ${platform} under its own emulation` };
  const local = host.startsWith("unix://") && p.os === "linux";
  if (!local)
    return {
      ok: true,
      endpoint,
      daemonPlatform,
      note: `${where} runs ${daemonPlatform}: building ${platform} needs emulation on its host, which cannot be checked from here`,
    };
  const handlers = BINFMT_HANDLERS[targetArch] ?? [];
  const enabled = handlers.filter((h) => (p.readFile(`/proc/sys/fs/binfmt_misc/${h}`) ?? "").split("\n")[0] === "enabled");
  if (enabled.length > 0)
    return { ok: true, endpoint, daemonPlatform, note: `${platform} under emulation (binfmt_misc ${enabled.join(", ")})` };
  const hostArch = GOARCH[p.arch] ?? p.arch;
  return fail(
    `${where} runs ${daemonPlatform} (this machine is ${p.os}/${hostArch}) and cannot build ${platform}: no enabled binfmt_misc handler for ${targetArch} (${handlers.map((h) => `/proc/sys/fs/binfmt_misc/${h}`).join(" or ") || "none known"}): install QEMU's (docker run --privileged --rm tonistiigi/binfmt --install ${targetArch}, or apt-get install qemu-user-static binfmt-support), ${GIVE_IMAGE}`,
  );
}

/**
 * The images an eks stack builds for the stacks that run on its cluster (`lab:images`): `tools`
 * (fio and ioping, {@link TOOLS_IMAGE_CONTEXT}: fsx-eks' benchmark Jobs) and `omb` (the
 * OpenMessaging Benchmark, components/omb/image.ts: kafka's workers and drivers). Built in the eks
 * stack because an image needs no cluster object and no file system: it is built while the cluster
 * is created, beside the file system, not after both.
 */
export const LAB_IMAGES = ["tools", "omb"] as const;
export type LabImage = (typeof LAB_IMAGES)[number];

/** The rule of `lab:images`. */
export const LAB_IMAGES_RULE =
  "a list of images to build for the stacks on this cluster, each once: tools (fio and ioping, for fsx-eks) or omb (OpenMessaging Benchmark, for kafka), e.g. [tools]";

/** Every problem of an `images` list (`path`: the argument's name): not a list, an unknown image, one listed twice. */
export function imagesProblems(images: unknown, path = "images"): ArgProblem[] {
  if (images === undefined) return [];
  if (!Array.isArray(images)) return [argProblem(path, LAB_IMAGES_RULE, images)];
  const out: ArgProblem[] = [];
  images.forEach((image: unknown, i) => {
    if (!isOneOf(image, LAB_IMAGES)) out.push(argProblem(`${path}[${i}]`, `one of ${LAB_IMAGES.join(", ")} (${LAB_IMAGES_RULE})`, image));
    else if (images.indexOf(image) < i)
      out.push(argProblem(`${path}[${i}]`, `another image than entry ${images.indexOf(image)} (each is built once)`, image));
  });
  return out;
}

/**
 * The rule `lab:images` breaks when it lists an image and no Docker daemon is to be found
 * (`pulumi up` of the eks stack only: a preview builds nothing).
 */
export const NO_DOCKER_RULE =
  "empty when this machine has no Docker daemon to build the images (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): start Docker, or build them elsewhere, push them and give their references to the stacks that run them instead (lab:toolsImage of fsx-eks, lab:ombImage of kafka)";

/** The rule `lab:images` breaks when the daemon found cannot build the images: {@link dockerDaemon}'s problem. */
export function cannotBuildRule(problem: string): string {
  return `empty when this machine cannot build the images: ${problem}`;
}

/**
 * The rule `lab:toolsImage` (fsx-eks) breaks when it is unset and the eks stack it names exports no
 * tools image (its `images` output, stacks/eks/outputs.ts).
 */
export function noToolsImageRule(eksStack: string): string {
  return `a pinned image with fio and ioping when {eksStack} (${eksStack}) builds none (its output images has no tools): add tools to that eks stack's lab:images, or build components/bench/image/Dockerfile elsewhere, push it and set lab:toolsImage to its reference`;
}
