/**
 * The objects the experiments create, against the Kubernetes OpenAPI schemas (kubernetes-models),
 * the restricted Pod Security profile (both namespaces enforce it), the lab's own policy rules for
 * workloads (lab/policy/kubernetes.ts: pinned images, requests and limits, Job limits, restricted
 * pods, no `default` namespace), and the wiring the scripts rely on.
 */
import { MYSQL_CLIENT_SELECTOR } from "../../../components/mysql/manifests";
import { Job } from "kubernetes-models/batch/v1/Job";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { KUBERNETES_RULES } from "../../../lab/policy/kubernetes";
import { TYPES } from "../../../lab/resource-types";
import {
  ANNOTATIONS_FILE,
  DEADLINE_MARGIN_SECONDS,
  fioManifests,
  STOP_ANNOTATION,
  TTL_SECONDS_AFTER_FINISHED,
  writerManifests,
} from "../../../lab/experiment/manifests";
import { fioMaxRuntimeSeconds, FSX_FAILOVER_DEFAULTS } from "../../../lab/experiment/fsx-failover";
import { MYSQL_FAILOVER_DEFAULTS, writerMaxSeconds } from "../../../lab/experiment/mysql-failover";
import { readExperimentScripts } from "../../../lab/experiment/scripts";
import { restrictedViolations } from "../../helpers/podSecurity";
import { TOOLS_IMAGE } from "./support";

const scripts = readExperimentScripts();
const writer = writerManifests(
  {
    namespace: "mysql",
    runId: "r1",
    host: "mysql-0.mysql.mysql.svc.cluster.local",
    passwordSecret: { name: "mysql-writer", key: "password" },
    intervalMs: 200,
    maxSeconds: writerMaxSeconds(MYSQL_FAILOVER_DEFAULTS),
    readbackSeconds: 300,
    replicaHosts: ["mysql-1.mysql.mysql.svc.cluster.local", "mysql-2.mysql.mysql.svc.cluster.local"],
    replicaWaitSeconds: 60,
  },
  scripts,
);
const fio = fioManifests(
  {
    namespace: "bench",
    runId: "r1",
    image: TOOLS_IMAGE,
    storageClass: "fsx-ontap-nas",
    volumeGiB: 100,
    fileSize: "4G",
    maxRuntimeSeconds: fioMaxRuntimeSeconds(FSX_FAILOVER_DEFAULTS),
  },
  scripts,
);

describe("Kubernetes schemas", () => {
  test("every object validates, and the check can fail", () => {
    for (const j of [writer.job, fio.job]) expect(() => new Job(j).validate()).not.toThrow();
    for (const c of [writer.configMap, fio.configMap]) expect(() => new ConfigMap(c).validate()).not.toThrow();
    expect(() => new PersistentVolumeClaim(fio.claim).validate()).not.toThrow();
    expect(() => new Job({ ...fio.job, spec: { ...fio.job.spec!, backoffLimit: "none" as never } }).validate()).toThrow(/backoffLimit/);
  });
});

describe("the lab's Job rules", () => {
  test.each([
    ["writer", writer.job],
    ["fio", fio.job],
  ])("%s: restricted Pod Security profile, and every workload rule of lab/policy passes", (_n, job) => {
    expect(restrictedViolations(job.spec!.template.spec as IPodSpec)).toEqual([]);
    const problems = KUBERNETES_RULES.filter((r) => r.resourceTypes.includes(TYPES.job)).flatMap((r) =>
      r.check(job as unknown as Record<string, unknown>, TYPES.job).map((p) => `${r.name}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  test("the rules would catch a Job without limits (the check can fail)", () => {
    const bad = { ...fio.job, spec: { ...fio.job.spec!, activeDeadlineSeconds: undefined } };
    const jobLimits = KUBERNETES_RULES.find((r) => r.name === "k8s-job-limits")!;
    // (the rule's wording is lab/policy's; only what it names matters here)
    const found = jobLimits.check(bad as unknown as Record<string, unknown>, TYPES.job);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^spec\.activeDeadlineSeconds is not set/);
  });

  test("never retried, deadline = the work's bound + 10 minutes, gone a day after finishing", () => {
    expect(writerMaxSeconds(MYSQL_FAILOVER_DEFAULTS)).toBe(1_820);
    expect(fioMaxRuntimeSeconds(FSX_FAILOVER_DEFAULTS)).toBe(8_280);
    expect([writer.job.spec!.backoffLimit, writer.job.spec!.activeDeadlineSeconds, writer.job.spec!.ttlSecondsAfterFinished]).toEqual([
      0,
      // the writer's bound, its read-back, one wait per replica
      1_820 + 300 + 2 * 60 + DEADLINE_MARGIN_SECONDS,
      TTL_SECONDS_AFTER_FINISHED,
    ]);
    expect([fio.job.spec!.backoffLimit, fio.job.spec!.activeDeadlineSeconds, fio.job.spec!.ttlSecondsAfterFinished]).toEqual([
      0,
      8_280 + DEADLINE_MARGIN_SECONDS,
      86_400,
    ]);
    for (const j of [writer.job, fio.job]) expect(j.spec!.template.spec!.restartPolicy).toBe("Never");
  });
});

describe("wiring", () => {
  const env = (job: typeof writer.job) =>
    Object.fromEntries((job.spec!.template.spec!.containers[0].env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));

  test("the writer: the MySQL 8.4 image as uid 999 (the image's mysql user), the writer account and its password from its Secret, its script and the annotations file", () => {
    const c = writer.job.spec!.template.spec!.containers[0];
    expect([c.image, c.command, writer.job.spec!.template.spec!.securityContext!.runAsUser]).toEqual([
      "docker.io/library/mysql:8.4.11",
      ["bash", "/opt/lab/mysql-writer.sh"],
      999,
    ]);
    expect(env(writer.job)).toEqual({
      LAB_MYSQL_HOST: "mysql-0.mysql.mysql.svc.cluster.local",
      LAB_RUN_ID: "r1",
      // Its own account (components/mysql WRITER_USER), never root; its password from its own Secret.
      LAB_MYSQL_USER: "lab_writer",
      LAB_MYSQL_PASSWORD: { secretKeyRef: { name: "mysql-writer", key: "password" } },
      LAB_INTERVAL_MS: "200",
      LAB_MAX_SECONDS: "1820",
      LAB_READBACK_SECONDS: "300",
      LAB_REPLICA_HOSTS: "mysql-1.mysql.mysql.svc.cluster.local mysql-2.mysql.mysql.svc.cluster.local",
      LAB_REPLICA_WAIT_SECONDS: "60",
      LAB_STOP_FILE: ANNOTATIONS_FILE,
      LAB_STOP_KEY: STOP_ANNOTATION,
      TMPDIR: "/tmp",
    });
    expect(writer.configMap.data).toEqual({ "mysql-writer.sh": scripts["mysql-writer.sh"] });
  });

  test("the writer's pod carries the labels the MySQL NetworkPolicies admit on 3306 (components/mysql MYSQL_CLIENT_SELECTOR)", () => {
    expect(writer.job.spec!.template.metadata!.labels).toMatchObject({ ...MYSQL_CLIENT_SELECTOR });
    expect(fio.job.spec!.template.metadata!.labels).not.toMatchObject({ ...MYSQL_CLIENT_SELECTOR });
  });

  test("fio: the tools image as uid 65532 with fsGroup on the claim; lib.sh, the script and the job file in its ConfigMap", () => {
    const spec = fio.job.spec!.template.spec!;
    expect([spec.containers[0].image, spec.containers[0].command, spec.securityContext!.runAsUser, spec.securityContext!.fsGroup]).toEqual([
      TOOLS_IMAGE,
      ["/bin/sh", "/opt/lab/fio-failover.sh"],
      65532,
      65532,
    ]);
    expect(spec.volumes!.find((v) => v.name === "data")).toEqual({ name: "data", persistentVolumeClaim: { claimName: "fsx-failover-r1" } });
    expect(fio.claim.spec).toEqual({
      accessModes: ["ReadWriteOnce"],
      volumeMode: "Filesystem",
      storageClassName: "fsx-ontap-nas",
      resources: { requests: { storage: "100Gi" } },
    });
    expect(Object.keys(fio.configMap.data!)).toEqual(["lib.sh", "fio-failover.sh", "failover.fio"]);
    expect(env(fio.job)).toEqual({
      FIO_DIR: "/data/fio",
      FIO_SIZE: "4G",
      FIO_MAX_RUNTIME: "8280",
      LAB_STOP_FILE: ANNOTATIONS_FILE,
      LAB_STOP_KEY: STOP_ANNOTATION,
      TMPDIR: "/tmp",
    });
  });

  test("both pods see their annotations through a downward API file at the path the scripts poll", () => {
    for (const job of [writer.job, fio.job]) {
      const spec = job.spec!.template.spec!;
      expect(spec.volumes!.find((v) => v.name === "podinfo")).toEqual({
        name: "podinfo",
        downwardAPI: { items: [{ path: "annotations", fieldRef: { fieldPath: "metadata.annotations" } }] },
      });
      expect(spec.containers[0].volumeMounts!.find((m) => m.name === "podinfo")).toEqual({
        name: "podinfo",
        mountPath: "/etc/podinfo",
        readOnly: true,
      });
    }
    expect(ANNOTATIONS_FILE).toBe("/etc/podinfo/annotations");
    // The scripts default to the same annotation.
    expect(scripts["mysql-writer.sh"]).toContain("LAB_STOP_KEY=${LAB_STOP_KEY:-lab/stop}");
    expect(scripts["fio-failover.sh"]).toContain("LAB_STOP_KEY=${LAB_STOP_KEY:-lab/stop}");
  });

  test("every object is labelled with the experiment and the run id", () => {
    for (const o of [writer.job, writer.configMap, fio.job, fio.configMap, fio.claim]) {
      expect(o.metadata!.labels).toMatchObject({ "lab/run-id": "r1", "app.kubernetes.io/part-of": "storage-bench-lab" });
    }
    expect(writer.job.metadata!.labels!["lab/experiment"]).toBe("mysql-failover");
    expect(fio.job.metadata!.labels!["lab/experiment"]).toBe("fsx-failover");
  });
});
