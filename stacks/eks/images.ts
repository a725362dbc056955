/**
 * The images an eks stack builds for the stacks on its cluster (`lab:images`): the tools image
 * (components/image `ToolsImage`, fio and ioping: fsx-eks' benchmarks) and the OpenMessaging Benchmark
 * image (components/omb/image.ts `OmbImage`: kafka's workers and drivers), each built with the local
 * Docker daemon and pushed to an ECR repository of this stack, exported as `images`.
 *
 * Why here: an image needs its ECR repository and the Docker daemon, no cluster object and no file
 * system. Built in the eks stack, it is built while the EKS control plane is created, which itself
 * runs beside the FSx file system (the longest step of a scenario): off the critical path, instead
 * of after both in the stack that runs it (lab/run/durations.ts `BESIDE_THE_REST`).
 *
 * Only an update builds: the Image has `buildOnPreview: false` (components/image/ecr.ts, where the
 * provider's preview behaviour is cited), and the offline plan builds nothing. So on an update, and
 * only then, the Docker daemon is looked for before any resource ({@link requireDocker}) and checked
 * before the images ({@link dockerCanBuild}); both fail with a config error naming `lab:images`.
 */
import * as aws from "@pulumi/aws";
import { DeployTimeError } from "../../components/lib/deploy-error";
import * as pulumi from "@pulumi/pulumi";
import { ToolsImage } from "../../components/image";
import { LOCAL_DOCKER_PROBE } from "../../components/image/docker";
import { cannotBuildRule, DockerProbe, dockerDaemon, dockerEndpoint, LabImage, NO_DOCKER_RULE } from "../../components/image/rules";
import { OmbImage } from "../../components/omb/image";
import { argProblem, ConfigError, formatArgProblem } from "../../core/errors";
import { userKey } from "../lib/config/load";

/** A stack name as an ECR repository path component. */
const repoStack = (stack: string) => stack.toLowerCase().replace(/[^a-z0-9._-]/g, "-");

/** The ECR repository of a stack's tools image. */
export function toolsRepositoryName(stack: string): string {
  return `storage-bench-lab/${repoStack(stack)}/bench-tools`;
}

/** The ECR repository of a stack's OMB image. */
export function ombRepositoryName(stack: string): string {
  return `storage-bench-lab/${repoStack(stack)}/omb`;
}

/** The config error of `lab:images` under `rule`. */
function imagesError(images: readonly LabImage[], rule: string): ConfigError {
  return new ConfigError([formatArgProblem(argProblem("images", rule, images), userKey)]);
}

/** The config error when images are to be built and no Docker daemon is to be found (`pulumi up` only, before any resource). */
export function requireDocker(images: readonly LabImage[], probe: DockerProbe = LOCAL_DOCKER_PROBE): void {
  if (images.length > 0 && dockerEndpoint(probe) === undefined) throw imagesError(images, NO_DOCKER_RULE);
}

/**
 * The daemon found answers and can build the images' platform (components/image/rules.ts
 * `dockerDaemon`), as an Output the images wait for: its problem, as a config error naming
 * `lab:images`, fails them before the provider's own error would.
 */
export function dockerCanBuild(images: readonly LabImage[], probe: DockerProbe = LOCAL_DOCKER_PROBE): pulumi.Output<true> {
  return pulumi.output(dockerDaemon(probe)).apply((c) => {
    if (!c.ok) throw new DeployTimeError(imagesError(images, cannotBuildRule(c.problem)).problems);
    return true as const;
  });
}

/** The references of the images built, by name (`<repository url>:<tag>@sha256:<digest>`). */
export type BuiltImages = { readonly [K in LabImage]?: pulumi.Output<string> };

/**
 * Builds `images` into this stack's repositories (`stack` names them) through `provider`; on an
 * update, after the daemon's check. Nothing in the cluster waits for them.
 */
export function buildImages(images: readonly LabImage[], stack: string, provider: aws.Provider): BuiltImages {
  if (images.length === 0) return {};
  const buildAfter = pulumi.runtime.isDryRun() ? {} : { dependsOn: dockerCanBuild(images).apply(() => []) };
  const opts = { provider, ...buildAfter };
  return {
    ...(images.includes("tools") ? { tools: new ToolsImage("tools", { repositoryName: toolsRepositoryName(stack) }, opts).ref } : {}),
    ...(images.includes("omb") ? { omb: new OmbImage("omb", { repositoryName: ombRepositoryName(stack) }, opts).ref } : {}),
  };
}
