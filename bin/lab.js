#!/usr/bin/env node
// The `lab` CLI: TypeScript sources run through tsx (esbuild, transpile only: type-checking is `npm test`).
"use strict";

// Run outside npm (a direct `node bin/lab.js` or node_modules/.bin/lab on a Node outside package.json
// engines, such as a distribution's 20): the same command again on the project's Node that `npm ci`
// fetched (bin/setup-node.js), or one line saying what to do. `npm start`, `npm test` and `npx lab`
// already run on it (node_modules/.bin/node is first on their PATH).
{
  const { ROOT, choose, project } = require("./node-choice.js");
  const c = choose({ version: process.version, platform: process.platform, arch: process.arch, ...project() });
  if (c.kind !== "current") {
    const bin = c.kind === "project" ? require("node:path").join(ROOT, c.bin) : "";
    if (!bin || !require("node:fs").existsSync(bin)) {
      process.stderr.write(`${c.kind === "none" ? c.message : `error: Node ${process.version} is outside package.json engines: run npm ci, which fetches the project's Node into .ci/node`}\n`);
      process.exit(1);
    }
    const child = require("node:child_process").spawn(bin, [__filename, ...process.argv.slice(2)], { stdio: "inherit" });
    // Ctrl-C reaches both processes (one process group): the child handles it (lab run destroys).
    const forward = (sig) => child.kill(sig);
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, sig === "SIGINT" ? () => {} : forward);
    child.on("exit", (code, signal) => {
      if (signal) {
        process.removeAllListeners(signal);
        process.kill(process.pid, signal);
      }
      process.exit(code ?? 1);
    });
    return;
  }
}

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
