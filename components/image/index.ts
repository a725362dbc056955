/**
 * `lab:image:ToolsImage`: the benchmark tools image (fio + ioping, components/bench/image/Dockerfile),
 * built on the deploying machine with @pulumi/docker-build and pushed to an ECR repository this
 * component owns: tags immutable, scan on push, a lifecycle policy (rules.ts), deleted with its
 * images when the stack is destroyed (a lab keeps nothing). `ref` is `<repository>:<tag>@sha256:…`,
 * pinned by digest. Building needs a Docker daemon: the stack checks for one before it creates
 * this component (rules.ts `dockerDaemon`) and otherwise asks for `lab:toolsImage`.
 */
import * as aws from "@pulumi/aws";
import * as dockerBuild from "@pulumi/docker-build";
import * as pulumi from "@pulumi/pulumi";
import * as fs from "node:fs";
import * as path from "node:path";
import { throwIfInvalid } from "../lib/args";
import { imageTag, lifecyclePolicy, problems, resolve, TOOLS_IMAGE_CONTEXT, TOOLS_IMAGE_PLATFORM, ToolsImageSpec } from "./rules";

export type ToolsImageArgs = ToolsImageSpec;

export class ToolsImage extends pulumi.ComponentResource {
  /** The pushed image, `<repository url>:<tag>@sha256:<digest>`. */
  readonly ref: pulumi.Output<string>;
  readonly repositoryUrl: pulumi.Output<string>;
  readonly tag: pulumi.Output<string>;

  constructor(name: string, args: ToolsImageArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:image:ToolsImage", name, {}, opts);
    throwIfInvalid("lab:image:ToolsImage", name, problems(args));
    const r = resolve(args);
    const parent = { parent: this };
    const dockerfile = path.join(TOOLS_IMAGE_CONTEXT, "Dockerfile");
    const tag = imageTag(fs.readFileSync(dockerfile, "utf8"));

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
      parent,
    );
    new aws.ecr.LifecyclePolicy(`${name}-lifecycle`, { repository: repo.name, policy: JSON.stringify(lifecyclePolicy(r)) }, parent);

    const auth = aws.ecr.getAuthorizationTokenOutput({ registryId: repo.registryId }, parent);
    const image = new dockerBuild.Image(
      `${name}-image`,
      {
        context: { location: TOOLS_IMAGE_CONTEXT },
        dockerfile: { location: dockerfile },
        platforms: [TOOLS_IMAGE_PLATFORM as dockerBuild.Platform],
        push: true,
        tags: [pulumi.interpolate`${repo.repositoryUrl}:${tag}`],
        registries: [
          {
            address: repo.repositoryUrl.apply((u) => u.split("/")[0]),
            username: auth.userName,
            password: pulumi.secret(auth.password),
          },
        ],
      },
      parent,
    );

    this.ref = image.ref;
    this.repositoryUrl = repo.repositoryUrl;
    this.tag = pulumi.output(tag);
    this.registerOutputs({ ref: this.ref, repositoryUrl: this.repositoryUrl, tag: this.tag });
  }
}
