/** `lab parse <fio|ioping|pgbench|omb> FILE`: one raw tool output normalised into samples (see core/parsers). */
import * as fs from "node:fs";
import { ConfigError, problem } from "../../core/errors";
import { isToolName, parseToolOutput, TOOLS } from "../../core/parsers";
import { pathProblems } from "./paths";

/**
 * Reads `file`, parses it as `tool`'s output and returns the samples as JSON text (an array,
 * two-space indented, no trailing newline).
 *
 * @throws ConfigError for an unknown tool: `'tool' must be one of fio, ioping, pgbench, omb, got "x"`.
 * @throws ConfigError when the file cannot be read (exit 2).
 * @throws ToolOutputError when the file is not a whole output of the tool (exit 1).
 */
export function runParse(tool: string, file: string): string {
  const problems = [
    ...(isToolName(tool) ? [] : [problem("tool", `one of ${TOOLS.join(", ")}`, tool)]),
    ...pathProblems([{ option: "file", value: file, kind: "file" }]),
  ];
  if (problems.length > 0 || !isToolName(tool)) throw new ConfigError(problems);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "is a directory" : err.message;
    // The user's to fix, like a missing directory of `lab report` (exit 2): not a malformed tool output.
    throw new ConfigError([problem("file", `a readable file of ${tool}'s output (${why})`, file)]);
  }
  return JSON.stringify(parseToolOutput(tool, text, file), null, 2);
}
