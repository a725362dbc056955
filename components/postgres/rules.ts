/**
 * The Postgres component's rules and defaults, in one place (pure). The component (index.ts) and
 * its manifests (manifests.ts) resolve and check their arguments with them; names, labels and
 * quantities follow Kubernetes' syntax (components/lib/kubernetes.ts).
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
  isLabelKey,
  isLabelValue,
  isMemoryQuantity,
  LABEL_RULE,
  MEMORY_QUANTITY_RULE,
  memoryBytes,
} from "../lib/kubernetes";
import { POSTGRES_IMAGE } from "../versions";

// Kept for components that took the label checks from here; their home is components/lib/kubernetes.ts.
export { isLabelKey, isLabelValue } from "../lib/kubernetes";

/** The arguments of the Postgres component (all plain values). */
export interface PostgresArgs {
  /** Namespace to create for the server (and the benchmark Jobs). @default POSTGRES_DEFAULTS.namespace */
  readonly namespace?: string;
  /** StorageClass of the data volume (it must exist: pass the component that creates it in `dependsOn`). */
  readonly storageClass: string;
  /** Size of the data volume, GiB. @default POSTGRES_DEFAULTS.volumeGiB (the published setup's) */
  readonly volumeGiB?: number;
  /** CPU request = limit, a Kubernetes quantity. @default POSTGRES_DEFAULTS.cpu (the published setup's) */
  readonly cpu?: string;
  /** Memory request = limit, a Kubernetes quantity. @default POSTGRES_DEFAULTS.memory (the published setup's) */
  readonly memory?: string;
  /**
   * 2 MiB huge pages requested = limited (`hugepages-2Mi`), a Kubernetes memory quantity, a whole
   * number of 2 MiB pages; "0" requests none. The node must reserve them (K0sCluster `hugepages2Mi`).
   * The published server requests 64Mi (k8s/base/postgres.deployment.yaml lines 31 and 35).
   * With PostgreSQL's default `huge_pages = try` ("try to request huge pages, but fall back to the
   * default if that fails", PostgreSQL docs) and the default 128 MB of shared_buffers, the shared
   * memory segment is larger than 64 MiB: whether the server then runs on huge pages at all
   * depends on the container runtime's hugetlb reservation limit. Where the runtime sets only the
   * fault-time limit, the server dies of SIGBUS ("terminated by signal 7: Bus error",
   * docker-library/postgres#946, kubernetes/kubernetes#71233): then set this to "0" and the nodes'
   * huge pages to 0, and the report records the difference.
   * @default POSTGRES_DEFAULTS.hugepages2Mi
   */
  readonly hugepages2Mi?: string;
  /** Image, pinned by tag or digest. @default POSTGRES_DEFAULTS.image (POSTGRES_IMAGE of components/versions.ts) */
  readonly image?: string;
  /** Node labels the server's pod must carry (`nodeSelector`), to pin it to one node. @default POSTGRES_DEFAULTS.nodeSelector (any node) */
  readonly nodeSelector?: Readonly<Record<string, string>>;
}

/**
 * Defaults of {@link PostgresArgs} and of the server's fixed settings: the published setup's
 * 1 CPU / 4 GiB and 64 GiB volume; the superuser and database pgbench connects to; the port.
 */
export const POSTGRES_DEFAULTS = {
  namespace: "bench",
  volumeGiB: 64,
  cpu: "1",
  memory: "4Gi",
  hugepages2Mi: "64Mi",
  image: POSTGRES_IMAGE,
  nodeSelector: {} as Readonly<Record<string, string>>,
  user: "postgres",
  database: "pgbench",
  port: 5432,
} as const;

export type ResolvedPostgres = Required<PostgresArgs>;

/** One 2 MiB huge page, bytes. */
export const HUGEPAGE_2MI_BYTES = 2 * 2 ** 20;

/** The huge pages a request asks for: "64Mi" → 32; 0 for "0". */
export function hugepages2MiCount(quantity: string): number {
  return (memoryBytes(quantity) ?? 0) / HUGEPAGE_2MI_BYTES;
}

/** Defaults applied. */
export function resolve(args: PostgresArgs): ResolvedPostgres {
  const d = POSTGRES_DEFAULTS;
  return {
    namespace: args.namespace ?? d.namespace,
    storageClass: args.storageClass,
    volumeGiB: args.volumeGiB ?? d.volumeGiB,
    cpu: args.cpu ?? d.cpu,
    memory: args.memory ?? d.memory,
    hugepages2Mi: args.hugepages2Mi ?? d.hugepages2Mi,
    image: args.image ?? d.image,
    nodeSelector: args.nodeSelector ?? d.nodeSelector,
  };
}

/** Every problem of `args`, in argument order; empty when they are valid. */
export function problems(args: PostgresArgs): ArgProblem[] {
  const out: ArgProblem[] = [];
  const r = resolve(args);
  if (!isDnsLabel(r.namespace)) out.push(argProblem("namespace", `a namespace name, ${DNS_LABEL_RULE}`, r.namespace));
  if (!isDnsSubdomain(r.storageClass)) out.push(argProblem("storageClass", `a StorageClass name, ${DNS_SUBDOMAIN_RULE}`, r.storageClass));
  if (!isInt(r.volumeGiB, 1)) out.push(argProblem("volumeGiB", "a whole number of GiB, at least 1", r.volumeGiB));
  if (!isCpuQuantity(r.cpu)) out.push(argProblem("cpu", CPU_QUANTITY_RULE, r.cpu));
  if (!isMemoryQuantity(r.memory)) out.push(argProblem("memory", MEMORY_QUANTITY_RULE, r.memory));
  const pages = memoryBytes(r.hugepages2Mi);
  if (pages === undefined || pages % HUGEPAGE_2MI_BYTES !== 0)
    out.push(
      argProblem("hugepages2Mi", 'a Kubernetes memory quantity of whole 2 MiB pages (e.g. "64Mi"), or "0" for none', r.hugepages2Mi),
    );
  if (!isPinnedImage(r.image)) out.push(argProblem("image", PINNED_IMAGE_RULE, r.image));
  const sel = r.nodeSelector as unknown;
  if (sel === null || typeof sel !== "object" || Array.isArray(sel)) {
    out.push(argProblem("nodeSelector", 'an object of node labels (e.g. {"storage-bench-lab/worker": "1"})', sel));
  } else {
    for (const [k, v] of Object.entries(sel)) {
      if (!isLabelKey(k) || !isLabelValue(v)) out.push(argProblem(`nodeSelector.${k}`, LABEL_RULE, v));
    }
  }
  return out;
}
