/**
 * parseConfig on what a user mistypes: keys in the project's namespace (what `pulumi config set KEY`
 * writes without `lab:`), lab keys under another namespace, empty values, and secret values in the
 * problem lines.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { EMPTY_RULE, misplacedKeyProblem, parseConfig, PROJECT_NAMESPACE, SECRET_SHOWN } from "../../../stacks/lib/config/load";
import { checkNetwork, networkSchema } from "../../../stacks/network/config";
import { arnProblems, partitionOf } from "../../../stacks/lib/config/arns";
import { STACK_NAME_RE } from "../../../stacks/lib/config/fields";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { problemsOf } from "../../helpers/config";

const base = { "aws:region": "us-east-1", "lab:kind": "network", "lab:owner": "alice" };
const parse = (extra: Record<string, string>) => parseConfig("network", networkSchema, { ...base, ...extra }, checkNetwork);
const NAMESPACE_RULE = (name: string, hint: string) =>
  `a key in the lab: namespace${hint}: no stack program reads the project's namespace storage-bench-lab:, where \`pulumi config set ${name} …\` puts a key written without lab:`;

afterEach(() => pulumi.runtime.setAllConfig({}, []));

describe("keys outside the lab: namespace", () => {
  test("the project's namespace is Pulumi.yaml's name", () => {
    expect(fs.readFileSync(path.join(__dirname, "../../../Pulumi.yaml"), "utf8")).toMatch(new RegExp(`^name: ${PROJECT_NAMESPACE}$`, "m"));
  });

  test("`pulumi config set vpcCidr …` (storage-bench-lab:vpcCidr) is refused, naming lab:vpcCidr", () => {
    expect(problemsOf(() => parse({ "storage-bench-lab:vpcCidr": "10.1.0.0/16" }))).toEqual([
      `'storage-bench-lab:vpcCidr' must be ${NAMESPACE_RULE("vpcCidr", " (did you mean 'lab:vpcCidr'?)")}, got "10.1.0.0/16"`,
    ]);
  });

  test("any key in the project's namespace is refused, with no suggestion when none is near", () => {
    expect(problemsOf(() => parse({ "storage-bench-lab:colour": "blue" }))).toEqual([
      `'storage-bench-lab:colour' must be ${NAMESPACE_RULE("colour", "")}, got "blue"`,
    ]);
  });

  test("a lab key under another namespace (a provider's, or a misspelt one) is refused; letter case aside", () => {
    expect(problemsOf(() => parse({ "aws:vpcCidr": "10.1.0.0/16", "labs:AZCOUNT": "3" }))).toEqual([
      `'aws:vpcCidr' must be a key in the lab: namespace (did you mean 'lab:vpcCidr'?): no stack program reads aws:vpcCidr, so lab:vpcCidr would keep its default, got "10.1.0.0/16"`,
      `'labs:AZCOUNT' must be a key in the lab: namespace (did you mean 'lab:azCount'?): no stack program reads labs:AZCOUNT, so lab:azCount would keep its default, got "3"`,
    ]);
  });

  test("the AWS provider's own keys, other providers' keys and aws:region are the providers', not mistakes", () => {
    expect(
      problemsOf(
        () => parse({ "aws:profile": "lab", "aws:skipMetadataApiCheck": "false", "kubernetes:context": "x", "pulumi:template": "t" }),
        true,
      ),
    ).toEqual([]);
    expect(misplacedKeyProblem("aws:region", "us-east-1", ["aws:region", "lab:vpcCidr"])).toBeUndefined();
  });
});

describe("empty values", () => {
  test("an empty value is refused once, in the same words for every key, with every other problem", () => {
    expect(problemsOf(() => parse({ "lab:vpcCidr": "", "lab:azCount": " ", "lab:natGateways": "none" }))).toEqual([
      `'lab:vpcCidr' must be ${EMPTY_RULE}, got ""`,
      `'lab:azCount' must be ${EMPTY_RULE}, got " "`,
      `'lab:natGateways' must be one of perAz, single, got "none"`,
    ]);
  });

  test("a required key given empty gets that line only, not a second 'missing' one", () => {
    expect(problemsOf(() => parse({ "lab:owner": "" }))).toEqual([`'lab:owner' must be ${EMPTY_RULE}, got ""`]);
  });

  test('`lab:vpcCidr:` with no value in a stack file reads as Pulumi reads it, "", and is refused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-empty-"));
    const file = path.join(dir, "Pulumi.empty.yaml");
    fs.writeFileSync(file, "config:\n  aws:region: us-east-1\n  lab:kind: network\n  lab:owner: alice\n  lab:vpcCidr:\n  lab:azs: null\n");
    const spec = readStackConfigFile(file);
    expect(spec.config["lab:vpcCidr"]).toBe("");
    expect(spec.config["lab:azs"]).toBe("");
    expect(problemsOf(() => parseConfig("network", networkSchema, spec.config, checkNetwork))).toEqual([
      `'lab:vpcCidr' must be ${EMPTY_RULE}, got ""`,
      `'lab:azs' must be ${EMPTY_RULE}, got ""`,
    ]);
  });
});

describe("secret values in problem lines", () => {
  test("the SDK still has the check the lines rely on (runtime/config.js isConfigSecret)", () => {
    pulumi.runtime.setAllConfig({ "lab:vpcCidr": "x" }, ["lab:vpcCidr"]);
    const f = (pulumi.runtime as unknown as { isConfigSecret?: (k: string) => boolean }).isConfigSecret;
    expect(typeof f).toBe("function");
    expect(f!("lab:vpcCidr")).toBe(true);
    expect(f!("lab:azCount")).toBe(false);
  });

  test("a secret key's value is never printed: schema, rules, unknown and misplaced keys", () => {
    const raw = {
      ...base,
      "lab:vpcCidr": "10.0.0.1/16",
      "lab:natGateways": "hunter2",
      "lab:colour": "hunter3",
      "storage-bench-lab:token": "hunter4",
      "lab:azCount": "9",
    };
    pulumi.runtime.setAllConfig(raw, ["lab:vpcCidr", "lab:natGateways", "lab:colour", "storage-bench-lab:token"]);
    const lines = problemsOf(() => parseConfig("network", networkSchema, raw, checkNetwork));
    expect(lines.join("\n")).not.toMatch(/hunter|10\.0\.0\.1/);
    expect(lines.filter((l) => l.endsWith(`got "${SECRET_SHOWN}"`))).toHaveLength(4);
    expect(lines).toContain("'lab:azCount' must be an integer from 1 to 3, got 9");
  });
});

describe("ARNs against the stack's partition and region (stacks/lib/config/arns.ts)", () => {
  test("the partition of a region is the AWS SDK's table", () => {
    expect(["us-east-1", "cn-north-1", "us-gov-west-1", "us-iso-east-1", "eu-isoe-west-1"].map(partitionOf)).toEqual([
      "aws",
      "aws-cn",
      "aws-us-gov",
      "aws-iso",
      "aws-iso-e",
    ]);
  });

  test("a boundary of another partition is refused, naming the stack's partition; one of its own passes", () => {
    const rule = "the ARN of an IAM managed policy in the stack's partition: arn:aws:iam::<account>:… (region us-east-1 is in aws)";
    expect(problemsOf(() => parse({ "lab:permissionsBoundaryArn": "arn:aws-cn:iam::123456789012:policy/lab-boundary" }))).toEqual([
      `'lab:permissionsBoundaryArn' must be ${rule}, got "arn:aws-cn:iam::123456789012:policy/lab-boundary"`,
    ]);
    expect(problemsOf(() => parse({ "lab:permissionsBoundaryArn": "arn:aws:iam::123456789012:policy/lab-boundary" }), true)).toEqual([]);
    expect(
      problemsOf(
        () =>
          parseConfig(
            "network",
            networkSchema,
            { ...base, "aws:region": "cn-north-1", "lab:permissionsBoundaryArn": "arn:aws-cn:iam::123456789012:policy/lab-boundary" },
            checkNetwork,
          ),
        true,
      ),
    ).toEqual([]);
  });

  test("a KMS key of another region, or an IAM ARN where a KMS key goes, is refused; each item of a list by index", () => {
    expect(
      arnProblems(
        {
          kmsKeyArn: "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
          adminRoleArns: ["arn:aws:iam::123456789012:role/ok", "arn:aws-us-gov:iam::123456789012:role/gov"],
        },
        "us-east-1",
      ),
    ).toEqual([
      {
        path: "adminRoleArns[1]",
        rule: "the ARN of an IAM role in the stack's partition: arn:aws:iam::<account>:… (region us-east-1 is in aws)",
        value: "arn:aws-us-gov:iam::123456789012:role/gov",
      },
      {
        path: "kmsKeyArn",
        rule: "the ARN of a KMS key in the stack's partition and region: arn:aws:kms:us-east-1:<account>:…; a key works only in its own region",
        value: "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      },
    ]);
    expect(arnProblems({ kmsKeyArn: "arn:aws:kms:us-east-1:123456789012:key/k" }, "us-east-1")).toEqual([]);
  });
});

describe("stack names as Pulumi takes them (pulumi/pulumi pkg/backend/diy/store.go ParseReference)", () => {
  test("each part at most 100 characters of letters, digits, _ . -", () => {
    const ok = ["network", "org/network", "org/storage-bench-lab/network", `o/p/${"s".repeat(100)}`];
    const bad = [`o/p/${"s".repeat(101)}`, `${"p".repeat(101)}/s`, "org//network", "a b", "o/p/s/t"];
    expect(ok.map((n) => STACK_NAME_RE.test(n))).toEqual(ok.map(() => true));
    expect(bad.map((n) => STACK_NAME_RE.test(n))).toEqual(bad.map(() => false));
  });
});
