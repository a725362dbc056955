// Stryker (mutation testing) for `npm run mutate [group…]` (test/mutation/mutate.mjs): one group of
// test/mutation/groups.mjs a run, named by MUTATE_GROUP; its tests alone run, through the project's
// jest config (ts-jest transpiles). https://stryker-mutator.io/docs/stryker-js/configuration/
import process from "node:process";
import { GROUPS } from "./test/mutation/groups.mjs";

const name = process.env.MUTATE_GROUP;
const group = GROUPS[name];
if (!group) throw new Error(`MUTATE_GROUP must be one of ${Object.keys(GROUPS).join(", ")}, got ${name}`);

export default {
  testRunner: "jest",
  jest: {
    configFile: "jest.config.js",
    config: {
      roots: ["<rootDir>"],
      testMatch: group.tests.map((t) => (t.endsWith(".ts") ? `<rootDir>/${t}` : `<rootDir>/${t}/**/*.test.ts`)),
    },
    enableFindRelatedTests: false,
  },
  mutate: group.mutate,
  coverageAnalysis: "perTest",
  // Module-level tables and patterns are evaluated once at import: their mutants would need every
  // test re-run per mutant. They are left out, and said so in the score (Stryker "static mutants").
  ignoreStatic: true,
  concurrency: 2,
  // A mutant that loops (a flipped loop bound) is stopped by Stryker's hit limit or after this
  // much over the tests' own time: every group's tests take well under a second a mutant.
  timeoutMS: 10_000,
  reporters: ["json", "progress"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
