#!/usr/bin/env node
// The `lab` CLI: TypeScript sources run through tsx (esbuild, transpile only: type-checking is `npm test`).
"use strict";
require("tsx/cjs");
require("../lab/cli/main.ts")
  .main(process.argv.slice(2))
  .catch((e) => {
    process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
