/**
 * The kafka stack's outputs, as the lab reads them after a deployment (the bootstrap address and the
 * brokers' storage for inspection, the matrix's runs). `results`/`rawOutputs` are read by
 * lab/results/stack-outputs.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { readUpstream } from "../lib/upstream";

const text = z.string().min(1);

/** Output schemas of the `kafka` kind (stacks/kafka/index.ts exports them). */
export const kafkaOutputs = {
  /** `<cluster>-kafka-bootstrap.<namespace>.svc.cluster.local:9092`. */
  bootstrapServers: z.string().regex(/^[a-z0-9.-]+:\d+$/),
  kafkaNamespace: text,
  kafkaVersion: text,
  strimziVersion: text,
  /** The broker pods, also their directories on every data volume. */
  brokerPods: z.array(text).min(1),
  /** The pre-created claims `data-<volumeId>-<cluster>-<pool>-<podId>`, broker by broker. */
  dataClaims: z.array(z.string().regex(/^data-\d+-[a-z0-9-]+-\d+$/)).min(1),
  /** Their static PersistentVolumes, same order. */
  dataVolumes: z.array(text).min(1),
  storageClasses: z.array(text).min(2),
  ombImage: text,
  workerUrls: z.array(z.string().regex(/^http:\/\/[a-z0-9.-]+:\d+$/)).min(2),
  /** The matrix's cells in run order, each with its driver Job. */
  benchmarks: z
    .array(
      z.object({
        name: text,
        driver: z.enum(["kafka-sync", "kafka-throughput"]),
        replicationFactor: z.number().int().positive(),
        jobName: text,
      }),
    )
    .min(1),
};

export type KafkaOutputName = keyof typeof kafkaOutputs;

/** Reads the named outputs of a kafka stack. */
export function readKafka<K extends KafkaOutputName>(kafkaStack: string, names: readonly K[], opts?: pulumi.CustomResourceOptions) {
  const picked = Object.fromEntries(names.map((n) => [n, kafkaOutputs[n]])) as Pick<typeof kafkaOutputs, K>;
  return readUpstream("lab:kafkaStack", kafkaStack, picked, opts);
}
