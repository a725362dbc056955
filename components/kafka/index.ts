/**
 * `lab:kafka:KafkaCluster`: Kafka 4.3 (KRaft) run by Strimzi, its brokers' logs on FSx for ONTAP NFS
 * volumes exactly as NetApp's published run laid them out: every broker mounts every data volume
 * (NFSv4.1, `nconnect=16`) at its own subdirectory.
 *
 * What it creates, in order:
 * 1. NFS ingress rules from the EKS nodes' security group to the file system's (the ports of
 *    components/fsx-ontap/security.ts, NFS only);
 * 2. the brokers' directories: the NFS CSI driver's chart (components/versions.ts), then, in the
 *    namespace `<namespace>-storage` (restricted), a Job that mounts every volume root through it
 *    and creates each broker's directory on each volume as Kafka's user (scripts/prepare-dirs.sh),
 *    awaited until it completes by components/bench/scripts/collect-job.sh (kubectl on the deploying machine),
 *    which stops at once, naming the fix, when the SVM's export rule refuses the driver root
 *    (manifests.ts says why the driver);
 * 3. (in the Kafka namespace, which the Strimzi operator's component creates and watches) the
 *    StorageClass `kafka-fsx-nfs-static` (no provisioner), one
 *    static PersistentVolume per broker per volume (reclaim `Retain`) and its pre-bound claim, named as
 *    Strimzi names a JBOD claim (storage.ts);
 * 4. the `KafkaNodePool`s (controllers on gp3, brokers JBOD on the static claims) and the `Kafka`
 *    (published broker settings, rack = zone), after the Strimzi operator (`operatorReady`); the Kafka
 *    resource is awaited until Strimzi reports it Ready (manifests.ts).
 *
 * Destroying it deletes the custom resources, then the claims and volumes; with `Retain` and static
 * volumes nothing is deleted on the file system: the brokers' directories and data stay until the
 * FSx stack is destroyed or removed by hand (README "kafka", clean-up).
 *
 * Rules, defaults and sources: ./rules.ts, ./storage.ts, ./manifests.ts. Providers (AWS for the rules,
 * Kubernetes for the rest) come from `opts`.
 */
import * as command from "@pulumi/command";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import * as fs from "node:fs";
import * as path from "node:path";
import { nodeIngressRules } from "../fsx-ontap/node-ingress";
import { ONTAP_INGRESS } from "../fsx-ontap/security";
import { CSI_DRIVER_NFS_CHART } from "../versions";
import { COLLECT_IGNORED_INPUTS } from "../bench";
import { collectorAccountName, collectorGrant } from "../bench/access";
import { createCollectorAccess } from "../bench/collector-access";
import { readCollectScript } from "../bench/scripts";
import { throwIfInvalid } from "../lib/args";
import { childOptions } from "../lib/child";
import { withLaterInput } from "./later";
import {
  bootstrapServers,
  brokerPoolManifest,
  controllerPoolManifest,
  kafkaManifest,
  csiDriverNfsValues,
  prepareConfigMapManifest,
  mountRefusedFix,
  PREPARE_DEADLINE_SECONDS,
  PREPARE_JOB,
  PREPARE_POLL_SECONDS,
  prepareJobManifest,
  storageNamespaceManifest,
  storageNamespaceName,
} from "./manifests";
import { KafkaClusterSpec, problems, resolve } from "./rules";
import { brokerPodName, brokerVolumes, dataClaimManifest, dataVolumeManifest, staticStorageClassManifest } from "./storage";

/** The script the prepare Job runs (its one home). */
export const PREPARE_DIRS_SCRIPT = path.join(__dirname, "scripts", "prepare-dirs.sh");
/** How long the wait for the prepare Job lasts beyond the Job's own deadline, s. */
export const AWAIT_PREPARE_MARGIN_SECONDS = 300;

/** What stands for the NFS server in the rendered manifests until its Output is put in (never sent). */
const SERVER = "nfs-server.known-later.invalid";
/** What stands for the deployment id (the storage namespace's uid) until it is known (never sent). */
const DEPLOYMENT = "deployment-known-later";
/** What stands for the brokers' zone until it is known (never sent). */
const ZONE = "zone-known-later";

export interface KafkaClusterArgs extends KafkaClusterSpec {
  /** The SVM's NFS endpoint (DNS name or address). */
  readonly nfsServer: pulumi.Input<string>;
  /** The EKS nodes' security group (sources of the NFS rules). */
  readonly nodeSecurityGroupId: pulumi.Input<string>;
  /** The file system's security group. */
  readonly fsxSecurityGroupId: pulumi.Input<string>;
  /** What the claims and custom resources wait for: the Strimzi operator (its CRDs) and the Kafka namespace it watches. */
  readonly operatorReady: readonly pulumi.Resource[];
  /** Kubeconfig of the cluster (content, kept secret), for the kubectl that waits for the prepare Job. */
  readonly kubeconfig: pulumi.Input<string>;
  /** The SVM whose export rule the volumes use, and the file system's management endpoint (DNS name): named in the fix when root is squashed. */
  readonly svmName: pulumi.Input<string>;
  readonly managementEndpoint: pulumi.Input<string>;
  /** The one zone the brokers run in (a required node affinity on `topology.kubernetes.io/zone`). @default none: wherever {brokerNodeGroup}'s nodes are */
  readonly zone?: pulumi.Input<string>;
}

export class KafkaCluster extends pulumi.ComponentResource {
  readonly clusterName: pulumi.Output<string>;
  readonly namespace: pulumi.Output<string>;
  readonly kafkaVersion: pulumi.Output<string>;
  /** `<cluster>-kafka-bootstrap.<namespace>.svc.cluster.local:9092`. */
  readonly bootstrapServers: pulumi.Output<string>;
  /** The broker pods, in node ID order (also their directories on every data volume). */
  readonly brokerPods: pulumi.Output<string[]>;
  /** The pre-created claims, broker by broker, volume by volume. */
  readonly dataClaims: pulumi.Output<string[]>;
  /** The static PersistentVolumes behind them, same order. */
  readonly dataVolumes: pulumi.Output<string[]>;
  /** The Kafka resource (awaited Ready), for `dependsOn`. */
  readonly ready: pulumi.Resource[];

  constructor(name: string, args: KafkaClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    super("lab:kafka:KafkaCluster", name, {}, opts);
    throwIfInvalid("lab:kafka:KafkaCluster", name, problems(args));
    const r = resolve(args);
    const child = childOptions(this, opts);
    const mounts = brokerVolumes(r);

    const nfsRules = nodeIngressRules(
      name,
      ONTAP_INGRESS.filter((p) => p.id.startsWith("nfs-")),
      args,
      () => "Kafka brokers, storage preparation",
      this,
    );

    // The brokers' directories exist before any of their volumes does: the NFS CSI driver (only for
    // the prepare Job's inline volumes), its namespace, its script, the Job, awaited to completion
    // (not by the provider, which would wait out the Job's deadline on a mount that can never
    // succeed: by collect-job.sh watching its pods' mounts, which fails at once, naming the fix, when the driver's
    // chmod is refused; manifests.ts `prepareJobManifest`).
    const csi = new k8s.helm.v4.Chart(
      `${name}-nfs-csi`,
      {
        chart: CSI_DRIVER_NFS_CHART.name,
        version: CSI_DRIVER_NFS_CHART.version,
        repositoryOpts: { repo: CSI_DRIVER_NFS_CHART.repo },
        namespace: "kube-system",
        values: csiDriverNfsValues(r),
      },
      child,
    );
    const storageNs = new k8s.core.v1.Namespace(`${name}-storage-ns`, storageNamespaceManifest(r) as k8s.core.v1.NamespaceArgs, child);
    const script = new k8s.core.v1.ConfigMap(
      `${name}-storage-scripts`,
      prepareConfigMapManifest(r, fs.readFileSync(PREPARE_DIRS_SCRIPT, "utf8")) as k8s.core.v1.ConfigMapArgs,
      { ...child, dependsOn: [storageNs] },
    );
    const prepareManifest = withLaterInput(
      withLaterInput(prepareJobManifest(r, SERVER, DEPLOYMENT), SERVER, args.nfsServer),
      DEPLOYMENT,
      storageNs.metadata.uid,
    );
    const prepare = new k8s.batch.v1.Job(`${name}-storage-prepare`, prepareManifest as unknown as k8s.batch.v1.JobArgs, {
      ...child,
      dependsOn: [script, csi, ...nfsRules],
    });
    // The await's own identity (components/bench/access.ts): reads of this Job, its pods, events and log.
    const prepareAccess = createCollectorAccess(
      `${name}-storage-prepare`,
      collectorGrant(collectorAccountName(PREPARE_JOB), storageNamespaceName(r), [PREPARE_JOB]),
      child,
      [storageNs],
    );
    const prepareWaitSeconds = PREPARE_DEADLINE_SECONDS + AWAIT_PREPARE_MARGIN_SECONDS;
    const prepared = new command.local.Command(
      `${name}-storage-prepare-await`,
      {
        create: readCollectScript(),
        interpreter: ["/bin/sh", "-c"],
        environment: {
          JOB_NAME: PREPARE_JOB,
          JOB_NAMESPACE: storageNamespaceName(r),
          WAIT_TIMEOUT_SECONDS: String(prepareWaitSeconds),
          POLL_SECONDS: String(PREPARE_POLL_SECONDS),
          ...prepareAccess.environment(prepareWaitSeconds),
          MOUNT_REFUSED_FIX: pulumi
            .all([args.svmName, args.managementEndpoint])
            .apply(([svm, endpoint]) => mountRefusedFix(svm, endpoint, storageNamespaceName(r))),
          LAB_KUBECONFIG: pulumi.secret(args.kubeconfig),
        },
        // A Job created again (new uid) is awaited again; nothing else re-runs it.
        triggers: [prepare.metadata.uid],
        logging: "stderr",
        addPreviousOutputInEnv: false,
      },
      { parent: this, dependsOn: [prepare, prepareAccess.ready], ignoreChanges: [...COLLECT_IGNORED_INPUTS] },
    );

    const storageClass = new k8s.storage.v1.StorageClass(
      `${name}-static-class`,
      staticStorageClassManifest() as k8s.storage.v1.StorageClassArgs,
      child,
    );
    const claims = mounts.map((v) => {
      const pv = new k8s.core.v1.PersistentVolume(
        `${name}-pv-${v.claimName}`,
        withLaterInput(dataVolumeManifest(r, v, SERVER), SERVER, args.nfsServer) as unknown as k8s.core.v1.PersistentVolumeArgs,
        { ...child, dependsOn: [storageClass, prepared] },
      );
      return new k8s.core.v1.PersistentVolumeClaim(
        `${name}-pvc-${v.claimName}`,
        dataClaimManifest(r, v) as unknown as k8s.core.v1.PersistentVolumeClaimArgs,
        { ...child, dependsOn: [...args.operatorReady, pv] },
      );
    });

    const after = [...args.operatorReady];
    const controllers = new k8s.apiextensions.CustomResource(`${name}-pool-${r.controllerPool}`, controllerPoolManifest(r), {
      ...child,
      dependsOn: after,
    });
    const brokerPool = args.zone === undefined ? brokerPoolManifest(r) : withLaterInput(brokerPoolManifest(r, ZONE), ZONE, args.zone);
    const brokers = new k8s.apiextensions.CustomResource(`${name}-pool-${r.brokerPool}`, brokerPool, {
      ...child,
      dependsOn: [...after, ...claims],
    });
    const kafka = new k8s.apiextensions.CustomResource(`${name}-kafka`, kafkaManifest(r), {
      ...child,
      dependsOn: [...after, controllers, brokers],
    });

    this.ready = [kafka];
    this.clusterName = pulumi.output(r.clusterName);
    this.namespace = pulumi.output(r.namespace);
    this.kafkaVersion = pulumi.output(r.kafkaVersion);
    this.bootstrapServers = pulumi.output(bootstrapServers(r));
    this.brokerPods = pulumi.output(r.brokerIds.map((id) => brokerPodName(r, id)));
    this.dataClaims = pulumi.output(mounts.map((v) => v.claimName));
    this.dataVolumes = pulumi.output(mounts.map((v) => v.volumeName));
    this.registerOutputs({
      clusterName: this.clusterName,
      namespace: this.namespace,
      kafkaVersion: this.kafkaVersion,
      bootstrapServers: this.bootstrapServers,
      brokerPods: this.brokerPods,
      dataClaims: this.dataClaims,
      dataVolumes: this.dataVolumes,
    });
  }
}
