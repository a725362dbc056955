/**
 * The `kafka-fsx` scenario planned under the project's mocks from the shipped configs: network →
 * (kafka-ontap ∥ kafka-cluster) → kafka; the kafka stack's storage, Strimzi resources, OMB workers
 * and driver runs wired to the planned upstream outputs; the upstream checks; and, under mocks that
 * hand the collecting commands real driver logs, the samples of the matrix.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { planAll, scenarioSpecs } from "../../../lab/plan";
import { fakeCall, fakeState } from "../../../lab/plan/fakes";
import { PlannedResource, StackPlan, StackSpec } from "../../../lab/plan/run";
import { SCENARIOS } from "../../../scenarios";
import { runStack } from "../../../stacks";
import { ONTAP_INGRESS } from "../../../components/fsx-ontap/security";
import { parseOmb } from "../../../core/parsers";
import type { Sample } from "../../../core/sample";
import { kafkaOutputs } from "../../../stacks/kafka/outputs";
import { zoneMetadata } from "../../../stacks/kafka/upstream";
import { buildModel } from "../../../lab/report/model";
import { crdProblems } from "../../helpers/crd";
import { evaluatePlanRules } from "../../../lab/policy/evaluate";
import { ROOT } from "../../helpers/root";
import { collectorStdout } from "../../components/bench/support";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const scenario = SCENARIOS.find((s) => s.name === "kafka-fsx")!;
const specs = () => scenarioSpecs(scenario, ROOT);
const FIXTURE = path.join(ROOT, "test/fixtures/omb/kafka-throughput-1kb.json");

async function planScenario(extra: Record<string, string> = {}): Promise<Record<string, StackPlan>> {
  const withExtra = specs().map((s): StackSpec => (s.name === "kafka" ? { ...s, config: { ...s.config, ...extra } } : s));
  const results = await planAll(withExtra, runStack);
  return Object.fromEntries(results.map((r) => [r.spec.name, r.plan]));
}
const ofType = (p: StackPlan, type: string): PlannedResource[] => p.resources.filter((r) => r.type === type);
/** The OMB driver Jobs (namespace omb), in plan order. */
const drivers = (p: StackPlan) => ofType(p, "kubernetes:batch/v1:Job").filter((j) => (j.inputs as Any).metadata.namespace === "omb");
const named = (p: StackPlan, type: string, name: string): PlannedResource => {
  const found = ofType(p, type).filter((r) => r.name === name);
  if (found.length !== 1) throw new Error(`${found.length} ${type} ${name}`);
  return found[0];
};
const VOLUMES = [1, 2, 3, 4, 5, 6].map((i) => `/kafkafsxN${i}`);
const CELLS = ["kafka-sync-rf1", "kafka-sync-rf3", "kafka-throughput-rf1", "kafka-throughput-rf3"];

/** What the Kafka's and the prepare Job's awaits print after a mount the SVM refused (components/kafka/ontap.ts kafkaMountFix). */
const MOUNT_FIX_TEXT = [
  "the SVM kafkasvm refused an NFS mount of the Kafka data volumes; check on the SVM (ssh fsxadmin@<its management endpoint>):",
  "  vserver export-policy rule show -vserver kafkasvm -policyname lab-kafka-brokers -fields clientmatch,protocol,rorule,rwrule,superuser",
  "    (a rule for 10.0.0.0/18, 10.0.64.0/18, protocol nfs4, rorule/rwrule sys, superuser none: the ontap Job sets it;",
  "    its log: kubectl logs job/kafka-storage-ontap -n kafka-storage)",
  "  volume show -vserver kafkasvm -fields policy,user,group,unix-permissions",
  "    (each data volume: policy lab-kafka-brokers, user 1001, group 0, unix-permissions ---rwxr-x--x: others need search on the root)",
  "then run pulumi up again: the kubelet retries the mount",
].join("\n");

describe("scenario kafka-fsx", () => {
  test("network → (kafka-ontap ∥ kafka-cluster) → kafka, by their lab:*Stack keys", () => {
    expect(scenario.stacks.map((s) => [s.name, s.file])).toEqual([
      ["network", "Pulumi.network.yaml"],
      ["kafka-ontap", "Pulumi.kafka-ontap.yaml"],
      ["kafka-cluster", "Pulumi.kafka-cluster.yaml"],
      ["kafka", "Pulumi.kafka.yaml"],
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
      "kafka-ontap": ["network"],
      "kafka-cluster": ["network"],
      kafka: ["kafka-ontap", "kafka-cluster"],
    });
  });
});

describe("stack kafka, planned after its upstreams", () => {
  let plans: Record<string, StackPlan>;
  let p: StackPlan;
  let fsx: Record<string, Any>;
  let eks: Record<string, Any>;
  let net: Record<string, Any>;
  beforeAll(async () => {
    plans = await planScenario();
    p = plans.kafka;
    fsx = plans["kafka-ontap"].outputs as Record<string, Any>;
    eks = plans["kafka-cluster"].outputs as Record<string, Any>;
    net = plans.network.outputs as Record<string, Any>;
  });

  test("the FSx flavor it runs on: Multi-AZ 4096 MB/s, 160 000 IOPS, six 2 TiB volumes", () => {
    const fs0 = named(plans["kafka-ontap"], "aws:fsx/ontapFileSystem:OntapFileSystem", "fsx-fs").inputs as Any;
    expect(fs0).toMatchObject({
      deploymentType: "MULTI_AZ_1",
      throughputCapacity: 4096,
      diskIopsConfiguration: { mode: "USER_PROVISIONED", iops: 160000 },
    });
    expect(fsx.throughputCapacityMBps).toBe(4096);
    expect((fsx.volumes as Any[]).map((v) => v.junctionPath)).toEqual(VOLUMES);
    expect(ofType(plans["kafka-ontap"], "aws:fsx/ontapVolume:OntapVolume").map((v) => v.inputs.sizeInMegabytes)).toEqual(
      Array(6).fill(2048 * 1024),
    );
  });

  test("18 static PVs (3 brokers × 6 volumes) with nconnect=16 on the SVM's NFS endpoint, each bound to the claim Strimzi names", () => {
    const inKafka = (r: PlannedResource) => !r.name.startsWith("kafka-storage-root-");
    const pvs = ofType(p, "kubernetes:core/v1:PersistentVolume").filter(inKafka);
    const pvcs = ofType(p, "kubernetes:core/v1:PersistentVolumeClaim").filter(inKafka);
    expect([pvs.length, pvcs.length]).toEqual([18, 18]);
    const expected = [0, 1, 2].flatMap((b) => [0, 1, 2, 3, 4, 5].map((v) => ({ b, v })));
    expect(pvcs.map((c) => (c.inputs as Any).metadata.name)).toEqual(expected.map(({ b, v }) => `data-${v}-kafka-brokers-${b}`));
    expect(pvs.map((x) => (x.inputs as Any).spec.nfs)).toEqual(
      expected.map(({ b, v }) => ({ server: fsx.nfsEndpoint.dnsName, path: `${VOLUMES[v]}/kafka-brokers-${b}` })),
    );
    for (const [i, pv] of pvs.entries()) {
      const s = (pv.inputs as Any).spec;
      expect(s.mountOptions).toEqual(["nfsvers=4.1", "nconnect=16"]);
      expect(s.persistentVolumeReclaimPolicy).toBe("Retain");
      expect(s.claimRef).toEqual({
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        namespace: "kafka",
        name: (pvcs[i].inputs as Any).metadata.name,
      });
      expect((pvcs[i].inputs as Any).spec.volumeName).toBe((pv.inputs as Any).metadata.name);
      expect(pvcs[i].dependencies).toContain(pv.urn);
      // The brokers' directories exist (the prepare Job awaited to completion) before a PV can be mounted.
      expect(pv.dependencies).toContain(named(p, "command:local:Command", "kafka-storage-prepare-await").urn);
    }
    expect(p.outputs.dataClaims).toEqual(expected.map(({ b, v }) => `data-${v}-kafka-brokers-${b}`));
    expect(p.outputs.dataVolumes).toEqual(expected.map(({ b, v }) => `kafka-data-${v}-kafka-brokers-${b}`));
  });

  test("the prepare Job mounts the six volume roots through static PVs and claims (no CSI driver, no inline volume), after the ontap Job", () => {
    const job = named(p, "kubernetes:batch/v1:Job", "kafka-storage-prepare");
    const spec = (job.inputs as Any).spec.template.spec;
    expect(spec.volumes.filter((v: Any) => v.csi)).toEqual([]);
    expect(spec.volumes.filter((v: Any) => v.persistentVolumeClaim).map((v: Any) => v.persistentVolumeClaim.claimName)).toEqual(
      VOLUMES.map((_, i) => `volume-root-${i}`),
    );
    const ontapDone = named(p, "command:local:Command", "kafka-storage-ontap-await");
    for (const i of [0, 1, 2, 3, 4, 5]) {
      const pv = named(p, "kubernetes:core/v1:PersistentVolume", `kafka-storage-root-pv-${i}`);
      const pvc = named(p, "kubernetes:core/v1:PersistentVolumeClaim", `kafka-storage-root-pvc-${i}`);
      expect((pv.inputs as Any).spec).toMatchObject({
        nfs: { server: fsx.nfsEndpoint.dnsName, path: VOLUMES[i] },
        mountOptions: ["nfsvers=4.1", "nconnect=16"],
        persistentVolumeReclaimPolicy: "Retain",
        claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: "kafka-storage", name: `volume-root-${i}` },
      });
      expect((pvc.inputs as Any).spec.volumeName).toBe(`kafka-storage-volume-root-${i}`);
      expect(pv.dependencies).toContain(ontapDone.urn);
      expect(job.dependencies).toContain(pvc.urn);
    }
    // No NFS CSI driver at all.
    expect(ofType(p, "kubernetes:helm.sh/v4:Chart").map((c) => c.name)).toEqual(["strimzi-chart"]);
  });

  test("the ontap Job: the SVM's management endpoint and vsadmin (a Secret its await brings from the fsx-ontap stack's secret), the node subnets, the six volumes", () => {
    const job = named(p, "kubernetes:batch/v1:Job", "kafka-storage-ontap");
    const c = (job.inputs as Any).spec.template.spec.containers[0];
    const env = Object.fromEntries(c.env.map((e: Any) => [e.name, e.value]));
    expect(env).toEqual({
      ONTAP_HOST: fsx.svmManagementEndpoint.dnsName,
      SVM_NAME: "kafkasvm",
      POLICY_NAME: "lab-kafka-brokers",
      CLIENT_CIDRS: fsx.clientSubnetCidrs.join(","),
      JUNCTION_PATHS: VOLUMES.join(","),
      OWNER_UID: "1001",
      OWNER_GID: "0",
      ROOT_MODE: "0751",
      ANONYMOUS_UID: "65534",
      CREDENTIALS_DIR: "/credentials",
      PYTHONDONTWRITEBYTECODE: "1",
    });
    expect(fsx.clientSubnetCidrs).toEqual(net.privateSubnetCidrs);
    expect([c.image, c.command]).toEqual(["docker.io/library/python:3.13.16-alpine3.24", ["python3", "/scripts/ontap-exports.py"]]);
    // No Secret in the stack: the Job's await creates it for the time it waits (collect-job.sh JOB_SECRET),
    // its manifest a secret in the plan (never shown), read from the fsx-ontap stack's secret.
    expect(p.resources.filter((x) => x.type === "kubernetes:core/v1:Secret")).toEqual([]);
    expect(job.inputs.spec).toMatchObject({
      template: {
        spec: { volumes: expect.arrayContaining([{ name: "credentials", secret: { secretName: "ontap-vsadmin", defaultMode: 0o440 } }]) },
      },
    });
    // Reached from the nodes on 443 (the only new rule besides NFS), and only by this Job's pods.
    const policy = named(p, "kubernetes:networking.k8s.io/v1:NetworkPolicy", "kafka-storage-ontap-api");
    expect((policy.inputs as Any).spec).toEqual({
      podSelector: { matchLabels: { "app.kubernetes.io/name": "kafka-storage-ontap" } },
      policyTypes: ["Egress"],
      egress: [
        {
          to: fsx.svmManagementEndpoint.ipAddresses.map((ip: string) => ({ ipBlock: { cidr: `${ip}/32` } })),
          ports: [{ protocol: "TCP", port: 443 }],
        },
      ],
    });
    const wait = named(p, "command:local:Command", "kafka-storage-ontap-await");
    expect(wait.inputs.environment).toEqual({
      JOB_NAME: "kafka-storage-ontap",
      JOB_NAMESPACE: "kafka-storage",
      WAIT_TIMEOUT_SECONDS: "900",
      POLL_SECONDS: "5",
      // Its own ServiceAccount (components/bench/access.ts), as the prepare Job's await.
      COLLECTOR_ACCOUNT: "kafka-storage-ontap-collect",
      TOKEN_SECONDS: "1500",
      LAB_KUBECONFIG: "[secret]",
      // The Secret the Job mounts, for the time the await waits: its manifest a secret.
      JOB_SECRET: "[secret]",
      JOB_SECRET_NAME: "ontap-vsadmin",
    });
    expect(wait.dependencies).toContain(job.urn);
  });

  test("the prepare Job names this deployment by the storage namespace's uid (a destroy and a new up get a new one)", () => {
    const job = named(p, "kubernetes:batch/v1:Job", "kafka-storage-prepare");
    const ns = named(p, "kubernetes:core/v1:Namespace", "kafka-storage-ns");
    const env = Object.fromEntries((job.inputs as Any).spec.template.spec.containers[0].env.map((e: Any) => [e.name, e.value]));
    expect(env.OWNER_UID).toBe("1001");
    expect(env.DEPLOYMENT_ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(env.DEPLOYMENT_ID).toBe(
      (fakeState(ns.type, ns.name, ns.inputs as Any, { region: "us-east-1" } as Any).state.metadata as Any).uid,
    );
    expect(job.dependencies).toContain(ns.urn);
  });

  test("the prepare Job is awaited by collect-job.sh (kubectl)", () => {
    const job = named(p, "kubernetes:batch/v1:Job", "kafka-storage-prepare");
    const wait = named(p, "command:local:Command", "kafka-storage-prepare-await");
    expect((job.inputs as Any).metadata.annotations).toEqual({ "pulumi.com/skipAwait": "true" });
    expect(wait.dependencies).toContain(job.urn);
    expect(wait.inputs.create).toBe(fs.readFileSync(path.join(ROOT, "components/bench/scripts/collect-job.sh"), "utf8"));
    expect(wait.inputs.environment).toEqual({
      JOB_NAME: "kafka-storage-prepare",
      JOB_NAMESPACE: "kafka-storage",
      WAIT_TIMEOUT_SECONDS: "900",
      POLL_SECONDS: "5",
      // Its own ServiceAccount (components/bench/access.ts): a token for the wait and 600 s more.
      COLLECTOR_ACCOUNT: "kafka-storage-prepare-collect",
      TOKEN_SECONDS: "1500",
      // it mounts the volume roots: a mount the SVM refuses ends the wait with what to check
      MOUNT_FIX: MOUNT_FIX_TEXT,
      LAB_KUBECONFIG: "[secret]",
    });
    expect(named(p, "command:local:Command", "kafka-storage-ontap-await").inputs.environment).not.toHaveProperty("MOUNT_FIX");
    expect(wait.inputs.interpreter).toEqual(["/bin/sh", "-c"]);
    expect((wait.inputs.triggers as Any[]).length).toBe(1);
    expect(wait.dependencies).toContain(
      named(p, "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding", "kafka-storage-prepare-collect-binding").urn,
    );
    expect((named(p, "kubernetes:rbac.authorization.k8s.io/v1:Role", "kafka-storage-prepare-collect-role").inputs as Any).rules[0]).toEqual(
      {
        apiGroups: ["batch"],
        resources: ["jobs"],
        verbs: ["get"],
        resourceNames: ["kafka-storage-prepare"],
      },
    );
    // The OMB drivers' collectors read as omb-collect, which may get exactly their Jobs.
    expect((named(p, "kubernetes:rbac.authorization.k8s.io/v1:Role", "omb-collect-role").inputs as Any).rules[0].resourceNames).toEqual(
      p.resources
        .filter((r) => r.type === "kubernetes:batch/v1:Job" && r.name.startsWith("omb-"))
        .map((r) => (r.inputs as Any).metadata.name),
    );
    expect(fsx.svmName).toBe("kafkasvm");
  });

  test("the Kafka is awaited by collect-job.sh (KAFKA_NAME) as a collector that may read it, list pods and events, and nothing else; OMB waits for that", () => {
    const kafka = named(p, "kubernetes:kafka.strimzi.io/v1:Kafka", "kafka-kafka");
    const wait = named(p, "command:local:Command", "kafka-kafka-await");
    expect((kafka.inputs as Any).metadata.annotations).toEqual({ "pulumi.com/skipAwait": "true" });
    expect(wait.dependencies).toContain(kafka.urn);
    expect(wait.dependencies).toContain(named(p, "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding", "kafka-kafka-collect-binding").urn);
    expect(wait.inputs.create).toBe(fs.readFileSync(path.join(ROOT, "components/bench/scripts/collect-job.sh"), "utf8"));
    expect(wait.inputs.environment).toEqual({
      KAFKA_NAME: "kafka",
      JOB_NAMESPACE: "kafka",
      WAIT_TIMEOUT_SECONDS: "1800",
      POLL_SECONDS: "15",
      MOUNT_FIX: MOUNT_FIX_TEXT,
      COLLECTOR_ACCOUNT: "kafka-kafka-collect",
      TOKEN_SECONDS: "2400",
      LAB_KUBECONFIG: "[secret]",
    });
    // re-awaited when the Kafka is created again (uid) or its spec changes (generation)
    expect((wait.inputs.triggers as Any[]).length).toBe(2);
    expect((named(p, "kubernetes:rbac.authorization.k8s.io/v1:Role", "kafka-kafka-collect-role").inputs as Any).rules).toEqual([
      { apiGroups: ["kafka.strimzi.io"], resources: ["kafkas"], verbs: ["get"], resourceNames: ["kafka"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
      { apiGroups: [""], resources: ["events"], verbs: ["list"] },
    ]);
  });

  test("NetworkPolicies: default deny and DNS in kafka, kafka-storage and omb, then exactly the flows; k8s-service-network-policy passes with no exception", () => {
    const byNs = (ns: string) =>
      ofType(p, "kubernetes:networking.k8s.io/v1:NetworkPolicy")
        .filter((x) => (x.inputs as Any).metadata.namespace === ns)
        .map((x) => (x.inputs as Any).metadata.name)
        .sort();
    expect(byNs("kafka")).toEqual(["allow-dns", "default-deny", "kafka-egress"]);
    expect(byNs("kafka-storage")).toEqual(["allow-dns", "allow-ontap-api", "default-deny"]);
    // the operator's namespace too, its policies before its chart (with the node subnets and the API server's address)
    expect(byNs("strimzi")).toEqual(["allow-dns", "default-deny", "strimzi-operator-egress"]);
    const operatorEgress = named(p, "kubernetes:networking.k8s.io/v1:NetworkPolicy", "strimzi-policy-strimzi-operator-egress");
    expect((operatorEgress.inputs as Any).spec.egress[0].to).toEqual([
      { ipBlock: { cidr: "172.20.0.1/32" } },
      { ipBlock: { cidr: "10.0.0.0/18" } },
      { ipBlock: { cidr: "10.0.64.0/18" } },
    ]);
    expect(named(p, "kubernetes:helm.sh/v4:Chart", "strimzi-chart").dependencies).toContain(operatorEgress.urn);
    expect(byNs("omb")).toEqual(["allow-dns", "default-deny", "omb-driver-egress", "omb-kafka-egress", "omb-worker-ingress"]);
    const egress = named(p, "kubernetes:networking.k8s.io/v1:NetworkPolicy", "kafka-policy-kafka-egress");
    // The API server at the `kubernetes` Service's address (the first of the eks stack's Service range), and the node subnets.
    expect((egress.inputs as Any).spec.egress[1].to).toEqual([
      { ipBlock: { cidr: "172.20.0.1/32" } },
      ...net.privateSubnetCidrs.map((cidr: string) => ({ ipBlock: { cidr } })),
    ]);
    // The Kafka resource and the workers wait for their namespace's policies.
    expect(named(p, "kubernetes:kafka.strimzi.io/v1:Kafka", "kafka-kafka").dependencies).toContain(egress.urn);
    const workers = named(p, "kubernetes:apps/v1:StatefulSet", "omb-workers");
    expect(workers.dependencies).toContain(named(p, "kubernetes:networking.k8s.io/v1:NetworkPolicy", "omb-policy-omb-worker-ingress").urn);
    expect(
      evaluatePlanRules(p.resources.map((x) => ({ urn: x.urn, type: x.type, name: x.name, inputs: x.inputs as Record<string, unknown> }))),
    ).toEqual([]);
  });

  test("the Kubernetes provider has no deleteUnreachable: a refresh against an unreachable cluster fails instead of dropping the objects", () => {
    const provider = named(p, "pulumi:providers:kubernetes", "kafka-cluster");
    expect(provider.inputs.deleteUnreachable).toBeUndefined();
    expect(provider.inputs.kubeconfig).toBeDefined();
  });

  test("the EKS nodes may reach the file system on exactly the NFS ports and HTTPS (the SVM's ONTAP API)", () => {
    const rules = ofType(p, "aws:vpc/securityGroupIngressRule:SecurityGroupIngressRule");
    expect(rules.map((r) => r.name)).toEqual(
      ONTAP_INGRESS.filter((x) => x.id.startsWith("nfs-") || x.id === "https-tcp-443").map((x) => `kafka-${x.id}`),
    );
    for (const r of rules) {
      expect(r.inputs).toMatchObject({ securityGroupId: fsx.securityGroupId, referencedSecurityGroupId: eks.nodeSecurityGroupId });
      expect(String(r.inputs.description)).toMatch(
        r.name === "kafka-https-tcp-443"
          ? / from the EKS nodes \(Kafka storage preparation: the ONTAP REST API of the SVM\)$/
          : / from the EKS nodes \(Kafka brokers, storage preparation\)$/,
      );
    }
  });

  test("Strimzi 1.2.0 from its OCI chart, watching the Kafka namespace; the Kafka resources validate against its CRDs and wait for it", () => {
    const chart = named(p, "kubernetes:helm.sh/v4:Chart", "strimzi-chart");
    expect(chart.inputs).toMatchObject({
      chart: "oci://quay.io/strimzi-helm/strimzi-kafka-operator",
      version: "1.2.0",
      namespace: "strimzi",
      values: { watchNamespaces: ["kafka"], extraEnvs: [{ name: "STRIMZI_POD_SECURITY_PROVIDER_CLASS", value: "restricted" }] },
    });
    expect(chart.dependencies).toContain(named(p, "kubernetes:core/v1:Namespace", "strimzi-watch-kafka").urn);
    const kafka = named(p, "kubernetes:kafka.strimzi.io/v1:Kafka", "kafka-kafka");
    const brokers = named(p, "kubernetes:kafka.strimzi.io/v1:KafkaNodePool", "kafka-pool-brokers");
    const controllers = named(p, "kubernetes:kafka.strimzi.io/v1:KafkaNodePool", "kafka-pool-controllers");
    expect(crdProblems("kafka.strimzi.io", "Kafka", kafka.inputs)).toEqual([]);
    expect(crdProblems("kafka.strimzi.io", "KafkaNodePool", brokers.inputs)).toEqual([]);
    expect(crdProblems("kafka.strimzi.io", "KafkaNodePool", controllers.inputs)).toEqual([]);
    for (const r of [kafka, brokers, controllers]) expect(r.dependencies).toContain(chart.urn);
    expect(kafka.dependencies).toEqual(expect.arrayContaining([brokers.urn, controllers.urn]));
    // The broker pool after every claim it adopts; the controllers' gp3 class exists first.
    for (const c of ofType(p, "kubernetes:core/v1:PersistentVolumeClaim").filter((c) => (c.inputs as Any).metadata.namespace === "kafka"))
      expect(brokers.dependencies).toContain(c.urn);
    expect(controllers.dependencies).toContain(named(p, "kubernetes:storage.k8s.io/v1:StorageClass", "gp3").urn);
    expect((kafka.inputs as Any).spec.kafka.config).toMatchObject({
      "num.network.threads": 64,
      "num.io.threads": 64,
      "num.replica.fetchers": 20,
      "replica.fetch.max.bytes": 524288000,
      "background.threads": 20,
      "num.replica.alter.log.dirs.threads": 40,
      "socket.request.max.bytes": 104857600,
    });
    expect(p.outputs).toMatchObject({
      bootstrapServers: "kafka-kafka-bootstrap.kafka.svc.cluster.local:9092",
      kafkaVersion: "4.3.1",
      strimziVersion: "1.2.0",
    });
  });

  test("zones: brokers, OMB workers and drivers pinned to the file system's preferred zone; the controllers are not", () => {
    const preferred = fsx.preferredAz as string;
    expect(preferred).toBe("us-east-1a");
    const terms = (spec: Any) => spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
    const pinned = (group: string) => [
      {
        matchExpressions: [
          { key: "storage-bench-lab/node-group", operator: "In", values: [group] },
          { key: "topology.kubernetes.io/zone", operator: "In", values: [preferred] },
        ],
      },
    ];
    const pool = (n: string) => (named(p, "kubernetes:kafka.strimzi.io/v1:KafkaNodePool", n).inputs as Any).spec.template.pod;
    expect(terms(pool("kafka-pool-brokers"))).toEqual(pinned("brokers"));
    expect(terms(pool("kafka-pool-controllers"))).toEqual([
      { matchExpressions: [{ key: "storage-bench-lab/node-group", operator: "In", values: ["system"] }] },
    ]);
    expect(terms((named(p, "kubernetes:apps/v1:StatefulSet", "omb-workers").inputs as Any).spec.template.spec)).toEqual(pinned("clients"));
    for (const j of drivers(p)) expect(terms((j.inputs as Any).spec.template.spec)).toEqual(pinned("clients"));
    // The groups they run on are in that zone only (Pulumi.kafka-cluster.yaml: zone 0).
    const groups = Object.fromEntries((eks.nodeGroups as Any[]).map((g) => [g.name, g.zones]));
    expect(groups).toEqual({ system: ["us-east-1a", "us-east-1b"], brokers: [preferred], clients: [preferred] });
  });

  test("lab:zonePlacement spread: no zone pin; a value it does not know is refused", async () => {
    const q = (await planScenario({ "lab:zonePlacement": "spread" })).kafka;
    const exprs = (spec: Any) =>
      spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions;
    const brokers = (named(q, "kubernetes:kafka.strimzi.io/v1:KafkaNodePool", "kafka-pool-brokers").inputs as Any).spec.template.pod;
    expect(exprs(brokers)).toEqual([{ key: "storage-bench-lab/node-group", operator: "In", values: ["brokers"] }]);
    for (const j of drivers(q))
      expect(exprs((j.inputs as Any).spec.template.spec)).toEqual([
        { key: "storage-bench-lab/node-group", operator: "In", values: ["clients"] },
      ]);
    await expect(planScenario({ "lab:zonePlacement": "near" })).rejects.toThrow(
      "'lab:zonePlacement' must be preferred (brokers and OMB clients in the file system's preferred zone) or spread (wherever their node groups run: NFS, replication and client traffic cross zones, billed as inter-AZ transfer), got \"near\"",
    );
  });

  test("OMB: the image the eks stack built from upstream's Dockerfile (its output images.omb), run by the workers and every driver; nothing built here", () => {
    const built = (plans["kafka-cluster"].outputs.images as Any).omb as string;
    expect(built).toMatch(
      /^123456789012\.dkr\.ecr\.us-east-1\.amazonaws\.com\/storage-bench-lab\/kafka-cluster\/omb:omb-85599891321c@sha256:[0-9a-f]{64}$/,
    );
    expect(p.outputs.ombImage).toBe(built);
    const sts = named(p, "kubernetes:apps/v1:StatefulSet", "omb-workers").inputs as Any;
    expect(sts.spec.template.spec.containers[0].image).toBe(built);
    for (const j of drivers(p)) expect((j.inputs as Any).spec.template.spec.containers[0].image).toBe(built);
    for (const t of ["aws:ecr/repository:Repository", "docker-build:index:Image", "lab:omb:OmbImage"]) expect(ofType(p, t)).toEqual([]);
  });

  test("four driver runs, {sync, throughput} × {RF1, RF3}, one after the other; each gets the four workers", () => {
    const jobs = drivers(p);
    expect(jobs.map((j) => (j.inputs as Any).metadata.name)).toEqual(CELLS.map((c) => `omb-${c}-r1`));
    const collect = (c: string) => named(p, "command:local:Command", `omb-${c}-collect-r1`);
    expect(jobs[0].dependencies).toContain(named(p, "command:local:Command", "kafka-kafka-await").urn);
    for (let i = 1; i < CELLS.length; i++) expect(jobs[i].dependencies).toContain(collect(CELLS[i - 1]).urn);
    const workers = [0, 1, 2, 3].map((i) => `http://omb-worker-${i}.omb-worker.omb.svc.cluster.local:8080`);
    for (const j of jobs) {
      const env = Object.fromEntries((j.inputs as Any).spec.template.spec.containers[0].env.map((e: Any) => [e.name, e.value]));
      expect(env.WORKERS).toBe(workers.join(","));
    }
    expect(p.outputs.workerUrls).toEqual(workers);
    expect((p.outputs.benchmarks as Any[]).map((b) => [b.name, b.driver, b.replicationFactor, b.jobName])).toEqual([
      ["kafka-sync-rf1", "kafka-sync", 1, "omb-kafka-sync-rf1-r1"],
      ["kafka-sync-rf3", "kafka-sync", 3, "omb-kafka-sync-rf3-r1"],
      ["kafka-throughput-rf1", "kafka-throughput", 1, "omb-kafka-throughput-rf1-r1"],
      ["kafka-throughput-rf3", "kafka-throughput", 3, "omb-kafka-throughput-rf3-r1"],
    ]);
    const cm = named(p, "kubernetes:core/v1:ConfigMap", "omb-config").inputs as Any;
    expect(Object.keys(cm.data).sort()).toEqual(
      [...CELLS.map((c) => `driver-${c}.yaml`), "driver.sh", "log4j2.yaml", "workload.yaml"].sort(),
    );
    expect(cm.data["driver-kafka-sync-rf3.yaml"]).toContain("  bootstrap.servers=kafka-kafka-bootstrap.kafka.svc.cluster.local:9092\n");
  });

  test("the outputs match the schemas the lab reads them with (stacks/kafka/outputs.ts)", () => {
    for (const [name, schema] of Object.entries(kafkaOutputs))
      expect([name, schema.safeParse(p.outputs[name]).success]).toEqual([name, true]);
    expect(Object.keys(p.outputs).filter((k) => !(k in kafkaOutputs))).toEqual(["results", "rawOutputs", "expiresAt"]);
  });

  test("a given OMB image is used as it is: nothing is built", async () => {
    const q = (await planScenario({ "lab:ombImage": "registry.example.com/lab/omb:omb-85599891321c" })).kafka;
    expect(ofType(q, "aws:ecr/repository:Repository")).toEqual([]);
    expect(ofType(q, "docker-build:index:Image")).toEqual([]);
    for (const j of drivers(q))
      expect((j.inputs as Any).spec.template.spec.containers[0].image).toBe("registry.example.com/lab/omb:omb-85599891321c");
  });
});

describe("upstream checks (the CLI's plan: a mismatch is a config error naming the keys, exit 2, before any resource)", () => {
  /** `lab plan --config` of Pulumi.kafka.yaml with `edit` applied; its exit status and stderr's lines. */
  function planEdited(edit: (yaml: string) => string): { status: number | null; lines: string[] } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kafka-plan-"));
    try {
      const file = path.join(dir, "Pulumi.kafka-check.yaml");
      fs.writeFileSync(file, edit(fs.readFileSync(path.join(ROOT, "Pulumi.kafka.yaml"), "utf8")));
      const r = spawnSync(process.execPath, [path.join(ROOT, "bin/lab.js"), "plan", "--config", file], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 120000,
      });
      return { status: r.status, lines: r.stderr.split("\n").filter((l) => l !== "") };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test("an EKS stack without the brokers', controllers' and clients' groups and without an OMB image, and a volume the file system lacks: every problem at once", () => {
    const r = planEdited((y) =>
      y
        .replace("organization/storage-bench-lab/kafka-cluster", "organization/storage-bench-lab/fsx-eks-cluster")
        .replace("/kafkafsxN6]", "/kafkafsxN7]"),
    );
    expect(r).toEqual({
      status: 2,
      lines: [
        "stack kafka-check: 'lab:brokerNodeGroup' must be a node group of 'lab:eksStack' labelled storage-bench-lab/node-group=<name> (its groups: workers), got \"brokers\"",
        "'lab:controllerNodeGroup' must be a node group of 'lab:eksStack' labelled storage-bench-lab/node-group=<name> (its groups: workers), got \"system\"",
        "'lab:clientNodeGroup' must be a node group of 'lab:eksStack' labelled storage-bench-lab/node-group=<name> (its groups: workers), got \"clients\"",
        "'lab:dataVolumes[5]' must be a junction path of a volume of 'lab:fsxOntapStack' (its junction paths: /kafkafsxN1, /kafkafsxN2, /kafkafsxN3, /kafkafsxN4, /kafkafsxN5, /kafkafsxN6), got \"/kafkafsxN7\"",
        // fsx-eks-cluster builds the tools image only (lab:images: [tools])
        "'lab:ombImage' must be a pinned OpenMessaging Benchmark image when 'lab:eksStack' (organization/storage-bench-lab/fsx-eks-cluster) builds none (its output images has no omb): add omb to that eks stack's lab:images, or build docker/Dockerfile.build of openmessaging/benchmark elsewhere, push it and set lab:ombImage to its reference, got nothing",
      ],
    });
  });
});

describe("samples of the matrix (collecting commands answered with a driver log)", () => {
  // driver.sh's marker: the repetition's window (a Wednesday, outside the Sunday 02:00 maintenance window)
  const LOG = `=== LAB-RESULT-BEGIN tool=omb rep=1 start=2026-12-02T10:00:00Z end=2026-12-02T10:06:10Z ===\n${fs.readFileSync(FIXTURE, "utf8")}\n=== LAB-RESULT-END tool=omb rep=1 ===\n`;
  let samples: Sample[];
  let all: Record<string, StackPlan>;
  beforeAll(async () => {
    all = await planScenario();
    const upstream: Record<string, Record<string, unknown>> = {
      network: all.network.outputs,
      "kafka-ontap": all["kafka-ontap"].outputs,
      "kafka-cluster": { ...all["kafka-cluster"].outputs, kubeconfig: "apiVersion: v1\nkind: Config\n" },
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
          if (args.type === "command:local:Command" && args.name.includes("-collect-")) extra.stdout = collectorStdout(args.inputs, LOG);
          if (args.type.startsWith("kubernetes:") && args.inputs.metadata)
            extra.metadata = { ...args.inputs.metadata, uid: `uid-${args.name}` };
          return { id: args.custom === false ? undefined : fake.id, state: { ...args.inputs, ...fake.state, ...extra } };
        },
        call: (args) => fakeCall(args.token, args.inputs, ctx),
      },
      "storage-bench-lab",
      "kafka",
      true,
    );
    const spec = specs().find((s) => s.name === "kafka")!;
    const out = await runStack(
      { ...spec.config, "lab:ombImage": "registry.example.com/lab/omb:omb-85599891321c" },
      { project: "storage-bench-lab", stack: "kafka" },
    );
    samples = await (pulumi.output(out.results) as unknown as { promise(): Promise<Sample[]> }).promise();
  });

  test("every cell's samples, in matrix order, carry driver file, RF, workload, instance types, FSx throughput and every broker's and worker's zone", () => {
    const parsed = parseOmb(fs.readFileSync(FIXTURE, "utf8"), "fixture");
    expect(samples).toHaveLength(4 * parsed.length);
    const cells = [
      ["kafka-sync", 1],
      ["kafka-sync", 3],
      ["kafka-throughput", 1],
      ["kafka-throughput", 3],
    ] as const;
    samples.forEach((s, i) => {
      const [driverConfig, replicationFactor] = cells[Math.floor(i / parsed.length)];
      expect(s.metric).toBe(parsed[i % parsed.length].metric);
      expect(s.metadata).toEqual({
        ...parsed[i % parsed.length].metadata,
        scenario: "kafka-fsx",
        stack: "kafka",
        runId: "r1",
        rep: 1,
        driverConfig,
        replicationFactor,
        ombWorkload: "netapp-4-topics-32kb",
        ombPayload: "randomized: 0.5 random bytes, 100 payloads", // NetApp's block: OMB's half-random payloads
        testDurationMinutes: 5,
        ombWorkers: 4,
        brokerInstanceType: "i3en.2xlarge",
        clientInstanceType: "c5n.2xlarge",
        fsxThroughputCapacityMBps: 4096,
        kafkaVersion: "4.3.1",
        brokers: 3,
        dataVolumes: 6,
        fsxVolumeStyle: "FLEXGROUP, 8 constituents per aggregate", // the kafka-ontap stack's volumes, as NetApp's
        nfsMountOptions: "nfsvers=4.1,nconnect=16",
        networkPolicyEnforced: true, // the eks stack's output: a difference from NetApp's testbed
        repStart: "2026-12-02T10:00:00Z",
        repEnd: "2026-12-02T10:06:10Z",
        // the fsx-ontap stack's window (its lab:maintenanceWindow, one HA pair) and the verdict
        fsxMaintenanceStart: "7:02:00",
        fsxMaintenanceMinutes: 120,
        fsxMaintenanceOverlap: false,
        // Every broker and worker in the preferred zone (exact values: upstream.test.ts).
        ...zoneMetadata("preferred", "us-east-1a", { brokerGroupZones: ["us-east-1a"], clientGroupZones: ["us-east-1a"] }, 3, 4),
      });
    });
    // The report pairs the cells like for like: RF3 / RF1 of omb.throughput, one ratio per driver file.
    const m = buildModel([{ file: "kafka/r1/samples.json", samples }]);
    const ratios = m.experiments[0].ratios.filter((r) => r.metric === "omb.throughput");
    expect(ratios.map((r) => [r.comparison.title, r.estimate.ratio])).toEqual([
      ["RF3 / RF1", 1],
      ["RF3 / RF1", 1],
    ]);
    // The parser's own keys (the result file's workload and driver names) are kept.
    expect(samples[0].metadata).toMatchObject({ tool: "omb", driver: "Kafka", workload: parsed[0].metadata.workload });
  });
});
