/**
 * `lab:omb:OmbImage`: the OpenMessaging Benchmark image, built with @pulumi/docker-build from
 * upstream's own `docker/Dockerfile.build` with the repository at the pinned commit as its context
 * (components/versions.ts `OMB_SOURCE`), and pushed to an ECR repository this component owns: the
 * same mechanism and repository rules as the tools image (components/image: immutable tags, scan on
 * push, lifecycle policy, deleted with the stack). `ref` is `<repository>:<tag>@sha256:…`.
 *
 * Remote sources (docker-build `BuildContextArgs.location`: "A remote URL of a Git repository";
 * `DockerfileArgs.location`: "a relative or absolute path to a local file, or a remote URL"): the
 * context `https://github.com/openmessaging/benchmark.git#<commit>` (Docker build docs, "Git
 * repositories": the fragment names the ref, a commit included) and the Dockerfile at the same commit
 * from raw.githubusercontent.com. The tag is `omb-<first 12 hex of the commit>`: a new pin, a new tag.
 * Building needs a Docker daemon and network access to GitHub, Maven Central and Docker Hub.
 */
import * as pulumi from "@pulumi/pulumi";
import { ecrImage } from "../image/ecr";
import { problems, resolve, ToolsImageSpec } from "../image/rules";
import { throwIfInvalid } from "../lib/args";
import { OMB_SOURCE } from "../versions";

export type OmbImageArgs = ToolsImageSpec;

/** Where OMB's source is: a Git repository, a commit, the Dockerfile's path in it. */
export interface OmbSource {
  readonly repository: string;
  readonly commit: string;
  readonly dockerfile: string;
}

/** The build context: the OMB repository at the pinned commit. */
export function ombContext(source: OmbSource = OMB_SOURCE): string {
  return `${source.repository}#${source.commit}`;
}

/** Upstream's Dockerfile at the pinned commit. */
export function ombDockerfileUrl(source: OmbSource = OMB_SOURCE): string {
  const repo = source.repository.replace(/^https:\/\/github\.com\//, "").replace(/\.git$/, "");
  return `https://raw.githubusercontent.com/${repo}/${source.commit}/${source.dockerfile}`;
}

/** The image tag: `omb-<12 hex of the commit>`. */
export function ombImageTag(source: OmbSource = OMB_SOURCE): string {
  return `omb-${source.commit.slice(0, 12)}`;
}

export class OmbImage extends pulumi.ComponentResource {
  /** The pushed image, `<repository url>:<tag>@sha256:<digest>`. */
  readonly ref: pulumi.Output<string>;
  readonly repositoryUrl: pulumi.Output<string>;

  constructor(name: string, args: OmbImageArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:omb:OmbImage", name, {}, opts);
    throwIfInvalid("lab:omb:OmbImage", name, problems(args));
    const r = resolve(args);

    const image = ecrImage(name, r, { context: ombContext(), dockerfile: ombDockerfileUrl(), tag: ombImageTag() }, this);

    this.ref = image.ref;
    this.repositoryUrl = image.repositoryUrl;
    this.registerOutputs({ ref: this.ref, repositoryUrl: this.repositoryUrl });
  }
}
