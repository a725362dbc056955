/**
 * Strimzi's Kafka and KafkaNodePools against Strimzi 1.2.0's CRDs (../shared/schemas/crds/kafka.strimzi.io),
 * field by field; the claims Strimzi would create for the broker pool are exactly the pre-created
 * ones; the storage toolbox against the Kubernetes schemas and the Pod Security Standards.
 */
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Namespace } from "kubernetes-models/v1/Namespace";
import * as fs from "node:fs";
import { PREPARE_DIRS_SCRIPT } from "../../../components/kafka";
import {
  bootstrapServers,
  brokerPoolManifest,
  controllerPoolManifest,
  kafkaManifest,
  toolboxConfigMapManifest,
  toolboxDeploymentManifest,
  toolboxNamespaceManifest,
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
  const kafka = kafkaManifest(r);

  test("validates against Strimzi 1.2.0's CRD", () => {
    expect(crdProblems("kafka.strimzi.io", "Kafka", kafka as unknown as Record<string, unknown>)).toEqual([]);
  });

  test("KRaft 4.3.1, one plain internal listener, the published broker settings, rack = zone; awaited Ready", () => {
    expect(kafka).toEqual({
      apiVersion: "kafka.strimzi.io/v1",
      kind: "Kafka",
      metadata: {
        name: "kafka",
        namespace: "kafka",
        annotations: { "pulumi.com/waitFor": "condition=Ready", "pulumi.com/timeoutSeconds": "1800" },
      },
      spec: {
        kafka: {
          version: "4.3.1",
          metadataVersion: "4.3-IV0",
          listeners: [{ name: "plain", port: 9092, type: "internal", tls: false }],
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

describe("the storage toolbox", () => {
  const dep = toolboxDeploymentManifest(r, "svm.example.internal");
  const spec = dep.spec!.template.spec!;

  test("valid Kubernetes objects: a baseline namespace, the script, the Deployment", () => {
    expect(() => new Namespace(toolboxNamespaceManifest(r)).validate()).not.toThrow();
    expect(toolboxNamespaceManifest(r).metadata!.labels!["pod-security.kubernetes.io/enforce"]).toBe("baseline");
    expect(() => new ConfigMap(toolboxConfigMapManifest(r, fs.readFileSync(PREPARE_DIRS_SCRIPT, "utf8"))).validate()).not.toThrow();
    expect(() => new Deployment(dep).validate()).not.toThrow();
  });

  test("mounts every volume root over NFS and creates every broker's directory, owned by Kafka's 1001:0", () => {
    expect(spec.volumes!.filter((v) => v.nfs).map((v) => [v.name, v.nfs])).toEqual(
      VOLUMES.map((path, i) => [`data-${i}`, { server: "svm.example.internal", path }]),
    );
    const env = Object.fromEntries(spec.initContainers![0].env!.map((e) => [e.name, e.value]));
    expect(env).toEqual({
      VOLUME_MOUNTS: "/volumes/0 /volumes/1 /volumes/2 /volumes/3 /volumes/4 /volumes/5",
      BROKER_DIRS: "kafka-brokers-0 kafka-brokers-1 kafka-brokers-2",
      OWNER: "1001:0",
      DIR_MODE: "0750",
    });
    expect(spec.initContainers![0].command).toEqual(["/bin/sh", "/scripts/prepare-dirs.sh"]);
    // The directories are exactly the PVs' subdirectories.
    const dirs = VOLUMES.flatMap((v, i) => env.BROKER_DIRS!.split(" ").map((d) => [i, `${v}/${d}`]));
    expect(dirs.map(([, p]) => p).sort()).toEqual(
      brokerVolumes(r)
        .map((v) => v.nfsPath)
        .sort(),
    );
  });

  test("only the init container is privileged (root, CHOWN only); the toolbox itself meets the restricted profile", () => {
    expect(spec.initContainers![0].securityContext).toEqual({
      runAsUser: 0,
      runAsGroup: 0,
      runAsNonRoot: false,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"], add: ["CHOWN"] },
    });
    const withoutInit = { ...spec, initContainers: [], volumes: spec.volumes!.filter((v) => !v.nfs) };
    expect(restrictedViolations(withoutInit)).toEqual([]);
    expect(spec.containers[0].securityContext).toMatchObject({ runAsUser: 1001, runAsGroup: 0, runAsNonRoot: true });
    expect(spec.containers[0].readinessProbe!.exec!.command).toEqual(["/bin/sh", "/scripts/prepare-dirs.sh", "--check"]);
  });

  test("the lab's policy: only advisory findings, exactly the root init container and the NFS volumes", () => {
    const v = evaluatePolicies([
      {
        urn: "urn:toolbox",
        type: "kubernetes:apps/v1:Deployment",
        name: "kafka-storage-toolbox",
        inputs: dep as unknown as Record<string, unknown>,
      },
    ]);
    expect(v.filter((x) => x.enforcementLevel === "mandatory")).toEqual([]);
    expect(v.map((x) => x.message)).toEqual([
      "k8s-workload-restricted-pod-security: kafka-storage-toolbox: initContainers[prepare]: capability CHOWN must not be added",
      "k8s-workload-restricted-pod-security: kafka-storage-toolbox: initContainers[prepare]: runAsNonRoot must not be false",
      "k8s-workload-restricted-pod-security: kafka-storage-toolbox: initContainers[prepare]: runAsUser must not be 0",
      ...VOLUMES.map((_, i) => `k8s-workload-restricted-pod-security: kafka-storage-toolbox: volume data-${i}: type nfs is not allowed`),
    ]);
  });
});
