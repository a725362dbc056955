import { k8sRbacNoWildcards } from "../../../lab/policy/rbac";
import { COMPUTED } from "../../../lab/policy/rule";
import { accessManifests } from "../../../components/lib/rbac";
import { experimentGrants } from "../../../stacks/fsx-eks/experiment-access";

const check = (inputs: Record<string, unknown>) => k8sRbacNoWildcards.check(inputs, "kubernetes:rbac.authorization.k8s.io/v1:Role");

describe("k8s-rbac-no-wildcards", () => {
  test("compliant: the experiments' Roles and ClusterRoles as the stack renders them", () => {
    for (const grant of Object.values(experimentGrants("mysql", "bench"))) {
      const m = accessManifests(grant);
      for (const role of [...m.roles, m.clusterRole!]) expect(check(role as unknown as Record<string, unknown>)).toEqual([]);
    }
  });

  test("non-compliant: wildcards, escalating verbs, nonResourceURLs, rules unknown before deploy; each named", () => {
    expect(
      check({
        rules: [
          { apiGroups: ["*"], resources: ["pods"], verbs: ["get"] },
          { apiGroups: [""], resources: ["*"], verbs: ["*"] },
          { apiGroups: ["rbac.authorization.k8s.io"], resources: ["roles"], verbs: ["bind", "escalate"] },
          { apiGroups: [""], resources: ["pods"], verbs: ["get"], resourceNames: ["*"] },
          { nonResourceURLs: ["/metrics"], verbs: ["get"] },
          { apiGroups: [""], resources: [COMPUTED], verbs: ["get"] },
          COMPUTED,
        ],
      }),
    ).toEqual([
      'rules[0].apiGroups has "*": list exactly what is used',
      'rules[1].resources has "*": list exactly what is used',
      'rules[1].verbs has "*": list exactly what is used',
      "rules[2].verbs has bind, escalate: the lab's identities never grant permissions",
      'rules[3].resourceNames has "*": list exactly what is used',
      "rules[4] has nonResourceURLs: the lab's identities call resource APIs only",
      "rules[5].resources must be known before deploy",
      "rules[6] must be known before deploy, got <computed>",
    ]);
    expect(check({ rules: COMPUTED })).toEqual(["rules must be known before deploy"]);
    expect(check({ aggregationRule: { clusterRoleSelectors: [] } })).toEqual(["an aggregated ClusterRole: list its rules instead"]);
  });
});
