/** The scenarios the lab ships (DESIGN.md "What it is"). */
import { Scenario } from "./types";

export const SCENARIOS: readonly Scenario[] = [];

export function scenarioNamed(name: string): Scenario {
  const s = SCENARIOS.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario '${name}': the scenarios are ${SCENARIOS.map((x) => x.name).join(", ") || "none yet"}`);
  return s;
}
