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
  /** `lab:networkStack`: the network stack (its VPC CIDR bounds Trident's export policy). */
  networkStack: stackName("network"),
  /** `lab:fsxOntapStack`: the FSx for ONTAP stack (file system, SVM, its secret, zones). */
  fsxOntapStack: stackName("fsx-ontap"),
  /** `lab:eksStack`: the EKS stack (kubeconfig, node security group, Trident's role, zones). */
  eksStack: stackName("eks"),
  /** `lab:sanBackend` → TridentFsxBackend `sanBackend`. */
  sanBackend: bool().optional(),
  /** `lab:reclaimPolicy` → `reclaimPolicy`. */
  reclaimPolicy: text().optional(),
  /** `lab:mysqlReplicas` → MySql `replicas`. */
  mysqlReplicas: int().optional(),
  /** `lab:mysqlVolumeGiB` → MySql `volumeGiB`. */
  mysqlVolumeGiB: int().optional(),
  /** `lab:toolsImage` → every BenchmarkRun's `toolsImage`; unset: the eks stack's tools image (its output `images.tools`, `lab:images: [tools]` there). */
  toolsImage: text().optional(),
  /** `lab:reps` → every BenchmarkRun's `reps`. */
  reps: int().optional(),
  /** `lab:pvcSizeGiB` → every BenchmarkRun's `pvcSizeGiB`. */
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
