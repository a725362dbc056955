/**
 * A checker of the Kubernetes Pod Security Standards, "restricted" profile (which includes
 * "baseline"), as written in https://kubernetes.io/docs/concepts/security/pod-security-standards/
 * (policy version latest). Returns one line per violation, `[]` when the pod spec complies.
 *
 * Covered, for every container, init container and ephemeral container:
 * baseline: hostProcess, host namespaces, privileged, capabilities beyond the baseline set,
 * hostPath volumes, host ports, AppArmor, SELinux, /proc mount type, seccomp Unconfined, sysctls;
 * restricted: volume types, allowPrivilegeEscalation=false, runAsNonRoot=true, runAsUser≠0,
 * seccomp RuntimeDefault or Localhost, capabilities drop ALL and add at most NET_BIND_SERVICE.
 *
 * Pure (no Kubernetes or Pulumi imports): the lab's policy rules (lab/policy/rules.ts) run it on
 * planned pod templates, the tests on rendered manifests. The types below are the fields it reads,
 * structurally compatible with kubernetes-models' `IPodSpec`.
 */

export interface SELinuxOptionsLike {
  readonly type?: string;
  readonly user?: string;
  readonly role?: string;
}

export interface SecurityContextLike {
  readonly windowsOptions?: { readonly hostProcess?: boolean };
  readonly seLinuxOptions?: SELinuxOptionsLike;
  readonly appArmorProfile?: { readonly type?: string };
  readonly seccompProfile?: { readonly type?: string };
  readonly runAsUser?: number;
  readonly runAsNonRoot?: boolean;
}

export interface PodSecurityContextLike extends SecurityContextLike {
  readonly sysctls?: ReadonlyArray<{ readonly name: string }>;
}

export interface ContainerSecurityContextLike extends SecurityContextLike {
  readonly privileged?: boolean;
  readonly procMount?: string;
  readonly allowPrivilegeEscalation?: boolean;
  readonly capabilities?: { readonly add?: readonly string[]; readonly drop?: readonly string[] };
}

export interface ContainerLike {
  readonly name: string;
  readonly ports?: ReadonlyArray<{ readonly hostPort?: number }>;
  readonly securityContext?: ContainerSecurityContextLike;
}

export interface PodSpecLike {
  readonly hostNetwork?: boolean;
  readonly hostPID?: boolean;
  readonly hostIPC?: boolean;
  readonly securityContext?: PodSecurityContextLike;
  readonly initContainers?: readonly ContainerLike[];
  readonly containers: readonly ContainerLike[];
  readonly ephemeralContainers?: readonly ContainerLike[];
  readonly volumes?: ReadonlyArray<{ readonly name: string }>;
}

const BASELINE_CAPS = new Set([
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
]);
const SAFE_SYSCTLS = new Set([
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.ip_unprivileged_port_start",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_local_reserved_ports",
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
]);
const RESTRICTED_VOLUME_TYPES = new Set([
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "persistentVolumeClaim",
  "projected",
  "secret",
]);
const SELINUX_TYPES = new Set(["", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"]);
const CONFINED_PROFILES = ["RuntimeDefault", "Localhost"];

/** Violations of the "restricted" Pod Security Standard by `pod`, one line each: the pod's, then each container's. */
export function restrictedViolations(pod: PodSpecLike): string[] {
  const psc = pod.securityContext ?? {};
  const containers: Array<{ where: string; c: ContainerLike }> = [
    ...(pod.initContainers ?? []).map((c) => ({ where: `initContainers[${c.name}]`, c })),
    ...pod.containers.map((c) => ({ where: `containers[${c.name}]`, c })),
    ...(pod.ephemeralContainers ?? []).map((c) => ({ where: `ephemeralContainers[${c.name}]`, c })),
  ];
  return [
    ...POD_CONTROLS.flatMap((control) => control(pod, psc)),
    ...containers.flatMap(({ where, c }) => CONTAINER_CONTROLS.flatMap((control) => control(where, c, c.securityContext ?? {}, psc))),
  ];
}

type PodControl = (pod: PodSpecLike, psc: PodSecurityContextLike) => string[];
type ContainerControl = (where: string, c: ContainerLike, sc: ContainerSecurityContextLike, psc: PodSecurityContextLike) => string[];

// The controls both levels have: `where` is "pod" or the container.

/** baseline, HostProcess. */
const hostProcess = (where: string, sc: SecurityContextLike): string[] =>
  sc.windowsOptions?.hostProcess ? [`${where}: windowsOptions.hostProcess must not be true`] : [];

/** baseline, SELinux: an allowed type, no user or role. */
function seLinux(where: string, sc: SecurityContextLike): string[] {
  const o = sc.seLinuxOptions;
  if (!o) return [];
  return [
    ...(SELINUX_TYPES.has(o.type ?? "") ? [] : [`${where}: seLinuxOptions.type not allowed`]),
    ...(o.user || o.role ? [`${where}: seLinuxOptions.user/role must not be set`] : []),
  ];
}

/** baseline, AppArmor. */
const appArmor = (where: string, sc: SecurityContextLike): string[] =>
  sc.appArmorProfile && !CONFINED_PROFILES.includes(sc.appArmorProfile.type ?? "")
    ? [`${where}: appArmorProfile must be RuntimeDefault or Localhost`]
    : [];

/** restricted, Running as Non-root user: runAsUser is not 0. */
const notRootUser = (where: string, sc: SecurityContextLike): string[] => (sc.runAsUser === 0 ? [`${where}: runAsUser must not be 0`] : []);

/** The controls of the pod, in the order they are reported. */
const POD_CONTROLS: readonly PodControl[] = [
  (_pod, psc) => hostProcess("pod", psc),
  /** baseline, Host Namespaces. */
  (pod) => (["hostNetwork", "hostPID", "hostIPC"] as const).filter((ns) => pod[ns]).map((ns) => `pod: ${ns} must not be true`),
  (_pod, psc) => seLinux("pod", psc),
  (_pod, psc) => appArmor("pod", psc),
  /** baseline, Sysctls: the safe set only. */
  (_pod, psc) => (psc.sysctls ?? []).filter((s) => !SAFE_SYSCTLS.has(s.name)).map((s) => `pod: sysctl ${s.name} is not safe`),
  /** baseline, HostPath Volumes; restricted, Volume Types. */
  (pod) =>
    (pod.volumes ?? []).flatMap((vol) => {
      const types = Object.keys(vol).filter((k) => k !== "name");
      return [
        ...(types.includes("hostPath") ? [`volume ${vol.name}: hostPath is forbidden`] : []),
        ...types.filter((t) => !RESTRICTED_VOLUME_TYPES.has(t)).map((t) => `volume ${vol.name}: type ${t} is not allowed`),
      ];
    }),
  /** baseline, Seccomp: not Unconfined. */
  (_pod, psc) => (psc.seccompProfile?.type === "Unconfined" ? ["pod: seccompProfile must not be Unconfined"] : []),
  (_pod, psc) => notRootUser("pod", psc),
  /** restricted, Running as Non-root: not false on the pod (each container checks it is true). */
  (_pod, psc) => (psc.runAsNonRoot === false ? ["pod: runAsNonRoot must not be false"] : []),
];

/** The controls of each container, in the order they are reported. */
const CONTAINER_CONTROLS: readonly ContainerControl[] = [
  (where, _c, sc) => hostProcess(where, sc),
  /** baseline, Privileged Containers. */
  (where, _c, sc) => (sc.privileged ? [`${where}: privileged must not be true`] : []),
  /** baseline, Host Ports. */
  (where, c) => (c.ports ?? []).filter((p) => p.hostPort).map((p) => `${where}: hostPort ${p.hostPort} is forbidden`),
  /** baseline, /proc Mount Type. */
  (where, _c, sc) => (sc.procMount && sc.procMount !== "Default" ? [`${where}: procMount must be Default`] : []),
  (where, _c, sc) => seLinux(where, sc),
  (where, _c, sc) => appArmor(where, sc),
  /** restricted, Privilege Escalation. */
  (where, _c, sc) => (sc.allowPrivilegeEscalation !== false ? [`${where}: allowPrivilegeEscalation must be false`] : []),
  /** restricted, Running as Non-root: true on the container or the pod, false on neither. */
  (where, _c, sc, psc) => {
    if (sc.runAsNonRoot === false) return [`${where}: runAsNonRoot must not be false`];
    return (sc.runAsNonRoot ?? psc.runAsNonRoot) !== true ? [`${where}: runAsNonRoot must be true (pod or container)`] : [];
  },
  (where, _c, sc) => notRootUser(where, sc),
  /** restricted, Seccomp: RuntimeDefault or Localhost on the container or the pod. */
  (where, _c, sc, psc) => {
    const seccomp = sc.seccompProfile?.type ?? psc.seccompProfile?.type;
    return seccomp === undefined || !CONFINED_PROFILES.includes(seccomp)
      ? [`${where}: seccompProfile must be RuntimeDefault or Localhost (pod or container)`]
      : [];
  },
  /** restricted, Capabilities: drop ALL, add at most NET_BIND_SERVICE (and baseline: nothing beyond its set). */
  (where, _c, sc) => [
    ...((sc.capabilities?.drop ?? []).includes("ALL") ? [] : [`${where}: capabilities must drop ALL`]),
    ...(sc.capabilities?.add ?? []).flatMap((cap) => [
      ...(cap !== "NET_BIND_SERVICE" ? [`${where}: capability ${cap} must not be added`] : []),
      ...(BASELINE_CAPS.has(cap) ? [] : [`${where}: capability ${cap} is beyond baseline`]),
    ]),
  ],
];
