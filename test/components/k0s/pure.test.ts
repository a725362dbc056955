/** The K0sCluster's pure parts: cloud-init (checked by cloud-init itself), k0sctl config and script, worker labels, ports. */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import YAML from "yaml";
import { renderBastionCloudInit, renderNodeCloudInit } from "../../../components/k0s/cloud-init";
import { encryptionConfig, ENCRYPTION_EXTRA_ARGS, isSecretboxKey, renderEncryptionConfig } from "../../../components/k0s/encryption";
import {
  apiUrl,
  CONFIG_VARIABLES,
  k0sctlCommand,
  k0sctlConfig,
  K0SCTL_SCRIPT_FILE,
  renderK0sctlConfig,
} from "../../../components/k0s/k0sctl";
import { WORKER_LABEL, workerSelector } from "../../../components/k0s/placement";
import { ingressRules } from "../../../components/k0s/ports";
import { bastionAuthorizedKey, publicKeyBody, renderKnownHosts, sshOptions } from "../../../components/k0s/ssh";
import { K0S_VERSION } from "../../../components/versions";

/** Fixed key texts for exact expectations (the shapes the tls provider returns; not real keys). */
const HOST_KEY = {
  privateKeyOpenssh: "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAhostkey\n-----END OPENSSH PRIVATE KEY-----\n",
  publicKeyOpenssh: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHostKeyHostKeyHostKeyHostKeyHostKeyHostKey01\n",
};
const BASTION_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBastionKeyBastionKeyBastionKeyBastionKey0001\n";
const OPERATOR_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBdfvP1u1ifI4ZV5ofEw1dXXZk5Jp3qkWm3ow2ZqE0Zf alice@example";
const OPERATOR_BODY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBdfvP1u1ifI4ZV5ofEw1dXXZk5Jp3qkWm3ow2ZqE0Zf";
const NODES = ["10.0.12.34", "10.0.12.35", "10.0.12.36"];

describe("cloud-init user data", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-cloudinit-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs the real checker; a missing cloud-init fails the test (CI installs it). */
  function schemaCheck(doc: string, name: string): { status: number | null; out: string } {
    const file = path.join(dir, name);
    fs.writeFileSync(file, doc);
    const r = spawnSync("cloud-init", ["schema", "--config-file", file], { encoding: "utf8" });
    if (r.error) throw new Error(`cloud-init is not installed ('apt-get install -y cloud-init'): ${r.error.message}`);
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  }

  const hostKeys = {
    ssh_deletekeys: true,
    ssh_keys: {
      ed25519_private: HOST_KEY.privateKeyOpenssh,
      ed25519_public: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHostKeyHostKeyHostKeyHostKeyHostKeyHostKey01",
    },
  };
  const nodeSetup = {
    package_update: true,
    packages: ["lvm2", "chrony"],
    ntp: { enabled: true, ntp_client: "chrony", servers: ["169.254.169.123"] },
    write_files: [{ path: "/etc/modules-load.d/rbd.conf", owner: "root:root", permissions: "0644", content: "rbd\n" }],
    runcmd: ['modprobe rbd || { apt-get install -y "linux-modules-extra-$(uname -r)" && modprobe rbd; } || exit 1'],
  };

  test("a worker's document passes `cloud-init schema`: its host key only, rbd now and at boot, lvm2 and chrony", () => {
    const doc = renderNodeCloudInit({ hostKey: HOST_KEY, controller: false, wireguard: false, hugepages2Mi: 0 });
    expect(schemaCheck(doc, "worker.yaml")).toMatchObject({ status: 0 });
    expect(doc.startsWith("#cloud-config\n")).toBe(true);
    expect(YAML.parse(doc)).toEqual({ ...hostKeys, ...nodeSetup });
  });

  test("the published worker: the wireguard module now and at boot, 2048 huge pages reserved and checked, before k0s", () => {
    const doc = renderNodeCloudInit({ hostKey: HOST_KEY, controller: false, wireguard: true, hugepages2Mi: 2048 });
    expect(schemaCheck(doc, "worker-published.yaml")).toMatchObject({ status: 0 });
    const parsed = YAML.parse(doc);
    expect(parsed.write_files).toEqual([
      ...nodeSetup.write_files,
      { path: "/etc/modules-load.d/wireguard.conf", owner: "root:root", permissions: "0644", content: "wireguard\n" },
      {
        path: "/etc/sysctl.d/60-storage-bench-lab-hugepages.conf",
        owner: "root:root",
        permissions: "0644",
        content: "vm.nr_hugepages = 2048\n",
      },
    ]);
    expect(parsed.runcmd).toEqual([
      ...nodeSetup.runcmd,
      'modprobe wireguard || { apt-get install -y "linux-modules-extra-$(uname -r)" && modprobe wireguard; } || exit 1',
      "sysctl -p /etc/sysctl.d/60-storage-bench-lab-hugepages.conf",
      'test "$(cat /proc/sys/vm/nr_hugepages)" -eq 2048 || { echo "reserved $(cat /proc/sys/vm/nr_hugepages) of 2048 huge pages" >&2; exit 1; }',
    ]);
  });

  test("the huge-page check fails the boot when the kernel reserved fewer pages (run by sh against a stand-in /proc value)", () => {
    const doc = YAML.parse(renderNodeCloudInit({ hostKey: HOST_KEY, controller: false, wireguard: false, hugepages2Mi: 2048 }));
    const check = (doc.runcmd as string[])[2];
    const proc = path.join(dir, "nr_hugepages");
    const run = (pages: string) => {
      fs.writeFileSync(proc, pages);
      return spawnSync("sh", ["-c", check.replaceAll("/proc/sys/vm/nr_hugepages", proc)], { encoding: "utf8" });
    };
    expect(run("2048\n")).toMatchObject({ status: 0, stderr: "" });
    expect(run("1500\n")).toMatchObject({ status: 1, stderr: "reserved 1500 of 2048 huge pages\n" });
  });

  test("the controller's document creates kube-apiserver (the encryption config's owner) and keeps `ubuntu`; the operator's key is authorized", () => {
    const doc = renderNodeCloudInit({ hostKey: HOST_KEY, controller: true, operatorKey: OPERATOR_KEY, wireguard: false, hugepages2Mi: 0 });
    expect(schemaCheck(doc, "controller.yaml")).toMatchObject({ status: 0 });
    expect(YAML.parse(doc)).toEqual({
      ...hostKeys,
      ssh_authorized_keys: [OPERATOR_BODY],
      users: [
        "default",
        { name: "kube-apiserver", system: true, no_create_home: true, homedir: "/var/lib/k0s", shell: "/usr/sbin/nologin" },
      ],
      ...nodeSetup,
    });
  });

  test("a host key that is not an OpenSSH ED25519 key is refused", () => {
    expect(() =>
      renderNodeCloudInit({
        hostKey: { ...HOST_KEY, privateKeyOpenssh: "-----BEGIN PRIVATE KEY-----\nx\n" },
        controller: false,
        wireguard: false,
        hugepages2Mi: 0,
      }),
    ).toThrow("the host key must be an OpenSSH private key");
    expect(() =>
      renderNodeCloudInit({
        hostKey: { ...HOST_KEY, publicKeyOpenssh: "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ x" },
        controller: false,
        wireguard: false,
        hugepages2Mi: 0,
      }),
    ).toThrow("the host key must be ED25519, got ssh-rsa");
  });

  test("the bastion document passes `cloud-init schema`: jump-only authorized keys, its host key, the API forward", () => {
    const doc = renderBastionCloudInit({
      controllerPrivateIp: "10.0.12.34",
      nodePrivateIps: NODES,
      hostKey: HOST_KEY,
      bastionKey: BASTION_KEY,
    });
    expect(schemaCheck(doc, "bastion.yaml")).toMatchObject({ status: 0 });
    const parsed = YAML.parse(doc);
    expect(parsed.ssh_keys).toEqual(hostKeys.ssh_keys);
    expect(parsed.ssh_deletekeys).toBe(true);
    expect(parsed.ssh_authorized_keys).toEqual([
      'restrict,port-forwarding,command="/usr/sbin/nologin",permitopen="10.0.12.34:22",permitopen="10.0.12.35:22",permitopen="10.0.12.36:22" ' +
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBastionKeyBastionKeyBastionKeyBastionKey0001",
    ]);
    expect(parsed.packages).toEqual(["socat"]);
    expect(parsed.write_files[0].path).toBe("/etc/systemd/system/lab-kube-api-forward.service");
    expect(parsed.write_files[0].content).toContain("ExecStart=/usr/bin/socat TCP-LISTEN:6443,fork,reuseaddr TCP:10.0.12.34:6443\n");
    expect(parsed.runcmd).toEqual([
      ["systemctl", "daemon-reload"],
      ["systemctl", "enable", "--now", "lab-kube-api-forward.service"],
    ]);
    const withOperator = YAML.parse(
      renderBastionCloudInit({
        controllerPrivateIp: "10.0.12.34",
        nodePrivateIps: NODES,
        hostKey: HOST_KEY,
        bastionKey: BASTION_KEY,
        operatorKey: OPERATOR_KEY,
      }),
    );
    expect(withOperator.ssh_authorized_keys[1]).toBe(
      `restrict,port-forwarding,command="/usr/sbin/nologin",permitopen="10.0.12.34:22",permitopen="10.0.12.35:22",permitopen="10.0.12.36:22" ${OPERATOR_BODY}`,
    );
    expect(() =>
      renderBastionCloudInit({ controllerPrivateIp: "controller", nodePrivateIps: NODES, hostKey: HOST_KEY, bastionKey: BASTION_KEY }),
    ).toThrow("not an IPv4 address: controller");
  });

  test("the checker is not a rubber stamp: it rejects a wrong type", () => {
    const r = schemaCheck("#cloud-config\nntp:\n  enabled: 3\n", "bad.yaml");
    expect(r.status).not.toBe(0);
    expect(r.out).toContain("ntp.enabled: 3 is not of type 'boolean'");
  });
});

describe("SSH trust (ssh.ts), checked with the real ssh-keygen", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-ssh-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  /** A real ED25519 key pair from ssh-keygen: [private, public]. */
  function keygen(name: string): [string, string] {
    const file = path.join(dir, name);
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", file]);
    return [fs.readFileSync(file, "utf8"), fs.readFileSync(`${file}.pub`, "utf8")];
  }

  test("known_hosts: one `address type key` line per host, which ssh-keygen -F finds with the host's own key", () => {
    const hosts = ["203.0.113.5", ...NODES].map((address, i) => ({ address, publicKey: keygen(`host-${i}`)[1] }));
    const text = renderKnownHosts(hosts);
    expect(text).toBe(hosts.map((h) => `${h.address} ${h.publicKey.split(" ").slice(0, 2).join(" ")}\n`).join(""));
    const file = path.join(dir, "known_hosts");
    fs.writeFileSync(file, text);
    for (const h of hosts) {
      const found = execFileSync("ssh-keygen", ["-F", h.address, "-f", file], { encoding: "utf8" });
      expect(found).toContain(`${h.address} ${publicKeyBody(h.publicKey)}`);
    }
    // Another host is not in it: ssh-keygen -F exits 1.
    expect(spawnSync("ssh-keygen", ["-F", "10.0.12.99", "-f", file]).status).toBe(1);
    expect(() => renderKnownHosts([])).toThrow("known_hosts needs at least one host");
    expect(() => renderKnownHosts([hosts[0], hosts[0]])).toThrow("203.0.113.5 is listed twice");
    expect(() => renderKnownHosts([{ address: "bastion", publicKey: hosts[0].publicKey }])).toThrow('not an IPv4 address: "bastion"');
    expect(() => publicKeyBody("-----BEGIN OPENSSH PRIVATE KEY-----")).toThrow(
      'not an OpenSSH public key: "-----BEGIN OPENSSH PRIVATE KEY-----"',
    );
  });

  test("the bastion's authorized key line is one ssh-keygen reads, options included", () => {
    const [, pub] = keygen("bastion-client");
    const line = bastionAuthorizedKey(pub, NODES);
    expect(line).toBe(
      `restrict,port-forwarding,command="/usr/sbin/nologin",permitopen="10.0.12.34:22",permitopen="10.0.12.35:22",permitopen="10.0.12.36:22" ${publicKeyBody(pub)}`,
    );
    const file = path.join(dir, "authorized_keys");
    fs.writeFileSync(file, `${line}\n`);
    // ssh-keygen -l reads authorized_keys lines: the same key (fingerprint) behind the options.
    const fingerprint = (f: string) => execFileSync("ssh-keygen", ["-l", "-f", f], { encoding: "utf8" }).split(" ").slice(0, 2).join(" ");
    expect(fingerprint(file)).toMatch(/^256 SHA256:[A-Za-z0-9+/]{43}$/);
    expect(fingerprint(file)).toBe(fingerprint(path.join(dir, "bastion-client.pub")));
    expect(() => bastionAuthorizedKey(pub, [])).toThrow("the bastion needs at least one node to forward to");
  });

  test("every connection reads the known_hosts read-only, strictly, with its own key only", () => {
    expect(sshOptions("/tmp/x/known_hosts")).toEqual({
      StrictHostKeyChecking: true,
      UserKnownHostsFile: "none",
      GlobalKnownHostsFile: "/tmp/x/known_hosts",
      IdentitiesOnly: true,
    });
  });
});

describe("Secrets encryption config (encryption.ts)", () => {
  const key = Buffer.alloc(32, 7).toString("base64");

  test("exact EncryptionConfiguration: Secrets through secretbox, identity last", () => {
    expect(renderEncryptionConfig([{ name: "key-1", secret: key }])).toBe(
      [
        "apiVersion: apiserver.config.k8s.io/v1",
        "kind: EncryptionConfiguration",
        "resources:",
        "  - resources:",
        "      - secrets",
        "    providers:",
        "      - secretbox:",
        "          keys:",
        "            - name: key-1",
        `              secret: ${key}`,
        "      - identity: {}",
        "",
      ].join("\n"),
    );
    // A second key (rotation): the first encrypts, both decrypt.
    const two = encryptionConfig([
      { name: "key-2", secret: Buffer.alloc(32, 9).toString("base64") },
      { name: "key-1", secret: key },
    ]) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(two.resources[0].providers[0].secretbox.keys.map((k: { name: string }) => k.name)).toEqual(["key-2", "key-1"]);
    expect(ENCRYPTION_EXTRA_ARGS).toEqual({
      "encryption-provider-config": "/etc/storage-bench-lab/encryption-config.yaml",
      "encryption-provider-config-automatic-reload": "true",
    });
  });

  test("no keys, a bad name, a duplicate or a key of another length is refused, every problem at once, the secret never shown", () => {
    expect(() => encryptionConfig([])).toThrow(
      "invalid encryption keys:\n'keys' must be at least one key (the first encrypts, every key decrypts), got []",
    );
    expect(() =>
      encryptionConfig([
        { name: "Key 1", secret: key },
        { name: "key-2", secret: Buffer.alloc(16, 1).toString("base64") },
        { name: "key-2", secret: key },
      ]),
    ).toThrow(
      [
        "invalid encryption keys:",
        `'keys[0].name' must be a lowercase name (e.g. key-1), got "Key 1"`,
        `'keys[1].secret' must be the base64 of 32 bytes, got "(not shown)"`,
        `'keys[2].name' must be a name no other key has, got "key-2"`,
      ].join("\n"),
    );
    expect(isSecretboxKey(key)).toBe(true);
    expect(isSecretboxKey(`${key.slice(0, -1)}`)).toBe(false);
  });
});

describe("k0sctl config", () => {
  const spec = {
    clusterName: "ceph",
    k0sVersion: "v1.36.3+k0s.2",
    controllerAddress: "10.0.1.10",
    workerAddresses: ["10.0.1.11", "10.0.1.12"],
    bastionAddress: "203.0.113.5",
    cni: "kuberouter" as const,
    wireguard: false,
    zone: "us-east-1a",
    instanceType: "m5.xlarge",
  };
  const options = {
    StrictHostKeyChecking: true,
    UserKnownHostsFile: "none",
    GlobalKnownHostsFile: "${LAB_SSH_KNOWN_HOSTS_PATH}",
    IdentitiesOnly: true,
  };
  const ssh = (address: string) => ({
    address,
    user: "ubuntu",
    port: 22,
    keyPath: "${LAB_SSH_KEY_PATH}",
    options,
    bastion: { address: "203.0.113.5", user: "ubuntu", port: 22, keyPath: "${LAB_SSH_BASTION_KEY_PATH}", options },
  });
  const labels = (n: number) =>
    `--labels=topology.kubernetes.io/zone=us-east-1a,node.kubernetes.io/instance-type=m5.xlarge,storage-bench-lab/worker=${n}`;
  const hooks = { apply: { before: ["cloud-init status --wait >/dev/null || cloud-init status | grep -q '^status: done'"] } };
  const files = [
    {
      name: "secrets-encryption-config",
      src: "${LAB_ENCRYPTION_CONFIG_PATH}",
      dst: "/etc/storage-bench-lab/encryption-config.yaml",
      perm: "0600",
      dirPerm: "0700",
      user: "kube-apiserver",
    },
  ];

  test("exact structure (k0sctl.k0sproject.io/v1beta1 Cluster)", () => {
    expect(YAML.parse(renderK0sctlConfig(spec))).toEqual({
      apiVersion: "k0sctl.k0sproject.io/v1beta1",
      kind: "Cluster",
      metadata: { name: "ceph", user: "admin" },
      spec: {
        hosts: [
          { role: "controller", privateAddress: "10.0.1.10", ssh: ssh("10.0.1.10"), files, hooks },
          { role: "worker", privateAddress: "10.0.1.11", installFlags: [labels(1)], ssh: ssh("10.0.1.11"), hooks },
          { role: "worker", privateAddress: "10.0.1.12", installFlags: [labels(2)], ssh: ssh("10.0.1.12"), hooks },
        ],
        k0s: {
          version: "v1.36.3+k0s.2",
          config: {
            apiVersion: "k0s.k0sproject.io/v1beta1",
            kind: "ClusterConfig",
            metadata: { name: "ceph" },
            spec: {
              api: {
                port: 6443,
                sans: ["203.0.113.5"],
                extraArgs: {
                  "encryption-provider-config": "/etc/storage-bench-lab/encryption-config.yaml",
                  "encryption-provider-config-automatic-reload": "true",
                },
              },
              network: { provider: "kuberouter", podCIDR: "10.244.0.0/16", serviceCIDR: "10.96.0.0/12" },
              telemetry: { enabled: false },
            },
          },
        },
        options: { wait: { enabled: true } },
      },
    });
  });

  test("the file modes are octal strings (YAML 1.2 would read 0600 as decimal six hundred)", () => {
    const text = renderK0sctlConfig(spec);
    expect(text).toContain('perm: "0600"');
    expect(text).toContain('dirPerm: "0700"');
  });

  test("calico as published: VXLAN on port 4789, VNI 4096, MTU 1450, WireGuard (k0s/k0sctl.yaml.pre lines 29-38)", () => {
    const c = k0sctlConfig({ ...spec, cni: "calico", wireguard: true }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(c.spec.k0s.config.spec.network).toEqual({
      provider: "calico",
      podCIDR: "10.244.0.0/16",
      serviceCIDR: "10.96.0.0/12",
      calico: { mode: "vxlan", vxlanPort: 4789, vxlanVNI: 4096, mtu: 1450, wireguard: true },
    });
    const plain = k0sctlConfig({ ...spec, cni: "calico", wireguard: false }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(plain.spec.k0s.config.spec.network.calico.wireguard).toBe(false);
    // The published pod and service networks are k0s' defaults, as here.
    expect([c.spec.k0s.config.spec.network.podCIDR, c.spec.k0s.config.spec.network.serviceCIDR]).toEqual(["10.244.0.0/16", "10.96.0.0/12"]);
  });

  test("the only `$` in the config are the four files k0sctl substitutes from the environment; no YAML aliases", () => {
    const text = renderK0sctlConfig(spec);
    expect(text).not.toMatch(/[&*]a\d/);
    const count = (v: string) => text.split(v).length - 1;
    expect(CONFIG_VARIABLES.map(count)).toEqual([3, 3, 6, 1]); // node key per host, bastion key per hop, known_hosts per connection, one upload
    let rest = text;
    for (const v of CONFIG_VARIABLES) rest = rest.split(v).join("");
    expect(rest).not.toContain("$");
  });
  test("bad input is refused with every problem at once", () => {
    expect(() =>
      k0sctlConfig({ ...spec, k0sVersion: "1.36.3", controllerAddress: "ip-10-0-1-10", workerAddresses: ["10.0.1.11", "worker-2"] }),
    ).toThrow(
      [
        "invalid k0sctl spec:",
        `'k0sVersion' must be a k0s release (e.g. v1.36.3+k0s.2), got "1.36.3"`,
        `'controllerAddress' must be an IPv4 address (e.g. 10.0.1.10), got "ip-10-0-1-10"`,
        `'workerAddresses[1]' must be an IPv4 address (e.g. 10.0.1.10), got "worker-2"`,
      ].join("\n"),
    );
    expect(() => k0sctlConfig({ ...spec, workerAddresses: [] })).toThrow(
      "invalid k0sctl spec:\n'workerAddresses' must be a list of at least one worker's IPv4 address, got []",
    );
  });

  test("each worker carries its number: the label the stack pins Postgres and pgbench by", () => {
    const c = k0sctlConfig({ ...spec, workerAddresses: ["10.0.1.11", "10.0.1.12", "10.0.1.13"] }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(c.spec.hosts.map((h: { installFlags?: string[] }) => h.installFlags?.[0].split(",").pop())).toEqual([
      undefined,
      "storage-bench-lab/worker=1",
      "storage-bench-lab/worker=2",
      "storage-bench-lab/worker=3",
    ]);
    expect(WORKER_LABEL).toBe("storage-bench-lab/worker");
    expect(workerSelector(2)).toEqual({ "storage-bench-lab/worker": "2" });
    expect(() => workerSelector(0)).toThrow("worker numbers start at 1, got 0");
  });

  test("the pinned k0s version is a release; the API URL is the bastion's", () => {
    expect(K0S_VERSION).toMatch(/^v1\.3\d\.\d+\+k0s\.\d+$/);
    expect(apiUrl("203.0.113.5")).toBe("https://203.0.113.5:6443");
  });
});

describe("k0sctl.sh (what the local.Commands run)", () => {
  test("passes shellcheck", () => {
    expect(() => execFileSync("shellcheck", ["-s", "sh", K0SCTL_SCRIPT_FILE], { encoding: "utf8" })).not.toThrow();
  });

  test("each command is the functions plus one call; apply and kubeconfig read the config on stdin", () => {
    for (const action of ["apply", "kubeconfig", "reset"] as const) {
      const text = k0sctlCommand(action);
      expect(text.startsWith(`# storage-bench-lab: k0sctl ${action} (functions from components/k0s/k0sctl.sh)\n`)).toBe(true);
      expect(text.endsWith(`\nlab_k0sctl_${action}\n`)).toBe(true);
    }
    const script = fs.readFileSync(K0SCTL_SCRIPT_FILE, "utf8");
    expect(script).toContain("printf '%s\\n' \"$LAB_K0SCTL_CONFIG\" | k0sctl apply --config -");
    expect(script).toContain('printf \'%s\\n\' "$LAB_K0SCTL_CONFIG" | k0sctl kubeconfig --config - --address "$LAB_API_URL"');
    expect(script).toContain("printf '%s\\n' \"$LAB_K0SCTL_CONFIG\" | k0sctl reset --config - --force");
  });

  /** A directory with only the tools k0sctl.sh and the k0sctl stand-in use: a PATH where k0sctl is surely missing. */
  function toolsDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-tools-"));
    for (const tool of ["sh", "date", "mktemp", "rm", "head", "cat", "grep", "sed", "sort", "stat"]) {
      const found = execFileSync("/bin/sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
      fs.symlinkSync(found, path.join(dir, tool));
    }
    return dir;
  }

  /** The stand-in k0sctl (test/fixtures/standins/bin/k0sctl): checks the known_hosts and key files it is given. */
  const STANDIN_BIN = path.resolve(__dirname, "../../fixtures/standins/bin");
  const config = renderK0sctlConfig({
    clusterName: "ceph",
    k0sVersion: "v1.36.3+k0s.2",
    controllerAddress: "10.0.1.10",
    workerAddresses: ["10.0.1.11", "10.0.1.12"],
    bastionAddress: "203.0.113.5",
    cni: "kuberouter",
    wireguard: false,
    zone: "us-east-1a",
    instanceType: "m5.xlarge",
  });
  const hostKey = (n: number) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHost${n}`;
  const knownHosts = renderKnownHosts(
    ["203.0.113.5", "10.0.1.10", "10.0.1.11", "10.0.1.12"].map((address, i) => ({ address, publicKey: hostKey(i) })),
  );
  const ENV = {
    LAB_K0SCTL_CONFIG: config,
    LAB_SSH_NODE_KEY: "-----BEGIN OPENSSH PRIVATE KEY-----\nNODE\n-----END OPENSSH PRIVATE KEY-----\n",
    LAB_SSH_BASTION_KEY: "-----BEGIN OPENSSH PRIVATE KEY-----\nBASTION\n-----END OPENSSH PRIVATE KEY-----\n",
    LAB_SSH_KNOWN_HOSTS: knownHosts,
    LAB_ENCRYPTION_CONFIG: renderEncryptionConfig([{ name: "key-1", secret: Buffer.alloc(32, 7).toString("base64") }]),
  };

  /** Runs one command with PATH = the tools, plus `binDir` (a k0sctl) when given, and the component's environment. */
  function run(action: "apply" | "kubeconfig" | "reset", tools: string, binDir?: string, env: Record<string, string> = {}) {
    return spawnSync(path.join(tools, "sh"), ["-c", k0sctlCommand(action)], {
      encoding: "utf8",
      env: { PATH: binDir ? `${binDir}:${tools}` : tools, ...ENV, ...env },
    });
  }

  test("without k0sctl on PATH, apply fails first thing saying how to install it; reset lets the destroy go on", () => {
    const tools = toolsDir();
    try {
      const apply = run("apply", tools);
      expect(apply.status).toBe(127);
      expect(apply.stderr).toContain("error: k0sctl is not installed (not on PATH). Install k0sctl v0.32.2 or newer");
      expect(apply.stderr).toContain("https://github.com/k0sproject/k0sctl#installation");
      const reset = run("reset", tools);
      expect(reset.status).toBe(0);
      expect(reset.stderr).toContain("warning: k0sctl is not on PATH: skipping 'k0sctl reset'");
    } finally {
      fs.rmSync(tools, { recursive: true, force: true });
    }
  });

  test("k0sctl gets private files (0600): both keys, the known_hosts it verifies every connection against, the encryption config; all gone after", () => {
    const tools = toolsDir();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lab-tmp-"));
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bin-"));
    try {
      for (const action of ["apply", "kubeconfig", "reset"] as const) {
        // A caller's SSH_KNOWN_HOSTS (which k0sctl would prefer, trusting new hosts on first use) is dropped.
        const r = run(action, tools, STANDIN_BIN, {
          LAB_API_URL: "https://203.0.113.5:6443",
          TMPDIR: tmp,
          SSH_KNOWN_HOSTS: "/home/u/.ssh/kh",
        });
        expect(r.stderr).not.toContain("k0sctl stand-in:");
        expect(r.status).toBe(0);
        expect(r.stdout).toContain(`k0sctl stand-in: ${action}: 6 connections verified against 4 known host keys\n`);
      }
      expect(fs.readdirSync(tmp)).toEqual([]); // the keys' directory is gone

      // A recording k0sctl: the files' content as the script wrote them.
      fs.writeFileSync(
        path.join(bin, "k0sctl"),
        '#!/bin/sh\n[ "$1" = version ] && exit 0\ncat >/dev/null\nfor f in "$LAB_SSH_KEY_PATH" "$LAB_SSH_BASTION_KEY_PATH" "$LAB_SSH_KNOWN_HOSTS_PATH" "$LAB_ENCRYPTION_CONFIG_PATH"; do echo "== ${f##*/}"; cat "$f"; done\n',
        { mode: 0o755 },
      );
      const files = run("apply", tools, bin, { TMPDIR: tmp });
      expect(files.status).toBe(0);
      expect(files.stdout).toBe(
        `== node_key\n${ENV.LAB_SSH_NODE_KEY}\n== bastion_key\n${ENV.LAB_SSH_BASTION_KEY}\n== known_hosts\n${knownHosts}== encryption-config.yaml\n${ENV.LAB_ENCRYPTION_CONFIG}`,
      );
    } finally {
      for (const d of [tools, tmp, bin]) fs.rmSync(d, { recursive: true, force: true });
    }
  });

  test("a missing input fails before k0sctl runs; the stand-in refuses an unknown host and a config without host key checking", () => {
    const tools = toolsDir();
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bin-"));
    try {
      for (const name of ["LAB_K0SCTL_CONFIG", "LAB_SSH_NODE_KEY", "LAB_SSH_BASTION_KEY", "LAB_SSH_KNOWN_HOSTS", "LAB_ENCRYPTION_CONFIG"]) {
        const r = run("apply", tools, STANDIN_BIN, { [name]: "" });
        expect([r.status, r.stderr.trim().replace(/^\S+ \[lab\] /, "")]).toEqual([2, `error: ${name} is empty`]);
      }
      const unknown = run("apply", tools, STANDIN_BIN, { LAB_SSH_KNOWN_HOSTS: knownHosts.split("\n").slice(0, 3).join("\n") + "\n" });
      expect([unknown.status, unknown.stderr]).toEqual([
        3,
        expect.stringMatching(/\nk0sctl stand-in: no host key for 10\.0\.1\.12 in .*\/lab-k0sctl\.\w+\/known_hosts\n$/),
      ]);
      const unchecked = run("apply", tools, STANDIN_BIN, { LAB_K0SCTL_CONFIG: config.replace(/ *options:\n( {2,}\S.*\n){4}/g, "") });
      expect([unchecked.status, unchecked.stderr.split("\n").slice(1)]).toEqual([
        3,
        ["k0sctl stand-in: 0 of 6 connections have 'StrictHostKeyChecking: true'", ""],
      ]);

      fs.writeFileSync(path.join(bin, "k0sctl"), '#!/bin/sh\n[ "$1" = version ] && exit 0\nexit 3\n', { mode: 0o755 });
      expect(run("apply", tools, bin).status).toBe(3);
      const failedReset = run("reset", tools, bin);
      expect(failedReset.status).toBe(0);
      expect(failedReset.stderr).toContain("warning: k0sctl reset failed with status 3; the instances are terminated next anyway");
    } finally {
      fs.rmSync(tools, { recursive: true, force: true });
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe("security group rules (ports.ts)", () => {
  const table = (cni: "kuberouter" | "calico", wireguard = false, cephHostNetwork = false) =>
    ingressRules({ cni, wireguard, cephHostNetwork }).map(
      (r) => `${r.to} <- ${r.from} ${r.protocol}${r.fromPort !== undefined ? ` ${r.fromPort}-${r.toPort}` : ""}`,
    );

  test("k0s' documented ports, the CNI's, the pod and service networks; the admin CIDRs reach the bastion only", () => {
    const common = [
      "bastion <- admin tcp 22-22",
      "bastion <- admin tcp 6443-6443",
      "controller <- bastion tcp 22-22",
      "controller <- bastion tcp 6443-6443",
      "controller <- worker tcp 6443-6443",
      "controller <- worker tcp 8132-8132",
      "controller <- controller tcp 9443-9443",
      "controller <- controller tcp 2380-2380",
      "worker <- bastion tcp 22-22",
      "worker <- controller tcp 10250-10250",
      "worker <- worker tcp 10250-10250",
    ];
    const networks = ["worker <- podCidr -1", "worker <- serviceCidr -1"];
    // The published data path: Calico VXLAN with WireGuard, Ceph inside it (no Ceph port of its own).
    expect(table("calico", true)).toEqual([...common, "worker <- worker udp 4789-4789", "worker <- worker udp 51820-51820", ...networks]);
    expect(table("calico", false)).toEqual([...common, "worker <- worker udp 4789-4789", ...networks]);
    expect(table("kuberouter")).toEqual([...common, "worker <- worker tcp 179-179", ...networks]);
  });

  test("Ceph on the host network opens its ports between workers, and only then", () => {
    const ceph = ["worker <- worker tcp 3300-3300", "worker <- worker tcp 6789-6789", "worker <- worker tcp 6800-7300"];
    expect(table("kuberouter", false, true).filter((r) => !table("kuberouter").includes(r))).toEqual(ceph);
    expect(table("calico", true, true).filter((r) => !table("calico", true).includes(r))).toEqual(ceph);
    expect(
      ingressRules({ cni: "calico", wireguard: true, cephHostNetwork: false }).every((r) => r.from !== "admin" || r.to === "bastion"),
    ).toBe(true);
  });
});
