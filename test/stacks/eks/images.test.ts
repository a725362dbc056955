/**
 * The eks kind's images (stacks/eks/images.ts): their repositories, the Docker checks that name
 * lab:images, and `pulumi up` of the shipped eks stack on a machine without Docker.
 */
import { DeployTimeError } from "../../../components/lib/deploy-error";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { ConfigError } from "../../../core/errors";
import { LOCAL_DOCKER_PROBE } from "../../../components/image/docker";
import type { DockerProbe } from "../../../components/image/rules";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { runStack } from "../../../stacks";
import { dockerCanBuild, ombRepositoryName, requireDocker, toolsRepositoryName } from "../../../stacks/eks/images";
import { ROOT } from "../../helpers/root";

const none: DockerProbe = {
  env: {},
  homeDir: "/nonexistent",
  os: "linux",
  arch: "x64",
  exists: () => false,
  readFile: () => undefined,
  get: () => Promise.reject(new Error("not called")),
};

describe("the eks stack's images", () => {
  test("an ECR repository per stack and image, lowercase", () => {
    expect(toolsRepositoryName("fsx-eks-cluster")).toBe("storage-bench-lab/fsx-eks-cluster/bench-tools");
    expect(toolsRepositoryName("My Stack")).toBe("storage-bench-lab/my-stack/bench-tools");
    expect(ombRepositoryName("kafka-cluster")).toBe("storage-bench-lab/kafka-cluster/omb");
  });

  test("no Docker daemon: one config error naming lab:images, its value and what to do; nothing to build, no check", () => {
    expect(() => requireDocker(["tools"], none)).toThrow(
      new ConfigError([
        "'lab:images' must be empty when this machine has no Docker daemon to build the images (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): start Docker, or build them elsewhere, push them and give their references to the stacks that run them instead (lab:toolsImage of fsx-eks, lab:ombImage of kafka), got [\"tools\"]",
      ]),
    );
    expect(() => requireDocker([], none)).not.toThrow();
    expect(() => requireDocker(["tools", "omb"], { ...none, env: { DOCKER_HOST: "unix:///run/user/1000/docker.sock" } })).not.toThrow();
  });

  test("a daemon that does not answer: the images' wait fails with one config error naming lab:images and the daemon's problem", async () => {
    const dead: DockerProbe = {
      ...none,
      env: { DOCKER_HOST: "unix:///run/user/1000/docker.sock" },
      get: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED /run/user/1000/docker.sock"), { code: "ECONNREFUSED" })),
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const value = (dockerCanBuild(["omb"], dead) as any).promise() as Promise<unknown>;
    await expect(value).rejects.toThrow(
      new DeployTimeError([
        "'lab:images' must be empty when this machine cannot build the images: the Docker daemon at unix:///run/user/1000/docker.sock (DOCKER_HOST) does not answer (connect ECONNREFUSED /run/user/1000/docker.sock): start it (e.g. sudo systemctl start docker), or install and start Docker Engine (https://docs.docker.com/engine/install/), or build the image elsewhere, push it, remove it from the eks stack's lab:images and set its reference as lab:toolsImage (fsx-eks) or lab:ombImage (kafka), got [\"omb\"]",
      ]),
    );
  });
});

describe("pulumi up of fsx-eks-cluster (lab:images [tools]) on a machine without a Docker daemon", () => {
  const saved = { ...process.env };
  let dir: string;
  const registered: string[] = [];
  beforeAll(async () => {
    // No DOCKER_HOST, no context, an empty Docker config, no socket: LOCAL_DOCKER_PROBE finds no endpoint.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-nodocker-"));
    for (const k of ["DOCKER_HOST", "DOCKER_CONTEXT"]) delete process.env[k];
    process.env.DOCKER_CONFIG = dir;
    jest.spyOn(LOCAL_DOCKER_PROBE, "exists").mockReturnValue(false);
    await pulumi.runtime.setMocks(
      {
        newResource(args) {
          registered.push(`${args.type} ${args.name}`);
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: () => ({}),
      },
      "storage-bench-lab",
      "fsx-eks-cluster",
      false, // an update, not a preview
    );
  });
  afterAll(() => {
    jest.restoreAllMocks();
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("fails with the config error naming lab:images and its value, before any resource", async () => {
    const spec = readStackConfigFile(path.join(ROOT, "Pulumi.fsx-eks-cluster.yaml"), "fsx-eks-cluster");
    const run = async () => runStack(spec.config, { project: "storage-bench-lab", stack: "fsx-eks-cluster" });
    await expect(run()).rejects.toThrow(
      new ConfigError([
        "'lab:images' must be empty when this machine has no Docker daemon to build the images (DOCKER_HOST is unset, no docker context is selected, no /var/run/docker.sock): start Docker, or build them elsewhere, push them and give their references to the stacks that run them instead (lab:toolsImage of fsx-eks, lab:ombImage of kafka), got [\"tools\"]",
      ]),
    );
    expect(registered).toEqual([]);
  });
});
