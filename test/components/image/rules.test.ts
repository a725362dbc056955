/** The tools image's rules (components/image/rules.ts): repository names, lifecycle policy, tag, Docker detection. */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { formatArgProblem } from "../../../core/errors";
import { readContextFiles } from "../../../components/image/context";
import {
  contextDigest,
  imagesProblems,
  LAB_IMAGES,
  noToolsImageRule,
  PROJECT_ROOT,
  TOOLS_IMAGE_DOCKERFILE,
  imageTag,
  lifecyclePolicy,
  problems,
  resolve,
  TOOLS_IMAGE_CONTEXT,
  TOOLS_IMAGE_DEFAULTS,
  TOOLS_IMAGE_PLATFORM,
} from "../../../components/image/rules";
import { isPinnedImage } from "../../../core/images";
import { ROOT } from "../../helpers/root";

describe("tools image rules", () => {
  test("defaults; the build context is the bench Dockerfile's folder; amd64 nodes", () => {
    expect(TOOLS_IMAGE_DEFAULTS).toEqual({ keepImages: 5, untaggedExpiryDays: 1 });
    expect(resolve({ repositoryName: "storage-bench-lab/fsx-eks/bench-tools" })).toEqual({
      repositoryName: "storage-bench-lab/fsx-eks/bench-tools",
      keepImages: 5,
      untaggedExpiryDays: 1,
    });
    // Relative to the project root (the provider diffs the location as given).
    expect(TOOLS_IMAGE_CONTEXT).toBe("components/bench/image");
    expect(TOOLS_IMAGE_DOCKERFILE).toBe("components/bench/image/Dockerfile");
    expect(PROJECT_ROOT).toBe(ROOT);
    expect(fs.existsSync(path.join(PROJECT_ROOT, TOOLS_IMAGE_DOCKERFILE))).toBe(true);
    expect(TOOLS_IMAGE_PLATFORM).toBe("linux/amd64");
  });

  test("problems, exact", () => {
    expect(problems({ repositoryName: "storage-bench-lab/dev/bench-tools", keepImages: 10, untaggedExpiryDays: 7 })).toEqual([]);
    expect(problems({ repositoryName: "Storage/Tools", keepImages: 0, untaggedExpiryDays: 400 }).map((p) => formatArgProblem(p))).toEqual([
      `'repositoryName' must be an ECR repository name of 2 to 256 lowercase letters, digits and . _ - / (e.g. storage-bench-lab/tools), got "Storage/Tools"`,
      "'keepImages' must be an integer from 1 to 1000, got 0",
      "'untaggedExpiryDays' must be an integer from 1 to 365 (days), got 400",
    ]);
    expect(problems({ repositoryName: "a//b" }).map((p) => p.path)).toEqual(["repositoryName"]);
  });

  test("lifecycle policy: untagged images expire first, the `any` rule last (ECR requires it to have the highest priority)", () => {
    const policy = lifecyclePolicy(resolve({ repositoryName: "x/y" })) as {
      rules: Array<{ rulePriority: number; selection: { tagStatus: string } }>;
    };
    expect(policy).toEqual({
      rules: [
        {
          rulePriority: 1,
          description: "Expire untagged images after 1 day(s)",
          selection: { tagStatus: "untagged", countType: "sinceImagePushed", countUnit: "days", countNumber: 1 },
          action: { type: "expire" },
        },
        {
          rulePriority: 2,
          description: "Keep the 5 newest images",
          selection: { tagStatus: "any", countType: "imageCountMoreThan", countNumber: 5 },
          action: { type: "expire" },
        },
      ],
    });
    const any = policy.rules.filter((r) => r.selection.tagStatus === "any");
    expect(Math.max(...policy.rules.map((r) => r.rulePriority))).toBe(any[0].rulePriority);
  });

  test("the tag names the tools and the build context's content: path, mode and bytes of every file, and the platform", () => {
    const files = readContextFiles(path.join(PROJECT_ROOT, TOOLS_IMAGE_CONTEXT));
    const text = fs.readFileSync(path.join(PROJECT_ROOT, TOOLS_IMAGE_DOCKERFILE));
    const mode = fs.statSync(path.join(PROJECT_ROOT, TOOLS_IMAGE_DOCKERFILE)).mode & 0o7777;
    expect(files.map((f) => [f.path, f.mode])).toEqual([["Dockerfile", mode]]);
    const expected = createHash("sha256")
      .update("platform linux/amd64\n")
      .update(`file Dockerfile ${mode.toString(8)} ${text.length}\n`)
      .update(text)
      .digest("hex");
    expect(contextDigest(files, "linux/amd64")).toBe(expected);
    const tag = imageTag(files);
    expect(tag).toBe(`fio-3.33-ioping-1.3-${expected.slice(0, 12)}`);
    // Order of the listing does not matter; each thing the provider's contextHash covers does.
    const two = [...files, { path: "extra.sh", mode: 0o755, content: "echo" }];
    expect(imageTag([...two].reverse())).toBe(imageTag(two));
    expect(
      new Set([
        tag,
        imageTag(two),
        imageTag([{ ...files[0], mode: mode ^ 0o020 }]),
        imageTag([{ ...files[0], content: `${text}\n# edited` }]),
        imageTag([{ ...files[0], path: "sub/Dockerfile" }]),
        imageTag(files, "linux/arm64"),
      ]).size,
    ).toBe(6);
    expect(
      isPinnedImage(`123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-lab/dev/bench-tools:${tag}@sha256:${"a".repeat(64)}`),
    ).toBe(true);
  });

  test("readContextFiles: every file below the context, by relative path, with its permission bits", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ctx-"));
    try {
      fs.mkdirSync(path.join(dir, "bin"));
      fs.writeFileSync(path.join(dir, "Dockerfile"), "FROM scratch\n");
      fs.writeFileSync(path.join(dir, "bin", "run.sh"), "#!/bin/sh\n");
      fs.chmodSync(path.join(dir, "bin", "run.sh"), 0o755);
      fs.chmodSync(path.join(dir, "Dockerfile"), 0o644);
      expect(
        readContextFiles(dir)
          .map((f) => [f.path, f.mode.toString(8), f.content.toString()])
          .sort(),
      ).toEqual([
        ["Dockerfile", "644", "FROM scratch\n"],
        ["bin/run.sh", "755", "#!/bin/sh\n"],
      ]);
      // A link to the same content is another file to the provider (its Lstat mode has the link type): another tag.
      const before = imageTag(readContextFiles(dir));
      fs.rmSync(path.join(dir, "bin", "run.sh"));
      fs.writeFileSync(path.join(dir, "run.sh"), "#!/bin/sh\n");
      fs.chmodSync(path.join(dir, "run.sh"), 0o755);
      fs.symlinkSync("../run.sh", path.join(dir, "bin", "run.sh"));
      const linked = readContextFiles(dir).find((f) => f.path === "bin/run.sh");
      expect(linked?.mode.toString(8)).toBe("120755");
      expect(imageTag(readContextFiles(dir).filter((f) => f.path !== "run.sh"))).not.toBe(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the images an eks stack builds (lab:images)", () => {
  test("tools and omb, each once; every problem at once, as the argument names it", () => {
    expect(LAB_IMAGES).toEqual(["tools", "omb"]);
    expect(imagesProblems(undefined)).toEqual([]);
    expect(imagesProblems([])).toEqual([]);
    expect(imagesProblems(["omb", "tools"])).toEqual([]);
    expect(imagesProblems(["tools", 3, "omb", "tools"]).map((p) => formatArgProblem(p))).toEqual([
      "'images[1]' must be one of tools, omb (a list of images to build for the stacks on this cluster, each once: tools (fio and ioping, for fsx-eks) or omb (OpenMessaging Benchmark, for kafka), e.g. [tools]), got 3",
      "'images[3]' must be another image than entry 0 (each is built once), got \"tools\"",
    ]);
    expect(imagesProblems("tools").map((p) => formatArgProblem(p))).toEqual([
      "'images' must be a list of images to build for the stacks on this cluster, each once: tools (fio and ioping, for fsx-eks) or omb (OpenMessaging Benchmark, for kafka), e.g. [tools], got \"tools\"",
    ]);
  });

  test("without a given tools image, the rule names the eks stack and both ways out", () => {
    expect(formatArgProblem({ path: "toolsImage", rule: noToolsImageRule("org/p/c"), value: undefined }, (a) => `lab:${a}`)).toBe(
      "'lab:toolsImage' must be a pinned image with fio and ioping when 'lab:eksStack' (org/p/c) builds none (its output images has no tools): add tools to that eks stack's lab:images, or build components/bench/image/Dockerfile elsewhere, push it and set lab:toolsImage to its reference, got nothing",
    );
  });
});
