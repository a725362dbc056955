/**
 * .github/workflows/lab.yml, checked against what the actions and GitHub document:
 * - `workflow_dispatch` inputs of type choice/boolean/string (GitHub Actions workflow syntax);
 * - OIDC needs `permissions: id-token: write` and configure-aws-credentials' `role-to-assume` and
 *   `aws-region` inputs (aws-actions/configure-aws-credentials README, "OIDC");
 * - pulumi/actions without `command` only installs the CLI (pulumi/actions src/config.ts
 *   `installationConfig`: "We expect command NOT to be provided"), at `pulumi-version`;
 * - `if: always()` runs the upload after a failed step; actions/upload-artifact takes `path`;
 * - a concurrency group per scenario, never cancelling a running lab.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { K0SCTL_VERSION } from "../../../components/versions";
import { SCENARIOS } from "../../../scenarios";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const wf = YAML.parse(fs.readFileSync(path.join(ROOT, ".github", "workflows", "lab.yml"), "utf8"));
const steps: Array<Record<string, unknown>> = wf.jobs.run.steps;
const step = (uses: string) => steps.find((s) => String(s.uses ?? "").startsWith(uses)) as { with: Record<string, unknown>; if?: string };

describe("lab.yml", () => {
  test("installs the k0sctl release the k0sctl config was checked against", () => {
    expect(wf.jobs.run.env.K0SCTL_VERSION).toBe(K0SCTL_VERSION);
  });

  test("manual dispatch with the scenario as input, one option per shipped scenario", () => {
    expect(Object.keys(wf.on)).toEqual(["workflow_dispatch"]);
    const scenario = wf.on.workflow_dispatch.inputs.scenario;
    expect(scenario.type).toBe("choice");
    expect(scenario.required).toBe(true);
    expect([...scenario.options].sort()).toEqual(SCENARIOS.map((s) => s.name).sort());
  });

  test("AWS credentials by OIDC, the Pulumi CLI from pulumi/actions, then lab run", () => {
    expect(wf.permissions).toEqual({ "id-token": "write", contents: "read" });
    const aws = step("aws-actions/configure-aws-credentials@v4");
    expect(aws.with["role-to-assume"]).toBe("${{ secrets.AWS_ROLE_ARN }}");
    expect(aws.with["aws-region"]).toBe("${{ vars.AWS_REGION || 'us-east-1' }}");
    const pulumi = step("pulumi/actions@v6");
    expect(pulumi.with).toEqual({ "pulumi-version": "3.276.0" });
    expect(pulumi.with["pulumi-version"]).toBe(require("../../../package.json").dependencies["@pulumi/pulumi"]); // eslint-disable-line @typescript-eslint/no-require-imports
    const run = steps.find((s) => s.name === "lab run") as { run: string; env: Record<string, string> };
    expect(run.run).toContain('npx lab "${args[@]}"');
    expect(run.run).toContain('args=(run "$SCENARIO" --run-id "$RUN_ID")');
    // inputs reach the script through the environment, never spliced into it
    expect(run.run).not.toContain("${{");
    expect(run.env.SCENARIO).toBe("${{ inputs.scenario }}");
    expect(steps.indexOf(run)).toBeGreaterThan(steps.indexOf(pulumi as never));
  });

  test("results uploaded even when the run fails; one run per scenario at a time", () => {
    const up = step("actions/upload-artifact@v4");
    expect(up.if).toBe("${{ always() }}");
    expect(up.with.path).toBe("results/");
    expect(steps.indexOf(up as never)).toBe(steps.length - 1);
    expect(wf.concurrency).toEqual({ group: "lab-run-${{ inputs.scenario }}", "cancel-in-progress": false });
  });
});
