/** `lab parse <fio|ioping|pgbench|omb> FILE`: one raw tool output normalised into samples (see core/parsers). */
import * as fs from "node:fs";
import { ConfigError, problem, ToolOutputError } from "../../core/errors";
import { isToolName, parseToolOutput, TOOLS } from "../../core/parsers";

/**
 * Reads `file`, parses it as `tool`'s output and returns the samples as JSON text (an array,
 * two-space indented, no trailing newline).
 *
 * @throws ConfigError for an unknown tool: `'tool' must be one of fio, ioping, pgbench, omb, got "x"`.
 * @throws ToolOutputError when the file cannot be read or is not a whole output of the tool.
 */
export function runParse(tool: string, file: string): string {
  if (!isToolName(tool)) throw new ConfigError([problem("tool", `one of ${TOOLS.join(", ")}`, tool)]);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "is a directory" : err.message;
    throw new ToolOutputError(file, `cannot be read: ${why}`);
  }
  return JSON.stringify(parseToolOutput(tool, text, file), null, 2);
}
