/**
 * The volumes PVCs created and the nodes' own instances, read from the cluster when a run's
 * manifest is taken (lab/utilization/state.ts `clusterTargets`, lab/utilization/manifest.ts): the objects as
 * the manifest's reads return them (the StorageClass is the real one components/eks/storage.ts
 * renders), and the Pulumi CLI and kubectl driven through stand-in executables that answer as the
 * real ones do.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { gp3StorageClassManifest } from "../../../components/eks/storage";
import { CLUSTER, PV_NAME } from "./cluster-fixture";
import { CLUSTER_LISTS, listClusterAsReader, pulumiCliSource, takeManifest, type StackSource } from "../../../lab/utilization/manifest";
import { clusterTargets, instanceIdOfProviderId } from "../../../lab/utilization/state";

describe("clusterTargets", () => {
  it("the EBS CSI driver's PV is its EBS volume (volumeHandle) with the gp3 StorageClass's limits and its node's instance; every node is its own EC2 target", () => {
    expect(clusterTargets(CLUSTER, true)).toEqual({
      targets: [
        {
          kind: "ec2",
          resource: "node-i-0123456789abcdef0",
          instanceId: "i-0123456789abcdef0",
          instanceType: "m5.xlarge",
          detailedMonitoring: true,
        },
        {
          kind: "ec2",
          resource: "node-i-0fedcba9876543210",
          instanceId: "i-0fedcba9876543210",
          instanceType: "m5.xlarge",
          detailedMonitoring: true,
        },
        {
          kind: "ebs",
          resource: "pv-bench-fio-gp3",
          volumeId: "vol-0a1b2c3d4e5f60718",
          volumeType: "gp3",
          iops: 3000,
          throughputMiBps: 125,
          instanceId: "i-0123456789abcdef0",
          instanceType: "m5.xlarge",
          hypervisor: "nitro",
        },
      ],
      notes: [],
    });
  });

  it("a class's own iops and throughput; an unknown class, iopsPerGB and a node without a provider id are said", () => {
    const tuned = { ...gp3StorageClassManifest(), parameters: { type: "gp3", iops: "6000", throughput: "250" } };
    const items = CLUSTER.items.map((i) => (i.kind === "StorageClass" ? tuned : i));
    expect(clusterTargets({ ...CLUSTER, items }, false).targets.find((t) => t.kind === "ebs")).toMatchObject({
      iops: 6000,
      throughputMiBps: 250,
    });
    const perGb = { ...gp3StorageClassManifest(), parameters: { type: "gp3", iopsPerGB: "50" } };
    const r = clusterTargets({ ...CLUSTER, items: CLUSTER.items.map((i) => (i.kind === "StorageClass" ? perGb : i)) }, false);
    expect(r.targets.find((t) => t.kind === "ebs")).toMatchObject({ throughputMiBps: 125 });
    expect(r.targets.find((t) => t.kind === "ebs")).not.toHaveProperty("iops");
    expect(r.notes).toEqual([
      `PersistentVolume ${PV_NAME} (vol-0a1b2c3d4e5f60718): StorageClass gp3 sets iopsPerGB, which is not modelled: its IOPS limit is unknown`,
    ]);
    const bare = clusterTargets(
      {
        items: [
          CLUSTER.items[0],
          { kind: "Node", metadata: { name: "kind-control-plane" }, spec: { providerID: "kind://docker/kind/kind-control-plane" } },
        ],
      },
      false,
    );
    expect(bare.notes).toEqual([
      `PersistentVolume ${PV_NAME} (vol-0a1b2c3d4e5f60718): StorageClass gp3 not found: its limits are unknown`,
      "node kind-control-plane: no EC2 instance id or instance type (spec.providerID, node.kubernetes.io/instance-type)",
    ]);
    expect(bare.targets).toEqual([{ kind: "ebs", resource: "pv-bench-fio-gp3", volumeId: "vol-0a1b2c3d4e5f60718", volumeType: "unknown" }]);
    expect(instanceIdOfProviderId("aws:///us-east-1a/i-0123456789abcdef0")).toBe("i-0123456789abcdef0");
    expect(instanceIdOfProviderId("aws:///i-0123")).toBeUndefined();
  });
});

describe("the cluster through the Pulumi CLI and kubectl (stand-ins)", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-cluster-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A stand-in that logs its arguments (and, for kubectl, the kubeconfig it was given and its mode) and prints `out`. */
  function standIn(name: string, script: string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "${name} $*" >>"${dir}/calls.log"\n${script}\n`, { mode: 0o755 });
    return file;
  }

  it("the stack's outputs in one call; kubectl gets the kubeconfig in a private file (0600), one token request, then four lists with the token; the files are gone after", () => {
    const kubeconfig = { apiVersion: "v1", kind: "Config", clusters: [{ name: "eks", cluster: { server: "https://eks.example" } }] };
    const outputs = { kubeconfig, utilizationAccess: { namespace: "kube-system", serviceAccount: "lab-utilization" }, clusterName: "lab" };
    fs.writeFileSync(path.join(dir, "outputs.json"), JSON.stringify(outputs));
    for (const l of CLUSTER_LISTS)
      fs.writeFileSync(
        path.join(dir, `${l.kind}.json`),
        JSON.stringify({
          kind: `${l.kind}List`,
          items: CLUSTER.items.filter((i) => i.kind === l.kind).map(({ kind: _k, apiVersion: _a, ...rest }) => rest),
        }),
      );
    const pulumi = standIn(
      "pulumi",
      `[ "$*" = "stack output --json --show-secrets --stack org/p/eks" ] || { echo "error: unexpected $*" >&2; exit 255; }\ncat "${dir}/outputs.json"`,
    );
    // As kubectl answers: the view of the admin kubeconfig, the TokenRequest, each list by its path.
    const kubectl = standIn(
      "kubectl",
      [
        `[ "$1" = --kubeconfig ] || exit 1`,
        `stat -c %a "$2" >>"${dir}/calls.log"`,
        `case "$3 $4 $5" in`,
        `  "config view --minify") cat "$2" ;;`,
        `  "create --raw "*) cat "$7" >"${dir}/token-request"; printf '{"status":{"token":"t0k"}}' ;;`,
        `  "get --raw "*) cat "$2" >"${dir}/reader-kubeconfig"; case "$5" in`,
        ...CLUSTER_LISTS.map((l) => `    ${l.path}) cat "${dir}/${l.kind}.json" ;;`),
        `  esac ;;`,
        `esac`,
      ].join("\n"),
    );
    const source = pulumiCliSource(dir, pulumi, kubectl);
    expect(source.clusterObjects!("org/p/eks")).toEqual({ apiVersion: "v1", kind: "List", items: CLUSTER.items });
    const calls = fs.readFileSync(path.join(dir, "calls.log"), "utf8").trim().split("\n");
    const admin = /^kubectl --kubeconfig (\/\S+\/config) /.exec(calls[1])![1];
    const reader = admin.replace(/config$/, "reader");
    expect(calls).toEqual([
      "pulumi stack output --json --show-secrets --stack org/p/eks",
      `kubectl --kubeconfig ${admin} config view --minify --raw --flatten -o json`,
      "600",
      `kubectl --kubeconfig ${admin} create --raw /api/v1/namespaces/kube-system/serviceaccounts/lab-utilization/token -f ${admin.replace(/config$/, "token-request.json")}`,
      "600",
      ...CLUSTER_LISTS.flatMap((l) => [`kubectl --kubeconfig ${reader} get --raw ${l.path}`, "600"]),
    ]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "token-request"), "utf8"))).toEqual({
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      spec: { expirationSeconds: 600 },
    });
    expect(JSON.parse(fs.readFileSync(path.join(dir, "reader-kubeconfig"), "utf8"))).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "cluster", cluster: { server: "https://eks.example" } }],
      users: [{ name: "lab-utilization", user: { token: "t0k" } }],
      contexts: [{ name: "lab-utilization", context: { cluster: "cluster", user: "lab-utilization" } }],
      "current-context": "lab-utilization",
    });
    expect(fs.existsSync(path.dirname(admin))).toBe(false);
  });

  it("an eks stack without utilizationAccess (deployed before it existed) is not read as admin: kubectl never runs, and the manifest says why", () => {
    const pulumi = standIn(
      "pulumi",
      [
        `case "$1 $2" in`,
        `  "config --json") printf '%s' '{"lab:kind":{"value":"eks","secret":false},"aws:region":{"value":"us-east-1","secret":false}}' ;;`,
        `  "stack export") printf '%s' '{"version":3,"deployment":{"resources":[]}}' ;;`,
        `  "stack output") printf '%s' '{"kubeconfig":"{}","clusterName":"lab"}' ;;`,
        `esac`,
      ].join("\n"),
    );
    const kubectl = standIn("kubectl", "exit 1");
    const m = takeManifest("org/p/eks", pulumiCliSource(dir, pulumi, kubectl), {
      root: dir,
      git: { commit: "0".repeat(40), dirty: false },
      now: new Date("2026-01-15T10:00:00Z"),
      command: "lab results save",
    });
    expect(m.resources).toEqual([]);
    expect(m.notes).toEqual([
      "stack eks: the cluster's volumes and nodes could not be listed (the stack has no utilizationAccess output (an eks stack deployed before it existed: `pulumi up` it to create the ServiceAccount); the cluster is not read with its admin kubeconfig): gp3 volumes created by PVCs and the nodes' own CPU are not sampled",
    ]);
    expect(
      fs
        .readFileSync(path.join(dir, "calls.log"), "utf8")
        .split("\n")
        .filter((l) => l.startsWith("kubectl")),
    ).toEqual([]);
    expect(() => listClusterAsReader({ kubeconfig: "{}", utilizationAccess: { namespace: "kube-system" } }, kubectl, dir)).toThrow(
      `the stack's utilizationAccess output must be {namespace, serviceAccount}, got {"namespace":"kube-system"}`,
    );
  });

  it("a ceph-k0s stack (k0s on EC2): its cluster is never asked for, with any identity", () => {
    const asked: string[] = [];
    const m = takeManifest(
      "org/p/ceph",
      {
        config: () => ({ "lab:kind": { value: "ceph-k0s", secret: false }, "aws:region": { value: "us-east-1", secret: false } }),
        exportStack: () => ({ version: 3, deployment: { resources: [] } }),
        clusterObjects: (s) => {
          asked.push(s);
          return CLUSTER;
        },
      },
      { root: dir, git: { commit: "0".repeat(40), dirty: false }, now: new Date("2026-01-15T10:00:00Z"), command: "lab results save" },
    );
    expect(asked).toEqual([]);
    expect(m.resources).toEqual([]);
    expect(m.notes).toBeUndefined();
  });

  it("takeManifest: an eks stack's PV volumes and nodes join the resources; a cluster that cannot be listed is a note, not a lost manifest", () => {
    const stackSource = (cluster: () => unknown): StackSource => ({
      config: () => ({ "lab:kind": { value: "eks", secret: false }, "aws:region": { value: "us-east-1", secret: false } }),
      exportStack: () => ({ version: 3, deployment: { resources: [] } }),
      clusterObjects: cluster,
    });
    const opts = {
      root: dir,
      git: { commit: "0".repeat(40), dirty: false },
      now: new Date("2026-01-15T10:00:00Z"),
      command: "lab results save",
    };
    const m = takeManifest(
      "org/p/eks",
      stackSource(() => CLUSTER),
      opts,
    );
    expect(m.resources.map((r) => r.resource)).toEqual(["node-i-0123456789abcdef0", "node-i-0fedcba9876543210", "pv-bench-fio-gp3"]);
    expect(m.notes).toBeUndefined();
    const kubectl = standIn("kubectl", `echo "error: You must be logged in to the server (Unauthorized)" >&2\nexit 1`);
    const outputs = JSON.stringify({
      kubeconfig: "{}",
      utilizationAccess: { namespace: "kube-system", serviceAccount: "lab-utilization" },
    });
    const failing = takeManifest(
      "org/p/eks",
      stackSource(() => pulumiCliSource(dir, standIn("pulumi", `printf '%s' '${outputs}'`), kubectl).clusterObjects!("org/p/eks")),
      opts,
    );
    expect(failing.resources).toEqual([]);
    expect(failing.notes).toEqual([
      `stack eks: the cluster's volumes and nodes could not be listed (${kubectl} --kubeconfig <kubeconfig> config view --minify --raw --flatten -o json failed: error: You must be logged in to the server (Unauthorized)): gp3 volumes created by PVCs and the nodes' own CPU are not sampled`,
    ]);
  });
});
