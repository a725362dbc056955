import { DEFAULT_PGBENCH_IMAGE, imageRefParts, isPinnedImage } from "../../../components/bench/images";

const DIGEST = `sha256:${"a1".repeat(32)}`;

describe("image references", () => {
  it.each([
    ["docker.io/library/postgres:17.6-bookworm", true],
    ["postgres:17.6", true],
    ["123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-tools:fio-3.33-ioping-1.3", true],
    ["registry.local:5000/tools:1.0", true],
    [`registry.local:5000/tools@${DIGEST}`, true],
    [`ghcr.io/org/tools:1.0@${DIGEST}`, true],
    ["postgres", false],
    ["postgres:latest", false],
    [`postgres:latest@${DIGEST}`, false],
    ["registry.local:5000/tools", false],
    ["tools@sha256:1234", false],
    ["Tools:1.0", false],
    ["tools:1.0 ", false],
    ["", false],
    [undefined, false],
  ])("%s pinned: %s", (ref, pinned) => {
    expect(isPinnedImage(ref)).toBe(pinned);
  });

  it("splits registry ports from tags", () => {
    expect(imageRefParts("registry.local:5000/tools")).toEqual({ name: "registry.local:5000/tools", digest: undefined });
    expect(imageRefParts("registry.local:5000/tools:2")).toEqual({ name: "registry.local:5000/tools", tag: "2", digest: undefined });
  });

  it("the default pgbench image is pinned to PostgreSQL 17", () => {
    expect(isPinnedImage(DEFAULT_PGBENCH_IMAGE)).toBe(true);
    expect(imageRefParts(DEFAULT_PGBENCH_IMAGE).tag).toMatch(/^17\.\d+-bookworm$/);
  });
});
