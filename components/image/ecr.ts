/**
 * The ECR repository + @pulumi/docker-build mechanism every lab image uses (components/image's tools
 * image, components/omb's OMB image): a repository the component owns (tags immutable, scan on push,
 * AES256, deleted with its images when the stack is destroyed), its lifecycle policy (rules.ts), and
 * the image built for {@link TOOLS_IMAGE_PLATFORM} and pushed there with the registry's token.
 * Children `${name}-repo`, `${name}-lifecycle`, `${name}-image`, parented to `parent`.
 */
import * as aws from "@pulumi/aws";
import * as dockerBuild from "@pulumi/docker-build";
import * as pulumi from "@pulumi/pulumi";
import { lifecyclePolicy, TOOLS_IMAGE_PLATFORM, ToolsImageSpec } from "./rules";

/** What to build: the context and Dockerfile locations (local paths or remote URLs) and the tag. */
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
