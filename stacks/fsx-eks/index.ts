/**
 * Stack kind `fsx-eks`: joins the `fsx-ontap` file system and the `eks` cluster (and reads the
 * `network` stack's VPC CIDR) into the FSx-on-EKS experiment:
 *
 * - Trident's FSx backend (`ontap-nas`, FSx-aware: file system id, SVM, the SVM's secret ARN, the NFS
 *   data LIF; by config also `ontap-san`), its StorageClass `fsx-ontap-nas` (and `fsx-ontap-san`), the
 *   nodes' security-group rules to the file system, the Trident role's access to the secret;
 * - the `gp3` EBS StorageClass, the baseline beside FSx;
 * - replicated MySQL 8.4 on `fsx-ontap-nas` (placement that lets `mysql-0` move zones);
 * - the benchmark runs (stacks/fsx-eks/runs.ts): fio `seed` + ioping and fio `latency` on FSx with
 *   the pod in the file system's preferred zone and in its standby zone, and on gp3 in the
 *   preferred zone; samples tagged `zoneRelation` and `storageClass`;
 * - the tools image: `lab:toolsImage`, or the one the eks stack built (its output `images.tools`,
 *   `lab:images: [tools]` there: built beside the cluster, off the critical path, stacks/eks/images.ts).
 *
 * No resource is created inside an `apply`. The six runs are created up front, in runs.ts' order
 * and with its names; what only the upstream stacks and the image build know reaches them as
 * Outputs: their `zone` (the file system's preferred and standby zones, checked against the node
 * zones by runs.ts `runZoneProblems` before any resource is registered: a bad pair is a config
 * error naming the key, through stacks/lib/upstream.ts `whenUpstreamsFit`),
 * `toolsImage` (`lab:toolsImage` as given, or the eks stack's `images.tools`, checked there too:
 * neither is a config error naming both keys) and the samples' `fsxPreferredZone`, `instanceType`
 * and `hypervisor`. BenchmarkRun checks an Output `zone` or `toolsImage` by its own rules once it
 * resolves (components/bench/index.ts, "Values known later"). The upstream stacks are deployed
 * before this one, so its first preview already knows every run, the Jobs' image included.
 */
import * as k8s from "@pulumi/kubernetes";
import { STORAGE_CLASS_REPLACE_ON_CHANGES } from "../../components/lib/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { BenchmarkRun } from "../../components/bench";
import { GP3_STORAGE_CLASS, gp3StorageClassManifest } from "../../components/eks/storage";
import { noToolsImageRule } from "../../components/image/rules";
import { hypervisorOf } from "../../components/k0s/instance-types";
import { MySql } from "../../components/mysql";
import { baselineNetworkPolicies } from "../../components/lib/network-policy";
import { resolve as resolveMySql } from "../../components/mysql/rules";
import { restrictedNamespaceManifest } from "../../components/mysql/manifests";
import { TridentFsxBackend } from "../../components/trident";
import { sanNodePrepProblem, STORAGE_CLASS_NAMES } from "../../components/trident/rules";
import { argProblem, problem } from "../../core/errors";
import { maintenanceMetadata } from "../../core/maintenance";
import { readEks } from "../eks/outputs";
import { readFsxOntap } from "../fsx-ontap/outputs";
import { parseConfig } from "../lib/config/load";
import { labAwsProvider, StackIdentity } from "../lib/context";
import { readNetwork } from "../network/outputs";
import { backendArgs, BENCH_NAMESPACE, benchArgs, checkFsxEks, FsxEksConfig, fsxEksSchema, mysqlArgs } from "./config";
import { experimentGrants } from "./experiment-access";
import { createExperimentAccess } from "./experiment-identities";
import { benchRuns, RunPlan, runZoneProblems, runZones } from "./runs";
import { whenUpstreamsFit } from "../lib/upstream";

/** The scenario this kind's samples belong to. */
export const SCENARIO = "fsx-eks";

/** The first address of the SVM's NFS endpoint: Trident's `dataLIF` (checked by {@link nfsDataLifProblems}). */
export function nfsDataLif(endpoint: { dnsName: string; ipAddresses: string[] } | null): string {
  return endpoint?.ipAddresses[0] ?? "";
}

/** The SVM must have an NFS endpoint address (Trident's `dataLIF`). */
export function nfsDataLifProblems(endpoint: { dnsName: string; ipAddresses: string[] } | null, fsxOntapStack: string): string[] {
  return endpoint?.ipAddresses[0] === undefined
    ? [
        problem(
          "lab:fsxOntapStack",
          "the name of an fsx-ontap stack whose SVM has an NFS endpoint address (it reports none)",
          fsxOntapStack,
        ),
      ]
    : [];
}

/** The upstream outputs this kind reads. */
const FSX_OUTPUTS = [
  "fileSystemId",
  "fileSystemArn",
  "svmId",
  "svmName",
  "credentialsSecretArn",
  "kmsKeyArn",
  "nfsEndpoint",
  "securityGroupId",
  "preferredAz",
  "standbyAz",
  "maintenanceWindow",
] as const;
const EKS_OUTPUTS = [
  "kubeconfig",
  "nodeSecurityGroupId",
  "tridentRoleName",
  "zones",
  "instanceType",
  "clusterName",
  "tridentNodePrep",
  "images",
] as const;
/**
 * What is read of the eks stack: `tridentNodePrep` only with the SAN backend (an eks stack deployed
 * before that output existed still serves NAS), `images` only without `lab:toolsImage`.
 */
function eksOutputsFor(cfg: FsxEksConfig): readonly (typeof EKS_OUTPUTS)[number][] {
  return EKS_OUTPUTS.filter(
    (n) => (n !== "tridentNodePrep" || cfg.sanBackend === true) && (n !== "images" || cfg.toolsImage === undefined),
  );
}

/** Without `lab:toolsImage`, the eks stack must export a tools image (`lab:images: [tools]` there). */
export function toolsImageSourceProblems(
  cfg: Pick<FsxEksConfig, "toolsImage" | "eksStack">,
  images: { tools?: string; omb?: string } | undefined,
) {
  return cfg.toolsImage === undefined && images?.tools === undefined
    ? [argProblem("toolsImage", noToolsImageRule(cfg.eksStack), undefined)]
    : [];
}

export function fsxEksStack(raw: Readonly<Record<string, string>>, id: StackIdentity) {
  const cfg = parseConfig("fsx-eks", fsxEksSchema, raw, checkFsxEks);
  const { provider, expiresAt } = labAwsProvider(cfg, id);
  const net = readNetwork(cfg.networkStack);
  const fsx = readFsxOntap(cfg.fsxOntapStack, FSX_OUTPUTS);
  const eks = readEks(cfg.eksStack, eksOutputsFor(cfg) as typeof EKS_OUTPUTS);
  // Every upstream rule before any resource (stacks/lib/upstream.ts): one config error with every problem.
  return whenUpstreamsFit(
    { net, fsx, eks },
    ({ fsx: f, eks: e }) => [
      ...(f ? nfsDataLifProblems(f.nfsEndpoint, cfg.fsxOntapStack) : []),
      ...(f && e ? runZoneProblems(f.preferredAz, f.standbyAz, e.zones, cfg) : []),
      // The SAN backend mounts over iSCSI, which AL2023 nodes lack unless Trident prepares them (the
      // eks stack's lab:tridentNodePrep).
      ...(cfg.sanBackend === true && e
        ? [sanNodePrepProblem(e.tridentNodePrep, cfg.eksStack)].filter((x): x is string => x !== undefined)
        : []),
      ...(e ? toolsImageSourceProblems(cfg, e.images) : []),
    ],
    () => build(cfg, id, provider, expiresAt, net, fsx, eks),
  );
}

/** The fsx-ontap stack's outputs as read. */
type FsxOutputs = ReturnType<typeof readFsxOntap<(typeof FSX_OUTPUTS)[number]>>;
/** The eks stack's outputs as read. */
type EksOutputs = ReturnType<typeof readEks<(typeof EKS_OUTPUTS)[number]>>;

/** The resources, once every upstream rule holds: each step a function of its own, in registration order. */
function build(
  cfg: FsxEksConfig,
  id: StackIdentity,
  provider: ReturnType<typeof labAwsProvider>["provider"],
  expiresAt: pulumi.Output<string>,
  net: ReturnType<typeof readNetwork>,
  fsx: FsxOutputs,
  eks: EksOutputs,
) {
  const k8sProvider = new k8s.Provider("eks", { kubeconfig: eks.kubeconfig });
  const inCluster = { provider: k8sProvider };

  const backend = tridentBackend(cfg, net, fsx, eks, [provider, k8sProvider]);
  const gp3 = new k8s.storage.v1.StorageClass("gp3", gp3StorageClassManifest() as k8s.storage.v1.StorageClassArgs, {
    ...inCluster,
    replaceOnChanges: [...STORAGE_CLASS_REPLACE_ON_CHANGES],
  });
  const mysql = new MySql("mysql", mysqlArgs(cfg), { ...inCluster, dependsOn: backend.ready });
  const bench = benchNamespace(inCluster);
  // The failover experiments' own identities (./experiment-access.ts): `lab experiment` asks for a
  // short-lived token of one of them and never calls the cluster as admin otherwise.
  const grants = experimentGrants(resolveMySql(mysqlArgs(cfg)).namespace, BENCH_NAMESPACE);
  createExperimentAccess(Object.values(grants), inCluster, [mysql, bench.namespace]);

  // `lab:toolsImage` as given (a plain value: BenchmarkRun checks it at construction), else the
  // eks stack's tools image (an Output, checked above and by BenchmarkRun once it resolves).
  const runsImage: pulumi.Input<string> = cfg.toolsImage ?? eks.images.apply((i) => i?.tools ?? "");
  const runs = benchmarkRuns(cfg, id, fsx, eks, runsImage, inCluster, [bench.namespace, ...bench.policies, gp3, ...backend.ready]);

  return {
    backendNames: backend.backendNames,
    storageClasses: pulumi.all([backend.storageClassNames, gp3.metadata.name]).apply(([trident, ebs]) => [...trident, ebs]),
    mysql: mysqlOutput(cfg, mysql),
    // The experiments' ServiceAccounts (lab/experiment/kube.ts requests their tokens).
    experimentAccess: Object.fromEntries(
      Object.entries(grants).map(([experiment, g]) => [experiment, { namespace: g.namespace, serviceAccount: g.name }]),
    ),
    // What the failover experiments read (lab/experiment/outputs.ts): the cluster, the region and
    // the file system whose throughput is the failover lever.
    kubeconfig: pulumi.secret(eks.kubeconfig),
    region: cfg.region,
    fileSystemId: fsx.fileSystemId,
    toolsImage: pulumi.output(runsImage),
    ...runs,
    expiresAt,
  } satisfies Record<string, pulumi.Input<unknown>>;
}

/** Trident's FSx backend(s) and StorageClass(es) for the file system and its SVM, reached from the cluster's nodes. */
function tridentBackend(
  cfg: FsxEksConfig,
  net: ReturnType<typeof readNetwork>,
  fsx: FsxOutputs,
  eks: EksOutputs,
  providers: pulumi.ProviderResource[],
): TridentFsxBackend {
  return new TridentFsxBackend(
    "trident",
    {
      ...backendArgs(cfg),
      tridentRoleName: eks.tridentRoleName,
      fileSystemId: fsx.fileSystemId,
      fileSystemArn: fsx.fileSystemArn,
      svmId: fsx.svmId,
      svmName: fsx.svmName,
      credentialsSecretArn: fsx.credentialsSecretArn,
      kmsKeyArn: fsx.kmsKeyArn,
      region: cfg.region,
      nfsDataLif: fsx.nfsEndpoint.apply(nfsDataLif),
      exportCidrs: net.vpcCidr.apply((c) => [c]),
      nodeSecurityGroupId: eks.nodeSecurityGroupId,
      fsxSecurityGroupId: fsx.securityGroupId,
    },
    { providers },
  );
}

/**
 * The benchmarks' namespace (restricted) and its NetworkPolicies. The benchmark Jobs (fio, ioping;
 * fsx-failover's fio) serve nothing and reach nothing: their volumes are mounted by the kubelet,
 * their logs read through the API server. Default deny, DNS only.
 */
function benchNamespace(inCluster: pulumi.CustomResourceOptions) {
  const namespace = new k8s.core.v1.Namespace(
    "bench-ns",
    restrictedNamespaceManifest(BENCH_NAMESPACE) as k8s.core.v1.NamespaceArgs,
    inCluster,
  );
  const policies = baselineNetworkPolicies(BENCH_NAMESPACE).map(
    (p) =>
      new k8s.networking.v1.NetworkPolicy(`bench-netpol-${p.metadata?.name}`, p as unknown as k8s.networking.v1.NetworkPolicyArgs, {
        ...inCluster,
        dependsOn: [namespace],
      }),
  );
  return { namespace, policies };
}

/**
 * The benchmark runs of runs.ts, created now (stable order and names), each after the one before
 * (the first after `first`); the upstream zones and the image reach them as Outputs. Returns the
 * stack's `benchmarks`, `results` and `rawOutputs`.
 */
function benchmarkRuns(
  cfg: FsxEksConfig,
  id: StackIdentity,
  fsx: FsxOutputs,
  eks: EksOutputs,
  runsImage: pulumi.Input<string>,
  inCluster: pulumi.CustomResourceOptions,
  first: pulumi.Resource[],
) {
  const zones = pulumi
    .all([fsx.preferredAz, fsx.standbyAz, eks.zones])
    .apply(([preferredAz, standbyAz]) => runZones(preferredAz, standbyAz));
  const preferredZone = zones.apply((z) => z.preferredZone);
  const plans = benchRuns({
    preferredZone,
    otherZone: zones.apply((z) => z.otherZone),
    nasStorageClass: STORAGE_CLASS_NAMES.nas,
    gp3StorageClass: GP3_STORAGE_CLASS,
  });
  const host = pulumi
    .all([preferredZone, eks.instanceType, fsx.maintenanceWindow])
    .apply(([fsxPreferredZone, instanceType, maintenance]) => ({
      fsxPreferredZone,
      instanceType,
      hypervisor: hypervisorOf(instanceType),
      maintenance,
    }));
  const runs: Array<{ plan: RunPlan<pulumi.Output<string>>; run: BenchmarkRun }> = [];
  let previous: pulumi.Resource[] = first;
  for (const plan of plans) {
    const run = new BenchmarkRun(
      plan.name,
      {
        ...benchArgs(cfg),
        toolsImage: runsImage,
        zone: plan.zone,
        storageClass: plan.storageClass,
        fioProfile: plan.fioProfile,
        tools: plan.tools,
        kubeconfig: eks.kubeconfig,
        rawPrefix: `${plan.name}-`,
        metadata: host.apply((h) => ({
          scenario: SCENARIO,
          stack: id.stack,
          zoneRelation: plan.zoneRelation,
          fsxPreferredZone: h.fsxPreferredZone,
          instanceType: h.instanceType,
          hypervisor: h.hypervisor,
          // The file system's maintenance window, for the runs on it (not gp3's).
          ...(plan.storageClass === GP3_STORAGE_CLASS ? {} : maintenanceMetadata(h.maintenance)),
        })),
        runAfter: previous,
      },
      inCluster,
    );
    previous = [run];
    runs.push({ plan, run });
  }
  return {
    benchmarks: pulumi.all(
      runs.map(({ plan, run }) => pulumi.all([plan.zone, run.jobNames]).apply(([zone, jobNames]) => ({ ...plan, zone, jobNames }))),
    ),
    results: pulumi.all(runs.map(({ run }) => run.results)).apply((l) => l.flat()),
    rawOutputs: pulumi.all(runs.map(({ run }) => run.rawOutputs)).apply((l) => l.flat()),
  };
}

/** The stack's `mysql` output: where MySQL serves and how its writer logs in. */
function mysqlOutput(cfg: FsxEksConfig, mysql: MySql) {
  return pulumi
    .all([mysql.namespace, mysql.sourceHost, mysql.readHost, mysql.replicas, mysql.statefulSetName, mysql.writerPasswordSecret])
    .apply(([namespace, sourceHost, readHost, replicas, statefulSetName, writerPasswordSecret]) => ({
      namespace,
      sourceHost,
      readHost,
      replicas,
      statefulSetName,
      // The Secret and key holding the password: the writer's pod reads it (secretKeyRef); the
      // password itself is not an output.
      writerPasswordSecretRef: writerPasswordSecret,
      storageClass: mysqlArgs(cfg).storageClass,
    }));
}
