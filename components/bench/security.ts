/**
 * The restricted Pod Security profile of the lab's Jobs (pure), stated once for the benchmark
 * Jobs (./render.ts) and the failover experiments' Jobs (lab/experiment/manifests.ts): a non-root
 * uid and gid, RuntimeDefault seccomp, no privilege escalation, all capabilities dropped, a
 * read-only root file system (the Jobs write to an emptyDir /tmp). The profile's rules:
 * kubernetes.io/docs/concepts/security/pod-security-standards/#restricted (lab/policy/pod-security.ts
 * checks them).
 */
import type { IPodSecurityContext } from "kubernetes-models/v1/PodSecurityContext";
import type { ISecurityContext } from "kubernetes-models/v1/SecurityContext";

/** The pod's security context: runs as `uid` (user and group); `fsGroup` makes a volume writable by it. */
export function restrictedPodSecurityContext(uid: number, fsGroup: boolean): IPodSecurityContext {
  return {
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: uid,
    ...(fsGroup ? { fsGroup: uid, fsGroupChangePolicy: "OnRootMismatch" } : {}),
    seccompProfile: { type: "RuntimeDefault" },
  };
}

/** A container's security context. */
export function restrictedContainerSecurityContext(): ISecurityContext {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ["ALL"] },
    readOnlyRootFilesystem: true,
    runAsNonRoot: true,
  };
}
