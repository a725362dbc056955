/**
 * The deploy policy: docs/deploy-policy.json is exactly what `lab plan --deploy-policy` generates
 * from the resource types the shipped stacks' plans create; a type without actions is an error
 * naming it; IAM is confined to the lab's role path.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LAB_IAM_PATH } from "../../../components/lib/iam";
import { runDeployPolicy } from "../../../lab/cli/plan";
import {
  awsTypes,
  DEPLOY_ACTIONS,
  deployPolicy,
  NOT_DEPLOYED,
  PolicyStatement,
  renderDeployPolicy,
} from "../../../lab/policy/deploy-policy";
import { RESOURCE_TYPES } from "../../../lab/resource-types";
import { ROOT } from "../../helpers/root";

const statement = (doc: ReturnType<typeof deployPolicy>, sid: string): PolicyStatement => doc.Statement.find((s) => s.Sid === sid)!;

describe("the deploy policy", () => {
  test("docs/deploy-policy.json is the generator's output for the shipped stacks (`npx lab plan --deploy-policy > docs/deploy-policy.json`)", async () => {
    const generated = await runDeployPolicy(ROOT);
    expect(fs.readFileSync(path.join(ROOT, "docs", "deploy-policy.json"), "utf8")).toBe(generated);
    const doc = JSON.parse(generated) as ReturnType<typeof deployPolicy>;
    // What the plans create is in it: FSx, EKS, the role path.
    expect(statement(doc, "LabResources").Action).toEqual(
      expect.arrayContaining(["fsx:CreateFileSystem", "eks:CreateCluster", "ec2:RunInstances"]),
    );
    expect(statement(doc, "LabRolesOnly").Resource).toBe(`arn:aws:iam::*:role${LAB_IAM_PATH}*`);
  });

  test("every AWS, pulumi-eks and docker-build token of the one type table has its actions, or says why the lab never deploys it", () => {
    const tokens = awsTypes(Object.keys(RESOURCE_TYPES));
    expect(tokens.length).toBeGreaterThan(40);
    expect(tokens.filter((t) => !(t in DEPLOY_ACTIONS) && !(t in NOT_DEPLOYED))).toEqual([]);
    expect(Object.keys(NOT_DEPLOYED).filter((t) => t in DEPLOY_ACTIONS)).toEqual([]);
    expect(() => deployPolicy(["aws:iam/userPolicy:UserPolicy"])).toThrow(
      "no deploy actions for resource type(s) aws:iam/userPolicy:UserPolicy: add them to DEPLOY_ACTIONS in lab/policy/deploy-policy.ts",
    );
  });

  test("a planned type without actions fails, naming every such type; non-AWS types are ignored", () => {
    expect(() => deployPolicy(["aws:ec2/vpc:Vpc", "aws:rds/instance:Instance", "aws:s3/bucket:Bucket", "kubernetes:core/v1:Pod"])).toThrow(
      "no deploy actions for resource type(s) aws:rds/instance:Instance, aws:s3/bucket:Bucket: add them to DEPLOY_ACTIONS in lab/policy/deploy-policy.ts",
    );
    expect(renderDeployPolicy(["random:index:RandomPassword", "aws:ec2/vpc:Vpc"])).toBe(renderDeployPolicy(["aws:ec2/vpc:Vpc"]));
  });

  test("IAM only on the lab's roles: PassRole to their services, service-linked roles by service, no iam: action on *", () => {
    const doc = deployPolicy(["aws:iam/role:Role", "aws:iam/rolePolicy:RolePolicy", "eks:index:Cluster", "aws:ec2/vpc:Vpc"]);
    expect(doc.Statement.map((s) => s.Sid)).toEqual([
      "LabResources",
      "ReadManagedPolicies",
      "LabRolesOnly",
      "PassLabRolesToTheirServices",
      "ServiceLinkedRoles",
      "ClusterOidcProviders",
    ]);
    expect(statement(doc, "LabResources").Action.filter((a) => a.startsWith("iam:"))).toEqual([]);
    expect(statement(doc, "LabRolesOnly").Action).toEqual(
      expect.arrayContaining(["iam:CreateRole", "iam:PutRolePolicy", "iam:DeleteRole"]),
    );
    expect(statement(doc, "PassLabRolesToTheirServices")).toEqual({
      Sid: "PassLabRolesToTheirServices",
      Effect: "Allow",
      Action: ["iam:PassRole"],
      Resource: "arn:aws:iam::*:role/storage-bench-lab/*",
      Condition: {
        StringEquals: {
          "iam:PassedToService": ["eks.amazonaws.com", "ec2.amazonaws.com", "vpc-flow-logs.amazonaws.com", "pods.eks.amazonaws.com"],
        },
      },
    });
    expect(statement(doc, "ServiceLinkedRoles").Condition).toEqual({
      StringEquals: {
        "iam:AWSServiceName": ["eks.amazonaws.com", "eks-nodegroup.amazonaws.com", "fsx.amazonaws.com", "autoscaling.amazonaws.com"],
      },
    });
    // No OIDC provider is created any more: only what deletes one an older eks stack created.
    expect(statement(doc, "ClusterOidcProviders")).toEqual({
      Sid: "ClusterOidcProviders",
      Effect: "Allow",
      Action: ["iam:DeleteOpenIDConnectProvider", "iam:GetOpenIDConnectProvider"],
      Resource: "arn:aws:iam::*:oidc-provider/oidc.eks.*",
    });
    // Without IAM types: no IAM statements beyond reading managed policies.
    expect(deployPolicy(["aws:ec2/vpc:Vpc"]).Statement.map((s) => s.Sid)).toEqual(["LabResources", "ReadManagedPolicies"]);
  });
});
