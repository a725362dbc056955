/** The eks kind's images (stacks/eks/images.ts): their repositories, and the Docker checks that name lab:images. */
import { ConfigError } from "../../../core/errors";
import type { DockerProbe } from "../../../components/image/rules";
import { dockerCanBuild, ombRepositoryName, requireDocker, toolsRepositoryName } from "../../../stacks/eks/images";

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
      new ConfigError([
        "'lab:images' must be empty when this machine cannot build the images: the Docker daemon at unix:///run/user/1000/docker.sock (DOCKER_HOST) does not answer (connect ECONNREFUSED /run/user/1000/docker.sock): start it (e.g. sudo systemctl start docker), or install and start Docker Engine (https://docs.docker.com/engine/install/), or build the image elsewhere, push it, remove it from the eks stack's lab:images and set its reference as lab:toolsImage (fsx-eks) or lab:ombImage (kafka), got [\"omb\"]",
      ]),
    );
  });
});
