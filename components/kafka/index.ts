/**
 * `lab:kafka:KafkaCluster`: Kafka 4.3 (KRaft) run by Strimzi, its brokers' logs on FSx for ONTAP NFS
 * volumes exactly as NetApp's published run laid them out: every broker mounts every data volume
 * (NFSv4.1, `nconnect=16`) at its own subdirectory.
 *
 * What it creates, in order:
 * 1. NFS ingress rules from the EKS nodes' security group to the file system's (the ports of
 *    components/fsx-ontap/security.ts, NFS), and HTTPS 443 (the SVM's ONTAP REST API);
 * 2. in the namespace `<namespace>-storage` (restricted; default-deny NetworkPolicies, DNS, and HTTPS
 *    to the SVM management endpoint for the ontap Job only): the ontap Job (./ontap.ts), as the SVM's
 *    vsadmin, giving the data volumes the export policy `lab-<cluster>-brokers` (the node subnets
 *    only, NFSv4, root squashed) and their roots to Kafka's user (1001:0, 0751); then a static PV and
 *    claim per volume root, and the prepare Job mounting them and creating each broker's directory
 *    as Kafka's user (scripts/prepare-dirs.sh); both Jobs awaited until they complete by
 *    components/bench/scripts/collect-job.sh (kubectl on the deploying machine);
 * 3. (in the Kafka namespace, which the Strimzi operator's component creates and watches) its
 *    NetworkPolicies (./network.ts: default deny, DNS, the Kafka pods' egress; Strimzi generates their
 *    ingress, the plain listener admitting the OMB namespace only), the StorageClass
 *    `kafka-fsx-nfs-static` (no provisioner), one
 *    static PersistentVolume per broker per volume (reclaim `Retain`) and its pre-bound claim, named as
 *    Strimzi names a JBOD claim (storage.ts);
 * 4. the `KafkaNodePool`s (controllers on gp3, brokers JBOD on the static claims) and the `Kafka`
 *    (published broker settings, rack = zone), after the Strimzi operator (`operatorReady`); the Kafka
 *    resource is awaited until Strimzi reports it Ready, by collect-job.sh (KAFKA_NAME), which prints
 *    the broker pods' FailedMount events meanwhile and stops at once on a mount the SVM refused.
 *
 * No CSI driver: every NFS volume is a static `nfs` PersistentVolume the kubelet mounts, so no pod
 * can mount an export by naming it in its own spec (the restricted profile refuses `nfs` volumes in
 * a pod; `csi` inline volumes would be allowed, which is why the NFS CSI driver is not installed).
 *
 * Destroying it deletes the custom resources, then the claims and volumes; with `Retain` and static
 * volumes nothing is deleted on the file system: the brokers' directories and data stay until the
 * FSx stack is destroyed or removed by hand (README "kafka", clean-up); so do the export policy and
 * the volumes' ownership (set through ONTAP, which no destroy reverts).
 *
 * Rules, defaults and sources: ./rules.ts, ./storage.ts, ./manifests.ts. Providers (AWS for the rules,
 * Kubernetes for the rest) come from `opts`.
 */
import * as command from "@pulumi/command";
import { STORAGE_CLASS_REPLACE_ON_CHANGES } from "../lib/kubernetes";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import * as fs from "node:fs";
import * as path from "node:path";
import { nodeIngressRules } from "../fsx-ontap/node-ingress";
import { ONTAP_INGRESS } from "../fsx-ontap/security";
import { COLLECT_IGNORED_INPUTS } from "../bench";
import { collectorAccountName, collectorGrant, kafkaAwaitGrant } from "../bench/access";
import { createCollectorAccess } from "../bench/collector-access";
import { readCollectScript } from "../bench/scripts";
import { throwIfInvalid } from "../lib/args";
import { childOptions } from "../lib/child";
import { withLaterInput } from "./later";
import {
  bootstrapServers,
  brokerPoolManifest,
  controllerPoolManifest,
  KAFKA_AWAIT_POLL_SECONDS,
  KAFKA_READY_TIMEOUT_SECONDS,
  kafkaManifest,
  prepareConfigMapManifest,
  PREPARE_DEADLINE_SECONDS,
  PREPARE_JOB,
  PREPARE_POLL_SECONDS,
  prepareJobManifest,
  storageNamespaceManifest,
  storageNamespaceName,
} from "./manifests";
import { kafkaNetworkPolicies } from "./network";
import { createNetworkPolicies } from "../lib/network-policy-resources";
import {
  kafkaMountFix,
  ONTAP_DEADLINE_SECONDS,
  ONTAP_JOB,
  ontapApiPolicy,
  ontapConfigMapManifest,
  ONTAP_CREDENTIALS_SECRET,
  ontapCredentialsSecretManifest,
  ontapJobManifest,
} from "./ontap";
import { KafkaClusterSpec, problems, resolve } from "./rules";
import {
  brokerPodName,
  brokerVolumes,
  dataClaimManifest,
  dataVolumeManifest,
  staticStorageClassManifest,
  volumeRootClaimManifest,
  volumeRootManifest,
} from "./storage";
import { baselineNetworkPolicies } from "../lib/network-policy";

/** The script the prepare Job runs (its one home). */
export const PREPARE_DIRS_SCRIPT = path.join(__dirname, "scripts", "prepare-dirs.sh");
/** The script the ontap Job runs (its one home). */
export const ONTAP_EXPORTS_SCRIPT = path.join(__dirname, "scripts", "ontap-exports.py");
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
  /** The SVM of the data volumes. */
  readonly svmName: pulumi.Input<string>;
  /** The SVM's management endpoint (ONTAP REST API): its DNS name and addresses. */
  readonly svmManagementEndpoint: pulumi.Input<{ dnsName: string; ipAddresses: string[] }>;
  /** The SVM's vsadmin credentials (secret), for the ontap Job. */
  readonly ontapCredentials: pulumi.Input<{ username: string; password: string }>;
  /** The subnets the EKS nodes (and their pods) have addresses in: the export policy's clients, the API server's. */
  readonly nodeSubnetCidrs: pulumi.Input<string[]>;
  /** The cluster's Service IPv4 range: the brokers reach the API server at its first address (network.ts). */
  readonly serviceIpv4Cidr: pulumi.Input<string>;
  /** The namespace of Kafka's clients (the OMB namespace): the only one the plain listener admits. */
  readonly clientNamespace: string;
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

    const { storageClass, prepared } = this.prepareStorage(name, args, r, child);

    // The Kafka namespace's policies (network.ts): the number and names are fixed, the egress rule's
    // node subnets and the API server's Service address come from upstream.
    const kafkaPolicies = createNetworkPolicies(
      name,
      (cidrs, apiServerIp) => kafkaNetworkPolicies(r, cidrs, apiServerIp),
      args.nodeSubnetCidrs,
      args.serviceIpv4Cidr,
      { ...child, dependsOn: [...args.operatorReady] },
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
    const kafka = new k8s.apiextensions.CustomResource(`${name}-kafka`, kafkaManifest(r, args.clientNamespace), {
      ...child,
      dependsOn: [...after, ...kafkaPolicies, controllers, brokers],
    });

    this.ready = [this.awaitKafka(name, args, r, kafka, child)];
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

  /**
   * The Kafka awaited Ready (for its current spec) by collect-job.sh with KAFKA_NAME, as a
   * collector that may read this Kafka and list the namespace's pods and events only
   * (components/bench/access.ts `kafkaAwaitGrant`): the brokers' FailedMount events are printed
   * while it waits, and a mount the SVM refused ends the update at once with {@link kafkaMountFix}.
   * Awaited again when the Kafka is created again or its spec changes (its uid, its generation).
   */
  private awaitKafka(
    name: string,
    args: KafkaClusterArgs,
    r: ReturnType<typeof resolve>,
    kafka: k8s.apiextensions.CustomResource,
    child: pulumi.CustomResourceOptions,
  ): command.local.Command {
    const access = createCollectorAccess(
      `${name}-kafka`,
      kafkaAwaitGrant(collectorAccountName(`${r.clusterName}-kafka`), r.namespace, r.clusterName),
      child,
      [...args.operatorReady],
    );
    const metadata = kafka.metadata as pulumi.Output<{ uid?: string; generation?: number }>;
    return new command.local.Command(
      `${name}-kafka-await`,
      {
        create: readCollectScript(),
        interpreter: ["/bin/sh", "-c"],
        environment: {
          KAFKA_NAME: r.clusterName,
          JOB_NAMESPACE: r.namespace,
          WAIT_TIMEOUT_SECONDS: String(KAFKA_READY_TIMEOUT_SECONDS),
          POLL_SECONDS: String(KAFKA_AWAIT_POLL_SECONDS),
          MOUNT_FIX: pulumi
            .all([args.svmName, args.nodeSubnetCidrs])
            .apply(([svm, cidrs]) => kafkaMountFix(r, storageNamespaceName(r), svm, cidrs)),
          ...access.environment(KAFKA_READY_TIMEOUT_SECONDS),
          LAB_KUBECONFIG: pulumi.secret(args.kubeconfig),
        },
        triggers: [metadata.apply((m) => m.uid ?? ""), metadata.apply((m) => String(m.generation ?? ""))],
        logging: "stderr",
        addPreviousOutputInEnv: false,
      },
      { parent: this, dependsOn: [kafka, access.ready], ignoreChanges: [...COLLECT_IGNORED_INPUTS] },
    );
  }

  /**
   * The brokers' directories exist before any of their volumes does: the storage namespace and
   * its NetworkPolicies; the ontap Job (export policy, roots' owner), awaited; the roots' static
   * volumes; the prepare Job, awaited. Awaited by collect-job.sh (not by the provider, which would
   * wait out a Job's deadline on a call or a mount that can never succeed). Returns the prepare
   * Job's await, which the data volumes wait for, and the static StorageClass they use.
   */
  private prepareStorage(
    name: string,
    args: KafkaClusterArgs,
    r: ReturnType<typeof resolve>,
    child: pulumi.CustomResourceOptions,
  ): { storageClass: k8s.storage.v1.StorageClass; prepared: command.local.Command } {
    const nfsRules = nodeIngressRules(
      name,
      ONTAP_INGRESS.filter((p) => p.id.startsWith("nfs-") || p.id === "https-tcp-443"),
      args,
      (p) => (p.id === "https-tcp-443" ? "Kafka storage preparation: the ONTAP REST API of the SVM" : "Kafka brokers, storage preparation"),
      this,
    );

    const storageNsName = storageNamespaceName(r);
    const storageNs = new k8s.core.v1.Namespace(`${name}-storage-ns`, storageNamespaceManifest(r) as k8s.core.v1.NamespaceArgs, child);
    const inStorage = { ...child, dependsOn: [storageNs] };
    const storagePolicies = [
      ...baselineNetworkPolicies(storageNsName).map(
        (p) =>
          new k8s.networking.v1.NetworkPolicy(`${name}-storage-${p.metadata?.name}`, p as k8s.networking.v1.NetworkPolicyArgs, inStorage),
      ),
      new k8s.networking.v1.NetworkPolicy(
        `${name}-storage-ontap-api`,
        pulumi
          .output(args.svmManagementEndpoint)
          .apply((e) => ontapApiPolicy(storageNsName, e.ipAddresses)) as k8s.networking.v1.NetworkPolicyArgs,
        inStorage,
      ),
    ];
    // The vsadmin credentials exist in the cluster only while the ontap Job is awaited: its await
    // creates the Secret before the wait and deletes it when the wait ends (collect-job.sh
    // JOB_SECRET); the Job's pod waits for it (the kubelet retries the volume) and reads it as files.
    const credentials = pulumi.secret(
      pulumi
        .output(args.ontapCredentials)
        .apply((c) => JSON.stringify(ontapCredentialsSecretManifest(storageNsName, c.username, c.password))),
    );
    const ontapScript = new k8s.core.v1.ConfigMap(
      `${name}-storage-ontap-scripts`,
      ontapConfigMapManifest(storageNsName, fs.readFileSync(ONTAP_EXPORTS_SCRIPT, "utf8")) as k8s.core.v1.ConfigMapArgs,
      inStorage,
    );
    const ontapManifest = pulumi
      .all([args.svmManagementEndpoint, args.svmName, args.nodeSubnetCidrs])
      .apply(([e, svm, cidrs]) => ontapJobManifest(r, storageNsName, { host: e.dnsName, svmName: svm, clientCidrs: cidrs.join(",") }));
    const ontap = new k8s.batch.v1.Job(`${name}-storage-ontap`, ontapManifest as unknown as k8s.batch.v1.JobArgs, {
      ...child,
      dependsOn: [ontapScript, ...storagePolicies, ...nfsRules],
    });
    // The prepare Job mounts the volume roots: a mount the SVM refuses ends its wait with the fix.
    const mountFix = pulumi.all([args.svmName, args.nodeSubnetCidrs]).apply(([svm, cidrs]) => kafkaMountFix(r, storageNsName, svm, cidrs));
    const awaitJob = (
      role: string,
      job: k8s.batch.v1.Job,
      jobName: string,
      deadlineSeconds: number,
      mounts: boolean,
      secret?: pulumi.Output<string>,
    ) => {
      // The await's own identity (components/bench/access.ts): reads of this Job, its pods, events and log.
      const access = createCollectorAccess(
        `${name}-storage-${role}`,
        collectorGrant(collectorAccountName(jobName), storageNsName, [jobName]),
        child,
        [storageNs],
      );
      const waitSeconds = deadlineSeconds + AWAIT_PREPARE_MARGIN_SECONDS;
      return new command.local.Command(
        `${name}-storage-${role}-await`,
        {
          create: readCollectScript(),
          interpreter: ["/bin/sh", "-c"],
          environment: {
            JOB_NAME: jobName,
            JOB_NAMESPACE: storageNsName,
            WAIT_TIMEOUT_SECONDS: String(waitSeconds),
            POLL_SECONDS: String(PREPARE_POLL_SECONDS),
            ...(mounts ? { MOUNT_FIX: mountFix } : {}),
            ...(secret ? { JOB_SECRET: secret, JOB_SECRET_NAME: ONTAP_CREDENTIALS_SECRET } : {}),
            ...access.environment(waitSeconds),
            LAB_KUBECONFIG: pulumi.secret(args.kubeconfig),
          },
          // A Job created again (new uid) is awaited again; nothing else re-runs it.
          triggers: [job.metadata.uid],
          logging: "stderr",
          addPreviousOutputInEnv: false,
        },
        { parent: this, dependsOn: [job, access.ready], ignoreChanges: [...COLLECT_IGNORED_INPUTS] },
      );
    };
    const ontapDone = awaitJob("ontap", ontap, ONTAP_JOB, ONTAP_DEADLINE_SECONDS, false, credentials);

    const storageClass = new k8s.storage.v1.StorageClass(
      `${name}-static-class`,
      staticStorageClassManifest() as k8s.storage.v1.StorageClassArgs,
      { ...child, replaceOnChanges: [...STORAGE_CLASS_REPLACE_ON_CHANGES] },
    );
    const roots = r.dataVolumes.map((_, i) => {
      const pv = new k8s.core.v1.PersistentVolume(
        `${name}-storage-root-pv-${i}`,
        withLaterInput(
          volumeRootManifest(r, storageNsName, i, SERVER),
          SERVER,
          args.nfsServer,
        ) as unknown as k8s.core.v1.PersistentVolumeArgs,
        { ...child, dependsOn: [storageClass, ontapDone] },
      );
      return new k8s.core.v1.PersistentVolumeClaim(
        `${name}-storage-root-pvc-${i}`,
        volumeRootClaimManifest(r, storageNsName, i) as unknown as k8s.core.v1.PersistentVolumeClaimArgs,
        { ...child, dependsOn: [storageNs, pv] },
      );
    });
    const script = new k8s.core.v1.ConfigMap(
      `${name}-storage-scripts`,
      prepareConfigMapManifest(r, fs.readFileSync(PREPARE_DIRS_SCRIPT, "utf8")) as k8s.core.v1.ConfigMapArgs,
      inStorage,
    );
    const prepareManifest = withLaterInput(prepareJobManifest(r, DEPLOYMENT), DEPLOYMENT, storageNs.metadata.uid);
    const prepare = new k8s.batch.v1.Job(`${name}-storage-prepare`, prepareManifest as unknown as k8s.batch.v1.JobArgs, {
      ...child,
      dependsOn: [script, ...storagePolicies, ...roots],
    });
    const prepared = awaitJob("prepare", prepare, PREPARE_JOB, PREPARE_DEADLINE_SECONDS, true);
    return { storageClass, prepared };
  }
}
