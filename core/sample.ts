/**
 * One benchmark fact, PerfKitBenchmarker style (docs/samples.md).
 * `metadata.tool` is always set; runs add scenario, stack, runId, rep, instanceType, hypervisor,
 * storageClass, zone, zoneRelation, the tool version and every option that shapes the number.
 */
export type MetadataValue = string | number | boolean;

export interface SampleMetadata {
  tool: "fio" | "ioping" | "pgbench" | "omb" | "failover";
  [key: string]: MetadataValue;
}

export interface Sample {
  metric: string;
  value: number;
  unit: string;
  metadata: SampleMetadata;
}

/** Metadata every sample of one run carries (merged over what the parser found in the output). */
export interface RunMetadata {
  scenario?: string;
  stack?: string;
  runId?: string;
  rep?: number;
  instanceType?: string;
  hypervisor?: "xen" | "nitro";
  storageClass?: string;
  zone?: string;
  zoneRelation?: "same" | "cross";
  [key: string]: MetadataValue | undefined;
}

/** Returns the samples with the run's metadata added; keys the parser found in the output win. */
export function withRunMetadata(samples: readonly Sample[], run: RunMetadata): Sample[] {
  const extra: Record<string, MetadataValue> = {};
  for (const [k, v] of Object.entries(run)) if (v !== undefined) extra[k] = v;
  return samples.map((s) => ({ ...s, metadata: { ...extra, ...s.metadata } }));
}
