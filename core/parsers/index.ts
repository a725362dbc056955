/**
 * The benchmark-output parsers: one raw tool output in, samples out (docs/samples.md). Pure modules: no I/O here, no Pulumi. Each parser documents the metrics it emits,
 * their units and sources, and throws a {@link ToolOutputError} naming the file and what is
 * missing for empty, truncated, malformed or another tool's output: never a partial result.
 */
import type { Sample } from "../sample";
import { parseFio } from "./fio";
import { parseIoping } from "./ioping";
import { parseOmb } from "./omb";
import { parsePgbench } from "./pgbench";

export { parseFio } from "./fio";
export { parseIoping } from "./ioping";
export { parseOmb } from "./omb";
export { parsePgbench } from "./pgbench";

/** The tools whose output `lab parse` reads. */
export const TOOLS = ["fio", "ioping", "pgbench", "omb"] as const;

/** One of {@link TOOLS}. */
export type ToolName = (typeof TOOLS)[number];

/** True when `name` is one of {@link TOOLS}. */
export function isToolName(name: string): name is ToolName {
  return (TOOLS as readonly string[]).includes(name);
}

/**
 * Normalises one raw output of `tool` into samples. `file` names the output in errors.
 *
 * - fio: `--output-format=json` or `json+`, or fio's normal text output (IOPS and bandwidth only)
 * - ioping: `ioping -J` JSON or its text summary
 * - pgbench: its text output, pre-14 and current layouts
 * - omb: an OpenMessaging Benchmark result JSON file
 *
 * @throws ToolOutputError when the output is empty, truncated, malformed or not the tool's.
 */
export function parseToolOutput(tool: ToolName, text: string, file: string): Sample[] {
  switch (tool) {
    case "fio":
      return parseFio(text, file);
    case "ioping":
      return parseIoping(text, file);
    case "pgbench":
      return parsePgbench(text, file);
    case "omb":
      return parseOmb(text, file);
  }
}
