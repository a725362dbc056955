import { tridentFsxPolicy, tridentSecretPolicy } from "../../../components/trident/iam";
import { IAM_RULES, IAM_WILDCARD_RESOURCE_EXCEPTIONS, wildcardException } from "../../../lab/policy/iam";
import { COMPUTED } from "../../../lab/policy/rule";
import { TYPES as T } from "../../../lab/resource-types";
import { Case, testRules } from "./cases";

const doc = (...Statement: unknown[]) => JSON.stringify({ Version: "2012-10-17", Statement });
const FLOW_LOGS = doc({
  Effect: "Allow",
  Action: ["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"],
  Resource: [
    "arn:aws:logs:us-east-1:123456789012:log-group:lab-flow-logs-1",
    "arn:aws:logs:us-east-1:123456789012:log-group:lab-flow-logs-1:*",
  ],
});
const TRIDENT_FSX_DESCRIBE = IAM_WILDCARD_RESOURCE_EXCEPTIONS[0].actions;
const NAME_THEM =
  "name the resources (ARNs), or, where the service documents that it needs *, list the statement in IAM_WILDCARD_RESOURCE_EXCEPTIONS with its source";

const CASES: readonly Case[] = [
  // iam-no-wildcard-actions
  {
    rule: "iam-no-wildcard-actions",
    title: "named actions on named resources",
    type: T.iamRolePolicy,
    inputs: { role: "r", policy: FLOW_LOGS },
    want: [],
  },
  {
    rule: "iam-no-wildcard-actions",
    title: "a partial wildcard (ec2:Describe*) is not a whole service; a Deny with * is not an allow",
    type: T.iamPolicy,
    inputs: {
      policy: {
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Action: "ec2:Describe*", Resource: "arn:aws:ec2:us-east-1:123456789012:instance/*" },
          { Effect: "Deny", Action: "*", Resource: "*" },
        ],
      },
    },
    want: [],
  },
  {
    rule: "iam-no-wildcard-actions",
    title: "a policy unknown until deploy is not judged",
    type: T.iamRolePolicy,
    inputs: { role: "r", policy: COMPUTED },
    want: [],
  },
  {
    rule: "iam-no-wildcard-actions",
    title: "administrator: * on * (CKV_AWS_62), a single statement object, no Effect (Allow)",
    type: T.iamPolicy,
    inputs: { policy: JSON.stringify({ Version: "2012-10-17", Statement: { Sid: "Admin", Action: "*", Resource: "*" } }) },
    want: ['policy Statement[0] (Admin) allows action "*": list the actions it needs'],
  },
  {
    rule: "iam-no-wildcard-actions",
    title: "a whole service, and NotAction",
    type: T.iamUserPolicy,
    inputs: {
      policy: doc(
        { Effect: "Allow", Action: ["s3:GetObject", "s3:*"], Resource: "arn:aws:s3:::bucket/*" },
        { Effect: "Allow", NotAction: "iam:*", Resource: "arn:aws:s3:::bucket" },
      ),
    },
    want: [
      'policy Statement[0] allows action "s3:*": list the actions it needs',
      "policy Statement[1] allows with NotAction (every other action): list the actions it needs in Action",
    ],
  },
  {
    rule: "iam-no-wildcard-actions",
    title: "a role's inline policies, named",
    type: T.iamRole,
    inputs: {
      assumeRolePolicy: doc({ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }),
      inlinePolicies: [
        { name: "logs", policy: FLOW_LOGS },
        { name: "all", policy: doc({ Effect: "Allow", Action: "*", Resource: "arn:aws:s3:::b" }) },
      ],
    },
    want: ['inlinePolicies[all].policy Statement[0] allows action "*": list the actions it needs'],
  },
  {
    rule: "iam-no-wildcard-actions",
    title: "a document that is not JSON",
    type: T.iamGroupPolicy,
    inputs: { policy: "{ Statement: [" },
    want: ['policy must be a JSON policy document, got "{ Statement: ["'],
  },

  // iam-no-wildcard-resources
  { rule: "iam-no-wildcard-resources", title: "named resources", type: T.iamRolePolicy, inputs: { policy: FLOW_LOGS }, want: [] },
  {
    rule: "iam-no-wildcard-resources",
    title: "Trident's FSx statement on * (a listed exception)",
    type: T.iamRolePolicy,
    inputs: {
      policy: JSON.stringify(tridentFsxPolicy()),
    },
    want: [],
  },
  {
    rule: "iam-no-wildcard-resources",
    title: "a subset of an exception's actions on * passes too",
    type: T.iamPolicy,
    inputs: { policy: doc({ Effect: "Allow", Action: ["fsx:DescribeFileSystems", "fsx:DescribeVolumes"], Resource: "*" }) },
    want: [],
  },
  {
    rule: "iam-no-wildcard-resources",
    title: "the secret statements name their resources",
    type: T.iamRolePolicy,
    inputs: {
      policy: JSON.stringify(
        tridentSecretPolicy(
          "arn:aws:secretsmanager:us-east-1:123456789012:secret:fsx-vsadmin-1",
          "arn:aws:kms:us-east-1:123456789012:key/fsx-kms-1",
          "us-east-1",
        ),
      ),
    },
    want: [],
  },
  {
    rule: "iam-no-wildcard-resources",
    title: "an exception's actions plus one more on *",
    type: T.iamRolePolicy,
    inputs: {
      policy: doc({ Sid: "TridentFsxDescribe", Effect: "Allow", Action: [...TRIDENT_FSX_DESCRIBE, "fsx:DeleteVolume"], Resource: "*" }),
    },
    want: [
      `policy Statement[0] (TridentFsxDescribe) allows ${[...TRIDENT_FSX_DESCRIBE, "fsx:DeleteVolume"].join(", ")} on Resource "*": ${NAME_THEM}`,
    ],
  },
  {
    rule: "iam-no-wildcard-resources",
    title: "write access on * (CKV_AWS_290) and NotResource",
    type: T.iamPolicy,
    inputs: {
      policy: doc(
        { Effect: "Allow", Action: "s3:PutObject", Resource: ["arn:aws:s3:::b/*", "*"] },
        { Effect: "Allow", Action: "kms:Decrypt", NotResource: "arn:aws:kms:us-east-1:123456789012:key/k" },
      ),
    },
    want: [
      `policy Statement[0] allows s3:PutObject on Resource "*": ${NAME_THEM}`,
      "policy Statement[1] allows kms:Decrypt with NotResource (every other resource): name the resources in Resource",
    ],
  },
  {
    rule: "iam-no-wildcard-resources",
    title: "administrator on * also fails here (no exception covers *)",
    type: T.iamRole,
    inputs: { inlinePolicies: [{ name: "admin", policy: doc({ Effect: "Allow", Action: "*", Resource: "*" }) }] },
    want: [`inlinePolicies[admin].policy Statement[0] allows * on Resource "*": ${NAME_THEM}`],
  },
];

const POD_IDENTITY_KEYS = "aws:RequestTag/eks-cluster-name, aws:RequestTag/kubernetes-namespace, aws:RequestTag/kubernetes-service-account";
const POD_ID_SOURCE =
  'EKS User Guide, "Create IAM role with trust policy required by EKS Pod Identity" (pod-id-role), "Setting Conditions"';
const podIdentity = (Condition?: unknown) =>
  doc({
    Sid: "AllowEksAuthToAssumeRoleForPodIdentity",
    Effect: "Allow",
    Principal: { Service: "pods.eks.amazonaws.com" },
    Action: ["sts:AssumeRole", "sts:TagSession"],
    ...(Condition ? { Condition } : {}),
  });
const LAB_PATH = "/storage-bench-lab/";

const TRUST_CASES: readonly Case[] = [
  {
    rule: "iam-role-trust-conditions",
    title: "the lab's Pod Identity role: one service account of one cluster",
    type: T.iamRole,
    inputs: {
      path: LAB_PATH,
      assumeRolePolicy: podIdentity({
        StringEquals: {
          "aws:RequestTag/eks-cluster-name": "lab",
          "aws:RequestTag/kubernetes-namespace": "trident",
          "aws:RequestTag/kubernetes-service-account": "trident-controller",
        },
      }),
    },
    want: [],
  },
  {
    rule: "iam-role-trust-conditions",
    title: "Pod Identity without conditions: any association of the account could assume it",
    type: T.iamRole,
    inputs: { assumeRolePolicy: podIdentity() },
    want: [
      `assumeRolePolicy Statement[0] (AllowEksAuthToAssumeRoleForPodIdentity) trusts pods.eks.amazonaws.com without the condition keys ${POD_IDENTITY_KEYS} (${POD_ID_SOURCE})`,
    ],
  },
  {
    rule: "iam-role-trust-conditions",
    title: "Pod Identity conditioned on the namespace only",
    type: T.iamRole,
    inputs: { assumeRolePolicy: podIdentity({ StringEquals: { "aws:RequestTag/kubernetes-namespace": "trident" } }) },
    want: [
      `assumeRolePolicy Statement[0] (AllowEksAuthToAssumeRoleForPodIdentity) trusts pods.eks.amazonaws.com without the condition keys aws:RequestTag/eks-cluster-name, aws:RequestTag/kubernetes-service-account (${POD_ID_SOURCE})`,
    ],
  },
  {
    rule: "iam-role-trust-conditions",
    title: "flow logs with the confused-deputy conditions; EC2 and EKS as their documentation writes them",
    type: T.iamRole,
    inputs: {
      assumeRolePolicy: doc(
        {
          Effect: "Allow",
          Principal: { Service: "vpc-flow-logs.amazonaws.com" },
          Action: "sts:AssumeRole",
          Condition: {
            StringEquals: { "aws:SourceAccount": "123456789012" },
            ArnLike: { "aws:SourceArn": "arn:aws:ec2:us-east-1:123456789012:vpc-flow-log/*" },
          },
        },
        { Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" },
        { Effect: "Allow", Principal: { Service: "eks.amazonaws.com" }, Action: "sts:AssumeRole" },
      ),
    },
    want: [],
  },
  {
    rule: "iam-role-trust-conditions",
    title: "flow logs without aws:SourceArn, another service and an account without any condition, everyone",
    type: T.iamRole,
    inputs: {
      assumeRolePolicy: doc(
        {
          Effect: "Allow",
          Principal: { Service: "vpc-flow-logs.amazonaws.com" },
          Action: "sts:AssumeRole",
          Condition: { StringEquals: { "aws:SourceAccount": "123456789012" } },
        },
        { Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" },
        { Effect: "Allow", Principal: { AWS: "arn:aws:iam::210987654321:root" }, Action: "sts:AssumeRole" },
        { Effect: "Allow", Principal: "*", Action: "sts:AssumeRole", Condition: { StringEquals: { "aws:PrincipalOrgID": "o-1" } } },
      ),
    },
    want: [
      'assumeRolePolicy Statement[0] trusts vpc-flow-logs.amazonaws.com without the condition keys aws:SourceArn (VPC User Guide, "IAM role for publishing flow logs to CloudWatch Logs" (confused deputy prevention))',
      "assumeRolePolicy Statement[1] trusts lambda.amazonaws.com without a condition: add the service's confused-deputy conditions (aws:SourceAccount, aws:SourceArn)",
      "assumeRolePolicy Statement[2] trusts arn:aws:iam::210987654321:root without a condition: add one (an external id, a source account, a tag)",
      'assumeRolePolicy Statement[3] trusts every principal ("*")',
    ],
  },
  {
    rule: "iam-role-trust-conditions",
    title: "a trust policy known only at deploy is judged then; one that is not JSON is reported",
    type: T.iamRole,
    inputs: { assumeRolePolicy: COMPUTED },
    want: [],
  },
  {
    rule: "iam-role-trust-conditions",
    title: "not JSON",
    type: T.iamRole,
    inputs: { assumeRolePolicy: "{not json" },
    want: ['assumeRolePolicy must be a JSON policy document, got "{not json"'],
  },
  { rule: "iam-role-lab-path", title: "the lab's path", type: T.iamRole, inputs: { path: LAB_PATH }, want: [] },
  {
    rule: "iam-role-lab-path",
    title: "no path (the default /) or another one",
    type: T.iamRole,
    inputs: {},
    want: ['path must be "/storage-bench-lab/", got nothing'],
  },
  {
    rule: "iam-role-lab-path",
    title: "another path",
    type: T.iamRole,
    inputs: { path: "/" },
    want: ['path must be "/storage-bench-lab/", got "/"'],
  },
];

testRules("iam", IAM_RULES, [...CASES, ...TRUST_CASES]);

describe("the exceptions to a named resource", () => {
  test("each names its actions and its source; Trident's is FSx's Describe calls, the ones the trident component grants on *", () => {
    expect(IAM_WILDCARD_RESOURCE_EXCEPTIONS.map((e) => e.name)).toEqual(["trident-fsx-describe", "ebs-csi-describe"]);
    for (const e of IAM_WILDCARD_RESOURCE_EXCEPTIONS) {
      expect(e.actions.length).toBeGreaterThan(0);
      expect(e.actions.every((a) => /^[a-z0-9-]+:[A-Za-z0-9]+$/.test(a))).toBe(true);
      expect(e.source).toMatch(/https?:\/\/|docs\.[a-z]+\.com\//);
    }
    expect(IAM_WILDCARD_RESOURCE_EXCEPTIONS[0].source).toContain(
      "docs.aws.amazon.com/service-authorization/latest/reference/list_amazonfsx.html",
    );
    expect(tridentFsxPolicy().Statement[0].Action).toEqual([...TRIDENT_FSX_DESCRIBE]);
    // The EBS CSI controller's Describe calls: EC2's, which name no resource (list_amazonec2.html).
    expect(IAM_WILDCARD_RESOURCE_EXCEPTIONS[1].source).toContain(
      "docs.aws.amazon.com/service-authorization/latest/reference/list_amazonec2.html",
    );
    expect(IAM_WILDCARD_RESOURCE_EXCEPTIONS[1].actions.every((a) => a.startsWith("ec2:Describe"))).toBe(true);
    expect(wildcardException(["ec2:DescribeVolumes", "ec2:DeleteVolume"])).toBeUndefined();
  });

  test("an exception covers a statement only when it covers every action; never a wildcard action", () => {
    expect(wildcardException(["fsx:DescribeVolumes"])?.name).toBe("trident-fsx-describe");
    expect(wildcardException(["fsx:DescribeVolumes", "fsx:DeleteVolume"])).toBeUndefined();
    expect(wildcardException(["fsx:CreateVolume"])).toBeUndefined(); // scoped to the file system's volumes now
    expect(wildcardException(["fsx:*"])).toBeUndefined();
    expect(wildcardException([])).toBeUndefined();
  });
});
