/**
 * The Pod Security Standards "restricted" checker for tests, typed for kubernetes-models' pod
 * specs. The one implementation lives in lab/policy/pod-security.ts, where the lab's policy rules
 * (`lab plan --policy`, the CrossGuard pack) use it too.
 */
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { restrictedViolations as check } from "../../lab/policy/pod-security";

/** Violations of the "restricted" Pod Security Standard by `pod`, one line each. */
export function restrictedViolations(pod: IPodSpec): string[] {
  return check(pod);
}
