// ESLint flat config: typescript-eslint's recommended rules plus @pulumi/eslint-plugin's two
// type-aware rules (an Output in a template literal is a bug: use pulumi.interpolate).
import js from "@eslint/js";
import pulumi from "@pulumi/eslint-plugin";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // .stryker-tmp/ and reports/: `npm run mutate`'s sandbox copy of the project and its reports.
  { ignores: ["node_modules/**", "results/**", "bin/**", "coverage/**", "*.config.js", ".stryker-tmp/**", "reports/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "@pulumi": pulumi },
    rules: {
      "@pulumi/no-output-in-template-literal": "error",
      "@pulumi/no-output-instance-in-template-literal": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // No function over 120 lines outside the tests (issue 29): a long flow is a list of named steps,
    // each a function of its own (lab/experiment/fsx-failover.ts, lab/run/runner.ts show how).
    files: ["**/*.ts"],
    ignores: ["test/**"],
    rules: { "max-lines-per-function": ["error", { max: 120, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Plain CommonJS scripts that tests run in a child Node process (test/fixtures).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", process: "readonly", module: "writable", __dirname: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
