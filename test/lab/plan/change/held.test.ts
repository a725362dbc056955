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
          "replacing claim kafka/data-0-kafka-brokers-0 deletes it while the broker pods of KafkaNodePool brokers (cluster kafka) mount it, and they stay: " +
          "kubernetes.io/pvc-protection keeps the claim until no pod uses it, so the delete waits 10 minutes and fails, the claim left Terminating",
        source: expect.stringContaining("storage-object-in-use-protection"),
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

  test("a Deployment that mounts the claim holds it; a Job (its pods complete) does not", () => {
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
    expect(deployment.held.map((h) => h.why)).toEqual([expect.stringContaining("while the pods of Deployment pg mount it, and they stay")]);
    const job = diffPlans(
      plan([dyn("1Gi"), mounting("kubernetes:batch/v1:Job", "fio")]),
      plan([dyn("2Gi"), mounting("kubernetes:batch/v1:Job", "fio")]),
    );
    expect(job.held).toEqual([]);
  });
});

describe("the shipped kafka stack", () => {
  const shipped = shippedStacks(ROOT);
  const kafka = shipped.find((s) => s.name === "kafka")!;
  const memo: PlanMemo = new Map();
  const change = (spec: typeof kafka, ...pairs: string[]) =>
    planChange(spec, changedSpec(spec, { changes: pairs }), shipped, runStack, memo);

  test("lab:brokerVolumeGiB: every claim is replaced under its name, none can finish (18 mounted by the brokers, 6 never bind again)", async () => {
    const p = await change(kafka, "lab:brokerVolumeGiB=1024");
    expect(p.held).toHaveLength(24);
    expect(p.held.filter((h) => h.why.includes("KafkaNodePool brokers (cluster kafka) mount it"))).toHaveLength(18);
    expect(p.held.filter((h) => h.name.startsWith("kafka-storage-root-pvc-")).map((h) => h.why)).toContain(
      "the claim kafka-storage/volume-root-0 is deleted and created again under its name: its PersistentVolume kafka-storage-volume-root-0 (Retain) " +
        "stays Released with the deleted claim's uid in its claimRef, and the new claim stays Pending: pulumi-kubernetes waits 5 minutes for it to bind and fails",
    );
  });

  test("lab:dataVolumes down to three: the nine claims of volumes 3-5 are held by the brokers, who keep running until Strimzi rolls them", async () => {
    const p = await change(kafka, 'lab:dataVolumes=["/kafkafsxN1","/kafkafsxN2","/kafkafsxN3"]');
    expect(p.held.map((h) => h.name).sort()).toEqual(
      [3, 4, 5].flatMap((v) => [0, 1, 2].map((b) => `kafka-pvc-data-${v}-kafka-brokers-${b}`)).sort(),
    );
  });

  test("lab:clusterName: the old cluster is deleted before its claims (create first, delete at the end): nothing held", async () => {
    const p = await change(kafka, "lab:clusterName=other-kafka");
    expect(p.held).toEqual([]);
  });

  test("fsx-eks lab:pvcSizeGiB: its claims are mounted by benchmark Jobs only: nothing held, a data refusal as before", async () => {
    const fsx = shipped.find((s) => s.name === "fsx-eks")!;
    const p = await change(fsx, "lab:pvcSizeGiB=200");
    expect(p.held).toEqual([]);
    expect(refusals(p).length).toBeGreaterThan(0);
  });

  test("the instead of other kinds names the stack", () => {
    expect(heldInstead("ceph-k0s", "dev")).toBe(
      "destroy the stack and deploy it again with the new value (`pulumi destroy --stack dev`, then `pulumi up --stack dev`)",
    );
  });
});
