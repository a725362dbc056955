/**
 * The `fsx-eks` scenario planned under the project's mocks from the shipped configs: network →
 * (fsx-eks-ontap ∥ fsx-eks-cluster) → fsx-eks, the stack references wired (the Trident backend names
 * the planned file system, SVM and secret), the benchmark pods' zones against the file system's
 * preferred and standby zones; and, under mocks that hand the collecting commands real Job logs,
 * the samples' zone relation and StorageClass.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { planAll, scenarioSpecs } from "../../../lab/plan";
import { fakeCall, fakeState } from "../../../lab/plan/fakes";
import { PlannedResource, PlanError, StackPlan, StackSpec } from "../../../lab/plan/run";
import { isConfigError } from "../../../lab/plan/errors";
import { SCENARIOS } from "../../../scenarios";
import { runStack } from "../../../stacks";
import { LATER_INPUT_PLACEHOLDERS } from "../../../components/bench";
import { ONTAP_INGRESS } from "../../../components/fsx-ontap/security";
import type { Sample } from "../../../core/sample";
import { ROOT } from "../../helpers/root";
import { collectorStdout } from "../../components/bench/support";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const scenario = SCENARIOS.find((s) => s.name === "fsx-eks")!;
const specs = () => scenarioSpecs(scenario, ROOT);

async function planScenario(
  extra: Record<string, string> = {},
  clusterExtra: Record<string, string> = {},
): Promise<Record<string, StackPlan>> {
  const withExtra = specs().map((s): StackSpec =>
    s.name === "fsx-eks"
      ? { ...s, config: { ...s.config, ...extra } }
      : s.name === "fsx-eks-cluster"
        ? { ...s, config: { ...s.config, ...clusterExtra } }
        : s,
  );
  const results = await planAll(withExtra, runStack);
  return Object.fromEntries(results.map((r) => [r.spec.name, r.plan]));
}
const ofType = (p: StackPlan, type: string): PlannedResource[] => p.resources.filter((r) => r.type === type);
const named = (p: StackPlan, type: string, name: string): PlannedResource => {
  const found = ofType(p, type).filter((r) => r.name === name);
  if (found.length !== 1) throw new Error(`${found.length} ${type} ${name}`);
  return found[0];
};
const zoneOf = (job: PlannedResource): string[] =>
  (job.inputs as Any).spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
    .matchExpressions[0].values;

/** The runs, in the order they are created and run (stacks/fsx-eks/runs.ts). */
const RUN_ORDER = ["nas-same-seed", "nas-same-latency", "nas-cross-seed", "nas-cross-latency", "gp3-same-seed", "gp3-same-latency"];
const imageOf = (job: PlannedResource): unknown => (job.inputs as Any).spec.template.spec.containers[0].image;

describe("scenario fsx-eks", () => {
  test("network → (fsx-eks-ontap ∥ fsx-eks-cluster) → fsx-eks, by their lab:*Stack keys", () => {
    expect(scenario.stacks.map((s) => [s.name, s.file])).toEqual([
      ["network", "Pulumi.network.yaml"],
      ["fsx-eks-ontap", "Pulumi.fsx-eks-ontap.yaml"],
      ["fsx-eks-cluster", "Pulumi.fsx-eks-cluster.yaml"],
      ["fsx-eks", "Pulumi.fsx-eks.yaml"],
    ]);
    const refs = Object.fromEntries(
      specs().map((s) => [
        s.name,
        Object.entries(s.config)
          .filter(([k]) => /^lab:[A-Za-z]+Stack$/.test(k))
          .map(([, v]) => v.split("/").pop()),
      ]),
    );
    expect(refs).toEqual({
      network: [],
      "fsx-eks-ontap": ["network"],
      "fsx-eks-cluster": ["network"],
      "fsx-eks": ["network", "fsx-eks-ontap", "fsx-eks-cluster"],
    });
  });
});

describe("stack fsx-eks, planned after its upstreams", () => {
  let plans: Record<string, StackPlan>;
  let p: StackPlan;
  let fsx: Record<string, Any>;
  let eks: Record<string, Any>;
  beforeAll(async () => {
    plans = await planScenario();
    p = plans["fsx-eks"];
    fsx = plans["fsx-eks-ontap"].outputs as Record<string, Any>;
    eks = plans["fsx-eks-cluster"].outputs as Record<string, Any>;
  });

  test("the TridentBackendConfig names the planned file system, SVM and secret ARN, the SVM's NFS address and the VPC CIDR", () => {
    const tbc = named(p, "kubernetes:trident.netapp.io/v1:TridentBackendConfig", "trident-ontap-nas").inputs as Any;
    expect(fsx.fileSystemId).toMatch(/^fs-[0-9a-f]{17}$/);
    expect(tbc).toEqual({
      apiVersion: "trident.netapp.io/v1",
      kind: "TridentBackendConfig",
      metadata: { name: "fsx-ontap-nas", namespace: "trident" },
      spec: {
        version: 1,
        storageDriverName: "ontap-nas",
        backendName: "fsx-ontap-nas",
        svm: "ekssvm",
        aws: { fsxFilesystemID: fsx.fileSystemId, apiRegion: "us-east-1" },
        credentials: { name: fsx.credentialsSecretArn, type: "awsarn" },
        dataLIF: fsx.nfsEndpoint.ipAddresses[0],
        autoExportPolicy: true,
        autoExportCIDRs: [plans.network.outputs.vpcCidr],
      },
    });
    expect(fsx.svmName).toBe("ekssvm");
  });

  test("the Trident role (from the eks stack) may read exactly that secret and decrypt with its key", () => {
    const rp = named(p, "aws:iam/rolePolicy:RolePolicy", "trident-svm-secret");
    expect(rp.inputs.role).toBe(eks.tridentRoleName);
    expect(JSON.parse(rp.inputs.policy as string).Statement).toEqual([
      { Sid: "ReadSvmCredentials", Effect: "Allow", Action: "secretsmanager:GetSecretValue", Resource: fsx.credentialsSecretArn },
      {
        Sid: "DecryptSvmCredentials",
        Effect: "Allow",
        Action: "kms:Decrypt",
        Resource: fsx.kmsKeyArn,
        Condition: { StringEquals: { "kms:ViaService": "secretsmanager.us-east-1.amazonaws.com" } },
      },
    ]);
  });

  test("the Trident role may change the volumes of this file system only (its ARN from the fsx-ontap stack), on its SVM", () => {
    const rp = named(p, "aws:iam/rolePolicy:RolePolicy", "trident-fsx-volumes");
    expect(rp.inputs.role).toBe(eks.tridentRoleName);
    const fsArn = fsx.fileSystemArn as string;
    expect(fsArn).toBe(`arn:aws:fsx:us-east-1:123456789012:file-system/${fsx.fileSystemId}`);
    expect(JSON.parse(rp.inputs.policy as string).Statement).toEqual([
      {
        Sid: "TridentFsxVolumesOfOneFileSystem",
        Effect: "Allow",
        Action: [
          "fsx:CreateVolume",
          "fsx:RestoreVolumeFromSnapshot",
          "fsx:UntagResource",
          "fsx:UpdateVolume",
          "fsx:TagResource",
          "fsx:DeleteVolume",
        ],
        Resource: [
          `arn:aws:fsx:us-east-1:123456789012:volume/${fsx.fileSystemId}/*`,
          `arn:aws:fsx:us-east-1:123456789012:storage-virtual-machine/${fsx.fileSystemId}/${fsx.svmId}`,
        ],
      },
    ]);
  });

  test("node security group → FSx security group on exactly the NFS ports and HTTPS (Trident's ONTAP API), each rule described", () => {
    const rules = ofType(p, "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule");
    expect(rules.map((r) => [r.inputs.ipProtocol, r.inputs.fromPort, r.inputs.toPort]).sort()).toEqual(
      [
        ["tcp", 111, 111],
        ["tcp", 2049, 2049],
        ["tcp", 4045, 4045],
        ["tcp", 4046, 4046],
        ["tcp", 443, 443],
        ["tcp", 635, 635],
        ["udp", 111, 111],
        ["udp", 2049, 2049],
        ["udp", 4045, 4045],
        ["udp", 4046, 4046],
        ["udp", 4049, 4049],
        ["udp", 635, 635],
      ].sort(),
    );
    for (const r of rules) {
      expect(r.inputs).toMatchObject({ securityGroupId: fsx.securityGroupId, referencedSecurityGroupId: eks.nodeSecurityGroupId });
      expect(r.inputs.cidrIpv4).toBeUndefined();
      expect(String(r.inputs.description)).toMatch(
        r.inputs.fromPort === 443
          ? /^ONTAP REST API and System Manager over HTTPS \(TCP 443\) from the EKS nodes \(Trident's ONTAP API calls\)$/
          : / from the EKS nodes \(Trident ontap-nas\)$/,
      );
    }
    // The same ports the fsx-ontap component defines (one home: components/fsx-ontap/security.ts).
    expect(rules.length).toBe(ONTAP_INGRESS.filter((x) => x.id.startsWith("nfs-") || x.id === "https-tcp-443").length);
  });

  test("StorageClasses fsx-ontap-nas (Trident, after its backend) and gp3 (EBS CSI)", () => {
    const nas = named(p, "kubernetes:storage.k8s.io/v1:StorageClass", "trident-ontap-nas-class");
    expect(nas.inputs).toMatchObject({
      provisioner: "csi.trident.netapp.io",
      parameters: { backendType: "ontap-nas", provisioningType: "thin", snapshots: "true" },
      reclaimPolicy: "Delete",
      allowVolumeExpansion: true,
      mountOptions: ["nfsvers=4.1", "hard", "proto=tcp", "rsize=262144", "wsize=262144"],
    });
    expect(nas.dependencies).toContain(named(p, "kubernetes:trident.netapp.io/v1:TridentBackendConfig", "trident-ontap-nas").urn);
    expect(named(p, "kubernetes:storage.k8s.io/v1:StorageClass", "gp3").inputs).toMatchObject({
      provisioner: "ebs.csi.aws.com",
      parameters: { type: "gp3", encrypted: "true", "csi.storage.k8s.io/fstype": "ext4" },
    });
    expect(p.outputs.storageClasses).toEqual(["fsx-ontap-nas", "gp3"]);
    expect(p.outputs.backendNames).toEqual(["fsx-ontap-nas"]);
  });

  test("the benchmark pods: FSx runs in the file system's preferred zone and in its standby zone, gp3 in the preferred zone", () => {
    expect([fsx.preferredAz, fsx.standbyAz]).toEqual(["us-east-1a", "us-east-1b"]);
    const jobs = ofType(p, "kubernetes:batch/v1:Job").map((j) => [j.name, zoneOf(j)]);
    expect(jobs.sort()).toEqual(
      [
        ["nas-same-seed-fio", [fsx.preferredAz]],
        ["nas-same-seed-ioping", [fsx.preferredAz]],
        ["nas-same-latency-fio", [fsx.preferredAz]],
        ["nas-cross-seed-fio", [fsx.standbyAz]],
        ["nas-cross-seed-ioping", [fsx.standbyAz]],
        ["nas-cross-latency-fio", [fsx.standbyAz]],
        ["gp3-same-seed-fio", [fsx.preferredAz]],
        ["gp3-same-seed-ioping", [fsx.preferredAz]],
        ["gp3-same-latency-fio", [fsx.preferredAz]],
      ].sort(),
    );
    const pvcs = ofType(p, "kubernetes:core/v1:PersistentVolumeClaim").map((c) => [c.name, (c.inputs as Any).spec.storageClassName]);
    expect(pvcs.sort()).toEqual(
      [
        ["gp3-same-latency-data", "gp3"],
        ["gp3-same-seed-data", "gp3"],
        ["nas-cross-latency-data", "fsx-ontap-nas"],
        ["nas-cross-seed-data", "fsx-ontap-nas"],
        ["nas-same-latency-data", "fsx-ontap-nas"],
        ["nas-same-seed-data", "fsx-ontap-nas"],
      ].sort(),
    );
    expect((p.outputs.benchmarks as Any[]).map((b) => [b.name, b.zone, b.zoneRelation, b.storageClass, b.fioProfile])).toEqual([
      ["nas-same-seed", "us-east-1a", "same", "fsx-ontap-nas", "seed"],
      ["nas-same-latency", "us-east-1a", "same", "fsx-ontap-nas", "latency"],
      ["nas-cross-seed", "us-east-1b", "cross", "fsx-ontap-nas", "seed"],
      ["nas-cross-latency", "us-east-1b", "cross", "fsx-ontap-nas", "latency"],
      ["gp3-same-seed", "us-east-1a", "same", "gp3", "seed"],
      ["gp3-same-latency", "us-east-1a", "same", "gp3", "latency"],
    ]);
  });

  test("one run after the other: each run starts after the previous run's last collection", () => {
    const order = ["nas-same-seed", "nas-same-latency", "nas-cross-seed", "nas-cross-latency", "gp3-same-seed", "gp3-same-latency"];
    const lastCollect = (run: string) =>
      named(p, "command:local:Command", `${run}-${run.endsWith("-seed") ? "ioping" : "fio"}-collect-r1`).urn;
    for (let i = 1; i < order.length; i++) {
      expect(named(p, "kubernetes:core/v1:ConfigMap", `${order[i]}-scripts`).dependencies).toContain(lastCollect(order[i - 1]));
      expect(named(p, "kubernetes:core/v1:PersistentVolumeClaim", `${order[i]}-data`).dependencies).toContain(lastCollect(order[i - 1]));
    }
    // The first waits for the namespace and both StorageClasses.
    const first = named(p, "kubernetes:core/v1:ConfigMap", "nas-same-seed-scripts").dependencies;
    for (const [t, n] of [
      ["kubernetes:core/v1:Namespace", "bench-ns"],
      ["kubernetes:storage.k8s.io/v1:StorageClass", "gp3"],
      ["kubernetes:storage.k8s.io/v1:StorageClass", "trident-ontap-nas-class"],
    ])
      expect(first).toContain(named(p, t, n).urn);
  });

  test("the runs are created outside any apply, in a stable order; each Job waits for the upstream zones", () => {
    expect(ofType(p, "lab:bench:BenchmarkRun").map((r) => r.name)).toEqual(RUN_ORDER);
    // Stack references are read, not registered: the plan has them as dependencies only.
    const ontap = "urn:pulumi:fsx-eks::storage-bench-lab::pulumi:pulumi:StackReference::organization/storage-bench-lab/fsx-eks-ontap";
    const cluster = "urn:pulumi:fsx-eks::storage-bench-lab::pulumi:pulumi:StackReference::organization/storage-bench-lab/fsx-eks-cluster";
    const jobs = ofType(p, "kubernetes:batch/v1:Job");
    expect(jobs).toHaveLength(9);
    for (const j of jobs) expect(j.dependencies).toEqual(expect.arrayContaining([ontap, cluster]));
  });

  test("the tools image: the one the eks stack built (its output images.tools), run by digest; nothing built here", () => {
    const built = (eks.images as Any).tools as string;
    expect(built).toMatch(
      /^123456789012\.dkr\.ecr\.us-east-1\.amazonaws\.com\/storage-bench-lab\/fsx-eks-cluster\/bench-tools:fio-3\.33-ioping-1\.3-[0-9a-f]{12}@sha256:[0-9a-f]{64}$/,
    );
    expect(p.outputs.toolsImage).toBe(built);
    for (const j of ofType(p, "kubernetes:batch/v1:Job")) expect(imageOf(j)).toBe(built);
    for (const t of ["aws:ecr/repository:Repository", "docker-build:index:Image", "lab:image:ToolsImage"]) expect(ofType(p, t)).toEqual([]);
  });

  test("MySQL 8.4 on fsx-ontap-nas after the backend; its namespace and the benchmarks' are restricted", () => {
    const sts = named(p, "kubernetes:apps/v1:StatefulSet", "mysql-servers").inputs as Any;
    expect(sts.spec.volumeClaimTemplates[0].spec.storageClassName).toBe("fsx-ontap-nas");
    expect(sts.spec.template.spec.containers.map((c: Any) => c.image)).toEqual([
      "docker.io/library/mysql:8.4.11",
      "docker.io/percona/percona-xtrabackup:8.4.0-5.1",
    ]);
    expect(named(p, "kubernetes:core/v1:Namespace", "mysql-ns").dependencies).toContain(
      named(p, "kubernetes:storage.k8s.io/v1:StorageClass", "trident-ontap-nas-class").urn,
    );
    for (const ns of ["mysql-ns", "bench-ns"]) {
      expect((named(p, "kubernetes:core/v1:Namespace", ns).inputs as Any).metadata.labels["pod-security.kubernetes.io/enforce"]).toBe(
        "restricted",
      );
    }
    expect(p.outputs.mysql).toEqual({
      namespace: "mysql",
      sourceHost: "mysql-0.mysql.mysql.svc.cluster.local",
      readHost: "mysql-read.mysql.svc.cluster.local",
      replicas: 3,
      statefulSetName: "mysql",
      writerPasswordSecretRef: { name: "mysql-writer", key: "password" },
      storageClass: "fsx-ontap-nas",
    });
    // What lab experiment reads (lab/experiment/outputs.ts): the planned outputs pass its contract.
    expect(p.outputs.kubeconfig).toBe("[secret]");
    expect(p.outputs.region).toBe("us-east-1");
    expect(p.outputs.fileSystemId).toMatch(/^fs-[0-9a-f]{17}$/);
    // The password is not an output: the writer's pod reads it from the Secret writerPasswordSecretRef names.
    expect(Object.keys(p.outputs)).not.toContain("mysqlRootPassword");
    expect(p.outputs.experimentAccess).toEqual({
      "mysql-failover": { namespace: "mysql", serviceAccount: "lab-mysql-failover" },
      "fsx-failover": { namespace: "bench", serviceAccount: "lab-fsx-failover" },
    });
    // The grants' objects, as experiment-access.ts renders them (test/lab/experiment/access.test.ts holds their rules);
    // each benchmark run's collector identity (components/bench/access.ts) is checked in test/components/bench.
    expect(
      p.resources
        .filter((r) => r.type.startsWith("kubernetes:rbac.authorization.k8s.io/") || r.type === "kubernetes:core/v1:ServiceAccount")
        .filter((r) => !r.name.includes("-collect-"))
        .map((r) => `${r.type.split(":").pop()} ${r.name}`)
        .sort(),
    ).toEqual([
      "ClusterRole lab-fsx-failover-clusterrole",
      "ClusterRole lab-mysql-failover-clusterrole",
      "ClusterRoleBinding lab-fsx-failover-clusterbinding",
      "ClusterRoleBinding lab-mysql-failover-clusterbinding",
      "Role lab-fsx-failover-role-bench",
      "Role lab-mysql-failover-role-mysql",
      "RoleBinding lab-fsx-failover-binding-bench",
      "RoleBinding lab-mysql-failover-binding-mysql",
      "ServiceAccount lab-fsx-failover-sa",
      "ServiceAccount lab-mysql-failover-sa",
    ]);
    expect(named(p, "random:index/randomPassword:RandomPassword", "mysql-root").inputs).toMatchObject({ length: 32, special: false });
    // The failover writer's own account: a password of the same kind in its own Secret, which the StatefulSet waits for.
    expect(named(p, "random:index/randomPassword:RandomPassword", "mysql-writer").inputs).toMatchObject({ length: 32, special: false });
    const writerSecret = named(p, "kubernetes:core/v1:Secret", "mysql-writer");
    expect((writerSecret.inputs as Any).metadata).toEqual({ name: "mysql-writer", namespace: "mysql" });
    expect(named(p, "kubernetes:apps/v1:StatefulSet", "mysql-servers").dependencies).toContain(writerSecret.urn);
    // One collector identity per benchmark run, in the benchmarks' namespace.
    expect(
      p.resources
        .filter((r) => r.type === "kubernetes:core/v1:ServiceAccount" && r.name.endsWith("-collect-sa"))
        .map((r) => `${(r.inputs as Any).metadata.namespace}/${(r.inputs as Any).metadata.name}`)
        .sort(),
    ).toEqual(
      ["gp3-same-latency", "gp3-same-seed", "nas-cross-latency", "nas-cross-seed", "nas-same-latency", "nas-same-seed"].map(
        (r) => `bench/${r}-collect`,
      ),
    );
  });

  test("the SAN backend (the cluster's Trident preparing the nodes for iSCSI) adds iSCSI (TCP 3260), an ontap-san backend and its StorageClass; a given tools image is used as is", async () => {
    const both = await planScenario(
      { "lab:sanBackend": "true", "lab:toolsImage": "registry.example.com/lab/tools:fio-3.33-ioping-1.3" },
      { "lab:tridentNodePrep": '["iscsi"]' },
    );
    const q = both["fsx-eks"];
    // The chart's nodePrep (trident-operator 100.2606.0 values.yaml), in the cluster stack; exported for fsx-eks to check.
    expect((named(both["fsx-eks-cluster"], "kubernetes:helm.sh/v4:Chart", "trident-chart").inputs as Any).values).toEqual({
      tridentSilenceAutosupport: true,
      nodePrep: ["iscsi"],
    });
    expect(both["fsx-eks-cluster"].outputs.tridentNodePrep).toEqual(["iscsi"]);
    const iscsi = ofType(q, "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule").filter((r) => r.inputs.fromPort === 3260);
    expect(iscsi.map((r) => [r.inputs.ipProtocol, r.inputs.toPort, r.inputs.description])).toEqual([
      ["tcp", 3260, "iSCSI (TCP 3260) from the EKS nodes (Trident ontap-san)"],
    ]);
    expect((named(q, "kubernetes:trident.netapp.io/v1:TridentBackendConfig", "trident-ontap-san").inputs as Any).spec).toMatchObject({
      storageDriverName: "ontap-san",
      backendName: "fsx-ontap-san",
    });
    expect(q.outputs.storageClasses).toEqual(["fsx-ontap-nas", "fsx-ontap-san", "gp3"]);
    expect(ofType(q, "aws:ecr/repository:Repository")).toEqual([]);
    expect(ofType(q, "docker-build:index:Image")).toEqual([]);
    for (const j of ofType(q, "kubernetes:batch/v1:Job"))
      expect((j.inputs as Any).spec.template.spec.containers[0].image).toBe("registry.example.com/lab/tools:fio-3.33-ioping-1.3");
  });
});

describe("stack fsx-eks, first preview (its upstreams deployed: the tools image's reference known)", () => {
  let deployed: StackPlan;
  let preview: StackPlan;
  beforeAll(async () => {
    deployed = (await planScenario())["fsx-eks"];
    const results = await planAll(specs(), runStack, undefined, { firstPreview: true, firstPreviewOf: ["fsx-eks"] });
    preview = results.find((r) => r.spec.name === "fsx-eks")!.plan;
  });

  test("plans every resource of the deployed plan, the six runs among them, in the same order", () => {
    expect(preview.resources.map((r) => r.urn).sort()).toEqual(deployed.resources.map((r) => r.urn).sort());
    expect(ofType(preview, "lab:bench:BenchmarkRun").map((r) => r.name)).toEqual(RUN_ORDER);
    expect(ofType(preview, "kubernetes:batch/v1:Job")).toHaveLength(9);
    expect(ofType(preview, "command:local:Command")).toHaveLength(9);
  });

  test("the Jobs are the deployed plan's, the image included (the eks stack built it); their zones are known", () => {
    for (const job of ofType(preview, "kubernetes:batch/v1:Job")) {
      const twin = named(deployed, "kubernetes:batch/v1:Job", job.name);
      expect(imageOf(job)).toBe(deployed.outputs.toolsImage);
      expect(job.inputs).toEqual(twin.inputs);
      expect(zoneOf(job)).toEqual(zoneOf(twin));
    }
    for (const t of ["kubernetes:core/v1:ConfigMap", "kubernetes:core/v1:PersistentVolumeClaim"])
      for (const r of ofType(preview, t)) expect(r.inputs).toEqual(named(deployed, t, r.name).inputs);
    const sent = JSON.stringify(preview.resources.map((r) => r.inputs));
    expect(sent).not.toContain(LATER_INPUT_PLACEHOLDERS.zone);
    expect(sent).not.toContain(LATER_INPUT_PLACEHOLDERS.toolsImage);
  });

  test("outputs: where each run goes and its image are known already; the samples are not", () => {
    expect(preview.outputs.benchmarks).toEqual(deployed.outputs.benchmarks);
    expect((preview.outputs.benchmarks as Any[]).map((b) => [b.name, b.zone])).toEqual([
      ["nas-same-seed", "us-east-1a"],
      ["nas-same-latency", "us-east-1a"],
      ["nas-cross-seed", "us-east-1b"],
      ["nas-cross-latency", "us-east-1b"],
      ["gp3-same-seed", "us-east-1a"],
      ["gp3-same-latency", "us-east-1a"],
    ]);
    expect([preview.outputs.toolsImage, preview.outputs.results, preview.outputs.rawOutputs]).toEqual([
      deployed.outputs.toolsImage,
      "<computed>",
      "<computed>",
    ]);
  });
});

describe("the eks stack's first preview (the tools image is built in its update: its reference unknown)", () => {
  test("the image is planned, the output images unknown", async () => {
    const results = await planAll(specs(), runStack, undefined, { firstPreview: true, firstPreviewOf: ["fsx-eks-cluster"] });
    const cluster = results.find((r) => r.spec.name === "fsx-eks-cluster")!.plan;
    expect(ofType(cluster, "docker-build:index:Image").map((r) => r.name)).toEqual(["tools-image"]);
    expect(cluster.outputs.images).toBe("<computed>");
  });
});

describe("samples of the fsx-eks runs (collecting commands answered with real Job logs)", () => {
  const fixture = (f: string) => fs.readFileSync(path.join(ROOT, "test/components/bench/fixtures", f), "utf8");
  /** A two-repetition log of the latency profile, from the one-repetition fixture. */
  const latency2 = (() => {
    const one = fixture("fio-latency-job.txt");
    return one + one.replace(/rep=1/g, "rep=2");
  })();
  const logFor = (name: string): string => {
    if (name.includes("-ioping-")) return fixture("ioping-job.txt");
    return name.includes("-latency-") ? latency2 : fixture("fio-seed-job.txt");
  };

  let samples: Sample[];
  beforeAll(async () => {
    const all = await planScenario({ "lab:reps": "2" });
    const upstream: Record<string, Record<string, unknown>> = {
      network: all.network.outputs,
      "fsx-eks-ontap": all["fsx-eks-ontap"].outputs,
      "fsx-eks-cluster": { ...all["fsx-eks-cluster"].outputs, kubeconfig: "apiVersion: v1\nkind: Config\n" },
    };
    const ctx = { region: "us-east-1" };
    await pulumi.runtime.setMocks(
      {
        newResource(args) {
          if (args.type === "pulumi:pulumi:StackReference") {
            const name = String(args.inputs.name);
            return { id: name, state: { name, outputs: upstream[name.split("/").pop()!], secretOutputNames: [] } };
          }
          const fake = fakeState(args.type, args.name, args.inputs, ctx);
          const extra: Record<string, unknown> = {};
          if (args.type === "command:local:Command" && args.name.includes("-collect-"))
            extra.stdout = collectorStdout(args.inputs, logFor(args.name));
          if (args.type.startsWith("kubernetes:") && args.inputs.metadata)
            extra.metadata = { ...args.inputs.metadata, uid: `uid-${args.name}` };
          return { id: args.custom === false ? undefined : fake.id, state: { ...args.inputs, ...fake.state, ...extra } };
        },
        call: (args) => fakeCall(args.token, args.inputs, ctx),
      },
      "storage-bench-lab",
      "fsx-eks",
      true,
    );
    const spec = specs().find((s) => s.name === "fsx-eks")!;
    const out = await runStack({ ...spec.config, "lab:reps": "2" }, { project: "storage-bench-lab", stack: "fsx-eks" });
    samples = await (pulumi.output(out.results) as unknown as { promise(): Promise<Sample[]> }).promise();
  });

  test("every sample carries its zone relation, zone and StorageClass: same/cross on FSx, same on gp3", () => {
    const seen = new Set(
      samples.map((s) => [s.metadata.zoneRelation, s.metadata.zone, s.metadata.storageClass, s.metadata.tool].join(" ")),
    );
    expect([...seen].sort()).toEqual(
      [
        "cross us-east-1b fsx-ontap-nas fio",
        "cross us-east-1b fsx-ontap-nas ioping",
        "same us-east-1a fsx-ontap-nas fio",
        "same us-east-1a fsx-ontap-nas ioping",
        "same us-east-1a gp3 fio",
        "same us-east-1a gp3 ioping",
      ].sort(),
    );
    for (const s of samples) {
      expect(s.metadata).toMatchObject({
        scenario: "fsx-eks",
        stack: "fsx-eks",
        runId: "r1",
        instanceType: "m5.xlarge",
        hypervisor: "nitro",
        fsxPreferredZone: "us-east-1a",
      });
      expect([1, 2]).toContain(s.metadata.rep);
      // The file system's maintenance window on the runs on FSx, none on gp3; these logs' markers record no
      // repetition window (recorded before the scripts did), so no overlap verdict: never a guess.
      const window = s.metadata.storageClass === "gp3" ? {} : { fsxMaintenanceStart: "7:02:00", fsxMaintenanceMinutes: 120 };
      expect(Object.fromEntries(Object.entries(s.metadata).filter(([k]) => k.startsWith("fsxMaintenance")))).toEqual(window);
    }
    const profiles = (relation: string, sc: string) =>
      [
        ...new Set(
          samples
            .filter((s) => s.metadata.tool === "fio" && s.metadata.zoneRelation === relation && s.metadata.storageClass === sc)
            .map((s) => s.metadata.fioProfile),
        ),
      ].sort();
    expect(profiles("same", "fsx-ontap-nas")).toEqual(["latency", "seed"]);
    expect(profiles("cross", "fsx-ontap-nas")).toEqual(["latency", "seed"]);
    expect(profiles("same", "gp3")).toEqual(["latency", "seed"]);
  });
});

// Last in the file: a failed plan leaves the failed program's pending outputs rejecting.
test("upstream zones that cannot hold the runs (a Single-AZ file system): a config error naming lab:fsxOntapStack, before any resource", async () => {
  // The samples' program (its own mocks) is done only once its outputs are registered.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  await (require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> }).waitForRPCs();
  const all = await planScenario();
  const upstream = new Map(
    Object.entries({
      network: all.network.outputs,
      "fsx-eks-ontap": { ...all["fsx-eks-ontap"].outputs, standbyAz: all["fsx-eks-ontap"].outputs.preferredAz },
      "fsx-eks-cluster": all["fsx-eks-cluster"].outputs,
    }).map(([k, outputs]) => [k, { outputs, secretOutputNames: [] }]),
  );
  const spec = specs().find((s) => s.name === "fsx-eks")!;
  const error = await planAll([spec], runStack, upstream).then(
    () => undefined,
    (e: unknown) => e as PlanError,
  );
  expect(isConfigError(error)).toBe(true);
  expect(error?.message).toBe(
    `'lab:fsxOntapStack' must be the name of a Multi-AZ fsx-ontap stack (its preferred and standby zones are both ${String(all["fsx-eks-ontap"].outputs.preferredAz)}): the cross-zone benchmark needs two zones, got "${spec.config["lab:fsxOntapStack"]}"`,
  );
});

test("no lab:toolsImage and an eks stack that builds no tools image: one config error naming lab:toolsImage and lab:eksStack, before any resource", async () => {
  const upstreams = specs()
    .filter((s) => s.name !== "fsx-eks")
    .map((s) => (s.name === "fsx-eks-cluster" ? { ...s, config: { ...s.config, "lab:images": "[]" } } : s));
  const all = Object.fromEntries((await planAll(upstreams, runStack)).map((r) => [r.spec.name, r.plan]));
  expect(all["fsx-eks-cluster"].outputs.images).toEqual({});
  // An eks stack with images {}, and one deployed before the output existed.
  const { images: _images, ...older } = all["fsx-eks-cluster"].outputs;
  for (const cluster of [all["fsx-eks-cluster"].outputs, older]) {
    const upstream = new Map(
      Object.entries({ network: all.network.outputs, "fsx-eks-ontap": all["fsx-eks-ontap"].outputs, "fsx-eks-cluster": cluster }).map(
        ([k, outputs]) => [k, { outputs, secretOutputNames: [] }],
      ),
    );
    const spec = specs().find((s) => s.name === "fsx-eks")!;
    const error = await planAll([spec], runStack, upstream).then(
      () => undefined,
      (e: unknown) => e as PlanError,
    );
    expect(isConfigError(error)).toBe(true);
    expect(error?.message).toBe(
      "'lab:toolsImage' must be a pinned image with fio and ioping when 'lab:eksStack' (organization/storage-bench-lab/fsx-eks-cluster) builds none (its output images has no tools): add tools to that eks stack's lab:images, or build components/bench/image/Dockerfile elsewhere, push it and set lab:toolsImage to its reference, got nothing",
    );
  }
});
