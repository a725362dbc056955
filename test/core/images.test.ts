import { imageRefParts, isPinnedImage, isRegisteredDigest, PINNED_IMAGE_RULE, unpinnedImage } from "../../core/images";
import * as bench from "../../components/bench/images";

const SHA256 = `sha256:${"a1".repeat(32)}`;
const SHA512 = `sha512:${"b2".repeat(64)}`;
const NO_TAG = "has no tag (Kubernetes pulls latest): pin a version tag or a digest";
const LATEST = "uses the tag latest: pin a version tag or a digest";
const BAD_DIGEST = "has a malformed digest (want sha256:<64 hex digits> or sha512:<128 hex digits>, lowercase)";
const BAD_NAME =
  'is not a valid image reference: want [registry[:port]/]path, the path of lowercase letters and digits joined by ".", "_" or "-", at most 255 characters';
const BAD_TAG = "has a malformed tag (want 1 to 128 letters, digits, '_', '.' or '-', not starting with '.' or '-')";

describe("unpinnedImage / isPinnedImage", () => {
  it.each([
    ["docker.io/library/postgres:17.6-bookworm", undefined],
    ["postgres:17.6", undefined],
    ["123456789012.dkr.ecr.us-east-1.amazonaws.com/storage-bench-tools:fio-3.33-ioping-1.3", undefined],
    ["registry.local:5000/tools:1.0", undefined],
    ["localhost:5000/lab/tools:fio-3.33", undefined],
    ["[::1]:5000/tools:1", undefined],
    ["Registry.Example.com/team/tools:1", undefined], // a domain may have capitals; the path may not
    ["quay.io/ceph/ceph:v20.2.4", undefined],
    ["my__org/my-tool.x:1", undefined],
    [`registry.local:5000/tools@${SHA256}`, undefined],
    [`ghcr.io/org/tools:1.0@${SHA256}`, undefined],
    [`quay.io/ceph/ceph@${SHA512}`, undefined],
    [`tools:${"t".repeat(128)}`, undefined],
    ["postgres", NO_TAG],
    ["registry.local:5000/tools", NO_TAG],
    ["busybox:", NO_TAG],
    ["postgres:latest", LATEST],
    [`postgres:latest@${SHA256}`, "uses the tag latest beside its digest: drop the tag or name a version"],
    ["tools@sha256:1234", BAD_DIGEST],
    [`tools@${SHA256.toUpperCase().replace("SHA256", "sha256")}`, BAD_DIGEST],
    [`tools@sha384:${"c".repeat(96)}`, BAD_DIGEST],
    [`tools@sha512:${"b".repeat(64)}`, BAD_DIGEST],
    [`tools@blake3:${"d".repeat(64)}`, BAD_DIGEST],
    [`tools@constructor:${"a".repeat(64)}`, BAD_DIGEST],
    [`tools:1@`, BAD_DIGEST],
    ["Tools:1.0", BAD_NAME],
    ["", BAD_NAME],
    ["tools/:1", BAD_NAME],
    ["org//tools:1", BAD_NAME],
    [`${"a".repeat(256)}:1`, BAD_NAME],
    ["tools:1.0 ", BAD_TAG],
    ["tools:.1", BAD_TAG],
    [`tools:${"t".repeat(129)}`, BAD_TAG],
    [`tools:@${SHA256}`, BAD_TAG],
  ])("%s: %s", (ref, why) => {
    expect(unpinnedImage(ref)).toBe(why);
    expect(isPinnedImage(ref)).toBe(why === undefined);
  });

  it("a repository path of exactly 255 characters is valid, after any domain", () => {
    expect(unpinnedImage(`registry.example.com/${"a".repeat(255)}:1`)).toBeUndefined();
    expect(unpinnedImage(`registry.example.com/${"a".repeat(256)}:1`)).toBe(BAD_NAME);
  });

  it("only strings are image references", () => {
    expect([undefined, null, 17, ["postgres:17"]].map(isPinnedImage)).toEqual([false, false, false, false]);
  });

  it("registered digests: OCI image spec v1.1.1 sha256 and sha512, lowercase hex of the exact length", () => {
    expect(
      [SHA256, SHA512, `sha256:${"a".repeat(63)}`, `sha256:${"a".repeat(65)}`, "sha256", "a".repeat(64)].map(isRegisteredDigest),
    ).toEqual([true, true, false, false, false, false]);
  });

  it("splits registry ports from tags, and the digest off", () => {
    expect(imageRefParts("registry.local:5000/tools")).toEqual({ name: "registry.local:5000/tools", digest: undefined });
    expect(imageRefParts("registry.local:5000/tools:2")).toEqual({ name: "registry.local:5000/tools", tag: "2", digest: undefined });
    expect(imageRefParts(`busybox:1.37@${SHA256}`)).toEqual({ name: "busybox", tag: "1.37", digest: SHA256 });
  });

  it("the rule's text, and the benchmark Jobs' module re-exports the one rule", () => {
    expect(PINNED_IMAGE_RULE).toBe('an image reference pinned by a tag other than "latest" or by a @sha256 or @sha512 digest');
    expect([bench.isPinnedImage, bench.imageRefParts, bench.PINNED_IMAGE_RULE]).toEqual([isPinnedImage, imageRefParts, PINNED_IMAGE_RULE]);
  });
});
