/** The restricted Pod Security profile of the lab's Jobs (components/bench/security.ts), exact. */
import { restrictedContainerSecurityContext, restrictedPodSecurityContext } from "../../../components/bench/security";

describe("restricted security contexts", () => {
  test("the pod runs as the uid, RuntimeDefault seccomp; fsGroup only when asked", () => {
    expect(restrictedPodSecurityContext(1000, false)).toEqual({
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      seccompProfile: { type: "RuntimeDefault" },
    });
    expect(restrictedPodSecurityContext(999, true)).toEqual({
      runAsNonRoot: true,
      runAsUser: 999,
      runAsGroup: 999,
      fsGroup: 999,
      fsGroupChangePolicy: "OnRootMismatch",
      seccompProfile: { type: "RuntimeDefault" },
    });
  });

  test("the container: no privilege escalation, all capabilities dropped, read-only root, non-root", () => {
    expect(restrictedContainerSecurityContext()).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ["ALL"] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
    });
  });
});
