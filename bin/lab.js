#!/usr/bin/env node
// The `lab` CLI: TypeScript sources run through tsx (esbuild, transpile only: type-checking is `npm test`).
"use strict";

// `lab plan` runs the stack programs: it loads the Pulumi SDK and the provider SDKs (the package's
// @pulumi/* and @pulumiverse/* dependencies but the policy SDK; plain CommonJS) before tsx's hook is
// registered, so Node's own loader reads them. Under the hook every .js file that mentions
// import/export is scanned for ES module syntax and has its source map read: that doubled the time
// to load @pulumi/pulumi. Other commands load none of them (lab/cli/main.ts).
const args = process.argv.slice(2);
if (args[0] === "plan" && !args.includes("--help") && !args.includes("-h")) {
  const sdks = Object.keys(require("../package.json").dependencies).filter((d) => /^@pulumi(verse)?\//.test(d) && d !== "@pulumi/policy");
  for (const sdk of sdks) require(sdk);
}
require("tsx/cjs");
require("../lab/cli/main.ts")
  .main(args)
  .catch((e) => {
    process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
