/** `lab plan`: the offline plan of shipped stacks and scenarios (see lab/plan). */
import * as path from "node:path";
import { SCENARIOS } from "../../scenarios";
import type { Scenario } from "../../scenarios/types";
import { runStack } from "../../stacks";
import { estimateHourly, renderEstimate } from "../cost/estimate";
import { LAB_IAM_PATH, POLICY_ARN_RE, POLICY_ARN_RULE } from "../../components/lib/iam";
import { FAKE_ACCOUNT } from "../plan/fakes";
import { renderCleanupPolicy } from "../policy/cleanup-policy";
import { DEFAULT_BOUNDARY_ARN, DeployPolicyInput, renderDeployPolicy } from "../policy/deploy-policy";
import { evaluatePlan, hasMandatory } from "../policy/evaluate";
import { ALL_RULES } from "../policy/rules";
import { planAll, PlanMemo, PlanResult, scenarioSpecs } from "../plan";
import type { PlanMode, PlannedResource } from "../plan/run";
import { planJson, renderMermaid, renderTree } from "../plan/render";
import { readStackConfigFile, shippedStacks, withUpstreams } from "../plan/sources";
import { UsageError } from "./errors";

export { UsageError } from "./errors";

export interface PlanOptions {
  stack?: string;
  config?: string;
  scenario?: string;
  all?: boolean;
  json?: boolean;
  graph?: boolean;
  policy?: boolean;
  /** Plan as the first preview of new stacks (lab/plan/run.ts). */
  firstPreview?: boolean;
  /** Print secret inputs' and outputs' values (lab/plan/run.ts PlanMode). */
  showSecrets?: boolean;
}

/** The line `lab plan --show-secrets` prints on stderr. */
export const SHOW_SECRETS_WARNING =
  "warning: --show-secrets: secret inputs and outputs are printed in clear (secret config keys stay [secret]: the plan never reads them)";

/** What `lab plan` prints: stdout, and whether the policy rules found a mandatory violation. */
export interface PlanOutput {
  readonly text: string;
  /** Policy violations, one a line (empty without --policy or with none). */
  readonly violations: readonly string[];
  readonly mandatoryViolation: boolean;
}

interface PlanGroup {
  title?: string;
  results: PlanResult[];
}

/** A scenario's stacks, planned in their order, under the scenario's title. */
async function scenarioGroup(scenario: Scenario, root: string, mode: PlanMode, memo: PlanMemo): Promise<PlanGroup> {
  return {
    title: `scenario ${scenario.name}: ${scenario.description}`,
    results: await planAll(scenarioSpecs(scenario, root), runStack, undefined, mode, memo),
  };
}

/** What `lab plan` prints for the given options; `root` is the project directory. */
export async function runPlan(opts: PlanOptions, root: string): Promise<PlanOutput> {
  const chosen = [opts.stack, opts.config, opts.scenario, opts.all].filter((x) => x !== undefined && x !== false).length;
  if (chosen !== 1) throw new UsageError("lab plan needs exactly one of --stack S, --config FILE, --scenario X, --all");
  const shipped = shippedStacks(root);
  const groups: PlanGroup[] = [];
  if (opts.showSecrets && opts.policy)
    throw new UsageError(
      "'--show-secrets' and '--policy' together: the policy rules judge the plan as a preview shows it, secrets hidden; run them apart",
    );
  const mode: PlanMode = { firstPreview: opts.firstPreview === true, showSecrets: opts.showSecrets === true };
  // A stack planned twice with the same config and upstreams (shipped, then in a scenario) is planned once.
  const memo: PlanMemo = new Map();

  if (opts.stack !== undefined || opts.config !== undefined) {
    const spec =
      opts.stack !== undefined ? shipped.find((s) => s.name === opts.stack) : readStackConfigFile(path.resolve(opts.config as string));
    if (!spec) {
      throw new UsageError(
        `no stack '${opts.stack}': the shipped stacks are ${shipped.map((s) => s.name).join(", ")} (Pulumi.<stack>.yaml)`,
      );
    }
    // Plan the stack with the shipped stacks it references planned before it.
    const results = await planAll(withUpstreams(spec, shipped), runStack, undefined, { ...mode, firstPreviewOf: [spec.name] });
    const needed = results.find((r) => r.spec.name === spec.name) as PlanResult;
    groups.push({ results: [needed] });
  } else if (opts.scenario !== undefined) {
    const scenario = SCENARIOS.find((x) => x.name === opts.scenario);
    if (!scenario) throw new UsageError(`no scenario '${opts.scenario}': the scenarios are ${SCENARIOS.map((x) => x.name).join(", ")}`);
    groups.push(await scenarioGroup(scenario, root, mode, memo));
  } else {
    groups.push({ title: "shipped stacks", results: await planAll(shipped, runStack, undefined, mode, memo) });
    for (const scenario of SCENARIOS) groups.push(await scenarioGroup(scenario, root, mode, memo));
  }

  const all = groups.flatMap((g) => g.results);
  // --policy: the lab's rules (lab/policy, the same as the CrossGuard pack) over every planned resource, and its stack rules over the outputs.
  const found = opts.policy ? all.flatMap((r) => evaluatePlan(r.plan).map((v) => ({ stack: r.plan.stack, v }))) : [];
  const violations = found.map(({ stack, v }) => `policy ${v.enforcementLevel}: stack ${stack}: ${v.message}`);
  const result = (text: string): PlanOutput => ({ text, violations, mandatoryViolation: hasMandatory(found.map((f) => f.v)) });
  if (opts.json) {
    const docs = all.map((r) => planJson(r.plan));
    return result(JSON.stringify(opts.stack !== undefined || opts.config !== undefined ? docs[0] : docs, null, 2));
  }
  if (opts.graph) return result(renderMermaid(all.map((r) => r.plan)));
  const out: string[] = [];
  for (const g of groups) {
    if (g.title) out.push(`== ${g.title}`);
    for (const r of g.results) {
      const cost = estimateHourly(r.plan.resources, r.plan.config["aws:region"] ?? "us-east-1");
      out.push(renderTree(r.plan, r.spec.source), ...renderEstimate(cost).map((l) => `  ${l}`), "");
    }
  }
  const total = all.reduce((n, r) => n + r.plan.resources.length, 0);
  out.push(
    `planned ${all.length} stack(s), ${total} resources, offline (no cloud calls)` +
      (mode.firstPreview ? ", as the first preview of new stacks (<computed>: unknown until created)" : ""),
  );
  if (opts.policy) {
    const rules = ALL_RULES.length;
    out.push(
      violations.length === 0
        ? `policy: ${rules} rules, no violations`
        : `policy: ${rules} rules, ${violations.length} violation(s) (on stderr)`,
    );
  }
  return result(out.join("\n"));
}

/**
 * `lab plan --deploy-policy`: docs/deploy-policy.json, the IAM policy the deploying identity needs,
 * from the resource types the shipped stacks' plans create (lab/policy/deploy-policy.ts).
 */
export async function runDeployPolicy(root: string, permissionsBoundaryArn: string | null = DEFAULT_BOUNDARY_ARN): Promise<string> {
  return renderDeployPolicy(await shippedPolicyInput(root, permissionsBoundaryArn));
}

/**
 * `lab plan --cleanup-policy`: docs/cleanup-policy.json, the IAM policy of the cleanup identity
 * (`lab janitor`): the deploy policy of the same plan cut down to reads and teardowns
 * (lab/policy/cleanup-policy.ts).
 */
export async function runCleanupPolicy(root: string, permissionsBoundaryArn: string | null = DEFAULT_BOUNDARY_ARN): Promise<string> {
  return renderCleanupPolicy(await shippedPolicyInput(root, permissionsBoundaryArn));
}

/** The policies' input from the shipped stacks' plans; a bad `--permissions-boundary` refused first. */
async function shippedPolicyInput(root: string, permissionsBoundaryArn: string | null): Promise<DeployPolicyInput> {
  if (permissionsBoundaryArn !== null && !POLICY_ARN_RE.test(permissionsBoundaryArn.replace("::*:", "::000000000000:")))
    throw new UsageError(`'--permissions-boundary' must be ${POLICY_ARN_RULE} or none, got ${permissionsBoundaryArn}`);
  const results = await planAll(shippedStacks(root), runStack);
  return deployPolicyInput(
    results.flatMap((r) => r.plan.resources),
    permissionsBoundaryArn,
  );
}

/**
 * The deploy policy's input from the planned resources: their types, the managed policies their
 * RolePolicyAttachments attach (a computed or missing `policyArn` is an error: the policy could not
 * name it) and the project of their URNs (`urn:pulumi:<stack>::<project>::…`, one for all). A
 * customer managed policy the plan creates (`aws:iam/policy:Policy`, only under the lab's path) is
 * named for any account, `arn:aws:iam::*:policy<path><name>`: the plan's fake account is not the
 * deploying one.
 */
export function deployPolicyInput(
  resources: readonly Pick<PlannedResource, "urn" | "type" | "inputs">[],
  permissionsBoundaryArn: string | null,
): DeployPolicyInput {
  const policies = resources.filter((r) => r.type === "aws:iam/policy:Policy");
  const offPath = policies.filter((r) => r.inputs.path !== LAB_IAM_PATH || typeof r.inputs.name !== "string");
  if (offPath.length > 0)
    throw new Error(
      offPath
        .map((r) => `'${r.urn} path' must be ${LAB_IAM_PATH} with a name known at plan time, got ${JSON.stringify(r.inputs.path)}`)
        .join("\n"),
    );
  const own = new Map(
    policies.map((r) => {
      const pathAndName = `${LAB_IAM_PATH}${String(r.inputs.name)}`;
      return [`arn:aws:iam::${FAKE_ACCOUNT}:policy${pathAndName}`, `arn:aws:iam::*:policy${pathAndName}`];
    }),
  );
  const attachments = resources.filter((r) => r.type === "aws:iam/rolePolicyAttachment:RolePolicyAttachment");
  const bad = attachments.filter((r) => typeof r.inputs.policyArn !== "string" || !POLICY_ARN_RE.test(r.inputs.policyArn));
  if (bad.length > 0)
    throw new Error(
      bad
        .map((r) => `'${r.urn} policyArn' must be a managed policy ARN known at plan time, got ${JSON.stringify(r.inputs.policyArn)}`)
        .join("\n"),
    );
  const projects = [...new Set(resources.map((r) => r.urn.split("::")[1]))];
  if (projects.length !== 1)
    throw new Error(`'project' must be one Pulumi project for every planned resource, got ${JSON.stringify(projects)}`);
  return {
    types: resources.map((r) => r.type),
    managedPolicyArns: attachments.map((r) => own.get(r.inputs.policyArn as string) ?? (r.inputs.policyArn as string)),
    project: projects[0],
    permissionsBoundaryArn,
  };
}
