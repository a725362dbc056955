/**
 * The fsx-eks stack's outputs, as the lab reads them after a deployment (the failover experiments
 * of `lab experiment`: where MySQL runs, which classes and backends exist, where each benchmark ran).
 * `results`/`rawOutputs` are read by lab/results/stack-outputs.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { readUpstream } from "../lib/upstream";

const text = z.string().min(1);

/** Output schemas of the `fsx-eks` kind (stacks/fsx-eks/index.ts exports them). */
export const fsxEksOutputs = {
  backendNames: z.array(text).min(1),
  storageClasses: z.array(text).min(2),
  mysql: z.object({ namespace: text, sourceHost: text, readHost: text, replicas: z.number().int().positive() }),
  toolsImage: text,
  benchmarks: z.array(
    z.object({
      name: text,
      zone: text,
      zoneRelation: z.enum(["same", "cross"]),
      storageClass: text,
      fioProfile: text,
      tools: z.array(text).min(1),
      jobNames: z.array(text).min(1),
    }),
  ),
};

export type FsxEksOutputName = keyof typeof fsxEksOutputs;

/** Reads the named outputs of an fsx-eks stack. */
export function readFsxEks<K extends FsxEksOutputName>(fsxEksStack: string, names: readonly K[], opts?: pulumi.CustomResourceOptions) {
  const picked = Object.fromEntries(names.map((n) => [n, fsxEksOutputs[n]])) as Pick<typeof fsxEksOutputs, K>;
  return readUpstream("lab:fsxEksStack", fsxEksStack, picked, opts, "fsx-eks");
}
