/**
 * The ECR repository + @pulumi/docker-build mechanism every lab image uses (components/image's tools
 * image, components/omb's OMB image): a repository the component owns (tags immutable, scan on push,
 * AES256, deleted with its images when the stack is destroyed), its lifecycle policy (rules.ts), and
 * the image built for {@link TOOLS_IMAGE_PLATFORM} and pushed there with the registry's token.
 * Children `${name}-repo`, `${name}-lifecycle`, `${name}-image`, parented to `parent`.
 *
 * What @pulumi/docker-build 0.0.22 does with the Image (pulumi/pulumi-docker-build v0.0.22,
 * provider/internal/image.go):
 * - preview: `buildOnPreview` defaults to true (the SDK's image.js: `resourceInputs["buildOnPreview"]
 *   = (args?.buildOnPreview) ?? true`; image.go `a.SetDefault(&ia.BuildOnPreview, pulumi.Bool(true))`),
 *   and `Create`/`Update` then build on a preview too. Set to false here: `Create` returns before
 *   `cli.Build` when `req.DryRun && !input.shouldBuildOnPreview()`, so a preview needs no Docker
 *   daemon and an `up` builds once. (`Check` still parses an on-disk Dockerfile on a preview.)
 * - update: `Diff` compares every input (`context.location` and `dockerfile` as given, `tags`,
 *   `platforms`, `push`, `buildOnPreview`, registry address and user; not the password) and the
 *   `contextHash` of the context's files; any difference is an update, and `Update` is `Create`: a
 *   new build pushed under `tags`. Every such difference either changes the tag too (the callers' tags
 *   name the context's content, the platform, or the upstream commit) or cannot happen between
 *   updates (the other inputs are constants here), so a rebuild never pushes an existing tag into the
 *   IMMUTABLE repository (ECR refuses it: ImageTagAlreadyExistsException).
 * - delete: deletes the pushed manifest (`repo@<digest>`) from the registry; the repository itself
 *   goes with `forceDelete`.
 */
import * as aws from "@pulumi/aws";
import * as dockerBuild from "@pulumi/docker-build";
import * as pulumi from "@pulumi/pulumi";
import * as path from "node:path";
import { lifecyclePolicy, TOOLS_IMAGE_PLATFORM, ToolsImageSpec } from "./rules";

/**
 * What to build: the context and Dockerfile locations (remote URLs, or local paths relative to the
 * project root: never absolute, the provider diffs them as given) and the tag, which must change
 * whenever what is built does.
 */
export interface EcrImageBuild {
  readonly context: string;
  readonly dockerfile: string;
  readonly tag: string;
}

/** The repository and the pushed image (`ref` is `<repository url>:<tag>@sha256:<digest>`). */
export interface EcrImage {
  readonly ref: pulumi.Output<string>;
  readonly repositoryUrl: pulumi.Output<string>;
}

export function ecrImage(name: string, r: Required<ToolsImageSpec>, build: EcrImageBuild, parent: pulumi.Resource): EcrImage {
  for (const [what, location] of [
    ["context", build.context],
    ["dockerfile", build.dockerfile],
  ] as const)
    if (path.isAbsolute(location))
      throw new Error(`${name}: the image's ${what} location must be relative to the project root or a URL, got ${location}`);
  const opts = { parent };
  const repo = new aws.ecr.Repository(
    `${name}-repo`,
    {
      name: r.repositoryName,
      imageTagMutability: "IMMUTABLE",
      imageScanningConfiguration: { scanOnPush: true },
      encryptionConfigurations: [{ encryptionType: "AES256" }],
      forceDelete: true,
      tags: { Name: r.repositoryName },
    },
    opts,
  );
  new aws.ecr.LifecyclePolicy(`${name}-lifecycle`, { repository: repo.name, policy: JSON.stringify(lifecyclePolicy(r)) }, opts);

  const auth = aws.ecr.getAuthorizationTokenOutput({ registryId: repo.registryId }, opts);
  const image = new dockerBuild.Image(
    `${name}-image`,
    {
      context: { location: build.context },
      dockerfile: { location: build.dockerfile },
      platforms: [TOOLS_IMAGE_PLATFORM as dockerBuild.Platform],
      // Previews never build (see above): the stack checks for a Docker daemon only on an update.
      buildOnPreview: false,
      push: true,
      tags: [pulumi.interpolate`${repo.repositoryUrl}:${build.tag}`],
      registries: [
        {
          address: repo.repositoryUrl.apply((u) => u.split("/")[0]),
          username: auth.userName,
          password: pulumi.secret(auth.password),
        },
      ],
    },
    opts,
  );
  return { ref: image.ref, repositoryUrl: repo.repositoryUrl };
}
