/**
 * What the kafka stack needs of its upstream stacks, checked before it registers anything (pure;
 * run through stacks/lib/upstream.ts `whenUpstreamsFit`): the node groups it places brokers,
 * controllers and OMB clients on (they exist, have a node for each pod, the brokers' and the
 * clients' are dedicated so the two never share a node, and each pod's requests fit the group's
 * instance type), the data volumes it mounts (the file system has them), the SVM's NFS endpoint.
 * Each problem names the config key it is about, with the resolved value (given or default).
 */
import { NODE_GROUP_LABEL } from "../../components/eks/rules";
import { eksInstanceTypeInfo } from "../../components/eks/instance-types";
import type { Resources } from "../../components/kafka/rules";
import { DeployTimeError } from "../../components/lib/deploy-error";
import { cpuCores, memoryBytes } from "../../components/lib/kubernetes";
import { argProblem, ArgProblem } from "../../core/errors";

/** A node group as the eks stack exports it (stacks/eks/outputs.ts `nodeGroups`). */
export interface UpstreamNodeGroup {
  readonly name: string;
  readonly instanceType: string;
  readonly nodeCount: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: ReadonlyArray<{ key: string; value: string; effect: string }>;
  /** The zones its nodes run in. */
  readonly zones: readonly string[];
}

/** One workload placed on a node group: its config keys and what each of its pods requests. */
export interface Workload {
  /** The config field naming the node group (`brokerNodeGroup`). */
  readonly groupKey: string;
  readonly group: string;
  /** The config field counting the pods (`brokers`), and the count; pods one a node. */
  readonly countKey?: string;
  readonly count: number;
  /** Tainted for this workload only (brokers, clients). */
  readonly dedicated: boolean;
  /** The config field of the pods' requests and limits (`brokerResources`), and their value. */
  readonly resourcesKey: string;
  readonly resources: Resources;
  /** Plural name for messages. */
  readonly role: string;
  /** The one zone the group's nodes must run in (the file system's preferred zone, `lab:zonePlacement: preferred`); none: wherever. */
  readonly zone?: string;
}

/** The instance types the samples record. */
export interface Placement {
  readonly brokerInstanceType: string;
  readonly clientInstanceType: string;
  readonly controllerInstanceType: string;
  /** The zones the brokers' and the clients' groups run in. */
  readonly brokerGroupZones: readonly string[];
  readonly clientGroupZones: readonly string[];
}

const isDedicated = (g: UpstreamNodeGroup) =>
  g.taints.some((t) => t.key === NODE_GROUP_LABEL && t.value === g.name && t.effect === "NoSchedule");

const findGroup = (groups: readonly UpstreamNodeGroup[], name: string) =>
  groups.find((x) => x.name === name && x.labels[NODE_GROUP_LABEL] === name);

/**
 * Problems of placing `workloads` on the eks stack's node groups. Requests are checked against the
 * instance type's vCPUs and memory: the scheduler places a pod only on a node whose capacity
 * (less what the kubelet reserves) holds the sum of its containers' requests (Kubernetes docs,
 * "Resource Management for Pods and Containers", How Pods with resource requests are scheduled:
 * https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/), so a request
 * above the instance type's own size leaves the pod Pending for ever. Sizes: components/eks/instance-types.ts.
 */
export function placementProblems(groups: readonly UpstreamNodeGroup[], workloads: readonly Workload[]): ArgProblem[] {
  const out: ArgProblem[] = [];
  const names = groups.map((x) => x.name).join(", ");
  for (const w of workloads) {
    const g = findGroup(groups, w.group);
    if (g === undefined) {
      out.push(argProblem(w.groupKey, `a node group of {eksStack} labelled ${NODE_GROUP_LABEL}=<name> (its groups: ${names})`, w.group));
      continue;
    }
    if (w.dedicated && !isDedicated(g))
      out.push(
        argProblem(
          w.groupKey,
          `a dedicated node group of {eksStack} (tainted ${NODE_GROUP_LABEL}=${g.name}:NoSchedule), so no other pod shares the ${w.role}' nodes`,
          w.group,
        ),
      );
    if (w.zone !== undefined && !(g.zones.length === 1 && g.zones[0] === w.zone))
      out.push(
        argProblem(
          w.groupKey,
          `a node group of {eksStack} in the file system's preferred zone ${w.zone} only ({zonePlacement} preferred; it runs in ${g.zones.join(", ")}): give it that zone ("zone" in the eks stack's lab:nodeGroups), or set {zonePlacement} to spread`,
          w.group,
        ),
      );
    if (w.countKey !== undefined && g.nodeCount < w.count)
      out.push(
        argProblem(w.countKey, `at most the ${g.nodeCount} node(s) of node group '${g.name}' ({${w.groupKey}}), one a node`, w.count),
      );
    const info = eksInstanceTypeInfo(g.instanceType);
    if (info !== undefined) {
      const req = w.resources.requests;
      if ((cpuCores(req.cpu) ?? 0) > info.vcpus)
        out.push(
          argProblem(
            `${w.resourcesKey}.requests.cpu`,
            `at most the ${info.vcpus} vCPUs of ${g.instanceType}, the instance type of node group '${g.name}' ({${w.groupKey}})`,
            req.cpu,
          ),
        );
      const mem = memoryBytes(req.memory);
      if (mem !== undefined && mem > info.memoryGiB * 2 ** 30)
        out.push(
          argProblem(
            `${w.resourcesKey}.requests.memory`,
            `at most the ${info.memoryGiB} GiB of ${g.instanceType}, the instance type of node group '${g.name}' ({${w.groupKey}})`,
            req.memory,
          ),
        );
    }
  }
  return out;
}

/**
 * The OMB driver Job on the clients' group (components/omb/manifests.ts: the group's affinity and
 * toleration, no anti-affinity), beside the workers (one a node: a required pod anti-affinity on
 * `kubernetes.io/hostname`). Its requests must fit the instance type alone, and, when a worker runs
 * on every node of the group, together with a worker's: the scheduler places it only on a node
 * that holds both (the same Kubernetes rule as {@link placementProblems}), or the Job waits out its
 * deadline Pending.
 */
export function driverPlacementProblems(
  groups: readonly UpstreamNodeGroup[],
  clientGroup: string,
  workers: number,
  worker: Resources,
  driver: Resources,
): ArgProblem[] {
  const g = findGroup(groups, clientGroup);
  const info = g === undefined ? undefined : eksInstanceTypeInfo(g.instanceType);
  if (g === undefined || info === undefined) return []; // the group itself is placementProblems'
  const out: ArgProblem[] = [];
  const shared = workers >= g.nodeCount;
  const sizes = { cpu: info.vcpus, memory: info.memoryGiB * 2 ** 30 };
  const of = (r: Resources) => ({ cpu: cpuCores(r.requests.cpu) ?? 0, memory: memoryBytes(r.requests.memory) ?? 0 });
  const [d, w] = [of(driver), of(worker)];
  for (const kind of ["cpu", "memory"] as const) {
    const size = kind === "cpu" ? `${info.vcpus} vCPUs` : `${info.memoryGiB} GiB`;
    const where = `of ${g.instanceType}, the instance type of node group '${g.name}' ({clientNodeGroup})`;
    if (d[kind] > sizes[kind])
      out.push(argProblem(`driverResources.requests.${kind}`, `at most the ${size} ${where}`, driver.requests[kind]));
    else if (shared && d[kind] + w[kind] > sizes[kind])
      out.push(
        argProblem(
          `driverResources.requests.${kind}`,
          `at most the ${size} ${where} less an OMB worker's request (${worker.requests[kind]}): a worker runs on each of its ${g.nodeCount} node(s) ({ombWorkers} ${workers}), so the driver shares a node with one`,
          driver.requests[kind],
        ),
      );
  }
  return out;
}

/** The instance types of the groups the brokers, clients and controllers run on (checked before). */
export function placementOf(
  groups: readonly UpstreamNodeGroup[],
  want: { brokerNodeGroup: string; controllerNodeGroup: string; clientNodeGroup: string },
): Placement {
  const type = (name: string) => findGroup(groups, name)?.instanceType ?? "";
  const zones = (name: string) => [...(findGroup(groups, name)?.zones ?? [])];
  return {
    brokerInstanceType: type(want.brokerNodeGroup),
    clientInstanceType: type(want.clientNodeGroup),
    controllerInstanceType: type(want.controllerNodeGroup),
    brokerGroupZones: zones(want.brokerNodeGroup),
    clientGroupZones: zones(want.clientNodeGroup),
  };
}

/**
 * Problems of the data volumes: each must be a junction path of the fsx-ontap stack. ONTAP junction
 * paths are not case-sensitive ("The junction path name is case insensitive and must be unique within
 * a Vserver's namespace", ONTAP command reference, `volume mount`,
 * https://docs.netapp.com/us-en/ontap-cli/volume-mount.html; "/ENG is the same as /eng", ONTAP docs,
 * smb-admin/create-volumes-specified-junction-task.html): a path that
 * differs from the file system's only in case names the same volume, which the kafka stack would mount
 * twice under two names; it is refused, with the file system's spelling.
 */
export function dataVolumeProblems(volumes: ReadonlyArray<{ junctionPath: string }>, dataVolumes: readonly string[]): ArgProblem[] {
  const have = volumes.map((v) => v.junctionPath);
  const out: ArgProblem[] = [];
  const seen = new Map<string, number>();
  dataVolumes.forEach((p, i) => {
    const lower = p.toLowerCase();
    const first = seen.get(lower);
    if (first !== undefined)
      out.push(
        argProblem(
          `dataVolumes[${i}]`,
          `another volume than entry ${first} of {dataVolumes} (ONTAP junction paths are case-insensitive)`,
          p,
        ),
      );
    seen.set(lower, first ?? i);
    if (have.includes(p)) return;
    const sameButCase = have.find((h) => h.toLowerCase() === lower);
    out.push(
      argProblem(
        `dataVolumes[${i}]`,
        sameButCase !== undefined
          ? `spelled as {fsxOntapStack} has it (${sameButCase}): ONTAP junction paths are case-insensitive`
          : `a junction path of a volume of {fsxOntapStack} (its junction paths: ${have.join(", ") || "none"})`,
        p,
      ),
    );
  });
  return out;
}

/** Problem of the SVM's NFS endpoint: the brokers mount its DNS name. */
export function nfsEndpointProblems(endpoint: { dnsName: string } | null, fsxOntapStack: string): ArgProblem[] {
  return endpoint === null || endpoint.dnsName === ""
    ? [argProblem("fsxOntapStack", "the name of an fsx-ontap stack whose SVM has an NFS endpoint (it reports none)", fsxOntapStack)]
    : [];
}

export function svmManagementEndpointProblems(endpoint: { dnsName: string } | null, fsxOntapStack: string): ArgProblem[] {
  return endpoint === null || endpoint.dnsName === ""
    ? [argProblem("fsxOntapStack", "the name of an fsx-ontap stack whose SVM has a management endpoint (it reports none)", fsxOntapStack)]
    : [];
}

/**
 * The vsadmin credentials in the fsx-ontap stack's secret (`{"username":…,"password":…}`,
 * components/fsx-ontap/rules.ts `credentialsSecretString`); anything else is an error naming what is
 * wrong, never the secret's text.
 */
export function vsadminCredentialsOf(text: string): { username: string; password: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new DeployTimeError(["the fsx-ontap stack's credentials secret (credentialsSecretArn) is not JSON"]);
  }
  const o = v as { username?: unknown; password?: unknown } | null;
  if (
    o === null ||
    typeof o !== "object" ||
    typeof o.username !== "string" ||
    typeof o.password !== "string" ||
    o.username === "" ||
    o.password === ""
  )
    throw new DeployTimeError([
      "the fsx-ontap stack's credentials secret (credentialsSecretArn) must hold a JSON object with a non-empty username and password",
    ]);
  return { username: o.username, password: o.password };
}

/**
 * Where the samples' brokers and workers ran: the file system's preferred zone, and with
 * `preferred` every broker's and every worker's zone (each pinned there by a required node affinity),
 * in node ID / worker index order; `zone` and `zoneRelation` (same: no NFS, replication or client
 * traffic crosses a zone) as DESIGN's samples name them. With `spread` the pods go wherever their
 * groups' nodes are: the groups' zones are recorded, and the relation is `cross` when a group has a
 * node outside the preferred zone.
 *
 * These zones are the configured placement (the required node affinity, the node groups' zones from
 * the eks stack), not zones observed on the pods' nodes: `zoneSource: "configured"` says so in every
 * sample (a scheduler cannot put a pod outside a required affinity, but nothing here reads the node).
 */
export function zoneMetadata(
  zonePlacement: "preferred" | "spread",
  preferredAz: string,
  p: Pick<Placement, "brokerGroupZones" | "clientGroupZones">,
  brokers: number,
  workers: number,
): Record<string, string> {
  const common = {
    zoneSource: "configured",
    zonePlacement,
    fsxPreferredAz: preferredAz,
    brokerGroupZones: p.brokerGroupZones.join(","),
    clientGroupZones: p.clientGroupZones.join(","),
  };
  if (zonePlacement === "preferred")
    return {
      ...common,
      zone: preferredAz,
      zoneRelation: "same",
      brokerZones: Array(brokers).fill(preferredAz).join(","),
      workerZones: Array(workers).fill(preferredAz).join(","),
    };
  const cross = [...p.brokerGroupZones, ...p.clientGroupZones].some((z) => z !== preferredAz);
  return { ...common, zoneRelation: cross ? "cross" : "same" };
}

/** A data volume as the fsx-ontap stack exports it (stacks/fsx-ontap/outputs.ts `volumes`). */
interface ExportedVolume {
  readonly junctionPath: string;
  readonly style?: string;
  readonly constituentsPerAggregate?: number;
}

/**
 * `fsxVolumeStyle` for the samples: how the brokers' volumes are laid out in ONTAP
 * (`FLEXGROUP, 8 constituents per aggregate` or `FLEXVOL`), one value when every data volume has
 * the same layout, else each volume's; nothing when the fsx-ontap stack predates the export (no
 * layout is guessed). Junction paths compare ignoring case, as ONTAP's do.
 */
export function volumeStyleMetadata(volumes: readonly ExportedVolume[], dataVolumes: readonly string[]): Record<string, string> {
  const byPath = new Map(volumes.map((v) => [v.junctionPath.toLowerCase(), v]));
  const used = dataVolumes.map((p) => byPath.get(p.toLowerCase()));
  if (used.some((v) => v?.style === undefined)) return {};
  const layout = (v: ExportedVolume) =>
    v.style === "FLEXGROUP" ? `FLEXGROUP, ${v.constituentsPerAggregate ?? "FSx's default"} constituents per aggregate` : String(v.style);
  const layouts = [...new Set(used.map((v) => layout(v!)))];
  return {
    fsxVolumeStyle: layouts.length === 1 ? layouts[0] : used.map((v, i) => `${dataVolumes[i]}: ${layout(v!)}`).join("; "),
  };
}
