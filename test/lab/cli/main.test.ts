/**
 * lab/cli/main.ts: each command loads only its own modules (`lab --help` and `lab parse` load no
 * Pulumi SDK: checked on the modules Node actually loaded, not on timings), and how a failure is
 * reported.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConfigError, problem } from "../../../core/errors";
import { failure } from "../../../lab/cli/main";
import { UsageError } from "../../../lab/cli/errors";
import { PlanError } from "../../../lab/plan/errors";
import { ROOT } from "../../helpers/root";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-main-"));
/** A module of the Pulumi SDK and one of the lab's, to tell which of them Node read a source map for. */
const SDK_FILE = path.join(ROOT, "node_modules", "@pulumi", "pulumi", "runtime", "rpc.js");
const LAB_FILE = path.join(ROOT, "lab", "cli", "main.ts");
/**
 * Preloaded into `lab`: on exit, writes to $LAB_LOADED_OUT the packages (under node_modules) Node
 * loaded and which of SDK_FILE and LAB_FILE have a source map (`module.findSourceMap`: Node reads
 * one only for a module loaded while source maps are on, which tsx turns on when it registers).
 */
const probe = path.join(tmp, "probe.js");
fs.writeFileSync(
  probe,
  `process.on("exit", () => {
  const found = new Set();
  for (const f of Object.keys(require.cache)) {
    const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f);
    if (m) found.add(m[1]);
  }
  const mapped = ${JSON.stringify([SDK_FILE, LAB_FILE])}.filter((f) => require.cache[f] && require("module").findSourceMap(f));
  require("fs").writeFileSync(process.env.LAB_LOADED_OUT, JSON.stringify({ packages: [...found].sort(), mapped }));
});
`,
);

/** Runs `lab …`; returns its exit status, the packages it loaded and which probed files have source maps. */
function loadedBy(...args: string[]): { status: number | null; packages: string[]; mapped: string[] } {
  const out = path.join(tmp, `loaded-${args.join("-").replace(/[^a-z0-9-]/gi, "_")}.json`);
  const r = spawnSync(process.execPath, ["-r", probe, path.join(ROOT, "bin", "lab.js"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, LAB_LOADED_OUT: out },
  });
  return { status: r.status, ...JSON.parse(fs.readFileSync(out, "utf8")) };
}

const pulumiPackages = (packages: string[]) => packages.filter((p) => p.startsWith("@pulumi/") || p.startsWith("@pulumiverse/"));

describe("each command loads its own modules only", () => {
  test("lab --help loads the CLI parser and the TypeScript runner, nothing else", () => {
    expect(loadedBy("--help")).toEqual({ status: 0, packages: ["commander", "esbuild", "semver", "tsx"], mapped: [LAB_FILE] });
  });

  test("lab parse loads no Pulumi package", () => {
    const fixture = path.join(ROOT, "test", "fixtures", "fio", "seed-gtod-reduce.json");
    expect(loadedBy("parse", "fio", fixture)).toEqual({ status: 0, packages: ["commander", "esbuild", "semver", "tsx"], mapped: [LAB_FILE] });
  });

  test("lab plan --help neither; a plan loads the Pulumi SDK and the provider SDKs (the probe sees them)", () => {
    expect(loadedBy("plan", "--help")).toEqual({ status: 0, packages: ["commander", "esbuild", "semver", "tsx"], mapped: [LAB_FILE] });
    const { status, packages, mapped } = loadedBy("plan", "--stack", "network", "--json");
    expect(status).toBe(0);
    expect(pulumiPackages(packages)).toEqual(expect.arrayContaining(["@pulumi/aws", "@pulumi/pulumi", "@pulumiverse/time"]));
    // bin/lab.js loads the SDKs before tsx registers (no source map read for them); the lab's own
    // modules keep theirs, so a program error's trace points at the TypeScript lines.
    expect(mapped).toEqual([LAB_FILE]);
  });
});

describe("failure(): what lab prints for an error, and its exit status", () => {
  test("a usage error: the message, status 2", () => {
    expect(failure(new UsageError("lab plan needs exactly one of …"))).toEqual({ text: "lab plan needs exactly one of …\n", status: 2 });
  });

  test("a config error in a plan: the stack and the problems, no trace, status 2", () => {
    const e = new PlanError("bad", new ConfigError([problem("lab:azCount", "an integer from 1 to 3", 4)]));
    expect(failure(e)).toEqual({ text: "stack bad: 'lab:azCount' must be an integer from 1 to 3, got 4\n", status: 2 });
  });

  test("a program error in a plan: the stack, the message, then the program's stack frames, status 1", () => {
    const cause = new TypeError("Cannot read properties of undefined (reading 'length')");
    cause.stack = [
      "TypeError: Cannot read properties of undefined (reading 'length')",
      "    at r (/lab/components/network/index.ts:48:25)",
      "    at applyHelperAsync (/lab/node_modules/@pulumi/output.ts:516:31)",
    ].join("\n");
    expect(failure(new PlanError("network", cause, "first preview: …"))).toEqual({
      text:
        "stack network: Cannot read properties of undefined (reading 'length')\nfirst preview: …\n" +
        "    at r (/lab/components/network/index.ts:48:25)\n    at applyHelperAsync (/lab/node_modules/@pulumi/output.ts:516:31)\n",
      status: 1,
    });
  });

  test("any other error: its message, status 1", () => {
    expect(failure(new Error("fio output out.json: no 'jobs'"))).toEqual({ text: "fio output out.json: no 'jobs'\n", status: 1 });
  });
});
