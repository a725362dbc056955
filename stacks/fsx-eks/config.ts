/**
 * Config of the `fsx-eks` stack kind: the keys' types; their rules and defaults are the components'
 * (Trident's backend: components/trident/rules.ts; MySQL: components/mysql/rules.ts, keys
 * `lab:mysql*`; the benchmark runs: components/bench/rules.ts), checked with the `lab:` key names.
 */
import { z } from "zod";
import { ArgProblem } from "../../core/errors";
import { problems as benchProblems, type BenchSpec } from "../../components/bench/rules";
import { GP3_STORAGE_CLASS } from "../../components/eks/storage";
import { MySqlSpec, problems as mysqlProblems } from "../../components/mysql/rules";
import { backendProblems, FsxBackendSpec, ReclaimPolicy, STORAGE_CLASS_NAMES } from "../../components/trident/rules";
import { commonFields } from "../lib/config/common";
import { bool, int, stackName, text } from "../lib/config/fields";
import { renamed } from "../lib/config/load";
import { benchRuns } from "./runs";

export const fsxEksSchema = z.object({
  ...commonFields,
  /**
   * `lab:networkStack`: the network stack (its VPC CIDR bounds Trident's export policy).
   * @source Pulumi StackReference: a stack name of letters, digits, '-', '_' or '.', as stack, org/stack or org/project/stack —
   * https://www.pulumi.com/docs/iac/concepts/stacks/
   */
  networkStack: stackName("network"),
  /**
   * `lab:fsxOntapStack`: the FSx for ONTAP stack (file system, SVM, its secret, zones).
   * @source Pulumi StackReference: a stack name of letters, digits, '-', '_' or '.', as stack, org/stack or org/project/stack —
   * https://www.pulumi.com/docs/iac/concepts/stacks/
   */
  fsxOntapStack: stackName("fsx-ontap"),
  /**
   * `lab:eksStack`: the EKS stack (kubeconfig, node security group, Trident's role, zones).
   * @source Pulumi StackReference: a stack name of letters, digits, '-', '_' or '.', as stack, org/stack or org/project/stack —
   * https://www.pulumi.com/docs/iac/concepts/stacks/
   */
  eksStack: stackName("eks"),
  /**
   * `lab:sanBackend` → TridentFsxBackend `sanBackend`.
   * @source Trident: a second backend of storage driver ontap-san (iSCSI); FSx disables iSCSI on file systems of more than 6 HA pairs —
   * NetApp/trident@v26.06.0 config/config.go:238; boto/botocore@0e6e2404 botocore/data/fsx/2018-03-01/service-2.json:1998
   */
  sanBackend: bool().optional(),
  /**
   * `lab:reclaimPolicy` → `reclaimPolicy`.
   * @source Kubernetes StorageClass reclaimPolicy: Delete (the default) or Retain; Recycle is refused for a class (validateReclaimPolicy)
   * — kubernetes/api@v0.35.7 storage/v1/types.go:53-56; kubernetes/kubernetes pkg/apis/storage/validation/validation.go
   */
  reclaimPolicy: text().optional(),
  /**
   * `lab:mysqlReplicas` → MySql `replicas`.
   * @source lab rule (1–5: mysql-0 the source, the others its replicas); Kubernetes StatefulSet spec.replicas: an int32, 1 when unset —
   * kubernetes/api@v0.35.7 apps/v1/types.go:187-193
   */
  mysqlReplicas: int().optional(),
  /**
   * `lab:mysqlVolumeGiB` → MySql `volumeGiB`.
   * @source lab rule (1–16,384 GiB); Trident ontap-nas (the fsx-ontap-nas class): a FlexVol of at least 20 MiB — NetApp/trident@v26.06.0
   * storage_drivers/ontap/ontap_common.go:78
   */
  mysqlVolumeGiB: int().optional(),
  /**
   * `lab:toolsImage` → every BenchmarkRun's `toolsImage`; unset: the eks stack's tools image (its output `images.tools`, `lab:images: [tools]` there).
   * @source lab rule (pinned: a tag other than latest, or a sha256/sha512 digest); image reference grammar: name [":" tag] ["@" digest],
   * tag [\w][\w.-]{0,127} — distribution/reference@v0.6.0 reference.go:6-24
   */
  toolsImage: text().optional(),
  /**
   * `lab:reps` → every BenchmarkRun's `reps`.
   * @source lab rule (1–20 repetitions, median and spread from them); the consumer is the lab's own Job scripts (REPS) —
   * components/bench/rules.ts REPS_MAX, components/bench/render.ts
   */
  reps: int().optional(),
  /**
   * `lab:pvcSizeGiB` → every BenchmarkRun's `pvcSizeGiB`.
   * @source lab rule (the fio file fills at most 90%); EBS gp3 (the gp3 runs, through the EBS CSI driver): 1–65,536 GiB; Trident ontap-nas
   * at least 20 MiB — boto/botocore@0e6e2404 botocore/data/ec2/2016-11-15/service-2.json:21570; NetApp/trident@v26.06.0
   * storage_drivers/ontap/ontap_common.go:78
   */
  pvcSizeGiB: int().optional(),
});

export type FsxEksConfig = z.output<typeof fsxEksSchema>;

/** The namespace of the benchmark Jobs and their volumes. */
export const BENCH_NAMESPACE = "bench";

export function backendArgs(c: FsxEksConfig): FsxBackendSpec {
  return { sanBackend: c.sanBackend, reclaimPolicy: c.reclaimPolicy as ReclaimPolicy | undefined };
}

export function mysqlArgs(c: FsxEksConfig): MySqlSpec {
  return { storageClass: STORAGE_CLASS_NAMES.nas, replicas: c.mysqlReplicas, volumeGiB: c.mysqlVolumeGiB };
}

/** The config's part of every BenchmarkRun's arguments. */
export function benchArgs(c: FsxEksConfig): Pick<BenchSpec, "runId" | "reps" | "pvcSizeGiB" | "toolsImage" | "namespace"> {
  return { namespace: BENCH_NAMESPACE, runId: c.runId, reps: c.reps, pvcSizeGiB: c.pvcSizeGiB, toolsImage: c.toolsImage };
}

/** The config fields BenchmarkRun's rules see (the others are the stack's own, always valid). */
const BENCH_FIELDS = new Set(["runId", "reps", "pvcSizeGiB", "toolsImage"]);

/**
 * The components' rules over the config's fields. The runs are checked as the stack creates them
 * (their names, profiles and classes), in the region's first zone; `toolsImage` only when given
 * (unset, the eks stack's is read and checked with the upstream outputs, index.ts).
 */
export function checkFsxEks(c: FsxEksConfig): ArgProblem[] {
  const bench = new Map<string, ArgProblem>();
  const zone = `${c.region}a`;
  for (const run of benchRuns({
    preferredZone: zone,
    otherZone: zone,
    nasStorageClass: STORAGE_CLASS_NAMES.nas,
    gp3StorageClass: GP3_STORAGE_CLASS,
  })) {
    const spec: BenchSpec = {
      ...benchArgs(c),
      name: run.name,
      zone: run.zone,
      storageClass: run.storageClass,
      fioProfile: run.fioProfile,
      tools: run.tools,
    };
    for (const p of benchProblems(spec)) {
      const head = /^[A-Za-z0-9]*/.exec(p.path)![0];
      if (!BENCH_FIELDS.has(head) || (head === "toolsImage" && c.toolsImage === undefined)) continue;
      bench.set(`${p.path}\u0000${p.rule}`, p);
    }
  }
  return [
    ...backendProblems(backendArgs(c)),
    ...renamed(mysqlProblems(mysqlArgs(c)), { replicas: "mysqlReplicas", volumeGiB: "mysqlVolumeGiB" }),
    ...bench.values(),
  ];
}
