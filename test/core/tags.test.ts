import { EXPIRES_AT_OUTPUT, TAG_KEYS, expiresAt, labTags } from "../../core/tags";

describe("lab tags", () => {
  test.each([
    ["2026-01-01T00:00:00Z", 8, "2026-01-01T08:00:00Z"],
    ["2026-03-31T20:15:00Z", 24, "2026-04-01T20:15:00Z"],
    ["2026-12-31T23:00:00+02:00", 1, "2026-12-31T22:00:00Z"],
  ])("expiresAt(%s, %i) = %s", (created, ttl, expected) => {
    expect(expiresAt(created, ttl)).toBe(expected);
  });
  test("rejects a time that is not RFC 3339", () => {
    expect(() => expiresAt("yesterday", 8)).toThrow("not an RFC 3339 time: yesterday");
  });
  test("the four tags, all known before an update: the expiry is the stack output expiresAt, not a tag", () => {
    expect(labTags({ project: "p", stack: "s", kind: "k", owner: "o" })).toEqual({
      "lab:project": "p",
      "lab:stack": "s",
      "lab:kind": "k",
      "lab:owner": "o",
    });
    expect(TAG_KEYS).toEqual(["lab:project", "lab:stack", "lab:kind", "lab:owner"]);
    expect(EXPIRES_AT_OUTPUT).toBe("expiresAt");
  });
});
