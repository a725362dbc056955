import * as fs from "node:fs";
import * as path from "node:path";
import { TAG_KEYS } from "../../../core/tags";
import { COMPUTED as PLAN_COMPUTED, SECRET as PLAN_SECRET } from "../../../lab/plan/run";
import {
  ALL_RULES,
  byId,
  COMPUTED,
  formatViolation,
  mirrors,
  resourceRuleById,
  ruleById,
  RULES,
  RULES_BY_AREA,
  RULES_BY_ID,
  PLAN_RULES,
  SECRET,
  STACK_RULES,
} from "../../../lab/policy/rules";
import { isTypeToken, TYPES as T } from "../../../lab/resource-types";
import { ROOT } from "../../helpers/root";

/**
 * Every rule, its level and the scanners' controls it mirrors, as checked in the scanners' sources:
 * Checkov (bridgecrewio/checkov 03d5fdad, `id = "<id>"` in checkov/terraform/checks/resource/aws/ and
 * checkov/kubernetes/checks/resource/k8s/: EKSPublicAccessCIDR.py CKV_AWS_38, EKSSecretsEncryption.py
 * CKV_AWS_58, EKSControlPlaneLogging.py CKV_AWS_37, IMDSv1Disabled.py CKV_AWS_79, KMSRotation.py
 * CKV_AWS_7, IAMAdminPolicyDocument.py CKV_AWS_62, IAMStarActionPolicyDocument.py CKV_AWS_63,
 * IAMStarResourcePolicyDocument.py CKV_AWS_355, IAMWriteAccess.py CKV_AWS_290, ECRImageScanning.py
 * CKV_AWS_163, ECRImmutableTags.py CKV_AWS_51, CloudWatchLogGroupRetention.py CKV_AWS_66,
 * CloudWatchLogGroupKMSKey.py CKV_AWS_158, PrivilegedContainers.py CKV_K8S_16, ShareHostPID.py
 * CKV_K8S_17, ShareHostIPC.py CKV_K8S_18, SharedHostNetworkNamespace.py CKV_K8S_19,
 * DefaultNamespace.py CKV_K8S_21, LivenessProbe.py CKV_K8S_8, ReadinessProbe.py CKV_K8S_9,
 * SecurityGroupUnrestrictedIngress22/3389/80/Any.py CKV_AWS_24/25/260/277, SecurityGroupRuleDescription.py
 * CKV_AWS_23, EBSEncryption.py CKV_AWS_3, LaunchConfigurationEBSEncryption.py CKV_AWS_8,
 * SubnetPublicIP.py CKV_AWS_130, FSXOntapFSEncryptedWithCMK.py CKV_AWS_178,
 * SecretManagerSecretEncrypted.py CKV_AWS_149, CPURequests/CPULimits/MemoryRequests/MemoryLimits.py
 * CKV_K8S_10–13, ImageTagFixed.py CKV_K8S_14, ImageDigest.py CKV_K8S_43, AllowPrivilegeEscalation.py
 * CKV_K8S_20, RootContainers.py CKV_K8S_23, DropCapabilities.py CKV_K8S_28, Seccomp.py CKV_K8S_31,
 * MinimizeCapabilities.py CKV_K8S_37) and Trivy (aquasecurity/trivy-checks 80e53822, `id:` in the
 * METADATA of checks/cloud/aws/** and checks/kubernetes/*.rego).
 */
const EXPECTED: ReadonlyArray<[string, "mandatory" | "advisory", string[], string[]]> = [
  ["sg-no-open-ingress", "mandatory", ["CKV_AWS_24", "CKV_AWS_25", "CKV_AWS_260", "CKV_AWS_277"], ["AWS-0107"]],
  ["sg-rule-description", "advisory", ["CKV_AWS_23"], ["AWS-0099", "AWS-0124"]],
  ["ec2-imdsv2-required", "mandatory", ["CKV_AWS_79"], ["AWS-0028", "AWS-0130"]],
  ["ebs-encrypted", "mandatory", ["CKV_AWS_3", "CKV_AWS_8"], ["AWS-0026", "AWS-0131"]],
  ["ebs-no-gp2", "advisory", [], []],
  ["subnet-no-public-ip-on-launch", "mandatory", ["CKV_AWS_130"], ["AWS-0164"]],
  ["fsx-ontap-customer-kms-key", "mandatory", ["CKV_AWS_178"], []],
  ["secretsmanager-customer-kms-key", "mandatory", ["CKV_AWS_149"], ["AWS-0098"]],
  ["aws-provider-lab-tags", "mandatory", [], []],
  // Not CKV_K8S_43 (ImageDigest.py: a digest on every image): the rule accepts version tags.
  ["k8s-image-pinned", "mandatory", ["CKV_K8S_14"], ["KSV-0013"]],
  [
    "k8s-container-resources",
    "mandatory",
    ["CKV_K8S_10", "CKV_K8S_11", "CKV_K8S_12", "CKV_K8S_13"],
    ["KSV-0011", "KSV-0015", "KSV-0016", "KSV-0018"],
  ],
  ["k8s-job-limits", "mandatory", [], []],
  [
    "k8s-job-restricted-pod-security",
    "mandatory",
    ["CKV_K8S_20", "CKV_K8S_23", "CKV_K8S_28", "CKV_K8S_31", "CKV_K8S_37"],
    ["KSV-0001", "KSV-0003", "KSV-0012", "KSV-0030"],
  ],
  [
    "k8s-workload-restricted-pod-security",
    "advisory",
    ["CKV_K8S_20", "CKV_K8S_23", "CKV_K8S_28", "CKV_K8S_31", "CKV_K8S_37"],
    ["KSV-0001", "KSV-0003", "KSV-0012", "KSV-0030"],
  ],
  ["eks-public-endpoint-restricted", "mandatory", ["CKV_AWS_38"], ["AWS-0041"]],
  ["eks-secrets-encryption", "mandatory", ["CKV_AWS_58"], ["AWS-0039"]],
  ["eks-control-plane-logging", "mandatory", ["CKV_AWS_37"], ["AWS-0038"]],
  ["eks-node-group-imdsv2", "mandatory", ["CKV_AWS_79"], ["AWS-0130"]],
  ["kms-key-rotation", "mandatory", ["CKV_AWS_7"], ["AWS-0065"]],
  ["iam-no-wildcard-actions", "mandatory", ["CKV_AWS_62", "CKV_AWS_63"], []],
  ["iam-no-wildcard-resources", "mandatory", ["CKV_AWS_355", "CKV_AWS_290"], []],
  ["ecr-scan-on-push", "mandatory", ["CKV_AWS_163"], ["AWS-0030"]],
  ["ecr-immutable-tags", "mandatory", ["CKV_AWS_51"], ["AWS-0031"]],
  ["log-group-retention", "mandatory", ["CKV_AWS_66"], []],
  ["log-group-kms", "mandatory", ["CKV_AWS_158"], ["AWS-0017"]],
  [
    "k8s-privileged-namespaces",
    "mandatory",
    ["CKV_K8S_16", "CKV_K8S_17", "CKV_K8S_18", "CKV_K8S_19"],
    ["KSV-0017", "KSV-0010", "KSV-0008", "KSV-0009", "KSV-0023"],
  ],
  ["k8s-no-default-namespace", "mandatory", ["CKV_K8S_21"], ["KSV-0110"]],
  ["k8s-namespace-pod-security", "mandatory", [], []],
  ["k8s-probes", "mandatory", ["CKV_K8S_8", "CKV_K8S_9"], []],
  ["command-delete-no-triggers", "mandatory", [], []],
  ["iam-role-trust-conditions", "mandatory", [], []],
  ["iam-role-lab-path", "mandatory", [], []],
  ["ec2-no-public-ip", "mandatory", ["CKV_AWS_88"], []],
  ["sg-no-all-egress-to-internet", "mandatory", ["CKV_AWS_382"], []],
  ["k8s-rbac-no-wildcards", "mandatory", ["CKV_K8S_49"], []],
  ["k0s-secrets-encryption", "mandatory", ["CKV_K8S_104"], ["KCV-0030"]],
  ["k0sctl-ssh-verified", "mandatory", [], []],
  ["k8s-no-csi-inline-volumes", "mandatory", [], []],
  ["ec2-no-public-ip-eip", "mandatory", [], []],
  ["k8s-service-network-policy", "mandatory", [], []],
  ["stack-outputs-secret", "mandatory", [], []],
  ["stack-outputs-no-passwords", "mandatory", [], []],
  ["stack-outputs-no-private-key", "mandatory", [], []],
];

describe("the registry of policy rules", () => {
  test("the stable ids, their levels and the controls they mirror, in report order: at least 26", () => {
    expect(ALL_RULES.map((r) => [r.name, r.enforcementLevel, [...r.controls.checkov], [...r.controls.trivy]])).toEqual(EXPECTED);
    expect(ALL_RULES.length).toBeGreaterThanOrEqual(26);
    expect(ALL_RULES).toEqual([...RULES, ...PLAN_RULES, ...STACK_RULES]);
  });

  test("the areas' files and the registry hold the same rules, each once", () => {
    expect(Object.fromEntries(Object.entries(RULES_BY_AREA).map(([area, rules]) => [area, rules.map((r) => r.name)]))).toEqual({
      network: ["sg-no-open-ingress", "sg-rule-description", "subnet-no-public-ip-on-launch", "sg-no-all-egress-to-internet"],
      compute: ["ec2-imdsv2-required", "ec2-no-public-ip", "ec2-no-public-ip-eip"],
      storage: ["ebs-encrypted", "ebs-no-gp2", "fsx-ontap-customer-kms-key", "secretsmanager-customer-kms-key", "kms-key-rotation"],
      tags: ["aws-provider-lab-tags"],
      kubernetes: [
        "k8s-image-pinned",
        "k8s-container-resources",
        "k8s-job-limits",
        "k8s-job-restricted-pod-security",
        "k8s-workload-restricted-pod-security",
        "k8s-privileged-namespaces",
        "k8s-no-default-namespace",
        "k8s-namespace-pod-security",
        "k8s-probes",
        "k8s-no-csi-inline-volumes",
        "k8s-service-network-policy",
      ],
      rbac: ["k8s-rbac-no-wildcards"],
      eks: ["eks-public-endpoint-restricted", "eks-secrets-encryption", "eks-control-plane-logging", "eks-node-group-imdsv2"],
      iam: ["iam-no-wildcard-actions", "iam-no-wildcard-resources", "iam-role-trust-conditions", "iam-role-lab-path"],
      ecr: ["ecr-scan-on-push", "ecr-immutable-tags"],
      logs: ["log-group-retention", "log-group-kms"],
      lifecycle: ["command-delete-no-triggers"],
      k0s: ["k0s-secrets-encryption", "k0sctl-ssh-verified"],
      outputs: ["stack-outputs-secret", "stack-outputs-no-passwords", "stack-outputs-no-private-key"],
    });
    const inAreas = Object.values(RULES_BY_AREA).flat();
    expect(inAreas.length).toBe(ALL_RULES.length);
    expect(new Set(inAreas)).toEqual(new Set(ALL_RULES));
  });

  test("by id: every rule under its own name; an unknown id is an error naming the rules", () => {
    expect(Object.keys(RULES_BY_ID)).toEqual(ALL_RULES.map((r) => r.name));
    for (const r of ALL_RULES) expect(ruleById(r.name)).toBe(r);
    expect(() => ruleById("ebs-encryption")).toThrow(
      `no policy rule 'ebs-encryption': the rules are ${EXPECTED.map(([id]) => id).join(", ")}`,
    );
    expect(() => ruleById("toString")).toThrow("no policy rule 'toString'");
  });

  test("resource rules by id: a stack rule is not one", () => {
    expect(resourceRuleById("kms-key-rotation").resourceTypes).toEqual([T.kmsKey]);
    expect(() => resourceRuleById("stack-outputs-secret")).toThrow(
      `no resource policy rule 'stack-outputs-secret': the resource rules are ${RULES.map((r) => r.name).join(", ")}`,
    );
  });

  test("two rules with one id are an error", () => {
    const [a, b] = RULES;
    expect(() => byId([a, b, { ...b, description: "another rule under the same id" }])).toThrow(
      "policy rule id 'sg-rule-description' is registered twice",
    );
    expect(Object.keys(byId([a, b]))).toEqual(["sg-no-open-ingress", "sg-rule-description"]);
  });

  test("ids are valid CrossGuard policy names; every rule says why, ends naming its controls, applies to tokens of the one table", () => {
    for (const r of ALL_RULES) {
      // CrossGuard: names of alphanumerics, hyphens, underscores or periods; "all" is reserved.
      expect(r.name).toMatch(/^[a-z0-9-]{1,100}$/);
      expect(r.description.length).toBeGreaterThan(80);
      expect(r.description.endsWith(` ${mirrors(r.controls)}`)).toBe(true);
      expect([r.name, r.controls.checkov.filter((c) => !/^CKV_(AWS|K8S)_\d+$/.test(c))]).toEqual([r.name, []]);
      expect([r.name, r.controls.trivy.filter((c) => !/^(AWS|KSV|KCV)-\d{4}$/.test(c))]).toEqual([r.name, []]);
      expect(r.description).not.toMatch(/DESIGN\.md|lab janitor/);
    }
    for (const r of RULES) {
      expect(r.resourceTypes.length).toBeGreaterThan(0);
      expect([r.name, r.resourceTypes.filter((t) => !isTypeToken(t))]).toEqual([r.name, []]);
    }
    expect(resourceRuleById("k8s-job-limits").resourceTypes).toEqual([T.job, T.cronJob]);
  });

  test("the placeholders are the offline plan's, and the tag keys the lab's", () => {
    expect([COMPUTED, SECRET]).toEqual([PLAN_COMPUTED, PLAN_SECRET]);
    expect(resourceRuleById("aws-provider-lab-tags").check({ defaultTags: { tags: {} } }, T.awsProvider)).toEqual([
      `defaultTags.tags lacks ${TAG_KEYS.join(", ")}: build the provider with stacks/lib labAwsProvider`,
    ]);
  });

  test("a secret counts as present, like an unknown value", () => {
    expect(resourceRuleById("fsx-ontap-customer-kms-key").check({ kmsKeyId: SECRET }, T.ontapFileSystem)).toEqual([]);
    expect(resourceRuleById("ec2-imdsv2-required").check({ metadataOptions: { httpTokens: SECRET } }, T.instance)).toEqual([
      'metadataOptions.httpTokens must be "required", got [secret]',
    ]);
  });

  test("docs/policy.md lists every rule, its level and the controls it mirrors, and no other rule", () => {
    const readme = fs.readFileSync(path.join(ROOT, "docs", "policy.md"), "utf8");
    const section = readme.slice(readme.indexOf("**Policy** (`lab/policy/`)"), readme.indexOf("pulumi preview --policy-pack"));
    expect(section.startsWith(`**Policy** (\`lab/policy/\`): ${ALL_RULES.length} rules`)).toBe(true);
    const rows = section.split("\n").filter((l) => l.startsWith("| `"));
    expect(rows.map((r) => /^\| `([a-z0-9-]+)`/.exec(r)?.[1])).toEqual(ALL_RULES.map((r) => r.name));
    ALL_RULES.forEach((rule, i) => {
      const [, , mirrored] = rows[i].split(" | ");
      const ids = [...rule.controls.checkov, ...rule.controls.trivy];
      expect([rule.name, rows[i].includes("(advisory)")]).toEqual([rule.name, rule.enforcementLevel === "advisory"]);
      expect([rule.name, mirrored.replace(/ \|$/, "")]).toEqual([
        rule.name,
        ids.length === 0 ? "the lab's own" : [rule.controls.checkov.join(", "), rule.controls.trivy.join(", ")].filter((x) => x).join("; "),
      ]);
    });
  });

  test("the one message format", () => {
    expect(formatViolation("ebs-encrypted", "ceph-osd-1", "encrypted must be true, got false")).toBe(
      "ebs-encrypted: ceph-osd-1: encrypted must be true, got false",
    );
  });
});
