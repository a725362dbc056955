/**
 * SSH trust between k0sctl and the cluster's hosts. Pure.
 *
 * Host keys are known before first contact. The component generates every host's ED25519 host key
 * (tls.PrivateKey) and installs it with cloud-init's `ssh_keys` (cloud-init.ts), so the known_hosts
 * k0sctl reads ({@link renderKnownHosts}) is written from the state, not learned from the network.
 *
 * How k0sctl reads it. k0sctl v0.32.2 connects with k0sproject/rig v2.1.1 (go.mod), whose pure-Go
 * SSH client picks its host key callback in protocol/ssh/connection.go `hostkeyCallback`:
 * - `SSH_KNOWN_HOSTS` set: that file, and an unknown host is *appended* (trust on first use;
 *   hostkey/callbacks.go `wrapCallback`, "TODO this should also support the accept-new of
 *   StrictHostKeyChecking"), so k0sctl.sh unsets it;
 * - else `UserKnownHostsFile` (appended to the same way) unless it is `none`;
 * - else the `GlobalKnownHostsFile` files, read-only: a host not in them, or with another key, is
 *   refused (`KnownHostsReadOnlyFileCallback` → "host key mismatch: unknown host"), and the error
 *   is not retried (`protocol.ErrNonRetryable`).
 * So every connection, the bastion's too, carries {@link sshOptions}: `UserKnownHostsFile: none`,
 * `GlobalKnownHostsFile: <the file>`, and `StrictHostKeyChecking: yes` (a `no` would make a mismatch
 * a warning, `isPermissive`). rig applies `options` before ~/.ssh/config and the first value of a
 * directive wins (docs/ssh-config-precedence.md; sshconfig/set.go `setStringSlice`), so the
 * user's ssh config cannot loosen them. `IdentitiesOnly: yes` keeps the SSH agent's keys out: each
 * hop offers only its own key file.
 *
 * Two client keys: the bastion's and the nodes'. The bastion's authorized key can only open a
 * tunnel to a node's SSH port ({@link bastionAuthorizedKey}); the nodes accept the node key, from the
 * bastion's security group only (ports.ts).
 */

/** The SSH options of every k0sctl connection (host and bastion), read from rig's `options` (values rendered by rig: true → yes). */
export function sshOptions(knownHostsPath: string): Record<string, string | boolean> {
  return {
    StrictHostKeyChecking: true,
    UserKnownHostsFile: "none",
    GlobalKnownHostsFile: knownHostsPath,
    IdentitiesOnly: true,
  };
}

const IPV4_RE = /^(\d{1,3}\.){3}\d{1,3}$/;
/** An OpenSSH public key line: type, base64 blob, optional comment. */
const PUBLIC_KEY_RE =
  /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) ([A-Za-z0-9+/]+={0,2})(?: [^\r\n]*)?$/;

/** `type blob` of an OpenSSH public key line (its comment and trailing newline dropped). */
export function publicKeyBody(publicKeyOpenssh: string): string {
  const line = publicKeyOpenssh.trim();
  const m = PUBLIC_KEY_RE.exec(line);
  if (!m) throw new RangeError(`not an OpenSSH public key: ${JSON.stringify(publicKeyOpenssh)}`);
  return `${m[1]} ${m[2]}`;
}

/** A host and the public half of its host key. */
export interface KnownHost {
  /** The address k0sctl connects to (port 22: OpenSSH writes it bare, sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"). */
  readonly address: string;
  readonly publicKey: string;
}

/** The known_hosts file: one `address type blob` line per host, in the given order. */
export function renderKnownHosts(hosts: readonly KnownHost[]): string {
  if (hosts.length === 0) throw new RangeError("known_hosts needs at least one host");
  const seen = new Set<string>();
  return hosts
    .map((h) => {
      if (!IPV4_RE.test(h.address)) throw new RangeError(`not an IPv4 address: ${JSON.stringify(h.address)}`);
      if (seen.has(h.address)) throw new RangeError(`${h.address} is listed twice`);
      seen.add(h.address);
      return `${h.address} ${publicKeyBody(h.publicKey)}\n`;
    })
    .join("");
}

/** The bastion's forced command: any session (shell, command, subsystem) ends at once. */
export const BASTION_FORCED_COMMAND = "/usr/sbin/nologin";

/**
 * An authorized_keys line for the bastion that can only jump: sshd(8) "AUTHORIZED_KEYS FILE
 * FORMAT": `restrict` turns off port, agent and X11 forwarding, PTYs and ~/.ssh/rc;
 * `port-forwarding` turns local forwarding back on, limited by `permitopen` to the nodes' SSH
 * ports ("Limit local port forwarding ... such that it may only connect to the specified host
 * and port"); `command` replaces any session the key opens. k0sctl's bastion hop is such a
 * forward (rig protocol/ssh/connection.go `connectViaBastion`: `bastionSSH.dialWithDeadline`, a
 * direct-tcpip channel; no session on the bastion), as is `ssh -J`.
 * @param publicKey the client's OpenSSH public key
 * @param nodeAddresses the nodes' private IPv4 addresses (port 22 each)
 */
export function bastionAuthorizedKey(publicKey: string, nodeAddresses: readonly string[]): string {
  if (nodeAddresses.length === 0) throw new RangeError("the bastion needs at least one node to forward to");
  for (const a of nodeAddresses) if (!IPV4_RE.test(a)) throw new RangeError(`not an IPv4 address: ${JSON.stringify(a)}`);
  const opens = nodeAddresses.map((a) => `permitopen="${a}:22"`);
  return [["restrict", "port-forwarding", `command="${BASTION_FORCED_COMMAND}"`, ...opens].join(","), publicKeyBody(publicKey)].join(" ");
}
