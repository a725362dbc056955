/**
 * Every bad input of the table (./bad-inputs.ts) planned by the CLI as a user runs it
 * (`node bin/lab.js plan --config <file>`, child processes, two at a time): exit status 2, exactly
 * the table's problems after `stack <name>: `, nothing on stdout, no stack trace. Scenario cases
 * are also planned in-process as the scenario would plan them (`scenarioSpecs` with the override
 * in the scenario's own config), which must fail with the same config error.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { planAll, scenarioSpecs } from "../../lab/plan";
import { isConfigError } from "../../lab/plan/errors";
import { SCENARIOS } from "../../scenarios";
import type { Scenario } from "../../scenarios/types";
import { KIND_NAMES, runStack } from "../../stacks";
import { ROOT } from "../helpers/root";
import { BAD_INPUTS, BadInput, Block, CATEGORIES } from "./bad-inputs";
import { CliResult, configOf, lab, pool, shippedConfig, writeConfig } from "./cli";

const CASES = (Object.entries(BAD_INPUTS) as Array<[Block, readonly BadInput[]]>).flatMap(([block, cases]) =>
  cases.map((c, i) => ({ block, id: `bad-${block}-${i + 1}`, c })),
);

let dir: string;
let results: Map<string, CliResult>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bad-input-"));
  const done = await pool(
    CASES.map(
      ({ id, c }) =>
        () =>
          lab(["plan", "--config", writeConfig(c, id, dir)]),
    ),
  );
  results = new Map(CASES.map(({ id }, i) => [id, done[i]]));
}, 1_800_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the bad-input table", () => {
  test("at least 40 cases, every category of mistake, a block for every stack kind, the keys every kind has and scenarios", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(CATEGORIES.filter((cat) => !CASES.some(({ c }) => c.category === cat))).toEqual([]);
    expect(Object.keys(BAD_INPUTS).sort()).toEqual([...KIND_NAMES, "common", "scenarios"].sort());
    for (const [block, cases] of Object.entries(BAD_INPUTS)) expect([block, cases.length >= 4]).toEqual([block, true]);
    expect(new Set(CASES.map(({ c }) => c.title)).size).toBe(CASES.length);
  });

  test("each case starts from a shipped file of its block's kind, or from a scenario's stack", () => {
    for (const { block, c } of CASES) {
      if (block === "scenarios") {
        expect([
          c.title,
          c.base,
          SCENARIOS.find((s) => s.name === c.scenario?.name)?.stacks.some((s) => s.name === c.scenario?.stack),
        ]).toEqual([c.title, undefined, true]);
        continue;
      }
      expect([c.title, c.scenario]).toEqual([c.title, undefined]);
      if (c.raw !== undefined)
        expect([c.title, block, c.base, c.set, c.unset]).toEqual([c.title, "common", undefined, undefined, undefined]);
      else if (block !== "common") expect([c.title, shippedConfig(c.base as string)["lab:kind"]]).toEqual([c.title, block]);
    }
  });

  test.each(CASES.map((x) => [`${x.block}: ${x.c.category}: ${x.c.title}`, x] as const))(
    "%s: lab plan exits 2 with exactly its problems, no stack trace",
    (_, { id, c }) => {
      const r = results.get(id) as CliResult;
      const file = path.join(dir, `Pulumi.${id}.yaml`);
      expect({ status: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({
        status: 2,
        // A file that is not a stack config is refused before any stack is planned: file, line and column instead.
        stderr:
          c.raw !== undefined ? `${c.want.map((w) => w.replace("{file}", file)).join("\n")}\n` : `stack ${id}: ${c.want.join("\n")}\n`,
        stdout: "",
      });
      expect(r.stderr).not.toMatch(/^\s+at /m);
    },
  );

  const scenarioCases = CASES.filter(({ c }) => c.scenario !== undefined);

  test.each(scenarioCases.map((x) => [x.c.title, x] as const))(
    "scenario %s: the scenario's own plan fails with the same problems",
    async (_, { c }) => {
      const { name, stack } = c.scenario as { name: string; stack: string };
      const scenario = SCENARIOS.find((s) => s.name === name) as Scenario;
      const overridden: Scenario = {
        ...scenario,
        stacks: scenario.stacks.map((s) => (s.name === stack ? { ...s, config: { ...(s.config ?? {}), ...(c.set ?? {}) } } : s)),
      };
      // The override reaches the stack as the CLI case's file holds it.
      const spec = scenarioSpecs(overridden, ROOT).find((s) => s.name === stack);
      expect(Object.keys(spec?.config ?? {}).sort()).toEqual(Object.keys(configOf(c)).sort());
      const failure = await planAll(scenarioSpecs(overridden, ROOT), runStack).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isConfigError(failure)).toBe(true);
      expect((failure as Error).message).toBe(c.want.join("\n"));
    },
  );
});
