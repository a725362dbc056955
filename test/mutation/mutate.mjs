#!/usr/bin/env node
// `npm run mutate [group…]`: Stryker over each named group of test/mutation/groups.mjs (all when
// none is named), one after the other; prints each group's score, time and surviving mutants, and
// exits 1 when a group is below the 90 % floor. Not part of .ci/run (minutes per group).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { GROUPS, score } from "./groups.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const FLOOR = 90;
const names = process.argv.slice(2);
const unknown = names.filter((n) => !(n in GROUPS));
if (unknown.length) {
  process.stderr.write(`error: unknown group ${unknown.join(", ")}: the groups are ${Object.keys(GROUPS).join(", ")}\n`);
  process.exit(2);
}
let below = 0;
for (const name of names.length ? names : Object.keys(GROUPS)) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/@stryker-mutator/core/bin/stryker.js"), "run", "stryker.config.mjs"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, MUTATE_GROUP: name, NODE_OPTIONS: "--unhandled-rejections=warn --experimental-vm-modules --disable-warning=ExperimentalWarning" },
  });
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  if (r.status !== 0) {
    process.stderr.write(`error: ${name}: Stryker exited with ${r.status ?? r.signal}\n`);
    below++;
    continue;
  }
  const s = score(JSON.parse(fs.readFileSync(path.join(ROOT, "reports/mutation", `${name}.json`), "utf8")));
  const c = s.counts;
  process.stdout.write(
    `\n${name}: ${s.percent.toFixed(1)} % (${s.detected}/${s.valid}: killed ${c.Killed}, timeout ${c.Timeout}, survived ${c.Survived}, no coverage ${c.NoCoverage}; ignored static ${c.Ignored}) in ${minutes} min\n`,
  );
  for (const line of s.survivors) process.stdout.write(`  ${line}\n`);
  if (!(s.percent >= FLOOR)) below++;
}
process.exit(below ? 1 : 0);
