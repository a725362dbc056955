/** Jest runs the TypeScript tests through ts-jest; with `isolatedModules` in tsconfig ts-jest only
 * transpiles (type-checking is `tsc --noEmit`, run by `npm test` before jest). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  testTimeout: 60000,
};
