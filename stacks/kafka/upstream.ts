/**
 * What the kafka stack needs of its upstream stacks, checked when their outputs arrive (pure): the
 * node groups it places brokers, controllers and OMB clients on (they exist, are big enough, and
 * the brokers' and the clients' are dedicated, so the two never share a node), the data volumes it
 * mounts (the file system has them), the SVM's NFS endpoint. Errors name the upstream stack, the
 * key that named it, and what is missing.
 */
import { NODE_GROUP_LABEL } from "../../components/eks/rules";

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

/** Where each workload goes, and how many pods need a node of their own. */
export interface PlacementWanted {
  readonly brokerNodeGroup: string;
  readonly controllerNodeGroup: string;
  readonly clientNodeGroup: string;
  readonly brokers: number;
  readonly workers: number;
  /** The zone the brokers and the OMB clients must run in (the file system's preferred zone), or undefined for wherever their groups run. */
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

/** Checks the node groups of the eks stack `eksStack` against `want`; throws naming every mismatch. */
export function checkPlacement(groups: readonly UpstreamNodeGroup[], want: PlacementWanted, eksStack: string): Placement {
  const problems: string[] = [];
  const find = (role: string, key: string, name: string, pods: number, dedicated: boolean): UpstreamNodeGroup | undefined => {
    const g = groups.find((x) => x.name === name && x.labels[NODE_GROUP_LABEL] === name);
    if (g === undefined) {
      problems.push(
        `no node group '${name}' (lab:${key}) labelled ${NODE_GROUP_LABEL}=${name}; it has ${groups.map((x) => x.name).join(", ")}`,
      );
      return undefined;
    }
    if (dedicated && !isDedicated(g))
      problems.push(
        `node group '${name}' (lab:${key}) is not dedicated (tainted ${NODE_GROUP_LABEL}=${name}:NoSchedule): other pods could share the ${role}' nodes`,
      );
    if (g.nodeCount < pods) problems.push(`node group '${name}' (lab:${key}) has ${g.nodeCount} node(s) for ${pods} ${role}, one a node`);
    if (dedicated && want.zone !== undefined && !(g.zones.length === 1 && g.zones[0] === want.zone))
      problems.push(
        `node group '${name}' (lab:${key}) runs in ${g.zones.join(", ")}, not only in the file system's preferred zone ${want.zone} (lab:zonePlacement preferred): give it that zone ("zone" in the eks stack's lab:nodeGroups), or set lab:zonePlacement to spread`,
      );
    return g;
  };
  const brokers = find("brokers", "brokerNodeGroup", want.brokerNodeGroup, want.brokers, true);
  const controllers = find("controllers", "controllerNodeGroup", want.controllerNodeGroup, 1, false);
  const clients = find("OMB workers", "clientNodeGroup", want.clientNodeGroup, want.workers, true);
  if (problems.length > 0 || !brokers || !controllers || !clients)
    throw new Error(`upstream stack '${eksStack}' (from 'lab:eksStack') does not fit this Kafka stack: ${problems.join("; ")}`);
  return {
    brokerInstanceType: brokers.instanceType,
    clientInstanceType: clients.instanceType,
    controllerInstanceType: controllers.instanceType,
    brokerGroupZones: [...brokers.zones],
    clientGroupZones: [...clients.zones],
  };
}

/**
 * Where the samples' brokers and workers ran: the file system's preferred zone, and with
 * `preferred` every broker's and every worker's zone (each pinned there by a required node affinity),
 * in node ID / worker index order; `zone` and `zoneRelation` (same: no NFS, replication or client
 * traffic crosses a zone) as DESIGN's samples name them. With `spread` the pods go wherever their
 * groups' nodes are: the groups' zones are recorded, and the relation is `cross` when a group has a
 * node outside the preferred zone.
 */
export function zoneMetadata(
  zonePlacement: "preferred" | "spread",
  preferredAz: string,
  p: Pick<Placement, "brokerGroupZones" | "clientGroupZones">,
  brokers: number,
  workers: number,
): Record<string, string> {
  const common = {
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

/** Checks that the fsx-ontap stack has every data volume; throws naming the missing ones. */
export function checkDataVolumes(
  volumes: ReadonlyArray<{ name: string; junctionPath: string }>,
  dataVolumes: readonly string[],
  fsxOntapStack: string,
): void {
  const have = new Set(volumes.map((v) => v.junctionPath));
  const missing = dataVolumes.filter((p) => !have.has(p));
  if (missing.length > 0)
    throw new Error(
      `upstream stack '${fsxOntapStack}' (from 'lab:fsxOntapStack') has no volume at ${missing.join(", ")} (lab:dataVolumes); its junction paths are ${[...have].join(", ") || "none"}`,
    );
}

/** The SVM's NFS endpoint (its DNS name, which follows the Multi-AZ failover). */
export function nfsServerOf(endpoint: { dnsName: string; ipAddresses: string[] } | null, fsxOntapStack: string): string {
  if (endpoint === null || endpoint.dnsName === "")
    throw new Error(`upstream stack '${fsxOntapStack}' (from 'lab:fsxOntapStack') reports no NFS endpoint for its SVM`);
  return endpoint.dnsName;
}
