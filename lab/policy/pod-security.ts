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

/** Violations of the "restricted" Pod Security Standard by `pod`, one line each. */
export function restrictedViolations(pod: PodSpecLike): string[] {
  const v: string[] = [];
  const psc = pod.securityContext ?? {};
  const containers: Array<{ where: string; c: ContainerLike }> = [
    ...(pod.initContainers ?? []).map((c) => ({ where: `initContainers[${c.name}]`, c })),
    ...pod.containers.map((c) => ({ where: `containers[${c.name}]`, c })),
    ...(pod.ephemeralContainers ?? []).map((c) => ({ where: `ephemeralContainers[${c.name}]`, c })),
  ];

  // baseline
  if (psc.windowsOptions?.hostProcess) v.push("pod: windowsOptions.hostProcess must not be true");
  for (const ns of ["hostNetwork", "hostPID", "hostIPC"] as const) if (pod[ns]) v.push(`pod: ${ns} must not be true`);
  if (psc.seLinuxOptions) {
    if (!SELINUX_TYPES.has(psc.seLinuxOptions.type ?? "")) v.push("pod: seLinuxOptions.type not allowed");
    if (psc.seLinuxOptions.user || psc.seLinuxOptions.role) v.push("pod: seLinuxOptions.user/role must not be set");
  }
  if (psc.appArmorProfile && !CONFINED_PROFILES.includes(psc.appArmorProfile.type ?? ""))
    v.push("pod: appArmorProfile must be RuntimeDefault or Localhost");
  for (const s of psc.sysctls ?? []) if (!SAFE_SYSCTLS.has(s.name)) v.push(`pod: sysctl ${s.name} is not safe`);
  for (const vol of pod.volumes ?? []) {
    const types = Object.keys(vol).filter((k) => k !== "name");
    if (types.includes("hostPath")) v.push(`volume ${vol.name}: hostPath is forbidden`);
    for (const t of types) if (!RESTRICTED_VOLUME_TYPES.has(t)) v.push(`volume ${vol.name}: type ${t} is not allowed`);
  }

  // restricted, pod level
  const podSeccomp = psc.seccompProfile?.type;
  if (podSeccomp === "Unconfined") v.push("pod: seccompProfile must not be Unconfined");
  if (psc.runAsUser === 0) v.push("pod: runAsUser must not be 0");
  if (psc.runAsNonRoot === false) v.push("pod: runAsNonRoot must not be false");

  for (const { where, c } of containers) {
    const sc = c.securityContext ?? {};
    if (sc.windowsOptions?.hostProcess) v.push(`${where}: windowsOptions.hostProcess must not be true`);
    if (sc.privileged) v.push(`${where}: privileged must not be true`);
    for (const p of c.ports ?? []) if (p.hostPort) v.push(`${where}: hostPort ${p.hostPort} is forbidden`);
    if (sc.procMount && sc.procMount !== "Default") v.push(`${where}: procMount must be Default`);
    if (sc.seLinuxOptions) {
      if (!SELINUX_TYPES.has(sc.seLinuxOptions.type ?? "")) v.push(`${where}: seLinuxOptions.type not allowed`);
      if (sc.seLinuxOptions.user || sc.seLinuxOptions.role) v.push(`${where}: seLinuxOptions.user/role must not be set`);
    }
    if (sc.appArmorProfile && !CONFINED_PROFILES.includes(sc.appArmorProfile.type ?? ""))
      v.push(`${where}: appArmorProfile must be RuntimeDefault or Localhost`);
    if (sc.allowPrivilegeEscalation !== false) v.push(`${where}: allowPrivilegeEscalation must be false`);
    const nonRoot = sc.runAsNonRoot ?? psc.runAsNonRoot;
    if (sc.runAsNonRoot === false) v.push(`${where}: runAsNonRoot must not be false`);
    else if (nonRoot !== true) v.push(`${where}: runAsNonRoot must be true (pod or container)`);
    if (sc.runAsUser === 0) v.push(`${where}: runAsUser must not be 0`);
    const seccomp = sc.seccompProfile?.type ?? podSeccomp;
    if (seccomp === undefined || !CONFINED_PROFILES.includes(seccomp)) {
      v.push(`${where}: seccompProfile must be RuntimeDefault or Localhost (pod or container)`);
    }
    const drop = sc.capabilities?.drop ?? [];
    if (!drop.includes("ALL")) v.push(`${where}: capabilities must drop ALL`);
    for (const cap of sc.capabilities?.add ?? []) {
      if (cap !== "NET_BIND_SERVICE") v.push(`${where}: capability ${cap} must not be added`);
      if (!BASELINE_CAPS.has(cap)) v.push(`${where}: capability ${cap} is beyond baseline`);
    }
  }
  return v;
}
