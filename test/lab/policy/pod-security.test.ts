import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { restrictedViolations } from "../../helpers/podSecurity";

const GOOD: IPodSpec = {
  securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: "RuntimeDefault" } },
  containers: [
    {
      name: "app",
      image: "app:1",
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"], add: ["NET_BIND_SERVICE"] } },
    },
  ],
  volumes: [
    { name: "data", persistentVolumeClaim: { claimName: "d" } },
    { name: "tmp", emptyDir: {} },
  ],
};

describe("restrictedViolations (Pod Security Standards, restricted)", () => {
  it("accepts a compliant pod", () => {
    expect(restrictedViolations(GOOD)).toEqual([]);
  });

  it("accepts container-level settings in place of pod-level ones", () => {
    expect(
      restrictedViolations({
        containers: [
          {
            name: "app",
            securityContext: {
              runAsNonRoot: true,
              seccompProfile: { type: "Localhost", localhostProfile: "p.json" },
              allowPrivilegeEscalation: false,
              capabilities: { drop: ["ALL"] },
            },
          },
        ],
      }),
    ).toEqual([]);
  });

  it("reports every violation of a bad pod", () => {
    const bad: IPodSpec = {
      hostNetwork: true,
      hostPID: true,
      securityContext: { runAsUser: 0, seccompProfile: { type: "Unconfined" }, sysctls: [{ name: "kernel.msgmax", value: "1" }] },
      initContainers: [{ name: "init", securityContext: { privileged: true, allowPrivilegeEscalation: true } }],
      containers: [
        {
          name: "app",
          ports: [{ containerPort: 80, hostPort: 80 }],
          securityContext: { runAsNonRoot: false, capabilities: { add: ["SYS_ADMIN"] }, procMount: "Unmasked" },
        },
      ],
      volumes: [{ name: "host", hostPath: { path: "/" } }],
    };
    expect(restrictedViolations(bad)).toEqual([
      "pod: hostNetwork must not be true",
      "pod: hostPID must not be true",
      "pod: sysctl kernel.msgmax is not safe",
      "volume host: hostPath is forbidden",
      "volume host: type hostPath is not allowed",
      "pod: seccompProfile must not be Unconfined",
      "pod: runAsUser must not be 0",
      "initContainers[init]: privileged must not be true",
      "initContainers[init]: allowPrivilegeEscalation must be false",
      "initContainers[init]: runAsNonRoot must be true (pod or container)",
      "initContainers[init]: seccompProfile must be RuntimeDefault or Localhost (pod or container)",
      "initContainers[init]: capabilities must drop ALL",
      "containers[app]: hostPort 80 is forbidden",
      "containers[app]: procMount must be Default",
      "containers[app]: allowPrivilegeEscalation must be false",
      "containers[app]: runAsNonRoot must not be false",
      "containers[app]: seccompProfile must be RuntimeDefault or Localhost (pod or container)",
      "containers[app]: capabilities must drop ALL",
      "containers[app]: capability SYS_ADMIN must not be added",
      "containers[app]: capability SYS_ADMIN is beyond baseline",
    ]);
  });

  it("a pod without any security context fails on every restricted rule", () => {
    expect(restrictedViolations({ containers: [{ name: "c" }] })).toEqual([
      "containers[c]: allowPrivilegeEscalation must be false",
      "containers[c]: runAsNonRoot must be true (pod or container)",
      "containers[c]: seccompProfile must be RuntimeDefault or Localhost (pod or container)",
      "containers[c]: capabilities must drop ALL",
    ]);
  });
});
