/**
 * `lab:image:ToolsImage`: the benchmark tools image (fio + ioping, components/bench/image/Dockerfile),
 * built on the deploying machine with @pulumi/docker-build and pushed to an ECR repository this
 * component owns: tags immutable, scan on push, a lifecycle policy (rules.ts), deleted with its
 * images when the stack is destroyed (a lab keeps nothing). `ref` is `<repository>:<tag>@sha256:…`,
 * pinned by digest. The tag names the build context's content and the locations are relative to the
 * project root (rules.ts `imageTag`, TOOLS_IMAGE_CONTEXT): a plan from any checkout has the same
 * inputs, and only a changed context builds, under a new tag. Building needs a Docker daemon: the eks stack that builds it
 * (`lab:images: [tools]`) checks for one before it creates this component (rules.ts `dockerDaemon`).
 */
import * as pulumi from "@pulumi/pulumi";
import * as path from "node:path";
import { throwIfInvalid } from "../lib/args";
import { readContextFiles } from "./context";
import { ecrImage } from "./ecr";
import { imageTag, PROJECT_ROOT, problems, resolve, TOOLS_IMAGE_CONTEXT, TOOLS_IMAGE_DOCKERFILE, ToolsImageSpec } from "./rules";

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
    // The tag names the context's content (rules.ts `imageTag`); the locations are project-relative
    // (rules.ts TOOLS_IMAGE_CONTEXT), so the inputs are the same from any checkout.
    const tag = imageTag(readContextFiles(path.join(PROJECT_ROOT, TOOLS_IMAGE_CONTEXT)));

    const image = ecrImage(name, r, { context: TOOLS_IMAGE_CONTEXT, dockerfile: TOOLS_IMAGE_DOCKERFILE, tag }, this);

    this.ref = image.ref;
    this.repositoryUrl = image.repositoryUrl;
    this.tag = pulumi.output(tag);
    this.registerOutputs({ ref: this.ref, repositoryUrl: this.repositoryUrl, tag: this.tag });
  }
}
