#!/usr/bin/env node
// `npm ci`'s postinstall (package.json): when the Node running npm is outside package.json engines
// (a distribution's Node 20), fetch the project's Node (.node-version) into .ci/node and link it as
// node_modules/.bin/node, which npm puts first on PATH for every script and `npx`: `npm start`,
// `npm test` and `npx lab` then run on it (docs/ci.md#the-projects-node). Inside engines: nothing is
// fetched or run. Then the engines check npm's engine-strict made, against the Node that will run.
"use strict";
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ROOT, choose, enginesProblems, project } = require("./node-choice.js");

function versionOf(bin) {
  const r = spawnSync(bin, ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** `npm ci --prefix .ci/node` with the npm that runs this script (npm sets npm_execpath). */
function fetchProjectNode(root) {
  const npm = process.env.npm_execpath;
  const args = ["ci", "--prefix", path.join(root, ".ci", "node"), "--no-audit", "--no-fund", "--loglevel=error"];
  const r = npm ? spawnSync(process.execPath, [npm, ...args], { stdio: "inherit" }) : spawnSync("npm", args, { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
}

/** node_modules/.bin/node → the project's Node, relative (the checkout may move). */
function link(root, bin) {
  const dir = path.join(root, "node_modules", ".bin");
  fs.mkdirSync(dir, { recursive: true });
  const at = path.join(dir, "node");
  fs.rmSync(at, { force: true });
  fs.symlinkSync(path.relative(dir, path.join(root, bin)), at);
  return at;
}

/** @param {string} root the project's root (a test passes a copy's) */
function main(root) {
  const { engines, want } = project(root);
  const c = choose({ version: process.version, platform: process.platform, arch: process.arch, engines, want });
  if (c.kind === "none") {
    process.stderr.write(`${c.message}\n`);
    return 1;
  }
  let runs = process.version;
  if (c.kind === "project") {
    const bin = path.join(root, c.bin);
    if (versionOf(bin) !== `v${want}`) fetchProjectNode(root);
    runs = versionOf(bin);
    if (runs !== `v${want}`) throw new Error(`'${c.bin}' must be Node v${want} (.node-version), got ${runs ?? "nothing runnable"}`);
    link(root, c.bin);
    process.stdout.write(`Node ${process.version} is outside package.json engines (${engines}): npm start, npm test and npx lab run on Node ${runs} (${c.pkg}, .ci/node)\n`);
  }
  const problems = enginesProblems(JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")), runs);
  if (problems.length) {
    process.stderr.write(`${problems.join("\n")}\n`);
    return 1;
  }
  return 0;
}

if (require.main === module) process.exitCode = main(path.resolve(process.argv[2] ?? ROOT));
