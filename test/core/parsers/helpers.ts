/** Shared by the parser tests: reading fixtures and asserting exact ToolOutputErrors. */
import * as fs from "node:fs";
import * as path from "node:path";
import { ToolOutputError } from "../../../core/errors";
import type { Sample } from "../../../core/sample";

/** Directory of the real tool outputs (see test/fixtures/README.md). */
export const FIXTURES = path.join(__dirname, "..", "..", "fixtures");

/** The text of test/fixtures/<tool>/<name>. */
export function fixture(tool: string, name: string): string {
  return fs.readFileSync(path.join(FIXTURES, tool, name), "utf8");
}

/** Asserts `fn` throws a ToolOutputError for `file` whose message is exactly `<file>: <what>`. */
export function expectToolOutputError(fn: () => unknown, file: string, what: string | RegExp): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(ToolOutputError);
  const err = thrown as ToolOutputError;
  expect(err.file).toBe(file);
  if (typeof what === "string") expect(err.message).toBe(`${file}: ${what}`);
  else expect(err.message.slice(file.length + 2)).toMatch(what);
}

/** `metric value unit` lines, for comparing which samples a parse produced, in order. */
export function summary(samples: readonly Sample[]): string[] {
  return samples.map((s) => `${s.metric} ${s.value} ${s.unit}`);
}
