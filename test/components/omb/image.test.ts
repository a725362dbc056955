/** The OMB image's sources (components/omb/image.ts): upstream's repository and Dockerfile at the pinned commit, its tag. */
import { ombContext, ombDockerfileUrl, ombImageTag } from "../../../components/omb/image";
import { OMB_SOURCE } from "../../../components/versions";

describe("OMB image", () => {
  test("the pin: openmessaging/benchmark at 85599891, built with its docker/Dockerfile.build", () => {
    expect(OMB_SOURCE).toEqual({
      repository: "https://github.com/openmessaging/benchmark.git",
      commit: "85599891321cafa2fb7065a63f009b4bb5374288",
      dockerfile: "docker/Dockerfile.build",
    });
  });

  test("a Git context at the commit, the Dockerfile at the same commit, a tag from the commit", () => {
    expect(ombContext()).toBe("https://github.com/openmessaging/benchmark.git#85599891321cafa2fb7065a63f009b4bb5374288");
    expect(ombDockerfileUrl()).toBe(
      "https://raw.githubusercontent.com/openmessaging/benchmark/85599891321cafa2fb7065a63f009b4bb5374288/docker/Dockerfile.build",
    );
    expect(ombImageTag()).toBe("omb-85599891321c");
    const other = { ...OMB_SOURCE, commit: "0123456789abcdef0123456789abcdef01234567" };
    expect([ombContext(other).endsWith(`#${other.commit}`), ombImageTag(other)]).toEqual([true, "omb-0123456789ab"]);
  });
});
