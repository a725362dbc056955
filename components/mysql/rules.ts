/**
 * The replicated MySQL 8.4's rules and defaults, in one place (pure). The component (index.ts)
 * resolves and checks its arguments with them; the `fsx-eks` stack's config calls {@link problems}
 * with the `lab:` keys the user typed (renamed: `lab:mysqlReplicas` → `replicas`, …).
 */
import { argProblem, ArgProblem } from "../../core/errors";
import { isInt } from "../../core/checks";
import { isPinnedImage, PINNED_IMAGE_RULE } from "../../core/images";
import {
  CPU_QUANTITY_RULE,
  DNS_LABEL_RULE,
  DNS_SUBDOMAIN_RULE,
  isCpuQuantity,
  isDnsLabel,
  isDnsSubdomain,
  isMemoryQuantity,
  MEMORY_QUANTITY_RULE,
} from "../lib/kubernetes";
import { withDefaults } from "../lib/defaults";
import { MYSQL_IMAGE, XTRABACKUP_IMAGE } from "../versions";

/** The `mysql` image's user and group (docker-library/mysql 8.4/Dockerfile.oracle: uid/gid 999). */
export const MYSQL_UID = 999;
/** The MySQL port, and the port the xtrabackup sidecar streams backups on (the tutorial's 3307). */
export const MYSQL_PORT = 3306;
export const XTRABACKUP_PORT = 3307;

/** The plain arguments of the MySql component. */
export interface MySqlSpec {
  /** Namespace to create (restricted Pod Security profile). @default "mysql" */
  readonly namespace?: string;
  /** StorageClass of each replica's data volume (it must exist). */
  readonly storageClass: string;
  /** Servers: `mysql-0` the source, the others replicas. @default 3 */
  readonly replicas?: number;
  /** Data volume of each server, GiB. @default 50 */
  readonly volumeGiB?: number;
  /** CPU request = limit of the mysql container (Guaranteed QoS with memory), Kubernetes quantity. @default "1" */
  readonly cpu?: string;
  /** Memory request = limit of the mysql container, Kubernetes quantity. @default "2Gi" */
  readonly memory?: string;
  /** Server image, pinned. @default MYSQL_IMAGE ("docker.io/library/mysql:8.4.11") */
  readonly image?: string;
  /** XtraBackup 8.4 image (with socat and the mysql client), pinned. @default XTRABACKUP_IMAGE */
  readonly xtrabackupImage?: string;
}

export const MYSQL_DEFAULTS = {
  namespace: "mysql",
  replicas: 3,
  volumeGiB: 50,
  cpu: "1",
  memory: "2Gi",
  image: MYSQL_IMAGE,
  xtrabackupImage: XTRABACKUP_IMAGE,
} as const;

export type ResolvedMySql = Required<MySqlSpec>;

export function resolve(spec: MySqlSpec): ResolvedMySql {
  return withDefaults(spec, MYSQL_DEFAULTS);
}

export const MAX_REPLICAS = 5;
export const MAX_VOLUME_GIB = 16_384;

/** Every problem of `spec`, in argument order; empty when it is valid. */
export function problems(spec: MySqlSpec): ArgProblem[] {
  const out: ArgProblem[] = [];
  if (spec.namespace !== undefined && !isDnsLabel(spec.namespace)) out.push(argProblem("namespace", DNS_LABEL_RULE, spec.namespace));
  if (!isDnsSubdomain(spec.storageClass))
    out.push(argProblem("storageClass", `a StorageClass name: ${DNS_SUBDOMAIN_RULE}`, spec.storageClass));
  if (spec.replicas !== undefined && !isInt(spec.replicas, 1, MAX_REPLICAS))
    out.push(argProblem("replicas", `an integer from 1 to ${MAX_REPLICAS} (mysql-0 the source, the others replicas)`, spec.replicas));
  if (spec.volumeGiB !== undefined && !isInt(spec.volumeGiB, 1, MAX_VOLUME_GIB))
    out.push(argProblem("volumeGiB", `an integer from 1 to ${MAX_VOLUME_GIB} (GiB)`, spec.volumeGiB));
  if (spec.cpu !== undefined && !isCpuQuantity(spec.cpu)) out.push(argProblem("cpu", CPU_QUANTITY_RULE, spec.cpu));
  if (spec.memory !== undefined && !isMemoryQuantity(spec.memory)) out.push(argProblem("memory", MEMORY_QUANTITY_RULE, spec.memory));
  if (spec.image !== undefined && !isPinnedImage(spec.image)) out.push(argProblem("image", PINNED_IMAGE_RULE, spec.image));
  if (spec.xtrabackupImage !== undefined && !isPinnedImage(spec.xtrabackupImage))
    out.push(argProblem("xtrabackupImage", PINNED_IMAGE_RULE, spec.xtrabackupImage));
  return out;
}
