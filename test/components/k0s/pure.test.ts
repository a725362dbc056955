/** The K0sCluster's pure parts: cloud-init (checked by cloud-init itself), k0sctl config and script, worker labels, ports. */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import YAML from "yaml";
import { renderBastionCloudInit, renderNodeCloudInit } from "../../../components/k0s/cloud-init";
import { apiUrl, k0sctlCommand, k0sctlConfig, K0SCTL_SCRIPT_FILE, renderK0sctlConfig } from "../../../components/k0s/k0sctl";
import { WORKER_LABEL, workerSelector } from "../../../components/k0s/placement";
import { ingressRules } from "../../../components/k0s/ports";
import { K0S_VERSION } from "../../../components/versions";

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

  test("the node document passes `cloud-init schema` and loads rbd now and at boot, with lvm2 and chrony", () => {
    const doc = renderNodeCloudInit();
    expect(schemaCheck(doc, "node.yaml")).toMatchObject({ status: 0 });
    expect(doc.startsWith("#cloud-config\n")).toBe(true);
    expect(YAML.parse(doc)).toEqual({
      package_update: true,
      packages: ["lvm2", "chrony"],
      ntp: { enabled: true, ntp_client: "chrony", servers: ["169.254.169.123"] },
      write_files: [{ path: "/etc/modules-load.d/rbd.conf", owner: "root:root", permissions: "0644", content: "rbd\n" }],
      runcmd: ['modprobe rbd || { apt-get install -y "linux-modules-extra-$(uname -r)" && modprobe rbd; }'],
    });
  });

  test("the bastion document passes `cloud-init schema` and forwards 6443 to the controller", () => {
    const doc = renderBastionCloudInit("10.0.12.34");
    expect(schemaCheck(doc, "bastion.yaml")).toMatchObject({ status: 0 });
    const parsed = YAML.parse(doc);
    expect(parsed.packages).toEqual(["socat"]);
    expect(parsed.write_files[0].path).toBe("/etc/systemd/system/lab-kube-api-forward.service");
    expect(parsed.write_files[0].content).toContain("ExecStart=/usr/bin/socat TCP-LISTEN:6443,fork,reuseaddr TCP:10.0.12.34:6443\n");
    expect(parsed.runcmd).toEqual([
      ["systemctl", "daemon-reload"],
      ["systemctl", "enable", "--now", "lab-kube-api-forward.service"],
    ]);
    expect(() => renderBastionCloudInit("controller")).toThrow("not an IPv4 address: controller");
  });

  test("the checker is not a rubber stamp: it rejects a wrong type", () => {
    const r = schemaCheck("#cloud-config\nntp:\n  enabled: 3\n", "bad.yaml");
    expect(r.status).not.toBe(0);
    expect(r.out).toContain("ntp.enabled: 3 is not of type 'boolean'");
  });
});

describe("k0sctl config", () => {
  const spec = {
    clusterName: "ceph",
    k0sVersion: "v1.36.3+k0s.2",
    controllerAddress: "10.0.1.10",
    workerAddresses: ["10.0.1.11", "10.0.1.12"],
    bastionAddress: "203.0.113.5",
    keyPath: "${LAB_SSH_KEY_PATH}",
    cni: "kuberouter" as const,
    zone: "us-east-1a",
    instanceType: "m5.xlarge",
  };
  const ssh = (address: string) => ({
    address,
    user: "ubuntu",
    port: 22,
    keyPath: "${LAB_SSH_KEY_PATH}",
    bastion: { address: "203.0.113.5", user: "ubuntu", port: 22, keyPath: "${LAB_SSH_KEY_PATH}" },
  });
  const labels = (n: number) =>
    `--labels=topology.kubernetes.io/zone=us-east-1a,node.kubernetes.io/instance-type=m5.xlarge,storage-bench-lab/worker=${n}`;
  const hooks = { apply: { before: ["cloud-init status --wait >/dev/null || cloud-init status | grep -q '^status: done'"] } };

  test("exact structure (k0sctl.k0sproject.io/v1beta1 Cluster)", () => {
    expect(YAML.parse(renderK0sctlConfig(spec))).toEqual({
      apiVersion: "k0sctl.k0sproject.io/v1beta1",
      kind: "Cluster",
      metadata: { name: "ceph", user: "admin" },
      spec: {
        hosts: [
          { role: "controller", privateAddress: "10.0.1.10", ssh: ssh("10.0.1.10"), hooks },
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
              api: { port: 6443, sans: ["203.0.113.5"] },
              network: { provider: "kuberouter", podCIDR: "10.244.0.0/16", serviceCIDR: "10.96.0.0/12" },
              telemetry: { enabled: false },
            },
          },
        },
        options: { wait: { enabled: true } },
      },
    });
  });

  test("calico runs VXLAN; a given key leaves keyPath to k0sctl's defaults (agent, ~/.ssh)", () => {
    const c = k0sctlConfig({ ...spec, cni: "calico", keyPath: undefined }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(c.spec.k0s.config.spec.network).toEqual({
      provider: "calico",
      podCIDR: "10.244.0.0/16",
      serviceCIDR: "10.96.0.0/12",
      calico: { mode: "vxlan" },
    });
    expect(c.spec.hosts[0].ssh).toEqual({
      address: "10.0.1.10",
      user: "ubuntu",
      port: 22,
      bastion: { address: "203.0.113.5", user: "ubuntu", port: 22 },
    });
  });

  test("the only `$` in the config is the key path k0sctl substitutes from the environment", () => {
    const text = renderK0sctlConfig(spec);
    expect(text.match(/\$\{LAB_SSH_KEY_PATH\}/g)?.length).toBe(6); // 3 hosts, each with its bastion
    expect(text.replace(/\$\{LAB_SSH_KEY_PATH\}/g, "")).not.toContain("$");
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

  /** A directory with only the tools k0sctl.sh uses besides k0sctl: a PATH where k0sctl is surely missing. */
  function toolsDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-tools-"));
    for (const tool of ["sh", "date", "mktemp", "rm", "head", "cat"]) {
      const found = execFileSync("/bin/sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
      fs.symlinkSync(found, path.join(dir, tool));
    }
    return dir;
  }

  /** Runs one command with PATH = the tools, plus `binDir` (a fake k0sctl) when given. */
  function run(action: "apply" | "kubeconfig" | "reset", tools: string, binDir?: string, env: Record<string, string> = {}) {
    return spawnSync(path.join(tools, "sh"), ["-c", k0sctlCommand(action)], {
      encoding: "utf8",
      env: { PATH: binDir ? `${binDir}:${tools}` : tools, LAB_K0SCTL_CONFIG: "apiVersion: k0sctl.k0sproject.io/v1beta1\n", ...env },
    });
  }

  test("without k0sctl on PATH, apply fails first thing saying how to install it; reset lets the destroy go on", () => {
    const tools = toolsDir();
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "lab-tmp-"));
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bin-"));
    try {
      const apply = run("apply", tools);
      expect(apply.status).toBe(127);
      expect(apply.stderr).toContain("error: k0sctl is not installed (not on PATH). Install k0sctl v0.32.2 or newer");
      expect(apply.stderr).toContain("https://github.com/k0sproject/k0sctl#installation");
      const reset = run("reset", tools);
      expect(reset.status).toBe(0);
      expect(reset.stderr).toContain("warning: k0sctl is not on PATH: skipping 'k0sctl reset'");

      // A fake k0sctl records its arguments, stdin and the key file it was given.
      fs.writeFileSync(
        path.join(bin, "k0sctl"),
        '#!/bin/sh\n[ "$1" = version ] && { echo v0.32.2; exit 0; }\necho "args: $*"\necho "stdin: $(cat)"\necho "key: $(cat "$LAB_SSH_KEY_PATH")"\necho "known_hosts: $SSH_KNOWN_HOSTS"\n',
        { mode: 0o755 },
      );
      const ok = run("kubeconfig", tools, bin, { LAB_API_URL: "https://203.0.113.5:6443", LAB_SSH_PRIVATE_KEY: "KEY", TMPDIR: empty });
      expect(ok.status).toBe(0);
      expect(ok.stdout).toMatch(
        /^args: kubeconfig --config - --address https:\/\/203\.0\.113\.5:6443\nstdin: apiVersion: k0sctl\.k0sproject\.io\/v1beta1\nkey: KEY\nknown_hosts: .*\/lab-k0sctl\.[A-Za-z0-9]+\/known_hosts\n$/,
      );
      expect(fs.readdirSync(empty)).toEqual([]); // the key's directory is gone
      fs.writeFileSync(path.join(bin, "k0sctl"), '#!/bin/sh\n[ "$1" = version ] && exit 0\nexit 3\n', { mode: 0o755 });
      expect(run("apply", tools, bin).status).toBe(3);
      const failedReset = run("reset", tools, bin);
      expect(failedReset.status).toBe(0);
      expect(failedReset.stderr).toContain("warning: k0sctl reset failed with status 3; the instances are terminated next anyway");
    } finally {
      fs.rmSync(tools, { recursive: true, force: true });
      fs.rmSync(empty, { recursive: true, force: true });
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe("security group rules (ports.ts)", () => {
  const table = (cni: "kuberouter" | "calico") =>
    ingressRules(cni).map((r) => `${r.to} <- ${r.from} ${r.protocol}${r.fromPort !== undefined ? ` ${r.fromPort}-${r.toPort}` : ""}`);

  test("k0s' documented ports, the CNI's, Ceph's, the pod and service networks; the admin CIDRs reach the bastion only", () => {
    expect(table("kuberouter")).toEqual([
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
      "worker <- worker tcp 179-179",
      "worker <- worker tcp 3300-3300",
      "worker <- worker tcp 6789-6789",
      "worker <- worker tcp 6800-7300",
      "worker <- podCidr -1",
      "worker <- serviceCidr -1",
    ]);
    expect(table("calico").filter((r) => !table("kuberouter").includes(r))).toEqual(["worker <- worker udp 4789-4789"]);
  });
});
