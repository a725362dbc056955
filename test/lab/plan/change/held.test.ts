/**
 * Issue 40 item 6: a change that deletes a PersistentVolume or a claim the running cluster holds
 * cannot finish, and `lab plan --change` refuses it (whatever --allow-replace says), naming what
 * holds it; a claim's deletion is worded by the reclaim policy that really applies.
 */
import { changedSpec, planChange, renderChangePlan } from "../../../../lab/plan/change";
import { diffPlans, refusals } from "../../../../lab/plan/change/diff";
import { heldInstead } from "../../../../lab/plan/change/held";
import { PlanMemo } from "../../../../lab/plan";
import type { PlannedResource, StackPlan } from "../../../../lab/plan/run";
import { shippedStacks } from "../../../../lab/plan/sources";
import { runStack } from "../../../../stacks";
import { ROOT } from "../../../helpers/root";
import { res } from "./support";

jest.setTimeout(180_000);

const PV = "kubernetes:core/v1:PersistentVolume";
const PVC = "kubernetes:core/v1:PersistentVolumeClaim";
const POOL = "kubernetes:kafka.strimzi.io/v1:KafkaNodePool";
const plan = (resources: PlannedResource[], config: Record<string, string> = {}): StackPlan => ({
  stack: "kafka",
  kind: "kafka",
  config,
  resources,
  outputs: {},
});

/** A static NFS volume pre-bound to the claim `claim` in `kafka`, and that claim (the lab's kafka storage, reduced). */
const volume = (server: string, policy?: string) =>
  res(PV, "pv-data-0", {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: "kafka-data-0-kafka-brokers-0" },
    spec: {
      ...(policy ? { persistentVolumeReclaimPolicy: policy } : {}),
      capacity: { storage: "512Gi" },
      nfs: { server, path: "/kafkafsxN1/kafka-brokers-0" },
      claimRef: { namespace: "kafka", name: "data-0-kafka-brokers-0" },
    },
  });
const claim = (
  size: string,
  name = "data-0-kafka-brokers-0",
  spec: Record<string, unknown> = { volumeName: "kafka-data-0-kafka-brokers-0" },
) =>
  res(PVC, `pvc-${name}`, {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace: "kafka" },
    spec: { resources: { requests: { storage: size } }, ...spec },
  });
const pool = (cluster = "kafka") =>
  res(POOL, "pool-brokers", {
    apiVersion: "kafka.strimzi.io/v1",
    kind: "KafkaNodePool",
    metadata: { name: "brokers", namespace: "kafka", labels: { "strimzi.io/cluster": cluster } },
    spec: { replicas: 3, roles: ["broker"] },
  });

describe("deletions a running cluster holds (hand-made plans)", () => {
  test("a claim the brokers mount, replaced: held by pvc-protection; refused even with --allow-replace, with what to do instead", () => {
    const p = diffPlans(
      plan([volume("10.0.0.1", "Retain"), claim("512Gi"), pool()]),
      plan([volume("10.0.0.1", "Retain"), claim("1Ti"), pool()]),
    );
    expect(p.changes).toEqual([
      expect.objectContaining({
        action: "replace",
        name: "pvc-data-0-kafka-brokers-0",
        deleteBeforeReplace: true,
        destroys: {
          what: "the claim; its PersistentVolume kafka-data-0-kafka-brokers-0 and the data stay (reclaim policy Retain), the volume Released",
          data: false,
        },
      }),
    ]);
    expect(p.held).toEqual([
      {
        name: "pvc-data-0-kafka-brokers-0",
        type: PVC,
        why:
          "replacing claim kafka/data-0-kafka-brokers-0 deletes it while the broker pods of KafkaNodePool brokers (cluster kafka) mount it: " +
          "kubernetes.io/pvc-protection keeps a claim until no pod uses it (complete pods too), so the delete waits 10 minutes and fails, the claim left Terminating",
        source: expect.stringContaining("pvc_protection_controller.go podUsesPVC"),
        wait: expect.stringContaining("await.go Deletion"),
      },
    ]);
    // Not a data refusal (Retain keeps the data): refused as a change that cannot finish.
    expect(refusals(p)).toEqual([]);
    const text = renderChangePlan(p, true);
    expect(text).toContain(
      "refused: 1 deletion(s) cannot finish on the running cluster (pvc-data-0-kafka-brokers-0); instead, destroy the stack and deploy it again " +
        "with the new value (`pulumi destroy --stack kafka`, then `pulumi up --stack kafka`), clearing the brokers' directories in between: they stay " +
        "on the FSx volumes (Retain), and the new deployment's prepare Job refuses an earlier cluster's (docs/kinds/kafka.md, \"Re-deploying onto the same file system\") " +
        "(--allow-replace does not accept this)",
    );
    expect(text).toContain("(deleted before its replacement is created [");
  });

  test("the same claim with no pod of it left: the re-created claim never binds to its Retain volume (the old uid stays in its claimRef)", () => {
    const p = diffPlans(plan([volume("10.0.0.1"), claim("512Gi")]), plan([volume("10.0.0.1"), claim("1Ti")]));
    expect(p.held.map((h) => [h.name, h.why])).toEqual([
      [
        "pvc-data-0-kafka-brokers-0",
        "the claim kafka/data-0-kafka-brokers-0 is deleted and created again under its name: its PersistentVolume kafka-data-0-kafka-brokers-0 (Retain) " +
          "stays Released with the deleted claim's uid in its claimRef, and the new claim stays Pending: pulumi-kubernetes waits 5 minutes for it to bind and fails",
      ],
    ]);
    expect(p.held[0].wait).toContain("untilCoreV1PersistentVolumeClaimReady");
  });

  test("a pool of another cluster does not mount the claim; a dynamically provisioned claim under a Delete class is worded so and not held", () => {
    const cls = res("kubernetes:storage.k8s.io/v1:StorageClass", "class", {
      metadata: { name: "fsx-ontap-nas" },
      provisioner: "csi.trident.netapp.io",
    });
    const dyn = (size: string) => claim(size, "data-0-kafka-brokers-0", { storageClassName: "fsx-ontap-nas" });
    const p = diffPlans(plan([cls, dyn("512Gi"), pool("other")]), plan([cls, dyn("1Ti"), pool("other")]));
    expect(p.held).toEqual([]);
    expect(p.changes[0].destroys).toEqual({
      what: "the claim; its volume goes with it under the StorageClass fsx-ontap-nas's Delete reclaim policy",
      data: true,
    });
    expect(refusals(p).map((c) => c.name)).toEqual(["pvc-data-0-kafka-brokers-0"]);
  });

  test("a volume replaced under its claim (a new NFS server): pv-protection holds it; removed with its claim, nothing holds either", () => {
    const replaced = diffPlans(plan([volume("10.0.0.1"), claim("512Gi")]), plan([volume("10.0.0.2"), claim("512Gi")]));
    expect(replaced.held.map((h) => h.why)).toEqual([
      "replacing PersistentVolume kafka-data-0-kafka-brokers-0 deletes it while claim kafka/data-0-kafka-brokers-0 is bound to it: " +
        "kubernetes.io/pv-protection keeps a bound volume, so the delete waits 10 minutes and fails, the volume left Terminating",
    ]);
    expect(replaced.changes[0].destroys).toEqual({
      what: "the PersistentVolume object; the storage it names and its data stay (reclaim policy Retain)",
      data: false,
    });
    // Removed together: the engine deletes the claim (it depends on the volume) before the volume.
    const removed = diffPlans(plan([volume("10.0.0.1"), claim("512Gi")]), plan([]));
    expect(removed.changes.map((c) => c.action)).toEqual(["delete", "delete"]);
    expect(removed.held).toEqual([]);
  });

  test("a Deployment that mounts the claim holds it, and so does a Job: its complete pods still name the claim (podUsesPVC)", () => {
    const mounting = (type: string, name: string) =>
      res(type, name, {
        metadata: { name, namespace: "kafka" },
        spec: { template: { spec: { volumes: [{ name: "d", persistentVolumeClaim: { claimName: "data-0-kafka-brokers-0" } }] } } },
      });
    const dyn = (size: string) => claim(size, "data-0-kafka-brokers-0", {});
    const deployment = diffPlans(
      plan([dyn("1Gi"), mounting("kubernetes:apps/v1:Deployment", "pg")]),
      plan([dyn("2Gi"), mounting("kubernetes:apps/v1:Deployment", "pg")]),
    );
    expect(deployment.held.map((h) => h.why)).toEqual([
      "replacing claim kafka/data-0-kafka-brokers-0 deletes it while the pods of Deployment pg mount it: kubernetes.io/pvc-protection keeps a claim " +
        "until no pod uses it (complete pods too), so the delete waits 10 minutes and fails, the claim left Terminating",
    ]);
    const job = diffPlans(
      plan([dyn("1Gi"), mounting("kubernetes:batch/v1:Job", "fio")]),
      plan([dyn("2Gi"), mounting("kubernetes:batch/v1:Job", "fio")]),
    );
    expect(job.held.map((h) => h.why)).toEqual([expect.stringContaining("while the pods of Job fio mount it: ")]);
    // Removed together (the Job goes before its claim at the end of the update): nothing holds it.
    const removed = diffPlans(plan([dyn("1Gi"), mounting("kubernetes:batch/v1:Job", "fio")]), plan([]));
    expect(removed.held).toEqual([]);
  });

  test("a workload that stays but no longer mounts a claim removed at the end: it may not finish (the pods roll after the update)", () => {
    const jbod = (ids: number[]) =>
      res(POOL, "pool-brokers", {
        metadata: { name: "brokers", namespace: "kafka", labels: { "strimzi.io/cluster": "kafka" } },
        spec: { storage: { type: "jbod", volumes: ids.map((id) => ({ id, type: "persistent-claim" })) } },
      });
    const dyn = (name: string) => claim("1Gi", name, {});
    const p = diffPlans(
      plan([jbod([0, 1]), dyn("data-0-kafka-brokers-0"), dyn("data-1-kafka-brokers-0")]),
      plan([jbod([0]), dyn("data-0-kafka-brokers-0")]),
    );
    expect(p.held.map((h) => [h.name, h.why])).toEqual([
      [
        "pvc-data-1-kafka-brokers-0",
        "deleting claim kafka/data-1-kafka-brokers-0 deletes it while the broker pods of KafkaNodePool brokers (cluster kafka) mount it: " +
          "kubernetes.io/pvc-protection keeps a claim until no pod uses it (complete pods too), and the pods let it go only when their controller " +
          "rolls them, after the update: the delete waits 10 minutes only and may fail, the claim left Terminating",
      ],
    ]);
  });
});

describe("the shipped kafka stack", () => {
  const shipped = shippedStacks(ROOT);
  const kafka = shipped.find((s) => s.name === "kafka")!;
  const memo: PlanMemo = new Map();
  const change = (spec: typeof kafka, ...pairs: string[]) =>
    planChange(spec, changedSpec(spec, { changes: pairs }), shipped, runStack, memo);

  test("lab:brokerVolumeGiB: every claim is replaced under its name, none can finish (18 mounted by the brokers, 6 by the prepare Job's pods)", async () => {
    const p = await change(kafka, "lab:brokerVolumeGiB=1024");
    expect(p.held).toHaveLength(24);
    expect(p.held.filter((h) => h.why.includes("KafkaNodePool brokers (cluster kafka) mount it"))).toHaveLength(18);
    expect(p.held.filter((h) => h.name.startsWith("kafka-storage-root-pvc-")).map((h) => h.why)).toContain(
      "replacing claim kafka-storage/volume-root-0 deletes it while the pods of Job kafka-storage-prepare mount it: kubernetes.io/pvc-protection " +
        "keeps a claim until no pod uses it (complete pods too), so the delete waits 10 minutes and fails, the claim left Terminating",
    );
  });

  test("lab:dataVolumes down to three: the nine claims of volumes 3-5 are held by the brokers, who keep running until Strimzi rolls them", async () => {
    const p = await change(kafka, 'lab:dataVolumes=["/kafkafsxN1","/kafkafsxN2","/kafkafsxN3"]');
    expect(p.held.map((h) => h.name).sort()).toEqual(
      [3, 4, 5].flatMap((v) => [0, 1, 2].map((b) => `kafka-pvc-data-${v}-kafka-brokers-${b}`)).sort(),
    );
  });

  test("lab:clusterName: a creation-time key (the pools own their brokers, not the Kafka)", async () => {
    await expect(change(kafka, "lab:clusterName=other-kafka")).rejects.toThrow(
      /^'lab:clusterName' cannot change on a live kafka stack \(its default -> "other-kafka"\): Strimzi gives a node pool's StrimziPodSet, pods and claims an ownerReference to the KafkaNodePool/,
    );
  });

  test("fsx-eks lab:pvcSizeGiB: the benchmark Jobs' complete pods hold the claims replaced delete-first", async () => {
    const fsx = shipped.find((s) => s.name === "fsx-eks")!;
    const p = await change(fsx, "lab:pvcSizeGiB=200");
    expect(p.held.map((h) => h.name)).toEqual([
      "nas-same-seed-data",
      "nas-same-latency-data",
      "nas-cross-seed-data",
      "nas-cross-latency-data",
      "gp3-same-seed-data",
      "gp3-same-latency-data",
    ]);
    expect(p.held[0].why).toContain("while the pods of Job nas-same-seed-fio-r1 and the pods of Job nas-same-seed-ioping-r1 mount it");
  });

  test("fsx-eks: a StatefulSet that deletes its claims with it destroys data; a StorageClass's immutable reclaim policy replaces it", async () => {
    const fsx = shipped.find((s) => s.name === "fsx-eks")!;
    const mysql = await change(fsx, "lab:mysqlVolumeGiB=100");
    expect(refusals(mysql).map((c) => [c.name, c.destroys])).toEqual([
      [
        "mysql-servers",
        {
          what: "the StatefulSet's pods and its claims (whenDeleted: Delete), and with them their volumes and every byte on them (their StorageClass's reclaim policy)",
          data: true,
        },
      ],
    ]);
    const reclaim = await change(fsx, "lab:reclaimPolicy=Retain");
    expect(reclaim.changes.map((c) => [c.action, c.name, c.inputs.map((i) => i.rule)])).toEqual([
      ["replace", "trident-ontap-nas-class", [expect.stringContaining("replaceOnChanges")]],
    ]);
    expect(reclaim.changes[0].destroys).toEqual({
      what: "the StorageClass (its volumes stay, with the reclaim policy they were provisioned with; new claims wait for the new one)",
      data: false,
    });
  });

  test("objects replaced with their provider (a new cluster) are created first, whatever their name", async () => {
    const dev = shipped.find((s) => s.name === "dev")!;
    const p = await change(dev, "lab:az=us-east-1b", "lab:runId=r2");
    const ns = p.changes.find((c) => c.name === "rook-ns")!;
    expect([ns.action, ns.deleteBeforeReplace, ns.inputs.map((i) => i.path)]).toEqual(["replace", false, ["provider"]]);
  });

  test("the instead of other kinds names the stack", () => {
    expect(heldInstead("ceph-k0s", "dev")).toBe(
      "destroy the stack and deploy it again with the new value (`pulumi destroy --stack dev`, then `pulumi up --stack dev`)",
    );
  });
});
