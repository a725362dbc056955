/** Reading a JSON file of a run directory (utilization.json, manifest.json) that may be absent. */
import * as fs from "node:fs";

/** The parsed JSON of `file`; undefined when there is no such file. Throws `<file>: not JSON (…)`. */
export function readJsonIfPresent(file: string): unknown {
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
  } catch (e) {
    throw new Error(`${file}: not JSON (${(e as Error).message})`);
  }
}
