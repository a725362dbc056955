import { COMPUTED as PLAN_COMPUTED, SECRET as PLAN_SECRET } from "../../../lab/plan/run";
import { byId, COMPUTED, formatViolation, ruleById, RULES, RULES_BY_AREA, RULES_BY_ID, SECRET } from "../../../lab/policy/rules";
import { isTypeToken, TYPES as T } from "../../../lab/resource-types";
import { TAG_KEYS } from "../../../core/tags";

describe("the registry of policy rules", () => {
  test("the stable ids, their levels, in report order", () => {
    expect(RULES.map((r) => [r.name, r.enforcementLevel])).toEqual([
      ["sg-no-open-ingress", "mandatory"],
      ["sg-rule-description", "advisory"],
      ["ec2-imdsv2-required", "mandatory"],
      ["ebs-encrypted", "mandatory"],
      ["ebs-no-gp2", "advisory"],
      ["subnet-no-public-ip-on-launch", "mandatory"],
      ["fsx-ontap-customer-kms-key", "mandatory"],
      ["secretsmanager-customer-kms-key", "mandatory"],
      ["aws-provider-lab-tags", "mandatory"],
      ["k8s-image-pinned", "mandatory"],
      ["k8s-container-resources", "mandatory"],
      ["k8s-job-limits", "mandatory"],
      ["k8s-job-restricted-pod-security", "mandatory"],
      ["k8s-workload-restricted-pod-security", "advisory"],
    ]);
  });

  test("the areas' files and the registry hold the same rules, each once", () => {
    expect(Object.fromEntries(Object.entries(RULES_BY_AREA).map(([area, rules]) => [area, rules.map((r) => r.name)]))).toEqual({
      network: ["sg-no-open-ingress", "sg-rule-description", "subnet-no-public-ip-on-launch"],
      compute: ["ec2-imdsv2-required"],
      storage: ["ebs-encrypted", "ebs-no-gp2", "fsx-ontap-customer-kms-key", "secretsmanager-customer-kms-key"],
      tags: ["aws-provider-lab-tags"],
      kubernetes: [
        "k8s-image-pinned",
        "k8s-container-resources",
        "k8s-job-limits",
        "k8s-job-restricted-pod-security",
        "k8s-workload-restricted-pod-security",
      ],
    });
    const inAreas = Object.values(RULES_BY_AREA).flat();
    expect(inAreas.length).toBe(RULES.length);
    expect(new Set(inAreas)).toEqual(new Set(RULES));
  });

  test("by id: every rule under its own name; an unknown id is an error naming the rules", () => {
    expect(Object.keys(RULES_BY_ID)).toEqual(RULES.map((r) => r.name));
    for (const r of RULES) expect(ruleById(r.name)).toBe(r);
    expect(() => ruleById("ebs-encryption")).toThrow(
      "no policy rule 'ebs-encryption': the rules are sg-no-open-ingress, sg-rule-description, ec2-imdsv2-required, ebs-encrypted, " +
        "ebs-no-gp2, subnet-no-public-ip-on-launch, fsx-ontap-customer-kms-key, secretsmanager-customer-kms-key, aws-provider-lab-tags, " +
        "k8s-image-pinned, k8s-container-resources, k8s-job-limits, k8s-job-restricted-pod-security, k8s-workload-restricted-pod-security",
    );
    expect(() => ruleById("toString")).toThrow("no policy rule 'toString'");
  });

  test("two rules with one id are an error", () => {
    const [a, b] = RULES;
    expect(() => byId([a, b, { ...b, description: "another rule under the same id" }])).toThrow(
      "policy rule id 'sg-rule-description' is registered twice",
    );
    expect(Object.keys(byId([a, b]))).toEqual(["sg-no-open-ingress", "sg-rule-description"]);
  });

  test("ids are valid CrossGuard policy names; every rule says why and applies to tokens of the one table", () => {
    for (const r of RULES) {
      // CrossGuard: names of alphanumerics, hyphens, underscores or periods; "all" is reserved.
      expect(r.name).toMatch(/^[a-z0-9-]{1,100}$/);
      expect(r.description.length).toBeGreaterThan(40);
      expect(r.description).not.toMatch(/DESIGN\.md|lab janitor/);
      expect(r.resourceTypes.length).toBeGreaterThan(0);
      expect([r.name, r.resourceTypes.filter((t) => !isTypeToken(t))]).toEqual([r.name, []]);
    }
    expect(ruleById("k8s-job-limits").resourceTypes).toEqual([T.job, T.cronJob]);
  });

  test("the placeholders are the offline plan's, and the tag keys the lab's", () => {
    expect([COMPUTED, SECRET]).toEqual([PLAN_COMPUTED, PLAN_SECRET]);
    expect(ruleById("aws-provider-lab-tags").check({ defaultTags: { tags: {} } }, T.awsProvider)).toEqual([
      `defaultTags.tags lacks ${TAG_KEYS.join(", ")}`,
    ]);
  });

  test("a secret counts as present, like an unknown value", () => {
    expect(ruleById("fsx-ontap-customer-kms-key").check({ kmsKeyId: SECRET }, T.ontapFileSystem)).toEqual([]);
    expect(ruleById("ec2-imdsv2-required").check({ metadataOptions: { httpTokens: SECRET } }, T.instance)).toEqual([
      'metadataOptions.httpTokens must be "required", got [secret]',
    ]);
  });

  test("the one message format", () => {
    expect(formatViolation("ebs-encrypted", "ceph-osd-1", "encrypted must be true, got false")).toBe(
      "ebs-encrypted: ceph-osd-1: encrypted must be true, got false",
    );
  });
});
