/**
 * The volumes PVCs created and the nodes' own instances, read from the cluster when a run's
 * manifest is taken (lab/utilization/state.ts `clusterTargets`, lab/utilization/manifest.ts): the objects as
 * `kubectl get … -o json` prints them (the StorageClass is the real one components/eks/storage.ts
 * renders), and the Pulumi CLI and kubectl driven through stand-in executables that answer as the
 * real ones do.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { gp3StorageClassManifest } from "../../../components/eks/storage";
import { CLUSTER, PV_NAME } from "./cluster-fixture";
import { CLUSTER_KINDS, pulumiCliSource, takeManifest, type StackSource } from "../../../lab/utilization/manifest";
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

  it("the stack's kubeconfig output goes to a private file for kubectl, which lists the cluster's objects; the file is gone after", () => {
    const kubeconfig = "apiVersion: v1\nkind: Config\nclusters: []\n";
    fs.writeFileSync(path.join(dir, "list.json"), JSON.stringify(CLUSTER));
    const pulumi = standIn(
      "pulumi",
      `[ "$*" = "stack output kubeconfig --show-secrets --json --stack org/p/eks" ] || { echo "error: unexpected $*" >&2; exit 255; }\nprintf '%s\\n' '${JSON.stringify(kubeconfig)}'`,
    );
    const kubectl = standIn(
      "kubectl",
      `[ "$1" = --kubeconfig ] || exit 1\nstat -c %a "$2" >>"${dir}/calls.log"\ncat "$2" >"${dir}/seen-kubeconfig"\ncat "${dir}/list.json"`,
    );
    const source = pulumiCliSource(dir, pulumi, kubectl);
    expect(source.clusterObjects!("org/p/eks")).toEqual(CLUSTER);
    const calls = fs.readFileSync(path.join(dir, "calls.log"), "utf8").trim().split("\n");
    expect(calls[0]).toBe(`pulumi stack output kubeconfig --show-secrets --json --stack org/p/eks`);
    expect(calls[1]).toMatch(new RegExp(`^kubectl --kubeconfig (/.+/config) get ${CLUSTER_KINDS} -o json$`));
    expect(calls[2]).toBe("600");
    expect(fs.readFileSync(path.join(dir, "seen-kubeconfig"), "utf8")).toBe(kubeconfig);
    expect(fs.existsSync(calls[1].split(" ")[2])).toBe(false);
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
    const failing = takeManifest(
      "org/p/eks",
      stackSource(() => pulumiCliSource(dir, standIn("pulumi", `printf '"kubeconfig"\\n'`), kubectl).clusterObjects!("org/p/eks")),
      opts,
    );
    expect(failing.resources).toEqual([]);
    expect(failing.notes).toEqual([
      `stack eks: the cluster's volumes and nodes could not be listed (${kubectl} --kubeconfig <kubeconfig> get ${CLUSTER_KINDS} -o json failed: error: You must be logged in to the server (Unauthorized)): gp3 volumes created by PVCs and the nodes' own CPU are not sampled`,
    ]);
  });
});
