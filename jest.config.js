/** Jest runs the TypeScript tests through ts-jest; with `isolatedModules` in tsconfig ts-jest only
 * transpiles (type-checking is `tsc --noEmit`, run by `npm test` before jest). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  // Pulumi keeps module-level state that Jest 30 would otherwise tear down between test files.
  testEnvironmentOptions: { globalsCleanup: "off" },
  testTimeout: 60000,
};
