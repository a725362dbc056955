/**
 * Policy rules of k0s clusters installed by k0sctl (components/k0s), read from the k0sctl config the
 * install Command carries in its environment (`LAB_K0SCTL_CONFIG`, the YAML k0sctl reads on stdin):
 * the plan sees the whole config, so these rules judge what k0sctl will be asked to do. A Command
 * without that variable is not a k0sctl Command and passes. Pure (see ./rule.ts for how rules read
 * inputs and unknown values; the config is a value that must be known: unknown is a violation).
 */
import YAML from "yaml";
import { TYPES as T } from "../resource-types";
import { controls, defineRule, dig, isObj, isOpaque, mirrors, Obj, shown } from "./rule";

/** The environment variable of the lab's k0sctl Commands that holds the k0sctl config. */
export const K0SCTL_CONFIG_VARIABLE = "LAB_K0SCTL_CONFIG";
/** The environment variable that holds the known_hosts content k0sctl.sh writes to a file. */
export const KNOWN_HOSTS_VARIABLE = "LAB_SSH_KNOWN_HOSTS";

/** The k0sctl config of a Command: undefined when it has none, else the parsed Cluster or what is wrong with it. */
function k0sctlConfigOf(inputs: Record<string, unknown>): { config: Obj } | { problem: string } | undefined {
  const env = inputs.environment;
  if (!isObj(env)) return undefined;
  const raw = env[K0SCTL_CONFIG_VARIABLE];
  if (raw === undefined) return undefined;
  if (isOpaque(raw)) return { problem: `environment.${K0SCTL_CONFIG_VARIABLE} must be known before deploy, got ${raw}` };
  if (typeof raw !== "string")
    return { problem: `environment.${K0SCTL_CONFIG_VARIABLE} must be a k0sctl config (YAML), got ${shown(raw)}` };
  let parsed: unknown;
  try {
    parsed = YAML.parse(raw);
  } catch (e) {
    return { problem: `environment.${K0SCTL_CONFIG_VARIABLE} must be a k0sctl config (YAML): ${(e as Error).message.split("\n")[0]}` };
  }
  if (!isObj(parsed) || parsed.apiVersion !== "k0sctl.k0sproject.io/v1beta1" || parsed.kind !== "Cluster")
    return {
      problem: `environment.${K0SCTL_CONFIG_VARIABLE} must be a k0sctl Cluster (apiVersion k0sctl.k0sproject.io/v1beta1), got ${shown(isObj(parsed) ? parsed.apiVersion : parsed)}`,
    };
  return { config: parsed };
}

function hostsOf(config: Obj): Obj[] {
  const hosts = dig(config, ["spec", "hosts"]);
  return Array.isArray(hosts) ? hosts.filter(isObj) : [];
}

/** Trivy's Kubernetes CIS checks (trivy-checks checks/kubernetes/cisbenchmarks/apiserver, `KCV0030`); Checkov CKV_K8S_104. */
export const K0S_ENCRYPTION = controls(["CKV_K8S_104"], ["KCV-0030"]);

export const k0sSecretsEncryption = defineRule({
  name: "k0s-secrets-encryption",
  description:
    "A k0s cluster installed by k0sctl encrypts Secrets at rest: its ClusterConfig sets the API server's " +
    "`encryption-provider-config` (`spec.api.extraArgs`; k0s passes them to kube-apiserver, docs/configuration.md) " +
    'and every controller gets that file from k0sctl (`spec.hosts[*].files`, `dst` the same path, `perm` "0600" or ' +
    '"0400"): k0s has no encryption at rest of its own (docs/cis_benchmark.md, 1.2.33). Read from the install ' +
    `Command's \`${K0SCTL_CONFIG_VARIABLE}\` (components/k0s). ` +
    mirrors(K0S_ENCRYPTION),
  enforcementLevel: "mandatory",
  controls: K0S_ENCRYPTION,
  resourceTypes: [T.localCommand],
  check(inputs) {
    const found = k0sctlConfigOf(inputs);
    if (found === undefined) return [];
    if ("problem" in found) return [found.problem];
    const argsPath = ["spec", "k0s", "config", "spec", "api", "extraArgs", "encryption-provider-config"];
    const file = dig(found.config, argsPath);
    if (typeof file !== "string" || file.trim() === "")
      return [`${argsPath.join(".")} must name the API server's EncryptionConfiguration file, got ${shown(file)}`];
    const out: string[] = [];
    hostsOf(found.config).forEach((h, i) => {
      if (typeof h.role !== "string" || (!h.role.startsWith("controller") && h.role !== "single")) return;
      const files = Array.isArray(h.files) ? h.files.filter(isObj) : [];
      const upload = files.find((f) => f.dst === file);
      if (upload === undefined)
        out.push(`spec.hosts[${i}] (${h.role}) must get ${file} from k0sctl (spec.hosts[*].files dst), got no such file`);
      else if (upload.perm !== "0600" && upload.perm !== "0400")
        out.push(
          `spec.hosts[${i}].files[${files.indexOf(upload)}].perm must be "0600" or "0400" (the file holds the key), got ${shown(upload.perm)}`,
        );
    });
    return out;
  },
});

/** The lab's own: no scanner reads k0sctl configs. */
export const K0SCTL_SSH = controls([]);

/** What every connection's `options` must hold (components/k0s/ssh.ts `sshOptions`): the known_hosts read-only, strictly. */
function optionProblems(where: string, conn: Obj): string[] {
  const options = isObj(conn.options) ? conn.options : {};
  const out: string[] = [];
  const strict = options.StrictHostKeyChecking;
  if (strict !== true && strict !== "yes") out.push(`${where}.options.StrictHostKeyChecking must be true (yes), got ${shown(strict)}`);
  if (options.UserKnownHostsFile !== "none")
    out.push(
      `${where}.options.UserKnownHostsFile must be "none" (k0sctl would add unknown hosts to it), got ${shown(options.UserKnownHostsFile)}`,
    );
  const global = options.GlobalKnownHostsFile;
  if (typeof global !== "string" || global.trim() === "")
    out.push(`${where}.options.GlobalKnownHostsFile must name the lab's known_hosts (read-only), got ${shown(global)}`);
  return out;
}

export const k0sctlSshVerified = defineRule({
  name: "k0sctl-ssh-verified",
  description:
    "k0sctl verifies every host key against a known_hosts it only reads, and the bastion hop has a key of its own. " +
    "Every host's `ssh` and its `bastion` set `options` StrictHostKeyChecking yes, UserKnownHostsFile none and " +
    "GlobalKnownHostsFile (k0sctl's SSH client, k0sproject/rig v2 protocol/ssh/connection.go, appends unknown hosts to " +
    "SSH_KNOWN_HOSTS and to the user file and refuses them only from the global one); SSH_KNOWN_HOSTS is not in the " +
    "Command's environment; the bastion's keyPath is set and differs from the host's; when the Command passes the " +
    `known_hosts as \`${KNOWN_HOSTS_VARIABLE}\` (components/k0s), it has a key for every address the config connects to. ` +
    mirrors(K0SCTL_SSH),
  enforcementLevel: "mandatory",
  controls: K0SCTL_SSH,
  resourceTypes: [T.localCommand],
  check(inputs) {
    const found = k0sctlConfigOf(inputs);
    if (found === undefined) return [];
    if ("problem" in found) return [found.problem];
    const env = inputs.environment as Obj;
    const out: string[] = [];
    if (env.SSH_KNOWN_HOSTS !== undefined)
      out.push(
        `environment.SSH_KNOWN_HOSTS must be absent (k0sctl would read it first and trust new hosts on first use), got ${shown(env.SSH_KNOWN_HOSTS)}`,
      );
    const known = env[KNOWN_HOSTS_VARIABLE];
    const knownAddresses =
      typeof known === "string" && !isOpaque(known)
        ? new Set(
            known
              .split("\n")
              .map((l) => l.trim())
              .filter((l) => l !== "" && !l.startsWith("#"))
              .flatMap((l) => l.split(/\s+/)[0].split(",")),
          )
        : undefined;
    const needsKey = (where: string, address: unknown) => {
      if (knownAddresses !== undefined && typeof address === "string" && !isOpaque(address) && !knownAddresses.has(address))
        out.push(`environment.${KNOWN_HOSTS_VARIABLE} has no host key for ${address} (${where}.address)`);
    };
    hostsOf(found.config).forEach((h, i) => {
      const where = `spec.hosts[${i}].ssh`;
      if (!isObj(h.ssh)) {
        out.push(`${where} must be set (an SSH connection whose host key is verified), got ${shown(h.ssh)}`);
        return;
      }
      out.push(...optionProblems(where, h.ssh));
      needsKey(where, h.ssh.address);
      const bastion = h.ssh.bastion;
      if (!isObj(bastion)) return;
      out.push(...optionProblems(`${where}.bastion`, bastion));
      needsKey(`${where}.bastion`, bastion.address);
      if (typeof h.ssh.keyPath !== "string" || typeof bastion.keyPath !== "string")
        out.push(
          `${where}.keyPath and ${where}.bastion.keyPath must both be set (k0sctl would offer the SSH agent's keys), got ${shown(h.ssh.keyPath)} and ${shown(bastion.keyPath)}`,
        );
      else if (h.ssh.keyPath === bastion.keyPath)
        out.push(
          `${where}.bastion.keyPath must be another key than ${where}.keyPath (the bastion's key only jumps), got ${shown(bastion.keyPath)} for both`,
        );
    });
    return out;
  },
});

/** The k0s area's rules. */
export const K0S_RULES = [k0sSecretsEncryption, k0sctlSshVerified] as const;
