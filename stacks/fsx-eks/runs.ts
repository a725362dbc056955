/**
 * The fsx-eks kind's benchmark runs (pure): fio `seed` (with ioping) and fio `latency` on a Trident
 * `ontap-nas` volume with the pod in the file system's preferred zone (`same`) and in its standby
 * zone (`cross`), and the same two on a gp3 EBS volume in the preferred zone (the baseline). One
 * run after the other (each after the previous one's last collection): never two on the storage
 * at once. The runs' names, order and everything but their zones are fixed; the zones may be
 * any type `Z` (plain strings, or the upstream zones as Outputs: stacks/fsx-eks/index.ts creates
 * the runs before the zones are known).
 */
import { problem } from "../../core/errors";
import type { FioProfile } from "../../components/bench/profiles";
import type { BenchTool } from "../../components/bench/rules";

export type ZoneRelation = "same" | "cross";

export interface RunPlan<Z = string> {
  /** The BenchmarkRun's name (a DNS-1123 label; the Jobs are `<name>-<tool>-<runId>`). */
  readonly name: string;
  readonly zone: Z;
  /** Relative to the file system's preferred zone. */
  readonly zoneRelation: ZoneRelation;
  readonly storageClass: string;
  readonly fioProfile: FioProfile;
  readonly tools: readonly BenchTool[];
}

/** Where the runs go: the zones and the classes under test. */
export interface RunPlacement<Z = string> {
  /** The FSx file system's preferred zone. */
  readonly preferredZone: Z;
  /** The Multi-AZ standby file server's zone. */
  readonly otherZone: Z;
  readonly nasStorageClass: string;
  readonly gp3StorageClass: string;
}

/** The profiles of each placement: `seed` with ioping, then `latency`. */
const PROFILES: ReadonlyArray<{ fioProfile: FioProfile; tools: readonly BenchTool[] }> = [
  { fioProfile: "seed", tools: ["fio", "ioping"] },
  { fioProfile: "latency", tools: ["fio"] },
];

export function benchRuns<Z = string>(p: RunPlacement<Z>): RunPlan<Z>[] {
  const placements: Array<{ prefix: string; zone: Z; zoneRelation: ZoneRelation; storageClass: string }> = [
    { prefix: "nas-same", zone: p.preferredZone, zoneRelation: "same", storageClass: p.nasStorageClass },
    { prefix: "nas-cross", zone: p.otherZone, zoneRelation: "cross", storageClass: p.nasStorageClass },
    { prefix: "gp3-same", zone: p.preferredZone, zoneRelation: "same", storageClass: p.gp3StorageClass },
  ];
  return placements.flatMap((pl) =>
    PROFILES.map((pr) => ({
      name: `${pl.prefix}-${pr.fioProfile}`,
      zone: pl.zone,
      zoneRelation: pl.zoneRelation,
      storageClass: pl.storageClass,
      fioProfile: pr.fioProfile,
      tools: pr.tools,
    })),
  );
}

/**
 * Problems of the runs' zones, checked before any resource (stacks/lib/upstream.ts): the fsx-ontap
 * stack's `preferredAz`/`standbyAz` must differ (a Single-AZ file system has no standby zone to run
 * a cross-zone benchmark in) and both be zones of the eks stack's nodes. Each names the config key
 * of the stack at fault.
 */
export function runZoneProblems(
  preferredAz: string,
  standbyAz: string,
  nodeZones: readonly string[],
  stacks: { readonly fsxOntapStack: string; readonly eksStack: string },
): string[] {
  if (preferredAz === standbyAz)
    return [
      problem(
        "lab:fsxOntapStack",
        `the name of a Multi-AZ fsx-ontap stack (its preferred and standby zones are both ${preferredAz}): the cross-zone benchmark needs two zones`,
        stacks.fsxOntapStack,
      ),
    ];
  const out: string[] = [];
  for (const [what, zone] of [
    ["preferred", preferredAz],
    ["standby", standbyAz],
  ] as const) {
    if (!nodeZones.includes(zone))
      out.push(
        problem(
          "lab:eksStack",
          `the name of an eks stack with nodes in the file system's ${what} zone ${zone} (its node zones: ${nodeZones.join(", ")})`,
          stacks.eksStack,
        ),
      );
  }
  return out;
}

/** The runs' zones: the file system's preferred zone (same) and its standby zone (cross); checked by {@link runZoneProblems}. */
export function runZones(preferredAz: string, standbyAz: string): { preferredZone: string; otherZone: string } {
  return { preferredZone: preferredAz, otherZone: standbyAz };
}
