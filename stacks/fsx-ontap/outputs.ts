/**
 * The fsx-ontap stack's outputs, as downstream kinds read them (`lab:fsxOntapStack`): the
 * `fsx-eks` kind (Trident's backend, the benchmark zones, the node rules) and the `kafka` kind.
 * The names and shapes are those stacks/fsx-ontap/index.ts returns.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { MAINTENANCE_WINDOW_RE } from "../../components/fsx-ontap/rules";
import { readUpstream } from "../lib/upstream";

const text = z.string().min(1);
/** An FSx endpoint as exported (components/fsx-ontap/placement.ts `Endpoint`), null when FSx reports none. */
const endpoint = z.object({ dnsName: text, ipAddresses: z.array(text) }).nullable();

/** Output schemas of the `fsx-ontap` kind. */
export const fsxOntapOutputs = {
  fileSystemId: z.string().regex(/^fs-[0-9a-f]{8,17}$/),
  /** `arn:<partition>:fsx:<region>:<account>:file-system/<id>`: Trident's volume permissions are scoped to it. */
  fileSystemArn: z.string().regex(/^arn:[a-z-]+:fsx:[a-z0-9-]+:\d{12}:file-system\/fs-[0-9a-f]{8,17}$/),
  svmId: text,
  svmName: text,
  managementEndpoint: endpoint,
  svmManagementEndpoint: endpoint,
  nfsEndpoint: endpoint,
  iscsiEndpoint: endpoint,
  preferredSubnetId: text,
  /** The preferred file server's zone. */
  preferredAz: text,
  /** The standby file server's zone (Multi-AZ), else the preferred one. */
  standbyAz: text,
  securityGroupId: text,
  kmsKeyArn: text,
  /** The `vsadmin` credentials secret Trident reads (`credentials.type: awsarn`). */
  credentialsSecretArn: text,
  /** The network's private subnets' CIDRs, where the EKS nodes and their pods have addresses: the kafka kind's export policy clients. */
  clientSubnetCidrs: z.array(text).min(1),
  /** Each volume; `style` and `constituentsPerAggregate` are absent from a stack deployed before they were exported. */
  volumes: z.array(
    z.object({
      name: text,
      junctionPath: text,
      id: text,
      style: z.enum(["FLEXVOL", "FLEXGROUP"]).optional(),
      constituentsPerAggregate: z.number().int().positive().optional(),
    }),
  ),
  throughputCapacityMBps: z.number().int().positive(),
  /**
   * The weekly maintenance window (components/fsx-ontap `maintenanceWindow`); optional: a stack
   * deployed before it was exported has none, and its runs record no overlap.
   */
  maintenanceWindow: z.object({ start: z.string().regex(MAINTENANCE_WINDOW_RE), minutes: z.number().int().positive() }).optional(),
};

export type FsxOntapOutputName = keyof typeof fsxOntapOutputs;

/** Reads the named outputs of the fsx-ontap stack named by `lab:fsxOntapStack`. */
export function readFsxOntap<K extends FsxOntapOutputName>(
  fsxOntapStack: string,
  names: readonly K[],
  opts?: pulumi.CustomResourceOptions,
) {
  const picked = Object.fromEntries(names.map((n) => [n, fsxOntapOutputs[n]])) as Pick<typeof fsxOntapOutputs, K>;
  return readUpstream("lab:fsxOntapStack", fsxOntapStack, picked, opts, "fsx-ontap");
}
