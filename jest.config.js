/** Jest runs the TypeScript tests through ts-jest; with `isolatedModules` in tsconfig ts-jest only
 * transpiles (type-checking is `tsc --noEmit`, run by `npm test` before jest).
 *
 * package.json runs jest with NODE_OPTIONS:
 * - `--unhandled-rejections=warn`: a rejected Pulumi Output in a mock-runtime test must not end
 *   the worker;
 * - `--experimental-vm-modules`: Jest 30 `require()`s an ES module (puppeteer-core 25 is ESM only)
 *   only where node:vm has SourceTextModule#hasAsyncGraph (Node 24.9+), which this flag exposes
 *   (jest-runtime `supportsSyncEvaluate`; jestjs.io/docs/ecmascript-modules#require-of-esm);
 *   `--disable-warning=ExperimentalWarning` keeps its one-line notice out of every worker's output. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  // Pulumi keeps module-level state that Jest 30 would otherwise tear down between test files.
  testEnvironmentOptions: { globalsCleanup: "off" },
  testTimeout: 60000,
  // Two workers on CI's two cores: most of the time goes to child processes (the lab CLI, kubectl,
  // fio, pgbench, Chromium) that wait as much as they compute; jest's default (cores - 1) ran the
  // files one after another, 888 s for the suite against 601 s with two (measured on this machine,
  // 2026-12-03).
  maxWorkers: 2,
};
