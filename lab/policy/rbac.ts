/**
 * Policy rules of Kubernetes RBAC: the Roles and ClusterRoles the lab creates (components/lib/rbac.ts
 * renders them: the collectors' and the experiments' narrow identities). Pure (see ./rule.ts for how
 * rules read inputs and unknown values).
 */
import { TYPES as T } from "../resource-types";
import { controls, defineRule, isObj, isOpaque, mirrors, shown } from "./rule";

/** Checkov WildcardRoles.py (Role, ClusterRole; CIS Kubernetes 5.1.3). */
const WILDCARDS = controls(["CKV_K8S_49"]);

/** Verbs that grant more than their words: `escalate`, `bind` and `impersonate` hand out permissions the holder lacks. */
const ESCALATING_VERBS = ["escalate", "bind", "impersonate"];

export const k8sRbacNoWildcards = defineRule({
  name: "k8s-rbac-no-wildcards",
  description:
    "Roles and ClusterRoles the lab creates list exactly what they allow: no `*` in apiGroups, resources, verbs or " +
    "resourceNames, no nonResourceURLs, none of the escalating verbs (escalate, bind, impersonate), and rules known " +
    "before deploy. A wildcard grows with every resource the cluster learns (a CRD, a subresource). " +
    mirrors(WILDCARDS),
  enforcementLevel: "mandatory",
  controls: WILDCARDS,
  resourceTypes: [T.role, T.clusterRole],
  check(inputs) {
    const rules = inputs.rules;
    if (isOpaque(rules)) return ["rules must be known before deploy"];
    if (!Array.isArray(rules)) return isObj(inputs.aggregationRule) ? ["an aggregated ClusterRole: list its rules instead"] : [];
    return rules.flatMap((rule, i) => {
      if (!isObj(rule)) return [`rules[${i}] must be known before deploy, got ${shown(rule)}`];
      const out: string[] = [];
      for (const field of ["apiGroups", "resources", "verbs", "resourceNames"]) {
        const list = rule[field];
        if (isOpaque(list) || (Array.isArray(list) && list.some(isOpaque))) out.push(`rules[${i}].${field} must be known before deploy`);
        else if (Array.isArray(list) && list.includes("*")) out.push(`rules[${i}].${field} has "*": list exactly what is used`);
      }
      const verbs = Array.isArray(rule.verbs) ? rule.verbs : [];
      const escalating = verbs.filter((v) => ESCALATING_VERBS.includes(String(v)));
      if (escalating.length > 0) out.push(`rules[${i}].verbs has ${escalating.join(", ")}: the lab's identities never grant permissions`);
      if (rule.nonResourceURLs !== undefined) out.push(`rules[${i}] has nonResourceURLs: the lab's identities call resource APIs only`);
      return out;
    });
  },
});

/** The RBAC area's rules. */
export const RBAC_RULES = [k8sRbacNoWildcards] as const;
