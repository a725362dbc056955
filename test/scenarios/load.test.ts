/** Scenario definitions: loaded with validation, every problem at once, in the project's format. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SCENARIOS } from "../../scenarios";
import { allScenarioProblems, loadScenario, ScenarioError } from "../../scenarios/load";
import type { Scenario } from "../../scenarios/types";
import { upstreamsAmong } from "../../lab/run/graph";
import { KIND_NAMES } from "../../stacks";

const ROOT = path.resolve(__dirname, "..", "..");

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-scn-"));
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  return dir;
}
const yaml = (kind: string, extra = "") => `config:\n  aws:region: us-east-1\n  lab:kind: ${kind}\n${extra}`;

describe("scenarios", () => {
  test("every shipped scenario is valid", () => {
    expect(allScenarioProblems(ROOT)).toEqual([]);
  });

  test("ceph-nitro: network, dev, nitro, compare; compare reads dev and nitro; no steps", () => {
    const s = loadScenario("ceph-nitro", ROOT);
    expect(s.stacks.map((x) => x.name)).toEqual(["network", "dev", "nitro", "compare"]);
    expect(s.steps).toEqual([]);
    expect(s.configs.compare["lab:devStack"]).toBe("organization/storage-bench-lab/dev");
    expect(s.configs.compare["lab:nitroStack"]).toBe("organization/storage-bench-lab/nitro");
  });

  test("fsx-eks: the two failover experiments run as steps against the fsx-eks stack, mysql-failover first", () => {
    const s = loadScenario("fsx-eks", ROOT);
    expect(s.steps).toEqual([
      { kind: "mysql-failover", stack: "fsx-eks" },
      { kind: "fsx-failover", stack: "fsx-eks" },
    ]);
    expect(s.configs["fsx-eks"]["lab:kind"]).toBe("fsx-eks");
  });

  test("an fsx-eks-shaped entry (network → ontap ∥ cluster → app) loads, and the runner's graph has the two in parallel", () => {
    const root = project({
      "Pulumi.network.yaml": yaml("network"),
      "Pulumi.ontap.yaml": yaml("fsx-ontap", "  lab:networkStack: organization/storage-bench-lab/network\n"),
      "Pulumi.cluster.yaml": yaml("fsx-ontap", "  lab:networkStack: organization/storage-bench-lab/network\n"),
    });
    const def: Scenario = {
      name: "fsx-shape",
      description: "shape",
      stacks: [
        { name: "network", file: "Pulumi.network.yaml" },
        { name: "ontap", file: "Pulumi.ontap.yaml" },
        { name: "cluster", file: "Pulumi.cluster.yaml" },
        {
          name: "app",
          config: {
            "aws:region": "us-east-1",
            "lab:kind": "compare",
            "lab:ontapStack": "organization/storage-bench-lab/ontap",
            "lab:clusterStack": "organization/storage-bench-lab/cluster",
          },
        },
      ],
      steps: [{ kind: "rerun", stacks: ["app"], times: 2 }],
    };
    const s = loadScenario("fsx-shape", root, [def]);
    const configs = Object.fromEntries(
      Object.entries(s.configs).map(([k, c]) => [k, Object.fromEntries(Object.entries(c).map(([a, b]) => [a, String(b)]))]),
    );
    expect(upstreamsAmong(configs)).toEqual({ network: [], ontap: ["network"], cluster: ["network"], app: ["ontap", "cluster"] });
  });

  test("every problem of a bad definition at once, each naming where it is", () => {
    const root = project({ "Pulumi.a.yaml": yaml("network"), "Pulumi.bad.yaml": "config: [1, 2]\n" });
    const bad = {
      name: "bad",
      description: "",
      stacks: [
        { name: "a", file: "Pulumi.a.yaml" },
        { name: "b", file: "Pulumi.missing.yaml" },
        { name: "c", file: "Pulumi.bad.yaml" },
        { name: "a", config: { "lab:kind": "nfs", "lab:networkStack": "organization/storage-bench-lab/zzz" } },
      ],
      steps: [{ kind: "mysql-failover" }, { kind: "rerun", stacks: ["q"], times: 0 }, { kind: "fsx-failover", stack: "a" }, { kind: "chaos" }],
    } as unknown as Scenario;
    try {
      loadScenario("bad", root, [bad]);
      throw new Error("no error");
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      expect((e as ScenarioError).problems).toEqual([
        `'bad.description' must be a non-empty description, got ""`,
        `'bad.stacks[1].file' must be a file of the project, got "Pulumi.missing.yaml"`,
        `'bad.stacks[1] lab:kind' must be one of ${KIND_NAMES.join(", ")}, got nothing`,
        `'bad.stacks[2].file' must be a Pulumi stack config file with a 'config' map, got "Pulumi.bad.yaml"`,
        `'bad.stacks[2] lab:kind' must be one of ${KIND_NAMES.join(", ")}, got nothing`,
        `'bad.stacks[3].name' must be a name no other stack of the scenario has, got "a"`,
        `'bad.stacks[3] lab:kind' must be one of ${KIND_NAMES.join(", ")}, got "nfs"`,
        `'bad.stacks[3] lab:networkStack' must be a stack of the scenario listed before a (a, b, c), as org/storage-bench-lab/<stack>, got "organization/storage-bench-lab/zzz"`,
        `'bad.steps[0].stack' must be a stack of kind fsx-eks of the scenario (none), got nothing`,
        `'bad.steps[1].stacks' must be a non-empty list of distinct stacks of the scenario (a, b, c), got ["q"]`,
        `'bad.steps[1].times' must be a whole number of extra runs from 1 to 10, got 0`,
        `'bad.steps[2].stack' must be a stack of kind fsx-eks of the scenario (none), got "a"`,
        `'bad.steps[3].kind' must be one of rerun, mysql-failover, fsx-failover, got "chaos"`,
      ]);
    }
  });

  test("an unknown name lists the scenarios", () => {
    expect(() => loadScenario("nope", ROOT)).toThrow(`'scenario' must be one of ${SCENARIOS.map((s) => s.name).join(", ")}, got "nope"`);
  });
});
