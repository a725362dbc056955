/**
 * The deploy policy: docs/deploy-policy.json is exactly what `lab plan --deploy-policy` generates
 * from the resource types the shipped stacks' plans create; a type without actions is an error
 * naming it; IAM is confined to the lab's role path.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LAB_IAM_PATH } from "../../../components/lib/iam";
import { deployPolicyInput, runDeployPolicy } from "../../../lab/cli/plan";
import {
  awsTypes,
  DEFAULT_BOUNDARY_ARN,
  DEPLOY_ACTIONS,
  deployPolicy,
  DeployPolicyInput,
  LAB_PROJECT,
  NOT_DEPLOYED,
  PolicyStatement,
  renderDeployPolicy,
} from "../../../lab/policy/deploy-policy";
import { RESOURCE_TYPES } from "../../../lab/resource-types";
import { ROOT } from "../../helpers/root";

const statement = (doc: ReturnType<typeof deployPolicy>, sid: string): PolicyStatement => doc.Statement.find((s) => s.Sid === sid)!;

const input = (types: string[], over: Partial<DeployPolicyInput> = {}): DeployPolicyInput => ({
  types,
  managedPolicyArns: ["arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy"],
  project: "storage-bench-lab",
  permissionsBoundaryArn: DEFAULT_BOUNDARY_ARN,
  ...over,
});

describe("the deploy policy", () => {
  test("docs/deploy-policy.json is the generator's output for the shipped stacks (`npx lab plan --deploy-policy > docs/deploy-policy.json`)", async () => {
    const generated = await runDeployPolicy(ROOT);
    expect(fs.readFileSync(path.join(ROOT, "docs", "deploy-policy.json"), "utf8")).toBe(generated);
    const doc = JSON.parse(generated) as ReturnType<typeof deployPolicy>;
    expect(statement(doc, "ChangeOnlyLabResources").Action).toEqual(
      expect.arrayContaining([
        "fsx:DeleteFileSystem",
        "eks:DeleteCluster",
        "ec2:TerminateInstances",
        "secretsmanager:GetSecretValue",
        "kms:Decrypt",
      ]),
    );
    expect(statement(doc, "ChangeOnlyLabResources").Condition).toEqual({ StringEquals: { "aws:ResourceTag/lab:project": LAB_PROJECT } });
    // The managed policies the plan attaches, exactly: AWS's, and the lab's own EBS CSI policies by path and name
    // (one per shipped eks stack); the AWS managed EBS CSI policy the lab attached before only detached.
    const own = [
      "arn:aws:iam::*:policy/storage-bench-lab/fsx-eks-cluster-ebs-csi",
      "arn:aws:iam::*:policy/storage-bench-lab/kafka-cluster-ebs-csi",
    ];
    const aws = [
      "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly",
      "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy",
      "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
      "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
    ];
    expect(statement(doc, "AttachOnlyThePlannedManagedPolicies").Condition).toEqual({
      StringLike: { "iam:PermissionsBoundary": "arn:aws:iam::*:policy/storage-bench-lab/lab-permissions-boundary" },
      ArnEquals: { "iam:PolicyARN": [...own, ...aws] },
    });
    expect(statement(doc, "DetachOnlyThePlannedManagedPolicies").Condition).toEqual({
      ArnEquals: { "iam:PolicyARN": [...own, ...aws, "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy"] },
    });
    // The lab's customer managed policies: under its path, tagged; the boundary never written.
    expect(statement(doc, "CreateLabPoliciesWithLabTag")).toMatchObject({
      Resource: "arn:aws:iam::*:policy/storage-bench-lab/*",
      Condition: { StringEquals: { "aws:RequestTag/lab:project": LAB_PROJECT } },
    });
    expect(statement(doc, "NeverWriteTheBoundary")).toMatchObject({
      Effect: "Deny",
      Resource: "arn:aws:iam::*:policy/storage-bench-lab/lab-permissions-boundary",
    });
    // No action is on `*` without a condition but reads and the few AWS offers no condition for.
    const open = doc.Statement.filter((s) => s.Effect === "Allow" && s.Resource === "*" && s.Condition === undefined);
    expect(open.map((s) => s.Sid)).toEqual(["Read", "NoConditionOffered"]);
    expect(statement(doc, "NoConditionOffered").Action).toEqual([
      "ecr:GetAuthorizationToken",
      "logs:CreateLogDelivery",
      "logs:DeleteLogDelivery",
    ]);
    expect(statement(doc, "Read").Action.filter((a) => !/:(Describe|List|Get)[A-Z]/.test(a))).toEqual([]);
    expect(statement(doc, "Read").Action).not.toContain("secretsmanager:GetSecretValue");
    const all = doc.Statement.flatMap((s) => s.Action);
    expect(all.filter((a) => a.includes("OpenIDConnectProvider") || a === "iam:DeleteRolePermissionsBoundary")).toEqual([]);
  });

  test("`--permissions-boundary` must be a managed policy ARN or none", async () => {
    await expect(runDeployPolicy(ROOT, "arn:aws:iam::123:role/x")).rejects.toThrow(
      "'--permissions-boundary' must be the ARN of an IAM managed policy (arn:aws:iam::<account>:policy/<name>) or none, got arn:aws:iam::123:role/x",
    );
  });

  test("the plan's RolePolicyAttachments give the managed policies; a computed one and two projects are errors", () => {
    const r = (urn: string, policyArn: unknown) => ({
      urn,
      type: "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
      inputs: { policyArn },
    });
    expect(deployPolicyInput([r("urn:pulumi:dev::storage-bench-lab::a", "arn:aws:iam::aws:policy/X")], null)).toEqual({
      types: ["aws:iam/rolePolicyAttachment:RolePolicyAttachment"],
      managedPolicyArns: ["arn:aws:iam::aws:policy/X"],
      project: "storage-bench-lab",
      permissionsBoundaryArn: null,
    });
    expect(() => deployPolicyInput([r("urn:pulumi:dev::p::a", "<computed>")], null)).toThrow(
      "'urn:pulumi:dev::p::a policyArn' must be a managed policy ARN known at plan time, got \"<computed>\"",
    );
    expect(() =>
      deployPolicyInput(
        [r("urn:pulumi:dev::p::a", "arn:aws:iam::aws:policy/X"), r("urn:pulumi:dev::q::b", "arn:aws:iam::aws:policy/X")],
        null,
      ),
    ).toThrow(`'project' must be one Pulumi project for every planned resource, got ["p","q"]`);
  });

  test("every AWS, pulumi-eks and docker-build token of the one type table has its actions, or says why the lab never deploys it", () => {
    const tokens = awsTypes(Object.keys(RESOURCE_TYPES));
    expect(tokens.length).toBeGreaterThan(40);
    expect(tokens.filter((t) => !(t in DEPLOY_ACTIONS) && !(t in NOT_DEPLOYED))).toEqual([]);
    expect(Object.keys(NOT_DEPLOYED).filter((t) => t in DEPLOY_ACTIONS)).toEqual([]);
    expect(() => deployPolicy(input(["aws:iam/userPolicy:UserPolicy"]))).toThrow(
      "no deploy actions for resource type(s) aws:iam/userPolicy:UserPolicy: add them to DEPLOY_ACTIONS in lab/policy/deploy-policy.ts",
    );
  });

  test("a planned type without actions fails, naming every such type; non-AWS types are ignored", () => {
    expect(() =>
      deployPolicy(input(["aws:ec2/vpc:Vpc", "aws:rds/instance:Instance", "aws:s3/bucket:Bucket", "kubernetes:core/v1:Pod"])),
    ).toThrow(
      "no deploy actions for resource type(s) aws:rds/instance:Instance, aws:s3/bucket:Bucket: add them to DEPLOY_ACTIONS in lab/policy/deploy-policy.ts",
    );
    expect(renderDeployPolicy(input(["random:index:RandomPassword", "aws:ec2/vpc:Vpc"]))).toBe(
      renderDeployPolicy(input(["aws:ec2/vpc:Vpc"])),
    );
  });

  test("IAM only on the lab's roles: the boundary on every call that gives a role power, planned managed policies only, no assuming the roles", () => {
    const doc = deployPolicy(
      input([
        "aws:iam/role:Role",
        "aws:iam/rolePolicy:RolePolicy",
        "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
        "eks:index:Cluster",
        "aws:ec2/vpc:Vpc",
      ]),
    );
    expect(doc.Statement.filter((s) => s.Action.some((a) => a.startsWith("iam:") || a.startsWith("sts:"))).map((s) => s.Sid)).toEqual([
      "Read", // sts:GetCallerIdentity
      "ReadManagedPolicies",
      "ReadLabRoles",
      "CreateLabRolesWithBoundary",
      "GiveLabRolesPowerOnlyWithinBoundary",
      "AttachOnlyThePlannedManagedPolicies",
      "DetachOnlyThePlannedManagedPolicies",
      "ChangeLabRoles",
      "RetagLabRoles",
      "PassLabRolesToTheirServices",
      "ServiceLinkedRoles",
      "NeverAssumeLabRoles",
    ]);
    expect(statement(doc, "CreateLabRolesWithBoundary")).toEqual({
      Sid: "CreateLabRolesWithBoundary",
      Effect: "Allow",
      Action: ["iam:CreateRole"],
      Resource: `arn:aws:iam::*:role${LAB_IAM_PATH}*`,
      Condition: {
        StringLike: { "iam:PermissionsBoundary": DEFAULT_BOUNDARY_ARN },
        StringEquals: { "aws:RequestTag/lab:project": "storage-bench-lab" },
      },
    });
    expect(statement(doc, "GiveLabRolesPowerOnlyWithinBoundary").Action).toEqual(["iam:PutRolePolicy", "iam:PutRolePermissionsBoundary"]);
    expect(statement(doc, "NeverAssumeLabRoles")).toEqual({
      Sid: "NeverAssumeLabRoles",
      Effect: "Deny",
      Action: ["sts:AssumeRole"],
      Resource: `arn:aws:iam::*:role${LAB_IAM_PATH}*`,
    });
    expect(statement(doc, "PassLabRolesToTheirServices").Condition).toEqual({
      StringEquals: {
        "iam:PassedToService": ["eks.amazonaws.com", "ec2.amazonaws.com", "vpc-flow-logs.amazonaws.com", "pods.eks.amazonaws.com"],
      },
    });
    // An exact boundary ARN is matched exactly; without one no boundary condition and no PutRolePermissionsBoundary.
    const exact = deployPolicy(input(["aws:iam/role:Role"], { permissionsBoundaryArn: "arn:aws:iam::111122223333:policy/b" }));
    expect(statement(exact, "CreateLabRolesWithBoundary").Condition).toEqual({
      StringEquals: { "iam:PermissionsBoundary": "arn:aws:iam::111122223333:policy/b", "aws:RequestTag/lab:project": "storage-bench-lab" },
    });
    const none = deployPolicy(input(["aws:iam/role:Role", "aws:iam/rolePolicy:RolePolicy"], { permissionsBoundaryArn: null }));
    expect(statement(none, "GiveLabRolesPowerOnlyWithinBoundary")).toEqual({
      Sid: "GiveLabRolesPowerOnlyWithinBoundary",
      Effect: "Allow",
      Action: ["iam:PutRolePolicy"],
      Resource: `arn:aws:iam::*:role${LAB_IAM_PATH}*`,
    });
    // Without IAM types: no IAM statements beyond reading managed policies.
    expect(deployPolicy(input(["aws:ec2/vpc:Vpc"])).Statement.map((s) => s.Sid)).toEqual([
      "Read",
      "ReadPublicParameters",
      "ReadManagedPolicies",
      "CreateVpcWithLabTag",
      "ChangeOnlyLabResources",
      "TagEc2OnlyOnCreate",
      "RetagOnlyLabResources",
    ]);
  });
});
