/**
 * The method tables (lab/report/methods.ts) against the shipped stacks as planned: every row's lab
 * value is what the plan holds, and a row marked "same" has the published value. A config that
 * diverges from its table unlisted fails here (shown below by a plan with one value changed).
 */
import * as path from "node:path";
import { CEPH_METHOD, FSX_METHOD, KAFKA_METHOD, METHOD_TABLES, type MethodTable } from "../../../lab/report/methods";
import { planAll } from "../../../lab/plan";
import type { StackPlan } from "../../../lab/plan/run";
import { readStackConfigFile } from "../../../lab/plan/sources";
import { runStack } from "../../../stacks";

const ROOT = path.resolve(__dirname, "../../..");
const shipped = (stack: string) => readStackConfigFile(path.join(ROOT, `Pulumi.${stack}.yaml`), stack);

/** The table's stacks planned together; `extra` config on `stack`. */
async function plans(t: MethodTable, stack = t.stack, extra: Record<string, string> = {}): Promise<Map<string, StackPlan>> {
  const specs = t.stacks.map((s) => (s === stack ? { ...shipped(s), config: { ...shipped(s).config, ...extra } } : shipped(s)));
  const results = await planAll(specs, runStack);
  return new Map(results.map((r) => [r.spec.name, r.plan]));
}
const plan = async (stack: string, extra: Record<string, string> = {}) =>
  plans({ ...CEPH_METHOD, stack, stacks: ["network", stack] }, stack, extra);

/** Rows whose lab value is not what the plan holds, or that say "same" of different values. */
function divergences(t: MethodTable, ps: Map<string, StackPlan>, primary = t.stack): string[] {
  const out: string[] = [];
  for (const r of t.rows) {
    const p = ps.get(r.stack ?? primary);
    if (p === undefined) throw new Error(`${t.experiment}: no plan of ${r.stack ?? primary}`);
    const planned = r.read(p);
    if (planned !== r.lab) out.push(`${r.parameter}: the table says ${r.lab}, the plan holds ${planned}`);
    if (r.differs === undefined && (r.publishedAs ?? r.published) !== planned)
      out.push(`${r.parameter}: marked same, but published ${r.publishedAs ?? r.published} and planned ${planned}`);
  }
  return out;
}

test("every method table's rows hold for its shipped stack as planned", async () => {
  for (const t of METHOD_TABLES) expect([t.experiment, divergences(t, await plans(t))]).toEqual([t.experiment, []]);
  // The source cited: every row names a file of the repository (or its results, or the post).
  for (const r of CEPH_METHOD.rows) expect(r.source).toMatch(/^(pulumi|k0s|k8s|config|results)\//);
  for (const r of FSX_METHOD.rows) expect(r.source).toMatch(/^(FSxONTAP|eks)\/|^the AWS blog post/);
  // Kafka: a section of NetApp's FSx page or of the Cloud Volumes ONTAP page it reuses, or said to be unstated.
  for (const r of KAFKA_METHOD.rows) expect(r.source).toMatch(/^(FSx page|CVO page), [A-Z]|^not stated$/);
  expect(METHOD_TABLES.map((t) => t.experiment)).toEqual(["fsx-eks", "kafka-fsx", "ceph-nitro"]);
});

test("the Kafka table catches a shipped value changed without its row: upstream's 1 KiB workload, three repetitions", async () => {
  const ps = await plans(KAFKA_METHOD, "kafka", { "lab:ombWorkload": "1-topic-100-partitions-1kb", "lab:reps": "3" });
  expect(divergences(KAFKA_METHOD, ps)).toEqual([
    "OMB workload: the table says topics 4, partitionsPerTopic 100, messageSize 32768, useRandomizedPayloads true, randomBytesRatio 0.5, randomizedPayloadPoolSize 100, subscriptionsPerTopic 1, consumerPerSubscription 80, producersPerTopic 40, producerRate 1000000, consumerBacklogSizeGB 0, testDurationMinutes 5, the plan holds topics 1, partitionsPerTopic 100, messageSize 1024, payloadFile payload/payload-1Kb.data, subscriptionsPerTopic 1, consumerPerSubscription 1, producersPerTopic 1, producerRate 50000, consumerBacklogSizeGB 0, testDurationMinutes 5",
    "OMB workload: marked same, but published topics 4, partitionsPerTopic 100, messageSize 32768, useRandomizedPayloads true, randomBytesRatio 0.5, randomizedPayloadPoolSize 100, subscriptionsPerTopic 1, consumerPerSubscription 80, producersPerTopic 40, producerRate 1000000, consumerBacklogSizeGB 0, testDurationMinutes 5 and planned topics 1, partitionsPerTopic 100, messageSize 1024, payloadFile payload/payload-1Kb.data, subscriptionsPerTopic 1, consumerPerSubscription 1, producersPerTopic 1, producerRate 50000, consumerBacklogSizeGB 0, testDurationMinutes 5",
    "message size in the text: the table says 32768 bytes, the plan holds 1024 bytes",
    "repetitions: the table says 1, the plan holds 3",
  ]);
});

test("a shipped value changed without its row is caught: 40 clients, kube-router, Ceph on the host network", async () => {
  const p = await plan("dev", {
    "lab:pgbenchClients": "40",
    "lab:cni": "kuberouter",
    "lab:wireguard": "false",
    "lab:cephHostNetwork": "true",
  });
  expect(divergences(CEPH_METHOD, p)).toEqual([
    "CNI: the table says calico, mode vxlan, vxlanPort 4789, vxlanVNI 4096, mtu 1450, wireguard true, the plan holds kuberouter, mode undefined, vxlanPort undefined, vxlanVNI undefined, mtu undefined, wireguard undefined",
    "CNI: marked same, but published calico, mode vxlan, vxlanPort 4789, vxlanVNI 4096, mtu 1450, wireguard true and planned kuberouter, mode undefined, vxlanPort undefined, vxlanVNI undefined, mtu undefined, wireguard undefined",
    "Ceph network: the table says the pod network, the plan holds host",
    "Ceph network: marked same, but published the pod network and planned host",
    "pgbench run: the table says pgbench -c 20 -j 2 -T 300 -r, the plan holds pgbench -c 40 -j 2 -T 300 -r",
    "pgbench run: marked same, but published pgbench -c 20 -j 2 -T 300 -r and planned pgbench -c 40 -j 2 -T 300 -r",
  ]);
});

test("the nitro stack differs from the table only in the instance type", async () => {
  expect(divergences(CEPH_METHOD, await plan("nitro"), "nitro")).toEqual([
    "instance type (stack dev / the source's stock): the table says m4.xlarge, the plan holds m5.xlarge",
    "instance type (stack dev / the source's stock): marked same, but published m4.xlarge and planned m5.xlarge",
  ]);
});
