#!/usr/bin/env node
// `npm run bench:plan [-- RUNS]`: how long `npm start` (`lab plan --all`) takes against the floor
// it cannot go below, loading the provider SDKs the stack programs use. Alternates RUNS runs of
// each (default 5; alternating, so a slower minute of a noisy machine hits both alike), then prints
// every wall time, the medians and their ratio. A benchmark to read, not a test: nothing here fails
// on a number (docs/plan.md, "Where npm start spends its time").
"use strict";

const { spawnSync } = require("node:child_process");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
/** The SDKs the stack programs import (package.json dependencies the programs load). */
const SDKS = [
  "@pulumi/pulumi",
  "@pulumi/aws",
  "@pulumi/kubernetes",
  "@pulumi/eks",
  "@pulumi/command",
  "@pulumi/random",
  "@pulumi/tls",
  "@pulumi/docker-build",
];

const runs = Number(process.argv[2] ?? "5");
if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
  process.stderr.write(`error: RUNS must be a whole number from 1 to 50, got '${process.argv[2]}'\n`);
  process.exit(2);
}

/** Wall time of one command, seconds; its failure ends the benchmark with its stderr. */
function timed(label, args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) {
    process.stderr.write(`error: ${label} exited ${r.status ?? r.signal}:\n${r.stderr}`);
    process.exit(1);
  }
  return seconds;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const plan = [];
const floor = [];
const load = SDKS.map((m) => `require(${JSON.stringify(m)});`).join("");
for (let i = 0; i < runs; i++) {
  plan.push(timed("lab plan --all", [path.join(ROOT, "bin", "lab.js"), "plan", "--all"]));
  floor.push(timed("the SDK load", ["-e", load]));
}
const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(", ");
process.stdout.write(
  [
    `node ${process.version}, ${runs} alternating runs each (wall seconds)`,
    `lab plan --all: ${fmt(plan)}; median ${median(plan).toFixed(2)}`,
    `SDK load (${SDKS.length} packages): ${fmt(floor)}; median ${median(floor).toFixed(2)}`,
    `ratio of the medians: ${(median(plan) / median(floor)).toFixed(2)} (target at most 2)`,
    "",
  ].join("\n"),
);
