/** lab/plan/errors.ts: the plan's error, told apart from a config error without loading Pulumi. */
import { ConfigError, problem } from "../../../core/errors";
import { isConfigError, PlanError, programTrace } from "../../../lab/plan/errors";

const configError = new ConfigError([problem("lab:azCount", "an integer from 1 to 3", 4)]);

test("PlanError: the stack, the cause's message, the note on a line of its own; named after a config cause", () => {
  const e = new PlanError("network", new TypeError("boom"), "first preview: …");
  expect([e.stack, e.message, e.name, e.cause instanceof TypeError]).toEqual(["network", "boom\nfirst preview: …", "PlanError", true]);
  expect(new PlanError("s", "text").message).toBe("text");
  expect(new PlanError("s", configError).name).toBe("ConfigError");
});

test("isConfigError: a ConfigError, bare or in a PlanError", () => {
  expect([configError, new PlanError("s", configError), new PlanError("s", new Error("x")), new Error("x")].map(isConfigError)).toEqual([
    true,
    true,
    false,
    false,
  ]);
});

test("programTrace: the frames of a program error; nothing for a config error or a non-Error", () => {
  const cause = new Error("boom");
  cause.stack = "Error: boom\n    at f (/a.ts:1:2)\n    at g (/b.ts:3:4)";
  expect(programTrace(new PlanError("s", cause))).toBe("    at f (/a.ts:1:2)\n    at g (/b.ts:3:4)");
  expect(programTrace(new PlanError("s", configError))).toBe("");
  expect(programTrace(new PlanError("s", "text"))).toBe("");
});
