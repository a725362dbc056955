/**
 * Strimzi's Kafka and KafkaNodePools against Strimzi 1.2.0's CRDs (../shared/schemas/crds/kafka.strimzi.io),
 * field by field; the claims Strimzi would create for the broker pool are exactly the pre-created
 * ones; the Job that prepares their directories against the Kubernetes schemas and the Pod Security Standards.
 */
import { Job } from "kubernetes-models/batch/v1/Job";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import * as fs from "node:fs";
import { PREPARE_DIRS_SCRIPT } from "../../../components/kafka";
import {
  bootstrapServers,
  brokerPoolManifest,
  controllerPoolManifest,
  kafkaManifest,
  prepareConfigMapManifest,
  prepareJobManifest,
  storageNamespaceManifest,
} from "../../../components/kafka/manifests";
import { resolve } from "../../../components/kafka/rules";
import { brokerVolumes, dataClaimName } from "../../../components/kafka/storage";
import { evaluatePolicies } from "../../../lab/policy/evaluate";
import { crdProblems } from "../../helpers/crd";
import { restrictedViolations } from "../../helpers/podSecurity";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const VOLUMES = ["/kafkafsxN1", "/kafkafsxN2", "/kafkafsxN3", "/kafkafsxN4", "/kafkafsxN5", "/kafkafsxN6"];
const r = resolve({ dataVolumes: VOLUMES });

const PLACEMENT = (group: string) => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchExpressions: [{ key: "storage-bench-lab/node-group", operator: "In", values: [group] }] }],
    },
  },
});
const TOLERATION = (group: string) => [{ key: "storage-bench-lab/node-group", operator: "Equal", value: group, effect: "NoSchedule" }];

describe("Kafka (kafka.strimzi.io/v1)", () => {
  const kafka = kafkaManifest(r, "omb");

  test("validates against Strimzi 1.2.0's CRD", () => {
    expect(crdProblems("kafka.strimzi.io", "Kafka", kafka as unknown as Record<string, unknown>)).toEqual([]);
  });

  test("KRaft 4.3.1, one plain internal listener, the published broker settings, rack = zone; not awaited by the provider", () => {
    expect(kafka).toEqual({
      apiVersion: "kafka.strimzi.io/v1",
      kind: "Kafka",
      metadata: {
        name: "kafka",
        namespace: "kafka",
        // the component awaits it itself (collect-job.sh with KAFKA_NAME), not the provider
        annotations: { "pulumi.com/skipAwait": "true" },
      },
      spec: {
        kafka: {
          version: "4.3.1",
          metadataVersion: "4.3-IV0",
          // Strimzi's generated NetworkPolicy admits 9092 from the OMB namespace only.
          listeners: [
            {
              name: "plain",
              port: 9092,
              type: "internal",
              tls: false,
              networkPolicyPeers: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "omb" } } }],
            },
          ],
          config: {
            "num.network.threads": 64,
            "num.io.threads": 64,
            "num.replica.fetchers": 20,
            "replica.fetch.max.bytes": 524288000,
            "background.threads": 20,
            "num.replica.alter.log.dirs.threads": 40,
            "socket.request.max.bytes": 104857600,
            "offsets.topic.replication.factor": 3,
            "transaction.state.log.replication.factor": 3,
            "transaction.state.log.min.isr": 2,
            "default.replication.factor": 3,
            "min.insync.replicas": 2,
          },
          rack: { topologyKey: "topology.kubernetes.io/zone" },
        },
      },
    });
    expect(bootstrapServers(r)).toBe("kafka-kafka-bootstrap.kafka.svc.cluster.local:9092");
  });

  test("a field the CRD does not know is refused (the check is strict)", () => {
    const bad = { ...kafka, spec: { kafka: { ...(kafka.spec.kafka as object), replicas: 3 } } };
    expect(crdProblems("kafka.strimzi.io", "Kafka", bad)).toEqual(["/spec/kafka must NOT have additional properties 'replicas'"]);
  });
});

describe("KafkaNodePools", () => {
  const brokers = brokerPoolManifest(r);
  const controllers = controllerPoolManifest(r);

  test("both validate against Strimzi 1.2.0's CRD", () => {
    expect(crdProblems("kafka.strimzi.io", "KafkaNodePool", brokers as unknown as Record<string, unknown>)).toEqual([]);
    expect(crdProblems("kafka.strimzi.io", "KafkaNodePool", controllers as unknown as Record<string, unknown>)).toEqual([]);
  });

  test("brokers: IDs 0–2, JBOD of the six static claims (KRaft metadata on volume 0), requests/limits, heap 6g, one a broker node", () => {
    expect(brokers).toEqual({
      apiVersion: "kafka.strimzi.io/v1",
      kind: "KafkaNodePool",
      metadata: {
        name: "brokers",
        namespace: "kafka",
        labels: { "strimzi.io/cluster": "kafka" },
        annotations: { "strimzi.io/next-node-ids": "[0-2]" },
      },
      spec: {
        replicas: 3,
        roles: ["broker"],
        storage: {
          type: "jbod",
          volumes: [0, 1, 2, 3, 4, 5].map((id) => ({
            id,
            type: "persistent-claim",
            size: "2Ti",
            class: "kafka-fsx-nfs-static",
            deleteClaim: false,
            ...(id === 0 ? { kraftMetadata: "shared" } : {}),
          })),
        },
        resources: { requests: { cpu: "7", memory: "48Gi" }, limits: { cpu: "8", memory: "48Gi" } },
        jvmOptions: { "-Xms": "6g", "-Xmx": "6g" },
        template: {
          pod: {
            affinity: {
              ...PLACEMENT("brokers"),
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  {
                    labelSelector: { matchLabels: { "strimzi.io/cluster": "kafka", "strimzi.io/pool-name": "brokers" } },
                    topologyKey: "kubernetes.io/hostname",
                  },
                ],
              },
            },
            tolerations: TOLERATION("brokers"),
          },
        },
      },
    });
  });

  test("controllers: their own pool, IDs 100–102, 20Gi gp3 claims (deleted with the pool), heap 1g, on the system group", () => {
    expect(controllers.metadata.annotations).toEqual({ "strimzi.io/next-node-ids": "[100-102]" });
    expect(controllers.spec).toMatchObject({
      replicas: 3,
      roles: ["controller"],
      storage: {
        type: "jbod",
        volumes: [{ id: 0, type: "persistent-claim", size: "20Gi", class: "gp3", deleteClaim: true, kraftMetadata: "shared" }],
      },
      resources: { requests: { cpu: "500m", memory: "2Gi" }, limits: { cpu: "1", memory: "2Gi" } },
      jvmOptions: { "-Xms": "1g", "-Xmx": "1g" },
    });
    expect((controllers.spec.template as Any).pod.affinity.nodeAffinity).toEqual(PLACEMENT("system").nodeAffinity);
    expect((controllers.spec.template as Any).pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight).toBe(
      100,
    );
  });

  test("the claims Strimzi will look for (each JBOD volume × each node ID of the range) are exactly the pre-created ones", () => {
    const [first, last] = /^\[(\d+)-(\d+)\]$/.exec(brokers.metadata.annotations!["strimzi.io/next-node-ids"])!.slice(1).map(Number);
    const ids = Array.from({ length: last - first + 1 }, (_, i) => first + i);
    const volumeIds = (brokers.spec.storage as Any).volumes.map((v: Any) => v.id);
    const strimziNames = ids.flatMap((id) =>
      volumeIds.map((v: number) => dataClaimName(v, brokers.metadata.labels!["strimzi.io/cluster"], brokers.metadata.name, id)),
    );
    expect(strimziNames.sort()).toEqual(
      brokerVolumes(r)
        .map((v) => v.claimName)
        .sort(),
    );
    expect(strimziNames).toHaveLength(18);
  });
});

describe("preparing the brokers' directories", () => {
  const job = prepareJobManifest(r, "0b5c6d8e-1f2a-4b3c-8d9e-0a1b2c3d4e5f");
  const spec = job.spec!.template.spec!;

  test("valid Kubernetes objects in a restricted namespace: the script, the Job", () => {
    expect(() => new Namespace(storageNamespaceManifest(r)).validate()).not.toThrow();
    expect(storageNamespaceManifest(r).metadata).toMatchObject({
      name: "kafka-storage",
      labels: { "pod-security.kubernetes.io/enforce": "restricted" },
    });
    expect(() => new ConfigMap(prepareConfigMapManifest(r, fs.readFileSync(PREPARE_DIRS_SCRIPT, "utf8"))).validate()).not.toThrow();
    expect(() => new Job(job).validate()).not.toThrow();
  });

  test("mounts every volume root through its static claim (no CSI, no inline volume), creates every broker's directory as Kafka's uid 1001 (group 0, not checked), marked with the deployment", () => {
    expect(spec.volumes).toEqual([
      { name: "scripts", configMap: { name: "kafka-storage-prepare-scripts" } },
      ...VOLUMES.map((_, i) => ({ name: `data-${i}`, persistentVolumeClaim: { claimName: `volume-root-${i}` } })),
    ]);
    const c = spec.containers[0];
    const env = Object.fromEntries(c.env!.map((e) => [e.name, e.value]));
    expect(env).toEqual({
      VOLUME_MOUNTS: "/volumes/0 /volumes/1 /volumes/2 /volumes/3 /volumes/4 /volumes/5",
      BROKER_DIRS: "kafka-brokers-0 kafka-brokers-1 kafka-brokers-2",
      OWNER_UID: "1001",
      DEPLOYMENT_ID: "0b5c6d8e-1f2a-4b3c-8d9e-0a1b2c3d4e5f",
      DIR_MODE: "0750",
    });
    expect([c.command, c.image]).toEqual([["/bin/sh", "/scripts/prepare-dirs.sh"], "quay.io/strimzi/kafka:1.2.0-kafka-4.3.1"]);
    expect(spec.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 1001,
      runAsGroup: 0,
      seccompProfile: { type: "RuntimeDefault" },
    });
    // The directories are exactly the PVs' subdirectories.
    const dirs = VOLUMES.flatMap((v) => env.BROKER_DIRS!.split(" ").map((d) => `${v}/${d}`));
    expect(dirs.sort()).toEqual(
      brokerVolumes(r)
        .map((v) => v.nfsPath)
        .sort(),
    );
    expect(job.spec).toMatchObject({ backoffLimit: 2, activeDeadlineSeconds: 600, ttlSecondsAfterFinished: 86400 });
    // Awaited by collect-job.sh (index.ts), not by the provider (which would wait out a mount that cannot succeed).
    expect(job.metadata!.annotations).toEqual({ "pulumi.com/skipAwait": "true" });
  });

  test("the Job meets the restricted Pod Security Standard; the lab's policy has nothing to say", () => {
    expect(restrictedViolations(spec)).toEqual([]);
    const v = evaluatePolicies([
      {
        urn: "urn:prepare",
        type: "kubernetes:batch/v1:Job",
        name: "kafka-storage-prepare",
        inputs: job as unknown as Record<string, unknown>,
      },
    ]);
    expect(v).toEqual([]);
  });
});
